//! The reconcile in Rust: the same reads and the same JSON lines as the other programs (see
//! `reconcile.rs`); drifts computed exactly, digit by digit, whatever the stored number's
//! exponent.

use super::Program;
use super::rust::{indent, rust_program};
use crate::expr::codegen::{ClientSetup, ReconcileShape};

impl ReconcileShape {
    /// The reconcile in Rust, connecting as `setup` says.
    pub(super) fn reconcile_rust(&self, setup: &ClientSetup) -> Program {
        let client = indent(&setup.rust_client(), "    ");
        let only = self
            .only
            .as_ref()
            .map_or_else(|| "None".to_owned(), |pk| format!("Some({pk:?})"));
        let constants = format!(
            "const TABLE: &str = {:?};\nconst PK: &str = {:?};\nconst SK: &str = {:?};\nconst TALLY: &str = {:?};\nconst PARENT_SK: &str = {:?};\nconst PARENT_PREFIX: &str = {:?};\nconst CHILD_PREFIX: &str = {:?};\nconst ONLY: Option<&str> = {only};\n",
            self.table,
            self.keys.0,
            self.keys.1,
            self.tally,
            self.parent_sk,
            self.parent_prefix,
            self.child_prefix
        );
        let code = format!(
            "{RECONCILE_HEAD}\n{constants}{RECONCILE_READS}\n#[tokio::main]\nasync fn main() -> ExitCode {{\n{client}\n{RECONCILE_MAIN}"
        );
        rust_program("reconcile", code)
    }
}

const RECONCILE_HEAD: &str = "\
//! The reconcile, whole: each parent's stored tally beside its counted children; the drifted
//! parents printed, a JSON line each (drift = stored - counted; a missing tally has none), exit 1
//! when any drifted, 2 when the read failed. Every parent: one Scan, every page. One parent
//! (ONLY): a consistent GetItem and a COUNT Query, every page. Numbers compared exactly.
use std::collections::{BTreeMap, HashMap};
use std::process::ExitCode;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, Select};
";

const RECONCILE_READS: &str = "
type Error = Box<dyn std::error::Error>;
/// A parent: its key, its stored tally (none when missing), its counted children.
type Parent = (String, Option<String>, u64);

fn text<'a>(item: &'a HashMap<String, AttributeValue>, name: &str) -> Option<&'a str> {
    item.get(name).and_then(|v| v.as_s().ok()).map(String::as_str)
}

fn number(item: &HashMap<String, AttributeValue>, name: &str) -> Option<String> {
    item.get(name).and_then(|v| v.as_n().ok()).cloned()
}

