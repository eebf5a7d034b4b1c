//! The grid view's logic without a window: columns, sort, find, the cursor and the selection
//! as pages arrive.

use aws_sdk_dynamodb::types::AttributeValue;

use super::Results;
use dynoscope_core::value::Item;

fn like(sk: &str, n: &str, extra: &[(&str, &str)]) -> Item {
    let mut item = Item::from([
        ("PK".to_owned(), AttributeValue::S("POST#a91f".into())),
        ("SK".to_owned(), AttributeValue::S(sk.into())),
        ("n".to_owned(), AttributeValue::N(n.into())),
    ]);
    for (name, text) in extra {
        item.insert((*name).to_owned(), AttributeValue::S((*text).into()));
    }
    item
}

fn results(items: &[Item]) -> Results {
    let mut results = Results::for_rows(vec!["PK".into(), "SK".into()], 1);
    results.add_items(items);
    results
}

fn sks(results: &Results) -> Vec<String> {
    (0..results.view().len())
        .filter_map(|p| results.row_at(p))
        .filter_map(|r| results.rows.item(r))
        .map(|item| dynoscope_core::value::cell_text(&item["SK"]))
        .collect()
}

#[test]
fn columns_put_the_keys_first_then_every_name_seen_in_order() {
    let mut results = results(&[like("A", "1", &[("zeta", "z"), ("Alpha", "a")])]);
    assert_eq!(results.shown_columns(), ["PK", "SK", "Alpha", "n", "zeta"]);
    results.add_items(&[like("B", "2", &[("beta", "b")])]);
    assert_eq!(
        results.shown_columns(),
        ["PK", "SK", "Alpha", "beta", "n", "zeta"]
    );
    results.show_column("n", false);
    assert_eq!(
        results.shown_columns(),
        ["PK", "SK", "Alpha", "beta", "zeta"]
    );
    // Moved, the order holds for the next page's new names too (they come after), and for a
    // new run, which keeps the layout.
    results.move_column("zeta", -3);
    assert_eq!(
        results.shown_columns(),
        ["PK", "SK", "zeta", "Alpha", "beta"]
    );
    results.add_items(&[like("C", "3", &[("gamma", "g")])]);
    assert_eq!(
        results.shown_columns(),
        ["PK", "SK", "zeta", "Alpha", "beta", "gamma"]
    );
    assert_eq!(results.hidden_count(), 1);
    results.reset_order();
    assert_eq!(results.shown_columns()[2], "Alpha");
}

#[test]
fn a_header_sorts_up_then_down_then_back_to_the_servers_order_exactly() {
    let big = "98765432109876543210987654321098765432";
    let mut results = results(&[
        like("A", "10", &[]),
        like("B", "9", &[]),
        like("C", big, &[]),
        like("D", "-0.5", &[]),
    ]);
    results.toggle_sort("n");
    assert_eq!(sks(&results), ["D", "B", "A", "C"], "as numbers, not text");
    results.toggle_sort("n");
    assert_eq!(sks(&results), ["C", "A", "B", "D"]);
    results.toggle_sort("n");
    assert_eq!(
        sks(&results),
        ["A", "B", "C", "D"],
        "the server's order again"
    );
}

#[test]
fn a_page_arriving_in_a_sorted_view_is_merged_and_the_cursor_stays_on_its_row() {
    let mut results = results(&[like("A", "5", &[]), like("B", "1", &[])]);
    results.toggle_sort("n");
    assert_eq!(sks(&results), ["B", "A"]);
    // The cursor on A (position 1), then a page with a smaller number arrives.
    results.move_cursor(1, 2, false);
    results.add_items(&[like("C", "0", &[])]);
    assert_eq!(sks(&results), ["C", "B", "A"]);
    assert_eq!(results.cursor_position(), Some((2, 2)), "still on A");
    assert_eq!(results.selected_rows(), [0], "A (row 0) still selected");
}

