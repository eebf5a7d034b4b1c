//! Counter rules saved per connection and table. A connection is known by its stable identity
//! ([`ConnectionSpec::identity`]), never by the label shown for it, so rewording a label cannot
//! orphan anyone's rules; rules saved under the old label-based keys move over when first used.

use std::collections::BTreeMap;

use crate::connection::{ConnectionId, ConnectionSpec};
use crate::tally::Rule;

/// The rules of one table of one connection.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SavedRules {
    /// The connection.
    pub connection: ConnectionId,
    /// The table.
    pub table: String,
    /// Its rules, in the order the user added them.
    pub rules: Vec<Rule>,
}

/// Every saved rule, by connection and table.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RuleBook {
    /// Rules by connection identity and table.
    #[serde(default)]
    saved: Vec<SavedRules>,
    /// Rules saved by earlier versions under `"{label} | {table}"`, not yet claimed.
    #[serde(default)]
    legacy: BTreeMap<String, Vec<Rule>>,
}

impl RuleBook {
    /// Take in rules saved by an earlier version, keyed `"{connection label} | {table}"`.
    pub fn adopt_legacy(&mut self, legacy: BTreeMap<String, Vec<Rule>>) {
        self.legacy.extend(legacy);
    }

    #[cfg(test)]
    /// The rules of `table` on `spec` (see [`rules_mut`](Self::rules_mut)).
    pub(crate) fn rules_for(&mut self, spec: &ConnectionSpec, table: &str) -> Vec<Rule> {
        self.rules_mut(spec, table).clone()
    }

    /// The rules of `table` on `spec`, to read and change in place; rules saved under the
    /// connection's old label-based key are moved over first.
    pub fn rules_mut(&mut self, spec: &ConnectionSpec, table: &str) -> &mut Vec<Rule> {
        let connection = spec.identity();
        let at = if let Some(at) = self.position(&connection, table) {
            at
        } else {
            let legacy = self
                .legacy
                .remove(&format!("{} | {table}", spec.label()))
                .unwrap_or_default();
            self.saved.push(SavedRules {
                connection,
                table: table.to_owned(),
                rules: legacy,
            });
            self.saved.len() - 1
        };
        &mut self.saved[at].rules
    }

    /// The rules saved for a table named `table` on connections other than `spec`'s (the same
    /// table at staging and at prod): offered where this one has none.
    pub fn elsewhere(&self, spec: &ConnectionSpec, table: &str) -> Vec<Rule> {
        let here = spec.identity();
        let mut found: Vec<Rule> = Vec::new();
        for saved in &self.saved {
            if saved.table == table && saved.connection != here {
                for rule in &saved.rules {
                    if !found.contains(rule) {
                        found.push(rule.clone());
                    }
                }
            }
        }
        found
    }

    /// Every table's rules.
    pub fn saved(&self) -> &[SavedRules] {
        &self.saved
    }

    /// Forget tables that have no rules left.
    pub fn prune(&mut self) {
        self.saved.retain(|s| !s.rules.is_empty());
    }

    /// Save `rules` as the rules of `table` on `spec`.
    pub fn set(&mut self, spec: &ConnectionSpec, table: &str, rules: Vec<Rule>) {
        *self.rules_mut(spec, table) = rules;
    }

    /// Take `connection`'s rules as `other` has them (a book kept by another window onto that
    /// connection), keeping every other connection's.
    pub fn take_from(&mut self, other: &RuleBook, connection: &ConnectionId) {
        self.saved.retain(|s| &s.connection != connection);
        let theirs = other.saved.iter().filter(|s| &s.connection == connection);
        self.saved.extend(theirs.cloned());
    }

    fn position(&self, connection: &ConnectionId, table: &str) -> Option<usize> {
        self.saved
            .iter()
            .position(|s| &s.connection == connection && s.table == table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::ShardRule;

    fn rule(prefix: &str) -> Rule {
        Rule::Shards(ShardRule {
            prefix: prefix.into(),
            attribute: "play_count".into(),
        })
    }

    #[test]
    fn rules_saved_under_a_label_move_to_the_identity() {
        let sandbox = ConnectionSpec::Sandbox { db_path: None };
        let mut book = RuleBook::default();
        book.adopt_legacy(BTreeMap::from([(
            "Sandbox (in memory) | Videos".to_owned(),
            vec![rule("STATS#TOTAL#")],
        )]));
        assert_eq!(book.rules_for(&sandbox, "Videos"), [rule("STATS#TOTAL#")]);
        assert!(book.legacy.is_empty(), "claimed once");
        assert_eq!(book.saved[0].connection.0, "sandbox:memory");
        assert_eq!(book.rules_for(&sandbox, "Videos"), [rule("STATS#TOTAL#")]);
        assert!(book.rules_for(&sandbox, "Social").is_empty());
    }

    #[test]
    fn rules_are_kept_per_connection_and_table() {
        let a = ConnectionSpec::Sandbox { db_path: None };
        let b = ConnectionSpec::Endpoint {
            url: "http://localhost:8000".into(),
            profile: None,
            region: None,
        };
        let mut book = RuleBook::default();
        book.set(&a, "Videos", vec![rule("A#")]);
        book.set(&b, "Videos", vec![rule("B#")]);
        book.set(&a, "Videos", vec![rule("C#")]);
        assert_eq!(book.rules_for(&a, "Videos"), [rule("C#")]);
        assert_eq!(book.rules_for(&b, "Videos"), [rule("B#")]);
        let text = serde_json::to_string(&book).unwrap();
        let back: RuleBook = serde_json::from_str(&text).unwrap();
        assert_eq!(back, book);
    }
}
