//! What reads and writes cost: request units from bytes ([`units`]), the price table as data
//! ([`prices`]), and [`Pricing`], one table's prices on one connection, which turns consumed
//! units into money the same way for the app, the CLI and the MCP server.
//!
//! On demand a unit has a price. Provisioned capacity is paid by the hour whether it is used
//! or not, so a provisioned table's units are said as the share of a second of its capacity
//! they took, with what that capacity costs an hour; their money is that share of the hour's
//! price (what the units cost if the capacity is fully used).

pub mod card;
pub mod hot;
pub mod live;
pub mod money;
pub mod prices;
pub mod reports;
pub mod shards;
pub mod shards_document;
pub mod size;
pub mod size_document;
pub mod units;
pub mod usd;

use bigdecimal::BigDecimal;

pub use money::{count, money};
pub use prices::RegionPrices;
pub use prices::{BeyondPrices, ClassPrices};
pub use prices::{FALLBACK_REGION, PriceBook};

/// How a table's reads and writes are billed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// On demand (`PAY_PER_REQUEST`): each request unit is paid.
    #[default]
    OnDemand,
    /// Provisioned: capacity paid by the hour.
    Provisioned {
        /// Read capacity units per second.
        read: i64,
        /// Write capacity units per second.
        write: i64,
    },
}

/// A table class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Class {
    /// `STANDARD`.
    #[default]
    Standard,
    /// `STANDARD_INFREQUENT_ACCESS`.
    StandardIa,
}

/// A table's billing mode and class, as DescribeTable gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Billing {
    /// On demand or provisioned.
    pub mode: Mode,
    /// Standard or Standard-IA.
    pub class: Class,
}

impl Billing {
    /// `on demand, Standard` / `provisioned 10 RCU/s · 5 WCU/s, Standard-IA`.
    pub fn text(&self) -> String {
        let class = match self.class {
            Class::Standard => "Standard",
            Class::StandardIa => "Standard-IA",
        };
        match self.mode {
            Mode::OnDemand => format!("on demand, {class}"),
            Mode::Provisioned { read, write } => {
                format!("provisioned {read} RCU/s · {write} WCU/s, {class}")
            }
        }
    }
}

/// Read units or write units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Read capacity (or request) units.
    Read,
    /// Write capacity (or request) units.
    Write,
}

impl Kind {
    /// `RCU` or `WCU`.
    pub fn unit(self) -> &'static str {
        match self {
            Kind::Read => "RCU",
            Kind::Write => "WCU",
        }
    }
}

/// One table's prices on one connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pricing {
    /// The region the table is priced as.
    pub region: String,
    /// Why that region, when it is not the connection's own (the sandbox, an endpoint).
    pub assumed: Option<String>,
    /// The table's billing.
    pub billing: Billing,
    /// The region's prices, when known.
    pub prices: Option<RegionPrices>,
}

/// What some units cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charge {
    /// Read or write.
    pub kind: Kind,
    /// The units.
    pub units: BigDecimal,
    /// The money, in `currency`; `None` when no price is known for this table.
    pub amount: Option<BigDecimal>,
    /// `USD`, `CNY`.
    pub currency: String,
    /// How the money is meant: `on demand`, or a provisioned share of a second.
    pub basis: String,
    sign: String,
}

impl Charge {
    /// `≈ $0.0000025 on demand`, or why there is no figure.
    pub fn money_text(&self) -> String {
        match &self.amount {
            Some(amount) => format!("≈ {} {}", money(amount, &self.sign), self.basis),
            None => format!("({})", self.basis),
        }
    }

    /// `4 WCU ≈ $0.0000025 on demand`.
    pub fn text(&self) -> String {
        format!(
            "{} {} {}",
            crate::report::capacity_exact(&self.units),
            self.kind.unit(),
            self.money_text()
        )
    }

    /// The money in US dollars as an exact JSON number, or `null` when unknown or in another
    /// currency.
    pub fn usd_json(&self) -> serde_json::Value {
        match &self.amount {
            Some(amount) if self.currency == "USD" => decimal_json(amount),
            _ => serde_json::Value::Null,
        }
    }

