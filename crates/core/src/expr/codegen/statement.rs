//! A PartiQL statement as code: `ExecuteStatement` with its `Statement` and typed `Parameters`,
//! in every language the other requests are copied as.

use crate::expr::codegen::partiql::statement_text;
use crate::expr::codegen::{Api, Call, ClientSetup, Field, Target, fields_json};
use crate::statement::Statement;

impl Statement {
    fn call(&self) -> Call {
        let mut fields = vec![("Statement", Field::Text(self.text.clone()))];
        if !self.params.is_empty() {
            fields.push(("Parameters", Field::Values(self.params.clone())));
        }
        Call {
            api: Api {
                name: "ExecuteStatement",
                cli: "execute-statement",
                snake: "execute_statement",
                document: "ExecuteStatementCommand",
            },
            fields,
        }
    }

    /// Render as `target`, connecting as `setup` says (JSON, the request body alone, leaves it
    /// out).
    pub fn render(&self, target: Target, setup: &ClientSetup) -> String {
        match target {
            Target::PartiQl => statement_text(self),
            _ => self.call().render(target, setup),
        }
    }

    /// The low-level request body as JSON.
    pub fn json(&self) -> serde_json::Value {
        fields_json(&self.call().fields)
    }
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::types::AttributeValue;

    use super::*;

    fn statement() -> Statement {
        Statement::new(
            "UPDATE \"Videos\" SET n = n + ? WHERE PK = 'it''s'",
            vec![AttributeValue::N(
                "12345678901234567890123456789012345678".into(),
            )],
        )
    }

    fn sandbox() -> ClientSetup {
        ClientSetup {
            endpoint_url: Some("http://127.0.0.1:8000".into()),
            region: Some("us-east-1".into()),
            profile: None,
        }
    }

    #[test]
    fn the_aws_cli_command_names_the_connection_and_keeps_every_digit() {
        let cli = statement().render(Target::Cli, &sandbox());
        assert_eq!(
            cli,
            "AWS_ACCESS_KEY_ID=dynoscope AWS_SECRET_ACCESS_KEY=dynoscope-local aws dynamodb execute-statement \\\n  --endpoint-url http://127.0.0.1:8000 \\\n  --region us-east-1 \\\n  --statement 'UPDATE \"Videos\" SET n = n + ? WHERE PK = '\\''it'\\'''\\''s'\\''' \\\n  --parameters '[{\"N\":\"12345678901234567890123456789012345678\"}]'"
        );
        let words = crate::expr::codegen::shell_words(&cli).expect("the command reads back");
        assert_eq!(words[10], statement().text);
    }

    #[test]
    fn every_language_carries_the_parameters() {
        let digits = "12345678901234567890123456789012345678";
        // dynamodb-toolbox has no PartiQL command, and says so.
        let libraries = [Target::Toolbox, Target::ElectroDb];
        for target in Target::ALL.into_iter().filter(|t| !libraries.contains(t)) {
            let code = statement().render(target, &sandbox());
            assert!(code.contains(digits), "{target:?}: {code}");
        }
        let toolbox = statement().render(Target::Toolbox, &sandbox());
        assert!(toolbox.starts_with("// dynamodb-toolbox has no ExecuteStatement"));
        let electro = statement().render(Target::ElectroDb, &sandbox());
        assert!(electro.starts_with("// ElectroDB has no ExecuteStatement"));
        let rust = statement().render(Target::Rust, &sandbox());
        assert!(rust.contains(".execute_statement()"), "{rust}");
        assert!(rust.contains(".parameters(AttributeValue::N("), "{rust}");
        let doc = statement().render(Target::JsDocument, &sandbox());
        assert!(doc.contains("ExecuteStatementCommand"), "{doc}");
        assert!(doc.contains("NumberValue.from("), "{doc}");
        let plain = Statement::new("SELECT * FROM T", vec![]);
        assert_eq!(
            plain.json(),
            serde_json::json!({"Statement": "SELECT * FROM T"})
        );
    }
}
