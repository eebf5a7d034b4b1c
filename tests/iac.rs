//! A table written as infrastructure code, checked by each language's own tools: the Terraform
//! read back by HashiCorp's HCL parser (hcl2json from npm, everywhere Node.js runs) and, where
//! `terraform` is installed, by `terraform fmt -check` and `terraform console`; the CloudFormation
//! by `cfn-lint`, the CDK app by `tsc --strict` against `aws-cdk-lib` and `constructs` from npm,
//! then synthesized by `node` and its template read back and linted by `cfn-lint` too.
//!
//! A rich table (two global indexes, one INCLUDE; a local index; provisioned; stream, TTL,
//! point-in-time recovery, deletion protection, STANDARD_INFREQUENT_ACCESS; tags with quotes,
//! backslashes, newlines, `${` and non-ASCII) and a minimal one. A missing validator (cfn-lint,
//! node, npm, a Node.js too old for `cdk synth`) fails its test, never skips it: the README's
//! test command (`scripts/test.sh`) brings them. Terraform itself is in none of the registries
//! the project installs from: its own check is marked ignored (scripts/test.sh runs it with
//! `--run-ignored all` where it is installed), and HashiCorp's parser reads the files everywhere.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use dynoscope_core::schema::{
    BillingSpec, ClassSpec, IacFormat, StreamView, TableSpec, parse_index, parse_key, render_iac,
};
use serde_json::Value;

mod terraform;

fn rich() -> TableSpec {
    let mut spec = TableSpec::new(
        "Posts.v2",
        parse_key("PK:S").unwrap(),
        Some(parse_key("SK:S").unwrap()),
    );
    spec.billing = BillingSpec::Provisioned { rcu: 7, wcu: 3 };
    spec.global = vec![
        parse_index("GSI1=GSI1PK:S,GSI1SK:N:ALL").unwrap(),
        parse_index("ByUser=user:B:INCLUDE(likedAt,title)").unwrap(),
    ];
    spec.local = vec![parse_index("ByDate=PK:S,createdAt:N:KEYS_ONLY").unwrap()];
    spec.stream = Some(StreamView::NewAndOldImages);
    spec.ttl = Some("expiresAt".into());
    spec.pitr = true;
    spec.deletion_protection = true;
    spec.class = ClassSpec::StandardIa;
    spec.tags = [
        ("team", "social"),
        ("quote\"key", "say \"hi\" ${var.x} %{if} \\ end"),
        ("lines", "one\ntwo\r\tthree"),
        ("café", "naïve 😀 $${ {{x}} `tick` </script> \u{2028} \u{1}"),
    ]
    .iter()
    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
    .collect();
    spec
}

fn minimal() -> TableSpec {
    TableSpec::new("ids", parse_key("id:N").unwrap(), None)
}