    /// This charge and `other` (of the same kind and pricing) added.
    #[must_use]
    pub fn plus(&self, other: &Charge) -> Self {
        Self {
            units: &self.units + &other.units,
            amount: match (&self.amount, &other.amount) {
                (Some(a), Some(b)) => Some(a + b),
                _ => None,
            },
            ..self.clone()
        }
    }
}

impl std::fmt::Display for Charge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

/// What reading a whole table of `size_bytes` (as last reported, with `items` items) costs
/// with an eventually consistent Scan, half a unit per 4 KB: `Reading all of it (as last reported:
/// 1,228,800 bytes, item count 5,000): about 150 RCU ≈ $0.0000188 on demand`, or that its size is not
/// reported.
pub fn whole_read(size_bytes: Option<i64>, items: Option<i64>, pricing: &Pricing) -> String {
    let Some(bytes) = size_bytes.and_then(|b| u64::try_from(b).ok()) else {
        return "Reading all of it: its size is not reported, so its cost is not known".to_owned();
    };
    let units = BigDecimal::from(bytes.div_ceil(units::READ_UNIT_BYTES)) / BigDecimal::from(2);
    let items = items
        .and_then(|n| u64::try_from(n).ok())
        .map(|n| format!(", item count {}", count(n)))
        .unwrap_or_default();
    format!(
        "Reading all of it (as last reported: {} bytes{items}): about {}",
        count(bytes),
        pricing.charge(Kind::Read, &units)
    )
}

/// What `charges` (reads and writes alike) cost together: `≈ $0.0000031`, or `—` when one of
/// them has no price.
pub(crate) fn sum_text(charges: &[Charge]) -> String {
    let mut total = BigDecimal::default();
    for charge in charges {
        match &charge.amount {
            Some(amount) => total += amount,
            None => return "—".to_owned(),
        }
    }
    let sign = charges.first().map_or("$", |c| c.sign.as_str());
    format!("≈ {}", money(&total, sign))
}

/// An exact decimal as a JSON number (`serde_json`'s `arbitrary_precision` keeps every digit).
pub fn decimal_json(value: &BigDecimal) -> serde_json::Value {
    let text = value.normalized().to_plain_string();
    serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text))
}

/// Units the SDK reported (`f64`) as the exact decimal they were sent as: the server sends
/// short decimals such as `0.5` or `4.0`, which `f64`'s shortest text gives back exactly.
pub fn units_of(reported: f64) -> BigDecimal {
    use std::str::FromStr;
    if !reported.is_finite() || reported < 0.0 {
        return BigDecimal::default();
    }
    BigDecimal::from_str(&reported.to_string()).unwrap_or_default()
}

impl Pricing {
    /// The prices of `billing` in `region` from `book`; `assumed` says why that region when it
    /// is not the connection's own.
    pub fn new(book: &PriceBook, region: &str, assumed: Option<String>, billing: Billing) -> Self {
        Self {
            region: region.to_owned(),
            assumed,
            billing,
            prices: book.region(region).cloned(),
        }
    }

    /// A table on a connection whose `aws_region` is its own (`None` for the sandbox and an
    /// endpoint) priced as `picked` when the user picked a region, else as the connection's
    /// region, else as us-east-1, saying so.
    pub(crate) fn for_connection(
        book: &PriceBook,
        aws_region: Option<&str>,
        picked: Option<&str>,
        billing: Billing,
    ) -> Self {
        match (picked, aws_region) {
            (Some(region), _) | (None, Some(region)) => Self::new(book, region, None, billing),
            (None, None) => Self::new(
                book,
                FALLBACK_REGION,
                Some(format!(
                    "this connection has no AWS region of its own, it is priced as {FALLBACK_REGION}"
                )),
                billing,
            ),
        }
    }

    fn class(&self) -> Option<&ClassPrices> {
        self.prices.as_ref().map(|p| match self.billing.class {
            Class::Standard => &p.standard,
            Class::StandardIa => &p.standard_ia,
        })
    }

