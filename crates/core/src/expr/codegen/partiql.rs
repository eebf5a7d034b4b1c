//! A request as one PartiQL statement: the same names (written as quoted identifiers) and the
//! same values (each a `?` parameter, in order), so that `ExecuteStatement` does what the
//! request does. What PartiQL cannot say is refused in words rather than written as something
//! else: an `ADD` (its `SET x = x + ?` fails on an item without `x`, the very trap an `ADD`
//! avoids), `if_not_exists`, and a put that may replace an item (`INSERT` refuses an existing
//! one: it stands for a put under `attribute_not_exists` of the key only).

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::{Error, Result};
use crate::expr::ast::{Condition, Operand, Path, SetOperand, SetValue, Step, Update};
use crate::expr::codegen::{Operation, Request, ReturnValues, Transaction};
use crate::expr::parser::{Maps, parse_condition, parse_projection, parse_update};
use crate::expr::reserved::is_reserved;
use crate::statement::Statement;
use crate::terminal::steers;
use crate::value::{Item, Layout, Style, json};

/// A statement being written: its text's parameters, in order.
struct Written {
    params: Vec<AttributeValue>,
}

/// `name` as a PartiQL quoted identifier (`"` doubled).
fn identifier(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// PartiQL's own keywords that DynamoDB's list of reserved words does not hold: quoted too.
const PARTIQL_WORDS: [&str; 10] = [
    "BAG", "EXCLUDE", "LET", "MODIFIED", "NOTHING", "NULLS", "PIVOT", "SEXP", "UNPIVOT", "UPSERT",
];

/// An attribute name in a path: bare where PartiQL reads it as a name (letters, digits and
/// `_`, not a reserved word), quoted otherwise — some engines take a quoted name only where a
/// name is written to, not inside arithmetic.
fn name(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain && !is_reserved(name) && !PARTIQL_WORDS.contains(&name.to_uppercase().as_str()) {
        name.to_owned()
    } else {
        identifier(name)
    }
}

fn path(p: &Path) -> String {
    let mut out = String::new();
    for (i, step) in p.0.iter().enumerate() {
        match step {
            Step::Name(n) if i == 0 => out.push_str(&name(n)),
            Step::Name(n) => {
                out.push('.');
                out.push_str(&name(n));
            }
            Step::Index(k) => out.push_str(&format!("[{k}]")),
        }
    }
    out
}

fn refused(what: &str) -> Error {
    Error::Invalid(format!("PartiQL cannot say this request: {what}"))
}

impl Written {
    fn value(&mut self, value: &AttributeValue) -> String {
        self.params.push(value.clone());
        "?".to_owned()
    }

    fn operand(&mut self, operand: &Operand) -> String {
        match operand {
            Operand::Path(p) => path(p),
            Operand::Value(v) => self.value(&v.value),
            Operand::Size(p) => format!("size({})", path(p)),
        }
    }

    fn condition(&mut self, condition: &Condition) -> String {
        match condition {
            Condition::Compare(a, op, b) => {
                let a = self.operand(a);
                format!("{a} {} {}", op.symbol(), self.operand(b))
            }
            Condition::Between(a, low, high) => {
                let a = self.operand(a);
                let low = self.operand(low);
                format!("{a} BETWEEN {low} AND {}", self.operand(high))
            }
            Condition::In(a, list) => {
                let a = self.operand(a);
                let list: Vec<String> = list.iter().map(|o| self.operand(o)).collect();
                format!("{a} IN [{}]", list.join(", "))
            }
            Condition::Exists(p) => format!("{} IS NOT MISSING", path(p)),
            Condition::NotExists(p) => format!("{} IS MISSING", path(p)),
            Condition::Type(p, t) => format!("attribute_type({}, {})", path(p), self.operand(t)),
            Condition::BeginsWith(p, v) => {
                format!("begins_with({}, {})", path(p), self.operand(v))
            }
            Condition::Contains(p, v) => format!("contains({}, {})", path(p), self.operand(v)),
            Condition::And(a, b) => {
                let a = self.condition(a);
                format!("({a}) AND ({})", self.condition(b))
            }
            Condition::Or(a, b) => {
                let a = self.condition(a);
                format!("({a}) OR ({})", self.condition(b))
            }
            Condition::Not(a) => format!("NOT ({})", self.condition(a)),
        }
    }

    fn set_operand(&mut self, operand: &SetOperand) -> Result<String> {
        Ok(match operand {
            SetOperand::Path(p) => path(p),
            SetOperand::Value(v) => self.value(&v.value),
            SetOperand::IfNotExists(..) => return Err(refused("PartiQL has no if_not_exists")),
            SetOperand::ListAppend(a, b) => {
                let a = self.set_operand(a)?;
                format!("list_append({a}, {})", self.set_operand(b)?)
            }
        })
    }

    /// The update's clauses: `SET p = v` each, `REMOVE p` each, a set's DELETE as `set_delete`.
    fn update(&mut self, update: &Update) -> Result<Vec<String>> {
        if let Some((p, _)) = update.add.first() {
            return Err(refused(&format!(
                "PartiQL has no ADD: its SET {0} = {0} + ? fails on an item without {0} \
                 (UpdateItem's ADD starts from 0)",
                path(p)
            )));
        }
        let mut clauses = Vec::new();
        for (p, value) in &update.set {
            let value = match value {
                SetValue::Operand(o) => self.set_operand(o)?,
                SetValue::Plus(a, b) => {
                    let a = self.set_operand(a)?;
                    format!("{a} + {}", self.set_operand(b)?)
                }
                SetValue::Minus(a, b) => {
                    let a = self.set_operand(a)?;
                    format!("{a} - {}", self.set_operand(b)?)
                }
            };
            clauses.push(format!("SET {} = {value}", path(p)));
        }
        for (p, v) in &update.delete {
            let target = path(p);
            clauses.push(format!(
                "SET {target} = set_delete({target}, {})",
                self.value(&v.value)
            ));
        }
        clauses.extend(update.remove.iter().map(|p| format!("REMOVE {}", path(p))));
        Ok(clauses)
    }

    /// `"PK" = ? AND "SK" = ?` of a key, in name order.
    fn key(&mut self, key: &Item) -> String {
        let mut names: Vec<&String> = key.keys().collect();
        names.sort();
        let parts: Vec<String> = (names.into_iter())
            .map(|name| format!("{} = {}", identifier(name), self.value(&key[name])))
            .collect();
        parts.join(" AND ")
    }
}

/// `RETURNING …` of what an update or a delete asks back.
fn returning(values: Option<ReturnValues>) -> &'static str {
    match values {
        Some(ReturnValues::UpdatedNew) => " RETURNING MODIFIED NEW *",
        Some(ReturnValues::AllNew) => " RETURNING ALL NEW *",
        Some(ReturnValues::AllOld) => " RETURNING ALL OLD *",
        None => "",
    }
}

