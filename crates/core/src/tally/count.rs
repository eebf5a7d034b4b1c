//! One parent's stored tally beside its counted children: counting exactly (`Select: COUNT`,
//! every page followed), reading the parent, and what the comparison says in words.

use std::time::Instant;

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;

use crate::condition::{SortCondition, SortOp};
use crate::connection::Reader;
use crate::cost::Pricing;
use crate::error::{Error, Result};
use crate::number::to_dynamodb;
use crate::read::{self, BrowseRequest};
use crate::report::plural;
use crate::table::TableInfo;
use crate::tally::{ChildSource, TallyRule, drift, last_touched, stored_tally};
use crate::value::{Item, cell_text, whole_text};

/// How many children were counted, and what counting cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Count {
    /// Children counted.
    pub count: u64,
    /// Query pages read.
    pub pages: u32,
    /// Read capacity consumed.
    pub consumed_rcu: f64,
    /// Milliseconds taken.
    pub elapsed_ms: u128,
    /// How the count was made, in words.
    pub method: String,
}

/// One parent's stored tally beside its counted children.
#[derive(Debug, Clone, PartialEq)]
pub struct ParentCheck {
    /// The parent's key.
    pub key: Item,
    /// The parent's partition key, as text.
    pub partition: String,
    /// The stored tally (`None`: missing, which is not 0).
    pub stored: Option<String>,
    /// The children counted.
    pub count: Count,
    /// `stored − counted` (`None` when the tally is missing).
    pub drift: Option<BigDecimal>,
    /// An attribute of the parent telling when it was last touched, if it has one.
    pub last_touched: Option<(String, String)>,
}

impl ParentCheck {
    /// Whether the stored tally disagrees with the children (a missing tally disagrees).
    pub fn drifted(&self) -> bool {
        self.drift
            .as_ref()
            .is_none_or(|d| *d != BigDecimal::default())
    }

    /// How far off, for sorting: missing tallies first, then by |drift|.
    pub fn severity(&self) -> (bool, BigDecimal) {
        match &self.drift {
            None => (true, BigDecimal::default()),
            Some(d) => (false, d.abs()),
        }
    }

    /// The drift as text: `+1`, `-2`, `0`, or `missing tally`.
    pub fn drift_text(&self) -> String {
        match &self.drift {
            None => "missing tally".to_owned(),
            Some(d) if *d > BigDecimal::default() => format!("+{}", to_dynamodb(d)),
            Some(d) => to_dynamodb(d),
        }
    }

    /// The stored tally as shown: its exact text, or `missing`.
    pub fn stored_text(&self) -> &str {
        self.stored.as_deref().unwrap_or("missing")
    }

    /// The check as one tab-separated line: `POST#a91f\tstored 3\tcounted 3\tdrift 0`.
    pub fn line(&self) -> String {
        format!(
            "{}\tstored {}\tcounted {}\tdrift {}",
            self.partition,
            self.stored_text(),
            self.count.count,
            self.drift_text()
        )
    }

    /// The comparison in one sentence.
    pub fn verdict(&self) -> String {
        let children = format!("{} children", self.count.count);
        match (&self.stored, &self.drift) {
            (None, _) => format!("The tally is missing (not 0); there are {children}."),
            (Some(_), Some(d)) if *d == BigDecimal::default() => {
                format!("The stored tally equals the {children}.")
            }
            (Some(stored), Some(_)) => format!(
                "The stored tally {stored} is off by {} from the {children}.",
                self.drift_text()
            ),
            (Some(_), None) => String::new(),
        }
    }

    /// How the children were counted and what it cost, by `pricing`.
    pub fn how(&self, pricing: &Pricing) -> String {
        format!(
            "How: {} · {} · {} · {} ms",
            self.count.method,
            plural(self.count.pages as usize, "page"),
            pricing.read(self.count.consumed_rcu),
            self.count.elapsed_ms
        )
    }
}

/// Where the children of one parent are: a Query of one partition of the table or an index,
/// with a sort-key prefix when the rule names one.
#[derive(Debug, Clone, PartialEq)]
pub struct ChildQuery {
    /// The index to query (`None`: the table).
    pub index: Option<String>,
    /// The partition key value.
    pub partition: AttributeValue,
    /// Only sort keys that begin with this.
    pub sort_prefix: Option<String>,
}

