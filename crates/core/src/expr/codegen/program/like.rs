//! The like and the unlike as whole programs: one `TransactWriteItems` with a
//! `ClientRequestToken` made fresh for the run (or the one given), sent again with the same
//! token after a lost answer — DynamoDB applies a token's transaction once within ten minutes,
//! so a resend never counts twice — and a cancellation's reasons read and said (exit 1). The
//! SDK's own retries are off: the program resends itself, saying so. User text appears only
//! inside string literals.

use super::go_like::like_go;
use super::{PROGRAM_TARGETS, Program, marked, node_file};
use crate::error::{Error, Result};
use crate::expr::codegen::langs::go_str;
use crate::expr::codegen::literal::{js_literal, python};
use crate::expr::codegen::{ClientSetup, Field, Target, Transaction};
use crate::value::{Layout, json};

/// A fresh token in Rust, unique to the run: its time in nanoseconds and its process.
const RUST_FRESH: &str = "format!(\n        \"dynoscope-{:x}-{:x}\",\n        std::time::SystemTime::now()\n            .duration_since(std::time::UNIX_EPOCH)\n            .map(|d| d.as_nanos())\n            .unwrap_or_default(),\n        std::process::id()\n    )";

/// How often a program sends its transaction before it says the outcome is unknown.
pub(super) const SENDS: u32 = 3;

impl Transaction {
    /// The like (or unlike, as `refused` words a refused child) as a whole program in
    /// `target`, connecting as `setup` says. `refused` is what a failed child condition means,
    /// in words (`already liked`).
    /// `now`: an attribute whose value is the moment the program runs (a like's `likedAt`), by
    /// its name and the value the request holds — the program stamps it when it starts (only
    /// with a fresh token each run: a token given must send the same request every time).
    pub fn like_program(
        &self,
        target: Target,
        setup: &ClientSetup,
        refused: &str,
        now: Option<(&str, &str)>,
    ) -> Result<Program> {
        let program = self.like_program_as_built(target, setup, refused)?;
        Ok(match now {
            Some((name, value)) => stamped(program, name, value),
            None => program,
        })
    }

    fn like_program_as_built(
        &self,
        target: Target,
        setup: &ClientSetup,
        refused: &str,
    ) -> Result<Program> {
        let mut transaction = self.clone();
        // The token is the program's: given, or made fresh each run.
        let given = transaction.token.take();
        let call = transaction.call();
        let token = |fresh: &str| {
            given.as_ref().map_or_else(
                || fresh.to_owned(),
                |t| json::text(&serde_json::json!(t), Layout::Compact),
            )
        };
        let refused_words = refused;
        let refused = json::text(&serde_json::json!(refused), Layout::Compact);
        match target {
            Target::Boto3 => {
                let fields: Vec<String> = (call.fields.iter())
                    .map(|(name, field)| format!("            {name}={},", python(&field.json())))
                    .collect();
                let client = setup.boto3_client_with(&[ONE_SEND_PY]);
                let code = format!(
                    "{LIKE_PY_HEAD}{client}\nTOKEN = {}\nREFUSED = {refused}\nlast = None\nSENDS = {SENDS}\nfor attempt in range(1, SENDS + 1):\n    try:\n        client.transact_write_items(\n{}\n            ClientRequestToken=TOKEN,\n        )\n{LIKE_PY_TAIL}",
                    token("str(uuid.uuid4())"),
                    fields.join("\n")
                );
                Ok(program(Target::Boto3, code))
            }
            Target::JsClient | Target::TypeScript => {
                let ts = target == Target::TypeScript;
                let fields: Vec<String> = (call.fields.iter())
                    .map(|(name, field)| js_field(name, field))
                    .collect();
                let (config, profile_import) = setup.js_config_with(&["maxAttempts: 1"]);
                let code = format!(
                    "{LIKE_JS_WORDS}{LIKE_JS_IMPORTS}{LIKE_JS_STATE}{}const client = new DynamoDBClient({config});\nconst TOKEN = {};\nconst REFUSED = {refused};\n{}\nconst SENDS = {SENDS};\nfor (let attempt = 1; attempt <= SENDS; attempt++) {{\n  try {{\n    await client.send(\n      new TransactWriteItemsCommand({{\n{}\n        ClientRequestToken: TOKEN,\n      }}),\n    );\n{}",
                    profile_import.unwrap_or_default(),
                    token("randomUUID()"),
                    marked("let last«: any»;", ts),
                    fields.join("\n"),
                    marked(LIKE_JS_TAIL, ts)
                );
                Ok(program(target, code))
            }
            Target::Cli => Ok(transaction.like_cli(setup, given.as_deref(), refused_words, SENDS)),
            Target::Rust => {
                let token = given
                    .as_deref()
                    .map_or_else(|| RUST_FRESH.to_owned(), |t| format!("{t:?}.to_owned()"));
                Ok(transaction.like_rust(setup, &token, refused_words, SENDS))
            }
            Target::Go => {
                let token = given
                    .as_deref()
                    .map_or_else(|| "fresh()".to_owned(), go_str);
                let refused = go_str(refused_words);
                Ok(like_go(setup, &call.fields, &token, &refused, SENDS))
            }
            Target::JsDocument => {
                Ok(transaction.like_document(setup, &token("randomUUID()"), &refused))
            }
            Target::Toolbox => transaction.like_toolbox(setup, &token("randomUUID()"), &refused),
            Target::ElectroDb => transaction.like_electro(setup, &token("randomUUID()"), &refused),
            other => Err(Error::Invalid(format!(
                "a whole program is written in {PROGRAM_TARGETS}; {} is written as the request alone",
                other.label()
            ))),
        }
    }
}

