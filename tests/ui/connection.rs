//! Connecting: an unreachable endpoint, a failed connect, no connection.

use dynoscope::core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

use crate::*;

#[test]
fn an_unreachable_endpoint_shows_an_error_instead_of_hanging() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let spec = ConnectionSpec::Endpoint {
        url: format!("http://127.0.0.1:{port}"),
        profile: None,
        region: None,
    };
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
