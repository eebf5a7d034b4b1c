//! Queries shipped with dynoscope, which the app offers to insert and the README shows.

/// A shipped SQL query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SqlExample {
    /// A short title for a menu.
    pub title: &'static str,
    /// The tables it reads, as `--load` would name them: `social=Social`.
    pub loads: &'static [&'static str],
    /// The SQL text, its comment header saying what it expects.
    pub sql: &'static str,
}

/// The reconciliation of stored like tallies with counted likes.
pub const RECONCILE_LIKES: SqlExample = SqlExample {
    title: "Reconcile like tallies with counted likes",
    loads: &["social=Social"],
    sql: include_str!("../../../../assets/sql/reconcile_likes.sql"),
};

/// Every shipped example, for an "Insert example" menu.
pub fn examples() -> &'static [SqlExample] {
    &[RECONCILE_LIKES]
}
