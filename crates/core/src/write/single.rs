//! One item's write, as the gateway takes it: an `UpdateItem`, `PutItem` or `DeleteItem`, made
//! from a built request only when that request writes. A Query or Scan has no place in this
//! type, so a read never reaches the write gateway (the code generator's `Request` holds both).

use crate::error::{Error, Result};
use crate::expr::codegen::{Operation, Request};
use crate::value::Item;

/// What one item's write does, with the key (or the whole item) it addresses.
#[derive(Debug, Clone, PartialEq)]
pub enum WriteOp {
    /// `UpdateItem` of the item with this key.
    Update(Item),
    /// `PutItem` of this whole item.
    Put(Item),
    /// `DeleteItem` of the item with this key.
    Delete(Item),
}

impl WriteOp {
    /// The key, or the whole item of a put.
    pub fn item(&self) -> &Item {
        match self {
            Self::Update(key) | Self::Delete(key) | Self::Put(key) => key,
        }
    }

    /// As the code generator's operation, to render.
    pub fn operation(&self) -> Operation {
        match self {
            Self::Update(key) => Operation::Update(key.clone()),
            Self::Put(item) => Operation::Put(item.clone()),
            Self::Delete(key) => Operation::Delete(key.clone()),
        }
    }

    /// The operation's name: `UpdateItem`, `PutItem`, `DeleteItem`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Update(_) => "UpdateItem",
            Self::Put(_) => "PutItem",
            Self::Delete(_) => "DeleteItem",
        }
    }
}

/// One item's write: what it does, and the request it was built as (its expressions, names,
/// values and what it returns).
#[derive(Debug, Clone, PartialEq)]
pub struct SingleWrite {
    op: WriteOp,
    request: Request,
}

impl SingleWrite {
    /// The write `request` makes; a Query or Scan is refused, and so is a write without an item
    /// (its key) to address.
    pub fn new(request: Request) -> Result<Self> {
        let op = match &request.operation {
            Operation::Update(key) => WriteOp::Update(key.clone()),
            Operation::Put(item) => WriteOp::Put(item.clone()),
            Operation::Delete(key) => WriteOp::Delete(key.clone()),
            Operation::Query(_) | Operation::Scan(_) => {
                return Err(Error::Invalid(format!(
                    "{} is a read, not a write",
                    request.operation_name()
                )));
            }
        };
        if op.item().is_empty() {
            return Err(Error::Invalid(format!(
                "{} needs an item: choose one (its key) before sending; nothing was sent",
                op.name()
            )));
        }
        Ok(Self { op, request })
    }

    /// The write `op` with the rest of `request` (its expressions, names, values, returns); the
    /// request's own operation becomes `op`'s.
    pub fn with(op: WriteOp, mut request: Request) -> Self {
        request.operation = op.operation();
        Self { op, request }
    }

    /// What it does.
    pub fn op(&self) -> &WriteOp {
        &self.op
    }

    /// The request it was built as, as the code generator renders it.
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// The table written.
    pub fn table(&self) -> &str {
        &self.request.table
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use aws_sdk_dynamodb::types::AttributeValue;

    use super::*;

    fn request(operation: Operation) -> Request {
        Request {
            table: "Social".into(),
            operation,
            update: None,
            condition: None,
            key_condition: None,
            filter: None,
            projection: None,
            names: HashMap::new(),
            values: HashMap::new(),
            returns: crate::expr::codegen::ReturnOptions::default(),
        }
    }

    #[test]
    fn only_a_write_with_an_item_is_one() {
        let key: Item = HashMap::from([("PK".to_owned(), AttributeValue::S("POST#a91f".into()))]);
        let write = SingleWrite::new(request(Operation::Delete(key.clone()))).unwrap();
        assert_eq!(write.op(), &WriteOp::Delete(key));
        assert_eq!((write.op().name(), write.table()), ("DeleteItem", "Social"));
        let read = SingleWrite::new(request(Operation::Query(None))).unwrap_err();
        assert_eq!(read.to_string(), "Query is a read, not a write");
        assert!(SingleWrite::new(request(Operation::Scan(None))).is_err());
        let keyless = SingleWrite::new(request(Operation::Update(Item::new()))).unwrap_err();
        assert!(keyless.to_string().contains("needs an item"), "{keyless}");
    }
}
