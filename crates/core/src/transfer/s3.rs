//! An export's files read where DynamoDB wrote them: `s3://BUCKET/PREFIX`, the export's folder
//! (`…/AWSDynamoDB/<ExportId>/`, whose `manifest-files.json` names its data files) or a folder
//! of data files. Each object is streamed — gunzipped on the way, one at a time, never copied to
//! disk — through the same line reader as a file here.

use std::io::BufRead;

use aws_sdk_s3::Client;
use aws_sdk_s3::error::ProvideErrorMetadata;

use crate::cancel::{CancelToken, unless_stopped};
use crate::error::{Error, Result};
use crate::transfer::stream::TextSource;
use crate::transfer::{Fingerprint, export_files, gunzipped};

/// The largest manifest read: 64 MiB, some hundred thousand data files.
pub(crate) const MAX_MANIFEST_BYTES: u64 = 64 << 20;

/// Where in S3: a bucket and a key prefix (no leading or trailing `/`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct S3Location {
    /// The bucket.
    pub bucket: String,
    /// The key prefix, without its trailing `/`.
    pub prefix: String,
}

impl S3Location {
    /// `s3://bucket/prefix` read; `None` for text that is not an `s3://` address.
    pub fn parse(text: &str) -> Result<Option<Self>> {
        let Some(rest) = text.strip_prefix("s3://") else {
            return Ok(None);
        };
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        let valid = (3..=63).contains(&bucket.len())
            && (bucket.bytes())
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-');
        if !valid {
            return Err(Error::Invalid(format!(
                "{text}: `{bucket}` is not a bucket name (3 to 63 lowercase letters, digits, dots \
                 and hyphens)"
            )));
        }
        Ok(Some(Self {
            bucket: bucket.to_owned(),
            prefix: prefix.trim_matches('/').to_owned(),
        }))
    }

    fn key(&self, name: &str) -> String {
        if self.prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{}/{name}", self.prefix)
        }
    }
}

impl std::fmt::Display for S3Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "s3://{}/{}", self.bucket, self.prefix)
    }
}

/// What S3 refused, in its own words: `GetObject s3://b/k: NoSuchBucket: The specified bucket
/// does not exist`; a failure without S3's words (no answer) with its chain of causes.
fn s3_error<E, R>(op: &'static str, at: &str, e: &aws_sdk_s3::error::SdkError<E, R>) -> Error
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    R: std::fmt::Debug + Send + Sync + 'static,
{
    let text = match (e.code(), e.message()) {
        (Some(code), Some(message)) => format!("{code}: {message}"),
        (Some(code), None) => code.to_owned(),
        _ => aws_sdk_s3::error::DisplayErrorContext(e).to_string(),
    };
    Error::Invalid(format!("{op} {at}: {text}"))
}

/// The export's data objects at `at`: the ones its `manifest-files.json` names when the prefix
/// holds one, else every `.json` and `.json.gz` object under it (manifests left out).
pub async fn data_objects(client: &Client, at: &S3Location) -> Result<Vec<String>> {
    let manifest = format!("s3://{}/{}", at.bucket, at.key("manifest-files.json"));
    match manifest_text(client, at, "manifest-files.json").await? {
        Some(text) => manifest_keys(&text, &manifest),
        None => listed(client, at).await,
    }
}

/// The text of the manifest `name` beside the export at `at` (at most 64 MiB); `None` when
/// there is none.
pub async fn manifest_text(client: &Client, at: &S3Location, name: &str) -> Result<Option<String>> {
    let key = at.key(name);
    let place = format!("s3://{}/{key}", at.bucket);
    let got = client
        .get_object()
        .bucket(&at.bucket)
        .key(&key)
        .send()
        .await;
    let out = match got {
        Ok(out) => out,
        Err(e)
            if e.as_service_error()
                .is_some_and(aws_sdk_s3::operation::get_object::GetObjectError::is_no_such_key) =>
        {
            return Ok(None);
        }
        Err(e) => return Err(s3_error("GetObject", &place, &e)),
    };
    if u64::try_from(out.content_length().unwrap_or(0)).unwrap_or(0) > MAX_MANIFEST_BYTES {
        return Err(Error::Invalid(format!(
            "{place} is over 64 MiB: not an export's manifest"
        )));
    }
    let body =
        (out.body.collect().await).map_err(|e| Error::Invalid(format!("reading {place}: {e}")))?;
    Ok(Some(
        String::from_utf8_lossy(&body.into_bytes()).into_owned(),
    ))
}

/// The folders directly under `at` (`…/AWSDynamoDB/` holds one per export), each as its full
/// key prefix with its trailing `/`, at most `most` of them.
pub async fn folders(client: &Client, at: &S3Location, most: usize) -> Result<Vec<String>> {
    let mut found = Vec::new();
    let mut pages = client
        .list_objects_v2()
        .bucket(&at.bucket)
        .prefix(at.key(""))
        .delimiter("/")
        .into_paginator()
        .send();
    while let Some(page) = pages.next().await {
        let page = page.map_err(|e| s3_error("ListObjectsV2", &at.to_string(), &e))?;
        found.extend(
            page.common_prefixes()
                .iter()
                .filter_map(|p| p.prefix().map(str::to_owned)),
        );
        if found.len() >= most {
            found.truncate(most);
            break;
        }
    }
    Ok(found)
}

/// The `dataFileS3Key` of each line of a manifest (`text`, at `manifest`); a key named twice is
/// refused (its items would be read, and counted, twice).
pub(crate) fn manifest_keys(text: &str, manifest: &str) -> Result<Vec<String>> {
    let mut keys = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let entry: serde_json::Value = serde_json::from_str(line).map_err(|_| {
            Error::Invalid(format!("{manifest}, line {}: not a JSON object", n + 1))
        })?;
        let key = (entry.get("dataFileS3Key").and_then(|k| k.as_str())).ok_or_else(|| {
            Error::Invalid(format!("{manifest}, line {}: no dataFileS3Key", n + 1))
        })?;
        if !seen.insert(key.to_owned()) {
            return Err(Error::Invalid(format!(
                "{manifest}, line {}: it names {key} again: a manifest names each data object \
                 once, and read twice its items would be counted twice",
                n + 1
            )));
        }
        keys.push(key.to_owned());
    }
    Ok(keys)
}

