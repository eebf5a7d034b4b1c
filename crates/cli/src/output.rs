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

use std::fmt::Display;
use std::io::{self, Write as _};

use dynoscope_core::error::Error;
use dynoscope_core::terminal::{escape_controls, say};

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

    /// A generated file on stdout, byte for byte (a completion script, a man page).
    pub fn bytes(&mut self, bytes: &[u8]) {
        if self.failed.is_some() {
            return;
        }
        if let Err(e) = io::stdout().lock().write_all(bytes) {
            self.failed = Some(e.kind());
        }
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

/// The error of output that could not be written.
fn output_error(kind: io::ErrorKind) -> Error {
    Error::Invalid(format!("cannot write output: {}", io::Error::from(kind)))
}
