//! Items of the two sides paired by key as they arrive: each waits until the other side's item
//! of its key arrives; what still waits at the end is on one side only. A waiting item is a
//! 40-byte slot in one table (its key's 128-bit hash, its digest, where its key lies; the
//! table keeps spare room, so about twice that) and its packed key in one arena of bytes —
//! never the item, and never a small allocation per item.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher, RandomState};

use crate::diff::canon::digest;
use crate::diff::packed::{key_hash, pack, unpack};
use crate::diff::report::MAX_LISTED;
use crate::error::Error;
use crate::table::TableInfo;
use crate::value::Item;

/// The side an item was read on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum On {
    A,
    B,
}

/// One waiting item: its digest (as two halves, so that a slot is 8-byte aligned), and where its
/// packed key starts in the arena (its top bit says the side: set for B).
#[derive(Clone, Copy)]
struct Slot {
    digest: [u64; 2],
    at: u64,
}

const ON_B: u64 = 1 << 63;

fn halves(value: u128) -> [u64; 2] {
    [(value >> 64) as u64, value as u64]
}

impl Slot {
    fn on(self) -> On {
        if self.at & ON_B == 0 { On::A } else { On::B }
    }

    fn offset(self) -> usize {
        (self.at & !ON_B) as usize
    }
}

/// A key's 128-bit hash, as the table's key: hashed by its low half alone.
#[derive(Clone, Copy, PartialEq, Eq)]
struct KeyHash([u64; 2]);

impl Hash for KeyHash {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0[1]);
    }
}

/// The key hashes are already uniform, but fixed (SipHash with zero keys): mixed with a seed
/// drawn for each comparison, so that keys written to collide cannot slow the table down.
#[derive(Clone, Copy)]
struct Seeded(u64);

impl Default for Seeded {
    fn default() -> Self {
        Self(RandomState::new().hash_one(0u64) | 1)
    }
}

impl BuildHasher for Seeded {
    type Hasher = Mixed;

    fn build_hasher(&self) -> Mixed {
        Mixed(self.0, 0)
    }
}

/// A hasher of one `u64`: multiplied by the (odd) seed, its high bits folded in.
struct Mixed(u64, u64);

impl Hasher for Mixed {
    fn finish(&self) -> u64 {
        self.1
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(self.1.rotate_left(8) ^ u64::from(byte));
        }
    }

    fn write_u64(&mut self, value: u64) {
        let mixed = (value ^ self.1).wrapping_mul(self.0);
        self.1 = mixed ^ (mixed >> 29);
    }
}

/// Below this many bytes the arena is never compacted.
const COMPACT_FROM: usize = 1 << 20;

pub(super) struct Pairing<'a> {
    info: &'a TableInfo,
    pub(super) key_names: Vec<String>,
    waiting: HashMap<KeyHash, Slot, Seeded>,
    /// The waiting items' packed keys, each after its length (4 bytes).
    arena: Vec<u8>,
    /// Bytes of the arena whose item has been paired since (reclaimed when half is dead).
    dead: usize,
    pub(super) same: u64,
    pub(super) changed: u64,
    /// The first keys whose items differ, to read again and say how.
    pub(super) differing: Vec<Item>,
    /// An item read without the whole key (never from a table's own Query or Scan) stops it.
    pub(super) keyless: Option<Error>,
}

impl<'a> Pairing<'a> {
    pub(super) fn new(info: &'a TableInfo) -> Self {
        Self {
            info,
            key_names: info.key_names(),
            waiting: HashMap::default(),
            arena: Vec::new(),
            dead: 0,
            same: 0,
            changed: 0,
            differing: Vec::new(),
            keyless: None,
        }
    }

    pub(super) fn arrive(&mut self, on: On, items: Vec<Item>) {
        for item in items {
            let hash = KeyHash(halves(key_hash(&item, &self.key_names)));
            let found = halves(digest(&item));
            match self.waiting.get(&hash).copied() {
                Some(slot) if slot.on() != on => {
                    self.waiting.remove(&hash);
                    self.dead += 4 + self.packed(slot).len();
                    if slot.digest == found {
                        self.same += 1;
                    } else {
                        self.changed += 1;
                        if self.differing.len() < MAX_LISTED {
                            self.differing
                                .push(unpack(self.packed(slot), &self.key_names));
                        }
                    }
                }
                _ => self.wait(on, hash, found, &item),
            }
        }
        self.compact_if_half_dead();
    }

