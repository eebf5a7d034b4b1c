//! A table as a Terraform `aws_dynamodb_table` resource, laid out as `terraform fmt` lays it
//! out: two spaces a level, the `=` of consecutive one-line arguments aligned, a blank line
//! before each nested block.

use crate::schema::{BillingSpec, IndexSpec, ProjectionSpec, TableSpec, type_letter};

/// The provider the resource needs, so that the file stands alone.
const PROVIDERS: &str = "terraform {
  required_providers {
    aws = {
      source  = \"hashicorp/aws\"
      version = \">= 5.0\"
    }
  }
}
";

/// One line or block of a body.
enum Item {
    /// `name = value`, the value written already.
    Arg(&'static str, String),
    /// `name { … }`.
    Block(&'static str, Vec<Item>),
    /// `name = { "key" = "value" … }`.
    Map(&'static str, Vec<(String, String)>),
}

pub(super) fn render(spec: &TableSpec) -> String {
    let mut args = vec![
        Item::Arg("name", quote(&spec.name)),
        Item::Arg("billing_mode", quote(spec.billing.mode())),
    ];
    args.extend(capacity(spec.billing));
    args.push(Item::Arg("hash_key", quote(&spec.partition.name)));
    if let Some(sort) = &spec.sort {
        args.push(Item::Arg("range_key", quote(&sort.name)));
    }
    if let Some(view) = spec.stream {
        args.push(Item::Arg("stream_enabled", "true".to_owned()));
        args.push(Item::Arg("stream_view_type", quote(view.name())));
    }
    args.push(Item::Arg(
        "deletion_protection_enabled",
        spec.deletion_protection.to_string(),
    ));
    args.push(Item::Arg("table_class", quote(spec.class.name())));
    for key in spec.attribute_definitions() {
        args.push(Item::Block(
            "attribute",
            vec![
                Item::Arg("name", quote(&key.name)),
                Item::Arg("type", quote(type_letter(key.kind))),
            ],
        ));
    }
    for index in &spec.global {
        let mut body = vec![
            Item::Arg("name", quote(&index.name)),
            Item::Arg("hash_key", quote(&index.partition.name)),
        ];
        body.extend(index_rest(index));
        body.extend(capacity(spec.billing));
        args.push(Item::Block("global_secondary_index", body));
    }
    for index in &spec.local {
        let mut body = vec![Item::Arg("name", quote(&index.name))];
        body.extend(index_rest(index));
        args.push(Item::Block("local_secondary_index", body));
    }
    if let Some(ttl) = &spec.ttl {
        let body = vec![
            Item::Arg("attribute_name", quote(ttl)),
            Item::Arg("enabled", "true".to_owned()),
        ];
        args.push(Item::Block("ttl", body));
    }
    if spec.pitr {
        let body = vec![Item::Arg("enabled", "true".to_owned())];
        args.push(Item::Block("point_in_time_recovery", body));
    }
    if !spec.tags.is_empty() {
        let tags = spec.tags.iter().map(|(k, v)| (key(k), quote(v)));
        args.push(Item::Map("tags", tags.collect()));
    }
    let mut out = String::from(PROVIDERS);
    out.push('\n');
    out.push_str(&format!(
        "resource \"aws_dynamodb_table\" \"{}\" {{\n",
        identifier(&spec.name)
    ));
    body(&mut out, &args, 1);
    out.push_str("}\n");
    out
}

/// `read_capacity` and `write_capacity`, when provisioned.
fn capacity(billing: BillingSpec) -> Vec<Item> {
    match billing {
        BillingSpec::OnDemand => Vec::new(),
        BillingSpec::Provisioned { rcu, wcu } => vec![
            Item::Arg("read_capacity", rcu.to_string()),
            Item::Arg("write_capacity", wcu.to_string()),
        ],
    }
}

/// An index's sort key and projection.
fn index_rest(index: &IndexSpec) -> Vec<Item> {
    let mut items = Vec::new();
    if let Some(sort) = &index.sort {
        items.push(Item::Arg("range_key", quote(&sort.name)));
    }
    items.push(Item::Arg("projection_type", quote(index.projection.kind())));
    if let ProjectionSpec::Include(names) = &index.projection {
        let names: Vec<String> = names.iter().map(|n| quote(n)).collect();
        items.push(Item::Arg(
            "non_key_attributes",
            format!("[{}]", names.join(", ")),
        ));
    }
    items
}

/// Writes `items` at `level`: runs of arguments with their `=` aligned, and a blank line
/// between a run and a block and between blocks, as `terraform fmt` does.
fn body(out: &mut String, items: &[Item], level: usize) {
    let indent = "  ".repeat(level);
    let mut previous: Option<bool> = None;
    for (i, item) in items.iter().enumerate() {
        let is_arg = matches!(item, Item::Arg(..));
        if previous.is_some() && !(is_arg && previous == Some(true)) {
            out.push('\n');
        }
        previous = Some(is_arg);
        match item {
            Item::Arg(name, value) => {
                let width = items[run_start(items, i)..]
                    .iter()
                    .map_while(|item| match item {
                        Item::Arg(name, _) => Some(name.len()),
                        _ => None,
                    })
                    .max()
                    .unwrap_or(name.len());
                out.push_str(&format!("{indent}{name:<width$} = {value}\n"));
            }
            Item::Block(name, inner) => {
                out.push_str(&format!("{indent}{name} {{\n"));
                body(out, inner, level + 1);
                out.push_str(&format!("{indent}}}\n"));
            }
            Item::Map(name, entries) => {
                out.push_str(&format!("{indent}{name} = {{\n"));
                // The keys are ASCII (see `key`), so a byte is a column.
                let width = entries.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
                for (k, v) in entries {
                    out.push_str(&format!("{indent}  {k:<width$} = {v}\n"));
                }
                out.push_str(&format!("{indent}}}\n"));
            }
        }
    }
}

/// Where the run of arguments that holds `items[i]` starts.
fn run_start(items: &[Item], i: usize) -> usize {
    items[..i]
        .iter()
        .rposition(|item| !matches!(item, Item::Arg(..)))
        .map_or(0, |p| p + 1)
}

/// `text` as an HCL quoted string that reads back as `text`: quotes, backslashes and control
/// characters escaped, and `${` and `%{` doubled to `$${` and `%%{` so that they are not read
/// as interpolation or a directive.
pub(crate) fn quote(text: &str) -> String {
    escaped(text, false)
}

/// A map key: quoted as [`quote`] does, with every character past ASCII written as `\u`. Then
/// its width in columns is its length in bytes, which is how far `terraform fmt` aligns the `=`
/// after it (fmt counts characters, and a character is not always a column).
fn key(text: &str) -> String {
    escaped(text, true)
}

fn escaped(text: &str, ascii: bool) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if c.is_control() || (ascii && !c.is_ascii()) => {
                let code = u32::from(c);
                if code > 0xFFFF {
                    out.push_str(&format!("\\U{code:08X}"));
                } else {
                    out.push_str(&format!("\\u{code:04X}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `name` as a Terraform resource name: lower case, words joined by `_` (`MyTable.v2` →
/// `my_table_v2`), starting with a letter or `_`.
pub(crate) fn identifier(name: &str) -> String {
    let mut out = String::new();
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if c.is_ascii_uppercase()
            && previous.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
        {
            out.push('_');
        }
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            out.push(c.to_ascii_lowercase());
        } else {
            out.push('_');
        }
        previous = Some(c);
    }
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert_str(0, "table_");
    }
    out
}
