//! What the reader calls a request that never reached a table: an endpoint nobody listens on
//! (unreachable, within the timeout) and a client without credentials (named as such, with the
//! way to get them). Clients core builds itself, so they live beside the reader.

use crate::connection::{DEFAULT_TIMEOUT, Reader, base_loader, endpoint_clients_with};
use crate::error::Error;
use crate::read::list_tables;
use crate::sandbox::Sandbox;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_endpoint_is_an_error_not_a_hang() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}");
    let answers = crate::connection::LastAnswer::default();
    let client = endpoint_clients_with(&url, "us-east-1", DEFAULT_TIMEOUT, &answers)
        .await
        .0;
    let err = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        list_tables(&Reader::of(&client)),
    )
    .await
    .expect("answers within 30 s")
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::Unreachable {
                op: "ListTables",
                ..
            }
        ),
        "{err:?}"
    );
}

/// A credentials provider that never has any, like an empty chain or an expired SSO session.
#[derive(Debug)]
struct NoCredentials;

impl aws_credential_types::provider::ProvideCredentials for NoCredentials {
    fn provide_credentials<'a>(
        &'a self,
    ) -> aws_credential_types::provider::future::ProvideCredentials<'a>
    where
        Self: 'a,
    {
        aws_credential_types::provider::future::ProvideCredentials::ready(Err(
            aws_credential_types::provider::error::CredentialsError::not_loaded(
                "no credentials in this test",
            ),
        ))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_credentials_are_named_as_such() {
    let sandbox = Sandbox::start_empty().await.unwrap();
    let config = base_loader(DEFAULT_TIMEOUT)
        .region(aws_config::Region::new("us-east-1"))
        .endpoint_url(sandbox.endpoint())
        .credentials_provider(NoCredentials)
        .load()
        .await;
    let client = aws_sdk_dynamodb::Client::new(&config);
    let err = list_tables(&Reader::of(&client)).await.unwrap_err();
    assert!(
        matches!(
            err,
            Error::Credentials {
                op: "ListTables",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("aws sso login"), "{err}");
}
