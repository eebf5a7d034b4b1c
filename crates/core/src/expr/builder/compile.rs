//! Compiling the builder's input into one request, or the errors of each field.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::condition::Placeholders;
use crate::expr::builder::{Field, Input, Kind};
use crate::expr::codegen::{Operation, Request, ReturnOptions, ReturnValues};
use crate::expr::error::ExprError;
use crate::expr::parser::{
    MAX_EXPRESSION_BYTES, Maps, QueryKeys, parse_condition, parse_key_condition, parse_projection,
    parse_update,
};
use crate::expr::{printer, reserved};
use crate::validate;

/// The compiled request, or what is wrong with the input.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    /// The request, when every field is valid.
    pub request: Option<Request>,
    /// Errors by field, with positions.
    pub errors: Vec<(Field, ExprError)>,
    /// Errors in the value rows, by placeholder, and other problems.
    pub problems: Vec<String>,
    /// What the request does differently from the text typed: each reserved word typed bare,
    /// and the placeholder it is sent as.
    pub notes: Vec<String>,
}

/// Compile `input`: parse each field (literals allowed), check the update against `key_names`
/// and a key condition against `query_keys` (the table's or the index's keys; the shape only,
/// when they are not known), and print everything with placeholders: every name aliased (one
/// placeholder per distinct name, reserved or not), every literal a value placeholder, and the
/// person's own placeholders kept as they wrote them.
pub fn compile(input: &Input, key_names: &[String], query_keys: Option<&QueryKeys>) -> Compiled {
    let mut problems = Vec::new();
    let names: HashMap<String, String> = input
        .names
        .iter()
        .filter(|(k, _)| !k.trim().is_empty())
        .map(|(k, v)| (k.trim().to_owned(), v.clone()))
        .collect();
    let values = typed_values(input, &mut problems);
    let maps = Maps {
        names: &names,
        values: &values,
        literals: true,
    };
    let mut p = Placeholders::keeping(&names, &values);
    let mut errors = Vec::new();
    let mut printed: HashMap<Field, String> = HashMap::new();
    for field in input.kind.fields() {
        let text = input.text(*field).trim();
        if text.is_empty() {
            if matches!(field, Field::Update | Field::KeyCondition) {
                problems.push(format!(
                    "{} is required for {}",
                    field.name(),
                    input.kind.label()
                ));
            }
            continue;
        }
        let result = print_field(*field, text, maps, key_names, query_keys, &mut p);
        match result.and_then(fits) {
            Ok(out) => {
                printed.insert(*field, out);
            }
            Err(e) => errors.push((*field, e)),
        }
    }
    item_problems(input, &mut problems);
    let notes = reserved_notes(&p);
    let expr = p.finish(String::new());
    let request = (errors.is_empty() && problems.is_empty()).then(|| {
        let item = input.item.clone().unwrap_or_default();
        Request {
            table: input.table.clone(),
            operation: match input.kind {
                Kind::Update => Operation::Update(item),
                Kind::Delete => Operation::Delete(item),
                Kind::Put => Operation::Put(item),
                Kind::Query => Operation::Query(input.index.clone()),
                Kind::Scan => Operation::Scan(input.index.clone()),
            },
            update: printed.remove(&Field::Update),
            condition: printed.remove(&Field::Condition),
            key_condition: printed.remove(&Field::KeyCondition),
            filter: printed.remove(&Field::Filter),
            projection: printed.remove(&Field::Projection),
            names: expr.names,
            values: expr.values,
            returns: returns(input.kind),
        }
    });
    Compiled {
        request,
        errors,
        problems,
        notes,
    }
}

