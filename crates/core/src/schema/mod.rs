//! What a table is, whole: its keys, indexes, billing, stream, TTL, point-in-time recovery,
//! deletion protection, class and tags — the one description that a new table is created from
//! (the app's form, `dynoscope table create`), that a clone copies, and that infrastructure code
//! is written from. [`TableSpec::check`] holds it to DynamoDB's rules before anything is sent.

mod change;
mod check;
mod described;
pub mod iac;
mod parse;
pub(crate) mod request;
#[cfg(test)]
mod tests;

pub use change::TableChange;
pub(crate) use check::MAX_GSIS;
pub use check::name_problem;
pub use described::{Described, read_spec};
pub use iac::{IacFormat, render as render_iac};
pub use parse::{parse_index, parse_key, parse_tag};
pub use request::create_input_json;

use crate::condition::ScalarType;
use crate::table::KeyAttr;

/// How a table (and its global indexes) is billed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BillingSpec {
    /// On demand (`PAY_PER_REQUEST`): every request paid for.
    OnDemand,
    /// Provisioned read and write capacity units a second.
    Provisioned {
        /// Read capacity units.
        rcu: u64,
        /// Write capacity units.
        wcu: u64,
    },
}

impl BillingSpec {
    /// DynamoDB's name of the mode.
    pub fn mode(self) -> &'static str {
        match self {
            Self::OnDemand => "PAY_PER_REQUEST",
            Self::Provisioned { .. } => "PROVISIONED",
        }
    }

    /// Provisioned capacity from the text typed for it (a form's two fields): each a whole
    /// number of units, said in words when it is not.
    pub fn provisioned(rcu: &str, wcu: &str) -> crate::error::Result<Self> {
        let units = |text: &str, what: &str| {
            text.trim().parse::<u64>().map_err(|_| {
                crate::error::Error::Invalid(format!(
                    "{what}: a whole number of units, not `{}`",
                    text.trim()
                ))
            })
        };
        Ok(Self::Provisioned {
            rcu: units(rcu, "RCU")?,
            wcu: units(wcu, "WCU")?,
        })
    }

    /// In words: `on demand`, `provisioned 5 RCU / 5 WCU`.
    pub fn words(self) -> String {
        match self {
            Self::OnDemand => "on demand".to_owned(),
            Self::Provisioned { rcu, wcu } => format!("provisioned {rcu} RCU / {wcu} WCU"),
        }
    }
}

/// What an index holds besides the keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProjectionSpec {
    /// Every attribute.
    All,
    /// The table's and the index's keys only.
    KeysOnly,
    /// The keys and these attributes.
    Include(Vec<String>),
}

impl ProjectionSpec {
    /// DynamoDB's name of the projection type.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::All => "ALL",
            Self::KeysOnly => "KEYS_ONLY",
            Self::Include(_) => "INCLUDE",
        }
    }

    /// As written on the command line and shown: `ALL`, `INCLUDE(likedAt,title)`.
    pub fn text(&self) -> String {
        match self {
            Self::Include(names) => format!("INCLUDE({})", names.join(",")),
            other => other.kind().to_owned(),
        }
    }
}

/// A secondary index: global or local by where it is kept in [`TableSpec`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexSpec {
    /// Its name.
    pub name: String,
    /// Its partition key (a local index's is the table's).
    pub partition: KeyAttr,
    /// Its sort key.
    pub sort: Option<KeyAttr>,
    /// What it holds besides the keys.
    pub projection: ProjectionSpec,
}

/// What a stream carries of each changed item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamView {
    /// Only the key.
    KeysOnly,
    /// The item after the change.
    NewImage,
    /// The item before the change.
    OldImage,
    /// Both.
    NewAndOldImages,
}

impl StreamView {
    /// Every view type, in DynamoDB's order.
    pub const ALL: [Self; 4] = [
        Self::KeysOnly,
        Self::NewImage,
        Self::OldImage,
        Self::NewAndOldImages,
    ];

    /// DynamoDB's name: `NEW_AND_OLD_IMAGES`.
    pub fn name(self) -> &'static str {
        match self {
            Self::KeysOnly => "KEYS_ONLY",
            Self::NewImage => "NEW_IMAGE",
            Self::OldImage => "OLD_IMAGE",
            Self::NewAndOldImages => "NEW_AND_OLD_IMAGES",
        }
    }

    /// From DynamoDB's name or the CLI's (`new-and-old-images`), any case.
    pub fn parse(text: &str) -> Option<Self> {
        let wanted = text.trim().replace('-', "_").to_ascii_uppercase();
        Self::ALL.into_iter().find(|v| v.name() == wanted)
    }
}

