//! The skip to the next byte that can matter: a byte class table read
//! eight bytes at a time, for sets too large for `memchr3`.

use crate::syntax::chars::Table;

/// The first offset in `from..end` of `bytes` whose byte is in `set`, or
/// `end` when none is.
#[inline]
pub(super) fn to_next(
    set: &Table,
    bytes: &[u8],
    from: usize,
    end: usize,
) -> usize {
    let mut at = from;
    // Eight lookups folded into one test per block: most of a paragraph
    // is plain text, and a block of it is passed with one branch.
    for block in bytes[from..end].chunks_exact(8) {
        let any = set.contains(block[0])
            | set.contains(block[1])
            | set.contains(block[2])
            | set.contains(block[3])
            | set.contains(block[4])
            | set.contains(block[5])
            | set.contains(block[6])
            | set.contains(block[7]);
        if any {
            break;
        }
        at += 8;
    }
    while at < end && !set.contains(bytes[at]) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The plain loop the skip must agree with.
    fn reference(set: &Table, bytes: &[u8], from: usize, end: usize) -> usize {
        (from..end).find(|&k| set.contains(bytes[k])).unwrap_or(end)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn the_skip_stops_where_a_plain_loop_stops(
            bytes in proptest::collection::vec(
                prop_oneof![Just(b'a'), Just(b' '), Just(b'['), Just(b'`'), any::<u8>()],
                0..80,
            ),
            members in proptest::collection::vec(any::<u8>(), 0..6),
            from in 0usize..80,
            len in 0usize..80,
        ) {
            let set = Table::new(&members);
            let from = from.min(bytes.len());
            let end = (from + len).min(bytes.len());
            prop_assert_eq!(
                to_next(&set, &bytes, from, end),
                reference(&set, &bytes, from, end)
            );
        }
    }
}
