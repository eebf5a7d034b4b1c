//! The two plainest reads as reports: the tables of a connection, and one table's description
//! (the facts the app's describe panel shows), so the CLI, its every output and the MCP server
//! say the same words and the same JSON.

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

    fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or_default()
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

    fn to_json(&self) -> Value {
        let info = self.0;
        let key = |k: &KeyAttr| json!({"name": k.name, "type": k.kind.attr_type().tag()});
        // Each fact's name as a key, in the project's one casing: `Partition key` → `partition_key`.
        let facts: serde_json::Map<String, Value> = (info.facts().into_iter())
            .map(|(name, value)| (name.to_ascii_lowercase().replace(' ', "_"), json!(value)))
            .collect();
        json!({
            "table": info.name,
            "partition_key": key(&info.partition),
            "sort_key": info.sort.as_ref().map(key),
            "indexes": info.indexes.iter().map(|i| json!({
                "name": i.name, "kind": i.kind_name(), "keys": i.keys_text(), "projection": i.projection,
            })).collect::<Vec<_>>(),
            "facts": facts,
            "arn": info.arn,
        })
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
/// the document `{"table": …, NOUN: [ … ]}`.
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

impl Report for Listed {
    /// A line each (none for none: stdout holds only what there is).
    fn lines(&self) -> Vec<Line> {
        plain(Tone::Plain, self.lines.iter().cloned())
    }

    fn to_json(&self) -> Value {
        let mut document = json!({ "table": self.table });
        document[self.noun] = Value::Array(self.objects.clone());
        document
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
}
