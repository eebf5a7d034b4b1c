//! A request as ElectroDB 3 code: an `Entity` whose attributes are exactly those the request
//! touches, its primary index the table's key as the request names it (`casing: "none"`,
//! templates `${PK}`, so keys are written as they are), the update's actions as ElectroDB's
//! (`set`, `add`, `remove`, `delete`, and `subtract` for `if_not_exists(x, 0) - d`), the
//! condition as a `where` of its operations. ElectroDB writes its own two attributes beside
//! every write (`__edb_e__`, `__edb_v__`, its entity's name and version), and reads only items
//! carrying them unless told `ignoreOwnership`: the code says the first at its top and does
//! the second. What it cannot say is refused in words.

mod actions;
mod transaction;

use crate::error::{Error, Result};
use crate::expr::ast::{Path, Step};
use crate::expr::codegen::toolbox::words::{Kind, number, string};
use crate::expr::codegen::{ClientSetup, Operation, Request, ReturnValues};
use crate::expr::parser::{Maps, parse_condition, parse_update};
use crate::value::Item;

use aws_sdk_dynamodb::types::AttributeValue;

/// What ElectroDB cannot say, in words.
fn refused(what: &str) -> Error {
    Error::Invalid(format!("ElectroDB cannot say this request: {what}"))
}

/// What ElectroDB writes besides the request, said first in its code.
const WRITES_MORE: &str = "\
// ElectroDB also writes __edb_e__ = \"item\" and __edb_v__ = \"1\" (its entity's name and version)
// into every item it writes: the only attributes written that the request does not name.
";

/// ElectroDB code for one request: what comes before the call, and the call.
#[derive(Debug)]
pub(crate) struct Electro {
    /// The imports, the client and the entity.
    pub(crate) head: String,
    /// The call, from `entity` to `.go(…)`, without `await`.
    pub(crate) call: String,
}

/// Every attribute touched, with the kind its values give (the first kind kept; a second,
/// different one refused).
#[derive(Default)]
struct Attributes(Vec<(String, Kind)>);

impl Attributes {
    /// Refused when two names could share a placeholder: ElectroDB writes a name as its word
    /// characters only (`a-b` and `ab` are both `#ab`), and a value as that word and a count
    /// (`:a10`, or `:a_u0` in an update), in separate counts for the update and the condition.
    fn distinct(&self) -> Result<()> {
        let word = |name: &str| -> String {
            let w: String = name
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let numeric = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit());
            if w.is_empty() || (numeric(&w) && !numeric(name)) {
                format!("p{w}")
            } else {
                w
            }
        };
        let words: Vec<(String, &str)> =
            self.0.iter().map(|(n, _)| (word(n), n.as_str())).collect();
        for (a, name_a) in &words {
            for (b, name_b) in &words {
                let shared = name_a != name_b
                    && b.strip_prefix(a.as_str()).is_some_and(|rest| {
                        rest.is_empty()
                            || rest.replace("_u", "").chars().all(|c| c.is_ascii_digit())
                    });
                if shared {
                    return Err(refused(&format!(
                        "{name_a:?} and {name_b:?} could share a placeholder in ElectroDB's \
                         expressions (it keeps only a name's letters, digits and _)"
                    )));
                }
            }
        }
        Ok(())
    }

    fn note(&mut self, name: &str, kind: Kind) -> Result<()> {
        match self.0.iter_mut().find(|(n, _)| n == name) {
            None => self.0.push((name.to_owned(), kind)),
            Some((_, known)) if *known == Kind::Any => *known = kind,
            Some((_, known)) if kind == Kind::Any || *known == kind => {}
            Some(_) => return Err(refused(&format!("{name:?} is used as two types"))),
        }
        Ok(())
    }

    /// The attributes' definitions, `"name": { type: … }` each.
    fn definitions(&self) -> Vec<String> {
        (self.0.iter())
            .map(|(name, kind)| {
                let ty = match kind {
                    Kind::String => "type: \"string\"",
                    Kind::Number => "type: \"number\"",
                    Kind::Boolean => "type: \"boolean\"",
                    Kind::StringSet => "type: \"set\", items: \"string\"",
                    Kind::NumberSet => "type: \"set\", items: \"number\"",
                    _ => "type: \"any\"",
                };
                format!("      {}: {{ {ty} }},", string(name))
            })
            .collect()
    }
}

/// A top-level attribute's name: ElectroDB's own names and `__proto__` refused.
fn root(path: &Path) -> Result<&str> {
    let [Step::Name(name)] = path.0.as_slice() else {
        return Err(refused(&format!(
            "{} is a nested path: dynoscope writes ElectroDB code for top-level attributes",
            path.display()
        )));
    };
    attribute_name(name)
}

