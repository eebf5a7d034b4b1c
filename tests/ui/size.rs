//! Item size: the grid's opened row (the item view) and the item editor say the seeded item's
//! size in the core's one line, and the editor's follows what is typed.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue as V;
use dynoscope_core::cost::size::SizeReport;

use egui::accesskit::Role;

use crate::items::set_field;
use crate::*;

#[test]
fn the_item_view_and_the_editor_say_the_items_size() {
    let Outside {
        runtime,
        sandbox,
        client,
        ..
    } = outside_sandbox();
    // The seeded item as the server holds it, sized by the core.
    let key = HashMap::from([
        ("PK".to_owned(), V::S("POST#a91f".into())),
        ("SK".to_owned(), V::S("META".into())),
    ]);
    let mut item = runtime.block_on(async {
        client
            .get_item()
            .table_name("Social")
            .set_key(Some(key))
            .consistent_read(true)
            .send()
            .await
            .unwrap()
            .item
            .unwrap()
    });
    let read = SizeReport::of(&item);
    let line = format!("Size: {}", read.line());
    let mut app = start(endpoint(sandbox.endpoint()), Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1400.0, 1200.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the META row", |h| has_label(h, "META"));
    h.get_by_label("META").click();
    // The opened row: the item view says the line under its header.
    step_until(h, "the item view's size", |h| has_label(h, &line));
    h.get_by_role_and_label(Role::Button, "Edit item").click();
    step_until(h, "the editor", |h| {
        has_label(h, "Edit PK = POST#a91f · SK = META")
    });
    // The editor says the same line for the item as read.
    assert!(has_label(h, &line), "{line} in the editor");
    // A longer number in the form: 12345 (three pairs and one byte) is two bytes more than 3.
    set_field(h, "likeTally", "12345");
    item.insert("likeTally".to_owned(), V::N("12345".into()));
    let grown = format!("Size: {}", SizeReport::of(&item).line());
    step_until(h, "the editor's size to follow", |h| has_label(h, &grown));
    assert_eq!(SizeReport::of(&item).bytes, read.bytes + 2);
    drop(app);
    drop(sandbox);
}