/// Every data object under the prefix, page after page.
async fn listed(client: &Client, at: &S3Location) -> Result<Vec<String>> {
    let mut keys = Vec::new();
    let prefix = if at.prefix.is_empty() {
        String::new()
    } else {
        format!("{}/", at.prefix)
    };
    let mut pages = client
        .list_objects_v2()
        .bucket(&at.bucket)
        .prefix(&prefix)
        .into_paginator()
        .send();
    while let Some(page) = pages.next().await {
        let page = page.map_err(|e| s3_error("ListObjectsV2", &at.to_string(), &e))?;
        #[expect(
            clippy::case_sensitive_file_extension_comparisons,
            reason = "DynamoDB names an export's objects in lowercase; no other case is one of them"
        )]
        for object in page.contents() {
            let key = object.key().unwrap_or_default();
            let name = key.rsplit('/').next().unwrap_or_default();
            // An export's `data/` folder holds only its data files, whatever their suffix
            // (moto's are `<uuid>.gz`).
            let in_data = key.contains("/data/") && name.ends_with(".gz");
            if (name.ends_with(".json.gz") || name.ends_with(".json") || in_data)
                && !name.starts_with("manifest-")
            {
                keys.push(key.to_owned());
            }
        }
    }
    if keys.is_empty() {
        return Err(Error::Invalid(format!(
            "{at} holds no .json or .json.gz objects (an export keeps its items in data/)"
        )));
    }
    keys.sort();
    Ok(keys)
}

/// One object, opened by the export reader's thread: its body streamed, never held whole.
#[derive(Clone)]
pub(crate) struct S3Object {
    pub client: Client,
    pub bucket: String,
    pub key: String,
    pub runtime: tokio::runtime::Handle,
    /// Read only while its ETag is this one (S3 refuses the read otherwise: `If-Match`).
    pub if_match: Option<String>,
    /// The run's stop: a request or a body stalled on the network is given up on at once.
    pub stop: CancelToken,
}

impl TextSource for S3Object {
    fn name(&self) -> String {
        format!("s3://{}/{}", self.bucket, self.key)
    }

