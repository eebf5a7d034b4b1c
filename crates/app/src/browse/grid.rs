//! The results grid on rerun's `egui_table`: virtual rows and columns, the row number and the
//! key columns sticky on the left, every other attribute scrolling sideways. A header click
//! sorts; a click selects (Shift extends) and opens the row; the keyboard moves and copies
//! ([`super::keys`]); a number cell's menu edits it.

use aws_sdk_dynamodb::types::AttributeValue;
use egui::{RichText, Sense, Ui};
use egui_table::{CellInfo, Column, HeaderCellInfo, HeaderRow, Table, TableDelegate, TableState};

use crate::browse::cell_menu::{HeaderAction, cell_menu_ui, header_menu_ui};
use crate::browse::results::{Results, RowChange};
use dynoscope_core::value;

pub(super) use crate::browse::cell_menu::GridAction;
use crate::widgets::type_tag_ui;

const ROW_NUMBER_WIDTH: f32 = 64.0;
const KEY_WIDTH: f32 = 170.0;
const ATTRIBUTE_WIDTH: f32 = 130.0;
const DATED_WIDTH: f32 = 300.0;

/// What a click on a cell asked for.
struct Click {
    position: usize,
    column: usize,
    extend: bool,
}

/// A column header being dragged: the column's name.
struct ColumnDrag(String);

struct Grid<'a> {
    results: &'a Results,
    columns: &'a [&'a str],
    keys: usize,
    row_height: f32,
    click: Option<Click>,
    sort: Option<String>,
    header: Option<HeaderAction>,
    action: Option<GridAction>,
    editable: bool,
}

impl TableDelegate for Grid<'_> {
    fn header_cell_ui(&mut self, ui: &mut Ui, cell: &HeaderCellInfo) {
        let col = cell.col_range.start;
        egui::Frame::NONE
            .inner_margin(egui::Margin::symmetric(4, 0))
            .show(ui, |ui| {
                let Some(name) = col.checked_sub(1).and_then(|i| self.columns.get(i)) else {
                    ui.weak("#");
                    return;
                };
                let arrow = match self.results.sort() {
                    Some(s) if &s.column == name => {
                        if s.descending {
                            " desc"
                        } else {
                            " asc"
                        }
                    }
                    _ => "",
                };
                let dates = if self.results.shows_date(name) {
                    " · dates"
                } else {
                    ""
                };
                let mut text = RichText::new(format!("{name}{arrow}{dates}")).strong();
                let is_key = col <= self.keys;
                if is_key {
                    text = text.underline();
                }
                let sense = if is_key {
                    egui::Sense::click()
                } else {
                    egui::Sense::click_and_drag()
                };
                let response = ui
                    .add(egui::Button::new(text).frame(false).sense(sense))
                    .on_hover_text(
                        "Sort by this column (again: descending, again: server order); drag it onto another to move it; right-click to move or hide it",
                    );
                if response.clicked() {
                    self.sort = Some((*name).to_owned());
                }
                if !is_key {
                    // A header dragged onto another moves its column there.
                    response.dnd_set_drag_payload(ColumnDrag((*name).to_owned()));
                    if let Some(dragged) = response.dnd_release_payload::<ColumnDrag>()
                        && dragged.0 != *name
                    {
                        self.header = Some(HeaderAction::MoveTo(dragged.0.clone(), (*name).to_owned()));
                    }
                    if response.dnd_hover_payload::<ColumnDrag>().is_some() {
                        ui.painter().rect_stroke(
                            response.rect,
                            2.0,
                            ui.visuals().selection.stroke,
                            egui::StrokeKind::Inside,
                        );
                    }
                    response.context_menu(|ui| {
                        self.header = header_menu_ui(ui, name, self.results.shows_date(name));
                    });
                }
            });
    }

    fn cell_ui(&mut self, ui: &mut Ui, cell: &CellInfo) {
        let position = cell.row_nr as usize;
        let Some(row) = self.results.row_at(position) else {
            return;
        };
        let rect = ui.max_rect();
        // Each cell paints its own row background: a row's parts are drawn per region.
        let fill = row_fill(self.results, row, position, ui.visuals());
        if let Some(fill) = fill {
            ui.painter().rect_filled(rect, 0.0, fill);
        }
        // The cell's id, and so its menu, belongs to the row of this run, not to the place it
        // is shown at: a re-sort or a new page never hands an open menu to another row.
        let id = egui::Id::unique(("grid_cell", self.results.run, row, cell.col_nr));
        let response = ui.interact(rect, id, Sense::click());
        let column = cell.col_nr.saturating_sub(1);
        if self.results.cursor() == Some((row as u32, column)) && cell.col_nr > 0 {
            ui.painter().rect_stroke(
                rect.shrink(1.0),
                0.0,
                ui.visuals().selection.stroke,
                egui::StrokeKind::Inside,
            );
        }
        ui.style_mut().interaction.selectable_labels = false;
        egui::Frame::NONE
            .inner_margin(egui::Margin::symmetric(4, 0))
            .show(ui, |ui| {
                let Some(name) = cell.col_nr.checked_sub(1).and_then(|i| self.columns.get(i))
                else {
                    ui.weak((row + 1).to_string());
                    return;
                };
                let finder = self.results.find().finder();
                if finder.is_some_and(|f| f.cell_matches(&self.results.rows, row, name)) {
                    ui.painter().rect_filled(
                        rect,
                        0.0,
                        ui.visuals().warn_fg_color.gamma_multiply(0.3),
                    );
                }
                if let Some(value) = self.results.rows.value(row, name) {
                    cell_value_ui(ui, &value, name, self.results.shows_date(name));
                }
            });
        if response.clicked() {
            self.click = Some(Click {
                position,
                column,
                extend: ui.input(|i| i.modifiers.shift),
            });
        }
        let name = cell.col_nr.checked_sub(1).and_then(|i| self.columns.get(i));
        if let Some(name) = name {
            response.context_menu(|ui| {
                let item = self.results.rows.item(row).unwrap_or_default();
                let keys = self.results.key_names();
                if let Some(a) = cell_menu_ui(ui, &item, name, keys, row, self.editable) {
                    self.action = Some(a);
                }
            });
        }
    }

    fn default_row_height(&self) -> f32 {
        self.row_height
    }
}

