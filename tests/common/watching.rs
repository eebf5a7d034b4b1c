//! Watching counters in tests: a watch spec on the posts' rule, a table with a stream turned
//! on through the write gateway, a like through the core.

use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::likes::LikeOp;
use dynoscope_core::read;
use dynoscope_core::report::Report;
use dynoscope_core::spec::{LikeSpec, RuleSpec, WatchFrom, WatchSpec};
use dynoscope_core::stream;
use dynoscope_core::table::TableInfo;
use dynoscope_core::write::{self, WriteOutcome};

use crate::common::{self, Sdk as _, n, s};

pub(crate) fn spec(table: &str, pk: Option<&str>, from: WatchFrom) -> WatchSpec {
    WatchSpec {
        table: table.to_owned(),
        pk: pk.map(str::to_owned),
        rule: RuleSpec {
            parent_prefix: "POST#".into(),
            tally: "likeTally".into(),
            child_prefix: "LIKE#".into(),
            ..RuleSpec::default()
        },
        from,
        settle_seconds: 5.0,
        poll_seconds: None,
    }
}

/// A table with a stream turned on through the write gateway, and one post with tally 0.
pub(crate) async fn stream_table(connection: &Connection) -> TableInfo {
    let table = common::table_name("watch");
    common::create_table(&common::Sdk::sdk(connection), &table).await;
    let info = read::describe_table(&connection.reader(), &table)
        .await
        .unwrap();
    assert!(stream::StreamSource::of(&info).is_err(), "no stream yet");
    let outcome = write::send(connection, &stream::enable_plan(connection, &info), false).await;
    assert!(
        matches!(outcome, WriteOutcome::Applied { .. }),
        "{outcome:?}"
    );
    connection
        .sdk()
        .put_item()
        .table_name(&table)
        .item("PK", s("POST#1"))
        .item("SK", s("META"))
        .item("likeTally", n("0"))
        .send()
        .await
        .unwrap();
    read::describe_table(&connection.reader(), &table)
        .await
        .unwrap()
}

pub(crate) async fn like(connection: &Connection, table: &str, user: &str, op: LikeOp) {
    let spec = LikeSpec {
        table: table.to_owned(),
        pk: "POST#1".into(),
        parent_sk: "META".into(),
        tally: "likeTally".into(),
        child_prefix: "LIKE#".into(),
        user: user.to_owned(),
        token: None,
        create: false,
    };
    let report = spec
        .run(connection, op, false, &CancelToken::default())
        .await
        .unwrap();
    assert!(
        report.lines().iter().any(|l| l.text.contains("ommitted")),
        "{:?}",
        report.lines()
    );
}
