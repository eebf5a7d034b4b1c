//! Writing a call in each language.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::expr::codegen::literal::{
    js_literal, js_native, js_native_item, kebab, python, rust_str, rust_value, snake_case,
};
use crate::expr::codegen::shell::shell_quote;
use crate::expr::codegen::{Call, ClientSetup, Field, Target, fields_json};
use crate::value::{Layout, json};

impl Call {
    /// The call in `target`, connecting as `setup` says (JSON is the request body alone).
    pub(super) fn render(&self, target: Target, setup: &ClientSetup) -> String {
        match target {
            // Requests, transactions and statements write their own PartiQL before a call is
            // made: a call has no expressions left to read, so in PartiQL too its body is what
            // it sends.
            Target::Json | Target::PartiQl => {
                json::text(&fields_json(&self.fields), Layout::Request)
            }
            Target::Cli => self.cli(setup),
            Target::Boto3 => self.boto3(setup),
            // The client code is TypeScript as it is: every literal typed by its context.
            Target::JsClient | Target::TypeScript => self.js_client(setup),
            Target::JsDocument => self.js_document(setup),
            Target::Rust => self.rust(setup),
            Target::Go => self.go(setup),
            Target::Java => self.java(setup),
            Target::DotNet => self.dotnet(setup),
            Target::Kotlin => self.kotlin(setup),
            Target::Php => self.php(setup),
            // A request is written from its expressions; a call left is one dynamodb-toolbox
            // has no command for (a PartiQL statement).
            Target::Toolbox | Target::ElectroDb => format!(
                "// {} has no {} command here: copy it as the JS v3 DocumentClient\n",
                target.label(),
                self.api.name
            ),
        }
    }

    fn cli(&self, setup: &ClientSetup) -> String {
        let environment = setup
            .cli_environment()
            .map(|e| format!("{e} "))
            .unwrap_or_default();
        let mut lines = vec![format!("{environment}aws dynamodb {}", self.api.cli)];
        lines.extend(setup.cli_options());
        // AWS CLI v2 reads a binary value's base64 as the bytes it stands for (its default,
        // said here); v1 would send the base64 text itself as the bytes, and refuses the flag
        // instead of writing the wrong value.
        if self.fields.iter().any(|(_, field)| field_has_binary(field)) {
            lines.push("--cli-binary-format base64".to_owned());
        }
        for (name, field) in &self.fields {
            let arg = match field {
                Field::Text(t) => shell_quote(t),
                Field::Option(o) => (*o).to_owned(),
                other => shell_quote(&json::text(&other.json(), Layout::Compact)),
            };
            lines.push(format!("--{} {arg}", kebab(name)));
        }
        lines.join(" \\\n  ")
    }

    fn boto3(&self, setup: &ClientSetup) -> String {
        let args: Vec<String> = self
            .fields
            .iter()
            .map(|(name, field)| format!("    {name}={},", python(&field.json())))
            .collect();
        let args = args.join("\n");
        // Binary values are written as bytes decoded from base64.
        let base64 = if args.contains("base64.b64decode(") {
            "import base64\n\n"
        } else {
            ""
        };
        format!(
            "{base64}import boto3\n\n{}\nresponse = client.{}(\n{}\n)\n",
            setup.boto3_client(),
            self.api.snake,
            args
        )
    }

    fn js_client(&self, setup: &ClientSetup) -> String {
        let command = format!("{}Command", self.api.name);
        let body: Vec<String> = self
            .fields
            .iter()
            .map(|(name, field)| format!("    {name}: {},", js_literal(&field.json())))
            .collect();
        let (config, profile_import) = setup.js_config();
        format!(
            "import {{ DynamoDBClient, {command} }} from \"@aws-sdk/client-dynamodb\";\n{}\nconst client = new DynamoDBClient({config});\nconst response = await client.send(\n  new {command}({{\n{}\n  }}),\n);\n",
            profile_import.unwrap_or_default(),
            body.join("\n")
        )
    }

    fn js_document(&self, setup: &ClientSetup) -> String {
        let command = self.api.document;
        let mut number_value = false;
        let body: Vec<String> = self
            .fields
            .iter()
            .map(|(name, field)| {
                format!(
                    "    {name}: {},",
                    js_document_field(field, &mut number_value)
                )
            })
            .collect();
        let imports = if number_value {
            format!("DynamoDBDocumentClient, {command}, NumberValue")
        } else {
            format!("DynamoDBDocumentClient, {command}")
        };
        let (config, profile_import) = setup.js_config();
        format!(
            "import {{ DynamoDBClient }} from \"@aws-sdk/client-dynamodb\";\nimport {{ {imports} }} from \"@aws-sdk/lib-dynamodb\";\n{}\nconst doc = DynamoDBDocumentClient.from(new DynamoDBClient({config}));\nconst response = await doc.send(\n  new {command}({{\n{}\n  }}),\n);\n",
            profile_import.unwrap_or_default(),
            body.join("\n")
        )
    }

