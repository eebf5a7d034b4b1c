//! The price table as data: `assets/prices.json` (each region with its source and date), a
//! user's `prices.json` in the config folder replacing the regions it names, and a region read
//! from AWS's live price list (`cost::live`) replacing the shipped one for that session.

use std::path::Path;
use std::str::FromStr;

use bigdecimal::BigDecimal;
use serde::Deserialize;

use crate::error::{Error, Result};
use crate::files;

/// The table dynoscope ships.
const SHIPPED: &str = include_str!("../../../../assets/prices.json");

/// The name of a user's price file in the config folder.
pub(crate) const USER_FILE: &str = "prices.json";

/// The largest user price file read: 1 MiB, some hundred times every region's prices, so a
/// file this large is not a price file (and is not read into memory whole).
const MAX_USER_BYTES: u64 = 1 << 20;

/// The region a table is priced as when its connection has no AWS region of its own (the
/// sandbox, an endpoint on this machine) and the user picked none.
pub const FALLBACK_REGION: &str = "us-east-1";

/// One table class's prices in one region; a figure not published (or not shipped) is `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassPrices {
    /// On demand: one million write request units.
    pub write_request_per_million: Option<BigDecimal>,
    /// On demand: one million read request units.
    pub read_request_per_million: Option<BigDecimal>,
    /// Provisioned: one WCU for an hour.
    pub wcu_hour: Option<BigDecimal>,
    /// Provisioned: one RCU for an hour.
    pub rcu_hour: Option<BigDecimal>,
    /// Storage: one GB for a month.
    pub storage_gb_month: Option<BigDecimal>,
}

/// The prices of one region, with where they come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegionPrices {
    /// The region code, e.g. `us-east-1`.
    pub region: String,
    /// `USD`, or `CNY` for the China regions.
    pub currency: String,
    /// Where the figures come from.
    pub source: String,
    /// When they were read (`YYYY-MM-DD`).
    pub as_of: String,
    /// The Standard table class.
    pub standard: ClassPrices,
    /// The Standard-Infrequent Access table class.
    pub standard_ia: ClassPrices,
    /// Past one machine: an export to S3, reading it out of AWS, Athena over it.
    pub beyond: BeyondPrices,
}

/// What the routes past one machine cost: DynamoDB's export to S3, S3's transfer out of AWS,
/// Athena's scan; each `None` when not shipped for the region.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BeyondPrices {
    /// A full export: one GB of the table's size at the export's moment.
    pub export_full_gb: Option<BigDecimal>,
    /// An incremental export: one GB of changed data processed.
    pub export_incremental_gb: Option<BigDecimal>,
    /// One GB read out of S3 to the internet (to this machine, outside AWS).
    pub s3_out_gb: Option<BigDecimal>,
    /// Athena: one TB scanned.
    pub athena_tb: Option<BigDecimal>,
    /// Athena: the least a query is billed for, in MB.
    pub athena_min_mb: Option<BigDecimal>,
    /// Where these figures come from, when it is not the region's own source.
    pub source: Option<String>,
}

impl RegionPrices {
    /// The currency's sign: `$` for USD, `¥` for CNY, else the code and a space.
    pub(crate) fn sign(&self) -> String {
        match self.currency.as_str() {
            "USD" => "$".to_owned(),
            "CNY" => "¥".to_owned(),
            other => format!("{other} "),
        }
    }
}

/// Every region whose prices are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriceBook {
    regions: Vec<RegionPrices>,
}

#[derive(Deserialize)]
struct FileShape {
    regions: Vec<RegionShape>,
}

