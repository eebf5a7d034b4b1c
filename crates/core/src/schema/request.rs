//! A [`TableSpec`] as requests: the SDK's `CreateTable` (and an index added by `UpdateTable`),
//! and the same request as the JSON `aws dynamodb create-table --cli-input-json` takes, copied
//! as a command that reaches the connection it was made on.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::operation::create_table::builders::CreateTableFluentBuilder;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, CreateGlobalSecondaryIndexAction, GlobalSecondaryIndex,
    KeySchemaElement, KeyType, LocalSecondaryIndex, Projection, ProjectionType,
    ProvisionedThroughput, ScalarAttributeType, StreamSpecification, StreamViewType, TableClass,
    Tag,
};
use serde_json::{Value, json};

use crate::connection::ClientSetup;
use crate::error::{Error, Result};
use crate::expr::codegen::shell_quote;
use crate::schema::{BillingSpec, IndexSpec, ProjectionSpec, TableSpec, type_letter};
use crate::table::KeyAttr;

fn built<T, E: std::fmt::Display>(what: &str, r: std::result::Result<T, E>) -> Result<T> {
    r.map_err(|e| Error::Invalid(format!("{what}: {e}")))
}

fn key_schema(partition: &KeyAttr, sort: Option<&KeyAttr>) -> Result<Vec<KeySchemaElement>> {
    [
        Some((partition, KeyType::Hash)),
        sort.map(|s| (s, KeyType::Range)),
    ]
    .into_iter()
    .flatten()
    .map(|(key, kind)| {
        built(
            "a key schema",
            KeySchemaElement::builder()
                .attribute_name(&key.name)
                .key_type(kind)
                .build(),
        )
    })
    .collect()
}

/// The attribute definition of one key attribute.
pub(crate) fn definition(key: &KeyAttr) -> Result<AttributeDefinition> {
    built(
        "an attribute definition",
        AttributeDefinition::builder()
            .attribute_name(&key.name)
            .attribute_type(ScalarAttributeType::from(type_letter(key.kind)))
            .build(),
    )
}

fn projection(spec: &ProjectionSpec) -> Projection {
    let builder = Projection::builder().projection_type(ProjectionType::from(spec.kind()));
    match spec {
        ProjectionSpec::Include(names) => builder.set_non_key_attributes(Some(names.clone())),
        _ => builder,
    }
    .build()
}

fn throughput(billing: BillingSpec) -> Result<Option<ProvisionedThroughput>> {
    match billing {
        BillingSpec::OnDemand => Ok(None),
        BillingSpec::Provisioned { rcu, wcu } => built(
            "provisioned throughput",
            ProvisionedThroughput::builder()
                .read_capacity_units(i64::try_from(rcu).unwrap_or(i64::MAX))
                .write_capacity_units(i64::try_from(wcu).unwrap_or(i64::MAX))
                .build(),
        )
        .map(Some),
    }
}

fn global(index: &IndexSpec, billing: BillingSpec) -> Result<GlobalSecondaryIndex> {
    built(
        "a global index",
        GlobalSecondaryIndex::builder()
            .index_name(&index.name)
            .set_key_schema(Some(key_schema(&index.partition, index.sort.as_ref())?))
            .projection(projection(&index.projection))
            .set_provisioned_throughput(throughput(billing)?)
            .build(),
    )
}

fn local(index: &IndexSpec) -> Result<LocalSecondaryIndex> {
    built(
        "a local index",
        LocalSecondaryIndex::builder()
            .index_name(&index.name)
            .set_key_schema(Some(key_schema(&index.partition, index.sort.as_ref())?))
            .projection(projection(&index.projection))
            .build(),
    )
}

/// The `CreateTable` request for `spec` (TTL and point-in-time recovery are set after, once the
/// table is active). The spec is checked first.
pub(crate) fn create_table(client: &Client, spec: &TableSpec) -> Result<CreateTableFluentBuilder> {
    spec.check()?;
    let definitions = spec
        .attribute_definitions()
        .into_iter()
        .map(definition)
        .collect::<Result<Vec<_>>>()?;
    let globals = spec
        .global
        .iter()
        .map(|i| global(i, spec.billing))
        .collect::<Result<Vec<_>>>()?;
    let locals = spec.local.iter().map(local).collect::<Result<Vec<_>>>()?;
    let stream = spec
        .stream
        .map(|view| {
            built(
                "a stream specification",
                StreamSpecification::builder()
                    .stream_enabled(true)
                    .stream_view_type(StreamViewType::from(view.name()))
                    .build(),
            )
        })
        .transpose()?;
    let tags = spec
        .tags
        .iter()
        .map(|(k, v)| built("a tag", Tag::builder().key(k).value(v).build()))
        .collect::<Result<Vec<_>>>()?;
    Ok(client
        .create_table()
        .table_name(&spec.name)
        .set_attribute_definitions(Some(definitions))
        .set_key_schema(Some(key_schema(&spec.partition, spec.sort.as_ref())?))
        .billing_mode(BillingMode::from(spec.billing.mode()))
        .set_provisioned_throughput(throughput(spec.billing)?)
        .set_global_secondary_indexes((!globals.is_empty()).then_some(globals))
        .set_local_secondary_indexes((!locals.is_empty()).then_some(locals))
        .set_stream_specification(stream)
        .deletion_protection_enabled(spec.deletion_protection)
        .table_class(TableClass::from(spec.class.name()))
        .set_tags((!tags.is_empty()).then_some(tags)))
}

