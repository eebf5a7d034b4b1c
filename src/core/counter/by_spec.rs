//! A counter edit from its spec, the whole way: the table described, the input checked, the
//! stored value read, the edit planned and sent once through the gateway. What `dynoscope add`
//! and the MCP server's `add` run.

use crate::core::cancel::{CancelToken, not_stopped, unless_stopped};
use crate::core::connection::Connection;
use crate::core::counter::{EditReport, plan_edit, update_counter};
use crate::core::error::Result;
use crate::core::read;
use crate::core::spec::AddSpec;
use crate::core::write::Destination;

/// Run `spec` (`confirmed`: the user said yes beforehand). An error before anything could be
/// sent is returned; once sent, the report says how it ended. Stopped before it is sent,
/// nothing is sent.
pub async fn add(
    connection: &Connection,
    spec: &AddSpec,
    confirmed: bool,
    stop: &CancelToken,
) -> Result<EditReport> {
    let client = &connection.client;
    let info = read::describe_unless_stopped(client, &spec.table, stop).await?;
    // Checked before anything is read or sent.
    let (mut item, request) = spec.plan(&info)?;
    let stored = unless_stopped(
        stop,
        "GetItem",
        read::read_attribute(client, &info.name, &item, &request.attribute),
    )
    .await?;
    if let Some(stored) = stored {
        item.insert(request.attribute.clone(), stored);
    }
    let destination = Destination::of(connection);
    let plan = plan_edit(&destination, &info, &item, &request, spec.mode)?;
    not_stopped(stop, "UpdateItem")?;
    let outcome = update_counter(connection, &plan, confirmed).await;
    Ok(EditReport {
        plan,
        outcome,
        pricing: connection.pricing(&info),
    })
}
