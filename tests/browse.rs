//! Browsing against an embedded engine through the real SDK: paging, every sort-key condition,
//! index queries, filters, exact numbers and error mapping.

use crate::common;

use std::collections::HashMap;

use common::{create_table, empty_engine, n, put_all, s, table_name};
use dynoscope_core::condition::{FilterClause, FilterOp, SortCondition, SortOp};
use dynoscope_core::read::{self as ops, BrowseRequest};
use dynoscope_core::table::TableInfo;
use dynoscope_core::value::{self, Item};

async fn all_pages(
    client: &dynoscope_core::connection::Reader,
    request: &BrowseRequest,
) -> (Vec<Item>, usize) {
    let mut items = Vec::new();
    let mut pages = 0;
    let mut start = None;
    loop {
        let page = ops::fetch_page(client, request, start.take())
            .await
            .expect("page");
        pages += 1;
        items.extend(page.items);
        match page.last_key {
            Some(next) => start = Some(next),
            None => return (items, pages),
        }
    }
}

fn row(pk: &str, sk: &str) -> Item {
    HashMap::from([("PK".to_owned(), s(pk)), ("SK".to_owned(), s(sk))])
}

async fn table_with(items: Vec<Item>) -> (common::Engine, TableInfo) {
    let engine = empty_engine().await;
    let name = table_name("browse");
    create_table(&engine.client, &name).await;
    put_all(&engine.client, &name, items).await;
    let info = ops::describe_table(&engine.reader(), &name)
        .await
        .expect("describe");
    (engine, info)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_partition_larger_than_1_mb_is_read_in_several_pages() {
    let pad = "x".repeat(1_000);
    let items: Vec<Item> = (0..2_600)
        .map(|i| {
            let mut item = row("BIG", &format!("ITEM#{i:05}"));
            item.insert("pad".into(), s(&pad));
            item
        })
        .collect();
    let (engine, info) = table_with(items).await;
    let request = BrowseRequest::query(&info, None, s("BIG"), None, true).unwrap();
    let (items, pages) = all_pages(&engine.reader(), &request).await;
    assert_eq!(items.len(), 2_600);
    assert!(
        pages >= 3,
        "2.6 MB should take at least 3 pages, took {pages}"
    );
    // Pages continue exactly where the previous one stopped: no duplicates, in order.
    let sks: Vec<String> = items.iter().map(|i| value::cell_text(&i["SK"])).collect();
    let mut sorted = sks.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sks, sorted);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_sort_key_condition() {
    let mut items: Vec<Item> = (1..=9).map(|i| row("P", &format!("A#{i}"))).collect();
    items.push(row("P", "B#1"));
    items.push(row("OTHER", "A#1"));
    let (engine, info) = table_with(items).await;
    let cases: [(SortOp, &str, Option<&str>, usize); 7] = [
        (SortOp::Eq, "A#3", None, 1),
        (SortOp::Lt, "A#3", None, 2),
        (SortOp::Le, "A#3", None, 3),
        (SortOp::Gt, "A#3", None, 7),
        (SortOp::Ge, "A#3", None, 8),
        (SortOp::BeginsWith, "A#", None, 9),
        (SortOp::Between, "A#2", Some("A#5"), 4),
    ];
    for (op, value, upper, expected) in cases {
        let cond = SortCondition {
            op,
            value: s(value),
            upper: upper.map(s),
        };
        let request = BrowseRequest::query(&info, None, s("P"), Some(cond), true).unwrap();
        let (found, _) = all_pages(&engine.reader(), &request).await;
        assert_eq!(found.len(), expected, "{op:?} {value}");
    }
    // Descending order.
    let request = BrowseRequest::query(&info, None, s("P"), None, false).unwrap();
    let (found, _) = all_pages(&engine.reader(), &request).await;
    assert_eq!(value::cell_text(&found[0]["SK"]), "B#1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queries_an_index_with_a_number_sort_key() {
    let items: Vec<Item> = (1..=6)
        .map(|i| {
            let mut item = row("P", &format!("T#{i}"));
            item.insert("owner".into(), s(if i % 2 == 0 { "ana" } else { "bruno" }));
            item.insert("rank".into(), n(&(i * 10).to_string()));
            item
        })
        .collect();
    let (engine, info) = table_with(items).await;
    assert_eq!(info.indexes.len(), 1);
    let cond = SortCondition {
        op: SortOp::Ge,
        value: n("40"),
        upper: None,
    };
    let request = BrowseRequest::query(&info, Some("ByOwner"), s("ana"), Some(cond), true).unwrap();
    let (found, _) = all_pages(&engine.reader(), &request).await;
    let ranks: Vec<String> = found.iter().map(|i| value::cell_text(&i["rank"])).collect();
    assert_eq!(ranks, ["40", "60"]);
    assert_eq!(
        info.grid_key_names(Some("ByOwner")),
        ["owner", "rank", "PK", "SK"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scan_with_a_filter_on_a_reserved_word() {
    let items: Vec<Item> = (1..=10)
        .map(|i| {
            let mut item = row(&format!("P{i}"), "META");
            item.insert("count".into(), n(&i.to_string()));
            item
        })
        .collect();
    let (engine, info) = table_with(items).await;
    let mut request = BrowseRequest::scan(&info, None).unwrap();
    request.filter.push(FilterClause {
        attribute: "count".into(),
        op: FilterOp::Sort(SortOp::Gt),
        values: vec![n("7")],
    });
    request.page_size = Some(4);
    let (found, pages) = all_pages(&engine.reader(), &request).await;
    assert_eq!(found.len(), 3);
    assert!(
        pages >= 3,
        "a page size of 4 over 10 items takes 3 pages, took {pages}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_38_digit_number_round_trips_exactly() {
    let big = "12345678901234567890123456789012345678";
    let small = "-0.00000000000000000000000000000000000012345678901234567890123456789012345678";
    let mut item = row("NUM", "META");
    item.insert("big".into(), n(big));
    item.insert("small".into(), n(small));
    let (engine, info) = table_with(vec![item]).await;
    let request = BrowseRequest::query(&info, None, s("NUM"), None, true).unwrap();
    let (found, _) = all_pages(&engine.reader(), &request).await;
    assert_eq!(value::cell_text(&found[0]["big"]), big);
    let plain = value::item_to_plain_json(&found[0], &info.key_names(), false);
    assert!(plain.contains(&format!("\"big\":{big}")), "{plain}");
    let back = dynoscope_core::number::parse(&value::cell_text(&found[0]["small"])).unwrap();
    assert_eq!(back, dynoscope_core::number::parse(small).unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_carry_the_operation_and_the_server_code() {
    let engine = empty_engine().await;
    let err = ops::describe_table(&engine.reader(), "NoSuchTable")
        .await
        .unwrap_err();
    assert_eq!(err.op(), Some("DescribeTable"));
    assert_eq!(err.code(), Some("ResourceNotFoundException"));
    assert!(
        err.to_string()
            .starts_with("DescribeTable failed: ResourceNotFoundException"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_tables_follows_every_page() {
    let engine = empty_engine().await;
    let mut names = Vec::new();
    for _ in 0..105 {
        let name = table_name("many");
        create_table(&engine.client, &name).await;
        names.push(name);
    }
    let listed = ops::list_tables(&engine.reader()).await.unwrap();
    assert_eq!(
        listed.len(),
        105,
        "ListTables returns at most 100 names a page"
    );
    names.sort();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(sorted, names);
}
