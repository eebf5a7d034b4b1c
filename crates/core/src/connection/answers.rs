//! What every request on a connection met, watched where the SDK sends it: whether the last one
//! got an answer (any answer from the server, an error code included) or none (refused, timed
//! out, cut off), so that a front end's dot follows the last request of any kind; and that an
//! answer is the one the server sent, by the CRC32 DynamoDB puts beside every body
//! (`x-amz-crc32`): a body changed on the way (a proxy, a flipped bit: one digit of a tally) is
//! a garbled answer, never a number shown.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use aws_config::SdkConfig;
use aws_sdk_dynamodb::config::interceptors::{
    AfterDeserializationInterceptorContextRef, FinalizerInterceptorContextRef,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;

/// The last request's end on a connection, shared by all its clones and clients (0 until a
/// request has ended).
#[derive(Debug, Clone, Default)]
pub struct LastAnswer(Arc<AtomicU8>);

/// The last request got an answer.
const ANSWERED: u8 = 1;
/// The last request got none.
const UNANSWERED: u8 = 2;

impl LastAnswer {
    /// `Some(true)`: the last request was answered; `Some(false)`: it was not (the endpoint
    /// could not be reached, or stopped answering); `None`: no request has ended yet.
    pub fn answered(&self) -> Option<bool> {
        match self.0.load(Ordering::SeqCst) {
            ANSWERED => Some(true),
            UNANSWERED => Some(false),
            _ => None,
        }
    }

    fn set(&self, answered: bool) {
        let value = if answered { ANSWERED } else { UNANSWERED };
        self.0.store(value, Ordering::SeqCst);
    }
}

/// The interceptor on every client of a connection.
#[derive(Debug)]
struct Watch {
    last: LastAnswer,
}

impl Intercept for Watch {
    fn name(&self) -> &'static str {
        "dynoscope-answers"
    }

    /// The body is whole here (read to deserialize it): its CRC32 is checked when the answer
    /// gave one.
    fn read_after_deserialization(
        &self,
        context: &AfterDeserializationInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let response = context.response();
        let Some(said) = response.headers().get("x-amz-crc32") else {
            return Ok(());
        };
        let Some(body) = response.body().bytes() else {
            return Ok(());
        };
        check_crc32(said, body).map_err(BoxError::from)
    }

    fn read_after_attempt(
        &self,
        context: &FinalizerInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        self.last.set(context.response().is_some());
        Ok(())
    }
}

/// Whether `body` is what `said` (a CRC32 in decimal, as DynamoDB writes it) says it is.
fn check_crc32(said: &str, body: &[u8]) -> Result<(), String> {
    let computed = crc32fast::hash(body);
    match said.trim().parse::<u32>() {
        Ok(expected) if expected == computed => Ok(()),
        Ok(expected) => Err(format!(
            "the answer's body does not match its x-amz-crc32 ({expected}, the body's is \
             {computed}): it was changed on the way, so none of it is used"
        )),
        Err(_) => Err(format!(
            "the answer's x-amz-crc32 `{}` is not a CRC32",
            said.escape_debug()
        )),
    }
}

/// The DynamoDB and DynamoDB Streams clients of `conf`, each watched into `last`.
pub(crate) fn watched_clients(
    conf: &SdkConfig,
    last: &LastAnswer,
) -> (aws_sdk_dynamodb::Client, aws_sdk_dynamodbstreams::Client) {
    let tables = aws_sdk_dynamodb::config::Builder::from(conf)
        .interceptor(Watch { last: last.clone() })
        .build();
    let streams = aws_sdk_dynamodbstreams::config::Builder::from(conf)
        .interceptor(Watch { last: last.clone() })
        .build();
    (
        aws_sdk_dynamodb::Client::from_conf(tables),
        aws_sdk_dynamodbstreams::Client::from_conf(streams),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_is_checked_against_its_crc32() {
        let body = br#"{"Item":{"likeTally":{"N":"3"}}}"#;
        let said = crc32fast::hash(body).to_string();
        assert_eq!(check_crc32(&said, body), Ok(()));
        let changed = br#"{"Item":{"likeTally":{"N":"9"}}}"#;
        let error = check_crc32(&said, changed).unwrap_err();
        assert!(error.contains("changed on the way"), "{error}");
        assert!(check_crc32("x", body).unwrap_err().contains("not a CRC32"));
    }

    #[test]
    fn the_last_answer_is_kept_until_the_next() {
        let last = LastAnswer::default();
        assert_eq!(last.answered(), None);
        last.set(false);
        assert_eq!(last.clone().answered(), Some(false));
        last.set(true);
        assert_eq!(last.answered(), Some(true));
    }
}
