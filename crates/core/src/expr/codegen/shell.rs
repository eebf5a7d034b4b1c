//! Bash: quoting a word so that bash reads it back exactly, and reading a pasted command line
//! back into its words, as bash would without expanding anything.

use crate::terminal::steers;

/// Quote `text` for bash: single quotes, with embedded single quotes closed and escaped; a
/// text holding a new line or a character that steers a terminal (which a terminal would not
/// show, and which the CLI prints escaped) in ANSI-C quotes, `$'…\xe2\x80\xae…'`, so the command
/// holds no such character raw and means the same wherever it is printed.
pub(crate) fn shell_quote(text: &str) -> String {
    if !text.chars().any(|c| c == '\n' || steers(c)) {
        return format!("'{}'", text.replace('\'', r"'\''"));
    }
    let mut out = String::from("$'");
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            // As UTF-8 bytes: bash reads `\xHH` the same in any locale, `\uXXXX` only in a
            // UTF-8 one.
            c if steers(c) => {
                let mut bytes = [0; 4];
                for byte in c.encode_utf8(&mut bytes).bytes() {
                    out.push_str(&format!("\\x{byte:02x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// Split a bash command line into its words, as bash would without expanding anything: single
/// and double quotes, backslash escapes, line continuations and `#` comments. Text that bash
/// would expand (`$`, backquotes) is refused: what it stands for cannot be known here.
pub fn shell_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars().peekable();
    // An unescaped new line after a word ends the command; another may not follow.
    let mut ended = false;
    while let Some(c) = chars.next() {
        if ended && word.is_none() && !matches!(c, ' ' | '\t' | '\n' | '\r' | '#') {
            return Err(
                "one command only: a new line ends the command (is a `\\` missing at the end of the line before?)"
                    .into(),
            );
        }
        match c {
            ' ' | '\t' | '\r' => words.extend(word.take()),
            '\n' => {
                words.extend(word.take());
                ended = !words.is_empty();
            }
            '#' if word.is_none() => while chars.next_if(|&c| c != '\n').is_some() {},
            '\\' => match chars.next() {
                Some('\n') => {}
                Some('\r') if chars.next_if_eq(&'\n').is_some() => {}
                Some(escaped) => word.get_or_insert_default().push(escaped),
                None => return Err("the command ends with a lone `\\`".into()),
            },
            '\'' => {
                let part = word.get_or_insert_default();
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => part.push(c),
                        None => return Err("a single quote is not closed".into()),
                    }
                }
            }
            '"' => double_quoted(&mut chars, word.get_or_insert_default())?,
            '$' if chars.next_if_eq(&'\'').is_some() => {
                ansi_c_quoted(&mut chars, word.get_or_insert_default())?;
            }
            '$' | '`' => return Err(expansion(c)),
            ';' | '|' | '&' | '<' | '>' | '(' | ')' => {
                return Err(format!(
                    "`{c}`: one command only, without pipes or redirections"
                ));
            }
            c => word.get_or_insert_default().push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// The rest of a double-quoted part, after its opening quote, onto `part`.
fn double_quoted(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    part: &mut String,
) -> Result<(), String> {
    loop {
        match chars.next() {
            Some('"') => return Ok(()),
            Some('\\') => match chars.next() {
                Some('\n') => {}
                Some(c @ ('"' | '\\' | '$' | '`')) => part.push(c),
                Some(c) => {
                    part.push('\\');
                    part.push(c);
                }
                None => return Err("a double quote is not closed".into()),
            },
            Some(c @ ('$' | '`')) => return Err(expansion(c)),
            Some(c) => part.push(c),
            None => return Err("a double quote is not closed".into()),
        }
    }
}

/// The rest of an ANSI-C quoted part (`$'…'`), after its opening quote, onto `part`: the
/// escapes bash reads there (`\n`, `\t`, `\\`, `\'`, `\uXXXX`, …); `\xHH` escapes are bytes,
/// read together as UTF-8.
fn ansi_c_quoted(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    part: &mut String,
) -> Result<(), String> {
    let open = || "an ANSI-C quote ($'…') is not closed".to_owned();
    let mut bytes: Vec<u8> = Vec::new();
    let flush = |bytes: &mut Vec<u8>, part: &mut String| -> Result<(), String> {
        if !bytes.is_empty() {
            let text = String::from_utf8(std::mem::take(bytes))
                .map_err(|_| "`\\x` escapes that are not UTF-8".to_owned())?;
            part.push_str(&text);
        }
        Ok(())
    };
    loop {
        let c = chars.next().ok_or_else(open)?;
        if c == '\\' && chars.next_if_eq(&'x').is_some() {
            let hex: String = std::iter::from_fn(|| chars.next_if(char::is_ascii_hexdigit))
                .take(2)
                .collect();
            let byte =
                u8::from_str_radix(&hex, 16).map_err(|_| format!("`\\x{hex}` is not a byte"))?;
            bytes.push(byte);
            continue;
        }
        flush(&mut bytes, part)?;
        match c {
            '\'' => return Ok(()),
            '\\' => part.push(escaped(chars, &open)?),
            c => part.push(c),
        }
    }
}

/// The character an escape in `$'…'` stands for, after its backslash (not `\x`, read as bytes).
fn escaped(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    open: &dyn Fn() -> String,
) -> Result<char, String> {
    let escaped = chars.next().ok_or_else(open)?;
    let simple = match escaped {
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'e' | 'E' => Some('\u{1b}'),
        'f' => Some('\u{c}'),
        'v' => Some('\u{b}'),
        '\\' | '\'' | '"' | '?' => Some(escaped),
        _ => None,
    };
    match (simple, escaped) {
        (Some(c), _) => Ok(c),
        (None, 'u' | 'U') => {
            let most = if escaped == 'u' { 4 } else { 8 };
            let hex: String = std::iter::from_fn(|| chars.next_if(char::is_ascii_hexdigit))
                .take(most)
                .collect();
            u32::from_str_radix(&hex, 16)
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| format!("`\\{escaped}{hex}` is not a character"))
        }
        (None, other) => Err(format!("`\\{other}` in $'…' is not read here")),
    }
}

fn expansion(c: char) -> String {
    format!(
        "`{c}` asks the shell to expand something: paste the command with its values written out"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_read_back_what_shell_quote_writes() {
        for text in [
            "",
            "it's",
            "a b\n\tc",
            "\\",
            "$HOME `x`",
            "'''",
            "\"q\"",
            "#n0 = :v0",
            "é",
            "bidi \u{202e} and \u{1b}[2J, 'quoted' \\ \n new line, C1 \u{9b} é",
        ] {
            let line = format!("aws {} \\\n  --x", shell_quote(text));
            assert_eq!(shell_words(&line).unwrap(), ["aws", text, "--x"], "{line}");
        }
        // Bytes in \x escapes are UTF-8, as bash reads them.
        assert_eq!(
            shell_words("a $'\\xe2\\x80\\xae\\u00e9'").unwrap(),
            ["a", "\u{202e}é"]
        );
        assert!(shell_words("a $'\\xff'").is_err());
        assert_eq!(
            shell_words("\n a\\ b \"c \\\"d\\$\\e\" f\\\r\ng # comment\n\n").unwrap(),
            ["a b", "c \"d$\\e", "fg"]
        );
        for bad in [
            "echo $HOME",
            "a \"$(x)\"",
            "a `x`",
            "a 'open",
            "a \"open",
            "a | b",
            "a; b",
            "a\\",
            "a\nb",
            "a # comment\nb",
        ] {
            assert!(shell_words(bad).is_err(), "{bad}");
        }
    }
}
