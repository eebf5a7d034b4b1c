//! Just enough of PartiQL's lexical rules to find a statement's first keyword, its table and
//! its `?` placeholders: words, `"quoted"` names, `'strings'`, `--` and `/* */` comments.
//! Everything else is left to the server, which parses the statement itself.

use crate::error::{Error, Result};

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// A bare word: a keyword, a name, a number.
    Word,
    /// A `"double-quoted"` name (its text is the name, unquoted).
    Quoted,
    /// A `'single-quoted'` string literal (its text is the string, unquoted).
    Text,
    /// A `?` parameter placeholder.
    Placeholder,
    /// Any other character: `.`, `{`, `=`, …
    Symbol,
}

/// One token and where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Its text (unquoted for names and strings).
    pub text: String,
    /// Its byte offset in the statement.
    pub at: usize,
}

impl Token {
    /// Whether it is the bare keyword `keyword`, in any case.
    pub(crate) fn is_keyword(&self, keyword: &str) -> bool {
        self.kind == TokenKind::Word && self.text.eq_ignore_ascii_case(keyword)
    }
}

/// `line L, column C` (both from 1) of byte offset `at` in `text`.
pub(super) fn position(text: &str, at: usize) -> String {
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .unwrap_or_default()
        .chars()
        .count()
        + 1;
    format!("line {line}, column {column}")
}

/// The tokens of `text`, comments and white space left out. A name, string or comment left
/// open is an error naming where it opened.
pub(super) fn tokens(text: &str) -> Result<Vec<Token>> {
    let mut found = Vec::new();
    let mut chars = text.char_indices().peekable();
    let unclosed = |what: &str, at: usize| {
        Error::Invalid(format!(
            "the {what} opened at {} is not closed",
            position(text, at)
        ))
    };
    while let Some((at, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '-' if chars.next_if(|&(_, c)| c == '-').is_some() => {
                while chars.next_if(|&(_, c)| c != '\n').is_some() {}
            }
            '/' if chars.next_if(|&(_, c)| c == '*').is_some() => {
                let mut star = false;
                loop {
                    match chars.next() {
                        Some((_, '/')) if star => break,
                        Some((_, c)) => star = c == '*',
                        None => return Err(unclosed("comment", at)),
                    }
                }
            }
            '"' | '\'' => {
                // A doubled quote inside stands for the quote itself.
                let mut inner = String::new();
                loop {
                    match chars.next() {
                        Some((_, q)) if q == c && chars.next_if(|&(_, n)| n == c).is_some() => {
                            inner.push(c);
                        }
                        Some((_, q)) if q == c => break,
                        Some((_, other)) => inner.push(other),
                        None if c == '"' => return Err(unclosed("quoted name", at)),
                        None => return Err(unclosed("string", at)),
                    }
                }
                let kind = if c == '"' {
                    TokenKind::Quoted
                } else {
                    TokenKind::Text
                };
                found.push(Token {
                    kind,
                    text: inner,
                    at,
                });
            }
            '?' => found.push(Token {
                kind: TokenKind::Placeholder,
                text: "?".into(),
                at,
            }),
            c if c.is_alphanumeric() || c == '_' || c == '$' => {
                let mut word = String::from(c);
                while let Some((_, c)) =
                    chars.next_if(|&(_, c)| c.is_alphanumeric() || c == '_' || c == '$')
                {
                    word.push(c);
                }
                found.push(Token {
                    kind: TokenKind::Word,
                    text: word,
                    at,
                });
            }
            other => found.push(Token {
                kind: TokenKind::Symbol,
                text: other.to_string(),
                at,
            }),
        }
    }
    Ok(found)
}
