//! Connecting: an unreachable endpoint, a failed connect, no connection.

use dynoscope_core::connection::ConnectionSpec;
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
        ..
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
    assert!(has_label_containing(
        h,
        "That attempt did not connect; still connected to"
    ));
    assert!(
        has_label(h, "The last request answered"),
        "the active connection's dot stays as it was"
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

#[test]
fn a_silent_endpoint_is_given_up_on_within_the_timeout_and_connecting_can_be_cancelled() {
    let (silent, arrived) = silent_endpoint();
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, None);
    let h = &mut app.harness;
    step_until(h, "the sandbox tables", |h| has_label(h, "Videos"));
    h.get_by_role_and_label(Role::Button, "Endpoint").click();
    h.step();
    replace_text(h, "URL", &silent);
    replace_text(h, "Timeout (s)", "1");
    h.get_by_role_and_label(Role::Button, "Connect").click();
    step_until(h, "connecting", |h| has_label(h, "Connecting…"));
    step_until(h, "the timeout", |h| {
        has_label_containing(h, "ListTables failed: timed out after 1s")
    });
    // Given up on within the one timeout: one attempt, not sent again (a count, not a clock).
    assert_eq!(arrived.load(std::sync::atomic::Ordering::SeqCst), 1);
    // The sandbox is still the active connection, and Connect can be pressed again.
    assert!(has_label_containing(h, "Sandbox (in memory)"));
    assert!(h.query_by_label("Connecting…").is_none());

    // With a timeout longer than the wait for the screen, only Cancel can end the attempt.
    replace_text(h, "Timeout (s)", "600");
    h.get_by_role_and_label(Role::Button, "Connect").click();
    step_until(h, "the Cancel button", |h| has_label(h, "Cancel"));
    h.get_by_role_and_label(Role::Button, "Cancel").click();
    step_until(h, "the attempt to end", |h| {
        h.query_by_label("Connecting…").is_none()
    });
    assert!(has_label_containing(h, "Sandbox (in memory)"));
    assert!(has_label_containing(
        h,
        "Connection attempt cancelled; still connected to Sandbox (in memory)"
    ));
    // A timeout that is not one is refused while typing, before any attempt.
    replace_text(h, "Timeout (s)", "0");
    step_until(h, "the message", |h| {
        has_label_containing(h, "a timeout is more than 0")
    });
}

#[test]
fn reconnecting_to_the_in_memory_sandbox_keeps_its_data() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Videos"));
    let h = &mut app.harness;
    open_stats_row(h);
    h.get_by_role_and_label(Role::Button, "+1").click();
    step_until(h, "the result card", |h| has_label(h, "41 → 42"));
    h.get_by_role_and_label(Role::Button, "Connect").click();
    step_until(h, "the note", |h| {
        has_label_containing(h, "same in-memory sandbox: your changes are kept")
    });
    // The last table opens again, its tab keeping its query (not its rows): run it again, on
    // the same data.
    step_until(h, "the kept query", |h| {
        h.query_by_label("PK (S) =")
            .is_some_and(|f| f.value().as_deref() == Some("VID#9f3a"))
    });
    assert!(
        !has_label(h, "STATS#TOTAL"),
        "rows of the old connection are gone"
    );
    h.get_by_role_and_label(Role::Button, "Run query").click();
    step_until(h, "the stats row", |h| has_label(h, "STATS#TOTAL"));
    h.get_by_label("STATS#TOTAL").click();
    step_until(h, "the counter editor", |h| has_label(h, "Numbers"));
    assert!(has_label(h, "42"), "the +1 is still there");
}

/// A connection protected in the app is protected for the command line: the app keeps its
/// marks in `connections.json` as they change, and the CLI reads them there.
#[test]
fn a_connection_protected_in_the_app_is_protected_for_the_command_line() {
    let outside = outside_sandbox();
    let url = outside.sandbox.endpoint().to_owned();
    let config = query_dir();
    let file = config.join("connections.json");
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, None);
    app.harness.state_mut().keep_marks_in(file.clone(), None);
    let h = &mut app.harness;
    step_until(h, "the sandbox tables", |h| has_label(h, "Videos"));
    crate::environments::connect_protected(h, &url, "staging");
    step_until(h, "staging", |h| has_label(h, "staging · protected"));
    step_until(h, "the marks kept", |_| {
        std::fs::read_to_string(&file).is_ok_and(|t| t.contains("\"staging\""))
    });
    let add = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .args(["--endpoint-url", &url, "add", "--table", "Videos", "--attr"])
            .args(["play_count", "--delta", "1", "--key", "PK=VID#9f3a"])
            .args(["--key", "SK=STATS#TOTAL"])
            .args(extra)
            .env("DYNOSCOPE_CONFIG_DIR", &config)
            .env("AWS_EC2_METADATA_DISABLED", "true")
            .output()
            .unwrap()
    };
    let out = add(&["--yes"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("staging is protected"), "{said}");
    let out = add(&["--confirm-name", "staging", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (report["old"].as_str(), report["new"].as_str()),
        (Some("41"), Some("42"))
    );
    std::fs::remove_dir_all(&config).unwrap();
}
