//! The desktop app: one file per panel. Drawing functions take `&mut Ui` and end in `_ui`.

pub mod app;
pub mod connection_bar;
pub mod counter_editor;
pub mod describe_panel;
pub mod expr_panel;
pub mod item_view;
pub mod likes_panel;
pub mod query_form;
pub mod reconcile_panel;
pub mod results_grid;
pub mod rule_editor;
pub mod status_bar;
pub mod tables_panel;
pub mod tally_panel;
mod widgets;

pub use app::DynoscopeApp;
