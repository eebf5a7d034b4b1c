//! Parsing expressions (with their name and value maps) into the tree, with the position of
//! every error. Semantic rules are checked while parsing, where positions are known.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::expr::ast::{Condition, Path, Step, Value};
use crate::expr::error::{ExprError, err};
use crate::expr::lexer::{SYMBOLS, Tok, Token, tokenize};
use crate::expr::reserved;

pub(crate) use crate::expr::lexer::MAX_EXPRESSION_BYTES;

/// How deeply parentheses, `NOT` and function calls may nest inside one another, and how many
/// steps a document path may have. DynamoDB nests attributes at most 32 levels deep, and no
/// expression a person writes comes near it; the bound is what keeps the parser (and everything
/// that walks the tree) from overflowing the stack on hostile input.
pub const MAX_DEPTH: usize = 32;

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

mod condition;
mod key;
mod update;

pub use key::QueryKeys;
pub(crate) use key::parse_key_condition;
pub use update::parse_update;

struct Parser<'a> {
    tokens: Vec<Token>,
    at: usize,
    maps: Maps<'a>,
    /// How many parentheses, `NOT`s and function calls enclose the token at `at`.
    depth: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &str, maps: Maps<'a>) -> Result<Self, ExprError> {
        Ok(Self {
            tokens: tokenize(text)?,
            at: 0,
            maps,
            depth: 0,
        })
    }

    /// Go one level deeper for the parenthesis, `NOT` or function at `pos`: refused past
    /// [`MAX_DEPTH`], before anything recurses. Paired with [`leave`](Self::leave).
    fn enter(&mut self, pos: usize) -> Result<(), ExprError> {
        if self.depth >= MAX_DEPTH {
            return err(
                format!(
                    "nested more than {MAX_DEPTH} levels deep (parentheses, NOT and functions count)"
                ),
                pos,
            );
        }
        self.depth += 1;
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
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
            // The builder aliases every name, so a reserved word typed bare is fine there.
            Tok::Ident(word) if reserved::is_reserved(&word) && !self.maps.literals => err(
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
            let step_pos = self.peek().pos;
            let more = self.is_sym(".") || self.is_sym("[");
            if more && steps.len() >= MAX_DEPTH {
                return err(
                    format!(
                        "a document path has at most {MAX_DEPTH} levels (DynamoDB nests attributes {MAX_DEPTH} deep)"
                    ),
                    step_pos,
                );
            }
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

    fn value(&mut self) -> Result<(Value, usize), ExprError> {
        let t = self.next();
        if self.maps.literals {
            let number = |text: String, pos: usize| {
                crate::number::parse(&text)
                    .map(|_| (AttributeValue::N(text.clone()).into(), pos))
                    .map_err(|e| ExprError {
                        message: e.to_string(),
                        position: pos,
                    })
            };
            match &t.tok {
                Tok::Int(k) => return number(k.to_string(), t.pos),
                Tok::Number(text) => return number(text.clone(), t.pos),
                Tok::Text(text) => return Ok((AttributeValue::S(text.clone()).into(), t.pos)),
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
                .map(|v| {
                    let value = Value {
                        value: v.clone(),
                        placeholder: Some(ph.clone()),
                    };
                    (value, t.pos)
                })
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
pub(crate) fn parse_projection(text: &str, maps: Maps<'_>) -> Result<Vec<Path>, ExprError> {
    let mut p = Parser::new(text, maps)?;
    let mut paths = vec![p.path()?.0];
    while p.is_sym(",") {
        p.at += 1;
        paths.push(p.path()?.0);
    }
    p.end()?;
    Ok(paths)
}
