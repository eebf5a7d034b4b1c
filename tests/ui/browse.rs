//! Browsing: a Query and its rows, every page, an index, invalid input, exports.

use dynoscope_core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

use crate::*;

#[test]
fn queries_the_article_post_and_sees_its_tally_and_likes() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, None);
    let h = &mut app.harness;
    step_until(h, "the table list", |h| has_label(h, "Social"));
    assert!(
        has_label_containing(h, "Sandbox (in memory)"),
        "the active connection is shown"
    );
    h.get_by_label("Social").click();
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));

    for sk in ["META", "LIKE#USER#7c20", "LIKE#USER#19be", "LIKE#USER#e4d2"] {
        assert!(has_label(h, sk), "row {sk} is shown");
    }
    // The column chooser: hide every attribute, then show likeTally; the keys stay.
    h.get_by_role_and_label(Role::Button, "Columns").click();
    step_until(h, "the column chooser", |h| has_label(h, "Hide all"));
    h.get_by_role_and_label(Role::Button, "Hide all").click();
    h.step();
    h.get_by_role_and_label(Role::CheckBox, "likeTally").click();
    h.step();
    h.key_press(egui::Key::Escape);
    h.step();
    step_until(h, "the likeTally column", |h| {
        h.query_by_role_and_label(Role::Button, "likeTally")
            .is_some()
    });
    assert!(
        has_label(h, "SK") && has_label(h, "LIKE#USER#7c20"),
        "keys stay in view"
    );
    assert!(
        has_label_containing(h, "4 items · 1 page"),
        "status bar counts the rows"
    );

    // Right-click a cell: copy the whole item as plain JSON, numbers exact.
    h.get_by_label("META").click_secondary();
    step_until(h, "the context menu", |h| has_label(h, "Copy item as JSON"));
    h.get_by_role_and_label(Role::Button, "Copy item as JSON")
        .click();
    h.step();
    let copied: Vec<String> = h
        .output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(copied.len(), 1, "{copied:?}");
    assert!(
        copied[0].starts_with(r#"{"PK":"POST#a91f","SK":"META""#),
        "{copied:?}"
    );
    assert!(copied[0].contains(r#""likeTally":3"#), "{copied:?}");
    h.step();

    // Open the META row: the item view shows the exact stored tally.
    h.get_by_label("META").click();
    step_until(h, "the item view", |h| has_label(h, "Item JSON"));
    let json = h.get_by_label("Item JSON").value().unwrap_or_default();
    assert!(json.contains(r#""likeTally": {"N": "3"}"#), "{json}");
    assert!(json.contains(r#""SK": {"S": "META"}"#), "{json}");

    h.get_by_role_and_label(Role::Button, "JSON").click();
    h.step();
    h.step();
    let plain = h.get_by_label("Item JSON").value().unwrap_or_default();
    assert!(plain.contains(r#""likeTally": 3"#), "{plain}");
}

#[test]
fn loads_every_page_of_the_viral_post() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    // The remembered table opens by itself.
    query_partition(h, "POST#f00d");
    step_until(h, "the first page", |h| {
        has_label_containing(h, "more pages available")
    });
    h.get_by_role_and_label(Role::Button, "Load all").click();
    step_until(h, "every page", |h| {
        has_label_containing(h, "all pages loaded")
    });
    assert!(
        has_label_containing(h, "20001 items"),
        "the META item and 20,000 likes"
    );
}

#[test]
fn browses_likes_by_user_through_the_index() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    step_until(h, "the describe panel", |h| has_label(h, "Browse GSI1"));
    h.get_by_role_and_label(Role::Button, "Browse GSI1").click();
    step_until(h, "the index form", |h| has_label(h, "GSI1PK (S) ="));
    let field = h.get_by_label("GSI1PK (S) =");
    field.focus();
    field.type_text("USER#7c20");
    h.step();
    h.get_by_role_and_label(Role::Button, "Run query").click();
    step_until(h, "the likes by user", |h| has_label(h, "LIKE#POST#a91f"));
    assert!(has_label(h, "GSI1SK"), "index keys come first");
}

#[test]
fn invalid_input_is_explained_and_not_sent() {
    // Through a proxy that counts every Query and Scan that reaches the server.
    let outside = crate::outside_sandbox();
    let proxy = outside.runtime.block_on(crate::common::fault_proxy(
        outside.sandbox.addr(),
        &["Query", "Scan"],
        crate::common::Fault::Throttle(0),
    ));
    let mut app = start(crate::endpoint(&proxy.url), Some("Social"));
    let h = &mut app.harness;
    step_until(h, "the query form", |h| has_label(h, "PK (S) ="));
    h.get_by_role_and_label(Role::Button, "Run query").click();
    step_until(h, "the message", |h| {
        has_label_containing(h, "give a value for the partition key `PK`")
    });
    for _ in 0..10 {
        h.step();
    }
    assert_eq!(proxy.arrived(), 0, "nothing was sent");
    // The same form with a value is sent, once: the proxy does count.
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    assert_eq!(proxy.arrived(), 1);
}

#[test]
fn exports_the_loaded_rows_as_dynamodb_json_lines() {
    let (path, picker) = saving_to("export.jsonl");
    let mut app = start_with_picker(
        ConnectionSpec::Sandbox { db_path: None },
        Some("Social"),
        Some(picker.clone()),
    );
    let h = &mut app.harness;
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    export_dynamodb_json(h);
    step_until(h, "the export", |h| {
        has_label_containing(h, "Exported 4 items to")
    });
    assert_eq!(
        *picker.suggested.lock().unwrap(),
        ["Social-POST_a91f.jsonl"]
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let items: Vec<_> = text
        .lines()
        .map(|l| dynoscope_core::value::item_from_dynamodb_json(l).unwrap())
        .collect();
    assert_eq!(items.len(), 4);
    assert!(items.iter().any(
        |i| i.get("likeTally") == Some(&aws_sdk_dynamodb::types::AttributeValue::N("3".into()))
    ));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_cancelled_export_writes_nothing() {
    let picker = std::sync::Arc::new(FakePicker {
        answer: None,
        suggested: std::sync::Mutex::default(),
    });
    let mut app = start_with_picker(
        ConnectionSpec::Sandbox { db_path: None },
        Some("Videos"),
        Some(picker.clone()),
    );
    let h = &mut app.harness;
    query_partition(h, "VID#9f3a");
    step_until(h, "the results", |h| has_label(h, "STATS#TOTAL"));
    export_dynamodb_json(h);
    step_until(h, "the message", |h| {
        has_label_containing(h, "No file chosen; nothing exported.")
    });
    // Nothing was written under the name it suggested, here or in the temporary folder.
    let suggested = picker.suggested.lock().unwrap().clone();
    assert_eq!(suggested, ["Videos-VID_9f3a.jsonl"]);
    for dir in [std::env::current_dir().unwrap(), std::env::temp_dir()] {
        assert!(!dir.join(&suggested[0]).exists(), "{dir:?}");
    }
}

#[test]
fn exports_to_a_typed_path_where_the_system_has_no_dialog() {
    // A picker that answers nothing, as rfd does without a portal or zenity.
    let picker = std::sync::Arc::new(FakePicker::answering(None));
    let mut app = start_with_picker(
        ConnectionSpec::Sandbox { db_path: None },
        Some("Social"),
        Some(picker.clone()),
    );
    let h = &mut app.harness;
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    // A folder typed: the suggested name is written in it.
    let dir = std::env::temp_dir().join(format!("dynoscope-typed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    h.get_by_label("Export…").click();
    step_until(h, "the export menu", |h| has_label(h, "Save to"));
    // Clicked with the pointer, as a person does: the menu stays open and the field takes text.
    h.get_by_label("Save to").click();
    h.step();
    h.step();
    assert!(
        has_label(h, "DynamoDB JSON lines (.jsonl)"),
        "the Export… menu stays open after a click in its field"
    );
    h.get_by_label("Save to")
        .type_text(&dir.display().to_string());
    h.step();
    h.get_by_label("DynamoDB JSON lines (.jsonl)").click();
    let path = dir.join("Social-POST_a91f.jsonl");
    step_until(h, "the export", |h| {
        has_label_containing(h, &format!("Exported 4 items to {}", path.display()))
    });
    assert!(
        picker.suggested.lock().unwrap().is_empty(),
        "no dialog asked"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 4);

    // The whole table from Import / Export, to a typed file.
    h.get_by_role_and_label(Role::Button, "Import / Export")
        .click();
    step_until(h, "the export form", |h| has_label(h, "Export table…"));
    let file = dir.join("social.jsonl");
    type_into(h, "Save to", &file.display().to_string());
    h.get_by_role_and_label(Role::Button, "Export table…")
        .click();
    step_until(h, "the table export", |h| {
        has_label_containing(h, &format!("to {} (read in", file.display()))
    });
    assert!(
        picker.suggested.lock().unwrap().is_empty(),
        "no dialog asked"
    );
    assert!(std::fs::read_to_string(&file).unwrap().lines().count() > 26_000);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn get_item_opens_one_item_by_its_key_without_a_query() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Videos"));
    let h = &mut app.harness;
    step_until(h, "the query form", |h| has_label(h, "Get item…"));
    h.get_by_role_and_label(Role::Button, "Get item…").click();
    step_until(h, "the key fields", |h| {
        has_label(h, "Get item by its key:")
    });
    type_into(h, "Key PK (S)", "VID#9f3a");
    type_into(h, "Key SK (S)", "STATS#TOOTAL");
    h.get_by_role_and_label(Role::Button, "Get").click();
    step_until(h, "the words for none", |h| {
        has_label_containing(
            h,
            "there is no item PK = VID#9f3a · SK = STATS#TOOTAL in table Videos",
        )
    });
    h.get_by_label("Key SK (S)").focus();
    h.step();
    for _ in 0.."OTAL".len() {
        h.key_press(egui::Key::Backspace);
    }
    type_into(h, "Key SK (S)", "TAL");
    h.get_by_role_and_label(Role::Button, "Get").click();
    step_until(h, "the item, opened", |h| has_label(h, "Item JSON"));
    assert!(has_label_containing(h, "\"play_count\""));
    assert!(has_label_containing(h, "1 item · 1 page"));
    // The form reads it again: PK = VID#9f3a, SK = STATS#TOTAL.
    assert_eq!(
        h.get_by_label("PK (S) =").value().as_deref(),
        Some("VID#9f3a")
    );
}

#[test]
fn load_all_after_the_form_changed_waits_for_run() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    step_until(h, "the query form", |h| has_label(h, "PK (S) ="));
    h.get_by_role_and_label(Role::Button, "Scan").click();
    h.step();
    type_into(h, "Page size", "5");
    h.get_by_role_and_label(Role::Button, "Run scan").click();
    step_until(h, "a page", |h| has_label_containing(h, "5 items · 1 page"));
    assert!(!has_label(
        h,
        "Run first: the form changed since these rows were read"
    ));
    h.get_by_role_and_label(Role::Button, "Query").click();
    step_until(h, "the words", |h| {
        has_label(h, "Run first: the form changed since these rows were read")
    });
    h.get_by_role_and_label(Role::Button, "Load all").click();
    h.step();
    h.step();
    assert!(
        has_label_containing(h, "5 items · 1 page"),
        "nothing loaded"
    );
}

#[test]
fn filter_conditions_are_joined_by_and_or_or() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    step_until(h, "the query form", |h| has_label(h, "PK (S) ="));
    type_into(h, "Filter", "role");
    type_into(h, "Value", "owner");
    h.get_by_role_and_label(Role::Button, "+ Condition").click();
    step_until(h, "the second condition", |h| has_label(h, "Filter 2"));
    type_into(h, "Filter 2", "name");
    type_into(h, "Value 2", "Acme");
    // All hold (the default): no item is both the owner and the workspace.
    query_partition(h, "WORKSPACE#acme");
    step_until(h, "the empty result", |h| {
        has_label_containing(h, "0 items")
    });
    assert!(!has_label(h, "MEMBER#USER#7c20"));
    // Any holds: the owner and the workspace, and no other member.
    h.get_by_role_and_label(Role::Button, "any holds (OR)")
        .click();
    h.step();
    h.get_by_role_and_label(Role::Button, "Run query").click();
    step_until(h, "the two", |h| has_label(h, "MEMBER#USER#7c20"));
    assert!(has_label_containing(h, "2 items · 1 page"));
    assert!(!has_label(h, "MEMBER#USER#19be"));
    // A condition removed is no longer sent.
    h.get_by_label("Remove filter 2").click();
    step_until(h, "one condition", |h| !has_label(h, "Filter 2"));
    h.get_by_role_and_label(Role::Button, "Run query").click();
    step_until(h, "the owner alone", |h| {
        has_label_containing(h, "1 item · 1 page")
    });
    assert!(has_label(h, "MEMBER#USER#7c20"));
}
