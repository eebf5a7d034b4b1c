//! A request with its expressions, rendered as code: low-level JSON, AWS CLI (bash quoting),
//! boto3, JavaScript SDK v3 (client and DocumentClient) and Rust `aws-sdk-dynamodb`. Numbers
//! stay exact in every rendering.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

use crate::core::counter::shell_quote;
use crate::core::value::{self, Item};

/// What the request does.
#[derive(Debug, Clone, PartialEq)]
pub enum Operation {
    /// `UpdateItem` on `key`.
    Update(Item),
    /// `PutItem` of `item` (with a condition).
    Put(Item),
    /// `DeleteItem` of `key` (with a condition).
    Delete(Item),
    /// `Query`, optionally on an index.
    Query(Option<String>),
    /// `Scan`, optionally on an index.
    Scan(Option<String>),
}

/// A request and its expressions, with placeholders already assigned.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// Table name.
    pub table: String,
    /// The operation.
    pub operation: Operation,
    /// `UpdateExpression`.
    pub update: Option<String>,
    /// `ConditionExpression`.
    pub condition: Option<String>,
    /// `KeyConditionExpression`.
    pub key_condition: Option<String>,
    /// `FilterExpression`.
    pub filter: Option<String>,
    /// `ProjectionExpression`.
    pub projection: Option<String>,
    /// `ExpressionAttributeNames`.
    pub names: HashMap<String, String>,
    /// `ExpressionAttributeValues`.
    pub values: HashMap<String, AttributeValue>,
    /// Plain options sent along, e.g. (`ReturnValues`, `UPDATED_NEW`).
    pub options: Vec<(&'static str, &'static str)>,
}

/// The languages a request can be copied as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The low-level JSON request body.
    Json,
    /// `aws dynamodb …` for bash.
    Cli,
    /// Python, boto3's client.
    Boto3,
    /// JavaScript SDK v3, `@aws-sdk/client-dynamodb`.
    JsClient,
    /// JavaScript SDK v3, `@aws-sdk/lib-dynamodb` DocumentClient.
    JsDocument,
    /// Rust, `aws-sdk-dynamodb`.
    Rust,
}

impl Target {
    /// Every target, in the order offered.
    pub const ALL: [Self; 6] = [
        Self::Json,
        Self::Cli,
        Self::Boto3,
        Self::JsClient,
        Self::JsDocument,
        Self::Rust,
    ];

    /// The menu label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Json => "JSON",
            Self::Cli => "AWS CLI",
            Self::Boto3 => "boto3",
            Self::JsClient => "JS v3 client",
            Self::JsDocument => "JS v3 DocumentClient",
            Self::Rust => "Rust",
        }
    }

    /// From the CLI's `--as` word.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "json" => Some(Self::Json),
            "cli" => Some(Self::Cli),
            "boto3" => Some(Self::Boto3),
            "js" => Some(Self::JsClient),
            "js-doc" => Some(Self::JsDocument),
            "rust" => Some(Self::Rust),
            _ => None,
        }
    }
}

impl Request {
    fn op_name(&self) -> (&'static str, &'static str, &'static str) {
        // (API name, CLI command, snake case)
        match self.operation {
            Operation::Update(_) => ("UpdateItem", "update-item", "update_item"),
            Operation::Put(_) => ("PutItem", "put-item", "put_item"),
            Operation::Delete(_) => ("DeleteItem", "delete-item", "delete_item"),
            Operation::Query(_) => ("Query", "query", "query"),
            Operation::Scan(_) => ("Scan", "scan", "scan"),
        }
    }

    /// The fields of the request, in the API's names, as typed JSON texts.
    fn fields(&self) -> Vec<(&'static str, Field)> {
        let mut fields = vec![("TableName", Field::Text(self.table.clone()))];
        match &self.operation {
            Operation::Update(key) | Operation::Delete(key) => {
                fields.push(("Key", Field::Item(key.clone())))
            }
            Operation::Put(item) => fields.push(("Item", Field::Item(item.clone()))),
            Operation::Query(Some(index)) | Operation::Scan(Some(index)) => {
                fields.push(("IndexName", Field::Text(index.clone())));
            }
            _ => {}
        }
        let texts = [
            ("KeyConditionExpression", &self.key_condition),
            ("UpdateExpression", &self.update),
            ("ConditionExpression", &self.condition),
            ("FilterExpression", &self.filter),
            ("ProjectionExpression", &self.projection),
        ];
        for (name, text) in texts {
            if let Some(text) = text {
                fields.push((name, Field::Text(text.clone())));
            }
        }
        if !self.names.is_empty() {
            fields.push((
                "ExpressionAttributeNames",
                Field::Names(sorted(&self.names)),
            ));
        }
        if !self.values.is_empty() {
            fields.push((
                "ExpressionAttributeValues",
                Field::Item(self.values.clone()),
            ));
        }
        for (name, option) in &self.options {
            fields.push((name, Field::Option(option)));
        }
        fields
    }

