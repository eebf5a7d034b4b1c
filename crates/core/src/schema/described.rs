//! A table as the server describes it, read back into a [`TableSpec`]: `DescribeTable`, then
//! its TTL, tags and continuous backups. What a server does not answer (the embedded engine has
//! no continuous backups) is said, not guessed.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, KeySchemaElement, KeyType, Projection, ProjectionType, TableDescription,
};

use crate::condition::ScalarType;
use crate::connection::Reader;
use crate::error::{Error, Result};
use crate::schema::{BillingSpec, ClassSpec, IndexSpec, ProjectionSpec, StreamView, TableSpec};
use crate::table::KeyAttr;

/// A table read back: its spec, its status and each global index's, and what was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Described {
    /// The table as a spec.
    pub spec: TableSpec,
    /// `ACTIVE`, `CREATING`, `UPDATING`, `DELETING`…
    pub status: String,
    /// Each global index: its name, its status, and whether it is backfilling.
    pub indexes: Vec<(String, String, bool)>,
    /// The table's ARN.
    pub arn: Option<String>,
    /// When the table was created, as the server says it (seconds since the epoch, with the
    /// fraction it gives): with the ARN, what tells one table from another of that name.
    pub created: Option<String>,
    /// Items, as last reported.
    pub item_count: Option<i64>,
    /// Its size in bytes, as last reported (DynamoDB refreshes it about every six hours).
    pub size_bytes: Option<i64>,
    /// Parts of the table the server did not describe, each with why.
    pub unread: Vec<String>,
}

impl Described {
    /// Whether the table and every global index are `ACTIVE`, no index backfilling.
    pub fn settled(&self) -> bool {
        self.status == "ACTIVE"
            && self
                .indexes
                .iter()
                .all(|(_, status, backfilling)| status == "ACTIVE" && !backfilling)
    }

    /// Its state in words: `ACTIVE`, `UPDATING; index ByUser CREATING (backfilling)`.
    pub fn state(&self) -> String {
        let mut parts = vec![self.status.clone()];
        for (name, status, backfilling) in &self.indexes {
            if status != "ACTIVE" || *backfilling {
                let fill = if *backfilling { " (backfilling)" } else { "" };
                parts.push(format!("index {name} {status}{fill}"));
            }
        }
        parts.join("; ")
    }
}

fn key_attr(name: &str, definitions: &[AttributeDefinition]) -> Option<KeyAttr> {
    let definition = definitions.iter().find(|d| d.attribute_name() == name)?;
    let kind = ScalarType::from_key_letter(definition.attribute_type().as_str())?;
    Some(KeyAttr::new(name, kind))
}

fn keys(
    schema: &[KeySchemaElement],
    definitions: &[AttributeDefinition],
) -> Option<(KeyAttr, Option<KeyAttr>)> {
    let of = |kind: KeyType| {
        schema
            .iter()
            .find(|k| *k.key_type() == kind)
            .map(|k| key_attr(k.attribute_name(), definitions))
    };
    let partition = of(KeyType::Hash)??;
    let sort = match of(KeyType::Range) {
        Some(found) => Some(found?),
        None => None,
    };
    Some((partition, sort))
}

fn projection(p: Option<&Projection>) -> ProjectionSpec {
    match p
        .and_then(|p| p.projection_type())
        .map(ProjectionType::as_str)
    {
        Some("KEYS_ONLY") => ProjectionSpec::KeysOnly,
        Some("INCLUDE") => ProjectionSpec::Include(
            p.map(|p| p.non_key_attributes().to_vec())
                .unwrap_or_default(),
        ),
        _ => ProjectionSpec::All,
    }
}

/// The spec of a described table, its TTL attribute, tags and point-in-time recovery given.
pub(crate) fn spec_of(
    desc: &TableDescription,
    ttl: Option<String>,
    tags: Vec<(String, String)>,
    pitr: bool,
) -> Option<TableSpec> {
    let defs = desc.attribute_definitions();
    let (partition, sort) = keys(desc.key_schema(), defs)?;
    let index = |name: Option<&str>, schema, p| {
        let (partition, sort) = keys(schema, defs)?;
        Some(IndexSpec {
            name: name.unwrap_or_default().to_owned(),
            partition,
            sort,
            projection: projection(p),
        })
    };
    let global = desc
        .global_secondary_indexes()
        .iter()
        .map(|g| index(g.index_name(), g.key_schema(), g.projection()))
        .collect::<Option<Vec<_>>>()?;
    let local = desc
        .local_secondary_indexes()
        .iter()
        .map(|l| index(l.index_name(), l.key_schema(), l.projection()))
        .collect::<Option<Vec<_>>>()?;
    let on_demand = desc
        .billing_mode_summary()
        .and_then(|b| b.billing_mode())
        .is_some_and(|m| m.as_str() == "PAY_PER_REQUEST");
    let billing = match desc.provisioned_throughput() {
        Some(pt) if !on_demand => BillingSpec::Provisioned {
            rcu: pt.read_capacity_units().map_or(0, i64::unsigned_abs),
            wcu: pt.write_capacity_units().map_or(0, i64::unsigned_abs),
        },
        _ => BillingSpec::OnDemand,
    };
    let stream = desc
        .stream_specification()
        .filter(|s| s.stream_enabled())
        .and_then(|s| s.stream_view_type())
        .and_then(|v| StreamView::parse(v.as_str()));
    let class = desc
        .table_class_summary()
        .and_then(|c| c.table_class())
        .and_then(|c| ClassSpec::parse(c.as_str()))
        .unwrap_or_default();
    Some(TableSpec {
        name: desc.table_name().unwrap_or_default().to_owned(),
        partition,
        sort,
        billing,
        global,
        local,
        stream,
        ttl,
        pitr,
        deletion_protection: desc.deletion_protection_enabled().unwrap_or(false),
        class,
        tags,
    })
}

