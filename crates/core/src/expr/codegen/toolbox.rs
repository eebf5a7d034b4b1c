//! A request as dynamodb-toolbox v2 code: a `Table` with the key the request names, an
//! `Entity` whose schema holds exactly the attributes the request touches (no entity
//! attribute, no timestamps, so nothing is written that the request does not write), and the
//! command built from the parsed expressions — an `ADD` stays an `ADD` (`$add`), never the
//! `SET x = x + :d` that fails on an item without `x`. What it cannot say is refused in words:
//! a nested path, a name its path reader misreads, a decimal a JavaScript number would round,
//! `list_append`, a scan or an index query (their table's own key is not in the request).

mod query;
mod transaction;
mod update;
pub(super) mod words;

use std::collections::BTreeSet;

use crate::error::Result;
use crate::expr::codegen::{ClientSetup, Operation, Request, ReturnValues};
use crate::expr::parser::{Maps, parse_condition, parse_update};
use crate::value::Item;

use words::{Kind, Schema, checked_key, condition, key, refused, string, value};

/// dynamodb-toolbox code for one request: what comes before the call, and the call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Toolbox {
    /// The names imported from `dynamodb-toolbox`.
    names: Vec<&'static str>,
    /// The client, table and entity definitions.
    body: String,
    /// The command, from `entity` or `table` to `.send()`, without `await`.
    pub(crate) call: String,
}

