//! On-demand backups and point-in-time recovery, which the embedded engine lacks, against moto's
//! server (started by each test), through the core: PITR on and off, described back; a backup
//! made, listed, restored into a new table holding the same items, deleted; a read-only
//! connection sending none of them (counted at a proxy); lost answers left unknown and
//! described again. moto answers `ListBackups` in one page whatever its `Limit`, so paging is
//! tried against a stub that answers two pages. `backups_cli.rs` has `dynoscope table`.

use crate::common;

use std::time::Duration;

use crate::common::Said;
use common::moto::{items, moto_connection, run, table_with};
use common::{Fault, connect_to, table_name};
use dynoscope_core::admin::{self, AdminEvent, BackupInfo};
use dynoscope_core::connection::{self, ConnectOptions, Connection, ConnectionSpec};
use dynoscope_core::ending::Ending;
use dynoscope_core::schema::{TableChange, read_spec};
use dynoscope_core::write::WriteOutcome;

#[tokio::test]
async fn point_in_time_recovery_is_turned_on_and_off_and_described_back() {
    let (_moto, connection) = moto_connection().await;
    let table = table_with(&connection, "pitr", 0).await;
    for on in [true, false] {
        let described = read_spec(&connection.reader(), &table).await.unwrap();
        assert_eq!(described.spec.pitr, !on, "{:?}", described.unread);
        let plan = admin::change_plan(&connection, &described, TableChange::Pitr(on)).unwrap();
        let (report, events) = run(&connection, &plan).await;
        assert_eq!(
            report.ended().unwrap(),
            Ending::Done,
            "{:?}",
            report.texts()
        );
        assert!(matches!(&events[0], AdminEvent::Applied(w) if w.contains("point-in-time")));
        assert_eq!(
            report.after.as_ref().unwrap().spec.pitr,
            on,
            "described back"
        );
        // Already so: refused before sending.
        let again = read_spec(&connection.reader(), &table).await.unwrap();
        assert!(admin::change_plan(&connection, &again, TableChange::Pitr(on)).is_err());
    }
}

/// The backup `made` of `table`, restored into a new table followed until ACTIVE: the same
/// items, item by item; never over an existing table.
async fn restored_with_the_same_items(connection: &Connection, made: &BackupInfo, table: &str) {
    // Restored into a new table, followed until ACTIVE: the same items, item by item.
    let restored = table_name("restored");
    let plan = admin::restore_plan(connection, made, &restored)
        .await
        .unwrap();
    let (report, _) = run(connection, &plan).await;
    assert_eq!(
        report.ended().unwrap(),
        Ending::Done,
        "{:?}",
        report.texts()
    );
    let after = report.after.clone().unwrap();
    assert!(after.settled() && after.spec.name == restored);
    assert_eq!(after.item_count, Some(7));
    assert!(
        report.notes.iter().any(|n| n.contains("holds 7 items")),
        "{:?}",
        report.texts()
    );
    let (source, copy) = (
        items(connection, table).await,
        items(connection, &restored).await,
    );
    assert_eq!(source.len(), 7);
    assert_eq!(copy, source, "moto's restore copies the items");
    // Never over an existing table.
    for taken in [table, &restored] {
        let refused = admin::restore_plan(connection, made, taken)
            .await
            .unwrap_err();
        assert!(refused.to_string().contains("exists"), "{refused}");
    }
}

#[tokio::test]
async fn a_backup_is_made_listed_restored_with_the_same_items_and_deleted() {
    let (_moto, connection) = moto_connection().await;
    let table = table_with(&connection, "bk", 7).await;
    let described = read_spec(&connection.reader(), &table).await.unwrap();
    for bad in ["ab", "a b c", &"x".repeat(256)] {
        let refused = admin::backup_plan(&connection, &described, bad).unwrap_err();
        assert!(refused.to_string().contains("backup name"), "{refused}");
    }
    let plan = admin::backup_plan(&connection, &described, "before-v2.1").unwrap();
    let (report, events) = run(&connection, &plan).await;
    assert_eq!(
        report.ended().unwrap(),
        Ending::Done,
        "{:?}",
        report.texts()
    );
    assert!(matches!(&events[0], AdminEvent::Applied(w) if w.contains("backup named before-v2.1")));
    let made = report.backup.clone().expect("the backup described again");
    assert_eq!(
        (made.name.as_str(), made.table.as_str()),
        ("before-v2.1", table.as_str())
    );
    assert_eq!(made.status, "AVAILABLE");
    assert!(made.created.is_some() && made.kind == "USER", "{made:?}");
    assert!(
        report
            .texts()
            .iter()
            .any(|l| l.starts_with("backup: before-v2.1"))
    );
    // Two more, of which one has the same name (names need not be unique): all listed.
    for name in ["second", "before-v2.1"] {
        let plan = admin::backup_plan(&connection, &described, name).unwrap();
        assert!(run(&connection, &plan).await.0.writes[0].1.applied());
    }
    let listed = admin::list_backups(&connection.reader(), &table)
        .await
        .unwrap();
    assert_eq!(listed.len(), 3, "{listed:?}");
    assert!(listed.contains(&made), "{listed:?}");

    restored_with_the_same_items(&connection, &made, &table).await;

    // Deleted: gone when described again, and no longer listed.
    let plan = admin::delete_backup_plan(&connection, &made).unwrap();
    let (report, _) = run(&connection, &plan).await;
    assert_eq!(
        report.ended().unwrap(),
        Ending::Done,
        "{:?}",
        report.texts()
    );
    assert_eq!(report.backup, None);
    assert!(
        report.notes.iter().any(|n| n.ends_with("is gone")),
        "{:?}",
        report.notes
    );
    let listed = admin::list_backups(&connection.reader(), &table)
        .await
        .unwrap();
    assert!(listed.iter().all(|b| b.arn != made.arn) && listed.len() == 2);
    let gone = admin::describe_backup(&connection.reader(), &made.arn).await;
    assert_eq!(gone.unwrap_err().code(), Some("BackupNotFoundException"));
}

