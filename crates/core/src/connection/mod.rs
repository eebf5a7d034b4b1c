//! Where dynoscope connects: AWS (profiles, SSO, regions, as the AWS CLI resolves them), any
//! DynamoDB-compatible endpoint, or the embedded sandbox. One SDK `Client` per connection.

mod answers;
mod client;
mod held;
mod marks;
mod named;
mod open;
pub(crate) mod prices;
mod profiles;
mod reader;
mod table_on;

use std::path::{Path, PathBuf};
use std::time::Duration;

use aws_config::Region;
use aws_sdk_dynamodb::Client;

use crate::error::{Error, Result};

pub use answers::LastAnswer;
pub(crate) use answers::watched_clients;
pub(crate) use client::is_loopback;
pub use client::{ClientSetup, REGIONS};
pub(crate) use client::{base_loader, endpoint_clients_with, pricing_client};
use client::{local_credentials, signed_by};
use held::connect_sandbox;
pub use marks::{MARKS_FILE, Mark, Marks};
pub(crate) use named::Naming;
pub use named::{COLOURS, SavedConnection, SavedConnections};
pub(crate) use open::ReadOnly;
pub use open::{ConnectOptions, DEFAULT_TIMEOUT, Opened, open};
pub use profiles::{Profiles, read_profiles, read_profiles_from};
pub(crate) use profiles::{aws_configuration_present, aws_files};
pub use reader::Reader;
pub use table_on::TableOn;

/// The region used when an endpoint or the sandbox is given none.
pub(crate) const DEFAULT_LOCAL_REGION: &str = "us-east-1";

/// What to connect to. Holds no secrets, so it is safe to remember between runs.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ConnectionSpec {
    /// The embedded dynoxide engine, seeded with sample data.
    Sandbox {
        /// Keep the data in this file (seeded only when the file is new); in memory when `None`.
        db_path: Option<PathBuf>,
    },
    /// AWS through the default credential chain, like the AWS CLI.
    Aws {
        /// A named profile (`--profile`); the default chain when `None`.
        profile: Option<String>,
        /// A region (`--region`); the profile's or environment's when `None`.
        region: Option<String>,
    },
    /// A DynamoDB-compatible endpoint (DynamoDB Local, LocalStack, moto, a dynoscope sandbox).
    Endpoint {
        /// The endpoint URL (`--endpoint-url`).
        url: String,
        /// A named profile; for loopback endpoints without one, dummy credentials are used.
        profile: Option<String>,
        /// A region; `us-east-1` when `None`.
        region: Option<String>,
    },
}

impl ConnectionSpec {
    /// Choose a connection from AWS CLI style flags. With none of them, AWS when any AWS
    /// configuration is found, otherwise the sandbox.
    pub fn from_flags(
        sandbox: bool,
        sandbox_db: Option<PathBuf>,
        profile: Option<String>,
        region: Option<String>,
        endpoint_url: Option<String>,
    ) -> Self {
        if sandbox || sandbox_db.is_some() {
            return Self::Sandbox {
                db_path: sandbox_db,
            };
        }
        if let Some(url) = endpoint_url {
            return Self::Endpoint {
                url: client::without_userinfo(&url),
                profile,
                region,
            };
        }
        if profile.is_some() || region.is_some() || aws_configuration_present() {
            return Self::Aws { profile, region };
        }
        Self::Sandbox { db_path: None }
    }

    /// The same place with no user information in an endpoint's URL (never used: requests are
    /// signed), so that no password is printed or stored wherever the place is said.
    #[must_use]
    pub fn without_userinfo(self) -> Self {
        match self {
            Self::Endpoint {
                url,
                profile,
                region,
            } => Self::Endpoint {
                url: client::without_userinfo(&url),
                profile,
                region,
            },
            other => other,
        }
    }

    /// Whether any connection flag was given (so a remembered connection should not be used).
    pub fn flags_given(
        sandbox: bool,
        sandbox_db: Option<&Path>,
        profile: Option<&str>,
        region: Option<&str>,
        endpoint_url: Option<&str>,
    ) -> bool {
        sandbox
            || sandbox_db.is_some()
            || profile.is_some()
            || region.is_some()
            || endpoint_url.is_some()
    }

