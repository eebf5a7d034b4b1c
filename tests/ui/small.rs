//! The window at 900×600: every control of each view lies within the window's width (a view
//! taller than the window scrolls; none is cut at its right edge), and Browse keeps rows of
//! its grid in view with an item open.

use dynoscope_core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT as _, Queryable};

use crate::*;

/// The controls (buttons, fields, boxes) whose right edge is past `width`, by label.
fn cut(h: &egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>, width: f32) -> Vec<String> {
    let controls = [
        Role::Button,
        Role::TextInput,
        Role::MultilineTextInput,
        Role::CheckBox,
        Role::ComboBox,
        Role::RadioButton,
        Role::Link,
    ];
    h.query_all_by(|n| controls.contains(&n.role()))
        .filter(|n| {
            let rect = n.rect();
            rect.width() > 0.0 && rect.right() > width + 0.5 && rect.left() < width
        })
        .map(|n| {
            let node = n.accesskit_node();
            format!(
                "{:?} {:?} at {:.0}..{:.0}",
                n.accesskit_node().role(),
                node.label().or_else(|| node.value()).unwrap_or_default(),
                n.rect().left(),
                n.rect().right()
            )
        })
        .collect()
}

#[test]
fn at_900_by_600_no_control_is_cut_in_any_view() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(900.0, 600.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    // The table's details stay out of a narrow window's way until asked for.
    assert!(!has_label(h, "Price as"), "no details panel at 900 wide");
    h.get_by_role_and_label(Role::Button, "Show details")
        .click();
    step_until(h, "the details", |h| has_label(h, "Price as"));
    h.get_by_role_and_label(Role::Button, "Hide details")
        .click();
    step_until(h, "the details hidden", |h| !has_label(h, "Price as"));
    let mut found = Vec::new();
    found.extend(cut(h, 900.0).into_iter().map(|c| format!("Browse: {c}")));
    // An item open: the grid keeps rows in view beside the item and its counter editor.
    h.get_by_label("META").click();
    for _ in 0..5 {
        h.step();
    }
    found.extend(
        cut(h, 900.0)
            .into_iter()
            .map(|c| format!("Browse with an item: {c}")),
    );
    for view in [
        "Items",
        "Tally check",
        "Watch",
        "Like lab",
        "Expressions",
        "Import / Export",
        "Table",
    ] {
        h.get_by_role_and_label(Role::Button, view).click();
        for _ in 0..8 {
            h.step();
        }
        found.extend(cut(h, 900.0).into_iter().map(|c| format!("{view}: {c}")));
    }
    assert!(
        found.is_empty(),
        "cut at the right edge:\n{}",
        found.join("\n")
    );
}

/// Where the grid's first row (of the post's collection) starts: what is above it takes the
/// grid's rows.
fn first_row_top(h: &egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>) -> f32 {
    h.query_all_by(|n| {
        n.value()
            .is_some_and(|v| v == "META" || v.starts_with("LIKE#USER#"))
    })
    .map(|n| n.rect().top())
    .fold(f32::INFINITY, f32::min)
}

#[test]
fn at_900_by_600_the_query_form_folds_to_one_line_once_rows_are_read() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(900.0, 600.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    // Folded: the query in a line beside its buttons; the form's fields are gone.
    step_until(h, "the folded form", |h| {
        has_label(h, "Query PK = POST#a91f")
    });
    assert!(!has_label(h, "Page size"), "the form's fields are folded");
    h.get_by_role_and_label(Role::Button, "Load all");
    let folded = first_row_top(h);
    // Opened: the whole form, which takes the grid's rows.
    h.get_by_role_and_label(Role::Button, "Edit the query")
        .click();
    step_until(h, "the whole form", |h| has_label(h, "Page size"));
    let open = first_row_top(h);
    // A row is 23 points high: folding gives the grid at least two more.
    assert!(
        open - folded >= 46.0,
        "folding gives the grid rows: its first row at {folded} folded, {open} open"
    );
    eprintln!("the grid's first row at {folded} folded, {open} open");
    // A run from the opened form folds it again; Fold folds it by hand.
    h.get_by_role_and_label(Role::Button, "Run query").click();
    step_until(h, "folded after the run", |h| !has_label(h, "Page size"));
    h.get_by_role_and_label(Role::Button, "Edit the query")
        .click();
    step_until(h, "the whole form", |h| has_label(h, "Page size"));
    h.get_by_role_and_label(Role::Button, "Fold the query")
        .click();
    step_until(h, "folded by hand", |h| !has_label(h, "Page size"));
    // Folded, the grid's rows start above the window's first 230 points: 16 rows in view.
    assert!(folded < 230.0, "the first row at {folded}, folded");
}

#[test]
fn at_1280_by_800_an_open_item_leaves_its_collection_in_view() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    query_partition(h, "POST#d71e");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#0228"));
    h.get_by_label("LIKE#USER#0228").click();
    step_until(h, "the item open", |h| has_label(h, "Item JSON"));
    for _ in 0..5 {
        h.step();
    }
    // The item view starts where its header does; the grid's rows above it are in view.
    let item_top = h.get_by_role_and_label(Role::Button, "Reload").rect().top();
    let rows = h
        .query_all_by(|n| n.value().is_some_and(|v| v.starts_with("LIKE#USER#")))
        .filter(|n| n.rect().bottom() <= item_top)
        .count();
    assert!(
        rows >= 8,
        "an open item leaves {rows} rows of its collection in view (the item view at {item_top})"
    );
}