    fn rust(&self, setup: &ClientSetup) -> String {
        let mut calls = vec![format!("    .{}()", self.api.snake)];
        let mut types = vec!["AttributeValue"];
        rust_chain(&self.fields, "    ", &mut calls, &mut types);
        calls.push("    .send()\n    .await?;".into());
        types.sort_unstable();
        types.dedup();
        let uses = if types.len() == 1 {
            types[0].to_owned()
        } else {
            format!("{{{}}}", types.join(", "))
        };
        format!(
            "use aws_sdk_dynamodb::types::{uses};\n\n{}\nlet response = client\n{}\n",
            setup.rust_client(),
            calls.join("\n")
        )
    }
}

/// Whether `field` holds a binary value (B or BS) anywhere.
fn field_has_binary(field: &Field) -> bool {
    fn binary(v: &AttributeValue) -> bool {
        match v {
            AttributeValue::B(_) | AttributeValue::Bs(_) => true,
            AttributeValue::L(items) => items.iter().any(binary),
            AttributeValue::M(map) => map.values().any(binary),
            _ => false,
        }
    }
    match field {
        Field::Item(item) => item.values().any(binary),
        Field::Values(values) => values.iter().any(binary),
        Field::Writes(writes) => writes
            .iter()
            .any(|(_, fields)| fields.iter().any(|(_, f)| field_has_binary(f))),
        _ => false,
    }
}

/// A field as the DocumentClient takes it: items as native JavaScript values.
pub(super) fn js_document_field(field: &Field, number_value: &mut bool) -> String {
    match field {
        Field::Item(item) => js_native_item(item, number_value),
        Field::Values(values) => format!(
            "[{}]",
            values
                .iter()
                .map(|v| js_native(v, number_value))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Field::Writes(writes) => {
            let parts: Vec<String> = writes
                .iter()
                .map(|(kind, fields)| {
                    let inner: Vec<String> = fields
                        .iter()
                        .map(|(name, f)| format!("{name}: {}", js_document_field(f, number_value)))
                        .collect();
                    format!("{{ {kind}: {{ {} }} }}", inner.join(", "))
                })
                .collect();
            format!("[{}]", parts.join(", "))
        }
        other => js_literal(&other.json()),
    }
}

/// Builder calls for `fields`, one per line at `indent`; `types` collects the SDK types used.
pub(super) fn rust_chain(
    fields: &[(&'static str, Field)],
    indent: &str,
    calls: &mut Vec<String>,
    types: &mut Vec<&'static str>,
) {
    for (name, field) in fields {
        let method = snake_case(name);
        match field {
            Field::Text(t) => calls.push(format!("{indent}.{method}({})", rust_str(t))),
            Field::Option(o) => calls.push(format!("{indent}.{method}({}.into())", rust_str(o))),
            Field::Names(names) => {
                for (k, v) in names {
                    calls.push(format!(
                        "{indent}.expression_attribute_names({}, {})",
                        rust_str(k),
                        rust_str(v)
                    ));
                }
            }
            Field::Item(item) => {
                let single = match *name {
                    "Key" => "key",
                    "Item" => "item",
                    _ => "expression_attribute_values",
                };
                let mut entries: Vec<_> = item.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                for (k, v) in entries {
                    calls.push(format!(
                        "{indent}.{single}({}, {})",
                        rust_str(k),
                        rust_value(v)
                    ));
                }
            }
            Field::Values(values) => {
                for v in values {
                    calls.push(format!("{indent}.{method}({})", rust_value(v)));
                }
            }
            Field::Writes(writes) => {
                types.push("TransactWriteItem");
                for (kind, inner) in writes {
                    types.push(kind);
                    let mut part = vec![format!("{indent}.transact_items(")];
                    part.push(format!("{indent}    TransactWriteItem::builder()"));
                    part.push(format!("{indent}        .{}(", snake_case(kind)));
                    part.push(format!("{indent}            {kind}::builder()"));
                    rust_chain(
                        inner,
                        &format!("{indent}                "),
                        &mut part,
                        types,
                    );
                    part.push(format!("{indent}                .build()?,"));
                    part.push(format!("{indent}        )"));
                    part.push(format!("{indent}        .build(),"));
                    part.push(format!("{indent})"));
                    calls.push(part.join("\n"));
                }
            }
        }
    }
}
