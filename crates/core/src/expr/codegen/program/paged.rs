//! A query or a scan as a whole program: every page read (`LastEvaluatedKey` given back as
//! `ExclusiveStartKey` until there is none), each item printed as a line of DynamoDB JSON
//! (binary values in base64), and the items and pages counted on stderr. Reads are safe to
//! repeat, so the SDK's own retries stay on.

use super::{Program, SHOWN_JS, SHOWN_PY, marked, node_file};
use crate::expr::codegen::literal::{js_literal, python};
use crate::expr::codegen::{ClientSetup, Request, Target};

impl Request {
    /// The paging loop in boto3.
    pub(super) fn paged_boto3(&self, setup: &ClientSetup) -> Program {
        let call = self.call();
        let fields: Vec<String> = (call.fields.iter())
            .map(|(name, field)| {
                format!(
                    "    {}: {},",
                    python(&serde_json::json!(name)),
                    python(&field.json())
                )
            })
            .collect();
        let code = format!(
            "{PAGED_PY_HEAD}{SHOWN_PY}{}\n\nrequest = {{\n{}\n}}\n{PAGED_PY_LOOP_START}    page = client.{}(**request)\n{PAGED_PY_LOOP}",
            setup.boto3_client(),
            fields.join("\n"),
            call.api.snake
        );
        Program {
            target: Target::Boto3,
            code,
            file: "read_pages.py".to_owned(),
            run: "pip install boto3 && python3 read_pages.py".to_owned(),
        }
    }

    /// The paging loop in the JavaScript SDK v3, or in TypeScript (`ts`).
    pub(super) fn paged_js(&self, setup: &ClientSetup, ts: bool) -> Program {
        let call = self.call();
        let command = format!("{}Command", call.api.name);
        let fields: Vec<String> = (call.fields.iter())
            .map(|(name, field)| format!("  {name}: {},", js_literal(&field.json())))
            .collect();
        let (config, profile_import) = setup.js_config();
        // TypeScript types the input, whose ExclusiveStartKey the loop sets.
        let (type_import, annotation) = if ts {
            (
                format!("import type {{ {command}Input }} from \"@aws-sdk/client-dynamodb\";\n"),
                format!(": {command}Input"),
            )
        } else {
            (String::new(), String::new())
        };
        let code = format!(
            "{PAGED_JS_HEAD}import {{ DynamoDBClient, {command} }} from \"@aws-sdk/client-dynamodb\";\n{type_import}{}{}const client = new DynamoDBClient({config});\n\nconst input{annotation} = {{\n{}\n}};\n{PAGED_JS_LOOP_START}  const page = await client.send(new {command}(input));\n{PAGED_JS_LOOP}",
            marked(SHOWN_JS, ts),
            profile_import.unwrap_or_default(),
            fields.join("\n")
        );
        let (file, run) = node_file("read_pages", "@aws-sdk/client-dynamodb@3", ts);
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

const PAGED_PY_HEAD: &str = "\
# A read, whole: every page (LastEvaluatedKey given back as ExclusiveStartKey until there is
# none), each item printed as a line of DynamoDB JSON; the items and pages counted on stderr.
import base64
import json
import sys

import boto3

";

const PAGED_PY_LOOP_START: &str = "
items = pages = 0
while True:
";

const PAGED_PY_LOOP: &str = "    pages += 1
    for item in page.get(\"Items\", []):
        print(shown(item))
        items += 1
    if \"LastEvaluatedKey\" not in page:
        break
    request[\"ExclusiveStartKey\"] = page[\"LastEvaluatedKey\"]
print(items, \"items,\", pages, \"pages\", file=sys.stderr)
";

pub(super) const PAGED_JS_HEAD: &str = "\
// A read, whole: every page (LastEvaluatedKey given back as ExclusiveStartKey until there is
// none), each item printed as a line of DynamoDB JSON; the items and pages counted on stderr.
";

pub(super) const PAGED_JS_LOOP_START: &str = "
let items = 0;
let pages = 0;
for (;;) {
";

pub(super) const PAGED_JS_LOOP: &str = "  pages += 1;
  for (const item of page.Items ?? []) {
    console.log(shown(item));
    items += 1;
  }
  if (!page.LastEvaluatedKey) break;
  input.ExclusiveStartKey = page.LastEvaluatedKey;
}
console.error(`${items} items, ${pages} pages`);
";
