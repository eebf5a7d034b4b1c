//! Reading an SDK error: the start of an unreadable answer, a source of one type in the chain,
//! a refused connection, the chain in words.

use aws_sdk_dynamodb::config::http::HttpResponse;

/// The start of an unreadable answer's body, on one line, for the message.
pub(super) fn body_excerpt(response: &HttpResponse) -> String {
    let body = response.body().bytes().unwrap_or_default();
    let text: String = String::from_utf8_lossy(body)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    match text.char_indices().nth(80) {
        _ if text.is_empty() => "no error code in the answer".to_owned(),
        Some((at, _)) => format!("no error code in the answer: {}…", &text[..at]),
        None => format!("no error code in the answer: {text}"),
    }
}

/// The first error of type `E` in `err`'s chain of sources.
pub(super) fn find_source<'a, E: std::error::Error + 'static>(
    err: &'a (dyn std::error::Error + 'static),
) -> Option<&'a E> {
    let mut next = Some(err);
    while let Some(e) = next {
        if let Some(found) = e.downcast_ref::<E>() {
            return Some(found);
        }
        next = e.source();
    }
    None
}

/// Whether the connection was refused or had no route: then the request never left.
pub(super) fn connection_refused(err: &(dyn std::error::Error + 'static)) -> bool {
    use std::io::ErrorKind;
    let mut next = Some(err);
    while let Some(e) = next {
        if let Some(io) = e.downcast_ref::<std::io::Error>()
            && matches!(
                io.kind(),
                ErrorKind::ConnectionRefused
                    | ErrorKind::AddrNotAvailable
                    | ErrorKind::NetworkUnreachable
                    | ErrorKind::HostUnreachable
            )
        {
            return true;
        }
        next = e.source();
    }
    false
}

/// The messages of `err` and its sources, joined with `: `, each said once.
///
/// The SDK's own context printer appends a `Debug` dump; people should read sentences.
pub(super) fn error_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = next {
        let text = e.to_string();
        if !text.is_empty() && !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        next = e.source();
    }
    parts.join(": ")
}

/// What the credential chain said, without what a `credential_process` printed: its output may
/// hold a secret (a token, a key), so only that it failed, and how, is said.
pub(super) fn credentials_detail(detail: String) -> String {
    // ASCII lower case keeps every byte where it was, so `at` is a place in `detail` too.
    let lower = detail.to_ascii_lowercase();
    let Some(at) = lower.find("stderr:").or_else(|| lower.find("stdout:")) else {
        return detail;
    };
    let said = detail.get(..at).unwrap_or_default();
    let said = said.trim_end().trim_end_matches('.');
    let said = if lower.contains("external process") {
        format!("the profile's credential_process failed ({said})")
    } else {
        said.to_owned()
    };
    format!("{said}; what it printed is not shown, since it may hold secrets")
}

#[cfg(test)]
mod tests {
    use super::credentials_detail;

    #[test]
    fn what_a_credential_process_printed_is_never_said() {
        let said = credentials_detail(
            "an error occurred while loading credentials: Error retrieving credentials: external \
             process exited with code exit status: 3. Stderr: token=SECRET"
                .to_owned(),
        );
        assert!(!said.contains("SECRET"), "{said}");
        assert!(said.contains("credential_process failed"), "{said}");
        assert!(said.contains("exit status: 3"), "{said}");
        let plain = "no providers in chain provided credentials".to_owned();
        assert_eq!(credentials_detail(plain.clone()), plain);
    }
}
