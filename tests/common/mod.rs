//! Shared set-up: an embedded dynoxide per test, reached over HTTP by the real SDK client.

pub(crate) mod clones;
mod fault_answers;
mod faults;
pub(crate) mod files;
pub(crate) mod moto;
pub(crate) mod npm;
mod proxy;
pub(crate) mod roundtrip;
pub(crate) mod runtimes;
mod said;
mod sdk;
pub(crate) mod served;
pub(crate) mod tables;
pub(crate) mod through;
pub(crate) mod watching;

pub(crate) use faults::*;
pub(crate) use proxy::*;
pub(crate) use said::Said;
pub(crate) use sdk::sdk_client;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, GlobalSecondaryIndex, KeySchemaElement,
    KeyType, Projection, ProjectionType, PutRequest, ScalarAttributeType, WriteRequest,
};
use std::time::Duration;

use dynoscope_core::connection::{self, ConnectOptions, Connection, ConnectionSpec};
use dynoscope_core::sandbox::Sandbox;

/// An empty engine, a connection to it (what the write gateway sends on) and its client.
pub(crate) struct Engine {
    pub sandbox: Sandbox,
    pub connection: Connection,
    pub client: Client,
}

impl Engine {
    /// What core reads this engine through.
    pub(crate) fn reader(&self) -> dynoscope_core::connection::Reader {
        self.connection.reader()
    }
}

pub(crate) async fn empty_engine() -> Engine {
    let sandbox = Sandbox::start_empty().await.expect("sandbox starts");
    // A request here is never meant to time out: 60 s, not the app's 10, so a loaded machine
    // (a 20,000-item scan page beside other tests' engines) is slow, never a failure.
    let connection = connect_to(sandbox.endpoint(), Duration::from_mins(1)).await;
    let client = connection.sdk();
    Engine {
        sandbox,
        connection,
        client,
    }
}

/// A test's own SDK client to where a connection sends ([`sdk_client`]).
pub(crate) trait Sdk {
    fn sdk(&self) -> Client;
}

impl Sdk for Connection {
    fn sdk(&self) -> Client {
        sdk_client(&self.target)
    }
}

/// A connection to `url` (an engine or a proxy on this machine), as the app and the CLI make
/// one, giving up on a request after `timeout`.
pub(crate) async fn connect_to(url: &str, timeout: Duration) -> Connection {
    connection::connect_with(
        ConnectionSpec::Endpoint {
            url: url.to_owned(),
            profile: None,
            region: None,
        },
        ConnectOptions {
            timeout,
            read_only: false,
        },
    )
    .await
    .expect("connects")
}

/// A table name no other test uses.
/// Run `command` to its end: its stdout, once it succeeded (its stderr said when it did not).
pub(crate) fn run_ok(command: &mut std::process::Command) -> String {
    let out = command.output().expect("runs");
    assert!(
        out.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// An exclusive lock named `name` under the target folder, held until the file is dropped: one
/// test at a time does what it guards, in this process or another (nextest runs each test in a
/// process of its own), and a test that failed holding it lets go when its process ends.
pub(crate) fn one_at_a_time(name: &str) -> std::fs::File {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("locks");
    std::fs::create_dir_all(&dir).unwrap();
    let file = std::fs::File::create(dir.join(format!("{name}.lock"))).unwrap();
    file.lock().unwrap();
    file
}

pub(crate) fn table_name(prefix: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    format!(
        "{prefix}-{}-{nanos}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// The sandbox's likes rule as CLI flags: `likeTally` on `POST#…`/`META`, children `LIKE#…`.
pub(crate) const LIKES_RULE: [&str; 6] = [
    "--tally",
    "likeTally",
    "--parent-prefix",
    "POST#",
    "--child-prefix",
    "LIKE#",
];

/// The same rule as the core's [`TallyRule`](dynoscope_core::tally::TallyRule).
pub(crate) fn likes_rule() -> dynoscope_core::tally::TallyRule {
    use dynoscope_core::tally::{ChildSource, ParentMatch, TallyRule};
    TallyRule {
        parents: ParentMatch {
            sort_key: "META".into(),
            partition_prefix: "POST#".into(),
        },
        tally: "likeTally".into(),
        children: ChildSource::SortKeyPrefix("LIKE#".into()),
    }
}

pub(crate) fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

pub(crate) fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.to_owned())
}

/// A table keyed `PK`/`SK` (strings) with a GSI `ByOwner` on `owner`/`rank` (string/number).
pub(crate) async fn create_table(client: &Client, name: &str) {
    let def = |n: &str, t: ScalarAttributeType| {
        AttributeDefinition::builder()
            .attribute_name(n)
            .attribute_type(t)
            .build()
            .unwrap()
    };
    let key = |n: &str, t: KeyType| {
        KeySchemaElement::builder()
            .attribute_name(n)
            .key_type(t)
            .build()
            .unwrap()
    };
    client
        .create_table()
        .table_name(name)
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(def("PK", ScalarAttributeType::S))
        .attribute_definitions(def("SK", ScalarAttributeType::S))
        .attribute_definitions(def("owner", ScalarAttributeType::S))
        .attribute_definitions(def("rank", ScalarAttributeType::N))
        .key_schema(key("PK", KeyType::Hash))
        .key_schema(key("SK", KeyType::Range))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("ByOwner")
                .key_schema(key("owner", KeyType::Hash))
                .key_schema(key("rank", KeyType::Range))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::All)
                        .build(),
                )
                .build()
                .unwrap(),
        )
        .send()
        .await
        .expect("create table");
}

/// The builder's `ADD #n0 :v0` of 1 to `attribute` of the item at `key`, as Run sends it.
pub(crate) fn builder_add(
    table: &str,
    key: &HashMap<String, AttributeValue>,
    attribute: &str,
) -> dynoscope_core::expr::codegen::Request {
    use dynoscope_core::expr::codegen::{Operation, Request};
    Request {
        table: table.to_owned(),
        operation: Operation::Update(key.clone()),
        update: Some("ADD #n0 :v0".into()),
        condition: None,
        key_condition: None,
        filter: None,
        projection: None,
        names: HashMap::from([("#n0".to_owned(), attribute.to_owned())]),
        values: HashMap::from([(":v0".to_owned(), n("1"))]),
        returns: dynoscope_core::expr::codegen::ReturnOptions::default(),
    }
}

/// Write `items` with BatchWriteItem, 25 at a time.
pub(crate) async fn put_all(
    client: &Client,
    table: &str,
    items: Vec<HashMap<String, AttributeValue>>,
) {
    for chunk in items.chunks(25) {
        let requests: Vec<WriteRequest> = chunk
            .iter()
            .map(|item| {
                WriteRequest::builder()
                    .put_request(
                        PutRequest::builder()
                            .set_item(Some(item.clone()))
                            .build()
                            .unwrap(),
                    )
                    .build()
            })
            .collect();
        let out = client
            .batch_write_item()
            .request_items(table, requests)
            .send()
            .await
            .expect("batch write");
        assert!(
            out.unprocessed_items()
                .is_none_or(std::collections::HashMap::is_empty)
        );
    }
}
