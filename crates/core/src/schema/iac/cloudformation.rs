//! A table as a CloudFormation template, in JSON.
//!
//! The resource is always `AWS::DynamoDB::Table`: `AWS::DynamoDB::GlobalTable` is for tables
//! with replicas in other regions, and a [`TableSpec`] has none. Its properties are the
//! `CreateTable` request the app sends ([`create_input_json`]: the same names and shapes), with
//! what CloudFormation spells otherwise or sets with the table rather than after it: the stream
//! as `StreamSpecification` without `StreamEnabled`, TTL and point-in-time recovery. The table
//! is kept when the stack is deleted or the resource replaced (`Retain`).

use serde_json::{Value, json};

use crate::schema::{TableSpec, create_input_json};

use super::bounded_id;

pub(super) fn render(spec: &TableSpec) -> String {
    let mut template = serde_json::Map::new();
    template.insert("AWSTemplateFormatVersion".into(), json!("2010-09-09"));
    template.insert(
        "Description".into(),
        json!(format!(
            "The DynamoDB table {}, written by dynoscope.",
            spec.name
        )),
    );
    let resource = json!({
        "Type": "AWS::DynamoDB::Table",
        "DeletionPolicy": "Retain",
        "UpdateReplacePolicy": "Retain",
        "Properties": properties(spec),
    });
    let mut resources = serde_json::Map::new();
    resources.insert(logical_id(&spec.name), resource);
    template.insert("Resources".into(), Value::Object(resources));
    let mut text = serde_json::to_string_pretty(&Value::Object(template)).unwrap_or_default();
    text.push('\n');
    text
}

/// The resource's logical ID: letters and digits only, at most 255 of them, as CloudFormation
/// asks (`Posts` → `PostsTable`).
pub(crate) fn logical_id(name: &str) -> String {
    bounded_id(name, "Table", 255)
}

/// The `Properties` of the `AWS::DynamoDB::Table`.
pub(crate) fn properties(spec: &TableSpec) -> Value {
    let Value::Object(request) = create_input_json(spec) else {
        return Value::Null;
    };
    let mut properties = serde_json::Map::new();
    for (name, value) in request {
        match name.as_str() {
            // CloudFormation's StreamSpecification has no StreamEnabled: it is on when given.
            "StreamSpecification" => {
                if let Some(view) = spec.stream {
                    properties.insert(name, json!({"StreamViewType": view.name()}));
                }
            }
            _ => {
                properties.insert(name, value);
            }
        }
    }
    if let Some(ttl) = &spec.ttl {
        properties.insert(
            "TimeToLiveSpecification".into(),
            json!({"AttributeName": ttl, "Enabled": true}),
        );
    }
    if spec.pitr {
        properties.insert(
            "PointInTimeRecoverySpecification".into(),
            json!({"PointInTimeRecoveryEnabled": true}),
        );
    }
    Value::Object(properties)
}
