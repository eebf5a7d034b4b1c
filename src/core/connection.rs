//! Where dynoscope connects: AWS (profiles, SSO, regions, as the AWS CLI resolves them), any
//! DynamoDB-compatible endpoint, or the embedded sandbox. One SDK `Client` per connection.

use std::path::{Path, PathBuf};
use std::time::Duration;

use aws_config::BehaviorVersion;
use aws_config::Region;
use aws_config::timeout::TimeoutConfig;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::Credentials;
use aws_smithy_http_client::tls::{self, rustls_provider::CryptoMode};

use crate::core::error::{Error, Result};

/// The region used when an endpoint or the sandbox is given none.
pub const DEFAULT_LOCAL_REGION: &str = "us-east-1";

/// The AWS regions offered in the region picker.
pub const REGIONS: &[&str] = &[
    "us-east-1",
    "us-east-2",
    "us-west-1",
    "us-west-2",
    "af-south-1",
    "ap-east-1",
    "ap-south-1",
    "ap-south-2",
    "ap-southeast-1",
    "ap-southeast-2",
    "ap-southeast-3",
    "ap-southeast-4",
    "ap-northeast-1",
    "ap-northeast-2",
    "ap-northeast-3",
    "ca-central-1",
    "ca-west-1",
    "eu-central-1",
    "eu-central-2",
    "eu-west-1",
    "eu-west-2",
    "eu-west-3",
    "eu-south-1",
    "eu-south-2",
    "eu-north-1",
    "il-central-1",
    "me-south-1",
    "me-central-1",
    "sa-east-1",
    "us-gov-east-1",
    "us-gov-west-1",
    "cn-north-1",
    "cn-northwest-1",
];

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
                url,
                profile,
                region,
            };
        }
        if profile.is_some() || region.is_some() || aws_configuration_present() {
            return Self::Aws { profile, region };
        }
        Self::Sandbox { db_path: None }
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

/// A live connection: the SDK client (clone it freely) and what it points at.
#[derive(Clone)]
pub struct Connection {
    /// The one SDK client of this connection.
    pub client: Client,
    /// What the user asked for.
    pub spec: ConnectionSpec,
    /// Where requests go, for display (`http://127.0.0.1:41234`, or the AWS region).
    pub target: String,
    /// The resolved region.
    pub region: String,
    /// Keeps the embedded engine alive as long as a clone of this connection exists.
    #[cfg(feature = "sandbox")]
    pub sandbox: Option<std::sync::Arc<crate::core::sandbox::Sandbox>>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("spec", &self.spec)
            .field("target", &self.target)
            .field("region", &self.region)
            .finish_non_exhaustive()
    }
}

impl Connection {
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
}

/// Connect as `spec` says. For the sandbox this starts (and, when new, seeds) the engine.
pub async fn connect(spec: ConnectionSpec) -> Result<Connection> {
    if let ConnectionSpec::Aws {
        profile: Some(profile),
        ..
    }
    | ConnectionSpec::Endpoint {
        profile: Some(profile),
        ..
    } = &spec
        && !list_profiles().contains(profile)
    {
        return Err(Error::Connect(format!(
            "profile `{profile}` is not in ~/.aws/config or ~/.aws/credentials"
        )));
    }
    match &spec {
        ConnectionSpec::Sandbox { db_path } => connect_sandbox(spec.clone(), db_path.clone()).await,
        ConnectionSpec::Aws { profile, region } => {
            let mut loader = base_loader();
            if let Some(profile) = profile {
                loader = loader.profile_name(profile);
            }
            if let Some(region) = region {
                loader = loader.region(Region::new(region.clone()));
            }
            let conf = loader.load().await;
            let region = conf.region().map(|r| r.to_string()).ok_or_else(|| {
                Error::Connect(
                    "no region: pick one, or set `region` in the profile or AWS_REGION".into(),
                )
            })?;
            Ok(Connection {
                client: Client::new(&conf),
                target: format!("dynamodb.{region}"),
                region,
                spec,
                #[cfg(feature = "sandbox")]
                sandbox: None,
            })
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
            let mut loader = base_loader()
                .endpoint_url(url.clone())
                .region(Region::new(region.clone()));
            if let Some(profile) = profile {
                loader = loader.profile_name(profile);
            } else if is_loopback(url) {
                // Local emulators accept any credentials; do not require an AWS account.
                loader = loader.credentials_provider(local_credentials());
            }
            let conf = loader.load().await;
            Ok(Connection {
                client: Client::new(&conf),
                target: url.clone(),
                region,
                spec,
                #[cfg(feature = "sandbox")]
                sandbox: None,
            })
        }
    }
}

#[cfg(feature = "sandbox")]
async fn connect_sandbox(spec: ConnectionSpec, db_path: Option<PathBuf>) -> Result<Connection> {
    let sandbox = crate::core::sandbox::Sandbox::start(db_path.as_deref(), 0).await?;
    let url = sandbox.endpoint().to_owned();
    let client = endpoint_client(&url, DEFAULT_LOCAL_REGION).await;
    Ok(Connection {
        client,
        target: url,
        region: DEFAULT_LOCAL_REGION.to_owned(),
        spec,
        sandbox: Some(std::sync::Arc::new(sandbox)),
    })
}

