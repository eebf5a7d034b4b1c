//! Reconcile straight from an export in S3: the export's data objects found (by its manifest,
//! or under its prefix), each streamed and gunzipped on the way — one at a time, no temporary
//! copy — through the same one pass as an export's files here, on a thread of its own.

use crate::cancel::CancelToken;
use crate::error::{Error, Result};
use crate::table::TableInfo;
use crate::tally::one_pass::OnePass;
use crate::tally::plan::export_method;
use crate::tally::{ParentCheck, TallyRule};
use crate::transfer::{
    Format, S3Location, S3Object, StreamProgress, TextSource, data_objects, stream_sources,
};

/// What a reconcile from S3 read: every parent's check (`None` when cancelled), how much was
/// read, and the objects it read.
pub type S3Checked = (
    Option<Vec<Result<ParentCheck>>>,
    StreamProgress,
    Vec<String>,
);

/// Reconcile `rule` from the export of table `info` at `at` (S3 export format, gzipped or
/// not), read with `client`: no DynamoDB request is sent (`info` gives the keys).
pub async fn check_s3_export(
    info: &TableInfo,
    rule: &TallyRule,
    client: &aws_sdk_s3::Client,
    at: &S3Location,
    cancel: &CancelToken,
) -> Result<S3Checked> {
    let keys = data_objects(client, at).await?;
    let runtime = tokio::runtime::Handle::current();
    let sources: Vec<Box<dyn TextSource>> = (keys.iter())
        .map(|key| {
            Box::new(S3Object {
                client: client.clone(),
                bucket: at.bucket.clone(),
                key: key.clone(),
                runtime: runtime.clone(),
            }) as Box<dyn TextSource>
        })
        .collect();
    let names: Vec<String> = sources.iter().map(|s| s.name()).collect();
    let (owned, rule, stop) = (info.clone(), rule.clone(), cancel.clone());
    // The objects are read by blocking calls (each body bridged to a `Read`): off the runtime.
    let (pass, read) = tokio::task::spawn_blocking(move || -> Result<_> {
        let mut pass = OnePass::new(&owned, &rule)?;
        let wanted = pass.wanted();
        let on = (|item| pass.add(item), |_| {});
        let read = stream_sources(sources, Format::S3Export, &wanted, &stop, on)?;
        Ok(((!stop.is_cancelled()).then_some(pass), read))
    })
    .await
    .map_err(|e| Error::TaskDied {
        op: "reading the export",
        detail: e.to_string(),
    })??;
    let method = export_method(&names, read.items);
    Ok((pass.map(|pass| pass.finish(info, &method)), read, names))
}
