//! `dynoscope size` and `dynoscope shards-advice` as processes against a served sandbox: an
//! item's bytes as counted by hand, and the engine's own ConsumedCapacity for a put, a
//! transactional put and reads of that item equal to the units the size module predicts.

use crate::common;
use crate::common::Sdk as _;

use std::collections::HashMap;
use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, Put, ReturnConsumedCapacity, TransactWriteItem};
use dynoscope_core::cost::size::SizeReport;
use dynoscope_core::cost::units::{ReadKind, WriteKind};

use common::served::{Served, dynoscope, text};
use common::{n, s};

/// An item of `60 + pad` bytes, counted by hand from AWS's rules:
/// PK "SIZE#…" 2 + 6 · SK "META" 2 + 4 · n 1.5: 1 + 3 (a digit each side of the point, a pair
/// each, + 1) · neg -42: 3 + 3 (one pair, + 1, + 1 for the minus) · tags {"a", "bc"}: 4 + 3 ·
/// doc {"k": "", "l": [7, true]}: 3 + 3 + (1 + 1 + 0) + (1 + 1 + (3 + 2 + 2 + 1)) = 18 ·
/// café "❤": 5 + 3 · pad: 3 + pad.
fn item(pk: &str, pad: usize) -> HashMap<String, AttributeValue> {
    assert_eq!(pk.len(), 6);
    HashMap::from([
        ("PK".to_owned(), s(pk)),
        ("SK".to_owned(), s("META")),
        ("n".to_owned(), n("1.5")),
        ("neg".to_owned(), n("-42")),
        (
            "tags".to_owned(),
            AttributeValue::Ss(vec!["a".into(), "bc".into()]),
        ),
        (
            "doc".to_owned(),
            AttributeValue::M(HashMap::from([
                ("k".to_owned(), s("")),
                (
                    "l".to_owned(),
                    AttributeValue::L(vec![n("7"), AttributeValue::Bool(true)]),
                ),
            ])),
        ),
        ("café".to_owned(), s("❤")),
        ("pad".to_owned(), s(&"x".repeat(pad))),
    ])
}

const HAND_BYTES: usize = 8 + 6 + 4 + 6 + 7 + 18 + 8 + 3;

fn units(consumed: Option<&aws_sdk_dynamodb::types::ConsumedCapacity>) -> String {
    let units = consumed
        .and_then(aws_sdk_dynamodb::types::ConsumedCapacity::capacity_units)
        .expect("consumed capacity");
    dynoscope_core::cost::units_of(units)
        .normalized()
        .to_string()
}

async fn put(client: &Client, table: &str, item: HashMap<String, AttributeValue>) -> String {
    let out = client
        .put_item()
        .table_name(table)
        .set_item(Some(item))
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await
        .unwrap();
    units(out.consumed_capacity())
}

async fn put_in_transaction(
    client: &Client,
    table: &str,
    item: HashMap<String, AttributeValue>,
) -> String {
    let put = Put::builder()
        .table_name(table)
        .set_item(Some(item))
        .build()
        .unwrap();
    let out = client
        .transact_write_items()
        .transact_items(TransactWriteItem::builder().put(put).build())
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await
        .unwrap();
    units(out.consumed_capacity().first())
}

async fn get(client: &Client, table: &str, pk: &str, strong: bool) -> String {
    let out = client
        .get_item()
        .table_name(table)
        .key("PK", s(pk))
        .key("SK", s("META"))
        .consistent_read(strong)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await
        .unwrap();
    units(out.consumed_capacity())
}

fn exact(units: &bigdecimal::BigDecimal) -> String {
    units.normalized().to_string()
}

