//! Whole programs: a request wrapped in what makes it right to run, not only to send. The
//! counter write asks for `UPDATED_NEW` and prints the server's new value; a failed condition
//! is reported with the item as it is (`ALL_OLD`, exit 1); a write that is not safe to repeat
//! (an `ADD`, a `SET x = x + :d`, a `list_append`) is sent once, the SDK's own retries turned
//! off, so a lost answer is said as unknown (exit 3) instead of counted twice. User text
//! (tables, names, values) appears only inside string literals, never in a comment.

mod cli;
mod cli_reconcile;
mod document;
mod document_more;
mod electro;
mod electro_like;
mod electro_read;
mod go;
mod go_like;
mod go_reconcile;
mod like;
mod paged;
mod reconcile;
mod rust;
mod rust_reconcile;
mod toolbox;
mod toolbox_like;
mod toolbox_read;

pub use reconcile::ReconcileShape;

use crate::error::{Error, Result};
use crate::expr::codegen::literal::{js_literal, python};
use crate::expr::codegen::{ClientSetup, Operation, Request, ReturnValues, Target};

/// A program that runs as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// Its language.
    pub target: Target,
    /// The code.
    pub code: String,
    /// The file it is meant to be saved as.
    pub file: String,
    /// What it needs installed, and the command that runs it.
    pub run: String,
}

/// A JavaScript counter write's client: its note and `maxAttempts: 1` when it is sent `once`,
/// its configuration, and the import a profile needs.
pub(super) fn js_once(
    setup: &ClientSetup,
    once: bool,
) -> (&'static str, String, Option<&'static str>) {
    let (note, extra) = if once {
        (NOT_REPEATABLE_JS, vec!["maxAttempts: 1"])
    } else {
        ("", Vec::new())
    };
    let (config, profile_import) = setup.js_config_with(&extra);
    (note, config, profile_import)
}

