//! What a connection's tables are priced at: the shipped price table with the user's file over
//! it (and a region read live from AWS's price list), and the region picked to price with.
//! Shared by every clone of the connection, so a region picked in the app prices the reports
//! of work already under way, as read-only does.

use std::sync::{Arc, PoisonError, RwLock};

use crate::connection::{Connection, ConnectionSpec};
use crate::cost::live;
use crate::cost::{Billing, PriceBook, Pricing, RegionPrices};
use crate::error::{Error, Result};
use crate::saved;
use crate::table::TableInfo;

/// The prices of a connection.
#[derive(Clone, Debug)]
pub(crate) struct Prices(Arc<RwLock<Chosen>>);

#[derive(Debug)]
struct Chosen {
    book: PriceBook,
    /// The user's price file could not be used: the shipped prices are.
    warning: Option<Error>,
    /// The region picked to price with.
    picked: Option<String>,
}

impl Prices {
    /// The shipped prices with the user's file from the config folder over them.
    pub(crate) fn load() -> Self {
        let (book, warning) = PriceBook::load(saved::config_dir().as_deref());
        Self(Arc::new(RwLock::new(Chosen {
            book,
            warning,
            picked: None,
        })))
    }

    fn read<T>(&self, f: impl FnOnce(&Chosen) -> T) -> T {
        f(&self.0.read().unwrap_or_else(PoisonError::into_inner))
    }

    fn write(&self, f: impl FnOnce(&mut Chosen)) {
        f(&mut self.0.write().unwrap_or_else(PoisonError::into_inner));
    }
}

impl Connection {
    /// The AWS region this connection reaches, when it is AWS; the sandbox and endpoints have
    /// none of their own (what they cost is priced as a region the user picks, or us-east-1).
    pub fn aws_region(&self) -> Option<&str> {
        matches!(self.spec, ConnectionSpec::Aws { .. }).then_some(self.region.as_str())
    }

    /// What `info`'s reads and writes cost on this connection.
    pub fn pricing(&self, info: &TableInfo) -> Pricing {
        self.prices
            .read(|c| info.pricing(&c.book, self.aws_region(), c.picked.as_deref()))
    }

    /// The prices of the region this connection is priced as (its own, the one picked, or
    /// us-east-1, said in `assumed`), for what is billed by the table's size, not its class.
    pub fn region_pricing(&self) -> Pricing {
        self.prices.read(|c| {
            Pricing::for_connection(
                &c.book,
                self.aws_region(),
                c.picked.as_deref(),
                Billing::default(),
            )
        })
    }

    /// What reads and writes cost on this connection when the table was not described (a
    /// PartiQL statement names it in its text): priced on demand, Standard, and said so.
    pub fn pricing_undescribed(&self) -> Pricing {
        let mut pricing = self.prices.read(|c| {
            Pricing::for_connection(
                &c.book,
                self.aws_region(),
                c.picked.as_deref(),
                Billing::default(),
            )
        });
        let why = "the table was not described, so it is priced on demand, Standard";
        pricing.assumed = Some(match pricing.assumed.take() {
            Some(first) => format!("{first}; {why}"),
            None => why.to_owned(),
        });
        pricing
    }

    /// Price this connection's tables as `region` (`None`: its own region, or us-east-1).
    pub fn pick_price_region(&self, region: Option<String>) {
        self.prices.write(|c| c.picked = region);
    }

    /// The region picked to price with, if any.
    pub fn picked_price_region(&self) -> Option<String> {
        self.prices.read(|c| c.picked.clone())
    }

    /// The regions whose prices are known.
    pub fn priced_regions(&self) -> Vec<String> {
        self.prices
            .read(|c| c.book.regions().iter().map(|r| r.region.clone()).collect())
    }

    /// Why the user's price file is not used, when it is not.
    pub fn price_warning(&self) -> Option<Error> {
        self.prices.read(|c| c.warning.clone())
    }

    /// Prices read live (AWS's price list) for their region, over the shipped ones.
    pub(crate) fn add_live_prices(&self, prices: RegionPrices) {
        self.prices.write(|c| c.book.replace(prices));
    }

    /// Read this connection's region's prices from AWS's live price list (the Price List
    /// API's `GetProducts`, which needs `pricing:GetProducts`) and lay them over the shipped
    /// ones for this session; a note saying what was read. `None` off AWS: the sandbox and an
    /// endpoint have no region of their own to read. An error (a refusal, no network) leaves
    /// the prices as they were, for the caller to say once.
    pub async fn load_live_prices(&self) -> Result<Option<String>> {
        let Some(region) = self.aws_region() else {
            return Ok(None);
        };
        Ok(Some(
            match live::region_prices(&self.pricing, region).await? {
                Some(prices) => {
                    self.add_live_prices(prices);
                    format!("Live prices for {region} read from the AWS Price List API")
                }
                None => format!(
                    "The AWS Price List API lists no DynamoDB prices for {region}; the shipped \
                     prices are kept"
                ),
            },
        ))
    }
}
