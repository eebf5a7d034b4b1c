//! The one exit-code table of every subcommand, and how errors are printed: on stderr, once,
//! as a JSON object with `--json`.

use std::process::ExitCode;

use crate::output::Output;
use crate::style::Form;
use dynoscope_core::ending::Ending;
use dynoscope_core::error::document::ErrorDocument;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::expr::codegen::Program;
use dynoscope_core::report::{self, Report};

/// How a subcommand ended, as its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: done — applied, or no drift.
    Done,
    /// 1: the server refused or the data disagrees — a failed condition, a cancelled
    /// transaction, a missing item or parent, drift found, throttled beyond the retries.
    Refused,
    /// 2: bad input (the server's `ValidationException` included), usage, or a connection or
    /// server error before anything could apply.
    Error,
    /// 3: the outcome is unknown — it may have been applied; it was not sent again.
    Unknown,
}

/// The table, as `--help` and the manual (docs/cli.md) print it.
pub const EXIT_TABLE: &str = "Exit status (every subcommand):
  0  done: applied, or no drift
  1  the server refused or the data disagrees: condition failed, transaction cancelled,
     item or parent missing, drift found, a write throttled beyond the retries (nothing
     applied), or an import or storm of which some writes applied and others were refused
  2  bad input (the server's ValidationException too), usage, a connection or server
     error before anything could apply, or a read throttled beyond its retries (it could
     not finish: nothing is known to disagree)
  3  outcome unknown: it may have been applied, and was not sent again";

impl Exit {
    /// The status of a run that ended in `error`: a missing item or parent is the data
    /// disagreeing, and a write throttled beyond the retries the server refusing; every other error
    /// (a `ValidationException` included) came before anything could apply.
    pub fn of_error(error: &Error) -> Self {
        Self::from(Ending::of_error(error))
    }

    /// The exit status.
    pub fn status(self) -> u8 {
        match self {
            Self::Done => 0,
            Self::Refused => 1,
            Self::Error => 2,
            Self::Unknown => 3,
        }
    }

    /// The process exit code.
    pub fn code(self) -> ExitCode {
        ExitCode::from(self.status())
    }
}

/// The one mapping of a run's class to the table.
impl From<Ending> for Exit {
    fn from(ending: Ending) -> Self {
        match ending {
            Ending::Done => Self::Done,
            Ending::Refused => Self::Refused,
            Ending::BadInput => Self::Error,
            Ending::Unknown => Self::Unknown,
        }
    }
}

/// An error as the CLI says it with JSON output: the error's document, and the exit status it
/// ends the run with.
#[derive(serde::Serialize)]
struct ErrorLine {
    /// The error.
    #[serde(flatten)]
    error: ErrorDocument,
    /// The exit status (the table above).
    exit: u8,
}

/// Print `error` on stderr, once: a line of text, or with JSON output one JSON object; said
/// even with --quiet.
pub(crate) fn print_error(out: &Output, error: &Error) {
    if out.json() {
        let line = ErrorLine {
            error: ErrorDocument::from(error),
            exit: Exit::of_error(error).status(),
        };
        out.error(serde_json::to_value(&line).unwrap_or_else(|_| error.to_json()));
    } else {
        out.error(format_args!("dynoscope: {error}"));
    }
}

/// Say `report` on stdout in the output asked for, and exit by its ending: JSON its one
/// document; a list (`jsonl`, `table`, `text`) its rows (unheaded with --quiet); otherwise its
/// lines in words, or with --quiet its result alone. A run that applied nothing and failed is handed back, to be said
/// once on stderr. Stdout's failure, after a write, is said when the output ends and changes no
/// exit status.
pub(crate) fn said(out: &mut Output, report: &(impl Report + ?Sized)) -> Result<Exit> {
    if let Some(error) = report.failure() {
        return Err(error.clone());
    }
    let listing = report.listing();
    match (out.form(), listing) {
        (Some(Form::Json), _) | (Some(Form::Jsonl), None) => {
            out.line(report::document(report));
        }
        (Some(Form::Jsonl | Form::Table | Form::Text), Some(listing)) => out.listing(&listing),
        _ if out.style().quiet => report.result().iter().for_each(|line| out.line(line)),
        _ => out.words(&report.lines()),
    }
    Ok(Exit::from(report.ending()))
}

/// [`said`] for a run that only reads: what it read is all it does, so output it could not
/// print fails it.
pub(crate) fn said_read(out: &mut Output, report: &(impl Report + ?Sized)) -> Result<Exit> {
    let exit = said(out, report)?;
    out.flush();
    out.failure().map_or(Ok(exit), Err)
}

/// A whole program on stdout, and how to run it as a note: printing it is all the run does, so
/// a program that could not be printed fails it.
pub(crate) fn said_program(out: &mut Output, program: &Program) -> Result<Exit> {
    out.text(&program.code);
    out.flush();
    out.failure().map_or(Ok(()), Err)?;
    out.note(format_args!("note: {}", program.how_to_run()));
    Ok(Exit::Done)
}
