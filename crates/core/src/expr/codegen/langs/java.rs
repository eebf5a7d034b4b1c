//! Java, the AWS SDK for Java 2.x: a class whose `main` builds the client of the connection
//! and sends the request through the request builder (`UpdateItemRequest.builder()…`), never
//! the legacy `attributeUpdates`.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::expr::codegen::langs::{Quoting, base64_of, c_str, enum_type, indented, lower_camel};
use crate::expr::codegen::setup::LOCAL_KEY;
use crate::expr::codegen::{Call, ClientSetup, Field, Target};

fn s(text: &str) -> String {
    c_str(text, Quoting::Java)
}

fn bytes(b: &[u8]) -> String {
    format!(
        "SdkBytes.fromByteArray(Base64.getDecoder().decode({}))",
        s(&base64_of(b))
    )
}

fn list(items: impl Iterator<Item = String>) -> String {
    format!("List.of({})", items.collect::<Vec<_>>().join(", "))
}

/// A value through the SDK's factories: `AttributeValue.fromN("5")`.
fn value(v: &AttributeValue) -> String {
    match v {
        AttributeValue::S(text) => format!("AttributeValue.fromS({})", s(text)),
        AttributeValue::N(n) => format!("AttributeValue.fromN({})", s(n)),
        AttributeValue::Bool(b) => format!("AttributeValue.fromBool({b})"),
        AttributeValue::B(b) => format!("AttributeValue.fromB({})", bytes(b.as_ref())),
        AttributeValue::Ss(v) => format!("AttributeValue.fromSs({})", list(v.iter().map(|x| s(x)))),
        AttributeValue::Ns(v) => format!("AttributeValue.fromNs({})", list(v.iter().map(|x| s(x)))),
        AttributeValue::Bs(v) => format!(
            "AttributeValue.fromBs({})",
            list(v.iter().map(|b| bytes(b.as_ref())))
        ),
        AttributeValue::L(items) => {
            format!("AttributeValue.fromL({})", list(items.iter().map(value)))
        }
        AttributeValue::M(map) => format!("AttributeValue.fromM({})", value_map(map.iter())),
        _ => "AttributeValue.fromNul(true)".to_owned(),
    }
}

/// A map on one line: `Map.ofEntries(Map.entry("k", v), …)` (`Map.of` stops at ten).
fn value_map<'a>(entries: impl Iterator<Item = (&'a String, &'a AttributeValue)>) -> String {
    let mut entries: Vec<_> = entries.collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    let entries: Vec<String> = (entries.into_iter())
        .map(|(k, v)| format!("Map.entry({}, {})", s(k), value(v)))
        .collect();
    format!("Map.ofEntries({})", entries.join(", "))
}

/// The builder calls of `fields`: `.tableName("Videos")`, one a line.
fn calls(fields: &[(&'static str, Field)]) -> Vec<String> {
    let unit = "    ";
    fields
        .iter()
        .map(|(name, field)| {
            let argument = match field {
                Field::Text(t) => s(t),
                Field::Option(o) => format!("{}.{o}", enum_type(name)),
                Field::Names(names) => {
                    let parts: Vec<String> = (names.iter())
                        .map(|(k, v)| format!("Map.entry({}, {})", s(k), s(v)))
                        .collect();
                    format!("Map.ofEntries({})", multi_line(&parts, unit))
                }
                Field::Item(item) => {
                    let mut entries: Vec<_> = item.iter().collect();
                    entries.sort_by(|a, b| a.0.cmp(b.0));
                    let parts: Vec<String> = (entries.into_iter())
                        .map(|(k, v)| format!("Map.entry({}, {})", s(k), value(v)))
                        .collect();
                    format!("Map.ofEntries({})", multi_line(&parts, unit))
                }
                Field::Values(values) => {
                    let parts: Vec<String> = values.iter().map(value).collect();
                    parts.join(", ")
                }
                Field::Writes(writes) => {
                    let parts: Vec<String> = (writes.iter())
                        .map(|(kind, inner)| {
                            let body = calls(inner).concat();
                            format!(
                                "TransactWriteItem.builder().{}({kind}.builder(){}\n{unit}.build()).build()",
                                lower_camel(kind),
                                indented(&body, unit)
                            )
                        })
                        .collect();
                    multi_line(&parts, unit)
                }
            };
            format!("\n.{}({argument})", lower_camel(name))
        })
        .collect()
}

/// Arguments a line each, one `unit` deeper (Java takes no trailing comma in a call).
fn multi_line(parts: &[String], unit: &str) -> String {
    (parts.iter())
        .map(|p| format!("\n{unit}{}", indented(p, unit)))
        .collect::<Vec<_>>()
        .join(",")
}

/// The statements that build `client` for a connection.
fn client(setup: &ClientSetup) -> String {
    let mut lines = vec!["DynamoDbClient client = DynamoDbClient.builder()".to_owned()];
    if let Some(url) = &setup.endpoint_url {
        lines.push(format!("        .endpointOverride(URI.create({}))", s(url)));
    }
    if let Some(region) = setup.region_named() {
        lines.push(format!("        .region(Region.of({}))", s(&region)));
    }
    if let Some(profile) = &setup.profile {
        lines.push(format!(
            "        .credentialsProvider(ProfileCredentialsProvider.create({}))",
            s(profile)
        ));
    } else if setup.local_without_profile() {
        lines.push(format!(
            "        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create({}, {})))",
            s(LOCAL_KEY.0),
            s(LOCAL_KEY.1)
        ));
    }
    lines.push("        .build()".to_owned());
    lines.join("\n")
}

const IMPORTS: &str = "import java.net.URI;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.*;
";

impl Call {
    /// The call as a Java class (`Request.java`) that sends it and prints the answer.
    pub(in crate::expr::codegen) fn java(&self, setup: &ClientSetup) -> String {
        let name = self.api.name;
        let builder = format!(
            "{name}Request.builder(){}\n    .build()",
            indented(&calls(&self.fields).concat(), "    ")
        );
        let note = Target::Java.not_compiled_note().unwrap_or_default();
        format!(
            "// AWS SDK for Java 2.x (software.amazon.awssdk:dynamodb); {note}.\n{IMPORTS}\npublic class Request {{\n    public static void main(String[] args) {{\n        try ({}) {{\n            {name}Response response = client.{}(\n                {});\n            System.out.println(response);\n        }}\n    }}\n}}\n",
            indented(&client(setup), "        "),
            lower_camel(name),
            indented(&builder, "                ")
        )
    }
}
