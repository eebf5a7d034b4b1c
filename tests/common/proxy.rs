//! Proxies in front of an engine: one that drops chosen answers, one that makes a conflicting
//! write first; and reading one HTTP request off a connection, as every proxy here does.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A proxy in front of `upstream` that forwards every request, and every response except those
/// to a request naming `drop_target` (e.g. `UpdateItem`): those reach the server, but their answer
/// never reaches the client, whose connection is closed instead.
pub(crate) async fn response_dropping_proxy(
    upstream: SocketAddr,
    drop_target: &'static str,
) -> SocketAddr {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let Ok(server) = tokio::net::TcpStream::connect(upstream).await else {
                continue;
            };
            let (mut client_read, mut client_write) = client.into_split();
            let (mut server_read, mut server_write) = server.into_split();
            let dropping = Arc::new(AtomicBool::new(false));
            let seen = Arc::clone(&dropping);
            tokio::spawn(async move {
                let mut buf = vec![0u8; 64 * 1024];
                while let Ok(len) = client_read.read(&mut buf).await {
                    if len == 0 {
                        break;
                    }
                    if String::from_utf8_lossy(&buf[..len]).contains(drop_target) {
                        seen.store(true, Ordering::SeqCst);
                    }
                    if server_write.write_all(&buf[..len]).await.is_err() {
                        break;
                    }
                }
            });
            tokio::spawn(async move {
                let mut buf = vec![0u8; 64 * 1024];
                while let Ok(len) = server_read.read(&mut buf).await {
                    if len == 0 || dropping.load(Ordering::SeqCst) {
                        break; // closes the client's side without the answer
                    }
                    if client_write.write_all(&buf[..len]).await.is_err() {
                        break;
                    }
                }
            });
        }
    });
    addr
}

/// A proxy that answers the first `conflicts` TransactWriteItems with a TransactionConflict
/// cancellation (without forwarding them) and forwards everything else.
pub(crate) async fn conflicting_proxy(
    upstream: std::net::SocketAddr,
    conflicts: usize,
) -> (std::net::SocketAddr, Arc<std::sync::atomic::AtomicUsize>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let answered = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = Arc::clone(&answered);
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let count = Arc::clone(&count);
            tokio::spawn(async move {
                // Read one request: headers, then Content-Length bytes of body.
                let mut buf = Vec::new();
                let mut chunk = [0u8; 16 * 1024];
                let header_end = loop {
                    let Ok(n) = client.read(&mut chunk).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        break at + 4;
                    }
                };
                let head = String::from_utf8_lossy(&buf[..header_end]).to_lowercase();
                let length: usize = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(0);
                while buf.len() < header_end + length {
                    let Ok(n) = client.read(&mut chunk).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                }
                let is_transaction = head.contains("transactwriteitems");
                if is_transaction && count.fetch_add(1, Ordering::SeqCst) < conflicts {
                    let body = r#"{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","message":"Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None]","CancellationReasons":[{"Code":"TransactionConflict","Message":"Transaction is ongoing for the item"},{"Code":"None"}]}"#;
                    let response = format!(
                        "HTTP/1.1 400 Bad Request\r\ncontent-type: application/x-amz-json-1.0\r\nx-amzn-requestid: proxy\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = client.write_all(response.as_bytes()).await;
                    return;
                }
                // Forward this one request and its answer, then close.
                let Ok(mut server) = tokio::net::TcpStream::connect(upstream).await else {
                    return;
                };
                let request = String::from_utf8_lossy(&buf[..header_end]).replacen(
                    "\r\n",
                    "\r\nconnection: close\r\n",
                    1,
                );
                if server.write_all(request.as_bytes()).await.is_err()
                    || server.write_all(&buf[header_end..]).await.is_err()
                {
                    return;
                }
                let mut answer = Vec::new();
                let _ = server.read_to_end(&mut answer).await;
                let _ = client.write_all(&answer).await;
            });
        }
    });
    (addr, answered)
}

/// One HTTP request: its head (through the blank line) and its body.
pub(crate) async fn read_request(client: &mut tokio::net::TcpStream) -> Option<(String, Vec<u8>)> {
    use tokio::io::AsyncReadExt;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    let header_end = loop {
        let n = client.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..header_end]).into_owned();
    let length: usize = head
        .to_lowercase()
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    while buf.len() < header_end + length {
        let n = client.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Some((head, buf[header_end..].to_vec()))
}