    /// What identifies this connection for things saved per connection (counter rules): the
    /// choices that say where requests go, spelled out the same way in every version, unlike
    /// [`label`](Self::label), which is worded for people and may change.
    pub fn identity(&self) -> ConnectionId {
        let opt = |v: &Option<String>| v.clone().unwrap_or_default();
        ConnectionId(match self {
            Self::Sandbox { db_path: None } => "sandbox:memory".to_owned(),
            Self::Sandbox { db_path: Some(p) } => format!("sandbox:file={}", p.display()),
            Self::Aws { profile, region } => {
                format!("aws:profile={};region={}", opt(profile), opt(region))
            }
            Self::Endpoint {
                url,
                profile,
                region,
            } => format!(
                "endpoint:url={url};profile={};region={}",
                opt(profile),
                opt(region)
            ),
        })
    }

    /// A short description for the UI, with the sensitive part (endpoint) last.
    pub fn label(&self) -> String {
        match self {
            Self::Sandbox { db_path: None } => "Sandbox (in memory)".to_owned(),
            Self::Sandbox { db_path: Some(p) } => format!("Sandbox · {}", p.display()),
            Self::Aws { profile, region } => format!(
                "AWS · profile {} · {}",
                profile.as_deref().unwrap_or("(default chain)"),
                region.as_deref().unwrap_or("(profile region)")
            ),
            Self::Endpoint {
                url,
                profile,
                region,
            } => format!(
                "Endpoint · {}{} · {url}",
                region.as_deref().unwrap_or(DEFAULT_LOCAL_REGION),
                profile
                    .as_deref()
                    .map(|p| format!(" · profile {p}"))
                    .unwrap_or_default()
            ),
        }
    }
}

/// The stable identity of a connection choice (see [`ConnectionSpec::identity`]).
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct ConnectionId(pub String);

impl std::fmt::Display for ConnectionId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A live connection: the SDK clients (clone them freely) and what they point at.
///
/// Its DynamoDB client is core's alone: the front ends read through [`Connection::reader`]
/// and write only through the write gateway, which takes the whole connection, so no write can
/// reach the server any other way (the compiler refuses it, not a convention).
#[derive(Clone)]
pub struct Connection {
    /// The one SDK client of this connection.
    pub(crate) client: Client,
    /// The DynamoDB Streams client, of the same configuration.
    pub streams: aws_sdk_dynamodbstreams::Client,
    /// The SDK configuration the clients were made from (for the clients of other services:
    /// CloudWatch).
    pub(crate) sdk: aws_config::SdkConfig,
    /// The AWS Price List client, of the same configuration in us-east-1 (where the Price List
    /// API answers); only asked on AWS.
    pub pricing: aws_sdk_pricing::Client,
    /// What the user asked for.
    pub spec: ConnectionSpec,
    /// Where requests go, for display (`http://127.0.0.1:41234`, or the AWS region).
    pub target: String,
    /// The resolved region.
    pub region: String,
    /// Read-only: the write gateway refuses every write. Shared by every clone of the
    /// connection, so switching it applies to writes already planned.
    pub(crate) read_only: ReadOnly,
    /// The name the user gave it, and whether it is protected; shared by its clones.
    pub(crate) naming: Naming,
    /// What its tables are priced at; shared by every clone.
    pub(crate) prices: prices::Prices,
    /// How long a request may take before it is given up on.
    pub timeout: Duration,
    /// How long one page read may wait out throttling in all; `None`: the reader's standard.
    pub(crate) throttle_wait: Option<Duration>,
    /// How the last request on it ended (answered or not), shared by its clones.
    pub(crate) answers: LastAnswer,
    /// Keeps the embedded engine alive as long as a clone of this connection exists.
    #[cfg(feature = "sandbox")]
    pub sandbox: Option<std::sync::Arc<crate::sandbox::Sandbox>>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("spec", &self.spec)
            .field("target", &self.target)
            .field("region", &self.region)
            .field("read_only", &self.is_read_only())
            .finish_non_exhaustive()
    }
}

impl Connection {
    /// How the last request on this connection ended: answered (`Some(true)`, an error code
    /// included), not answered (`Some(false)`: refused, timed out, cut off), or none yet.
    pub fn last_answered(&self) -> Option<bool> {
        self.answers.answered()
    }

    /// What reads go through: the connection's client, usable only by core's reads.
    pub fn reader(&self) -> Reader {
        Reader::of(&self.client).throttled_for(self.throttle_wait)
    }

