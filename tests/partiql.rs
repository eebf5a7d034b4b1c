//! PartiQL against the embedded engine through the real SDK client: SELECT paging with
//! `NextToken` over more than 1 MB, typed parameters kept exact, INSERT/UPDATE/DELETE through
//! the write gateway (refusals with the server's code, read-only), and every write through the
//! fault proxy: the outcome matches what the server stored, and the statement is sent once.

use crate::common;
use crate::common::Sdk as _;

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;
use common::{Engine, Fault, create_table, empty_engine, n, put_all, s, table_name};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::{self, ConnectOptions, Connection, ConnectionSpec};
use dynoscope_core::error::Error;
use dynoscope_core::partiql::{
    self, PartiqlPage, Statement, StatementOutcome, execute_page, read_statement,
};
use dynoscope_core::read::{self, Stopped, Until};
use dynoscope_core::value::Item;
use dynoscope_core::write::Destination;

fn key(pk: &str, sk: &str) -> Item {
    HashMap::from([("PK".to_owned(), s(pk)), ("SK".to_owned(), s(sk))])
}

async fn engine_with_table(prefix: &str) -> (Engine, String) {
    let engine = empty_engine().await;
    let name = table_name(prefix);
    create_table(&engine.client, &name).await;
    (engine, name)
}

/// Send a write statement through the gateway on `connection`, as the app and the CLI do.
async fn write(
    connection: &Connection,
    text: &str,
    params: Vec<AttributeValue>,
) -> StatementOutcome {
    let plan = partiql::plan_write(Destination::of(connection), Statement::new(text, params))
        .expect("a write plan");
    partiql::write(connection, &plan, false).await
}

