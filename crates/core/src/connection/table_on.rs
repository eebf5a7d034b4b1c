//! A table where it is: the connection it is reached through and its description, which a copy
//! or a comparison takes for each of its two sides.

use crate::connection::Connection;
use crate::table::TableInfo;

/// A table on a connection, described: one side of a clone (its source or its destination).
#[derive(Debug, Clone, Copy)]
pub struct TableOn<'a> {
    /// Where the table is reached.
    pub connection: &'a Connection,
    /// The table, described.
    pub info: &'a TableInfo,
}

impl<'a> TableOn<'a> {
    /// The table `info` on `connection`.
    pub const fn new(connection: &'a Connection, info: &'a TableInfo) -> Self {
        Self { connection, info }
    }
}