/// The attribute whose time to live is on, if any; a failed `DescribeTimeToLive` is added to
/// `unread`.
async fn read_ttl(client: &Client, table: &str, unread: &mut Vec<String>) -> Option<String> {
    match client
        .describe_time_to_live()
        .table_name(table)
        .send()
        .await
    {
        Ok(out) => out
            .time_to_live_description()
            .filter(|d| {
                d.time_to_live_status()
                    .is_some_and(|s| matches!(s.as_str(), "ENABLED" | "ENABLING"))
            })
            .and_then(|d| d.attribute_name())
            .map(str::to_owned),
        Err(e) => {
            unread.push(format!("TTL: {}", Error::from_sdk("DescribeTimeToLive", e)));
            None
        }
    }
}

/// The tags of the table `arn`, every page of `ListTagsOfResource`; a failed page ends the
/// reading and is added to `unread`.
async fn read_tags(client: &Client, arn: &str, unread: &mut Vec<String>) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    let mut next: Option<String> = None;
    loop {
        match client
            .list_tags_of_resource()
            .resource_arn(arn)
            .set_next_token(next.take())
            .send()
            .await
        {
            Ok(out) => {
                tags.extend(
                    out.tags()
                        .iter()
                        .map(|t| (t.key().to_owned(), t.value().to_owned())),
                );
                match out.next_token() {
                    Some(token) => next = Some(token.to_owned()),
                    None => break,
                }
            }
            Err(e) => {
                unread.push(format!(
                    "tags: {}",
                    Error::from_sdk("ListTagsOfResource", e)
                ));
                break;
            }
        }
    }
    tags
}

/// Whether point-in-time recovery is on; a failed `DescribeContinuousBackups` is added to
/// `unread`, in words of its own when the engine has no backups.
async fn read_pitr(client: &Client, table: &str, unread: &mut Vec<String>) -> bool {
    match client
        .describe_continuous_backups()
        .table_name(table)
        .send()
        .await
    {
        Ok(out) => out
            .continuous_backups_description()
            .and_then(|c| c.point_in_time_recovery_description())
            .and_then(|p| p.point_in_time_recovery_status())
            .is_some_and(|s| s.as_str() == "ENABLED"),
        Err(e) => {
            let error = Error::from_sdk("DescribeContinuousBackups", e);
            // An engine without backups (DynamoDB Local, the sandbox) does not know the call.
            unread.push(if error.code() == Some("UnknownOperationException") {
                "point-in-time recovery: this engine has no backups (DescribeContinuousBackups \
                 is not one of its operations)"
                    .to_owned()
            } else {
                format!("point-in-time recovery: {error}")
            });
            false
        }
    }
}

/// Describe `table` whole: `DescribeTable`, `DescribeTimeToLive`, `ListTagsOfResource` and
/// `DescribeContinuousBackups`. Only the first must answer; the others' failures are listed in
/// [`Described::unread`].
pub async fn read_spec(reader: &Reader, table: &str) -> Result<Described> {
    let client = reader.sdk();
    let out = client
        .describe_table()
        .table_name(table)
        .send()
        .await
        .map_err(|e| Error::from_sdk("DescribeTable", e))?;
    let incomplete = || Error::Service {
        op: "DescribeTable",
        code: "IncompleteDescription".into(),
        message: format!("the server described `{table}` without a key schema"),
        throttled: Vec::new(),
    };
    let desc = out.table().ok_or_else(incomplete)?;
    let mut unread = Vec::new();
    let ttl = read_ttl(client, table, &mut unread).await;
    let mut tags = match desc.table_arn() {
        Some(arn) => read_tags(client, arn, &mut unread).await,
        None => Vec::new(),
    };
    let pitr = read_pitr(client, table, &mut unread).await;
    // Tags are a set on the server: read back in the order of their keys.
    tags.sort();
    let spec = spec_of(desc, ttl, tags, pitr).ok_or_else(incomplete)?;
    let indexes = desc
        .global_secondary_indexes()
        .iter()
        .map(|g| {
            (
                g.index_name().unwrap_or_default().to_owned(),
                g.index_status().map_or("ACTIVE", |s| s.as_str()).to_owned(),
                g.backfilling().unwrap_or(false),
            )
        })
        .collect();
    Ok(Described {
        spec,
        status: desc
            .table_status()
            .map_or("ACTIVE", |s| s.as_str())
            .to_owned(),
        indexes,
        arn: desc.table_arn().map(str::to_owned),
        created: desc
            .creation_date_time()
            .map(|t| format!("{}.{:09}", t.secs(), t.subsec_nanos())),
        item_count: desc.item_count(),
        size_bytes: desc.table_size_bytes(),
        unread,
    })
}
