//! A test's or a bench's own SDK client: shared by the tests and the benches (`#[path]`).

use std::time::Duration;

use aws_sdk_dynamodb::Client;

/// An SDK client of its own to `url` (an engine or a proxy on this machine), with dummy
/// credentials: what a test writes with behind the app's back. Core hands out no client (its
/// connection's is private to it), so this one is made here.
pub(crate) fn sdk_client(url: &str) -> Client {
    use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
    use aws_smithy_http_client::tls::{self, rustls_provider::CryptoMode};
    let http = aws_smithy_http_client::Builder::new()
        .tls_provider(tls::Provider::Rustls(CryptoMode::Ring))
        .build_https();
    let timeouts = aws_config::timeout::TimeoutConfig::builder()
        .connect_timeout(Duration::from_secs(3))
        .operation_timeout(Duration::from_mins(1))
        .build();
    let conf = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .http_client(http)
        .timeout_config(timeouts)
        .endpoint_url(url)
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("test", "test", None, None, "tests"))
        .build();
    Client::from_conf(conf)
}
