//! The Terraform: read by HashiCorp's own HCL parser wherever Node.js runs, and where
//! `terraform` is installed, laid out as `terraform fmt` has it with its tags read back by
//! `terraform console`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};

use dynoscope_core::schema::{IacFormat, render_iac};
use serde_json::Value;

use super::{cannot_run, folder, node_modules, rich, runs, specs, succeeds, tags};

/// HashiCorp's own HCL parser (hcl2json, compiled to WebAssembly) from npm: Terraform's files
/// are read by it where `terraform` itself is not installed.
pub(super) const HCL2JSON: &str = "@cdktf/hcl2json@0.21";

/// `text` (an HCL file) as HashiCorp's parser reads it, as JSON.
fn hcl_as_json(node: &Path, name: &str, text: &str) -> Value {
    let dir = node.join("hcl");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.tf"));
    std::fs::write(&file, text).unwrap();
    let script = "const { parse } = require('@cdktf/hcl2json'); \
        const fs = require('fs'); const f = process.argv[1]; \
        parse(f, fs.readFileSync(f, 'utf8')).then(j => process.stdout.write(JSON.stringify(j)), \
        e => { console.error(String(e)); process.exit(1); });";
    let output = succeeds(
        &format!("hcl2json {name}.tf"),
        Command::new("node")
            .args(["-e", script])
            .arg(&file)
            .current_dir(node),
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// A template string's text as Terraform reads it: `$${` and `%%{` are the literal `${`, `%{`.
fn template_literal(text: &str) -> String {
    text.replace("$${", "${").replace("%%{", "%{")
}

/// Terraform's file read by HashiCorp's HCL parser: one `aws_dynamodb_table`, its name and its
/// tags exactly the spec's (a tag's `${` and `%{` stay text). Runs wherever Node.js does,
/// `terraform` or not.
#[test]
fn terraform_is_read_back_by_hashicorps_hcl_parser() {
    let node = node_modules();
    for (name, spec) in specs() {
        let json = hcl_as_json(&node, name, &render_iac(&spec, IacFormat::Terraform));
        let tables = json["resource"]["aws_dynamodb_table"].as_object().unwrap();
        assert_eq!(tables.len(), 1, "one table: {json:#}");
        let table = &tables.values().next().unwrap()[0];
        assert_eq!(table["name"], spec.name.as_str(), "{json:#}");
        let read: BTreeMap<String, String> = table["tags"]
            .as_object()
            .map(|t| {
                t.iter()
                    .map(|(k, v)| (k.clone(), template_literal(v.as_str().unwrap())))
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(read, tags(&spec), "{json:#}");
    }
}

#[test]
#[ignore = "needs terraform, which is in no registry the project installs from: scripts/test.sh \
            runs it where terraform is installed"]
fn terraform_is_as_terraform_fmt_lays_it_out_and_its_tags_read_back() {
    if !runs("terraform", &["version"]) {
        cannot_run("terraform fmt -check", "`terraform` is not installed");
    }
    let dir = folder("terraform");
    for (name, spec) in specs() {
        let file = dir.join(format!("{name}.tf"));
        std::fs::write(&file, render_iac(&spec, IacFormat::Terraform)).unwrap();
        succeeds(
            &format!("terraform fmt -check -diff {name}.tf"),
            Command::new("terraform")
                .args(["fmt", "-check", "-diff", "-no-color"])
                .arg(&file)
                .env("CHECKPOINT_DISABLE", "1"),
        );
    }
    // `terraform validate` needs the AWS provider downloaded; `terraform console` needs no
    // provider for locals, so the tags block is read back there, as Terraform reads it.
    let spec = rich();
    let text = render_iac(&spec, IacFormat::Terraform);
    let start = text.find("\n  tags = {\n").unwrap();
    let end = start + text[start..].find("\n  }\n").unwrap();
    let locals = format!("locals {{{}\n  }}\n}}\n", &text[start..end]);
    let console = folder("terraform-console");
    std::fs::write(console.join("main.tf"), locals).unwrap();
    let mut child = Command::new("terraform")
        .arg("console")
        .current_dir(&console)
        .env("CHECKPOINT_DISABLE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"jsonencode(local.tags)\n").unwrap();
    }
    let output = child.wait_with_output().unwrap();
    let printed = String::from_utf8_lossy(&output.stdout);
    let line = printed
        .lines()
        .find(|l| l.starts_with('"'))
        .unwrap_or_else(|| {
            panic!(
                "terraform console printed no string:\n{printed}\n{}",
                String::from_utf8_lossy(&output.stderr)
            )
        });
    // The console quotes the JSON text as an HCL string, whose escapes JSON's include.
    let json: String = serde_json::from_str(line).unwrap();
    let read: BTreeMap<String, String> = serde_json::from_str(&json).unwrap();
    assert_eq!(read, tags(&spec));
}
