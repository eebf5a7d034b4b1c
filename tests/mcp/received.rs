//! Every line a client sends is in the audit log, with its id when it has one, also those the
//! protocol layer answers by itself before any tool is reached: a `tools/call` whose `params` are
//! an array or missing, a method nobody serves, a batch, a notification.

use serde_json::{Value, json};

use super::probe::Raw;
use super::{audit_path, every_audit_line};
use dynoscope_core::sandbox::Sandbox;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_rmcp_answers_by_itself_is_audited_too() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let audit = audit_path("mcp-received");
    let mut raw = Raw::start(sandbox.endpoint(), &[], &audit).await;
    let lines = [
        json!({"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": ["get_item"]}),
        json!({"jsonrpc": "2.0", "id": 12, "method": "tools/call"}),
        json!({"jsonrpc": "2.0", "id": "thirteen", "method": "no/such/method"}),
    ];
    for line in &lines {
        raw.send(line.to_string().as_bytes()).await;
    }
    let batch = json!([
        {"jsonrpc": "2.0", "id": 14, "method": "ping"},
        {"jsonrpc": "2.0", "id": 15, "method": "ping"},
    ]);
    raw.send(batch.to_string().as_bytes()).await;
    // Whatever rmcp answers each of these with (or not), every line is in the log once the
    // request after them is answered: lines are read, and audited, in order.
    let ping = json!({"jsonrpc": "2.0", "id": 16, "method": "ping"});
    raw.send(ping.to_string().as_bytes()).await;
    loop {
        let answer = raw.answer().await;
        if answer["id"] == 16 {
            break;
        }
    }
    let logged = every_audit_line(&audit);
    let received: Vec<&Value> = logged.iter().filter(|l| l["event"] == "received").collect();
    let ids: Vec<&Value> = received.iter().map(|l| &l["id"]).collect();
    for id in [json!(0), json!(11), json!(12), json!("thirteen"), json!(16)] {
        assert!(ids.contains(&&id), "{id} audited: {received:?}");
    }
    assert!(
        received.iter().any(|l| l["batch"] == 2),
        "the batch audited: {received:?}"
    );
    assert!(
        received
            .iter()
            .any(|l| l["method"] == "notifications/initialized"),
        "{received:?}"
    );
    let eleven = received.iter().find(|l| l["id"] == 11).unwrap();
    assert_eq!(eleven["params"], json!(["get_item"]), "{eleven}");
}
