//! The arguments of `dynoscope table create|update|delete`, turned into the core's
//! [`TableSpec`] and [`TableChange`]s (backups' in `backup_args.rs`).

use clap::{Args, Subcommand};

use crate::backup_args::{BackupArgs, BackupsArgs, DeleteBackupArgs, RestoreArgs};
use crate::exit::EXIT_TABLE;
use crate::export_args::{ExportToArgs, ExportsArgs};
use crate::flags::whole_u64;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::schema::{
    BillingSpec, ClassSpec, Described, StreamView, TableChange, TableSpec, parse_index, parse_key,
    parse_tag,
};
use dynoscope_core::spec::TableChangeSpec;

/// `dynoscope table …`.
#[derive(Debug, Subcommand)]
pub enum TableCommand {
    /// Create a table (followed until it and its indexes are ACTIVE). --dry-run prints the
    /// request as AWS CLI commands instead. Exit status: 0 created, 2 refused before sending
    /// (the table checked against DynamoDB's rules, or the server's refusal), 3 outcome unknown.
    #[command(after_help = EXIT_TABLE)]
    Create(CreateArgs),
    /// Change a table: billing, a global index added (its backfill followed) or deleted, TTL,
    /// stream, deletion protection, class, point-in-time recovery. Each change is one
    /// configuration write, asked about off this machine (--yes).
    #[command(after_help = EXIT_TABLE)]
    Update(UpdateArgs),
    /// Delete a table and all its items: only with --confirm NAME, the table's name typed again,
    /// and never while its deletion protection is on.
    #[command(after_help = EXIT_TABLE)]
    Delete(DropArgs),
    /// Write the table as infrastructure code, complete enough to recreate it: Terraform
    /// (`aws_dynamodb_table`), CloudFormation (`AWS::DynamoDB::Table`) or CDK TypeScript
    /// (`TableV2`), from DescribeTable, its TTL, tags and continuous backups.
    #[command(after_help = EXIT_TABLE)]
    Iac(IacArgs),
    /// Make an on-demand backup of a table (CreateBackup), kept and billed until deleted: a
    /// configuration write, asked about off this machine (--yes); the backup described again.
    #[command(after_help = EXIT_TABLE)]
    Backup(BackupArgs),
    /// List a table's backups, every page: name, ARN, status, when made, size, type.
    #[command(after_help = EXIT_TABLE)]
    Backups(BackupsArgs),
    /// Restore a backup into a new table (refused when the table exists), followed until it is
    /// ACTIVE; its items counted as DescribeTable says.
    #[command(after_help = EXIT_TABLE)]
    Restore(RestoreArgs),
    /// Delete a backup for good: only with --confirm, its name or ARN typed again.
    #[command(after_help = EXIT_TABLE)]
    DeleteBackup(DeleteBackupArgs),
    /// Export the table to S3 with DynamoDB's own export (ExportTableToPointInTime): a full
    /// snapshot, or --incremental for a window of writes. Point-in-time recovery is checked
    /// first (--enable-pitr turns it on), the price is said before it starts, the start carries
    /// one ClientToken (a re-send cannot start two), and it is followed until COMPLETED or
    /// FAILED; Ctrl-C stops following, not the export. Asked off this machine (--yes).
    #[command(after_help = EXIT_TABLE)]
    Export(ExportToArgs),
    /// List the table's exports to S3 (ListExports, every page): ID, status, type, ARN.
    #[command(after_help = EXIT_TABLE)]
    Exports(ExportsArgs),
}

impl TableCommand {
    /// Whether it may write.
    pub fn writes(&self) -> bool {
        match self {
            Self::Create(a) => !a.dry_run,
            Self::Update(_)
            | Self::Delete(_)
            | Self::Backup(_)
            | Self::Restore(_)
            | Self::DeleteBackup(_)
            | Self::Export(_) => true,
            Self::Iac(_) | Self::Backups(_) | Self::Exports(_) => false,
        }
    }

    /// Whether it prints code (`iac`), which `--output` does not apply to.
    pub fn prints_code(&self) -> bool {
        matches!(self, Self::Iac(_))
    }
}

