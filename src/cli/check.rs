//! `dynoscope check`: stored tallies beside counted children, from the shell, checked and summed
//! up by the same core code as the app's tally check.

use std::time::Instant;

use aws_sdk_dynamodb::Client;
use serde_json::json;

use crate::cli::args::CheckArgs;
use crate::cli::exit::Exit;
use crate::core::cancel::CancelToken;
use crate::core::error::{Error, Result};
use crate::core::limits::AtOnce;
use crate::core::number::to_dynamodb;
use crate::core::read;
use crate::core::report::capacity;
use crate::core::table::TableInfo;
use crate::core::tally::{
    self, Checked, ChildSource, ParentMatch, ParentSource, ReconcileEvent, ShardRule, TallyRule,
};

/// Run the check; exit 0 when every parent matches, 1 when any drifted.
pub async fn check(client: &Client, args: CheckArgs) -> Result<Exit> {
    let info = read::describe_table(client, &args.table).await?;
    if let Some(prefix) = &args.shards {
        return shards(client, &info, &args, prefix).await;
    }
    let rule = TallyRule {
        parents: ParentMatch {
            sort_key: args.parent_sk.clone(),
            partition_prefix: args.parent_prefix.clone(),
        },
        tally: args.tally.clone(),
        children: match &args.index {
            Some(index) => ChildSource::Index {
                index: index.clone(),
                id_attribute: args.child_key.clone(),
                sort_prefix: args.child_prefix.clone(),
            },
            None if args.child_prefix.is_empty() => {
                return Err(Error::Invalid(
                    "give --child-prefix (e.g. LIKE#) or --index".into(),
                ));
            }
            None => ChildSource::SortKeyPrefix(args.child_prefix.clone()),
        },
    };
    let started = Instant::now();
    let mut checked = Checked::default();
    match (&args.pk, args.all) {
        (Some(pk), _) => {
            let partition = info.partition.kind.parse(pk)?;
            let (check, _) = tally::check_partition(client, &info, &rule, partition).await?;
            checked.add(check);
        }
        (None, true) => {
            let mut failure = None;
            tally::reconcile(
                client,
                &info,
                &rule,
                &ParentSource::Scan,
                AtOnce::new(args.concurrency, "concurrency")?.at_once,
                &CancelToken::default(),
                |event| match event {
                    ReconcileEvent::Checked(result) => match *result {
                        Ok(check) => checked.add(check),
                        Err(e) => failure = Some(e),
                    },
                    ReconcileEvent::Found(_) => {}
                },
            )
            .await?;
            if let Some(e) = failure {
                return Err(e);
            }
        }
        (None, false) => return Err(Error::Invalid("give --pk VALUE or --all".into())),
    }
    for check in &checked.checks {
        if args.json {
            println!("{}", check.to_json());
        } else {
            println!(
                "{}\tstored {}\tcounted {}\tdrift {}",
                check.partition,
                check.stored_text(),
                check.count.count,
                check.drift_text()
            );
        }
    }
    let totals = &checked.totals;
    if args.json {
        println!(
            "{}",
            json!({"summary": {"parents": checked.checks.len(), "drifted": totals.drifted, "stored": to_dynamodb(&totals.stored), "counted": totals.counted.to_string(), "rcu": totals.rcu}})
        );
    }
    eprintln!(
        "{} · {} RCU · {} ms",
        checked.summary(),
        capacity(totals.rcu),
        started.elapsed().as_millis()
    );
    Ok(if totals.drifted == 0 {
        Exit::Done
    } else {
        Exit::Refused
    })
}

/// `--shards`: sum a sharded counter, one line per shard, the hot one marked.
async fn shards(client: &Client, info: &TableInfo, args: &CheckArgs, prefix: &str) -> Result<Exit> {
    let pk = args.pk.as_deref().unwrap_or_default();
    let rule = ShardRule {
        prefix: prefix.to_owned(),
        attribute: args.tally.clone(),
    };
    let total = tally::sum_shards(client, info, info.partition.kind.parse(pk)?, &rule).await?;
    for (i, (sk, value)) in total.shards.iter().enumerate() {
        let hot = total.hot == Some(i);
        if args.json {
            println!(
                "{}",
                json!({"shard": sk, "value": value.as_ref().map(to_dynamodb), "hot": hot})
            );
        } else {
            let shown = value.as_ref().map_or("(missing)".to_owned(), to_dynamodb);
            println!("{sk}\t{shown}{}", if hot { "  <- hot" } else { "" });
        }
    }
    if args.json {
        println!(
            "{}",
            json!({"summary": {"total": to_dynamodb(&total.total), "shards": total.shards.len()}})
        );
    }
    eprintln!("{}", total.summary());
    Ok(Exit::Done)
}
