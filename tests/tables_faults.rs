//! Table management where it must not write, or cannot know: a read-only connection that sends
//! nothing (counted at a proxy), a change planned from an old read refused once read again, and
//! every configuration write (create, change, delete) through every fault of the proxy, its
//! outcome matching what the table shows.

use crate::common;

use std::time::Duration;

use crate::common::Said;
use common::moto::run;
use common::through::proxied;
use common::{Fault, empty_engine, table_name};
use dynoscope_core::admin;
use dynoscope_core::connection::{self, ConnectOptions, ConnectionSpec};
use dynoscope_core::ending::Ending;
use dynoscope_core::schema::{StreamView, TableChange, TableSpec, parse_key, read_spec};
use dynoscope_core::write::WriteOutcome;

#[tokio::test]
async fn a_read_only_connection_sends_no_change_at_all() {
    let engine = empty_engine().await;
    let spec = TableSpec::new(&table_name("ro"), parse_key("PK:S").unwrap(), None);
    run(
        &engine.connection,
        &admin::create_plan(&engine.connection, &spec).unwrap(),
    )
    .await;
    let proxy = common::fault_proxy(
        engine.sandbox.addr(),
        &[
            "CreateTable",
            "UpdateTable",
            "DeleteTable",
            "UpdateTimeToLive",
        ],
        Fault::HtmlAfterApply,
    )
    .await;
    let read_only = connection::connect_with(
        ConnectionSpec::Endpoint {
            url: proxy.url.clone(),
            profile: None,
            region: None,
        },
        ConnectOptions {
            timeout: Duration::from_secs(5),
            read_only: true,
        },
    )
    .await
    .unwrap();
    let described = read_spec(&read_only.reader(), &spec.name).await.unwrap();
    let other = TableSpec::new(&table_name("ro-new"), parse_key("PK:S").unwrap(), None);
    let plans = [
        admin::create_plan(&read_only, &other).unwrap(),
        admin::change_plan(
            &read_only,
            &described,
            TableChange::Stream(Some(StreamView::NewImage)),
        )
        .unwrap(),
        admin::change_plan(
            &read_only,
            &described,
            TableChange::Ttl {
                attribute: "exp".into(),
                enabled: true,
            },
        )
        .unwrap(),
        admin::delete_plan(&read_only, &described, &spec.name).unwrap(),
    ];
    for plan in &plans {
        let (report, events) = run(&read_only, plan).await;
        let error = report.ended().unwrap_err();
        assert!(
            error.to_string().to_lowercase().contains("read-only"),
            "{error}"
        );
        assert!(events.is_empty());
    }
    assert_eq!(proxy.arrived(), 0, "nothing reached the server");
}

/// Every configuration write through every fault: the outcome said is what the table shows.
#[tokio::test]
async fn configuration_writes_through_faults_report_what_the_table_shows() {
    for fault in common::through::faults() {
        let engine = empty_engine().await;
        let reader = engine.reader();
        let (proxy, connection) = proxied(
            &engine,
            &["CreateTable", "UpdateTable", "DeleteTable"],
            fault,
        )
        .await;
        let spec = TableSpec::new(&table_name("fault"), parse_key("PK:S").unwrap(), None);
        let plan = admin::create_plan(&connection, &spec).unwrap();
        let (report, _) = run(&connection, &plan).await;
        let exists = read_spec(&reader, &spec.name).await.is_ok();
        let outcome = &report.writes[0].1;
        if let Fault::Throttle(_) = fault {
            assert!(
                matches!(outcome, WriteOutcome::Applied { attempts: 3, .. }),
                "{fault:?}: {outcome:?}"
            );
            assert!(exists);
        } else {
            // Sent once, never again: the answer was lost, so the outcome is unknown, and
            // the table described again shows it was created.
            assert!(
                matches!(outcome, WriteOutcome::Unknown { attempts: 1, .. }),
                "{fault:?}: {outcome:?}"
            );
            assert_eq!(report.ended().unwrap(), Ending::Unknown);
            assert!(exists, "{fault:?}");
            assert_eq!(
                report.after.as_ref().map(|d| &d.spec),
                Some(&spec),
                "{fault:?}"
            );
        }
        assert_eq!(proxy.forwarded(), 1, "{fault:?}: forwarded once");

        // A change through the same fault.
        let described = read_spec(&reader, &spec.name).await.unwrap();
        let plan = admin::change_plan(
            &connection,
            &described,
            TableChange::DeletionProtection(true),
        )
        .unwrap();
        let (report, _) = run(&connection, &plan).await;
        let on = read_spec(&reader, &spec.name)
            .await
            .unwrap()
            .spec
            .deletion_protection;
        assert!(on, "{fault:?}");
        match fault {
            Fault::Throttle(_) => assert_eq!(report.ended().unwrap(), Ending::Done),
            _ => assert_eq!(report.ended().unwrap(), Ending::Unknown, "{fault:?}"),
        }
        assert_eq!(proxy.forwarded(), 2, "{fault:?}");

        // Off again directly, then the delete through the same fault: the table described
        // again is gone, whatever answer the proxy gave, so the delete is known to have applied.
        let off = admin::change_plan(
            &engine.connection,
            &read_spec(&reader, &spec.name).await.unwrap(),
            TableChange::DeletionProtection(false),
        )
        .unwrap();
        run(&engine.connection, &off).await;
        let described = read_spec(&reader, &spec.name).await.unwrap();
        let plan = admin::delete_plan(&connection, &described, &spec.name).unwrap();
        let (report, _) = run(&connection, &plan).await;
        assert!(
            read_spec(&reader, &spec.name).await.is_err(),
            "{fault:?}: deleted"
        );
        // Its answer lost or not, the table described again is gone: the delete applied.
        assert_eq!(report.ended().unwrap(), Ending::Done, "{fault:?}");
        assert!(
            report.texts().iter().any(|l| l.ends_with("is gone")),
            "{fault:?}: {:?}",
            report.texts()
        );
        assert_eq!(proxy.forwarded(), 3, "{fault:?}");
    }
}

