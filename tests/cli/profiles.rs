//! `--profile` signs with the profile's credentials, never the environment's, as the AWS CLI
//! does: the signed request's `Credential=` read at a listener that answers every request
//! itself. A failing `credential_process` is said to have failed, without echoing what it
//! printed (it may hold secrets).

use std::path::Path;
use std::sync::{Arc, Mutex};

use super::common::read_request;

/// A listener that records each request's `Credential=` key id and answers that the table is
/// not there; its URL.
async fn signing_witness(seen: Arc<Mutex<Vec<String>>>) -> String {
    use tokio::io::AsyncWriteExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let seen = Arc::clone(&seen);
            tokio::spawn(async move {
                while let Some((head, _)) = read_request(&mut client).await {
                    let key = head
                        .split("Credential=")
                        .nth(1)
                        .and_then(|rest| rest.split('/').next())
                        .unwrap_or("(unsigned)")
                        .to_owned();
                    seen.lock().unwrap().push(key);
                    let body = r#"{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"no table"}"#;
                    let answer = format!(
                        "HTTP/1.1 400 Bad Request\r\ncontent-type: application/x-amz-json-1.0\r\ncontent-length: {}\r\n\r\n{body}",
                        body.len()
                    );
                    if client.write_all(answer.as_bytes()).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    url
}

fn write_profiles(dir: &Path, credentials: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("config"), "[profile canary]\nregion = eu-west-1\n").unwrap();
    std::fs::write(dir.join("credentials"), credentials).unwrap();
}

fn dynoscope_with(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(args)
        .env("AWS_CONFIG_FILE", dir.join("config"))
        .env("AWS_SHARED_CREDENTIALS_FILE", dir.join("credentials"))
        .env("AWS_ACCESS_KEY_ID", "AKIAENVIRONMENT0000")
        .env("AWS_SECRET_ACCESS_KEY", "environment-secret")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_explicit_profile_wins_over_the_environment() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let url = signing_witness(Arc::clone(&seen)).await;
    let dir = super::common::files::scratch("profile-wins");
    write_profiles(
        &dir,
        "[canary]\naws_access_key_id = AKIACANARYPROFILE00\naws_secret_access_key = canary-secret\n",
    );
    let args = [
        "--profile",
        "canary",
        "--endpoint-url",
        &url,
        "describe",
        "--table",
        "Social",
    ];
    let out = tokio::task::spawn_blocking({
        let dir = dir.clone();
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        move || dynoscope_with(&dir, &args.iter().map(String::as_str).collect::<Vec<_>>())
    })
    .await
    .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("ResourceNotFoundException"),
        "it reached the listener: {err}"
    );
    let keys = seen.lock().unwrap().clone();
    assert!(!keys.is_empty(), "{err}");
    assert!(
        keys.iter().all(|k| k == "AKIACANARYPROFILE00"),
        "signed with {keys:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_credential_process_is_said_without_what_it_printed() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let url = signing_witness(Arc::clone(&seen)).await;
    let dir = super::common::files::scratch("profile-process");
    write_profiles(
        &dir,
        "[canary]\ncredential_process = sh -c \"echo token=SECRET-SESSION-4242 >&2; echo SECRET-OUT-4242; exit 3\"\n",
    );
    let out = tokio::task::spawn_blocking({
        let dir = dir.clone();
        move || {
            dynoscope_with(
                &dir,
                &[
                    "--profile",
                    "canary",
                    "--endpoint-url",
                    &url,
                    "describe",
                    "--table",
                    "Social",
                ],
            )
        }
    })
    .await
    .unwrap();
    let (stdout, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("credential_process"), "{err}");
    for said in [&stdout, &err] {
        assert!(!said.contains("SECRET-"), "echoed: {said}");
    }
    assert!(
        seen.lock().unwrap().is_empty(),
        "nothing signed with the environment's keys"
    );
}
