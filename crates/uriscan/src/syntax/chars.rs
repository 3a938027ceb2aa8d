//! RFC 3986 section 2, "Characters": the byte classes of the ABNF as
//! `const` lookup tables.
//!
//! Every table is built at compile time from the rules of Appendix A, and
//! each carries the rule it encodes in its doc comment. The validating
//! parser and the scanner's delimiter both read these tables, so a rule is
//! written down once.
//!
//! A table answers "may this byte appear here?" for a single byte. The
//! three-byte `pct-encoded` rule cannot be a byte class; tables that admit
//! it contain `%` and say so, and the caller checks the two hex digits.
//!
//! The module is crate-private: the tables are how the parser and the
//! scanner work, and keeping them out of the API leaves them free to
//! change shape (a bitset, a class byte) without a breaking release.

/// A set of bytes: one `bool` for each of the 256 byte values.
#[derive(Clone, Copy)]
pub struct Table([bool; 256]);

impl Table {
    /// The set holding exactly the bytes of `bytes`.
    pub const fn new(bytes: &[u8]) -> Table {
        let mut set = [false; 256];
        let mut i = 0;
        while i < bytes.len() {
            set[bytes[i] as usize] = true;
            i += 1;
        }
        Table(set)
    }

    /// The set holding the bytes from `lo` to `hi`, both included.
    pub const fn range(lo: u8, hi: u8) -> Table {
        let mut set = [false; 256];
        let mut b = lo as usize;
        while b <= hi as usize {
            set[b] = true;
            b += 1;
        }
        Table(set)
    }

    /// The union of `self` and `other` (ABNF alternation, `/`).
    pub const fn or(self, other: Table) -> Table {
        let mut set = self.0;
        let mut i = 0;
        while i < 256 {
            set[i] |= other.0[i];
            i += 1;
        }
        Table(set)
    }

    /// `self` without the bytes of `other`.
    pub const fn without(self, other: Table) -> Table {
        let mut set = self.0;
        let mut i = 0;
        while i < 256 {
            set[i] &= !other.0[i];
            i += 1;
        }
        Table(set)
    }

    /// Whether `byte` is in the set.
    #[inline(always)]
    pub const fn contains(&self, byte: u8) -> bool {
        self.0[byte as usize]
    }

    /// The length of the longest prefix of `bytes` whose bytes are all in
    /// the set.
    #[inline]
    pub fn prefix_len(&self, bytes: &[u8]) -> usize {
        let mut at = 0;
        // Eight lookups folded into one test per block: the runs read
        // this way (a link's path, its query) are mostly longer than a
        // block, and a block of them is passed with one branch.
        for block in bytes.chunks_exact(8) {
            let all = self.contains(block[0])
                & self.contains(block[1])
                & self.contains(block[2])
                & self.contains(block[3])
                & self.contains(block[4])
                & self.contains(block[5])
                & self.contains(block[6])
                & self.contains(block[7]);
            if !all {
                break;
            }
            at += 8;
        }
        at + bytes[at..]
            .iter()
            .position(|&b| !self.contains(b))
            .unwrap_or(bytes.len() - at)
    }
}

/// `ALPHA = %x41-5A / %x61-7A ; A-Z / a-z` (RFC 5234 core rule)
pub const ALPHA: Table = Table::range(b'A', b'Z').or(Table::range(b'a', b'z'));

/// `DIGIT = %x30-39 ; 0-9` (RFC 5234 core rule)
pub const DIGIT: Table = Table::range(b'0', b'9');

/// `HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F"`
///
/// ABNF strings are case-insensitive (RFC 5234 2.3), so lowercase hex
/// digits are included, as section 2.1 says.
pub const HEXDIG: Table =
    DIGIT.or(Table::range(b'A', b'F')).or(Table::range(b'a', b'f'));

/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"` (2.3)
pub const UNRESERVED: Table = ALPHA.or(DIGIT).or(Table::new(b"-._~"));

/// `gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@"` (2.2)
pub const GEN_DELIMS: Table = Table::new(b":/?#[]@");

/// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")"
///             / "*" / "+" / "," / ";" / "="` (2.2)
pub const SUB_DELIMS: Table = Table::new(b"!$&'()*+,;=");

/// `reserved = gen-delims / sub-delims` (2.2)
pub const RESERVED: Table = GEN_DELIMS.or(SUB_DELIMS);

/// Every byte that may appear anywhere in a URI-reference:
/// `reserved / unreserved / "%"`. A byte outside this set ends a URI.
pub const URI_CHAR: Table = RESERVED.or(UNRESERVED).or(Table::new(b"%"));

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (3.1): the bytes
/// after the first.
pub const SCHEME: Table = ALPHA.or(DIGIT).or(Table::new(b"+-."));

/// Whether `s` is a whole `scheme` (3.1): a letter, then letters, digits,
/// `+`, `-` and `.`.
///
/// ```
/// use uriscan::syntax::is_scheme;
/// assert!(is_scheme("git+ssh"));
/// assert!(!is_scheme("1http") && !is_scheme("") && !is_scheme("a_b"));
/// ```
pub fn is_scheme(s: &str) -> bool {
    scheme_end(s.as_bytes()) == s.len() && !s.is_empty()
}

/// The end of the `scheme` that `b` starts with: 0 when `b` does not
/// start with a letter, else the end of the run of [`SCHEME`] bytes.
pub(crate) fn scheme_end(b: &[u8]) -> usize {
    if !b.first().is_some_and(|&c| ALPHA.contains(c)) {
        return 0;
    }
    b.iter().position(|&c| !SCHEME.contains(c)).unwrap_or(b.len())
}

/// `userinfo = *( unreserved / pct-encoded / sub-delims / ":" )` (3.2.1);
/// includes `%`, whose two hex digits the caller checks.
pub const USERINFO: Table = UNRESERVED.or(SUB_DELIMS).or(Table::new(b":%"));

/// `reg-name = *( unreserved / pct-encoded / sub-delims )` (3.2.2);
/// includes `%`, whose two hex digits the caller checks.
pub const REG_NAME: Table = UNRESERVED.or(SUB_DELIMS).or(Table::new(b"%"));

/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`
/// (3.2.2): the bytes after the dot.
pub const IPVFUTURE_TAIL: Table =
    UNRESERVED.or(SUB_DELIMS).or(Table::new(b":"));

/// `pchar = unreserved / pct-encoded / sub-delims / ":" / "@"` (3.3);
/// includes `%`, whose two hex digits the caller checks.
pub const PCHAR: Table = UNRESERVED.or(SUB_DELIMS).or(Table::new(b":@%"));

/// `segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )`
/// (3.3): a path segment of a relative reference before its first `/`,
/// where a `:` would be taken for a scheme. Includes `%`.
pub const SEGMENT_NZ_NC: Table = PCHAR.without(Table::new(b":"));

/// `path-abempty = *( "/" segment )`, `segment = *pchar` (3.3): the bytes
/// of every path form once its first bytes are checked (`path-absolute`
/// not starting with `//`, `path-noscheme` without `:` before the first
/// `/`); includes `%`.
pub const PATH: Table = PCHAR.or(Table::new(b"/"));

/// `query = *( pchar / "/" / "?" )` (3.4) and
/// `fragment = *( pchar / "/" / "?" )` (3.5); includes `%`.
pub const QUERY: Table = PCHAR.or(Table::new(b"/?"));

/// The value of a `HEXDIG` byte, or `None` for any other byte.
#[inline]
pub const fn hex_value(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        _ => None,
    }
}

