//! The code generator's tests.

use super::*;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::connection::{Connection, ConnectionSpec};

fn like_tally() -> Request {
    Request {
        table: "Social".into(),
        operation: Operation::Update(Item::from([
            ("PK".to_owned(), AttributeValue::S("POST#a91f".into())),
            ("SK".to_owned(), AttributeValue::S("META".into())),
        ])),
        update: Some("ADD #n0 :v0".into()),
        condition: Some("attribute_not_exists(#n1)".into()),
        key_condition: None,
        filter: None,
        projection: None,
        names: HashMap::from([
            ("#n0".into(), "likeTally".into()),
            ("#n1".into(), "SK".into()),
        ]),
        values: HashMap::from([(
            ":v0".into(),
            AttributeValue::N("12345678901234567890123456789012345678".into()),
        )]),
        returns: ReturnOptions {
            values: Some(ReturnValues::UpdatedNew),
            ..ReturnOptions::default()
        },
    }
}

#[test]
fn every_target_names_the_expression_and_keeps_numbers_exact() {
    let r = like_tally();
    let big = "12345678901234567890123456789012345678";
    let render = |target| r.render(target, &ClientSetup::default());
    // PartiQL has no ADD: it says so instead (crates/core/src/expr/codegen/partiql.rs);
    // dynamodb-toolbox writes it as `$add`, from which it sends an ADD.
    let expressions =
        |t: &Target| !matches!(t, Target::PartiQl | Target::Toolbox | Target::ElectroDb);
    for target in Target::ALL.into_iter().filter(expressions) {
        let code = render(target);
        assert!(code.contains("ADD #n0 :v0"), "{target:?}: {code}");
        assert!(code.contains(big), "{target:?} keeps the 38 digits: {code}");
        assert!(code.contains("likeTally"), "{target:?}");
    }
    let json: serde_json::Value = serde_json::from_str(&render(Target::Json)).unwrap();
    assert_eq!(json["ReturnValues"], "UPDATED_NEW");
    assert!(render(Target::Cli).contains("--return-values UPDATED_NEW"));
    assert!(render(Target::Boto3).contains("ReturnValues=\"UPDATED_NEW\","));
    assert!(render(Target::Rust).contains(".return_values(\"UPDATED_NEW\".into())"));
    assert_eq!(json["ExpressionAttributeValues"][":v0"]["N"], big);
    assert!(render(Target::Cli).contains("--condition-expression 'attribute_not_exists(#n1)'"));
    assert!(render(Target::Boto3).contains("client.update_item("));
    assert!(render(Target::PartiQl).starts_with("-- PartiQL cannot say this request"));
    // ElectroDB takes a number only as a JavaScript number: 38 digits are refused in words.
    let electro = render(Target::ElectroDb);
    assert!(
        electro.starts_with("// ElectroDB cannot say this request"),
        "{electro}"
    );
    assert!(
        electro.contains("not exact as a JavaScript number"),
        "{electro}"
    );
    let toolbox = render(Target::Toolbox);
    assert!(
        toolbox.contains(&format!("\"likeTally\": $add({big}n)")),
        "{toolbox}"
    );
    assert!(
        toolbox.contains("condition: { attr: \"SK\", exists: false }") && !toolbox.contains("any"),
        "{toolbox}"
    );
    assert!(render(Target::JsClient).contains("new UpdateItemCommand({"));
    let doc = render(Target::JsDocument);
    assert!(doc.contains("new UpdateCommand({"), "{doc}");
    assert!(
        doc.contains(&format!("NumberValue.from(\"{big}\")")),
        "{doc}"
    );
    assert!(doc.contains("\"PK\": \"POST#a91f\""), "{doc}");
    let rust = render(Target::Rust);
    assert!(
        rust.contains(".expression_attribute_names(\"#n0\", \"likeTally\")"),
        "{rust}"
    );
    assert!(rust.contains(&format!(
        ".expression_attribute_values(\":v0\", AttributeValue::N(\"{big}\".into()))"
    )));
}

/// A connection as `connect` makes it, without connecting.
fn connection(spec: crate::connection::ConnectionSpec, target: &str) -> Connection {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest())
        .build();
    let streams = aws_sdk_dynamodbstreams::Config::builder()
        .behavior_version(aws_sdk_dynamodbstreams::config::BehaviorVersion::latest())
        .build();
    Connection {
        client: aws_sdk_dynamodb::Client::from_conf(config),
        streams: aws_sdk_dynamodbstreams::Client::from_conf(streams),
        sdk: aws_config::SdkConfig::builder().build(),
        pricing: aws_sdk_pricing::Client::from_conf(
            aws_sdk_pricing::Config::builder()
                .behavior_version(aws_sdk_pricing::config::BehaviorVersion::latest())
                .build(),
        ),
        spec,
        target: target.to_owned(),
        region: "eu-west-2".to_owned(),
        read_only: crate::connection::ReadOnly::new(false),
        naming: crate::connection::Naming::default(),
        throttle_wait: None,
        prices: crate::connection::prices::Prices::load(),
        timeout: crate::connection::DEFAULT_TIMEOUT,
        answers: crate::connection::LastAnswer::default(),
        #[cfg(feature = "sandbox")]
        sandbox: None,
    }
}

