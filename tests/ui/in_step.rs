//! The screen in step with the server, and forms that belong to their target. A delete that
//! repairs a tally reads the repaired parent back into the grid and says old → new, with the
//! drift it erased; the grid says how old it is and that a write of ours is newer. The Add a
//! global index form is one table's: typed for Videos, it is not offered on Social, and its
//! button names its table; New table… after a table was made starts empty and says nothing is
//! wrong before anything is typed. A dead endpoint is shown one way: the rows already shown are
//! kept and marked as not current, never "all pages loaded", the dot red, and green again once
//! a request is answered.

use egui::accesskit::Role;
use egui_kittest::kittest::NodeT as _;

use crate::*;

/// The last like of `pk` on the server, by its sort key (beside META when sorted descending).
fn last_like(outside: &Outside, pk: &str) -> String {
    outside.runtime.block_on(async {
        let out = outside
            .client
            .query()
            .table_name("Social")
            .key_condition_expression("PK = :p AND begins_with(SK, :s)")
            .expression_attribute_values(
                ":p",
                aws_sdk_dynamodb::types::AttributeValue::S(pk.into()),
            )
            .expression_attribute_values(
                ":s",
                aws_sdk_dynamodb::types::AttributeValue::S("LIKE#".into()),
            )
            .scan_index_forward(false)
            .limit(1)
            .send()
            .await
            .unwrap();
        dynoscope_core::value::cell_text(&out.items()[0]["SK"])
    })
}

#[test]
fn a_repaired_tally_is_read_back_into_the_grid_and_said_old_to_new() {
    let outside = outside_sandbox();
    let mut app = start(endpoint(outside.sandbox.endpoint()), Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1400.0, 1100.0));
    // POST#d71e: 226 stored over 225 likes, every row of it in the tab.
    query_partition(h, "POST#d71e");
    step_until(h, "the likes", |h| has_label(h, "SK"));
    // The counter rule the rows suggest (likeTally over LIKE# children), used and so kept for
    // the table: a delete of its children then offers to repair the tally.
    h.get_by_role_and_label(Role::Button, "Tally check").click();
    step_until(h, "the suggestion", |h| has_label(h, "Use"));
    h.get_by_role_and_label(Role::Button, "Use").click();
    step_until(h, "the check form", |h| has_label(h, "Check"));
    h.get_by_role_and_label(Role::Button, "Browse").click();
    step_until(h, "the rows again", |h| has_label(h, "SK"));
    // Sorted by SK, descending: META on top, with the last likes under it.
    h.get_by_role_and_label(Role::Button, "SK").click();
    step_until(h, "ascending", |h| {
        h.query_by_role_and_label(Role::Button, "SK asc").is_some()
    });
    h.get_by_role_and_label(Role::Button, "SK asc").click();
    step_until(h, "the post's META", |h| has_label(h, "META"));
    assert!(has_label(h, "226"), "the stored tally shown");
    let like = last_like(&outside, "POST#d71e");
    count_the_selected_row(h, &like);
    step_until(h, "the count", |h| has_label(h, "Repair the tallies after"));
    h.get_by_label("Repair the tallies after").click();
    h.step();
    type_into(h, "Type 1 to delete them", "1");
    h.get_by_role_and_label(Role::Button, "Delete 1 items")
        .click();
    step_until(h, "the repair's words", |h| {
        has_label_containing(h, "POST#d71e: `likeTally` 226 → 224")
    });
    assert!(
        has_label_containing(
            h,
            "the 1 child deleted, and a drift of +1 it had before the delete"
        ),
        "the drift the repair erased is said"
    );
    assert_eq!(
        stored(&outside, "Social", ("POST#d71e", "META"), "likeTally"),
        "224"
    );
    // The grid shows what the server holds: the META read back, the like gone.
    h.get_by_role_and_label(Role::Button, "Browse").click();
    step_until(h, "the repaired tally in the grid", |h| {
        has_label(h, "224") && !has_label(h, "226")
    });
    assert!(!has_label(h, &like), "the deleted like left the grid");
    // How old the rows are, and that a write of ours is newer than some of them.
    assert!(has_label_containing(h, "· read "), "the grid's age");
    assert!(
        has_label_containing(h, "a write of ours"),
        "newer than the rows"
    );
}

