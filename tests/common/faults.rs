//! The fault-injecting proxy every write path is tested through: applied-then-garbled answers,
//! resets, silence, throttling, refusals, held answers; it counts and records what arrives.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use tokio::net::TcpStream;

use crate::common::fault_answers::{
    READS_EXCEEDED, THROTTLED, cut_point, garbage_200, has_target, hold_back_last, html_500,
    never_answer, refusal, throttled_because, unprocessed,
};
use crate::common::read_request;

/// What the fault proxy does to a write (a request whose target is one of the proxy's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    /// Forward it; answer with an HTML 500 page instead of the server's answer.
    HtmlAfterApply,
    /// Forward it; answer 200 with a body that is not JSON.
    GarbageAfterApply,
    /// Forward it; send the server's answer cut in half, then close.
    CutAfterApply,
    /// Forward it; reset the connection instead of answering.
    ResetAfterApply,
    /// Forward it; never answer (the client's timeout must give up).
    SilentAfterApply,
    /// Refuse the first `n` with ThrottlingException without forwarding them; forward the rest.
    Throttle(usize),
    /// Like `HtmlAfterApply` for the first write only; the rest pass.
    HtmlAfterApplyOnce,
    /// Like `ResetAfterApply` for the second request only (the first passes, so a read is
    /// under way when its connection is reset); the rest pass.
    ResetAfterApplySecond,
    /// For reads (targets such as `Scan`, `Query`): forward the first `pass`, refuse the next
    /// `refuse` with HTTP 400 ProvisionedThroughputExceededException, forward the rest.
    ThrottleReads { pass: usize, refuse: usize },
    /// For the first `n` BatchWriteItem requests of more than one item: forward all but the
    /// last item, and answer that the last was left unprocessed (as DynamoDB does when it runs
    /// out of capacity part-way).
    Unprocessed(usize),
    /// The first BatchWriteItem as [`Fault::Unprocessed`]; every later one refused with
    /// ThrottlingException without forwarding it.
    UnprocessedThenThrottled,
    /// Refuse every write with HTTP 400 and this error code (`ValidationException`), without
    /// forwarding it: a refusal for a reason no client can see.
    Refuse(&'static str),
    /// [`Fault::Refuse`] for the writes whose arrival number (from 0) is listed; the others
    /// are forwarded.
    RefuseThese(&'static str, &'static [usize]),
    /// Forward it; hold the server's answer until [`FaultProxy::release`], then give it: a
    /// write known to be in flight for as long as a test needs (to send a signal).
    Hold,
    /// Refuse the first `times` with ThrottlingException carrying `ThrottlingReasons` (one
    /// `reason`, on the ARN of the request's `TableName`, and its `IndexName` when it has
    /// one), without forwarding them; forward the rest.
    ThrottleBecause { times: usize, reason: &'static str },
    /// Reset the connection without forwarding it: the answer is lost, and nothing was applied.
    ResetBeforeApply,
    /// Never forward it, never answer (the client's timeout must give up): nothing was applied.
    SilentBeforeApply,
    /// Forward it; answer with the server's answer whose first number (`"N":"…`) has its first
    /// digit changed, its headers (`x-amz-crc32` among them) as the server sent them: still
    /// JSON, still the length it says, but not what the server said.
    DigitChangedAfterApply,
    /// For a request whose request line holds this text (an S3 object's key): not forwarded,
    /// not answered for two minutes; counted as arrived. Every other request is forwarded.
    NeverAnswer(&'static str),
}

impl Fault {
    /// Every fault that lets the write reach the server and hides the answer.
    pub(crate) const AFTER_APPLY: [Fault; 5] = [
        Fault::HtmlAfterApply,
        Fault::GarbageAfterApply,
        Fault::CutAfterApply,
        Fault::ResetAfterApply,
        Fault::SilentAfterApply,
    ];
}

/// A proxy in front of an engine that injects `fault` into writes, and counts them.
pub(crate) struct FaultProxy {
    /// `http://127.0.0.1:port`.
    pub url: String,
    /// Writes that arrived at the proxy.
    pub arrived: Arc<AtomicUsize>,
    /// Writes forwarded to the server.
    pub forwarded: Arc<AtomicUsize>,
    /// The most requests of any kind that were in flight through the proxy at once.
    pub most_at_once: Arc<AtomicUsize>,
    /// The bodies of the requests with one of the proxy's targets, in the order they arrived.
    pub bodies: Arc<std::sync::Mutex<Vec<String>>>,
    /// Held answers ([`Fault::Hold`]) go once this is set.
    pub released: Arc<AtomicBool>,
}

impl FaultProxy {
    pub(crate) fn forwarded(&self) -> usize {
        self.forwarded.load(Ordering::SeqCst)
    }

    pub(crate) fn arrived(&self) -> usize {
        self.arrived.load(Ordering::SeqCst)
    }

    pub(crate) fn most_at_once(&self) -> usize {
        self.most_at_once.load(Ordering::SeqCst)
    }

    /// The bodies of the requests with one of the proxy's targets, so far.
    pub(crate) fn bodies(&self) -> Vec<String> {
        self.bodies.lock().unwrap().clone()
    }

    /// Let held answers go ([`Fault::Hold`]).
    pub(crate) fn release(&self) {
        self.released.store(true, Ordering::SeqCst);
    }

    /// Wait (on this thread) until `n` writes have arrived: a count, not a time (a minute at
    /// most, then the test fails).
    pub(crate) fn wait_for_arrivals(&self, n: usize) {
        let deadline = std::time::Instant::now() + Duration::from_mins(1);
        while self.arrived() < n && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(self.arrived() >= n, "{n} requests never arrived");
    }
}

/// Counts a request in flight while it lives.
struct InFlight(Arc<AtomicUsize>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Start a fault proxy in front of `upstream`. Requests whose `X-Amz-Target` ends in one of
/// `writes` (e.g. `UpdateItem`, or `Scan` for [`Fault::ThrottleReads`]) get `fault` and are
/// counted and recorded; everything else is forwarded untouched. Each
/// connection carries one request.
pub(crate) async fn fault_proxy(
    upstream: SocketAddr,
    writes: &'static [&'static str],
    fault: Fault,
) -> FaultProxy {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Seen::default();
    let shared = seen.clone();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            tokio::spawn(serve(client, upstream, (writes, fault), shared.clone()));
        }
    });
    FaultProxy {
        url,
        arrived: seen.arrived,
        forwarded: seen.forwarded,
        most_at_once: seen.most_at_once,
        bodies: seen.bodies,
        released: seen.released,
    }
}

