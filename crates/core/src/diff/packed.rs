//! An item's key kept small while it waits for the other side: its key attributes' types and
//! bytes in one boxed slice (a string, number or binary key, as DynamoDB allows), unpacked into
//! a key again only for the few listed; and the canonical key text hashed to 128 bits, what
//! the two sides' items are paired by.

use std::hash::{DefaultHasher, Hash, Hasher};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::diff::canon::key_text;
use crate::value::Item;

/// The key of `item` under `key_names`, packed: per attribute a type byte, a length and the
/// bytes. `None` when a key attribute is missing or not a string, number or binary.
pub(crate) fn pack(item: &Item, key_names: &[String]) -> Option<Box<[u8]>> {
    let mut out = Vec::with_capacity(48);
    for name in key_names {
        let (tag, bytes): (u8, &[u8]) = match item.get(name)? {
            AttributeValue::S(s) => (b'S', s.as_bytes()),
            AttributeValue::N(n) => (b'N', n.as_bytes()),
            AttributeValue::B(b) => (b'B', b.as_ref()),
            _ => return None,
        };
        out.push(tag);
        out.extend_from_slice(&u32::try_from(bytes.len()).ok()?.to_le_bytes());
        out.extend_from_slice(bytes);
    }
    Some(out.into_boxed_slice())
}

/// The key [`pack`] packed, as an item again.
pub(crate) fn unpack(packed: &[u8], key_names: &[String]) -> Item {
    let mut key = Item::new();
    let mut rest = packed;
    for name in key_names {
        let Some((&tag, after)) = rest.split_first() else {
            break;
        };
        let Some((len, after)) = after.split_first_chunk::<4>() else {
            break;
        };
        let len = u32::from_le_bytes(*len) as usize;
        let (bytes, after) = after.split_at(len.min(after.len()));
        let text = || String::from_utf8_lossy(bytes).into_owned();
        let value = match tag {
            b'S' => AttributeValue::S(text()),
            b'N' => AttributeValue::N(text()),
            _ => AttributeValue::B(Blob::new(bytes)),
        };
        key.insert(name.clone(), value);
        rest = after;
    }
    key
}

/// The item's key, in canonical form (`1.0` as `1`), hashed to 128 bits.
pub(crate) fn key_hash(item: &Item, key_names: &[String]) -> u128 {
    let text = key_text(item, key_names);
    let half = |salt: u8| {
        let mut hasher = DefaultHasher::new();
        salt.hash(&mut hasher);
        text.hash(&mut hasher);
        hasher.finish()
    };
    (u128::from(half(3)) << 64) | u128::from(half(4))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_packs_and_unpacks_whole() {
        let names = vec!["PK".to_owned(), "SK".to_owned()];
        let key = Item::from([
            ("PK".to_owned(), AttributeValue::S("POST#a91f".into())),
            ("SK".to_owned(), AttributeValue::N("42".into())),
        ]);
        let packed = pack(&key, &names).unwrap();
        assert_eq!(unpack(&packed, &names), key);
        let binary = Item::from([("PK".to_owned(), AttributeValue::B(Blob::new([0, 255])))]);
        let names = vec!["PK".to_owned()];
        assert_eq!(unpack(&pack(&binary, &names).unwrap(), &names), binary);
        let map = Item::from([("PK".to_owned(), AttributeValue::Bool(true))]);
        assert!(pack(&map, &names).is_none());
    }
}
