//! The arguments of `dynoscope table backup|backups|restore|delete-backup`: on-demand backups
//! of a table, made, listed, restored into a new table and deleted.

use clap::Args;

/// `dynoscope table backup`.
#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// The backup's name: 3 to 255 letters, digits, `_`, `-` or `.`
    #[arg(long)]
    pub name: String,
}

/// `dynoscope table backups`.
#[derive(Debug, Args)]
pub struct BackupsArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
}

/// `dynoscope table restore`.
#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// The backup's ARN (as `dynoscope table backups` lists it).
    #[arg(long, value_name = "ARN")]
    pub backup_arn: String,
    /// The new table: refused when a table of that name exists.
    #[arg(long, value_name = "NAME")]
    pub to_table: String,
}

/// `dynoscope table delete-backup`.
#[derive(Debug, Args)]
pub struct DeleteBackupArgs {
    /// The backup's ARN.
    #[arg(long, value_name = "ARN")]
    pub backup_arn: String,
    /// The backup's name or ARN typed again: nothing is deleted without it.
    #[arg(long, value_name = "BACKUP_NAME_OR_ARN", default_value = "")]
    pub confirm: String,
}
