//! No write acts on a stale screen: a typed new value never lands on a value that moved behind
//! the screen (refused, read back, Retry from it); the item says how old it is and reloads;
//! the table facts are described again on demand and after a write of ours.

use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT as _, Queryable};

use crate::*;

/// Whether a label says how old something is: `read just now`, `read 3 s ago` (whatever the
/// machine's speed made it).
fn says_age(h: &egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>, what: &str) -> bool {
    h.query_all_by(|n| n.label().is_some() || n.value().is_some())
        .filter_map(|n| {
            let node = n.accesskit_node();
            node.label().or_else(|| node.value())
        })
        .any(|l| l.starts_with(what) && (l.ends_with("just now") || l.ends_with(" ago")))
}

/// `play_count` of VID#9f3a / STATS#TOTAL as the server holds it.
fn stored_play_count(outside: &Outside) -> String {
    stored(outside, "Videos", ("VID#9f3a", "STATS#TOTAL"), "play_count")
}

fn set_stored_play_count(outside: &Outside, value: &str) {
    outside.runtime.block_on(async {
        outside
            .client
            .update_item()
            .table_name("Videos")
            .key(
                "PK",
                aws_sdk_dynamodb::types::AttributeValue::S("VID#9f3a".into()),
            )
            .key(
                "SK",
                aws_sdk_dynamodb::types::AttributeValue::S("STATS#TOTAL".into()),
            )
            .update_expression("SET play_count = :v")
            .expression_attribute_values(
                ":v",
                aws_sdk_dynamodb::types::AttributeValue::N(value.into()),
            )
            .send()
            .await
            .unwrap();
    });
}

#[test]
fn a_typed_new_value_never_lands_on_a_value_that_moved_behind_the_screen() {
    let outside = outside_sandbox();
    let mut app = start(endpoint(outside.sandbox.endpoint()), Some("Videos"));
    let h = &mut app.harness;
    open_stats_row(h);
    // The item view says how old it is.
    assert!(says_age(h, "read "), "the item's age");
    assert_eq!(h.query_all_by_label("41").count(), 2, "41 shown");

    // Behind the app's back the value moves to 90; the user, seeing 41, asks for 100.
    set_stored_play_count(&outside, "90");
    replace_text(h, "Attribute", "play_count");
    h.get_by_label("New value").click();
    h.step();
    replace_text(h, "Amount", "100");
    h.get_by_role_and_label(Role::Button, "Send").click();
    step_until(h, "the refusal", |h| {
        has_label_containing(h, "Condition failed: the server has 90 now, not 41")
    });
    assert_eq!(stored_play_count(&outside), "90", "nothing was written");
    step_until(h, "the server's value read back", |h| {
        h.query_all_by_label("90").count() == 2
    });
    // Retried from the server's value, it ends as typed: 100.
    // Below the fold of the editor's column: pressed by its accessibility action.
    h.get_by_role_and_label(Role::Button, "Retry from 90")
        .click_accesskit();
    step_until(h, "the retry", |h| has_label(h, "90 → 100"));
    assert_eq!(stored_play_count(&outside), "100");

    // Reload reads the item again: another writer's 7 is shown, and nothing is sent.
    set_stored_play_count(&outside, "7");
    h.get_by_role_and_label(Role::Button, "Reload").click();
    step_until(h, "the item read again", |h| {
        h.query_all_by_label("7").count() == 2
    });
    assert!(says_age(h, "read "));
    assert_eq!(stored_play_count(&outside), "7");
}

#[test]
fn the_table_facts_are_described_again_on_demand_and_after_a_write_of_ours() {
    let outside = outside_sandbox();
    let mut app = start(endpoint(outside.sandbox.endpoint()), Some("Videos"));
    let h = &mut app.harness;
    open_stats_row(h);
    let count = |h: &egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>| -> Option<String> {
        // The Items fact follows its name in the describe panel.
        let labels: Vec<String> = h
            .query_all_by(|n| n.label().is_some() || n.value().is_some())
            .filter_map(|n| {
                let node = n.accesskit_node();
                node.label().or_else(|| node.value())
            })
            .collect();
        // (the Items view's tab has the same name: the fact is the one followed by a number)
        labels
            .windows(2)
            .find(|w| w[0] == "Items" && w[1].parse::<u64>().is_ok())
            .map(|w| w[1].clone())
    };
    let before: u64 = count(h).expect("an item count").parse().unwrap();
    // Another writer adds an item: the panel knows only when described again.
    outside.runtime.block_on(async {
        outside
            .client
            .put_item()
            .table_name("Videos")
            .item(
                "PK",
                aws_sdk_dynamodb::types::AttributeValue::S("VID#new".into()),
            )
            .item(
                "SK",
                aws_sdk_dynamodb::types::AttributeValue::S("META".into()),
            )
            .send()
            .await
            .unwrap();
    });
    h.get_by_role_and_label(Role::Button, "Describe again")
        .click();
    step_until(h, "the new count", |h| {
        count(h) == Some((before + 1).to_string())
    });
    assert!(says_age(h, "described "));
    // A write of ours describes it again by itself (another writer's item meanwhile shows).
    outside.runtime.block_on(async {
        outside
            .client
            .put_item()
            .table_name("Videos")
            .item(
                "PK",
                aws_sdk_dynamodb::types::AttributeValue::S("VID#new2".into()),
            )
            .item(
                "SK",
                aws_sdk_dynamodb::types::AttributeValue::S("META".into()),
            )
            .send()
            .await
            .unwrap();
    });
    h.get_by_role_and_label(Role::Button, "+1").click();
    step_until(h, "the count after our write", |h| {
        count(h) == Some((before + 2).to_string())
    });
}

/// A tab left by an earlier run on a table since deleted is closed when the tables are listed,
/// and said so until dismissed: no dead end on a table that is not there.
#[test]
fn a_tab_on_a_deleted_table_is_closed_and_said_so() {
    use dynoscope_app::browse::{TabKind, TabSpec};
    let tab = |name: &str| TabSpec {
        name: name.to_owned(),
        kind: TabKind::Table {
            table: name.to_owned(),
            form: Box::default(),
        },
    };
    let remembered = dynoscope_app::Remembered {
        table: Some("Social".to_owned()),
        tabs: vec![tab("Posts"), tab("Social")],
        ..Default::default()
    };
    let mut app = start_remembering(
        dynoscope_core::connection::ConnectionSpec::Sandbox { db_path: None },
        remembered,
        None,
        dynoscope_core::connection::ConnectOptions::default(),
    );
    let h = &mut app.harness;
    step_until(h, "the closed tab said", |h| {
        has_label(
            h,
            "Closed Posts (on Posts): the table is not on this connection any more (deleted).",
        )
    });
    assert!(
        h.query_by_label("Close tab Posts").is_none(),
        "no tab on Posts is left"
    );
    assert!(h.query_by_label("Close tab Social").is_some());
    h.get_by_role_and_label(Role::Button, "Dismiss").click();
    step_until(h, "dismissed", |h| {
        !has_label_containing(h, "the table is not on this connection any more")
    });
}
