//! Connection choices: flags, identities.

use super::*;

#[test]
fn explicit_flags_choose_the_connection() {
    assert_eq!(
        ConnectionSpec::from_flags(true, None, None, None, None),
        ConnectionSpec::Sandbox { db_path: None }
    );
    assert!(matches!(
        ConnectionSpec::from_flags(
            false,
            None,
            None,
            None,
            Some("http://localhost:8000".into())
        ),
        ConnectionSpec::Endpoint { .. }
    ));
    assert!(matches!(
        ConnectionSpec::from_flags(false, None, Some("dev".into()), None, None),
        ConnectionSpec::Aws { .. }
    ));
}

#[test]
fn identities_are_stable_and_distinct() {
    let specs = [
        ConnectionSpec::Sandbox { db_path: None },
        ConnectionSpec::Sandbox {
            db_path: Some("s.db".into()),
        },
        ConnectionSpec::Aws {
            profile: Some("dev".into()),
            region: None,
        },
        ConnectionSpec::Endpoint {
            url: "http://localhost:8000".into(),
            profile: None,
            region: None,
        },
    ];
    let ids: std::collections::BTreeSet<_> = specs.iter().map(ConnectionSpec::identity).collect();
    assert_eq!(ids.len(), specs.len());
    assert_eq!(
        specs[2].identity().to_string(),
        "aws:profile=dev;region=",
        "saved rules depend on this spelling"
    );
}