#[test]
fn the_index_form_belongs_to_its_table_and_new_table_starts_empty() {
    let outside = outside_sandbox();
    let mut app = start(endpoint(outside.sandbox.endpoint()), Some("Videos"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1400.0, 1100.0));
    step_until(h, "the tables", |h| has_label(h, "New table…"));
    // The tables may be listed before Videos' tab is open (whose Table button this clicks).
    step_until(h, "Videos opened", |h| {
        h.query_by_role_and_label(Role::Button, "Table").is_some()
    });
    h.get_by_role_and_label(Role::Button, "Table").click();
    step_until(h, "Videos' Table view", |h| has_label(h, "Table Videos"));
    step_until(h, "the table read", |h| has_label(h, "Delete items"));
    type_into(h, "Index", "ByTitle");
    type_into(h, "partition", "title");
    step_until(h, "the button naming its table", |h| {
        has_label(h, "Add index to Videos")
    });
    // Social's Table view: nothing typed for Videos is offered to it.
    h.query_all_by_label("Social").next().unwrap().click();
    step_until(h, "Social opened", |h| has_label(h, "Tab Social"));
    h.get_by_role_and_label(Role::Button, "Table").click();
    step_until(h, "Social's Table view", |h| has_label(h, "Table Social"));
    step_until(h, "the table read", |h| has_label(h, "Delete items"));
    step_until(h, "its settings", |h| {
        has_label_containing(h, "Type the index's name and its partition key")
    });
    assert!(
        !has_label_containing(h, "Add index to"),
        "no index one click away"
    );
    assert!(
        h.query_all_by_value("ByTitle").next().is_none(),
        "the name typed for Videos is not in Social's form"
    );

    // New table…: nothing typed is not a mistake; after a table is made, it starts empty.
    h.get_by_label("New table…").click();
    step_until(h, "the Create table window", |h| has_label(h, "Table name"));
    assert!(has_label(h, "Type the table's name to create it."));
    assert!(!has_label_containing(h, "3 to 255 characters"));
    type_into(h, "Table name", "Posts");
    h.get_by_role_and_label(Role::Button, "Create table")
        .click();
    step_until(h, "the table created", |h| {
        has_label_containing(h, "applied: a new table Posts")
    });
    h.get_by_role_and_label(Role::Button, "Close window")
        .click();
    h.step();
    h.get_by_label("New table…").click();
    step_until(h, "the window again", |h| has_label(h, "Table name"));
    assert!(has_label(h, "Type the table's name to create it."));
    assert!(!has_label_containing(h, "applied: a new table Posts"));
    let typed = h.get_by_label("Table name").accesskit_node().value();
    assert!(
        typed.as_deref().is_none_or(str::is_empty),
        "its name is not kept: {typed:?}"
    );
}

#[test]
fn a_dead_endpoint_keeps_the_rows_shown_and_turns_the_dot_red_then_green() {
    let outside = outside_sandbox();
    let staging = outside_sandbox();
    let mut app = start(endpoint(staging.sandbox.endpoint()), Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1280.0, 800.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the rows", |h| has_label(h, "LIKE#USER#7c20"));
    step_until(h, "every page", |h| {
        has_label_containing(h, "all pages loaded")
    });
    assert!(has_label(h, "The last request answered"));

    // The endpoint stops; Run query fails: the rows stay, said to be the run before's.
    let addr = staging.sandbox.addr();
    drop(staging);
    h.get_by_role_and_label(Role::Button, "Run query").click();
    step_until(h, "the run's failure", |h| {
        has_label_containing(h, "not current")
    });
    assert!(has_label_containing(h, "could not reach the endpoint"));
    assert!(has_label(h, "LIKE#USER#7c20"), "the rows shown are kept");
    assert!(!has_label_containing(h, "all pages loaded"));
    assert!(!has_label(h, "Resume"), "nothing to resume");
    step_until(h, "the dot red", |h| {
        has_label(h, "The last request failed")
    });

    // Back on the same address: a query answered turns it green.
    let back = outside.runtime.block_on(async {
        // The port is free again within a minute (the engine let go of it when dropped).
        for _ in 0..1200 {
            if let Ok(sandbox) = dynoscope_core::sandbox::Sandbox::start(None, addr.port()).await {
                return sandbox;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("port {} never free again", addr.port())
    });
    h.get_by_role_and_label(Role::Button, "Run query").click();
    step_until(h, "the rows read again", |h| {
        has_label_containing(h, "all pages loaded") && !has_label_containing(h, "not current")
    });
    step_until(h, "the dot green", |h| {
        has_label(h, "The last request answered")
    });
    drop(back);
}