#[test]
fn find_highlights_or_filters_and_steps_through_matches_round() {
    let mut results = results(&[
        like("LIKE#USER#7c20", "1", &[]),
        like("META", "2", &[]),
        like("LIKE#USER#0a11", "3", &[]),
    ]);
    results.open_find();
    results.set_find("like#user", false);
    results.advance_find(100);
    assert_eq!(results.view().len(), 3, "highlighting keeps every row");
    assert_eq!(results.find.matches(), [0, 2]);
    assert_eq!(results.cursor(), Some((0, 1)), "the first match, on SK");
    results.step_match(true);
    assert_eq!(results.cursor().map(|c| c.0), Some(2));
    assert_eq!(results.scroll_to, Some((2, Some(1))));
    results.step_match(true);
    assert_eq!(results.cursor().map(|c| c.0), Some(0), "round to the first");
    results.step_match(false);
    assert_eq!(results.cursor().map(|c| c.0), Some(2), "and back");
    results.set_find("like#user", true);
    assert_eq!(sks(&results), ["LIKE#USER#7c20", "LIKE#USER#0a11"]);
    assert_eq!(results.cursor_position(), Some((1, 1)), "still on its item");
    // A page arriving while filtered shows only what matches, once looked at.
    results.add_items(&[like("LIKE#USER#ffff", "4", &[]), like("X", "5", &[])]);
    results.advance_find(100);
    assert_eq!(sks(&results).len(), 3);
    results.close_find();
    assert_eq!(results.view().len(), 5, "every row again");
    assert!(results.find.matches().is_empty());
}

#[test]
fn find_as_you_type_takes_the_cursor_to_the_first_match_when_it_is_found_and_sideways() {
    let mut rows: Vec<Item> = (0..10)
        .map(|i| like(&format!("S{i:02}"), &i.to_string(), &[]))
        .collect();
    rows.push(like("S10", "10", &[("name", "user4242")]));
    let mut results = results(&rows);
    results.toggle_sort("n");
    results.toggle_sort("n");
    assert_eq!(sks(&results)[0], "S10", "largest n first");
    results.move_cursor(5, 0, false);
    results.open_find();
    // Typed a letter at a time, each text narrowing the last one's matches.
    for (typed, _) in "user4242".char_indices() {
        let text = &"user4242"[..=typed];
        results.set_find(text, false);
        results.advance_find(100);
    }
    assert_eq!(results.find.matches(), [10]);
    let name = results.shown_columns().iter().position(|c| *c == "name");
    assert_eq!(
        results.cursor(),
        Some((10, name.unwrap())),
        "on the name cell"
    );
    assert_eq!(results.selected(), Some(10), "the match is the open item");
    assert_eq!(
        results.take_scroll(),
        Some((0, name)),
        "scrolled down and sideways"
    );
    // Sorted the other way, the match moves; the cursor stays on it.
    results.toggle_sort("n");
    assert_eq!(results.cursor_position().map(|p| p.0), Some(10));
    assert_eq!(results.take_scroll(), Some((10, None)));
}

#[test]
fn a_search_of_many_rows_goes_a_slice_a_frame_and_jumps_once_found() {
    let mut rows: Vec<Item> = (0..20)
        .map(|i| like(&format!("S{i:02}"), "1", &[]))
        .collect();
    rows.push(like("NEEDLE", "1", &[]));
    let mut results = results(&rows);
    results.open_find();
    results.find.text = "needle".into();
    results.find.scan = dynoscope_core::rows::Finder::new("needle")
        .map(|f| dynoscope_core::rows::FindScan::new(f, None));
    results.find.jump = true;
    assert!(results.advance_find(8), "8 of 21 looked at");
    assert!(results.searching() && results.cursor().is_none());
    assert!(results.advance_find(8));
    assert!(!results.advance_find(8), "all 21 looked at");
    assert_eq!(results.cursor().map(|c| c.0), Some(20), "jumped once found");
}

