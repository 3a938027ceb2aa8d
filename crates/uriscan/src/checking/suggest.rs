//! Suggestions for a broken link, with bounded work per link: a page of
//! twenty thousand headings may get twenty thousand near-miss links, and
//! holding each against every heading is quadratic.
//!
//! A small set of names is scanned whole ([`anchors::suggest`]). A large
//! one gets an index of each name with every one character deleted: two
//! names one edit apart share such a key, so the names within one edit
//! are found by a few lookups, exactly as the scan would find them. A
//! farther name is looked for among the first [`SCAN_LIMIT`] names only,
//! and past them the suggestion is left out.
//!
//! The names scanned, when there are many, are held as a tree of groups
//! by their sketches ([`tree`]), which finds what the scan of them one by
//! one ([`anchors::nearest`], the reference) finds, in a fraction of the
//! work: a missing page is held against most of its directory a group at
//! a time.

mod tree;

use super::anchors::{self, Probe, Sketch};
use super::fxhash::FxHashMap;
use tree::SketchTree;

/// How many names are scanned for a suggestion; a larger set is indexed.
pub(crate) const SCAN_LIMIT: usize = 1000;

/// From how many names the scanned ones are held as a tree: fewer are
/// scanned one by one in less time than the tree takes to make.
const TREE_FROM: usize = 64;

/// The index of a set of names for [`Suggester::suggest`].
pub(crate) struct Suggester {
    /// Deletion keys (hashed) to the names that have them; `None` for a
    /// set small enough to scan.
    one_edit: Option<OneEdit>,
    /// The sketch of each name that is scanned (the first
    /// [`SCAN_LIMIT`]), made once: each missing name is held against
    /// all of them, and nearly all are ruled out by their sketch alone.
    sketches: Vec<Sketch>,
    /// The scanned names as a tree, when there are [`TREE_FROM`] or more.
    tree: Option<SketchTree>,
}

impl Suggester {
    /// The index of `names`.
    pub(crate) fn new(names: &[String]) -> Suggester {
        let sketches: Vec<Sketch> =
            names.iter().take(SCAN_LIMIT).map(|n| Sketch::of(n)).collect();
        let tree = if sketches.len() >= TREE_FROM {
            SketchTree::new(&sketches)
        } else {
            None
        };
        if names.len() <= SCAN_LIMIT {
            return Suggester { one_edit: None, sketches, tree };
        }
        let mut index = OneEdit::default();
        let (mut chars, mut keys) = (vec![], vec![]);
        for (i, name) in names.iter().enumerate() {
            chars.clear();
            chars.extend(name.chars());
            keys.clear();
            keys.extend(deletion_keys(&chars));
            for &key in &keys {
                index.insert(key, i as u32);
            }
        }
        Suggester { one_edit: Some(index), sketches, tree }
    }

    /// What [`anchors::suggest`] finds for `wanted` in `names` (the set
    /// this index was made of), with bounded work on a large set: the
    /// closest name within one edit (the first of equals), else the
    /// closest among the first [`SCAN_LIMIT`].
    pub(crate) fn suggest<'a>(
        &self,
        wanted: &str,
        names: &'a [String],
    ) -> Option<&'a str> {
        // The scanned names: all of a small set, the first of a large.
        let scan = || {
            let scanned = names.get(..self.sketches.len())?;
            match &self.tree {
                Some(tree) => tree
                    .nearest(&mut Probe::new(wanted), scanned, &self.sketches)
                    .map(|i| scanned[i].as_str()),
                None => anchors::nearest(
                    wanted,
                    scanned
                        .iter()
                        .map(String::as_str)
                        .zip(self.sketches.iter().copied()),
                ),
            }
        };
        let Some(index) = &self.one_edit else {
            return scan();
        };
        let wanted_chars: Vec<char> = wanted.chars().collect();
        let mut best: Option<(usize, u32)> = None;
        for key in deletion_keys(&wanted_chars) {
            for i in index.names_of(key) {
                let Some(name) = names.get(i as usize) else { continue };
                if let Some(d) = within_one_edit(&wanted_chars, name)
                    && best.is_none_or(|b| (d, i) < b)
                {
                    best = Some((d, i));
                }
            }
        }
        match best {
            Some((_, i)) => Some(names[i as usize].as_str()),
            None => scan(),
        }
    }
}

/// Each deletion key with the names that have it: a chain of entries per
/// key, the latest first, rather than a list per key (most keys are one
/// name's, and a list each is an allocation each).
#[derive(Default)]
struct OneEdit {
    /// A key's latest entry.
    latest: FxHashMap<u64, u32>,
    /// Each entry's name, and the key's entry before it (`u32::MAX`
    /// for none).
    entries: Vec<(u32, u32)>,
}

impl OneEdit {
    fn insert(&mut self, key: u64, name: u32) {
        let entry = self.entries.len() as u32;
        let before = self.latest.entry(key).or_insert(u32::MAX);
        // A name with a doubled letter gives one key twice.
        if self.entries.get(*before as usize).is_some_and(|e| e.0 == name) {
            return;
        }
        self.entries.push((name, *before));
        *before = entry;
    }

    /// The names that have `key`, the latest first.
    fn names_of(&self, key: u64) -> impl Iterator<Item = u32> + '_ {
        let mut at = self.latest.get(&key).copied().unwrap_or(u32::MAX);
        std::iter::from_fn(move || {
            let &(name, before) = self.entries.get(at as usize)?;
            at = before;
            Some(name)
        })
    }
}

