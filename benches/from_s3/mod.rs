//! Part 3 of the reconcile bench: the export read straight from S3 — moto's server, started
//! here — by the release CLI, measured by the launcher.

use std::io::Write as _;

use dynoscope_core::connection::{self, ConnectOptions, ConnectionSpec};

use crate::support;

/// moto's server on a port of its own choosing (it says it on stderr): the child and its URL.
fn moto() -> (std::process::Child, String) {
    use std::io::BufRead as _;
    let mut child = std::process::Command::new("python3")
        .args(["-m", "moto.server", "-H", "127.0.0.1", "-p", "0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 with moto[server] (scripts/test.sh installs it in target/test-tools)");
    let stderr = std::io::BufReader::new(child.stderr.take().expect("stderr"));
    let mut lines = stderr.lines().map_while(Result::ok);
    let url = lines
        .find_map(|l| {
            l.find("Running on http://")
                .map(|at| l[at + 11..].trim().to_owned())
        })
        .expect("moto says its port");
    // Its later lines drained, so that it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    (child, url)
}

/// The CLI on `url` with moto's credentials, measured by the launcher.
fn cli(url: &str, args: &[&str], dir: &std::path::Path) -> support::Run {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_dynoscope"));
    command
        .args(["--endpoint-url", url, "--timeout", "120"])
        .args(args)
        .env("AWS_ACCESS_KEY_ID", "bench")
        .env("AWS_SECRET_ACCESS_KEY", "bench")
        .env("AWS_REGION", "us-east-1")
        .env("AWS_EC2_METADATA_DISABLED", "true");
    support::measured(&command, dir)
}

/// The objects the S3 export is cut into, as DynamoDB writes several.
const OBJECTS: usize = 8;

/// The gzipped export at `path` cut into `n` gzipped parts of whole lines.
fn parts(path: &std::path::Path, n: usize) -> Vec<Vec<u8>> {
    use std::io::Read as _;
    let mut text = String::new();
    let file = std::fs::File::open(path).expect("the export");
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .expect("gunzip");
    let lines: Vec<&str> = text.lines().collect();
    lines
        .chunks(lines.len().div_ceil(n).max(1))
        .map(|chunk| {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            for line in chunk {
                gz.write_all(line.as_bytes()).expect("gzip");
                gz.write_all(b"\n").expect("gzip");
            }
            gz.finish().expect("gzip")
        })
        .collect()
}

/// The export of part 2, in eight objects, put in moto's S3 and reconciled from there by the
/// CLI (three runs), beside nothing read from the table.
pub(crate) async fn from_s3(export: fn(usize, &std::path::Path) -> usize) {
    let wanted: usize = std::env::var("ITEMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000);
    let dir = std::env::temp_dir().join(format!("dynoscope-bench-s3-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let (mut server, url) = moto();
    let spec = ConnectionSpec::Endpoint {
        url: url.clone(),
        profile: None,
        region: None,
    };
    let options = ConnectOptions::default();
    let connection = connection::connect_with(spec, options).await.expect("moto");
    let made = cli(
        &url,
        &[
            "table", "create", "--table", "Bench", "--pk", "PK:S", "--sk", "SK:S",
        ],
        &dir,
    );
    assert_eq!(made.code, 0, "the table made");
    let s3 = connection.s3();
    s3.create_bucket()
        .bucket("bench")
        .send()
        .await
        .expect("bucket");
    let path = dir.join("data.json.gz");
    let items = export(wanted, &path);
    let gz_bytes = std::fs::metadata(&path)
        .map(|m| m.len())
        .unwrap_or_default();
    for (i, part) in parts(&path, OBJECTS).into_iter().enumerate() {
        let key = format!("exports/AWSDynamoDB/01764547200000-bench/data/part-{i}.json.gz");
        let put = s3.put_object().bucket("bench").key(key).body(part.into());
        put.send().await.expect("put");
    }
    let location = "s3://bench/exports/AWSDynamoDB/01764547200000-bench/";
    let args = [
        "check",
        "--table",
        "Bench",
        "--tally",
        "likeTally",
        "--parent-prefix",
        "POST#",
        "--child-prefix",
        "LIKE#",
        "--json",
        "--from-export",
        location,
    ];
    for run in 1..=3 {
        let measured = cli(&url, &args, &dir);
        assert_eq!(measured.code, 1, "every 10th post drifted");
        println!(
            "from S3 run {run}: {items} items ({} MB gzipped, {OBJECTS} objects) in {:.2} s = {:.0} items/s · CLI peak RSS {} MB (goal ≤ 100) · CPU {:.2} s",
            gz_bytes / 1_000_000,
            measured.wall_s,
            items as f64 / measured.wall_s,
            measured.peak_kb / 1024,
            measured.cpu_s
        );
    }
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
