//! The reconcile as a whole program with ElectroDB 3: an entity of the key and the tally, read
//! with `ignoreOwnership` (the table's items were not written by ElectroDB, and it would hide
//! them otherwise) and `data: "raw"` (the items as the DocumentClient reads them, numbers as
//! `NumberValue`s, exact): every parent by its `scan`, or one parent by a consistent `get` and
//! a query of its children, every page followed (`cursor`), ending as the JavaScript reconcile
//! does. ElectroDB has no `Select: COUNT`: the children are read, and counted by the answer's
//! `Count` (a read costs the same).

use super::electro::PACKAGES;
use super::reconcile::{RECONCILE_JS_DRIFT, RECONCILE_JS_END};
use super::{Program, marked};
use crate::error::{Error, Result};
use crate::expr::codegen::{ClientSetup, ReconcileShape, Target};

impl ReconcileShape {
    /// The reconcile with ElectroDB, connecting as `setup` says; refused for a key name its
    /// templates cannot read.
    pub(super) fn reconcile_electro(&self, setup: &ClientSetup) -> Result<Program> {
        for name in [&self.keys.0, &self.keys.1] {
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(Error::Invalid(format!(
                    "ElectroDB cannot say this reconcile: the key attribute {name:?} is not one \
                     its key templates read (letters, digits, _)"
                )));
            }
        }
        let (config, profile_import) = setup.js_config();
        let code = format!(
            "{HEAD}{}\n{}\n\nconst documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({config}), {{\n  unmarshallOptions: {{ wrapNumbers: true }},\n}});\n{ENTITY}{}{READS}{}",
            profile_import.unwrap_or_default(),
            self.js_constants(),
            marked(RECONCILE_JS_DRIFT, false),
            marked(RECONCILE_JS_END, false)
        );
        Ok(Program {
            target: Target::ElectroDb,
            code,
            file: "reconcile.mjs".to_owned(),
            run: format!("npm install {PACKAGES} && node reconcile.mjs"),
        })
    }
}

const HEAD: &str = "\
// The reconcile, whole (ElectroDB): each parent's stored tally beside its counted children;
// the drifted parents printed, a JSON line each (drift = stored - counted; a missing tally has
// none), exit 1 when any drifted, 2 when the read failed. Every parent: one Scan, every page.
// One parent (ONLY): a consistent get of the parent and a query of its children, every page,
// counted by the answers' Count. Only reads: nothing is written, so nothing of ElectroDB's own.
import { DynamoDBClient } from \"@aws-sdk/client-dynamodb\";
import { DynamoDBDocumentClient, NumberValue } from \"@aws-sdk/lib-dynamodb\";
import { Entity } from \"electrodb\";
";

/// The entity: the key (its templates the names themselves, written as they are) and the tally.
const ENTITY: &str = "// The key and the tally; the key's values written as they are.
const entity = new Entity(
  {
    model: { entity: \"item\", version: \"1\", service: \"dynoscope\" },
    attributes: { [PK]: { type: \"string\" }, [SK]: { type: \"string\" }, [TALLY]: { type: \"any\" } },
    indexes: {
      primary: {
        pk: { field: PK, composite: [PK], casing: \"none\", template: \"${\" + PK + \"}\" },
        sk: { field: SK, composite: [SK], casing: \"none\", template: \"${\" + SK + \"}\" },
      },
    },
  },
  { table: TABLE, client: documentClient },
);
// The table's items were not written by ElectroDB: read them all, as they are.
const RAW = { ignoreOwnership: true, data: \"raw\" };
";

/// The reads, every page followed with ElectroDB's cursor.
const READS: &str = "
// A string attribute's text, or a number's (a NumberValue); nothing for another type.
const text = (item, name, kind) => {
  const value = item?.[name];
  if (kind === \"S\") return typeof value === \"string\" ? value : undefined;
  return value instanceof NumberValue ? value.toString() : undefined;
};

async function countChildren(pk) {
  let counted = 0;
  let cursor = null;
  do {
    const page = await entity.query
      .primary({ [PK]: pk })
      .begins({ [SK]: CHILD_PREFIX })
      .go({ ...RAW, cursor });
    counted += page.data.Count ?? 0;
    cursor = page.cursor ?? null;
  } while (cursor);
  return counted;
}

async function everyParent() {
  const tallies = new Map();
  const counted = new Map();
  let cursor = null;
  do {
    const page = await entity.scan.go({ ...RAW, cursor });
    for (const item of page.data.Items ?? []) {
      const pk = text(item, PK, \"S\");
      const sk = text(item, SK, \"S\");
      if (pk === undefined || sk === undefined) continue;
      if (sk === PARENT_SK && pk.startsWith(PARENT_PREFIX)) tallies.set(pk, text(item, TALLY, \"N\"));
      if (sk.startsWith(CHILD_PREFIX)) counted.set(pk, (counted.get(pk) ?? 0) + 1);
    }
    cursor = page.cursor ?? null;
  } while (cursor);
  const pks = [...tallies.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return pks.map((pk) => [pk, tallies.get(pk), counted.get(pk) ?? 0]);
}

async function oneParent(pk) {
  const found = (await entity.get({ [PK]: pk, [SK]: PARENT_SK }).go({ ...RAW, consistent: true })).data.Item;
  if (!found) {
    console.error(\"no parent\", JSON.stringify(pk), \"in\", TABLE);
    process.exit(1);
  }
  return [[pk, text(found, TALLY, \"N\"), await countChildren(pk)]];
}

";
