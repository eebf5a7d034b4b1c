//! The answers the fault proxy gives in the server's place (refusals, a throttle with its
//! reason, an error page, a garbled body, an unprocessed item) and the batch it holds an item
//! back from.

/// Whether the request `head` has a target ending in one of `writes`.
pub(super) fn has_target(head: &str, writes: &[&str]) -> bool {
    let lower = head.to_lowercase();
    let target = lower
        .lines()
        .find_map(|l| l.strip_prefix("x-amz-target:"))
        .map(|t| t.trim().to_owned())
        .unwrap_or_default();
    writes
        .iter()
        .any(|w| target.ends_with(&format!(".{}", w.to_lowercase())))
}

/// Hold `client`'s connection open for two minutes without a word.
pub(super) async fn never_answer(client: tokio::net::TcpStream) {
    tokio::time::sleep(std::time::Duration::from_mins(2)).await;
    drop(client);
}

/// An HTTP 400 answer carrying `body`, as DynamoDB refuses.
pub(super) fn refusal(body: &str) -> String {
    format!(
        "HTTP/1.1 400 Bad Request\r\ncontent-type: application/x-amz-json-1.0\r\nx-amzn-requestid: proxy\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// A ThrottlingException's body as DynamoDB sends it with its reason, on the table (and index)
/// `request` names.
pub(super) fn throttled_because(reason: &str, request: &[u8]) -> String {
    let request: serde_json::Value = serde_json::from_slice(request).unwrap_or_default();
    let table = request["TableName"].as_str().unwrap_or("Unnamed");
    let mut resource = format!("arn:aws:dynamodb:us-east-1:123456789012:table/{table}");
    if let Some(index) = request["IndexName"].as_str() {
        resource.push_str(&format!("/index/{index}"));
    }
    serde_json::json!({
        "__type": "com.amazonaws.dynamodb.v20120810#ThrottlingException",
        "message": "Throughput exceeds the current capacity for one or more resources.",
        "ThrottlingReasons": [{ "reason": reason, "resource": resource }],
    })
    .to_string()
}

/// A BatchWriteItem request without the last item of its table's list (kept in `held_back`)
/// when it has more than one, its content-length set to the new body's.
pub(super) fn hold_back_last(
    head: &str,
    body: &[u8],
    held_back: &mut Option<(String, serde_json::Value)>,
) -> (String, Vec<u8>) {
    let mut json: serde_json::Value = serde_json::from_slice(body).unwrap();
    let tables = json["RequestItems"].as_object_mut().unwrap();
    let (table, list) = tables.iter_mut().next().unwrap();
    let list = list.as_array_mut().unwrap();
    if list.len() > 1 {
        *held_back = Some((table.clone(), list.pop().unwrap()));
    }
    let body = serde_json::to_vec(&json).unwrap();
    let head = head
        .split("\r\n")
        .map(|line| {
            if line.to_lowercase().starts_with("content-length:") {
                format!("content-length: {}", body.len())
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\r\n");
    (head, body)
}

/// A ThrottlingException's body, as DynamoDB refuses a write beyond its rate.
pub(super) const THROTTLED: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}"#;

/// A ProvisionedThroughputExceededException's body, as DynamoDB refuses a read beyond the
/// table's capacity.
pub(super) const READS_EXCEEDED: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"The level of configured provisioned throughput for the table was exceeded."}"#;

/// An HTML 500 page, as a proxy in front of the server answers.
pub(super) fn html_500() -> String {
    let page = "<html><body><h1>500 Internal Server Error</h1>nginx</body></html>";
    format!(
        "HTTP/1.1 500 Internal Server Error\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{page}",
        page.len()
    )
}

/// A 200 whose body is not JSON.
pub(super) fn garbage_200() -> String {
    let junk = "\u{1}\u{2}not json at all {{{";
    format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/x-amz-json-1.0\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{junk}",
        junk.len()
    )
}

/// A BatchWriteItem's answer that left `item` of `table` unprocessed.
pub(super) fn unprocessed(table: &str, item: &serde_json::Value) -> String {
    let body = serde_json::json!({ "UnprocessedItems": { table: [item] } }).to_string();
    format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/x-amz-json-1.0\r\nx-amzn-requestid: proxy\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Where to cut `answer`: half way through its body (half way, without a body).
pub(super) fn cut_point(answer: &[u8]) -> usize {
    answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(answer.len() / 2, |end| {
            end + 4 + (answer.len() - end - 4) / 2
        })
}
