//! An update expression as the fields of dynamodb-toolbox's `.item({ … })`: a value set as it
//! is, `ADD` as `$add`, `SET x = x + :d` as `$sum($get("x"), d)`, `if_not_exists` as
//! `$get("x", default)`, `REMOVE` as `$remove()`, a set's `DELETE` as `$delete`.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::Result;
use crate::expr::ast::{SetOperand, SetValue, Update};
use crate::expr::codegen::toolbox::words::{Kind, Schema, key, path_text, refused, root, value};

/// `list_append` is refused: dynamodb-toolbox's `$append` writes
/// `list_append(if_not_exists(x, []), …)`, which also appends to a missing list.
fn no_append() -> crate::error::Error {
    refused(
        "list_append: dynamodb-toolbox's $append writes list_append(if_not_exists(x, []), …), \
         which also appends to a missing list where list_append fails",
    )
}

/// A plain SET operand: a value, another attribute (`$get`), or `if_not_exists` of one.
fn operand(operand: &SetOperand, kind: Kind, schema: &mut Schema) -> Result<(String, Kind)> {
    match operand {
        // A list or a map is set whole (`$set`): given bare, dynamodb-toolbox would merge it
        // into the one stored, element by element.
        SetOperand::Value(v) if matches!(v.value, AttributeValue::L(_) | AttributeValue::M(_)) => {
            schema.uses.insert("$set");
            Ok((format!("$set({})", value(&v.value)?), Kind::Any))
        }
        SetOperand::Value(v) => Ok((value(&v.value)?, Kind::of(&v.value))),
        SetOperand::Path(p) => {
            schema.note(root(p)?, kind)?;
            schema.uses.insert("$get");
            Ok((format!("$get({})", path_text(p)?), kind))
        }
        SetOperand::IfNotExists(p, fallback) => {
            let SetOperand::Value(v) = &**fallback else {
                return Err(refused("if_not_exists whose default is not a value"));
            };
            let kind = match kind {
                Kind::Any => Kind::of(&v.value),
                known => known,
            };
            schema.note(root(p)?, kind)?;
            schema.uses.insert("$get");
            let default = value(&v.value)?;
            Ok((format!("$get({}, {default})", path_text(p)?), kind))
        }
        SetOperand::ListAppend(..) => Err(no_append()),
    }
}

/// `a + b` or `a - b`, each side a number, an attribute or `if_not_exists`.
fn arithmetic(
    helper: &'static str,
    a: &SetOperand,
    b: &SetOperand,
    schema: &mut Schema,
) -> Result<String> {
    let (a, _) = operand(a, Kind::Number, schema)?;
    let (b, _) = operand(b, Kind::Number, schema)?;
    schema.uses.insert(helper);
    Ok(format!("{helper}({a}, {b})"))
}

/// The update's actions as `"name": expression` fields, each attribute's kind noted.
pub(super) fn fields(update: &Update, schema: &mut Schema) -> Result<Vec<String>> {
    let mut fields = Vec::new();
    for (p, set) in &update.set {
        let name = root(p)?;
        let (text, kind) = match set {
            SetValue::Operand(o) => operand(o, Kind::Any, schema)?,
            SetValue::Plus(a, b) => (arithmetic("$sum", a, b, schema)?, Kind::Number),
            SetValue::Minus(a, b) => (arithmetic("$subtract", a, b, schema)?, Kind::Number),
        };
        schema.note(name, kind)?;
        fields.push(format!("{}: {text}", key(name)?));
    }
    for p in &update.remove {
        let name = root(p)?;
        schema.note(name, Kind::Any)?;
        schema.uses.insert("$remove");
        fields.push(format!("{}: $remove()", key(name)?));
    }
    for (helper, actions) in [("$add", &update.add), ("$delete", &update.delete)] {
        for (p, v) in actions {
            let name = root(p)?;
            schema.note(name, Kind::of(&v.value))?;
            schema.uses.insert(helper);
            fields.push(format!("{}: {helper}({})", key(name)?, value(&v.value)?));
        }
    }
    Ok(fields)
}
