//! `dynoscope check`: stored tallies beside counted children, from the shell.

use std::process::ExitCode;
use std::time::Instant;

use aws_sdk_dynamodb::Client;
use bigdecimal::BigDecimal;
use serde_json::json;

use crate::cli::args::CheckArgs;
use crate::core::counter::to_dynamodb;
use crate::core::error::{Error, Result};
use crate::core::ops;
use crate::core::tally::{ChildSource, ParentMatch, ShardRule, TallyRule};
use crate::core::tally_ops::{self, ParentCheck, ParentSource};

/// Run the check; exit 0 when every parent matches, 1 when any drifted.
pub async fn check(client: &Client, args: CheckArgs) -> Result<ExitCode> {
    let info = ops::describe_table(client, &args.table).await?;
    if let Some(prefix) = &args.shards {
        let pk = args.pk.as_deref().unwrap_or_default();
        let rule = ShardRule {
            prefix: prefix.clone(),
            attribute: args.tally.clone(),
        };
        let total =
            tally_ops::sum_shards(client, &info, info.partition.kind.parse(pk)?, &rule).await?;
        for (i, (sk, value)) in total.shards.iter().enumerate() {
            let hot = if total.hot == Some(i) { "  <- hot" } else { "" };
            let shown = value.as_ref().map_or("(missing)".to_owned(), to_dynamodb);
            if args.json {
                println!(
                    "{}",
                    json!({"shard": sk, "value": value.as_ref().map(to_dynamodb), "hot": total.hot == Some(i)})
                );
            } else {
                println!("{sk}\t{shown}{hot}");
            }
        }
        let summary = format!(
            "total {} over {} shards · {} pages · {} RCU",
            to_dynamodb(&total.total),
            total.shards.len(),
            total.pages,
            total.consumed_rcu
        );
        if args.json {
            println!(
                "{}",
                json!({"summary": {"total": to_dynamodb(&total.total), "shards": total.shards.len()}})
            );
        }
        eprintln!("{summary}");
        return Ok(ExitCode::SUCCESS);
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
    let mut checks: Vec<ParentCheck> = Vec::new();
    match (&args.pk, args.all) {
        (Some(pk), _) => {
            let parent =
                tally_ops::load_parent(client, &info, &rule, info.partition.kind.parse(pk)?)
                    .await?
                    .ok_or_else(|| {
                        Error::Invalid(format!("no parent item {pk} / {}", args.parent_sk))
                    })?;
            checks.push(tally_ops::check_parent(client, &info, &rule, &parent).await?);
        }
        (None, true) => {
            let parents =
                tally_ops::find_parents(client, &info, &rule, &ParentSource::Scan).await?;
            let mut failure = None;
            tally_ops::reconcile(
                client,
                &info,
                &rule,
                parents,
                usize::from(args.concurrency),
                || false,
                |r| match r {
                    Ok(check) => checks.push(check),
                    Err(e) => failure = Some(e),
                },
            )
            .await;
            if let Some(e) = failure {
                return Err(e);
            }
        }
        (None, false) => return Err(Error::Invalid("give --pk VALUE or --all".into())),
    }
    checks.sort_by(|a, b| {
        b.severity()
            .cmp(&a.severity())
            .then(a.partition.cmp(&b.partition))
    });
    for check in &checks {
        if args.json {
            println!(
                "{}",
                json!({
                    "pk": check.partition,
                    "stored": check.stored,
                    "counted": check.count.count,
                    "drift": check.drift.as_ref().map(to_dynamodb),
                    "pages": check.count.pages,
                    "rcu": check.count.consumed_rcu,
                })
            );
        } else {
            println!(
                "{}\tstored {}\tcounted {}\tdrift {}",
                check.partition,
                check.stored.as_deref().unwrap_or("(missing)"),
                check.count.count,
                check.drift_text()
            );
        }
    }
    let drifted = checks.iter().filter(|c| c.drifted()).count();
    let stored: BigDecimal = checks
        .iter()
        .filter_map(|c| {
            c.stored
                .as_deref()
                .and_then(|s| crate::core::number::parse(s).ok())
        })
        .sum();
    let counted: u64 = checks.iter().map(|c| c.count.count).sum();
    let rcu: f64 = checks.iter().map(|c| c.count.consumed_rcu).sum();
    let summary = format!(
        "{} parents checked · {drifted} drifted · stored total {} · counted total {counted} · {rcu} RCU · {} ms",
        checks.len(),
        to_dynamodb(&stored),
        started.elapsed().as_millis()
    );
    if args.json {
        println!(
            "{}",
            json!({"summary": {"parents": checks.len(), "drifted": drifted, "stored": to_dynamodb(&stored), "counted": counted, "rcu": rcu}})
        );
    }
    eprintln!("{summary}");
    Ok(if drifted == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
