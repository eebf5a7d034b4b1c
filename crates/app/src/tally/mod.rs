//! The tally check: counter rules (saved per connection and table, or suggested from the loaded
//! rows), one parent's stored tally beside its counted children, a guarded repair, sharded
//! counters, and reconciling many parents.

mod kept;
mod reconcile;
mod reconcile_view;
mod repair_all;
mod routes;
mod rule_form;
mod rules;
mod shards;
mod single;

use aws_sdk_dynamodb::types::AttributeValue;
use egui::Ui;

use crate::feature::{Context, Feature, Subject};
use crate::intent::{Intent, QueryPreset};
use crate::scope::{Loaded, Scope};
use dynoscope_core::connection::ConnectionSpec;
use dynoscope_core::error::Error;
use dynoscope_core::table::TableInfo;
use dynoscope_core::tally::{
    self, ParentCheck, RepairReport, Rule, RuleBook, ShardRule, ShardTotal, TallyRule,
};
use dynoscope_core::task::Pending;
use dynoscope_core::value::{Item, whole_text};

use reconcile::Reconcile;
use rule_form::RuleForm;
use single::Repair;

/// The table the rules belong to.
struct Place {
    spec: ConnectionSpec,
    table: String,
}

/// The tally feature's state.
#[derive(Default)]
pub(crate) struct TallyFeature {
    /// Every saved rule; the open table's are edited in place.
    book: RuleBook,
    place: Option<Place>,
    /// Rules made before any table was opened (none are, but they have to live somewhere).
    unplaced: Vec<Rule>,
    selected: Option<usize>,
    form: RuleForm,
    form_open: bool,
    /// The parent (or shard partition) typed in.
    partition: String,
    error: Option<Error>,
    checking: Option<Pending<(ParentCheck, Item)>>,
    check: Option<(ParentCheck, Item)>,
    /// When that check was read: its results are as old as this.
    checked_at: Option<std::time::Instant>,
    summing: Option<Pending<ShardTotal>>,
    shards: Option<ShardTotal>,
    /// The write rate typed for the sharded counter, all shards together (writes a second).
    shard_rate: String,
    repair: Option<Repair>,
    reconcile: Reconcile,
    /// Rules suggested by the loaded rows, for (run, rows): computed once per change.
    suggestions: (u64, usize, Vec<Rule>),
    /// Other tables' results, given back when they are opened again.
    kept: kept::Kept,
}

impl TallyFeature {
    /// Start with the rules saved in `book`.
    pub(crate) fn new(book: RuleBook) -> Self {
        Self {
            book,
            ..Self::default()
        }
    }

    /// The saved rules, to remember.
    pub(crate) fn rule_book(&self) -> RuleBook {
        let mut book = self.book.clone();
        book.prune();
        book
    }

    /// Start afresh with the same rule book, no table open. A repair under way is kept, so
    /// that its outcome is still shown (its card names its table and item).
    fn afresh(&mut self) {
        let book = std::mem::take(&mut self.book);
        let kept = std::mem::take(&mut self.kept);
        let repair = self.repair.take().filter(|r| r.sending.is_some());
        *self = Self::new(book);
        self.kept = kept;
        self.repair = repair;
    }

    /// A table was opened on `spec`: its rules, and its results when it was open before (the
    /// table left keeps its own; a repair under way kept).
    fn open(&mut self, spec: &ConnectionSpec, table: &str) {
        self.keep_results();
        self.afresh();
        self.place = Some(Place {
            spec: spec.clone(),
            table: table.to_owned(),
        });
        if !self.results_back() {
            self.selected = (!self.rules().is_empty()).then_some(0);
        }
    }

    /// The rules of the open table, edited in place in the book.
    fn rules(&mut self) -> &mut Vec<Rule> {
        match &self.place {
            Some(place) => self.book.rules_mut(&place.spec, &place.table),
            None => &mut self.unplaced,
        }
    }

    fn selected_rule(&mut self) -> Option<Rule> {
        let at = self.selected?;
        self.rules().get(at).cloned()
    }

    fn tally_rule(&mut self) -> Option<TallyRule> {
        match self.selected_rule()? {
            Rule::Tally(rule) => Some(rule),
            Rule::Shards(_) => None,
        }
    }