/// `program` with the attribute `name`, written as `value`, set to the moment the program
/// starts instead: read once into `NOW` before the first send, so a resend with the same token
/// sends the same request. The value as each language writes it is replaced where it stands
/// once, beside its name, and left as written where it does not.
fn stamped(mut program: Program, name: &str, value: &str) -> Program {
    let key = serde_json::Value::String(name.to_owned()).to_string();
    // (the value as written, what stands for it, where NOW is read, how it is read)
    let (written, now, anchor, read) = match program.target {
        Target::Boto3 => (
            format!("{key}: {{\"N\": \"{value}\"}}"),
            format!("{key}: {{\"N\": NOW}}"),
            "TOKEN = ",
            "NOW = str(int(time.time()))\n",
        ),
        Target::JsClient | Target::TypeScript => (
            format!("{key}:{{\"N\":\"{value}\"}}"),
            format!("{key}:{{\"N\":NOW}}"),
            "const TOKEN = ",
            "const NOW = String(Math.floor(Date.now() / 1000));\n",
        ),
        Target::JsDocument | Target::Toolbox | Target::ElectroDb => (
            format!("{key}: {value}"),
            format!("{key}: NOW"),
            "const TOKEN = ",
            "const NOW = Math.floor(Date.now() / 1000);\n",
        ),
        Target::Go => (
            format!("&types.AttributeValueMemberN{{Value: \"{value}\"}}"),
            "&types.AttributeValueMemberN{Value: now}".to_owned(),
            "\ttoken := ",
            "\tnow := strconv.FormatInt(time.Now().Unix(), 10)\n",
        ),
        Target::Rust => (
            format!("AttributeValue::N({value:?}.into())"),
            "AttributeValue::N(now.clone())".to_owned(),
            "    for attempt in 1..=sends {",
            "    let now = std::time::SystemTime::now()\n        .duration_since(std::time::UNIX_EPOCH)\n        .map(|d| d.as_secs())\n        .unwrap_or_default()\n        .to_string();\n",
        ),
        // Inside a single-quoted word only: an ANSI-C quoted one reads `'` otherwise.
        Target::Cli if !program.code.contains("--transact-items $'") => (
            format!("{key}:{{\"N\":\"{value}\"}}"),
            format!("{key}:{{\"N\":\"'\"$NOW\"'\"}}"),
            "TOKEN=",
            "NOW=$(date +%s)\n",
        ),
        _ => return program,
    };
    let once =
        program.code.matches(&written).count() == 1 && program.code.matches(anchor).count() == 1;
    if once && program.code.contains(&key) {
        program.code =
            program
                .code
                .replace(&written, &now)
                .replacen(anchor, &format!("{read}{anchor}"), 1);
        if program.target == Target::Go {
            program.code =
                program
                    .code
                    .replacen("\t\"os/signal\"\n", "\t\"os/signal\"\n\t\"strconv\"\n", 1);
        }
    }
    program
}

