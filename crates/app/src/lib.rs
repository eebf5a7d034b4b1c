//! The desktop app: one folder per feature — connection, tables, browse, edit, items, tally,
//! likes, watch, expr, transfer, compare — each owning its state, its panels and the work it
//! starts; the [`shell`] lays them out and carries [`Intent`](intent::Intent)s between them;
//! each keeps the one [`Feature`](feature::Feature) contract (poll, draw, start afresh on a
//! changed [`Subject`](feature::Subject)), and is handed the open table's
//! [`Scope`](scope::Scope) each frame. Drawing functions take `&mut Ui` and end in `_ui`. This
//! file only names the modules and what other crates use (the window, and `browse` for the
//! benches): every module imports another's items from that module itself.

mod admin;
pub mod browse;
mod compare;
mod connection;
mod edit;
mod expr;
mod feature;
mod intent;
mod item_size;
mod items;
mod key_fields;
mod likes;
mod metrics;
mod palette;
mod save;
mod scope;
mod shell;
mod tables;
mod tally;
mod transfer;
mod watch;
mod widgets;
mod write_flow;

pub use save::{SavePicker, Saver, SystemSavePicker};
pub use shell::{DynoscopeApp, Remembered};
