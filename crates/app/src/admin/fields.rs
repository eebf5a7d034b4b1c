//! The parts of a table's form shared by the create form and the table's settings: a key
//! (name and type) and a secondary index (name, keys, projection), turned into the core's
//! `KeyAttr` and `IndexSpec`.

use egui::Ui;

use dynoscope_core::condition::ScalarType;
use dynoscope_core::schema::{IndexSpec, ProjectionSpec, type_letter};
use dynoscope_core::table::KeyAttr;

/// A key attribute as typed: its name and type.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct KeyRow {
    /// The attribute's name (empty: no such key).
    pub name: String,
    /// S, N or B.
    pub kind: ScalarType,
}

impl KeyRow {
    /// A key named `name`, a string.
    pub(super) fn named(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            kind: ScalarType::S,
        }
    }

    /// The key, `None` when no name is typed.
    pub(super) fn key(&self) -> Option<KeyAttr> {
        let name = self.name.trim();
        (!name.is_empty()).then(|| KeyAttr::new(name, self.kind))
    }
}

/// An index as typed.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct IndexRow {
    /// Its name.
    pub name: String,
    /// Its partition key.
    pub partition: KeyRow,
    /// Its sort key (no name: none).
    pub sort: KeyRow,
    /// 0 ALL, 1 KEYS_ONLY, 2 INCLUDE.
    pub projection: usize,
    /// With INCLUDE: the attributes, separated by commas.
    pub include: String,
}

impl IndexRow {
    /// A new row: `GSI1` on `GSI1PK` / `GSI1SK`, projecting every attribute.
    pub(super) fn new(name: &str, partition: &str, sort: &str) -> Self {
        Self {
            name: name.to_owned(),
            partition: KeyRow::named(partition),
            sort: KeyRow::named(sort),
            projection: 0,
            include: String::new(),
        }
    }

    /// The index; a row without a partition key name gives one with an empty name, which the
    /// spec's check names.
    pub(super) fn spec(&self) -> IndexSpec {
        let projection = match self.projection {
            1 => ProjectionSpec::KeysOnly,
            2 => ProjectionSpec::Include(
                self.include
                    .split(',')
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .map(str::to_owned)
                    .collect(),
            ),
            _ => ProjectionSpec::All,
        };
        IndexSpec {
            name: self.name.trim().to_owned(),
            partition: self
                .partition
                .key()
                .unwrap_or_else(|| KeyAttr::new("", ScalarType::S)),
            sort: self.sort.key(),
            projection,
        }
    }
}

/// A key's name and type side by side; `id` keeps the type menus apart.
pub(super) fn key_ui(
    ui: &mut Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    label: &str,
    key: &mut KeyRow,
) {
    let name = ui.label(label);
    ui.add(
        egui::TextEdit::singleline(&mut key.name)
            .hint_text("attribute")
            .desired_width(80.0),
    )
    .labelled_by(name.id);
    egui::ComboBox::from_id_salt(id)
        .width(36.0)
        .selected_text(type_letter(key.kind))
        .show_ui(ui, |ui| {
            for kind in ScalarType::KEY_TYPES {
                ui.selectable_value(&mut key.kind, kind, type_letter(kind));
            }
        });
}

/// One index's row, with a Remove button when `removable`; `true` when it was clicked.
pub(super) fn index_ui(ui: &mut Ui, id: &str, row: &mut IndexRow, removable: bool) -> bool {
    let mut remove = false;
    ui.group(|ui| {
        ui.horizontal_wrapped(|ui| {
            let name = ui.label("Index");
            ui.add(
                egui::TextEdit::singleline(&mut row.name)
                    .hint_text("ByUser")
                    .desired_width(90.0),
            )
            .labelled_by(name.id);
            key_ui(ui, (id, "pk"), "partition", &mut row.partition);
            key_ui(ui, (id, "sk"), "sort", &mut row.sort);
        });
        ui.horizontal_wrapped(|ui| {
            let kinds = ["ALL", "KEYS_ONLY", "INCLUDE"];
            let label = ui.label("Projection");
            egui::ComboBox::from_id_salt((id, "projection"))
                .selected_text(kinds[row.projection.min(2)])
                .show_ui(ui, |ui| {
                    for (i, kind) in kinds.iter().enumerate() {
                        ui.selectable_value(&mut row.projection, i, *kind);
                    }
                })
                .response
                .labelled_by(label.id);
            if row.projection == 2 {
                let label = ui.label("attributes");
                ui.add(
                    egui::TextEdit::singleline(&mut row.include)
                        .hint_text("likedAt, title")
                        .desired_width(140.0),
                )
                .labelled_by(label.id);
            }
            remove = removable && ui.small_button("Remove").clicked();
        });
    });
    remove
}
