//! Parsing expressions (with their name and value maps) into the tree, with the position of
//! every error. Semantic rules are checked while parsing, where positions are known.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::core::expr::ast::{
    Comparator, Condition, Operand, Path, SetOperand, SetValue, Step, Update,
};
use crate::core::expr::lexer::{SYMBOLS, Tok, Token, tokenize};
use crate::core::expr::reserved;

/// Why an expression does not parse, and where (a character offset).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at {position}: {message}")]
pub struct ExprError {
    /// What is wrong.
    pub message: String,
    /// Character offset in the expression text.
    pub position: usize,
}

const KEYWORDS: [&str; 9] = [
    "AND", "OR", "NOT", "BETWEEN", "IN", "SET", "REMOVE", "ADD", "DELETE",
];

/// The maps an expression's placeholders refer to.
#[derive(Debug, Clone, Copy)]
pub struct Maps<'a> {
    /// `ExpressionAttributeNames`.
    pub names: &'a HashMap<String, String>,
    /// `ExpressionAttributeValues`.
    pub values: &'a HashMap<String, AttributeValue>,
    /// Accept literal values (`1`, `-2.5`, `'text'`) where a value placeholder may stand, as the
    /// builder does; DynamoDB itself never does.
    pub literals: bool,
}

impl<'a> Maps<'a> {
    /// Placeholders only, as DynamoDB reads expressions.
    pub fn strict(
        names: &'a HashMap<String, String>,
        values: &'a HashMap<String, AttributeValue>,
    ) -> Self {
        Self {
            names,
            values,
            literals: false,
        }
    }
}

struct Parser<'a> {
    tokens: Vec<Token>,
    at: usize,
    maps: Maps<'a>,
}

fn err<T>(message: impl Into<String>, position: usize) -> Result<T, ExprError> {
    Err(ExprError {
        message: message.into(),
        position,
    })
}

impl<'a> Parser<'a> {
    fn new(text: &str, maps: Maps<'a>) -> Result<Self, ExprError> {
        Ok(Self {
            tokens: tokenize(text)?,
            at: 0,
            maps,
        })
    }

    fn peek(&self) -> &Token {
        &self.tokens[self.at.min(self.tokens.len() - 1)]
    }

    fn next(&mut self) -> Token {
        let token = self.peek().clone();
        self.at += 1;
        token
    }

    fn is_keyword(&self, keyword: &str) -> bool {
        matches!(&self.peek().tok, Tok::Ident(w) if w.eq_ignore_ascii_case(keyword))
    }

    fn is_sym(&self, sym: &str) -> bool {
        self.peek().tok
            == Tok::Sym(match SYMBOLS.iter().find(|s| **s == sym) {
                Some(s) => s,
                None => return false,
            })
    }

    fn expect_sym(&mut self, sym: &str) -> Result<(), ExprError> {
        if self.is_sym(sym) {
            self.at += 1;
            Ok(())
        } else {
            let t = self.peek();
            err(
                format!("expected `{sym}`, found {}", describe(&t.tok)),
                t.pos,
            )
        }
    }

    fn end(&mut self) -> Result<(), ExprError> {
        let t = self.peek();
        if t.tok == Tok::End {
            Ok(())
        } else {
            err(format!("unexpected {}", describe(&t.tok)), t.pos)
        }
    }