#[tokio::test]
async fn a_read_only_connection_sends_no_backup_restore_or_pitr_change() {
    let (moto, connection) = moto_connection().await;
    let table = table_with(&connection, "ro", 1).await;
    let described = read_spec(&connection.reader(), &table).await.unwrap();
    let plan = admin::backup_plan(&connection, &described, "kept").unwrap();
    let made = run(&connection, &plan).await.0.backup.unwrap();
    let writes = &[
        "CreateBackup",
        "DeleteBackup",
        "RestoreTableFromBackup",
        "UpdateContinuousBackups",
    ];
    let proxy = common::fault_proxy(moto.addr(), writes, Fault::HtmlAfterApply).await;
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
    let plans = [
        admin::backup_plan(&read_only, &described, "never").unwrap(),
        admin::restore_plan(&read_only, &made, &table_name("never"))
            .await
            .unwrap(),
        admin::delete_backup_plan(&read_only, &made).unwrap(),
        admin::change_plan(&read_only, &described, TableChange::Pitr(true)).unwrap(),
    ];
    for plan in &plans {
        let (report, events) = run(&read_only, plan).await;
        let error = report.ended().unwrap_err();
        assert!(
            error.to_string().to_lowercase().contains("read-only"),
            "{error}"
        );
        assert!(events.is_empty() && report.writes[0].1.attempts() == 0);
    }
    assert_eq!(proxy.arrived(), 0, "nothing reached the server");
    let listed = admin::list_backups(&connection.reader(), &table)
        .await
        .unwrap();
    assert_eq!(listed.len(), 1);
}

/// A lost answer is unknown (never sent again) and the backup or table is read again.
#[tokio::test]
async fn lost_answers_are_unknown_and_described_again() {
    let (moto, connection) = moto_connection().await;
    let table = table_with(&connection, "lost", 3).await;
    let described = read_spec(&connection.reader(), &table).await.unwrap();
    let writes = &["CreateBackup", "RestoreTableFromBackup"];
    let proxy = common::fault_proxy(moto.addr(), writes, Fault::HtmlAfterApply).await;
    let through = connect_to(&proxy.url, Duration::from_secs(10)).await;
    let plan = admin::backup_plan(&through, &described, "lost-answer").unwrap();
    let (report, _) = run(&through, &plan).await;
    assert_eq!(
        report.ended().unwrap(),
        Ending::Unknown,
        "{:?}",
        report.texts()
    );
    assert!(matches!(
        report.writes[0].1,
        WriteOutcome::Unknown { attempts: 1, .. }
    ));
    let found = report.backup.clone().expect("listed again by name");
    assert_eq!(found.name, "lost-answer");
    assert!(
        report.notes[0].contains("named lost-answer now: 1"),
        "{:?}",
        report.notes
    );
    let restored = table_name("lost-restore");
    let plan = admin::restore_plan(&through, &found, &restored)
        .await
        .unwrap();
    let (report, _) = run(&through, &plan).await;
    assert_eq!(
        report.ended().unwrap(),
        Ending::Unknown,
        "{:?}",
        report.texts()
    );
    assert!(
        report.after.as_ref().unwrap().settled(),
        "the new table followed"
    );
    assert_eq!(proxy.forwarded(), 2, "each sent once");
    assert_eq!(items(&connection, &restored).await.len(), 3);
}

/// `ListBackups` read page after page, from a stub that answers two (moto answers one).
#[tokio::test]
async fn every_page_of_backups_is_listed() {
    use tokio::io::AsyncWriteExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let bodies = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = bodies.clone();
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let Some((head, body)) = common::read_request(&mut client).await else {
                continue;
            };
            let body = String::from_utf8_lossy(&body).into_owned();
            let summary = |n: u32| {
                serde_json::json!({"BackupName": format!("b{n}"), "TableName": "T",
                    "BackupArn": format!("arn:b{n}"), "BackupStatus": "AVAILABLE",
                    "BackupType": "USER", "BackupSizeBytes": n})
            };
            let answer = if !head.to_lowercase().contains("listbackups") {
                serde_json::json!({})
            } else if body.contains("ExclusiveStartBackupArn") {
                serde_json::json!({"BackupSummaries": [summary(3)]})
            } else {
                let page = [summary(1), summary(2)];
                serde_json::json!({"BackupSummaries": page, "LastEvaluatedBackupArn": "arn:b2"})
            };
            seen.lock().unwrap().push(body);
            let answer = answer.to_string();
            let reply = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/x-amz-json-1.0\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
                answer.len()
            );
            let _ = client.write_all(reply.as_bytes()).await;
        }
    });
    let connection = connect_to(&url, Duration::from_secs(10)).await;
    let listed = admin::list_backups(&connection.reader(), "T")
        .await
        .unwrap();
    let names: Vec<&str> = listed.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["b1", "b2", "b3"]);
    assert_eq!(listed[2].size_bytes, Some(3));
    let bodies = bodies.lock().unwrap();
    assert!(
        bodies
            .iter()
            .any(|b| b.contains(r#""ExclusiveStartBackupArn":"arn:b2""#))
    );
}
