//! The tally check: a suggestion used, one parent, reconcile, shards, a guarded repair.

use dynoscope_core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT, Queryable};

use crate::*;

/// Open Tally check and use the first rule suggested by the rows loaded.
fn use_suggested_rule(h: &mut egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>) {
    h.get_by_role_and_label(Role::Button, "Tally check").click();
    step_until(h, "the suggestion", |h| has_label(h, "Use"));
    h.get_by_role_and_label(Role::Button, "Use").click();
    step_until(h, "the check form", |h| has_label(h, "Check"));
}

/// One check's result: stored, counted and drift side by side, how it was counted and how old
/// it is.
fn one_check_side_by_side(h: &mut egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>) {
    // Stored | counted | drift, side by side.
    for title in ["Stored tally", "Counted children", "Drift"] {
        assert!(has_label(h, title), "{title}");
    }
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
    assert!(has_label_containing(
        h,
        "Read just now; writes since are not in it."
    ));
}

/// The reconcile's parents listed top first: the drifted ones, and only them.
fn the_drifted_parents_on_top(h: &mut egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>) {
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
}

#[test]
fn tally_check_accepts_the_suggestion_and_reconciles_all_posts() {
    let (path, picker) = saving_to("reconcile.csv");
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
    let remembered = h.state().remembered();
    let saved = remembered.rule_book.saved();
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert_eq!(
        (saved[0].connection.0.as_str(), saved[0].table.as_str()),
        ("sandbox:memory", "Social"),
        "the rule is saved for this connection and table"
    );
    assert_eq!(saved[0].rules.len(), 1);
    h.get_by_role_and_label(Role::Button, "Check").click();
    step_until(h, "the result", |h| {
        has_label(h, "The stored tally equals the 3 children.")
    });
    one_check_side_by_side(h);

    h.get_by_role_and_label(Role::Button, "Reconcile").click();
    step_until(h, "every parent", |h| {
        has_label_containing(h, "45 of 45 parents")
    });
    step_until(h, "the end", |h| {
        has_label_containing(h, "45 parents checked · 3 drifted")
    });
    // The plan is the job's own, as the CLI notes it and an agent reads it.
    let plan = "Plan: one pass: a parallel scan in 8 segments.";
    assert!(has_label_containing(h, plan), "{plan}");
    // The results say how old they are.
    assert!(
        has_label_containing(h, "Results read just now: writes since are not in them"),
        "the reconcile's age"
    );
    the_drifted_parents_on_top(h);

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

    // An empty key is asked for, not summed as "Total 0 over 0 shards".
    h.get_by_label("Counter PK (S) =").focus();
    h.step();
    for _ in 0.."VID#c0de".len() {
        h.key_press(egui::Key::Backspace);
    }
    h.step();
    h.get_by_role_and_label(Role::Button, "Sum shards").click();
    step_until(h, "the question for the key", |h| {
        has_label_containing(h, "give a value for the partition key `PK`")
    });
    assert!(!has_label_containing(h, "Total "), "no total of nothing");
}

