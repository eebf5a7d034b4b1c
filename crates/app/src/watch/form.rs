//! The watch form: one parent or every parent, where in the stream to start, the settle
//! window, polling's period, and the counter rule's fields — built into the watch spec every
//! front end fills in (the spec checks them all).

use egui::Ui;

use crate::widgets::labelled_text_ui;
use dynoscope_core::error::Error;
use dynoscope_core::spec::{DEFAULT_SETTLE_SECONDS, RuleSpec, WatchFrom, WatchSpec};
use dynoscope_core::tally::{ChildSource, TallyRule};

/// The fields of the watch form, as typed.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct WatchForm {
    /// Every parent of the rule, or the one typed in `pk`.
    pub every: bool,
    /// The parent's partition key value.
    pub pk: String,
    /// Where in the stream to start.
    pub from: WatchFrom,
    /// The settle window, seconds.
    pub settle: String,
    /// Polling's period, seconds (a table without a stream).
    pub poll: String,
    /// The rule: the tally attribute, the parents' sort key and partition prefix, the
    /// children's sort-key prefix (and, from a rule in an index, where the children are).
    pub tally: String,
    pub parent_sk: String,
    pub parent_prefix: String,
    pub child_prefix: String,
    pub index: Option<String>,
    pub child_key: Option<String>,
}

impl Default for WatchForm {
    fn default() -> Self {
        Self {
            every: false,
            pk: String::new(),
            from: WatchFrom::Latest,
            settle: DEFAULT_SETTLE_SECONDS.to_string(),
            poll: "5".to_owned(),
            tally: "likeTally".to_owned(),
            parent_sk: "META".to_owned(),
            parent_prefix: "POST#".to_owned(),
            child_prefix: "LIKE#".to_owned(),
            index: None,
            child_key: None,
        }
    }
}

impl WatchForm {
    /// Take the rule's fields from `rule` (the tally check's rule in use).
    pub(super) fn use_rule(&mut self, rule: &TallyRule) {
        self.tally.clone_from(&rule.tally);
        self.parent_sk.clone_from(&rule.parents.sort_key);
        self.parent_prefix
            .clone_from(&rule.parents.partition_prefix);
        match &rule.children {
            ChildSource::SortKeyPrefix(prefix) => {
                self.child_prefix.clone_from(prefix);
                self.index = None;
                self.child_key = None;
            }
            ChildSource::Index {
                index,
                id_attribute,
                sort_prefix,
            } => {
                self.child_prefix.clone_from(sort_prefix);
                self.index = Some(index.clone());
                self.child_key.clone_from(id_attribute);
            }
        }
    }

    /// The rule, as the rule spec every front end fills in.
    pub(super) fn rule(&self) -> RuleSpec {
        RuleSpec {
            parent_sk: self.parent_sk.trim().to_owned(),
            parent_prefix: self.parent_prefix.trim().to_owned(),
            tally: self.tally.trim().to_owned(),
            child_prefix: self.child_prefix.clone(),
            index: self.index.clone(),
            child_key: self.child_key.clone(),
            shards: None,
        }
    }

    /// The watch as a spec on `table`; `polling`: every few seconds instead of a stream.
    pub(super) fn spec(&self, table: &str, polling: bool) -> Result<WatchSpec, Error> {
        let seconds = |text: &str, what: &str| {
            text.trim().parse::<f64>().map_err(|_| {
                Error::Invalid(format!(
                    "{what}: `{}` is not a number of seconds",
                    text.trim()
                ))
            })
        };
        let pk = self.pk.trim();
        Ok(WatchSpec {
            table: table.to_owned(),
            pk: (!self.every).then(|| pk.to_owned()),
            rule: self.rule(),
            from: if polling {
                WatchFrom::Latest
            } else {
                self.from
            },
            settle_seconds: seconds(&self.settle, "settle")?,
            poll_seconds: polling
                .then(|| seconds(&self.poll, "poll every"))
                .transpose()?,
        })
    }
}

/// Draw the form; `partition` names the table's partition key (`PK (S)`), `locked` while a
/// watch runs (its fields are what it watches).
pub(super) fn form_ui(ui: &mut Ui, form: &mut WatchForm, partition: &str, locked: bool) {
    ui.add_enabled_ui(!locked, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.radio_value(&mut form.every, false, "One parent");
            ui.radio_value(
                &mut form.every,
                true,
                "Whole table (every parent of the rule)",
            );
        });
        if !form.every {
            ui.horizontal(|ui| {
                labelled_text_ui(
                    ui,
                    &format!("Parent {partition} ="),
                    &mut form.pk,
                    180.0,
                    "POST#a91f",
                );
            });
        }
        ui.horizontal_wrapped(|ui| {
            ui.radio_value(&mut form.from, WatchFrom::Latest, "From now");
            ui.radio_value(
                &mut form.from,
                WatchFrom::TrimHorizon,
                "From the start of the stream (last 24 h)",
            );
            labelled_text_ui(ui, "Settle seconds", &mut form.settle, 50.0, "5");
        });
        egui::CollapsingHeader::new("Counter rule")
            .id_salt("watch_rule")
            .default_open(false)
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    labelled_text_ui(ui, "Tally attribute", &mut form.tally, 110.0, "likeTally");
                    labelled_text_ui(ui, "Parent SK", &mut form.parent_sk, 80.0, "META");
                    labelled_text_ui(ui, "Parent prefix", &mut form.parent_prefix, 80.0, "POST#");
                    labelled_text_ui(ui, "Child prefix", &mut form.child_prefix, 80.0, "LIKE#");
                });
                if let Some(index) = &form.index {
                    ui.weak(format!(
                        "Children in index {index} (from the tally check's rule)."
                    ));
                }
            });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_is_a_watch_spec() {
        let mut form = WatchForm {
            pk: " POST#a91f ".into(),
            ..WatchForm::default()
        };
        let spec = form.spec("Social", false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(spec.pk.as_deref(), Some("POST#a91f"));
        assert_eq!(spec.rule.tally, "likeTally");
        assert_eq!(spec.poll_seconds, None);
        form.every = true;
        assert_eq!(form.spec("Social", false).ok().and_then(|s| s.pk), None);
        form.every = false;
        let polled = form.spec("Social", true).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(polled.poll_seconds, Some(5.0));
        assert_eq!(polled.pk.as_deref(), Some("POST#a91f"));
        form.settle = "soon".into();
        assert!(form.spec("Social", false).is_err());
    }
}
