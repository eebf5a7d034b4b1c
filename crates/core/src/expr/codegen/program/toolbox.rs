//! The counter write as a whole program with dynamodb-toolbox v2: the command the toolbox
//! target writes (an `ADD` as `$add`, the condition as a condition object), its new value
//! printed exactly (a `BigInt` past 2^53), a failed condition with the item as it is, sent once
//! when not safe to repeat. What dynamodb-toolbox raises is sorted by when: its schema refusing
//! the request is before anything is sent (exit 2); its formatter failing on the answer is
//! after the write applied (exit 0, said so), never an unknown outcome.

use super::{JS_TAIL, Program, marked};
use crate::error::Result;
use crate::expr::codegen::{ClientSetup, Request, Target};

impl Request {
    /// The counter write with dynamodb-toolbox; `once` when it is not safe to repeat.
    pub(super) fn toolbox_program(&self, setup: &ClientSetup, once: bool) -> Result<Program> {
        let code = self.toolbox(setup, once)?;
        let call = code.call.replace('\n', "\n  ");
        let note = if once { NOT_REPEATABLE } else { "" };
        let tail = marked(JS_TAIL, false)
            .replace(
                "error instanceof ConditionalCheckFailedException",
                "error.name === \"ConditionalCheckFailedException\"",
            )
            .replacen("} catch (error) {\n", CAUGHT, 1);
        let code = format!(
            "{HEAD}{}\n{SHOWN}{note}try {{\n  const response = await {call};\n{tail}",
            code.head(&["DynamoDBToolboxError"]),
        );
        Ok(Program {
            target: Target::Toolbox,
            code,
            file: "counter_write.mjs".to_owned(),
            run: format!("npm install {PACKAGES} && node counter_write.mjs"),
        })
    }
}

/// What a dynamodb-toolbox program needs installed.
pub(super) const PACKAGES: &str =
    "@aws-sdk/client-dynamodb@3 @aws-sdk/lib-dynamodb@3 dynamodb-toolbox@2";

const HEAD: &str = "\
// A counter write, whole (dynamodb-toolbox): the server's new value printed, numbers exact
// (exit 0); a failed condition reported with the item as it is (exit 1); refused (exit 1, bad
// input 2); an outcome that cannot be known (exit 3).
";

/// How a toolbox program prints: a `BigInt` and a `NumberValue` as their digits, binary in
/// base64.
pub(super) const SHOWN: &str = "
// A reader that stops reading (`| head`) changes nothing of what was done.
process.stdout.on(\"error\", () => {});
// JSON; a number a JavaScript number cannot hold exactly (a BigInt, a NumberValue) is a
// string of its digits; binary values in base64.
const shown = (value) =>
  JSON.stringify(value, (_, v) =>
    typeof v === \"bigint\" || v instanceof NumberValue
      ? v.toString()
      : v instanceof Uint8Array
        ? Buffer.from(v).toString(\"base64\")
        : v instanceof Set
          ? [...v]
          : v,
  );

";

const NOT_REPEATABLE: &str = "\
// This write is not safe to repeat: sent again after a lost answer, it would count twice.
// The SDK retries on its own, so it is sent once; on an unknown outcome, read the item first.
";

/// The start of the ending's `catch`: dynamodb-toolbox's own errors, sorted by when they are
/// raised; the JavaScript program's ending follows (the SDK's errors told by name, since the
/// toolbox's DocumentClient may carry its own copy of them).
const CAUGHT: &str = "} catch (error) {
  if (error instanceof DynamoDBToolboxError) {
    if (error.code.startsWith(\"formatter.\")) {
      // Raised reading the answer: the write applied.
      console.error(\"applied; dynamodb-toolbox cannot show the answer:\", error.message);
      process.exit(0);
    }
    // Raised building the request: nothing was sent.
    console.error(\"not sent:\", error.message);
    process.exit(2);
  }
";
