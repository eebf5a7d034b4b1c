//! An export as the server describes or lists it.

use aws_sdk_dynamodb::primitives::{DateTime, DateTimeFormat};
use aws_sdk_dynamodb::types::{ExportDescription, ExportSummary};
use serde_json::{Value, json};

use crate::connection::Reader;
use crate::error::{Error, Result};

/// One export of a table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportInfo {
    /// Its ARN (`…:table/T/export/01234…`).
    pub arn: String,
    /// `IN_PROGRESS`, `COMPLETED` or `FAILED`.
    pub status: String,
    /// `FULL_EXPORT` or `INCREMENTAL_EXPORT`, when said.
    pub kind: Option<String>,
    /// The bucket, when described.
    pub bucket: Option<String>,
    /// The prefix in it, when described.
    pub prefix: Option<String>,
    /// The key of its `manifest-summary.json`, once written.
    pub manifest: Option<String>,
    /// Items exported, when said.
    pub items: Option<i64>,
    /// The size it is billed for, in bytes, when said.
    pub billed_bytes: Option<i64>,
    /// When it began and ended, as RFC 3339 text, when said.
    pub started: Option<String>,
    /// When it ended.
    pub ended: Option<String>,
    /// Why it failed, when it did.
    pub failure: Option<String>,
    /// The `ClientToken` it was started with, when described.
    pub token: Option<String>,
}

fn text(time: Option<&DateTime>) -> Option<String> {
    time.and_then(|t| t.fmt(DateTimeFormat::DateTime).ok())
}

impl ExportInfo {
    /// From `DescribeExport` (or the answer to its start).
    pub(crate) fn of_description(d: &ExportDescription) -> Self {
        let failure = match (d.failure_code(), d.failure_message()) {
            (None, None) => None,
            (code, message) => Some(format!(
                "{}: {}",
                code.unwrap_or("failed"),
                message.unwrap_or("no reason given")
            )),
        };
        Self {
            arn: d.export_arn().unwrap_or_default().to_owned(),
            status: d.export_status().map_or("", |s| s.as_str()).to_owned(),
            kind: d.export_type().map(|k| k.as_str().to_owned()),
            bucket: d.s3_bucket().map(str::to_owned),
            prefix: d.s3_prefix().map(str::to_owned),
            manifest: d.export_manifest().map(str::to_owned),
            items: d.item_count(),
            billed_bytes: d.billed_size_bytes(),
            started: text(d.start_time()),
            ended: text(d.end_time()),
            failure,
            token: d.client_token().map(str::to_owned),
        }
    }

    fn of_summary(s: &ExportSummary) -> Self {
        Self {
            arn: s.export_arn().unwrap_or_default().to_owned(),
            status: s.export_status().map_or("", |x| x.as_str()).to_owned(),
            kind: s.export_type().map(|k| k.as_str().to_owned()),
            ..Self::default()
        }
    }

    /// The export's ID: the last part of its ARN.
    pub fn id(&self) -> &str {
        self.arn.rsplit('/').next().unwrap_or_default()
    }

    /// Where its files are: the folder of its manifest when the server names one, else
    /// DynamoDB's documented place, `s3://BUCKET/PREFIX/AWSDynamoDB/<ExportId>/`.
    pub fn location(&self) -> Option<String> {
        let bucket = self.bucket.as_ref()?;
        if let Some(manifest) = &self.manifest
            && let Some((folder, _)) = manifest.rsplit_once('/')
        {
            return Some(format!("s3://{bucket}/{folder}/"));
        }
        let prefix = self.prefix.as_deref().unwrap_or("").trim_matches('/');
        let under = if prefix.is_empty() {
            String::new()
        } else {
            format!("{prefix}/")
        };
        Some(format!("s3://{bucket}/{under}AWSDynamoDB/{}/", self.id()))
    }

