//! FxHash maps and sets for the check's hot tables, keyed by path bytes
//! and fragments and looked up for every link.

use std::collections::{HashMap, HashSet};

/// A map hashed with FxHash: SipHash's guard against an adversary buys
/// nothing here, and `Path`'s own `Hash` walks components. Keys are path
/// bytes decoded from `file:` URIs after dot-segment removal, so equal
/// bytes are equal paths.
pub(crate) type FxHashMap<K, V> =
    HashMap<K, V, std::hash::BuildHasherDefault<FxHasher>>;
/// A set hashed the same way: a page's anchors, looked up per link.
pub(crate) type FxHashSet<K> =
    HashSet<K, std::hash::BuildHasherDefault<FxHasher>>;

/// The hash of rustc (FxHash): a rotate, xor and multiply per word.
#[derive(Default)]
pub(crate) struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
            self.add(w);
        }
        let mut tail = [0u8; 8];
        let rest = chunks.remainder();
        tail[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(tail) ^ rest.len() as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w)
            .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}