/// The CLI reads the item by its key (on `table` at `url`) and says the same bytes.
fn the_cli_says_the_same_bytes(url: &str, table: &str) {
    let args = [
        "--endpoint-url",
        url,
        "size",
        "--table",
        table,
        "--pk",
        "SIZE#2",
    ];
    let out = dynoscope(&[&args[..], &["--sk", "META", "--json"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["bytes"], 1025);
    assert_eq!(json["wcu"]["standard"], 2);
    assert_eq!(json["wcu"]["transactional"], 4);
    assert_eq!(json["rcu"]["eventual"].to_string(), "0.5");
    assert_eq!(json["attributes"][0]["name"], "pad");
    // The sandbox has no AWS region of its own: priced as us-east-1 and said so.
    assert_eq!(json["usd"]["put"].to_string(), "0.00000125");
    assert!(
        json["usd"]["priced_as"]
            .as_str()
            .unwrap()
            .contains("no AWS region")
    );
    let out = dynoscope(&[&args[..], &["--sk", "META"]].concat());
    let words = text(&out.stdout);
    assert!(
        words.starts_with("1,025 B · put 2 WCU (tx 4) · read 1 RCU strong / 0.5 eventual"),
        "{words}"
    );
    assert!(words.contains("408,575 B left under 400 KB"), "{words}");
}

/// No such item, or no sort key given, is refused; shard advice by the table is priced as its
/// billing.
fn refusals_and_shard_advice(url: &str, table: &str) {
    // No such item: exit 1; no sort key given on a table that has one: exit 2.
    let out = dynoscope(&[
        "--endpoint-url",
        url,
        "size",
        "--table",
        table,
        "--pk",
        "NOPE",
        "--sk",
        "META",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let out = dynoscope(&[
        "--endpoint-url",
        url,
        "size",
        "--table",
        table,
        "--pk",
        "SIZE#1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("give --sk"),
        "{}",
        text(&out.stderr)
    );

    // Shard advice by this table: no local secondary index, priced as its billing.
    let out = dynoscope(&[
        "--endpoint-url",
        url,
        "shards-advice",
        "--writes-per-second",
        "3000",
        "--item-bytes",
        "1025",
        "--table",
        table,
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["minimum_shards"], 7);
    // Without --shards the report is about the shards it suggests: their load and their reads.
    assert_eq!(json["suggested_shards"], 8);
    assert_eq!(json["shards"], 8);
    assert_eq!(json["wcu_per_shard"].to_string(), "750");
    assert_eq!(json["has_local_secondary_index"], false);
}

#[test]
fn the_engine_charges_what_the_size_module_predicts() {
    let served = Served::new();
    let connection = served
        .runtime
        .block_on(common::connect_to(served.url(), Duration::from_secs(10)));
    let client = connection.sdk().clone();
    let table = common::table_name("Size");
    served
        .runtime
        .block_on(common::create_table(&client, &table));
    // 1,024 bytes is one write unit; 1,025 two. AWS's page's "approximately one byte per two
    // digits" would count 1.5 as 2 bytes, and these items as 1,023 and 1,024: one unit each.
    for (pk, pad, wcu) in [
        ("SIZE#1", 1024 - HAND_BYTES, "1"),
        ("SIZE#2", 1025 - HAND_BYTES, "2"),
    ] {
        let item = item(pk, pad);
        let report = SizeReport::of(&item);
        assert_eq!(report.bytes as usize, HAND_BYTES + pad);
        assert_eq!(exact(&report.write_units(WriteKind::Standard)), wcu);
        let consumed = served.runtime.block_on(put(&client, &table, item.clone()));
        assert_eq!(consumed, wcu, "{pk}: PutItem");
        let tx = served
            .runtime
            .block_on(put_in_transaction(&client, &table, item));
        assert_eq!(
            tx,
            exact(&report.write_units(WriteKind::Transactional)),
            "{pk}: tx"
        );
        let strong = served.runtime.block_on(get(&client, &table, pk, true));
        assert_eq!(
            strong,
            exact(&report.read_units(ReadKind::Strong)),
            "{pk}: strong"
        );
        let eventual = served.runtime.block_on(get(&client, &table, pk, false));
        assert_eq!(
            eventual,
            exact(&report.read_units(ReadKind::Eventual)),
            "{pk}"
        );
    }
    // 4,097 bytes: two read units strong, one eventual, five write units.
    let big = item("SIZE#3", 4097 - HAND_BYTES);
    assert_eq!(served.runtime.block_on(put(&client, &table, big)), "5");
    assert_eq!(
        served
            .runtime
            .block_on(get(&client, &table, "SIZE#3", true)),
        "2"
    );
    assert_eq!(
        served
            .runtime
            .block_on(get(&client, &table, "SIZE#3", false)),
        "1"
    );

    // The CLI reads the item by its key and says the same bytes.
    let (url, table) = (served.url(), table.as_str());
    the_cli_says_the_same_bytes(url, table);
    refusals_and_shard_advice(url, table);
}

#[test]
fn a_bare_item_needs_no_connection_and_a_huge_file_is_refused() {
    let out = dynoscope(&[
        "size",
        "--item",
        r#"{"PK": {"S": "a"}, "n": {"N": "-1.5"}}"#,
    ]);
    let words = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(words.starts_with("8 B · put 1 WCU (tx 2)"), "{words}");
    assert!(
        words.contains("no table given, so priced on demand in us-east-1"),
        "{words}"
    );

    let out = dynoscope(&["size", "--item", r#"{"n": {"N": "12abc"}}"#]);
    assert_eq!(out.status.code(), Some(2));

    let dir = std::env::temp_dir().join(common::table_name("size-file"));
    std::fs::create_dir_all(&dir).unwrap();
    let huge = dir.join("huge.json");
    std::fs::write(&huge, vec![b' '; 4 * 1024 * 1024 + 1]).unwrap();
    let out = dynoscope(&["size", "--item-file", huge.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("over 4 MB"),
        "{}",
        text(&out.stderr)
    );
    let small = dir.join("item.json");
    std::fs::write(&small, r#"{"PK": {"S": "a"}}"#).unwrap();
    let out = dynoscope(&["size", "--item-file", small.to_str().unwrap(), "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["bytes"], 3);
    std::fs::remove_dir_all(&dir).unwrap();

    let out = dynoscope(&[
        "shards-advice",
        "--writes-per-second",
        "500",
        "--item-bytes",
        "200",
        "--transactional",
    ]);
    let words = text(&out.stdout);
    assert!(
        words.starts_with(
            "500 writes/s × 2 WCU (tx) = 1,000 WCU/s ≥ one partition's 1,000 WCU/s: at least 2 shards"
        ),
        "{words}"
    );
    let out = dynoscope(&[
        "shards-advice",
        "--writes-per-second",
        "0",
        "--item-bytes",
        "200",
    ]);
    assert_eq!(out.status.code(), Some(2));
}
