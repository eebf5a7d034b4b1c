//! A table of awkward items for round trips (38-digit numbers, sets, binary, nested maps, empty
//! strings), read back in key order, exported as DynamoDB JSON lines and imported into a new
//! table through the CLI.

use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue as V;
use dynoscope_core::read::{self, BrowseRequest};
use dynoscope_core::value::{Item, item_to_dynamodb_json};

use crate::common::files::{dynoscope, scratch};
use crate::common::{Engine, create_table, n, put_all, s, table_name};

/// 60 items: one with every awkward value, the rest likes.
pub(crate) fn items() -> Vec<Item> {
    let mut awkward = HashMap::from([
        ("PK".to_owned(), s("POST#a91f")),
        ("SK".to_owned(), s("META")),
        (
            "likeTally".to_owned(),
            n("98765432109876543210987654321098765432"),
        ),
        ("title".to_owned(), s("Hola, \"mundo\"\nsegunda línea")),
        ("empty".to_owned(), s("")),
        ("zip".to_owned(), s("007")),
        ("flag".to_owned(), V::Bool(false)),
        ("nothing".to_owned(), V::Null(true)),
        ("bin".to_owned(), V::B(Blob::new(vec![0, 1, 254]))),
        ("tags".to_owned(), V::Ss(vec!["a".into(), "b,c".into()])),
        ("scores".to_owned(), V::Ns(vec!["1.50".into(), "-2".into()])),
        ("blobs".to_owned(), V::Bs(vec![Blob::new(vec![9])])),
    ]);
    awkward.insert(
        "meta".to_owned(),
        V::M(HashMap::from([(
            "l".to_owned(),
            V::L(vec![n("0.10"), s(""), V::M(HashMap::new())]),
        )])),
    );
    let mut all = vec![awkward];
    for i in 0..59 {
        all.push(HashMap::from([
            ("PK".to_owned(), s("POST#a91f")),
            ("SK".to_owned(), s(&format!("LIKE#USER#{i:04}"))),
            ("likedAt".to_owned(), n(&(1_750_636_800 + i).to_string())),
        ]));
    }
    all
}

/// Every item of `table`, in key order.
pub(crate) async fn scan(engine: &Engine, table: &str) -> Vec<Item> {
    let info = read::describe_table(&engine.reader(), table).await.unwrap();
    let request = BrowseRequest::scan(&info, None).unwrap();
    let mut all = Vec::new();
    read::read_all(&engine.reader(), &request, |page| all.extend(page.items))
        .await
        .unwrap();
    let keys = ["PK".to_owned(), "SK".to_owned()];
    all.sort_by_key(|i| item_to_dynamodb_json(i, &keys, false));
    all
}

pub(crate) async fn source(engine: &Engine) -> String {
    let table = table_name("xfer-src");
    create_table(&engine.client, &table).await;
    put_all(&engine.client, &table, items()).await;
    table
}

/// A source table of [`items`] exported as DynamoDB JSON lines: its name and the file.
pub(crate) async fn exported(engine: &Engine, name: &str) -> (String, String) {
    let from = source(engine).await;
    let file = scratch(name).join("all.jsonl");
    let file = file.to_str().unwrap().to_owned();
    let (code, _, err) = dynoscope(
        engine.sandbox.endpoint(),
        &["export", "--table", &from, "--out", &file],
    )
    .await;
    assert_eq!(code, 0, "{err}");
    (from, file)
}

/// Import `file` (DynamoDB JSON lines) into a new empty table through `url`, with `extra`
/// arguments; the table and the CLI's (exit status, stdout, stderr).
pub(crate) async fn import_into_new(
    engine: &Engine,
    url: &str,
    prefix: &str,
    file: &str,
    extra: &[&str],
) -> (String, (i32, String, String)) {
    let to = table_name(prefix);
    create_table(&engine.client, &to).await;
    let mut args = vec!["import", "--table", &to, "--format", "ddb-json", file];
    args.extend_from_slice(extra);
    let run = dynoscope(url, &args).await;
    (to, run)
}