/// What the proxy counts and records, shared with every connection it serves.
#[derive(Clone, Default)]
struct Seen {
    arrived: Arc<AtomicUsize>,
    forwarded: Arc<AtomicUsize>,
    most_at_once: Arc<AtomicUsize>,
    in_flight: Arc<AtomicUsize>,
    bodies: Arc<std::sync::Mutex<Vec<String>>>,
    released: Arc<AtomicBool>,
}

/// Serve one connection's request: `fault` for one with a target in `writes` (counted and
/// recorded), forwarded untouched otherwise.
async fn serve(
    mut client: TcpStream,
    upstream: SocketAddr,
    (writes, fault): (&'static [&'static str], Fault),
    seen: Seen,
) {
    use tokio::io::AsyncReadExt;
    let Some((head, body)) = read_request(&mut client).await else {
        return;
    };
    let now = seen.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    seen.most_at_once.fetch_max(now, Ordering::SeqCst);
    let _counted = InFlight(Arc::clone(&seen.in_flight));
    if let Fault::NeverAnswer(part) = fault
        && head.lines().next().is_some_and(|line| line.contains(part))
    {
        seen.arrived.fetch_add(1, Ordering::SeqCst);
        return never_answer(client).await;
    }
    let is_write = has_target(&head, writes);
    let nth = if is_write {
        let mut bodies = seen.bodies.lock().unwrap();
        bodies.push(String::from_utf8_lossy(&body).into_owned());
        seen.arrived.fetch_add(1, Ordering::SeqCst)
    } else {
        usize::MAX
    };
    if refused_unsent(&mut client, fault, (is_write, nth), &body).await {
        return;
    }
    // Hold back the last item of a batch, forwarding the rest.
    let mut held_back = None;
    let (head, body) = match fault {
        Fault::Unprocessed(n) if is_write && nth < n => {
            hold_back_last(&head, &body, &mut held_back)
        }
        Fault::UnprocessedThenThrottled if is_write && nth == 0 => {
            hold_back_last(&head, &body, &mut held_back)
        }
        _ => (head, body),
    };
    // Forward the request and read the server's whole answer.
    let Some(mut server) = send_upstream(upstream, &head, &body).await else {
        return;
    };
    if is_write {
        seen.forwarded.fetch_add(1, Ordering::SeqCst);
    }
    let mut answer = Vec::new();
    let _ = server.read_to_end(&mut answer).await;
    answer_client(
        client,
        fault,
        (is_write, nth),
        (answer, held_back),
        &seen.released,
    )
    .await;
}