#[test]
fn the_selection_runs_from_the_anchor_to_the_cursor_and_a_row_read_again_replaces_it() {
    let mut results = results(&[
        like("A", "1", &[]),
        like("B", "2", &[]),
        like("C", "3", &[]),
    ]);
    assert!(results.selected_rows().is_empty());
    results.move_cursor(0, 0, false);
    results.move_cursor(2, 0, true);
    assert_eq!(results.selected_rows(), [0, 1, 2]);
    assert_eq!(results.selected_count(), 3);
    // Sorting keeps the same items selected, the cursor on C.
    results.toggle_sort("n");
    results.toggle_sort("n");
    assert_eq!(results.selected_rows(), [2, 1, 0], "in the new order");
    assert_eq!(results.cursor_position(), Some((0, 0)));
    results.move_cursor(1, 0, false);
    assert_eq!(results.selected_rows(), [1]);
    assert_eq!(
        results.selected(),
        Some(1),
        "the cursor's row is the open item"
    );
    let key = Item::from([
        ("PK".to_owned(), AttributeValue::S("POST#a91f".into())),
        ("SK".to_owned(), AttributeValue::S("B".into())),
    ]);
    let row = results.row_with_key(&key).expect("B is loaded");
    results.replace_row(row, &like("B", "42", &[]));
    let selected = results.selected_item().expect("selected");
    assert_eq!(selected["n"], AttributeValue::N("42".into()));
}

#[test]
fn the_cursor_moves_within_the_rows_shown_and_hiding_a_column_takes_it_off() {
    let mut results = results(&[
        like("A", "1", &[("x", "1")]),
        like("B", "2", &[]),
        like("C", "3", &[]),
    ]);
    results.move_cursor(1, 2, false);
    assert_eq!(
        (results.cursor_position(), results.has_anchor()),
        (Some((1, 2)), true)
    );
    // Shift+Down twice: past the end is the last row, the range from where it began.
    results.move_cursor(2, 2, true);
    results.move_cursor(9, 2, true);
    assert_eq!(results.cursor_position(), Some((2, 2)));
    assert_eq!(results.selected_rows(), [1, 2]);
    assert_eq!(results.take_scroll(), Some((2, None)));
    assert_eq!(results.take_scroll(), None, "once");
    results.select_all();
    assert_eq!(results.selected_rows(), [0, 1, 2]);
    results.open_at(1);
    assert_eq!(results.selected(), Some(1));
    results.show_column("SK", false);
    assert!(!results.is_hidden("SK"), "a key attribute is always shown");
    results.show_column("x", false);
    assert!(results.is_hidden("x") && results.cursor().is_none());
    results.show_all_columns(false);
    assert_eq!(results.shown_columns(), ["PK", "SK"]);
    results.show_all_columns(true);
    assert_eq!(results.hidden_count(), 0);
    results.close_item();
    assert_eq!(results.selected(), None);
}

#[test]
fn each_result_set_has_its_own_grid_kept_across_its_runs() {
    use dynoscope_core::condition::ScalarType;
    use dynoscope_core::read::BrowseRequest;
    use dynoscope_core::table::{KeyAttr, TableInfo};
    let (mut one, other) = (Results::default(), Results::default());
    assert_ne!(
        one.grid_id(),
        other.grid_id(),
        "another tab scrolls on its own"
    );
    let before = one.grid_id();
    let key = |name: &str| KeyAttr::new(name, ScalarType::S);
    let info = TableInfo::with_keys("Social", key("PK"), Some(key("SK")));
    one.start(
        BrowseRequest::scan(&info, None).unwrap(),
        vec!["PK".into()],
        None,
    );
    assert_eq!(
        one.grid_id(),
        before,
        "a run again keeps its widths and place"
    );
}

#[test]
fn deleted_rows_leave_the_grid_and_the_rest_keep_their_order_and_selection() {
    let mut results = results(&[
        like("A", "3", &[]),
        like("B", "1", &[]),
        like("C", "2", &[]),
        like("D", "5", &[]),
    ]);
    results.toggle_sort("n");
    results.select_all();
    results.open_row(1);
    let key = |sk: &str| {
        Item::from([
            ("PK".to_owned(), AttributeValue::S("POST#a91f".into())),
            ("SK".to_owned(), AttributeValue::S(sk.into())),
        ])
    };
    assert_eq!(results.remove_rows(&[key("B"), key("D"), key("nope")]), 2);
    assert_eq!(results.rows.len(), 2);
    assert_eq!(sks(&results), ["C", "A"], "still sorted by n");
    assert_eq!(results.selected_count(), 2, "the rest stay selected");
    assert_eq!(results.selected(), None, "the opened row was deleted");
    assert_eq!(results.remove_rows(&[key("nope")]), 0);
}
