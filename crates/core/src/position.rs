//! Where in a typed text something is: what an error points at.

/// A place in a text that was typed: a byte offset, and the line and column (both from 1,
/// the column counted in characters) people look for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextPosition {
    /// Byte offset in the text.
    pub offset: usize,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

impl TextPosition {
    /// The position of byte `offset` in `text` (clamped to its end and to a character start).
    pub(crate) fn in_text(text: &str, offset: usize) -> Self {
        let mut at = offset.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let before = &text[..at];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Self {
            offset: at,
            line: before.matches('\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
        }
    }
}

impl std::fmt::Display for TextPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}
