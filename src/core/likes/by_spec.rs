//! A like or unlike from its spec, the whole way: the table described, the target and user
//! checked, the confirmation asked for before anything is read, then the transaction sent
//! through the gateway with the tally and children read before and after. What `dynoscope
//! like|unlike` and the MCP server's `like`/`unlike` run.

use crate::core::cancel::{CancelToken, not_stopped};
use crate::core::connection::Connection;
use crate::core::error::Result;
use crate::core::likes::{LikeOp, LikeReport, like_and_observe, like_request, now_secs};
use crate::core::read;
use crate::core::spec::LikeSpec;
use crate::core::write::Destination;

/// Run `spec` as `op` (`confirmed`: the user said yes beforehand). An error before anything
/// was sent is returned; once sent, the report says how it ended.
pub async fn like(
    connection: &Connection,
    op: LikeOp,
    spec: &LikeSpec,
    confirmed: bool,
    stop: &CancelToken,
) -> Result<LikeReport> {
    let info = read::describe_unless_stopped(&connection.client, &spec.table, stop).await?;
    let (target, user) = spec.plan(&info)?;
    let request = like_request(
        &Destination::of(connection),
        op,
        &target,
        &user,
        spec.token.clone(),
        now_secs(),
    )?;
    // Refused before anything is read when a confirmation is needed and not given.
    request.write_plan().confirmation().check(confirmed)?;
    not_stopped(stop, "TransactWriteItems")?;
    like_and_observe(connection, &info, request, confirmed, stop).await
}
