//! What a table looks like: keys, indexes, size, billing, stream, TTL.

use aws_sdk_dynamodb::types::{
    AttributeDefinition, KeySchemaElement, KeyType, Projection, TableDescription,
};

use crate::condition::ScalarType;
use crate::error::{Error, Result};
use crate::value::Item;

/// A key attribute: its name and type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyAttr {
    /// Attribute name.
    pub name: String,
    /// `S`, `N` or `B`.
    pub kind: ScalarType,
}

/// Whether an index is global or local.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexKind {
    /// A global secondary index.
    Global,
    /// A local secondary index.
    Local,
}

/// A secondary index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexInfo {
    /// Index name.
    pub name: String,
    /// Global or local.
    pub kind: IndexKind,
    /// Partition key.
    pub partition: KeyAttr,
    /// Sort key, if any.
    pub sort: Option<KeyAttr>,
    /// `ALL`, `KEYS_ONLY`, or `INCLUDE (a, b)`.
    pub projection: String,
    /// Status (global indexes only), e.g. `ACTIVE`.
    pub status: Option<String>,
    /// Items in the index, as last reported.
    pub item_count: Option<i64>,
}

/// The description of a table that dynoscope shows and browses with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableInfo {
    /// Table name.
    pub name: String,
    /// Status, e.g. `ACTIVE`.
    pub status: String,
    /// Partition key.
    pub partition: KeyAttr,
    /// Sort key, if any.
    pub sort: Option<KeyAttr>,
    /// Global and local secondary indexes.
    pub indexes: Vec<IndexInfo>,
    /// Items, as last reported (DynamoDB updates this about every six hours).
    pub item_count: Option<i64>,
    /// Size in bytes, as last reported.
    pub size_bytes: Option<i64>,
    /// `PAY_PER_REQUEST` or `PROVISIONED (R rcu / W wcu)`.
    pub billing: String,
    /// The billing mode and table class, as the table is priced.
    pub charged: crate::cost::Billing,
    /// Stream view type when a stream is enabled.
    pub stream: Option<String>,
    /// TTL status and attribute, when known.
    pub ttl: Option<String>,
    /// The table ARN.
    pub arn: Option<String>,
    /// The ARN of the table's latest stream, when it has one enabled (where Streams reads).
    pub stream_arn: Option<String>,
}

impl KeyAttr {
    /// A key attribute named `name` of type `kind`.
    pub fn new(name: &str, kind: ScalarType) -> Self {
        Self {
            name: name.to_owned(),
            kind,
        }
    }
}

impl TableInfo {
    /// A table known by its name and keys alone (no indexes; size, count and billing not
    /// reported): what the items of its files are read with when it is not described.
    pub fn with_keys(name: &str, partition: KeyAttr, sort: Option<KeyAttr>) -> Self {
        Self {
            name: name.to_owned(),
            status: String::new(),
            partition,
            sort,
            indexes: Vec::new(),
            item_count: None,
            size_bytes: None,
            billing: String::new(),
            charged: crate::cost::Billing::default(),
            stream: None,
            ttl: None,
            arn: None,
            stream_arn: None,
        }
    }

