//! Hot keys: a write or read rate on one partition key (or one item) against what one
//! partition serves at most, 1,000 WCU/s and 3,000 RCU/s, with the arithmetic said.

use bigdecimal::{BigDecimal, RoundingMode};

use crate::cost::units::{PARTITION_RCU_PER_SECOND, PARTITION_WCU_PER_SECOND};
use crate::cost::{Kind, count, units_of};
use crate::report::{Line, Tone, capacity_exact};

/// What one partition serves at most each second of `kind`.
pub fn ceiling(kind: Kind) -> u64 {
    match kind {
        Kind::Read => PARTITION_RCU_PER_SECOND,
        Kind::Write => PARTITION_WCU_PER_SECOND,
    }
}

/// A rate on one key: `units` of `kind` over `millis`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRate {
    /// The partition key (or item) it fell on.
    pub key: String,
    /// Read or write.
    pub kind: Kind,
    /// Units consumed.
    pub units: BigDecimal,
    /// Over how many milliseconds.
    pub millis: u64,
}

impl KeyRate {
    /// `units` (as the SDK reports them) of `kind` on `key` over `millis`.
    pub fn new(key: &str, kind: Kind, reported: f64, millis: u128) -> Self {
        Self {
            key: key.to_owned(),
            kind,
            units: units_of(reported),
            millis: u64::try_from(millis).unwrap_or(u64::MAX),
        }
    }

    /// Units a second, rounded to a whole unit; `None` over no time.
    pub fn per_second(&self) -> Option<BigDecimal> {
        (self.millis > 0).then(|| {
            (&self.units * BigDecimal::from(1000) / BigDecimal::from(self.millis))
                .with_scale_round(0, RoundingMode::HalfUp)
        })
    }

    /// The rate as a share of one partition's ceiling, in whole percent.
    pub(crate) fn percent(&self) -> Option<BigDecimal> {
        self.per_second().map(|rate| {
            (rate * BigDecimal::from(100) / BigDecimal::from(ceiling(self.kind)))
                .with_scale_round(0, RoundingMode::HalfUp)
        })
    }

    /// `POST#a91f: 440 WCU in 0.9 s = 489 WCU/s, 49% of one partition's 1,000 WCU/s`, or, at
    /// or past the ceiling, that the key would be throttled at this rate: shard the counter.
    pub fn line(&self) -> Line {
        self.line_advising("Shard the counter.")
    }

    /// [`line`](Self::line) with `advice` for a key at or past the ceiling (a counter already
    /// sharded is not told to shard).
    pub fn line_advising(&self, advice: &str) -> Line {
        let unit = self.kind.unit();
        let ceiling = count(ceiling(self.kind));
        let (Some(rate), Some(percent)) = (self.per_second(), self.percent()) else {
            return Line::new(
                Tone::Quiet,
                format!(
                    "{}: {} {unit}, too fast to time",
                    self.key,
                    capacity_exact(&self.units)
                ),
            );
        };
        let seconds = BigDecimal::from(self.millis) / BigDecimal::from(1000);
        let arithmetic = format!(
            "{} {unit} in {} s = {} {unit}/s",
            capacity_exact(&self.units),
            capacity_exact(&seconds.with_scale_round(2, RoundingMode::HalfUp)),
            capacity_exact(&rate),
        );
        let full = BigDecimal::from(100);
        if percent >= full {
            Line::new(
                Tone::Warn,
                format!(
                    "At this rate {} would be throttled: {arithmetic}, {}% of one partition's \
                     {ceiling} {unit}/s. {advice}",
                    self.key,
                    capacity_exact(&percent)
                ),
            )
        } else {
            Line::new(
                Tone::Plain,
                format!(
                    "{}: {arithmetic}, {}% of one partition's {ceiling} {unit}/s",
                    self.key,
                    capacity_exact(&percent)
                ),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_is_said_against_the_partition_ceiling() {
        let rate = KeyRate::new("POST#a91f", Kind::Write, 440.0, 900);
        assert_eq!(rate.per_second(), Some(BigDecimal::from(489)));
        assert_eq!(
            rate.line().text,
            "POST#a91f: 440 WCU in 0.9 s = 489 WCU/s, 49% of one partition's 1,000 WCU/s"
        );
        assert_eq!(rate.line().tone, Tone::Plain);
        let hot = KeyRate::new("POST#f00d", Kind::Write, 2_400.0, 2_000);
        assert_eq!(hot.line().tone, Tone::Warn);
        assert_eq!(
            hot.line().text,
            "At this rate POST#f00d would be throttled: 2,400 WCU in 2 s = 1,200 WCU/s, 120% \
             of one partition's 1,000 WCU/s. Shard the counter."
        );
        let reads = KeyRate::new("VID#9f3a", Kind::Read, 300.0, 1_000);
        assert!(
            reads
                .line()
                .text
                .ends_with("10% of one partition's 3,000 RCU/s")
        );
        assert_eq!(
            KeyRate::new("k", Kind::Write, 4.0, 0).line().text,
            "k: 4 WCU, too fast to time"
        );
    }
}
