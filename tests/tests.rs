//! dynoscope's integration tests, in one binary (as ripgrep keeps them): the embedded engine
//! over HTTP through the real SDK client, the CLI and the MCP server as child processes, the
//! fault-injecting proxy, moto's server and the real tools that check generated artefacts. The
//! shared helpers in `common` are compiled once. The app's kittest journeys are the `ui` binary
//! beside this one: they set the process's AWS credentials for endpoints not on this machine.

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failed unwrap is a failed test"
)]

#[expect(
    dead_code,
    reason = "the test binaries share these helpers, each using a part"
)]
mod common;

mod architecture;
mod athena_sql;
mod backups;
mod backups_cli;
mod book;
mod browse;
mod cli;
mod cli_expr;
mod cli_repair;
mod cli_tally;
mod clone;
mod clone_cli;
mod cost;
mod cost_cli;
mod counter;
mod deny;
mod diff;
mod diff_over_time;
mod docs;
mod electrodb;
mod exit_table;
mod exits;
mod exits_bounds;
mod export_files;
mod export_start;
mod exports_twice;
mod expr;
mod expr_copied;
mod faults;
mod faults_likes;
mod iac;
mod import_bounds;
mod import_check;
mod import_skip;
mod interrupts;
mod interrupts_s3;
mod items;
mod likes;
mod mcp;
mod metrics;
mod one_pass;
mod output;
mod output_forms;
mod output_quiet;
mod package;
mod partiql;
mod partiql_cli;
mod places_said;
mod programs;
mod programs_cli;
mod programs_outcomes;
mod programs_runs;
mod purge;
mod reads;
mod reads_cli;
mod refused_inputs;
mod s3_export;
mod s3_import;
mod sandbox_file;
mod seed;
mod size_cli;
mod snapshots_checked;
mod sql;
mod tables;
mod tables_faults;
mod tally;
mod targets;
mod task;
mod throttle_reasons;
mod toolbox;
mod transfer;
mod transfer_files;
mod transfer_gateway;
mod watch;
mod watch_baseline;
mod watch_cli;
mod watch_faults;
mod window;
