//! An update's actions as ElectroDB's chained calls, and a condition as a `where` callback's
//! template: every value inside an operation's call (`${op.eq(attr["n"], 5)}`), so the
//! template's own text is only `AND`, `OR`, `NOT` and parentheses.

use crate::error::Result;
use crate::expr::ast::{Comparator, Condition, Operand, SetOperand, SetValue, Update};
use crate::expr::codegen::electro::{Attributes, refused, root, value};
use crate::expr::codegen::toolbox::words::{Kind, string};

/// The update as ElectroDB's calls: `.set({…})`, `.add({…})`, `.subtract({…})`,
/// `.remove([…])`, `.delete({…})`.
pub(super) fn calls(update: &Update, attributes: &mut Attributes) -> Result<Vec<String>> {
    let (mut set, mut add, mut subtract, mut remove, mut delete) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (p, action) in &update.set {
        let name = root(p)?;
        match action {
            SetValue::Operand(SetOperand::Value(v)) => {
                attributes.note(name, Kind::of(&v.value))?;
                set.push(format!("{}: {}", string(name), value(&v.value)?));
            }
            SetValue::Minus(SetOperand::IfNotExists(q, zero), SetOperand::Value(d))
                if q == p && matches!(&**zero, SetOperand::Value(z) if is_zero(&z.value)) =>
            {
                attributes.note(name, Kind::Number)?;
                subtract.push(format!("{}: {}", string(name), value(&d.value)?));
            }
            _ => {
                return Err(refused(&format!(
                    "SET {}: ElectroDB sets a value, adds with ADD and subtracts as \
                     SET x = if_not_exists(x, 0) - d; other SET forms are not its own",
                    p.display()
                )));
            }
        }
    }
    for p in &update.remove {
        let name = root(p)?;
        attributes.note(name, Kind::Any)?;
        remove.push(string(name));
    }
    for (list, actions) in [(&mut add, &update.add), (&mut delete, &update.delete)] {
        for (p, v) in actions {
            let name = root(p)?;
            attributes.note(name, Kind::of(&v.value))?;
            list.push(format!("{}: {}", string(name), value(&v.value)?));
        }
    }
    let mut calls = Vec::new();
    for (method, fields) in [
        ("set", set),
        ("add", add),
        ("subtract", subtract),
        ("delete", delete),
    ] {
        if !fields.is_empty() {
            calls.push(format!(".{method}({{ {} }})", fields.join(", ")));
        }
    }
    if !remove.is_empty() {
        calls.push(format!(".remove([{}])", remove.join(", ")));
    }
    Ok(calls)
}

/// Whether a value is the number zero.
fn is_zero(v: &aws_sdk_dynamodb::types::AttributeValue) -> bool {
    matches!(v, aws_sdk_dynamodb::types::AttributeValue::N(n) if n.trim_start_matches(['-', '+']).chars().all(|c| c == '0' || c == '.'))
}

/// `attr["name"]`, the attribute noted with `kind`.
fn attr(p: &crate::expr::ast::Path, kind: Kind, attributes: &mut Attributes) -> Result<String> {
    let name = root(p)?;
    attributes.note(name, kind)?;
    Ok(format!("attr[{}]", string(name)))
}

/// The operation's name in ElectroDB's `where`.
fn operation(op: Comparator) -> &'static str {
    match op {
        Comparator::Eq => "eq",
        Comparator::Ne => "ne",
        Comparator::Lt => "lt",
        Comparator::Le => "lte",
        Comparator::Gt => "gt",
        Comparator::Ge => "gte",
    }
}

/// A condition as a `where` template's text.
pub(super) fn condition(c: &Condition, attributes: &mut Attributes) -> Result<String> {
    let of = |o: &Operand| match o {
        Operand::Value(v) => Ok((value(&v.value)?, Kind::of(&v.value))),
        _ => Err(refused(
            "a condition compares an attribute with a value in ElectroDB's where",
        )),
    };
    Ok(match c {
        Condition::Compare(Operand::Path(p), op, v) => {
            let (v, kind) = of(v)?;
            format!(
                "${{op.{}({}, {v})}}",
                operation(*op),
                attr(p, kind, attributes)?
            )
        }
        Condition::Between(Operand::Path(p), low, high) => {
            let ((low, kind), (high, _)) = (of(low)?, of(high)?);
            format!(
                "${{op.between({}, {low}, {high})}}",
                attr(p, kind, attributes)?
            )
        }
        Condition::In(Operand::Path(p), list) => {
            let mut each = Vec::new();
            for o in list {
                let (v, kind) = of(o)?;
                each.push(format!("${{op.eq({}, {v})}}", attr(p, kind, attributes)?));
            }
            format!("({})", each.join(" OR "))
        }
        Condition::Exists(p) => format!("${{op.exists({})}}", attr(p, Kind::Any, attributes)?),
        Condition::NotExists(p) => {
            format!("${{op.notExists({})}}", attr(p, Kind::Any, attributes)?)
        }
        Condition::Type(p, t) => {
            let (t, _) = of(t)?;
            format!("${{op.type({}, {t})}}", attr(p, Kind::Any, attributes)?)
        }
        Condition::BeginsWith(p, v) => {
            let (v, kind) = of(v)?;
            format!("${{op.begins({}, {v})}}", attr(p, kind, attributes)?)
        }
        Condition::Contains(p, v) => {
            let (v, _) = of(v)?;
            format!("${{op.contains({}, {v})}}", attr(p, Kind::Any, attributes)?)
        }
        Condition::And(a, b) => {
            let a = wrapped(a, attributes)?;
            format!("{a} AND {}", wrapped(b, attributes)?)
        }
        Condition::Or(a, b) => {
            let a = wrapped(a, attributes)?;
            format!("{a} OR {}", wrapped(b, attributes)?)
        }
        Condition::Not(a) => format!("NOT {}", wrapped(a, attributes)?),
        _ => {
            return Err(refused(
                "a comparison ElectroDB's where has no operation for (a value first, size(), \
                 or two attributes)",
            ));
        }
    })
}

/// A part of `AND`, `OR` or `NOT` in parentheses, unless it has its own (ElectroDB writes a
/// `between` in them, and this code an `IN`): DynamoDB refuses redundant parentheses.
fn wrapped(c: &Condition, attributes: &mut Attributes) -> Result<String> {
    let text = condition(c, attributes)?;
    Ok(match c {
        Condition::Between(..) | Condition::In(..) => text,
        _ => format!("({text})"),
    })
}
