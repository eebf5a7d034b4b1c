//! The app's marks on a connection (read-only, protected by a name), read before a run
//! connects: a connection marked in the app is marked for the command line and the MCP server
//! too, and no flag lifts the mark.

use crate::output::Output;
use dynoscope_core::connection::{ConnectionSpec, Mark, Marks};
use dynoscope_core::error::Result;

/// How the app marks `spec`. Marks that cannot be read stop a run that `writes` (a write is
/// never sent past a mark unread); a read goes on, saying so.
///
/// # Errors
/// When the marks cannot be read and the run writes.
pub(crate) fn mark_of(spec: &ConnectionSpec, writes: bool, out: &Output) -> Result<Mark> {
    let Some(path) = Marks::path() else {
        return Ok(Mark::default());
    };
    let mark = match Marks::read(&path) {
        Ok(marks) => marks.map(|m| m.of(spec)).unwrap_or_default(),
        Err(error) if writes => return Err(error),
        Err(error) => {
            out.error(format_args!("dynoscope: {error}; read on without them"));
            return Ok(Mark::default());
        }
    };
    if writes && mark.any() {
        let how = match (&mark.protected, mark.read_only) {
            (_, true) => "read-only".to_owned(),
            (Some(name), false) => format!("protected (a write needs --confirm-name {name})"),
            (None, false) => String::new(),
        };
        out.note(format_args!(
            "dynoscope: {} is {how} in the app's saved connections ({})",
            spec.clone().without_userinfo().label(),
            path.display()
        ));
    }
    Ok(mark)
}
