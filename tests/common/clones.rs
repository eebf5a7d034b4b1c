//! Tables to clone: a source with a global and a local index, TTL, a stream and tags, filled
//! with items of every kind of value, and the two sides compared item by item. Used by the
//! clone tests.

use std::collections::HashMap;

use crate::common::Said;
use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::admin;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::clone::{self, CloneEvent, ClonePlan, CloneReport, PartAsked};
use dynoscope_core::connection::Connection;
use dynoscope_core::error::Result;
use dynoscope_core::read::SegmentStarts;
use dynoscope_core::schema::{BillingSpec, StreamView, TableSpec, parse_index, parse_key};
use dynoscope_core::value::same_item;
use dynoscope_core::value::{self, Item};

use crate::common::files::scan;
use crate::common::{Engine, n, s, table_name};

/// Items per partition.
pub(crate) const PER_PARTITION: usize = 100;

/// The source's spec: `PK`/`SK`, a global index `ByOwner` (`owner`/`rank`), a local index
/// `ByRank`, provisioned, a stream, TTL on `expiresAt`, two tags.
pub(crate) fn source_spec(name: &str) -> TableSpec {
    let mut spec = TableSpec::new(
        name,
        parse_key("PK:S").unwrap(),
        Some(parse_key("SK:S").unwrap()),
    );
    spec.billing = BillingSpec::Provisioned { rcu: 50, wcu: 40 };
    spec.global = vec![parse_index("ByOwner=owner:S,rank:N:ALL").unwrap()];
    spec.local = vec![parse_index("ByRank=PK:S,rank:N:KEYS_ONLY").unwrap()];
    spec.stream = Some(StreamView::NewAndOldImages);
    spec.ttl = Some("expiresAt".into());
    spec.tags = vec![("team".into(), "social".into())];
    spec
}

/// Item `i`: its partition is `P#` and `i / 100`; numbers past 64 bits, a set, a map, a list.
pub(crate) fn item(i: usize) -> Item {
    let doc = AttributeValue::M(HashMap::from([
        ("seen".to_owned(), n(&format!("{}.25", i % 1000))),
        (
            "path".to_owned(),
            AttributeValue::L(vec![
                s("a"),
                n("1"),
                AttributeValue::Bool(i.is_multiple_of(2)),
            ]),
        ),
    ]));
    HashMap::from([
        ("PK".to_owned(), s(&format!("P#{:05}", i / PER_PARTITION))),
        ("SK".to_owned(), s(&format!("I#{:03}", i % PER_PARTITION))),
        ("owner".to_owned(), s(&format!("U#{}", i % 37))),
        ("rank".to_owned(), n(&i.to_string())),
        (
            "big".to_owned(),
            n("98765432109876543210987654321098765432"),
        ),
        (
            "tags".to_owned(),
            AttributeValue::Ss(vec!["a".into(), format!("t{}", i % 7)]),
        ),
        ("doc".to_owned(), doc),
        ("expiresAt".to_owned(), n("4102444800")),
    ])
}

/// A table keyed `PK`/`SK` and nothing else: each item one write, so big clones stay quick.
pub(crate) fn plain_spec(name: &str) -> TableSpec {
    TableSpec::new(
        name,
        parse_key("PK:S").unwrap(),
        Some(parse_key("SK:S").unwrap()),
    )
}

/// A source table of `spec` (given its name) with `items` items on `engine`, created through
/// the core; its name.
pub(crate) async fn source(engine: &Engine, spec: fn(&str) -> TableSpec, items: usize) -> String {
    let name = table_name("clone-src");
    let spec = spec(&name);
    let plan = admin::create_plan(&engine.connection, &spec).unwrap();
    let report = admin::run(
        &engine.connection,
        &plan,
        false,
        &CancelToken::default(),
        &mut |_| {},
    )
    .await;
    assert!(report.after.is_some(), "{:?}", report.texts());
    fill(engine, &name, 0..items).await;
    name
}

/// Put items `range` into `table`, 8 batches at a time.
pub(crate) async fn fill(engine: &Engine, table: &str, range: std::ops::Range<usize>) {
    let all: Vec<Item> = range.map(item).collect();
    let mut tasks = tokio::task::JoinSet::new();
    for part in all.chunks(all.len().div_ceil(8).max(1)) {
        let (client, table, part) = (engine.client.clone(), table.to_owned(), part.to_vec());
        tasks.spawn(async move { crate::common::put_all(&client, &table, part).await });
    }
    while let Some(done) = tasks.join_next().await {
        done.unwrap();
    }
}

/// A plan cloning all of `table` into `to` in `segments`.
pub(crate) fn whole(table: &str, to: &str, segments: usize) -> ClonePlan {
    ClonePlan {
        table: table.to_owned(),
        to_table: to.to_owned(),
        part: PartAsked::Table(SegmentStarts::all(segments).unwrap()),
        batches_at_once: 4,
        sample: Some(clone::SAMPLE),
        full_check: false,
    }
}

/// Clone as `plan` says from `from` to `to`, with events to `on_event`.
pub(crate) async fn run(
    from: &Connection,
    to: &Connection,
    plan: &ClonePlan,
    stop: &CancelToken,
    mut on_event: impl FnMut(CloneEvent) + Send,
) -> Result<CloneReport> {
    clone::run(from, to, plan, false, stop, &mut on_event).await
}

/// [`run`], confirmed (`--yes`): what writing into a destination that holds items needs.
pub(crate) async fn run_confirmed(
    from: &Connection,
    to: &Connection,
    plan: &ClonePlan,
    mut on_event: impl FnMut(CloneEvent) + Send,
) -> Result<CloneReport> {
    clone::run(from, to, plan, true, &CancelToken::default(), &mut on_event).await
}

/// Every item of `a`'s `table_a` equals one of `b`'s `table_b`, and there are as many: compared
/// by key, sets as sets.
pub(crate) async fn same_items(a: &Engine, table_a: &str, b: &Engine, table_b: &str) -> usize {
    let names = ["PK".to_owned(), "SK".to_owned()];
    let key = |i: &Item| {
        let k: Item = names
            .iter()
            .filter_map(|n| i.get(n).map(|v| (n.clone(), v.clone())))
            .collect();
        value::item_to_dynamodb_json(&k, &names, false)
    };
    let left: HashMap<String, Item> = scan(a, table_a)
        .await
        .into_iter()
        .map(|i| (key(&i), i))
        .collect();
    let right = scan(b, table_b).await;
    assert_eq!(left.len(), right.len(), "as many items on both sides");
    for item in &right {
        let there = left.get(&key(item)).expect("an item of the source");
        assert!(same_item(there, item), "{there:?} != {item:?}");
    }
    right.len()
}
