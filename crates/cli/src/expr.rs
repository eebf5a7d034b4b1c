//! `dynoscope expr`: readable expressions in, a request as code out, compiled by the builder's
//! own `compile` (so its checks, the key condition's included, are the app's).

use crate::exit::Exit;
use crate::output::Output;
use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::args::{ExprArgs, ExprKind};
use dynoscope_core::error::{Error, Result};
use dynoscope_core::expr::builder::{self, Field, Input, Kind, ValueRow};
use dynoscope_core::expr::codegen::{ClientSetup, Target};
use dynoscope_core::expr::error::ExprError;
use dynoscope_core::validate;
use dynoscope_core::value::{self, Item};

/// Which expression of the request an error is in, with a caret under its position; a long
/// expression is shown around the position only.
fn located(field: Field, text: &str, e: &ExprError) -> Error {
    const SHOWN: usize = 30;
    let chars: Vec<char> = text.chars().collect();
    let at = e.position.min(chars.len());
    let from = at.saturating_sub(SHOWN);
    let to = chars.len().min(at + SHOWN);
    let before = if from > 0 { "…" } else { "" };
    let after = if to < chars.len() { "…" } else { "" };
    let excerpt: String = chars[from..to].iter().collect();
    let column = before.chars().count() + (at - from);
    Error::Invalid(format!(
        "{}: {}\n  {before}{excerpt}{after}\n  {}^",
        field.name(),
        e.message,
        " ".repeat(column)
    ))
}

/// The builder's input the arguments describe.
fn input(args: &ExprArgs) -> Result<Input> {
    let (kind, main) = match args.kind {
        ExprKind::Update => (Kind::Update, Field::Update),
        ExprKind::Delete => (Kind::Delete, Field::Condition),
        ExprKind::Query => (Kind::Query, Field::KeyCondition),
        ExprKind::Scan => (Kind::Scan, Field::Filter),
    };
    let mut input = Input::new(&args.table);
    input.kind = kind;
    input.index.clone_from(&args.index);
    input.texts.insert(main, args.expression.clone());
    for (flag, field, text) in [
        ("--condition", Field::Condition, &args.condition),
        ("--filter", Field::Filter, &args.filter),
        ("--projection", Field::Projection, &args.projection),
    ] {
        let Some(text) = text else { continue };
        if !kind.fields().contains(&field) || field == main {
            return Err(Error::Invalid(format!(
                "{flag} does not go with {}",
                kind.label()
            )));
        }
        input.texts.insert(field, text.clone());
    }
    if let Some(text) = &args.names {
        let json = value::strict::parse(text)
            .map_err(|e| Error::Invalid(format!("--names: {}", value::strict::error_text(&e))))?;
        let names: HashMap<String, String> =
            serde_json::from_value(json).map_err(|e| Error::Invalid(format!("--names: {e}")))?;
        input.names = names.into_iter().collect();
        input.names.sort();
    }
    if let Some(text) = &args.values {
        let values = value::item_from_dynamodb_json(text).map_err(|e| e.at("--values"))?;
        // What DynamoDB would refuse (an empty set, an element twice) is said of the value, not
        // of the expression that uses it.
        validate::check_values(&values).map_err(|e| e.at("--values"))?;
        input.values = values.iter().map(|(k, v)| ValueRow::new(k, v)).collect();
    }
    let mut key = Item::new();
    for pair in &args.keys {
        let (name, text) = pair
            .split_once('=')
            .ok_or_else(|| Error::Invalid(format!("--key `{pair}` is not NAME=VALUE")))?;
        if key
            .insert(name.to_owned(), AttributeValue::S(text.to_owned()))
            .is_some()
        {
            return Err(Error::Invalid(format!(
                "--key: `{name}` is given twice; give each key attribute once"
            )));
        }
    }
    // Without --key the request is a template with an empty key to fill in.
    input.item = Some(key);
    Ok(input)
}

/// Build and print the request, with notes on how it was written on stderr. Everything that can
/// go wrong here is bad input, refused before anything is sent (exit 2, said by `run`).
pub(crate) fn expr(args: &ExprArgs, out: &mut Output) -> Result<Exit> {
    let (text, notes) = build(args)?;
    // Code ends its own last line; a JSON body does not.
    if text.ends_with('\n') {
        out.text(text);
    } else {
        out.line(text);
    }
    out.flush();
    // The request printed is all it does: unread, it failed.
    out.failure().map_or(Ok(()), Err)?;
    for note in notes {
        out.note(format_args!("note: {note}"));
    }
    Ok(Exit::Done)
}

/// The request the arguments describe, as code, and the notes on how it was written.
fn build(args: &ExprArgs) -> Result<(String, Vec<String>)> {
    let target = Target::from_name(&args.target)
        .ok_or_else(|| Error::Invalid(format!("--as {}: use {}", args.target, Target::NAMES)))?;
    let input = input(args)?;
    let key_names: Vec<String> = input
        .item
        .as_ref()
        .map(|key| key.keys().cloned().collect())
        .unwrap_or_default();
    // No table is described here: the key condition's shape is checked, not its names.
    let compiled = builder::compile(&input, &key_names, None);
    if let Some((field, error)) = compiled.errors.first() {
        return Err(located(*field, input.text(*field), error));
    }
    let request = compiled
        .request
        .ok_or_else(|| Error::Invalid(compiled.problems.join("; ")))?;
    let setup = ClientSetup {
        endpoint_url: args.endpoint_url.clone(),
        region: args.region.clone(),
        profile: args.profile.clone(),
    };
    // What PartiQL or dynamodb-toolbox cannot say is refused, not printed as a comment.
    request.sayable_in(target)?;
    if !args.program {
        return Ok((request.render(target, &setup), compiled.notes));
    }
    let program = request.program(target, &setup)?;
    let mut notes = compiled.notes;
    notes.push(program.how_to_run());
    Ok((program.code, notes))
}