/// A change planned from a read that another writer has since overtaken is read again and
/// refused before it is sent: a stream turned on meanwhile, protection turned on meanwhile.
#[tokio::test]
async fn a_change_planned_from_an_old_read_is_held_to_the_table_as_it_is_now() {
    let engine = empty_engine().await;
    let spec = TableSpec::new(&table_name("stale"), parse_key("PK:S").unwrap(), None);
    run(
        &engine.connection,
        &admin::create_plan(&engine.connection, &spec).unwrap(),
    )
    .await;
    let seen = read_spec(&engine.reader(), &spec.name).await.unwrap();
    let stream = admin::change_plan(
        &engine.connection,
        &seen,
        TableChange::Stream(Some(StreamView::KeysOnly)),
    )
    .unwrap();
    let drop = admin::delete_plan(&engine.connection, &seen, &spec.name).unwrap();
    // Behind the view's back: a stream, and deletion protection.
    for change in [
        TableChange::Stream(Some(StreamView::NewImage)),
        TableChange::DeletionProtection(true),
    ] {
        let now = read_spec(&engine.reader(), &spec.name).await.unwrap();
        let plan = admin::change_plan(&engine.connection, &now, change).unwrap();
        assert_eq!(
            run(&engine.connection, &plan).await.0.ended().unwrap(),
            Ending::Done
        );
    }
    let error = run(&engine.connection, &stream)
        .await
        .0
        .ended()
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("already has a stream (NEW_IMAGE)"),
        "{error}"
    );
    let error = run(&engine.connection, &drop).await.0.ended().unwrap_err();
    assert!(
        error.to_string().contains("deletion protection on now"),
        "{error}"
    );
    let now = read_spec(&engine.reader(), &spec.name).await.unwrap().spec;
    assert_eq!(now.stream, Some(StreamView::NewImage), "nothing sent");
}

/// A configuration write the server refused (throttled beyond the re-sends), or whose answer
/// was lost, ends within a bound of the connection's timeout: a refusal is not followed at all
/// (said at once), a lost answer is settled by a few descriptions within the deadline (a table
/// gone: the delete applied; still there: unknown, said so). Before, a delete polled forever.
#[tokio::test]
async fn a_refused_or_lost_table_write_ends_within_its_timeout() {
    let faults = [
        Fault::Throttle(1_000_000),
        Fault::ResetBeforeApply,
        Fault::SilentBeforeApply,
        Fault::SilentAfterApply,
    ];
    for fault in faults {
        let engine = empty_engine().await;
        let (_proxy, connection) = proxied(
            &engine,
            &["CreateTable", "UpdateTable", "DeleteTable"],
            fault,
        )
        .await;
        let spec = TableSpec::new(&table_name("stuck"), parse_key("PK:S").unwrap(), None);
        let made = admin::create_plan(&engine.connection, &spec).unwrap();
        run(&engine.connection, &made).await;
        let described = read_spec(&engine.reader(), &spec.name).await.unwrap();
        let other = TableSpec::new(&table_name("stuck-new"), parse_key("PK:S").unwrap(), None);
        let plans = [
            ("create", admin::create_plan(&connection, &other).unwrap()),
            (
                "change",
                admin::change_plan(
                    &connection,
                    &described,
                    TableChange::Stream(Some(StreamView::KeysOnly)),
                )
                .unwrap(),
            ),
            (
                "delete",
                admin::delete_plan(&connection, &described, &spec.name).unwrap(),
            ),
        ];
        for (what, plan) in &plans {
            // A deadline for the test, ten times the connection's: it never waits forever.
            let ran = tokio::time::timeout(connection.timeout * 10, run(&connection, plan)).await;
            let (report, events) = ran.unwrap_or_else(|_| panic!("{fault:?} {what}: never ended"));
            let exists = read_spec(&engine.reader(), &spec.name).await.is_ok();
            match fault {
                Fault::Throttle(_) => {
                    let error = report.ended().unwrap_err();
                    assert_eq!(Ending::of_error(&error), Ending::Refused, "{what}: {error}");
                    assert!(events.is_empty(), "{what}: not followed: {events:?}");
                    assert!(report.after.is_none(), "{what}");
                }
                Fault::ResetBeforeApply | Fault::SilentBeforeApply => {
                    assert_eq!(report.ended().unwrap(), Ending::Unknown, "{what}");
                    if *what == "delete" {
                        assert!(exists, "{fault:?}: never reached the server");
                        let lines = report.texts().join("\n");
                        assert!(lines.contains("still there"), "{fault:?}: {lines}");
                    }
                }
                _ => {
                    let lines = report.texts().join("\n");
                    if *what == "delete" {
                        assert!(!exists);
                        // Described again and gone: the delete applied.
                        assert_eq!(report.ended().unwrap(), Ending::Done, "{lines}");
                        assert!(lines.contains("is gone"), "{lines}");
                    } else {
                        assert_eq!(report.ended().unwrap(), Ending::Unknown, "{what}: {lines}");
                    }
                }
            }
        }
    }
}