    fn sign(&self) -> String {
        self.prices
            .as_ref()
            .map_or("$".to_owned(), RegionPrices::sign)
    }

    /// What `units` of `kind` cost on this table.
    pub fn charge(&self, kind: Kind, units: &BigDecimal) -> Charge {
        let currency = self
            .prices
            .as_ref()
            .map_or("USD".to_owned(), |p| p.currency.clone());
        let sign = self.sign();
        let class = self.class();
        let (amount, basis) = match self.billing.mode {
            Mode::OnDemand => {
                let per_million = class.and_then(|c| match kind {
                    Kind::Read => c.read_request_per_million.clone(),
                    Kind::Write => c.write_request_per_million.clone(),
                });
                match per_million {
                    Some(p) => (
                        Some(units * p / BigDecimal::from(1_000_000)),
                        "on demand".to_owned(),
                    ),
                    None => (None, format!("no on-demand price for {}", self.region)),
                }
            }
            Mode::Provisioned { read, write } => {
                let capacity = match kind {
                    Kind::Read => read,
                    Kind::Write => write,
                };
                let hour = class.and_then(|c| match kind {
                    Kind::Read => c.rcu_hour.clone(),
                    Kind::Write => c.wcu_hour.clone(),
                });
                let share = if capacity > 0 {
                    let seconds = (units / BigDecimal::from(capacity))
                        .with_scale_round(3, bigdecimal::RoundingMode::HalfUp);
                    format!(
                        "{} s of the table's {capacity} {}/s",
                        crate::report::capacity_exact(&seconds),
                        kind.unit()
                    )
                } else {
                    format!("no provisioned {}", kind.unit())
                };
                match hour {
                    Some(h) => {
                        let hourly = &h * BigDecimal::from(capacity.max(0));
                        (
                            Some(units * &h / BigDecimal::from(3_600)),
                            format!("provisioned: {share}, {}/h", money(&hourly, &sign)),
                        )
                    }
                    None => (
                        None,
                        format!("{share}; no provisioned price for {}", self.region),
                    ),
                }
            }
        };
        Charge {
            kind,
            units: units.clone(),
            amount,
            currency,
            basis,
            sign,
        }
    }

    /// What `charge` costs `times` over (`at 1,000,000 likes`), its basis said anew (a
    /// provisioned share of a second grows with the units).
    pub fn times(&self, charge: &Charge, times: u64) -> Charge {
        self.charge(charge.kind, &(&charge.units * BigDecimal::from(times)))
    }

    /// What `reported` read units (as the SDK gives them) cost.
    pub fn read(&self, reported: f64) -> Charge {
        self.charge_reported(Kind::Read, reported)
    }

    /// What `reported` write units (as the SDK gives them) cost.
    pub fn write(&self, reported: f64) -> Charge {
        self.charge_reported(Kind::Write, reported)
    }

    /// What `reported` units (as the SDK gives them) of `kind` cost.
    pub fn charge_reported(&self, kind: Kind, reported: f64) -> Charge {
        self.charge(kind, &units_of(reported))
    }

    /// `Priced as us-east-1, on demand, Standard`.
    pub fn headline(&self) -> String {
        format!("Priced as {}, {}", self.region, self.billing.text())
    }

    /// Where the prices come from: `Prices: AWS …, as of 2026-12-02`, or that none are known.
    pub(crate) fn source_text(&self) -> String {
        match &self.prices {
            Some(p) => format!("Prices: {}, as of {}", p.source, p.as_of),
            None => format!(
                "No prices known for {}: add them in {} in the config folder",
                self.region,
                prices::USER_FILE
            ),
        }
    }

    /// All of it on one line: `Priced as us-east-1, on demand, Standard (Prices: AWS …, as of
    /// 2026-12-02); this connection has no AWS region of its own`.
    pub fn note(&self) -> String {
        let mut note = format!("{} ({})", self.headline(), self.source_text());
        if let Some(why) = &self.assumed {
            note.push_str(&format!("; {why}"));
        }
        note
    }
}

#[cfg(test)]
mod tests;
