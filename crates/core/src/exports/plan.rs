//! An export to S3 as a user asks for it ([`S3ExportSpec`]), checked once against the table as
//! described: where (`s3://BUCKET/PREFIX`), which rows (the whole table at a moment, or a window
//! of 15 minutes to 24 hours), point-in-time recovery on (or turned on first, when asked), and
//! its price said before anything is sent.

use aws_sdk_dynamodb::primitives::{DateTime, DateTimeFormat};
use bigdecimal::BigDecimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::admin;
use crate::connection::Connection;
use crate::cost::{Pricing, money};
use crate::error::{Error, Result};
use crate::schema::{Described, TableChange};
use crate::transfer::S3Location;
use crate::write::{Destination, ExportKind, ExportRequest, WritePlan, fresh_token};

/// The shortest and longest window of an incremental export, in seconds.
const WINDOW_SECS: (i64, i64) = (15 * 60, 24 * 60 * 60);

/// One GB as DynamoDB bills an export: 2^30 bytes.
const GB: i64 = 1 << 30;

/// A window of writes: from, to (RFC 3339, `2026-12-05T01:00:00Z`, or seconds since the epoch).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WindowSpec {
    /// From.
    pub from: String,
    /// To.
    pub to: String,
    /// Only the new images (`NEW_IMAGE`) instead of new and old: a tally's change in the window
    /// needs the old ones.
    #[serde(default)]
    pub new_images_only: bool,
}

/// An export of a table to S3, as asked.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct S3ExportSpec {
    /// The table.
    pub table: String,
    /// Where: `s3://BUCKET/PREFIX`.
    pub to: String,
    /// A full export as of this moment (RFC 3339 or seconds since the epoch); now when not given.
    #[serde(default)]
    pub at: Option<String>,
    /// An incremental export of this window instead of a full one.
    #[serde(default)]
    pub window: Option<WindowSpec>,
    /// Turn point-in-time recovery on first when it is off (a change of the table's own, billed
    /// by the GB-month).
    #[serde(default)]
    pub enable_pitr: bool,
}

/// An export planned: the writes to send (point-in-time recovery first, when asked and off),
/// and its price in words.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportPlan {
    /// Point-in-time recovery turned on first.
    pub pitr_first: Option<WritePlan>,
    /// The export's start.
    pub export: WritePlan,
    /// Its request, for words.
    pub request: ExportRequest,
    /// What it costs, in words, said before it starts.
    pub price: String,
}

