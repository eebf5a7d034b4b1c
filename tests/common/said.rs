//! A report read as a test reads it: how it ended, with the error of a run that applied
//! nothing, and its lines as plain text.

use dynoscope_core::ending::Ending;
use dynoscope_core::error::Error;
use dynoscope_core::report::Report;

/// Any report, read by a test.
pub(crate) trait Said {
    /// The ending, or the error it failed with before anything applied.
    fn ended(&self) -> Result<Ending, Error>;
    /// The lines' words.
    fn texts(&self) -> Vec<String>;
}

impl<R: Report> Said for R {
    fn ended(&self) -> Result<Ending, Error> {
        match self.failure() {
            Some(error) => Err(error.clone()),
            None => Ok(self.ending()),
        }
    }

    fn texts(&self) -> Vec<String> {
        self.lines().into_iter().map(|line| line.text).collect()
    }
}
