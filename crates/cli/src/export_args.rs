//! The arguments of `dynoscope table export|exports`: DynamoDB's own export of a table to S3,
//! turned into the core's [`S3ExportSpec`].

use clap::Args;

use crate::flags::{positive_u64, whole_u64};
use dynoscope_core::error::{Error, Result};
use dynoscope_core::exports::{ExportWindow, PlanSpec, S3ExportSpec};

/// `dynoscope table export`.
#[derive(Debug, Args)]
pub struct ExportToArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// Where: s3://BUCKET/PREFIX (DynamoDB writes PREFIX/AWSDynamoDB/<ExportId>/ there).
    #[arg(long, value_name = "S3_URL")]
    pub to: String,
    /// A full export as of this moment (RFC 3339 or seconds since the epoch); now when not
    /// given.
    #[arg(long, value_name = "TIME")]
    pub at: Option<String>,
    /// An incremental export of the writes from --from to --until (15 minutes to 24 hours).
    #[arg(long, requires_all = ["from", "until"])]
    pub incremental: bool,
    /// The window's start (RFC 3339 or seconds since the epoch).
    #[arg(long, value_name = "TIME", requires = "incremental")]
    pub from: Option<String>,
    /// The window's end.
    #[arg(long, value_name = "TIME", requires = "incremental")]
    pub until: Option<String>,
    /// An incremental export's images: new-and-old (what a tally's change needs) or new.
    #[arg(
        long,
        value_name = "VIEW",
        default_value = "new-and-old",
        requires = "incremental"
    )]
    pub view: String,
    /// The files' format: dynamodb-json (the one dynoscope reads back).
    #[arg(long, value_name = "FORMAT", default_value = "dynamodb-json")]
    pub format: String,
    /// Turn point-in-time recovery on first when it is off ("enable PITR"; billed per GB-month).
    #[arg(long)]
    pub enable_pitr: bool,
}

impl ExportToArgs {
    /// The core's spec.
    pub fn spec(&self) -> Result<S3ExportSpec> {
        if !self.format.eq_ignore_ascii_case("dynamodb-json") {
            return Err(Error::Invalid(format!(
                "--format `{}`: dynamodb-json (an ION export is not read back by dynoscope)",
                self.format
            )));
        }
        let new_images_only = match self.view.to_ascii_lowercase().as_str() {
            "new-and-old" | "new_and_old_images" => false,
            "new" | "new-image" | "new_image" => true,
            other => {
                return Err(Error::Invalid(format!(
                    "--view `{other}`: new-and-old or new"
                )));
            }
        };
        let window = match (self.incremental, &self.from, &self.until) {
            (true, Some(from), Some(to)) => Some(ExportWindow {
                from: from.clone(),
                to: to.clone(),
                new_images_only,
            }),
            _ => None,
        };
        Ok(S3ExportSpec {
            table: self.table.clone(),
            to: self.to.clone(),
            at: self.at.clone(),
            window,
            enable_pitr: self.enable_pitr,
        })
    }
}

/// `dynoscope table exports`.
#[derive(Debug, Args)]
pub struct ExportsArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
}

/// `dynoscope plan`.
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// The table whose size and items DescribeTable says (without: give --items and --bytes).
    #[arg(long, required_unless_present_all = ["items", "bytes"])]
    pub table: Option<String>,
    /// Items, instead of what DescribeTable says.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_u64)]
    pub items: Option<u64>,
    /// Bytes, instead of what DescribeTable says.
    #[arg(long, value_name = "N", value_parser = whole_u64)]
    pub bytes: Option<u64>,
    /// The download rate from S3 to this machine, in megabits a second.
    #[arg(long, value_name = "MBPS", default_value_t = 100, value_parser = positive_u64)]
    pub download_mbps: u64,
    /// Also price an incremental export of the last this many hours (1 to 24).
    #[arg(long, value_name = "H", value_parser = positive_u64)]
    pub hours: Option<u64>,
    /// The bytes written in those hours (what an incremental export is billed by).
    #[arg(long, value_name = "N", requires = "hours", value_parser = whole_u64)]
    pub changed_bytes: Option<u64>,
}

impl PlanArgs {
    /// The core's spec.
    pub fn spec(&self) -> PlanSpec {
        PlanSpec {
            table: self.table.clone(),
            items: self.items,
            bytes: self.bytes,
            download_mbps: Some(self.download_mbps),
            hours: self.hours,
            changed_bytes: self.changed_bytes,
        }
    }
}
