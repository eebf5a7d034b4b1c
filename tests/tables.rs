//! Table management on the embedded engine through the real SDK: a table created with every
//! option the engine has and described back equal to what was asked; the same request run by
//! the AWS CLI; a global index added and followed; TTL, stream, class and deletion protection
//! switched; a delete that needs the name typed and is refused while protected
//! (`tables_faults.rs` has the read-only connection and the faults).

use crate::common;

use crate::common::Said;
use common::moto::run;
use common::{Engine, empty_engine, table_name};
use dynoscope_core::admin::{self, AdminEvent};
use dynoscope_core::connection::Connection;
use dynoscope_core::ending::Ending;
use dynoscope_core::schema::{
    BillingSpec, ClassSpec, Described, StreamView, TableChange, TableSpec, parse_index, parse_key,
    read_spec,
};

/// Every option the embedded engine keeps: keys, two global indexes (one INCLUDE), a local
/// index, provisioned capacity, a stream, TTL, deletion protection, the IA class, tags.
fn everything(name: &str) -> TableSpec {
    let mut spec = TableSpec::new(
        name,
        parse_key("PK:S").unwrap(),
        Some(parse_key("SK:S").unwrap()),
    );
    spec.billing = BillingSpec::Provisioned { rcu: 5, wcu: 7 };
    spec.global = vec![
        parse_index("GSI1=GSI1PK:S,GSI1SK:N:ALL").unwrap(),
        parse_index("ByUser=user:S:INCLUDE(likedAt,title)").unwrap(),
    ];
    spec.local = vec![parse_index("ByDate=PK:S,createdAt:N:KEYS_ONLY").unwrap()];
    spec.stream = Some(StreamView::NewAndOldImages);
    spec.ttl = Some("expiresAt".into());
    spec.deletion_protection = true;
    spec.class = ClassSpec::StandardIa;
    // In the order of their keys, as a set of tags is read back.
    spec.tags = vec![
        ("cost".into(), "likes".into()),
        ("team".into(), "social".into()),
    ];
    spec
}

#[tokio::test]
async fn a_table_with_every_option_is_described_back_as_asked() {
    let engine = empty_engine().await;
    let spec = everything(&table_name("every"));
    let plan = admin::create_plan(&engine.connection, &spec).unwrap();
    let (report, events) = run(&engine.connection, &plan).await;
    assert_eq!(
        report.ended().unwrap(),
        Ending::Done,
        "{:?}",
        report.texts()
    );
    // CreateTable, then TTL once the table is active.
    assert_eq!(report.writes.len(), 2, "{:?}", report.texts());
    assert!(matches!(&events[0], AdminEvent::Applied(w) if w.starts_with("a new table")));
    let after = report.after.clone().unwrap();
    assert_eq!(after.spec, spec, "described back");
    assert!(after.settled());
    // The engine has no continuous backups: said, not guessed.
    assert!(
        after.unread.iter().any(|u| u
            == "point-in-time recovery: this engine has no backups \
                (DescribeContinuousBackups is not one of its operations)"),
        "{:?}",
        after.unread
    );
    // Read again from scratch, the same.
    assert_eq!(described_now(&engine, &spec.name).await.spec, spec);

    // What DynamoDB would refuse is refused before anything is sent.
    let mut bad = spec.clone();
    bad.name = "x".into();
    assert!(
        admin::create_plan(&engine.connection, &bad)
            .unwrap_err()
            .to_string()
            .contains("3 to 255")
    );
}

