//! DynamoDB's rules for a new table, held before anything is sent: names, key types that agree,
//! index counts and shapes, the projected-attribute limit, capacity and tags.

use crate::error::{Error, Result};
use crate::schema::{BillingSpec, IndexSpec, ProjectionSpec, TableSpec, type_letter};

/// Global secondary indexes a table may have (the default quota).
pub(crate) const MAX_GSIS: usize = 20;
/// Local secondary indexes a table may have.
pub(crate) const MAX_LSIS: usize = 5;
/// Non-key attributes projected with `INCLUDE`, summed over every index of a table.
pub(crate) const MAX_PROJECTED: usize = 100;
/// Tags on one resource.
const MAX_TAGS: usize = 50;

impl TableSpec {
    /// What DynamoDB would refuse in this table, each in words; empty when it may be sent.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        name_problem("table", &self.name, &mut problems);
        for key in self.attribute_definitions() {
            attribute_problem("key attribute", &key.name, &mut problems);
        }
        self.types_agree(&mut problems);
        self.index_problems(&mut problems);
        if let BillingSpec::Provisioned { rcu, wcu } = self.billing
            && (rcu == 0 || wcu == 0)
        {
            problems.push("provisioned capacity is at least 1 RCU and 1 WCU".to_owned());
        }
        if let Some(ttl) = &self.ttl {
            attribute_problem("TTL attribute", ttl, &mut problems);
        }
        self.tag_problems(&mut problems);
        problems
    }

    /// The table, or the first of its [`problems`](Self::problems) and how many more.
    pub fn check(&self) -> Result<()> {
        let problems = self.problems();
        match problems.split_first() {
            None => Ok(()),
            Some((first, [])) => Err(Error::Invalid(first.clone())),
            Some((first, rest)) => Err(Error::Invalid(format!(
                "{first} (and {} more: {})",
                rest.len(),
                rest.join("; ")
            ))),
        }
    }

    /// An attribute is one type wherever it is a key.
    fn types_agree(&self, problems: &mut Vec<String>) {
        let defined = self.attribute_definitions();
        let indexes = self.global.iter().chain(&self.local);
        for key in indexes
            .flat_map(|i| [Some(&i.partition), i.sort.as_ref()])
            .flatten()
        {
            if let Some(first) = defined.iter().find(|d| d.name == key.name)
                && first.kind != key.kind
            {
                problems.push(format!(
                    "`{}` is a key of type {} and of type {}: an attribute has one type",
                    key.name,
                    type_letter(first.kind),
                    type_letter(key.kind)
                ));
            }
        }
    }

    fn index_problems(&self, problems: &mut Vec<String>) {
        if self.global.len() > MAX_GSIS {
            problems.push(format!(
                "{} global indexes: a table has at most {MAX_GSIS}",
                self.global.len()
            ));
        }
        if self.local.len() > MAX_LSIS {
            problems.push(format!(
                "{} local indexes: a table has at most {MAX_LSIS}",
                self.local.len()
            ));
        }
        let mut names: Vec<&str> = Vec::new();
        for index in self.global.iter().chain(&self.local) {
            name_problem("index", &index.name, problems);
            if names.contains(&index.name.as_str()) {
                problems.push(format!("two indexes are named `{}`", index.name));
            }
            names.push(&index.name);
            projection_problem(index, problems);
        }
        for index in &self.local {
            self.local_problem(index, problems);
        }
        let projected: usize = self
            .global
            .iter()
            .chain(&self.local)
            .map(|i| match &i.projection {
                ProjectionSpec::Include(names) => names.len(),
                _ => 0,
            })
            .sum();
        if projected > MAX_PROJECTED {
            problems.push(format!(
                "{projected} attributes projected with INCLUDE over all indexes: at most \
                 {MAX_PROJECTED} (one named in two indexes counts twice)"
            ));
        }
    }

    /// A local index shares the table's partition key and sorts by another attribute.
    fn local_problem(&self, index: &IndexSpec, problems: &mut Vec<String>) {
        let name = &index.name;
        let Some(table_sort) = &self.sort else {
            problems.push(format!(
                "local index `{name}`: only a table with a sort key can have local indexes"
            ));
            return;
        };
        if index.partition != self.partition {
            problems.push(format!(
                "local index `{name}`: its partition key is the table's, `{}`",
                self.partition.name
            ));
        }
        match &index.sort {
            None => problems.push(format!("local index `{name}` needs a sort key")),
            Some(sort) if sort.name == table_sort.name => problems.push(format!(
                "local index `{name}`: its sort key must differ from the table's, `{}`",
                table_sort.name
            )),
            Some(_) => {}
        }
    }

    fn tag_problems(&self, problems: &mut Vec<String>) {
        if self.tags.len() > MAX_TAGS {
            problems.push(format!(
                "{} tags: a table has at most {MAX_TAGS}",
                self.tags.len()
            ));
        }
        for (i, (key, value)) in self.tags.iter().enumerate() {
            let chars = key.chars().count();
            if !(1..=128).contains(&chars) {
                problems.push(format!("tag key `{key}`: 1 to 128 characters"));
            }
            if key.to_ascii_lowercase().starts_with("aws:") {
                problems.push(format!("tag key `{key}`: the prefix aws: is AWS's own"));
            }
            if value.chars().count() > 256 {
                problems.push(format!("tag `{key}`: a value is at most 256 characters"));
            }
            if self.tags[..i].iter().any(|(k, _)| k == key) {
                problems.push(format!("tag key `{key}` is given twice"));
            }
        }
    }
}

/// A table's or an index's name: 3 to 255 characters of `a-z A-Z 0-9 _ - .`.
pub fn name_problem(what: &str, name: &str, problems: &mut Vec<String>) {
    let len = name.len();
    if !(3..=255).contains(&len) {
        problems.push(format!(
            "{what} name `{name}`: 3 to 255 characters, not {len}"
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        problems.push(format!(
            "{what} name `{name}`: `{c}` is not allowed (letters, digits, _ - . only)"
        ));
    }
}

/// A key or TTL attribute's name: 1 to 255 bytes.
fn attribute_problem(what: &str, name: &str, problems: &mut Vec<String>) {
    if name.is_empty() || name.len() > 255 {
        problems.push(format!(
            "{what} `{name}`: 1 to 255 bytes, not {}",
            name.len()
        ));
    }
}

/// An `INCLUDE` names each attribute once.
fn projection_problem(index: &IndexSpec, problems: &mut Vec<String>) {
    if let ProjectionSpec::Include(names) = &index.projection {
        for (i, name) in names.iter().enumerate() {
            if names[..i].contains(name) {
                problems.push(format!("index `{}` includes `{name}` twice", index.name));
            }
        }
    }
}
