//! The reconcile as a whole program: every parent's stored tally beside its counted children,
//! the drifted parents printed, a JSON line each (`pk`, `stored`, `counted`, `drift` = stored −
//! counted, as `dynoscope check` says them), exit 1 when any drifted. Every parent: one Scan,
//! every page followed (`LastEvaluatedKey`). One parent: a consistent GetItem of the parent and
//! a `Select: COUNT` Query of its children, every page summed. Reads are safe to repeat, so the
//! SDK's own retries stay on. The shape's text appears only in the constants at the top, as
//! string literals; numbers are compared exactly (Python's `Decimal`, JavaScript's `BigInt`).

use super::{PROGRAM_TARGETS, Program, marked, node_file};
use crate::error::{Error, Result};
use crate::expr::codegen::{ClientSetup, Target};

/// What a reconcile reads: a table whose string keys are `pk`/`sk`, parents with sort key
/// `parent_sk` (and partition keys beginning `parent_prefix`) holding `tally`, children in the
/// parent's partition with sort keys beginning `child_prefix`; `only` one parent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReconcileShape {
    /// The table.
    pub table: String,
    /// The partition and sort key attributes.
    pub keys: (String, String),
    /// The tally attribute.
    pub tally: String,
    /// A parent's sort key.
    pub parent_sk: String,
    /// A parent's partition key prefix (empty: any).
    pub parent_prefix: String,
    /// A child's sort key prefix.
    pub child_prefix: String,
    /// One parent's partition key, or every parent.
    pub only: Option<String>,
}

