//! Watch: one parent from now sees a like sent in the same app, with no divergence; the whole
//! table from the start of the stream finds POST#d71e's retried ADD; a table without a stream
//! is polled (RCU per poll), then its stream is turned on through the write flow.

use dynoscope_core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT as _, Queryable};

use crate::*;

/// Click the first node whose label (or value) contains `part`.
fn click_containing(h: &mut Harness<'_, DynoscopeApp>, part: &str) {
    h.query_all_by(|n| {
        n.label().is_some_and(|l| l.contains(part)) || n.value().is_some_and(|v| v.contains(part))
    })
    .next()
    .unwrap_or_else(|| panic!("nothing on screen says {part}"))
    .click();
    h.step();
}

fn open_watch(h: &mut Harness<'_, DynoscopeApp>) {
    h.get_by_role_and_label(Role::Button, "Watch").click();
    step_until(h, "the watch view", |h| has_label(h, "Watch counters"));
}

#[test]
fn watch_one_post_from_now_sees_a_like_without_divergence() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1400.0, 1600.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    open_watch(h);
    // The parent queried is the one watched.
    let field = h.get_by_label("Parent PK (S) =");
    assert_eq!(field.value().as_deref(), Some("POST#a91f"));
    h.get_by_role_and_label(Role::Button, "Start").click();
    step_until(h, "the watch to start", |h| {
        has_label_containing(h, "Watching POST#a91f's likeTally in Social from now")
    });

    // A like sent in the same app, while the watch goes on.
    h.get_by_role_and_label(Role::Button, "Like lab").click();
    step_until(h, "the like lab", |h| {
        has_label(h, "Like and unlike by hand")
    });
    h.get_by_role_and_label(Role::Button, "Like").click();
    step_until(h, "the like", |h| has_label_containing(h, "Committed · "));
    open_watch(h);
    step_until(h, "the like's records", |h| {
        has_label_containing(h, "LIKE#USER#new1 inserted")
            && has_label_containing(h, "likeTally 3 → 4")
    });
    assert!(has_label(h, "No divergence so far."));
    // A record's attribute diff.
    click_containing(h, "likeTally 3 → 4");
    step_until(h, "the diff", |h| {
        has_label(h, "Attribute diff (before → after):")
    });
    h.get_by_role_and_label(Role::Button, "Stop").click();
    step_until(h, "the summary", |h| {
        has_label_containing(h, "No divergence open: every likeTally watched moved")
    });
}

#[test]
fn watch_the_whole_table_from_the_start_of_the_stream_names_the_retried_add() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1400.0, 1600.0));
    step_until(h, "the table", |h| has_label(h, "Watch"));
    open_watch(h);
    // One click a frame: the parent's field goes, and the rows below move up.
    h.get_by_label("Whole table (every parent of the rule)")
        .click();
    h.step();
    h.get_by_label("From the start of the stream (last 24 h)")
        .click();
    h.step();
    h.get_by_role_and_label(Role::Button, "Start").click();
    step_until(h, "the watch to start", |h| {
        has_label_containing(h, "from the start of the stream (up to 24 hours back)")
    });
    // Its two ADDs (the like's, and the retry's) and the like's child.
    step_until(h, "POST#d71e's records", |h| {
        h.query_all_by(|n| {
            n.label()
                .is_some_and(|l| l.contains("POST#d71e  META  likeTally"))
        })
        .count()
            == 2
    });
    // Named while the watch runs, once it outlived the settle window (5 s of stream time,
    // this machine's clock once caught up).
    step_until(h, "POST#d71e's divergence", |h| {
        has_label_containing(h, "POST#d71e drift +1")
    });
    // The retried ADD is named; it wrote the request id the like had already written, so it
    // carries no evidence of its own.
    assert!(!has_label_containing(h, "(the item says lastRequestId"));
    // The view scrolls: the parent brought into view first, as a user would.
    h.get_by_label("POST#d71e (open)").scroll_to_me();
    for _ in 0..10 {
        h.step();
    }
    h.get_by_label("POST#d71e (open)").click();
    step_until(h, "the records filtered on it", |h| {
        h.get_by_label("Filter by parent").value().as_deref() == Some("POST#d71e")
    });
    step_until(h, "its chart", |h| {
        has_label_containing(h, "POST#d71e: stored likeTally and counted children")
    });
    if let Some(stop) = h.query_by_role_and_label(Role::Button, "Stop") {
        stop.click();
    }
    step_until(h, "the summary", |h| has_label_containing(h, "Watched "));
    assert!(has_label_containing(h, "divergences open:"));
}

#[test]
fn a_table_without_a_stream_is_polled_then_its_stream_turned_on() {
    let outside = outside_sandbox();
    let table = common::table_name("nostream");
    outside.runtime.block_on(async {
        common::create_table(&outside.client, &table).await;
        common::put_all(
            &outside.client,
            &table,
            vec![std::collections::HashMap::from([
                ("PK".to_owned(), common::s("POST#1")),
                ("SK".to_owned(), common::s("META")),
                ("likeTally".to_owned(), common::n("0")),
            ])],
        )
        .await;
    });
    let mut app = start(endpoint(outside.sandbox.endpoint()), Some(&table));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1400.0, 1600.0));
    step_until(h, "the table", |h| has_label(h, "Watch"));
    open_watch(h);
    step_until(h, "no stream", |h| {
        has_label_containing(h, &format!("table {table} has no stream"))
    });
    assert!(
        h.get_by_role_and_label(Role::Button, "Start")
            .accesskit_node()
            .is_disabled(),
        "no stream to start from"
    );
    type_into(h, "Parent PK (S) =", "POST#1");
    replace_text(h, "Poll every (seconds)", "1");
    h.get_by_role_and_label(Role::Button, "Start polling")
        .click();
    step_until(h, "a poll", |h| has_label_containing(h, "poll 1: "));
    assert!(has_label_containing(
        h,
        "polling cannot name the write that drifted"
    ));
    h.get_by_role_and_label(Role::Button, "Stop").click();
    step_until(h, "the summary", |h| {
        has_label_containing(h, "on demand in all), polling")
    });

    h.get_by_role_and_label(Role::Button, "Enable stream")
        .click();
    step_until(
        h,
        "the stream turned on and the table described again",
        |h| !has_label_containing(h, "has no stream"),
    );
    // Said in the CLI's words, and kept once the offer is gone.
    assert!(has_label_containing(
        h,
        "turned on a stream (NEW_AND_OLD_IMAGES) on"
    ));
    assert!(
        !h.get_by_role_and_label(Role::Button, "Start")
            .accesskit_node()
            .is_disabled()
    );
}
