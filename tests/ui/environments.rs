//! Several connections open at once: a second one named, coloured and protected beside the
//! first; each keeps its own tabs; the counters and a partition compared across the two side
//! by side (also at 900×600); a write on the protected one needs its name typed.

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

use crate::*;

/// Add 1 to POST#a91f's likeTally behind the app's back: a drift on that side only.
fn plant_drift(outside: &Outside) {
    outside
        .runtime
        .block_on(
            outside
                .client
                .update_item()
                .table_name("Social")
                .key("PK", AttributeValue::S("POST#a91f".into()))
                .key("SK", AttributeValue::S("META".into()))
                .update_expression("ADD likeTally :one")
                .expression_attribute_values(":one", AttributeValue::N("1".into()))
                .send(),
        )
        .unwrap();
}

/// Open a second connection to `url`, named `name` and protected, from the bar.
pub(crate) fn connect_protected(h: &mut Harness<'_, DynoscopeApp>, url: &str, name: &str) {
    h.get_by_role_and_label(Role::Button, "Endpoint").click();
    h.step();
    replace_text(h, "URL", url);
    h.get_by_role_and_label(Role::Button, "Name…").click();
    step_until(h, "the naming menu", |h| has_label(h, "Protected"));
    type_into(h, "Name", name);
    h.get_by_label("Protected").click();
    h.step();
    h.key_press(egui::Key::Escape);
    step_until(h, "the menu to close", |h| !has_label(h, "Protected"));
    h.get_by_role_and_label(Role::Button, "Connect").click();
}

#[test]
fn two_connections_compared_side_by_side_and_the_protected_one_asks_for_its_name() {
    let outside = outside_sandbox();
    let url = outside.sandbox.endpoint().to_owned();
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    query_partition(h, "POST#a91f");
    step_until(h, "the rows", |h| has_label(h, "LIKE#USER#7c20"));
    h.get_by_role_and_label(Role::Button, "Tally check").click();
    step_until(h, "the suggestion", |h| has_label(h, "Use"));
    h.get_by_role_and_label(Role::Button, "Use").click();
    step_until(h, "the check form", |h| has_label(h, "Check"));

    connect_protected(h, &url, "staging");
    step_until(h, "the strip of two", |h| {
        has_label(h, "staging · protected") && has_label(h, "sandbox")
    });
    step_until(h, "staging's tables", |h| has_label(h, "Videos"));
    plant_drift(&outside);

    // Back on the sandbox: its view kept (the tally check, its rule), its tab its rows.
    h.get_by_label("sandbox").click();
    step_until(h, "the sandbox's tally check again", |h| {
        has_label(h, "Check")
    });
    // The connection form shows the tab picked, not staging's URL typed a moment ago.
    assert!(
        h.query_by_label("URL").is_none(),
        "the form shows the sandbox"
    );
    h.get_by_role_and_label(Role::Button, "Browse").click();
    step_until(h, "the sandbox's rows again", |h| {
        has_label(h, "LIKE#USER#7c20")
    });
    h.get_by_role_and_label(Role::Button, "Compare").click();
    step_until(h, "the compare form", |h| has_label(h, "Other connection"));
    h.get_by_role_and_label(Role::Button, "Counters (tally rule)")
        .click();
    h.step();
    h.get_by_role_and_label(Role::Button, "Run the comparison")
        .click();
    step_until(h, "the counters side by side", |h| {
        has_label(h, "B · staging") && has_label(h, "4 / 3 children (+1)")
    });
    assert!(has_label(h, "A · sandbox"));
    assert!(has_label(h, "3 / 3 children (0)"), "A holds what it counts");
    assert!(has_label_containing(
        h,
        "Compared just now: A is sandbox, B is staging."
    ));

    // One partition, the one Browse queried, at 900×600: the META item's likeTally differs.
    h.set_size(egui::vec2(900.0, 600.0));
    // Laid out at the new size before anything is clicked: the connection bar wraps anew.
    h.step();
    click_shown(h, "One partition");
    h.step();
    click_shown(h, "Run the comparison");
    step_until(h, "the changed attribute", |h| {
        has_label(h, "likeTally") && has_label(h, "PK = POST#a91f · SK = META")
    });
    assert!(
        has_label(h, "3") && has_label(h, "4"),
        "its value on each side"
    );
    h.set_size(egui::vec2(1280.0, 800.0));

    protected_write_needs_its_name(h);
    protected_repair_needs_its_name(h);
    closing_asks_first(h);
}

