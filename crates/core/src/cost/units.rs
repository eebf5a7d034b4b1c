//! Request units from bytes, as DynamoDB charges them: a write unit covers 1 KB, a read unit
//! 4 KB read strongly (half a unit eventually consistent), a transaction twice either.

use bigdecimal::BigDecimal;

/// One write unit's bytes.
pub(crate) const WRITE_UNIT_BYTES: u64 = 1024;
/// One read unit's bytes.
pub(crate) const READ_UNIT_BYTES: u64 = 4096;
/// The largest item DynamoDB stores: 400 KB.
pub(crate) const MAX_ITEM_BYTES: u64 = 400 * 1024;
/// What one partition serves at most each second: write units.
pub(crate) const PARTITION_WCU_PER_SECOND: u64 = 1_000;
/// What one partition serves at most each second: read units (strongly consistent).
pub(crate) const PARTITION_RCU_PER_SECOND: u64 = 3_000;

/// How a read is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadKind {
    /// Eventually consistent: half a unit per 4 KB.
    Eventual,
    /// Strongly consistent: a unit per 4 KB.
    Strong,
    /// Inside `TransactGetItems`: two units per 4 KB.
    Transactional,
}

/// How a write is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteKind {
    /// `PutItem`, `UpdateItem`, `DeleteItem`, a batch write: a unit per 1 KB.
    Standard,
    /// Inside `TransactWriteItems`: two units per 1 KB.
    Transactional,
}

/// `bytes` in `unit`-sized pieces, rounded up, at least one.
fn pieces(bytes: u64, unit: u64) -> u64 {
    bytes.div_ceil(unit).max(1)
}

/// The write units one write of an item of `bytes` costs (the larger of the old and new item
/// for an update).
pub fn write_units(bytes: u64, kind: WriteKind) -> BigDecimal {
    let units = pieces(bytes, WRITE_UNIT_BYTES);
    BigDecimal::from(match kind {
        WriteKind::Standard => units,
        WriteKind::Transactional => units * 2,
    })
}

/// The read units one read of `bytes` costs: one item by `GetItem`, or the sum of the items a
/// `Query` or `Scan` page returns (rounded up once for the page).
pub fn read_units(bytes: u64, kind: ReadKind) -> BigDecimal {
    let units = BigDecimal::from(pieces(bytes, READ_UNIT_BYTES));
    match kind {
        ReadKind::Eventual => units / BigDecimal::from(2),
        ReadKind::Strong => units,
        ReadKind::Transactional => units * BigDecimal::from(2),
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn d(text: &str) -> BigDecimal {
        BigDecimal::from_str(text).unwrap()
    }

    /// The worked examples of AWS's capacity pages: a 1 KB write is 1 WCU, a 3 KB write 3, a
    /// transactional 3 KB write 6; an 8 KB strong read 2 RCU, eventual 1, transactional 4; a
    /// 3,500-byte read rounds up to 4 KB.
    #[test]
    fn units_as_aws_works_them() {
        assert_eq!(write_units(1024, WriteKind::Standard), d("1"));
        assert_eq!(write_units(3 * 1024, WriteKind::Standard), d("3"));
        assert_eq!(write_units(3 * 1024, WriteKind::Transactional), d("6"));
        assert_eq!(write_units(1025, WriteKind::Standard), d("2"));
        assert_eq!(write_units(0, WriteKind::Standard), d("1"));
        assert_eq!(read_units(8 * 1024, ReadKind::Strong), d("2"));
        assert_eq!(read_units(8 * 1024, ReadKind::Eventual), d("1"));
        assert_eq!(read_units(8 * 1024, ReadKind::Transactional), d("4"));
        assert_eq!(read_units(3_500, ReadKind::Strong), d("1"));
        assert_eq!(read_units(3_500, ReadKind::Eventual), d("0.5"));
    }
}
