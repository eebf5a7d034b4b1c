//! Where generated code connects: the endpoint, region and profile of the connection a request
//! was made on. Without them, a command built against the sandbox and pasted into a shell would
//! run against whatever AWS account that shell is signed in to.

use crate::connection::ClientSetup;
use crate::expr::codegen::literal::rust_str;
use crate::expr::codegen::shell::shell_quote;

/// A string literal in Python and JavaScript (JSON's quoting is valid in both).
fn quoted(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

/// `text` as one bash word: bare when nothing in it is special to the shell, quoted otherwise.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:/@%+,=".contains(c));
    if plain {
        text.to_owned()
    } else {
        shell_quote(text)
    }
}

/// The stand-in key id and secret for an endpoint on this machine (local emulators accept any).
pub(super) const LOCAL_KEY: (&str, &str) = ("dynoscope", "dynoscope-local");

impl ClientSetup {
    /// An endpoint on this machine reached without a profile: generated code carries stand-in
    /// credentials and a region, so it runs on a machine with no AWS configuration at all.
    /// They open nothing elsewhere.
    pub(super) fn local_without_profile(&self) -> bool {
        self.profile.is_none()
            && self
                .endpoint_url
                .as_deref()
                .is_some_and(crate::connection::is_loopback)
    }

    /// The region generated code names: the connection's, else for an endpoint on this machine
    /// the one the app uses there (an emulator takes any, but every SDK and the AWS CLI need
    /// one).
    pub(super) fn region_named(&self) -> Option<String> {
        self.region.clone().or_else(|| {
            self.endpoint_url
                .as_deref()
                .filter(|url| crate::connection::is_loopback(url))
                .map(|_| crate::connection::DEFAULT_LOCAL_REGION.to_owned())
        })
    }

    /// Stand-in credentials for an endpoint on this machine reached without a profile, as the
    /// app uses: a copied command then runs on a machine with no AWS configuration at all.
    pub(crate) fn cli_environment(&self) -> Option<&'static str> {
        self.local_without_profile()
            .then_some("AWS_ACCESS_KEY_ID=dynoscope AWS_SECRET_ACCESS_KEY=dynoscope-local")
    }

    /// `--endpoint-url …`, `--region …`, `--profile …`, as used.
    pub(crate) fn cli_options(&self) -> Vec<String> {
        [
            ("endpoint-url", &self.endpoint_url),
            ("region", &self.region_named()),
            ("profile", &self.profile),
        ]
        .into_iter()
        .filter_map(|(flag, value)| {
            value
                .as_deref()
                .map(|v| format!("--{flag} {}", shell_word(v)))
        })
        .collect()
    }

    /// The lines that make boto3's `client`.
    pub(super) fn boto3_client(&self) -> String {
        self.boto3_client_with(&[])
    }

    /// The lines that make boto3's `client`, with `extra` arguments (`config=…`).
    pub(super) fn boto3_client_with(&self, extra: &[&str]) -> String {
        let mut arguments = vec![quoted("dynamodb")];
        if let Some(url) = &self.endpoint_url {
            arguments.push(format!("endpoint_url={}", quoted(url)));
        }
        if let Some(region) = &self.region_named() {
            arguments.push(format!("region_name={}", quoted(region)));
        }
        if self.local_without_profile() {
            arguments.push(format!(
                "aws_access_key_id={}, aws_secret_access_key={}",
                quoted(LOCAL_KEY.0),
                quoted(LOCAL_KEY.1)
            ));
        }
        arguments.extend(extra.iter().map(|e| (*e).to_owned()));
        let arguments = arguments.join(", ");
        match &self.profile {
            Some(profile) => format!(
                "session = boto3.Session(profile_name={})\nclient = session.client({arguments})",
                quoted(profile)
            ),
            None => format!("client = boto3.client({arguments})"),
        }
    }

    /// The JavaScript SDK's client configuration (`{ endpoint: …, region: … }`), and the import
    /// it needs for a profile.
    pub(super) fn js_config(&self) -> (String, Option<&'static str>) {
        self.js_config_with(&[])
    }

    /// [`js_config`](Self::js_config) with `extra` fields (`maxAttempts: 1`).
    pub(super) fn js_config_with(&self, extra: &[&str]) -> (String, Option<&'static str>) {
        let mut fields: Vec<String> = extra.iter().map(|e| (*e).to_owned()).collect();
        if let Some(url) = &self.endpoint_url {
            fields.push(format!("endpoint: {}", quoted(url)));
        }
        if let Some(region) = &self.region_named() {
            fields.push(format!("region: {}", quoted(region)));
        }
        if self.local_without_profile() {
            fields.push(format!(
                "credentials: {{ accessKeyId: {}, secretAccessKey: {} }}",
                quoted(LOCAL_KEY.0),
                quoted(LOCAL_KEY.1)
            ));
        }
        let import = self.profile.as_ref().map(|profile| {
            fields.push(format!(
                "credentials: fromIni({{ profile: {} }})",
                quoted(profile)
            ));
            "import { fromIni } from \"@aws-sdk/credential-providers\";\n"
        });
        let config = if fields.is_empty() {
            "{}".to_owned()
        } else {
            format!("{{ {} }}", fields.join(", "))
        };
        (config, import)
    }

    /// The lines that make the Rust SDK's `client`.
    pub(super) fn rust_client(&self) -> String {
        self.rust_client_with(&[])
    }

    /// [`rust_client`](Self::rust_client) with `extra` loader calls (`.retry_config(…)`).
    pub(super) fn rust_client_with(&self, extra: &[&str]) -> String {
        let mut lines = vec![
            "let config = aws_config::defaults(aws_config::BehaviorVersion::latest())".to_owned(),
        ];
        if let Some(url) = &self.endpoint_url {
            lines.push(format!("    .endpoint_url({})", rust_str(url)));
        }
        if let Some(region) = &self.region_named() {
            lines.push(format!(
                "    .region(aws_config::Region::new({}))",
                rust_str(region)
            ));
        }
        if self.local_without_profile() {
            lines.push(format!(
                "    .credentials_provider(aws_sdk_dynamodb::config::Credentials::new({}, {}, \
                 None, None, \"dynoscope-local\"))",
                rust_str(LOCAL_KEY.0),
                rust_str(LOCAL_KEY.1)
            ));
        }
        if let Some(profile) = &self.profile {
            lines.push(format!("    .profile_name({})", rust_str(profile)));
        }
        lines.extend(extra.iter().map(|e| format!("    {e}")));
        lines.push("    .load()\n    .await;".to_owned());
        lines.push("let client = aws_sdk_dynamodb::Client::new(&config);".to_owned());
        lines.join("\n")
    }
}
