//! Items: the editor (form and text), the staging area's diff, a commit meeting a concurrent
//! change, and read-only switching every write control off.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue as V;
use dynoscope_core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::{NodeT as _, Queryable};

use crate::*;

/// Query POST#a91f in Social and open its META item in the editor.
fn edit_sample_post(h: &mut egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>) {
    query_partition(h, "POST#a91f");
    step_until(h, "the META row", |h| has_label(h, "META"));
    h.get_by_label("META").click();
    step_until(h, "the item's buttons", |h| has_label(h, "Edit item"));
    h.get_by_role_and_label(Role::Button, "Edit item").click();
    step_until(h, "the editor", |h| {
        has_label(h, "Edit PK = POST#a91f · SK = META")
    });
}

/// Replace the whole text of the text field labelled `label`.
pub(crate) fn set_field(
    h: &mut egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>,
    label: &str,
    text: &str,
) {
    let role = if label == "Item text" {
        Role::MultilineTextInput
    } else {
        Role::TextInput
    };
    h.get_by_role_and_label(role, label).focus();
    h.step();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.step();
    h.get_by_role_and_label(role, label).type_text(text);
    h.step();
}

fn disabled(h: &egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>, label: &str) -> bool {
    h.get_by_role_and_label(Role::Button, label)
        .accesskit_node()
        .is_disabled()
}

/// The likeTally set to 4 and a note added in the form, staged with their diff.
fn stage_a_tally_and_a_note(h: &mut egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>) {
    // Every type of the seeded item is in the form; the key is fixed.
    assert!(has_label(h, "hashtags") && has_label(h, "checksums") && has_label(h, "archivedAt"));
    set_field(h, "likeTally", "4");
    type_into(h, "New attribute", "note");
    type_into(h, "Value", "hola");
    h.get_by_role_and_label(Role::Button, "Add attribute")
        .click();
    h.step();
    // Remove `author` (the form's rows by name: PK, SK, then archivedAt, author, …).
    h.get_by_role_and_label(Role::Button, "Stage changes")
        .click();
    step_until(h, "the staged change", |h| {
        has_label(h, "update PK = POST#a91f · SK = META (2 attributes)")
    });
    assert!(has_label(h, "Items (1 staged)"));
    assert!(has_label(h, "~ likeTally: N 3 → N 4"));
    assert!(has_label(h, "+ note: S hola"));
}

#[test]
fn an_edit_is_staged_with_its_diff_and_a_conflict_shows_the_servers_item() {
    let Outside {
        runtime: engine_runtime,
        sandbox,
        client,
        ..
    } = outside_sandbox();
    let mut app = start(endpoint(sandbox.endpoint()), Some("Social"));
    let h = &mut app.harness;
    edit_sample_post(h);
    stage_a_tally_and_a_note(h);

    // Someone likes the post behind the app's back: the tally is 4 on the server now... as 5.
    let key = HashMap::from([
        ("PK".to_owned(), V::S("POST#a91f".into())),
        ("SK".to_owned(), V::S("META".into())),
    ]);
    engine_runtime.block_on(async {
        client
            .update_item()
            .table_name("Social")
            .set_key(Some(key.clone()))
            .update_expression("SET likeTally = :v")
            .expression_attribute_values(":v", V::N("5".into()))
            .send()
            .await
            .unwrap();
    });
    h.get_by_role_and_label(Role::Button, "Commit 1 staged")
        .click();
    step_until(h, "the commit's outcome", |h| {
        has_label_containing(h, "Committed 0 of 1 item in one transaction")
    });
    assert!(has_label_containing(
        h,
        "The server's item now: PK = POST#a91f · SK = META"
    ));
    assert!(
        has_label(h, "~ likeTally: N 3 → N 5"),
        "what changed on the server meanwhile"
    );
    assert!(has_label(h, "Items (1 staged)"), "nothing lost");
    // Keep mine over the server's item: committed, conditional on the 5 seen.
    h.get_by_role_and_label(Role::Button, "Keep my change over it")
        .click();
    step_until(h, "the rebased change", |h| {
        has_label(h, "~ likeTally: N 5 → N 4")
    });
    h.get_by_role_and_label(Role::Button, "Commit 1 staged")
        .click();
    step_until(h, "the commit", |h| {
        has_label_containing(h, "Committed 1 of 1 item in one transaction")
    });
    assert!(has_label(h, "Items"), "nothing staged any more");
    let stored = engine_runtime.block_on(async {
        client
            .get_item()
            .table_name("Social")
            .set_key(Some(key))
            .send()
            .await
            .unwrap()
            .item
            .unwrap()
    });
    assert_eq!(stored["likeTally"], V::N("4".into()));
    assert_eq!(stored["note"], V::S("hola".into()));
    let V::Ss(mut tags) = stored["hashtags"].clone() else {
        panic!("hashtags is a string set");
    };
    tags.sort();
    assert_eq!(tags, ["counters", "dynamodb"], "untouched");
}