/// Whether PartiQL can write `name` as an identifier: it has no escapes, so a name holding a
/// new line or a character that steers a terminal cannot be shown as what it is.
fn writable(name: &str) -> bool {
    !name.chars().any(|c| c == '\n' || c == '\t' || steers(c))
}

/// Whether `condition` asks, as a whole, that an attribute of `key` exist or not exist: the
/// first, an item that exists; the second, one that does not.
fn asks_key(condition: &Condition, key: &Item, exists: bool) -> bool {
    match condition {
        Condition::Exists(p) if exists => p.0.len() == 1 && key.contains_key(p.root()),
        Condition::NotExists(p) if !exists => p.0.len() == 1 && key.contains_key(p.root()),
        Condition::And(a, b) => asks_key(a, key, exists) || asks_key(b, key, exists),
        // `NOT attribute_exists(k)` asks what `attribute_not_exists(k)` asks, and the reverse.
        Condition::Not(inner) => match &**inner {
            Condition::Exists(p) => asks_key(&Condition::NotExists(p.clone()), key, exists),
            Condition::NotExists(p) => asks_key(&Condition::Exists(p.clone()), key, exists),
            _ => false,
        },
        _ => false,
    }
}

impl Request {
    /// The request as one PartiQL statement, its values `?` parameters in order; refused in
    /// words where PartiQL cannot say what the request does.
    pub fn partiql(&self) -> Result<Statement> {
        let key_names = self.operation.item().into_iter().flat_map(|k| k.keys());
        if let Some(name) = (self.names.values().chain(key_names)).find(|n| !writable(n)) {
            return Err(refused(&format!(
                "the name {name:?} holds a character PartiQL cannot write in an identifier"
            )));
        }
        let maps = Maps::strict(&self.names, &self.values);
        let read = |text: &Option<String>| -> Result<Option<Condition>> {
            (text.as_deref())
                .map(|t| parse_condition(t, maps).map_err(|e| Error::Invalid(e.to_string())))
                .transpose()
        };
        let mut w = Written { params: Vec::new() };
        let table = identifier(&self.table);
        let mut text = match &self.operation {
            Operation::Update(key) => {
                let update = parse_update(self.update.as_deref().unwrap_or_default(), maps, &[])
                    .map_err(|e| Error::Invalid(e.to_string()))?;
                let clauses = w.update(&update)?;
                format!("UPDATE {table} {} WHERE {}", clauses.join(" "), w.key(key))
            }
            Operation::Delete(key) => format!("DELETE FROM {table} WHERE {}", w.key(key)),
            Operation::Put(_) => {
                return Err(refused(
                    "a PutItem: PartiQL's INSERT refuses an existing item, which a put replaces",
                ));
            }
            Operation::Query(index) | Operation::Scan(index) => {
                return self.select(
                    &mut w,
                    index.as_deref(),
                    read(&self.key_condition)?,
                    read(&self.filter)?,
                );
            }
        };
        if let Some(condition) = read(&self.condition)? {
            if let Operation::Update(key) = &self.operation
                && asks_key(&condition, key, false)
            {
                return Err(refused(
                    "its condition asks that the item not exist, and PartiQL's UPDATE never \
                     creates an item (UpdateItem does)",
                ));
            }
            text.push_str(&format!(" AND ({})", w.condition(&condition)));
        }
        text.push_str(returning(self.returns.values));
        Ok(Statement {
            text,
            params: w.params,
        })
    }

