//! Reports in words: the lines a finished operation is summed up in, each with the way it is
//! meant to be read. The app styles them by tone and the CLI prints them, so both say the same.

use std::fmt;

use crate::ending::Ending;
use crate::error::Error;

/// How a line of a report is meant to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// A heading: what was done.
    Title,
    /// The figure the report is about, e.g. `41 → 42`.
    Figure,
    /// An ordinary sentence.
    Plain,
    /// A detail that matters less.
    Quiet,
    /// It worked.
    Good,
    /// Look twice: an outcome that is not what was asked for, or not known.
    Warn,
    /// It failed.
    Bad,
}

/// One line of a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// How to read it.
    pub tone: Tone,
    /// The words.
    pub text: String,
}

impl Line {
    /// A line of `tone`.
    pub fn new(tone: Tone, text: impl Into<String>) -> Self {
        Self {
            tone,
            text: text.into(),
        }
    }
}

/// What every finished run hands every front end: its lines in words (the app styles them by
/// tone, the CLI prints them), one JSON object made by serde from its typed document (a report
/// is `Serialize` + `JsonSchema`: [`Document`](crate::document::Document); the CLI's `--json`
/// and the MCP server's structured content, through [`document`]), and how it ended. A run that failed before
/// anything applied hands its error back in [`failure`](Report::failure), to be said once, as
/// an error, instead of the report.
pub trait Report: crate::document::Document {
    /// The report in words, one line each.
    fn lines(&self) -> Vec<Line>;
    /// How it ended.
    fn ending(&self) -> Ending;
    /// The error of a run that applied nothing, said instead of the report.
    fn failure(&self) -> Option<&Error> {
        None
    }
    /// The report's result as rows under named columns, when it is a list (parents, shards,
    /// routes, places): what the CLI's `--output table` aligns, `text` separates by tabs and
    /// `jsonl` prints an object a line.
    fn listing(&self) -> Option<Listing> {
        None
    }
    /// The result alone, as `--quiet` prints it: by default the report's figure lines, or all
    /// its lines when none is a figure (a report of words has no part to leave out).
    fn result(&self) -> Vec<String> {
        let lines = self.lines();
        let figures: Vec<String> = (lines.iter())
            .filter(|line| line.tone == Tone::Figure)
            .map(|line| line.text.clone())
            .collect();
        if figures.is_empty() {
            lines.into_iter().map(|line| line.text).collect()
        } else {
            figures
        }
    }
}

/// A list as rows under named columns, each row also the JSON object the report's document
/// holds for it, so every output of one run names the same keys and the same values.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Listing {
    /// The columns, named as the rows' JSON keys.
    pub columns: Vec<String>,
    /// A cell per column, each whole (a table on a terminal cuts it to fit, marked).
    pub rows: Vec<Vec<String>>,
    /// Each row as its JSON object.
    pub objects: Vec<serde_json::Value>,
    /// The report's other lines (its summary), said beside the rows.
    pub summary: Vec<Line>,
}

impl Listing {
    /// The rows of `objects`, a column for each of `keys`, beside `summary`.
    pub fn of_objects(objects: Vec<serde_json::Value>, keys: &[&str], summary: Vec<Line>) -> Self {
        let rows = (objects.iter())
            .map(|object| keys.iter().map(|k| cell(&object[*k])).collect())
            .collect();
        Self {
            columns: keys.iter().map(|k| (*k).to_owned()).collect(),
            rows,
            objects,
            summary,
        }
    }

    /// The rows of the array `document[array]` (a report's [`Report::to_json`]), a column for
    /// each of `keys`.
    pub fn of(
        document: &serde_json::Value,
        array: &str,
        keys: &[&str],
        summary: Vec<Line>,
    ) -> Self {
        let objects = document[array].as_array().cloned().unwrap_or_default();
        Self::of_objects(objects, keys, summary)
    }
}

/// A JSON value as a cell: a string as it is, a number exactly as written, nothing for null,
/// an array or object as compact JSON.
pub fn cell(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// The one document of a typed report as its JSON Schema says it: the report's own keys, and
/// `ending` beside them, as [`document`] writes it. What the MCP server publishes as a tool's
/// output schema (`schema_for_output::<Answered<Got>>()`).
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Answered<T> {
    /// The report.
    #[serde(flatten)]
    pub report: T,
    /// How the run ended: `done`, `refused`, `error` or `unknown` (the CLI's exit 0, 1, 2, 3).
    pub ending: Ending,
}

/// The one JSON document of a report, as the CLI prints it with `--json` and the MCP server
/// answers it: the report's object with its `ending` (`done`, `refused`, `error`, `unknown`).
pub fn document(report: &(impl Report + ?Sized)) -> serde_json::Value {
    let mut value = report.to_json();
    if !value.is_object() {
        value = serde_json::json!({ "result": value });
    }
    if let serde_json::Value::Object(object) = &mut value {
        object.insert(
            "ending".to_owned(),
            serde_json::Value::from(report.ending().word()),
        );
    }
    value
}

/// Plain lines, each of `tone`: for a report whose words carry no other emphasis.
pub fn plain(tone: Tone, texts: impl IntoIterator<Item = String>) -> Vec<Line> {
    texts
        .into_iter()
        .map(|text| Line::new(tone, text))
        .collect()
}

/// Lines printed one under the other, as the CLI shows a report.
#[derive(Debug, Clone, Copy)]
pub struct Lines<'a>(pub &'a [Line]);