    /// Render as `target`.
    pub fn render(&self, target: Target) -> String {
        match target {
            Target::Json => self.json(),
            Target::Cli => self.cli(),
            Target::Boto3 => self.boto3(),
            Target::JsClient => self.js_client(),
            Target::JsDocument => self.js_document(),
            Target::Rust => self.rust(),
        }
    }

    fn json(&self) -> String {
        let body: Vec<String> = self
            .fields()
            .into_iter()
            .map(|(name, field)| format!("  \"{name}\": {}", field.json()))
            .collect();
        format!("{{\n{}\n}}", body.join(",\n"))
    }

    fn cli(&self) -> String {
        let (_, command, _) = self.op_name();
        let mut lines = vec![format!("aws dynamodb {command}")];
        for (name, field) in self.fields() {
            let flag = kebab(name);
            let arg = match field {
                Field::Text(t) => shell_quote(&t),
                Field::Option(o) => o.to_owned(),
                other => shell_quote(&other.json()),
            };
            lines.push(format!("--{flag} {arg}"));
        }
        lines.join(" \\\n  ")
    }

    fn boto3(&self) -> String {
        let (_, _, snake) = self.op_name();
        let args: Vec<String> = self
            .fields()
            .into_iter()
            .map(|(name, field)| format!("    {name}={},", python(&field.json_value())))
            .collect();
        format!(
            "import boto3\n\nclient = boto3.client(\"dynamodb\")\nresponse = client.{snake}(\n{}\n)\n",
            args.join("\n")
        )
    }

    fn js_client(&self) -> String {
        let (api, _, _) = self.op_name();
        let command = format!("{api}Command");
        let body: Vec<String> = self
            .fields()
            .into_iter()
            .map(|(name, field)| format!("    {name}: {},", field.json()))
            .collect();
        format!(
            "import {{ DynamoDBClient, {command} }} from \"@aws-sdk/client-dynamodb\";\n\nconst client = new DynamoDBClient({{}});\nconst response = await client.send(\n  new {command}({{\n{}\n  }}),\n);\n",
            body.join("\n")
        )
    }

    fn js_document(&self) -> String {
        let (api, _, _) = self.op_name();
        let command = format!("{}Command", api.trim_end_matches("Item"));
        let mut number_value = false;
        let body: Vec<String> = self
            .fields()
            .into_iter()
            .map(|(name, field)| {
                let text = match field {
                    Field::Item(item) => js_native_item(&item, &mut number_value),
                    other => other.json(),
                };
                format!("    {name}: {text},")
            })
            .collect();
        let imports = if number_value {
            format!("DynamoDBDocumentClient, {command}, NumberValue")
        } else {
            format!("DynamoDBDocumentClient, {command}")
        };
        format!(
            "import {{ DynamoDBClient }} from \"@aws-sdk/client-dynamodb\";\nimport {{ {imports} }} from \"@aws-sdk/lib-dynamodb\";\n\nconst doc = DynamoDBDocumentClient.from(new DynamoDBClient({{}}));\nconst response = await doc.send(\n  new {command}({{\n{}\n  }}),\n);\n",
            body.join("\n")
        )
    }

    fn rust(&self) -> String {
        let (_, _, snake) = self.op_name();
        let mut calls = vec![format!("    .{snake}()")];
        for (name, field) in self.fields() {
            let method = snake_case(name);
            match field {
                Field::Text(t) => calls.push(format!("    .{method}({})", rust_str(&t))),
                Field::Option(o) => calls.push(format!("    .{method}({}.into())", rust_str(o))),
                Field::Names(names) => {
                    for (k, v) in names {
                        calls.push(format!(
                            "    .expression_attribute_names({}, {})",
                            rust_str(&k),
                            rust_str(&v)
                        ));
                    }
                }
                Field::Item(item) => {
                    let single = match name {
                        "Key" => "key",
                        "Item" => "item",
                        _ => "expression_attribute_values",
                    };
                    let mut entries: Vec<_> = item.iter().collect();
                    entries.sort_by(|a, b| a.0.cmp(b.0));
                    for (k, v) in entries {
                        calls.push(format!("    .{single}({}, {})", rust_str(k), rust_value(v)));
                    }
                }
            }
        }
        calls.push("    .send()\n    .await?;".into());
        format!(
            "use aws_sdk_dynamodb::types::AttributeValue;\n\nlet response = client\n{}\n",
            calls.join("\n")
        )
    }
}

