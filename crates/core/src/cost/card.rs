//! A table's prices on one card: where they come from, what a unit, a like and a read of the
//! whole table cost, and its storage a month. The app's table panel and `dynoscope cost` say
//! these same lines.

use bigdecimal::{BigDecimal, RoundingMode};

use crate::cost::{Kind, Mode, Pricing, RegionPrices, count, money, whole_read};
use crate::report::{Line, Tone};

/// One GB of storage as DynamoDB bills it: 2^30 bytes.
const GB: u64 = 1 << 30;

/// What a table of `size_bytes` (with `items` items, as last reported) costs, in lines.
pub fn card(pricing: &Pricing, size_bytes: Option<i64>, items: Option<i64>) -> Vec<Line> {
    let one = BigDecimal::from(1);
    let write = pricing.charge(Kind::Write, &one);
    let read = pricing.charge(Kind::Read, &one);
    let like = pricing.charge(Kind::Write, &BigDecimal::from(4));
    let mut lines = vec![Line::new(Tone::Title, pricing.headline())];
    if let Some(why) = &pricing.assumed {
        lines.push(Line::new(Tone::Quiet, format!("As {why}.")));
    }
    lines.push(Line::new(Tone::Quiet, pricing.source_text()));
    lines.extend([
        Line::new(
            Tone::Plain,
            format!("A write of up to 1 KB: {write} (twice that in a transaction)"),
        ),
        Line::new(
            Tone::Plain,
            format!(
                "A strong read of up to 4 KB: {read} (half that eventually consistent, twice in a transaction)"
            ),
        ),
        Line::new(
            Tone::Plain,
            format!(
                "A like (a transaction of two writes): {like}; at 1,000,000 likes: {}",
                pricing.times(&like, 1_000_000)
            ),
        ),
        Line::new(Tone::Plain, whole_read(size_bytes, items, pricing)),
    ]);
    if let Mode::Provisioned { read, write } = pricing.billing.mode {
        let hour = |kind: Kind, units: i64| {
            pricing
                .charge(kind, &BigDecimal::from(units.max(0) * 3_600))
                .amount
        };
        if let (Some(r), Some(w)) = (hour(Kind::Read, read), hour(Kind::Write, write)) {
            let sign = pricing
                .prices
                .as_ref()
                .map_or("$".to_owned(), RegionPrices::sign);
            lines.push(Line::new(
                Tone::Plain,
                format!(
                    "Provisioned capacity: {} an hour, {} a month of 730 hours, used or not",
                    money(&(&r + &w), &sign),
                    money(&((r + w) * BigDecimal::from(730)), &sign)
                ),
            ));
        }
    }
    if let Some(line) = storage(pricing, size_bytes) {
        lines.push(Line::new(Tone::Quiet, line));
    }
    lines
}

/// `Storing 1,228,800 bytes: ≈ $0.000286 a month`.
fn storage(pricing: &Pricing, size_bytes: Option<i64>) -> Option<String> {
    let bytes = u64::try_from(size_bytes?).ok()?;
    let prices = pricing.prices.as_ref()?;
    let class = match pricing.billing.class {
        crate::cost::Class::Standard => &prices.standard,
        crate::cost::Class::StandardIa => &prices.standard_ia,
    };
    let per_gb = class.storage_gb_month.as_ref()?;
    let month = (BigDecimal::from(bytes) * per_gb / BigDecimal::from(GB))
        .with_scale_round(12, RoundingMode::HalfUp);
    Some(format!(
        "Storing {} bytes: ≈ {} a month (before AWS's free tier of 25 GB)",
        count(bytes),
        money(&month, &prices.sign())
    ))
}