#[tokio::test]
async fn the_copied_aws_cli_commands_create_the_same_table() {
    let engine = empty_engine().await;
    let mut spec = everything(&table_name("cli"));
    spec.deletion_protection = false;
    let commands = spec.cli_commands(&engine.connection.client_setup());
    for command in commands.lines() {
        let words = dynoscope_core::expr::codegen::shell_words(command).unwrap();
        // `VAR=value … aws dynamodb …`: the environment, then the command.
        let at = words.iter().position(|w| w == "aws").unwrap();
        let mut aws = std::process::Command::new("aws");
        for pair in &words[..at] {
            let (k, v) = pair.split_once('=').unwrap();
            aws.env(k, v);
        }
        let out = aws
            .args(&words[at + 1..])
            .output()
            .expect("the AWS CLI runs (CI installs it)");
        assert!(
            out.status.success(),
            "{command}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(described_now(&engine, &spec.name).await.spec, spec);
}

/// The table `table` of `engine` as it is described now.
async fn described_now(engine: &Engine, table: &str) -> Described {
    read_spec(&engine.reader(), table).await.unwrap()
}

/// What the table `now` already is, or cannot take, is refused in words before sending.
fn already_or_impossible_is_refused(connection: &Connection, now: &Described) {
    // What the table already is, or cannot take, is refused in words before sending.
    for (change, words) in [
        (TableChange::DeletionProtection(true), "already on"),
        (
            TableChange::Stream(Some(StreamView::NewImage)),
            "cannot be changed in place",
        ),
        (
            TableChange::DeleteGlobal("Nope".into()),
            "no global index named Nope",
        ),
        (
            TableChange::Ttl {
                attribute: "other".into(),
                enabled: true,
            },
            "TTL is already on",
        ),
    ] {
        let error = admin::change_plan(connection, now, change).unwrap_err();
        assert!(error.to_string().contains(words), "{error}");
    }
}

/// The stream, the TTL and the index turned back off, one by one.
async fn turned_back_off(engine: &Engine, table: &str) {
    // Turned back off, one by one.
    for change in [
        TableChange::Stream(None),
        TableChange::Ttl {
            attribute: "expiresAt".into(),
            enabled: false,
        },
        TableChange::DeleteGlobal("ByUser".into()),
    ] {
        let described = described_now(engine, table).await;
        let plan = admin::change_plan(&engine.connection, &described, change).unwrap();
        assert_eq!(
            run(&engine.connection, &plan).await.0.ended().unwrap(),
            Ending::Done
        );
    }
    let now = described_now(engine, table).await.spec;
    assert_eq!((now.stream, now.ttl, now.global.len()), (None, None, 0));
}

#[tokio::test]
async fn a_table_is_changed_one_setting_at_a_time_and_described_again() {
    let engine = empty_engine().await;
    let reader = engine.reader();
    let mut spec = TableSpec::new(
        &table_name("change"),
        parse_key("PK:S").unwrap(),
        Some(parse_key("SK:S").unwrap()),
    );
    let created = admin::create_plan(&engine.connection, &spec).unwrap();
    assert_eq!(
        run(&engine.connection, &created).await.0.ended().unwrap(),
        Ending::Done
    );
    // Items for the new index to backfill.
    for i in 0..30 {
        engine
            .client
            .put_item()
            .table_name(&spec.name)
            .item("PK", common::s(&format!("POST#{i}")))
            .item("SK", common::s("META"))
            .item("user", common::s(if i % 3 == 0 { "ana" } else { "bo" }))
            .send()
            .await
            .unwrap();
    }
    let index = parse_index("ByUser=user:S:KEYS_ONLY").unwrap();
    let changes = [
        TableChange::AddGlobal {
            index: index.clone(),
            billing: BillingSpec::OnDemand,
        },
        TableChange::Ttl {
            attribute: "expiresAt".into(),
            enabled: true,
        },
        TableChange::Stream(Some(StreamView::KeysOnly)),
        TableChange::DeletionProtection(true),
        TableChange::Class(ClassSpec::StandardIa),
        TableChange::Billing {
            billing: BillingSpec::Provisioned { rcu: 3, wcu: 4 },
            indexes: vec!["ByUser".into()],
        },
    ];
    for change in changes {
        let described = read_spec(&reader, &spec.name).await.unwrap();
        let plan = admin::change_plan(&engine.connection, &described, change.clone()).unwrap();
        let (report, _) = run(&engine.connection, &plan).await;
        assert_eq!(
            report.ended().unwrap(),
            Ending::Done,
            "{change:?}: {:?}",
            report.texts()
        );
        assert!(
            report.texts()[0].contains(&change.words()),
            "{:?}",
            report.texts()
        );
    }
    spec.global = vec![index];
    spec.ttl = Some("expiresAt".into());
    spec.stream = Some(StreamView::KeysOnly);
    spec.deletion_protection = true;
    spec.class = ClassSpec::StandardIa;
    spec.billing = BillingSpec::Provisioned { rcu: 3, wcu: 4 };
    let now = read_spec(&reader, &spec.name).await.unwrap();
    assert_eq!(now.spec, spec);
    // The index was backfilled: ana's 10 posts are found through it.
    let found = engine
        .client
        .query()
        .table_name(&spec.name)
        .index_name("ByUser")
        .key_condition_expression("#u = :u")
        .expression_attribute_names("#u", "user")
        .expression_attribute_values(":u", common::s("ana"))
        .send()
        .await
        .unwrap();
    assert_eq!(found.count, 10);

    already_or_impossible_is_refused(&engine.connection, &now);
    turned_back_off(&engine, &spec.name).await;
}

#[tokio::test]
async fn a_delete_needs_the_name_typed_and_respects_deletion_protection() {
    let engine = empty_engine().await;
    let mut spec = TableSpec::new(&table_name("drop"), parse_key("PK:S").unwrap(), None);
    spec.deletion_protection = true;
    run(
        &engine.connection,
        &admin::create_plan(&engine.connection, &spec).unwrap(),
    )
    .await;
    let described = described_now(&engine, &spec.name).await;
    let error = admin::delete_plan(&engine.connection, &described, "drop").unwrap_err();
    assert!(
        error.to_string().contains("type its name exactly"),
        "{error}"
    );
    let error = admin::delete_plan(&engine.connection, &described, &spec.name).unwrap_err();
    assert!(
        error.to_string().contains("deletion protection on"),
        "{error}"
    );
    // The engine refuses it too, sent past dynoscope's check.
    let sent = engine
        .client
        .delete_table()
        .table_name(&spec.name)
        .send()
        .await;
    assert!(sent.is_err(), "a protected table was deleted");

    let off = admin::change_plan(
        &engine.connection,
        &described,
        TableChange::DeletionProtection(false),
    )
    .unwrap();
    assert_eq!(
        run(&engine.connection, &off).await.0.ended().unwrap(),
        Ending::Done
    );
    let described = described_now(&engine, &spec.name).await;
    let plan = admin::delete_plan(&engine.connection, &described, &spec.name).unwrap();
    let (report, _) = run(&engine.connection, &plan).await;
    assert_eq!(report.ended().unwrap(), Ending::Done);
    assert!(report.after.is_none());
    assert!(
        report.texts().last().unwrap().ends_with("is gone"),
        "{:?}",
        report.texts()
    );
    assert!(read_spec(&engine.reader(), &spec.name).await.is_err());
}

#[tokio::test]
async fn the_cli_creates_a_table_and_writes_it_as_code() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let name = table_name("cli-made");
    let (code, out, err) = common::files::dynoscope(
        &url,
        &[
            "table",
            "create",
            "--table",
            &name,
            "--pk",
            "PK:S",
            "--sk",
            "SK:S",
            "--gsi",
            "ByUser=user:S:INCLUDE(likedAt,title)",
            "--ttl",
            "expiresAt",
            "--tag",
            "team=social",
        ],
    )
    .await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("applied: a new table"), "{out}");
    assert!(out.contains("TTL turned on for `expiresAt`"), "{out}");
    let (code, terraform, err) = common::files::dynoscope(
        &url,
        &["table", "iac", "--table", &name, "--format", "terraform"],
    )
    .await;
    assert_eq!(code, 0, "{err}");
    assert!(
        terraform.contains("resource \"aws_dynamodb_table\""),
        "{terraform}"
    );
    assert!(terraform.contains("non_key_attributes"), "{terraform}");
    // The engine has no continuous backups: the code leaves it out and says so.
    assert!(
        err.contains("not read, so not written: point-in-time recovery"),
        "{err}"
    );
    let (code, _, err) = common::files::dynoscope(
        &url,
        &["table", "iac", "--table", &name, "--format", "yaml"],
    )
    .await;
    assert_eq!(code, 2, "{err}");
}

/// Several changes in one `table update`: one applied, the next refused — the applied one is
/// said, then why it stopped (both in the report, on stdout), and the exit is refused (1), not an error before anything (2).
#[tokio::test]
async fn an_update_that_stops_after_a_change_applied_says_both() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let name = table_name("cli-partial");
    let (code, _, err) =
        common::files::dynoscope(&url, &["table", "create", "--table", &name, "--pk", "PK:S"])
            .await;
    assert_eq!(code, 0, "{err}");
    let args = [
        "table",
        "update",
        "--table",
        &name,
        "--stream",
        "new-image",
        "--class",
        "standard",
    ];
    let (code, out, err) = common::files::dynoscope(&url, &args).await;
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("a stream with NEW_IMAGE turned on"), "{out}");
    // Why it stopped is part of the report, after what applied.
    assert!(
        out.contains("stopped: ") && out.contains("its class is already STANDARD"),
        "{out}"
    );
    let now = described_now(&engine, &name).await.spec;
    assert_eq!(now.stream, Some(StreamView::NewImage));
}