impl TallyRule {
    /// Where the children of `parent` are, in table `info`.
    pub fn child_query(&self, info: &TableInfo, parent: &Item) -> Result<ChildQuery> {
        match &self.children {
            ChildSource::SortKeyPrefix(prefix) => {
                if info.sort.is_none() {
                    return Err(Error::Invalid(format!(
                        "{} has no sort key, so children cannot share a partition",
                        info.name
                    )));
                }
                let partition = parent
                    .get(&info.partition.name)
                    .cloned()
                    .ok_or_else(|| Error::Invalid("the parent has no partition key".into()))?;
                Ok(ChildQuery {
                    index: None,
                    partition,
                    sort_prefix: Some(prefix.clone()),
                })
            }
            ChildSource::Index {
                index,
                id_attribute,
                sort_prefix,
            } => {
                let (_, index_sort) = info
                    .keys_of(Some(index))
                    .ok_or_else(|| Error::Invalid(format!("{} has no index {index}", info.name)))?;
                let id_name = id_attribute
                    .clone()
                    .unwrap_or_else(|| info.partition.name.clone());
                let partition = parent.get(&id_name).cloned().ok_or_else(|| {
                    Error::Invalid(format!(
                        "the parent has no `{id_name}` to query {index} with"
                    ))
                })?;
                Ok(ChildQuery {
                    index: Some(index.clone()),
                    partition,
                    sort_prefix: (index_sort.is_some() && !sort_prefix.is_empty())
                        .then(|| sort_prefix.clone()),
                })
            }
        }
    }
}

/// Count the children of `parent` under `rule`, exactly: `Select: COUNT`, every page followed.
pub(crate) async fn count_children(
    reader: &Reader,
    info: &TableInfo,
    parent: &Item,
    rule: &TallyRule,
) -> Result<Count> {
    let started = Instant::now();
    let ChildQuery {
        index,
        partition,
        sort_prefix,
    } = rule.child_query(info, parent)?;
    let sort = sort_prefix.as_ref().map(|p| SortCondition {
        op: SortOp::BeginsWith,
        value: AttributeValue::S(p.clone()),
        upper: None,
    });
    let mut request = BrowseRequest::query(info, index.as_deref(), partition.clone(), sort, true)?;
    request.count_only = true;
    let (mut count, mut pages, mut rcu) = (0u64, 0u32, 0.0);
    read::read_all(reader, &request, |page| {
        count += u64::try_from(page.count).unwrap_or_default();
        pages += 1;
        rcu += page.consumed_rcu;
    })
    .await?;
    let on = index.map(|i| format!(" on {i}")).unwrap_or_default();
    let sort_part = match (&request.sort_name, &sort_prefix) {
        (Some(name), Some(prefix)) => format!(", begins_with({name}, \"{prefix}\")"),
        _ => String::new(),
    };
    Ok(Count {
        count,
        pages,
        consumed_rcu: rcu,
        elapsed_ms: started.elapsed().as_millis(),
        method: format!(
            "Query{on} Select=COUNT, {} = {}{sort_part}, every page followed",
            request.partition_name,
            cell_text(&partition)
        ),
    })
}

/// The parent item of partition `partition` under `rule` (consistent read); `None` if absent.
pub async fn load_parent(
    reader: &Reader,
    info: &TableInfo,
    rule: &TallyRule,
    partition: AttributeValue,
) -> Result<Option<Item>> {
    Ok(load_parent_costed(reader, info, rule, partition).await?.0)
}

/// [`load_parent`], with the read capacity it consumed.
pub(crate) async fn load_parent_costed(
    reader: &Reader,
    info: &TableInfo,
    rule: &TallyRule,
    partition: AttributeValue,
) -> Result<(Option<Item>, f64)> {
    let mut key = Item::from([(info.partition.name.clone(), partition)]);
    if let Some(sort) = &info.sort {
        key.insert(
            sort.name.clone(),
            AttributeValue::S(rule.parents.sort_key.clone()),
        );
    }
    read::get_item_costed(reader, &info.name, key).await
}

/// Check one loaded parent: read its stored tally and count its children.
pub async fn check_parent(
    reader: &Reader,
    info: &TableInfo,
    rule: &TallyRule,
    parent: &Item,
) -> Result<ParentCheck> {
    let shown = parent
        .get(&info.partition.name)
        .map(cell_text)
        .unwrap_or_default();
    let named = |e: Error| e.at(&shown);
    let stored = stored_tally(parent, &rule.tally).map_err(named)?;
    let count = count_children(reader, info, parent, rule)
        .await
        .map_err(named)?;
    let drift = drift(stored.as_deref(), count.count)?;
    Ok(ParentCheck {
        partition: parent
            .get(&info.partition.name)
            .map(whole_text)
            .unwrap_or_default(),
        key: info.key_of(parent)?,
        stored,
        count,
        drift,
        last_touched: last_touched(parent),
    })
}

/// The error of a parent that is not there: `there is no parent item POST#x / META in Social`.
pub(crate) fn missing_parent(info: &TableInfo, rule: &TallyRule, partition: &str) -> Error {
    Error::NotFound {
        what: format!(
            "parent item {partition} / {} in {}",
            rule.parents.sort_key, info.name
        ),
    }
}

/// Read the parent in partition `partition` and check it; a missing parent is an error that
/// says so. Returns the check and the parent as read.
pub async fn check_partition(
    reader: &Reader,
    info: &TableInfo,
    rule: &TallyRule,
    partition: AttributeValue,
) -> Result<(ParentCheck, Item)> {
    let shown = cell_text(&partition);
    let parent = load_parent(reader, info, rule, partition)
        .await?
        .ok_or_else(|| missing_parent(info, rule, &shown))?;
    let check = check_parent(reader, info, rule, &parent).await?;
    Ok((check, parent))
}
