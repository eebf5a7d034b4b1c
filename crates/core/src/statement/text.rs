//! A PartiQL statement with its typed `?` parameters: what kind it is (a read or a write), the
//! table it names, and its parameters parsed from DynamoDB JSON. Nothing here sends anything.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::{Error, Result};
use crate::statement::lexer::{Token, TokenKind, position, tokens};
use crate::value::{self, cell_text};

/// A PartiQL statement as `ExecuteStatement` sends it: the text and one typed value per `?`.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    /// The statement, as written.
    pub text: String,
    /// The values of its `?` placeholders, in order.
    pub params: Vec<AttributeValue>,
}

/// What a statement does, by its first keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `SELECT`: a read, paged with `NextToken`.
    Select,
    /// `INSERT INTO "T" VALUE {…}`: a write.
    Insert,
    /// `UPDATE "T" SET … WHERE …`: a write.
    Update,
    /// `DELETE FROM "T" WHERE …`: a write.
    Delete,
    /// `EXISTS(SELECT …)`: only a condition inside `ExecuteTransaction`, never sent alone.
    Exists,
}

impl Kind {
    /// The keyword, in capitals.
    pub(crate) fn keyword(self) -> &'static str {
        match self {
            Self::Select => "SELECT",
            Self::Insert => "INSERT",
            Self::Update => "UPDATE",
            Self::Delete => "DELETE",
            Self::Exists => "EXISTS",
        }
    }

    /// Whether it writes (INSERT, UPDATE, DELETE): then it goes through the write gateway.
    pub fn writes(self) -> bool {
        matches!(self, Self::Insert | Self::Update | Self::Delete)
    }
}

/// What a statement was read as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classified {
    /// Its kind.
    pub kind: Kind,
    /// The table it names.
    pub table: String,
    /// The index of a `SELECT … FROM "T"."Index"`.
    pub index: Option<String>,
    /// How many `?` placeholders it holds.
    pub placeholders: usize,
}

impl Statement {
    /// A statement with already typed parameters. A byte-order mark before the text (a file
    /// saved by some editors) is dropped: it is no part of the statement.
    pub fn new(text: impl Into<String>, params: Vec<AttributeValue>) -> Self {
        let mut text = text.into();
        if let Some(rest) = text.strip_prefix('\u{feff}') {
            text = rest.to_owned();
        }
        Self { text, params }
    }

    /// A statement whose parameters are DynamoDB JSON texts (`{"N": "42"}`), one per `?`.
    pub fn from_json(text: impl Into<String>, params: &[impl AsRef<str>]) -> Result<Self> {
        let params = params
            .iter()
            .enumerate()
            .map(|(i, p)| parse_param(p.as_ref(), i + 1))
            .collect::<Result<_>>()?;
        Ok(Self::new(text, params))
    }

    /// Its kind, table and placeholders; an error (with its place) when it cannot be read.
    pub fn classify(&self) -> Result<Classified> {
        let tokens = tokens(&self.text)?;
        let Some(first) = tokens.first() else {
            return Err(Error::Invalid("the statement is empty".into()));
        };
        let kind = [
            Kind::Select,
            Kind::Insert,
            Kind::Update,
            Kind::Delete,
            Kind::Exists,
        ]
        .into_iter()
        .find(|k| first.is_keyword(k.keyword()))
        .ok_or_else(|| {
            Error::Invalid(format!(
                "a PartiQL statement begins with SELECT, INSERT, UPDATE or DELETE, not `{}` ({})",
                first.text,
                position(&self.text, first.at)
            ))
        })?;
        // Where the table's name is: after the first FROM of a read, after INSERT INTO,
        // UPDATE, DELETE FROM.
        let name_at = match kind {
            Kind::Select | Kind::Exists => tokens
                .iter()
                .position(|t| t.is_keyword("FROM"))
                .map(|at| at + 1),
            Kind::Insert => self.after(&tokens, "INTO")?,
            Kind::Update => Some(1),
            Kind::Delete => self.after(&tokens, "FROM")?,
        };
        let name = |at: usize| tokens.get(at).filter(|t| is_name(t));
        let table = name_at.and_then(name).ok_or_else(|| {
            Error::Invalid(format!(
                "{} needs a table: {}",
                kind.keyword(),
                match kind {
                    Kind::Select | Kind::Exists => "SELECT … FROM \"Table\"",
                    Kind::Insert => "INSERT INTO \"Table\" VALUE {…}",
                    Kind::Update => "UPDATE \"Table\" SET …",
                    Kind::Delete => "DELETE FROM \"Table\" WHERE …",
                }
            ))
        })?;
        let index = name_at.and_then(|at| {
            let dot = tokens.get(at + 1)?;
            (dot.kind == TokenKind::Symbol && dot.text == ".")
                .then(|| name(at + 2))
                .flatten()
        });
        Ok(Classified {
            kind,
            table: table.text.clone(),
            index: index.map(|t| t.text.clone()),
            placeholders: tokens
                .iter()
                .filter(|t| t.kind == TokenKind::Placeholder)
                .count(),
        })
    }

