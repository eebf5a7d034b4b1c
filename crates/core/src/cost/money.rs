//! Amounts of money as text: exact decimals, shown with three significant digits below one
//! and in cents from one up.

use bigdecimal::{BigDecimal, RoundingMode};

/// `amount` with the currency's `sign`: `$0.0000025`, `$0.000000722`, `$3.13`, `$1,234.57`.
/// Exact decimals are never turned into floating point.
pub fn money(amount: &BigDecimal, sign: &str) -> String {
    let zero = BigDecimal::default();
    if amount == &zero {
        return format!("{sign}0");
    }
    let negative = amount < &zero;
    let abs = amount.abs();
    let one = BigDecimal::from(1);
    let text = if abs >= one {
        grouped(
            &abs.with_scale_round(2, RoundingMode::HalfUp)
                .to_plain_string(),
        )
    } else {
        let rounded = abs.with_precision_round(
            std::num::NonZeroU64::MIN.saturating_add(2),
            RoundingMode::HalfUp,
        );
        trim(&rounded.to_plain_string())
    };
    format!("{}{sign}{text}", if negative { "-" } else { "" })
}

/// `1234567.89` as `1,234,567.89`.
fn grouped(plain: &str) -> String {
    let (whole, fraction) = plain.split_once('.').unwrap_or((plain, ""));
    let mut out = String::with_capacity(plain.len() + whole.len() / 3);
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if !fraction.is_empty() {
        out.push('.');
        out.push_str(fraction);
    }
    out
}

/// Trailing zeros of a fraction dropped: `0.00000250` as `0.0000025`.
fn trim(plain: &str) -> String {
    if !plain.contains('.') {
        return plain.to_owned();
    }
    plain.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// A whole count with thousands separators: `1,000,000`.
pub fn count(n: u64) -> String {
    grouped(&n.to_string())
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn d(text: &str) -> BigDecimal {
        BigDecimal::from_str(text).unwrap()
    }

    #[test]
    fn amounts_read_as_money() {
        assert_eq!(money(&d("0.0000025"), "$"), "$0.0000025");
        assert_eq!(money(&d("0.00000072222"), "$"), "$0.000000722");
        assert_eq!(money(&d("0.125"), "$"), "$0.125");
        assert_eq!(money(&d("3.125"), "$"), "$3.13");
        assert_eq!(money(&d("1234.5678"), "$"), "$1,234.57");
        assert_eq!(money(&d("0"), "$"), "$0");
        assert_eq!(money(&d("2.5"), "¥"), "¥2.50");
        assert_eq!(count(1_000_000), "1,000,000");
        assert_eq!(count(999), "999");
    }
}
