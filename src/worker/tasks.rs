//! The async work behind the commands.

use std::sync::{Arc, RwLock};

use aws_sdk_dynamodb::types::AttributeValue;

use crate::core::connection::{self, ConnectionSpec};
use crate::core::error::{Error, Result};
use crate::core::export::{self, ExportFormat};
use crate::core::ops::{self, BrowseRequest};
use crate::core::table::TableInfo;
use crate::core::tally::TallyRule;
use crate::core::tally_ops::{self, ParentCheck};
use crate::core::value::Item;

use crate::worker::Current;
use crate::worker::protocol::*;

pub(super) fn panic_text(err: tokio::task::JoinError) -> String {
    if !err.is_panic() {
        return err.to_string();
    }
    let payload = err.into_panic();
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_owned())
}

pub(super) async fn connect_and_list(
    current: Arc<RwLock<Option<Current>>>,
    generation: u64,
    spec: ConnectionSpec,
) -> Vec<Event> {
    let connection = match connection::connect(spec).await {
        Ok(c) => c,
        Err(error) => {
            return vec![Event::Connected {
                generation,
                result: Err(error),
            }];
        }
    };
    #[cfg(feature = "sandbox")]
    let seeded = connection
        .sandbox
        .as_ref()
        .and_then(|s| s.seeded().map(|r| (r.items, r.elapsed_ms)));
    #[cfg(not(feature = "sandbox"))]
    let seeded = None;
    let info = ConnectedInfo {
        label: connection.label(),
        spec: connection.spec.clone(),
        seeded,
    };
    let client = connection.client.clone();
    if let Ok(mut slot) = current.write() {
        // A newer attempt that already finished wins over this one.
        if slot.as_ref().is_none_or(|c| c.generation < generation) {
            *slot = Some(Current {
                generation,
                connection,
            });
        }
    }
    let tables = ops::list_tables(&client).await;
    vec![
        Event::Connected {
            generation,
            result: Ok(info),
        },
        Event::Tables {
            generation,
            result: tables,
        },
    ]
}

pub(super) async fn browse(
    client: &aws_sdk_dynamodb::Client,
    job: JobId,
    request: Box<BrowseRequest>,
    mut start_key: Option<Item>,
    all: Option<CancelToken>,
    emit: impl Fn(Event),
) -> Event {
    loop {
        let fetch = ops::fetch_page(client, &request, start_key.take());
        let page = match &all {
            Some(cancel) => {
                if cancel.is_cancelled() {
                    return done(job, true, None);
                }
                tokio::select! {
                    page = fetch => page,
                    () = cancel.cancelled() => return done(job, true, None),
                }
            }
            None => fetch.await,
        };
        let page = match page {
            Ok(page) => page,
            Err(error) => return done(job, false, Some(error)),
        };
        let next = page.last_key.clone();
        emit(Event::Page { job, page });
        match (next, &all) {
            (Some(next), Some(_)) => start_key = Some(next),
            _ => return done(job, false, None),
        }
    }
}

fn done(job: JobId, cancelled: bool, error: Option<Error>) -> Event {
    Event::BrowseDone {
        job,
        cancelled,
        error,
    }
}

pub(super) fn write_export(
    path: &std::path::Path,
    items: &[Item],
    key_names: &[String],
    format: ExportFormat,
) -> Result<usize> {
    let file_error = |action: &'static str, e: std::io::Error| Error::File {
        action,
        path: path.display().to_string(),
        detail: e.to_string(),
    };
    let file = std::fs::File::create(path).map_err(|e| file_error("creating", e))?;
    let mut out = std::io::BufWriter::new(file);
    export::write_items(items, key_names, format, &mut out).map_err(|e| file_error("writing", e))
}

pub(super) async fn check_partition(
    client: &aws_sdk_dynamodb::Client,
    info: &TableInfo,
    rule: &TallyRule,
    partition: AttributeValue,
) -> Result<(ParentCheck, Item)> {
    let shown = crate::core::value::cell_text(&partition);
    let parent = tally_ops::load_parent(client, info, rule, partition)
        .await?
        .ok_or_else(|| {
            Error::Invalid(format!(
                "there is no parent item {shown} / {} in {}",
                rule.parents.sort_key, info.name
            ))
        })?;
    let check = tally_ops::check_parent(client, info, rule, &parent).await?;
    Ok((check, parent))
}
