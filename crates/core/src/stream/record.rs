//! One stream record as dynoscope holds it: what happened to which item, its images in the
//! table client's attribute values, its sequence number and its time.

use std::cmp::Ordering;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodbstreams::types as streams;

use crate::value::Item;

/// What a record says happened to its item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum EventKind {
    /// The item was written where none was.
    Insert,
    /// An item that existed was changed (or written over by a put).
    Modify,
    /// The item was deleted (or expired by TTL).
    Remove,
}

impl EventKind {
    /// As DynamoDB names it: `INSERT`, `MODIFY`, `REMOVE`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Insert => "INSERT",
            Self::Modify => "MODIFY",
            Self::Remove => "REMOVE",
        }
    }
}

/// A stream record's sequence number: 21 to 40 digits, increasing within a shard. Compared as
/// the whole number it is (a shorter one is smaller), never through a float.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct SequenceNumber(pub String);

impl SequenceNumber {
    /// The number as the server wrote it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Ord for SequenceNumber {
    fn cmp(&self, other: &Self) -> Ordering {
        // Streams write no leading zeros, so the longer number is the larger.
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.cmp(&other.0))
    }
}

impl PartialOrd for SequenceNumber {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for SequenceNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One record of a table's stream.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamRecord {
    /// Its place in its shard.
    pub sequence: SequenceNumber,
    /// The shard it was read from.
    pub shard: String,
    /// What happened.
    pub kind: EventKind,
    /// The item's key.
    pub keys: Item,
    /// The item before (with OLD_IMAGE or NEW_AND_OLD_IMAGES, and when it existed).
    pub old: Option<Item>,
    /// The item after (with NEW_IMAGE or NEW_AND_OLD_IMAGES, unless removed).
    pub new: Option<Item>,
    /// When it was written, as the stream says (approximately), in milliseconds since the epoch.
    pub at_ms: i64,
}

impl StreamRecord {
    /// The record as the Streams client returned it, its values turned into the table client's;
    /// `None` for a record without a sequence number (which no stream writes).
    pub fn from_sdk(shard: &str, record: &streams::Record) -> Option<Self> {
        let body = record.dynamodb()?;
        let sequence = SequenceNumber(body.sequence_number()?.to_owned());
        let kind = match record.event_name()? {
            streams::OperationType::Insert => EventKind::Insert,
            streams::OperationType::Modify => EventKind::Modify,
            streams::OperationType::Remove => EventKind::Remove,
            _ => return None,
        };
        let image = |m: Option<&std::collections::HashMap<String, streams::AttributeValue>>| {
            m.map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), value_of(v)))
                    .collect::<Item>()
            })
        };
        let at_ms = body.approximate_creation_date_time().map_or(0, |t| {
            t.secs() * 1000 + i64::from(t.subsec_nanos() / 1_000_000)
        });
        Some(Self {
            sequence,
            shard: shard.to_owned(),
            kind,
            keys: image(body.keys.as_ref()).unwrap_or_default(),
            old: image(body.old_image.as_ref()),
            new: image(body.new_image.as_ref()),
            at_ms,
        })
    }

    /// The item as the record shows it: the new image, else the old one, else the keys.
    pub fn item(&self) -> &Item {
        self.new
            .as_ref()
            .or(self.old.as_ref())
            .unwrap_or(&self.keys)
    }
}

/// A Streams attribute value as the table client's: the same DynamoDB value.
pub(crate) fn value_of(value: &streams::AttributeValue) -> AttributeValue {
    use streams::AttributeValue as S;
    match value {
        S::S(s) => AttributeValue::S(s.clone()),
        S::N(n) => AttributeValue::N(n.clone()),
        S::B(b) => AttributeValue::B(Blob::new(b.as_ref())),
        S::Ss(v) => AttributeValue::Ss(v.clone()),
        S::Ns(v) => AttributeValue::Ns(v.clone()),
        S::Bs(v) => AttributeValue::Bs(v.iter().map(|b| Blob::new(b.as_ref())).collect()),
        S::M(m) => AttributeValue::M(m.iter().map(|(k, v)| (k.clone(), value_of(v))).collect()),
        S::L(l) => AttributeValue::L(l.iter().map(value_of).collect()),
        S::Null(b) => AttributeValue::Null(*b),
        S::Bool(b) => AttributeValue::Bool(*b),
        // A kind of value this SDK does not know yet: kept visible rather than dropped.
        _ => AttributeValue::Null(true),
    }
}

/// `at_ms` as a time of day, `10:32:05.123 UTC`, the date before it when `with_date`.
pub fn time_text(at_ms: i64, with_date: bool) -> String {
    let secs = at_ms.div_euclid(1000);
    let millis = at_ms.rem_euclid(1000);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let time = format!(
        "{:02}:{:02}:{:02}.{millis:03} UTC",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60
    );
    if !with_date {
        return time;
    }
    let (year, month, day) = crate::value::civil_date(days);
    format!("{year:04}-{month:02}-{day:02} {time}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_numbers_compare_as_whole_numbers() {
        let n = |s: &str| SequenceNumber(s.to_owned());
        assert!(n("100000000000000000009") < n("100000000000000000010"));
        assert!(n("99999999999999999999999") > n("100000000000000000010"));
        assert_eq!(n("100").cmp(&n("100")), Ordering::Equal);
    }

    #[test]
    fn times_have_milliseconds() {
        assert_eq!(time_text(1_750_636_805_123, false), "00:00:05.123 UTC");
        assert_eq!(
            time_text(1_750_636_805_000, true),
            "2025-06-23 00:00:05.000 UTC"
        );
    }

    #[test]
    fn values_keep_their_type_and_text() {
        use std::collections::HashMap;
        let nested = streams::AttributeValue::M(HashMap::from([(
            "n".to_owned(),
            streams::AttributeValue::N("98765432109876543210987654321098765432".into()),
        )]));
        let AttributeValue::M(m) = value_of(&nested) else {
            panic!("a map stays a map")
        };
        assert_eq!(
            m["n"],
            AttributeValue::N("98765432109876543210987654321098765432".into())
        );
        assert_eq!(
            value_of(&streams::AttributeValue::Ss(vec!["a".into()])),
            AttributeValue::Ss(vec!["a".into()])
        );
    }
}