async fn count_children(client: &Client, pk: &str) -> Result<u64, Error> {
    let mut counted = 0;
    let mut start = None;
    loop {
        let page = client
            .query()
            .table_name(TABLE)
            .key_condition_expression(\"#pk = :p AND begins_with(#sk, :c)\")
            .expression_attribute_names(\"#pk\", PK)
            .expression_attribute_names(\"#sk\", SK)
            .expression_attribute_values(\":p\", AttributeValue::S(pk.to_owned()))
            .expression_attribute_values(\":c\", AttributeValue::S(CHILD_PREFIX.to_owned()))
            .select(Select::Count)
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        counted += u64::try_from(page.count()).unwrap_or(0);
        start = page.last_evaluated_key().cloned();
        if start.is_none() {
            return Ok(counted);
        }
    }
}

async fn every_parent(client: &Client) -> Result<Vec<Parent>, Error> {
    let mut tallies: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut counted: HashMap<String, u64> = HashMap::new();
    let mut start = None;
    loop {
        let page = client
            .scan()
            .table_name(TABLE)
            .projection_expression(\"#pk, #sk, #t\")
            .expression_attribute_names(\"#pk\", PK)
            .expression_attribute_names(\"#sk\", SK)
            .expression_attribute_names(\"#t\", TALLY)
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        for item in page.items() {
            let (Some(pk), Some(sk)) = (text(item, PK), text(item, SK)) else {
                continue;
            };
            if sk == PARENT_SK && pk.starts_with(PARENT_PREFIX) {
                tallies.insert(pk.to_owned(), number(item, TALLY));
            }
            if sk.starts_with(CHILD_PREFIX) {
                *counted.entry(pk.to_owned()).or_default() += 1;
            }
        }
        start = page.last_evaluated_key().cloned();
        if start.is_none() {
            break;
        }
    }
    let parents = tallies.into_iter().map(|(pk, stored)| {
        let children = counted.get(&pk).copied().unwrap_or(0);
        (pk, stored, children)
    });
    Ok(parents.collect())
}

async fn one_parent(client: &Client, pk: &str) -> Result<Vec<Parent>, Error> {
    let found = client
        .get_item()
        .table_name(TABLE)
        .key(PK, AttributeValue::S(pk.to_owned()))
        .key(SK, AttributeValue::S(PARENT_SK.to_owned()))
        .consistent_read(true)
        .send()
        .await?;
    let Some(item) = found.item() else {
        eprintln!(\"no parent {pk:?} in {TABLE}\");
        std::process::exit(1);
    };
    let stored = number(item, TALLY);
    Ok(vec![(pk.to_owned(), stored, count_children(client, pk).await?)])
}

/// stored - counted as exact decimal text: the stored number's digits (any exponent DynamoDB
/// keeps, 1E+125 to 1E-130) lined up with the count's and subtracted digit by digit.
fn drift(stored: &str, counted: u64) -> String {
    exact(stored, counted).unwrap_or_else(|| format!(\"{stored} - {counted}\"))
}

fn exact(stored: &str, counted: u64) -> Option<String> {
    let (mantissa, exponent) = match stored.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, exponent.parse::<i64>().ok()?),
        None => (stored, 0),
    };
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(mantissa) => (true, mantissa),
        None => (false, mantissa),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, \"\"));
    let all = || whole.bytes().chain(fraction.bytes());
    if whole.is_empty() || !all().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut digits: Vec<u8> = all().map(|b| b - b'0').collect();
    let mut places = i64::try_from(fraction.len()).ok()? - exponent;
    if places < 0 {
        digits.extend(std::iter::repeat_n(0, usize::try_from(-places).ok()?));
        places = 0;
    }
    let places = usize::try_from(places).ok()?;
    let mut count: Vec<u8> = counted.to_string().bytes().map(|b| b - b'0').collect();
    count.extend(std::iter::repeat_n(0, places));
    let (below, units) = if negative {
        (true, add(&digits, &count))
    } else if compare(&digits, &count).is_ge() {
        (false, subtract(&digits, &count))
    } else {
        (true, subtract(&count, &digits))
    };
    let text: String = trimmed(&units).iter().map(|d| char::from(b'0' + d)).collect();
    if text.is_empty() {
        return Some(\"0\".to_owned());
    }
    let padded = format!(\"{text:0>width$}\", width = places + 1);
    let (int, fraction) = padded.split_at(padded.len() - places);
    let fraction = fraction.trim_end_matches('0');
    let sign = if below { \"-\" } else { \"\" };
    let point = if fraction.is_empty() { \"\" } else { \".\" };
    Some(format!(\"{sign}{int}{point}{fraction}\"))
}

/// Digits, most significant first, without their leading zeros.
fn trimmed(digits: &[u8]) -> &[u8] {
    let first = digits.iter().position(|&d| d != 0).unwrap_or(digits.len());
    &digits[first..]
}

fn compare(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let (a, b) = (trimmed(a), trimmed(b));
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

fn add(a: &[u8], b: &[u8]) -> Vec<u8> {
    let (mut a, mut b) = (a.iter().rev(), b.iter().rev());
    let (mut sum, mut carry) = (Vec::new(), 0);
    loop {
        let (x, y) = (a.next(), b.next());
        if x.is_none() && y.is_none() && carry == 0 {
            break;
        }
        let s = x.unwrap_or(&0) + y.unwrap_or(&0) + carry;
        sum.push(s % 10);
        carry = s / 10;
    }
    sum.reverse();
    sum
}

/// a - b, where a is at least b.
fn subtract(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut b = b.iter().rev();
    let (mut difference, mut borrow) = (Vec::new(), 0);
    for &x in a.iter().rev() {
        let y = b.next().copied().unwrap_or(0) + borrow;
        let (d, next) = if x >= y { (x - y, 0) } else { (x + 10 - y, 1) };
        difference.push(d);
        borrow = next;
    }
    difference.reverse();
    difference
}
";

const RECONCILE_MAIN: &str = "    let read = match ONLY {
        Some(pk) => one_parent(&client, pk).await,
        None => every_parent(&client).await,
    };
    let parents = match read {
        Ok(parents) => parents,
        Err(error) => {
            eprintln!(\"the read failed, nothing was checked: {error}\");
            return ExitCode::from(2);
        }
    };
    let mut drifted = 0;
    for (pk, stored, counted) in &parents {
        let drift = stored.as_deref().map(|s| drift(s, *counted));
        if drift.as_deref() == Some(\"0\") {
            continue;
        }
        drifted += 1;
        let line = serde_json::json!({
            \"pk\": pk,
            \"stored\": stored,
            \"counted\": counted.to_string(),
            \"drift\": drift,
        });
        println!(\"{line}\");
    }
    eprintln!(\"{} parents checked, {drifted} drifted\", parents.len());
    if drifted > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
";
