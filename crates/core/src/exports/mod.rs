//! DynamoDB's own export of a table to S3: started through the one gateway (point-in-time
//! recovery checked first, the price said before, a `ClientToken` so that a re-send cannot start
//! two), followed with `DescribeExport` until it is done, and the table's earlier exports listed.
//! The export's files are then read where they are (`tally::check_export_at`).

mod info;
mod plan;
mod route_report;
mod routes;
mod run;

pub use info::{ExportInfo, describe_export, list_exports};
pub use plan::{ExportPlan, S3ExportSpec, WindowSpec as ExportWindow};
pub use route_report::{Route, RoutePlan, Sized, duration};
pub use routes::{EXPORT_ITEMS_PER_S, PlanSpec, SCAN_ITEMS_PER_S};
pub use run::{ExportEvent, ExportRun, run};
