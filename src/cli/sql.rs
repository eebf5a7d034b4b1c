//! `dynoscope sql`: read tables or partitions through the one reader into an SQL session, run
//! the SQL there, print the rows as JSON objects, one per line.

use aws_sdk_dynamodb::Client;

use crate::cli::args::{ConnectionFlags, SqlArgs};
use crate::cli::exit::Exit;
use crate::cli::interrupt::unless_stopped;
use crate::cli::output::Output;
use crate::core::cancel::CancelToken;
use crate::core::connection::{self, ConnectionSpec};
use crate::core::error::{Error, Result};
use crate::core::read;
use crate::core::report::read_summary;
use crate::core::sql::{self, SqlSession};
use crate::core::value;

/// One `--load NAME=TABLE[:PARTITION]`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Load {
    name: String,
    table: String,
    partition: Option<String>,
}

impl Load {
    fn parse(text: &str) -> Result<Self> {
        let (name, source) = text.split_once('=').ok_or_else(|| {
            Error::Invalid(format!(
                "--load {text}: give NAME=TABLE or NAME=TABLE:PARTITION"
            ))
        })?;
        sql::check_table_name(name)?;
        let (table, partition) = match source.split_once(':') {
            Some((table, partition)) => (table, Some(partition.to_owned())),
            None => (source, None),
        };
        if table.is_empty() {
            return Err(Error::Invalid(format!(
                "--load {text}: the table is missing"
            )));
        }
        Ok(Self {
            name: name.to_owned(),
            table: table.to_owned(),
            partition,
        })
    }
}

/// Load every `--load`, run the SQL, print the rows; the notes and a summary go to stderr.
pub async fn sql(
    spec: ConnectionSpec,
    flags: &ConnectionFlags,
    args: SqlArgs,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let loads = args
        .loads
        .iter()
        .map(|l| Load::parse(l))
        .collect::<Result<Vec<_>>>()?;
    for (i, load) in loads.iter().enumerate() {
        if loads[..i]
            .iter()
            .any(|l| l.name.eq_ignore_ascii_case(&load.name))
        {
            return Err(Error::Invalid(format!(
                "--load names the SQL table `{}` twice",
                load.name
            )));
        }
    }
    let mut session = SqlSession::new()?;
    // Ctrl-C stops a load or a statement under way (SQLite asks every few thousand steps).
    session.stop_on(stop.clone());
    // Every name is taken (empty) before anything is read: a name SQLite refuses fails at once.
    for load in &loads {
        session.load(&load.name, &[], [])?;
    }
    // Without a --load there is nothing to read, so nothing to connect to.
    if !loads.is_empty() {
        let connection = unless_stopped(
            stop,
            "connect",
            connection::connect_with(spec, flags.options()),
        )
        .await?;
        for load in &loads {
            let note = unless_stopped(
                stop,
                "Scan",
                load_one(&connection.client, &mut session, load),
            )
            .await?;
            out.note(note);
        }
    }
    let rows = session.query_bounded(&args.sql, args.max_rows)?;
    for row in &rows.rows {
        if !out.open() {
            break;
        }
        out.line(value::item_to_plain_json(row, &rows.columns, false));
    }
    out.flush();
    if let Some(error) = out.failure() {
        return Err(error);
    }
    for note in &rows.notes {
        out.note(format_args!("note: {note}"));
    }
    out.note(rows.summary());
    Ok(Exit::Done)
}

/// Read one table or partition through the one reader and load it into `session`; what was
/// loaded, in words.
async fn load_one(client: &Client, session: &mut SqlSession, load: &Load) -> Result<String> {
    let info = read::describe_table(client, &load.table).await?;
    let read = read::read_table(client, &info, load.partition.as_deref()).await?;
    let loaded = session.load_rows(&load.name, &info.key_names(), &read.rows)?;
    Ok(format!(
        "{} ({} of {}: {})",
        loaded.summary(),
        read.request.op(),
        load.table,
        read_summary(read.rows.len(), read.pages, read.rcu)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_parse_as_name_table_and_partition() {
        assert_eq!(
            Load::parse("likes=Social:POST#a91f").unwrap(),
            Load {
                name: "likes".into(),
                table: "Social".into(),
                partition: Some("POST#a91f".into())
            }
        );
        assert_eq!(Load::parse("s=Social").unwrap().partition, None);
        assert_eq!(
            Load::parse("s=T:a:b").unwrap().partition.as_deref(),
            Some("a:b")
        );
        for bad in ["Social", "=Social", "a-b=Social", "s=", "s=:p"] {
            assert!(Load::parse(bad).is_err(), "{bad}");
        }
    }
}
