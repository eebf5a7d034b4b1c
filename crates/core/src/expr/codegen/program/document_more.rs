//! The like, the reconcile and a read's paging loop with the JavaScript SDK v3's DocumentClient
//! (`@aws-sdk/lib-dynamodb`): native values in (`NumberValue` for a number a JavaScript number
//! would round), numbers read back as `NumberValue`s (exact), and otherwise as the low-level
//! client's programs (their endings are those programs').

use super::like::{LIKE_JS_STATE, LIKE_JS_TAIL, LIKE_JS_WORDS, SENDS};
use super::paged::{PAGED_JS_HEAD, PAGED_JS_LOOP, PAGED_JS_LOOP_START};
use super::reconcile::{RECONCILE_JS_DRIFT, RECONCILE_JS_END};
use super::{Program, marked};
use crate::expr::codegen::render::js_document_field;
use crate::expr::codegen::{ClientSetup, ReconcileShape, Request, Target, Transaction};

/// What a DocumentClient program needs installed.
const PACKAGES: &str = "@aws-sdk/client-dynamodb@3 @aws-sdk/lib-dynamodb@3";

/// The program `stem.mjs`, with the command that runs it.
fn program(stem: &str, code: String) -> Program {
    Program {
        target: Target::JsDocument,
        code,
        file: format!("{stem}.mjs"),
        run: format!("npm install {PACKAGES} && node {stem}.mjs"),
    }
}

impl Transaction {
    /// The like with the DocumentClient: `token` (a JavaScript expression) sent with every
    /// send, `refused` (a JavaScript string) said of a failed child condition. The transaction
    /// holds no token of its own (the program's is `TOKEN`).
    pub(super) fn like_document(&self, setup: &ClientSetup, token: &str, refused: &str) -> Program {
        let mut number_value = false;
        let fields: Vec<String> = (self.call().fields.iter())
            .map(|(name, field)| {
                format!(
                    "        {name}: {},",
                    js_document_field(field, &mut number_value)
                )
            })
            .collect();
        let (config, profile_import) = setup.js_config_with(&["maxAttempts: 1"]);
        let code = format!(
            "{LIKE_JS_WORDS}{LIKE_IMPORTS}{}{LIKE_JS_STATE}const client = DynamoDBDocumentClient.from(new DynamoDBClient({config}));\nconst TOKEN = {token};\nconst REFUSED = {refused};\nlet last;\nconst SENDS = {SENDS};\nfor (let attempt = 1; attempt <= SENDS; attempt++) {{\n  try {{\n    await client.send(\n      new TransactWriteCommand({{\n{}\n        ClientRequestToken: TOKEN,\n      }}),\n    );\n{}",
            profile_import.unwrap_or_default(),
            fields.join("\n"),
            marked(LIKE_JS_TAIL, false)
        );
        program("like", code)
    }
}

const LIKE_IMPORTS: &str = "\
import { randomUUID } from \"node:crypto\";
import { DynamoDBClient, TransactionCanceledException } from \"@aws-sdk/client-dynamodb\";
import { DynamoDBDocumentClient, NumberValue, TransactWriteCommand } from \"@aws-sdk/lib-dynamodb\";
";

impl Request {
    /// A query or a scan with the DocumentClient, every page read, an item a line (native
    /// JSON: a number JavaScript cannot hold exactly as a string of its digits).
    pub(super) fn paged_document(&self, setup: &ClientSetup) -> Program {
        let call = self.call();
        let mut number_value = false;
        let fields: Vec<String> = (call.fields.iter())
            .map(|(name, field)| {
                format!("  {name}: {},", js_document_field(field, &mut number_value))
            })
            .collect();
        let (config, profile_import) = setup.js_config();
        let command = call.api.document;
        let code = format!(
            "{}import {{ DynamoDBClient }} from \"@aws-sdk/client-dynamodb\";\nimport {{ DynamoDBDocumentClient, NumberValue, {command} }} from \"@aws-sdk/lib-dynamodb\";\n{}{DOC_SHOWN}const client = DynamoDBDocumentClient.from(new DynamoDBClient({config}), {{\n  unmarshallOptions: {{ wrapNumbers: true }},\n}});\n\nconst input = {{\n{}\n}};\n{PAGED_JS_LOOP_START}  const page = await client.send(new {command}(input));\n{PAGED_JS_LOOP}",
            PAGED_JS_HEAD.replace("a line of DynamoDB JSON", "a line of JSON (DocumentClient)"),
            profile_import.unwrap_or_default(),
            fields.join("\n")
        );
        program("read_pages", code)
    }
}

