//! `dynoscope expr`: readable expressions in, a request as code out.

use std::collections::HashMap;
use std::process::ExitCode;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::cli::args::{ExprArgs, ExprKind};
use crate::core::condition::Placeholders;
use crate::core::error::{Error, Result};
use crate::core::expr::codegen::{Operation, Request, Target};
use crate::core::expr::parser::{ExprError, Maps, parse_condition, parse_projection, parse_update};
use crate::core::expr::printer;
use crate::core::value::{self, Item};

/// Which expression of the request an error is in, with a caret under its position.
fn located(field: &str, text: &str, e: ExprError) -> Error {
    let column = text.chars().take(e.position).count();
    Error::Invalid(format!(
        "{field}: {}\n  {text}\n  {}^",
        e.message,
        " ".repeat(column)
    ))
}

/// Build and print the request.
pub fn expr(args: ExprArgs) -> Result<ExitCode> {
    let target = Target::from_name(&args.target).ok_or_else(|| {
        Error::Invalid(format!(
            "--as {}: use json, cli, boto3, js, js-doc or rust",
            args.target
        ))
    })?;
    let names: HashMap<String, String> = match &args.names {
        Some(text) => {
            serde_json::from_str(text).map_err(|e| Error::Invalid(format!("--names: {e}")))?
        }
        None => HashMap::new(),
    };
    let values: HashMap<String, AttributeValue> = match &args.values {
        Some(text) => value::item_from_dynamodb_json(text)
            .map_err(|e| Error::Invalid(format!("--values: {e}")))?,
        None => HashMap::new(),
    };
    let maps = Maps {
        names: &names,
        values: &values,
        literals: true,
    };
    let mut key = Item::new();
    for pair in &args.keys {
        let (name, text) = pair
            .split_once('=')
            .ok_or_else(|| Error::Invalid(format!("--key `{pair}` is not NAME=VALUE")))?;
        key.insert(name.to_owned(), AttributeValue::S(text.to_owned()));
    }
    let key_names: Vec<String> = key.keys().cloned().collect();
    let mut p = Placeholders::default();
    let mut request = Request {
        table: args.table.clone(),
        operation: Operation::Scan(args.index.clone()),
        update: None,
        condition: None,
        key_condition: None,
        filter: None,
        projection: None,
        names: HashMap::new(),
        values: HashMap::new(),
        options: Vec::new(),
    };
    let condition = |p: &mut Placeholders, field: &str, text: &str| -> Result<String> {
        let tree = parse_condition(text, maps).map_err(|e| located(field, text, e))?;
        Ok(printer::condition_text(p, &tree))
    };
    match args.kind {
        ExprKind::Update => {
            let tree = parse_update(&args.expression, maps, &key_names)
                .map_err(|e| located("UpdateExpression", &args.expression, e))?;
            request.operation = Operation::Update(key);
            request.update = Some(printer::update_text(&mut p, &tree));
        }
        ExprKind::Delete => {
            request.operation = Operation::Delete(key);
            request.condition = Some(condition(&mut p, "ConditionExpression", &args.expression)?);
        }
        ExprKind::Query => {
            request.operation = Operation::Query(args.index.clone());
            request.key_condition = Some(condition(
                &mut p,
                "KeyConditionExpression",
                &args.expression,
            )?);
        }
        ExprKind::Scan => {
            request.filter = Some(condition(&mut p, "FilterExpression", &args.expression)?);
        }
    }
    if let Some(text) = &args.condition {
        request.condition = Some(condition(&mut p, "ConditionExpression", text)?);
    }
    if let Some(text) = &args.filter {
        request.filter = Some(condition(&mut p, "FilterExpression", text)?);
    }
    if let Some(text) = &args.projection {
        let paths =
            parse_projection(text, maps).map_err(|e| located("ProjectionExpression", text, e))?;
        let parts: Vec<String> = paths
            .iter()
            .map(|path| printer::projection_path(&mut p, path))
            .collect();
        request.projection = Some(parts.join(", "));
    }
    let expr = p.finish(String::new());
    request.names = expr.names;
    request.values = expr.values;
    println!("{}", request.render(target));
    Ok(ExitCode::SUCCESS)
}
