//! Splitting expression text into tokens, each with its character position.

use crate::core::expr::error::ExprError;

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

pub(super) fn tokenize(text: &str) -> Result<Vec<Token>, ExprError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    let word = |start: usize| {
        let mut end = start;
        while end < chars.len() && (chars[end].is_ascii_alphanumeric() || chars[end] == '_') {
            end += 1;
        }
        (chars[start..end].iter().collect::<String>(), end)
    };
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let pos = i;
        if c == '#' || c == ':' {
            let (name, end) = word(i + 1);
            if name.is_empty() {
                return Err(ExprError {
                    message: format!("`{c}` must be followed by a placeholder name"),
                    position: pos,
                });
            }
            let tok = if c == '#' {
                Tok::Name(format!("#{name}"))
            } else {
                Tok::Value(format!(":{name}"))
            };
            tokens.push(Token { tok, pos });
            i = end;
        } else if c.is_ascii_digit() {
            let (digits, mut end) = word(i);
            // A fraction (`1.5`) or exponent (`1e3`) makes it a number literal; `a[1].b` stays an index.
            let fraction =
                end + 1 < chars.len() && chars[end] == '.' && chars[end + 1].is_ascii_digit();
            if fraction || digits.contains(['e', 'E']) {
                if fraction {
                    end = word(end + 1).1;
                }
                let text: String = chars[i..end].iter().collect();
                tokens.push(Token {
                    tok: Tok::Number(text),
                    pos,
                });
                i = end;
                continue;
            }
            match digits.parse::<u32>() {
                Ok(n) => tokens.push(Token {
                    tok: Tok::Int(n),
                    pos,
                }),
                Err(_) => tokens.push(Token {
                    tok: Tok::Number(digits),
                    pos,
                }),
            }
            i = end;
        } else if c == '\'' || c == '"' {
            let Some(close) = chars[i + 1..].iter().position(|&q| q == c) else {
                return Err(ExprError {
                    message: "the quoted text has no closing quote".into(),
                    position: pos,
                });
            };
            let text: String = chars[i + 1..i + 1 + close].iter().collect();
            tokens.push(Token {
                tok: Tok::Text(text),
                pos,
            });
            i += close + 2;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let (name, end) = word(i);
            tokens.push(Token {
                tok: Tok::Ident(name),
                pos,
            });
            i = end;
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let Some(sym) = SYMBOLS.iter().find(|s| rest.starts_with(**s)) else {
                return Err(ExprError {
                    message: format!("unexpected character `{c}`"),
                    position: pos,
                });
            };
            tokens.push(Token {
                tok: Tok::Sym(sym),
                pos,
            });
            i += sym.len();
        }
    }
    tokens.push(Token {
        tok: Tok::End,
        pos: chars.len(),
    });
    Ok(tokens)
}