/// How a DocumentClient program prints: a `NumberValue` as its digits, binary in base64.
const DOC_SHOWN: &str = "
// A reader that stops reading (`| head`) changes nothing of what was done.
process.stdout.on(\"error\", () => {});
// JSON; a number (a NumberValue) as a string of its digits; binary values in base64.
const shown = (value) =>
  JSON.stringify(value, (_, v) =>
    v instanceof NumberValue
      ? v.toString()
      : v instanceof Uint8Array
        ? Buffer.from(v).toString(\"base64\")
        : v instanceof Set
          ? [...v]
          : v,
  );

";

impl ReconcileShape {
    /// The reconcile with the DocumentClient, connecting as `setup` says.
    pub(super) fn reconcile_document(&self, setup: &ClientSetup) -> Program {
        let (config, profile_import) = setup.js_config();
        let code = format!(
            "{RECONCILE_HEAD}{}\n{}\n\nconst client = DynamoDBDocumentClient.from(new DynamoDBClient({config}), {{\n  unmarshallOptions: {{ wrapNumbers: true }},\n}});\n{}{RECONCILE_READS}{}",
            profile_import.unwrap_or_default(),
            self.js_constants(),
            marked(RECONCILE_JS_DRIFT, false),
            marked(RECONCILE_JS_END, false)
        );
        program("reconcile", code)
    }
}

const RECONCILE_HEAD: &str = "\
// The reconcile, whole (DocumentClient): each parent's stored tally beside its counted
// children; the drifted parents printed, a JSON line each (drift = stored - counted; a missing
// tally has none), exit 1 when any drifted, 2 when the read failed. Every parent: one Scan,
// every page. One parent (ONLY): a consistent Get and a COUNT Query, every page. Tallies
// compared exactly (read as NumberValue, their text).
import { DynamoDBClient } from \"@aws-sdk/client-dynamodb\";
import {
  DynamoDBDocumentClient,
  GetCommand,
  NumberValue,
  QueryCommand,
  ScanCommand,
} from \"@aws-sdk/lib-dynamodb\";
";

/// The reads, as the low-level client's reconcile makes them, with native values.
const RECONCILE_READS: &str = "
// A string attribute's text, or a number's (a NumberValue); nothing for another type.
const text = (item, name, kind) => {
  const value = item?.[name];
  if (kind === \"S\") return typeof value === \"string\" ? value : undefined;
  return value instanceof NumberValue ? value.toString() : undefined;
};

async function countChildren(pk) {
  const input = {
    TableName: TABLE,
    KeyConditionExpression: \"#pk = :p AND begins_with(#sk, :c)\",
    ExpressionAttributeNames: { \"#pk\": PK, \"#sk\": SK },
    ExpressionAttributeValues: { \":p\": pk, \":c\": CHILD_PREFIX },
    Select: \"COUNT\",
  };
  let counted = 0;
  for (;;) {
    const page = await client.send(new QueryCommand(input));
    counted += page.Count ?? 0;
    if (!page.LastEvaluatedKey) return counted;
    input.ExclusiveStartKey = page.LastEvaluatedKey;
  }
}

async function everyParent() {
  const tallies = new Map();
  const counted = new Map();
  const input = {
    TableName: TABLE,
    ProjectionExpression: \"#pk, #sk, #t\",
    ExpressionAttributeNames: { \"#pk\": PK, \"#sk\": SK, \"#t\": TALLY },
  };
  for (;;) {
    const page = await client.send(new ScanCommand(input));
    for (const item of page.Items ?? []) {
      const pk = text(item, PK, \"S\");
      const sk = text(item, SK, \"S\");
      if (pk === undefined || sk === undefined) continue;
      if (sk === PARENT_SK && pk.startsWith(PARENT_PREFIX)) tallies.set(pk, text(item, TALLY, \"N\"));
      if (sk.startsWith(CHILD_PREFIX)) counted.set(pk, (counted.get(pk) ?? 0) + 1);
    }
    if (!page.LastEvaluatedKey) break;
    input.ExclusiveStartKey = page.LastEvaluatedKey;
  }
  const pks = [...tallies.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return pks.map((pk) => [pk, tallies.get(pk), counted.get(pk) ?? 0]);
}

async function oneParent(pk) {
  const Key = { [PK]: pk, [SK]: PARENT_SK };
  const found = (await client.send(new GetCommand({ TableName: TABLE, Key, ConsistentRead: true }))).Item;
  if (!found) {
    console.error(\"no parent\", JSON.stringify(pk), \"in\", TABLE);
    process.exit(1);
  }
  return [[pk, text(found, TALLY, \"N\"), await countChildren(pk)]];
}

";
