//! A [`TableSpec`] as infrastructure code: a Terraform `aws_dynamodb_table`, a CloudFormation
//! template, or an AWS CDK (TypeScript) stack. Each is complete enough to create the same table
//! again: keys, the key attributes' definitions, global and local indexes with their
//! projections, billing and capacity, stream, TTL, point-in-time recovery, deletion protection,
//! class and tags.
//!
//! Every name and tag from the spec is escaped for the language it lands in, so a tag value with
//! quotes, backslashes, newlines or `${` reads back as itself (tested against `terraform fmt`,
//! `cfn-lint` and `tsc` in `tests/iac.rs`).

#[cfg(test)]
mod bounds_tests;
mod cdk;
mod cloudformation;
mod terraform;
#[cfg(test)]
mod tests;

use crate::condition::ScalarType;
use crate::error::{Error, Result};
use crate::schema::TableSpec;

/// The language a table is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IacFormat {
    /// A Terraform (AWS provider) `aws_dynamodb_table` resource, in `terraform fmt` layout.
    Terraform,
    /// A CloudFormation template, as JSON, with one `AWS::DynamoDB::Table`.
    CloudFormation,
    /// An AWS CDK v2 app in TypeScript, with one `dynamodb.TableV2`.
    Cdk,
}

impl IacFormat {
    /// Every format, in the order the CLI lists them.
    pub const ALL: [Self; 3] = [Self::Terraform, Self::CloudFormation, Self::Cdk];

    /// From `terraform`, `cloudformation` (or `cfn`) or `cdk`, any case.
    pub fn parse(text: &str) -> Result<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "terraform" | "tf" => Ok(Self::Terraform),
            "cloudformation" | "cfn" => Ok(Self::CloudFormation),
            "cdk" => Ok(Self::Cdk),
            other => Err(Error::Invalid(format!(
                "no infrastructure-code format `{other}`: terraform, cloudformation (cfn) or cdk"
            ))),
        }
    }

    /// Its name as the CLI takes it: `terraform`, `cloudformation`, `cdk`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Terraform => "terraform",
            Self::CloudFormation => "cloudformation",
            Self::Cdk => "cdk",
        }
    }

    /// The extension of a file in this format, without the dot: `tf`, `json`, `ts`.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Terraform => "tf",
            Self::CloudFormation => "json",
            Self::Cdk => "ts",
        }
    }

    /// A file name for `spec` written in this format: `posts.tf`, `Posts.template.json`,
    /// `posts-stack.ts`.
    pub fn file_name(self, spec: &TableSpec) -> String {
        match self {
            Self::Terraform => format!("{}.tf", terraform::identifier(&spec.name)),
            Self::CloudFormation => format!("{}.template.json", pascal(&spec.name)),
            Self::Cdk => format!(
                "{}-stack.ts",
                terraform::identifier(&spec.name).replace('_', "-")
            ),
        }
    }
}

/// `spec` written in `format`, a whole file ending in a newline. The spec is written as it is:
/// check it first ([`TableSpec::check`]) for a file that deploys.
pub fn render(spec: &TableSpec, format: IacFormat) -> String {
    match format {
        IacFormat::Terraform => terraform::render(spec),
        IacFormat::CloudFormation => cloudformation::render(spec),
        IacFormat::Cdk => cdk::render(spec),
    }
}

/// A key type's name in CDK's `dynamodb.AttributeType` (Terraform and CloudFormation take the
/// letter).
fn cdk_type(kind: ScalarType) -> &'static str {
    match kind {
        ScalarType::N => "NUMBER",
        ScalarType::B => "BINARY",
        _ => "STRING",
    }
}

/// `pascal(name)` and `suffix`, at most `max` characters (ASCII letters and digits): when
/// longer, the name's part is cut and 16 hex digits of a hash of the whole name put after it,
/// so two long names that begin alike still get two identifiers, the same ones every time.
/// CloudFormation takes a logical ID of at most 255 characters and a stack name of at most 128.
pub(crate) fn bounded_id(name: &str, suffix: &str, max: usize) -> String {
    let whole = pascal(name);
    if whole.len() + suffix.len() <= max {
        return format!("{whole}{suffix}");
    }
    // FNV-1a: stable across builds and releases, unlike the standard library's hasher.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    let keep = max.saturating_sub(suffix.len() + 16);
    // `pascal` is ASCII: any byte is a character boundary.
    format!("{}{hash:016X}{suffix}", &whole[..keep.min(whole.len())])
}

/// `name` as an identifier of letters and digits that starts with a capital letter: the words
/// between other characters capitalised and joined (`my-table.v2` → `MyTableV2`), with `Table`
/// in front when it would start with a digit or be empty. A CloudFormation logical ID, a CDK
/// class and a stack name are made of it.
pub(crate) fn pascal(name: &str) -> String {
    let mut out = String::new();
    for word in name.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "Table");
    }
    out
}