    /// Build from a `DescribeTable` answer. `None` when the key schema is missing.
    pub(crate) fn from_description(desc: &TableDescription) -> Option<Self> {
        let defs = desc.attribute_definitions();
        let (partition, sort) = keys(desc.key_schema(), defs)?;
        let mut indexes = Vec::new();
        for gsi in desc.global_secondary_indexes() {
            if let Some((partition, sort)) = keys(gsi.key_schema(), defs) {
                indexes.push(IndexInfo {
                    name: gsi.index_name().unwrap_or_default().to_owned(),
                    kind: IndexKind::Global,
                    partition,
                    sort,
                    projection: projection_text(gsi.projection()),
                    status: gsi.index_status().map(|s| s.as_str().to_owned()),
                    item_count: gsi.item_count(),
                });
            }
        }
        for lsi in desc.local_secondary_indexes() {
            if let Some((partition, sort)) = keys(lsi.key_schema(), defs) {
                indexes.push(IndexInfo {
                    name: lsi.index_name().unwrap_or_default().to_owned(),
                    kind: IndexKind::Local,
                    partition,
                    sort,
                    projection: projection_text(lsi.projection()),
                    status: None,
                    item_count: lsi.item_count(),
                });
            }
        }
        let billing = match desc.billing_mode_summary().and_then(|b| b.billing_mode()) {
            Some(mode) if mode.as_str() == "PAY_PER_REQUEST" => "PAY_PER_REQUEST".to_owned(),
            _ => match desc.provisioned_throughput() {
                Some(pt) => format!(
                    "PROVISIONED ({} RCU / {} WCU)",
                    pt.read_capacity_units().unwrap_or_default(),
                    pt.write_capacity_units().unwrap_or_default()
                ),
                None => "unknown".to_owned(),
            },
        };
        let charged = charged(desc);
        let stream = desc
            .stream_specification()
            .filter(|s| s.stream_enabled())
            .map(|s| {
                s.stream_view_type()
                    .map_or("enabled".to_owned(), |v| v.as_str().to_owned())
            });
        let stream_arn = stream
            .as_ref()
            .and(desc.latest_stream_arn())
            .map(str::to_owned);
        Some(Self {
            name: desc.table_name().unwrap_or_default().to_owned(),
            status: desc
                .table_status()
                .map_or("unknown".to_owned(), |s| s.as_str().to_owned()),
            partition,
            sort,
            indexes,
            item_count: desc.item_count(),
            size_bytes: desc.table_size_bytes(),
            billing,
            charged,
            stream,
            ttl: None,
            arn: desc.table_arn().map(str::to_owned),
            stream_arn,
        })
    }

    /// What this table's reads and writes cost on a connection reaching `aws_region` (see
    /// `Connection::aws_region`), priced as `picked` when the user picked a region.
    pub fn pricing(
        &self,
        book: &crate::cost::PriceBook,
        aws_region: Option<&str>,
        picked: Option<&str>,
    ) -> crate::cost::Pricing {
        crate::cost::Pricing::for_connection(book, aws_region, picked, self.charged)
    }

    /// The key attribute names of the table (partition, then sort).
    pub fn key_names(&self) -> Vec<String> {
        let mut names = vec![self.partition.name.clone()];
        if let Some(sort) = &self.sort {
            names.push(sort.name.clone());
        }
        names
    }

    /// The key of `item`: its partition and sort key attributes. An item without the whole key
    /// (a projection that left one out) cannot be addressed, and says so.
    pub fn key_of(&self, item: &Item) -> Result<Item> {
        self.key_names()
            .into_iter()
            .map(|name| match item.get(&name) {
                Some(v) => Ok((name, v.clone())),
                None => Err(Error::Invalid(format!(
                    "this item does not carry the table's key attribute `{name}`"
                ))),
            })
            .collect()
    }

    /// The table's keys: `PK (S) / SK (S)`.
    pub fn keys_text(&self) -> String {
        match &self.sort {
            Some(sort) => format!("{} / {}", key_text(&self.partition), key_text(sort)),
            None => key_text(&self.partition),
        }
    }

    /// The keys to query with: the table's, or those of index `index`.
    pub fn keys_of(&self, index: Option<&str>) -> Option<(&KeyAttr, Option<&KeyAttr>)> {
        match index {
            None => Some((&self.partition, self.sort.as_ref())),
            Some(name) => self
                .indexes
                .iter()
                .find(|i| i.name == name)
                .map(|i| (&i.partition, i.sort.as_ref())),
        }
    }

