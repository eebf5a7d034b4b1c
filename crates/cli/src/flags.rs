//! Where to connect and how, as the AWS CLI spells it: flags every subcommand takes.

use std::path::PathBuf;

use clap::Args;

use dynoscope_core::connection::{ConnectOptions, ConnectionSpec, Mark};
use dynoscope_core::error::{Error, Result};
use dynoscope_core::spec;
use dynoscope_core::tally::TallyRule;

use crate::seconds;
use crate::style::{Form, Style};

/// How results are shown, for every subcommand.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct OutputFlags {
    /// Show results as json, jsonl, table (aligned to the terminal's width) or text
    /// (tab-separated); default: DYNOSCOPE_OUTPUT, else each subcommand's own (a report in
    /// words, items as JSON lines). --json is --output json.
    #[arg(long, global = true, value_name = "FORMAT")]
    pub output: Option<Form>,
    /// The result as JSON, every number exact: --output json (a report is one object, the
    /// one the MCP server answers; items are DynamoDB JSON, one per line).
    #[arg(long, global = true)]
    pub json: bool,
    /// Print only the result: no header, summary, progress or hint (errors are still said).
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
}

impl OutputFlags {
    /// The style of this run: `--output` (`--json` is `--output json`; the two must not
    /// disagree), else `DYNOSCOPE_OUTPUT`; either flag refused for a subcommand whose output is
    /// not a read or a report (`unshaped` says what it prints), which `DYNOSCOPE_OUTPUT` does
    /// not change either.
    pub(crate) fn style(self, unshaped: Option<&str>) -> Result<Style> {
        let form = match (self.output, self.json) {
            (Some(form), true) if form != Form::Json => {
                return Err(Error::Invalid(format!(
                    "--json and --output {} disagree: give one of them",
                    form.word()
                )));
            }
            (None, true) => Some(Form::Json),
            (form, _) => form,
        };
        if let (Some(form), Some(what)) = (form, unshaped) {
            let flag = if self.output.is_some() {
                format!("--output {}", form.word())
            } else {
                "--json".to_owned()
            };
            return Err(Error::Invalid(format!("{what}: {flag} does not apply")));
        }
        Style::of_process(form, self.quiet, unshaped.is_none())
    }
}

/// Where to connect, as the AWS CLI spells it.
#[derive(Debug, Clone, Default, Args)]
pub struct ConnectionFlags {
    /// Use a named profile from ~/.aws/config or ~/.aws/credentials (SSO profiles work).
    #[arg(long, global = true)]
    pub profile: Option<String>,
    /// The AWS region.
    #[arg(long, global = true)]
    pub region: Option<String>,
    /// A DynamoDB-compatible endpoint (DynamoDB Local, LocalStack, moto, `dynoscope sandbox`).
    #[arg(long, global = true)]
    pub endpoint_url: Option<String>,
    /// Use the embedded sandbox seeded with sample data (the default when no AWS
    /// configuration is found).
    #[arg(long, global = true)]
    pub sandbox: bool,
    /// Keep the sandbox in this SQLite file; it is seeded only when the file is new.
    #[arg(long, global = true, value_name = "PATH")]
    pub sandbox_db: Option<PathBuf>,
    /// Give up on a request after this many seconds, all attempts included (default 10).
    #[arg(
        long,
        global = true,
        value_name = "SECONDS",
        allow_negative_numbers = true,
        value_parser = seconds::timeout
    )]
    pub timeout: Option<std::time::Duration>,
    /// Give up a page read once it has been throttled for this many seconds in all (0 to 3600,
    /// default 120), in every subcommand that reads pages (items, scan, check, diff, export…).
    #[arg(
        long,
        global = true,
        value_name = "SECONDS",
        allow_negative_numbers = true,
        value_parser = seconds::throttle_wait
    )]
    pub max_throttle_wait: Option<std::time::Duration>,
    /// Refuse every write on this connection.
    #[arg(long, global = true)]
    pub read_only: bool,
    /// Confirm writes to an endpoint that is not on this machine (AWS, a remote endpoint).
    #[arg(long, global = true)]
    pub yes: bool,
    /// Name this connection NAME and protect it, as the app's Protected does: a write is sent
    /// only with --confirm-name NAME as well (--yes is not enough), wherever it goes.
    #[arg(long, global = true, value_name = "NAME")]
    pub protected: Option<String>,
    /// Confirm writes to a --protected connection by its name.
    #[arg(long, global = true, value_name = "NAME")]
    pub confirm_name: Option<String>,
    /// Price consumed capacity as this region (the sandbox and endpoints are priced as
    /// us-east-1 unless one is given; AWS as its own region).
    #[arg(long, global = true, value_name = "REGION")]
    pub price_region: Option<String>,
    /// How the app marks this connection (read-only, protected by a name), taken in by
    /// [`marked`](Self::marked); never a flag.
    #[arg(skip)]
    pub mark: Mark,
}

