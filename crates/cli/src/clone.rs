//! `dynoscope clone`: a table copied from the connection the global flags choose to the one the
//! `--to-…` flags choose — its schema, its items, then the check — by `core::clone`, with
//! progress on stderr and, when it stops early, the arguments that go on from there.

use crate::context::Ctx;
use crate::to_flags::ToConnectionFlags;

use clap::Args;

use crate::exit::Exit;
use crate::flags::{count, positive};
use crate::interrupt::unless_stopped;
use crate::resume;
use dynoscope_core::admin::AdminEvent;
use dynoscope_core::clone::{self, CloneEvent, CloneReport, CloneSpec};
use dynoscope_core::connection::{self, ConnectOptions};
use dynoscope_core::error::{Error, Result};
use dynoscope_core::import::BATCHES_AT_ONCE;
use dynoscope_core::read::SegmentStart;
use dynoscope_core::report::Report;

/// `dynoscope clone`.
#[derive(Debug, Args)]
pub struct CloneArgs {
    /// The table to clone, on the connection the global flags choose (--profile, --region,
    /// --endpoint-url, --sandbox-db).
    #[arg(long)]
    pub table: String,
    /// The destination table's name (default: the source's).
    #[arg(long, value_name = "NAME")]
    pub to_table: Option<String>,
    /// The destination connection.
    #[command(flatten)]
    pub to: ToConnectionFlags,
    /// Clone one partition only: the items with this partition key value (a Query).
    #[arg(long, allow_hyphen_values = true, value_name = "VALUE")]
    pub pk: Option<String>,
    /// Read the source in this many parallel scan segments.
    #[arg(long, default_value_t = 4, allow_negative_numbers = true, value_parser = positive)]
    pub segments: usize,
    /// Go on where a stopped clone left off, as it printed: `SEGMENT=JSON` once per segment
    /// to go on with (`FIRST-LAST={}` from their beginning); with --pk, the key JSON alone.
    #[arg(long = "start-key", value_name = "[SEGMENT=]JSON")]
    pub start_keys: Vec<String>,
    /// Batches of 25 items in flight at once.
    #[arg(long, default_value_t = BATCHES_AT_ONCE, allow_negative_numbers = true, value_parser = positive)]
    pub concurrency: usize,
    /// Items compared one by one at the end (consistent reads on both sides).
    #[arg(long, default_value_t = clone::SAMPLE, allow_negative_numbers = true, value_parser = count)]
    pub sample: usize,
    /// Skip the check at the end (counts per partition, the sample).
    #[arg(long, conflicts_with = "check")]
    pub no_check: bool,
    /// The check at the end: `sample` (counts per partition and --sample items compared) or
    /// `full` (every item compared by key, each side read once more).
    #[arg(long, value_name = "sample|full", value_parser = ["sample", "full"])]
    pub check: Option<String>,
}

impl CloneArgs {
    /// The clone asked: where it goes on from `--start-key` (a key with `--pk`, else one per
    /// segment), parsed here; the rest checked by the spec.
    fn spec(&self) -> Result<CloneSpec> {
        let mut spec = CloneSpec::new(&self.table, false);
        spec.to_table.clone_from(&self.to_table);
        spec.pk.clone_from(&self.pk);
        spec.segments = self.segments;
        spec.concurrency = self.concurrency;
        spec.sample = (!self.no_check).then_some(self.sample);
        spec.full_check = self.check.as_deref() == Some("full");
        match (&self.pk, self.start_keys.as_slice()) {
            (_, []) => {}
            (Some(_), [key]) => spec.resume_after = resume::parse_key(key)?,
            (Some(_), _) => {
                return Err(Error::Invalid("--start-key is given once with --pk".into()));
            }
            (None, keys) => {
                spec.resume_segments = Some(resume::parse_segment_keys(self.segments, keys)?);
            }
        }
        Ok(spec)
    }
}

/// Clone `args.table` from `source` to the destination the `--to-…` flags name.
pub(crate) async fn clone(cx: &mut Ctx<'_>, args: CloneArgs) -> Result<Exit> {
    let (source, flags, stop) = (cx.connection, cx.flags, cx.stop);
    let out = &mut *cx.out;
    let notes = out.notes();
    let spec = args.to.named()?;
    let (plan, note) = args.spec()?.plan()?;
    if let Some(note) = note {
        notes.say(format_args!("dynoscope: {note}"));
    }
    // The destination is marked as the app marks it; --read-only (typed, not the source's
    // mark) holds for it too.
    let mark = crate::marks::mark_of(&spec, true, out)?;
    let options = ConnectOptions {
        read_only: flags.read_only || args.to.to_read_only || mark.read_only,
        ..flags.options()
    };
    let target = unless_stopped(stop, "connect", connection::connect_with(spec, options)).await?;
    if let Some(name) = &mark.protected {
        target.set_naming(name, true);
    }
    let to_table = plan.to_table.clone();
    // A few progress lines a second at most, and always the one that says it is stopping.
    let mut said_at: Option<std::time::Instant> = None;
    let mut on_event = |event: CloneEvent| match event {
        CloneEvent::Note(note) => notes.say(format_args!("dynoscope: {note}")),
        CloneEvent::Admin(AdminEvent::Applied(what)) => {
            notes.say(format_args!("dynoscope: applied: {what}"));
        }
        CloneEvent::Admin(AdminEvent::State(state)) => {
            notes.say(format_args!("dynoscope: table {to_table}: {state}"));
        }
        CloneEvent::Progress(progress) => {
            let due = said_at.is_none_or(|at| at.elapsed().as_millis() >= 500);
            if due || progress.stopping || progress.note.is_some() {
                said_at = Some(std::time::Instant::now());
                notes.say(format_args!("dynoscope: {}", progress.line()));
            }
        }
        CloneEvent::Verifying(what) => notes.say(format_args!("dynoscope: {what}")),
    };
    let confirmed = match &mark.protected {
        Some(name) => flags.confirmed_for(Some(name)),
        None => flags.confirmed(),
    };
    let report = clone::run(source, &target, &plan, confirmed, stop, &mut on_event).await?;
    if let Some(error) = report.failure() {
        return Err(error.clone());
    }
    let resume = resume_args(&report);
    if out.json() {
        // The report's document (its `ending` among its keys), and where to go on from.
        let line = resume::Resumable {
            report: &report,
            resume,
        };
        out.line(
            serde_json::to_value(&line)
                .unwrap_or_else(|_| dynoscope_core::report::document(&report)),
        );
    } else {
        out.words(&report.lines());
        if let Some(args) = resume.as_deref() {
            out.error(format_args!(
                "dynoscope: stopped early; to go on from here, run the same clone again with: {}",
                resume::shell_words(args)
            ));
        }
    }
    Ok(Exit::from(report.ending()))
}

/// The arguments that go on where the copy stopped, when it stopped before its end: `--yes`
/// first, since the destination now holds items and writing into it again is asked.
fn resume_args(report: &CloneReport) -> Option<Vec<String>> {
    let copy = report.copy.as_ref()?;
    if copy.left.finished() {
        return None;
    }
    let mut args = vec!["--yes".to_owned()];
    if copy.partition {
        if let Some(SegmentStart::After(key)) = copy.left.get(0) {
            args.extend(resume::key_args(key, &copy.key_names));
        }
        return Some(args);
    }
    args.extend(resume::segment_args(&copy.left, &copy.key_names));
    Some(args)
}