/// Refuse, throttle, reset or ignore the `nth` write as `fault` says, without forwarding it;
/// whether it was.
async fn refused_unsent(
    client: &mut TcpStream,
    fault: Fault,
    (is_write, nth): (bool, usize),
    body: &[u8],
) -> bool {
    use tokio::io::AsyncWriteExt;
    if let Fault::ThrottleReads { pass, refuse } = fault
        && is_write
        && nth >= pass
        && nth - pass < refuse
    {
        let _ = client.write_all(refusal(READS_EXCEEDED).as_bytes()).await;
        return true;
    }
    let refused = match fault {
        Fault::Refuse(code) => Some(code),
        Fault::RefuseThese(code, these) if these.contains(&nth) => Some(code),
        _ => None,
    };
    if let Some(code) = refused
        && is_write
    {
        let body = format!(
            r#"{{"__type":"com.amazonaws.dynamodb.v20120810#{code}","message":"refused by the test proxy"}}"#
        );
        let _ = client.write_all(refusal(&body).as_bytes()).await;
        return true;
    }
    if let Fault::ThrottleBecause { times, reason } = fault
        && nth < times
    {
        let body = throttled_because(reason, body);
        let _ = client.write_all(refusal(&body).as_bytes()).await;
        return true;
    }
    let throttled = match fault {
        Fault::Throttle(n) => nth < n,
        Fault::UnprocessedThenThrottled => is_write && nth > 0,
        _ => false,
    };
    if throttled {
        let _ = client.write_all(refusal(THROTTLED).as_bytes()).await;
        return true;
    }
    if is_write && matches!(fault, Fault::ResetBeforeApply | Fault::SilentBeforeApply) {
        if fault == Fault::SilentBeforeApply {
            tokio::time::sleep(Duration::from_mins(2)).await;
        }
        #[expect(deprecated, reason = "a zero linger makes the close a reset (RST)")]
        let _ = client.set_linger(Some(Duration::ZERO));
        return true;
    }
    false
}

/// A connection to `upstream` with the request sent on it (its last), or `None` when it could
/// not be.
async fn send_upstream(upstream: SocketAddr, head: &str, body: &[u8]) -> Option<TcpStream> {
    use tokio::io::AsyncWriteExt;
    let mut server = TcpStream::connect(upstream).await.ok()?;
    let head = head.replacen("\r\n", "\r\nconnection: close\r\n", 1);
    if server.write_all(head.as_bytes()).await.is_err() || server.write_all(body).await.is_err() {
        return None;
    }
    Some(server)
}

/// Answer the `nth` request as `fault` says once the server answered it (`answer`, and the
/// item held back of a batch): the answer as it is, held until `released`, or hidden.
async fn answer_client(
    mut client: TcpStream,
    fault: Fault,
    (is_write, nth): (bool, usize),
    (answer, held_back): (Vec<u8>, Option<(String, serde_json::Value)>),
    released: &AtomicBool,
) {
    use tokio::io::AsyncWriteExt;
    if let Some((table, item)) = held_back {
        let _ = client
            .write_all(unprocessed(&table, &item).as_bytes())
            .await;
        return;
    }
    if fault == Fault::Hold && is_write {
        while !released.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    let passes = matches!(
        fault,
        Fault::Throttle(_)
            | Fault::ThrottleBecause { .. }
            | Fault::ThrottleReads { .. }
            | Fault::Unprocessed(_)
            | Fault::UnprocessedThenThrottled
            | Fault::Refuse(_)
            | Fault::RefuseThese(..)
            | Fault::Hold
    ) || (fault == Fault::HtmlAfterApplyOnce && nth > 0)
        || (fault == Fault::ResetAfterApplySecond && nth != 1);
    if !is_write || passes {
        let _ = client.write_all(&answer).await;
        return;
    }
    match fault {
        Fault::HtmlAfterApply | Fault::HtmlAfterApplyOnce => {
            let _ = client.write_all(html_500().as_bytes()).await;
        }
        Fault::GarbageAfterApply => {
            let _ = client.write_all(garbage_200().as_bytes()).await;
        }
        Fault::CutAfterApply => {
            let _ = client.write_all(&answer[..cut_point(&answer)]).await;
            let _ = client.shutdown().await;
        }
        Fault::ResetAfterApply | Fault::ResetAfterApplySecond => {
            #[expect(
                deprecated,
                reason = "a zero linger makes the close a reset (RST), the point here"
            )]
            let _ = client.set_linger(Some(Duration::ZERO));
            drop(client);
        }
        Fault::SilentAfterApply => {
            tokio::time::sleep(Duration::from_mins(2)).await;
        }
        Fault::DigitChangedAfterApply => {
            let _ = client.write_all(&digit_changed(answer)).await;
        }
        Fault::Throttle(_)
        | Fault::ThrottleBecause { .. }
        | Fault::ThrottleReads { .. }
        | Fault::Unprocessed(_)
        | Fault::UnprocessedThenThrottled
        | Fault::Refuse(_)
        | Fault::RefuseThese(..)
        | Fault::Hold
        | Fault::ResetBeforeApply
        | Fault::SilentBeforeApply
        | Fault::NeverAnswer(_) => {}
    }
}

/// `answer` with the first digit of its first number changed (9 for 3, 0 for 9 …).
fn digit_changed(mut answer: Vec<u8>) -> Vec<u8> {
    let marker = br#""N":""#;
    if let Some(at) = answer.windows(marker.len()).position(|w| w == marker)
        && let Some(digit) = answer.get_mut(at + marker.len())
        && digit.is_ascii_digit()
    {
        *digit = b'0' + (*digit - b'0' + 6) % 10;
    }
    answer
}
