//! The expression builder: compose, copy, run, open the app's writes, paste back.

use dynoscope_core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

use crate::*;

/// Type the update (its error said in place, the field below not moved), its condition, and
/// its value's placeholder.
fn type_the_update_and_its_condition(h: &mut Harness<'_, DynoscopeApp>) {
    let condition_top =
        |h: &Harness<'_, DynoscopeApp>| h.get_by_label("ConditionExpression text").rect().top();
    let before = condition_top(h);
    type_into(h, "UpdateExpression text", "ADD likeTally :one");
    // `:one` is not defined yet: the error says so, where it is.
    step_until(h, "the error", |h| {
        has_label_containing(h, ":one is not in the expression attribute values")
    });
    let after = condition_top(h);
    assert_eq!(
        after.to_bits(),
        before.to_bits(),
        "the field below stays where it was: {before} then {after}"
    );
    type_into(h, "ConditionExpression text", "attribute_not_exists(SK)");
    h.get_by_role_and_label(Role::Button, "+ value").click();
    h.step();
    h.get_by_label("Value placeholder").focus();
    h.step();
    for _ in 0..2 {
        h.key_press(egui::Key::Backspace);
        h.step();
    }
    type_into(h, "Value placeholder", "one");
}

/// Copy the request as an AWS CLI command: one text, to the sandbox's endpoint (never the
/// user's AWS account), with its expression and names; the command copied.
fn copy_as_aws_cli(h: &mut Harness<'_, DynoscopeApp>) -> String {
    h.get_by_role_and_label(Role::Button, "AWS CLI").click();
    h.step();
    h.get_by_role_and_label(Role::Button, "Copy request")
        .click();
    h.step();
    let texts = copied(h);
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(
        texts[0].starts_with(
            "AWS_ACCESS_KEY_ID=dynoscope AWS_SECRET_ACCESS_KEY=dynoscope-local aws dynamodb update-item \\\n  --endpoint-url http://127.0.0.1:"
        ),
        "the sandbox's endpoint, not the user's AWS account: {}",
        texts[0]
    );
    assert!(texts[0].contains("--region us-east-1"), "{}", texts[0]);
    assert!(
        texts[0].contains("--update-expression 'ADD #n0 :one'"),
        "{}",
        texts[0]
    );
    assert!(texts[0].contains(r##""#n0":"likeTally""##), "{}", texts[0]);
    texts[0].clone()
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
    // The key fields come filled from the grid's cursor row.
    assert_eq!(
        h.get_by_label("Key PK (S)").value().as_deref(),
        Some("POST#a91f")
    );
    assert_eq!(
        h.get_by_label("Key SK (S)").value().as_deref(),
        Some("META")
    );
    type_the_update_and_its_condition(h);
    step_until(h, "the request", |h| has_label(h, "Generated request"));
    let generated = h
        .get_by_label("Generated request")
        .value()
        .unwrap_or_default();
    assert!(
        generated.contains(r#""UpdateExpression": "ADD #n0 :one""#),
        "{generated}"
    );
    assert!(
        generated.contains(r#""ConditionExpression": "attribute_not_exists(#n1)""#),
        "{generated}"
    );

    let copied_cli = copy_as_aws_cli(h);

    // META exists, so attribute_not_exists(SK) refuses: the run says so, with the item as the
    // server holds it.
    h.get_by_role_and_label(Role::Button, "Run").click();
    step_until(h, "the run", |h| {
        has_label_containing(
            h,
            "UpdateItem refused: the condition failed; nothing was written.",
        )
    });

    // A reserved word typed bare is aliased, and the note says so.
    type_into(h, "UpdateExpression text", " SET count = 1");
    step_until(h, "the note", |h| {
        has_label_containing(h, "`count` is a DynamoDB reserved word: sent as #n0")
    });
    let generated = h
        .get_by_label("Generated request")
        .value()
        .unwrap_or_default();
    assert!(
        generated.contains("--update-expression 'SET #n0 = :v0 ADD #n1 :one'"),
        "{generated}"
    );

    // The AWS CLI command copied earlier pastes back: the same request as then.
    h.get_by_label("Paste a request").click();
    h.step();
    type_into(h, "Pasted request", &copied_cli);
    h.get_by_role_and_label(Role::Button, "Parse into the builder")
        .click();
    step_until(h, "the parsed request", |h| {
        has_label(h, "Opened from a pasted request")
    });
    let generated = h
        .get_by_label("Generated request")
        .value()
        .unwrap_or_default();
    assert_eq!(generated, copied_cli);
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
        generated.contains(r#""UpdateExpression": "SET #t = :next""#),
        "{generated}"
    );
    assert!(
        generated.contains(r##""ConditionExpression": "#t = :current""##),
        "{generated}"
    );
}

#[test]
fn the_builder_takes_a_typed_key_with_no_row_opened() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Videos"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1280.0, 1400.0));
    step_until(h, "the views", |h| has_label(h, "Expressions"));
    h.get_by_role_and_label(Role::Button, "Expressions").click();
    step_until(h, "the builder", |h| has_label(h, "Expression builder"));
    assert!(has_label_containing(h, "needs an item: type its key"));
    type_into(h, "Key PK (S)", "VID#9f3a");
    step_until(h, "half a key refused", |h| {
        has_label_containing(h, "`SK` is empty, but it is a key attribute")
    });
    type_into(h, "Key SK (S)", "STATS#TOTAL");
    type_into(h, "UpdateExpression text", "ADD play_count :one");
    h.step();
    h.get_by_role_and_label(Role::Button, "+ value").click();
    step_until(h, "a value row", |h| has_label(h, "Value placeholder"));
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
        generated.contains(r#""Key": {"PK":{"S":"VID#9f3a"},"SK":{"S":"STATS#TOTAL"}}"#),
        "{generated}"
    );
}

/// An update shown as a whole program: chosen in boto3, coloured, copied, and the copy run by
/// Python against the app's sandbox does what it says — here the condition fails (META
/// exists), so it exits 1 with the item as the server holds it, and writes nothing.
#[test]
fn an_update_shows_as_a_whole_program_that_python_runs() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1280.0, 1400.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "META"));
    h.get_by_label("META").click();
    step_until(h, "the item", |h| has_label(h, "Item JSON"));
    h.get_by_role_and_label(Role::Button, "Expressions").click();
    step_until(h, "the builder", |h| has_label(h, "Expression builder"));
    type_the_update_and_its_condition(h);
    step_until(h, "the request", |h| has_label(h, "Generated request"));
    h.get_by_role_and_label(Role::Button, "boto3").click();
    h.step();
    h.get_by_label("Whole program").click();
    step_until(h, "the program", |h| {
        has_label_containing(h, "save it as counter_write.py and run: pip install boto3")
    });
    assert!(
        has_label_containing(h, "total_max_attempts"),
        "the code is shown"
    );
    h.get_by_role_and_label(Role::Button, "Copy program")
        .click();
    h.step();
    let texts = copied(h);
    assert_eq!(texts.len(), 1, "{texts:?}");
    let out = std::process::Command::new("python3")
        .args(["-c", &texts[0]])
        .env_remove("AWS_PROFILE")
        .output()
        .expect("python3 runs (scripts/test.sh puts boto3 on the PATH)");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}\n{stderr}", texts[0]);
    assert!(
        stderr.contains("condition failed, nothing written; the item now:")
            && stderr.contains("likeTally"),
        "{}\n{stderr}",
        texts[0]
    );
}