impl Toolbox {
    /// The imports (`extra` names from `dynamodb-toolbox` first) and the definitions.
    pub(crate) fn head(&self, extra: &[&'static str]) -> String {
        let names: Vec<&str> = extra.iter().chain(&self.names).copied().collect();
        format!(
            "{SDK_IMPORTS}import {{ {} }} from \"dynamodb-toolbox\";\n{}",
            names.join(", "),
            self.body
        )
    }
}

/// How the DocumentClient reads numbers back: exact, whatever their size.
const EXACT: &str = "\
// Numbers as the server holds them: a JavaScript number where one is exact, a BigInt past
// 2^53, a NumberValue (its text) otherwise — which an entity's number attribute refuses to
// show: such a value (a decimal of more than 15 digits) is written, then not shown.
const exact = (text) =>
  String(Number(text)) === text ? Number(text) : /^-?\\d+$/.test(text) ? BigInt(text) : NumberValue.from(text);
";

/// The key's names, the partition key first: a name ending in `sk` or saying sort or range is
/// the sort key; otherwise the names in order, and said so (the same request is sent either
/// way: a key is a map of both).
fn key_order(key: &Item) -> (Vec<String>, bool) {
    let mut names: Vec<String> = key.keys().cloned().collect();
    names.sort();
    let sortish = |n: &String| {
        let n = n.to_lowercase();
        n.ends_with("sk") || n.contains("sort") || n.contains("range")
    };
    match names.as_slice() {
        [a, b] if sortish(a) && !sortish(b) => (vec![b.clone(), a.clone()], false),
        [a, b] if sortish(b) && !sortish(a) => (names, false),
        [_, _] => (names, true),
        _ => (names, false),
    }
}

/// `new Table({ … })` with its partition key and, when there is one, its sort key.
fn table(name: &str, keys: &[(String, Kind)], guessed: bool) -> Result<String> {
    let mut lines = Vec::new();
    if guessed {
        lines.push(
            "// Which key is the partition key is not in the request: a table with them the \
             other way round\n// declares them so, and the request sent is the same."
                .to_owned(),
        );
    }
    lines.push(format!(
        "const table = new Table({{\n  name: {},",
        string(name)
    ));
    for ((name, kind), role) in keys.iter().zip(["partitionKey", "sortKey"]) {
        let kind = kind.key_type()?;
        lines.push(format!(
            "  {role}: {{ name: {}, type: \"{kind}\" }},",
            string(name)
        ));
    }
    lines.push("  documentClient,\n});".to_owned());
    Ok(lines.join("\n"))
}

/// `new Entity({ … })` whose schema is the key and the attributes the request touches.
fn entity(keys: &[(String, Kind)], schema: &Schema) -> Result<String> {
    let mut fields = Vec::new();
    for (name, kind) in keys {
        fields.push(format!("    {}: {}.key(),", key(name)?, kind.schema()));
    }
    for (name, kind) in &schema.attributes {
        if !keys.iter().any(|(k, _)| k == name) {
            fields.push(format!("    {}: {}.optional(),", key(name)?, kind.schema()));
        }
    }
    Ok(format!(
        "// Only what the request writes is written: no entity attribute, no timestamps.\nconst entity = new Entity({{\n  name: \"Item\",\n  table,\n  entityAttribute: false,\n  timestamps: false,\n  schema: item({{\n{}\n  }}),\n}});",
        fields.join("\n")
    ))
}

/// The names imported from `dynamodb-toolbox`: classes, helpers, then, for an entity, the
/// schema builders its attributes use.
fn imports(
    classes: &[&'static str],
    keys: &[(String, Kind)],
    schema: &Schema,
) -> Vec<&'static str> {
    let mut builders: BTreeSet<&str> = BTreeSet::new();
    if classes.contains(&"Entity") {
        builders.insert("item");
        let others = (schema.attributes.iter())
            .filter(|(name, _)| !keys.iter().any(|(k, _)| k == *name))
            .map(|(_, kind)| kind);
        let kinds = keys.iter().map(|(_, k)| k).chain(others);
        for kind in kinds {
            builders.extend(
                kind.schema()
                    .split(['(', ')', '.'])
                    .filter(|w| !w.is_empty() && !matches!(*w, "big" | "key" | "optional")),
            );
        }
    }
    (classes.iter().copied())
        .chain(schema.uses.iter().copied())
        .chain(builders)
        .collect()
}

/// `.options({ … })` of the fields given, or nothing.
fn options(fields: &[String]) -> String {
    if fields.is_empty() {
        String::new()
    } else {
        format!("\n  .options({{ {} }})", fields.join(", "))
    }
}

/// The client, its DocumentClient reading numbers exactly, and the table.
fn client(setup: &ClientSetup, once: bool, table_text: &str) -> String {
    let extra: &[&str] = if once { &["maxAttempts: 1"] } else { &[] };
    let (config, profile_import) = setup.js_config_with(extra);
    format!(
        "{}\n{EXACT}const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({config}), {{\n  unmarshallOptions: {{ wrapNumbers: exact }},\n}});\n{table_text}\n",
        profile_import.unwrap_or_default()
    )
}

/// The SDK's imports every toolbox program starts with.
const SDK_IMPORTS: &str = "import { DynamoDBClient } from \"@aws-sdk/client-dynamodb\";\nimport { DynamoDBDocumentClient, NumberValue } from \"@aws-sdk/lib-dynamodb\";\n";

/// One write as dynamodb-toolbox builds it: `Update`, `Put` or `Delete`, the fields of its
/// item (or key), and its condition.
struct Write {
    verb: &'static str,
    fields: Vec<String>,
    condition: Option<String>,
}

impl Write {
    /// `entity.build(…)` of `class` with its item (or key) and `options`, lines indented.
    fn built(&self, class: &str, options: &[String]) -> String {
        let method = if self.verb == "Delete" { "key" } else { "item" };
        format!(
            "entity\n  .build({class})\n  .{method}({{ {} }}){}",
            self.fields.join(", "),
            self::options(options)
        )
    }
}

impl Request {
    /// The request as dynamodb-toolbox v2 code, connecting as `setup` says (`once`: the SDK's
    /// own retries off); refused in words where dynamodb-toolbox cannot say it.
    pub(crate) fn toolbox(&self, setup: &ClientSetup, once: bool) -> Result<Toolbox> {
        let key = match &self.operation {
            Operation::Query(None) => return self.toolbox_query(setup, once, false),
            Operation::Query(Some(_)) => {
                return Err(refused(
                    "a query of an index: dynamodb-toolbox declares an index beside the \
                     table's own key, which the request does not name",
                ));
            }
            Operation::Scan(_) => {
                return Err(refused(
                    "a scan: dynamodb-toolbox declares a table by its partition key, which a \
                     scan does not name",
                ));
            }
            Operation::Put(_) => {
                return Err(refused(
                    "a put: which of its attributes are the table's key is not in the request, \
                     and dynamodb-toolbox declares them",
                ));
            }
            Operation::Update(key) | Operation::Delete(key) => key,
        };
        let (names, guessed) = key_order(key);
        let keys = key_kinds(key, &names)?;
        let mut schema = Schema::default();
        let write = self.toolbox_write(&names, &mut schema)?;
        let mut options: Vec<String> = write.condition.iter().cloned().collect();
        options.extend(self.toolbox_returns()?);
        let class = if write.verb == "Delete" {
            "DeleteItemCommand"
        } else {
            "UpdateItemCommand"
        };
        let call = format!("{}\n  .send()", write.built(class, &options));
        let body = format!(
            "{}{}\n",
            client(setup, once, &table(&self.table, &keys, guessed)?),
            entity(&keys, &schema)?
        );
        let names = imports(&["Entity", "Table", class], &keys, &schema);
        Ok(Toolbox { names, body, call })
    }