/// Draw the grid: only the visible rows and columns are laid out.
#[must_use]
pub fn results_grid_ui(
    ui: &mut Ui,
    results: &mut Results,
    loading: bool,
    editable: bool,
) -> Option<GridAction> {
    if results.view().is_empty() {
        if !loading && results.load.request.is_some() && results.load.error.is_none() {
            if results.rows.is_empty() {
                ui.weak("No items matched.");
            } else {
                ui.weak("No loaded row holds the text found (Esc shows every row).");
            }
        }
        return None;
    }
    let scroll_to = results.take_scroll();
    let columns = results.shown_columns();
    let keys = columns.iter().filter(|c| results.is_key(c)).count();
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 8.0;
    let (table_columns, widths) = grid_columns(results, &columns, keys);
    let mut table = Table::new()
        // Each tab's grid scrolls on its own: another tab's sideways scroll is not this one's.
        .id_salt(("results_grid", results.grid_id()))
        .num_rows(results.view().len() as u64)
        .columns(table_columns)
        .num_sticky_cols(1 + keys)
        .headers([HeaderRow::new(row_height + 2.0)])
        .auto_size_mode(egui_table::AutoSizeMode::Never);
    remember_widths(ui, &table, &widths);
    if let Some((position, column)) = scroll_to {
        // The scroll area moves at the end of this frame: the next one shows where it went.
        ui.ctx().request_repaint();
        table = table.scroll_to_row(position as u64, None);
        // Sideways only to a column that scrolls: the row number and the keys stay in view.
        if let Some(column) = column.filter(|&c| c >= keys) {
            table = table.scroll_to_column(column + 1, None);
        }
    }
    let mut grid = Grid {
        results,
        columns: &columns,
        keys,
        row_height,
        click: None,
        sort: None,
        header: None,
        action: None,
        editable,
    };
    // A jump (a find, End) lands at once rather than gliding over a million rows.
    let animation = ui.style().scroll_animation;
    if scroll_to.is_some() {
        ui.style_mut().scroll_animation = egui::style::ScrollAnimation::none();
    }
    table.show(ui, &mut grid);
    ui.style_mut().scroll_animation = animation;
    let (click, sort, header, action) = (grid.click, grid.sort, grid.header, grid.action);
    if let Some(column) = sort {
        results.toggle_sort(&column);
    }
    match header {
        Some(HeaderAction::Move(name, by)) => results.move_column(&name, by),
        Some(HeaderAction::MoveTo(name, target)) => results.move_column_to(&name, &target),
        Some(HeaderAction::Hide(name)) => results.show_column(&name, false),
        Some(HeaderAction::Dates(name, shown)) => results.show_date(&name, shown),
        None => {}
    }
    if let Some(click) = click {
        // The keyboard now belongs to the grid, not to a button or field clicked before.
        ui.memory_mut(|m| {
            if let Some(focused) = m.focused() {
                m.surrender_focus(focused);
            }
        });
        results.click_cell(click.position, click.column, click.extend);
        results.open_at(click.position);
    }
    action
}

