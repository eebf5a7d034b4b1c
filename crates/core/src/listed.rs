//! The two plainest reads as reports: the tables of a connection, and one table's description
//! (the facts the app's describe panel shows), so the CLI, its every output and the MCP server
//! say the same words and the same JSON.

use std::borrow::Cow;
use std::collections::BTreeMap;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Serialize, Serializer};
use serde_json::{Value, json};

use crate::ending::Ending;
use crate::report::{Line, Listing, Report, Tone, plain};
use crate::table::{KeyAttr, TableInfo};

/// Every table a connection lists: a typed report, its document made by serde alone.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct TableNames {
    /// The tables' names, as ListTables gives them (every page).
    pub tables: Vec<String>,
}

impl Report for TableNames {
    fn lines(&self) -> Vec<Line> {
        plain(Tone::Plain, self.tables.iter().cloned())
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }

    fn listing(&self) -> Option<Listing> {
        let objects = (self.tables.iter())
            .map(|name| json!({ "table": name }))
            .collect();
        Some(Listing::of_objects(objects, &["table"], Vec::new()))
    }
}

/// One table described: its keys, indexes, item count, size, billing, stream and TTL.
#[derive(Debug, Clone)]
pub struct TableFacts<'a>(pub &'a TableInfo);

impl TableFacts<'_> {
    /// Each fact as a name and its words, in the order the describe panel shows them.
    fn facts(&self) -> Vec<(String, String)> {
        let info = self.0;
        let mut facts = vec![("Table".to_owned(), info.name.clone())];
        facts.extend(info.facts().into_iter().map(|(n, v)| (n.to_owned(), v)));
        facts.extend(info.indexes.iter().map(|index| {
            let words = format!(
                "{}: {} · projection {}",
                index.name,
                index.keys_text(),
                index.projection
            );
            (index.kind_name().to_owned(), words)
        }));
        facts.extend(info.arn.iter().map(|arn| ("ARN".to_owned(), arn.clone())));
        facts
    }

    /// The table described, as its document.
    fn document(&self) -> TableFactsDocument {
        let info = self.0;
        let key = |k: &KeyAttr| KeyDocument {
            name: k.name.clone(),
            kind: k.kind.attr_type().tag().to_owned(),
        };
        TableFactsDocument {
            table: info.name.clone(),
            partition_key: key(&info.partition),
            sort_key: info.sort.as_ref().map(key),
            indexes: (info.indexes.iter())
                .map(|i| IndexDocument {
                    name: i.name.clone(),
                    kind: i.kind_name().to_owned(),
                    keys: i.keys_text(),
                    projection: i.projection.clone(),
                })
                .collect(),
            facts: FactsDocument::of(info),
            arn: info.arn.clone(),
        }
    }
}

impl Serialize for TableFacts<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.document().serialize(serializer)
    }
}

impl JsonSchema for TableFacts<'_> {
    fn schema_name() -> Cow<'static, str> {
        TableFactsDocument::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        TableFactsDocument::schema_id()
    }

    fn inline_schema() -> bool {
        TableFactsDocument::inline_schema()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        TableFactsDocument::json_schema(generator)
    }
}

/// One table described: its keys, its indexes, its facts in words, and its ARN.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TableFactsDocument {
    /// The table's name.
    pub table: String,
    /// Its partition key.
    pub partition_key: KeyDocument,
    /// Its sort key; `null` when it has none.
    pub sort_key: Option<KeyDocument>,
    /// Its global and local secondary indexes.
    pub indexes: Vec<IndexDocument>,
    /// Each fact in words, as the describe panel shows it.
    pub facts: FactsDocument,
    /// The table's ARN; `null` when not described.
    pub arn: Option<String>,
}

/// A key attribute.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct KeyDocument {
    /// Its name.
    pub name: String,
    /// Its type: `S`, `N` or `B`.
    #[serde(rename = "type")]
    pub kind: String,
}

/// A secondary index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct IndexDocument {
    /// Its name.
    pub name: String,
    /// `GSI` (global) or `LSI` (local).
    pub kind: String,
    /// Its keys in words: `GSI1PK (S) / GSI1SK (S)`.
    pub keys: String,
    /// What it projects: `ALL`, `KEYS_ONLY` or `INCLUDE …`.
    pub projection: String,
}

/// A table's facts in words, as the describe panel shows them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FactsDocument {
    /// Its status, e.g. `ACTIVE`.
    pub status: String,
    /// Its partition key: `PK (S)`.
    pub partition_key: String,
    /// Its sort key: `SK (S)`, or `none`.
    pub sort_key: String,
    /// Its items, as last reported, or `unknown`.
    pub items: String,
    /// Its size in a human unit (`1.4 MB`), as last reported, or `unknown`.
    pub size: String,
    /// How it is billed: `PAY_PER_REQUEST` or `PROVISIONED (R rcu / W wcu)`.
    pub billing: String,
    /// Its stream's view type, or `off`.
    pub stream: String,
    /// Its TTL status and attribute, or `unknown`.
    pub ttl: String,
}

