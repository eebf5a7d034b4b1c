use serde_json::{Value, json};

use super::cdk::{stack_class, string};
use super::cloudformation::{logical_id, properties};
use super::terraform::{identifier, quote};
use super::*;
use crate::schema::{
    BillingSpec, ClassSpec, StreamView, create_input_json, parse_index, parse_key,
};

/// Tags that a careless writer would break in every format.
const HOSTILE: [(&str, &str); 4] = [
    ("team", "social"),
    ("quote\"key", "say \"hi\" ${var.x} %{if} \\ end"),
    ("lines", "one\ntwo\r\tthree"),
    ("café", "naïve 😀 \u{2028} $${ \u{1}"),
];

/// Two global indexes (one INCLUDE), a local one, provisioned, and everything else on.
pub(crate) fn rich() -> TableSpec {
    let mut spec = TableSpec::new(
        "Posts.v2",
        parse_key("PK:S").unwrap(),
        Some(parse_key("SK:S").unwrap()),
    );
    spec.billing = BillingSpec::Provisioned { rcu: 7, wcu: 3 };
    spec.global = vec![
        parse_index("GSI1=GSI1PK:S,GSI1SK:N:ALL").unwrap(),
        parse_index("ByUser=user:B:INCLUDE(likedAt,title)").unwrap(),
    ];
    spec.local = vec![parse_index("ByDate=PK:S,createdAt:N:KEYS_ONLY").unwrap()];
    spec.stream = Some(StreamView::NewAndOldImages);
    spec.ttl = Some("expiresAt".into());
    spec.pitr = true;
    spec.deletion_protection = true;
    spec.class = ClassSpec::StandardIa;
    spec.tags = HOSTILE
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    spec
}

/// A partition key, on demand, nothing else.
pub(crate) fn minimal() -> TableSpec {
    TableSpec::new("ids", parse_key("id:N").unwrap(), None)
}

#[test]
fn the_formats_read_as_the_cli_writes_them() {
    // Both tables are ones DynamoDB would create.
    rich().check().unwrap();
    minimal().check().unwrap();
    for (text, format) in [
        ("terraform", IacFormat::Terraform),
        ("TF", IacFormat::Terraform),
        ("cloudformation", IacFormat::CloudFormation),
        (" cfn ", IacFormat::CloudFormation),
        ("CDK", IacFormat::Cdk),
    ] {
        assert_eq!(IacFormat::parse(text).unwrap(), format, "{text}");
    }
    let err = IacFormat::parse("pulumi").unwrap_err().to_string();
    assert!(
        err.contains("terraform, cloudformation (cfn) or cdk"),
        "{err}"
    );
    let names: Vec<_> = IacFormat::ALL.iter().map(|f| f.name()).collect();
    assert_eq!(names, ["terraform", "cloudformation", "cdk"]);
    for format in IacFormat::ALL {
        assert_eq!(IacFormat::parse(format.name()).unwrap(), format);
    }
    let files: Vec<_> = IacFormat::ALL
        .iter()
        .map(|f| f.file_name(&rich()))
        .collect();
    assert_eq!(
        files,
        ["posts_v2.tf", "PostsV2.template.json", "posts-v2-stack.ts"]
    );
}

#[test]
fn names_become_identifiers_of_each_language() {
    assert_eq!(identifier("Posts"), "posts");
    assert_eq!(identifier("MyTable.v2"), "my_table_v2");
    assert_eq!(identifier("2024-events"), "table_2024-events");
    assert_eq!(pascal("my-table.v2"), "MyTableV2");
    assert_eq!(pascal("2024_events"), "Table2024Events");
    assert_eq!(pascal("..."), "Table");
    assert_eq!(logical_id("Posts"), "PostsTable");
    assert_eq!(stack_class("likes_by-user"), "LikesByUserStack");
}

