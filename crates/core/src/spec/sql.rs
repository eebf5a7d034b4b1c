//! SQL over rows read from DynamoDB, as typed.

use serde::{Deserialize, Serialize};

use crate::spec::InputError;
use crate::sql;

/// Read tables or partitions into SQL tables, then run one SQL text over them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SqlSpec {
    /// What to read, each `NAME=TABLE` (a Scan) or `NAME=TABLE:PARTITION` (a Query): the SQL
    /// table NAME holds the items read.
    #[serde(default)]
    pub loads: Vec<String>,
    /// The SQL text (SQLite's dialect; it may begin with a `--` comment).
    pub sql: String,
    /// Return at most this many rows.
    #[serde(default = "max_rows")]
    pub max_rows: usize,
}

fn max_rows() -> usize {
    sql::MAX_ROWS
}

/// One table or partition to read into the SQL table `name`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqlLoad {
    /// The SQL table's name.
    pub name: String,
    /// The DynamoDB table read.
    pub table: String,
    /// Only this partition (a Query), or the whole table (a Scan).
    pub partition: Option<String>,
}

impl SqlLoad {
    /// `NAME=TABLE` or `NAME=TABLE:PARTITION`.
    pub fn parse(text: &str) -> Result<Self, InputError> {
        let bad = |why: String| InputError::new("loads", why);
        let (name, source) = text.split_once('=').ok_or_else(|| {
            bad(format!(
                "load `{text}`: give NAME=TABLE or NAME=TABLE:PARTITION"
            ))
        })?;
        sql::check_table_name(name).map_err(|e| InputError::from_error("loads", e))?;
        let (table, partition) = match source.split_once(':') {
            Some((table, partition)) => (table, Some(partition.to_owned())),
            None => (source, None),
        };
        if table.is_empty() {
            return Err(bad(format!("load `{text}`: the table is missing")));
        }
        if partition.as_deref() == Some("") {
            return Err(bad(format!(
                "load `{text}`: the partition is empty (leave `:` out to read the whole table)"
            )));
        }
        Ok(Self {
            name: name.to_owned(),
            table: table.to_owned(),
            partition,
        })
    }
}

impl SqlSpec {
    /// The loads, each parsed, no SQL table named twice; the row cap from 1.
    pub fn plan(&self) -> Result<Vec<SqlLoad>, InputError> {
        if self.max_rows == 0 {
            return Err(InputError::new(
                "max_rows",
                "max rows 0: give a whole number from 1",
            ));
        }
        let loads = self
            .loads
            .iter()
            .map(|l| SqlLoad::parse(l))
            .collect::<Result<Vec<_>, _>>()?;
        for (i, load) in loads.iter().enumerate() {
            if loads[..i]
                .iter()
                .any(|l| l.name.eq_ignore_ascii_case(&load.name))
            {
                return Err(InputError::new(
                    "loads",
                    format!("the loads name the SQL table `{}` twice", load.name),
                ));
            }
        }
        Ok(loads)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_parse_as_name_table_and_partition() {
        assert_eq!(
            SqlLoad::parse("likes=Social:POST#a91f").expect("a load"),
            SqlLoad {
                name: "likes".into(),
                table: "Social".into(),
                partition: Some("POST#a91f".into())
            }
        );
        assert_eq!(SqlLoad::parse("s=Social").expect("a load").partition, None);
        assert_eq!(
            SqlLoad::parse("s=T:a:b")
                .expect("a load")
                .partition
                .as_deref(),
            Some("a:b")
        );
        for bad in ["Social", "=Social", "a-b=Social", "s=", "s=:p", "s=T:"] {
            assert!(SqlLoad::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_name_is_loaded_once_and_some_rows_are_returned() {
        let spec = SqlSpec {
            loads: vec!["a=T".into(), "A=U".into()],
            sql: "SELECT 1".into(),
            max_rows: 10,
        };
        assert!(spec.plan().expect_err("twice").reason.contains("twice"));
        let none = SqlSpec {
            loads: vec![],
            max_rows: 0,
            ..spec
        };
        assert_eq!(none.plan().expect_err("no rows").field, "max_rows");
    }
}
