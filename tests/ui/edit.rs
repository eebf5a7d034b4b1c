//! Editing a number: the server's value in the cell and the card, a race, the exact mode.

use dynoscope::core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

use crate::*;

#[test]
fn plus_one_on_play_count_shows_the_servers_new_value() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Videos"));
    let h = &mut app.harness;
    open_stats_row(h);
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
    let Outside {
        runtime: engine_runtime,
        sandbox,
        client,
    } = outside_sandbox();
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
    let spec = endpoint(sandbox.endpoint());
    let mut app = start(spec, Some("Videos"));
    let h = &mut app.harness;
    open_stats_row(h);

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

#[test]
fn an_add_edit_opens_in_the_builder() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Videos"));
    let h = &mut app.harness;
    open_stats_row(h);
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
        generated.contains(r#""UpdateExpression": "ADD #a :d""#),
        "the edit's own placeholders: {generated}"
    );
    assert!(generated.contains(r##""#a":"play_count""##), "{generated}");
}
