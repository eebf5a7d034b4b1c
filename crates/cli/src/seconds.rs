//! Seconds given on the command line: a request's timeout and a page's throttling budget.

use std::time::Duration;

use dynoscope_core::connection::ConnectOptions;

/// A request timeout, as the connection takes it (`--timeout`).
pub(crate) fn timeout(text: &str) -> Result<Duration, String> {
    ConnectOptions::parse_timeout(text).map_err(|e| e.to_string())
}

/// A throttling budget in seconds: 0 (give up at the first throttle) to an hour
/// (`--max-throttle-wait`).
pub(crate) fn throttle_wait(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|secs| (0.0..=3600.0).contains(secs))
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("`{text}` is not a number of seconds from 0 to 3600"))
}
