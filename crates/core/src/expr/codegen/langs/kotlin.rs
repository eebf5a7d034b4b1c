//! Kotlin, the AWS SDK for Kotlin: a `suspend fun main` that builds the client of the
//! connection and sends the request through the SDK's builder DSL.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::expr::codegen::langs::{
    Quoting, base64_of, c_str, enum_type, indented, lower_camel, pascal,
};
use crate::expr::codegen::setup::LOCAL_KEY;
use crate::expr::codegen::{Call, ClientSetup, Field, Target};

fn s(text: &str) -> String {
    c_str(text, Quoting::Kotlin)
}

fn bytes(b: &[u8]) -> String {
    format!("Base64.getDecoder().decode({})", s(&base64_of(b)))
}

fn list(items: impl Iterator<Item = String>) -> String {
    format!("listOf({})", items.collect::<Vec<_>>().join(", "))
}

/// A value as the SDK's sealed class: `AttributeValue.N("5")`.
fn value(v: &AttributeValue) -> String {
    match v {
        AttributeValue::S(text) => format!("AttributeValue.S({})", s(text)),
        AttributeValue::N(n) => format!("AttributeValue.N({})", s(n)),
        AttributeValue::Bool(b) => format!("AttributeValue.Bool({b})"),
        AttributeValue::B(b) => format!("AttributeValue.B({})", bytes(b.as_ref())),
        AttributeValue::Ss(v) => format!("AttributeValue.Ss({})", list(v.iter().map(|x| s(x)))),
        AttributeValue::Ns(v) => format!("AttributeValue.Ns({})", list(v.iter().map(|x| s(x)))),
        AttributeValue::Bs(v) => format!(
            "AttributeValue.Bs({})",
            list(v.iter().map(|b| bytes(b.as_ref())))
        ),
        AttributeValue::L(items) => format!("AttributeValue.L({})", list(items.iter().map(value))),
        AttributeValue::M(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let entries: Vec<String> = (entries.into_iter())
                .map(|(k, v)| format!("{} to {}", s(k), value(v)))
                .collect();
            format!("AttributeValue.M(mapOf({}))", entries.join(", "))
        }
        _ => "AttributeValue.Null(true)".to_owned(),
    }
}

/// `entries` a line each inside `open(` … `)`.
fn lines(open: &str, entries: &[String]) -> String {
    let inner: Vec<String> = (entries.iter())
        .map(|e| format!("\n    {},", indented(e, "    ")))
        .collect();
    format!("{open}({}\n)", inner.concat())
}

/// The builder's assignments of `fields`: `tableName = "Videos"`, one a line.
fn assignments(fields: &[(&'static str, Field)]) -> Vec<String> {
    fields
        .iter()
        .map(|(name, field)| {
            let value = match field {
                Field::Text(t) => s(t),
                Field::Option(o) => format!("{}.{}", enum_type(name), pascal(o)),
                Field::Names(names) => {
                    let parts: Vec<String> = (names.iter())
                        .map(|(k, v)| format!("{} to {}", s(k), s(v)))
                        .collect();
                    lines("mapOf", &parts)
                }
                Field::Item(item) => {
                    let mut entries: Vec<_> = item.iter().collect();
                    entries.sort_by(|a, b| a.0.cmp(b.0));
                    let parts: Vec<String> = (entries.into_iter())
                        .map(|(k, v)| format!("{} to {}", s(k), value(v)))
                        .collect();
                    lines("mapOf", &parts)
                }
                Field::Values(values) => {
                    lines("listOf", &values.iter().map(value).collect::<Vec<_>>())
                }
                Field::Writes(writes) => {
                    let parts: Vec<String> = (writes.iter())
                        .map(|(kind, inner)| {
                            format!(
                                "TransactWriteItem {{\n    {} = {kind} {{\n{}\n    }}\n}}",
                                lower_camel(kind),
                                body(inner, "        ")
                            )
                        })
                        .collect();
                    lines("listOf", &parts)
                }
            };
            format!("{} = {value}", lower_camel(name))
        })
        .collect()
}

/// The assignments of `fields`, a line each at `indent`.
fn body(fields: &[(&'static str, Field)], indent: &str) -> String {
    (assignments(fields).iter())
        .map(|a| format!("{indent}{}", indented(a, indent)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The client's configuration block for a connection.
fn client(setup: &ClientSetup) -> String {
    let mut lines = Vec::new();
    if let Some(region) = setup.region_named() {
        lines.push(format!("region = {}", s(&region)));
    }
    if let Some(url) = &setup.endpoint_url {
        lines.push(format!("endpointUrl = Url.parse({})", s(url)));
    }
    if let Some(profile) = &setup.profile {
        lines.push(format!(
            "credentialsProvider = ProfileCredentialsProvider(profileName = {})",
            s(profile)
        ));
    } else if setup.local_without_profile() {
        lines.push(format!(
            "credentialsProvider = StaticCredentialsProvider {{\n    accessKeyId = {}\n    secretAccessKey = {}\n}}",
            s(LOCAL_KEY.0),
            s(LOCAL_KEY.1)
        ));
    }
    let lines: Vec<String> = (lines.iter())
        .map(|l| format!("        {}", indented(l, "        ")))
        .collect();
    format!("DynamoDbClient {{\n{}\n    }}", lines.join("\n"))
}

const IMPORTS: &str = "import aws.sdk.kotlin.runtime.auth.credentials.ProfileCredentialsProvider
import aws.sdk.kotlin.runtime.auth.credentials.StaticCredentialsProvider
import aws.sdk.kotlin.services.dynamodb.DynamoDbClient
import aws.sdk.kotlin.services.dynamodb.model.*
import aws.smithy.kotlin.runtime.net.url.Url
import java.util.Base64
";

impl Call {
    /// The call as a Kotlin program (`Request.kt`) that sends it and prints the answer.
    pub(in crate::expr::codegen) fn kotlin(&self, setup: &ClientSetup) -> String {
        let name = self.api.name;
        let note = Target::Kotlin.not_compiled_note().unwrap_or_default();
        format!(
            "// AWS SDK for Kotlin (aws.sdk.kotlin:dynamodb); {note}.\n{IMPORTS}\nsuspend fun main() {{\n    {}.use {{ client ->\n        val response = client.{}(\n            {name}Request {{\n{}\n            }},\n        )\n        println(response)\n    }}\n}}\n",
            client(setup),
            lower_camel(name),
            body(&self.fields, "                ")
        )
    }
}
