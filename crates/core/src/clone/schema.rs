//! The destination's schema: the source's spec renamed and adjusted where the destination
//! cannot take it (each adjustment said), or an existing table taken when its keys are the
//! source's.

use aws_sdk_dynamodb::Client;

use crate::connection::Reader;
use crate::connection::{Connection, ConnectionSpec};
use crate::error::{Error, Result};
use crate::schema::{BillingSpec, Described, StreamView, TableSpec, key_words, read_spec};
use crate::write::Destination;

/// What the clone writes into.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// A new table of this spec, with what was changed from the source's, in words.
    Create {
        /// The spec to create (without the source's stream).
        spec: Box<TableSpec>,
        /// Each adjustment, in words.
        adjusted: Vec<String>,
        /// The source's stream, turned on once every item is copied.
        stream_after: Option<StreamView>,
    },
    /// A table that exists already with the source's keys: the items are put into it.
    Existing {
        /// The table as described.
        described: Box<Described>,
        /// What that means, in words.
        note: String,
    },
}

/// The destination table as described, or `None` when there is none of that name.
pub(super) async fn existing(client: &Client, table: &str) -> Result<Option<Described>> {
    match read_spec(&Reader::of(client), table).await {
        Ok(described) => Ok(Some(described)),
        Err(error) if error.code() == Some("ResourceNotFoundException") => Ok(None),
        Err(error) => Err(error),
    }
}

/// Whether `connection` is AWS itself (a region, or an endpoint of amazonaws.com), rather than
/// the embedded engine or another endpoint.
fn is_aws(connection: &Connection) -> bool {
    match &connection.spec {
        ConnectionSpec::Aws { .. } => true,
        ConnectionSpec::Sandbox { .. } => false,
        ConnectionSpec::Endpoint { url, .. } => {
            let host = url.split("://").nth(1).unwrap_or(url);
            let host = host.split(['/', ':']).next().unwrap_or_default();
            host.ends_with(".amazonaws.com") || host.ends_with(".amazonaws.com.cn")
        }
    }
}

/// What a clone of `source` named `to` on `target` writes into: `found` (the destination as
/// described, if it exists) when its keys are the source's, refused when they are not; else the
/// source's spec renamed and adjusted.
pub(crate) fn target_of(
    source: &Described,
    to: &str,
    target: &Connection,
    found: Option<Described>,
) -> Result<Target> {
    let place = Destination::of(target).place();
    if let Some(described) = found {
        check_keys(source, &described, target)?;
        let mut note = format!(
            "table {to} already exists at {place} with the same keys ({}): the items are put \
             into it, replacing items with the same keys and keeping the others (the check at \
             the end counts them); its indexes, TTL, stream and billing are left as they are",
            keys_text(&described.spec)
        );
        if let (Some(view), None) = (source.spec.stream, described.spec.stream) {
            note.push_str(&format!(
                "; the source has a stream ({}) and this table none: turn it on in the table's \
                 settings once the copy is whole",
                view.name()
            ));
        }
        return Ok(Target::Existing {
            described: Box::new(described),
            note,
        });
    }
    let (spec, adjusted) = adjusted(source, to, is_aws(target), &place);
    Ok(Target::Create {
        spec: Box::new(spec),
        adjusted,
        stream_after: source.spec.stream,
    })
}

/// Refused when `found`, the destination as described, has other keys than `source`: said
/// before anything is read from it or written into it.
pub(crate) fn check_keys(source: &Described, found: &Described, target: &Connection) -> Result<()> {
    let keys = |spec: &TableSpec| (spec.partition.clone(), spec.sort.clone());
    if keys(&found.spec) == keys(&source.spec) {
        return Ok(());
    }
    Err(Error::Invalid(format!(
        "table {} already exists at {} with the keys {}, not the source's {}: nothing was \
         copied (give --to-table a new name, and the table is created)",
        found.spec.name,
        Destination::of(target).place(),
        keys_text(&found.spec),
        keys_text(&source.spec)
    )))
}

/// `PK (S) / SK (S)`.
fn keys_text(spec: &TableSpec) -> String {
    match &spec.sort {
        Some(sort) => format!("{} / {}", key_words(&spec.partition), key_words(sort)),
        None => key_words(&spec.partition),
    }
}

/// The source's spec named `to`, changed where a destination (`aws` or not, at `place`) cannot
/// take it, and without its stream (turned on after the copy), with each change in words.
pub(crate) fn adjusted(
    source: &Described,
    to: &str,
    aws: bool,
    place: &str,
) -> (TableSpec, Vec<String>) {
    let mut spec = source.spec.clone();
    to.clone_into(&mut spec.name);
    let mut said = Vec::new();
    // What the source did not answer is not guessed at: it is left off, and said.
    for unread in &source.unread {
        said.push(format!(
            "not read from the source, so not set on the copy: {unread}"
        ));
    }
    // The copy's own puts are not the table's history (DynamoDB's import from S3 writes no
    // stream records either), and an emulator may take each write the slower for a stream.
    if let Some(view) = spec.stream.take() {
        said.push(format!(
            "the stream ({}) is turned on once every item is copied, so the copy's own puts are \
             not in it",
            view.name()
        ));
    }
    if spec.pitr && !aws {
        spec.pitr = false;
        said.push(format!(
            "point-in-time recovery is on at the source but left off on the copy: {place} is \
             not AWS, and the embedded engine and local endpoints keep no continuous backups"
        ));
    }
    // Tags whose keys begin with `aws:` are AWS's own: CreateTable refuses them.
    let (ours, theirs): (Vec<_>, Vec<_>) = spec
        .tags
        .into_iter()
        .partition(|(key, _)| !key.starts_with("aws:"));
    spec.tags = ours;
    if !theirs.is_empty() {
        let keys: Vec<&str> = theirs.iter().map(|(k, _)| k.as_str()).collect();
        said.push(format!(
            "tags left off (AWS sets tags beginning with `aws:` itself, and refuses them): {}",
            keys.join(", ")
        ));
    }
    if let BillingSpec::Provisioned { rcu, wcu } = spec.billing {
        let holds = if aws {
            "AWS holds the copy to it: the items go no faster than its write capacity allows"
        } else {
            "this endpoint may not hold the copy to it, as AWS would"
        };
        said.push(format!(
            "billing copied as provisioned {rcu} RCU / {wcu} WCU (the global indexes too); {holds}"
        ));
    }
    if spec.deletion_protection {
        said.push("deletion protection copied: on (turn it off to delete the copy)".to_owned());
    }
    (spec, said)
}

/// `lines` with each thing not read said once: the new table is described after its creation
/// and again after its stream is turned on, and a setting its engine does not answer (point-in-
/// time recovery on an emulator) would otherwise be said by each, and again after the source's
/// own line (`not read from the source, so not set on the copy: …`), which says the most and is
/// the one kept.
pub(crate) fn said_once(lines: Vec<String>) -> Vec<String> {
    const NOT_SET: &str = "not read from the source, so not set on the copy: ";
    let mut said: std::collections::HashSet<String> = lines
        .iter()
        .filter_map(|line| line.split_once(NOT_SET).map(|(_, what)| what.to_owned()))
        .collect();
    lines
        .into_iter()
        .filter(|line| match line.split_once("not read: ") {
            Some((_, what)) if !line.contains(NOT_SET) => said.insert(what.to_owned()),
            _ => true,
        })
        .collect()
}