impl ConnectionFlags {
    /// The connection these flags choose.
    pub fn spec(&self) -> ConnectionSpec {
        ConnectionSpec::from_flags(
            self.sandbox,
            self.sandbox_db.clone(),
            self.profile.clone(),
            self.region.clone(),
            self.endpoint_url.clone(),
        )
    }

    /// These flags with `mark` taken in: how the app marks their connection (read-only,
    /// protected by a name), which no flag can lift.
    #[must_use]
    pub fn marked(&self, mark: Mark) -> Self {
        Self {
            mark,
            ..self.clone()
        }
    }

    /// The timeout and read-only choice (`--read-only`, or the app's mark).
    pub fn options(&self) -> ConnectOptions {
        ConnectOptions {
            timeout: self
                .timeout
                .unwrap_or(dynoscope_core::connection::DEFAULT_TIMEOUT),
            read_only: self.read_only || self.mark.read_only,
        }
    }

    /// Whether a write the gateway asks about is confirmed: on a protected connection by
    /// its name given with --confirm-name (surrounding spaces aside), elsewhere by --yes.
    pub fn confirmed(&self) -> bool {
        self.confirmed_for(self.protected_name())
    }

    /// Whether a write to a connection protected by `name` (none: not protected) is confirmed.
    pub fn confirmed_for(&self, name: Option<&str>) -> bool {
        match name {
            Some(name) => self
                .confirm_name
                .as_deref()
                .is_some_and(|typed| typed.trim() == name.trim()),
            None => self.yes,
        }
    }

    /// The name of a protected connection: `--protected NAME`, else the name the app protects
    /// it by.
    pub fn protected_name(&self) -> Option<&str> {
        (self.protected.as_deref().or(self.mark.protected.as_deref())).map(str::trim)
    }

    /// Refuse flags that name two connections at once (`--sandbox` with `--endpoint-url`): one
    /// of them would be ignored without a word, and a write would go where it was not meant to;
    /// and --confirm-name when no connection of the run is protected (`elsewhere_protected`:
    /// another one, a clone's destination, is).
    pub fn check(&self, elsewhere_protected: bool) -> Result<()> {
        let sandbox = match (&self.sandbox_db, self.sandbox) {
            (Some(_), _) => Some("--sandbox-db"),
            (None, true) => Some("--sandbox"),
            (None, false) => None,
        };
        let elsewhere = [
            ("--endpoint-url", self.endpoint_url.is_some()),
            ("--profile", self.profile.is_some()),
            ("--region", self.region.is_some()),
        ]
        .into_iter()
        .find(|(_, given)| *given);
        if let (Some(sandbox), Some((other, _))) = (sandbox, elsewhere) {
            return Err(Error::Invalid(format!(
                "{sandbox} and {other} choose different connections: give one of them"
            )));
        }
        match (self.protected_name(), &self.confirm_name) {
            (Some(""), _) => Err(Error::Invalid(
                "--protected needs the connection's name (`--protected prod`)".into(),
            )),
            (None, Some(_)) if !elsewhere_protected => Err(Error::Invalid(
                "--confirm-name confirms a write to a protected connection (--protected NAME, or \
                 one the app protects): give --protected NAME too, or --yes"
                    .into(),
            )),
            _ => Ok(()),
        }
    }

    /// Whether any connection flag was given.
    pub fn any(&self) -> bool {
        ConnectionSpec::flags_given(
            self.sandbox,
            self.sandbox_db.as_deref(),
            self.profile.as_deref(),
            self.region.as_deref(),
            self.endpoint_url.as_deref(),
        )
    }
}

/// A count from 1 typed on the command line (`--limit`, `--segments`, `--users`): `0`, `-1`
/// and `ten` are bad input, said in the specs' words.
pub(crate) fn positive(text: &str) -> Result<usize, String> {
    spec::count_from_one(text)
}

/// [`positive`] as a `u64` (`--shards`).
pub(crate) fn positive_u64(text: &str) -> Result<u64, String> {
    spec::count_from_one(text).map(|n| u64::try_from(n).unwrap_or(u64::MAX))
}

/// A whole number from 0 as a `u64` (`--item-bytes`, `--rcu`): `-1` is said to be negative.
pub(crate) fn whole_u64(text: &str) -> Result<u64, String> {
    spec::count(text).map(|n| u64::try_from(n).unwrap_or(u64::MAX))
}