    fn open(&self) -> Result<(Box<dyn BufRead + Send>, &'static str)> {
        let request = (self.client.get_object().bucket(&self.bucket).key(&self.key))
            .set_if_match(self.if_match.clone());
        let sent =
            async { (request.send().await).map_err(|e| s3_error("GetObject", &self.name(), &e)) };
        let out = self
            .runtime
            .block_on(unless_stopped(&self.stop, "GetObject", sent))?;
        let body = tokio_util::io::SyncIoBridge::new_with_handle(
            UntilStopped::new(out.body.into_async_read(), self.stop.clone()),
            self.runtime.clone(),
        );
        gunzipped(body).map_err(|e| Error::Invalid(format!("reading {}: {e}", self.name())))
    }

    fn fingerprint(&self) -> Result<Fingerprint> {
        let request = self
            .client
            .head_object()
            .bucket(&self.bucket)
            .key(&self.key);
        let sent =
            async { (request.send().await).map_err(|e| s3_error("HeadObject", &self.name(), &e)) };
        let out = self
            .runtime
            .block_on(unless_stopped(&self.stop, "HeadObject", sent))?;
        Ok(Fingerprint {
            size_bytes: u64::try_from(out.content_length().unwrap_or(0)).unwrap_or(0),
            modified: (out.last_modified()).and_then(|t| std::time::SystemTime::try_from(*t).ok()),
            etag: out.e_tag().map(str::to_owned),
        })
    }

    fn pinned(&self, fingerprint: &Fingerprint) -> Option<Box<dyn TextSource>> {
        Some(Box::new(Self {
            if_match: fingerprint.etag.clone(),
            ..self.clone()
        }))
    }

    fn stopped_by(&self, stop: &CancelToken) -> Option<Box<dyn TextSource>> {
        Some(Box::new(Self {
            stop: stop.clone(),
            ..self.clone()
        }))
    }
}

/// A body that fails once the run is stopped, even while it waits on a server that has
/// stopped sending: the thread reading it is let go at once.
struct UntilStopped<R> {
    body: R,
    stopped: std::pin::Pin<Box<dyn Future<Output = ()> + Send>>,
}

impl<R> UntilStopped<R> {
    fn new(body: R, stop: CancelToken) -> Self {
        Self {
            body,
            stopped: Box::pin(async move { stop.cancelled().await }),
        }
    }
}

impl<R: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for UntilStopped<R> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        if self.stopped.as_mut().poll(cx).is_ready() {
            // Not `Interrupted`, which a reader would try again.
            return std::task::Poll::Ready(Err(std::io::Error::other("stopped")));
        }
        std::pin::Pin::new(&mut self.body).poll_read(cx, buf)
    }
}

/// Every data object of the export at `at`, as sources the export reader opens one at a time;
/// each given up on when `stop` is cancelled.
pub(crate) async fn object_sources(
    client: &Client,
    at: &S3Location,
    stop: &CancelToken,
) -> Result<Vec<Box<dyn TextSource>>> {
    let runtime = tokio::runtime::Handle::current();
    let keys = data_objects(client, at).await?;
    Ok(keys
        .into_iter()
        .map(|key| {
            Box::new(S3Object {
                client: client.clone(),
                bucket: at.bucket.clone(),
                key,
                runtime: runtime.clone(),
                if_match: None,
                stop: stop.clone(),
            }) as Box<dyn TextSource>
        })
        .collect())
}

/// An export's data, wherever it is: its sources, their names, what was skipped, and where.
pub(crate) struct ExportSources {
    pub sources: Vec<Box<dyn TextSource>>,
    pub names: Vec<String>,
    pub skipped: Vec<String>,
    /// In S3 (objects), or on this machine (files).
    pub in_s3: bool,
}

/// The data of the export at `location`: `s3://…` objects (read with `s3`), or the files
/// [`export_files`] finds here; an object's read given up on when `stop` is cancelled.
pub(crate) async fn export_sources(
    s3: &Client,
    location: &str,
    stop: &CancelToken,
) -> Result<ExportSources> {
    let (sources, skipped, in_s3) = if let Some(at) = S3Location::parse(location)? {
        (object_sources(s3, &at, stop).await?, Vec::new(), true)
    } else {
        let data = export_files(std::path::Path::new(location))?;
        let files = (data.files.into_iter())
            .map(|f| Box::new(f) as Box<dyn TextSource>)
            .collect();
        (files, data.skipped, false)
    };
    let names = sources.iter().map(|s| s.name()).collect();
    Ok(ExportSources {
        sources,
        names,
        skipped,
        in_s3,
    })
}
