//! UI tests: the real app on the embedded sandbox, driven by role and label with egui_kittest.

mod common;

use std::time::{Duration, Instant};

use dynoscope::core::connection::ConnectionSpec;
use dynoscope::ui::DynoscopeApp;
use dynoscope::worker::Worker;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

struct App {
    // Dropped after the harness: the worker's tasks need the runtime until the end.
    harness: Harness<'static, DynoscopeApp>,
    _runtime: tokio::runtime::Runtime,
}

fn start(spec: ConnectionSpec, remembered_table: Option<&str>) -> App {
    start_with_picker(spec, remembered_table, None)
}

fn start_with_picker(
    spec: ConnectionSpec,
    remembered_table: Option<&str>,
    picker: Option<std::sync::Arc<dyn dynoscope::worker::SavePicker>>,
) -> App {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("ui-test-worker")
        .enable_all()
        .build()
        .unwrap();
    let mut worker = Worker::new(runtime.handle().clone(), || {});
    if let Some(picker) = picker {
        worker = worker.with_save_picker(picker);
    }
    let app = DynoscopeApp::new(worker, spec, remembered_table.map(str::to_owned));
    let harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut DynoscopeApp| app.ui(ui), app);
    App {
        harness,
        _runtime: runtime,
    }
}

/// Step the app until `found` holds: background answers arrive in their own time.
fn step_until(
    harness: &mut Harness<'_, DynoscopeApp>,
    what: &str,
    found: impl Fn(&Harness<'_, DynoscopeApp>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        harness.step();
        if found(harness) {
            harness.step();
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn has_label(harness: &Harness<'_, DynoscopeApp>, label: &str) -> bool {
    harness.query_all_by_label(label).next().is_some()
}

fn has_label_containing(harness: &Harness<'_, DynoscopeApp>, part: &str) -> bool {
    // A multi-line label carries its text as the node's value.
    harness
        .query_all_by(|n| {
            n.label().is_some_and(|l| l.contains(part))
                || n.value().is_some_and(|v| v.contains(part))
        })
        .next()
        .is_some()
}

fn query_partition(harness: &mut Harness<'_, DynoscopeApp>, pk: &str) {
    step_until(harness, "the query form", |h| has_label(h, "PK (S) ="));
    let field = harness.get_by_label("PK (S) =");
    field.focus();
    field.type_text(pk);
    harness.step();
    harness
        .get_by_role_and_label(Role::Button, "Run query")
        .click();
    harness.step();
}

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
    // Attribute columns scroll sideways; the key columns stay beside them.
    for _ in 0..20 {
        if has_label(h, "likeTally") {
            break;
        }
        h.get_by_role_and_label(Role::Button, "Columns >").click();
        h.step();
        h.step();
    }
    assert!(has_label(h, "likeTally"), "the likeTally column is reached");
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
fn an_unreachable_endpoint_shows_an_error_instead_of_hanging() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let spec = ConnectionSpec::Endpoint {
        url: format!("http://127.0.0.1:{port}"),
        profile: None,
        region: None,
    };
    let mut app = start(spec, None);
    let h = &mut app.harness;
    step_until(h, "the error", |h| {
        has_label_containing(h, "ListTables failed")
    });
    assert!(has_label_containing(h, "could not reach the endpoint"));
    // The app keeps working: the connection form still answers.
    h.get_by_role_and_label(Role::Button, "Sandbox").click();
    h.step();
    h.get_by_role_and_label(Role::Button, "Connect").click();
    step_until(h, "the sandbox tables", |h| has_label(h, "Videos"));
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
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    step_until(h, "the query form", |h| has_label(h, "PK (S) ="));
    h.get_by_role_and_label(Role::Button, "Run query").click();
    step_until(h, "the message", |h| {
        has_label_containing(h, "type a value for the partition key `PK`")
    });
}

#[test]
fn plus_one_on_play_count_shows_the_servers_new_value() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Videos"));
    let h = &mut app.harness;
    query_partition(h, "VID#9f3a");
    step_until(h, "the stats row", |h| has_label(h, "STATS#TOTAL"));
    h.get_by_label("STATS#TOTAL").click();
    step_until(h, "the counter editor", |h| has_label(h, "Numbers"));
    assert_eq!(
        h.query_all_by_label("41").count(),
        2,
        "play_count 41 in the cell and the editor"
    );

    h.get_by_role_and_label(Role::Button, "+1").click();
    step_until(h, "the result card", |h| has_label(h, "41 → 42"));
    assert!(
        has_label(h, "ADD #a :d on play_count"),
        "the card names the expression"
    );
    assert!(
        has_label(h, "expected 42 · 1 WCU"),
        "expected value and consumed capacity"
    );
    assert_eq!(
        h.query_all_by_label("42").count(),
        2,
        "the server's value in the cell and the editor"
    );
    assert!(h.query_by_label("41").is_none(), "no stale value left");

    // Bad input is explained next to the field and nothing is sent.
    let amount = h.get_by_label("Amount");
    amount.focus();
    amount.type_text("x");
    h.step();
    h.get_by_role_and_label(Role::Button, "Send").click();
    step_until(h, "the message", |h| {
        has_label_containing(h, "is not a number")
    });
    assert_eq!(h.query_all_by_label("42").count(), 2, "unchanged");
}

#[test]
fn a_race_is_shown_and_the_exact_mode_retries_from_the_servers_value() {
    // The app talks to a sandbox this test can also write to, behind the app's back.
    let engine_runtime = tokio::runtime::Runtime::new().unwrap();
    let (sandbox, client) = engine_runtime.block_on(async {
        let sandbox = dynoscope::core::sandbox::Sandbox::start(None, 0)
            .await
            .unwrap();
        let client =
            dynoscope::core::connection::endpoint_client(sandbox.endpoint(), "us-east-1").await;
        (sandbox, client)
    });
    let set_play_count = |value: &str| {
        engine_runtime.block_on(async {
            client
                .put_item()
                .table_name("Videos")
                .item(
                    "PK",
                    aws_sdk_dynamodb::types::AttributeValue::S("VID#9f3a".into()),
                )
                .item(
                    "SK",
                    aws_sdk_dynamodb::types::AttributeValue::S("STATS#TOTAL".into()),
                )
                .item(
                    "play_count",
                    aws_sdk_dynamodb::types::AttributeValue::N(value.into()),
                )
                .send()
                .await
                .unwrap();
        });
    };
    let spec = ConnectionSpec::Endpoint {
        url: sandbox.endpoint().to_owned(),
        profile: None,
        region: None,
    };
    let mut app = start(spec, Some("Videos"));
    let h = &mut app.harness;
    query_partition(h, "VID#9f3a");
    step_until(h, "the stats row", |h| has_label(h, "STATS#TOTAL"));
    h.get_by_label("STATS#TOTAL").click();
    step_until(h, "the counter editor", |h| has_label(h, "Numbers"));

    // ADD while someone else added 9: the card says so, and by how much.
    set_play_count("50");
    h.get_by_role_and_label(Role::Button, "+1").click();
    step_until(h, "the result card", |h| has_label(h, "41 → 51"));
    assert!(has_label_containing(
        h,
        "Someone else changed it in between"
    ));
    assert!(has_label_containing(
        h,
        "differs from the expected one by 9"
    ));

    // Exact mode with a stale value: refused, then retried from the server's value.
    set_play_count("60");
    h.get_by_label("Mode").click();
    step_until(h, "the modes", |h| has_label(h, "Exact (conditional SET)"));
    h.get_by_label("Exact (conditional SET)").click();
    step_until(h, "the exact mode", |h| {
        has_label_containing(h, "safe to retry, fails on a race")
    });
    h.get_by_role_and_label(Role::Button, "+1").click();
    step_until(h, "the refusal", |h| {
        has_label_containing(h, "Condition failed: the server has 60 now, not 51")
    });
    assert_eq!(
        h.query_all_by_label("60").count(),
        2,
        "the server's value in the cell and the editor"
    );
    h.get_by_role_and_label(Role::Button, "Retry from 60")
        .click();
    step_until(h, "the retry", |h| has_label(h, "60 → 61"));
    assert_eq!(h.query_all_by_label("61").count(), 2, "cell and editor");
}

/// Answers the save dialog with a fixed path (or cancels), and remembers the suggested name.
struct FakePicker {
    answer: Option<std::path::PathBuf>,
    suggested: std::sync::Mutex<Vec<String>>,
}

impl dynoscope::worker::SavePicker for FakePicker {
    fn pick_save_path(&self, suggested_name: &str) -> Option<std::path::PathBuf> {
        self.suggested
            .lock()
            .unwrap()
            .push(suggested_name.to_owned());
        self.answer.clone()
    }
}

fn export_dynamodb_json(h: &mut Harness<'_, DynoscopeApp>) {
    h.get_by_label("Export…").click();
    step_until(h, "the export menu", |h| {
        has_label(h, "DynamoDB JSON lines (.jsonl)")
    });
    h.get_by_label("DynamoDB JSON lines (.jsonl)").click();
}

#[test]
fn exports_the_loaded_rows_as_dynamodb_json_lines() {
    let path = std::env::temp_dir().join(format!("dynoscope-export-{}.jsonl", std::process::id()));
    let picker = std::sync::Arc::new(FakePicker {
        answer: Some(path.clone()),
        suggested: Default::default(),
    });
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
        .map(|l| dynoscope::core::value::item_from_dynamodb_json(l).unwrap())
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
        suggested: Default::default(),
    });
    let mut app = start_with_picker(
        ConnectionSpec::Sandbox { db_path: None },
        Some("Videos"),
        Some(picker),
    );
    let h = &mut app.harness;
    query_partition(h, "VID#9f3a");
    step_until(h, "the results", |h| has_label(h, "STATS#TOTAL"));
    export_dynamodb_json(h);
    step_until(h, "the message", |h| {
        has_label_containing(h, "No file chosen; nothing exported.")
    });
}

