//! How results are shown: `--output json|jsonl|table|text` (or `DYNOSCOPE_OUTPUT`), `--quiet`,
//! colour only on a terminal, and a table fitted to the terminal's width.
//!
//! A table's cells are cut to fit and the cut marked `…`; `text` keeps every cell whole,
//! separated by tabs, a tab, newline, carriage return or backslash inside a cell written `\t`,
//! `\n`, `\r`, `\\`, so that a row is always one line and `cut -f` finds its fields.

use std::io::IsTerminal as _;

use unicode_width::{UnicodeWidthChar as _, UnicodeWidthStr as _};

use dynoscope_core::error::{Error, Result};
use dynoscope_core::report::Tone;
use dynoscope_core::terminal::escape_controls;

/// The environment variable that chooses `--output` when it is not given.
pub(crate) const OUTPUT_VAR: &str = "DYNOSCOPE_OUTPUT";

/// What `--output` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Form {
    /// A report as one JSON document; items in DynamoDB JSON, one a line (as `--json`).
    Json,
    /// One JSON object a line: a list's rows, items in plain JSON; a report that is no list,
    /// its document.
    Jsonl,
    /// A list's rows aligned under a header, cut to the terminal's width; other reports in
    /// words.
    Table,
    /// A list's rows tab-separated under a header line (none with --quiet); other reports in
    /// words.
    Text,
}

impl Form {
    /// The form named `text`, as `--output` and `DYNOSCOPE_OUTPUT` spell it.
    pub fn parse(text: &str) -> Result<Self> {
        <Self as clap::ValueEnum>::from_str(text, false).map_err(|_| {
            Error::Invalid(format!(
                "{OUTPUT_VAR}={text:?} is not an output: give json, jsonl, table or text"
            ))
        })
    }

    /// Its name, as `--output` takes it.
    pub fn word(self) -> &'static str {
        match self {
            Self::Json => "json",
            Self::Jsonl => "jsonl",
            Self::Table => "table",
            Self::Text => "text",
        }
    }

    /// Whether it is JSON of either kind (errors are then said as JSON too).
    pub fn is_json(self) -> bool {
        matches!(self, Self::Json | Self::Jsonl)
    }
}

/// How this run shows its results.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Style {
    /// The output asked for; none for each subcommand's own (words, or items as JSON lines).
    pub form: Option<Form>,
    /// Only the result on stdout, and no notes on stderr (errors are still said).
    pub quiet: bool,
    /// Colour on stdout: a terminal that takes colour codes (on Windows, a console that accepts
    /// virtual terminal sequences), `NO_COLOR` unset or empty, `TERM` not `dumb`.
    pub colour: bool,
    /// The width a table fits: `COLUMNS`, else the terminal's; none when neither says.
    pub width: Option<usize>,
}

impl Style {
    /// The style of this process: `form` (from `--output` or `--json`) else, when `from_env`,
    /// `DYNOSCOPE_OUTPUT`; colour and width from the environment and stdout.
    pub(crate) fn of_process(form: Option<Form>, quiet: bool, from_env: bool) -> Result<Self> {
        let form = match (form, std::env::var_os(OUTPUT_VAR)) {
            (Some(form), _) => Some(form),
            (None, Some(text)) if from_env && !text.is_empty() => {
                Some(Form::parse(&text.to_string_lossy())?)
            }
            (None, _) => None,
        };
        let terminal = std::io::stdout().is_terminal();
        let no_colour = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
        let columns = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok());
        let width = columns.filter(|&c: &usize| c > 0).or_else(|| {
            terminal_size::terminal_size_of(std::io::stdout())
                .map(|(terminal_size::Width(w), _)| usize::from(w))
        });
        Ok(Self {
            form,
            quiet,
            colour: terminal && !no_colour && !dumb && console_takes_colour(),
            width,
        })
    }
}

/// Whether stdout's terminal shows colour codes rather than printing them (asked only of a
/// terminal). A Windows console does once asked to (`ENABLE_VIRTUAL_TERMINAL_PROCESSING`,
/// Windows 10 and later); one that refuses is given plain text. A terminal that is no console
/// (Git Bash's mintty, an MSYS or Cygwin pty) reads the codes itself.
#[cfg(windows)]
#[expect(
    unsafe_code,
    reason = "a console's mode is read and set by Win32 calls with no safe wrapper"
)]
fn console_takes_colour() -> bool {
    use std::os::windows::io::AsRawHandle as _;
    use windows_sys::Win32::System::Console::{
        ENABLE_VIRTUAL_TERMINAL_PROCESSING, GetConsoleMode, SetConsoleMode,
    };
    let handle = std::io::stdout().as_raw_handle();
    if handle.is_null() {
        return false;
    }
    let mut mode = 0;
    // SAFETY: stdout's own handle, and a mode of our own to write to.
    if unsafe { GetConsoleMode(handle, &raw mut mode) } == 0 {
        return true;
    }
    if mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING != 0 {
        return true;
    }
    // SAFETY: the same handle, with the mode it had plus one flag.
    (unsafe { SetConsoleMode(handle, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) }) != 0
}