    fn shard_rule(&mut self) -> Option<ShardRule> {
        match self.selected_rule()? {
            Rule::Shards(rule) => Some(rule),
            Rule::Tally(_) => None,
        }
    }

    /// The parent typed in, or the one checked; for the like lab.
    pub(crate) fn partition(&self) -> &str {
        &self.partition
    }

    /// The tally rule in use, for the like lab.
    pub(crate) fn rule_in_use(&mut self) -> Option<TallyRule> {
        self.tally_rule()
    }

    /// Every tally rule saved for the open table, for the staging area.
    pub(crate) fn tally_rules(&mut self) -> Vec<TallyRule> {
        self.rules()
            .iter()
            .filter_map(|rule| match rule {
                Rule::Tally(rule) => Some(rule.clone()),
                Rule::Shards(_) => None,
            })
            .collect()
    }

    /// The parent carried from the view left (`parent`, when it named one), else the
    /// partition queried in Browse when nothing was typed here.
    pub(crate) fn carry(&mut self, parent: &str, queried: &str) {
        if !parent.is_empty() {
            parent.clone_into(&mut self.partition);
        } else if self.partition.is_empty() {
            queried.clone_into(&mut self.partition);
        }
    }

    /// Take in what arrived; the notices of writes that ended go to `intents`.
    fn take_in(&mut self, intents: &mut Vec<Intent>) {
        if let Some(found) = Pending::take_ready(&mut self.checking) {
            match found {
                Ok(found) => {
                    self.check = Some(found);
                    self.checked_at = Some(std::time::Instant::now());
                    self.error = None;
                    self.drop_repair();
                }
                Err(error) => self.error = Some(error),
            }
        }
        if let Some(summed) = Pending::take_ready(&mut self.summing) {
            match summed {
                Ok(total) => {
                    self.shards = Some(total);
                    self.error = None;
                }
                Err(error) => self.error = Some(error),
            }
        }
        intents.extend(self.reconcile.poll());
        if let Some(repair) = &mut self.repair
            && let Some(report) = Pending::take_ready(&mut repair.sending)
        {
            let report = report.unwrap_or_else(RepairReport::lost);
            repair.result = Some(report.line());
            repair.moved = matches!(
                report.outcome,
                dynoscope_core::counter::Outcome::ConditionFailed { .. }
            );
            intents.push(Intent::Written {
                destination: Box::new(repair.plan.destination.clone()),
                table: repair.plan.table.clone(),
                keys: vec![repair.plan.key.clone()],
            });
            if let Ok((check, parent)) = report.recheck {
                self.reconcile.replace(check.clone());
                self.check = Some((check, parent));
                self.checked_at = Some(std::time::Instant::now());
            }
        }
    }