/// The table class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClassSpec {
    /// `STANDARD`.
    #[default]
    Standard,
    /// `STANDARD_INFREQUENT_ACCESS`: cheaper storage, dearer requests.
    StandardIa,
}

impl ClassSpec {
    /// DynamoDB's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Standard => "STANDARD",
            Self::StandardIa => "STANDARD_INFREQUENT_ACCESS",
        }
    }

    /// From DynamoDB's name or the CLI's (`standard`, `standard-ia`), any case.
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().replace('-', "_").to_ascii_uppercase().as_str() {
            "STANDARD" => Some(Self::Standard),
            "STANDARD_IA" | "STANDARD_INFREQUENT_ACCESS" => Some(Self::StandardIa),
            _ => None,
        }
    }
}

/// A whole table as it is asked for or as it was described.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSpec {
    /// The table's name.
    pub name: String,
    /// The partition key.
    pub partition: KeyAttr,
    /// The sort key.
    pub sort: Option<KeyAttr>,
    /// How it is billed; provisioned global indexes get the same capacity.
    pub billing: BillingSpec,
    /// Global secondary indexes.
    pub global: Vec<IndexSpec>,
    /// Local secondary indexes (only at creation, only with a sort key).
    pub local: Vec<IndexSpec>,
    /// The stream, when on.
    pub stream: Option<StreamView>,
    /// The TTL attribute, when TTL is on.
    pub ttl: Option<String>,
    /// Point-in-time recovery (not in the embedded engine).
    pub pitr: bool,
    /// Deletion protection: a delete is refused while it is on.
    pub deletion_protection: bool,
    /// The table class.
    pub class: ClassSpec,
    /// Tags, in order.
    pub tags: Vec<(String, String)>,
}

impl TableSpec {
    /// A table of `name` with these keys, on demand, and nothing else.
    pub fn new(name: &str, partition: KeyAttr, sort: Option<KeyAttr>) -> Self {
        Self {
            name: name.to_owned(),
            partition,
            sort,
            billing: BillingSpec::OnDemand,
            global: Vec::new(),
            local: Vec::new(),
            stream: None,
            ttl: None,
            pitr: false,
            deletion_protection: false,
            class: ClassSpec::Standard,
            tags: Vec::new(),
        }
    }

    /// Every key attribute of the table and its indexes, each once, in the order met: what
    /// `AttributeDefinitions` lists.
    pub fn attribute_definitions(&self) -> Vec<&KeyAttr> {
        let mut all: Vec<&KeyAttr> = Vec::new();
        let indexes = self.global.iter().chain(&self.local);
        let keys = [Some(&self.partition), self.sort.as_ref()]
            .into_iter()
            .chain(indexes.flat_map(|i| [Some(&i.partition), i.sort.as_ref()]))
            .flatten();
        for key in keys {
            if !all.iter().any(|k| k.name == key.name) {
                all.push(key);
            }
        }
        all
    }

    /// The table in a few words: `Posts: PK (S) / SK (S), on demand, 2 global indexes`.
    pub fn summary(&self) -> String {
        let keys = match &self.sort {
            Some(sort) => format!("{} / {}", key_words(&self.partition), key_words(sort)),
            None => key_words(&self.partition),
        };
        let mut parts = vec![format!("{}: {keys}", self.name), self.billing.words()];
        let count = |n: usize, one: &str| match n {
            0 => None,
            1 => Some(format!("1 {one} index")),
            n => Some(format!("{n} {one} indexes")),
        };
        parts.extend(count(self.global.len(), "global"));
        parts.extend(count(self.local.len(), "local"));
        if let Some(view) = self.stream {
            parts.push(format!("stream {}", view.name()));
        }
        if let Some(ttl) = &self.ttl {
            parts.push(format!("TTL on {ttl}"));
        }
        if self.pitr {
            parts.push("point-in-time recovery".to_owned());
        }
        if self.deletion_protection {
            parts.push("deletion protection".to_owned());
        }
        if self.class != ClassSpec::Standard {
            parts.push(self.class.name().to_owned());
        }
        match self.tags.len() {
            0 => {}
            1 => parts.push("1 tag".to_owned()),
            n => parts.push(format!("{n} tags")),
        }
        parts.join(", ")
    }
}

/// `PK (S)`.
pub(crate) fn key_words(key: &KeyAttr) -> String {
    format!("{} ({})", key.name, type_letter(key.kind))
}

/// A key type's letter: `S`, `N` or `B`.
pub fn type_letter(kind: ScalarType) -> &'static str {
    match kind {
        ScalarType::N => "N",
        ScalarType::B => "B",
        _ => "S",
    }
}