/// The action that adds `index` to a table billed as `billing`.
pub(crate) fn create_global(
    index: &IndexSpec,
    billing: BillingSpec,
) -> Result<CreateGlobalSecondaryIndexAction> {
    built(
        "a new global index",
        CreateGlobalSecondaryIndexAction::builder()
            .index_name(&index.name)
            .set_key_schema(Some(key_schema(&index.partition, index.sort.as_ref())?))
            .projection(projection(&index.projection))
            .set_provisioned_throughput(throughput(billing)?)
            .build(),
    )
}

fn keys_json(partition: &KeyAttr, sort: Option<&KeyAttr>) -> Value {
    let mut keys = vec![json!({"AttributeName": partition.name, "KeyType": "HASH"})];
    if let Some(sort) = sort {
        keys.push(json!({"AttributeName": sort.name, "KeyType": "RANGE"}));
    }
    Value::Array(keys)
}

fn projection_json(spec: &ProjectionSpec) -> Value {
    match spec {
        ProjectionSpec::Include(names) => {
            json!({"ProjectionType": "INCLUDE", "NonKeyAttributes": names})
        }
        other => json!({"ProjectionType": other.kind()}),
    }
}

fn throughput_json(billing: BillingSpec) -> Option<Value> {
    match billing {
        BillingSpec::OnDemand => None,
        BillingSpec::Provisioned { rcu, wcu } => {
            Some(json!({"ReadCapacityUnits": rcu, "WriteCapacityUnits": wcu}))
        }
    }
}

fn index_json(index: &IndexSpec, billing: Option<BillingSpec>) -> Value {
    let mut value = json!({
        "IndexName": index.name,
        "KeySchema": keys_json(&index.partition, index.sort.as_ref()),
        "Projection": projection_json(&index.projection),
    });
    if let (Some(throughput), Some(object)) =
        (billing.and_then(throughput_json), value.as_object_mut())
    {
        object.insert("ProvisionedThroughput".to_owned(), throughput);
    }
    value
}

/// `CreateTable`'s request body for `spec`, as `--cli-input-json` and the HTTP API take it.
pub fn create_input_json(spec: &TableSpec) -> Value {
    let mut body = serde_json::Map::new();
    body.insert("TableName".into(), json!(spec.name));
    body.insert(
        "AttributeDefinitions".into(),
        spec.attribute_definitions()
            .iter()
            .map(|k| json!({"AttributeName": k.name, "AttributeType": type_letter(k.kind)}))
            .collect(),
    );
    body.insert(
        "KeySchema".into(),
        keys_json(&spec.partition, spec.sort.as_ref()),
    );
    body.insert("BillingMode".into(), json!(spec.billing.mode()));
    if let Some(throughput) = throughput_json(spec.billing) {
        body.insert("ProvisionedThroughput".into(), throughput);
    }
    if !spec.global.is_empty() {
        let indexes = spec
            .global
            .iter()
            .map(|i| index_json(i, Some(spec.billing)));
        body.insert("GlobalSecondaryIndexes".into(), indexes.collect());
    }
    if !spec.local.is_empty() {
        let indexes = spec.local.iter().map(|i| index_json(i, None));
        body.insert("LocalSecondaryIndexes".into(), indexes.collect());
    }
    if let Some(view) = spec.stream {
        body.insert(
            "StreamSpecification".into(),
            json!({"StreamEnabled": true, "StreamViewType": view.name()}),
        );
    }
    body.insert(
        "DeletionProtectionEnabled".into(),
        json!(spec.deletion_protection),
    );
    body.insert("TableClass".into(), json!(spec.class.name()));
    if !spec.tags.is_empty() {
        let tags = spec.tags.iter().map(|(k, v)| json!({"Key": k, "Value": v}));
        body.insert("Tags".into(), tags.collect());
    }
    Value::Object(body)
}

impl TableSpec {
    /// The AWS CLI commands that create this table where `setup` connects: `create-table` with
    /// the request as JSON, then waiting for it and turning on TTL and point-in-time recovery
    /// when asked for.
    pub fn cli_commands(&self, setup: &ClientSetup) -> String {
        let env = setup
            .cli_environment()
            .map(|e| format!("{e} "))
            .unwrap_or_default();
        let options = setup.cli_options().join(" ");
        let table = shell_quote(&self.name);
        let body = create_input_json(self).to_string();
        let mut lines = vec![
            format!(
                "{env}aws dynamodb create-table {options} --cli-input-json {}",
                shell_quote(&body)
            ),
            format!("{env}aws dynamodb wait table-exists {options} --table-name {table}"),
        ];
        if let Some(ttl) = &self.ttl {
            lines.push(format!(
                "{env}aws dynamodb update-time-to-live {options} --table-name {table} \
                 --time-to-live-specification {}",
                shell_quote(&format!("Enabled=true,AttributeName={ttl}"))
            ));
        }
        if self.pitr {
            lines.push(format!(
                "{env}aws dynamodb update-continuous-backups {options} --table-name {table} \
                 --point-in-time-recovery-specification PointInTimeRecoveryEnabled=true"
            ));
        }
        lines.join("\n")
    }
}
