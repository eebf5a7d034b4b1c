//! PHP, the AWS SDK for PHP 3: the client of the connection and the request as nested arrays
//! in the API's own names and DynamoDB JSON, binary values decoded from base64 where used.

use crate::expr::codegen::langs::{Quoting, block, c_str, lower_camel};
use crate::expr::codegen::setup::LOCAL_KEY;
use crate::expr::codegen::{Call, ClientSetup, Target};

fn s(text: &str) -> String {
    c_str(text, Quoting::Php)
}

/// A JSON value as a PHP literal; a typed binary value (`{"B": "…"}`) as the bytes the SDK
/// takes, `base64_decode("…")`.
fn literal(v: &serde_json::Value) -> String {
    let bytes = |b: &serde_json::Value| match b {
        serde_json::Value::String(text) => format!("base64_decode({})", s(text)),
        other => literal(other),
    };
    match v {
        serde_json::Value::Null => "null".to_owned(),
        serde_json::Value::Bool(b) => b.to_string(),
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::String(text) => s(text),
        serde_json::Value::Array(items) => {
            format!(
                "[{}]",
                items.iter().map(literal).collect::<Vec<_>>().join(", ")
            )
        }
        serde_json::Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    ("B", b @ serde_json::Value::String(_)) => format!("'B' => {}", bytes(b)),
                    ("BS", serde_json::Value::Array(items)) => format!(
                        "'BS' => [{}]",
                        items.iter().map(bytes).collect::<Vec<_>>().join(", ")
                    ),
                    _ => format!("{} => {}", s(k), literal(v)),
                })
                .collect();
            format!("[{}]", entries.join(", "))
        }
    }
}

/// The client's options for a connection.
fn client(setup: &ClientSetup) -> String {
    let mut options = Vec::new();
    if let Some(region) = setup.region_named() {
        options.push(format!("'region' => {}", s(&region)));
    }
    if let Some(url) = &setup.endpoint_url {
        options.push(format!("'endpoint' => {}", s(url)));
    }
    if let Some(profile) = &setup.profile {
        options.push(format!("'profile' => {}", s(profile)));
    } else if setup.local_without_profile() {
        options.push(format!(
            "'credentials' => ['key' => {}, 'secret' => {}]",
            s(LOCAL_KEY.0),
            s(LOCAL_KEY.1)
        ));
    }
    block(
        "$client = new DynamoDbClient([",
        &options,
        "]);",
        "    ",
        "$client = new DynamoDbClient([]);",
    )
}

impl Call {
    /// The call as a PHP script (`request.php`) that sends it and prints the answer.
    pub(in crate::expr::codegen) fn php(&self, setup: &ClientSetup) -> String {
        let fields: Vec<String> = (self.fields.iter())
            .map(|(name, field)| format!("'{name}' => {}", literal(&field.json())))
            .collect();
        let method = lower_camel(self.api.name);
        let request = block(
            &format!("$response = $client->{method}(["),
            &fields,
            "]);",
            "    ",
            "",
        );
        let note = Target::Php.not_compiled_note().unwrap_or_default();
        format!(
            "<?php\n// AWS SDK for PHP 3 (composer require aws/aws-sdk-php); {note}.\nrequire __DIR__ . '/vendor/autoload.php';\n\nuse Aws\\DynamoDb\\DynamoDbClient;\n\n{}\n{request}\nprint_r($response->toArray());\n",
            client(setup)
        )
    }
}