    /// Keep `item` waiting for the other side (or stop the comparison when its key is not
    /// whole).
    fn wait(&mut self, on: On, hash: KeyHash, found: [u64; 2], item: &Item) {
        let Some(packed) = pack(item, &self.key_names) else {
            let error = self.info.key_of(item).err();
            self.keyless.get_or_insert(error.unwrap_or_else(|| {
                Error::Invalid("an item's key is not a string, number or binary".into())
            }));
            return;
        };
        let side = if on == On::B { ON_B } else { 0 };
        let slot = Slot {
            digest: found,
            at: self.arena.len() as u64 | side,
        };
        let Ok(len) = u32::try_from(packed.len()) else {
            // No DynamoDB key is over 3 KB: a key this long is not a table's.
            let error = Error::Invalid("an item's key is over 4 GiB".into());
            self.keyless.get_or_insert(error);
            return;
        };
        self.arena.extend_from_slice(&len.to_le_bytes());
        self.arena.extend_from_slice(&packed);
        // The same key twice on one side (never from one scan) keeps the later item.
        if let Some(old) = self.waiting.insert(hash, slot) {
            self.dead += 4 + self.packed(old).len();
        }
    }

    fn packed(&self, slot: Slot) -> &[u8] {
        let at = slot.offset();
        let Some(len) = self.arena.get(at..at + 4) else {
            return &[];
        };
        let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
        self.arena.get(at + 4..at + 4 + len).unwrap_or(&[])
    }

    /// When half the arena is keys already paired, copy the waiting ones into a new one.
    fn compact_if_half_dead(&mut self) {
        if self.arena.len() < COMPACT_FROM || self.dead * 2 < self.arena.len() {
            return;
        }
        let mut arena = Vec::with_capacity(self.arena.len() - self.dead);
        for slot in self.waiting.values_mut() {
            let at = slot.offset();
            let len = self.arena.get(at..at + 4).map_or(0, |len| {
                u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize
            });
            let end = (at + 4 + len).min(self.arena.len());
            slot.at = (arena.len() as u64) | (slot.at & ON_B);
            arena.extend_from_slice(self.arena.get(at..end).unwrap_or(&[]));
        }
        (self.arena, self.dead) = (arena, 0);
    }

    /// The keys still waiting: on one side only, each side's packed keys sorted.
    pub(super) fn left(&self) -> Vec<(On, &[u8])> {
        let mut left: Vec<(On, &[u8])> = (self.waiting.values())
            .map(|&slot| (slot.on(), self.packed(slot)))
            .collect();
        left.sort_unstable_by(|x, y| (x.0 as u8, x.1).cmp(&(y.0 as u8, y.1)));
        left
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::condition::ScalarType;
    use crate::table::KeyAttr;
    use aws_sdk_dynamodb::types::AttributeValue;

    fn item(pk: &str, n: usize, likes: &str) -> Item {
        Item::from([
            ("PK".to_owned(), AttributeValue::S(pk.to_owned())),
            ("SK".to_owned(), AttributeValue::S(format!("LIKE#{n:07}"))),
            ("likes".to_owned(), AttributeValue::N(likes.to_owned())),
        ])
    }

    #[test]
    fn items_pair_by_key_and_the_arena_is_reclaimed() {
        let info = TableInfo::with_keys(
            "T",
            KeyAttr::new("PK", ScalarType::S),
            Some(KeyAttr::new("SK", ScalarType::S)),
        );
        let mut pairing = Pairing::new(&info);
        let n = 40_000;
        pairing.arrive(On::A, (0..n).map(|i| item("P", i, "1")).collect());
        let full = pairing.arena.len();
        assert!(full > COMPACT_FROM, "{full} bytes");
        // B in the reverse order: item 0 missing, item n extra, 5 changed, 7 equal as a number.
        let likes = |i| match i {
            5 => "3",
            7 => "1.0",
            _ => "1",
        };
        pairing.arrive(
            On::B,
            (1..=n).rev().map(|i| item("P", i, likes(i))).collect(),
        );
        assert_eq!((pairing.same, pairing.changed), (n as u64 - 2, 1));
        let key = |i| {
            let mut key = item("P", i, "1");
            key.remove("likes");
            key
        };
        assert_eq!(pairing.differing, vec![key(5)]);
        let left = pairing.left();
        let names = &pairing.key_names;
        let left: Vec<(On, Item)> = left
            .into_iter()
            .map(|(on, k)| (on, unpack(k, names)))
            .collect();
        assert_eq!(left, vec![(On::A, key(0)), (On::B, key(n))]);
        assert!(
            pairing.arena.len() < full / 2,
            "the paired keys' bytes are given back"
        );
    }
}