/// Any terminal outside Windows takes colour codes.
#[cfg(not(windows))]
fn console_takes_colour() -> bool {
    true
}

/// `text` in the colour of `tone`, when `colour`.
pub(crate) fn paint(tone: Tone, text: &str, colour: bool) -> String {
    let code = match tone {
        Tone::Title => "1",
        Tone::Good => "32",
        Tone::Warn => "33",
        Tone::Bad => "31",
        Tone::Quiet => "2",
        Tone::Figure | Tone::Plain => return text.to_owned(),
    };
    if colour && !text.is_empty() {
        format!("\u{1b}[{code}m{text}\u{1b}[0m")
    } else {
        text.to_owned()
    }
}

/// A cell as one line: a tab, newline, carriage return and backslash written `\t`, `\n`, `\r`,
/// `\\`, and whatever else would steer a terminal escaped.
pub(crate) fn one_line(cell: &str) -> String {
    let mut out = String::with_capacity(cell.len());
    for c in cell.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    escape_controls(&out).into_owned()
}

/// A row as `text` prints it: its cells, each one line, separated by tabs.
pub(crate) fn text_row(cells: &[String]) -> String {
    let cells: Vec<String> = cells.iter().map(|c| one_line(c)).collect();
    cells.join("\t")
}

/// The gap between two columns of a table.
const GAP: usize = 2;
/// The narrowest a column is cut to, unless its widest cell is narrower: a key such as
/// `LIKE#USER#…` stays recognisable, and a column that cannot have this much is left out.
const NARROWEST: usize = 10;

