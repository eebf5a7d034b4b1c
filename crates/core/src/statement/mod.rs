//! A PartiQL statement as words: its tokens, what kind it is (a read or a write), the table it
//! names and its typed `?` parameters. The vocabulary `partiql` runs and the write gateway sends;
//! nothing here reads or writes.

mod lexer;
pub(crate) mod text;

pub use text::Classified;
pub use text::{Kind, Statement};
