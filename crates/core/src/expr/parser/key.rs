//! Key conditions: `pk = value`, optionally `AND` one condition on the sort key, and nothing
//! else. Checked while parsing, so that an error points at the term that breaks the rule.

use crate::expr::ast::{Comparator, Condition, Operand, Path};
use crate::expr::error::{ExprError, err};
use crate::expr::parser::{Maps, Parser};

/// The keys a key condition must use: those of the table or of the index queried.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueryKeys {
    /// Partition key name.
    pub partition: String,
    /// Sort key name, if any.
    pub sort: Option<String>,
}

/// Parse a `KeyConditionExpression`. With `keys`, it must read `partition = value`, optionally
/// `AND` one condition (`=`, `<`, `<=`, `>`, `>=`, `BETWEEN`, `begins_with`) on the sort key.
/// Without them (no table at hand), the partition key is the attribute compared with `=` and
/// the other condition must be on another attribute.
pub(crate) fn parse_key_condition(
    text: &str,
    maps: Maps<'_>,
    keys: Option<&QueryKeys>,
) -> Result<Condition, ExprError> {
    let mut p = Parser::new(text, maps)?;
    let mut terms = vec![(p.peek().pos, p.not()?)];
    while p.is_keyword("AND") {
        p.at += 1;
        terms.push((p.peek().pos, p.not()?));
    }
    if p.is_keyword("OR") {
        return err(rule(keys), p.peek().pos);
    }
    p.end()?;
    let mut flat = Vec::new();
    for (pos, term) in &terms {
        flatten(*pos, term, &mut flat);
    }
    check(&flat, keys)?;
    let mut parts = terms.into_iter().map(|(_, c)| c);
    let first = parts.next().ok_or_else(|| ExprError {
        message: rule(keys),
        position: 0,
    })?;
    Ok(parts.fold(first, |a, b| Condition::And(Box::new(a), Box::new(b))))
}

/// `(a AND b)` in parentheses is still two terms, both at the parenthesis. A loop, not
/// recursion: a chain of ANDs is as long as 4 KB allows.
fn flatten<'c>(pos: usize, c: &'c Condition, out: &mut Vec<(usize, &'c Condition)>) {
    let mut pending = vec![c];
    while let Some(c) = pending.pop() {
        match c {
            Condition::And(a, b) => {
                pending.push(b);
                pending.push(a);
            }
            other => out.push((pos, other)),
        }
    }
}

fn check(terms: &[(usize, &Condition)], keys: Option<&QueryKeys>) -> Result<(), ExprError> {
    let partition_name = keys.map(|k| k.partition.as_str());
    // With known keys the sort condition must be on the sort key (if there is one at all).
    let (sort_allowed, sort_name) = match keys {
        Some(k) => (k.sort.is_some(), k.sort.as_deref()),
        None => (true, None),
    };
    match terms {
        [(pos, only)] => match partition_term(only, partition_name) {
            Some(_) => Ok(()),
            None => err(rule(keys), *pos),
        },
        [(pa, a), (pb, b)] => {
            for (p_term, s_term) in [(a, b), (b, a)] {
                if let Some(pk) = partition_term(p_term, partition_name)
                    && sort_allowed
                    && sort_term(s_term, sort_name, pk)
                {
                    return Ok(());
                }
            }
            let at = if partition_term(a, partition_name).is_some() {
                *pb
            } else {
                *pa
            };
            err(rule(keys), at)
        }
        [_, _, (pos, _), ..] => err(rule(keys), *pos),
        [] => err(rule(keys), 0),
    }
}

fn single(path: &Path, name: Option<&str>) -> bool {
    path.0.len() == 1 && name.is_none_or(|n| path.root() == n)
}

/// The partition key's name when `c` is `name = value`.
fn partition_term<'c>(c: &'c Condition, name: Option<&str>) -> Option<&'c str> {
    match c {
        Condition::Compare(Operand::Path(p), Comparator::Eq, Operand::Value(_))
            if single(p, name) =>
        {
            Some(p.root())
        }
        _ => None,
    }
}

/// Whether `c` is one sort-key condition on `name` (any attribute but `partition` when unknown).
fn sort_term(c: &Condition, name: Option<&str>, partition: &str) -> bool {
    let on_sort = |p: &Path| single(p, name) && p.root() != partition;
    match c {
        Condition::Compare(Operand::Path(p), op, Operand::Value(_)) => {
            *op != Comparator::Ne && on_sort(p)
        }
        Condition::Between(Operand::Path(p), Operand::Value(_), Operand::Value(_))
        | Condition::BeginsWith(p, Operand::Value(_)) => on_sort(p),
        _ => false,
    }
}

fn rule(keys: Option<&QueryKeys>) -> String {
    let (partition, sort) = match keys {
        Some(k) => (k.partition.as_str(), k.sort.as_deref()),
        None => ("partition_key", Some("the sort key")),
    };
    format!(
        "a key condition is `{partition} = value`{} — nothing else (use a filter for other attributes)",
        sort.map(|s| format!(
            ", optionally AND one condition on {s} (=, <, <=, >, >=, BETWEEN, begins_with)"
        ))
        .unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn parse(text: &str, keys: Option<&QueryKeys>) -> Result<Condition, ExprError> {
        let (names, values) = (HashMap::new(), HashMap::new());
        let maps = Maps {
            names: &names,
            values: &values,
            literals: true,
        };
        parse_key_condition(text, maps, keys)
    }

    #[test]
    fn errors_point_at_the_term_that_breaks_the_rule() {
        let keys = QueryKeys {
            partition: "PK".into(),
            sort: Some("SK".into()),
        };
        let text = "PK = 'POST#a91f' AND likeTally > 1";
        let e = parse(text, Some(&keys)).unwrap_err();
        assert_eq!(e.position, text.find("likeTally").unwrap(), "{e:?}");
        let text = "PK = 'x' OR PK = 'y'";
        assert_eq!(parse(text, Some(&keys)).unwrap_err().position, 9);
        let text = "SK = 'META'";
        assert_eq!(parse(text, Some(&keys)).unwrap_err().position, 0);
        assert!(parse("(PK = 'x' AND begins_with(SK, 'L'))", Some(&keys)).is_ok());
    }

    #[test]
    fn without_keys_the_shape_is_still_checked() {
        assert!(parse("PK = 'x' AND begins_with(SK, 'LIKE#')", None).is_ok());
        assert!(parse("PK = 'x'", None).is_ok());
        let text = "PK = 'x' AND PK = 'y'";
        assert_eq!(parse(text, None).unwrap_err().position, 13);
        assert!(parse("PK = 'x' AND a = 1 AND b = 2", None).is_err());
        assert!(parse("PK <> 'x'", None).is_err());
    }
}
