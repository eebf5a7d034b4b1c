//! DynamoDB expressions: the tree, a parser that reports positions, a printer that aliases every
//! name and value, the reserved words, the builder's model, the code generator, and running a
//! built request.

pub mod ast;
pub mod builder;
pub mod codegen;
pub mod error;
mod lexer;
pub mod parser;
pub mod printer;
pub mod reserved;

#[cfg(test)]
mod limit_tests;
#[cfg(test)]
mod tests;