async fn stored(engine: &Engine, table: &str, key: Item) -> Option<Item> {
    read::get_item(&engine.reader(), table, key).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_select_pages_over_more_than_a_megabyte_and_returns_each_item_once() {
    let (engine, table) = engine_with_table("pq-pages").await;
    let pad = "x".repeat(470);
    let items: Vec<Item> = (0..3000)
        .map(|i| {
            let mut item = key(&format!("P#{}", i % 7), &format!("S#{i:05}"));
            item.insert("pad".into(), s(&pad));
            item
        })
        .collect();
    put_all(&engine.client, &table, items).await;
    let statement = Statement::new(format!("SELECT * FROM \"{table}\""), vec![]);

    let mut pages: Vec<PartiqlPage> = Vec::new();
    let stopped = read_statement(
        &engine.reader(),
        &statement,
        None,
        Some(700),
        Until::LastPage,
        &CancelToken::default(),
        |page| pages.push(page),
    )
    .await
    .unwrap();
    assert_eq!(stopped, Stopped::LastPage);
    assert!(pages.len() > 1, "{} pages", pages.len());
    let bytes: usize = pages
        .iter()
        .flat_map(|p| &p.items)
        .map(|i| match i.get("pad") {
            Some(AttributeValue::S(pad)) => pad.len(),
            _ => 0,
        })
        .sum();
    assert!(bytes > 1_048_576, "more than 1 MB was read: {bytes}");
    let mut seen = HashSet::new();
    for item in pages.iter().flat_map(|p| &p.items) {
        let Some(AttributeValue::S(sk)) = item.get("SK") else {
            panic!("an item without SK: {item:?}");
        };
        assert!(seen.insert(sk.clone()), "{sk} came back twice");
    }
    assert_eq!(seen.len(), 3000, "every item came back");
    let rcu: f64 = pages.iter().map(|p| p.consumed_rcu).sum();
    assert!(rcu > 0.0, "capacity is reported: {rcu}");

    // Without a page size dynoxide answers in one page (real DynamoDB stops each at 1 MB);
    // either way every item comes back once.
    let mut all = 0;
    read_statement(
        &engine.reader(),
        &statement,
        None,
        None,
        Until::LastPage,
        &CancelToken::default(),
        |page| all += page.items.len(),
    )
    .await
    .unwrap();
    assert_eq!(all, 3000);

    // One page, then on from its token: the reader's `Until` and start.
    let first = execute_page(&engine.client, &statement, None, Some(1000))
        .await
        .unwrap();
    assert_eq!(first.items.len(), 1000);
    let token = first.next_token.clone().expect("more pages");
    let mut rest = 0;
    let stopped = read_statement(
        &engine.reader(),
        &statement,
        Some(token),
        Some(1000),
        Until::Items(1500),
        &CancelToken::default(),
        |page| rest += page.items.len(),
    )
    .await
    .unwrap();
    assert_eq!((stopped, rest), (Stopped::Reached, 2000));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_interrupts_the_select_in_flight() {
    let (engine, table) = engine_with_table("pq-cancel").await;
    // The proxy forwards the SELECT and never answers it.
    let proxy = common::fault_proxy(
        engine.sandbox.addr(),
        &["ExecuteStatement"],
        Fault::SilentAfterApply,
    )
    .await;
    let through = common::connect_to(&proxy.url, Duration::from_mins(1)).await;
    let statement = Statement::new(format!("SELECT * FROM \"{table}\""), vec![]);
    let cancel = CancelToken::default();
    let later = cancel.clone();
    let arrived = proxy.arrived.clone();
    // Cancelled once the SELECT is at the proxy, in flight: a count, not a time.
    tokio::spawn(async move {
        while arrived.load(std::sync::atomic::Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        later.cancel();
    });
    let mut pages = 0;
    let stopped = read_statement(
        &through.reader(),
        &statement,
        None,
        None,
        Until::LastPage,
        &cancel,
        |_| pages += 1,
    )
    .await
    .unwrap();
    // A cancel that did not end the wait would end at the timeout, an error, not this.
    assert_eq!((stopped, pages), (Stopped::Cancelled, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_parameters_keep_38_digits_strings_and_booleans() {
    let (engine, table) = engine_with_table("pq-params").await;
    let big = "12345678901234567890123456789012345678";
    let inserted = Statement::from_json(
        format!("INSERT INTO \"{table}\" VALUE {{'PK': ?, 'SK': ?, 'big': ?, 'flag': ?}}"),
        &[
            r#"{"S": "P#1"}"#.to_owned(),
            r#"{"S": "it's"}"#.to_owned(),
            format!(r#"{{"N": "{big}"}}"#),
            r#"{"BOOL": true}"#.to_owned(),
        ],
    )
    .unwrap();
    let plan = partiql::plan_write(Destination::of(&engine.connection), inserted).unwrap();
    let outcome = partiql::write(&engine.connection, &plan, false).await;
    assert!(
        matches!(outcome, StatementOutcome::Applied { .. }),
        "{outcome:?}"
    );
    let select = Statement::new(
        format!("SELECT * FROM \"{table}\" WHERE PK = ? AND big = ? AND flag = ?"),
        vec![s("P#1"), n(big), AttributeValue::Bool(true)],
    );
    let page = execute_page(&engine.client, &select, None, None)
        .await
        .unwrap();
    assert_eq!(page.items.len(), 1, "{page:?}");
    assert_eq!(page.items[0]["big"], n(big));
    assert_eq!(page.items[0]["SK"], s("it's"));
    // One digit off matches nothing: the number was compared exactly.
    let off = Statement::new(
        select.text.clone(),
        vec![
            s("P#1"),
            n("12345678901234567890123456789012345679"),
            AttributeValue::Bool(true),
        ],
    );
    let page = execute_page(&engine.client, &off, None, None)
        .await
        .unwrap();
    assert!(page.items.is_empty());
    // A write is never sent as a read.
    let sneaky = Statement::new(
        format!("DELETE FROM \"{table}\" WHERE PK = 'P#1' AND SK = 'x'"),
        vec![],
    );
    assert!(matches!(
        execute_page(&engine.client, &sneaky, None, None).await,
        Err(Error::Invalid(m)) if m.contains("write gateway")
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn insert_update_delete_through_the_gateway_and_its_refusals() {
    let (engine, table) = engine_with_table("pq-writes").await;
    let conn = &engine.connection;
    let insert = format!("INSERT INTO \"{table}\" VALUE {{'PK': ?, 'SK': ?, 'n': 10}}");
    let outcome = write(conn, &insert, vec![s("P#1"), s("META")]).await;
    assert!(
        matches!(outcome, StatementOutcome::Applied { attempts: 1, .. }),
        "{outcome:?}"
    );
    // The same INSERT again: the item exists, nothing is written, the server's code is kept.
    let outcome = write(conn, &insert, vec![s("P#1"), s("META")]).await;
    assert!(
        matches!(&outcome, StatementOutcome::Refused { code, .. } if code == "DuplicateItemException"),
        "{outcome:?}"
    );
    let update =
        format!("UPDATE \"{table}\" SET n = n + ? WHERE PK = ? AND SK = ? RETURNING ALL NEW *");
    let outcome = write(conn, &update, vec![n("5"), s("P#1"), s("META")]).await;
    match &outcome {
        StatementOutcome::Applied {
            returned: Some(item),
            ..
        } => assert_eq!(item["n"], n("15")),
        other => panic!("{other:?}"),
    }
    // A WHERE that does not hold: refused with the item as stored, nothing written.
    let guarded = format!("UPDATE \"{table}\" SET n = 0 WHERE PK = ? AND SK = ? AND n = ?");
    let outcome = write(conn, &guarded, vec![s("P#1"), s("META"), n("99")]).await;
    match &outcome {
        StatementOutcome::Refused {
            code,
            stored: Some(item),
            ..
        } => {
            assert_eq!(code, "ConditionalCheckFailedException");
            assert_eq!(item["n"], n("15"));
        }
        other => panic!("{other:?}"),
    }
    let now = stored(&engine, &table, key("P#1", "META")).await.unwrap();
    assert_eq!(now["n"], n("15"));
    // DELETE, then nothing is stored.
    let delete = format!("DELETE FROM \"{table}\" WHERE PK = ? AND SK = ?");
    let outcome = write(conn, &delete, vec![s("P#1"), s("META")]).await;
    assert!(
        matches!(outcome, StatementOutcome::Applied { .. }),
        "{outcome:?}"
    );
    assert_eq!(stored(&engine, &table, key("P#1", "META")).await, None);
    // The server's refusal of a statement it will not run is a failure before anything applied.
    let outcome = write(
        conn,
        "DELETE FROM \"NoSuchTable\" WHERE PK = ? AND SK = ?",
        vec![s("a"), s("b")],
    )
    .await;
    assert!(
        matches!(&outcome, StatementOutcome::Failed(e) if e.code() == Some("ResourceNotFoundException")),
        "{outcome:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_connection_refuses_every_statement_write() {
    let (engine, table) = engine_with_table("pq-ro").await;
    let read_only = connection::connect_with(
        ConnectionSpec::Endpoint {
            url: engine.sandbox.endpoint().to_owned(),
            profile: None,
            region: None,
        },
        ConnectOptions {
            timeout: Duration::from_secs(10),
            read_only: true,
        },
    )
    .await
    .unwrap();
    let insert = format!("INSERT INTO \"{table}\" VALUE {{'PK': 'P#1', 'SK': 'META'}}");
    let outcome = write(&read_only, &insert, vec![]).await;
    assert!(
        matches!(outcome, StatementOutcome::Failed(Error::ReadOnly { .. })),
        "{outcome:?}"
    );
    assert_eq!(stored(&engine, &table, key("P#1", "META")).await, None);
    // Reading still works.
    let select = Statement::new(format!("SELECT * FROM \"{table}\""), vec![]);
    assert!(
        execute_page(&read_only.sdk(), &select, None, None)
            .await
            .is_ok()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statement_writes_through_faults_are_sent_once_and_reported_as_stored() {
    let (engine, table) = engine_with_table("pq-faults").await;
    let mut faults = Fault::AFTER_APPLY.to_vec();
    faults.push(Fault::Throttle(2));
    for fault in faults {
        let pk = format!("P#{fault:?}");
        let mut item = key(&pk, "META");
        item.insert("n".into(), n("10"));
        put_all(&engine.client, &table, vec![item]).await;
        let proxy = common::fault_proxy(engine.sandbox.addr(), &["ExecuteStatement"], fault).await;
        let through = common::connect_to(&proxy.url, Duration::from_secs(1)).await;
        // Not idempotent: every arrival adds one.
        let update = format!("UPDATE \"{table}\" SET n = n + ? WHERE PK = ? AND SK = ?");
        let outcome = write(&through, &update, vec![n("1"), s(&pk), s("META")]).await;
        let now = stored(&engine, &table, key(&pk, "META")).await.unwrap();
        assert_eq!(now["n"], n("11"), "{fault:?}: applied exactly once");
        assert_eq!(proxy.forwarded(), 1, "{fault:?}: never sent twice");
        match fault {
            Fault::Throttle(refused) => {
                assert!(
                    matches!(outcome, StatementOutcome::Applied { attempts, .. } if attempts == refused as u32 + 1),
                    "{fault:?}: {outcome:?}"
                );
                assert_eq!(proxy.arrived(), refused + 1);
            }
            _ => assert!(
                matches!(outcome, StatementOutcome::Unknown { attempts: 1, .. }),
                "{fault:?}: {outcome:?}"
            ),
        }
    }
}