/// The hashes of `s` and of `s` with each one character deleted, in
/// linear time: a polynomial hash of each prefix and suffix, joined.
fn deletion_keys(s: &[char]) -> impl Iterator<Item = u64> + '_ {
    const P: u64 = 0x100_0000_01b3;
    let n = s.len();
    // prefix[i]: the hash of s[..i]; suffix[i]: of s[i..]; pow[i]: P^i.
    let mut prefix = vec![0u64; n + 1];
    let mut pow = vec![1u64; n + 1];
    for i in 0..n {
        prefix[i + 1] =
            prefix[i].wrapping_mul(P).wrapping_add(s[i] as u64 + 1);
        pow[i + 1] = pow[i].wrapping_mul(P);
    }
    let mut suffix = vec![0u64; n + 1];
    for i in (0..n).rev() {
        suffix[i] = (s[i] as u64 + 1)
            .wrapping_mul(pow[n - 1 - i])
            .wrapping_add(suffix[i + 1]);
    }
    // The length goes in, so that the whole and a deletion never meet by
    // their arithmetic alone.
    let whole = prefix[n] ^ ((n as u64) << 56);
    std::iter::once(whole).chain((0..n).map(move |j| {
        let h =
            prefix[j].wrapping_mul(pow[n - 1 - j]).wrapping_add(suffix[j + 1]);
        h ^ (((n - 1) as u64) << 56)
    }))
}

/// The edit distance between `a` and `b` when it is 0 or 1.
fn within_one_edit(a: &[char], b: &str) -> Option<usize> {
    let b: Vec<char> = b.chars().collect();
    let common_start = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let common_end = a[common_start..]
        .iter()
        .rev()
        .zip(b[common_start..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let rest = (a.len() - common_start - common_end)
        .max(b.len() - common_start - common_end);
    (rest <= 1).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A large set answers as the scan of the whole set does, for every
    /// name within one edit.
    #[test]
    fn the_index_finds_what_the_scan_finds() {
        let late = ["instalation", "installation", "zebra-crossing-guide"];
        let names: Vec<String> = (0..3000)
            .map(|i| format!("section-{i}-heading"))
            .chain(late.map(String::from))
            .collect();
        let index = Suggester::new(&names);
        assert!(index.one_edit.is_some());
        let whole =
            |w: &str| anchors::suggest(w, names.iter().map(String::as_str));
        for wanted in [
            "section-12-headin",
            "section-2999-headingg",
            "sectoin-7-heading",
            "section-7-heading",
            "secton-1500-heading",
            "installation",
            "instllation",
            "nothing-like-it",
        ] {
            assert_eq!(
                index.suggest(wanted, &names),
                whole(wanted),
                "{wanted}"
            );
        }
        // Two edits from a name past the first ones: left out.
        assert_eq!(whole("zebra-crosing-guid"), Some("zebra-crossing-guide"));
        assert_eq!(index.suggest("zebra-crosing-guid", &names), None);
        // Within the first names: found by the scan.
        assert_eq!(
            index.suggest("section-25-headxxg", &names),
            Some("section-25-heading")
        );
    }

    /// What [`Suggester::suggest`] promises, by the whole table: the
    /// closest name within `max(2, chars / 3)` edits, the first of
    /// equals; in a set larger than [`SCAN_LIMIT`], the closest within
    /// one edit of the whole set, else the closest among the first
    /// [`SCAN_LIMIT`].
    fn reference<'a>(wanted: &str, names: &'a [String]) -> Option<&'a str> {
        let limit = (wanted.chars().count() / 3).max(2);
        let closest = |within: usize, among: &'a [String]| {
            let mut best: Option<(usize, &'a str)> = None;
            for name in among {
                let d = anchors::whole_table_distance(wanted, name);
                if d <= within && best.is_none_or(|(b, _)| d < b) {
                    best = Some((d, name));
                }
            }
            best.map(|(_, name)| name)
        };
        if names.len() <= SCAN_LIMIT {
            return closest(limit, names);
        }
        closest(1, names).or_else(|| closest(limit, &names[..SCAN_LIMIT]))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// The sketches, the bag, the cut-off and the one-edit index
        /// change no suggestion: each path answers as the whole table
        /// does, on sets below and above [`SCAN_LIMIT`], with names of
        /// a few letters (so that ties and near misses abound) and
        /// characters past ASCII.
        #[test]
        fn every_path_answers_as_the_whole_table(
            names in proptest::collection::vec("[ab.é-]{0,7}", 0..1300),
            wanted in "[abc.é-]{0,9}",
        ) {
            let expected = reference(&wanted, &names);
            let index = Suggester::new(&names);
            proptest::prop_assert_eq!(index.suggest(&wanted, &names), expected);
            if names.len() <= SCAN_LIMIT {
                let scan = anchors::suggest(&wanted, names.iter().map(String::as_str));
                proptest::prop_assert_eq!(scan, expected);
            }
        }
    }

    #[test]
    fn one_edit() {
        let d = |a: &str, b: &str| {
            within_one_edit(&a.chars().collect::<Vec<_>>(), b)
        };
        assert_eq!(d("abc", "abc"), Some(0));
        assert_eq!(d("abc", "abd"), Some(1));
        assert_eq!(d("abc", "ab"), Some(1));
        assert_eq!(d("abc", "xabc"), Some(1));
        assert_eq!(d("aa", "a"), Some(1));
        assert_eq!(d("ab", "ba"), None);
        assert_eq!(d("abc", "a"), None);
        assert_eq!(d("", ""), Some(0));
        assert_eq!(d("", "é"), Some(1));
    }
}