impl FactsDocument {
    /// The facts of `info`, each under its name in snake case (`Partition key` →
    /// `partition_key`).
    fn of(info: &TableInfo) -> Self {
        let mut facts = Self::default();
        for (name, value) in info.facts() {
            let field = match name {
                "Status" => &mut facts.status,
                "Partition key" => &mut facts.partition_key,
                "Sort key" => &mut facts.sort_key,
                "Items" => &mut facts.items,
                "Size" => &mut facts.size,
                "Billing" => &mut facts.billing,
                "Stream" => &mut facts.stream,
                "TTL" => &mut facts.ttl,
                _ => continue,
            };
            *field = value;
        }
        facts
    }
}

impl Report for TableFacts<'_> {
    fn lines(&self) -> Vec<Line> {
        let facts = self.facts();
        plain(
            Tone::Plain,
            facts
                .into_iter()
                .map(|(name, value)| format!("{name:<14} {value}")),
        )
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }

    /// A row per fact: `fact`, `value`.
    fn listing(&self) -> Option<Listing> {
        let objects = (self.facts().into_iter())
            .map(|(fact, value)| json!({ "fact": fact, "value": value }))
            .collect();
        Some(Listing::of_objects(objects, &["fact", "value"], Vec::new()))
    }
}

/// Things of one table as the server lists them (its backups, its exports): a line each, and
/// the document `{"table": …, NOUN: [ … ]}` ([`ListedDocument`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    /// The table.
    pub table: String,
    /// What they are, plural: `backups`, `exports`.
    pub noun: &'static str,
    /// Each one's line.
    pub lines: Vec<String>,
    /// Each one as its JSON object.
    pub objects: Vec<Value>,
    /// The keys a row shows, in order.
    pub columns: &'static [&'static str],
}

impl Listed {
    /// The list as its document: the objects under their noun.
    fn document(&self) -> ListedDocument {
        let objects = self.objects.clone();
        let things = match self.noun {
            "backups" => ListedThings::Backups { backups: objects },
            "exports" => ListedThings::Exports { exports: objects },
            noun => ListedThings::Other(BTreeMap::from([(noun.to_owned(), objects)])),
        };
        ListedDocument {
            table: self.table.clone(),
            things,
        }
    }
}

crate::document_as!(Listed => ListedDocument, document);

/// Things of one table as the server lists them, under their noun.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ListedDocument {
    /// The table.
    pub table: String,
    /// The things, under their noun (`backups`, `exports`).
    #[serde(flatten)]
    pub things: ListedThings,
}

/// The things listed, under their noun.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ListedThings {
    /// The table's on-demand backups.
    Backups {
        /// Each backup as the server lists it: `name`, `arn`, `table`, `status`, `created`,
        /// `size_bytes`, `type`.
        backups: Vec<Value>,
    },
    /// The table's exports.
    Exports {
        /// Each export as the server describes it: `arn`, `status`, `type`, `bucket`,
        /// `prefix`, `manifest`, `items`, `billed_bytes`, `started`, `ended`, `failure`.
        exports: Vec<Value>,
    },
    /// Things of another kind, under their plural noun (none is listed so yet: left out of the
    /// schema, which says the two there are).
    #[schemars(skip)]
    Other(BTreeMap<String, Vec<Value>>),
}

impl Report for Listed {
    /// A line each (none for none: stdout holds only what there is).
    fn lines(&self) -> Vec<Line> {
        plain(Tone::Plain, self.lines.iter().cloned())
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }

    fn listing(&self) -> Option<Listing> {
        let objects = self.objects.clone();
        Some(Listing::of_objects(objects, self.columns, Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;

    #[test]
    fn the_names_are_rows() {
        let names = TableNames {
            tables: vec!["Social".into(), "Videos".into()],
        };
        let listing = names.listing().unwrap();
        assert_eq!(listing.columns, ["table"]);
        assert_eq!(listing.rows, [["Social"], ["Videos"]]);
        assert_eq!(listing.objects[1], json!({"table": "Videos"}));
        assert_eq!(names.to_json(), json!({"tables": ["Social", "Videos"]}));
    }

    #[test]
    fn every_fact_is_a_key_of_its_own() {
        use crate::condition::ScalarType;
        let info = TableInfo::with_keys("Social", KeyAttr::new("PK", ScalarType::S), None);
        let document = TableFacts(&info).to_json();
        let facts = document["facts"].as_object().unwrap();
        let named: Vec<(String, Value)> = (info.facts().into_iter())
            .map(|(name, value)| (name.to_ascii_lowercase().replace(' ', "_"), json!(value)))
            .collect();
        let keyed: Vec<(String, Value)> = facts.clone().into_iter().collect();
        assert_eq!(keyed, named);
        assert_eq!(document["sort_key"], Value::Null);
        assert_eq!(
            document["partition_key"],
            json!({"name": "PK", "type": "S"})
        );
    }
}