/// A string literal in Python and JavaScript alike (JSON's quoting is valid in both).
pub(super) fn quoted(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

impl ReconcileShape {
    /// The shape's words as string literals, by their constants' names (`ONLY` Python's `None`
    /// or JavaScript's `null` when every parent is read).
    fn constants(&self, python: bool) -> [(&'static str, String); 8] {
        let none = if python { "None" } else { "null" };
        [
            ("TABLE", quoted(&self.table)),
            ("PK", quoted(&self.keys.0)),
            ("SK", quoted(&self.keys.1)),
            ("TALLY", quoted(&self.tally)),
            ("PARENT_SK", quoted(&self.parent_sk)),
            ("PARENT_PREFIX", quoted(&self.parent_prefix)),
            ("CHILD_PREFIX", quoted(&self.child_prefix)),
            (
                "ONLY",
                self.only.as_deref().map_or_else(|| none.to_owned(), quoted),
            ),
        ]
    }

    /// The constants as JavaScript: `const TABLE = "…";`, a line each.
    pub(super) fn js_constants(&self) -> String {
        let lines: Vec<String> = (self.constants(false).iter())
            .map(|(name, value)| format!("const {name} = {value};"))
            .collect();
        lines.join("\n")
    }

    /// The reconcile as a whole program in `target`, connecting as `setup` says.
    pub fn program(&self, target: Target, setup: &ClientSetup) -> Result<Program> {
        let constants = self.constants(target == Target::Boto3);
        match target {
            Target::Boto3 => {
                let lines: Vec<String> = constants
                    .iter()
                    .map(|(n, v)| format!("{n} = {v}"))
                    .collect();
                let code = format!(
                    "{RECONCILE_PY_HEAD}{}\n\n{}\n{RECONCILE_PY_BODY}",
                    setup.boto3_client(),
                    lines.join("\n")
                );
                Ok(program(target, code))
            }
            Target::JsClient | Target::TypeScript => {
                let ts = target == Target::TypeScript;
                let lines: Vec<String> = (constants.iter())
                    .map(|(n, v)| match (*n, ts) {
                        ("ONLY", true) => format!("const ONLY: string | null = {v};"),
                        _ => format!("const {n} = {v};"),
                    })
                    .collect();
                let (config, profile_import) = setup.js_config();
                let code = format!(
                    "{}{}const client = new DynamoDBClient({config});\n\n{}\n{}",
                    marked(RECONCILE_JS_HEAD, ts),
                    profile_import.unwrap_or_default(),
                    lines.join("\n"),
                    marked(
                        &format!("{RECONCILE_JS_DRIFT}{RECONCILE_JS_READS}{RECONCILE_JS_END}"),
                        ts
                    )
                );
                Ok(program(target, code))
            }
            Target::Go => Ok(self.reconcile_go(setup)),
            Target::Cli => Ok(self.reconcile_cli(setup)),
            Target::Rust => Ok(self.reconcile_rust(setup)),
            Target::Toolbox => Ok(self.reconcile_toolbox(setup)),
            Target::JsDocument => Ok(self.reconcile_document(setup)),
            Target::ElectroDb => self.reconcile_electro(setup),
            other => Err(Error::Invalid(format!(
                "a whole program is written in {PROGRAM_TARGETS}; {} is not one",
                other.label()
            ))),
        }
    }
}

fn program(target: Target, code: String) -> Program {
    let (file, run) = match target {
        Target::JsClient | Target::TypeScript => node_file(
            "reconcile",
            "@aws-sdk/client-dynamodb@3",
            target == Target::TypeScript,
        ),
        _ => (
            "reconcile.py".to_owned(),
            "pip install boto3 && python3 reconcile.py".to_owned(),
        ),
    };
    Program {
        target,
        code,
        file,
        run,
    }
}

const RECONCILE_PY_HEAD: &str = "\
# The reconcile, whole: each parent's stored tally beside its counted children; the drifted
# parents printed, a JSON line each (drift = stored - counted; a missing tally has none), exit 1
# when any drifted, 2 when the read failed. Every parent: one Scan, every page. One parent
# (ONLY): a consistent GetItem and a COUNT Query, every page. Numbers compared exactly.
import json
import sys
from decimal import Decimal, getcontext

import boto3
from botocore.exceptions import BotoCoreError, ClientError

# DynamoDB's numbers span 1E+125 to 1E-130: drifts are computed with every digit kept.
getcontext().prec = 300

";

const RECONCILE_PY_BODY: &str = "
def text(item, name, kind):
    return item.get(name, {}).get(kind)


def count_children(pk):
    args = {
        \"TableName\": TABLE,
        \"KeyConditionExpression\": \"#pk = :p AND begins_with(#sk, :c)\",
        \"ExpressionAttributeNames\": {\"#pk\": PK, \"#sk\": SK},
        \"ExpressionAttributeValues\": {\":p\": {\"S\": pk}, \":c\": {\"S\": CHILD_PREFIX}},
        \"Select\": \"COUNT\",
    }
    counted = 0
    while True:
        page = client.query(**args)
        counted += page[\"Count\"]
        if \"LastEvaluatedKey\" not in page:
            return counted
        args[\"ExclusiveStartKey\"] = page[\"LastEvaluatedKey\"]


def every_parent():
    tallies, counted = {}, {}
    args = {
        \"TableName\": TABLE,
        \"ProjectionExpression\": \"#pk, #sk, #t\",
        \"ExpressionAttributeNames\": {\"#pk\": PK, \"#sk\": SK, \"#t\": TALLY},
    }
    while True:
        page = client.scan(**args)
        for item in page[\"Items\"]:
            pk, sk = text(item, PK, \"S\"), text(item, SK, \"S\")
            if pk is None or sk is None:
                continue
            if sk == PARENT_SK and pk.startswith(PARENT_PREFIX):
                tallies[pk] = text(item, TALLY, \"N\")
            if sk.startswith(CHILD_PREFIX):
                counted[pk] = counted.get(pk, 0) + 1
        if \"LastEvaluatedKey\" not in page:
            return [(pk, tallies[pk], counted.get(pk, 0)) for pk in sorted(tallies)]
        args[\"ExclusiveStartKey\"] = page[\"LastEvaluatedKey\"]


def one_parent(pk):
    key = {PK: {\"S\": pk}, SK: {\"S\": PARENT_SK}}
    found = client.get_item(TableName=TABLE, Key=key, ConsistentRead=True).get(\"Item\")
    if found is None:
        print(\"no parent\", json.dumps(pk), \"in\", TABLE, file=sys.stderr)
        sys.exit(1)
    return [(pk, text(found, TALLY, \"N\"), count_children(pk))]


try:
    parents = one_parent(ONLY) if ONLY is not None else every_parent()
except (BotoCoreError, ClientError) as error:
    print(\"the read failed, nothing was checked:\", error, file=sys.stderr)
    sys.exit(2)
drifted = 0
for pk, stored, counted in parents:
    if stored is not None and Decimal(stored) == counted:
        continue
    drifted += 1
    drift = None if stored is None else str(Decimal(stored) - counted)
    print(json.dumps({\"pk\": pk, \"stored\": stored, \"counted\": str(counted), \"drift\": drift}))
print(len(parents), \"parents checked,\", drifted, \"drifted\", file=sys.stderr)
sys.exit(1 if drifted else 0)
";

const RECONCILE_JS_HEAD: &str = "\
// The reconcile, whole: each parent's stored tally beside its counted children; the drifted
// parents printed, a JSON line each (drift = stored - counted; a missing tally has none), exit 1
// when any drifted, 2 when the read failed. Every parent: one Scan, every page. One parent
// (ONLY): a consistent GetItem and a COUNT Query, every page. Tallies compared exactly (a whole
// number as a BigInt; a fraction in whole units of its decimals, as BigInts too).
import {
  DynamoDBClient,
  GetItemCommand,
  QueryCommand,
  ScanCommand,
} from \"@aws-sdk/client-dynamodb\";
«import type { QueryCommandInput, ScanCommandInput } from \"@aws-sdk/client-dynamodb\";
»
";

/// A parent's type (TypeScript) and the exact drift, as text.
pub(super) const RECONCILE_JS_DRIFT: &str = "
«// A parent: its key, its stored tally (none when missing), its counted children.
type Parent = [string, string | undefined, number];
»// Drift as text, exactly: stored - counted, in whole units of the stored number's decimals
// (its exponent, if any, applied first).
const driftOf = (stored«: string», counted«: number») => {
  const match = /^(-?)(\\d+)(?:\\.(\\d+))?(?:[eE]([+-]?\\d+))?$/.exec(stored);
  if (!match) return `${stored} - ${counted}`;
  const [, minus, whole, fraction = \"\", exponent = \"0\"] = match;
  let digits = BigInt(whole + fraction);
  let places = fraction.length - Number(exponent);
  if (places < 0) {
    digits *= 10n ** BigInt(-places);
    places = 0;
  }
  const scale = 10n ** BigInt(places);
  let units = (minus ? -digits : digits) - BigInt(counted) * scale;
  const sign = units < 0n ? \"-\" : \"\";
  if (units < 0n) units = -units;
  const rest = (units % scale).toString().padStart(places, \"0\").replace(/0+$/, \"\");
  return sign + (units / scale).toString() + (rest ? \".\" + rest : \"\");
};

";

const RECONCILE_JS_READS: &str = "
const text = (item«: any», name«: string», kind«: string»)«: string | undefined» => item?.[name]?.[kind];
async function countChildren(pk«: string») {
  const input«: QueryCommandInput» = {
    TableName: TABLE,
    KeyConditionExpression: \"#pk = :p AND begins_with(#sk, :c)\",
    ExpressionAttributeNames: { \"#pk\": PK, \"#sk\": SK },
    ExpressionAttributeValues: { \":p\": { S: pk }, \":c\": { S: CHILD_PREFIX } },
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
  const tallies = new Map«<string, string | undefined>»();
  const counted = new Map«<string, number>»();
  const input«: ScanCommandInput» = {
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
  return pks.map((pk)«: Parent» => [pk, tallies.get(pk), counted.get(pk) ?? 0]);
}

async function oneParent(pk«: string»)«: Promise<Parent[]>» {
  const Key = { [PK]: { S: pk }, [SK]: { S: PARENT_SK } };
  const found = (await client.send(new GetItemCommand({ TableName: TABLE, Key, ConsistentRead: true }))).Item;
  if (!found) {
    console.error(\"no parent\", JSON.stringify(pk), \"in\", TABLE);
    process.exit(1);
  }
  return [[pk, text(found, TALLY, \"N\"), await countChildren(pk)]];
}

";

/// The drifted parents printed, and the exit.
pub(super) const RECONCILE_JS_END: &str = "let parents«: Parent[]»;
try {
  parents = ONLY !== null ? await oneParent(ONLY) : await everyParent();
} catch (error«: any») {
  console.error(\"the read failed, nothing was checked:\", error.name, error.message);
  process.exit(2);
}
let drifted = 0;
for (const [pk, stored, counted] of parents) {
  const drift = stored === undefined ? null : driftOf(stored, counted);
  if (drift === \"0\") continue;
  drifted += 1;
  console.log(JSON.stringify({ pk, stored: stored ?? null, counted: String(counted), drift }));
}
console.error(`${parents.length} parents checked, ${drifted} drifted`);
// Ended by itself, not by process.exit: every line printed reaches a pipe first.
process.exitCode = drifted ? 1 : 0;
";