#[test]
fn strings_are_escaped_for_hcl() {
    assert_eq!(quote("plain"), r#""plain""#);
    assert_eq!(quote(r#"a"b\c"#), r#""a\"b\\c""#);
    assert_eq!(quote("one\ntwo\r\t"), r#""one\ntwo\r\t""#);
    // Interpolation and directives doubled; a lone `$` or `%` left alone.
    assert_eq!(quote("${x} %{if} $ % {"), r#""$${x} %%{if} $ % {""#);
    // A literal `$${` is `$$${`, as Terraform's own writer escapes it.
    assert_eq!(quote("$${"), r#""$$${""#);
    assert_eq!(quote("\u{1}é"), r#""\u0001é""#);
}

#[test]
fn strings_are_escaped_for_typescript() {
    assert_eq!(string(r#"a"b\c"#), r#""a\"b\\c""#);
    assert_eq!(string("one\ntwo"), r#""one\ntwo""#);
    assert_eq!(string("${x}"), r#""${x}""#);
    assert_eq!(string("a\u{2028}b\u{2029}"), r#""a\u2028b\u2029""#);
    for (_, value) in HOSTILE {
        let back: String = serde_json::from_str(&string(value)).unwrap();
        assert_eq!(back, value);
    }
}

#[test]
fn terraform_is_the_whole_table_in_fmt_layout() {
    let text = render(&rich(), IacFormat::Terraform);
    let resource = text
        .split_once("resource ")
        .map(|(_, r)| format!("resource {r}"))
        .unwrap();
    let expected = r#"resource "aws_dynamodb_table" "posts_v2" {
  name                        = "Posts.v2"
  billing_mode                = "PROVISIONED"
  read_capacity               = 7
  write_capacity              = 3
  hash_key                    = "PK"
  range_key                   = "SK"
  stream_enabled              = true
  stream_view_type            = "NEW_AND_OLD_IMAGES"
  deletion_protection_enabled = true
  table_class                 = "STANDARD_INFREQUENT_ACCESS"

  attribute {
    name = "PK"
    type = "S"
  }

  attribute {
    name = "SK"
    type = "S"
  }

  attribute {
    name = "GSI1PK"
    type = "S"
  }

  attribute {
    name = "GSI1SK"
    type = "N"
  }

  attribute {
    name = "user"
    type = "B"
  }

  attribute {
    name = "createdAt"
    type = "N"
  }

  global_secondary_index {
    name            = "GSI1"
    hash_key        = "GSI1PK"
    range_key       = "GSI1SK"
    projection_type = "ALL"
    read_capacity   = 7
    write_capacity  = 3
  }

  global_secondary_index {
    name               = "ByUser"
    hash_key           = "user"
    projection_type    = "INCLUDE"
    non_key_attributes = ["likedAt", "title"]
    read_capacity      = 7
    write_capacity     = 3
  }

  local_secondary_index {
    name            = "ByDate"
    range_key       = "createdAt"
    projection_type = "KEYS_ONLY"
  }

  ttl {
    attribute_name = "expiresAt"
    enabled        = true
  }

  point_in_time_recovery {
    enabled = true
  }

  tags = {
    "team"       = "social"
    "quote\"key" = "say \"hi\" $${var.x} %%{if} \\ end"
    "lines"      = "one\ntwo\r\tthree"
    "caf\u00E9"  = "naïve 😀 <LS> $$${ \u0001"
  }
}
"#
    .replace("<LS>", "\u{2028}");
    assert_eq!(resource, expected);
    assert!(text.starts_with("terraform {\n  required_providers {\n"));
    assert!(text.contains("      source  = \"hashicorp/aws\"\n"));
}

#[test]
fn a_minimal_table_in_terraform_has_only_what_it_needs() {
    let text = render(&minimal(), IacFormat::Terraform);
    let resource = text.split_once("resource ").unwrap().1;
    assert_eq!(
        resource,
        r#""aws_dynamodb_table" "ids" {
  name                        = "ids"
  billing_mode                = "PAY_PER_REQUEST"
  hash_key                    = "id"
  deletion_protection_enabled = false
  table_class                 = "STANDARD"

  attribute {
    name = "id"
    type = "N"
  }
}
"#
    );
}

fn template(spec: &TableSpec) -> Value {
    serde_json::from_str(&render(spec, IacFormat::CloudFormation)).unwrap()
}

#[test]
fn cloudformation_is_one_table_resource_with_every_setting() {
    let spec = rich();
    let template = template(&spec);
    assert_eq!(template["AWSTemplateFormatVersion"], "2010-09-09");
    let resources = template["Resources"].as_object().unwrap();
    assert_eq!(resources.len(), 1);
    let table = &resources["PostsV2Table"];
    assert_eq!(table["Type"], "AWS::DynamoDB::Table");
    assert_eq!(table["DeletionPolicy"], "Retain");
    let p = &table["Properties"];
    assert_eq!(p["TableName"], "Posts.v2");
    assert_eq!(p["BillingMode"], "PROVISIONED");
    let capacity = json!({"ReadCapacityUnits": 7, "WriteCapacityUnits": 3});
    assert_eq!(p["ProvisionedThroughput"], capacity);
    let definitions = p["AttributeDefinitions"].as_array().unwrap();
    let names: Vec<_> = definitions.iter().map(|d| &d["AttributeName"]).collect();
    assert_eq!(
        names,
        ["PK", "SK", "GSI1PK", "GSI1SK", "user", "createdAt"]
            .map(|n| json!(n))
            .iter()
            .collect::<Vec<_>>()
    );
    let globals = p["GlobalSecondaryIndexes"].as_array().unwrap();
    assert_eq!(globals.len(), 2);
    assert!(
        globals
            .iter()
            .all(|g| g["ProvisionedThroughput"] == capacity)
    );
    assert_eq!(
        globals[1]["Projection"],
        json!({"ProjectionType": "INCLUDE", "NonKeyAttributes": ["likedAt", "title"]})
    );
    let local = &p["LocalSecondaryIndexes"][0];
    assert_eq!(
        local["KeySchema"][1],
        json!({"AttributeName": "createdAt", "KeyType": "RANGE"})
    );
    assert!(local.get("ProvisionedThroughput").is_none());
    assert_eq!(
        p["StreamSpecification"],
        json!({"StreamViewType": "NEW_AND_OLD_IMAGES"})
    );
    assert_eq!(
        p["TimeToLiveSpecification"],
        json!({"AttributeName": "expiresAt", "Enabled": true})
    );
    assert_eq!(
        p["PointInTimeRecoverySpecification"],
        json!({"PointInTimeRecoveryEnabled": true})
    );
    assert_eq!(p["DeletionProtectionEnabled"], true);
    assert_eq!(p["TableClass"], "STANDARD_INFREQUENT_ACCESS");
    let tags: Vec<(String, String)> = p["Tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["Key"].as_str().unwrap().into(),
                t["Value"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(tags, spec.tags);
}

#[test]
fn cloudformation_properties_are_the_create_table_request() {
    for spec in [rich(), minimal()] {
        let request = create_input_json(&spec);
        let request = request.as_object().unwrap();
        let properties = properties(&spec);
        let properties = properties.as_object().unwrap();
        for (name, value) in request {
            if name == "StreamSpecification" {
                assert_eq!(value["StreamEnabled"], true);
                assert_eq!(properties[name]["StreamViewType"], value["StreamViewType"]);
            } else {
                assert_eq!(&properties[name], value, "{name}");
            }
        }
        // What CloudFormation sets with the table, and the request does not carry.
        let extra: Vec<_> = properties
            .keys()
            .filter(|k| !request.contains_key(*k))
            .collect();
        let expected: &[&str] = if spec.pitr {
            &[
                "TimeToLiveSpecification",
                "PointInTimeRecoverySpecification",
            ]
        } else {
            &[]
        };
        assert_eq!(extra, expected);
    }
    let minimal = template(&minimal());
    let p = &minimal["Resources"]["IdsTable"]["Properties"];
    for absent in [
        "ProvisionedThroughput",
        "GlobalSecondaryIndexes",
        "StreamSpecification",
        "Tags",
    ] {
        assert!(p.get(absent).is_none(), "{absent}");
    }
}

#[test]
fn cdk_is_a_stack_with_one_table_v2() {
    let text = render(&rich(), IacFormat::Cdk);
    for line in [
        "import { App, RemovalPolicy, Stack, StackProps } from 'aws-cdk-lib';",
        "import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';",
        "export class PostsV2Stack extends Stack {",
        "    new dynamodb.TableV2(this, 'Table', {",
        "      tableName: \"Posts.v2\",",
        "      partitionKey: { name: \"PK\", type: dynamodb.AttributeType.STRING },",
        "      billing: dynamodb.Billing.provisioned({",
        "        readCapacity: dynamodb.Capacity.fixed(7),",
        "        writeCapacity: dynamodb.Capacity.autoscaled({ minCapacity: 3, maxCapacity: 3 }),",
        "      globalSecondaryIndexes: [",
        "          partitionKey: { name: \"user\", type: dynamodb.AttributeType.BINARY },",
        "          projectionType: dynamodb.ProjectionType.INCLUDE,",
        "          nonKeyAttributes: [\"likedAt\", \"title\"],",
        "          readCapacity: dynamodb.Capacity.fixed(7),",
        "      localSecondaryIndexes: [",
        "          sortKey: { name: \"createdAt\", type: dynamodb.AttributeType.NUMBER },",
        "      dynamoStream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,",
        "      timeToLiveAttribute: \"expiresAt\",",
        "      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },",
        "      deletionProtection: true,",
        "      tableClass: dynamodb.TableClass.STANDARD_INFREQUENT_ACCESS,",
        "        { key: \"quote\\\"key\", value: \"say \\\"hi\\\" ${var.x} %{if} \\\\ end\" },",
        "        { key: \"lines\", value: \"one\\ntwo\\r\\tthree\" },",
        "      removalPolicy: RemovalPolicy.RETAIN,",
        "new PostsV2Stack(app, 'PostsV2Stack');",
        "app.synth();",
    ] {
        assert!(text.lines().any(|l| l == line), "{line}\nnot in\n{text}");
    }
    let minimal = render(&minimal(), IacFormat::Cdk);
    assert!(minimal.contains("      billing: dynamodb.Billing.onDemand(),\n"));
    for absent in [
        "sortKey",
        "SecondaryIndexes",
        "dynamoStream",
        "timeToLive",
        "tags",
    ] {
        assert!(!minimal.contains(absent), "{absent}");
    }
}