fn js_field(name: &str, field: &Field) -> String {
    format!("        {name}: {},", js_literal(&field.json()))
}

fn program(target: Target, code: String) -> Program {
    let (file, run) = match target {
        Target::JsClient | Target::TypeScript => node_file(
            "like",
            "@aws-sdk/client-dynamodb@3",
            target == Target::TypeScript,
        ),
        _ => (
            "like.py".to_owned(),
            "pip install boto3 && python3 like.py".to_owned(),
        ),
    };
    Program {
        target,
        code,
        file,
        run,
    }
}

const ONE_SEND_PY: &str = "config=Config(retries={\"total_max_attempts\": 1})";

const LIKE_PY_HEAD: &str = "\
# A like, whole: one TransactWriteItems with a ClientRequestToken. A lost answer is sent again
# with the same token, which DynamoDB applies once within ten minutes, so it never counts twice.
# Applied: exit 0. Cancelled (its reasons said): exit 1. Refused: exit 1 (bad input 2). Still no
# answer after the last send: the outcome is unknown, exit 3.
import base64
import json
import os
import sys
import time
import uuid

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError, EndpointConnectionError, NoCredentialsError

# The SDK does not resend on its own: this program does, with the same token, and says so;
# also when the server asks for a wait (throttled) or the same token is still in progress.
RESEND = (\"ThrottlingException\", \"ProvisionedThroughputExceededException\",
          \"RequestLimitExceeded\", \"TransactionInProgressException\")
unanswered = False
last_code = None
";

const LIKE_PY_TAIL: &str = "        try:
            print(json.dumps({\"applied\": True, \"token\": TOKEN, \"sends\": attempt}), flush=True)
        except BrokenPipeError:
            # Applied: a reader that stopped reading does not change that.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except client.exceptions.TransactionCanceledException as error:
        reasons = [r.get(\"Code\", \"None\") for r in error.response.get(\"CancellationReasons\", [])]
        why = REFUSED if reasons[:1] == [\"ConditionalCheckFailed\"] else \"cancelled\"
        print(why + \"; nothing was written; reasons:\", json.dumps(reasons), file=sys.stderr)
        sys.exit(1)
    except ClientError as error:
        status = error.response.get(\"ResponseMetadata\", {}).get(\"HTTPStatusCode\", 0)
        code = error.response.get(\"Error\", {}).get(\"Code\", \"\")
        if 400 <= status < 500 and code not in RESEND:
            # After a send with no answer, a refusal does not say the first did not apply.
            if unanswered:
                print(\"outcome unknown (it may have been applied once, never twice):\", error, file=sys.stderr)
                sys.exit(3)
            print(\"refused:\", code, error, file=sys.stderr)
            sys.exit(2 if code == \"ValidationException\" else 1)
        lost = status >= 500
        unanswered = unanswered or lost
        last, last_code = error, code
    except NoCredentialsError as error:
        print(\"not sent:\", error, file=sys.stderr)
        sys.exit(2)
    except BotoCoreError as error:
        if isinstance(error, EndpointConnectionError) and not unanswered:
            print(\"not sent:\", error, file=sys.stderr)
            sys.exit(2)
        lost = unanswered = True
        last, last_code = error, None
    if attempt < SENDS:
        why = \"ended without an answer:\" if lost else \"was answered \" + str(last_code) + \":\"
        print(\"send\", attempt, why, last, \"- sending again with the same token\", file=sys.stderr)
        time.sleep(0.2 * attempt)
# Every send answered, throttled: nothing was applied.
if not unanswered and last_code != \"TransactionInProgressException\":
    print(\"throttled, nothing was written:\", last, file=sys.stderr)
    sys.exit(1)
print(\"outcome unknown (it may have been applied once, never twice):\", last, file=sys.stderr)
sys.exit(3)
";

pub(super) const LIKE_JS_WORDS: &str = "\
// A like, whole: one TransactWriteItems with a ClientRequestToken. A lost answer is sent again
// with the same token, which DynamoDB applies once within ten minutes, so it never counts twice.
// Applied: exit 0. Cancelled (its reasons said): exit 1. Refused: exit 1 (bad input 2). Still no
// answer after the last send: the outcome is unknown, exit 3.
";

const LIKE_JS_IMPORTS: &str = "\
import { randomUUID } from \"node:crypto\";
import {
  DynamoDBClient,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from \"@aws-sdk/client-dynamodb\";
";

/// What a JavaScript like program keeps between its sends.
pub(super) const LIKE_JS_STATE: &str = "\
// The SDK does not resend on its own: this program does, with the same token, and says so;
// also when the server asks for a wait (throttled) or the same token is still in progress.
const RESEND = [
  \"ThrottlingException\",
  \"ProvisionedThroughputExceededException\",
  \"RequestLimitExceeded\",
  \"TransactionInProgressException\",
];
let unanswered = false;
let lost = false;
// A reader that stops reading changes nothing of what was done.
process.stdout.on(\"error\", () => {});
";

pub(super) const LIKE_JS_TAIL: &str = "    console.log(JSON.stringify({ applied: true, token: TOKEN, sends: attempt }));
    process.exit(0);
  } catch (error«: any») {
    if (error instanceof TransactionCanceledException) {
      const reasons = (error.CancellationReasons ?? []).map((r) => r.Code ?? \"None\");
      const why = reasons[0] === \"ConditionalCheckFailed\" ? REFUSED : \"cancelled\";
      console.error(`${why}; nothing was written; reasons:`, JSON.stringify(reasons));
      process.exit(1);
    }
    // No credentials, or no connection made before any unanswered send: nothing was sent.
    if (error.name === \"CredentialsProviderError\" || (error.code === \"ECONNREFUSED\" && !unanswered)) {
      console.error(\"not sent:\", error.message);
      process.exit(2);
    }
    const status = error.$metadata?.httpStatusCode ?? 0;
    if (status >= 400 && status < 500 && !RESEND.includes(error.name)) {
      // After a send with no answer, a refusal does not say the first did not apply.
      if (unanswered) {
        console.error(\"outcome unknown (it may have been applied once, never twice):\", error.name, error.message);
        process.exit(3);
      }
      console.error(\"refused:\", error.name, error.message);
      process.exit(error.name === \"ValidationException\" ? 2 : 1);
    }
    lost = status === 0 || status >= 500;
    unanswered = unanswered || lost;
    last = error;
  }
  if (attempt < SENDS) {
    const why = lost ? \"ended without an answer\" : `was answered ${last?.name}`;
    console.error(`send ${attempt} ${why}: ${last?.message} - sending again with the same token`);
    await new Promise((done) => setTimeout(done, 200 * attempt));
  }
}
// Every send answered, throttled: nothing was applied.
if (!unanswered && last?.name !== \"TransactionInProgressException\") {
  console.error(\"throttled, nothing was written:\", last?.name, last?.message);
  process.exit(1);
}
console.error(\"outcome unknown (it may have been applied once, never twice):\", last?.name, last?.message);
process.exit(3);
";
