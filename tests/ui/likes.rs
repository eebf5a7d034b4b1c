//! The like lab: by hand, send again, storm, counter lab, confirmation, conflicts.

use dynoscope_core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

use crate::*;

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

    // The replay carries the like's token: the server answers success and changes nothing.
    h.get_by_role_and_label(Role::Button, "Send again").click();
    step_until(h, "the replay", |h| {
        has_label_containing(h, "The server recognised the ClientRequestToken")
    });
    assert!(has_label(h, "Sent again: like POST#a91f as USER#new1"));
    assert_eq!(
        h.query_all_by_label("4 → 4").count(),
        2,
        "the tally did not move"
    );
    // Under a new token it is a new request: the child exists, so it is cancelled.
    h.get_by_role_and_label(Role::Button, "Send again, new token")
        .click();
    step_until(h, "the retry", |h| {
        has_label_containing(h, "USER#new1 already likes POST#a91f; nothing was written")
    });
    // An unlike right after gets its own token: no IdempotentParameterMismatch.
    h.get_by_role_and_label(Role::Button, "Unlike").click();
    step_until(h, "the unlike", |h| {
        has_label(h, "unlike POST#a91f as USER#new1")
    });
    step_until(h, "committed", |h| has_label_containing(h, "Committed · "));
    assert_eq!(h.query_all_by_label("4 → 3").count(), 2);
    // A second unlike: said as what it means, not as DynamoDB's reason list.
    h.get_by_role_and_label(Role::Button, "Unlike").click();
    step_until(h, "the second unlike", |h| {
        has_label_containing(h, "USER#new1 has no like on POST#a91f; nothing was written")
    });
    h.get_by_role_and_label(Role::Button, "Like").click();
    step_until(h, "liked again", |h| {
        h.query_all_by_label("3 → 4").count() == 2
    });

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
        "10 cancelled — item 1 (the like): its condition failed; none of the 2 items was written"
    ));

    h.get_by_role_and_label(Role::Button, "Run counter lab")
        .click();
    step_until(h, "the lab", |h| has_label(h, "Lost updates"));
    assert!(has_label(h, "atomic ADD"));
    assert!(has_label(h, "conditional SET with retries"));
}

#[test]
fn writes_to_an_endpoint_not_on_this_machine_need_confirmation() {
    remote_credentials();
    let engine_runtime = tokio::runtime::Runtime::new().unwrap();
    let sandbox = engine_runtime
        .block_on(dynoscope_core::sandbox::Sandbox::start(None, 0))
        .unwrap();
    // The same server under an address not recognised as this machine's.
    let remote = format!("http://0.0.0.0:{}", sandbox.addr().port());
    let mut app = start(endpoint(&remote), Some("Social"));
    let h = &mut app.harness;
    open_like_lab(h, "POST#a91f");
    h.get_by_role_and_label(Role::Button, "Like").click();
    step_until(h, "the confirmation", |h| has_label(h, "Confirm write"));
    assert!(has_label_containing(
        h,
        &format!(
            "This writes to table Social, items PK = POST#a91f · SK = LIKE#USER#new1 and PK = POST#a91f · SK = META at {remote}"
        )
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
        let sandbox = dynoscope_core::sandbox::Sandbox::start(None, 0)
            .await
            .unwrap();
        let (proxy, _) = common::conflicting_proxy(sandbox.addr(), 2).await;
        (sandbox, proxy)
    });
    // A proxy on this machine: no confirmation needed.
    let spec = endpoint(&format!("http://{proxy}"));
    let mut app = start(spec, Some("Social"));
    let h = &mut app.harness;
    open_like_lab(h, "POST#a91f");
    h.get_by_role_and_label(Role::Button, "Like").click();
    step_until(h, "the like", |h| has_label_containing(h, "Committed · "));
    assert!(has_label_containing(
        h,
        "Sent 3 times: the earlier attempts wrote nothing (TransactionConflict or throttling)"
    ));
    assert_eq!(h.query_all_by_label("3 → 4").count(), 2, "applied once");
    drop(sandbox);
}

#[test]
fn a_like_on_a_missing_parent_writes_nothing() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    open_like_lab(h, "POST#a91f");
    assert!(has_label_containing(
        h,
        "Writes to table Social · parent POST#a91f / META"
    ));
    replace_text(h, "Parent", "POST#nope");
    step_until(h, "the new target", |h| {
        has_label_containing(h, "Writes to table Social · parent POST#nope / META")
    });
    h.get_by_role_and_label(Role::Button, "Like").click();
    step_until(h, "the refusal", |h| {
        has_label_containing(
            h,
            "The parent POST#nope / META does not exist, so nothing was written",
        )
    });
    assert!(has_label(
        h,
        "Cancelled: item 2 (PK = POST#nope · SK = META): its condition failed; none of the 2 items was written"
    ));
    assert_eq!(
        h.query_all_by_label("missing → missing").count(),
        1,
        "the tally was not created"
    );
    assert_eq!(h.query_all_by_label("0 → 0").count(), 1, "no child either");
}

#[test]
fn read_only_says_why_once_and_refuses_nothing_never_started() {
    let mut app = start_read_only(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1280.0, 1400.0));
    open_like_lab(h, "POST#a91f");
    let disabled = |h: &Harness<'_, DynoscopeApp>, label: &str| {
        h.get_by_role_and_label(Role::Button, label)
            .accesskit_node()
            .is_disabled()
    };
    for button in ["Like", "Start storm", "Run counter lab"] {
        assert!(disabled(h, button), "{button} is off");
    }
    assert!(
        !has_label_containing(h, "refused"),
        "no refusal for a storm or a lab never started"
    );
    assert!(has_label_containing(h, "Read-only: writes to"));
}

/// One parent, picked once, carried: the post checked in the Tally check is the one the Like
/// lab and the Watch open on; the partition queried in Browse is carried the same way.
#[test]
fn the_parent_picked_is_carried_through_the_views() {
    use egui_kittest::kittest::NodeT as _;
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    let value = |h: &egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>, label: &str| {
        h.get_by_label(label)
            .accesskit_node()
            .value()
            .unwrap_or_default()
            .clone()
    };
    h.get_by_role_and_label(Role::Button, "Tally check").click();
    step_until(h, "the suggested rule", |h| has_label(h, "Use"));
    h.get_by_role_and_label(Role::Button, "Use").click();
    step_until(h, "the tally check", |h| has_label(h, "Parent PK (S) ="));
    assert_eq!(
        value(h, "Parent PK (S) ="),
        "POST#a91f",
        "carried from Browse"
    );
    replace_text(h, "Parent PK (S) =", "POST#d71e");
    h.get_by_role_and_label(Role::Button, "Like lab").click();
    step_until(h, "the like lab", |h| has_label(h, "Parent"));
    assert_eq!(
        value(h, "Parent"),
        "POST#d71e",
        "carried from the Tally check"
    );
    h.get_by_role_and_label(Role::Button, "Watch").click();
    step_until(h, "the watch", |h| has_label(h, "Parent PK (S) ="));
    assert_eq!(
        value(h, "Parent PK (S) ="),
        "POST#d71e",
        "carried from the Like lab"
    );
    h.get_by_role_and_label(Role::Button, "Browse").click();
    h.step();
    h.get_by_role_and_label(Role::Button, "Like lab").click();
    step_until(h, "the like lab", |h| has_label(h, "Parent"));
    assert_eq!(value(h, "Parent"), "POST#a91f", "carried from Browse again");
}
