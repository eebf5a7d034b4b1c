//! The counter write as a whole program with the JavaScript SDK v3's DocumentClient
//! (`@aws-sdk/lib-dynamodb`): native values in, numbers kept exact both ways (`NumberValue`
//! for a value that a JavaScript number would round, `wrapNumbers` for what comes back), and
//! otherwise as the low-level client's program (its ending is that program's): the new value
//! printed, a failed condition with the item, sent once when not safe to repeat.

use super::{JS_TAIL, Program, js_once, marked};
use crate::expr::codegen::render::js_document_field;
use crate::expr::codegen::{ClientSetup, Request, Target};

impl Request {
    /// The counter write with the DocumentClient; `once` when it is not safe to repeat.
    pub(super) fn js_document_program(&self, setup: &ClientSetup, once: bool) -> Program {
        let call = self.call();
        let mut number_value = false;
        let body: Vec<String> = (call.fields.iter())
            .map(|(name, field)| {
                format!(
                    "      {name}: {},",
                    js_document_field(field, &mut number_value)
                )
            })
            .collect();
        let (note, config, profile_import) = js_once(setup, once);
        let code = format!(
            "{DOC_HEAD}{}{note}const doc = DynamoDBDocumentClient.from(new DynamoDBClient({config}), {{\n  unmarshallOptions: {{ wrapNumbers: true }},\n}});\n\ntry {{\n  const response = await doc.send(\n    new UpdateCommand({{\n{}\n    }}),\n  );\n{}",
            profile_import.unwrap_or_default(),
            body.join("\n"),
            marked(JS_TAIL, false)
        );
        Program {
            target: Target::JsDocument,
            code,
            file: "counter_write.mjs".to_owned(),
            run: "npm install @aws-sdk/client-dynamodb@3 @aws-sdk/lib-dynamodb@3 && node counter_write.mjs"
                .to_owned(),
        }
    }
}

const DOC_HEAD: &str = "\
// A counter write, whole (DocumentClient): the server's new value printed, numbers exact (exit
// 0); a failed condition reported with the item as it is (exit 1); refused (exit 1, bad input
// 2); an outcome that cannot be known (exit 3).
import { ConditionalCheckFailedException, DynamoDBClient } from \"@aws-sdk/client-dynamodb\";
import { DynamoDBDocumentClient, NumberValue, UpdateCommand } from \"@aws-sdk/lib-dynamodb\";

// A reader that stops reading (`| head`) changes nothing of what was done.
process.stdout.on(\"error\", () => {});

// Numbers as text (NumberValue), binary values in base64.
const shown = (value) =>
  JSON.stringify(value, (_, v) =>
    v instanceof NumberValue
      ? v.toString()
      : v instanceof Uint8Array
        ? Buffer.from(v).toString(\"base64\")
        : v,
  );

";