#[derive(Deserialize)]
struct RegionShape {
    region: String,
    currency: String,
    source: String,
    as_of: String,
    #[serde(default)]
    standard: ClassShape,
    #[serde(default)]
    standard_ia: ClassShape,
    #[serde(default)]
    beyond: BeyondShape,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct BeyondShape {
    export_full_gb: Option<String>,
    export_incremental_gb: Option<String>,
    s3_out_gb: Option<String>,
    athena_tb: Option<String>,
    athena_min_mb: Option<String>,
    source: Option<String>,
}

impl BeyondShape {
    fn into_prices(self, origin: &str) -> Result<BeyondPrices> {
        Ok(BeyondPrices {
            export_full_gb: price(origin, "export_full_gb", self.export_full_gb)?,
            export_incremental_gb: price(
                origin,
                "export_incremental_gb",
                self.export_incremental_gb,
            )?,
            s3_out_gb: price(origin, "s3_out_gb", self.s3_out_gb)?,
            athena_tb: price(origin, "athena_tb", self.athena_tb)?,
            athena_min_mb: price(origin, "athena_min_mb", self.athena_min_mb)?,
            source: self.source,
        })
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ClassShape {
    write_request_per_million: Option<String>,
    read_request_per_million: Option<String>,
    wcu_hour: Option<String>,
    rcu_hour: Option<String>,
    storage_gb_month: Option<String>,
}

fn price(origin: &str, field: &str, text: Option<String>) -> Result<Option<BigDecimal>> {
    let Some(text) = text else { return Ok(None) };
    let value = BigDecimal::from_str(text.trim()).map_err(|_| {
        Error::Invalid(format!(
            "{origin}: {field}: `{text}` is not a price (a decimal number such as 0.625)"
        ))
    })?;
    if value < BigDecimal::default() {
        return Err(Error::Invalid(format!(
            "{origin}: {field}: `{text}` is below zero"
        )));
    }
    Ok(Some(value))
}

impl ClassShape {
    fn into_prices(self, origin: &str) -> Result<ClassPrices> {
        Ok(ClassPrices {
            write_request_per_million: price(
                origin,
                "write_request_per_million",
                self.write_request_per_million,
            )?,
            read_request_per_million: price(
                origin,
                "read_request_per_million",
                self.read_request_per_million,
            )?,
            wcu_hour: price(origin, "wcu_hour", self.wcu_hour)?,
            rcu_hour: price(origin, "rcu_hour", self.rcu_hour)?,
            storage_gb_month: price(origin, "storage_gb_month", self.storage_gb_month)?,
        })
    }
}

impl PriceBook {
    /// The table dynoscope ships.
    pub fn shipped() -> Self {
        // The shipped file is tested to parse (`prices::tests::shipped_table_parses`).
        Self::parse(SHIPPED, "assets/prices.json").unwrap_or(Self {
            regions: Vec::new(),
        })
    }

    /// A price table from JSON text of the shipped shape; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Self> {
        let shape: FileShape = serde_json::from_str(text)
            .map_err(|e| Error::Invalid(format!("{origin}: not a price table: {e}")))?;
        let regions = shape
            .regions
            .into_iter()
            .map(|r| {
                let origin = format!("{origin} ({})", r.region);
                Ok(RegionPrices {
                    standard: r.standard.into_prices(&origin)?,
                    standard_ia: r.standard_ia.into_prices(&origin)?,
                    beyond: r.beyond.into_prices(&origin)?,
                    region: r.region,
                    currency: r.currency,
                    source: r.source,
                    as_of: r.as_of,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Self { regions })
    }

    /// The shipped table with a user's file laid over it (each region it names replaced), when
    /// `dir` holds one. A file that cannot be read or parsed is an error; no file is none.
    pub fn with_user_file(dir: Option<&Path>) -> Result<Self> {
        let mut book = Self::shipped();
        let Some(path) = dir.map(|d| d.join(USER_FILE)) else {
            return Ok(book);
        };
        let Some(bytes) = files::read_small_if_there(
            &path,
            MAX_USER_BYTES,
            "is over 1 MiB; a price file is at most that",
        )?
        else {
            return Ok(book);
        };
        let text = files::utf8(&path, bytes)?;
        let user = Self::parse(&text, &path.display().to_string())?;
        for region in user.regions {
            book.replace(region);
        }
        Ok(book)
    }

    /// The shipped table with the user's file from dynoscope's config folder laid over it; when
    /// that file cannot be used, the shipped table and the error, to be shown once.
    /// `dir` is the config folder (`saved::config_dir()`).
    pub fn load(dir: Option<&Path>) -> (Self, Option<Error>) {
        match Self::with_user_file(dir) {
            Ok(book) => (book, None),
            Err(error) => (Self::shipped(), Some(error)),
        }
    }

    /// A region's prices replaced; the routes past one machine (`beyond`) kept when the new
    /// ones name none of them (AWS's price list read live has DynamoDB's figures only).
    pub fn replace(&mut self, mut region: RegionPrices) {
        match self.regions.iter_mut().find(|r| r.region == region.region) {
            Some(slot) => {
                if region.beyond == BeyondPrices::default() {
                    region.beyond = std::mem::take(&mut slot.beyond);
                }
                *slot = region;
            }
            None => self.regions.push(region),
        }
    }

    /// The prices of `region`, when known.
    pub fn region(&self, region: &str) -> Option<&RegionPrices> {
        self.regions.iter().find(|r| r.region == region)
    }

    /// Every region known, in file order.
    pub fn regions(&self) -> &[RegionPrices] {
        &self.regions
    }
}

impl super::Pricing {
    /// No table named: on demand in us-east-1 from the shipped prices with the user's price file
    /// over them, `why` said as the reason; a user's file that cannot be used falls back to the
    /// shipped prices, as a connection's does, and its error comes back to be said once.
    pub fn without_table(why: &str) -> (Self, Option<Error>) {
        let (book, unusable) = PriceBook::load(crate::saved::config_dir().as_deref());
        let pricing = Self::new(
            &book,
            FALLBACK_REGION,
            Some(format!("{why}, so priced on demand in {FALLBACK_REGION}")),
            super::Billing::default(),
        );
        (pricing, unusable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_table_parses() {
        let book = PriceBook::parse(SHIPPED, "assets/prices.json").expect("shipped table");
        let east = book.region("us-east-1").expect("us-east-1");
        assert_eq!(east.currency, "USD");
        assert_eq!(
            east.standard.write_request_per_million,
            Some(BigDecimal::from_str("0.625").unwrap())
        );
        assert_eq!(
            east.standard.read_request_per_million,
            Some(BigDecimal::from_str("0.125").unwrap())
        );
        assert!(!east.source.is_empty() && east.as_of.len() == 10);
        let beijing = book.region("cn-north-1").expect("cn-north-1");
        assert_eq!(beijing.sign(), "¥");
        assert_eq!(beijing.standard.write_request_per_million, None);
    }

    #[test]
    fn a_user_file_replaces_the_regions_it_names() {
        let dir = std::env::temp_dir().join(format!("dynoscope-prices-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(USER_FILE),
            r#"{"regions":[{"region":"us-east-1","currency":"USD","source":"our contract","as_of":"2026-12-01",
                "standard":{"write_request_per_million":"0.5"}},
               {"region":"eu-west-1","currency":"USD","source":"our contract","as_of":"2026-12-01",
                "standard":{"read_request_per_million":"0.1"}}]}"#,
        )
        .unwrap();
        let book = PriceBook::with_user_file(Some(&dir)).unwrap();
        let east = book.region("us-east-1").unwrap();
        assert_eq!(east.source, "our contract");
        assert_eq!(east.standard.read_request_per_million, None);
        assert!(book.region("eu-west-1").is_some());
        assert!(book.region("us-west-2").is_some(), "others are kept");

        std::fs::write(
            dir.join(USER_FILE),
            r#"{"regions":[{"region":"x","currency":"USD","source":"s","as_of":"d","standard":{"wcu_hour":"cheap"}}]}"#,
        )
        .unwrap();
        let err = PriceBook::with_user_file(Some(&dir)).unwrap_err();
        assert!(err.to_string().contains("wcu_hour"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_price_file_linked_to_a_device_is_refused_not_read_forever() {
        let dir = std::env::temp_dir().join(format!("dynoscope-prices-dev-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.join(USER_FILE)).unwrap();
        let err = PriceBook::with_user_file(Some(&dir))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("prices.json is a device, not a regular file"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