    /// The label shown in the connection bar.
    pub fn label(&self) -> String {
        match &self.spec {
            ConnectionSpec::Sandbox { .. } => format!("{} · {}", self.spec.label(), self.target),
            ConnectionSpec::Aws { profile, .. } => format!(
                "AWS · profile {} · {}",
                profile.as_deref().unwrap_or("(default chain)"),
                self.region
            ),
            ConnectionSpec::Endpoint { .. } => self.spec.label(),
        }
    }

    /// Where code generated for this connection must send its requests: the sandbox's or the
    /// endpoint's URL and region (and the endpoint's profile), or AWS's region and profile.
    pub fn client_setup(&self) -> ClientSetup {
        let region = Some(self.region.clone());
        match &self.spec {
            ConnectionSpec::Sandbox { .. } => ClientSetup {
                endpoint_url: Some(self.target.clone()),
                region,
                profile: None,
            },
            ConnectionSpec::Endpoint { profile, .. } => ClientSetup {
                endpoint_url: Some(self.target.clone()),
                region,
                profile: profile.clone(),
            },
            ConnectionSpec::Aws { profile, .. } => ClientSetup {
                endpoint_url: None,
                region,
                profile: profile.clone(),
            },
        }
    }
}

/// Connect as `spec` says, with the default timeout. For the sandbox this starts (and, when
/// new, seeds) the engine.
pub async fn connect(spec: ConnectionSpec) -> Result<Connection> {
    connect_with(spec, ConnectOptions::default()).await
}

/// Connect as `spec` says, with `options`.
pub async fn connect_with(spec: ConnectionSpec, options: ConnectOptions) -> Result<Connection> {
    let spec = spec.without_userinfo();
    if let ConnectionSpec::Aws {
        profile: Some(profile),
        ..
    }
    | ConnectionSpec::Endpoint {
        profile: Some(profile),
        ..
    } = &spec
    {
        profiles::check_known(profile)?;
    }
    match &spec {
        ConnectionSpec::Sandbox { db_path } => {
            connect_sandbox(spec.clone(), db_path.clone(), options).await
        }
        ConnectionSpec::Aws { profile, region } => {
            let mut loader = base_loader(options.timeout);
            if let Some(region) = region {
                loader = loader.region(Region::new(region.clone()));
            }
            if let Some(profile) = profile {
                let chosen = region.clone().map(Region::new);
                loader = signed_by(loader, profile, chosen, options.timeout).await;
            }
            let conf = loader.load().await;
            let region = conf.region().map(ToString::to_string).ok_or_else(|| {
                Error::Connect(
                    "no region: pick one, or set `region` in the profile or AWS_REGION".into(),
                )
            })?;
            let target = format!("dynamodb.{region}");
            Ok(connection_of(conf, target, region, spec, options))
        }
        ConnectionSpec::Endpoint {
            url,
            profile,
            region,
        } => {
            let parsed_ok = url.starts_with("http://") || url.starts_with("https://");
            if !parsed_ok {
                return Err(Error::Connect(format!(
                    "`{url}` is not an endpoint URL (it must start with http:// or https://)"
                )));
            }
            let region = region
                .clone()
                .unwrap_or_else(|| DEFAULT_LOCAL_REGION.to_owned());
            let mut loader = base_loader(options.timeout)
                .endpoint_url(url.clone())
                .region(Region::new(region.clone()));
            if let Some(profile) = profile {
                let chosen = Some(Region::new(region.clone()));
                loader = signed_by(loader, profile, chosen, options.timeout).await;
            } else if is_loopback(url) {
                // Local emulators accept any credentials; do not require an AWS account.
                loader = loader.credentials_provider(local_credentials());
            }
            let conf = loader.load().await;
            let target = url.clone();
            Ok(connection_of(conf, target, region, spec, options))
        }
    }
}

/// The connection to an engine the SDK reaches through `conf` (AWS or an endpoint, not the
/// sandbox), as `spec` says, named `target`.
pub(crate) fn connection_of(
    conf: aws_config::SdkConfig,
    target: String,
    region: String,
    spec: ConnectionSpec,
    options: ConnectOptions,
) -> Connection {
    let answers = LastAnswer::default();
    let (client, streams) = watched_clients(&conf, &answers);
    Connection {
        client,
        streams,
        answers,
        pricing: pricing_client(&conf),
        sdk: conf,
        target,
        region,
        spec,
        read_only: ReadOnly::new(options.read_only),
        naming: Naming::default(),
        throttle_wait: None,
        prices: prices::Prices::load(),
        timeout: options.timeout,
        #[cfg(feature = "sandbox")]
        sandbox: None,
    }
}

#[cfg(test)]
mod tests;
