//! The arguments of what the binary says of itself: `completions`, `man` and `paths`.

use std::path::PathBuf;

use clap_complete::Shell;

/// `dynoscope completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    pub shell: Shell,
}

/// `dynoscope man`.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// The subcommand whose page is printed (`check`, `table export`); the whole command's when
    /// none is given.
    pub subcommand: Vec<String>,
    /// Write every command's page into this folder instead (`dynoscope.1`,
    /// `dynoscope-check.1`, `dynoscope-table-export.1`, …), as a package installs them.
    #[arg(long, value_name = "DIR", conflicts_with = "subcommand")]
    pub out: Option<PathBuf>,
    /// Replace pages already in the folder.
    #[arg(long, requires = "out")]
    pub force: bool,
}

/// `dynoscope paths`.
#[derive(Debug, clap::Args)]
pub struct PathsArgs {}
