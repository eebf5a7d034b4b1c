//! Whether two items or two values are the same DynamoDB value: sets compared as sets, maps and
//! lists in depth.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::value::Item;

/// Whether two items hold the same values (sets compared as sets: the server gives their
/// elements in no particular order).
pub fn same_item(a: &Item, b: &Item) -> bool {
    a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| same(v, w)))
}

/// Whether two values are the same DynamoDB value: sets compared as sets (the server gives
/// their elements in no particular order), maps and lists element by element.
pub fn same(a: &AttributeValue, b: &AttributeValue) -> bool {
    fn sorted<T: Ord + Clone>(v: &[T]) -> Vec<T> {
        let mut v = v.to_vec();
        v.sort();
        v
    }
    match (a, b) {
        (AttributeValue::Ss(x), AttributeValue::Ss(y))
        | (AttributeValue::Ns(x), AttributeValue::Ns(y)) => sorted(x) == sorted(y),
        (AttributeValue::Bs(x), AttributeValue::Bs(y)) => {
            let bytes = |v: &[aws_sdk_dynamodb::primitives::Blob]| {
                sorted(&v.iter().map(|b| b.as_ref().to_vec()).collect::<Vec<_>>())
            };
            bytes(x) == bytes(y)
        }
        (AttributeValue::M(x), AttributeValue::M(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        (AttributeValue::L(x), AttributeValue::L(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same(v, w))
        }
        _ => a == b,
    }
}