/// Give a grid's new columns their widths: egui_table would size a new column to its cells,
/// which truncate, so key columns would start as narrow as their names. Widths the user set
/// stay.
fn remember_widths(ui: &Ui, table: &Table, widths: &[(egui::Id, f32)]) {
    let id = table.get_id(ui);
    let mut state = TableState::load(ui.ctx(), id).unwrap_or_default();
    let mut added = false;
    for (column, width) in widths {
        if !state.col_widths.contains_key(column) {
            state.col_widths.insert(*column, *width);
            added = true;
        }
    }
    if added {
        state.store(ui.ctx(), id);
    }
}

/// A row's background: chosen, added or changed by an auto-refresh, or every other row faint.
fn row_fill(
    results: &Results,
    row: usize,
    position: usize,
    visuals: &egui::Visuals,
) -> Option<egui::Color32> {
    if results.is_chosen(row as u32) {
        Some(visuals.selection.bg_fill.gamma_multiply(0.6))
    } else if let Some(change) = results.change_of(row as u32) {
        // What an auto-refresh found: new rows green, changed ones amber.
        Some(match change {
            RowChange::Added => crate::widgets::GOOD.gamma_multiply(0.25),
            RowChange::Changed => visuals.warn_fg_color.gamma_multiply(0.25),
        })
    } else if position % 2 == 1 {
        Some(visuals.faint_bg_color)
    } else {
        None
    }
}

/// A cell's value: its type, its text cut to the cell, and its date beside it (`shows_date`)
/// or on hover when it looks like a time.
fn cell_value_ui(ui: &mut Ui, value: &AttributeValue, name: &str, shows_date: bool) {
    if let Some(kind) = value::AttrType::of(value) {
        type_tag_ui(ui, kind);
    }
    let text = value::cell_text(value);
    let dated = match value {
        AttributeValue::N(n) if shows_date => value::date_of(name, n),
        _ => None,
    };
    let label = match dated {
        // The date beside the value, never in its place.
        Some(date) => {
            let mut job = egui::text::LayoutJob::default();
            let style = ui.style();
            let (font, align) = (egui::FontSelection::Default, egui::Align::Center);
            RichText::new(text).append_to(&mut job, style, font.clone(), align);
            RichText::new(format!("  {date}"))
                .weak()
                .append_to(&mut job, style, font, align);
            ui.add(egui::Label::new(job).truncate())
        }
        None => ui.add(egui::Label::new(text).truncate()),
    };
    // A number that looks like a time says its date on hover; the cell keeps
    // the value as stored.
    if label.hovered()
        && let AttributeValue::N(n) = value
        && let Some(date) = value::date_of(name, n)
    {
        label.on_hover_text(date);
    }
}

/// The grid's columns, the row number first, each key and attribute as wide as it starts (a
/// dated one wide enough for its dates), with their ids and widths.
fn grid_columns(
    results: &Results,
    columns: &[&str],
    keys: usize,
) -> (Vec<Column>, Vec<(egui::Id, f32)>) {
    let mut table_columns = vec![Column::new(ROW_NUMBER_WIDTH).resizable(false)];
    let mut widths = Vec::with_capacity(columns.len());
    for (i, name) in columns.iter().enumerate() {
        // A column with its dates beside its numbers starts wide enough for both.
        let dated = results.shows_date(name);
        let width = match (i < keys, dated) {
            (true, _) => KEY_WIDTH,
            (false, true) => DATED_WIDTH,
            (false, false) => ATTRIBUTE_WIDTH,
        };
        let id = egui::Id::unique(("grid_column", name, dated));
        widths.push((id, width));
        table_columns.push(
            Column::new(width)
                .range(40.0..=800.0)
                .resizable(true)
                .id(id),
        );
    }
    (table_columns, widths)
}