#[test]
fn tally_check_accepts_the_suggestion_and_reconciles_all_posts() {
    let path = std::env::temp_dir().join(format!("dynoscope-reconcile-{}.csv", std::process::id()));
    let picker = std::sync::Arc::new(FakePicker {
        answer: Some(path.clone()),
        suggested: Default::default(),
    });
    let mut app = start_with_picker(
        ConnectionSpec::Sandbox { db_path: None },
        Some("Social"),
        Some(picker.clone()),
    );
    let h = &mut app.harness;
    // Tall enough that the reconcile table's first rows are on screen (rows are virtual).
    h.set_size(egui::vec2(1280.0, 1600.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    h.get_by_role_and_label(Role::Button, "Tally check").click();
    step_until(h, "the suggestion", |h| {
        has_label(h, "POST#…/META.likeTally = count(LIKE#…)")
    });
    h.get_by_role_and_label(Role::Button, "Use").click();
    step_until(h, "the check form", |h| has_label(h, "Check"));
    assert_eq!(
        h.state().remembered().rules.values().next().map(Vec::len),
        Some(1),
        "the rule is saved for this connection and table"
    );
    h.get_by_role_and_label(Role::Button, "Check").click();
    step_until(h, "the result", |h| {
        has_label(h, "The stored tally equals the 3 children.")
    });
    // Stored | counted | drift, side by side.
    let values: Vec<String> = ["Stored tally", "Counted children", "Drift"]
        .iter()
        .map(|title| {
            assert!(has_label(h, title));
            title.to_string()
        })
        .collect();
    assert_eq!(values.len(), 3);
    assert_eq!(
        h.query_all_by_label("3").count(),
        2,
        "3 stored and 3 counted"
    );
    assert!(has_label(h, "0"), "drift 0");
    assert!(
        has_label_containing(h, "Select=COUNT"),
        "how it was counted"
    );

    h.get_by_role_and_label(Role::Button, "Reconcile").click();
    step_until(h, "every parent", |h| {
        has_label_containing(h, "45 of 45 parents")
    });
    step_until(h, "the end", |h| {
        has_label_containing(h, "45 parents checked · 3 drifted")
    });
    // Parents listed in the results, top first.
    // Texts in tree order; a plain label carries its text as the node's value.
    let all: Vec<String> = h
        .query_all_by_role(Role::Label)
        .filter_map(|n| {
            let node = n.accesskit_node();
            node.label().or_else(|| node.value())
        })
        .collect();
    let listed: Vec<String> = all
        .iter()
        .filter(|l| l.len() == 9 && l.starts_with("POST#"))
        .cloned()
        .collect();
    assert!(listed.len() >= 5, "{listed:?}");
    let drifted = ["POST#3b0c", "POST#77f1", "POST#d71e"];
    let top: std::collections::BTreeSet<&str> = listed[..3].iter().map(String::as_str).collect();
    assert_eq!(top, drifted.into(), "the drifted ones on top");
    assert!(
        listed[3..].iter().all(|p| !drifted.contains(&p.as_str())),
        "and only them"
    );

    // Export the result as CSV.
    h.get_by_role_and_label(Role::Button, "Export CSV").click();
    step_until(h, "the export", |h| {
        has_label_containing(h, "Exported 45 parents to")
    });
    assert_eq!(*picker.suggested.lock().unwrap(), ["Social-reconcile.csv"]);
    let csv = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "pk,stored,counted,drift,pages,rcu");
    assert_eq!(lines.len(), 46);
    assert!(
        lines[1].starts_with("POST#77f1,,"),
        "missing tally first: {}",
        lines[1]
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_sharded_counter_is_summed_and_its_hot_shard_named() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Videos"));
    let h = &mut app.harness;
    query_partition(h, "VID#c0de");
    step_until(h, "the shards", |h| has_label(h, "STATS#TOTAL#7"));
    h.get_by_role_and_label(Role::Button, "Tally check").click();
    step_until(h, "the suggestion", |h| {
        has_label(h, "sum(STATS#TOTAL#….play_count)")
    });
    h.get_all_by_role_and_label(Role::Button, "Use")
        .next()
        .unwrap()
        .click();
    step_until(h, "the shard form", |h| has_label(h, "Sum shards"));
    h.get_by_role_and_label(Role::Button, "Sum shards").click();
    step_until(h, "the total", |h| has_label(h, "Total 18312"));
    assert!(has_label(
        h,
        "Hot shard: STATS#TOTAL#3 holds 9876 (53.9% of the total)"
    ));
    assert!(has_label(h, "STATS#TOTAL#3: 9876"));
}

#[test]
fn a_drifted_parent_is_repaired_after_confirmation_and_children_shown() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    query_partition(h, "POST#d71e");
    step_until(h, "the results", |h| has_label_containing(h, "items ·"));
    h.get_by_role_and_label(Role::Button, "Tally check").click();
    step_until(h, "the suggestion", |h| has_label(h, "Use"));
    h.get_by_role_and_label(Role::Button, "Use").click();
    step_until(h, "the check form", |h| has_label(h, "Check"));
    h.get_by_role_and_label(Role::Button, "Check").click();
    step_until(h, "the drift", |h| has_label(h, "+1"));
    h.get_by_role_and_label(Role::Button, "Repair…").click();
    step_until(h, "the proposal", |h| has_label(h, "Confirm repair"));
    assert!(has_label_containing(h, "Last touched: updatedAt = 2025-"));
    assert!(has_label_containing(
        h,
        "ConditionExpression: #a = :current"
    ));
    assert!(has_label_containing(h, "A drift is a bug to find"));
    h.get_by_role_and_label(Role::Button, "Confirm repair")
        .click();
    step_until(h, "the repair", |h| {
        has_label_containing(h, "Repaired: the tally is 225 now.")
    });
    assert!(has_label_containing(
        h,
        "Checked again: stored 225 · counted 225 · drift 0."
    ));

    h.get_by_role_and_label(Role::Button, "Show children")
        .click();
    step_until(h, "the children", |h| has_label_containing(h, "225 items"));
    assert!(!has_label(h, "META"), "only LIKE# children are listed");
}

fn open_like_lab(h: &mut Harness<'_, DynoscopeApp>, partition: &str) {
    query_partition(h, partition);
    step_until(h, "the results", |h| has_label_containing(h, "items ·"));
    h.get_by_role_and_label(Role::Button, "Like lab").click();
    step_until(h, "the like lab", |h| {
        has_label(h, "Like and unlike by hand")
    });
}

#[test]
fn like_by_hand_then_send_again_then_storm_and_lab() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1280.0, 1400.0));
    open_like_lab(h, "POST#a91f");
    h.get_by_role_and_label(Role::Button, "Like").click();
    step_until(h, "the like", |h| has_label_containing(h, "Committed · "));
    assert_eq!(
        h.query_all_by_label("3 → 4").count(),
        2,
        "tally and children, side by side"
    );
    assert!(has_label(h, "like POST#a91f as USER#new1"));

    h.get_by_role_and_label(Role::Button, "Send again").click();
    step_until(h, "the replay", |h| {
        has_label(h, "Cancelled: [ConditionalCheckFailed, None]")
    });
    assert!(has_label(h, "Sent again: like POST#a91f as USER#new1"));
    assert_eq!(
        h.query_all_by_label("4 → 4").count(),
        2,
        "the tally did not move"
    );

    h.get_by_label("Users").focus();
    h.step();
    for _ in 0..3 {
        h.key_press(egui::Key::Backspace);
        h.step();
    }
    h.get_by_label("Users").type_text("50");
    h.step();
    h.get_by_role_and_label(Role::Button, "Start storm").click();
    step_until(h, "the storm", |h| has_label_containing(h, "· EQUAL"));
    assert!(has_label_containing(
        h,
        "Cancelled [ConditionalCheckFailed, None]: 10"
    ));

    h.get_by_role_and_label(Role::Button, "Run counter lab")
        .click();
    step_until(h, "the lab", |h| has_label(h, "Lost updates"));
    assert!(has_label(h, "atomic ADD"));
    assert!(has_label(h, "conditional SET with retries"));
}

