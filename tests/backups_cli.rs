//! `dynoscope table update --pitr|--no-pitr`, `backup`, `backups`, `restore` and
//! `delete-backup` as processes against moto's server (started by each test): done, the
//! question off this machine, bad input, read-only (nothing reaching a proxy), a lost answer
//! and throttled out, each by the one exit table.

use crate::common;

use common::files::dynoscope;
use common::moto::{items, moto_connection, run, table_with};
use common::{Fault, table_name};
use dynoscope_core::admin;
use dynoscope_core::schema::read_spec;

#[tokio::test]
async fn point_in_time_recovery_is_turned_on_and_off_by_the_cli() {
    let (moto, connection) = moto_connection().await;
    let table = table_with(&connection, "pitr-cli", 0).await;
    // The CLI: on, described back ENABLED in its JSON, then off.
    for (flag, on) in [("--pitr", true), ("--no-pitr", false)] {
        let args = ["table", "update", "--table", &table, flag, "--json"];
        let (code, stdout, stderr) = dynoscope(&moto.url, &args).await;
        assert_eq!(code, 0, "{stderr}");
        let json: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
        assert_eq!(json["after"]["pitr"], on, "{stdout}");
        assert_eq!(json["writes"][0]["outcome"], "applied");
    }
}

#[tokio::test]
async fn the_cli_backs_up_lists_restores_and_deletes() {
    let (moto, connection) = moto_connection().await;
    let table = table_with(&connection, "cli", 4).await;
    let url = moto.url.as_str();
    // Off this machine, the question names the table and the change; nothing without --yes.
    let remote = url.replace("127.0.0.1", "0.0.0.0");
    let backup = ["table", "backup", "--table", &table, "--name", "nightly"];
    let (code, _, stderr) = dynoscope(&remote, &backup).await;
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains(&format!("table {table}, an on-demand backup named nightly")));
    let (code, stdout, stderr) = dynoscope(url, &[&backup[..], &["--json"]].concat()).await;
    assert_eq!(code, 0, "{stderr}");
    let made: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(made["writes"][0]["outcome"], "applied");
    assert_eq!(made["backup"]["status"], "AVAILABLE", "{stdout}");
    let arn = made["backup"]["arn"].as_str().unwrap().to_owned();

    let list = ["table", "backups", "--table", &table, "--json"];
    let (code, stdout, stderr) = dynoscope(url, &list).await;
    assert_eq!(code, 0, "{stderr}");
    let listed: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(listed["backups"][0]["arn"], arn.as_str(), "{stdout}");
    assert_eq!(listed["backups"][0]["name"], "nightly");
    let (code, stdout, _) = dynoscope(url, &list[..4]).await;
    assert!(
        code == 0 && stdout.starts_with("nightly of table "),
        "{stdout}"
    );

    let restored = table_name("cli-restored");
    let restore = [
        "table",
        "restore",
        "--backup-arn",
        &arn,
        "--to-table",
        &restored,
    ];
    let (code, stdout, stderr) = dynoscope(url, &restore).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!("restored table {restored} holds 4 items")),
        "{stdout}"
    );
    assert_eq!(
        items(&connection, &restored).await,
        items(&connection, &table).await
    );
    let (code, _, stderr) = dynoscope(url, &restore).await;
    assert_eq!(code, 2, "the table exists now: {stderr}");

    // Deleted for good: only with the backup named back, by its name or its ARN.
    let delete = ["table", "delete-backup", "--backup-arn", &arn];
    for typed in [&[][..], &["--confirm", "nightlyy"]] {
        let (code, _, stderr) = dynoscope(url, &[&delete[..], typed].concat()).await;
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains("to delete backup nightly of table") && stderr.contains("for good"),
            "{stderr}"
        );
    }
    let (_, stdout, _) = dynoscope(url, &list).await;
    assert!(stdout.contains(&arn), "not deleted: {stdout}");
    let delete = [
        "table",
        "delete-backup",
        "--backup-arn",
        &arn,
        "--confirm",
        "nightly",
    ];
    let (code, stdout, stderr) = dynoscope(url, &delete).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("is gone"), "{stdout}");
    let (code, _, stderr) = dynoscope(url, &delete).await;
    assert_eq!(code, 2, "no such backup now: {stderr}");
    let (code, _, stderr) =
        dynoscope(url, &["table", "backup", "--table", &table, "--name", "x"]).await;
    assert_eq!(code, 2, "a name too short: {stderr}");
}

#[tokio::test]
async fn read_only_the_cli_sends_nothing() {
    let (moto, connection) = moto_connection().await;
    let table = table_with(&connection, "ro-cli", 1).await;
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
    let restored = table_name("never");
    // Exit 2, nothing sent.
    let table = table.as_str();
    let arn = made.arn.as_str();
    for args in [
        &["table", "backup", "--table", table, "--name", "never"][..],
        &[
            "table",
            "restore",
            "--backup-arn",
            arn,
            "--to-table",
            &restored,
        ],
        &[
            "table",
            "delete-backup",
            "--backup-arn",
            arn,
            "--confirm",
            arn,
        ],
        &["table", "update", "--table", table, "--pitr"],
    ] {
        let args = [&["--read-only"], args].concat();
        let (code, _, stderr) = dynoscope(&proxy.url, &args).await;
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains("read-only"), "{stderr}");
    }
    assert_eq!(proxy.arrived(), 0, "nothing reached the server");
    let listed = admin::list_backups(&connection.reader(), table)
        .await
        .unwrap();
    assert_eq!(listed.len(), 1);
    assert!(
        read_spec(&connection.reader(), &restored).await.is_err(),
        "not restored"
    );
}

/// By the one exit table: 3 for a lost answer (the backups of its name listed again), 1 when
/// throttled out (nothing made).
#[tokio::test]
async fn a_lost_answer_exits_3_and_throttled_out_1() {
    let (moto, connection) = moto_connection().await;
    let table = table_with(&connection, "lost-cli", 1).await;
    let proxy = common::fault_proxy(moto.addr(), &["CreateBackup"], Fault::HtmlAfterApply).await;
    let backup = [
        "table",
        "backup",
        "--table",
        &table,
        "--name",
        "by-cli",
        "--timeout",
        "2",
    ];
    let (code, stdout, stderr) = dynoscope(&proxy.url, &backup).await;
    assert_eq!(code, 3, "{stderr}");
    assert!(stdout.contains("outcome unknown") && stdout.contains("named by-cli now: 1"));
    let throttled = Fault::Throttle(usize::MAX);
    let proxy = common::fault_proxy(moto.addr(), &["CreateBackup"], throttled).await;
    let (code, _, stderr) = dynoscope(&proxy.url, &backup).await;
    assert_eq!(code, 1, "{stderr}");
    assert!(
        proxy.arrived() > 1 && proxy.forwarded() == 0,
        "sent again, never made"
    );
}
