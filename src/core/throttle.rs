//! What throttling is, and the SDK's retries switched off: the write gateway and the reader each
//! decide their own re-sends, so neither may have the SDK retry underneath it.

use aws_sdk_dynamodb::config::retry::RetryConfig;

use crate::core::error::Error;

/// Server error codes that mean "rejected, not applied": safe to send again after a pause.
const THROTTLED: [&str; 3] = [
    "ThrottlingException",
    "ProvisionedThroughputExceededException",
    "RequestLimitExceeded",
];

/// A config override that turns the SDK's automatic retries off for one request: the caller
/// decides re-sends itself (a write that is not idempotent must never be sent twice after it
/// may have reached the server; a throttled read backs off on the reader's own schedule).
pub fn without_retries() -> aws_sdk_dynamodb::config::Builder {
    aws_sdk_dynamodb::Config::builder().retry_config(RetryConfig::disabled())
}

/// Whether the server refused with a throttling code: nothing was applied or read.
pub fn is_throttled(error: &Error) -> bool {
    // A 4xx refusal only: a 5xx may have been applied, whatever its code says.
    matches!(error, Error::Service { code, .. } if THROTTLED.contains(&code.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throttling_is_told_by_the_code_of_a_4xx() {
        let service = |code: &str| Error::Service {
            op: "Scan",
            code: code.into(),
            message: "anything".into(),
        };
        for code in THROTTLED {
            assert!(is_throttled(&service(code)), "{code}");
        }
        assert!(!is_throttled(&service("ValidationException")));
        let fault = Error::ServerFault {
            op: "Scan",
            status: 500,
            code: "ThrottlingException".into(),
            message: String::new(),
        };
        assert!(!is_throttled(&fault), "a 5xx is not a refusal");
    }
}