    /// A query as [`toolbox`](Self::toolbox) writes it, its options beginning with
    /// `exclusiveStartKey` (a variable its paging loop keeps); what it cannot read, refused.
    pub(crate) fn toolbox_paged(&self, setup: &ClientSetup) -> Result<Toolbox> {
        match &self.operation {
            Operation::Query(None) => self.toolbox_query(setup, false, true),
            _ => self.toolbox(setup, false),
        }
    }

    /// The write's fields (the key's `keys`, or a put's whole item) and its condition, every
    /// attribute it touches noted in `schema`.
    fn toolbox_write(&self, keys: &[String], schema: &mut Schema) -> Result<Write> {
        let maps = Maps::strict(&self.names, &self.values);
        let (verb, item) = match &self.operation {
            Operation::Update(key) => ("Update", key),
            Operation::Delete(key) => ("Delete", key),
            Operation::Put(item) => ("Put", item),
            Operation::Query(_) | Operation::Scan(_) => return Err(refused("a read in a write")),
        };
        let mut names: Vec<&String> = item.keys().collect();
        names.sort();
        if verb != "Put" {
            names.retain(|n| keys.contains(n));
        }
        if let Some(missing) = keys.iter().find(|k| !item.contains_key(*k)) {
            return Err(refused(&format!(
                "the write names no {missing:?}, a key attribute"
            )));
        }
        let mut fields = Vec::new();
        for name in names {
            if !keys.contains(name) {
                schema.note(checked_key(name)?, Kind::of(&item[name]))?;
            }
            fields.push(format!("{}: {}", key(name)?, value(&item[name])?));
        }
        if let Some(text) = &self.update {
            let update = parse_update(text, maps, &[]).map_err(|e| refused(&e.to_string()))?;
            fields.extend(update::fields(&update, schema)?);
        }
        let condition = (self.condition.as_deref())
            .map(|text| parse_condition(text, maps).map_err(|e| refused(&e.to_string())))
            .transpose()?
            .map(|c| Ok::<_, crate::error::Error>(format!("condition: {}", condition(&c, schema)?)))
            .transpose()?;
        Ok(Write {
            verb,
            fields,
            condition,
        })
    }
}

/// The key attributes `names` with their kinds, from a key's values.
fn key_kinds(key: &Item, names: &[String]) -> Result<Vec<(String, Kind)>> {
    (names.iter())
        .map(|name| {
            let kind = Kind::of(&key[name]);
            kind.key_type()?;
            Ok((checked_key(name)?.to_owned(), kind))
        })
        .collect()
}

impl Request {
    /// What the request asks back, as dynamodb-toolbox's options.
    fn toolbox_returns(&self) -> Result<Vec<String>> {
        let mut fields = Vec::new();
        if let Some(values) = self.returns.values {
            if matches!(self.operation, Operation::Delete(_)) && values != ReturnValues::AllOld {
                return Err(refused(
                    "a delete returns the old item (ALL_OLD) or nothing",
                ));
            }
            fields.push(format!("returnValues: \"{}\"", values.as_str()));
        }
        if self.returns.old_item_on_condition_failure {
            fields.push("returnValuesOnConditionFalse: \"ALL_OLD\"".to_owned());
        }
        if self.returns.consumed_capacity {
            fields.push("capacity: \"TOTAL\"".to_owned());
        }
        Ok(fields)
    }

    /// The request as the dynamodb-toolbox target shows it; what it cannot say, in words.
    pub(super) fn toolbox_text(&self, setup: &ClientSetup) -> String {
        match self.toolbox(setup, false) {
            Ok(code) => format!(
                "{}\nconst response = await {};\n",
                code.head(&[]),
                code.call
            ),
            Err(error) => commented(&error.to_string()),
        }
    }
}

/// `text` as JavaScript line comments: every line of it, split wherever JavaScript ends a
/// line (a carriage return and U+2028/U+2029 too), so no user text runs as code.
fn commented(text: &str) -> String {
    let lines = text.split(['\n', '\r', '\u{2028}', '\u{2029}']);
    lines.flat_map(|line| ["// ", line, "\n"]).collect()
}
