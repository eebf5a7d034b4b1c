//! Go, the AWS SDK for Go v2: a `main.go` that builds the client of the connection and sends
//! the request, the expressions and their placeholders as every other target writes them.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::expr::codegen::langs::{Quoting, block, c_str, enum_type, indented, pascal};
use crate::expr::codegen::setup::LOCAL_KEY;
use crate::expr::codegen::{Call, ClientSetup, Field};

/// A Go string literal.
pub(crate) fn s(text: &str) -> String {
    c_str(text, Quoting::Go)
}

/// A byte string as Go writes it: `[]byte("…")`, every byte outside printable ASCII as `\xNN`.
fn bytes(b: &[u8]) -> String {
    let mut out = String::from("[]byte(\"");
    for &byte in b {
        match byte {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(char::from(byte));
            }
            b' '..=b'~' => out.push(char::from(byte)),
            other => out.push_str(&format!("\\x{other:02x}")),
        }
    }
    out.push_str("\")");
    out
}

fn strings(values: &[String]) -> String {
    values.iter().map(|v| s(v)).collect::<Vec<_>>().join(", ")
}

/// A value as the SDK's union member: `&types.AttributeValueMemberN{Value: "5"}`.
pub(crate) fn value(v: &AttributeValue) -> String {
    let (member, inner) = match v {
        AttributeValue::S(text) => ("S", s(text)),
        AttributeValue::N(n) => ("N", s(n)),
        AttributeValue::Bool(b) => ("BOOL", b.to_string()),
        AttributeValue::B(b) => ("B", bytes(b.as_ref())),
        AttributeValue::Ss(v) => ("SS", format!("[]string{{{}}}", strings(v))),
        AttributeValue::Ns(v) => ("NS", format!("[]string{{{}}}", strings(v))),
        AttributeValue::Bs(v) => (
            "BS",
            format!(
                "[][]byte{{{}}}",
                v.iter()
                    .map(|b| bytes(b.as_ref()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        AttributeValue::L(items) => (
            "L",
            format!(
                "[]types.AttributeValue{{{}}}",
                items.iter().map(value).collect::<Vec<_>>().join(", ")
            ),
        ),
        AttributeValue::M(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let entries: Vec<String> = entries
                .into_iter()
                .map(|(k, v)| format!("{}: {}", s(k), value(v)))
                .collect();
            (
                "M",
                format!("map[string]types.AttributeValue{{{}}}", entries.join(", ")),
            )
        }
        _ => ("NULL", "true".to_owned()),
    };
    format!("&types.AttributeValueMember{member}{{Value: {inner}}}")
}

/// The struct fields of `fields`, one per entry, aligned as gofmt aligns them.
pub(crate) fn fields(fields: &[(&'static str, Field)]) -> Vec<String> {
    aligned(pairs(fields))
}

/// The struct fields of `fields` as (name, value).
pub(crate) fn pairs(fields: &[(&'static str, Field)]) -> Vec<(String, String)> {
    fields
        .iter()
        .map(|(name, field)| ((*name).to_owned(), field_value(name, field)))
        .collect()
}

/// `key: value` entries a line each, the values of a run of one-line entries in one column,
/// as gofmt lays out a composite literal (go/printer's exprList): an entry of several lines
/// stands alone, and past 40 characters a key whose size is far from the run's (2.5 times
/// the geometric mean of the run's keys, either way) starts a new run.
pub(crate) fn aligned(pairs: Vec<(String, String)>) -> Vec<String> {
    let mut runs: Vec<Vec<(String, String)>> = Vec::new();
    let (mut log_sum, mut count, mut previous) = (0.0_f64, 0_u32, 0_usize);
    for (key, value) in pairs {
        let size = if value.contains('\n') { 0 } else { key.len() };
        let joins = previous > 0
            && size > 0
            && (count == 0 || (previous <= 40 && size <= 40) || {
                let ratio = size as f64 / (log_sum / f64::from(count)).exp();
                2.5 * ratio > 1.0 && ratio < 2.5
            });
        match runs.last_mut() {
            Some(run) if joins => run.push((key, value)),
            _ => {
                // A new run starts the geometric mean anew.
                runs.push(vec![(key, value)]);
                (log_sum, count) = (0.0, 0);
            }
        }
        if size > 0 {
            log_sum += (size as f64).ln();
            count += 1;
        }
        previous = size;
    }
    runs.into_iter()
        .flat_map(|run| {
            let width = run.iter().map(|(k, _)| k.len()).max().unwrap_or(0) + 1;
            run.into_iter()
                .map(move |(k, v)| format!("{:<width$} {v}", format!("{k}:")))
        })
        .collect()
}

fn field_value(name: &str, field: &Field) -> String {
    match field {
        Field::Text(t) => format!("aws.String({})", s(t)),
        Field::Option(o) => format!("types.{}{}", enum_type(name), pascal(o)),
        Field::Names(names) => {
            let parts = aligned((names.iter()).map(|(k, v)| (s(k), s(v))).collect());
            block("map[string]string{", &parts, "}", "\t", "nil")
        }
        Field::Item(item) => {
            let mut entries: Vec<_> = item.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let parts = aligned(
                (entries.into_iter())
                    .map(|(k, v)| (s(k), value(v)))
                    .collect(),
            );
            block("map[string]types.AttributeValue{", &parts, "}", "\t", "nil")
        }
        Field::Values(values) => {
            let parts: Vec<String> = values.iter().map(value).collect();
            block("[]types.AttributeValue{", &parts, "}", "\t", "nil")
        }
        Field::Writes(writes) => {
            let parts: Vec<String> = (writes.iter())
                .map(|(kind, inner_fields)| {
                    let body = fields(inner_fields);
                    let kind_block = block(&format!("&types.{kind}{{"), &body, "}", "\t", "");
                    format!("{{{kind}: {kind_block}}}")
                })
                .collect();
            block("[]types.TransactWriteItem{", &parts, "}", "\t", "nil")
        }
    }
}

/// The lines of a Go `main` that make `client` for a connection, and the packages they use.
#[derive(Debug, Clone)]
pub(crate) struct GoClient {
    /// The statements, indented one tab, ending with `client := …`.
    pub(crate) lines: String,
    /// The import paths they need besides `context` and `service/dynamodb`.
    pub(crate) imports: Vec<&'static str>,
}

impl GoClient {
    /// The client of `setup`, with `extra` load options (`config.WithRetryMaxAttempts(1)`).
    pub(crate) fn new(setup: &ClientSetup, extra: &[&str]) -> Self {
        let mut options: Vec<String> = extra.iter().map(|e| (*e).to_owned()).collect();
        let mut imports = vec!["github.com/aws/aws-sdk-go-v2/config"];
        if let Some(region) = setup.region_named() {
            options.push(format!("config.WithRegion({})", s(&region)));
        }
        if let Some(profile) = &setup.profile {
            options.push(format!("config.WithSharedConfigProfile({})", s(profile)));
        }
        if setup.local_without_profile() {
            imports.push("github.com/aws/aws-sdk-go-v2/credentials");
            options.push(format!(
                "config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider({}, {}, \"\"))",
                s(LOCAL_KEY.0),
                s(LOCAL_KEY.1)
            ));
        }
        let options: String = options.iter().flat_map(|o| [",\n\t\t", o]).collect();
        let endpoint = setup.endpoint_url.as_deref().map_or(String::new(), |url| {
            format!(
                ", func(o *dynamodb.Options) {{\n\t\to.EndpointResolver = dynamodb.EndpointResolverFromURL({})\n\t}}",
                s(url)
            )
        });
        let lines = format!(
            "\tctx := context.Background()\n\tcfg, err := config.LoadDefaultConfig(ctx{options})\n\tif err != nil {{\n\t\tfmt.Fprintln(os.Stderr, \"not sent:\", err)\n\t\tos.Exit(2)\n\t}}\n\tclient := dynamodb.NewFromConfig(cfg{endpoint})\n"
        );
        Self { lines, imports }
    }
}

/// Go's import block of `paths` (sorted as gofmt groups them: the standard library first).
pub(crate) fn imports(paths: &[&str]) -> String {
    let mut standard: Vec<&str> = paths.iter().copied().filter(|p| !p.contains('.')).collect();
    let mut other: Vec<&str> = paths.iter().copied().filter(|p| p.contains('.')).collect();
    standard.sort_unstable();
    standard.dedup();
    other.sort_unstable();
    other.dedup();
    let group =
        |paths: &[&str]| -> String { paths.iter().flat_map(|p| ["\t\"", p, "\"\n"]).collect() };
    format!("import (\n{}\n{})\n", group(&standard), group(&other))
}

impl Call {
    /// The call as a Go program that sends it and prints the answer.
    pub(in crate::expr::codegen) fn go(&self, setup: &ClientSetup) -> String {
        let client = GoClient::new(setup, &[]);
        let body = fields(&self.fields);
        let input = indented(
            &block(
                &format!("&dynamodb.{}Input{{", self.api.name),
                &body,
                "}",
                "\t",
                "",
            ),
            "\t",
        );
        let text = format!("{input}{}", client.lines);
        let mut paths = vec![
            "context",
            "fmt",
            "os",
            "github.com/aws/aws-sdk-go-v2/service/dynamodb",
        ];
        paths.extend(client.imports.iter().copied());
        if text.contains("aws.String(") {
            paths.push("github.com/aws/aws-sdk-go-v2/aws");
        }
        if text.contains("types.") {
            paths.push("github.com/aws/aws-sdk-go-v2/service/dynamodb/types");
        }
        format!(
            "package main\n\n{}\nfunc main() {{\n{}\tresponse, err := client.{}(ctx, {input})\n\tif err != nil {{\n\t\tfmt.Fprintln(os.Stderr, err)\n\t\tos.Exit(1)\n\t}}\n\t_ = response // the server's answer: its Attributes, Items, ConsumedCapacity, ...\n\tfmt.Println(\"sent\")\n}}\n",
            imports(&paths),
            client.lines,
            self.api.name
        )
    }
}
