//! Writes through faults: every fault each path is tried with, a connection through a fault
//! proxy, and an empty table to write to.

use std::collections::HashMap;
use std::time::Duration;

use dynoscope_core::connection::Connection;
use dynoscope_core::read as ops;
use dynoscope_core::table::TableInfo;
use dynoscope_core::value::Item;

use crate::common::{self, Engine, Fault, FaultProxy, create_table, empty_engine, s, table_name};

/// Every fault each path is tried with.
pub(crate) fn faults() -> Vec<Fault> {
    let mut all = Fault::AFTER_APPLY.to_vec();
    all.push(Fault::Throttle(2));
    all
}

/// A proxy with `fault` on `writes`, and a connection through it that gives up after 1 s.
pub(crate) async fn proxied(
    engine: &Engine,
    writes: &'static [&'static str],
    fault: Fault,
) -> (FaultProxy, Connection) {
    let proxy = common::fault_proxy(engine.sandbox.addr(), writes, fault).await;
    let connection = common::connect_to(&proxy.url, Duration::from_secs(1)).await;
    (proxy, connection)
}

pub(crate) fn key(pk: &str, sk: &str) -> Item {
    HashMap::from([("PK".to_owned(), s(pk)), ("SK".to_owned(), s(sk))])
}

pub(crate) async fn number(engine: &Engine, table: &str, key: &Item, attr: &str) -> Option<String> {
    ops::read_number(&engine.reader(), table, key, attr)
        .await
        .unwrap()
}

pub(crate) async fn engine_with_table() -> (Engine, TableInfo) {
    let engine = empty_engine().await;
    let name = table_name("faults");
    create_table(&engine.client, &name).await;
    let info = ops::describe_table(&engine.reader(), &name).await.unwrap();
    (engine, info)
}
