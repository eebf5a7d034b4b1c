//! The grid's layout and its refresh: columns moved, hidden and dated kept for the table after
//! a reconnect; an auto-refresh's Refresh now tinting the rows another writer added and changed.

use dynoscope_core::connection::ConnectionSpec;
use egui::Key;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

use crate::*;

#[test]
fn columns_moved_hidden_and_dated_stay_for_the_table_after_a_reconnect() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    // Wide enough that every column of the post is drawn (columns are virtual).
    h.set_size(egui::vec2(2600.0, 900.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    let left_of = |h: &egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>, a: &str, b: &str| {
        h.get_by_role_and_label(Role::Button, a).rect().left()
            < h.get_by_role_and_label(Role::Button, b).rect().left()
    };
    assert!(left_of(h, "author", "likedAt"), "sorted by name at first");
    h.get_by_role_and_label(Role::Button, "Columns").click();
    step_until(h, "the chooser", |h| has_label(h, "Reset order"));
    // To the first place (8 moves), and once more where it can go no further.
    for _ in 0..9 {
        h.get_by_label("Move likedAt up").click();
        h.step();
        h.step();
    }
    h.get_by_role_and_label(Role::CheckBox, "author").click();
    h.step();
    h.get_by_label("Dates of likedAt").click();
    h.step();
    h.key_press(Key::Escape);
    step_until(h, "the menu closed", |h| !has_label(h, "Reset order"));
    step_until(h, "the dated header", |h| has_label(h, "likedAt · dates"));
    assert!(has_label(h, "Columns (1 hidden)"));
    assert!(
        left_of(h, "likedAt · dates", "archivedAt"),
        "moved before the first: {:?}",
        h.state().remembered().columns
    );
    // The date beside the value, which stays as stored.
    assert!(has_label(h, "1750636800  2025-06-23 00:00:00 UTC"));
    let remembered = h.state().remembered().columns;
    let social = &remembered["Social"];
    assert_eq!(social.order.first().map(String::as_str), Some("likedAt"));
    assert!(social.hidden.contains("author") && social.dates.contains("likedAt"));

    // Reconnected, the same table's grid is laid out as it was left.
    h.get_by_role_and_label(Role::Button, "Connect").click();
    step_until(h, "the note", |h| {
        has_label_containing(h, "same in-memory sandbox")
    });
    step_until(h, "the kept query", |h| has_label(h, "Run query"));
    h.get_by_role_and_label(Role::Button, "Run query").click();
    step_until(h, "the results again", |h| has_label(h, "LIKE#USER#7c20"));
    step_until(h, "the layout kept", |h| has_label(h, "likedAt · dates"));
    assert!(left_of(h, "likedAt · dates", "archivedAt"));
    assert!(!has_label(h, "author") && has_label(h, "Columns (1 hidden)"));
}

#[test]
fn a_refresh_tints_the_rows_another_writer_added_and_changed() {
    use aws_sdk_dynamodb::types::AttributeValue as V;
    let outside = outside_sandbox();
    let mut app = start(endpoint(outside.sandbox.endpoint()), Some("Social"));
    let h = &mut app.harness;
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    assert!(has_label(h, "Auto-refresh"), "offered, off by default");
    h.get_by_label("Auto-refresh").click();
    step_until(h, "the intervals", |h| has_label(h, "every 10 s"));
    h.get_by_label("every 10 s").click();
    step_until(h, "on", |h| has_label(h, "Refresh now"));
    // Another writer likes the post and bumps its tally.
    let s = |t: &str| V::S(t.to_owned());
    outside.runtime.block_on(async {
        let c = &outside.client;
        c.put_item()
            .table_name("Social")
            .item("PK", s("POST#a91f"))
            .item("SK", s("LIKE#USER#0new"))
            .send()
            .await
            .unwrap();
        c.update_item()
            .table_name("Social")
            .key("PK", s("POST#a91f"))
            .key("SK", s("META"))
            .update_expression("ADD likeTally :one")
            .expression_attribute_values(":one", V::N("1".into()))
            .send()
            .await
            .unwrap();
    });
    h.get_by_role_and_label(Role::Button, "Refresh now").click();
    step_until(h, "the changes", |h| {
        has_label_containing(h, "on demand per refresh · 1 added, 1 changed, 0 removed")
    });
    assert!(has_label(h, "LIKE#USER#0new"));
    // The next refresh finds nothing new: what the first found stays listed until seen.
    h.get_by_role_and_label(Role::Button, "Refresh now").click();
    step_until(h, "the second refresh", |h| {
        has_label_containing(h, "on demand per refresh · nothing changed")
    });
    assert!(has_label(h, "2 changes since you last looked:"));
    assert!(has_label_containing(
        h,
        "PK = POST#a91f · SK = LIKE#USER#0new added ("
    ));
    // A change is a way to its row: the cursor lands there and the item opens.
    h.get_by_label_contains("SK = META changed (").click();
    step_until(h, "the row opened", |h| {
        has_label_containing(h, "likeTally")
    });
    h.get_by_role_and_label(Role::Button, "Seen").click();
    step_until(h, "seen", |h| {
        !has_label_containing(h, "since you last looked")
    });
}

/// A table never laid out shows what its counters count first (the post's likeTally right
/// after the keys); a header dragged onto another moves its column there.
#[test]
fn counted_attributes_come_first_and_a_header_drags_to_its_place() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(2600.0, 900.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    let left = |h: &egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>, name: &str| {
        h.get_by_role_and_label(Role::Button, name).rect().left()
    };
    step_until(h, "likeTally first", |h| {
        left(h, "likeTally") < left(h, "author") && left(h, "likeTally") < left(h, "archivedAt")
    });
    assert!(left(h, "SK") < left(h, "likeTally"), "after the keys");
    // likedAt dragged onto author: it takes author's place.
    assert!(left(h, "author") < left(h, "likedAt"));
    let from = h
        .get_by_role_and_label(Role::Button, "likedAt")
        .rect()
        .center();
    let to = h
        .get_by_role_and_label(Role::Button, "author")
        .rect()
        .center();
    h.drag_at(from);
    h.step();
    h.hover_at(egui::pos2(from.x - 10.0, from.y));
    h.step();
    h.hover_at(to);
    h.step();
    h.drop_at(to);
    h.step();
    h.step();
    step_until(h, "likedAt moved", |h| {
        left(h, "likedAt") < left(h, "author")
    });
}