/// Both tables, each one DynamoDB would create.
fn specs() -> [(&'static str, TableSpec); 2] {
    let specs = [("rich", rich()), ("minimal", minimal())];
    for (_, spec) in &specs {
        spec.check().unwrap();
    }
    specs
}

fn tags(spec: &TableSpec) -> BTreeMap<String, String> {
    spec.tags.iter().cloned().collect()
}

/// A fresh folder for one check.
fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("iac")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether a tool runs at all (`tool args` starts and exits 0).
fn runs(tool: &str, args: &[&str]) -> bool {
    Command::new(tool)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A check that cannot run here fails, saying what to install: a validator that cannot be had
/// is never counted as passed.
fn cannot_run(check: &str, why: &str) -> ! {
    panic!(
        "{check} cannot run: {why}. The README's test command, scripts/test.sh, names the Debian \
         packages missing and installs cfn-lint into target/test-tools"
    );
}

/// Runs `command`, and fails with what it printed unless it exits 0.
fn succeeds(what: &str, command: &mut Command) -> Output {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// `cfn-lint` on these templates: no error, warning or informational finding.
fn cfn_lint(what: &str, files: &[PathBuf]) {
    succeeds(
        &format!("cfn-lint {what}"),
        Command::new("cfn-lint").arg("--").args(files),
    );
}

#[test]
fn cloudformation_passes_cfn_lint() {
    if !runs("cfn-lint", &["--version"]) {
        cannot_run("cfn-lint", "`cfn-lint` is not installed (PyPI cfn-lint)");
    }
    let dir = folder("cloudformation");
    let mut files = Vec::new();
    for (name, spec) in specs() {
        let text = render_iac(&spec, IacFormat::CloudFormation);
        let template: Value = serde_json::from_str(&text).unwrap();
        let resource = template["Resources"].as_object().unwrap().values().next();
        let tags: BTreeMap<String, String> = resource.unwrap()["Properties"]["Tags"]
            .as_array()
            .map(|t| {
                t.iter()
                    .map(|t| {
                        (
                            t["Key"].as_str().unwrap().into(),
                            t["Value"].as_str().unwrap().into(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(tags, self::tags(&spec));
        let file = dir.join(format!("{name}.template.json"));
        std::fs::write(&file, text).unwrap();
        files.push(file);
    }
    cfn_lint("on the templates", &files);
}

/// A folder with `aws-cdk-lib`, `constructs`, `typescript` and hcl2json from npm, installed
/// once (the tests of this file share it; one installs, the others wait) and kept under the
/// target folder. Without node or npm the test fails, saying why.
fn node_modules() -> PathBuf {
    static INSTALLED: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    INSTALLED.get_or_init(install_node_modules).clone()
}

fn install_node_modules() -> PathBuf {
    if !runs("node", &["--version"]) || !runs("npm", &["--version"]) {
        cannot_run("tsc and cdk synth", "`node` or `npm` is not installed");
    }
    // One install at a time, in this process or another.
    let _one_at_a_time = crate::common::one_at_a_time("iac-node");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("iac-node");
    let installed = ["aws-cdk-lib", "constructs", "typescript", "@cdktf/hcl2json"]
        .iter()
        .all(|p| {
            dir.join("node_modules")
                .join(p)
                .join("package.json")
                .exists()
        });
    if !installed {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("package.json"),
            "{\"name\": \"iac-check\", \"private\": true}\n",
        )
        .unwrap();
        eprintln!(
            "installing aws-cdk-lib, constructs and typescript from npm into {}",
            dir.display()
        );
        succeeds(
            "npm install",
            Command::new("npm")
                .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
                .args(["aws-cdk-lib@2", "constructs@10", "typescript@5"])
                .arg(terraform::HCL2JSON)
                .current_dir(&dir),
        );
    }
    dir
}

/// Node's major version.
fn node_major() -> u32 {
    let output = Command::new("node").arg("--version").output().unwrap();
    let version = String::from_utf8_lossy(&output.stdout);
    let major = version.trim().trim_start_matches('v').split('.').next();
    major.and_then(|m| m.parse().ok()).unwrap_or(0)
}

#[test]
fn cdk_compiles_under_strict_typescript_and_synthesizes_the_table() {
    let node = node_modules();
    let src = node.join("check");
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(&src).unwrap();
    let out = node.join("check-out");
    let _ = std::fs::remove_dir_all(&out);
    let mut files = Vec::new();
    for (name, spec) in specs() {
        let file = src.join(format!("{name}.ts"));
        std::fs::write(&file, render_iac(&spec, IacFormat::Cdk)).unwrap();
        files.push(file);
    }
    // The same type check as `tsc --noEmit --strict`, writing the JavaScript to synthesize.
    succeeds(
        "tsc --strict",
        Command::new("node")
            .arg(node.join("node_modules/typescript/bin/tsc"))
            .args(["--strict", "--noUnusedLocals", "--skipLibCheck"])
            .args(["--target", "ES2022", "--module", "commonjs"])
            .args(["--moduleResolution", "node", "--outDir"])
            .arg(&out)
            .args(&files)
            .current_dir(&node),
    );
    if node_major() < 20 {
        // A skip would hide a failure: it fails.
        cannot_run(
            "cdk synth",
            "aws-cdk-lib runs on Node.js 20 or later, and this node is older",
        );
    }
    let mut templates = Vec::new();
    for (name, spec) in specs() {
        let cdk_out = node.join(format!("cdk.out-{name}"));
        let _ = std::fs::remove_dir_all(&cdk_out);
        succeeds(
            &format!("node {name}.js (cdk synth)"),
            Command::new("node")
                .arg(out.join(format!("{name}.js")))
                .env("CDK_OUTDIR", &cdk_out)
                .current_dir(&node),
        );
        let file = std::fs::read_dir(&cdk_out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.to_string_lossy().ends_with(".template.json"))
            .unwrap();
        let template: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        synthesized_as_asked(&spec, &template);
        templates.push(file);
    }
    if runs("cfn-lint", &["--version"]) {
        cfn_lint("on the synthesized templates", &templates);
    } else {
        cannot_run(
            "cfn-lint on the synthesized templates",
            "`cfn-lint` is not installed",
        );
    }
}

/// The synthesized `AWS::DynamoDB::GlobalTable` holds what the spec asked for.
fn synthesized_as_asked(spec: &TableSpec, template: &Value) {
    let resources = template["Resources"].as_object().unwrap();
    let tables: Vec<&Value> = resources
        .values()
        .filter(|r| r["Type"] == "AWS::DynamoDB::GlobalTable")
        .collect();
    assert_eq!(tables.len(), 1, "{template:#}");
    let p = &tables[0]["Properties"];
    assert_eq!(p["TableName"], spec.name.as_str());
    assert_eq!(p["BillingMode"], spec.billing.mode());
    assert_eq!(
        p["AttributeDefinitions"].as_array().unwrap().len(),
        spec.attribute_definitions().len()
    );
    let count = |key: &str| p[key].as_array().map_or(0, Vec::len);
    assert_eq!(count("GlobalSecondaryIndexes"), spec.global.len());
    assert_eq!(count("LocalSecondaryIndexes"), spec.local.len());
    let replica = &p["Replicas"][0];
    assert_eq!(
        replica["DeletionProtectionEnabled"],
        spec.deletion_protection
    );
    assert_eq!(replica["TableClass"], spec.class.name());
    // Off is written as nothing (the default), as is a setting that was not read.
    let pitr = &replica["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"];
    assert_eq!(pitr.as_bool().unwrap_or(false), spec.pitr, "{replica:#}");
    let tags: BTreeMap<String, String> = replica["Tags"]
        .as_array()
        .map(|t| {
            t.iter()
                .map(|t| {
                    (
                        t["Key"].as_str().unwrap().into(),
                        t["Value"].as_str().unwrap().into(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(tags, self::tags(spec));
    match spec.stream {
        Some(view) => assert_eq!(p["StreamSpecification"]["StreamViewType"], view.name()),
        None => assert!(p.get("StreamSpecification").is_none()),
    }
    match &spec.ttl {
        Some(ttl) => assert_eq!(p["TimeToLiveSpecification"]["AttributeName"], ttl.as_str()),
        None => assert!(p.get("TimeToLiveSpecification").is_none()),
    }
    if let BillingSpec::Provisioned { rcu, wcu } = spec.billing {
        let read = &replica["ReadProvisionedThroughputSettings"]["ReadCapacityUnits"];
        assert_eq!(read.as_u64(), Some(rcu));
        let write = &p["WriteProvisionedThroughputSettings"]["WriteCapacityAutoScalingSettings"];
        assert_eq!(write["MinCapacity"].as_u64(), Some(wcu));
        assert_eq!(write["MaxCapacity"].as_u64(), Some(wcu));
    }
}