    /// Draw the view: rules, then the check of one parent and reconcile, or the shards.
    #[must_use]
    fn check_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, loaded: Loaded<'_>) -> Option<Intent> {
        let suggested = self.suggested(scope, loaded);
        let mut intent = None;
        egui::ScrollArea::vertical()
            .id_salt("tally_scroll")
            .show(ui, |ui| {
                rules::rules_ui(ui, self, scope, &suggested);
                ui.separator();
                if let Some(error) = &self.error {
                    crate::widgets::error_ui(ui, error);
                }
                if let Some(rule) = self.tally_rule() {
                    intent = single::single_ui(ui, self, scope, &rule);
                    ui.separator();
                    ui.heading("Reconcile many parents");
                    if let Some(open) = self.reconcile.reconcile_ui(ui, scope, &rule, loaded) {
                        self.partition = open;
                        self.check_parent(scope, &rule);
                    }
                } else if let Some(rule) = self.shard_rule() {
                    shards::shards_ui(ui, self, scope, &rule);
                } else {
                    ui.weak("Choose or write a rule to check a tally or sum a sharded counter.");
                }
            });
        intent
    }

    /// The partition typed in, as the table's partition key type; a typo is shown, not sent.
    fn typed_partition(&mut self, scope: &Scope<'_>) -> Option<AttributeValue> {
        match dynoscope_core::spec::partition_value(&scope.table.partition, self.partition.trim())
            .map_err(Error::from)
        {
            Ok(partition) => {
                self.error = None;
                Some(partition)
            }
            Err(error) => {
                self.error = Some(error);
                None
            }
        }
    }

    fn check_parent(&mut self, scope: &Scope<'_>, rule: &TallyRule) {
        let Some(partition) = self.typed_partition(scope) else {
            return;
        };
        let (client, info, rule) = owned(scope, rule);
        self.checking = Some(scope.spawner.spawn("Query", async move {
            tally::check_partition(&client, &info, &rule, partition).await
        }));
    }

    fn sum_shards(&mut self, scope: &Scope<'_>, rule: &ShardRule) {
        let Some(partition) = self.typed_partition(scope) else {
            // The total shown was of another partition.
            self.shards = None;
            return;
        };
        let (client, info, rule) = owned(scope, rule);
        self.summing = Some(scope.spawner.spawn("Query", async move {
            tally::sum_shards(&client, &info, partition, &rule).await
        }));
    }

    /// Where the checked parent's children are, as a browse preset.
    fn children_preset(&self, scope: &Scope<'_>, rule: &TallyRule) -> Result<QueryPreset, Error> {
        let (_, parent) = self
            .check
            .as_ref()
            .ok_or_else(|| Error::Invalid("check a parent first".into()))?;
        let query = rule.child_query(scope.table, parent)?;
        Ok(QueryPreset {
            index: query.index,
            partition: whole_text(&query.partition),
            sort_prefix: query.sort_prefix,
        })
    }

    fn suggested(&mut self, scope: &Scope<'_>, loaded: Loaded<'_>) -> Vec<Rule> {
        const SAMPLE: usize = 5_000;
        let key = (loaded.run, loaded.rows.len());
        if (self.suggestions.0, self.suggestions.1) != key {
            let rules = match loaded.request {
                Some(request) if request.index.is_none() => {
                    let info = scope.table;
                    let sort = info
                        .sort
                        .as_ref()
                        .map(|s| s.name.clone())
                        .unwrap_or_default();
                    let sample: Vec<_> = loaded.rows.items().take(SAMPLE).collect();
                    tally::suggest(&sample, &info.partition.name, &sort)
                }
                _ => Vec::new(),
            };
            self.suggestions = (key.0, key.1, rules);
        }
        self.suggestions.2.clone()
    }

    /// Use `rule` (adding it when new), with nothing checked under it yet.
    fn add_rule(&mut self, rule: Rule) {
        let rules = self.rules();
        let at = if let Some(at) = rules.iter().position(|r| *r == rule) {
            at
        } else {
            rules.push(rule);
            rules.len() - 1
        };
        self.select(Some(at));
    }

    /// Use the rule at `at`: nothing checked under another rule stays, and nothing under way
    /// for another rule is taken in.
    fn select(&mut self, at: Option<usize>) {
        self.selected = at;
        self.check = None;
        self.checking = None;
        self.shards = None;
        self.summing = None;
        self.drop_repair();
    }

    /// Forget the proposed repair, unless it was sent: its outcome must still be shown.
    fn drop_repair(&mut self) {
        if self.repair.as_ref().is_none_or(|r| r.sending.is_none()) {
            self.repair = None;
        }
    }
}

/// What a task needs to own: the client, the table and the rule.
fn owned<R: Clone>(
    scope: &Scope<'_>,
    rule: &R,
) -> (dynoscope_core::connection::Reader, TableInfo, R) {
    (scope.connection.reader(), scope.table.clone(), rule.clone())
}

impl Feature for TallyFeature {
    fn poll(&mut self, intents: &mut Vec<Intent>) {
        self.take_in(intents);
    }

    /// The rules saved for the connection and table (none: start afresh); a repair under way
    /// still reports.
    fn subject_changed(&mut self, subject: Subject<'_>) {
        match (subject.connection, subject.table) {
            (Some(spec), Some(table)) => self.open(spec, table),
            _ => self.afresh(),
        }
    }

    /// The rules, one parent, reconcile and shards, over the rows of the shown tab (none
    /// loaded: an empty set).
    fn view_ui(&mut self, ui: &mut Ui, context: &Context<'_>, intents: &mut Vec<Intent>) {
        let empty = dynoscope_core::rows::Rows::new();
        let loaded = context.loaded.unwrap_or(Loaded {
            run: 0,
            request: None,
            rows: &empty,
            chosen: None,
        });
        intents.extend(self.check_ui(ui, context.scope, loaded));
    }
}