    /// A query's or a scan's SELECT: the key condition (a query) and the filter in its WHERE.
    fn select(
        &self,
        w: &mut Written,
        index: Option<&str>,
        key: Option<Condition>,
        filter: Option<Condition>,
    ) -> Result<Statement> {
        let maps = Maps::strict(&self.names, &self.values);
        let projection = match &self.projection {
            Some(text) => parse_projection(text, maps)
                .map_err(|e| Error::Invalid(e.to_string()))?
                .iter()
                .map(path)
                .collect::<Vec<_>>()
                .join(", "),
            None => "*".to_owned(),
        };
        let from = match index {
            Some(index) => format!("{}.{}", identifier(&self.table), identifier(index)),
            None => identifier(&self.table),
        };
        let conditions: Vec<String> = [key, filter]
            .iter()
            .flatten()
            .map(|c| format!("({})", w.condition(c)))
            .collect();
        let mut text = format!("SELECT {projection} FROM {from}");
        if !conditions.is_empty() {
            text.push_str(&format!(" WHERE {}", conditions.join(" AND ")));
        }
        Ok(Statement {
            text,
            params: std::mem::take(&mut w.params),
        })
    }

    /// The statement as the PartiQL target shows it (see [`statement_text`]); a request
    /// PartiQL cannot say, in words.
    pub(super) fn partiql_text(&self) -> String {
        match self.partiql() {
            Ok(statement) => format!("{}{}", self.partiql_caveat(), statement_text(&statement)),
            Err(error) => commented(&error.to_string()),
        }
    }

    /// What an UPDATE does otherwise than UpdateItem, when its condition does not say the item
    /// exists: it leaves a missing item missing, where UpdateItem would create it.
    fn partiql_caveat(&self) -> &'static str {
        let Operation::Update(key) = &self.operation else {
            return "";
        };
        let maps = Maps::strict(&self.names, &self.values);
        let exists = (self.condition.as_deref())
            .and_then(|t| parse_condition(t, maps).ok())
            .is_some_and(|c| asks_key(&c, key, true));
        if exists {
            ""
        } else {
            "-- applies to an existing item only: PartiQL's UPDATE never creates one (UpdateItem does)\n"
        }
    }
}

/// A statement as the PartiQL target shows it: the statement, then its parameters in order as
/// comments (DynamoDB JSON), which `dynoscope partiql --param` and the PartiQL tab take.
pub(super) fn statement_text(statement: &Statement) -> String {
    let params: Vec<String> = (statement.params.iter())
        .enumerate()
        .map(|(i, v)| {
            let value = json::value_to_json(v, Style::Typed);
            format!("-- ? {}: {}", i + 1, json::text(&value, Layout::Compact))
        })
        .collect();
    let mut text = statement.text.clone();
    if !params.is_empty() {
        text.push_str("\n-- the ? parameters, in order (DynamoDB JSON):\n");
        text.push_str(&params.join("\n"));
    }
    text
}

impl Transaction {
    /// The transaction as the PartiQL target shows it: its statements for one
    /// `ExecuteTransaction`, or why PartiQL cannot say one of its writes.
    pub(super) fn partiql_text(&self) -> String {
        let statements: Result<Vec<Statement>> = self.writes.iter().map(Request::partiql).collect();
        match statements {
            Ok(statements) => {
                let texts: Vec<String> = statements.iter().map(statement_text).collect();
                format!(
                    "-- ExecuteTransaction of {} statements, all or none:\n{}",
                    texts.len(),
                    texts.join("\n")
                )
            }
            Err(error) => commented(&error.to_string()),
        }
    }
}

/// `text` as PartiQL comments, every line of it.
fn commented(text: &str) -> String {
    text.lines()
        .map(|line| format!("-- {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests;
