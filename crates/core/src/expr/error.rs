//! Why an expression does not parse, and where.

/// Why an expression does not parse, and where (a character offset).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at {position}: {message}")]
pub struct ExprError {
    /// What is wrong.
    pub message: String,
    /// Character offset in the expression text.
    pub position: usize,
}

/// An error at `position`.
pub(crate) fn err<T>(message: impl Into<String>, position: usize) -> Result<T, ExprError> {
    Err(ExprError {
        message: message.into(),
        position,
    })
}