/// A whole number from 0 as a `u32` (`--hours`), refused past what a `u32` holds.
pub(crate) fn whole_u32(text: &str) -> Result<u32, String> {
    u32::try_from(spec::count(text)?).map_err(|_| format!("`{text}` is too large"))
}

/// A count from 0 typed on the command line (`--preview`).
pub(crate) fn count(text: &str) -> Result<usize, String> {
    spec::count(text)
}

/// [`positive`] for a request's `Limit`, which DynamoDB takes as a 32-bit number.
pub(crate) fn page_size(text: &str) -> Result<i32, String> {
    spec::page_size(text)
}

/// `--key NAME=VALUE` texts as a key spec.
pub(crate) fn key_spec<'a>(pairs: impl IntoIterator<Item = &'a str>) -> Result<spec::KeySpec> {
    let pairs = pairs
        .into_iter()
        .map(|pair| {
            pair.split_once('=')
                .ok_or_else(|| Error::Invalid(format!("--key `{pair}` is not NAME=VALUE")))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(spec::KeySpec::new(pairs))
}

/// `command` and its subcommands, each `--table` and `--to-table` parsed by [`table_name`].
pub(crate) fn with_table_names_checked(command: clap::Command) -> clap::Command {
    let mut command = command;
    for id in ["table", "to_table"] {
        if command.get_arguments().any(|arg| arg.get_id() == id) {
            command = command.mut_arg(id, |arg| arg.value_parser(table_name));
        }
    }
    command.mut_subcommands(with_table_names_checked)
}

/// A table name as DynamoDB takes one (3 to 255 of `a-z A-Z 0-9 _ - .`), or why not.
fn table_name(text: &str) -> Result<String, String> {
    let mut problems = Vec::new();
    dynoscope_core::schema::name_problem("table", text, &mut problems);
    if problems.is_empty() {
        Ok(text.to_owned())
    } else {
        Err(problems.join("; "))
    }
}

/// A tally rule by flags, declared once: `check` and `watch` take it whole; a delete of many
/// items and an import take it to say first what the items do to the tally (children by their
/// sort-key prefix).
#[derive(Debug, Args)]
pub struct RuleFlags {
    /// The sort key of parent items.
    #[arg(long, default_value = "META")]
    pub parent_sk: String,
    /// Only partitions beginning with this are parents, e.g. `POST#` (check --all and a watch
    /// without --pk: every parent of the rule).
    #[arg(long, default_value = "")]
    pub parent_prefix: String,
    /// The tally attribute: check and watch need it (check --shards: the attribute summed on
    /// each shard); a delete of many items or an import with it says first what the items do
    /// to this tally, and the tallies they leave behind.
    #[arg(long)]
    pub tally: Option<String>,
    /// Children's sort keys begin with this, e.g. `LIKE#` (or, with --index, the index sort
    /// keys).
    #[arg(long, default_value = "")]
    pub child_prefix: String,
    /// Children are in this index, queried with the parent's id (check and watch).
    #[arg(long)]
    pub index: Option<String>,
    /// With --index: the parent attribute holding the id (default: its partition key).
    #[arg(long, requires = "index")]
    pub child_key: Option<String>,
}

impl RuleFlags {
    /// The rule the flags describe, for the rule spec to check (a missing --tally is the
    /// spec's refusal); `shards` from check --shards.
    pub fn spec(&self, shards: Option<String>) -> spec::RuleSpec {
        spec::RuleSpec {
            parent_sk: self.parent_sk.clone(),
            parent_prefix: self.parent_prefix.clone(),
            tally: self.tally.clone().unwrap_or_default(),
            child_prefix: self.child_prefix.clone(),
            index: self.index.clone(),
            child_key: self.child_key.clone(),
            shards,
        }
    }

    /// The rule of a run that writes or deletes counted children: none without --tally (then
    /// no other rule flag belongs); children are counted by their sort-key prefix.
    pub fn counted(&self) -> Result<Vec<TallyRule>> {
        let given = [
            ("--parent-sk", self.parent_sk != "META"),
            ("--parent-prefix", !self.parent_prefix.is_empty()),
            ("--child-prefix", !self.child_prefix.is_empty()),
        ];
        if self.index.is_some() {
            return Err(Error::Invalid(
                "children are counted here by their sort-key prefix (--child-prefix): --index \
                 is for check and watch; nothing was read"
                    .into(),
            ));
        }
        match &self.tally {
            Some(_) => Ok(vec![self.spec(None).tally_rule()?]),
            None => match given.iter().find(|(_, on)| *on) {
                Some((flag, _)) => Err(Error::Invalid(format!(
                    "{flag} goes with --tally (the counter the items are children of); nothing \
                     was read"
                ))),
                None => Ok(Vec::new()),
            },
        }
    }
}
