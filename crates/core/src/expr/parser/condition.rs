//! The grammar of conditions: `OR`, `AND`, `NOT`, comparisons, `BETWEEN`, `IN` and functions.

use crate::expr::ast::{Comparator, Condition, Operand};
use crate::expr::error::{ExprError, err};
use crate::expr::lexer::Tok;
use crate::expr::parser::{Parser, describe};

impl Parser<'_> {
    pub(super) fn condition(&mut self) -> Result<Condition, ExprError> {
        let mut left = self.and()?;
        while self.is_keyword("OR") {
            self.at += 1;
            left = Condition::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    pub(super) fn and(&mut self) -> Result<Condition, ExprError> {
        let mut left = self.not()?;
        while self.is_keyword("AND") {
            self.at += 1;
            left = Condition::And(Box::new(left), Box::new(self.not()?));
        }
        Ok(left)
    }

    pub(super) fn not(&mut self) -> Result<Condition, ExprError> {
        if self.is_keyword("NOT") {
            self.enter(self.peek().pos)?;
            self.at += 1;
            let inner = self.not()?;
            self.leave();
            return Ok(Condition::Not(Box::new(inner)));
        }
        self.primary()
    }

    pub(super) fn primary(&mut self) -> Result<Condition, ExprError> {
        if self.is_sym("(") {
            self.enter(self.peek().pos)?;
            self.at += 1;
            let inner = self.condition()?;
            self.expect_sym(")")?;
            self.leave();
            return Ok(inner);
        }
        if let Some((function, pos)) = self.function_name()
            && !function.eq_ignore_ascii_case("size")
        {
            return self.function(&function, pos);
        }
        let left = self.operand()?;
        if self.is_keyword("BETWEEN") {
            self.at += 1;
            let low = self.operand()?;
            if !self.is_keyword("AND") {
                let t = self.peek();
                return err("BETWEEN needs `AND` between its bounds", t.pos);
            }
            self.at += 1;
            let high = self.operand()?;
            return Ok(Condition::Between(left, low, high));
        }
        if self.is_keyword("IN") {
            self.at += 1;
            self.expect_sym("(")?;
            let mut list = vec![self.operand()?];
            while self.is_sym(",") {
                self.at += 1;
                list.push(self.operand()?);
            }
            self.expect_sym(")")?;
            if list.len() > 100 {
                return err("IN takes at most 100 values", self.peek().pos);
            }
            return Ok(Condition::In(left, list));
        }
        let t = self.next();
        let comparator = match t.tok {
            Tok::Sym("=") => Comparator::Eq,
            Tok::Sym("<>") => Comparator::Ne,
            Tok::Sym("<") => Comparator::Lt,
            Tok::Sym("<=") => Comparator::Le,
            Tok::Sym(">") => Comparator::Gt,
            Tok::Sym(">=") => Comparator::Ge,
            other => {
                return err(
                    format!(
                        "expected a comparison (=, <>, <, <=, >, >=, BETWEEN, IN), found {}",
                        describe(&other)
                    ),
                    t.pos,
                );
            }
        };
        Ok(Condition::Compare(left, comparator, self.operand()?))
    }

    pub(super) fn operand(&mut self) -> Result<Operand, ExprError> {
        if let Some((function, pos)) = self.function_name() {
            if function.eq_ignore_ascii_case("size") {
                self.enter(pos)?;
                self.at += 2;
                let (path, _) = self.path()?;
                self.expect_sym(")")?;
                self.leave();
                return Ok(Operand::Size(path));
            }
            return err(
                format!("{function}() is a condition, not a value to compare"),
                pos,
            );
        }
        if self.starts_value() {
            return Ok(Operand::Value(self.value()?.0));
        }
        Ok(Operand::Path(self.path()?.0))
    }

    pub(super) fn function(&mut self, function: &str, pos: usize) -> Result<Condition, ExprError> {
        self.enter(pos)?;
        let condition = self.function_call(function, pos)?;
        self.leave();
        Ok(condition)
    }

    fn function_call(&mut self, function: &str, pos: usize) -> Result<Condition, ExprError> {
        self.at += 2; // name and `(`
        let lower = function.to_ascii_lowercase();
        let arity = match lower.as_str() {
            "attribute_exists" | "attribute_not_exists" => 1,
            "attribute_type" | "begins_with" | "contains" => 2,
            _ => {
                return err(
                    format!(
                        "unknown function `{function}` (conditions know attribute_exists, attribute_not_exists, attribute_type, begins_with, contains, size)"
                    ),
                    pos,
                );
            }
        };
        let (path, _) = self.path()?;
        let second = if arity == 2 {
            if !self.is_sym(",") {
                return err(format!("{lower} takes 2 arguments"), self.peek().pos);
            }
            self.at += 1;
            Some(self.operand()?)
        } else {
            None
        };
        if self.is_sym(",") {
            return err(
                format!(
                    "{lower} takes {arity} argument{}",
                    if arity == 1 { "" } else { "s" }
                ),
                self.peek().pos,
            );
        }
        self.expect_sym(")")?;
        Ok(match (lower.as_str(), second) {
            ("attribute_exists", _) => Condition::Exists(path),
            ("attribute_not_exists", _) => Condition::NotExists(path),
            ("attribute_type", Some(t)) => Condition::Type(path, t),
            ("begins_with", Some(v)) => Condition::BeginsWith(path, v),
            (_, Some(v)) => Condition::Contains(path, v),
            (_, None) => return err(format!("{lower} takes 2 arguments"), pos),
        })
    }
}
