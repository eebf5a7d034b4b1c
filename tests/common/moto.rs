//! moto's server (PyPI `moto[server]`, which `.ci/run` installs) started on a free port for
//! one test: what the embedded engine lacks (CloudWatch, backups) tried against a server that
//! is not ours.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use dynoscope::core::admin::{self, AdminEvent, AdminReport};
use dynoscope::core::cancel::CancelToken;
use dynoscope::core::connection::Connection;
use dynoscope::core::ending::Ending;
use dynoscope::core::schema::{TableSpec, parse_key};
use dynoscope::core::value::Item;
use dynoscope::core::write::WritePlan;

use crate::common::{connect_to, s, table_name};

/// moto's server on a free port, stopped when dropped.
pub struct Moto {
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

pub fn moto() -> Moto {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new("python3")
        .args([
            "-m",
            "moto.server",
            "-H",
            "127.0.0.1",
            "-p",
            &port.to_string(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 runs (CI installs moto[server] from PyPI)");
    let mut moto = Moto {
        child,
        url: format!("http://127.0.0.1:{port}"),
    };
    // Started once it takes a connection: tried a bounded number of times, not timed.
    for _ in 0..300 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return moto;
        }
        if let Ok(Some(status)) = moto.child.try_wait() {
            panic!("moto's server ended ({status}): install it with `pip install 'moto[server]'`");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("moto's server never took a connection on {}", moto.url);
}

impl Moto {
    /// Its address, for a proxy in front of it.
    pub fn addr(&self) -> std::net::SocketAddr {
        self.url.trim_start_matches("http://").parse().unwrap()
    }
}

/// Run `plan` through `admin::run`, without confirmation: (the report, its events).
pub async fn run(connection: &Connection, plan: &WritePlan) -> (AdminReport, Vec<AdminEvent>) {
    let mut events = Vec::new();
    let stop = CancelToken::default();
    let report = admin::run(connection, plan, false, &stop, &mut |e| events.push(e)).await;
    (report, events)
}

/// A `PK`/`SK` table on `connection`, made through the gateway, holding `count` items.
pub async fn table_with(connection: &Connection, prefix: &str, count: usize) -> String {
    let name = table_name(prefix);
    let spec = TableSpec::new(&name, parse_key("PK:S").unwrap(), parse_key("SK:S").ok());
    let (report, _) = run(connection, &admin::create_plan(connection, &spec).unwrap()).await;
    assert_eq!(
        report.ending().unwrap(),
        Ending::Done,
        "{:?}",
        report.lines()
    );
    for i in 0..count {
        let item = Item::from([
            ("PK".to_owned(), s(&format!("POST#{}", i % 2))),
            ("SK".to_owned(), s(&format!("LIKE#{i:03}"))),
            ("title".to_owned(), s(&format!("post {i}"))),
        ]);
        let put = connection.client.put_item().table_name(&name);
        put.set_item(Some(item)).send().await.unwrap();
    }
    name
}

/// Every item of `table`, in key order.
pub async fn items(connection: &Connection, table: &str) -> Vec<Item> {
    let out = connection.client.scan().table_name(table).send().await;
    let mut items = out.unwrap().items.unwrap_or_default();
    let key = |i: &Item| format!("{:?}{:?}", i["PK"], i["SK"]);
    items.sort_by_key(key);
    items
}

/// moto's server and a connection to it.
pub async fn moto_connection() -> (Moto, Connection) {
    let moto = moto();
    let connection = connect_to(&moto.url, Duration::from_secs(10)).await;
    (moto, connection)
}