/// An attribute's name as ElectroDB takes it: not one of its own, and without `.`, `[` or `]`,
/// which it reads as a path (and fails on) wherever the name is used.
fn attribute_name(name: &str) -> Result<&str> {
    if matches!(name, "__proto__" | "__edb_e__" | "__edb_v__") {
        return Err(refused(&format!(
            "{name:?} is a name ElectroDB keeps for itself"
        )));
    }
    if name.contains(['.', '[', ']']) {
        return Err(refused(&format!(
            "the name {name:?} holds . [ or ], which ElectroDB reads as a path"
        )));
    }
    Ok(name)
}

/// A number as ElectroDB takes it: a JavaScript number, exact.
fn exact_number(text: &str) -> Result<String> {
    match number(text) {
        Ok(n) if !n.ends_with('n') => Ok(n),
        _ => Err(refused(&format!(
            "{text} is not exact as a JavaScript number, the only number ElectroDB takes"
        ))),
    }
}

/// A value as ElectroDB takes it (the DocumentClient's native values; a set as an array).
fn value(v: &AttributeValue) -> Result<String> {
    let list = |items: Result<Vec<String>>| items.map(|i| format!("[{}]", i.join(", ")));
    Ok(match v {
        AttributeValue::S(s) => string(s),
        AttributeValue::N(n) => exact_number(n)?,
        AttributeValue::Bool(b) => b.to_string(),
        AttributeValue::Null(_) => "null".to_owned(),
        AttributeValue::Ss(v) => list(Ok(v.iter().map(|s| string(s)).collect()))?,
        AttributeValue::Ns(v) => list(v.iter().map(|n| exact_number(n)).collect())?,
        AttributeValue::L(items) => list(items.iter().map(value).collect())?,
        AttributeValue::M(map) => {
            let mut names: Vec<&String> = map.keys().collect();
            names.sort();
            let fields: Result<Vec<String>> = (names.into_iter())
                .map(|name| {
                    if name == "__proto__" {
                        return Err(refused("a map key named __proto__"));
                    }
                    Ok(format!("{}: {}", string(name), value(&map[name])?))
                })
                .collect();
            format!("{{ {} }}", fields?.join(", "))
        }
        _ => {
            return Err(refused(
                "a binary value: ElectroDB has no binary attribute type",
            ));
        }
    })
}

/// The key's names, the partition key first (as dynamodb-toolbox's target orders them).
fn key_names(key: &Item) -> Vec<String> {
    let mut names: Vec<String> = key.keys().cloned().collect();
    names.sort();
    let sortish = |n: &str| {
        let n = n.to_lowercase();
        n.ends_with("sk") || n.contains("sort") || n.contains("range")
    };
    if names.len() == 2 && sortish(&names[0]) && !sortish(&names[1]) {
        names.swap(0, 1);
    }
    names
}

/// The primary index over `keys` (partition, then sort), each written as it is.
fn index(keys: &[String]) -> String {
    let part = |role: &str, name: &String| {
        format!(
            "        {role}: {{ field: {0}, composite: [{0}], casing: \"none\", template: {1} }},",
            string(name),
            string(&format!("${{{name}}}"))
        )
    };
    let mut lines = vec!["    indexes: {\n      primary: {".to_owned()];
    lines.extend(
        keys.iter()
            .zip(["pk", "sk"])
            .map(|(name, role)| part(role, name)),
    );
    lines.push("      },\n    },".to_owned());
    lines.join("\n")
}

/// A key attribute's name, as ElectroDB's templates read it (letters, digits, `_`).
fn key_name(name: &str) -> Result<&str> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(refused(&format!(
            "the key attribute {name:?} is not one ElectroDB's key templates read (letters, \
             digits, _)"
        )));
    }
    Ok(name)
}

/// The imports (ElectroDB's `also`, beside `Entity`) and the DocumentClient ElectroDB sends
/// through, numbers read exactly.
fn client(setup: &ClientSetup, once: bool, also: &str) -> String {
    let extra: &[&str] = if once { &["maxAttempts: 1"] } else { &[] };
    let (config, profile_import) = setup.js_config_with(extra);
    format!(
        "import {{ DynamoDBClient }} from \"@aws-sdk/client-dynamodb\";\nimport {{ DynamoDBDocumentClient }} from \"@aws-sdk/lib-dynamodb\";\nimport {{ Entity{also} }} from \"electrodb\";\n{}\n// Numbers as the server holds them: a JavaScript number where one is exact, its digits as a\n// string otherwise (ElectroDB reads a NumberValue into a plain object).\nconst exact = (text) => (String(Number(text)) === text ? Number(text) : text);\nconst documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({config}), {{\n  unmarshallOptions: {{ wrapNumbers: exact }},\n}});\n",
        profile_import.unwrap_or_default()
    )
}

