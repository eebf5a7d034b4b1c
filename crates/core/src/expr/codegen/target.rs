//! The languages a request is copied as, with the word `--as` takes and what each was run on.

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
    /// TypeScript, the JavaScript SDK v3 client, checked by `tsc --strict`.
    TypeScript,
    /// Rust, `aws-sdk-dynamodb`.
    Rust,
    /// Go, the AWS SDK for Go v2.
    Go,
    /// Java, the AWS SDK for Java 2.x.
    Java,
    /// C#, the AWS SDK for .NET (`AWSSDK.DynamoDBv2`).
    DotNet,
    /// Kotlin, the AWS SDK for Kotlin.
    Kotlin,
    /// PHP, the AWS SDK for PHP 3.
    Php,
    /// One PartiQL statement with its `?` parameters, for `ExecuteStatement`.
    PartiQl,
    /// JavaScript, dynamodb-toolbox v2 over the DocumentClient.
    Toolbox,
    /// JavaScript, ElectroDB 3 over the DocumentClient.
    ElectroDb,
}

impl Target {
    /// Every target, in the order offered.
    pub const ALL: [Self; 15] = [
        Self::Json,
        Self::Cli,
        Self::Boto3,
        Self::JsClient,
        Self::JsDocument,
        Self::TypeScript,
        Self::Rust,
        Self::Go,
        Self::Java,
        Self::DotNet,
        Self::Kotlin,
        Self::Php,
        Self::PartiQl,
        Self::Toolbox,
        Self::ElectroDb,
    ];

    /// The words `--as` takes, in the order offered.
    pub const NAMES: &'static str = "json, cli, boto3, js, js-doc, ts, rust, go, java, dotnet, kotlin, php, partiql, toolbox or electrodb";

    /// The menu label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Json => "JSON",
            Self::Cli => "AWS CLI",
            Self::Boto3 => "boto3",
            Self::JsClient => "JS v3 client",
            Self::JsDocument => "JS v3 DocumentClient",
            Self::TypeScript => "TypeScript",
            Self::Rust => "Rust",
            Self::Go => "Go v2",
            Self::Java => "Java v2",
            Self::DotNet => ".NET",
            Self::Kotlin => "Kotlin",
            Self::Php => "PHP",
            Self::PartiQl => "PartiQL",
            Self::Toolbox => "dynamodb-toolbox",
            Self::ElectroDb => "ElectroDB",
        }
    }

    /// The CLI's `--as` word.
    pub fn name(self) -> &'static str {
        match self {
            Self::Json => "json",
            Self::Cli => "cli",
            Self::Boto3 => "boto3",
            Self::JsClient => "js",
            Self::JsDocument => "js-doc",
            Self::TypeScript => "ts",
            Self::Rust => "rust",
            Self::Go => "go",
            Self::Java => "java",
            Self::DotNet => "dotnet",
            Self::Kotlin => "kotlin",
            Self::Php => "php",
            Self::PartiQl => "partiql",
            Self::Toolbox => "toolbox",
            Self::ElectroDb => "electrodb",
        }
    }

    /// From the CLI's `--as` word.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Whether code in this language is compiled or run by dynoscope's own tests. Java, .NET,
    /// Kotlin and PHP are not: their SDKs are in none of the registries its tests can reach,
    /// so their code is checked against golden files and for its structure only.
    pub fn compiled_here(self) -> bool {
        !matches!(self, Self::Java | Self::DotNet | Self::Kotlin | Self::Php)
    }

    /// What the app and the manual (docs/expression-builder.md) say beside a target that is not compiled here.
    pub fn not_compiled_note(self) -> Option<&'static str> {
        (!self.compiled_here()).then_some(
            "not compiled here: its SDK is in none of the registries dynoscope's tests reach; \
             checked against golden files and for its structure",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_and_is_listed() {
        for target in Target::ALL {
            assert_eq!(Target::from_name(target.name()), Some(target));
            assert!(Target::NAMES.contains(target.name()), "{target:?}");
        }
        assert_eq!(Target::from_name("cobol"), None);
    }
}
