//! Reads as whole programs with dynamodb-toolbox v2, on the table alone (no entity: its items
//! come back as the DocumentClient reads them, numbers as `NumberValue`s, exact): the
//! reconcile — every parent by one `ScanCommand`, or one parent by a consistent query of its
//! parent item and a `select: "COUNT"` query of its children, every page followed with
//! `exclusiveStartKey` — ending as the JavaScript reconcile does; and a query with its paging
//! loop, an item a line.

use super::reconcile::{RECONCILE_JS_DRIFT, RECONCILE_JS_END};
use super::toolbox::{PACKAGES, SHOWN};
use super::{Program, marked};
use crate::error::Result;
use crate::expr::codegen::{ClientSetup, ReconcileShape, Request, Target};

impl ReconcileShape {
    /// The reconcile with dynamodb-toolbox, connecting as `setup` says.
    pub(super) fn reconcile_toolbox(&self, setup: &ClientSetup) -> Program {
        let (config, profile_import) = setup.js_config();
        let code = format!(
            "{RECONCILE_HEAD}{}\n{}\n\nconst documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({config}), {{\n  unmarshallOptions: {{ wrapNumbers: true }},\n}});\nconst table = new Table({{\n  name: TABLE,\n  partitionKey: {{ name: PK, type: \"string\" }},\n  sortKey: {{ name: SK, type: \"string\" }},\n  documentClient,\n}});\n{}{RECONCILE_READS}{}",
            profile_import.unwrap_or_default(),
            self.js_constants(),
            marked(RECONCILE_JS_DRIFT, false),
            marked(RECONCILE_JS_END, false)
        );
        Program {
            target: Target::Toolbox,
            code,
            file: "reconcile.mjs".to_owned(),
            run: format!("npm install {PACKAGES} && node reconcile.mjs"),
        }
    }
}

impl Request {
    /// A query with dynamodb-toolbox, every page read, an item a line.
    pub(super) fn paged_toolbox(&self, setup: &ClientSetup) -> Result<Program> {
        let code = self.toolbox_paged(setup)?;
        let call = code.call.replace('\n', "\n    ");
        let code = format!(
            "{PAGED_HEAD}{}\n{SHOWN}let exclusiveStartKey;\nlet items = 0;\nlet pages = 0;\ntry {{\n  do {{\n    const page = await {call};\n{PAGED_TAIL}",
            code.head(&[]),
        );
        Ok(Program {
            target: Target::Toolbox,
            code,
            file: "read.mjs".to_owned(),
            run: format!("npm install {PACKAGES} && node read.mjs"),
        })
    }
}

const RECONCILE_HEAD: &str = "\
// The reconcile, whole (dynamodb-toolbox): each parent's stored tally beside its counted
// children; the drifted parents printed, a JSON line each (drift = stored - counted; a missing
// tally has none), exit 1 when any drifted, 2 when the read failed. Every parent: one Scan,
// every page. One parent (ONLY): a consistent query of the parent item and a COUNT query of
// its children, every page. Tallies compared exactly (read as NumberValue, their text).
import { DynamoDBClient } from \"@aws-sdk/client-dynamodb\";
import { DynamoDBDocumentClient, NumberValue } from \"@aws-sdk/lib-dynamodb\";
import { QueryCommand, ScanCommand, Table } from \"dynamodb-toolbox\";
";

/// The reads: the table alone, no entity, so items come back as they are stored.
const RECONCILE_READS: &str = "
// A string attribute's text, or a number's (a NumberValue); nothing for another type.
const text = (item, name, kind) => {
  const value = item?.[name];
  if (kind === \"S\") return typeof value === \"string\" ? value : undefined;
  return value instanceof NumberValue ? value.toString() : undefined;
};

async function countChildren(pk) {
  let counted = 0;
  let exclusiveStartKey;
  do {
    const page = await table
      .build(QueryCommand)
      .query({ partition: pk, range: { beginsWith: CHILD_PREFIX } })
      .options({ select: \"COUNT\", exclusiveStartKey })
      .send();
    counted += page.Count ?? 0;
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
  return counted;
}

async function everyParent() {
  const tallies = new Map();
  const counted = new Map();
  let exclusiveStartKey;
  do {
    const page = await table.build(ScanCommand).options({ exclusiveStartKey }).send();
    for (const item of page.Items ?? []) {
      const pk = text(item, PK, \"S\");
      const sk = text(item, SK, \"S\");
      if (pk === undefined || sk === undefined) continue;
      if (sk === PARENT_SK && pk.startsWith(PARENT_PREFIX)) tallies.set(pk, text(item, TALLY, \"N\"));
      if (sk.startsWith(CHILD_PREFIX)) counted.set(pk, (counted.get(pk) ?? 0) + 1);
    }
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
  const pks = [...tallies.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return pks.map((pk) => [pk, tallies.get(pk), counted.get(pk) ?? 0]);
}

async function oneParent(pk) {
  // The parent item, read consistently (a query of its one key, as a GetItem reads it).
  const { Items } = await table
    .build(QueryCommand)
    .query({ partition: pk, range: { eq: PARENT_SK } })
    .options({ consistent: true })
    .send();
  const found = Items?.[0];
  if (!found) {
    console.error(\"no parent\", JSON.stringify(pk), \"in\", TABLE);
    process.exit(1);
  }
  return [[pk, text(found, TALLY, \"N\"), await countChildren(pk)]];
}

";

const PAGED_HEAD: &str = "\
// A query, whole (dynamodb-toolbox): every page read (LastEvaluatedKey given back as
// exclusiveStartKey), an item a line of JSON as the DocumentClient reads it (numbers exact,
// binary in base64); items and pages counted on stderr. Exit 0 read, 2 the read failed.
";

const PAGED_TAIL: &str = "    pages += 1;
    for (const item of page.Items ?? []) {
      console.log(shown(item));
      items += 1;
    }
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
} catch (error) {
  console.error(\"the read failed:\", error.name, error.message);
  process.exit(2);
}
console.error(`${items} items in ${pages} pages`);
";
