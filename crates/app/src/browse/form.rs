//! The browse form: Query a partition (with a sort-key condition, on the table or an index) or
//! Scan, with an optional filter; then run, load more, load all, or cancel.

use egui::Ui;

use crate::browse::filters::filter_ui;
use crate::browse::pages::{FormAction, ResultsState, page_buttons_ui, short_window};
use crate::intent::QueryPreset;
use dynoscope_core::condition::SortOp;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::read::BrowseRequest;
use dynoscope_core::spec::{self, FilterSpec, ReadSpec};
use dynoscope_core::table::TableInfo;
use dynoscope_core::value::{self, Item};

pub(super) use crate::browse::filters::FilterRow;
use crate::widgets::{error_ui, labelled_text_ui};

/// What the form is filled in with.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct QueryForm {
    /// Scan instead of Query.
    pub scan: bool,
    /// The index to read (`None`: the table).
    pub index: Option<String>,
    /// The partition key value.
    pub partition: String,
    /// The sort-key condition (`None`: the whole collection).
    pub sort_op: Option<SortOp>,
    /// The sort-key value (lower bound for between).
    pub sort_value: String,
    /// The upper bound for between.
    pub sort_upper: String,
    /// Descending sort-key order.
    pub descending: bool,
    /// Filter conditions (those without an attribute are left out); at least one row.
    pub filters: Vec<FilterRow>,
    /// The conditions are joined with OR (any holds) rather than AND (all hold).
    pub filter_any: bool,
    /// Items per page (`Limit`); empty lets the server fill 1 MB pages.
    pub page_size: String,
    /// Segments of a parallel scan (1: a plain scan).
    pub segments: String,
    /// Why the form cannot be sent, shown next to it.
    #[serde(skip)]
    pub error: Option<Error>,
}

impl Default for QueryForm {
    fn default() -> Self {
        Self {
            scan: false,
            index: None,
            partition: String::new(),
            sort_op: None,
            sort_value: String::new(),
            sort_upper: String::new(),
            descending: false,
            filters: vec![FilterRow::default()],
            filter_any: false,
            page_size: String::new(),
            segments: "1".to_owned(),
            error: None,
        }
    }
}

impl QueryForm {
    /// A form set up as `preset` says: a Query on its index and partition, with a
    /// `begins_with` on the sort key when it has a prefix.
    pub fn from_preset(preset: &QueryPreset) -> Self {
        let mut form = Self {
            index: preset.index.clone(),
            partition: preset.partition.clone(),
            ..Self::default()
        };
        if let Some(prefix) = &preset.sort_prefix {
            form.sort_op = Some(SortOp::BeginsWith);
            form.sort_value.clone_from(prefix);
        }
        form
    }

    /// Query `index` (the table when `None`) from a fresh partition; the filter, the page size
    /// and the order stay.
    pub fn query_index(&mut self, index: Option<String>) {
        self.index = index;
        self.scan = false;
        self.partition.clear();
        self.sort_op = None;
    }

    /// The segments of a parallel scan: `None` for a Query or a one-segment scan.
    pub fn segments(&self) -> Result<Option<usize>> {
        if !self.scan {
            return Ok(None);
        }
        let segments = dynoscope_core::limits::segments_typed(&self.segments, 1)?;
        Ok((segments > 1).then_some(segments))
    }

    /// The read the form describes, as the read spec every front end fills in.
    pub fn spec(&self, info: &TableInfo) -> Result<ReadSpec> {
        let page_size = self.page_size.trim();
        let mut spec = ReadSpec {
            table: info.name.clone(),
            index: self.index.clone(),
            pk: (!self.scan).then(|| self.partition.clone()),
            descending: !self.scan && self.descending,
            page_size: (!page_size.is_empty())
                .then(|| spec::count_from_one(page_size))
                .transpose()
                .map_err(|why| Error::Invalid(format!("page size {why}")))?,
            ..ReadSpec::default()
        };
        let has_sort = info
            .keys_of(self.index.as_deref())
            .is_some_and(|(_, sort)| sort.is_some());
        if let (false, true, Some(op)) = (self.scan, has_sort, self.sort_op) {
            spec.set_sort(op, self.sort_value.clone(), self.sort_upper.clone());
        }
        for row in self.filters.iter().filter(|r| !r.attr.trim().is_empty()) {
            let texts = [&row.value, &row.upper];
            spec.filters.push(FilterSpec {
                attribute: row.attr.clone(),
                op: row.op.symbol().to_owned(),
                kind: row.kind,
                values: texts
                    .iter()
                    .take(row.op.arity())
                    .map(|t| (*t).clone())
                    .collect(),
            });
        }
        spec.any_filter = self.filter_any;
        Ok(spec)
    }