#[test]
fn code_for_a_sandbox_connects_to_the_sandbox() {
    let sandbox = connection(
        ConnectionSpec::Sandbox { db_path: None },
        "http://127.0.0.1:41234",
    );
    let setup = sandbox.client_setup();
    let r = like_tally();
    let cli = r.render(Target::Cli, &setup);
    assert!(
        cli.starts_with(
            "AWS_ACCESS_KEY_ID=dynoscope AWS_SECRET_ACCESS_KEY=dynoscope-local aws dynamodb update-item \\\n  --endpoint-url http://127.0.0.1:41234 \\\n  --region eu-west-2 \\\n  --table-name 'Social'"
        ),
        "{cli}"
    );
    assert!(!cli.contains("--profile"), "{cli}");
    let boto3 = r.render(Target::Boto3, &setup);
    assert!(
        boto3.contains(
            r#"client = boto3.client("dynamodb", endpoint_url="http://127.0.0.1:41234", region_name="eu-west-2", aws_access_key_id="dynoscope", aws_secret_access_key="dynoscope-local")"#
        ),
        "{boto3}"
    );
    for target in [Target::JsClient, Target::JsDocument] {
        let js = r.render(target, &setup);
        assert!(
            js.contains(
                r#"new DynamoDBClient({ endpoint: "http://127.0.0.1:41234", region: "eu-west-2", credentials: { accessKeyId: "dynoscope", secretAccessKey: "dynoscope-local" } })"#
            ),
            "{js}"
        );
    }
    let rust = r.render(Target::Rust, &setup);
    assert!(
        rust.contains(".endpoint_url(\"http://127.0.0.1:41234\")\n    .region(aws_config::Region::new(\"eu-west-2\"))\n    .credentials_provider(aws_sdk_dynamodb::config::Credentials::new(\"dynoscope\", \"dynoscope-local\", None, None, \"dynoscope-local\"))"),
        "{rust}"
    );
    // An endpoint on this machine given without a region still names one: the CLI and every
    // SDK need one, and there is no configuration to take it from.
    let bare = ClientSetup {
        endpoint_url: Some("http://localhost:8000".into()),
        region: None,
        profile: None,
    };
    let cli = r.render(Target::Cli, &bare);
    assert!(cli.contains("--region us-east-1"), "{cli}");
    assert!(rust.contains("let client = aws_sdk_dynamodb::Client::new(&config);"));
    // The request body itself carries no connection.
    let json = r.render(Target::Json, &setup);
    assert_eq!(json, r.render(Target::Json, &ClientSetup::default()));
    assert!(
        !json.contains("127.0.0.1") && !json.contains("eu-west-2"),
        "{json}"
    );
}

#[test]
fn code_for_an_endpoint_or_aws_carries_its_profile() {
    let endpoint = connection(
        ConnectionSpec::Endpoint {
            url: "http://localhost:8000".into(),
            profile: Some("local dev".into()),
            region: None,
        },
        "http://localhost:8000",
    );
    let cli = like_tally().render(Target::Cli, &endpoint.client_setup());
    assert!(
        cli.contains("--endpoint-url http://localhost:8000 \\\n  --region eu-west-2 \\\n  --profile 'local dev'"),
        "{cli}"
    );
    let aws = connection(
        ConnectionSpec::Aws {
            profile: Some("prod".into()),
            region: None,
        },
        "dynamodb.eu-west-2",
    );
    let setup = aws.client_setup();
    assert_eq!(setup.endpoint_url, None, "AWS is reached by region");
    let r = like_tally();
    let cli = r.render(Target::Cli, &setup);
    assert!(
        cli.contains("--region eu-west-2 \\\n  --profile prod"),
        "{cli}"
    );
    assert!(!cli.contains("--endpoint-url"), "{cli}");
    assert!(
        r.render(Target::Boto3, &setup).contains(
            "session = boto3.Session(profile_name=\"prod\")\nclient = session.client(\"dynamodb\", region_name=\"eu-west-2\")"
        )
    );
    let js = r.render(Target::JsClient, &setup);
    assert!(
        js.contains("import { fromIni } from \"@aws-sdk/credential-providers\";"),
        "{js}"
    );
    assert!(
        js.contains(r#"new DynamoDBClient({ region: "eu-west-2", credentials: fromIni({ profile: "prod" }) })"#),
        "{js}"
    );
    assert!(
        r.render(Target::Rust, &setup)
            .contains(".profile_name(\"prod\")")
    );
}
