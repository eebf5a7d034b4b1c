//! A table as an AWS CDK v2 app in TypeScript: a stack with one `dynamodb.TableV2`.
//!
//! `TableV2` is synthesized as `AWS::DynamoDB::GlobalTable` (with one replica, here), which
//! takes write capacity only as auto scaling settings: `Capacity.fixed` for writes is refused
//! when the app is synthesized. Provisioned writes are therefore `Capacity.autoscaled` with the
//! minimum and the maximum both at the table's WCU, which holds them there; reads are
//! `Capacity.fixed`. Global indexes get the table's capacity, as the app creates them.

use serde_json::Value;

use crate::schema::{BillingSpec, IndexSpec, ProjectionSpec, TableSpec};
use crate::table::KeyAttr;

use super::{bounded_id, cdk_type};

pub(super) fn render(spec: &TableSpec) -> String {
    let class = stack_class(&spec.name);
    let mut props = vec![
        format!("tableName: {},", string(&spec.name)),
        format!("partitionKey: {},", key(&spec.partition)),
    ];
    if let Some(sort) = &spec.sort {
        props.push(format!("sortKey: {},", key(sort)));
    }
    props.extend(billing(spec.billing));
    if !spec.global.is_empty() {
        props.push("globalSecondaryIndexes: [".to_owned());
        for index in &spec.global {
            let mut fields = vec![
                format!("indexName: {},", string(&index.name)),
                format!("partitionKey: {},", key(&index.partition)),
            ];
            fields.extend(index_rest(index));
            if let BillingSpec::Provisioned { rcu, wcu } = spec.billing {
                fields.push(format!("readCapacity: {},", read_capacity(rcu)));
                fields.push(format!("writeCapacity: {},", write_capacity(wcu)));
            }
            props.extend(object(fields));
        }
        props.push("],".to_owned());
    }
    if !spec.local.is_empty() {
        props.push("localSecondaryIndexes: [".to_owned());
        for index in &spec.local {
            let mut fields = vec![format!("indexName: {},", string(&index.name))];
            fields.extend(index_rest(index));
            props.extend(object(fields));
        }
        props.push("],".to_owned());
    }
    if let Some(view) = spec.stream {
        props.push(format!(
            "dynamoStream: dynamodb.StreamViewType.{},",
            view.name()
        ));
    }
    if let Some(ttl) = &spec.ttl {
        props.push(format!("timeToLiveAttribute: {},", string(ttl)));
    }
    // Written only when on, as in the other formats: off is the default, and a setting that
    // could not be read is read as off, so nothing is claimed for it.
    if spec.pitr {
        props.push(
            "pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },".to_owned(),
        );
    }
    props.push(format!("deletionProtection: {},", spec.deletion_protection));
    props.push(format!(
        "tableClass: dynamodb.TableClass.{},",
        spec.class.name()
    ));
    if !spec.tags.is_empty() {
        props.push("tags: [".to_owned());
        for (k, v) in &spec.tags {
            props.push(format!("{{ key: {}, value: {} }},", string(k), string(v)));
        }
        props.push("],".to_owned());
    }
    props.push("// Kept when the stack is deleted or the table replaced.".to_owned());
    props.push("removalPolicy: RemovalPolicy.RETAIN,".to_owned());

    let mut out = String::from(
        "// A DynamoDB table as an AWS CDK app, written by dynoscope.\n\
         import { App, RemovalPolicy, Stack, StackProps } from 'aws-cdk-lib';\n\
         import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';\n\
         import { Construct } from 'constructs';\n\n",
    );
    out.push_str(&format!("export class {class} extends Stack {{\n"));
    out.push_str("  constructor(scope: Construct, id: string, props?: StackProps) {\n");
    out.push_str("    super(scope, id, props);\n\n");
    out.push_str("    new dynamodb.TableV2(this, 'Table', {\n");
    for line in indent(&props) {
        out.push_str(&format!("      {line}\n"));
    }
    out.push_str("    });\n  }\n}\n\n");
    out.push_str("const app = new App();\n");
    out.push_str(&format!("new {class}(app, '{class}');\n"));
    out.push_str("app.synth();\n");
    out
}

/// The stack's class, and its construct ID and stack name: letters and digits (`PostsStack`),
/// which a CloudFormation stack name may be, at most 128 of them.
pub(crate) fn stack_class(name: &str) -> String {
    bounded_id(name, "Stack", 128)
}

/// Indents the lines between each opening `[`/`{` line and its closing line by two spaces.
fn indent(lines: &[String]) -> Vec<String> {
    let mut depth = 0usize;
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        if line.starts_with(['}', ']']) {
            depth = depth.saturating_sub(1);
        }
        out.push(format!("{}{line}", "  ".repeat(depth)));
        if line.ends_with(['[', '{']) {
            depth += 1;
        }
    }
    out
}

/// `{`, the fields, `},` as lines.
fn object(fields: Vec<String>) -> Vec<String> {
    let mut lines = vec!["{".to_owned()];
    lines.extend(fields);
    lines.push("},".to_owned());
    lines
}

/// `{ name: "PK", type: dynamodb.AttributeType.STRING }`.
fn key(key: &KeyAttr) -> String {
    format!(
        "{{ name: {}, type: dynamodb.AttributeType.{} }}",
        string(&key.name),
        cdk_type(key.kind)
    )
}

fn read_capacity(rcu: u64) -> String {
    format!("dynamodb.Capacity.fixed({rcu})")
}

fn write_capacity(wcu: u64) -> String {
    format!("dynamodb.Capacity.autoscaled({{ minCapacity: {wcu}, maxCapacity: {wcu} }})")
}

fn billing(billing: BillingSpec) -> Vec<String> {
    match billing {
        BillingSpec::OnDemand => vec!["billing: dynamodb.Billing.onDemand(),".to_owned()],
        BillingSpec::Provisioned { rcu, wcu } => vec![
            "billing: dynamodb.Billing.provisioned({".to_owned(),
            format!("readCapacity: {},", read_capacity(rcu)),
            format!("// Write capacity is auto scaled only in TableV2: held at {wcu} here."),
            format!("writeCapacity: {},", write_capacity(wcu)),
            "}),".to_owned(),
        ],
    }
}

/// An index's sort key and projection.
fn index_rest(index: &IndexSpec) -> Vec<String> {
    let mut fields = Vec::new();
    if let Some(sort) = &index.sort {
        fields.push(format!("sortKey: {},", key(sort)));
    }
    fields.push(format!(
        "projectionType: dynamodb.ProjectionType.{},",
        index.projection.kind()
    ));
    if let ProjectionSpec::Include(names) = &index.projection {
        let names: Vec<String> = names.iter().map(|n| string(n)).collect();
        fields.push(format!("nonKeyAttributes: [{}],", names.join(", ")));
    }
    fields
}

/// `text` as a TypeScript string literal: JSON's quoting, with the line and paragraph
/// separators (U+2028, U+2029), which JSON leaves as they are, escaped too.
pub(crate) fn string(text: &str) -> String {
    Value::String(text.to_owned())
        .to_string()
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}
