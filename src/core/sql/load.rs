//! A table or a partition read through the one reader into an SQL session.

use crate::core::error::Result;
use crate::core::sql::SqlSession;

/// Read one table or partition through the one reader and load it into `session`; what was
/// loaded, in words.
pub async fn load_into(
    connection: &crate::core::connection::Connection,
    session: &mut SqlSession,
    load: &crate::core::spec::SqlLoad,
) -> Result<String> {
    let client = &connection.client;
    let info = crate::core::read::describe_table(client, &load.table).await?;
    let read = crate::core::read::read_table(client, &info, load.partition.as_deref()).await?;
    let loaded = session.load_rows(&load.name, &info.key_names(), &read.rows)?;
    Ok(format!(
        "{} ({} of {}: {})",
        loaded.summary(),
        read.request.op(),
        load.table,
        crate::core::report::read_summary(
            read.rows.len(),
            read.pages,
            &connection.pricing(&info).read(read.rcu)
        )
    ))
}