/// The value rows by placeholder; a value that does not parse, or that DynamoDB would refuse,
/// is added to `problems`.
fn typed_values(input: &Input, problems: &mut Vec<String>) -> HashMap<String, AttributeValue> {
    let mut values = HashMap::new();
    for row in &input.values {
        let placeholder = row.placeholder.trim();
        if placeholder.is_empty() {
            continue;
        }
        // What DynamoDB would refuse of a value (an empty set, an element twice) is said here;
        // the placeholder still stands for it, so the expression using it is not blamed too.
        match row.value() {
            Ok(v) => {
                if let Err(e) = validate::check_value(placeholder, &v) {
                    problems.push(e.to_string());
                }
                values.insert(placeholder.to_owned(), v);
            }
            Err(e) => problems.push(format!("{placeholder}: {e}")),
        }
    }
    values
}

/// One field parsed and printed with placeholders (`p`): an update checked against `key_names`,
/// a key condition against `query_keys`.
fn print_field(
    field: Field,
    text: &str,
    maps: Maps<'_>,
    key_names: &[String],
    query_keys: Option<&QueryKeys>,
    p: &mut Placeholders,
) -> Result<String, ExprError> {
    match field {
        Field::Update => parse_update(text, maps, key_names).map(|u| printer::update_text(p, &u)),
        Field::Projection => parse_projection(text, maps).map(|paths| {
            paths
                .iter()
                .map(|x| printer::projection_path(p, x))
                .collect::<Vec<_>>()
                .join(", ")
        }),
        Field::KeyCondition => {
            parse_key_condition(text, maps, query_keys).map(|c| printer::condition_text(p, &c))
        }
        _ => parse_condition(text, maps).map(|c| printer::condition_text(p, &c)),
    }
}

/// What the request lacks besides its fields: an item where one is needed, a put item DynamoDB
/// would refuse, a table.
fn item_problems(input: &Input, problems: &mut Vec<String>) {
    let needs_item = matches!(input.kind, Kind::Update | Kind::Delete | Kind::Put);
    if needs_item && input.item.is_none() {
        problems.push(format!(
            "{} needs an item: type its key, or take the grid's cursor row",
            input.kind.label()
        ));
    }
    if input.kind == Kind::Put
        && let Some(item) = &input.item
        && let Err(e) = validate::check_values(item)
    {
        problems.push(e.to_string());
    }
    if input.table.trim().is_empty() {
        problems.push("no table".into());
    }
}

/// "`count` is a DynamoDB reserved word: sent as #n0", for each reserved word typed bare (a
/// name the person gave a placeholder of their own needs no note).
fn reserved_notes(p: &Placeholders) -> Vec<String> {
    let mut made: Vec<(&String, &String)> = p
        .names()
        .filter(|(placeholder, name)| !p.is_own(placeholder) && reserved::is_reserved(name))
        .collect();
    // `#n2` before `#n10`: in the order they were made.
    made.sort_by_key(|(placeholder, _)| (placeholder.len(), placeholder.to_owned()));
    made.into_iter()
        .map(|(placeholder, name)| {
            format!("`{name}` is a DynamoDB reserved word: sent as {placeholder}")
        })
        .collect()
}

/// The text typed may hold literals; what DynamoDB gets, with placeholders, must fit its 4 KB
/// too. No single token of the input is to blame, so the error is at the start.
fn fits(printed: String) -> Result<String, ExprError> {
    if printed.len() > MAX_EXPRESSION_BYTES {
        return Err(ExprError {
            message: format!(
                "written with placeholders, this expression is {} bytes; DynamoDB takes at most {MAX_EXPRESSION_BYTES} (4 KB)",
                printed.len()
            ),
            position: 0,
        });
    }
    Ok(printed)
}

/// What a built request asks back, so that the request copied is the request Run sends: the
/// capacity consumed, the item as updated (which refreshes its row) or as deleted.
fn returns(kind: Kind) -> ReturnOptions {
    let values = match kind {
        Kind::Update => Some(ReturnValues::AllNew),
        Kind::Delete => Some(ReturnValues::AllOld),
        Kind::Put | Kind::Query | Kind::Scan => None,
    };
    ReturnOptions {
        values,
        consumed_capacity: true,
        old_item_on_condition_failure: false,
    }
}
