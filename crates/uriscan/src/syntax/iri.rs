//! IRIs, RFC 3987: the `ucschar` and `iprivate` character classes
//! (section 2.2) and the mapping of an IRI to a URI (section 3.1).
//!
//! The IRI grammar is the URI grammar with `unreserved` widened to
//! `iunreserved = unreserved / ucschar` in `iuserinfo`, `ireg-name`,
//! `isegment` (and so `ipath-*`), `iquery` and `ifragment`, and with
//! `iprivate` also allowed in `iquery`. Scheme, port and IP literals stay
//! ASCII. The parser applies this when built with
//! [`Parser::iri`](super::Parser::iri).
//!
//! ```
//! use uriscan::syntax::{Parser, iri};
//! let s = "http://例え.jp/ü?q=€";
//! assert!(Parser::new().parse_uri(s).is_err());
//! assert!(Parser::new().iri(true).parse_uri(s).is_ok());
//! assert_eq!(
//!     iri::to_uri(s),
//!     "http://%E4%BE%8B%E3%81%88.jp/%C3%BC?q=%E2%82%AC"
//! );
//! ```

use std::borrow::Cow;

/// The outcome of decoding one UTF-8 character at a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decoded {
    /// A character and its length in bytes.
    Char(char, usize),
    /// The bytes end inside a character that may still be valid once
    /// more input arrives.
    Incomplete,
    /// Not valid UTF-8.
    Invalid,
}

/// Decodes the character starting at `bytes[0]` (which must be non-ASCII):
/// the one UTF-8 decoder of the crate, for the parser (whose input is a
/// `str`, so it always gets a character) and the scanner (whose input is
/// any bytes, maybe cut short by a buffer).
#[inline]
pub(crate) fn decode(bytes: &[u8]) -> Decoded {
    let len = match bytes.first() {
        Some(0xC2..=0xDF) => 2,
        Some(0xE0..=0xEF) => 3,
        Some(0xF0..=0xF4) => 4,
        _ => return Decoded::Invalid,
    };
    if bytes.len() < len {
        // Report incomplete only when what we have can still be the
        // start of a valid character.
        let have = &bytes[1..];
        if have.iter().all(|&b| b & 0xC0 == 0x80) {
            return Decoded::Incomplete;
        }
        return Decoded::Invalid;
    }
    match std::str::from_utf8(&bytes[..len]) {
        Ok(s) => match s.chars().next() {
            Some(c) => Decoded::Char(c, len),
            None => Decoded::Invalid,
        },
        Err(_) => Decoded::Invalid,
    }
}

/// ```text
/// ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
///         / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD
///         / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD
///         / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD
///         / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD
///         / %xD0000-DFFFD / %xE1000-EFFFD
/// ```
///
/// The planes 1 to 14 each lose their last two code points (the
/// noncharacters `xFFFE` and `xFFFF`), and plane 14 its first 4096.
///
/// ```
/// use uriscan::syntax::iri::is_ucschar;
/// assert!(is_ucschar('ü'));
/// assert!(!is_ucschar('\u{9F}'));
/// assert!(!is_ucschar('\u{FFFE}'));
/// assert!(!is_ucschar('\u{E000}')); // iprivate
/// ```
#[inline]
pub const fn is_ucschar(c: char) -> bool {
    let c = c as u32;
    match c {
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF => true,
        0x10000..=0xDFFFF => c & 0xFFFF <= 0xFFFD,
        0xE1000..=0xEFFFD => true,
        _ => false,
    }
}

/// `iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD`, the private
/// use characters, allowed in `iquery` only.
///
/// ```
/// use uriscan::syntax::iri::is_iprivate;
/// assert!(is_iprivate('\u{E000}'));
/// assert!(!is_iprivate('ü'));
/// ```
#[inline]
pub const fn is_iprivate(c: char) -> bool {
    matches!(c as u32, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

/// Maps an IRI to a URI by RFC 3987 section 3.1, step 2: every octet of
/// the UTF-8 encoding of a non-ASCII character is percent-encoded, with
/// uppercase hex digits (as RFC 3986 2.1 recommends); ASCII is copied as
/// is. The result is borrowed when the input is already ASCII.
///
/// The input is not validated: map a string that
/// [`Parser::iri`](super::Parser::iri) accepted, and the result is a URI
/// that [`Parser::new`](super::Parser::new) accepts, with the same
/// components. Section 3.1 also allows IDNA for a `ireg-name`; this
/// mapping uses percent-encoding everywhere, which 3.1 says is always
/// correct.
///
/// ```
/// use std::borrow::Cow;
/// use uriscan::syntax::iri::to_uri;
/// assert!(matches!(to_uri("http://a/b"), Cow::Borrowed("http://a/b")));
/// assert_eq!(to_uri("/r\u{e9}sum\u{e9}"), "/r%C3%A9sum%C3%A9");
/// ```
pub fn to_uri(iri: &str) -> Cow<'_, str> {
    let bytes = iri.as_bytes();
    let Some(first) = bytes.iter().position(|b| !b.is_ascii()) else {
        return Cow::Borrowed(iri);
    };
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let extra = bytes[first..].iter().filter(|b| !b.is_ascii()).count();
    let mut out = String::with_capacity(bytes.len() + 2 * extra);
    out.push_str(&iri[..first]);
    for &b in &bytes[first..] {
        if b.is_ascii() {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ucschar_bounds() {
        let inside = [
            0xA0, 0xD7FF, 0xF900, 0xFDCF, 0xFDF0, 0xFFEF, 0x10000, 0x1FFFD,
            0x20000, 0xDFFFD, 0xE1000, 0xEFFFD,
        ];
        let outside = [
            0x7F, 0x9F, 0xE000, 0xF8FF, 0xFDD0, 0xFDEF, 0xFFF0, 0xFFFE,
            0x1FFFE, 0x1FFFF, 0xDFFFE, 0xE0000, 0xE0FFF, 0xEFFFE, 0xF0000,
            0x10FFFD,
        ];
        for c in inside {
            let ch = char::from_u32(c).unwrap();
            assert!(is_ucschar(ch), "{c:X}");
        }
        for c in outside {
            if let Some(ch) = char::from_u32(c) {
                assert!(!is_ucschar(ch), "{c:X}");
            }
        }
    }

    #[test]
    fn iprivate_bounds() {
        for c in [0xE000, 0xF8FF, 0xF0000, 0xFFFFD, 0x100000, 0x10FFFD] {
            assert!(is_iprivate(char::from_u32(c).unwrap()), "{c:X}");
        }
        for c in [0xDFFFD, 0xF900, 0xEFFFF, 0xFFFFE, 0x10FFFE] {
            if let Some(ch) = char::from_u32(c) {
                assert!(!is_iprivate(ch), "{c:X}");
            }
        }
    }

    #[test]
    fn to_uri_encodes_every_utf8_octet() {
        assert_eq!(to_uri("a\u{10348}b"), "a%F0%90%8D%88b");
        assert_eq!(to_uri("%e2%82%ac€"), "%e2%82%ac%E2%82%AC");
        assert!(matches!(to_uri(""), Cow::Borrowed("")));
    }
}