/// Billing, as given: `on-demand` or `provisioned` with --rcu and --wcu.
#[derive(Debug, Args)]
pub struct BillingArgs {
    /// `on-demand` or `provisioned` (with --rcu and --wcu).
    #[arg(long, value_name = "MODE")]
    pub billing: Option<String>,
    /// Read capacity units, provisioned.
    #[arg(long, allow_negative_numbers = true, value_parser = whole_u64)]
    pub rcu: Option<u64>,
    /// Write capacity units, provisioned.
    #[arg(long, allow_negative_numbers = true, value_parser = whole_u64)]
    pub wcu: Option<u64>,
}

impl BillingArgs {
    /// The billing asked for, `None` when --billing is not given.
    pub fn billing(&self) -> Result<Option<BillingSpec>> {
        let Some(mode) = &self.billing else {
            if self.rcu.is_some() || self.wcu.is_some() {
                return Err(Error::Invalid(
                    "--rcu and --wcu go with --billing provisioned".to_owned(),
                ));
            }
            return Ok(None);
        };
        match mode.to_ascii_lowercase().replace('_', "-").as_str() {
            "on-demand" | "pay-per-request" => {
                if self.rcu.is_some() || self.wcu.is_some() {
                    return Err(Error::Invalid(
                        "an on-demand table has no --rcu or --wcu".to_owned(),
                    ));
                }
                Ok(Some(BillingSpec::OnDemand))
            }
            "provisioned" => match (self.rcu, self.wcu) {
                (Some(rcu), Some(wcu)) => Ok(Some(BillingSpec::Provisioned { rcu, wcu })),
                _ => Err(Error::Invalid(
                    "--billing provisioned needs --rcu N and --wcu N".to_owned(),
                )),
            },
            other => Err(Error::Invalid(format!(
                "--billing `{other}`: on-demand or provisioned"
            ))),
        }
    }
}

/// `dynoscope table create`.
#[derive(Debug, Args)]
pub struct CreateArgs {
    /// The new table's name.
    #[arg(long)]
    pub table: String,
    /// The partition key, NAME:TYPE (S, N or B).
    #[arg(long, value_name = "NAME:TYPE")]
    pub pk: String,
    /// The sort key, NAME:TYPE.
    #[arg(long, value_name = "NAME:TYPE")]
    pub sk: Option<String>,
    /// Billing (on-demand when not given).
    #[command(flatten)]
    pub billing: BillingArgs,
    /// A global index, NAME=PK:T[,SK:T][:ALL|:KEYS_ONLY|:INCLUDE(a,b)]; repeatable.
    #[arg(long = "gsi", value_name = "INDEX")]
    pub gsis: Vec<String>,
    /// A local index, NAME=PK:T,SK:T[:PROJECTION] (the table's partition key); repeatable.
    #[arg(long = "lsi", value_name = "INDEX")]
    pub lsis: Vec<String>,
    /// A stream: keys-only, new-image, old-image or new-and-old-images.
    #[arg(long, value_name = "VIEW")]
    pub stream: Option<String>,
    /// TTL on this attribute (epoch seconds), set once the table is active.
    #[arg(long, value_name = "ATTRIBUTE")]
    pub ttl: Option<String>,
    /// Point-in-time recovery (on AWS; the embedded engine has none), set once active.
    #[arg(long)]
    pub pitr: bool,
    /// Deletion protection.
    #[arg(long)]
    pub deletion_protection: bool,
    /// The table class: standard or standard-ia.
    #[arg(long, value_name = "CLASS")]
    pub class: Option<String>,
    /// A tag, KEY=VALUE; repeatable.
    #[arg(long = "tag", value_name = "KEY=VALUE")]
    pub tags: Vec<String>,
    /// Print the request as AWS CLI commands for this connection; send nothing.
    #[arg(long)]
    pub dry_run: bool,
}

