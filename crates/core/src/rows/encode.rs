//! The compact form of one row: a byte string of top-level fields, each an interned name id and
//! a length-prefixed value. Values keep DynamoDB's types exactly (numbers as the server's text,
//! sets, binary, nested maps and lists), so decoding gives back the very `AttributeValue`.

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;

/// The type tag of an encoded value.
pub(crate) mod tag {
    pub(crate) const S: u8 = 1;
    pub(crate) const N: u8 = 2;
    pub(crate) const B: u8 = 3;
    pub(crate) const FALSE: u8 = 4;
    pub(crate) const TRUE: u8 = 5;
    pub(crate) const NULL: u8 = 6;
    pub(crate) const M: u8 = 7;
    pub(crate) const L: u8 = 8;
    pub(crate) const SS: u8 = 9;
    pub(crate) const NS: u8 = 10;
    pub(crate) const BS: u8 = 11;
}

/// Append `n` as a LEB128 varint.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Read a varint at `*at`, moving past it; `None` on truncated input.
pub(crate) fn get_varint(bytes: &[u8], at: &mut usize) -> Option<usize> {
    let mut n = 0usize;
    let mut shift = 0u32;
    loop {
        let b = *bytes.get(*at)?;
        *at += 1;
        n |= usize::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Some(n);
        }
        shift += 7;
        if shift > 63 {
            return None;
        }
    }
}

/// Append `value` as tag + body, preceded by its length.
pub(crate) fn put_value(out: &mut Vec<u8>, value: &AttributeValue) {
    let mut body = Vec::new();
    put_body(&mut body, value);
    put_varint(out, body.len());
    out.extend_from_slice(&body);
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_varint(out, bytes.len());
    out.extend_from_slice(bytes);
}

fn put_body(out: &mut Vec<u8>, value: &AttributeValue) {
    match value {
        AttributeValue::S(s) => {
            out.push(tag::S);
            out.extend_from_slice(s.as_bytes());
        }
        AttributeValue::N(n) => {
            out.push(tag::N);
            out.extend_from_slice(n.as_bytes());
        }
        AttributeValue::B(b) => {
            out.push(tag::B);
            out.extend_from_slice(b.as_ref());
        }
        AttributeValue::Bool(b) => out.push(if *b { tag::TRUE } else { tag::FALSE }),
        AttributeValue::M(m) => {
            out.push(tag::M);
            put_varint(out, m.len());
            // Sorted, so that equal maps encode alike.
            let mut names: Vec<&String> = m.keys().collect();
            names.sort_unstable();
            for name in names {
                put_bytes(out, name.as_bytes());
                if let Some(v) = m.get(name) {
                    put_value(out, v);
                }
            }
        }
        AttributeValue::L(l) => {
            out.push(tag::L);
            put_varint(out, l.len());
            for v in l {
                put_value(out, v);
            }
        }
        AttributeValue::Ss(v) => put_set(out, tag::SS, v.iter().map(String::as_bytes)),
        AttributeValue::Ns(v) => put_set(out, tag::NS, v.iter().map(String::as_bytes)),
        AttributeValue::Bs(v) => put_set(out, tag::BS, v.iter().map(AsRef::as_ref)),
        // NULL, and any type a newer SDK adds: kept as NULL rather than dropped.
        _ => out.push(tag::NULL),
    }
}

fn put_set<'a>(out: &mut Vec<u8>, set_tag: u8, elements: impl ExactSizeIterator<Item = &'a [u8]>) {
    out.push(set_tag);
    put_varint(out, elements.len());
    for e in elements {
        put_bytes(out, e);
    }
}

/// Decode a value body (tag + contents, as [`put_value`] wrote it after the length).
pub(crate) fn decode_body(body: &[u8]) -> Option<AttributeValue> {
    let (&t, rest) = body.split_first()?;
    let text = |b: &[u8]| String::from_utf8(b.to_vec()).ok();
    Some(match t {
        tag::S => AttributeValue::S(text(rest)?),
        tag::N => AttributeValue::N(text(rest)?),
        tag::B => AttributeValue::B(Blob::new(rest.to_vec())),
        tag::FALSE => AttributeValue::Bool(false),
        tag::TRUE => AttributeValue::Bool(true),
        tag::NULL => AttributeValue::Null(true),
        tag::M => {
            let mut at = 0;
            let count = get_varint(rest, &mut at)?;
            let mut map = std::collections::HashMap::with_capacity(count.min(1024));
            for _ in 0..count {
                let name = text(get_slice(rest, &mut at)?)?;
                let value = decode_body(get_slice(rest, &mut at)?)?;
                map.insert(name, value);
            }
            AttributeValue::M(map)
        }
        tag::L => {
            let mut at = 0;
            let count = get_varint(rest, &mut at)?;
            let mut list = Vec::with_capacity(count.min(1024));
            for _ in 0..count {
                list.push(decode_body(get_slice(rest, &mut at)?)?);
            }
            AttributeValue::L(list)
        }
        tag::SS | tag::NS | tag::BS => {
            let mut at = 0;
            let count = get_varint(rest, &mut at)?;
            let mut elements = Vec::with_capacity(count.min(1024));
            for _ in 0..count {
                elements.push(get_slice(rest, &mut at)?);
            }
            match t {
                tag::SS => {
                    AttributeValue::Ss(elements.into_iter().map(text).collect::<Option<_>>()?)
                }
                tag::NS => {
                    AttributeValue::Ns(elements.into_iter().map(text).collect::<Option<_>>()?)
                }
                _ => AttributeValue::Bs(
                    elements
                        .into_iter()
                        .map(|b| Blob::new(b.to_vec()))
                        .collect(),
                ),
            }
        }
        _ => return None,
    })
}

/// Read a length-prefixed slice at `*at`, moving past it.
pub(crate) fn get_slice<'a>(bytes: &'a [u8], at: &mut usize) -> Option<&'a [u8]> {
    let len = get_varint(bytes, at)?;
    let end = at.checked_add(len)?;
    let slice = bytes.get(*at..end)?;
    *at = end;
    Some(slice)
}

/// The top-level fields of an encoded row: `(name id, value body)`.
pub(crate) struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Fields<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, at: 0 }
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = (usize, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.bytes.len() {
            return None;
        }
        let id = get_varint(self.bytes, &mut self.at)?;
        let body = get_slice(self.bytes, &mut self.at)?;
        Some((id, body))
    }
}
