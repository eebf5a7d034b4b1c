//! C#, the AWS SDK for .NET (`AWSSDK.DynamoDBv2`): top-level statements that build the client
//! of the connection and send the request with an object initializer.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::expr::codegen::langs::{Quoting, base64_of, block, c_str, enum_type, indented};
use crate::expr::codegen::setup::LOCAL_KEY;
use crate::expr::codegen::{Call, ClientSetup, Field, Target};

fn s(text: &str) -> String {
    c_str(text, Quoting::CSharp)
}

fn bytes(b: &[u8]) -> String {
    format!(
        "new MemoryStream(Convert.FromBase64String({}))",
        s(&base64_of(b))
    )
}

fn list(kind: &str, items: impl Iterator<Item = String>) -> String {
    format!(
        "new List<{kind}> {{ {} }}",
        items.collect::<Vec<_>>().join(", ")
    )
}

/// A value as an object initializer: `new AttributeValue { N = "5" }`.
fn value(v: &AttributeValue) -> String {
    let inner = match v {
        AttributeValue::S(text) => format!("S = {}", s(text)),
        AttributeValue::N(n) => format!("N = {}", s(n)),
        AttributeValue::Bool(b) => format!("BOOL = {b}"),
        AttributeValue::B(b) => format!("B = {}", bytes(b.as_ref())),
        AttributeValue::Ss(v) => format!("SS = {}", list("string", v.iter().map(|x| s(x)))),
        AttributeValue::Ns(v) => format!("NS = {}", list("string", v.iter().map(|x| s(x)))),
        AttributeValue::Bs(v) => format!(
            "BS = {}",
            list("MemoryStream", v.iter().map(|b| bytes(b.as_ref())))
        ),
        // An empty list or map is sent only when marked as set.
        AttributeValue::L(items) if items.is_empty() => "IsLSet = true".to_owned(),
        AttributeValue::L(items) => {
            format!("L = {}", list("AttributeValue", items.iter().map(value)))
        }
        AttributeValue::M(map) if map.is_empty() => "IsMSet = true".to_owned(),
        AttributeValue::M(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let entries: Vec<String> = (entries.into_iter())
                .map(|(k, v)| format!("[{}] = {}", s(k), value(v)))
                .collect();
            format!(
                "M = new Dictionary<string, AttributeValue> {{ {} }}",
                entries.join(", ")
            )
        }
        _ => "NULL = true".to_owned(),
    };
    format!("new AttributeValue {{ {inner} }}")
}

/// The initializer's assignments of `fields`: `TableName = "Videos"`, one each.
fn assignments(fields: &[(&'static str, Field)]) -> Vec<String> {
    let unit = "    ";
    fields
        .iter()
        .map(|(name, field)| {
            let value = match field {
                Field::Text(t) => s(t),
                Field::Option(o) => format!("{}.{o}", enum_type(name)),
                Field::Names(names) => {
                    let parts: Vec<String> = (names.iter())
                        .map(|(k, v)| format!("[{}] = {}", s(k), s(v)))
                        .collect();
                    block("new Dictionary<string, string>\n{", &parts, "}", unit, "")
                }
                Field::Item(item) => {
                    let mut entries: Vec<_> = item.iter().collect();
                    entries.sort_by(|a, b| a.0.cmp(b.0));
                    let parts: Vec<String> = (entries.into_iter())
                        .map(|(k, v)| format!("[{}] = {}", s(k), value(v)))
                        .collect();
                    block(
                        "new Dictionary<string, AttributeValue>\n{",
                        &parts,
                        "}",
                        unit,
                        "",
                    )
                }
                Field::Values(values) => {
                    let parts: Vec<String> = values.iter().map(value).collect();
                    block("new List<AttributeValue>\n{", &parts, "}", unit, "")
                }
                Field::Writes(writes) => {
                    let parts: Vec<String> = (writes.iter())
                        .map(|(kind, inner)| {
                            let body = block(
                                &format!("new {kind}\n{{"),
                                &assignments(inner),
                                "}",
                                unit,
                                "",
                            );
                            format!("new TransactWriteItem {{ {kind} = {body} }}")
                        })
                        .collect();
                    block("new List<TransactWriteItem>\n{", &parts, "}", unit, "")
                }
            };
            format!("{name} = {value}")
        })
        .collect()
}

/// The statements that build `client` for a connection.
fn client(setup: &ClientSetup) -> String {
    let mut config = Vec::new();
    match (&setup.endpoint_url, setup.region_named()) {
        (Some(url), region) => {
            config.push(format!("ServiceURL = {}", s(url)));
            if let Some(region) = region {
                config.push(format!("AuthenticationRegion = {}", s(&region)));
            }
        }
        (None, Some(region)) => config.push(format!(
            "RegionEndpoint = RegionEndpoint.GetBySystemName({})",
            s(&region)
        )),
        (None, None) => {}
    }
    let config = format!(
        "var config = new AmazonDynamoDBConfig {{ {} }};",
        config.join(", ")
    );
    if let Some(profile) = &setup.profile {
        format!(
            "{config}\nif (!new CredentialProfileStoreChain().TryGetAWSCredentials({}, out var credentials))\n{{\n    throw new InvalidOperationException(\"no such profile\");\n}}\nusing var client = new AmazonDynamoDBClient(credentials, config);",
            s(profile)
        )
    } else if setup.local_without_profile() {
        format!(
            "{config}\nusing var client = new AmazonDynamoDBClient(new BasicAWSCredentials({}, {}), config);",
            s(LOCAL_KEY.0),
            s(LOCAL_KEY.1)
        )
    } else {
        format!("{config}\nusing var client = new AmazonDynamoDBClient(config);")
    }
}

const USINGS: &str = "using System;
using System.Collections.Generic;
using System.IO;
using Amazon;
using Amazon.DynamoDBv2;
using Amazon.DynamoDBv2.Model;
using Amazon.Runtime;
using Amazon.Runtime.CredentialManagement;
";

impl Call {
    /// The call as C# top-level statements (`Program.cs`) that send it and print the answer.
    pub(in crate::expr::codegen) fn dotnet(&self, setup: &ClientSetup) -> String {
        let name = self.api.name;
        let request = block(
            &format!("new {name}Request\n{{"),
            &assignments(&self.fields),
            "}",
            "    ",
            "",
        );
        let note = Target::DotNet.not_compiled_note().unwrap_or_default();
        format!(
            "// AWS SDK for .NET (AWSSDK.DynamoDBv2); {note}.\n{USINGS}\n{}\nvar response = await client.{name}Async({});\nConsole.WriteLine(response.HttpStatusCode);\n",
            client(setup),
            indented(&request, "")
        )
    }
}
