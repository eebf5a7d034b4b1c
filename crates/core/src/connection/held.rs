//! What a connection holds besides its clients: the embedded sandbox, when it is one.

use std::path::PathBuf;

use crate::connection::{ConnectOptions, Connection, ConnectionSpec};
#[cfg(feature = "sandbox")]
use crate::connection::{DEFAULT_LOCAL_REGION, Naming, ReadOnly, endpoint_clients_with, prices};
#[cfg(not(feature = "sandbox"))]
use crate::error::Error;
use crate::error::Result;

impl Connection {
    /// A CloudWatch client of the connection's configuration (its region, credentials and
    /// endpoint: an endpoint given for DynamoDB is used for CloudWatch too).
    pub fn cloudwatch(&self) -> aws_sdk_cloudwatch::Client {
        aws_sdk_cloudwatch::Client::new(&self.sdk)
    }

    /// An S3 client of the connection's configuration (region, credentials); against an
    /// endpoint URL, that endpoint with path-style addressing (as moto and other stand-ins
    /// serve S3 on the same port).
    pub fn s3(&self) -> aws_sdk_s3::Client {
        let mut config = aws_sdk_s3::config::Builder::from(&self.sdk);
        if self.sdk.endpoint_url().is_some() {
            config = config.force_path_style(true);
        }
        aws_sdk_s3::Client::from_conf(config.build())
    }

    /// An Athena client of the connection's configuration (region, credentials, and an
    /// endpoint URL when given: moto serves Athena on its one port).
    pub fn athena(&self) -> aws_sdk_athena::Client {
        aws_sdk_athena::Client::new(&self.sdk)
    }

    /// For a sandbox seeded when it started: how many items, how fast.
    pub fn seeded_note(&self) -> Option<String> {
        #[cfg(feature = "sandbox")]
        if let Some(report) = self.sandbox.as_ref().and_then(|s| s.seeded()) {
            return Some(format!(
                "Sandbox seeded with {} items in {} ms",
                report.items, report.elapsed_ms
            ));
        }
        None
    }

    /// Whether this connection holds an embedded sandbox.
    pub(crate) fn has_sandbox(&self) -> bool {
        #[cfg(feature = "sandbox")]
        return self.sandbox.is_some();
        #[cfg(not(feature = "sandbox"))]
        return false;
    }
}

#[cfg(feature = "sandbox")]
pub(super) async fn connect_sandbox(
    spec: ConnectionSpec,
    db_path: Option<PathBuf>,
    options: ConnectOptions,
) -> Result<Connection> {
    let sandbox = crate::sandbox::Sandbox::start(db_path.as_deref(), 0).await?;
    let url = sandbox.endpoint().to_owned();
    let answers = super::LastAnswer::default();
    let (client, streams, pricing, sdk) =
        endpoint_clients_with(&url, DEFAULT_LOCAL_REGION, options.timeout, &answers).await;
    Ok(Connection {
        client,
        streams,
        answers,
        sdk,
        pricing,
        target: url,
        region: DEFAULT_LOCAL_REGION.to_owned(),
        spec,
        read_only: ReadOnly::new(options.read_only),
        naming: Naming::default(),
        throttle_wait: None,
        prices: prices::Prices::load(),
        timeout: options.timeout,
        sandbox: Some(std::sync::Arc::new(sandbox)),
    })
}

#[cfg(not(feature = "sandbox"))]
pub(super) async fn connect_sandbox(
    _spec: ConnectionSpec,
    _db_path: Option<PathBuf>,
    _options: ConnectOptions,
) -> Result<Connection> {
    Err(Error::Connect(
        "this build has no sandbox (built without the `sandbox` feature)".into(),
    ))
}
