//! The size of an item as DynamoDB counts it against its 400 KB limit.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::core::value::Item;

/// The size of `item` as DynamoDB counts it against the 400 KB limit: each attribute's name in
/// UTF-8 bytes plus its value's size.
pub fn item_size(item: &Item) -> usize {
    item.iter()
        .map(|(name, value)| name.len() + value_size(value))
        .sum()
}

/// The size of one value: strings in UTF-8 bytes, binary in bytes, a number about one byte per
/// two significant digits (on each side of the point) plus one (and one for a minus), a boolean
/// or null one byte, a set its elements, a list or map three bytes plus a byte per element (and
/// a map's names).
pub fn value_size(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(s) => s.len(),
        AttributeValue::N(n) => number_size(n),
        AttributeValue::B(b) => b.as_ref().len(),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        AttributeValue::Ss(v) => v.iter().map(String::len).sum(),
        AttributeValue::Ns(v) => v.iter().map(|n| number_size(n)).sum(),
        AttributeValue::Bs(v) => v.iter().map(|b| b.as_ref().len()).sum(),
        AttributeValue::L(list) => 3 + list.len() + list.iter().map(value_size).sum::<usize>(),
        AttributeValue::M(map) => {
            3 + map
                .iter()
                .map(|(name, v)| name.len() + 1 + value_size(v))
                .sum::<usize>()
        }
        _ => 0,
    }
}

/// A number's size: its significant digits split at the decimal point, each side one byte per
/// two digits, one byte more, and one for a minus sign (zero has none).
pub(super) fn number_size(text: &str) -> usize {
    let text = text.trim();
    let negative = text.starts_with('-');
    let body = text.trim_start_matches(['-', '+']);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], body[at + 1..].parse::<i64>().unwrap_or(0)),
        None => (body, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    // Where the point falls among the digits, then the digits trimmed of zeros on both sides.
    let mut point = i64::try_from(whole.len())
        .unwrap_or(i64::MAX)
        .saturating_add(exponent);
    let leading = digits.len() - digits.trim_start_matches('0').len();
    point = point.saturating_sub(i64::try_from(leading).unwrap_or(0));
    let significant = digits.trim_matches('0');
    if significant.is_empty() {
        return 1;
    }
    let len = i64::try_from(significant.len()).unwrap_or(i64::MAX);
    let before = usize::try_from(point.clamp(0, len)).unwrap_or(0);
    let after = significant.len() - before;
    before.div_ceil(2) + after.div_ceil(2) + 1 + usize::from(negative)
}