    /// The request the form describes, checked against the table's keys (and its filter) by
    /// the read spec. Nothing invalid is sent.
    pub fn request(&self, info: &TableInfo) -> Result<BrowseRequest> {
        Ok(self.spec(info)?.plan(info)?.request)
    }

    /// Set to read exactly `item` of `info`'s table: its partition, and its sort key by `=`.
    pub fn read_item(&mut self, info: &TableInfo, item: &Item) {
        let text = |name: &str| item.get(name).map(value::whole_text).unwrap_or_default();
        *self = Self {
            partition: text(&info.partition.name),
            sort_op: info.sort.as_ref().map(|_| SortOp::Eq),
            sort_value: info
                .sort
                .as_ref()
                .map(|s| text(&s.name))
                .unwrap_or_default(),
            page_size: std::mem::take(&mut self.page_size),
            ..Self::default()
        };
    }

    /// What the form reads, in a line: `Query PK = POST#a91f · SK begins_with LIKE# · 1
    /// filter`, `Scan · 4 segments`.
    pub fn line(&self, info: &TableInfo) -> String {
        let mut parts = Vec::new();
        match info.keys_of(self.index.as_deref()) {
            Some((partition, sort)) if !self.scan => {
                parts.push(format!("Query {} = {}", partition.name, self.partition));
                if let (Some(sort), Some(op)) = (sort, self.sort_op) {
                    let upper = match op {
                        SortOp::Between => format!(" and {}", self.sort_upper),
                        _ => String::new(),
                    };
                    let (name, symbol) = (&sort.name, op.symbol());
                    parts.push(format!("{name} {symbol} {}{upper}", self.sort_value));
                }
                if self.descending {
                    parts.push("descending".to_owned());
                }
            }
            _ => parts.push("Scan".to_owned()),
        }
        if let Some(index) = &self.index {
            parts.push(format!("index {index}"));
        }
        let filters = self.filters.iter().filter(|f| !f.attr.trim().is_empty());
        match filters.count() {
            0 => {}
            1 => parts.push("1 filter".to_owned()),
            n => parts.push(format!("{n} filters")),
        }
        if self.scan && self.segments.trim() != "1" && !self.segments.trim().is_empty() {
            parts.push(format!("{} segments", self.segments.trim()));
        }
        parts.join(" · ")
    }
}