/// `columns` and `rows` aligned, each column as wide as its widest cell, the widest cut first
/// until the table fits `width` (each cut cell ends in `…`), and the columns that cannot fit
/// even cut left out at the end; the header first when `head`, bold when `colour`. Returns the
/// lines and how many columns were left out.
pub(crate) fn table(
    columns: &[String],
    rows: &[Vec<String>],
    width: Option<usize>,
    head: bool,
    colour: bool,
) -> (Vec<String>, usize) {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|row| row.iter().map(|c| one_line(c)).collect())
        .collect();
    let names: Vec<String> = columns.iter().map(|c| one_line(c)).collect();
    let natural: Vec<usize> = (0..names.len())
        .map(|i| {
            (cells.iter().filter_map(|row| row.get(i)))
                .chain(head.then(|| &names[i]))
                .map(|c| c.width())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let widths = fit(&natural, width);
    let mut lines = Vec::with_capacity(cells.len() + 1);
    if head {
        let line = aligned(&names, &widths);
        lines.push(paint(Tone::Title, &line, colour));
    }
    lines.extend(cells.iter().map(|row| aligned(row, &widths)));
    (lines, names.len() - widths.len())
}

/// Column widths from their `natural` ones fitting `width`: every column whole when they fit,
/// else as many columns as fit at the narrowest width (the first one at least), each given its
/// natural width or an even share of what is left, the narrow ones first.
pub(crate) fn fit(natural: &[usize], width: Option<usize>) -> Vec<usize> {
    let gaps = |n: usize| GAP * n.saturating_sub(1);
    let Some(width) = width.filter(|w| natural.iter().sum::<usize>() + gaps(natural.len()) > *w)
    else {
        return natural.to_vec();
    };
    let mut least = 0;
    let shown = (natural.iter())
        .take_while(|n| {
            least += (**n).min(NARROWEST) + GAP;
            least <= width + GAP
        })
        .count()
        .max(1)
        .min(natural.len());
    let natural = &natural[..shown];
    let mut order: Vec<usize> = (0..shown).collect();
    order.sort_by_key(|&i| natural[i]);
    let mut left = width.saturating_sub(gaps(shown));
    let mut widths = natural.to_vec();
    for (k, &i) in order.iter().enumerate() {
        let share = left / (shown - k);
        widths[i] = natural[i].min(share.max(NARROWEST));
        left = left.saturating_sub(widths[i]);
    }
    widths
}

/// A row's cells, each cut to its width and padded to it (the last not padded).
fn aligned(cells: &[String], widths: &[usize]) -> String {
    let mut line = String::new();
    // Where the last cell with something in it ends: padding after it is dropped, a cell's own
    // spaces never.
    let mut end = 0;
    for (i, width) in widths.iter().enumerate() {
        let cell = cells.get(i).map_or("", String::as_str);
        let cut = cut(cell, *width);
        line.push_str(&cut);
        if !cut.is_empty() {
            end = line.len();
        }
        if i + 1 < widths.len() {
            let pad = width.saturating_sub(cut.width()) + GAP;
            line.extend(std::iter::repeat_n(' ', pad));
        }
    }
    line.truncate(end);
    line
}

/// `text` in at most `width` columns: whole when it fits, else its start and `…`.
pub(crate) fn cut(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| (*t).to_owned()).collect()
    }

    #[test]
    fn a_table_that_fits_is_aligned_whole() {
        let (lines, _) = table(
            &strings(&["parent", "drift"]),
            &[strings(&["POST#3b0c", "-2"]), strings(&["POST#d71e", "+1"])],
            Some(80),
            true,
            false,
        );
        assert_eq!(
            lines,
            ["parent     drift", "POST#3b0c  -2", "POST#d71e  +1"]
        );
    }

    #[test]
    fn the_widest_column_is_cut_first_and_marked() {
        let long = "x".repeat(100);
        let (lines, _) = table(
            &strings(&["pk", "value"]),
            &[strings(&["POST#a91f", &long])],
            Some(30),
            true,
            false,
        );
        assert!(lines.iter().all(|l| l.width() <= 30), "{lines:?}");
        assert_eq!(lines[1], format!("POST#a91f  {}…", "x".repeat(18)));
        // Wide characters count twice.
        assert_eq!(cut("日本語テキスト", 7), "日本語…");
        assert_eq!(cut("short", 5), "short");
    }

    #[test]
    fn columns_that_cannot_fit_are_left_out_at_the_end() {
        // 10 columns of 20 in 40: three fit at 10 or more and share the rest evenly.
        assert_eq!(fit(&[20; 10], Some(40)), [12, 12, 12]);
        let columns = strings(&["PK", "SK", "a", "b"]);
        let rows = [strings(&["POST#a91f", "LIKE#USER#7c20", "x", "y"])];
        let (lines, left_out) = table(&columns, &rows, Some(30), true, false);
        assert_eq!(left_out, 0);
        assert_eq!(
            lines,
            [
                "PK         SK             a  b",
                "POST#a91f  LIKE#USER#7c…  x  y"
            ]
        );
        let (lines, left_out) = table(&columns, &rows, Some(20), true, false);
        assert_eq!(left_out, 3);
        assert_eq!(lines, ["PK", "POST#a91f"]);
        // A single column wider than the terminal is still shown, cut.
        assert_eq!(fit(&[50], Some(10)), [10]);
        assert_eq!(fit(&[3, 50], None), [3, 50]);
        assert_eq!(fit(&[3, 50], Some(30)), [3, 25]);
        assert_eq!(fit(&[30, 30], Some(30)), [14, 14]);
    }

    #[test]
    fn a_cell_is_one_line_and_cannot_steer_the_terminal() {
        assert_eq!(one_line("a\tb\nc\\d\re"), r"a\tb\nc\\d\re");
        assert_eq!(one_line("\u{1b}[2J"), r"\u001b[2J");
        // A cell's own trailing spaces are kept; the padding after the last one is not.
        assert_eq!(aligned(&strings(&["a ", ""]), &[3, 4]), "a ");
        assert_eq!(aligned(&strings(&["a", "b  "]), &[3, 4]), "a    b  ");
        assert_eq!(
            text_row(&strings(&["LIKE#USER#7c20", "x\ty"])),
            "LIKE#USER#7c20\tx\\ty"
        );
    }

    #[test]
    fn colour_only_when_asked_and_never_for_plain_words() {
        assert_eq!(paint(Tone::Bad, "drift -2", false), "drift -2");
        assert_eq!(
            paint(Tone::Bad, "drift -2", true),
            "\u{1b}[31mdrift -2\u{1b}[0m"
        );
        assert_eq!(paint(Tone::Plain, "x", true), "x");
    }

    #[test]
    fn an_unknown_output_is_refused_in_words() {
        assert_eq!(Form::parse("table").unwrap(), Form::Table);
        let error = Form::parse("yaml").unwrap_err().to_string();
        assert!(error.contains("json, jsonl, table or text"), "{error}");
    }
}