impl fmt::Display for Lines<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, line) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            f.write_str(&line.text)?;
        }
        Ok(())
    }
}

/// `count` and `noun`, plural when it is not 1: `1 page`, `3 pages`.
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else if noun == "child" {
        format!("{count} children")
    } else if ["s", "x", "ch", "sh"].iter().any(|end| noun.ends_with(end)) {
        format!("{count} {noun}es")
    } else {
        format!("{count} {noun}s")
    }
}

/// What a read loaded and cost: `4 items · 1 page · 0.5 RCU ≈ $0.0000000625 on demand` (the
/// cost is a `cost::Charge`).
pub fn read_summary(items: usize, pages: usize, cost: &dyn fmt::Display) -> String {
    format!(
        "{} · {} · {cost}",
        plural(items, "item"),
        plural(pages, "page"),
    )
}

/// Capacity units with at most one decimal, the way the console shows them.
pub fn capacity(units: f64) -> String {
    if units.fract() == 0.0 {
        format!("{units:.0}")
    } else {
        format!("{units:.1}")
    }
}

/// Exact units (or seconds) as text, without trailing zeros and with thousands separated: `4`,
/// `0.5`, `0.004`, `4,000,000`.
pub fn capacity_exact(units: &bigdecimal::BigDecimal) -> String {
    let text = units.normalized().to_plain_string();
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    };
    let (sign, digits) = text.split_at(usize::from(text.starts_with('-')));
    let (whole, fraction) = digits
        .split_once('.')
        .map_or((digits, None), |(w, f)| (w, Some(f)));
    let mut grouped = String::with_capacity(text.len() + whole.len() / 3);
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    match fraction {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

/// A wait, the way a progress line says it: `50 ms` under a second, `1.6 s` from one.
pub(crate) fn wait_text(wait: std::time::Duration) -> String {
    let ms = wait.as_millis();
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        // Tenths of a second, rounded down: whole numbers keep this exact.
        let tenths = ms / 100;
        format!("{}.{} s", tenths / 10, tenths % 10)
    }
}

/// How often a write whose outcome is unknown was sent, in words: `attempts` counts every
/// request that left (throttled ones, which wrote nothing, and re-sends of a repeatable write
/// after a lost answer), so a report never says "not sent again" of a request sent three times.
pub(crate) fn sent_unknown(attempts: u32) -> String {
    match attempts {
        0 | 1 => "not sent again".to_owned(),
        n => format!(
            "sent {n} times (re-sent only after throttling, which wrote nothing, or, for a write \
             that is safe to repeat, a lost answer), the last without a readable answer; not sent \
             again after that"
        ),
    }
}

/// A request that the server throttled, waiting before it is sent again, with the limit it hit
/// when the server said (`by`, from `error::throttle_words`): `throttled by this key range's
/// write limit (1,000 WCU/s per partition) on table Social, waiting 800 ms before attempt 3`,
/// or `throttled, waiting 800 ms before attempt 3`.
pub(crate) fn throttled_note(attempt: u32, wait: std::time::Duration, by: Option<&str>) -> String {
    let by = by.map(|words| format!(" by {words}")).unwrap_or_default();
    format!(
        "throttled{by}, waiting {} before attempt {attempt}",
        wait_text(wait)
    )
}

/// A page request that failed on the way, sent again after `wait`.
pub(crate) fn resending_note(attempt: u32, wait: std::time::Duration, headline: &str) -> String {
    format!(
        "{headline}; sending again in {} (attempt {attempt})",
        wait_text(wait)
    )
}

/// An age in a few words: `just now`, `12 s ago`, `3 min ago`, `2 h ago`.
pub fn age_text(age: std::time::Duration) -> String {
    let secs = age.as_secs();
    match secs {
        0..=1 => "just now".to_owned(),
        2..=119 => format!("{secs} s ago"),
        120..=7199 => format!("{} min ago", secs / 60),
        _ => format!("{} h ago", secs / 3600),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn ages_in_words() {
        assert_eq!(age_text(Duration::from_millis(400)), "just now");
        assert_eq!(age_text(Duration::from_secs(12)), "12 s ago");
        assert_eq!(age_text(Duration::from_mins(3)), "3 min ago");
        assert_eq!(age_text(Duration::from_secs(7300)), "2 h ago");
    }

    #[test]
    fn waits_in_words() {
        assert_eq!(wait_text(Duration::from_millis(50)), "50 ms");
        assert_eq!(wait_text(Duration::from_millis(1600)), "1.6 s");
        assert_eq!(wait_text(Duration::from_secs(5)), "5.0 s");
        assert_eq!(
            throttled_note(3, Duration::from_millis(800), None),
            "throttled, waiting 800 ms before attempt 3"
        );
        assert_eq!(
            throttled_note(
                3,
                Duration::from_millis(800),
                Some("the provisioned read capacity on table Social")
            ),
            "throttled by the provisioned read capacity on table Social, waiting 800 ms before attempt 3"
        );
    }
}
