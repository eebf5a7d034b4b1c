//! Managing tables in the app: the Create table window, and the open table's Table view —
//! its settings changed one at a time, its items deleted in bulk, the table written as
//! infrastructure code, and the table deleted once its name is typed. Every change goes through
//! the one write flow and the core's table management.

mod backups;
mod clone;
mod create;
mod export;
mod fields;
mod purge;
mod purge_job;
mod run;
mod settings;
mod view;

pub(crate) use create::CreateForm;
pub(crate) use view::AdminFeature;
