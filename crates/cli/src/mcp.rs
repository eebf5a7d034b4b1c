//! `dynoscope mcp`: the settings of the MCP server checked before it serves (writes allowed
//! where, the audit log), then stdin and stdout left to the protocol; notes go to stderr.

use crate::args::{ConnectionFlags, McpArgs};
use crate::output::Output;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::write::Destination;
use dynoscope_mcp::audit::Event;
use dynoscope_mcp::{self as mcp, Audit, Writes};

/// Serve `connection` until the client leaves or the run is interrupted.
pub(crate) async fn mcp(
    connection: Connection,
    flags: &ConnectionFlags,
    args: &McpArgs,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<()> {
    let destination = Destination::of(&connection);
    let writes = match (args.allow_writes, destination.read_only) {
        (false, _) => Writes::Off,
        (true, true) => {
            return Err(Error::Invalid(
                "--allow-writes on a read-only connection: a read-only connection writes nothing; leave one of them out".into(),
            ));
        }
        (true, false) if !destination.local && !destination.protected && !flags.yes => {
            return Err(Error::Invalid(format!(
                "{} is not on this machine: writes there need --allow-writes --yes",
                destination.place()
            )));
        }
        (true, false) if destination.protected && !flags.confirmed() => {
            return Err(Error::Invalid(format!(
                "{} is protected: writes there need --allow-writes --confirm-name {}",
                destination.place(),
                flags.protected_name().unwrap_or_default()
            )));
        }
        (true, false) => Writes::On {
            confirmed: flags.confirmed(),
        },
    };
    let path = match &args.audit {
        Some(path) => path.clone(),
        None => mcp::audit::default_path().ok_or_else(|| {
            Error::Invalid(
                "there is no data folder for the audit log (HOME is not set): give --audit FILE"
                    .into(),
            )
        })?,
    };
    let audit = Audit::open(&path)?;
    audit.append(Event::Start {
        connection: connection.target.clone(),
        region: connection.region.clone(),
        writes: matches!(writes, Writes::On { .. }),
    })?;
    out.note(format_args!(
        "dynoscope mcp: serving {} ({}) over stdio; writes {}; audit log {}",
        connection.target,
        connection.region,
        match writes {
            Writes::Off => "off",
            Writes::On { .. } => "on",
        },
        path.display()
    ));
    mcp::serve(connection, writes, audit, stop, args.exports.clone()).await
}
