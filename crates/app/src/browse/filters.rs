//! The browse form's filter conditions: a row each (attribute, comparison, type, values), added
//! with **+ Condition** and removed with **×**, joined by all hold (AND) or any holds (OR).

use egui::Ui;

use crate::widgets::labelled_text_ui;
use dynoscope_core::condition::{FilterOp, ScalarType, SortOp};

/// One filter condition as typed.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct FilterRow {
    /// The attribute (empty: no condition).
    pub attr: String,
    /// The comparison.
    pub op: FilterOp,
    /// The type the values are typed in.
    pub kind: ScalarType,
    /// The value (the lower bound for between).
    pub value: String,
    /// The upper bound for between.
    pub upper: String,
}

impl Default for FilterRow {
    fn default() -> Self {
        Self {
            attr: String::new(),
            op: FilterOp::Sort(SortOp::Eq),
            kind: ScalarType::S,
            value: String::new(),
            upper: String::new(),
        }
    }
}

/// Filter conditions a form holds at most.
const MAX_FILTERS: usize = 10;

/// The filter conditions, a row each (labelled `Filter`, `Filter 2`, …), with **+ Condition**,
/// a row's **×**, and how they are joined once there are two.
pub(super) fn filter_ui(ui: &mut Ui, filters: &mut Vec<FilterRow>, any: &mut bool) {
    if filters.is_empty() {
        filters.push(FilterRow::default());
    }
    let (mut remove, mut add) = (None, false);
    let rows = filters.len();
    for (i, row) in filters.iter_mut().enumerate() {
        let n = if i == 0 {
            String::new()
        } else {
            format!(" {}", i + 1)
        };
        ui.horizontal_wrapped(|ui| {
            if i > 0 {
                ui.weak(if *any { "or" } else { "and" });
            }
            labelled_text_ui(ui, &format!("Filter{n}"), &mut row.attr, 110.0, "attribute");
            egui::ComboBox::from_id_salt(("filter_op", i))
                .selected_text(row.op.symbol())
                .show_ui(ui, |ui| {
                    for op in FilterOp::ALL {
                        ui.selectable_value(&mut row.op, op, op.symbol());
                    }
                })
                .response
                .accessible_name(format!("Filter{n} comparison"));
            if row.op.arity() > 0 {
                egui::ComboBox::from_id_salt(("filter_type", i))
                    .selected_text(row.kind.tag())
                    .width(50.0)
                    .show_ui(ui, |ui| {
                        for kind in ScalarType::ALL {
                            ui.selectable_value(&mut row.kind, kind, kind.tag());
                        }
                    })
                    .response
                    .accessible_name(format!("Filter{n} value type"));
                labelled_text_ui(ui, &format!("Value{n}"), &mut row.value, 110.0, "");
                if row.op.arity() == 2 {
                    labelled_text_ui(ui, &format!("and{n}"), &mut row.upper, 110.0, "");
                }
            }
            if rows > 1
                && ui
                    .small_button("×")
                    .on_hover_text("Remove this condition")
                    .accessible_name(format!("Remove filter{n}"))
                    .clicked()
            {
                remove = Some(i);
            }
            // The last row ends with + Condition (and, with two or more, how they join).
            if i + 1 == rows {
                add = ui
                    .add_enabled(rows < MAX_FILTERS, egui::Button::new("+ Condition"))
                    .on_hover_text("Another filter condition")
                    .clicked();
                if rows > 1 {
                    ui.label("Items where");
                    ui.selectable_value(any, false, "all hold (AND)");
                    ui.selectable_value(any, true, "any holds (OR)");
                }
            }
        });
    }
    if let Some(i) = remove {
        filters.remove(i);
    }
    if add {
        filters.push(FilterRow::default());
    }
}