    fn name(&mut self) -> Result<String, ExprError> {
        let t = self.next();
        match t.tok {
            Tok::Name(ph) => self.maps.names.get(&ph).cloned().ok_or_else(|| ExprError {
                message: format!("{ph} is not in the expression attribute names"),
                position: t.pos,
            }),
            Tok::Ident(word) if KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(&word)) => err(
                format!("expected an attribute name, found the keyword {word}"),
                t.pos,
            ),
            Tok::Ident(word) if reserved::is_reserved(&word) => err(
                format!("`{word}` is a reserved word: write it as a name placeholder such as #n"),
                t.pos,
            ),
            Tok::Ident(word) => Ok(word),
            other => err(
                format!("expected an attribute name, found {}", describe(&other)),
                t.pos,
            ),
        }
    }

    fn path(&mut self) -> Result<(Path, usize), ExprError> {
        let pos = self.peek().pos;
        let mut steps = vec![Step::Name(self.name()?)];
        loop {
            if self.is_sym(".") {
                self.at += 1;
                steps.push(Step::Name(self.name()?));
            } else if self.is_sym("[") {
                self.at += 1;
                let t = self.next();
                let Tok::Int(k) = t.tok else {
                    return err("expected a list index", t.pos);
                };
                steps.push(Step::Index(k));
                self.expect_sym("]")?;
            } else {
                return Ok((Path(steps), pos));
            }
        }
    }

    fn starts_value(&self) -> bool {
        match &self.peek().tok {
            Tok::Value(_) => true,
            Tok::Int(_) | Tok::Number(_) | Tok::Text(_) => self.maps.literals,
            Tok::Sym("-") => {
                self.maps.literals
                    && matches!(
                        self.tokens.get(self.at + 1).map(|t| &t.tok),
                        Some(Tok::Int(_) | Tok::Number(_))
                    )
            }
            _ => false,
        }
    }

    fn value(&mut self) -> Result<(AttributeValue, usize), ExprError> {
        let t = self.next();
        if self.maps.literals {
            let number = |text: String, pos: usize| {
                crate::core::number::parse(&text)
                    .map(|_| (AttributeValue::N(text.clone()), pos))
                    .map_err(|e| ExprError {
                        message: e.to_string(),
                        position: pos,
                    })
            };
            match &t.tok {
                Tok::Int(k) => return number(k.to_string(), t.pos),
                Tok::Number(text) => return number(text.clone(), t.pos),
                Tok::Text(text) => return Ok((AttributeValue::S(text.clone()), t.pos)),
                Tok::Sym("-") => {
                    let digits = self.next();
                    let text = match digits.tok {
                        Tok::Int(k) => k.to_string(),
                        Tok::Number(text) => text,
                        other => {
                            return err(
                                format!("expected a number after `-`, found {}", describe(&other)),
                                digits.pos,
                            );
                        }
                    };
                    return number(format!("-{text}"), t.pos);
                }
                _ => {}
            }
        }
        match t.tok {
            Tok::Value(ph) => self
                .maps
                .values
                .get(&ph)
                .cloned()
                .map(|v| (v, t.pos))
                .ok_or_else(|| ExprError {
                    message: format!("{ph} is not in the expression attribute values"),
                    position: t.pos,
                }),
            other => err(
                format!(
                    "expected a value placeholder (:v), found {}",
                    describe(&other)
                ),
                t.pos,
            ),
        }
    }

    fn function_name(&self) -> Option<(String, usize)> {
        let t = self.peek();
        match (&t.tok, &self.tokens.get(self.at + 1).map(|n| &n.tok)) {
            (Tok::Ident(w), Some(Tok::Sym("("))) => Some((w.clone(), t.pos)),
            _ => None,
        }
    }

    // ---- conditions ----

    fn condition(&mut self) -> Result<Condition, ExprError> {
        let mut left = self.and()?;
        while self.is_keyword("OR") {
            self.at += 1;
            left = Condition::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Condition, ExprError> {
        let mut left = self.not()?;
        while self.is_keyword("AND") {
            self.at += 1;
            left = Condition::And(Box::new(left), Box::new(self.not()?));
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Condition, ExprError> {
        if self.is_keyword("NOT") {
            self.at += 1;
            return Ok(Condition::Not(Box::new(self.not()?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Condition, ExprError> {
        if self.is_sym("(") {
            self.at += 1;
            let inner = self.condition()?;
            self.expect_sym(")")?;
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

    fn operand(&mut self) -> Result<Operand, ExprError> {
        if let Some((function, pos)) = self.function_name() {
            if function.eq_ignore_ascii_case("size") {
                self.at += 2;
                let (path, _) = self.path()?;
                self.expect_sym(")")?;
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

    fn function(&mut self, function: &str, pos: usize) -> Result<Condition, ExprError> {
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

    // ---- updates ----

    fn set_operand(&mut self) -> Result<SetOperand, ExprError> {
        if let Some((function, pos)) = self.function_name() {
            self.at += 2;
            return match function.to_ascii_lowercase().as_str() {
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
            };
        }
        if self.starts_value() {
            return Ok(SetOperand::Value(self.value()?.0));
        }
        Ok(SetOperand::Path(self.path()?.0))
    }

    fn set_value(&mut self) -> Result<SetValue, ExprError> {
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
}

fn describe(tok: &Tok) -> String {
    match tok {
        Tok::Ident(w) => format!("`{w}`"),
        Tok::Name(n) | Tok::Value(n) => format!("`{n}`"),
        Tok::Int(k) => format!("`{k}`"),
        Tok::Number(text) => format!("`{text}`"),
        Tok::Text(text) => format!("'{text}'"),
        Tok::Sym(s) => format!("`{s}`"),
        Tok::End => "the end".to_owned(),
    }
}

/// Parse a condition (`ConditionExpression` or `FilterExpression`).
pub fn parse_condition(text: &str, maps: Maps<'_>) -> Result<Condition, ExprError> {
    let mut p = Parser::new(text, maps)?;
    let condition = p.condition()?;
    p.end()?;
    Ok(condition)
}

/// Parse a `ProjectionExpression`.
pub fn parse_projection(text: &str, maps: Maps<'_>) -> Result<Vec<Path>, ExprError> {
    let mut p = Parser::new(text, maps)?;
    let mut paths = vec![p.path()?.0];
    while p.is_sym(",") {
        p.at += 1;
        paths.push(p.path()?.0);
    }
    p.end()?;
    Ok(paths)
}

/// Parse an `UpdateExpression`, refusing overlapping paths, key attributes (`keys`), an ADD of
/// something other than a number or set, and a DELETE of something other than a set.
pub fn parse_update(text: &str, maps: Maps<'_>, keys: &[String]) -> Result<Update, ExprError> {
    let mut p = Parser::new(text, maps)?;
    let mut update = Update::default();
    let mut seen: Vec<&'static str> = Vec::new();
    let mut written: Vec<(Path, &'static str)> = Vec::new();
    let mut check = |path: &Path, pos: usize, action: &'static str| -> Result<(), ExprError> {
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
    };
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
            check(&path, pos, clause)?;
            match clause {
                "SET" => {
                    p.expect_sym("=")?;
                    let value = p.set_value()?;
                    update.set.push((path, value));
                }
                "REMOVE" => update.remove.push(path),
                _ => {
                    let (value, vpos) = p.value()?;
                    let is_set = matches!(
                        value,
                        AttributeValue::Ss(_) | AttributeValue::Ns(_) | AttributeValue::Bs(_)
                    );
                    if clause == "ADD" && !is_set && !matches!(value, AttributeValue::N(_)) {
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
                }
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