#[test]
fn a_drifted_parent_is_repaired_after_confirmation_and_children_shown() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    query_partition(h, "POST#d71e");
    step_until(h, "the results", |h| has_label_containing(h, "items ·"));
    use_suggested_rule(h);
    h.get_by_role_and_label(Role::Button, "Check").click();
    step_until(h, "the drift", |h| has_label(h, "+1"));
    h.get_by_role_and_label(Role::Button, "Repair…").click();
    step_until(h, "the proposal", |h| has_label(h, "Confirm repair"));
    assert!(has_label_containing(h, "Last touched: updatedAt = 2025-"));
    assert!(has_label_containing(
        h,
        "ConditionExpression: attribute_exists(#k) AND #a = :current"
    ));
    assert!(has_label_containing(h, "A drift is a bug to find"));
    h.get_by_role_and_label(Role::Button, "Confirm repair")
        .click();
    step_until(h, "the repair", |h| {
        has_label_containing(
            h,
            "Repaired: the tally is 225 now (1 WCU ≈ $0.000000625 on demand).",
        )
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

#[test]
fn reconcile_shows_its_estimate_and_reads_an_export_and_copies_athena_sql() {
    // An S3-style export of the seeded Social table (every sandbox is seeded alike).
    let outside = outside_sandbox();
    let dir = std::env::temp_dir().join(format!("dynoscope-ui-export-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    outside.runtime.block_on(async {
        let info = dynoscope_core::read::describe_table(&outside.connection.reader(), "Social")
            .await
            .unwrap();
        let read = dynoscope_core::read::read_table(&outside.connection.reader(), &info, None)
            .await
            .unwrap();
        dynoscope_core::transfer::write_rows_file(
            &dir.join("data").join("part-0.json.gz"),
            &read.rows,
            &info.key_names(),
            dynoscope_core::transfer::Format::S3Export,
            true,
            // A run before with the same process id may have left it.
            dynoscope_core::transfer::IfExists::Replace,
        )
        .unwrap();
    });
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1280.0, 1600.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    h.get_by_role_and_label(Role::Button, "Tally check").click();
    step_until(h, "the suggestion", |h| has_label(h, "Use"));
    h.get_by_role_and_label(Role::Button, "Use").click();
    step_until(h, "the reconcile form", |h| has_label(h, "Reconcile"));
    // The estimate, before anything runs: one pass is cheaper for the whole table.
    assert!(has_label_containing(
        h,
        "One pass: a parallel scan of Social ("
    ));
    // Beside it, the routes for the whole table: a table this small is scanned from here.
    h.get_by_label("Which route? (scan, export, Athena)")
        .click();
    step_until(h, "the routes", |h| {
        has_label_containing(h, "recommended: scan from here")
    });
    assert!(has_label_containing(h, "scan from here: $"));
    assert!(has_label_containing(h, "export, then Athena: $"));
    h.get_by_label("Which route? (scan, export, Athena)")
        .click();
    h.step();
    h.get_by_role_and_label(Role::RadioButton, "An export's files")
        .click();
    step_until(h, "the export form", |h| has_label(h, "Export path"));
    type_into(h, "Export path", &dir.display().to_string());
    h.get_by_role_and_label(Role::Button, "Reconcile").click();
    step_until(h, "the reconciliation", |h| {
        has_label_containing(h, "45 parents checked · 3 drifted")
    });
    assert!(
        has_label_containing(h, "· 0 RCU ≈ $0 on demand in all"),
        "no read capacity used"
    );
    // What the job read, in its words: the export's files, and no item from the table.
    for said in [
        "Plan: one pass over the export's files.",
        "from the export; no item read from the table.",
    ] {
        assert!(has_label_containing(h, said), "{said}");
    }
    type_into(h, "S3 location", "s3://bucket/AWSDynamoDB/0170/data/");
    h.get_by_role_and_label(Role::Button, "Copy as Athena SQL")
        .click();
    h.step();
    let sql = copied(h).join("");
    assert!(
        sql.contains("CREATE EXTERNAL TABLE `social_export`"),
        "{sql}"
    );
    assert!(sql.contains("GROUP BY item.\"PK\".\"S\""), "{sql}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn reconcile_lists_a_bad_parent_and_repairs_all_drifted_after_one_confirmation() {
    use aws_sdk_dynamodb::types::AttributeValue;
    remote_credentials();
    let outside = outside_sandbox();
    outside.runtime.block_on(async {
        outside
            .client
            .put_item()
            .table_name("Social")
            .item("PK", AttributeValue::S("POST#c5v4".into()))
            .item("SK", AttributeValue::S("META".into()))
            .item("likeTally", AttributeValue::S("08001".into()))
            .send()
            .await
            .unwrap();
    });
    let remote = format!("http://0.0.0.0:{}", outside.sandbox.addr().port());
    let mut app = start(endpoint(&remote), Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1280.0, 1600.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    use_suggested_rule(h);
    h.get_by_role_and_label(Role::Button, "Reconcile").click();
    step_until(h, "the end", |h| {
        has_label_containing(h, "45 parents checked · 3 drifted (1 missing a tally)")
    });
    assert!(has_label_containing(h, "1 parent not checked"));
    assert!(has_label_containing(
        h,
        "POST#c5v4: the tally `likeTally` is S, not a number"
    ));
    h.get_by_role_and_label(Role::Button, "Repair all 3 drifted…")
        .click();
    step_until(h, "the one question", |h| {
        has_label_containing(h, "the `likeTally` of 3 drifted parents")
    });
    h.get_by_role_and_label(Role::Button, "Confirm write")
        .click();
    step_until(h, "every repair", |h| {
        has_label_containing(h, "Repair: 3 parents repaired.")
    });
    let lines: std::collections::BTreeSet<String> = h
        .query_all_by(|n| {
            n.value()
                .or_else(|| n.label())
                .is_some_and(|l| l.contains(": Repaired: the tally is"))
        })
        .filter_map(|n| {
            n.accesskit_node()
                .value()
                .or_else(|| n.accesskit_node().label())
        })
        .collect();
    assert_eq!(lines.len(), 3, "a line per parent: {lines:?}");
    assert!(
        has_label_containing(h, "45 parents checked · 0 drifted"),
        "the results hold the parents checked again"
    );
}

#[test]
fn a_repair_refused_because_the_tally_moved_proposes_anew_from_what_is_stored() {
    use aws_sdk_dynamodb::types::AttributeValue;
    let outside = outside_sandbox();
    let mut app = start(endpoint(outside.sandbox.endpoint()), Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1280.0, 1400.0));
    query_partition(h, "POST#d71e");
    step_until(h, "the results", |h| has_label_containing(h, "items ·"));
    use_suggested_rule(h);
    h.get_by_role_and_label(Role::Button, "Check").click();
    step_until(h, "the drift", |h| has_label(h, "+1"));
    h.get_by_role_and_label(Role::Button, "Repair…").click();
    step_until(h, "the proposal", |h| has_label(h, "Confirm repair"));
    // A second writer moves the tally behind the app's back.
    outside.runtime.block_on(async {
        outside
            .client
            .update_item()
            .table_name("Social")
            .key("PK", AttributeValue::S("POST#d71e".into()))
            .key("SK", AttributeValue::S("META".into()))
            .update_expression("SET likeTally = :v")
            .expression_attribute_values(":v", AttributeValue::N("230".into()))
            .send()
            .await
            .unwrap();
    });
    h.get_by_role_and_label(Role::Button, "Confirm repair")
        .click();
    step_until(h, "the refusal and a new proposal", |h| {
        has_label_containing(h, "A new proposal, from the tally as stored now")
    });
    assert!(has_label_containing(
        h,
        "the tally moved meanwhile (it is 230 now)"
    ));
    assert!(
        has_label_containing(h, "\"230\""),
        "the new :current is what is stored"
    );
    h.get_by_role_and_label(Role::Button, "Confirm repair")
        .click();
    step_until(h, "the repair", |h| {
        has_label_containing(
            h,
            "Repaired: the tally is 225 now (1 WCU ≈ $0.000000625 on demand).",
        )
    });
}