#[test]
fn the_item_text_says_where_it_is_wrong_and_keys_stay_fixed() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    edit_sample_post(h);
    h.get_by_role_and_label(Role::Button, "DynamoDB JSON text")
        .click();
    step_until(h, "the item text", |h| has_label(h, "Item text"));
    set_field(
        h,
        "Item text",
        "{\n  \"PK\": {\"S\": \"POST#a91f\"},\n  \"SK\": {\"S\": \"META\"},\n  \"likeTally\": {\"N\": \"3x\"}\n}",
    );
    step_until(h, "the positioned error", |h| {
        has_label_containing(h, "line 4, column 3: `likeTally`:")
    });
    // A key changed in the text: refused, with what to do instead.
    set_field(
        h,
        "Item text",
        "{\"PK\": {\"S\": \"POST#other\"}, \"SK\": {\"S\": \"META\"}}",
    );
    h.get_by_role_and_label(Role::Button, "Stage changes")
        .click();
    step_until(h, "the key refusal", |h| {
        has_label_containing(h, "a key cannot change in place")
    });
    // Duplicate gives a new item whose key is typed in; Delete stages a delete.
    h.get_by_role_and_label(Role::Button, "Cancel edit").click();
    h.get_by_role_and_label(Role::Button, "Browse").click();
    step_until(h, "the item view", |h| has_label(h, "Delete item"));
    h.get_by_role_and_label(Role::Button, "Delete item").click();
    step_until(h, "the staged delete", |h| {
        has_label(h, "delete PK = POST#a91f · SK = META")
    });
    assert!(has_label(h, "Items (1 staged)"));
}

#[test]
fn read_only_switches_every_write_off_with_the_reason() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    edit_sample_post(h);
    set_field(h, "likeTally", "9");
    h.get_by_role_and_label(Role::Button, "Stage changes")
        .click();
    step_until(h, "the staged change", |h| has_label(h, "Items (1 staged)"));
    assert!(!disabled(h, "Commit 1 staged"));
    h.get_by_role_and_label(Role::CheckBox, "Read-only").click();
    step_until(h, "the reason", |h| {
        has_label_containing(h, "Read-only: writes to sandbox · http://127.0.0.1")
    });
    assert!(disabled(h, "Commit 1 staged"), "the commit is off");
    h.get_by_role_and_label(Role::Button, "Browse").click();
    step_until(h, "the item view", |h| has_label(h, "Numbers"));
    let plus: Vec<bool> = h
        .query_all_by_role_and_label(Role::Button, "+1")
        .map(|b| b.accesskit_node().is_disabled())
        .collect();
    assert!(
        !plus.is_empty() && plus.iter().all(|d| *d),
        "so are the counter's buttons"
    );
    assert!(
        has_label_containing(h, "· read-only"),
        "the connection says so"
    );
    // Not remembered for the in-memory sandbox: the next one is fresh data, nothing to guard.
    assert!(h.state().remembered().read_only.is_empty());
    h.get_by_role_and_label(Role::CheckBox, "Read-only").click();
    h.step();
    h.step();
    let plus = h.query_all_by_role_and_label(Role::Button, "+1");
    assert!(plus.into_iter().all(|b| !b.accesskit_node().is_disabled()));
    assert!(h.state().remembered().read_only.is_empty());
}

#[test]
fn a_staged_delete_of_a_like_says_its_tally_would_drift_and_stages_the_unlike_whole() {
    let outside = outside_sandbox();
    let mut app = start(endpoint(outside.sandbox.endpoint()), Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1280.0, 1200.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    // The counter rule, from the suggestion.
    h.get_by_role_and_label(Role::Button, "Tally check").click();
    step_until(h, "the suggestion", |h| has_label(h, "Use"));
    h.get_by_role_and_label(Role::Button, "Use").click();
    step_until(h, "the rule", |h| has_label(h, "Check"));
    h.get_by_role_and_label(Role::Button, "Browse").click();
    step_until(h, "the grid", |h| has_label(h, "LIKE#USER#7c20"));
    h.get_by_label("LIKE#USER#7c20").click();
    step_until(h, "the item view", |h| has_label(h, "Delete item"));
    h.get_by_role_and_label(Role::Button, "Delete item").click();
    step_until(h, "staged", |h| has_label(h, "Items (1 staged)"));
    h.get_by_role_and_label(Role::Button, "Items (1 staged)")
        .click();
    step_until(h, "the drift said", |h| {
        has_label(
            h,
            "PK = POST#a91f · SK = META: 1 LIKE# child deleted and the tally `likeTally` unchanged: it would drift by +1 (stored 1 more than its children)",
        )
    });
    h.get_by_role_and_label(Role::Button, "Stage the tally's -1 too")
        .click();
    step_until(h, "the tally staged", |h| {
        has_label_containing(h, "the tally `likeTally` moved by -1: it stays true")
    });
    assert!(has_label_containing(h, "~ likeTally: N 3 → N 2"));
    h.get_by_role_and_label(Role::Button, "Commit 2 staged")
        .click();
    step_until(h, "the commit", |h| {
        has_label_containing(h, "Committed 2 of 2 items in one transaction")
    });
    let (tally, child) = outside.runtime.block_on(async {
        let client = &outside.connection.reader();
        let key = |sk: &str| {
            dynoscope_core::value::Item::from([
                ("PK".to_owned(), common::s("POST#a91f")),
                ("SK".to_owned(), common::s(sk)),
            ])
        };
        let tally = dynoscope_core::read::read_number(client, "Social", &key("META"), "likeTally")
            .await
            .unwrap();
        let child = dynoscope_core::read::get_item(client, "Social", key("LIKE#USER#7c20"))
            .await
            .unwrap();
        (tally, child)
    });
    assert_eq!(tally.as_deref(), Some("2"));
    assert!(child.is_none());
}
