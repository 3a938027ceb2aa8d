//! Hash maps for the check's hot tables: keyed by path bytes and
//! fragments, millions of lookups a run.

use std::collections::{HashMap, HashSet};

/// Maps keyed by path bytes, hashed fast: `Path`'s own `Hash` walks its
/// components and SipHash guards against an adversary we do not have
/// (the two took a fifth of the time of a check of the Rust
/// documentation, perf said). The paths come decoded from `file:` URIs
/// after dot-segment removal, so equal bytes are equal paths.
pub(crate) type FastMap<K, V> =
    HashMap<K, V, std::hash::BuildHasherDefault<FxHasher>>;
/// The anchors of a page as a set, hashed the same way: a link's
/// fragment is looked up in it for each of millions of links.
pub(crate) type FastSet<K> =
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
