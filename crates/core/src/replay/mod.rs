//! The reader and the write gateway against a replayed server: canned HTTP answers given in
//! order and every request kept, so paging, re-sends and "sent once" are checked with no engine
//! at all (as the SDK's own examples test with a replay client). The client is the connection's
//! kind — SDK retries left at their default — so a re-send the SDK made on its own would show.

mod gateway;
mod reader;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use aws_smithy_runtime_api::client::http::{
    HttpConnector, HttpConnectorFuture, SharedHttpClient, SharedHttpConnector, http_client_fn,
};
use aws_smithy_runtime_api::client::orchestrator::HttpRequest;
use aws_smithy_runtime_api::http::{Response, StatusCode};
use aws_smithy_types::body::SdkBody;

use crate::connection::{ConnectOptions, Connection, ConnectionSpec, connection_of};

/// Where the replayed server is said to be: not this machine, so writes ask first.
const URL: &str = "http://replay.invalid";

/// A server that answers from a list and keeps what it was sent.
#[derive(Debug, Clone, Default)]
pub(crate) struct Replay {
    answers: Arc<Mutex<VecDeque<(u16, String)>>>,
    sent: Arc<Mutex<Vec<(String, String)>>>,
}

impl Replay {
    /// A server that gives `answers` (status, JSON body) in order, one per request.
    pub(crate) fn new(answers: &[(u16, &str)]) -> Self {
        let replay = Self::default();
        replay
            .answers
            .lock()
            .unwrap()
            .extend(answers.iter().map(|(s, b)| (*s, (*b).to_owned())));
        replay
    }

    /// What was sent: each request's operation (`Scan`, `UpdateItem`) and JSON body.
    fn sent(&self) -> Vec<(String, String)> {
        self.sent.lock().unwrap().clone()
    }

    /// The operations sent, in order.
    pub(crate) fn operations(&self) -> Vec<String> {
        self.sent().into_iter().map(|(op, _)| op).collect()
    }

    fn http_client(&self) -> SharedHttpClient {
        let replay = self.clone();
        http_client_fn(move |_, _| SharedHttpConnector::new(replay.clone()))
    }

    /// A connection as `connect` makes one, whose requests reach this server.
    pub(crate) async fn connection(&self) -> Connection {
        let conf = aws_config::defaults(BehaviorVersion::latest())
            .http_client(self.http_client())
            .region(Region::new("us-east-1"))
            .endpoint_url(URL)
            .credentials_provider(Credentials::new("replay", "replay", None, None, "replay"))
            .load()
            .await;
        let spec = ConnectionSpec::Endpoint {
            url: URL.to_owned(),
            profile: None,
            region: None,
        };
        let options = ConnectOptions {
            timeout: std::time::Duration::from_secs(10),
            read_only: false,
        };
        connection_of(conf, URL.to_owned(), "us-east-1".to_owned(), spec, options)
    }
}

impl HttpConnector for Replay {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let target = request.headers().get("x-amz-target").unwrap_or_default();
        let op = target.rsplit('.').next().unwrap_or_default().to_owned();
        let body = request
            .body()
            .bytes()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default();
        self.sent.lock().unwrap().push((op, body));
        let (status, text) = self
            .answers
            .lock()
            .unwrap()
            .pop_front()
            .expect("an answer for every request sent");
        let status = StatusCode::try_from(status).unwrap();
        HttpConnectorFuture::ready(Ok(Response::new(status, SdkBody::from(text))))
    }
}

/// DynamoDB's answer to a request it throttled.
const THROTTLED: (u16, &str) = (
    400,
    r#"{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"slow down"}"#,
);

/// An answer that says nothing about whether the request applied.
const LOST: (u16, &str) = (
    500,
    r#"{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"oops"}"#,
);