    /// The second token's index plus one when it is `keyword` (`INSERT INTO`, `DELETE FROM`),
    /// an error naming the place otherwise.
    fn after(&self, tokens: &[Token], keyword: &str) -> Result<Option<usize>> {
        match tokens.get(1) {
            Some(t) if t.is_keyword(keyword) => Ok(Some(2)),
            Some(t) => Err(Error::Invalid(format!(
                "expected {keyword} after {}, found `{}` ({})",
                tokens
                    .first()
                    .map(|t| t.text.to_uppercase())
                    .unwrap_or_default(),
                t.text,
                position(&self.text, t.at)
            ))),
            None => Ok(None),
        }
    }

    /// [`classify`](Self::classify), and one parameter for each `?`: what is sent is complete.
    pub fn check(&self) -> Result<Classified> {
        let classified = self.classify()?;
        let given = self.params.len();
        if given < classified.placeholders {
            let unfilled = tokens(&self.text)?
                .into_iter()
                .filter(|t| t.kind == TokenKind::Placeholder)
                .nth(given)
                .map(|t| position(&self.text, t.at))
                .unwrap_or_default();
            return Err(Error::Invalid(format!(
                "the `?` at {unfilled} has no parameter: the statement has {} and {} {} given",
                plural_marks(classified.placeholders),
                given,
                if given == 1 { "was" } else { "were" }
            )));
        }
        if given > classified.placeholders {
            return Err(Error::Invalid(format!(
                "{given} parameters were given, but the statement has {}",
                plural_marks(classified.placeholders)
            )));
        }
        Ok(classified)
    }

    /// The statement on one line, cut after `max_chars`, with its parameters: for questions
    /// and reports.
    pub fn shown(&self, max_chars: usize) -> String {
        let flat = self.text.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut text: String = flat.chars().take(max_chars).collect();
        if flat.chars().count() > max_chars {
            text.push('…');
        }
        if self.params.is_empty() {
            format!("`{text}`")
        } else {
            let values: Vec<String> = self.params.iter().map(cell_text).collect();
            format!("`{text}` with ? = {}", values.join(", "))
        }
    }
}

fn plural_marks(count: usize) -> String {
    match count {
        0 => "no `?`".into(),
        1 => "one `?`".into(),
        n => format!("{n} `?`"),
    }
}

/// Whether `token` can be a table or index name: quoted, or a bare word.
fn is_name(token: &Token) -> bool {
    matches!(token.kind, TokenKind::Quoted | TokenKind::Word)
}

/// Parameter `number` (from 1) from DynamoDB JSON text such as `{"N": "42"}`; an error names
/// the parameter and, for bad JSON, the line and column.
pub(crate) fn parse_param(text: &str, number: usize) -> Result<AttributeValue> {
    let json = value::strict::parse(text).map_err(|e| {
        Error::Invalid(format!(
            "parameter {number}: {}",
            value::strict::error_text(&e)
        ))
    })?;
    let value = value::value_from_json(&json).map_err(|e| e.at(&format!("parameter {number}")))?;
    // What DynamoDB would refuse of the value (an empty set, a set's element twice, nesting
    // too deep) is said here, before anything is sent.
    crate::validate::check_value(&format!("parameter {number}"), &value)?;
    Ok(value)
}
