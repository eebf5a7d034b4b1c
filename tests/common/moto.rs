//! moto's server (PyPI `moto[server]`, which the README's test command, `scripts/test.sh`, installs) started on a free port for
//! one test: what the embedded engine lacks (CloudWatch, backups) tried against a server that
//! is not ours.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::common::Said;
use dynoscope_core::admin::{self, AdminEvent, AdminReport};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::ending::Ending;
use dynoscope_core::schema::{TableSpec, parse_key};
use dynoscope_core::value::Item;
use dynoscope_core::write::WritePlan;

use crate::common::{connect_to, s, table_name};

/// moto's server on a free port, stopped when dropped.
pub(crate) struct Moto {
    child: Child,
    /// `http://127.0.0.1:port`.
    pub url: String,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// moto's server on a port of its own choosing: it binds port 0 and says the port it got on
/// stderr (`Running on http://127.0.0.1:PORT`), so no port picked here can be taken by another
/// test's server meanwhile, and the server is ready once it has said so.
pub(crate) fn moto() -> Moto {
    let mut child = Command::new("python3")
        .args(["-m", "moto.server", "-H", "127.0.0.1", "-p", "0"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs (scripts/test.sh, the README's test command, brings moto[server])");
    let stderr = child.stderr.take().unwrap();
    // One message, the URL: room for it, so the reader never waits.
    let (said, url) = std::sync::mpsc::sync_channel(1);
    // Reads stderr to its end, so that moto never blocks on a full pipe.
    std::thread::spawn(move || {
        use std::io::BufRead as _;
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            if let Some(at) = line.find("Running on http://") {
                let _ = said.try_send(line[at + "Running on ".len()..].trim().to_owned());
            }
        }
    });
    let mut moto = Moto {
        child,
        url: String::new(),
    };
    match url.recv_timeout(Duration::from_mins(1)) {
        Ok(url) => moto.url = url,
        Err(_) => match moto.child.try_wait() {
            Ok(Some(status)) => panic!(
                "moto's server ended ({status}): run the suite with scripts/test.sh, which installs \
                 moto[server] into target/test-tools"
            ),
            _ => panic!("moto's server did not say its port within a minute"),
        },
    }
    moto
}

impl Moto {
    /// Its address, for a proxy in front of it.
    pub(crate) fn addr(&self) -> std::net::SocketAddr {
        self.url.trim_start_matches("http://").parse().unwrap()
    }
}

/// Run `plan` through `admin::run`, without confirmation: (the report, its events).
pub(crate) async fn run(
    connection: &Connection,
    plan: &WritePlan,
) -> (AdminReport, Vec<AdminEvent>) {
    let mut events = Vec::new();
    let stop = CancelToken::default();
    let report = admin::run(connection, plan, false, &stop, &mut |e| events.push(e)).await;
    (report, events)
}

/// A `PK`/`SK` table on `connection`, made through the gateway, holding `count` items.
pub(crate) async fn table_with(connection: &Connection, prefix: &str, count: usize) -> String {
    let name = table_name(prefix);
    let spec = TableSpec::new(&name, parse_key("PK:S").unwrap(), parse_key("SK:S").ok());
    let (report, _) = run(connection, &admin::create_plan(connection, &spec).unwrap()).await;
    assert_eq!(
        report.ended().unwrap(),
        Ending::Done,
        "{:?}",
        report.texts()
    );
    let client = crate::common::Sdk::sdk(connection);
    for i in 0..count {
        let item = Item::from([
            ("PK".to_owned(), s(&format!("POST#{}", i % 2))),
            ("SK".to_owned(), s(&format!("LIKE#{i:03}"))),
            ("title".to_owned(), s(&format!("post {i}"))),
        ]);
        let put = client.put_item().table_name(&name);
        put.set_item(Some(item)).send().await.unwrap();
    }
    name
}

/// Every item of `table`, in key order.
pub(crate) async fn items(connection: &Connection, table: &str) -> Vec<Item> {
    let out = crate::common::Sdk::sdk(connection)
        .scan()
        .table_name(table)
        .send()
        .await;
    let mut items = out.unwrap().items.unwrap_or_default();
    let key = |i: &Item| format!("{:?}{:?}", i["PK"], i["SK"]);
    items.sort_by_key(key);
    items
}

/// moto's server and a connection to it.
pub(crate) async fn moto_connection() -> (Moto, Connection) {
    let moto = moto();
    let connection = connect_to(&moto.url, Duration::from_secs(10)).await;
    (moto, connection)
}
