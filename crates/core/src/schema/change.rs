//! One change to an existing table — billing, a global index added or deleted, TTL, the stream,
//! deletion protection, the class, point-in-time recovery — in words, and held against the
//! table as last described, so that what DynamoDB would refuse is refused before it is sent.

use crate::error::{Error, Result};
use crate::schema::{
    BillingSpec, ClassSpec, Described, IndexSpec, MAX_GSIS, StreamView, TableSpec,
};

/// A change to a table's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableChange {
    /// Billing mode and capacity; `indexes` are the global indexes given the same capacity
    /// when it becomes provisioned.
    Billing {
        /// The new billing.
        billing: BillingSpec,
        /// The table's global indexes.
        indexes: Vec<String>,
    },
    /// A global index added (DynamoDB backfills it from the table's items).
    AddGlobal {
        /// The index.
        index: IndexSpec,
        /// The table's billing: a provisioned table's new index gets its capacity.
        billing: BillingSpec,
    },
    /// A global index deleted.
    DeleteGlobal(String),
    /// TTL turned on or off for an attribute.
    Ttl {
        /// The attribute holding each item's expiry (epoch seconds).
        attribute: String,
        /// On or off.
        enabled: bool,
    },
    /// The stream turned on with a view, or off.
    Stream(Option<StreamView>),
    /// Deletion protection on or off.
    DeletionProtection(bool),
    /// The table class.
    Class(ClassSpec),
    /// Point-in-time recovery on or off.
    Pitr(bool),
}

impl TableChange {
    /// What it does, in words: `the global index ByUser (user (S), ALL) added`.
    pub fn words(&self) -> String {
        match self {
            Self::Billing { billing, .. } => format!("billing changed to {}", billing.words()),
            Self::AddGlobal { index, .. } => {
                let keys = match &index.sort {
                    Some(sort) => format!(
                        "{} / {}",
                        super::key_words(&index.partition),
                        super::key_words(sort)
                    ),
                    None => super::key_words(&index.partition),
                };
                format!(
                    "the global index {} ({keys}, {}) added and backfilled from the table's items",
                    index.name,
                    index.projection.text()
                )
            }
            Self::DeleteGlobal(name) => format!("the global index {name} deleted"),
            Self::Ttl { attribute, enabled } => format!(
                "TTL turned {} for `{attribute}`",
                if *enabled { "on" } else { "off" }
            ),
            Self::Stream(Some(view)) => {
                format!("a stream with {} turned on", view.name())
            }
            Self::Stream(None) => "the stream turned off".to_owned(),
            Self::DeletionProtection(on) => format!(
                "deletion protection turned {}",
                if *on { "on" } else { "off" }
            ),
            Self::Class(class) => format!("the table class changed to {}", class.name()),
            Self::Pitr(on) => format!(
                "point-in-time recovery turned {}",
                if *on { "on" } else { "off" }
            ),
        }
    }

    /// The change, refused in words when `table` (as described) cannot take it or already is
    /// so.
    pub fn check(&self, table: &Described) -> Result<()> {
        let spec = &table.spec;
        let refuse = |why: String| Err(Error::Invalid(format!("{}: {why}", spec.name)));
        match self {
            Self::Billing { billing, .. } if *billing == spec.billing => {
                refuse(format!("it is already billed {}", billing.words()))
            }
            Self::Billing {
                billing: BillingSpec::Provisioned { rcu, wcu },
                ..
            } if *rcu == 0 || *wcu == 0 => {
                refuse("provisioned capacity is at least 1 RCU and 1 WCU".to_owned())
            }
            Self::AddGlobal { index, .. } => add_global_problem(spec, index).map_or(Ok(()), refuse),
            Self::DeleteGlobal(name) if !spec.global.iter().any(|g| &g.name == name) => {
                refuse(format!("it has no global index named {name}"))
            }
            Self::Ttl { enabled: true, .. } if spec.ttl.is_some() => refuse(format!(
                "TTL is already on, on `{}`: turn it off first",
                spec.ttl.as_deref().unwrap_or_default()
            )),
            Self::Ttl {
                attribute,
                enabled: false,
            } if spec.ttl.as_deref() != Some(attribute) => {
                refuse(format!("TTL is not on for `{attribute}`"))
            }
            Self::Stream(Some(view)) if spec.stream.is_some() => refuse(format!(
                "it already has a stream ({}); a stream's view cannot be changed in place: turn \
                 it off, then on with {}",
                spec.stream.map_or("", StreamView::name),
                view.name()
            )),
            Self::Stream(None) if spec.stream.is_none() => refuse("it has no stream".to_owned()),
            Self::DeletionProtection(on) if *on == spec.deletion_protection => refuse(format!(
                "deletion protection is already {}",
                if *on { "on" } else { "off" }
            )),
            Self::Class(class) if *class == spec.class => {
                refuse(format!("its class is already {}", class.name()))
            }
            Self::Pitr(on) if *on == spec.pitr && !table.unread_pitr() => refuse(format!(
                "point-in-time recovery is already {}",
                if *on { "on" } else { "off" }
            )),
            _ => Ok(()),
        }
    }
}

impl Described {
    /// Whether point-in-time recovery could not be read (so neither on nor off is known).
    fn unread_pitr(&self) -> bool {
        self.unread
            .iter()
            .any(|u| u.starts_with("point-in-time recovery"))
    }
}

/// Why `index` cannot be added to `table`, if it cannot.
fn add_global_problem(table: &TableSpec, index: &IndexSpec) -> Option<String> {
    if table
        .global
        .iter()
        .chain(&table.local)
        .any(|i| i.name == index.name)
    {
        return Some(format!("it already has an index named {}", index.name));
    }
    if table.global.len() >= MAX_GSIS {
        return Some(format!(
            "it has {MAX_GSIS} global indexes, the most a table has"
        ));
    }
    let mut with = table.clone();
    with.global.push(index.clone());
    with.problems().into_iter().next()
}
