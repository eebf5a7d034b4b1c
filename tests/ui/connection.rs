//! Connecting: an unreachable endpoint, a failed connect, no connection.

use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

use crate::*;

#[test]
fn an_unreachable_endpoint_shows_an_error_instead_of_hanging() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let spec = endpoint(&format!("http://127.0.0.1:{port}"));
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
fn a_failed_connect_keeps_the_previous_connection_working() {
    // A sandbox the test can also reach, to add a table behind the app's back.
    let Outside {
        runtime: engine_runtime,
        sandbox,
        client,
    } = outside_sandbox();
    let url = sandbox.endpoint().to_owned();
    let spec = endpoint(&url);
    let mut app = start(spec, None);
    let h = &mut app.harness;
    step_until(h, "the table list", |h| has_label(h, "Social"));

    // A connection that cannot be made: the URL has no scheme.
    h.get_by_label("URL").focus();
    h.step();
    h.key_press(egui::Key::Home);
    h.step();
    h.get_by_label("URL").type_text("bad");
    h.step();
    h.get_by_role_and_label(Role::Button, "Connect").click();
    step_until(h, "the failure", |h| {
        has_label_containing(h, "is not an endpoint URL")
    });
    assert!(
        has_label_containing(h, &url),
        "the previous connection is still the active one"
    );

    // It still answers: a table made meanwhile is listed on Refresh…
    engine_runtime.block_on(common::create_table(&client, "Extra"));
    h.get_by_role_and_label(Role::Button, "Refresh").click();
    step_until(h, "the new list", |h| has_label(h, "Extra"));
    // …a table opens and is described…
    h.get_by_label("Social").click();
    step_until(h, "the description", |h| has_label(h, "Browse GSI1"));
    // …and a query runs.
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    drop(sandbox);
}

#[test]
fn listing_tables_without_a_connection_says_so() {
    let spec = endpoint("localhost:8000");
    let mut app = start(spec, None);
    let h = &mut app.harness;
    step_until(h, "the failure", |h| {
        has_label_containing(h, "connect failed: `localhost:8000` is not an endpoint URL")
    });
    assert!(has_label(h, "Not connected"));
    h.get_by_role_and_label(Role::Button, "Refresh").click();
    step_until(h, "the answer", |h| {
        has_label(h, "ListTables failed: not connected")
    });
}
