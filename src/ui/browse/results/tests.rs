//! The grid view's logic without a window: columns, sort, find, the cursor and the selection
//! as pages arrive.

use aws_sdk_dynamodb::types::AttributeValue;

use super::Results;
use crate::core::value::Item;

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
    (0..results.view.len())
        .filter_map(|p| results.row_at(p))
        .filter_map(|r| results.rows.item(r))
        .map(|item| crate::core::value::cell_text(&item["SK"]))
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
    results.hidden.insert("n".into());
    assert_eq!(
        results.shown_columns(),
        ["PK", "SK", "Alpha", "beta", "zeta"]
    );
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
    results.cursor = Some((1, 2));
    results.anchor = Some(1);
    results.add_items(&[like("C", "0", &[])]);
    assert_eq!(sks(&results), ["C", "B", "A"]);
    assert_eq!(results.cursor, Some((2, 2)), "still on A");
    assert_eq!(results.anchor, Some(2));
}

#[test]
fn find_highlights_or_filters_and_steps_through_matches_round() {
    let mut results = results(&[
        like("LIKE#USER#7c20", "1", &[]),
        like("META", "2", &[]),
        like("LIKE#USER#0a11", "3", &[]),
    ]);
    results.find.open = true;
    results.set_find("like#user", false);
    assert_eq!(results.view.len(), 3, "highlighting keeps every row");
    assert_eq!(results.find.matches, [0, 2]);
    results.step_match(true);
    assert_eq!(results.cursor.map(|c| c.0), Some(2));
    assert_eq!(results.scroll_to, Some(2));
    results.step_match(true);
    assert_eq!(results.cursor.map(|c| c.0), Some(0), "round to the first");
    results.step_match(false);
    assert_eq!(results.cursor.map(|c| c.0), Some(2), "and back");
    results.set_find("like#user", true);
    assert_eq!(sks(&results), ["LIKE#USER#7c20", "LIKE#USER#0a11"]);
    // A page arriving while filtered shows only what matches.
    results.add_items(&[like("LIKE#USER#ffff", "4", &[]), like("X", "5", &[])]);
    assert_eq!(sks(&results).len(), 3);
    results.close_find();
    assert_eq!(results.view.len(), 5, "every row again");
    assert!(results.find.matches.is_empty());
}

#[test]
fn the_selection_runs_from_the_anchor_to_the_cursor_and_a_row_read_again_replaces_it() {
    let mut results = results(&[
        like("A", "1", &[]),
        like("B", "2", &[]),
        like("C", "3", &[]),
    ]);
    assert_eq!(results.selected_positions(), 0..0);
    results.cursor = Some((2, 0));
    results.anchor = Some(0);
    assert_eq!(results.selected_positions(), 0..3);
    results.anchor = None;
    assert_eq!(results.selected_positions(), 2..3);
    results.selected = Some(1);
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
        (results.cursor(), results.has_anchor()),
        (Some((1, 2)), true)
    );
    // Shift+Down twice: past the end is the last row, the range from where it began.
    results.move_cursor(2, 2, true);
    results.move_cursor(9, 2, true);
    assert_eq!(results.cursor(), Some((2, 2)));
    assert_eq!(results.selected_positions(), 1..3);
    assert_eq!(results.take_scroll(), Some(2));
    assert_eq!(results.take_scroll(), None, "once");
    results.select_all();
    assert_eq!(results.selected_positions(), 0..3);
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