enum Field {
    Text(String),
    /// An enum option such as `UPDATED_NEW`: a string everywhere but in Rust.
    Option(&'static str),
    Names(Vec<(String, String)>),
    Item(Item),
}

impl Field {
    fn json(&self) -> String {
        match self {
            Self::Text(t) => value::json_string(t),
            Self::Option(o) => value::json_string(o),
            Self::Names(names) => {
                let body: Vec<String> = names
                    .iter()
                    .map(|(k, v)| format!("{}:{}", value::json_string(k), value::json_string(v)))
                    .collect();
                format!("{{{}}}", body.join(","))
            }
            Self::Item(item) => value::item_to_dynamodb_json(item, &[], false),
        }
    }

    /// DynamoDB JSON keeps numbers as strings, so this parse is exact.
    fn json_value(&self) -> serde_json::Value {
        serde_json::from_str(&self.json()).unwrap_or_default()
    }
}

fn sorted(names: &HashMap<String, String>) -> Vec<(String, String)> {
    let mut names: Vec<(String, String)> =
        names.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    names.sort();
    names
}

fn kebab(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

fn snake_case(name: &str) -> String {
    kebab(name).replace('-', "_")
}

fn python(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => "None".into(),
        serde_json::Value::Bool(b) => if *b { "True" } else { "False" }.into(),
        serde_json::Value::Array(items) => format!(
            "[{}]",
            items.iter().map(python).collect::<Vec<_>>().join(", ")
        ),
        serde_json::Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{}: {}", serde_json::Value::String(k.clone()), python(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

/// Whether a JavaScript number (an IEEE double) holds `text` exactly: small integers, and short
/// decimals that print back the same.
fn js_number_is_exact(text: &str) -> bool {
    let digits = text.chars().filter(|c| c.is_ascii_digit()).count();
    !text.contains(['e', 'E']) && digits <= 15 && !(text.contains('.') && text.ends_with('0'))
}

fn js_native(v: &AttributeValue, number_value: &mut bool) -> String {
    let mut number = |n: &str| {
        if js_number_is_exact(n) {
            n.to_owned()
        } else {
            *number_value = true;
            format!(
                "NumberValue.from({})",
                serde_json::Value::String(n.to_owned())
            )
        }
    };
    match v {
        AttributeValue::S(s) => serde_json::Value::String(s.clone()).to_string(),
        AttributeValue::N(n) => number(n),
        AttributeValue::Bool(b) => b.to_string(),
        AttributeValue::Null(_) => "null".into(),
        AttributeValue::B(b) => format!(
            "Buffer.from({}, \"base64\")",
            serde_json::Value::String(BASE64.encode(b.as_ref()))
        ),
        AttributeValue::Ss(v) => format!(
            "new Set([{}])",
            v.iter()
                .map(|s| serde_json::Value::String(s.clone()).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        AttributeValue::Ns(v) => format!(
            "new Set([{}])",
            v.iter().map(|n| number(n)).collect::<Vec<_>>().join(", ")
        ),
        AttributeValue::Bs(v) => format!(
            "new Set([{}])",
            v.iter()
                .map(|b| format!(
                    "Buffer.from({}, \"base64\")",
                    serde_json::Value::String(BASE64.encode(b.as_ref()))
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        AttributeValue::L(items) => format!(
            "[{}]",
            items
                .iter()
                .map(|i| js_native(i, number_value))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        AttributeValue::M(map) => js_native_item(map, number_value),
        _ => "undefined".into(),
    }
}

fn js_native_item(item: &Item, number_value: &mut bool) -> String {
    let mut entries: Vec<_> = item.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    let body: Vec<String> = entries
        .into_iter()
        .map(|(k, v)| {
            format!(
                "{}: {}",
                serde_json::Value::String(k.clone()),
                js_native(v, number_value)
            )
        })
        .collect();
    format!("{{ {} }}", body.join(", "))
}

fn rust_str(text: &str) -> String {
    format!("{text:?}")
}

fn rust_value(v: &AttributeValue) -> String {
    let strings = |v: &[String]| {
        v.iter()
            .map(|s| format!("{s:?}.into()"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let blob = |b: &aws_sdk_dynamodb::primitives::Blob| {
        format!(
            "aws_sdk_dynamodb::primitives::Blob::new(vec!{:?})",
            b.as_ref()
        )
    };
    match v {
        AttributeValue::S(s) => format!("AttributeValue::S({s:?}.into())"),
        AttributeValue::N(n) => format!("AttributeValue::N({n:?}.into())"),
        AttributeValue::Bool(b) => format!("AttributeValue::Bool({b})"),
        AttributeValue::Null(_) => "AttributeValue::Null(true)".into(),
        AttributeValue::B(b) => format!("AttributeValue::B({})", blob(b)),
        AttributeValue::Ss(v) => format!("AttributeValue::Ss(vec![{}])", strings(v)),
        AttributeValue::Ns(v) => format!("AttributeValue::Ns(vec![{}])", strings(v)),
        AttributeValue::Bs(v) => format!(
            "AttributeValue::Bs(vec![{}])",
            v.iter().map(blob).collect::<Vec<_>>().join(", ")
        ),
        AttributeValue::L(items) => format!(
            "AttributeValue::L(vec![{}])",
            items.iter().map(rust_value).collect::<Vec<_>>().join(", ")
        ),
        AttributeValue::M(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            format!(
                "AttributeValue::M(std::collections::HashMap::from([{}]))",
                entries
                    .into_iter()
                    .map(|(k, v)| format!("({k:?}.to_string(), {})", rust_value(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        _ => "AttributeValue::Null(true)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn like_tally() -> Request {
        Request {
            table: "Social".into(),
            operation: Operation::Update(Item::from([
                ("PK".to_owned(), AttributeValue::S("POST#a91f".into())),
                ("SK".to_owned(), AttributeValue::S("META".into())),
            ])),
            update: Some("ADD #n0 :v0".into()),
            condition: Some("attribute_not_exists(#n1)".into()),
            key_condition: None,
            filter: None,
            projection: None,
            names: HashMap::from([
                ("#n0".into(), "likeTally".into()),
                ("#n1".into(), "SK".into()),
            ]),
            values: HashMap::from([(
                ":v0".into(),
                AttributeValue::N("12345678901234567890123456789012345678".into()),
            )]),
            options: vec![("ReturnValues", "UPDATED_NEW")],
        }
    }

    #[test]
    fn every_target_names_the_expression_and_keeps_numbers_exact() {
        let r = like_tally();
        let big = "12345678901234567890123456789012345678";
        for target in Target::ALL {
            let code = r.render(target);
            assert!(code.contains("ADD #n0 :v0"), "{target:?}: {code}");
            assert!(code.contains(big), "{target:?} keeps the 38 digits: {code}");
            assert!(code.contains("likeTally"), "{target:?}");
        }
        let json: serde_json::Value = serde_json::from_str(&r.render(Target::Json)).unwrap();
        assert_eq!(json["ReturnValues"], "UPDATED_NEW");
        assert!(
            r.render(Target::Cli)
                .contains("--return-values UPDATED_NEW")
        );
        assert!(
            r.render(Target::Boto3)
                .contains("ReturnValues=\"UPDATED_NEW\",")
        );
        assert!(
            r.render(Target::Rust)
                .contains(".return_values(\"UPDATED_NEW\".into())")
        );
        assert_eq!(json["ExpressionAttributeValues"][":v0"]["N"], big);
        assert!(
            r.render(Target::Cli)
                .contains("--condition-expression 'attribute_not_exists(#n1)'")
        );
        assert!(r.render(Target::Boto3).contains("client.update_item("));
        assert!(
            r.render(Target::JsClient)
                .contains("new UpdateItemCommand({")
        );
        let doc = r.render(Target::JsDocument);
        assert!(doc.contains("new UpdateCommand({"), "{doc}");
        assert!(
            doc.contains(&format!("NumberValue.from(\"{big}\")")),
            "{doc}"
        );
        assert!(doc.contains("\"PK\": \"POST#a91f\""), "{doc}");
        let rust = r.render(Target::Rust);
        assert!(
            rust.contains(".expression_attribute_names(\"#n0\", \"likeTally\")"),
            "{rust}"
        );
        assert!(rust.contains(&format!(
            ".expression_attribute_values(\":v0\", AttributeValue::N(\"{big}\".into()))"
        )));
    }

    #[test]
    fn python_and_js_literals() {
        assert_eq!(
            python(&serde_json::json!({"BOOL": true, "NULL": null})),
            "{\"BOOL\": True, \"NULL\": None}"
        );
        assert!(js_number_is_exact("42"));
        assert!(js_number_is_exact("-0.5"));
        assert!(!js_number_is_exact("0.10"));
        assert!(!js_number_is_exact("1234567890123456"));
        assert_eq!(
            kebab("ExpressionAttributeNames"),
            "expression-attribute-names"
        );
    }
}