/// `text` as seconds since the epoch: RFC 3339 or a whole number of seconds.
fn moment(field: &str, text: &str) -> Result<i64> {
    let text = text.trim();
    if let Ok(secs) = text.parse::<i64>() {
        return Ok(secs);
    }
    DateTime::from_str(text, DateTimeFormat::DateTime)
        .map(|t| t.secs())
        .map_err(|_| {
            Error::Invalid(format!(
                "{field}: `{text}` is not a moment (RFC 3339, 2026-12-05T01:00:00Z, or seconds \
                 since the epoch)"
            ))
        })
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

impl WindowSpec {
    fn kind(&self) -> Result<ExportKind> {
        let (from, to) = (
            moment("window's start", &self.from)?,
            moment("window's end", &self.to)?,
        );
        let (least, most) = WINDOW_SECS;
        if to <= from {
            return Err(Error::Invalid(format!(
                "window: it ends ({}) before it begins ({})",
                self.to, self.from
            )));
        }
        if !(least..=most).contains(&(to - from)) {
            return Err(Error::Invalid(format!(
                "window: an incremental export's window is 15 minutes to 24 hours, not {} minutes",
                (to - from) / 60
            )));
        }
        if to > now() {
            return Err(Error::Invalid(format!(
                "window: its end, {}, is still to come: a window ends in the past",
                self.to
            )));
        }
        Ok(ExportKind::Incremental {
            from,
            to,
            old_images: !self.new_images_only,
        })
    }
}

impl S3ExportSpec {
    fn kind(&self) -> Result<ExportKind> {
        match (&self.window, &self.at) {
            (Some(_), Some(_)) => Err(Error::Invalid(
                "at: a moment is for a full export; an incremental one has a window".to_owned(),
            )),
            (Some(window), None) => window.kind(),
            (None, Some(at)) => {
                let at = moment("at", at)?;
                if at > now() {
                    return Err(Error::Invalid(
                        "at: a full export is of a moment past, not to come".to_owned(),
                    ));
                }
                Ok(ExportKind::Full { at: Some(at) })
            }
            (None, None) => Ok(ExportKind::Full { at: None }),
        }
    }

    /// The export checked against the table as `described` on `connection`: refused in words
    /// when DynamoDB would refuse it, nothing sent.
    pub fn plan(&self, connection: &Connection, described: &Described) -> Result<ExportPlan> {
        let table = &described.spec.name;
        let Some(to) = S3Location::parse(self.to.trim())? else {
            return Err(Error::Invalid(format!(
                "to: `{}` is not an S3 address: an export goes to s3://BUCKET/PREFIX",
                self.to
            )));
        };
        let kind = self.kind()?;
        let table_arn = described.arn.clone().ok_or_else(|| {
            Error::Invalid(format!("table {table}: the server named no ARN to export"))
        })?;
        let pitr_first = match (described.spec.pitr, self.enable_pitr) {
            (true, _) => None,
            (false, true) => Some(admin::change_plan(
                connection,
                described,
                TableChange::Pitr(true),
            )?),
            (false, false) => return Err(pitr_off(table, described)),
        };
        let request = ExportRequest {
            table: table.clone(),
            table_arn,
            bucket: to.bucket,
            prefix: to.prefix,
            kind,
            token: fresh_token("export"),
        };
        Ok(ExportPlan {
            pitr_first,
            export: WritePlan::export(Destination::of(connection), request.clone()),
            price: price_words(&connection.region_pricing(), &request, described.size_bytes),
            request,
        })
    }
}

/// Why an export of `table` is refused while point-in-time recovery is off, with the way on.
fn pitr_off(table: &str, described: &Described) -> Error {
    let engine = described
        .unread
        .iter()
        .find(|u| u.starts_with("point-in-time recovery"))
        .map_or(String::new(), |why| format!(" ({why})"));
    Error::Invalid(format!(
        "table {table} has point-in-time recovery off{engine}: DynamoDB exports only a table \
         that has it on. Have the export turn it on first (enable PITR), or turn it on in the \
         table's settings; it is billed per GB-month of the table. Nothing was sent"
    ))
}

/// What `request` costs, in words, from the region's export prices and the table's size.
fn price_words(pricing: &Pricing, request: &ExportRequest, size: Option<i64>) -> String {
    let beyond = pricing.prices.as_ref().map(|p| (&p.beyond, p.sign()));
    let assumed = pricing
        .assumed
        .as_ref()
        .map_or(String::new(), |a| format!("; {a}"));
    match (&request.kind, beyond) {
        (ExportKind::Full { .. }, Some((beyond, sign))) => match (&beyond.export_full_gb, size) {
            (Some(per_gb), Some(bytes)) => format!(
                "price: ≈ {} ({bytes} bytes, DescribeTable's size, at {} per GB of 2^30 bytes; \
                 billed on the table's size at the export's moment){assumed}",
                money(
                    &(BigDecimal::from(bytes) * per_gb / BigDecimal::from(GB)),
                    &sign
                ),
                money(per_gb, &sign)
            ),
            (Some(per_gb), None) => format!(
                "price: {} per GB of the table's size (the server said no size){assumed}",
                money(per_gb, &sign)
            ),
            (None, _) => format!("price: no export price is known for {}", pricing.region),
        },
        (ExportKind::Incremental { .. }, Some((beyond, sign))) => {
            match &beyond.export_incremental_gb {
                Some(per_gb) => format!(
                    "price: {} per GB of changed data processed (known once it is done){assumed}",
                    money(per_gb, &sign)
                ),
                None => format!("price: no export price is known for {}", pricing.region),
            }
        }
        (_, None) => format!("price: no prices are known for {}", pricing.region),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::{Billing, PriceBook};

    fn spec(at: Option<&str>, window: Option<(&str, &str)>) -> S3ExportSpec {
        S3ExportSpec {
            table: "Social".to_owned(),
            to: "s3://b/p".to_owned(),
            at: at.map(str::to_owned),
            window: window.map(|(from, to)| WindowSpec {
                from: from.to_owned(),
                to: to.to_owned(),
                new_images_only: false,
            }),
            enable_pitr: false,
        }
    }

    fn refused(spec: &S3ExportSpec) -> String {
        spec.kind().unwrap_err().to_string()
    }

    #[test]
    fn a_window_is_15_minutes_to_24_hours_in_the_past_and_a_moment_is_past() {
        let hour = "2026-12-05T01:00:00Z";
        assert!(
            refused(&spec(None, Some((hour, "2026-12-05T01:05:00Z")))).contains("not 5 minutes")
        );
        assert!(
            refused(&spec(None, Some((hour, "2026-12-06T02:00:00Z")))).contains("not 1500 minutes")
        );
        assert!(
            refused(&spec(None, Some((hour, "2026-12-05T00:00:00Z")))).contains("before it begins")
        );
        assert!(refused(&spec(None, Some((hour, "2999-01-01T00:00:00Z")))).contains("15 minutes"));
        assert!(
            refused(&spec(None, Some(("yesterday", hour)))).contains("window's start: `yesterday`")
        );
        assert!(
            refused(&spec(Some(hour), Some((hour, hour))))
                .contains("a moment is for a full export")
        );
        assert!(refused(&spec(Some("2999-01-01T00:00:00Z"), None)).contains("not to come"));
        let window = spec(None, Some(("1764896400", "1764900000")))
            .kind()
            .unwrap();
        assert_eq!(
            window,
            ExportKind::Incremental {
                from: 1_764_896_400,
                to: 1_764_900_000,
                old_images: true
            }
        );
        assert_eq!(
            spec(None, None).kind().unwrap(),
            ExportKind::Full { at: None }
        );
    }

    #[test]
    fn the_price_is_the_tables_size_at_the_export_price() {
        let pricing = Pricing::new(&PriceBook::shipped(), "us-east-1", None, Billing::default());
        let request = ExportRequest {
            table: "Social".to_owned(),
            table_arn: "arn".to_owned(),
            bucket: "b".to_owned(),
            prefix: String::new(),
            kind: ExportKind::Full { at: None },
            token: "t".to_owned(),
        };
        // 10 GiB at $0.10.
        let words = price_words(&pricing, &request, Some(10 << 30));
        assert!(
            words.starts_with("price: ≈ $1.00 (10737418240 bytes"),
            "{words}"
        );
        let incremental = ExportRequest {
            kind: ExportKind::Incremental {
                from: 0,
                to: 900,
                old_images: true,
            },
            ..request
        };
        let words = price_words(&pricing, &incremental, Some(1));
        assert!(
            words.contains("$0.1 per GB of changed data processed"),
            "{words}"
        );
        let nowhere = Pricing::new(
            &PriceBook::shipped(),
            "cn-north-1",
            None,
            Billing::default(),
        );
        let words = price_words(&nowhere, &incremental, None);
        assert_eq!(words, "price: no export price is known for cn-north-1");
    }
}