#[test]
fn writes_outside_the_sandbox_need_confirmation() {
    let engine_runtime = tokio::runtime::Runtime::new().unwrap();
    let sandbox = engine_runtime
        .block_on(dynoscope::core::sandbox::Sandbox::start(None, 0))
        .unwrap();
    let spec = ConnectionSpec::Endpoint {
        url: sandbox.endpoint().to_owned(),
        profile: None,
        region: None,
    };
    let mut app = start(spec, Some("Social"));
    let h = &mut app.harness;
    open_like_lab(h, "POST#a91f");
    h.get_by_role_and_label(Role::Button, "Like").click();
    step_until(h, "the confirmation", |h| has_label(h, "Confirm write"));
    assert!(has_label_containing(
        h,
        "writes to table Social at Endpoint"
    ));
    assert!(!has_label_containing(h, "Committed"), "nothing sent yet");
    // Storm and lab stay disabled until the table name is typed.
    assert!(has_label(h, "Type the table name to allow"));
    h.get_by_role_and_label(Role::Button, "Confirm write")
        .click();
    step_until(h, "the like", |h| has_label_containing(h, "Committed · "));
    drop(sandbox);
}

#[test]
fn the_panel_reports_and_retries_transaction_conflicts() {
    let engine_runtime = tokio::runtime::Runtime::new().unwrap();
    let (sandbox, proxy) = engine_runtime.block_on(async {
        let sandbox = dynoscope::core::sandbox::Sandbox::start(None, 0)
            .await
            .unwrap();
        let (proxy, _) = common::conflicting_proxy(sandbox.addr(), 2).await;
        (sandbox, proxy)
    });
    let spec = ConnectionSpec::Endpoint {
        url: format!("http://{proxy}"),
        profile: None,
        region: None,
    };
    let mut app = start(spec, Some("Social"));
    let h = &mut app.harness;
    open_like_lab(h, "POST#a91f");
    h.get_by_role_and_label(Role::Button, "Like").click();
    step_until(h, "the confirmation", |h| has_label(h, "Confirm write"));
    h.get_by_role_and_label(Role::Button, "Confirm write")
        .click();
    step_until(h, "the like", |h| has_label_containing(h, "Committed · "));
    assert!(has_label(
        h,
        "2 TransactionConflict cancellation(s) retried (3 attempts)."
    ));
    assert_eq!(h.query_all_by_label("3 → 4").count(), 2, "applied once");
    drop(sandbox);
}

