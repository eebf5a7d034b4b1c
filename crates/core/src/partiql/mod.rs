//! PartiQL: statements with typed `?` parameters. A `SELECT` is read page by page
//! ([`execute_page`], [`read_statement`]); an `INSERT`, `UPDATE` or `DELETE` is a
//! [`WritePlan`](crate::write::WritePlan) sent by the write gateway ([`plan_write`],
//! [`write()`]), once. Nothing here draws.

mod page;
mod write;

pub use crate::statement::Classified;
pub use crate::statement::{Kind, Statement};
pub use page::{PartiqlPage, execute_page, read_statement};
pub use write::{StatementOutcome, StatementReport, plan_write, write};

#[cfg(test)]
mod tests;