    /// Key columns for a grid over the table or an index: the index keys, then the table keys.
    pub fn grid_key_names(&self, index: Option<&str>) -> Vec<String> {
        let mut names = Vec::new();
        if let Some((p, s)) = self.keys_of(index) {
            names.push(p.name.clone());
            if let Some(s) = s {
                names.push(s.name.clone());
            }
        }
        for name in self.key_names() {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names
    }
}

fn keys(
    schema: &[KeySchemaElement],
    defs: &[AttributeDefinition],
) -> Option<(KeyAttr, Option<KeyAttr>)> {
    let attr = |key_type: KeyType| {
        schema
            .iter()
            .find(|k| *k.key_type() == key_type)
            .map(|k| KeyAttr {
                name: k.attribute_name().to_owned(),
                kind: defs
                    .iter()
                    .find(|d| d.attribute_name() == k.attribute_name())
                    .and_then(|d| ScalarType::from_key_letter(d.attribute_type().as_str()))
                    .unwrap_or(ScalarType::S),
            })
    };
    Some((attr(KeyType::Hash)?, attr(KeyType::Range)))
}

fn projection_text(projection: Option<&Projection>) -> String {
    let Some(projection) = projection else {
        return "unknown".to_owned();
    };
    let kind = projection
        .projection_type()
        .map_or("unknown", |p| p.as_str());
    let extra = projection.non_key_attributes();
    if extra.is_empty() {
        kind.to_owned()
    } else {
        format!("{kind} ({})", extra.join(", "))
    }
}

/// A key attribute as shown: `PK (S)`.
pub fn key_text(key: &KeyAttr) -> String {
    format!("{} ({})", key.name, key.kind)
}

impl IndexInfo {
    /// `GSI` or `LSI`.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            IndexKind::Global => "GSI",
            IndexKind::Local => "LSI",
        }
    }

    /// The index's keys: `GSI1PK (S) / GSI1SK (S)`.
    pub fn keys_text(&self) -> String {
        match &self.sort {
            Some(sort) => format!("{} / {}", key_text(&self.partition), key_text(sort)),
            None => key_text(&self.partition),
        }
    }
}

impl TableInfo {
    /// The description as named facts, in the order the describe panel and `dynoscope
    /// describe` show them.
    pub fn facts(&self) -> Vec<(&'static str, String)> {
        let unknown = || "unknown".to_owned();
        vec![
            ("Status", self.status.clone()),
            ("Partition key", key_text(&self.partition)),
            (
                "Sort key",
                self.sort.as_ref().map_or("none".to_owned(), key_text),
            ),
            (
                "Items",
                self.item_count.map_or_else(unknown, |c| c.to_string()),
            ),
            ("Size", self.size_bytes.map_or_else(unknown, human_bytes)),
            ("Billing", self.billing.clone()),
            (
                "Stream",
                self.stream.clone().unwrap_or_else(|| "off".to_owned()),
            ),
            ("TTL", self.ttl.clone().unwrap_or_else(unknown)),
        ]
    }
}

/// Bytes in a human unit: `1.4 MB`.
pub fn human_bytes(bytes: i64) -> String {
    const UNITS: [&str; 5] = ["B", "kB", "MB", "GB", "TB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// How a described table is billed: on demand unless it is provisioned, Standard unless its
/// class is Standard-IA.
fn charged(desc: &TableDescription) -> crate::cost::Billing {
    use crate::cost::{Billing, Class, Mode};
    let on_demand = desc
        .billing_mode_summary()
        .and_then(|b| b.billing_mode())
        .is_some_and(|m| m.as_str() == "PAY_PER_REQUEST");
    let mode = match desc.provisioned_throughput() {
        Some(pt) if !on_demand && pt.read_capacity_units().unwrap_or_default() > 0 => {
            Mode::Provisioned {
                read: pt.read_capacity_units().unwrap_or_default(),
                write: pt.write_capacity_units().unwrap_or_default(),
            }
        }
        _ => Mode::OnDemand,
    };
    let class = match desc.table_class_summary().and_then(|c| c.table_class()) {
        Some(c) if c.as_str() == "STANDARD_INFREQUENT_ACCESS" => Class::StandardIa,
        _ => Class::Standard,
    };
    Billing { mode, class }
}