impl CreateArgs {
    /// The table asked for, as a spec (not yet checked against DynamoDB's rules).
    pub fn spec(&self) -> Result<TableSpec> {
        let sort = self.sk.as_deref().map(parse_key).transpose()?;
        let mut spec = TableSpec::new(&self.table, parse_key(&self.pk)?, sort);
        if let Some(billing) = self.billing.billing()? {
            spec.billing = billing;
        }
        spec.global = self
            .gsis
            .iter()
            .map(|g| parse_index(g))
            .collect::<Result<_>>()?;
        spec.local = self
            .lsis
            .iter()
            .map(|l| parse_index(l))
            .collect::<Result<_>>()?;
        spec.stream = self.stream.as_deref().map(stream_view).transpose()?;
        spec.ttl.clone_from(&self.ttl);
        spec.pitr = self.pitr;
        spec.deletion_protection = self.deletion_protection;
        if let Some(class) = &self.class {
            spec.class = table_class(class)?;
        }
        spec.tags = self
            .tags
            .iter()
            .map(|t| parse_tag(t))
            .collect::<Result<_>>()?;
        Ok(spec)
    }
}

fn stream_view(text: &str) -> Result<StreamView> {
    StreamView::parse(text).ok_or_else(|| {
        Error::Invalid(format!(
            "stream view `{text}`: keys-only, new-image, old-image or new-and-old-images"
        ))
    })
}

fn table_class(text: &str) -> Result<ClassSpec> {
    ClassSpec::parse(text)
        .ok_or_else(|| Error::Invalid(format!("class `{text}`: standard or standard-ia")))
}

/// `dynoscope table update`: each flag one change, made in the order listed here.
#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// New billing.
    #[command(flatten)]
    pub billing: BillingArgs,
    /// Add a global index, NAME=PK:T[,SK:T][:PROJECTION] (backfilled; followed until ACTIVE).
    #[arg(long, value_name = "INDEX")]
    pub add_gsi: Option<String>,
    /// Delete the global index of this name.
    #[arg(long, value_name = "NAME")]
    pub delete_gsi: Option<String>,
    /// Turn TTL on for this attribute.
    #[arg(long, value_name = "ATTRIBUTE", conflicts_with = "no_ttl")]
    pub ttl: Option<String>,
    /// Turn TTL off.
    #[arg(long)]
    pub no_ttl: bool,
    /// Turn the stream on with this view.
    #[arg(long, value_name = "VIEW", conflicts_with = "no_stream")]
    pub stream: Option<String>,
    /// Turn the stream off.
    #[arg(long)]
    pub no_stream: bool,
    /// Turn deletion protection on.
    #[arg(long, conflicts_with = "no_deletion_protection")]
    pub deletion_protection: bool,
    /// Turn deletion protection off.
    #[arg(long)]
    pub no_deletion_protection: bool,
    /// Change the table class: standard or standard-ia.
    #[arg(long, value_name = "CLASS")]
    pub class: Option<String>,
    /// Turn point-in-time recovery on.
    #[arg(long, conflicts_with = "no_pitr")]
    pub pitr: bool,
    /// Turn point-in-time recovery off.
    #[arg(long)]
    pub no_pitr: bool,
}

impl UpdateArgs {
    /// The changes asked for, against the table as described.
    pub fn changes(&self, table: &Described) -> Result<Vec<TableChange>> {
        let on_off = |on: bool, off: bool| (on || off).then_some(on);
        TableChangeSpec {
            billing: self.billing.billing()?,
            add_global: self.add_gsi.as_deref().map(parse_index).transpose()?,
            delete_global: self.delete_gsi.clone(),
            ttl: match (&self.ttl, self.no_ttl) {
                (Some(attribute), _) => Some(Some(attribute.clone())),
                (None, true) => Some(None),
                (None, false) => None,
            },
            stream: match (&self.stream, self.no_stream) {
                (Some(view), _) => Some(Some(stream_view(view)?)),
                (None, true) => Some(None),
                (None, false) => None,
            },
            deletion_protection: on_off(self.deletion_protection, self.no_deletion_protection),
            class: self.class.as_deref().map(table_class).transpose()?,
            pitr: on_off(self.pitr, self.no_pitr),
        }
        .plan(&table.spec)
    }
}

/// `dynoscope table delete`.
#[derive(Debug, Args)]
pub struct DropArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// The table's name typed again: nothing is deleted without it.
    #[arg(long, value_name = "NAME", default_value = "")]
    pub confirm: String,
}

/// `dynoscope table iac`.
#[derive(Debug, Args)]
pub struct IacArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// terraform, cloudformation (or cfn) or cdk.
    #[arg(long, value_name = "FORMAT")]
    pub format: String,
}