/// Draw the form for `info`; returns what the user asked for.
#[must_use]
pub(super) fn query_form_ui(
    ui: &mut Ui,
    form: &mut QueryForm,
    info: &TableInfo,
    results: &ResultsState,
) -> Option<FormAction> {
    let mut action = None;
    ui.horizontal_wrapped(|ui| {
        // Offered where the form takes the grid's rows; a form that cannot be sent stays open,
        // its error said under it.
        if form.error.is_none()
            && short_window(ui)
            && ui
                .button("Fold the query")
                .on_hover_text("The form in one line, with its buttons: more rows for the grid")
                .clicked()
        {
            action = Some(FormAction::Fold);
        }
        ui.selectable_value(&mut form.scan, false, "Query");
        ui.selectable_value(&mut form.scan, true, "Scan");
        ui.separator();
        let shown = form.index.clone().unwrap_or_else(|| "(table)".to_owned());
        let label = ui.label("Index");
        egui::ComboBox::from_id_salt("index")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut form.index, None, "(table)");
                for index in &info.indexes {
                    ui.selectable_value(&mut form.index, Some(index.name.clone()), &index.name);
                }
            })
            .response
            .labelled_by(label.id);
    });
    let keys = info.keys_of(form.index.as_deref());
    if !form.scan
        && let Some((partition, sort)) = keys
    {
        ui.horizontal_wrapped(|ui| {
            let label = format!("{} ({}) =", partition.name, partition.kind);
            let response = labelled_text_ui(
                ui,
                &label,
                &mut form.partition,
                180.0,
                "partition key value",
            );
            if response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                action = Some(FormAction::Run);
            }
            if let Some(sort) = sort {
                sort_condition_ui(ui, form, &format!("{} ({})", sort.name, sort.kind));
            }
            ui.checkbox(&mut form.descending, "Descending");
        });
    }
    filter_ui(ui, &mut form.filters, &mut form.filter_any);
    ui.horizontal_wrapped(|ui| {
        labelled_text_ui(ui, "Page size", &mut form.page_size, 60.0, "1 MB");
        if form.scan {
            labelled_text_ui(ui, "Segments", &mut form.segments, 32.0, "1").on_hover_text(
                "A parallel scan: 2 to 1,000 segments (at most 64 read at once), to the end",
            );
        }
        ui.separator();
        if let Some(asked) = page_buttons_ui(ui, form.scan, results) {
            action = Some(asked);
        }
        ui.separator();
        if ui
            .button("Get item…")
            .on_hover_text("Open one item by its key (a consistent GetItem), without a query")
            .clicked()
        {
            action = Some(FormAction::GetItem);
        }
    });
    if let Some(error) = &form.error {
        error_ui(ui, error);
    }
    action
}

/// The form folded into one line: what it reads, a way to open it, and the page buttons.
#[must_use]
pub(super) fn folded_form_ui(
    ui: &mut Ui,
    form: &QueryForm,
    info: &TableInfo,
    results: &ResultsState,
) -> Option<FormAction> {
    let mut action = None;
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Edit the query")
            .on_hover_text("Show the whole form: key, sort condition, filters, page size")
            .clicked()
        {
            action = Some(FormAction::Unfold);
        }
        ui.label(form.line(info));
        ui.separator();
        // Get item… is one click away, under Edit the query: a second line here would take a
        // row from the grid at 900 wide.
        if let Some(asked) = page_buttons_ui(ui, form.scan, results) {
            action = Some(asked);
        }
    });
    action
}

fn sort_condition_ui(ui: &mut Ui, form: &mut QueryForm, sort_label: &str) {
    let shown = form.sort_op.map_or("(any)", SortOp::symbol);
    let label = ui.label(sort_label);
    egui::ComboBox::from_id_salt("sort_op")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut form.sort_op, None, "(any)");
            for op in SortOp::ALL {
                ui.selectable_value(&mut form.sort_op, Some(op), op.symbol());
            }
        })
        .response
        .labelled_by(label.id);
    if form.sort_op.is_some() {
        labelled_text_ui(ui, "Sort value", &mut form.sort_value, 140.0, "e.g. LIKE#");
        if form.sort_op == Some(SortOp::Between) {
            labelled_text_ui(ui, "and", &mut form.sort_upper, 140.0, "upper bound");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dynoscope_core::condition::ScalarType;
    use dynoscope_core::table::KeyAttr;

    #[test]
    fn the_folded_line_says_what_the_form_reads() {
        let key = |name: &str| KeyAttr::new(name, ScalarType::S);
        let info = TableInfo::with_keys("Social", key("PK"), Some(key("SK")));
        let mut form = QueryForm {
            partition: "POST#a91f".to_owned(),
            ..QueryForm::default()
        };
        assert_eq!(form.line(&info), "Query PK = POST#a91f");
        form.sort_op = Some(SortOp::BeginsWith);
        form.sort_value = "LIKE#".to_owned();
        form.descending = true;
        form.filters[0].attr = "user".to_owned();
        assert_eq!(
            form.line(&info),
            "Query PK = POST#a91f · SK begins_with LIKE# · descending · 1 filter"
        );
        form.scan = true;
        form.segments = "4".to_owned();
        assert_eq!(form.line(&info), "Scan · 1 filter · 4 segments");
    }
}
