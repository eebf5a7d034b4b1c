//! The counter write as a whole program with ElectroDB 3: the update the ElectroDB target
//! writes (`add` is an `ADD`), the new value printed; a failed condition reported with the item
//! read again (ElectroDB returns none with the error), sent once when not safe to repeat. Its
//! errors wrap the SDK's (`cause`): codes below 4000 are its own, raised before anything is
//! sent (exit 2); the SDK's are sorted as every program sorts them.

use super::Program;
use crate::error::Result;
use crate::expr::codegen::{ClientSetup, Request, Target};

/// What an ElectroDB program needs installed.
pub(super) const PACKAGES: &str = "@aws-sdk/client-dynamodb@3 @aws-sdk/lib-dynamodb@3 electrodb@3";

impl Request {
    /// The counter write with ElectroDB; `once` when it is not safe to repeat.
    pub(super) fn electro_program(&self, setup: &ClientSetup, once: bool) -> Result<Program> {
        let (code, key) = self.electro(setup, once, Some("KEY"))?;
        let call = code.call.replace('\n', "\n  ");
        let note = if once { NOT_REPEATABLE } else { "" };
        let code = format!(
            "{HEAD}{}{SHOWN}const KEY = {key};\n\n{note}try {{\n  const response = await {call};\n  console.log(shown(response.data ?? {{}}));\n{TAIL}",
            code.head
        );
        Ok(Program {
            target: Target::ElectroDb,
            code,
            file: "counter_write.mjs".to_owned(),
            run: format!("npm install {PACKAGES} && node counter_write.mjs"),
        })
    }
}

const HEAD: &str = "\
// A counter write, whole (ElectroDB): the server's new value printed (exit 0); a failed
// condition reported with the item as read again after it (exit 1); refused (exit 1, bad input
// 2); an outcome that cannot be known (exit 3).
";

/// How an ElectroDB program prints: JSON, a number JavaScript cannot hold exactly as a string of
/// its digits (as the client reads it).
pub(super) const SHOWN: &str = "
// A reader that stops reading (`| head`) changes nothing of what was done.
process.stdout.on(\"error\", () => {});
// JSON; a number a JavaScript number cannot hold exactly is a string of its digits.
const shown = (value) => JSON.stringify(value);
";

const NOT_REPEATABLE: &str = "\
// This write is not safe to repeat: sent again after a lost answer, it would count twice.
// The SDK retries on its own, so it is sent once; on an unknown outcome, read the item first.
";

const TAIL: &str = "} catch (error) {
  // ElectroDB's own errors (codes below 4000) are raised before anything is sent; the SDK's
  // are its cause.
  if (error.isElectroError && error.code < 4000) {
    console.error(\"not sent:\", error.message);
    process.exit(2);
  }
  const cause = error.cause ?? error;
  if (cause.name === \"ConditionalCheckFailedException\") {
    const now = await entity
      .get(KEY)
      .go({ ignoreOwnership: true, consistent: true })
      .catch(() => null);
    console.error(\"condition failed, nothing written; the item now:\", shown(now?.data ?? null));
    process.exit(1);
  }
  // No credentials, or no connection made: nothing was sent.
  if (cause.name === \"CredentialsProviderError\" || cause.code === \"ECONNREFUSED\") {
    console.error(\"not sent:\", cause.message);
    process.exit(2);
  }
  const status = cause.$metadata?.httpStatusCode ?? 0;
  if (status >= 400 && status < 500) {
    console.error(\"refused:\", cause.name, cause.message);
    process.exit(cause.name === \"ValidationException\" ? 2 : 1);
  }
  console.error(\"outcome unknown (it may have been applied; not sent again):\", cause.name, cause.message);
  process.exit(3);
}
";