/// On staging, a write needs its name typed.
fn protected_write_needs_its_name(h: &mut Harness<'_, DynoscopeApp>) {
    // A taller window: the item view shows the question whole, the name field and both buttons.
    h.set_size(egui::vec2(1280.0, 1000.0));
    h.get_by_label("staging · protected").click();
    step_until(h, "staging shown", |h| has_label(h, "Videos"));
    let url = h.get_by_label("URL").value().unwrap_or_default();
    assert!(
        url.starts_with("http://127.0.0.1:"),
        "the form shows staging again: {url}"
    );
    h.get_by_label("Videos").click();
    step_until(h, "Videos open", |h| {
        has_label(h, "Browse GSI1") || has_label(h, "Run query")
    });
    open_stats_row(h);
    h.get_by_role_and_label(Role::Button, "+1").click();
    step_until(h, "the question", |h| {
        has_label_containing(h, "staging is protected: type its name to write.")
    });
    let confirm = h.get_by_role_and_label(Role::Button, "Confirm write");
    assert!(
        confirm.accesskit_node().is_disabled(),
        "not before the name"
    );
    type_into(h, "Type the connection's name", "staging");
    step_until(h, "the write allowed", |h| {
        !h.get_by_role_and_label(Role::Button, "Confirm write")
            .accesskit_node()
            .is_disabled()
    });
    click_shown(h, "Confirm write");
    step_until(h, "the result card", |h| has_label(h, "41 → 42"));
}

/// On staging, the tally check's guarded repair (its own Confirm button) needs the name too.
fn protected_repair_needs_its_name(h: &mut Harness<'_, DynoscopeApp>) {
    h.get_by_label("Social").click();
    query_partition(h, "POST#d71e");
    step_until(h, "the results", |h| has_label_containing(h, "items ·"));
    h.get_by_role_and_label(Role::Button, "Tally check").click();
    step_until(h, "the check form", |h| {
        has_label(h, "Check") || has_label(h, "Use")
    });
    if has_label(h, "Use") {
        h.get_by_role_and_label(Role::Button, "Use").click();
        step_until(h, "the check form", |h| has_label(h, "Check"));
    }
    h.get_by_role_and_label(Role::Button, "Check").click();
    step_until(h, "the drift", |h| has_label(h, "+1"));
    h.get_by_role_and_label(Role::Button, "Repair…").click();
    step_until(h, "the proposal", |h| has_label(h, "Confirm repair"));
    let confirm = h.get_by_role_and_label(Role::Button, "Confirm repair");
    assert!(
        confirm.accesskit_node().is_disabled(),
        "not before the name"
    );
    type_into(h, "Type the connection's name", "staging");
    step_until(h, "the repair allowed", |h| {
        !h.get_by_role_and_label(Role::Button, "Confirm repair")
            .accesskit_node()
            .is_disabled()
    });
}

/// Closing a connection asks first; kept, both stay; closed, the sandbox alone is left.
fn closing_asks_first(h: &mut Harness<'_, DynoscopeApp>) {
    h.get_by_role_and_label(Role::Button, "Close staging")
        .click();
    step_until(h, "the question", |h| has_label(h, "Keep it open"));
    h.get_by_role_and_label(Role::Button, "Keep it open")
        .click();
    step_until(h, "kept", |h| !has_label(h, "Keep it open"));
    assert!(has_label(h, "staging · protected"));
    h.get_by_role_and_label(Role::Button, "Close staging")
        .click();
    step_until(h, "the question", |h| has_label(h, "Close staging now"));
    h.get_by_role_and_label(Role::Button, "Close staging now")
        .click();
    step_until(h, "staging closed", |h| {
        !has_label(h, "staging · protected")
    });
    assert!(
        h.query_by_label("Close sandbox").is_none(),
        "one open: no strip"
    );
}
