//! Whether the destination table is the source itself, reached through another spelling of
//! its endpoint (`localhost` for `127.0.0.1`, a trailing slash, upper case, a pass-through
//! proxy): told by what the servers say, never by the URLs' text. A clone onto its own source
//! would put back the values it read over every write made meanwhile.
//!
//! Two tables of one name with the same ARN and creation time are the same table on AWS (the
//! ARN holds the account and the region). An emulator gives every table of a name the same ARN
//! and its creation time in whole seconds, so there the question is settled by a probe: an item
//! of a key no one uses is put into the destination (which the clone writes into anyway, once
//! confirmed), looked for in the source with a consistent read, and deleted again.

use std::hash::{BuildHasher, RandomState};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::condition::ScalarType;
use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::read;
use crate::schema::Described;
use crate::table::KeyAttr;
use crate::value::Item;
use crate::value::key_shown;
use crate::write::{self, Batch, Destination, WriteOutcome, WritePlan};

/// What the servers say of the two tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sameness {
    /// Different tables: another ARN or another creation time.
    Different,
    /// They may be one table: the same ARN and creation time (or neither said), so a probe
    /// decides.
    Undecided,
}

/// Whether `source` and `destination`, as described, may be one table.
pub(super) fn compare(source: &Described, destination: &Described) -> Sameness {
    let told = |a: &Option<String>, b: &Option<String>| match (a, b) {
        (Some(a), Some(b)) => a != b,
        _ => false,
    };
    if told(&source.arn, &destination.arn) || told(&source.created, &destination.created) {
        Sameness::Different
    } else {
        Sameness::Undecided
    }
}

/// Refuse a clone whose destination (`to` on `target`, described as `found`) is the source
/// (`from` on `source`, described as `described`): compared by ARN and creation time, then, if
/// those cannot tell, by a probe item put into the destination and looked for in the source.
/// `confirmed`: the user said yes to writes into the destination.
pub(crate) async fn refuse_self(
    source: &Connection,
    described: &Described,
    target: &Connection,
    found: &Described,
    confirmed: bool,
) -> Result<()> {
    if compare(described, found) == Sameness::Different {
        return Ok(());
    }
    let table = &found.spec.name;
    let key = probe_key(&found.spec.partition, found.spec.sort.as_ref());
    let names: Vec<String> = key.keys().cloned().collect();
    let destination = Destination::of(target);
    let put = WritePlan::batch(
        destination.clone(),
        Batch::put(table, vec![key.clone()]),
        names.clone(),
    )?;
    let undecided = |why: String| {
        Error::Invalid(format!(
            "table {table} at {} has the source's ARN and creation time, and whether it is the \
             source itself could not be told ({why}): nothing was copied",
            destination.place()
        ))
    };
    let put_outcome = write::send(target, &put, confirmed).await;
    let probe = key_shown(&key, &names);
    match &put_outcome {
        WriteOutcome::Applied { .. } => {}
        WriteOutcome::Unknown { .. } => {
            return Err(Error::OutcomeUnknown(Box::new(Error::Invalid(format!(
                "the probe item ({probe}) put into table {table} at {} may have been written \
                 (its answer was lost): delete it if it is there; nothing was copied",
                destination.place()
            )))));
        }
        WriteOutcome::Refused { .. } => {
            return Err(undecided(format!(
                "the probe item was not written: {}",
                put_outcome.name()
            )));
        }
    }
    let seen = read::get_item(&source.reader(), &described.spec.name, key.clone()).await;
    let delete = WritePlan::batch(destination.clone(), Batch::delete(table, vec![key]), names)?;
    let deleted = write::send(target, &delete, confirmed).await;
    // A probe left behind is said before anything else, wherever it is.
    if !deleted.applied() {
        let left = Error::Invalid(format!(
            "the probe item ({probe}) put into table {table} at {} could not be deleted again \
             ({}): delete it by hand; nothing was copied",
            destination.place(),
            deleted.name()
        ));
        return Err(match deleted {
            WriteOutcome::Unknown { .. } => Error::OutcomeUnknown(Box::new(left)),
            _ => left,
        });
    }
    let seen = seen.map_err(|e| undecided(format!("the source could not be read: {e}")))?;
    if seen.is_some() {
        return Err(Error::Invalid(format!(
            "table {table} at {} is the source table {} itself, reached another way (an item put \
             into it was read back from the source): a clone onto its own source would put back \
             old values over every write made meanwhile; nothing was copied",
            destination.place(),
            described.spec.name
        )));
    }
    Ok(())
}

/// A key no one uses: `dynoscope-clone-probe-…` with a random tail, typed as each key attribute.
fn probe_key(partition: &KeyAttr, sort: Option<&KeyAttr>) -> Item {
    let tail = RandomState::new().hash_one(std::process::id());
    let mut key = Item::new();
    for attr in std::iter::once(partition).chain(sort) {
        let value = match attr.kind {
            ScalarType::N => AttributeValue::N(format!("-0.{tail}1")),
            ScalarType::B => AttributeValue::B(Blob::new(
                format!("dynoscope-clone-probe-{tail}").into_bytes(),
            )),
            _ => AttributeValue::S(format!("dynoscope-clone-probe-{tail}")),
        };
        key.insert(attr.name.clone(), value);
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{TableSpec, parse_key};

    fn described(arn: Option<&str>, created: Option<&str>) -> Described {
        Described {
            spec: TableSpec::new("Social", parse_key("PK:S").unwrap(), None),
            status: "ACTIVE".into(),
            indexes: Vec::new(),
            arn: arn.map(str::to_owned),
            created: created.map(str::to_owned),
            item_count: None,
            size_bytes: None,
            unread: Vec::new(),
        }
    }

    #[test]
    fn another_arn_or_creation_time_is_another_table() {
        let a = described(
            Some("arn:aws:dynamodb:eu-west-1:1:table/Social"),
            Some("1.5"),
        );
        let other_arn = described(
            Some("arn:aws:dynamodb:eu-west-1:2:table/Social"),
            Some("1.5"),
        );
        let other_time = described(
            Some("arn:aws:dynamodb:eu-west-1:1:table/Social"),
            Some("2.5"),
        );
        assert_eq!(compare(&a, &other_arn), Sameness::Different);
        assert_eq!(compare(&a, &other_time), Sameness::Different);
        assert_eq!(compare(&a, &a.clone()), Sameness::Undecided);
        assert_eq!(compare(&described(None, None), &a), Sameness::Undecided);
    }

    #[test]
    fn the_probe_key_is_typed_as_the_keys() {
        let key = probe_key(
            &KeyAttr::new("PK", ScalarType::N),
            Some(&KeyAttr::new("SK", ScalarType::S)),
        );
        assert!(matches!(&key["PK"], AttributeValue::N(n) if n.starts_with("-0.")));
        assert!(
            matches!(&key["SK"], AttributeValue::S(s) if s.starts_with("dynoscope-clone-probe-"))
        );
        assert!(crate::number::parse(key["PK"].as_n().unwrap()).is_ok());
    }
}