/// A JavaScript template whose TypeScript annotations are marked `«…»`: kept (unmarked) for
/// TypeScript, dropped for JavaScript. Only templates are marked, never user text.
pub(super) fn marked(template: &str, ts: bool) -> String {
    if ts {
        return template.replace(['«', '»'], "");
    }
    let mut out = String::with_capacity(template.len());
    let mut inside = false;
    for c in template.chars() {
        match c {
            '«' => inside = true,
            '»' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

/// The file and the command of a Node.js program named `stem` that needs `packages`: an ES
/// module, or TypeScript checked by `tsc --strict` and compiled next to it.
pub(super) fn node_file(stem: &str, packages: &str, ts: bool) -> (String, String) {
    if ts {
        (
            format!("{stem}.mts"),
            format!(
                "npm install {packages} typescript @types/node && npx tsc --strict --target es2022 --module nodenext --skipLibCheck {stem}.mts && node {stem}.mjs"
            ),
        )
    } else {
        (
            format!("{stem}.mjs"),
            format!("npm install {packages} && node {stem}.mjs"),
        )
    }
}

impl Program {
    /// How to keep and run it, in words: `save it as counter_write.py and run: …`.
    pub fn how_to_run(&self) -> String {
        format!("save it as {} and run: {}", self.file, self.run)
    }

    /// The target `--program NAME` names (`boto3`, `js`, `ts`, `go`, `rust`, `cli`), refused
    /// in words otherwise.
    pub fn target_named(name: &str) -> Result<Target> {
        Target::from_name(name)
            .filter(|t| {
                matches!(
                    t,
                    Target::Boto3
                        | Target::JsClient
                        | Target::TypeScript
                        | Target::Go
                        | Target::Rust
                        | Target::Cli
                        | Target::JsDocument
                        | Target::Toolbox
                        | Target::ElectroDb
                )
            })
            .ok_or_else(|| {
                Error::Invalid(format!(
                    "--program {name}: use boto3, js, js-doc, ts, go, rust, cli, toolbox or electrodb"
                ))
            })
    }
}

/// The targets a whole program is written in, as `--as` spells them.
pub const PROGRAM_TARGETS: &str = "boto3, js, js-doc, ts, go, rust, cli or toolbox (an update, a like or a reconcile also electrodb)";

/// Whether sending `update` again after a lost answer would change the item again: it adds
/// (`ADD`, `+`, `-`) or appends.
fn not_repeatable(update: &str) -> bool {
    let upper = update.to_uppercase();
    let words: Vec<&str> = upper.split_whitespace().collect();
    // REMOVE of a list element by its index removes the next one when sent again.
    let removes_by_index = words.contains(&"REMOVE") && update.contains('[');
    words.contains(&"ADD")
        || update.contains('+')
        || update.contains('-')
        || upper.contains("LIST_APPEND")
        || removes_by_index
}

impl Request {
    /// The request as a whole program in `target`, connecting as `setup` says: an update as
    /// [`counter_program`](Self::counter_program) writes it, a query or a scan with its paging
    /// loop, every page printed.
    pub fn program(&self, target: Target, setup: &ClientSetup) -> Result<Program> {
        match (&self.operation, target) {
            (Operation::Query(_) | Operation::Scan(_), Target::Boto3) => {
                Ok(self.paged_boto3(setup))
            }
            (Operation::Query(_) | Operation::Scan(_), Target::JsClient) => {
                Ok(self.paged_js(setup, false))
            }
            (Operation::Query(_) | Operation::Scan(_), Target::TypeScript) => {
                Ok(self.paged_js(setup, true))
            }
            (Operation::Query(_) | Operation::Scan(_), Target::Go) => Ok(self.paged_go(setup)),
            (Operation::Query(_) | Operation::Scan(_), Target::Cli) => Ok(self.paged_cli(setup)),
            (Operation::Query(_) | Operation::Scan(_), Target::Rust) => Ok(self.paged_rust(setup)),
            (Operation::Query(_) | Operation::Scan(_), Target::JsDocument) => {
                Ok(self.paged_document(setup))
            }
            (Operation::Query(_) | Operation::Scan(_), Target::Toolbox) => {
                self.paged_toolbox(setup)
            }
            (Operation::Query(_) | Operation::Scan(_), other) => Err(Error::Invalid(format!(
                "a whole program is written in {PROGRAM_TARGETS}; {} is written as the request \
                 alone",
                other.label()
            ))),
            _ => self.counter_program(target, setup),
        }
    }

    /// The counter write as a whole program in `target`, connecting as `setup` says: an
    /// update, its new value printed, a failed condition with the item as it is, and sent once
    /// when it is not safe to repeat.
    pub fn counter_program(&self, target: Target, setup: &ClientSetup) -> Result<Program> {
        let Operation::Update(_) = self.operation else {
            return Err(Error::Invalid(format!(
                "a whole program is written for a counter write (an update), a query or a scan; this is a {}",
                self.operation_name()
            )));
        };
        let mut request = self.clone();
        request.returns.values = Some(ReturnValues::UpdatedNew);
        request.returns.old_item_on_condition_failure = true;
        // A conditional write is sent once too: resent after its answer was lost, its own
        // change fails the condition, and "condition failed, nothing written" would be false.
        let once = self.update.as_deref().is_some_and(not_repeatable) || self.condition.is_some();
        match target {
            Target::Boto3 => Ok(request.boto3_program(setup, once)),
            Target::JsClient => Ok(request.js_program(setup, once, false)),
            Target::TypeScript => Ok(request.js_program(setup, once, true)),
            Target::JsDocument => Ok(request.js_document_program(setup, once)),
            Target::Toolbox => request.toolbox_program(setup, once),
            Target::ElectroDb => request.electro_program(setup, once),
            Target::Rust => Ok(request.counter_rust(setup, once)),
            Target::Cli => {
                // The CLI prints no item with a failed condition: the script reads it again.
                request.returns.old_item_on_condition_failure = false;
                Ok(request.counter_cli(setup, once))
            }
            Target::Go => {
                // The Go SDK as old as Debian's has no ALL_OLD on a single write: the
                // program reads the item again after a failed condition instead.
                request.returns.old_item_on_condition_failure = false;
                Ok(request.counter_go(setup, once))
            }
            other => Err(Error::Invalid(format!(
                "a whole program is written in {PROGRAM_TARGETS}; {} is written as the request \
                 alone",
                other.label()
            ))),
        }
    }

    fn boto3_program(&self, setup: &ClientSetup, once: bool) -> Program {
        let call = self.call();
        let args: Vec<String> = (call.fields.iter())
            .map(|(name, field)| format!("        {name}={},", python(&field.json())))
            .collect();
        let (note, config) = if once {
            (
                NOT_REPEATABLE_PY,
                vec!["config=Config(retries={\"total_max_attempts\": 1})"],
            )
        } else {
            ("", Vec::new())
        };
        let client = setup.boto3_client_with(&config);
        let code = format!(
            "{PY_HEAD}{SHOWN_PY}{note}{client}\n\ntry:\n    response = client.{}(\n{}\n    )\n{PY_TAIL}",
            call.api.snake,
            args.join("\n")
        );
        Program {
            target: Target::Boto3,
            code,
            file: "counter_write.py".to_owned(),
            run: "pip install boto3 && python3 counter_write.py".to_owned(),
        }
    }

    fn js_program(&self, setup: &ClientSetup, once: bool, ts: bool) -> Program {
        let call = self.call();
        let body: Vec<String> = (call.fields.iter())
            .map(|(name, field)| {
                let value = js_literal(&field.json());
                format!("      {name}: {value},")
            })
            .collect();
        let (note, config, profile_import) = js_once(setup, once);
        let code = format!(
            "{JS_HEAD}{}{}{note}const client = new DynamoDBClient({config});\n\ntry {{\n  const response = await client.send(\n    new UpdateItemCommand({{\n{}\n    }}),\n  );\n{}",
            marked(SHOWN_JS, ts),
            profile_import.unwrap_or_default(),
            body.join("\n"),
            marked(JS_TAIL, ts)
        );
        let (file, run) = node_file("counter_write", "@aws-sdk/client-dynamodb@3", ts);
        Program {
            target: if ts {
                Target::TypeScript
            } else {
                Target::JsClient
            },
            code,
            file,
            run,
        }
    }
}

const PY_HEAD: &str = "\
# A counter write, whole: the server's new value printed (exit 0); a failed condition
# reported with the item as it is (exit 1); refused (exit 1, bad input 2); an outcome that
# cannot be known (exit 3).
import base64
import json
import os
import sys

import boto3
from botocore.config import Config
from botocore.exceptions import (
    BotoCoreError,
    ClientError,
    EndpointConnectionError,
    NoCredentialsError,
    ParamValidationError,
)

";

/// How a Python program prints what the server sent: DynamoDB JSON, binary in base64.
pub(super) const SHOWN_PY: &str = "
def shown(value):
    # DynamoDB JSON as the server sent it, binary values in base64 as the API writes them.
    return json.dumps(value, default=lambda b: base64.b64encode(b).decode(\"ascii\"))


";

const NOT_REPEATABLE_PY: &str = "\
# This write is not safe to repeat: sent again after a lost answer, it would count twice.
# boto3 retries on its own, so it is sent once; on an unknown outcome, read the item first.
";

const PY_TAIL: &str = "\
except client.exceptions.ConditionalCheckFailedException as error:
    item = error.response.get(\"Item\")
    print(\"condition failed, nothing written; the item now:\", shown(item), file=sys.stderr)
    sys.exit(1)
except ClientError as error:
    status = error.response.get(\"ResponseMetadata\", {}).get(\"HTTPStatusCode\", 0)
    code = error.response.get(\"Error\", {}).get(\"Code\", \"\")
    if 400 <= status < 500:
        print(\"refused:\", code, error, file=sys.stderr)
        sys.exit(2 if code == \"ValidationException\" else 1)
    print(\"outcome unknown (it may have been applied; not sent again):\", error, file=sys.stderr)
    sys.exit(3)
except (NoCredentialsError, ParamValidationError, EndpointConnectionError) as error:
    # No credentials, a parameter refused, no connection made: nothing was sent.
    print(\"not sent:\", error, file=sys.stderr)
    sys.exit(2)
except BotoCoreError as error:
    print(\"outcome unknown (it may have been applied; not sent again):\", error, file=sys.stderr)
    sys.exit(3)
try:
    print(shown(response.get(\"Attributes\", {})), flush=True)
except BrokenPipeError:
    # The write applied: a reader that stopped reading does not change that.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
";

const JS_HEAD: &str = "\
// A counter write, whole: the server's new value printed (exit 0); a failed condition
// reported with the item as it is (exit 1); refused (exit 1, bad input 2); an outcome that
// cannot be known (exit 3).
import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  UpdateItemCommand,
} from \"@aws-sdk/client-dynamodb\";
";

/// How a JavaScript program prints what the server sent: DynamoDB JSON, binary in base64.
pub(super) const SHOWN_JS: &str = "
// A reader that stops reading (`| head`) changes nothing of what was done.
process.stdout.on(\"error\", () => {});
// DynamoDB JSON as the server sent it, binary values in base64 as the API writes them.
const shown = (value«: unknown») =>
  JSON.stringify(value, (_, v) => (v instanceof Uint8Array ? Buffer.from(v).toString(\"base64\") : v));

";

const NOT_REPEATABLE_JS: &str = "\
// This write is not safe to repeat: sent again after a lost answer, it would count twice.
// The SDK retries on its own, so it is sent once; on an unknown outcome, read the item first.
";

pub(super) const JS_TAIL: &str = "  console.log(shown(response.Attributes ?? {}));
} catch (error«: any») {
  if (error instanceof ConditionalCheckFailedException) {
    console.error(\"condition failed, nothing written; the item now:\", shown(error.Item));
    process.exit(1);
  }
  // No credentials, or no connection made: nothing was sent.
  if (error.name === \"CredentialsProviderError\" || error.code === \"ECONNREFUSED\") {
    console.error(\"not sent:\", error.message);
    process.exit(2);
  }
  const status = error.$metadata?.httpStatusCode ?? 0;
  if (status >= 400 && status < 500) {
    console.error(\"refused:\", error.name, error.message);
    process.exit(error.name === \"ValidationException\" ? 2 : 1);
  }
  console.error(\"outcome unknown (it may have been applied; not sent again):\", error.name, error.message);
  process.exit(3);
}
";

#[cfg(test)]
mod tests;