/// `bytes` with each `pct-encoded` octet (2.1) decoded; a `%` without two
/// hex digits after it stays as it is. Borrowed when there is no `%`.
pub(crate) fn percent_decode(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if memchr::memchr(b'%', bytes).is_none() {
        return std::borrow::Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex_value),
                bytes.get(i + 2).copied().and_then(hex_value),
            )
        {
            out.push(h << 4 | l);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `pct-encoded = "%" HEXDIG HEXDIG` (2.1): whether `bytes` starts with a
/// complete percent-encoded octet.
#[inline]
pub fn is_pct_encoded(bytes: &[u8]) -> bool {
    matches!(bytes, [b'%', h, l, ..] if HEXDIG.contains(*h) && HEXDIG.contains(*l))
}

/// Whether `link` is ASCII made only of the characters RFC 3986 allows
/// (`%` with two hex digits, one `#` at most): what `links::repair`
/// would leave as it is, decided in one pass without a copy.
pub(crate) fn needs_no_repair(link: &[u8]) -> bool {
    let mut hash = false;
    let mut i = 0;
    loop {
        // Every link passes here: the run of common bytes in a tight loop
        // (one lookup a byte, not a chain of range tests), a branch only
        // where it stops.
        i += KEPT_AS_IS.prefix_len(&link[i..]);
        match link.get(i) {
            None => return true,
            Some(b'#') if !hash => {
                hash = true;
                i += 1;
            }
            Some(b'%') if is_pct_encoded(&link[i..]) => i += 3,
            Some(_) => return false,
        }
    }
}

/// The bytes [`needs_no_repair`] lets through as they are: RFC 3986's
/// `query = *( pchar / "/" / "?" )` but `%` (checked with its two hex
/// digits): the unreserved and reserved characters but `#`, `[` and `]`.
pub(crate) const KEPT_AS_IS: Table = QUERY.without(Table::new(b"%"));

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables against the ABNF spelled out a byte at a time, for all
    /// 256 byte values.
    #[test]
    fn tables_match_the_abnf_for_every_byte() {
        for b in 0..=255u8 {
            let c = b as char;
            let alpha = c.is_ascii_alphabetic();
            let digit = c.is_ascii_digit();
            let unreserved = alpha || digit || "-._~".contains(c);
            let sub = "!$&'()*+,;=".contains(c) && b < 128;
            let gen_ = ":/?#[]@".contains(c) && b < 128;
            assert_eq!(UNRESERVED.contains(b), unreserved, "unreserved {b}");
            assert_eq!(SUB_DELIMS.contains(b), sub, "sub-delims {b}");
            assert_eq!(GEN_DELIMS.contains(b), gen_, "gen-delims {b}");
            assert_eq!(HEXDIG.contains(b), c.is_ascii_hexdigit(), "hex {b}");
            assert_eq!(
                SCHEME.contains(b),
                alpha || digit || (b < 128 && "+-.".contains(c)),
                "scheme {b}"
            );
            let pchar =
                unreserved || sub || b == b':' || b == b'@' || b == b'%';
            assert_eq!(PCHAR.contains(b), pchar, "pchar {b}");
            assert_eq!(
                QUERY.contains(b),
                pchar || b == b'/' || b == b'?',
                "query {b}"
            );
            assert_eq!(PATH.contains(b), pchar || b == b'/', "path {b}");
            assert_eq!(
                SEGMENT_NZ_NC.contains(b),
                pchar && b != b':',
                "segment-nz-nc {b}"
            );
            assert_eq!(
                URI_CHAR.contains(b),
                unreserved || sub || gen_ || b == b'%',
                "uri char {b}"
            );
            assert_eq!(hex_value(b).is_some(), HEXDIG.contains(b));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(2000))]
        /// The run read eight bytes a test ends where a plain loop ends.
        #[test]
        fn the_blockwise_prefix_is_the_bytewise_one(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just(b'a'),
                    proptest::strategy::Just(b'/'),
                    proptest::prelude::any::<u8>(),
                ],
                0..40,
            ),
            members in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..6),
        ) {
            let set = UNRESERVED.or(Table::new(&members));
            let plain = bytes
                .iter()
                .position(|&b| !set.contains(b))
                .unwrap_or(bytes.len());
            proptest::prop_assert_eq!(set.prefix_len(&bytes), plain);
        }
    }

    #[test]
    fn pct_encoded_needs_two_hex_digits() {
        assert!(is_pct_encoded(b"%2F"));
        assert!(is_pct_encoded(b"%afx"));
        assert!(!is_pct_encoded(b"%2"));
        assert!(!is_pct_encoded(b"%zz"));
        assert!(!is_pct_encoded(b"2F"));
    }
}
