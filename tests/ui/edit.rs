//! Editing a number: the server's value in the cell and the card, a race, the exact mode.

use dynoscope_core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT as _, Queryable};

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

    let plus = h.get_by_role_and_label(Role::Button, "+1").rect();
    h.get_by_role_and_label(Role::Button, "+1").click();
    step_until(h, "the result card", |h| has_label(h, "41 → 42"));
    // The outcome is said in one line at the head of the Numbers panel, in view, and nothing
    // scrolls: the next +1 is where the last one was.
    step_until(h, "the outcome in view", |h| {
        h.query_all_by_label("play_count: 41 → 42")
            .any(|n| n.rect().bottom() <= 800.0)
    });
    for _ in 0..3 {
        h.step();
    }
    assert_eq!(
        h.get_by_role_and_label(Role::Button, "+1").rect(),
        plus,
        "the +1 button has not moved"
    );
    assert!(
        has_label(h, "ADD #a :d on play_count"),
        "the card names the expression"
    );
    assert!(
        has_label(h, "expected 42 · 1 WCU ≈ $0.000000625 on demand"),
        "expected value and consumed capacity"
    );
    // The row is read back from the server: its value in the cell and the editor.
    step_until(h, "the server's value read back", |h| {
        h.query_all_by_label("42").count() == 2
    });
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
        ..
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
    // Nothing scrolled away: the mode is where it was.
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
    // The row is read back from the server: its value in the cell and the editor.
    step_until(h, "the server's value read back", |h| {
        h.query_all_by_label("60").count() == 2
    });
    // A refusal that offers a retry brings its card into view: the next step is there.
    step_until(h, "the retry in view", |h| {
        h.get_by_role_and_label(Role::Button, "Retry from 60")
            .rect()
            .bottom()
            <= 800.0
    });
    h.get_by_role_and_label(Role::Button, "Retry from 60")
        .click();
    step_until(h, "the retry", |h| has_label(h, "60 → 61"));
    step_until(h, "cell and editor read back", |h| {
        h.query_all_by_label("61").count() == 2
    });
}

/// Answers the save dialog with a fixed path (or cancels), and remembers the suggested name.

#[test]
fn an_add_edit_opens_in_the_builder() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Videos"));
    let h = &mut app.harness;
    open_stats_row(h);
    h.get_by_role_and_label(Role::Button, "+1").click();
    step_until(h, "the result card", |h| has_label(h, "41 → 42"));
    step_until(h, "the server's value read back", |h| {
        h.query_all_by_label("42").count() == 2
    });
    // The card stays below the Numbers (nothing scrolls by itself): scrolled to, as a user does.
    click_shown(h, "Open in builder");
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

#[test]
fn the_editor_starts_afresh_on_another_item_or_table() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Videos"));
    let h = &mut app.harness;
    open_stats_row(h);
    h.get_by_role_and_label(Role::Button, "+1").click();
    step_until(h, "the result card", |h| has_label(h, "41 → 42"));
    type_into(h, "Attribute", "likeTally");
    assert!(
        has_label_containing(h, "SK = STATS#TOTAL"),
        "what Send writes to"
    );
    // Another item: the form and the card are gone; nothing of the old item is offered.
    h.get_by_label("META").click();
    step_until(h, "the other item", |h| {
        has_label_containing(h, "SK = META")
    });
    assert!(
        h.query_by_label("41 → 42").is_none(),
        "the old card is gone"
    );
    assert_eq!(
        h.get_by_label("Attribute").value().unwrap_or_default(),
        "",
        "the attribute typed for the other item is gone"
    );
    // Another table: the same.
    type_into(h, "Attribute", "likeTally");
    h.get_by_label("Social").click();
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "META"));
    h.get_by_label("META").click();
    step_until(h, "the Social item", |h| {
        has_label_containing(h, "table Social")
    });
    assert_eq!(h.get_by_label("Attribute").value().unwrap_or_default(), "");
}

#[test]
fn an_edit_to_an_endpoint_not_on_this_machine_waits_for_confirmation() {
    remote_credentials();
    let Outside {
        runtime: engine_runtime,
        sandbox,
        connection,
        ..
    } = outside_sandbox();
    // The same server under an address not recognised as this machine's.
    let remote = format!("http://0.0.0.0:{}", sandbox.addr().port());
    let mut app = start(endpoint(&remote), Some("Videos"));
    let h = &mut app.harness;
    open_stats_row(h);
    h.get_by_role_and_label(Role::Button, "+1").click();
    step_until(h, "the question", |h| {
        has_label_containing(
            h,
            &format!(
                "This writes to table Videos, item PK = VID#9f3a · SK = STATS#TOTAL at {remote}"
            ),
        )
    });
    let stored = || {
        engine_runtime
            .block_on(dynoscope_core::read::read_number(
                &connection.reader(),
                "Videos",
                &common_key(),
                "play_count",
            ))
            .unwrap()
    };
    assert_eq!(
        stored().as_deref(),
        Some("41"),
        "nothing sent before the yes"
    );
    // The question appears below the Numbers and is brought into view: clicked where it is shown.
    click_shown(h, "Don't write");
    step_until(h, "the question to go", |h| {
        !has_label_containing(h, "This writes to table Videos")
    });
    assert_eq!(stored().as_deref(), Some("41"));
    h.get_by_role_and_label(Role::Button, "+1").click();
    step_until(h, "the question", |h| has_label(h, "Confirm write"));
    click_shown(h, "Confirm write");
    step_until(h, "the result card", |h| has_label(h, "41 → 42"));
    assert_eq!(stored().as_deref(), Some("42"));
}

fn common_key() -> dynoscope_core::value::Item {
    use aws_sdk_dynamodb::types::AttributeValue;
    dynoscope_core::value::Item::from([
        ("PK".to_owned(), AttributeValue::S("VID#9f3a".into())),
        ("SK".to_owned(), AttributeValue::S("STATS#TOTAL".into())),
    ])
}

#[test]
fn a_read_only_connection_refuses_every_edit() {
    // As `dynoscope --read-only` opens it: the bar says so, and +1 is refused unsent.
    let mut app = start_read_only(ConnectionSpec::Sandbox { db_path: None }, Some("Videos"));
    let h = &mut app.harness;
    open_stats_row(h);
    assert!(has_label_containing(h, "· read-only"), "the bar says so");
    // Every write control is off, and says why; the gateway would refuse anyway.
    assert!(has_label_containing(
        h,
        "Read-only: writes to sandbox · http://127.0.0.1"
    ));
    for label in ["+1", "-1", "Send"] {
        let disabled = h
            .query_all_by_role_and_label(Role::Button, label)
            .all(|b| b.accesskit_node().is_disabled());
        assert!(disabled, "{label} is off");
    }
    h.get_by_role_and_label(Role::Button, "+1").click();
    h.step();
    h.step();
    assert_eq!(h.query_all_by_label("41").count(), 2, "unchanged");
}
