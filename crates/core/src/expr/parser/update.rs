//! The grammar of update expressions: `SET`, `REMOVE`, `ADD`, `DELETE`, with the rules DynamoDB
//! checks (no key attributes, no overlapping paths, ADD of numbers or sets, DELETE of sets).

use aws_sdk_dynamodb::types::AttributeValue;

use crate::expr::ast::{Path, SetOperand, SetValue, Update};
use crate::expr::error::{ExprError, err};
use crate::expr::lexer::Tok;
use crate::expr::parser::{Maps, Parser, describe};

impl Parser<'_> {
    pub(super) fn set_operand(&mut self) -> Result<SetOperand, ExprError> {
        if let Some((function, pos)) = self.function_name() {
            self.enter(pos)?;
            let operand = self.set_function(&function, pos)?;
            self.leave();
            return Ok(operand);
        }
        if self.starts_value() {
            return Ok(SetOperand::Value(self.value()?.0));
        }
        Ok(SetOperand::Path(self.path()?.0))
    }

    fn set_function(&mut self, function: &str, pos: usize) -> Result<SetOperand, ExprError> {
        self.at += 2;
        match function.to_ascii_lowercase().as_str() {
            "if_not_exists" => {
                let (path, _) = self.path()?;
                self.expect_sym(",")?;
                let fallback = self.set_operand()?;
                self.expect_sym(")")?;
                Ok(SetOperand::IfNotExists(path, Box::new(fallback)))
            }
            "list_append" => {
                let a = self.set_operand()?;
                self.expect_sym(",")?;
                let b = self.set_operand()?;
                self.expect_sym(")")?;
                Ok(SetOperand::ListAppend(Box::new(a), Box::new(b)))
            }
            _ => err(
                format!(
                    "unknown function `{function}` in SET (it knows if_not_exists and list_append)"
                ),
                pos,
            ),
        }
    }

    pub(super) fn set_value(&mut self) -> Result<SetValue, ExprError> {
        let first = self.set_operand()?;
        if self.is_sym("+") {
            self.at += 1;
            return Ok(SetValue::Plus(first, self.set_operand()?));
        }
        if self.is_sym("-") {
            self.at += 1;
            return Ok(SetValue::Minus(first, self.set_operand()?));
        }
        Ok(SetValue::Operand(first))
    }

    /// The value of an ADD (a number or a set) or a DELETE (a set) of `path`, added to `update`.
    fn add_or_delete(
        &mut self,
        clause: &str,
        path: Path,
        update: &mut Update,
    ) -> Result<(), ExprError> {
        let (value, vpos) = self.value()?;
        let is_set = matches!(
            value.value,
            AttributeValue::Ss(_) | AttributeValue::Ns(_) | AttributeValue::Bs(_)
        );
        if clause == "ADD" && !is_set && !matches!(value.value, AttributeValue::N(_)) {
            return err("ADD takes a number or a set", vpos);
        }
        if clause == "DELETE" && !is_set {
            return err("DELETE takes a set (the elements to remove)", vpos);
        }
        if clause == "ADD" {
            update.add.push((path, value));
        } else {
            update.delete.push((path, value));
        }
        Ok(())
    }
}

/// Refuse a `path` that is a key attribute (one of `keys`) or overlaps one already `written`;
/// else note it written by `action`.
fn check_path(
    keys: &[String],
    written: &mut Vec<(Path, &'static str)>,
    path: &Path,
    pos: usize,
    action: &'static str,
) -> Result<(), ExprError> {
    if keys.iter().any(|k| k == path.root()) {
        return err(
            format!(
                "`{}` is a key attribute: an update cannot change it",
                path.root()
            ),
            pos,
        );
    }
    if let Some((other, other_action)) = written.iter().find(|(w, _)| w.overlaps(path)) {
        return err(
            format!(
                "{action} {} overlaps {other_action} {}: one update may write a path only once",
                path.display(),
                other.display()
            ),
            pos,
        );
    }
    written.push((path.clone(), action));
    Ok(())
}

/// Parse an `UpdateExpression`, refusing overlapping paths, key attributes (`keys`), an ADD of
/// something other than a number or set, and a DELETE of something other than a set.
pub fn parse_update(text: &str, maps: Maps<'_>, keys: &[String]) -> Result<Update, ExprError> {
    let mut p = Parser::new(text, maps)?;
    let mut update = Update::default();
    let mut seen: Vec<&'static str> = Vec::new();
    let mut written: Vec<(Path, &'static str)> = Vec::new();
    if p.peek().tok == Tok::End {
        return err(
            "an update needs at least one of SET, REMOVE, ADD, DELETE",
            0,
        );
    }
    while p.peek().tok != Tok::End {
        let t = p.next();
        let clause = match &t.tok {
            Tok::Ident(w) => ["SET", "REMOVE", "ADD", "DELETE"]
                .into_iter()
                .find(|k| k.eq_ignore_ascii_case(w)),
            _ => None,
        };
        let Some(clause) = clause else {
            return err(
                format!(
                    "expected SET, REMOVE, ADD or DELETE, found {}",
                    describe(&t.tok)
                ),
                t.pos,
            );
        };
        if seen.contains(&clause) {
            return err(
                format!("{clause} appears twice: each clause may appear once"),
                t.pos,
            );
        }
        seen.push(clause);
        loop {
            let (path, pos) = p.path()?;
            check_path(keys, &mut written, &path, pos, clause)?;
            match clause {
                "SET" => {
                    p.expect_sym("=")?;
                    let value = p.set_value()?;
                    update.set.push((path, value));
                }
                "REMOVE" => update.remove.push(path),
                _ => p.add_or_delete(clause, path, &mut update)?,
            }
            if p.is_sym(",") {
                p.at += 1;
            } else {
                break;
            }
        }
    }
    Ok(update)
}
