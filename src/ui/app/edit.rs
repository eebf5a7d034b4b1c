//! Counter edits from the app: planning them from a row, sending them, and grid actions.

use crate::core::counter;
use crate::core::error::Error;
use crate::core::value::Item;
use crate::ui::counter_editor::EditRequest;
use crate::ui::results_grid::GridAction;
use crate::worker::Command;

use super::DynoscopeApp;

impl DynoscopeApp {
    /// The loaded row whose key is `key` (rows may have been reloaded since an edit was sent).
    pub(super) fn row_with_key(&mut self, key: &Item) -> Option<&mut Item> {
        std::sync::Arc::make_mut(&mut self.results.items)
            .iter_mut()
            .find(|item| key.iter().all(|(k, v)| item.get(k) == Some(v)))
    }

    pub(super) fn send_edit(&mut self, row: usize, request: EditRequest) {
        match self.plan_edit(row, &request) {
            Ok(plan) => {
                self.next_job += 1;
                self.editor.error = None;
                self.editor.pending = Some(self.next_job);
                self.editor.row = Some(row);
                self.editor.last_change = Some(request.change);
                self.worker.send(Command::EditCounter {
                    job: self.next_job,
                    plan: Box::new(plan),
                });
            }
            Err(error) => self.editor.error = Some(error),
        }
    }

    pub(super) fn plan_edit(
        &self,
        row: usize,
        request: &EditRequest,
    ) -> Result<counter::UpdatePlan, Error> {
        let (Some(info), Some(item)) = (&self.described.info, self.results.items.get(row)) else {
            return Err(Error::Invalid("open an item first".into()));
        };
        let key: Item = info
            .key_names()
            .into_iter()
            .filter_map(|k| item.get(&k).map(|v| (k, v.clone())))
            .collect();
        if key.len() != info.key_names().len() {
            return Err(Error::Invalid(
                "this row does not carry the table's full key".into(),
            ));
        }
        counter::check_editable(&key, &request.attribute)?;
        let current = match &request.from {
            Some(from) => Some(from.clone()),
            None => counter::stored_number(&request.attribute, item.get(&request.attribute))?,
        };
        let planned = counter::plan(current.as_deref(), &request.change)?;
        counter::update_plan(
            &info.name,
            key,
            &request.attribute,
            self.editor.mode,
            planned,
        )
    }

    pub(super) fn grid_action(&mut self, action: GridAction) {
        match action {
            GridAction::Add {
                row,
                attribute,
                delta,
            } => {
                self.results.selected = Some(row);
                self.editor.attribute.clone_from(&attribute);
                self.send_edit(
                    row,
                    EditRequest {
                        attribute,
                        change: counter::Change::By(delta.to_owned()),
                        from: None,
                    },
                );
            }
            GridAction::Edit { row, attribute } => {
                self.results.selected = Some(row);
                self.editor.attribute = attribute;
                self.editor.error = None;
            }
        }
    }
}
