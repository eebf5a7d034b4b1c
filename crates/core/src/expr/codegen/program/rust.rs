//! Whole programs in Rust (`aws-sdk-dynamodb`): the counter write, a read's paging loop and
//! the like, each a `src/main.rs` with the request built by the same builder calls as the
//! single request, what the server sent printed as DynamoDB JSON (`shown`), and an error
//! sorted as the other programs sort it: refused (4xx), not sent (no connection made), or
//! unknown.

use super::Program;
use crate::expr::codegen::render::rust_chain;
use crate::expr::codegen::{ClientSetup, Field, Request, Target, Transaction};

/// The crates a program needs, and how to run it.
pub(super) fn rust_program(stem: &str, code: String) -> Program {
    Program {
        target: Target::Rust,
        code,
        file: "main.rs".to_owned(),
        run: format!(
            "cargo new {stem} && cd {stem} && cargo add aws-config aws-sdk-dynamodb aws-smithy-types serde_json tokio -F tokio/full && cp ../main.rs src/ && cargo run"
        ),
    }
}

/// The request's builder calls after `client`, at `indent`, and the SDK types they use.
fn chain(operation: &str, fields: &[(&'static str, Field)], indent: &str) -> (String, String) {
    let mut calls = vec![format!("{indent}.{operation}()")];
    let mut types = vec!["AttributeValue"];
    rust_chain(fields, indent, &mut calls, &mut types);
    types.sort_unstable();
    types.dedup();
    (calls.join("\n"), types.join(", "))
}

const ONCE: &str = ".retry_config(aws_config::retry::RetryConfig::standard().with_max_attempts(1))";

impl Request {
    /// The counter write in Rust; `once`: the SDK's retries off.
    pub(super) fn counter_rust(&self, setup: &ClientSetup, once: bool) -> Program {
        let (note, extra) = if once {
            (RUST_ONCE, vec![ONCE])
        } else {
            ("", Vec::new())
        };
        let client = indent(&setup.rust_client_with(&extra), "    ");
        let (calls, types) = chain("update_item", &self.call().fields, "        ");
        let code = format!(
            "{RUST_COUNTER_HEAD}{note}use std::collections::HashMap;\nuse std::io::Write as _;\nuse std::process::ExitCode;\n\nuse aws_sdk_dynamodb::error::{{DisplayErrorContext, ProvideErrorMetadata, SdkError}};\nuse aws_sdk_dynamodb::operation::update_item::UpdateItemError;\nuse aws_sdk_dynamodb::types::{{{types}}};\n{RUST_SHOWN}{RUST_FAILURE}\n#[tokio::main]\nasync fn main() -> ExitCode {{\n{client}\n    let sent = client\n{calls}\n        .send()\n        .await;\n{RUST_COUNTER_TAIL}"
        );
        rust_program("counter_write", code)
    }

    /// A query's or a scan's paging loop in Rust.
    pub(super) fn paged_rust(&self, setup: &ClientSetup) -> Program {
        let client = indent(&setup.rust_client(), "    ");
        let call = self.call();
        let (calls, types) = chain(call.api.snake, &call.fields, "            ");
        let code = format!(
            "{RUST_PAGED_HEAD}use std::collections::HashMap;\nuse std::io::Write as _;\nuse std::process::ExitCode;\n\nuse aws_sdk_dynamodb::error::DisplayErrorContext;\nuse aws_sdk_dynamodb::types::{{{types}}};\n{RUST_SHOWN}\n#[tokio::main]\nasync fn main() -> ExitCode {{\n{client}\n    let (mut items, mut pages) = (0, 0);\n    let mut start: Option<HashMap<String, AttributeValue>> = None;\n    loop {{\n        let read = client\n{calls}\n            .set_exclusive_start_key(start.take())\n            .send()\n            .await;\n{RUST_PAGED_TAIL}"
        );
        rust_program("read_pages", code)
    }
}

impl Transaction {
    /// The like in Rust: its token (`token`: a Rust expression), resent up to `sends` times;
    /// `refused` the words of a failed first condition.
    pub(super) fn like_rust(
        &self,
        setup: &ClientSetup,
        token: &str,
        refused: &str,
        sends: u32,
    ) -> Program {
        let mut transaction = self.clone();
        transaction.token = None;
        let client = indent(&setup.rust_client_with(&[ONCE]), "    ");
        let (calls, types) = chain(
            "transact_write_items",
            &transaction.call().fields,
            "            ",
        );
        let code = format!(
            "{RUST_LIKE_HEAD}use std::io::Write as _;\nuse std::process::ExitCode;\nuse std::time::Duration;\n\nuse aws_sdk_dynamodb::error::{{BuildError, DisplayErrorContext, ProvideErrorMetadata, SdkError}};\nuse aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;\nuse aws_sdk_dynamodb::types::{{{types}}};\n{RUST_FAILURE}\n#[tokio::main]\nasync fn main() -> ExitCode {{\n{client}\n    let token: String = {token};\n    match like(&client, &token).await {{\n        Ok(code) => code,\n        Err(error) => {{\n            eprintln!(\"not sent: {{error}}\");\n            ExitCode::from(2)\n        }}\n    }}\n}}\n\n/// The like sent up to {sends} times with `token`; the exit status that says its outcome.\nasync fn like(client: &aws_sdk_dynamodb::Client, token: &str) -> Result<ExitCode, BuildError> {{\n    let refused = {refused:?};\n    let sends: u32 = {sends};\n    let mut unanswered = false;\n    let mut last = String::new();\n    let mut last_code = String::new();\n    for attempt in 1..=sends {{\n        let sent = client\n{calls}\n            .client_request_token(token)\n            .send()\n            .await;\n{RUST_LIKE_TAIL}"
        );
        rust_program("like", code)
    }
}

/// `text` with every line indented by `by`.
pub(super) fn indent(text: &str, by: &str) -> String {
    text.lines()
        .map(|line| format!("{by}{line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

const RUST_COUNTER_HEAD: &str = "\
//! A counter write, whole: the server's new value printed (exit 0); a failed condition
//! reported with the item as it is (exit 1); refused (exit 1, bad input 2); nothing sent (no
//! connection made, exit 2); an outcome that cannot be known (exit 3).
";

const RUST_ONCE: &str = "\
//! This write is not safe to repeat: sent again after a lost answer, it would count twice.
//! The SDK retries on its own, so it is sent once; on an unknown outcome, read the item first.
";

const RUST_PAGED_HEAD: &str = "\
//! A read, whole: every page (LastEvaluatedKey given back as ExclusiveStartKey until there is
//! none), each item printed as a line of DynamoDB JSON; the items and pages counted on stderr.
";

const RUST_LIKE_HEAD: &str = "\
//! A like, whole: one TransactWriteItems with a ClientRequestToken. A lost answer is sent again
//! with the same token, which DynamoDB applies once within ten minutes, so it never counts
//! twice. Applied: exit 0. Cancelled (its reasons said): exit 1. Refused or throttled at every
//! send: exit 1 (bad input 2). Nothing sent: exit 2. Still no answer after the last send: the
//! outcome is unknown, exit 3. The SDK does not resend on its own: this program does.
";

/// `shown`: DynamoDB JSON of what the server sent, binary values in base64; and `failure`.
const RUST_SHOWN: &str = "
/// A value as DynamoDB JSON, binary values in base64 as the API writes them.
fn shown(value: &AttributeValue) -> serde_json::Value {
    use serde_json::json;
    let base64 = |b: &aws_sdk_dynamodb::primitives::Blob| aws_smithy_types::base64::encode(b.as_ref());
    match value {
        AttributeValue::S(s) => json!({ \"S\": s }),
        AttributeValue::N(n) => json!({ \"N\": n }),
        AttributeValue::Bool(b) => json!({ \"BOOL\": b }),
        AttributeValue::Null(n) => json!({ \"NULL\": n }),
        AttributeValue::B(b) => json!({ \"B\": base64(b) }),
        AttributeValue::Ss(v) => json!({ \"SS\": v }),
        AttributeValue::Ns(v) => json!({ \"NS\": v }),
        AttributeValue::Bs(v) => json!({ \"BS\": v.iter().map(base64).collect::<Vec<_>>() }),
        AttributeValue::L(v) => json!({ \"L\": v.iter().map(shown).collect::<Vec<_>>() }),
        AttributeValue::M(m) => json!({ \"M\": shown_item(m) }),
        _ => json!({}),
    }
}

/// An item as DynamoDB JSON.
fn shown_item(item: &HashMap<String, AttributeValue>) -> serde_json::Value {
    serde_json::Value::Object(item.iter().map(|(k, v)| (k.clone(), shown(v))).collect())
}
";

/// `unsent`: whether an error is a connection never made (nothing was sent).
const RUST_FAILURE: &str = "
/// Whether `error` is a connection that was never made: nothing was sent.
fn unsent(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(e) = cause {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::ConnectionRefused {
                return true;
            }
        }
        cause = e.source();
    }
    false
}
";

const RUST_COUNTER_TAIL: &str = "    match sent {
        Ok(answer) => {
            let none = HashMap::new();
            // The write applied: a reader that stopped reading does not change that.
            let _ = writeln!(std::io::stdout(), \"{}\", shown_item(answer.attributes().unwrap_or(&none)));
            ExitCode::SUCCESS
        }
        Err(error) => failed(&error),
    }
}

/// The write's error, said: a failed condition with the item as it is, a refusal, nothing
/// sent, or an unknown outcome; the exit status that says it.
fn failed(error: &SdkError<UpdateItemError, aws_sdk_dynamodb::config::http::HttpResponse>) -> ExitCode {
    let context = DisplayErrorContext(error);
    if let SdkError::ServiceError(service) = error {
        if let UpdateItemError::ConditionalCheckFailedException(failed) = service.err() {
            let none = HashMap::new();
            let item = shown_item(failed.item().unwrap_or(&none));
            eprintln!(\"condition failed, nothing written; the item now: {item}\");
            return ExitCode::from(1);
        }
        let status = service.raw().status().as_u16();
        let code = service.err().code().unwrap_or_default();
        if (400..500).contains(&status) {
            eprintln!(\"refused: {code} {context}\");
            return ExitCode::from(if code == \"ValidationException\" { 2 } else { 1 });
        }
    }
    if matches!(error, SdkError::ConstructionFailure(_)) || unsent(error) {
        eprintln!(\"not sent: {context}\");
        return ExitCode::from(2);
    }
    eprintln!(\"outcome unknown (it may have been applied; not sent again): {context}\");
    ExitCode::from(3)
}
";

const RUST_PAGED_TAIL: &str = "        let page = match read {
            Ok(page) => page,
            Err(error) => {
                eprintln!(\"the read failed after {items} items: {}\", DisplayErrorContext(&error));
                return ExitCode::from(2);
            }
        };
        pages += 1;
        let mut out = std::io::stdout().lock();
        for item in page.items() {
            // A reader that stopped reading (`| head`) ends the read, quietly.
            if writeln!(out, \"{}\", shown_item(item)).is_err() {
                return ExitCode::SUCCESS;
            }
            items += 1;
        }
        start = page.last_evaluated_key().cloned();
        if start.is_none() {
            break;
        }
    }
    eprintln!(\"{items} items, {pages} pages\");
    ExitCode::SUCCESS
}
";

const RUST_LIKE_TAIL: &str = "        let error = match sent {
            Ok(_) => {
                let said = serde_json::json!({ \"applied\": true, \"token\": token, \"sends\": attempt });
                // Applied: a reader that stopped reading does not change that.
                let _ = writeln!(std::io::stdout(), \"{said}\");
                return Ok(ExitCode::SUCCESS);
            }
            Err(error) => error,
        };
        let context = DisplayErrorContext(&error).to_string();
        let mut lost = true;
        if let SdkError::ServiceError(service) = &error {
            if let TransactWriteItemsError::TransactionCanceledException(cancelled) = service.err() {
                let reasons: Vec<&str> = (cancelled.cancellation_reasons().iter())
                    .map(|r| r.code().unwrap_or(\"None\"))
                    .collect();
                let why = if reasons.first() == Some(&\"ConditionalCheckFailed\") { refused } else { \"cancelled\" };
                eprintln!(\"{why}; nothing was written; reasons: {}\", serde_json::json!(reasons));
                return Ok(ExitCode::from(1));
            }
            let status = service.raw().status().as_u16();
            let code = service.err().code().unwrap_or_default().to_owned();
            let resend = [
                \"ThrottlingException\",
                \"ProvisionedThroughputExceededException\",
                \"RequestLimitExceeded\",
                \"TransactionInProgressException\",
            ];
            if (400..500).contains(&status) && !resend.contains(&code.as_str()) {
                // After a send with no answer, a refusal does not say the first did not apply.
                if unanswered {
                    eprintln!(\"outcome unknown (it may have been applied once, never twice): {context}\");
                    return Ok(ExitCode::from(3));
                }
                eprintln!(\"refused: {code} {context}\");
                return Ok(ExitCode::from(if code == \"ValidationException\" { 2 } else { 1 }));
            }
            lost = status >= 500;
            last_code = code;
        } else if !unanswered && (matches!(error, SdkError::ConstructionFailure(_)) || unsent(&error)) {
            eprintln!(\"not sent: {context}\");
            return Ok(ExitCode::from(2));
        }
        unanswered = unanswered || lost;
        if attempt < sends {
            let why = if lost { \"ended without an answer\".to_owned() } else { format!(\"was answered {last_code}\") };
            eprintln!(\"send {attempt} {why}: {context} - sending again with the same token\");
            tokio::time::sleep(Duration::from_millis(200 * u64::from(attempt))).await;
        }
        last = context;
    }
    // Every send answered, throttled: nothing was applied.
    if !unanswered && last_code != \"TransactionInProgressException\" {
        eprintln!(\"throttled, nothing was written: {last}\");
        return Ok(ExitCode::from(1));
    }
    eprintln!(\"outcome unknown (it may have been applied once, never twice): {last}\");
    Ok(ExitCode::from(3))
}
";
