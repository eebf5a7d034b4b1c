//! Tables of many items for the reader's tests: one of `count` items padded to size, a
//! throttling proxy in front of it, and the sort keys read, each once.

use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use dynoscope_core::connection::Reader;
use dynoscope_core::read;
use dynoscope_core::table::TableInfo;
use dynoscope_core::value::{self, Item};

use crate::common::{
    self, Engine, Fault, FaultProxy, create_table, empty_engine, put_all, s, table_name,
};

/// A table of `count` items in 8 partitions (`SK` = `I#00000`…), each padded with `pad_bytes`,
/// every fourth one of a partition with `kind = keep`.
pub(crate) async fn table_of(count: usize, pad_bytes: usize) -> (Engine, TableInfo) {
    let engine = empty_engine().await;
    let name = table_name("reads");
    create_table(&engine.client, &name).await;
    let pad = "x".repeat(pad_bytes);
    let items = (0..count)
        .map(|i| {
            // Every fourth item of each partition, so that any stretch of a scan keeps 1 in 4.
            let kind = if (i / 8) % 4 == 0 { "keep" } else { "skip" };
            HashMap::from([
                ("PK".to_owned(), s(&format!("P#{}", i % 8))),
                ("SK".to_owned(), s(&format!("I#{i:05}"))),
                ("kind".to_owned(), s(kind)),
                ("pad".to_owned(), s(&pad)),
            ])
        })
        .collect();
    put_all(&engine.client, &name, items).await;
    let info = read::describe_table(&engine.reader(), &name).await.unwrap();
    (engine, info)
}

/// A proxy with `fault` on Scan and Query in front of `engine`, and a client through it.
pub(crate) async fn proxy(engine: &Engine, fault: Fault) -> (FaultProxy, Reader) {
    let proxy = common::fault_proxy(engine.sandbox.addr(), &["Scan", "Query"], fault).await;
    let connection = common::connect_to(&proxy.url, Duration::from_secs(10)).await;
    (proxy, connection.reader())
}

/// The sort key of `item`, as text.
pub(crate) fn sk(item: &Item) -> String {
    value::cell_text(&item["SK"])
}

/// Each key once: a key read twice fails the test.
pub(crate) fn once(keys: impl IntoIterator<Item = String>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for key in keys {
        assert!(seen.insert(key.clone()), "{key} read twice");
    }
    seen
}

/// The sort keys of a [`table_of`] `count` items.
pub(crate) fn every(count: usize) -> BTreeSet<String> {
    (0..count).map(|i| format!("I#{i:05}")).collect()
}