    /// One line: `01234…: COMPLETED, FULL_EXPORT, 1,204 items, 98,304 bytes billed, began …`.
    pub fn line(&self) -> String {
        let mut parts = vec![self.status.clone()];
        parts.extend(self.kind.clone());
        parts.extend(self.items.map(|n| format!("{n} items")));
        parts.extend(self.billed_bytes.map(|b| format!("{b} bytes billed")));
        parts.extend(self.started.as_ref().map(|t| format!("began {t}")));
        parts.extend(self.ended.as_ref().map(|t| format!("ended {t}")));
        parts.extend(self.failure.as_ref().map(|f| format!("failed: {f}")));
        format!("{}: {} ({})", self.id(), parts.join(", "), self.arn)
    }

    /// The exports of `table` as one report.
    pub fn listed(table: &str, exports: &[Self]) -> crate::listed::Listed {
        crate::listed::Listed {
            table: table.to_owned(),
            noun: "exports",
            lines: exports.iter().map(Self::line).collect(),
            objects: exports.iter().map(Self::json).collect(),
            columns: &["status", "type", "items", "started", "ended", "arn"],
        }
    }

    /// As JSON: `arn`, `status`, `type`, `bucket`, `prefix`, `manifest`, `items`,
    /// `billed_bytes`, `started`, `ended`, `failure`.
    pub fn json(&self) -> Value {
        json!({
            "arn": self.arn,
            "status": self.status,
            "type": self.kind,
            "bucket": self.bucket,
            "prefix": self.prefix,
            "manifest": self.manifest,
            "items": self.items,
            "billed_bytes": self.billed_bytes,
            "started": self.started,
            "ended": self.ended,
            "failure": self.failure,
        })
    }
}

/// Every export of the table `table_arn` the server lists, page after page (at most 100 pages).
pub async fn list_exports(reader: &Reader, table_arn: &str) -> Result<Vec<ExportInfo>> {
    let client = reader.sdk();
    let mut exports = Vec::new();
    let mut next: Option<String> = None;
    for _ in 0..100 {
        let out = client
            .list_exports()
            .table_arn(table_arn)
            .set_next_token(next.clone())
            .send()
            .await
            .map_err(|e| Error::from_sdk("ListExports", e))?;
        exports.extend(out.export_summaries().iter().map(ExportInfo::of_summary));
        match out.next_token() {
            Some(token) if next.as_deref() != Some(token) => next = Some(token.to_owned()),
            _ => return Ok(exports),
        }
    }
    Ok(exports)
}

/// The export of `arn`, described (`DescribeExport`).
pub async fn describe_export(reader: &Reader, arn: &str) -> Result<ExportInfo> {
    let out = reader
        .sdk()
        .describe_export()
        .export_arn(arn)
        .send()
        .await
        .map_err(|e| Error::from_sdk("DescribeExport", e))?;
    out.export_description()
        .map(ExportInfo::of_description)
        .ok_or_else(|| Error::Service {
            op: "DescribeExport",
            code: "IncompleteDescription".into(),
            message: format!("the server described {arn} without its details"),
            throttled: Vec::new(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exports_files_are_beside_its_manifest_or_under_its_id() {
        let mut info = ExportInfo {
            arn: "arn:aws:dynamodb:us-east-1:1:table/Social/export/01733-abc".to_owned(),
            bucket: Some("b".to_owned()),
            prefix: Some("daily/".to_owned()),
            ..ExportInfo::default()
        };
        assert_eq!(info.id(), "01733-abc");
        assert_eq!(
            info.location().as_deref(),
            Some("s3://b/daily/AWSDynamoDB/01733-abc/")
        );
        info.manifest = Some("daily/AWSDynamoDB/01733-abc/manifest-summary.json".to_owned());
        assert_eq!(
            info.location().as_deref(),
            Some("s3://b/daily/AWSDynamoDB/01733-abc/")
        );
        info.prefix = None;
        info.manifest = None;
        assert_eq!(
            info.location().as_deref(),
            Some("s3://b/AWSDynamoDB/01733-abc/")
        );
    }
}