#[cfg(not(feature = "sandbox"))]
async fn connect_sandbox(_spec: ConnectionSpec, _db_path: Option<PathBuf>) -> Result<Connection> {
    Err(Error::Connect(
        "this build has no sandbox (built without the `sandbox` feature)".into(),
    ))
}

/// A client for a local endpoint with dummy credentials (tests, the sandbox).
pub async fn endpoint_client(url: &str, region: &str) -> Client {
    let conf = base_loader()
        .endpoint_url(url)
        .region(Region::new(region.to_owned()))
        .credentials_provider(local_credentials())
        .load()
        .await;
    Client::new(&conf)
}

fn local_credentials() -> Credentials {
    Credentials::new(
        "dynoscope",
        "dynoscope-local",
        None,
        None,
        "dynoscope-local",
    )
}

/// The SDK config loader every connection starts from: dynoscope's rustls (ring) HTTP client, a
/// 3 s connect timeout and a 60 s attempt timeout.
pub fn base_loader() -> aws_config::ConfigLoader {
    let http_client = aws_smithy_http_client::Builder::new()
        .tls_provider(tls::Provider::Rustls(CryptoMode::Ring))
        .build_https();
    aws_config::defaults(BehaviorVersion::latest())
        .http_client(http_client)
        .timeout_config(
            TimeoutConfig::builder()
                .connect_timeout(Duration::from_secs(3))
                .operation_attempt_timeout(Duration::from_secs(60))
                .build(),
        )
}

/// Whether `url` points at this machine.
pub fn is_loopback(url: &str) -> bool {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .unwrap_or(url);
    let host = if let Some(v6) = rest.strip_prefix('[') {
        v6.split(']').next().unwrap_or_default()
    } else {
        rest.split([':', '/']).next().unwrap_or_default()
    };
    host == "localhost" || host == "::1" || host.starts_with("127.")
}

fn aws_dir_file(env_var: &str, name: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(env_var) {
        return Some(PathBuf::from(path));
    }
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".aws").join(name))
}

/// Profile names from `~/.aws/config` and `~/.aws/credentials` (or the files named by
/// `AWS_CONFIG_FILE` / `AWS_SHARED_CREDENTIALS_FILE`), sorted, `default` first.
pub fn list_profiles() -> Vec<String> {
    let mut names = Vec::new();
    if let Some(text) =
        aws_dir_file("AWS_CONFIG_FILE", "config").and_then(|p| std::fs::read_to_string(p).ok())
    {
        names.extend(profile_sections(&text, true));
    }
    if let Some(text) = aws_dir_file("AWS_SHARED_CREDENTIALS_FILE", "credentials")
        .and_then(|p| std::fs::read_to_string(p).ok())
    {
        names.extend(profile_sections(&text, false));
    }
    names.sort_by(|a, b| (a != "default", a).cmp(&(b != "default", b)));
    names.dedup();
    names
}

/// Section names that are profiles. In the config file they are `[default]` and
/// `[profile name]`; `[sso-session x]` and `[services x]` are not profiles.
fn profile_sections(text: &str, config_file: bool) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
            if !config_file || inner == "default" {
                return Some(inner.to_owned());
            }
            inner
                .strip_prefix("profile")
                .filter(|rest| rest.starts_with(char::is_whitespace))
                .map(|rest| rest.trim().to_owned())
        })
        .filter(|name| !name.is_empty())
        .collect()
}

/// Whether any AWS configuration is present: credentials, profile, region or endpoint in the
/// environment, or a config or credentials file with a profile in it.
pub fn aws_configuration_present() -> bool {
    const VARS: [&str; 10] = [
        "AWS_ACCESS_KEY_ID",
        "AWS_PROFILE",
        "AWS_DEFAULT_PROFILE",
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
        "AWS_ENDPOINT_URL",
        "AWS_ENDPOINT_URL_DYNAMODB",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    ];
    VARS.iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
        || !list_profiles().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_sections_follow_the_cli_rules() {
        let config = "[default]\nregion = eu-west-1\n[profile dev]\nsso_session = x\n[sso-session x]\n[services s]\n[profilex]\n";
        assert_eq!(profile_sections(config, true), ["default", "dev"]);
        let creds = "[default]\naws_access_key_id = A\n[ci]\n";
        assert_eq!(profile_sections(creds, false), ["default", "ci"]);
    }

    #[test]
    fn loopback_hosts() {
        assert!(is_loopback("http://localhost:8000"));
        assert!(is_loopback("http://127.0.0.1:4566/"));
        assert!(is_loopback("http://[::1]:8000"));
        assert!(!is_loopback("https://dynamodb.eu-west-1.amazonaws.com"));
        assert!(!is_loopback("http://localhost.example.com"));
    }

    #[test]
    fn explicit_flags_choose_the_connection() {
        assert_eq!(
            ConnectionSpec::from_flags(true, None, None, None, None),
            ConnectionSpec::Sandbox { db_path: None }
        );
        assert!(matches!(
            ConnectionSpec::from_flags(
                false,
                None,
                None,
                None,
                Some("http://localhost:8000".into())
            ),
            ConnectionSpec::Endpoint { .. }
        ));
        assert!(matches!(
            ConnectionSpec::from_flags(false, None, Some("dev".into()), None, None),
            ConnectionSpec::Aws { .. }
        ));
    }
}
