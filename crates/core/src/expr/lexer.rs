//! Splitting expression text into tokens, each with its character position. The text is held
//! to DynamoDB's length limit here, before anything recurses over it.

use crate::expr::error::{ExprError, err};

/// DynamoDB's limit on the length of one expression: 4 KB (4096 bytes of UTF-8).
pub(crate) const MAX_EXPRESSION_BYTES: usize = 4096;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Ident(String),
    Name(String),
    Value(String),
    Int(u32),
    /// A number literal with a fraction or exponent (builder input only).
    Number(String),
    /// A quoted string literal (builder input only).
    Text(String),
    Sym(&'static str),
    End,
}

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) pos: usize,
}

pub(super) const SYMBOLS: [&str; 14] = [
    "<=", ">=", "<>", "=", "<", ">", "(", ")", ",", ".", "[", "]", "+", "-",
];

/// The tokens of `text`, ending with [`Tok::End`]. A token that does not end within
/// [`MAX_EXPRESSION_BYTES`] is refused where it starts, so a long text costs no more than 4 KB
/// of work.
pub(super) fn tokenize(text: &str) -> Result<Vec<Token>, ExprError> {
    let chars: Vec<char> = text.chars().collect();
    // Byte offset of each character, and of the end.
    let offsets: Vec<usize> = text
        .char_indices()
        .map(|(b, _)| b)
        .chain(std::iter::once(text.len()))
        .collect();
    let too_long = |position: usize| {
        err(
            format!(
                "the expression is {} bytes long; DynamoDB takes at most {MAX_EXPRESSION_BYTES} (4 KB)",
                text.len()
            ),
            position,
        )
    };
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let (tok, end) = token_at(&chars, i)?;
        if offsets[end] > MAX_EXPRESSION_BYTES {
            return too_long(i);
        }
        tokens.push(Token { tok, pos: i });
        i = end;
    }
    if text.len() > MAX_EXPRESSION_BYTES {
        // Every token fits: the whitespace after the last one is what goes past the limit.
        let first_over = offsets.partition_point(|&b| b < MAX_EXPRESSION_BYTES);
        return too_long(first_over);
    }
    tokens.push(Token {
        tok: Tok::End,
        pos: chars.len(),
    });
    Ok(tokens)
}

/// The token starting at `chars[start]` (not whitespace), and where it ends.
fn token_at(chars: &[char], start: usize) -> Result<(Tok, usize), ExprError> {
    let word = |from: usize| {
        let mut end = from;
        while end < chars.len() && (chars[end].is_ascii_alphanumeric() || chars[end] == '_') {
            end += 1;
        }
        (chars[from..end].iter().collect::<String>(), end)
    };
    let c = chars[start];
    if c == '#' || c == ':' {
        let (name, end) = word(start + 1);
        if name.is_empty() {
            return err(
                format!("`{c}` must be followed by a placeholder name"),
                start,
            );
        }
        let tok = if c == '#' {
            Tok::Name(format!("#{name}"))
        } else {
            Tok::Value(format!(":{name}"))
        };
        return Ok((tok, end));
    }
    if c.is_ascii_digit() {
        let (digits, mut end) = word(start);
        // A fraction (`1.5`) or exponent (`1e3`) makes it a number literal; `a[1].b` stays an index.
        let fraction =
            end + 1 < chars.len() && chars[end] == '.' && chars[end + 1].is_ascii_digit();
        if fraction || digits.contains(['e', 'E']) {
            if fraction {
                end = word(end + 1).1;
            }
            return Ok((Tok::Number(chars[start..end].iter().collect()), end));
        }
        let tok = match digits.parse::<u32>() {
            Ok(n) => Tok::Int(n),
            Err(_) => Tok::Number(digits),
        };
        return Ok((tok, end));
    }
    if c == '\'' || c == '"' {
        let Some(close) = chars[start + 1..].iter().position(|&q| q == c) else {
            return err("the quoted text has no closing quote", start);
        };
        let text: String = chars[start + 1..start + 1 + close].iter().collect();
        return Ok((Tok::Text(text), start + close + 2));
    }
    if c.is_ascii_alphabetic() || c == '_' {
        let (name, end) = word(start);
        return Ok((Tok::Ident(name), end));
    }
    let rest: String = chars[start..chars.len().min(start + 2)].iter().collect();
    match SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
        Some(sym) => Ok((Tok::Sym(sym), start + sym.len())),
        None => err(format!("unexpected character `{c}`"), start),
    }
}
