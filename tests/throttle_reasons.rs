//! Throttling with its reason: a proxy answers the first requests with a ThrottlingException
//! carrying `ThrottlingReasons`, as DynamoDB does, and every wait the gateway, the reader and
//! the CLI report names the limit that was hit; so does the error once the waits run out.

use crate::common;

use std::time::Duration;

use dynoscope_core::cancel::CancelToken;
use dynoscope_core::counter::{self, Change, EditMode, Outcome};
use dynoscope_core::read::{self, Backoff, BrowseRequest, ReadEvent, Stopped, Until};
use dynoscope_core::write::Destination;

use common::served::{Served, dynoscope, text};
use common::tables::{proxy, table_of};
use common::through::{engine_with_table, key, number, proxied};
use common::{Fault, n, put_all};

const KEY_RANGE_WRITE: &str = "TableWriteKeyRangeThroughputExceeded";

/// Waits short enough for tests, the same schedule otherwise.
const QUICK: Backoff = Backoff {
    first: Duration::from_millis(1),
    longest: Duration::from_millis(4),
    throttled_for: Duration::from_secs(5),
    resends: 2,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_throttled_write_is_applied_once_and_its_waits_name_the_limit() {
    let (engine, info) = engine_with_table().await;
    let key = key("VID#hot", "STATS#TOTAL");
    let mut item = key.clone();
    item.insert("play_count".into(), n("10"));
    put_all(&engine.client, &info.name, vec![item.clone()]).await;
    let fault = Fault::ThrottleBecause {
        times: 2,
        reason: KEY_RANGE_WRITE,
    };
    let (proxy, through) = proxied(&engine, &["UpdateItem"], fault).await;
    let request = counter::EditRequest {
        attribute: "play_count".into(),
        change: Change::By("1".into()),
        from: None,
        create: false,
    };
    let plan = counter::plan_edit(
        &Destination::of(&through),
        &info,
        &item,
        &request,
        EditMode::Add,
    )
    .unwrap();
    let outcome = counter::update_counter(&through, &plan, false).await;
    let limit = format!(
        "this key range's write limit (1,000 WCU/s per partition) on table {}",
        info.name
    );
    match &outcome {
        Outcome::Applied {
            attempts,
            throttled,
            ..
        } => {
            assert_eq!(*attempts, 3);
            assert_eq!(
                throttled,
                &[
                    format!("throttled by {limit}, waiting 100 ms before attempt 2"),
                    format!("throttled by {limit}, waiting 200 ms before attempt 3"),
                ]
            );
        }
        other => panic!("not applied: {other:?}"),
    }
    assert_eq!(proxy.forwarded(), 1, "the throttled attempts never arrived");
    let now = number(&engine, &info.name, &key, "play_count").await;
    assert_eq!(now.as_deref(), Some("11"), "applied once");

    // Throttled every time: the waits run out, and the error says the limit.
    let always = Fault::ThrottleBecause {
        times: usize::MAX,
        reason: KEY_RANGE_WRITE,
    };
    let (_proxy, through) = proxied(&engine, &["UpdateItem"], always).await;
    let plan = counter::plan_edit(
        &Destination::of(&through),
        &info,
        &item,
        &request,
        EditMode::Add,
    )
    .unwrap();
    match counter::update_counter(&through, &plan, false).await {
        Outcome::Failed(error) => {
            assert_eq!(error.code(), Some("ThrottlingException"));
            assert!(
                error
                    .to_string()
                    .ends_with(&format!("; throttled by {limit}")),
                "{error}"
            );
        }
        other => panic!("not refused: {other:?}"),
    }
    let now = number(&engine, &info.name, &key, "play_count").await;
    assert_eq!(now.as_deref(), Some("11"), "nothing applied");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_throttled_read_names_the_read_limit_of_the_table_or_index() {
    let (engine, info) = table_of(20, 10).await;
    for (index, reason, limit) in [
        (
            None,
            "TableReadKeyRangeThroughputExceeded",
            format!(
                "this key range's read limit (3,000 RCU/s per partition) on table {}",
                info.name
            ),
        ),
        (
            Some("ByOwner"),
            "IndexReadProvisionedThroughputExceeded",
            format!(
                "the provisioned read capacity on index ByOwner of table {}",
                info.name
            ),
        ),
    ] {
        let (_proxy, client) = proxy(&engine, Fault::ThrottleBecause { times: 2, reason }).await;
        let request = BrowseRequest::scan(&info, index).unwrap();
        let mut waits = Vec::new();
        let cancel = CancelToken::default();
        let stopped = read::read_events(
            &client,
            &request,
            None,
            Until::LastPage,
            &QUICK,
            &cancel,
            |event| {
                if let ReadEvent::Throttled { reasons, .. } = &event {
                    assert_eq!(reasons[0].reason, reason);
                }
                if let Some(note) = event.note() {
                    waits.push(note);
                }
            },
        )
        .await
        .unwrap();
        assert_eq!(stopped, Stopped::LastPage);
        assert_eq!(
            waits,
            [
                format!("throttled by {limit}, waiting 1 ms before attempt 2"),
                format!("throttled by {limit}, waiting 2 ms before attempt 3"),
            ]
        );
    }
}

/// A write's waits in its report, with the limit it hit; sent once more, not twice.
fn a_writes_waits_in_its_report(served: &Served) {
    let writes = served.fault(
        &["UpdateItem"],
        Fault::ThrottleBecause {
            times: 1,
            reason: KEY_RANGE_WRITE,
        },
    );
    let out = dynoscope(&[
        "--endpoint-url",
        &writes.url,
        "add",
        "--table",
        "Videos",
        "--attr",
        "play_count",
        "--key",
        "PK=VID#9f3a",
        "--key",
        "SK=STATS#TOTAL",
        "--delta",
        "1",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        stdout.contains(
            "throttled by this key range's write limit (1,000 WCU/s per partition) on table Videos, waiting 100 ms before attempt 2"
        ),
        "{stdout}"
    );
    assert_eq!(writes.forwarded(), 1);
}

#[test]
fn the_cli_prints_the_limit_of_each_wait() {
    let served = Served::new();
    // A read's waits on stderr.
    let reads = served.fault(
        &["Query"],
        Fault::ThrottleBecause {
            times: 1,
            reason: "TableReadKeyRangeThroughputExceeded",
        },
    );
    let out = dynoscope(&[
        "--endpoint-url",
        &reads.url,
        "items",
        "--table",
        "Videos",
        "--pk",
        "VID#9f3a",
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "dynoscope: throttled by this key range's read limit (3,000 RCU/s per partition) on table Videos, waiting 50 ms before attempt 2"
        ),
        "{stderr}"
    );
    assert!(text(&out.stdout).contains("STATS#TOTAL"));
    // Throttled out: the error on stderr names the limit too.
    let always = served.fault(
        &["Query"],
        Fault::ThrottleBecause {
            times: usize::MAX,
            reason: "TableReadProvisionedThroughputExceeded",
        },
    );
    let out = dynoscope(&[
        "--endpoint-url",
        &always.url,
        "items",
        "--table",
        "Videos",
        "--pk",
        "VID#9f3a",
        "--max-throttle-wait",
        "0",
    ]);
    let stderr = text(&out.stderr);
    // A read that could not finish: 2, not the 1 of data that disagrees.
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "ThrottlingException: Throughput exceeds the current capacity for one or more resources; throttled by the provisioned read capacity on table Videos"
        ),
        "{stderr}"
    );
    a_writes_waits_in_its_report(&served);
}
