//! The counter rule form: parents, tally, and where the children are (or shards).

use egui::Ui;

use crate::widgets::labelled_text_ui;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::spec::RuleSpec;
use dynoscope_core::table::TableInfo;
use dynoscope_core::tally::{ChildSource, Rule};

/// The fields of a rule being written or edited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RuleForm {
    /// A sharded counter instead of a tally.
    pub shards: bool,
    /// Parent sort key.
    pub parent_sk: String,
    /// Parent partition prefix.
    pub partition_prefix: String,
    /// Tally (or shard) attribute.
    pub attribute: String,
    /// Children in an index instead of the parent's partition.
    pub in_index: bool,
    /// Children's sort-key prefix (or shard prefix).
    pub prefix: String,
    /// The index holding the children.
    pub index: String,
    /// The parent attribute to query the index with (empty: its partition key).
    pub id_attribute: String,
}

impl Default for RuleForm {
    fn default() -> Self {
        Self {
            shards: false,
            parent_sk: "META".to_owned(),
            partition_prefix: String::new(),
            attribute: String::new(),
            in_index: false,
            prefix: String::new(),
            index: String::new(),
            id_attribute: String::new(),
        }
    }
}

impl RuleForm {
    /// A form showing `rule`.
    pub(super) fn from_rule(rule: &Rule) -> Self {
        match rule {
            Rule::Tally(t) => {
                let mut form = Self {
                    parent_sk: t.parents.sort_key.clone(),
                    partition_prefix: t.parents.partition_prefix.clone(),
                    attribute: t.tally.clone(),
                    ..Self::default()
                };
                match &t.children {
                    ChildSource::SortKeyPrefix(p) => form.prefix.clone_from(p),
                    ChildSource::Index {
                        index,
                        id_attribute,
                        sort_prefix,
                    } => {
                        form.in_index = true;
                        form.index.clone_from(index);
                        form.id_attribute = id_attribute.clone().unwrap_or_default();
                        form.prefix.clone_from(sort_prefix);
                    }
                }
                form
            }
            Rule::Shards(s) => Self {
                shards: true,
                prefix: s.prefix.clone(),
                attribute: s.attribute.clone(),
                ..Self::default()
            },
        }
    }

    /// The rule the form describes, as the rule spec every front end fills in.
    pub(super) fn spec(&self) -> RuleSpec {
        RuleSpec {
            parent_sk: self.parent_sk.clone(),
            parent_prefix: self.partition_prefix.clone(),
            tally: self.attribute.clone(),
            child_prefix: self.prefix.clone(),
            index: (!self.shards && self.in_index).then(|| self.index.clone()),
            child_key: (!self.shards && self.in_index)
                .then(|| self.id_attribute.clone())
                .filter(|k| !k.trim().is_empty()),
            shards: self.shards.then(|| self.prefix.clone()),
        }
    }

    /// The rule the form describes, checked by the rule spec.
    pub(super) fn to_rule(&self) -> Result<Rule> {
        Ok(self.spec().plan()?)
    }
}

/// Draw the form; returns a rule when the user saves it.
#[must_use]
pub(super) fn rule_editor_ui(
    ui: &mut Ui,
    form: &mut RuleForm,
    info: &TableInfo,
    error: &mut Option<Error>,
) -> Option<Rule> {
    let mut saved = None;
    ui.horizontal(|ui| {
        ui.radio_value(&mut form.shards, false, "Tally = count of children");
        ui.radio_value(&mut form.shards, true, "Sharded counter");
    });
    ui.horizontal_wrapped(|ui| {
        if form.shards {
            labelled_text_ui(ui, "Shard prefix", &mut form.prefix, 120.0, "STATS#TOTAL#");
            labelled_text_ui(ui, "Attribute", &mut form.attribute, 110.0, "play_count");
        } else {
            labelled_text_ui(ui, "Parent sort key", &mut form.parent_sk, 80.0, "META");
            labelled_text_ui(
                ui,
                "Partition prefix",
                &mut form.partition_prefix,
                80.0,
                "POST#",
            );
            labelled_text_ui(ui, "Tally", &mut form.attribute, 100.0, "likeTally");
        }
    });
    if !form.shards {
        ui.horizontal_wrapped(|ui| {
            ui.radio_value(&mut form.in_index, false, "Children in the partition");
            ui.radio_value(&mut form.in_index, true, "Children in an index");
            if form.in_index {
                egui::ComboBox::from_label("Child index")
                    .selected_text(form.index.clone())
                    .show_ui(ui, |ui| {
                        for index in &info.indexes {
                            ui.selectable_value(&mut form.index, index.name.clone(), &index.name);
                        }
                    });
                labelled_text_ui(
                    ui,
                    "Id attribute",
                    &mut form.id_attribute,
                    90.0,
                    "partition key",
                );
            }
            labelled_text_ui(ui, "Child prefix", &mut form.prefix, 90.0, "LIKE#");
        });
    }
    if ui.button("Save rule").clicked() {
        match form.to_rule() {
            Ok(rule) => {
                *error = None;
                saved = Some(rule);
            }
            Err(e) => *error = Some(e),
        }
    }
    saved
}
