//! Where likes go: the parent, its sort key, the tally attribute and the children's prefix,
//! shared by the likes by hand and the storm, checked by the like spec every front end uses.

use egui::Ui;

use crate::widgets::labelled_text_ui;
use dynoscope_core::spec::LikeSpec;
use dynoscope_core::table::TableInfo;
use dynoscope_core::tally::{ChildSource, TallyRule};

/// The target's form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TargetForm {
    pub parent: String,
    pub parent_sk: String,
    pub tally: String,
    pub child_prefix: String,
    /// Create the parent when it does not exist (off: a like on a missing parent writes nothing).
    pub create_parent: bool,
}

impl Default for TargetForm {
    fn default() -> Self {
        Self {
            parent: String::new(),
            parent_sk: "META".into(),
            tally: "likeTally".into(),
            child_prefix: "LIKE#".into(),
            create_parent: false,
        }
    }
}

impl TargetForm {
    /// Start from the parent checked in the tally check (else the partition queried in
    /// Browse) and the tally rule in use, when nothing was typed here.
    pub(super) fn prefill(&mut self, carried: &str, queried: &str, rule: Option<TallyRule>) {
        if !carried.is_empty() {
            carried.clone_into(&mut self.parent);
        } else if self.parent.is_empty() {
            queried.clone_into(&mut self.parent);
        }
        if let Some(rule) = rule
            && let ChildSource::SortKeyPrefix(prefix) = &rule.children
        {
            self.parent_sk.clone_from(&rule.parents.sort_key);
            self.tally.clone_from(&rule.tally);
            self.child_prefix.clone_from(prefix);
        }
    }

    /// The form as the like spec (no user: the like by hand and the storm add their own).
    pub(super) fn spec(&self, info: &TableInfo) -> LikeSpec {
        LikeSpec {
            table: info.name.clone(),
            pk: self.parent.clone(),
            parent_sk: self.parent_sk.clone(),
            tally: self.tally.clone(),
            child_prefix: self.child_prefix.clone(),
            user: String::new(),
            token: None,
            create: self.create_parent,
        }
    }

    /// The parent as typed, for where a write goes.
    pub(super) fn parent_text(&self) -> &str {
        match self.parent.trim() {
            "" => "(type the parent)",
            parent => parent,
        }
    }
}

/// Draw the target's fields.
pub(super) fn target_ui(ui: &mut Ui, form: &mut TargetForm) {
    ui.horizontal_wrapped(|ui| {
        labelled_text_ui(
            ui,
            "Parent",
            &mut form.parent,
            120.0,
            "parent's partition key",
        );
        labelled_text_ui(ui, "Parent sort key", &mut form.parent_sk, 60.0, "META");
        labelled_text_ui(ui, "Tally attribute", &mut form.tally, 90.0, "likeTally");
        labelled_text_ui(ui, "Child prefix", &mut form.child_prefix, 60.0, "LIKE#");
        ui.checkbox(&mut form.create_parent, "Create the parent if missing");
    });
}
