//! The like and the unlike as whole programs with dynamodb-toolbox v2: the transaction's
//! writes as `PutTransaction`/`UpdateTransaction`/`DeleteTransaction` of one entity, sent by
//! `executeTransactWrite` with one `clientRequestToken` — again with the same token after a
//! lost answer, as the JavaScript program does (its ending is that program's), a cancellation's
//! reasons read; dynamodb-toolbox refusing the request before it is sent says nothing was sent.

use super::like::{LIKE_JS_STATE, LIKE_JS_TAIL, LIKE_JS_WORDS, SENDS};
use super::toolbox::PACKAGES;
use super::{Program, marked};
use crate::error::Result;
use crate::expr::codegen::{ClientSetup, Target, Transaction};

impl Transaction {
    /// The like with dynamodb-toolbox: `token` (a JavaScript expression) sent with every send,
    /// `refused` (a JavaScript string) said of a failed child condition.
    pub(super) fn like_toolbox(
        &self,
        setup: &ClientSetup,
        token: &str,
        refused: &str,
    ) -> Result<Program> {
        let code = self.toolbox(setup, true)?;
        let writes = code.call.replace('\n', "\n  ");
        let capacity = if self.consumed_capacity {
            ", capacity: \"TOTAL\""
        } else {
            ""
        };
        // dynamodb-toolbox's DocumentClient may carry its own copy of the SDK's errors: they
        // are told by name; its own errors are raised before anything is sent.
        let tail = marked(LIKE_JS_TAIL, false)
            .replace(
                "error instanceof TransactionCanceledException",
                "error.name === \"TransactionCanceledException\"",
            )
            .replacen("} catch (error) {\n", CAUGHT, 1);
        let code = format!(
            "{LIKE_JS_WORDS}import {{ randomUUID }} from \"node:crypto\";\n{}\n{LIKE_JS_STATE}const TOKEN = {token};\nconst REFUSED = {refused};\nconst writes = [\n  {writes},\n];\nlet last;\nconst SENDS = {SENDS};\nfor (let attempt = 1; attempt <= SENDS; attempt++) {{\n  try {{\n    await executeTransactWrite({{ clientRequestToken: TOKEN{capacity} }}, ...writes);\n{tail}",
            code.head(&["DynamoDBToolboxError"]),
        );
        Ok(Program {
            target: Target::Toolbox,
            code,
            file: "like.mjs".to_owned(),
            run: format!("npm install {PACKAGES} && node like.mjs"),
        })
    }
}

/// The catch's start, dynamodb-toolbox's own refusal first: raised building the request.
const CAUGHT: &str = "} catch (error) {
    if (error instanceof DynamoDBToolboxError) {
      console.error(\"not sent:\", error.message);
      process.exit(2);
    }
";
