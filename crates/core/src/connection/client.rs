//! Building the SDK client: dynoscope's HTTP client and timeouts, dummy credentials for local
//! endpoints, and what counts as this machine.

use std::time::Duration;

use aws_config::BehaviorVersion;
use aws_config::Region;
use aws_config::SdkConfig;
use aws_config::timeout::TimeoutConfig;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::Credentials;
use aws_sdk_dynamodbstreams::Client as StreamsClient;
use aws_sdk_pricing::Client as PricingClient;
use aws_smithy_http_client::tls::{self, rustls_provider::CryptoMode};

/// How a client reaches a connection, as generated code sets it up. Every field left `None` is left to the SDK's own
/// resolution (environment, config files), as the code would be without it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientSetup {
    /// A DynamoDB-compatible endpoint (DynamoDB Local, a dynoscope sandbox); `None` for AWS.
    pub endpoint_url: Option<String>,
    /// The region.
    pub region: Option<String>,
    /// A named profile from `~/.aws/config`.
    pub profile: Option<String>,
}

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

/// The table client, the Streams client and the Price List client of a local endpoint, from one
/// configuration (an emulator serves the first two on the same URL; the third is never asked
/// there, an endpoint having no AWS region of its own to price).
pub(crate) async fn endpoint_clients_with(
    url: &str,
    region: &str,
    timeout: Duration,
    answers: &super::LastAnswer,
) -> (Client, StreamsClient, PricingClient, aws_config::SdkConfig) {
    let conf = base_loader(timeout)
        .endpoint_url(url)
        .region(Region::new(region.to_owned()))
        .credentials_provider(local_credentials())
        .load()
        .await;
    let (client, streams) = super::watched_clients(&conf, answers);
    (client, streams, pricing_client(&conf), conf.clone())
}

/// The region the AWS Price List API answers in (it also answers in ap-south-1 and
/// eu-central-1; us-east-1 is the one every account reaches).
pub(crate) const PRICE_LIST_REGION: &str = "us-east-1";

/// The Price List API client of a connection: its configuration (credentials, HTTP client,
/// timeouts) in [`PRICE_LIST_REGION`], whatever the connection's own region.
pub(crate) fn pricing_client(conf: &SdkConfig) -> PricingClient {
    let config = aws_sdk_pricing::config::Builder::from(conf)
        .region(Region::new(PRICE_LIST_REGION))
        .build();
    PricingClient::from_conf(config)
}

pub(super) fn local_credentials() -> Credentials {
    Credentials::new(
        "dynoscope",
        "dynoscope-local",
        None,
        None,
        "dynoscope-local",
    )
}

/// The SDK config loader every connection starts from: dynoscope's rustls (ring) HTTP client, a
/// connect timeout of 3 s (or `timeout`, when shorter), and `timeout` for a whole request, all
/// attempts included, so a silent endpoint is given up on after `timeout`.
pub(crate) fn base_loader(timeout: Duration) -> aws_config::ConfigLoader {
    aws_config::defaults(BehaviorVersion::latest())
        .http_client(https_client())
        .timeout_config(timeouts(timeout))
}

/// dynoscope's HTTP client: rustls with ring.
fn https_client() -> aws_sdk_dynamodb::config::SharedHttpClient {
    aws_smithy_http_client::Builder::new()
        .tls_provider(tls::Provider::Rustls(CryptoMode::Ring))
        .build_https()
}

/// A connect timeout of 3 s (or `timeout`, when shorter), and `timeout` for a whole request.
fn timeouts(timeout: Duration) -> TimeoutConfig {
    TimeoutConfig::builder()
        .connect_timeout(timeout.min(Duration::from_secs(3)))
        .operation_attempt_timeout(timeout)
        .operation_timeout(timeout)
        .build()
}

/// `loader` signing with the named `profile`'s credentials alone ([`profile_credentials`]).
pub(crate) async fn signed_by(
    loader: aws_config::ConfigLoader,
    profile: &str,
    region: Option<Region>,
    timeout: Duration,
) -> aws_config::ConfigLoader {
    let credentials = profile_credentials(profile, region, timeout).await;
    loader
        .profile_name(profile)
        .credentials_provider(credentials)
}

/// The credentials of the named `profile` and nothing else, as the AWS CLI takes `--profile`:
/// keys in the profile, a role it assumes, SSO, a `credential_process`. The default chain would
/// look at `AWS_ACCESS_KEY_ID` first and sign with whatever account the environment holds.
/// `region`: the one chosen, else the profile's (for SSO and STS).
pub(crate) async fn profile_credentials(
    profile: &str,
    region: Option<Region>,
    timeout: Duration,
) -> aws_config::profile::ProfileFileCredentialsProvider {
    use aws_config::provider_config::ProviderConfig;
    let region = if region.is_some() {
        region
    } else {
        use aws_config::meta::region::ProvideRegion;
        aws_config::profile::ProfileFileRegionProvider::builder()
            .profile_name(profile)
            .build()
            .region()
            .await
    };
    let config = ProviderConfig::without_region()
        .with_region(region)
        .with_http_client(https_client())
        .with_timeout_config(timeouts(timeout));
    aws_config::profile::ProfileFileCredentialsProvider::builder()
        .configure(&config)
        .profile_name(profile)
        .build()
}

/// `url` without the user information of its authority (`http://user:pw@host` → `http://host`):
/// DynamoDB's requests are signed, so a user and password in an endpoint URL are never used,
/// and dropped they can be neither printed nor stored.
pub(crate) fn without_userinfo(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    match authority.rsplit_once('@') {
        Some((_, host)) => format!("{scheme}://{host}{path}"),
        None => url.to_owned(),
    }
}

/// Whether `url` points at this machine: `localhost`, or a loopback IP address (`127.x.x.x`,
/// `[::1]`). Anything else — a name that merely starts with `127.`, a host after user info
/// (`http://127.0.0.1@example.com`) — is treated as elsewhere, so writes there are confirmed.
pub(crate) fn is_loopback(url: &str) -> bool {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .unwrap_or(url);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    // The host comes after any user info.
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        v6.split(']').next().unwrap_or_default()
    } else {
        host_port.split(':').next().unwrap_or_default()
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_information_is_dropped_from_an_endpoint_url() {
        assert_eq!(
            without_userinfo("http://user:pw@127.0.0.1:8000/x?y=1"),
            "http://127.0.0.1:8000/x?y=1"
        );
        assert_eq!(
            without_userinfo("https://a@b:p@ss@example.com"),
            "https://example.com"
        );
        // An @ after the authority is the path's, not user information.
        assert_eq!(
            without_userinfo("http://localhost:8000/a@b"),
            "http://localhost:8000/a@b"
        );
        assert_eq!(without_userinfo("localhost:8000"), "localhost:8000");
    }

    #[test]
    fn loopback_hosts() {
        assert!(is_loopback("http://localhost:8000"));
        assert!(is_loopback("http://127.0.0.1:4566/"));
        assert!(is_loopback("http://[::1]:8000"));
        assert!(!is_loopback("https://dynamodb.eu-west-1.amazonaws.com"));
        assert!(!is_loopback("http://localhost.example.com"));
        assert!(!is_loopback("http://127.0.0.1@remote.example.com:8000"));
        assert!(!is_loopback("http://127.foo.example:8000"));
        assert!(
            !is_loopback("http://0.0.0.0:8000"),
            "not a loopback address"
        );
    }
}
