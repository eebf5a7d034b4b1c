//! DynamoDB expressions: the tree, a parser that reports positions, a printer that aliases every
//! name and value, and the reserved words. The groundwork of the expression builder.

pub mod ast;
pub mod builder;
pub mod codegen;
mod lexer;
pub mod parser;
pub mod printer;
pub mod reserved;
pub mod run;

#[cfg(test)]
mod tests;
