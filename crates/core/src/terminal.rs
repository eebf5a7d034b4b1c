//! Words for a terminal: a line on stderr from any front end (the CLI, the MCP server, the
//! binary's own errors), with the characters that would steer the terminal escaped.
//!
//! A key holding `ESC [ 2 J` cannot clear the screen, move the cursor or overwrite a line: C0
//! but a newline and a tab, DEL, C1 and the bidirectional overrides become `\u001b`, which JSON,
//! HCL and TypeScript strings read as the same character (a JSON line stays the same value).

use std::borrow::Cow;
use std::fmt::Display;
use std::io::{self, Write as _};

/// A line on stderr, from anywhere (a signal's note included), its control characters
/// escaped; a failing stderr is dropped.
pub fn say(text: impl Display) {
    let text = text.to_string();
    let _ = writeln!(io::stderr().lock(), "{}", escape_controls(&text));
}

/// Whether `c` would steer a terminal rather than show: C0 but a newline and a tab, DEL, C1,
/// and the marks and overrides that reorder text (Trojan Source's).
pub(crate) fn steers(c: char) -> bool {
    matches!(c,
        '\0'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with each character that [`steers`] a terminal as `\uXXXX` (all are below U+FFFF).
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(steers) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if steers(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::escape_controls;

    #[test]
    fn what_steers_a_terminal_is_escaped_and_the_rest_kept() {
        assert_eq!(
            escape_controls("PK = POST#a91f · é 😀"),
            "PK = POST#a91f · é 😀"
        );
        assert_eq!(escape_controls("a\nb\tc"), "a\nb\tc");
        assert_eq!(
            escape_controls("\u{1b}[2J\r\u{7f}\u{9b}\u{202e}x"),
            r"\u001b[2J\u000d\u007f\u009b\u202ex"
        );
        // A JSON line escaped is the same value.
        let line = "{\"PK\":\"a\u{7f}\u{202e}\"}";
        let back: serde_json::Value = serde_json::from_str(&escape_controls(line)).unwrap();
        assert_eq!(
            back,
            serde_json::from_str::<serde_json::Value>(line).unwrap()
        );
    }
}