/// `new Entity({ … })` over `table` with `attributes` and the primary index over `keys`.
fn entity(table: &str, attributes: &Attributes, keys: &[String]) -> String {
    format!(
        "const entity = new Entity(\n  {{\n    model: {{ entity: \"item\", version: \"1\", service: \"dynoscope\" }},\n    attributes: {{\n{}\n    }},\n{}\n  }},\n  {{ table: {}, client: documentClient }},\n);\n",
        attributes.definitions().join("\n"),
        index(keys),
        string(table)
    )
}

impl Request {
    /// The request as ElectroDB code, connecting as `setup` says (`once`: the SDK's own
    /// retries off); the key written as `key` when given (a name the code defines), as its
    /// object otherwise; the key's object. Refused in words where ElectroDB cannot say it.
    pub(crate) fn electro(
        &self,
        setup: &ClientSetup,
        once: bool,
        key: Option<&str>,
    ) -> Result<(Electro, String)> {
        let item = match &self.operation {
            Operation::Update(key) | Operation::Delete(key) => key,
            Operation::Put(_) => {
                return Err(refused(
                    "a put: which of its attributes are the table's key is not in the request",
                ));
            }
            Operation::Query(_) | Operation::Scan(_) => {
                return Err(refused(
                    "a read: ElectroDB reads only items that carry its own __edb_e__ and \
                     __edb_v__ unless told otherwise, and formats them by its entity's \
                     attributes; dynoscope writes ElectroDB code for writes",
                ));
            }
        };
        let keys = key_names(item);
        let mut attributes = Attributes::default();
        let (method, object, mut chain) = self.electro_write(&keys, &mut attributes)?;
        let response = match self.returns.values {
            Some(ReturnValues::UpdatedNew) => "{ response: \"updated_new\" }",
            Some(ReturnValues::AllNew) => "{ response: \"all_new\" }",
            Some(ReturnValues::AllOld) => "{ response: \"all_old\" }",
            None => "",
        };
        chain.push(format!(".go({response})"));
        attributes.distinct()?;
        let head = format!(
            "{WRITES_MORE}{}{}",
            client(setup, once, ""),
            entity(&self.table, &attributes, &keys)
        );
        let call = format!(
            "entity\n  .{method}({})\n  {}",
            key.unwrap_or(&object),
            chain.join("\n  ")
        );
        Ok((Electro { head, call }, object))
    }

    /// The write's method (`update`, `delete`, `put`), its key's (or a put's item's) object,
    /// and its chained calls (actions, `where`), every attribute noted in `attributes`.
    fn electro_write(
        &self,
        keys: &[String],
        attributes: &mut Attributes,
    ) -> Result<(&'static str, String, Vec<String>)> {
        let maps = Maps::strict(&self.names, &self.values);
        let (method, item) = match &self.operation {
            Operation::Update(key) => ("update", key),
            Operation::Delete(key) => ("delete", key),
            Operation::Put(item) => ("put", item),
            Operation::Query(_) | Operation::Scan(_) => return Err(refused("a read in a write")),
        };
        let mut names: Vec<&String> = item.keys().collect();
        names.sort_by_key(|n| (!keys.contains(n), *n));
        if method != "put" {
            names.retain(|n| keys.contains(n));
        }
        let mut fields = Vec::new();
        for name in names {
            let kind = Kind::of(&item[name]);
            if keys.contains(name) {
                if !matches!(kind, Kind::String | Kind::Number) {
                    return Err(refused("a key value is a string or a number in ElectroDB"));
                }
                key_name(name)?;
            } else {
                attribute_name(name)?;
            }
            attributes.note(name, kind)?;
            fields.push(format!("{}: {}", string(name), value(&item[name])?));
        }
        let mut chain = Vec::new();
        if let Some(text) = &self.update {
            let update = parse_update(text, maps, &[]).map_err(|e| refused(&e.to_string()))?;
            chain.extend(actions::calls(&update, attributes)?);
        }
        if let Some(text) = &self.condition {
            let c = parse_condition(text, maps).map_err(|e| refused(&e.to_string()))?;
            let text = actions::condition(&c, attributes)?;
            chain.push(format!(".where((attr, op) => `{text}`)"));
        }
        Ok((method, format!("{{ {} }}", fields.join(", ")), chain))
    }

    /// The request as the ElectroDB target shows it; what it cannot say, in words.
    pub(super) fn electro_text(&self, setup: &ClientSetup) -> String {
        match self.electro(setup, false, None) {
            Ok((code, _)) => format!("{}\nconst response = await {};\n", code.head, code.call),
            Err(error) => commented(&error.to_string()),
        }
    }
}

/// `text` as JavaScript line comments, split wherever JavaScript ends a line.
fn commented(text: &str) -> String {
    let lines = text.split(['\n', '\r', '\u{2028}', '\u{2029}']);
    lines.flat_map(|line| ["// ", line, "\n"]).collect()
}
