//! A query or a scan as a whole program: every page read (`LastEvaluatedKey` given back as
//! `ExclusiveStartKey` until there is none), each item printed as a line of DynamoDB JSON
//! (binary values in base64), and the items and pages counted on stderr. Reads are safe to
//! repeat, so the SDK's own retries stay on.

use super::{Program, SHOWN_JS, SHOWN_PY};
use crate::expr::codegen::literal::python;
use crate::expr::codegen::{ClientSetup, Request, Target};
use crate::value::{Layout, json};

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
            file: "read_pages.py",
            run: "pip install boto3 && python3 read_pages.py".to_owned(),
        }
    }

    /// The paging loop in the JavaScript SDK v3.
    pub(super) fn paged_js(&self, setup: &ClientSetup) -> Program {
        let call = self.call();
        let command = format!("{}Command", call.api.name);
        let fields: Vec<String> = (call.fields.iter())
            .map(|(name, field)| {
                format!("  {name}: {},", json::text(&field.json(), Layout::Compact))
            })
            .collect();
        let (config, profile_import) = setup.js_config();
        let code = format!(
            "{PAGED_JS_HEAD}import {{ DynamoDBClient, {command} }} from \"@aws-sdk/client-dynamodb\";\n{SHOWN_JS}{}const client = new DynamoDBClient({config});\n\nconst input = {{\n{}\n}};\n{PAGED_JS_LOOP_START}  const page = await client.send(new {command}(input));\n{PAGED_JS_LOOP}",
            profile_import.unwrap_or_default(),
            fields.join("\n")
        );
        Program {
            target: Target::JsClient,
            code,
            file: "read_pages.mjs",
            run: "npm install @aws-sdk/client-dynamodb@3 && node read_pages.mjs".to_owned(),
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

const PAGED_JS_HEAD: &str = "\
// A read, whole: every page (LastEvaluatedKey given back as ExclusiveStartKey until there is
// none), each item printed as a line of DynamoDB JSON; the items and pages counted on stderr.
";

const PAGED_JS_LOOP_START: &str = "
let items = 0;
let pages = 0;
for (;;) {
";

const PAGED_JS_LOOP: &str = "  pages += 1;
  for (const item of page.Items ?? []) {
    console.log(shown(item));
    items += 1;
  }
  if (!page.LastEvaluatedKey) break;
  input.ExclusiveStartKey = page.LastEvaluatedKey;
}
console.error(`${items} items, ${pages} pages`);
";
