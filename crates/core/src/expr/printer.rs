//! Printing the tree back to expression text, with every name aliased (`#n0`) and every value a
//! placeholder (`:v0`), so that reserved words and odd characters never matter.

use crate::condition::{Expression, Placeholders};
use crate::expr::ast::{Condition, Operand, Path, SetOperand, SetValue, Step, Update, Value};

fn path(p: &mut Placeholders, path: &Path) -> String {
    let mut out = String::new();
    for (i, step) in path.0.iter().enumerate() {
        match step {
            Step::Name(name) => {
                if i > 0 {
                    out.push('.');
                }
                out.push_str(&p.name(name));
            }
            Step::Index(k) => out.push_str(&format!("[{k}]")),
        }
    }
    out
}

/// A value's placeholder: the one it was written as when `p` keeps it, or a fresh one.
fn value(p: &mut Placeholders, v: &Value) -> String {
    p.value_written(v.placeholder.as_deref(), v.value.clone())
}

fn operand(p: &mut Placeholders, operand: &Operand) -> String {
    match operand {
        Operand::Path(x) => path(p, x),
        Operand::Value(v) => value(p, v),
        Operand::Size(x) => format!("size({})", path(p, x)),
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Or,
    And,
    Not,
}

fn condition_at(p: &mut Placeholders, c: &Condition, outer: Level, right: bool) -> String {
    let (text, level) = match c {
        Condition::Or(..) => (chain(p, c, Level::Or), Some(Level::Or)),
        Condition::And(..) => (chain(p, c, Level::And), Some(Level::And)),
        Condition::Not(a) => (
            format!("NOT {}", condition_at(p, a, Level::Not, false)),
            None,
        ),
        Condition::Compare(a, op, b) => (
            format!("{} {} {}", operand(p, a), op.symbol(), operand(p, b)),
            None,
        ),
        Condition::Between(a, low, high) => (
            format!(
                "{} BETWEEN {} AND {}",
                operand(p, a),
                operand(p, low),
                operand(p, high)
            ),
            None,
        ),
        Condition::In(a, list) => {
            let first = operand(p, a);
            let items: Vec<String> = list.iter().map(|o| operand(p, o)).collect();
            (format!("{first} IN ({})", items.join(", ")), None)
        }
        Condition::Exists(x) => (format!("attribute_exists({})", path(p, x)), None),
        Condition::NotExists(x) => (format!("attribute_not_exists({})", path(p, x)), None),
        Condition::Type(x, t) => (
            format!("attribute_type({}, {})", path(p, x), operand(p, t)),
            None,
        ),
        Condition::BeginsWith(x, v) => (
            format!("begins_with({}, {})", path(p, x), operand(p, v)),
            None,
        ),
        Condition::Contains(x, v) => (format!("contains({}, {})", path(p, x), operand(p, v)), None),
    };
    // Binary operators bind left to right: a looser one inside a tighter one, or the same one
    // on the right, needs parentheses to read back as the same tree.
    match level {
        Some(level) if level < outer || (level == outer && right) => format!("({text})"),
        _ => text,
    }
}

/// `a AND b AND c`: the parser builds a chain of one operator leaning left, as long as 4 KB
/// allows (some 500 terms). Its left spine is walked in a loop, so that only parentheses and
/// `NOT`, which the parser bounds, make the printer recurse.
fn chain(p: &mut Placeholders, c: &Condition, level: Level) -> String {
    let mut rights = Vec::new();
    let mut left = c;
    while let (Condition::And(a, b), Level::And) | (Condition::Or(a, b), Level::Or) = (left, level)
    {
        rights.push(b.as_ref());
        left = a;
    }
    let mut parts = vec![condition_at(p, left, level, false)];
    // Innermost first: the order the terms are written in.
    for b in rights.into_iter().rev() {
        parts.push(condition_at(p, b, level, true));
    }
    let keyword = if level == Level::Or { " OR " } else { " AND " };
    parts.join(keyword)
}

/// A condition as text with its placeholders, taken from `p`.
pub fn condition_text(p: &mut Placeholders, c: &Condition) -> String {
    condition_at(p, c, Level::Or, false)
}

/// A condition as an expression with fresh placeholders.
pub fn condition(c: &Condition) -> Expression {
    let mut p = Placeholders::default();
    let text = condition_text(&mut p, c);
    p.finish(text)
}

fn set_operand(p: &mut Placeholders, o: &SetOperand) -> String {
    match o {
        SetOperand::Path(x) => path(p, x),
        SetOperand::Value(v) => value(p, v),
        SetOperand::IfNotExists(x, fallback) => {
            let x = path(p, x);
            format!("if_not_exists({x}, {})", set_operand(p, fallback))
        }
        SetOperand::ListAppend(a, b) => {
            let a = set_operand(p, a);
            format!("list_append({a}, {})", set_operand(p, b))
        }
    }
}

/// An update as text with its placeholders, taken from `p`.
pub fn update_text(p: &mut Placeholders, u: &Update) -> String {
    let mut clauses = Vec::new();
    if !u.set.is_empty() {
        let actions: Vec<String> = u
            .set
            .iter()
            .map(|(target, value)| {
                let target = path(p, target);
                let value = match value {
                    SetValue::Operand(o) => set_operand(p, o),
                    SetValue::Plus(a, b) => {
                        let a = set_operand(p, a);
                        format!("{a} + {}", set_operand(p, b))
                    }
                    SetValue::Minus(a, b) => {
                        let a = set_operand(p, a);
                        format!("{a} - {}", set_operand(p, b))
                    }
                };
                format!("{target} = {value}")
            })
            .collect();
        clauses.push(format!("SET {}", actions.join(", ")));
    }
    if !u.remove.is_empty() {
        let paths: Vec<String> = u.remove.iter().map(|x| path(p, x)).collect();
        clauses.push(format!("REMOVE {}", paths.join(", ")));
    }
    for (keyword, actions) in [("ADD", &u.add), ("DELETE", &u.delete)] {
        if !actions.is_empty() {
            let parts: Vec<String> = actions
                .iter()
                .map(|(x, v)| {
                    let x = path(p, x);
                    format!("{x} {}", value(p, v))
                })
                .collect();
            clauses.push(format!("{keyword} {}", parts.join(", ")));
        }
    }
    clauses.join(" ")
}

/// An update as an expression with fresh placeholders.
pub fn update(u: &Update) -> Expression {
    let mut p = Placeholders::default();
    let text = update_text(&mut p, u);
    p.finish(text)
}

/// One projected path, with placeholders taken from `p`.
pub(crate) fn projection_path(p: &mut Placeholders, x: &Path) -> String {
    path(p, x)
}

/// A projection as an expression with fresh placeholders.
pub fn projection(paths: &[Path]) -> Expression {
    let mut p = Placeholders::default();
    let parts: Vec<String> = paths.iter().map(|x| path(&mut p, x)).collect();
    p.finish(parts.join(", "))
}