fn copied(h: &Harness<'_, DynoscopeApp>) -> Vec<String> {
    h.output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

fn type_into(h: &mut Harness<'_, DynoscopeApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.step();
    h.get_by_label(label).type_text(text);
    h.step();
}

#[test]
fn build_add_like_tally_with_a_condition_copy_and_run_it() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1280.0, 1400.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "META"));
    h.get_by_label("META").click();
    step_until(h, "the item", |h| has_label(h, "Item JSON"));
    h.get_by_role_and_label(Role::Button, "Expressions").click();
    step_until(h, "the builder", |h| has_label(h, "Expression builder"));
    h.get_by_role_and_label(Role::Button, "Use selected row")
        .click();
    h.step();
    type_into(h, "UpdateExpression text", "ADD likeTally :one");
    type_into(h, "ConditionExpression text", "attribute_not_exists(SK)");
    // `:one` is not defined yet: the error says so, where it is.
    step_until(h, "the error", |h| {
        has_label_containing(h, ":one is not in the expression attribute values")
    });
    h.get_by_role_and_label(Role::Button, "+ value").click();
    h.step();
    h.get_by_label("Value placeholder").focus();
    h.step();
    for _ in 0..2 {
        h.key_press(egui::Key::Backspace);
        h.step();
    }
    type_into(h, "Value placeholder", "one");
    step_until(h, "the request", |h| has_label(h, "Generated request"));
    let generated = h
        .get_by_label("Generated request")
        .value()
        .unwrap_or_default();
    assert!(
        generated.contains(r#""UpdateExpression": "ADD #n0 :v0""#),
        "{generated}"
    );
    assert!(
        generated.contains(r#""ConditionExpression": "attribute_not_exists(#n1)""#),
        "{generated}"
    );

    h.get_by_role_and_label(Role::Button, "AWS CLI").click();
    h.step();
    h.get_by_role_and_label(Role::Button, "Copy request")
        .click();
    h.step();
    let texts = copied(h);
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(
        texts[0].starts_with("aws dynamodb update-item"),
        "{}",
        texts[0]
    );
    assert!(
        texts[0].contains("--update-expression 'ADD #n0 :v0'"),
        "{}",
        texts[0]
    );
    assert!(texts[0].contains(r##""#n0":"likeTally""##), "{}", texts[0]);

    // META exists, so attribute_not_exists(SK) refuses: the run says so with the server's code.
    h.get_by_role_and_label(Role::Button, "Run").click();
    step_until(h, "the run", |h| {
        has_label_containing(h, "UpdateItem failed: ConditionalCheckFailedException")
    });

    // A reserved word typed bare is pointed at.
    type_into(h, "UpdateExpression text", " SET count = 1");
    step_until(h, "the error", |h| {
        has_label_containing(h, "`count` is a reserved word")
    });
}

#[test]
fn an_add_edit_opens_in_the_builder() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Videos"));
    let h = &mut app.harness;
    query_partition(h, "VID#9f3a");
    step_until(h, "the stats row", |h| has_label(h, "STATS#TOTAL"));
    h.get_by_label("STATS#TOTAL").click();
    step_until(h, "the counter editor", |h| has_label(h, "Numbers"));
    h.get_by_role_and_label(Role::Button, "+1").click();
    step_until(h, "the result card", |h| has_label(h, "41 → 42"));
    h.get_by_role_and_label(Role::Button, "Open in builder")
        .click();
    step_until(h, "the builder", |h| {
        has_label(h, "Opened from the ADD edit")
    });
    let generated = h
        .get_by_label("Generated request")
        .value()
        .unwrap_or_default();
    assert!(
        generated.contains(r#""UpdateExpression": "ADD #n0 :v0""#),
        "{generated}"
    );
    assert!(generated.contains(r##""#n0":"play_count""##), "{generated}");
}

#[test]
fn the_builder_queries_and_takes_a_pasted_request_back() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1280.0, 1400.0));
    step_until(h, "the table", |h| has_label(h, "Expressions"));
    h.get_by_role_and_label(Role::Button, "Expressions").click();
    step_until(h, "the builder", |h| has_label(h, "Expression builder"));
    h.get_by_role_and_label(Role::Button, "Query").click();
    h.step();
    type_into(
        h,
        "KeyConditionExpression text",
        "PK = 'POST#a91f' AND likeTally > 1",
    );
    step_until(h, "the key rule", |h| {
        has_label_containing(h, "a key condition is `PK = value`")
    });
    for _ in 0.."likeTally > 1".len() {
        h.key_press(egui::Key::Backspace);
    }
    h.step();
    type_into(h, "KeyConditionExpression text", "begins_with(SK, 'LIKE#')");
    step_until(h, "the request", |h| has_label(h, "Generated request"));
    h.get_by_role_and_label(Role::Button, "Run").click();
    step_until(h, "the run", |h| {
        has_label_containing(h, "Query: 3 items on the first page")
    });

    // Paste a request: it comes back into the builder, names and values included.
    h.get_by_label("Paste a request").click();
    h.step();
    let pasted = r##"{"TableName": "Social", "Key": {"PK": {"S": "POST#a91f"}, "SK": {"S": "META"}}, "UpdateExpression": "SET #t = :next", "ConditionExpression": "#t = :current", "ExpressionAttributeNames": {"#t": "likeTally"}, "ExpressionAttributeValues": {":next": {"N": "3"}, ":current": {"N": "3"}}}"##;
    type_into(h, "Pasted request", pasted);
    h.get_by_role_and_label(Role::Button, "Parse into the builder")
        .click();
    step_until(h, "the parsed request", |h| {
        has_label(h, "Opened from a pasted request")
    });
    let generated = h
        .get_by_label("Generated request")
        .value()
        .unwrap_or_default();
    assert!(
        generated.contains(r#""UpdateExpression": "SET #n0 = :v0""#),
        "{generated}"
    );
    assert!(
        generated.contains(r##""ConditionExpression": "#n0 = :v1""##),
        "{generated}"
    );
}
