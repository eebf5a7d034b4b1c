//! The one output path of every subcommand: results on stdout, notes and errors on stderr.
//!
//! Output can't change an outcome: a closed pipe (`| head -1`, `| true`), a full disk or a
//! failing terminal never panics and never turns an applied write into another exit status. The
//! first failure on stdout is kept and every later result line dropped; it is said once on
//! stderr at the end ("cannot write output: …"), and the exit status stays what happened. A
//! failing stderr is dropped in silence: there is nowhere left to say it.
//!
//! Words for people (every line but [`Output::data`]'s) reach a terminal with its control
//! characters escaped, so a key holding `ESC [ 2 J` cannot clear the screen, move the cursor
//! or overwrite a line: C0 but a newline and a tab, DEL, C1 and the bidirectional overrides
//! become `\u001b`, which JSON, HCL and TypeScript strings read as the same character (a JSON
//! line stays the same value). A newline is kept, since the words are lines; a key that holds
//! one still begins a new line where it is printed.

use std::borrow::Cow;
use std::fmt::Display;
use std::io::{self, Write as _};

use crate::core::error::Error;

/// Where a subcommand's words go.
#[derive(Debug, Default)]
pub struct Output {
    /// Why stdout stopped taking lines, when it did.
    failed: Option<io::ErrorKind>,
    /// The failure was already said (a read ended with it as its error).
    said: bool,
}

impl Output {
    /// Output on this process's stdout and stderr.
    pub fn new() -> Self {
        Self::default()
    }

    /// One line of results on stdout, its control characters escaped.
    pub fn line(&mut self, text: impl Display) {
        let text = text.to_string();
        self.write(format_args!("{}\n", escape_controls(&text)));
    }

    /// Results on stdout (text that ends its own lines), its control characters escaped.
    pub fn text(&mut self, text: impl Display) {
        let text = text.to_string();
        self.write(format_args!("{}", escape_controls(&text)));
    }

    /// One line of data on stdout exactly as given: an item of a data format (JSON lines),
    /// which a program reads, never escaped.
    pub fn data(&mut self, text: impl Display) {
        self.write(format_args!("{text}\n"));
    }

    fn write(&mut self, args: std::fmt::Arguments<'_>) {
        if self.failed.is_some() {
            return;
        }
        let mut out = io::stdout().lock();
        if let Err(e) = out.write_fmt(args) {
            self.failed = Some(e.kind());
        }
    }

    /// A note on stderr: progress, a summary, a hint.
    pub fn note(&self, text: impl Display) {
        say(text);
    }

    /// Whether stdout still takes lines: a read stops when it does not.
    pub fn open(&self) -> bool {
        self.failed.is_none()
    }

    /// Push what stdout holds to its reader, so that a result is out before a long wait.
    pub fn flush(&mut self) {
        if self.failed.is_none()
            && let Err(e) = io::stdout().lock().flush()
        {
            self.failed = Some(e.kind());
        }
    }

    /// Stdout's failure as the error a read ends with (said once, by whoever prints errors;
    /// [`finish`](Self::finish) then says nothing more).
    pub fn failure(&mut self) -> Option<Error> {
        let kind = self.failed?;
        self.said = true;
        Some(output_error(kind))
    }

    /// The end of a run: stdout flushed, and its failure said on stderr if nobody said it.
    pub fn finish(&mut self) {
        self.flush();
        if let Some(kind) = self.failed.filter(|_| !self.said) {
            self.said = true;
            say(format_args!(
                "dynoscope: {}; the exit status still says how it ended",
                output_error(kind)
            ));
        }
    }
}

/// A line on stderr, from anywhere (a signal's note included), its control characters
/// escaped; a failing stderr is dropped.
pub fn say(text: impl Display) {
    let text = text.to_string();
    let _ = writeln!(io::stderr().lock(), "{}", escape_controls(&text));
}

/// Whether `c` would steer a terminal rather than show: C0 but a newline and a tab, DEL, C1,
/// and the marks and overrides that reorder text (Trojan Source's).
fn steers(c: char) -> bool {
    matches!(c,
        '\0'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with each character that [`steers`] a terminal as `\uXXXX` (all are below U+FFFF).
fn escape_controls(text: &str) -> Cow<'_, str> {
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

/// The error of output that could not be written.
fn output_error(kind: io::ErrorKind) -> Error {
    Error::Invalid(format!("cannot write output: {}", io::Error::from(kind)))
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
