//! Code copied from the builder runs where it was made: the AWS CLI command, pasted into bash,
//! reaches the connection it was built on and does what the builder says.

use crate::common;

use std::collections::HashMap;

use dynoscope_core::value::Item;

use common::s;

/// Run `copied` in bash as a person would paste it on a machine with no AWS configuration at
/// all: an empty environment (only `PATH`) and an empty home, so no credentials, region,
/// profile or endpoint come from anywhere but the copied text.
fn paste_into_bash(copied: &str) -> std::process::Output {
    bare(std::process::Command::new("bash").arg("-c").arg(copied))
}

/// Run `command` with an empty environment (only `PATH`) and an empty home: no credentials,
/// region, profile or endpoint but what the command itself carries.
fn bare(command: &mut std::process::Command) -> std::process::Output {
    let home = std::env::temp_dir().join(format!("dynoscope-empty-home-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &home)
        .output()
        .expect("the command runs")
}

/// The counter card's ADD of 1 to `play_count` of the item `key` of Videos, planned on
/// `connection`.
async fn card_add_plan(
    connection: &dynoscope_core::connection::Connection,
    key: &Item,
) -> dynoscope_core::counter::UpdatePlan {
    use dynoscope_core::counter::{Change, EditMode, EditRequest, plan_edit};
    use dynoscope_core::read;
    use dynoscope_core::write::Destination;
    let info = read::describe_table(&connection.reader(), "Videos")
        .await
        .unwrap();
    let item = read::get_item(&connection.reader(), "Videos", key.clone())
        .await
        .unwrap()
        .unwrap();
    let edit = EditRequest {
        attribute: "play_count".into(),
        change: Change::By("1".into()),
        from: None,
        create: false,
    };
    plan_edit(
        &Destination::of(connection),
        &info,
        &item,
        &edit,
        EditMode::Add,
    )
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn copied_aws_cli_commands_run_on_the_connection_they_were_made_on() {
    use dynoscope_core::connection::{ConnectionSpec, connect};
    use dynoscope_core::expr::builder::{Field, Input, Kind, compile};
    use dynoscope_core::expr::codegen::{ClientSetup, Target};
    use dynoscope_core::read;
    let aws = std::process::Command::new("aws").arg("--version").output();
    assert!(
        aws.is_ok_and(|out| out.status.success()),
        "the AWS CLI is needed (scripts/test.sh, the README's test command, installs it into target/test-tools)"
    );
    let connection = connect(ConnectionSpec::Sandbox { db_path: None })
        .await
        .unwrap();
    let client = &connection.reader();
    let setup = connection.client_setup();
    let key: Item = HashMap::from([
        ("PK".to_owned(), s("VID#9f3a")),
        ("SK".to_owned(), s("STATS#TOTAL")),
    ]);
    let stored = |attribute: &'static str| {
        let key = key.clone();
        async move {
            read::read_number(client, "Videos", &key, attribute)
                .await
                .unwrap()
        }
    };
    assert_eq!(stored("play_count").await.as_deref(), Some("41"));

    // The counter card's ADD.
    let plan = card_add_plan(&connection, &key).await;
    // Without the connection, the copied command does not reach the sandbox (here it stops
    // before sending anything, for want of a region): nothing moves.
    let bare = paste_into_bash(&plan.request().render(Target::Cli, &ClientSetup::default()));
    assert!(!bare.status.success());
    assert!(
        String::from_utf8_lossy(&bare.stderr).contains("must specify a region"),
        "{}",
        String::from_utf8_lossy(&bare.stderr)
    );
    assert_eq!(stored("play_count").await.as_deref(), Some("41"));
    // The card copies the plan's own destination: the connection it was planned on.
    let copied = plan.to_aws_cli();
    assert!(
        copied.contains(&format!(
            "--endpoint-url {}",
            setup.endpoint_url.clone().unwrap()
        )),
        "{copied}"
    );
    let out = paste_into_bash(&copied);
    assert!(
        out.status.success(),
        "{copied}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stored("play_count").await.as_deref(), Some("42"));

    // The builder's update, reserved word and all.
    let mut input = Input::new("Videos");
    input.kind = Kind::Update;
    input.item = Some(key.clone());
    input.texts.insert(Field::Update, "ADD count 5".into());
    input
        .texts
        .insert(Field::Condition, "attribute_exists(play_count)".into());
    let request = compile(&input, &["PK".into(), "SK".into()], None)
        .request
        .unwrap();
    let copied = request.render(Target::Cli, &setup);
    let out = paste_into_bash(&copied);
    assert!(
        out.status.success(),
        "{copied}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["Attributes"]["count"]["N"], "5", "{answer}");
    assert_eq!(stored("count").await.as_deref(), Some("5"));
}

/// The code `dynoscope expr` prints, as `target`, for `ADD play_count :d` (`:d` = `delta`) on
/// the seeded VID#9f3a at `url`, given with no region or credentials.
fn printed_add(target: &str, delta: &str, url: &str) -> String {
    let values = format!(r#"{{":d": {{"N": "{delta}"}}}}"#);
    let (code, _) = common::served::succeeded(&[
        "expr",
        "update",
        "ADD play_count :d",
        "--values",
        &values,
        "--table",
        "Videos",
        "--key",
        "PK=VID#9f3a",
        "--key",
        "SK=STATS#TOTAL",
        "--as",
        target,
        "--endpoint-url",
        url,
    ]);
    code
}

/// `dynoscope expr` for an endpoint on this machine given without a region or credentials: the
/// AWS CLI command and the boto3 snippet it prints each run with an empty environment and an
/// empty home (`env -i`), and do what they say on the sandbox.
#[test]
fn printed_cli_and_boto3_code_for_a_local_endpoint_run_with_no_aws_configuration() {
    let served = common::served::Served::new();
    let python = std::process::Command::new("python3")
        .args(["-c", "import boto3"])
        .output();
    assert!(
        python.is_ok_and(|out| out.status.success()),
        "python3 and boto3 are needed (scripts/test.sh, the README's test command, installs moto, which brings boto3)"
    );
    let url = served.url().replace("127.0.0.1", "localhost");
    let print = |target: &str, delta: &str| printed_add(target, delta, &url);
    let cli = print("cli", "2");
    assert!(cli.contains("--region us-east-1"), "{cli}");
    let out = paste_into_bash(&cli);
    assert!(
        out.status.success(),
        "{cli}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let boto3 = print("boto3", "3");
    let out = bare(std::process::Command::new("python3").arg("-c").arg(&boto3));
    assert!(
        out.status.success(),
        "{boto3}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stored = served.item("Videos", "VID#9f3a", "STATS#TOTAL");
    assert!(
        stored.contains(r#""play_count":46"#),
        "41 + 2 + 3: {stored}"
    );
}

/// The JavaScript snippets (the low-level client and the DocumentClient) `dynoscope expr`
/// prints for an endpoint on this machine run under Node.js with an empty environment and an
/// empty home, with the AWS SDK for JavaScript v3 from npm, and do what they say.
#[test]
fn printed_javascript_for_a_local_endpoint_runs_with_no_aws_configuration() {
    let node = common::npm::installed(
        "expr-node",
        &["@aws-sdk/client-dynamodb@3", "@aws-sdk/lib-dynamodb@3"],
    );
    let served = common::served::Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    for (target, delta) in [("js", "2"), ("js-doc", "3")] {
        let code = printed_add(target, delta, &url);
        let script = node.join(format!("copied-{target}.mjs"));
        std::fs::write(&script, &code).unwrap();
        let out = bare(
            std::process::Command::new("node")
                .arg(&script)
                .current_dir(&node),
        );
        assert!(
            out.status.success(),
            "{code}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let stored = served.item("Videos", "VID#9f3a", "STATS#TOTAL");
    assert!(
        stored.contains(r#""play_count":46"#),
        "41 + 2 + 3: {stored}"
    );
}
