//! DynamoDB's export of a table to S3 (`ExportTableToPointInTime`) as the gateway sends it: a
//! full snapshot or an incremental window, always with a `ClientToken`, so that a re-send after
//! a lost answer names the export already started instead of starting a second one.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::primitives::DateTime;
use aws_sdk_dynamodb::types::{
    AttributeValue, ExportDescription, ExportFormat, ExportStatus, ExportType, ExportViewType,
    IncrementalExportSpecification,
};

use crate::error::Error;
use crate::throttle::one_attempt_within;
use crate::value::Item;
use crate::write::attempt::Failure;

/// Which rows an export writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportKind {
    /// The whole table as it was at one moment (`FULL_EXPORT`): `at` in seconds since the
    /// epoch, or the moment the server takes the request.
    Full {
        /// The moment, within the point-in-time recovery window.
        at: Option<i64>,
    },
    /// What changed between two moments (`INCREMENTAL_EXPORT`, 15 minutes to 24 hours).
    Incremental {
        /// From (seconds since the epoch).
        from: i64,
        /// To (seconds since the epoch).
        to: i64,
        /// Old images with the new (`NEW_AND_OLD_IMAGES`) or only the new.
        old_images: bool,
    },
}

impl ExportKind {
    /// In words: `a full export`, `an incremental export of 2026-12-05T01:00:00Z to …`.
    pub fn words(&self) -> String {
        let time = |secs: &i64| {
            DateTime::from_secs(*secs)
                .fmt(aws_sdk_dynamodb::primitives::DateTimeFormat::DateTime)
                .unwrap_or_else(|_| secs.to_string())
        };
        match self {
            Self::Full { at: None } => "a full export, as of now".to_owned(),
            Self::Full { at: Some(at) } => format!("a full export, as of {}", time(at)),
            Self::Incremental {
                from,
                to,
                old_images,
            } => format!(
                "an incremental export of the writes from {} to {} ({})",
                time(from),
                time(to),
                if *old_images {
                    "new and old images"
                } else {
                    "new images"
                }
            ),
        }
    }
}

/// One export as sent: the table, where in S3, which rows, and its token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportRequest {
    /// The table's name, for words.
    pub table: String,
    /// The table's ARN (what the request names).
    pub table_arn: String,
    /// The bucket written to.
    pub bucket: String,
    /// The prefix inside it (empty: the bucket's top).
    pub prefix: String,
    /// Which rows.
    pub kind: ExportKind,
    /// The `ClientToken`: the same for every attempt of this export.
    pub token: String,
}

impl ExportRequest {
    /// `s3://bucket/prefix`.
    pub fn destination(&self) -> String {
        if self.prefix.is_empty() {
            format!("s3://{}", self.bucket)
        } else {
            format!("s3://{}/{}", self.bucket, self.prefix)
        }
    }
}

/// What the server answered, as an item: `ExportArn`, `ExportStatus`, and `ExportManifest`
/// when it says one.
fn answered(description: &ExportDescription) -> Item {
    let mut item = Item::new();
    let mut put = |name: &str, text: Option<&str>| {
        if let Some(text) = text {
            item.insert(name.to_owned(), AttributeValue::S(text.to_owned()));
        }
    };
    put("ExportArn", description.export_arn());
    put(
        "ExportStatus",
        description.export_status().map(ExportStatus::as_str),
    );
    put("ExportManifest", description.export_manifest());
    item
}

/// Send `request` once, within `budget`: the export the server started (or, for a token it
/// has seen, the one it started before).
pub(super) async fn start_export(
    client: &Client,
    request: &ExportRequest,
    budget: Duration,
) -> std::result::Result<Option<Item>, Failure> {
    let mut send = client
        .export_table_to_point_in_time()
        .table_arn(&request.table_arn)
        .s3_bucket(&request.bucket)
        .set_s3_prefix((!request.prefix.is_empty()).then(|| request.prefix.clone()))
        .export_format(ExportFormat::DynamodbJson)
        .client_token(&request.token);
    send = match &request.kind {
        ExportKind::Full { at } => send
            .export_type(ExportType::FullExport)
            .set_export_time(at.map(DateTime::from_secs)),
        ExportKind::Incremental {
            from,
            to,
            old_images,
        } => send
            .export_type(ExportType::IncrementalExport)
            .incremental_export_specification(
                IncrementalExportSpecification::builder()
                    .export_from_time(DateTime::from_secs(*from))
                    .export_to_time(DateTime::from_secs(*to))
                    .export_view_type(if *old_images {
                        ExportViewType::NewAndOldImages
                    } else {
                        ExportViewType::NewImage
                    })
                    .build(),
            ),
    };
    send.customize()
        .config_override(one_attempt_within(budget))
        .send()
        .await
        .map(|out| out.export_description().map(answered))
        .map_err(|e| Failure::Error(Error::from_sdk("ExportTableToPointInTime", e)))
}
