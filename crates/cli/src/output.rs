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
use dynoscope_core::report::{Line, Listing};
use dynoscope_core::terminal::{escape_controls, say};

use crate::style::{self, Form, Style};

/// Where a subcommand's words go.
#[derive(Debug, Default)]
pub(crate) struct Output {
    /// Why stdout stopped taking lines, when it did.
    failed: Option<io::ErrorKind>,
    /// The failure was already said (a read ended with it as its error).
    said: bool,
    /// How results are shown.
    style: Style,
}

impl Output {
    /// Output shown in `style`.
    pub(crate) fn with_style(style: Style) -> Self {
        Self {
            style,
            ..Self::default()
        }
    }

    /// How results are shown.
    pub(crate) fn style(&self) -> Style {
        self.style
    }

    /// The output asked for, if any.
    pub(crate) fn form(&self) -> Option<Form> {
        self.style.form
    }

    /// Whether results are JSON (`--json`, `--output json` or `jsonl`).
    pub(crate) fn json(&self) -> bool {
        self.style.form.is_some_and(Form::is_json)
    }

    /// A report's lines on stdout, each escaped, then coloured by its tone on a terminal.
    pub(crate) fn words(&mut self, lines: &[Line]) {
        for line in lines {
            let text = escape_controls(&line.text);
            let text = style::paint(line.tone, &text, self.style.colour);
            self.write(format_args!("{text}\n"));
        }
    }

    /// A list in the form asked for: `jsonl` (or `json`) an object a line, else its rows as
    /// [`rows`](Self::rows) shows them (headed unless --quiet); its summary as notes.
    pub(crate) fn listing(&mut self, listing: &Listing) {
        if self.json() {
            // Words, not an item's data: escaped as every report's JSON is (the same value).
            listing.objects.iter().for_each(|object| self.line(object));
        } else {
            self.rows(&listing.columns, &listing.rows, !self.style.quiet);
        }
        for line in &listing.summary {
            self.note(&line.text);
        }
    }

    /// Rows under `columns`: tab-separated with `text`, else aligned and fitted to the width;
    /// the header first when `head`.
    pub(crate) fn rows(&mut self, columns: &[String], rows: &[Vec<String>], head: bool) {
        if self.style.form == Some(Form::Text) {
            if head {
                self.text_row(columns);
            }
            for row in rows {
                self.text_row(row);
            }
            return;
        }
        let (width, colour) = (self.style.width, self.style.colour);
        let (lines, left_out) = style::table(columns, rows, width, head, colour);
        for line in lines {
            self.write(format_args!("{line}\n"));
        }
        if left_out > 0 {
            // Data not shown is said even with --quiet.
            let names: Vec<String> = (columns[columns.len() - left_out..].iter())
                .map(|name| style::one_line(name))
                .collect();
            self.error(format_args!(
                "dynoscope: {left_out} more column(s) did not fit in {} characters: {} (--output text or jsonl shows every one)",
                self.style.width.unwrap_or_default(),
                names.join(", ")
            ));
        }
    }

    /// One row of `text`: its cells tab-separated, each one line.
    fn text_row(&mut self, cells: &[String]) {
        let row = style::text_row(cells);
        self.write(format_args!("{row}\n"));
    }

    /// A line of words beside a result (an import's preview): on stdout without `--output`, as
    /// a note on stderr with one, so that stdout holds the result alone in the form asked for;
    /// nowhere with --quiet.
    pub(crate) fn aside(&mut self, text: impl Display) {
        if self.style.quiet {
            return;
        }
        if self.style.form.is_some() {
            self.note(text);
        } else {
            self.line(text);
        }
    }

    /// One line of results on stdout, its control characters escaped.
    pub(crate) fn line(&mut self, text: impl Display) {
        let text = text.to_string();
        self.write(format_args!("{}\n", escape_controls(&text)));
    }

    /// Results on stdout (text that ends its own lines), its control characters escaped.
    pub(crate) fn text(&mut self, text: impl Display) {
        let text = text.to_string();
        self.write(format_args!("{}", escape_controls(&text)));
    }

    /// One line of data on stdout exactly as given: an item of a data format (JSON lines),
    /// which a program reads, never escaped.
    pub(crate) fn data(&mut self, text: impl Display) {
        self.write(format_args!("{text}\n"));
    }

    /// A generated file on stdout, byte for byte (a completion script, a man page).
    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
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

    /// A note on stderr: progress, a summary, a hint; none with --quiet.
    pub(crate) fn note(&self, text: impl Display) {
        if !self.style.quiet {
            say(text);
        }
    }

    /// A handle that says notes (progress, a state, a hint) on stderr as this output would: none
    /// with --quiet. For a callback that cannot hold the output.
    pub(crate) fn notes(&self) -> Notes {
        Notes {
            quiet: self.style.quiet,
        }
    }

    /// An error, or what to do about one, on stderr: said even with --quiet.
    #[expect(
        clippy::unused_self,
        reason = "said through the output, as its notes are, though --quiet does not silence it"
    )]
    pub(crate) fn error(&self, text: impl Display) {
        say(text);
    }

    /// Whether stdout still takes lines: a read stops when it does not.
    pub(crate) fn open(&self) -> bool {
        self.failed.is_none()
    }

    /// Push what stdout holds to its reader, so that a result is out before a long wait.
    pub(crate) fn flush(&mut self) {
        if self.failed.is_none()
            && let Err(e) = io::stdout().lock().flush()
        {
            self.failed = Some(e.kind());
        }
    }

    /// Stdout's failure as the error a read ends with (said once, by whoever prints errors;
    /// [`finish`](Self::finish) then says nothing more).
    pub(crate) fn failure(&mut self) -> Option<Error> {
        let kind = self.failed?;
        self.said = true;
        Some(output_error(kind))
    }

    /// The end of a run: stdout flushed, and its failure said on stderr if nobody said it.
    pub(crate) fn finish(&mut self) {
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

/// Notes on stderr, none with --quiet: [`Output::notes`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Notes {
    quiet: bool,
}

impl Notes {
    /// Say `text` on stderr, unless quiet.
    pub(crate) fn say(self, text: impl Display) {
        if !self.quiet {
            say(text);
        }
    }
}

/// The error of output that could not be written.
fn output_error(kind: io::ErrorKind) -> Error {
    Error::Invalid(format!("cannot write output: {}", io::Error::from(kind)))
}
