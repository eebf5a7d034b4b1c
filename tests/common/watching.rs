//! Watching counters in tests: a watch spec on the posts' rule, a table with a stream turned
//! on through the write gateway, a like through the core.

use dynoscope::core::cancel::CancelToken;
use dynoscope::core::connection::Connection;
use dynoscope::core::likes::{self, LikeOp};
use dynoscope::core::read;
use dynoscope::core::spec::{LikeSpec, RuleSpec, WatchFrom, WatchSpec};
use dynoscope::core::stream;
use dynoscope::core::table::TableInfo;
use dynoscope::core::write::{self, WriteOutcome};

use crate::common::{self, n, s};

pub fn spec(table: &str, pk: Option<&str>, from: WatchFrom) -> WatchSpec {
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
pub async fn stream_table(connection: &Connection) -> TableInfo {
    let table = common::table_name("watch");
    common::create_table(&connection.client, &table).await;
    let info = read::describe_table(&connection.client, &table)
        .await
        .unwrap();
    assert!(stream::StreamSource::of(&info).is_err(), "no stream yet");
    let outcome = write::send(connection, &stream::enable_plan(connection, &info), false).await;
    assert!(
        matches!(outcome, WriteOutcome::Applied { .. }),
        "{outcome:?}"
    );
    connection
        .client
        .put_item()
        .table_name(&table)
        .item("PK", s("POST#1"))
        .item("SK", s("META"))
        .item("likeTally", n("0"))
        .send()
        .await
        .unwrap();
    read::describe_table(&connection.client, &table)
        .await
        .unwrap()
}

pub async fn like(connection: &Connection, table: &str, user: &str, op: LikeOp) {
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
    let report = likes::like(connection, op, &spec, false, &CancelToken::default())
        .await
        .unwrap();
    assert!(
        report.lines().iter().any(|l| l.text.contains("ommitted")),
        "{:?}",
        report.lines()
    );
}
