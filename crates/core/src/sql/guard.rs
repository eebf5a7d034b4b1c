//! What SQL over loaded rows may touch: this session's in-memory database alone.

use rusqlite::Connection;
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};

/// Refuse `ATTACH` and `DETACH` on `conn`: another database file could be written (a sandbox's
/// own database among them, whatever `--read-only` says) or created anywhere.
pub(super) fn only_this_session(conn: &Connection) {
    conn.authorizer(Some(|context: AuthContext<'_>| match context.action {
        AuthAction::Attach { .. } | AuthAction::Detach { .. } => Authorization::Deny,
        _ => Authorization::Allow,
    }));
}

#[cfg(test)]
mod tests {
    use crate::sql::SqlSession;

    #[test]
    fn no_other_database_is_attached() {
        let session = SqlSession::new().unwrap();
        let dir = std::env::temp_dir().join(format!("dynoscope-attach-{}", std::process::id()));
        let file = dir.display().to_string();
        let err = session
            .query_bounded(&format!("ATTACH DATABASE '{file}' AS other"), 10)
            .unwrap_err()
            .to_string();
        assert!(err.contains("not authorized"), "{err}");
        assert!(!dir.exists(), "no file was created");
        assert!(session.query_bounded("SELECT 1 AS one", 10).is_ok());
    }
}
