//! The longest prefix of a candidate that is a valid URI (IRI), in one
//! forward pass.
//!
//! The scanner cuts a candidate with a bad part (`http://[::1/x`, `%zz`)
//! to its longest valid prefix instead of dropping it. Asking the parser
//! "is this valid?" for every shorter prefix would be quadratic; this
//! module walks `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`
//! once, remembering the last offset at which the prefix read so far is a
//! complete `IRI` (RFC 3987 2.2, which is RFC 3986's `URI` with
//! `ucschar` added where `unreserved` is allowed and `iprivate` in the
//! query).

// The ASCII bytes of a path (3.3) and of a query or fragment (3.4,
// 3.5); the non-ASCII ones of the IRI forms (`ipchar`, and `iprivate` in
// `iquery`, RFC 3987 2.2) are taken by `Wide`.
use crate::syntax::chars::{
    DIGIT, PATH, QUERY, REG_NAME, Table, USERINFO, is_pct_encoded,
};
use crate::syntax::host::{is_ipv6, is_ipvfuture};

use super::unicode::{Decoded, decode, is_iprivate, is_ucschar};

/// Which non-ASCII characters a component takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wide {
    Ucs,
    UcsOrPrivate,
}

/// Takes one character of a component at `i`: an ASCII byte in `table`
/// (a `%` only with two hex digits), or a non-ASCII character allowed by
/// `wide`. Returns the length taken, or 0.
#[inline]
fn take(b: &[u8], i: usize, table: &Table, wide: Wide) -> usize {
    let c = b[i];
    if c < 0x80 {
        if !table.contains(c) {
            0
        } else if c == b'%' {
            if is_pct_encoded(&b[i..]) { 3 } else { 0 }
        } else {
            1
        }
    } else {
        match decode(&b[i..]) {
            Decoded::Char(ch, n)
                if is_ucschar(ch)
                    || (wide == Wide::UcsOrPrivate && is_iprivate(ch)) =>
            {
                n
            }
            _ => 0,
        }
    }
}

/// Advances over a run of component characters from `i`.
#[inline]
fn run(b: &[u8], mut i: usize, table: &Table, wide: Wide) -> usize {
    while i < b.len() {
        // The common case, plain ASCII that is not `%`, stays in the
        // table lookup.
        let c = b[i];
        if c < 0x80 && c != b'%' {
            if table.contains(c) {
                i += 1;
                continue;
            }
            break;
        }
        let n = take(b, i, table, wide);
        if n == 0 {
            break;
        }
        i += n;
    }
    i
}

/// The length of the longest prefix of `b` that is a valid IRI, given
/// that `b[..colon]` is a valid scheme and `b[colon] == b':'`.
pub(crate) fn valid_prefix(b: &[u8], colon: usize) -> usize {
    debug_assert_eq!(b.get(colon), Some(&b':'));
    let mut i = colon + 1;
    if b[i..].starts_with(b"//") {
        let a = i + 2;
        // `authority = [ userinfo "@" ] host [ ":" port ]`: a userinfo is
        // only known to be one when its `@` arrives.
        let ui = run(b, a, &USERINFO, Wide::Ucs);
        let h = if b.get(ui) == Some(&b'@') { ui + 1 } else { a };
        if b.get(h) == Some(&b'[') {
            // `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`
            let Some(close) = b[h..].iter().position(|&c| c == b']') else {
                return h;
            };
            let lit = &b[h + 1..h + close];
            if !(is_ipv6(lit) || is_ipvfuture(lit)) {
                return h;
            }
            i = h + close + 1;
        } else {
            i = run(b, h, &REG_NAME, Wide::Ucs);
        }
        if b.get(i) == Some(&b':') {
            i += 1;
            i += b[i..].iter().take_while(|&&c| DIGIT.contains(c)).count();
        }
        // `path-abempty` must start with `/` (or be empty).
        if !matches!(b.get(i), Some(b'/' | b'?' | b'#') | None) {
            return i;
        }
    }
    i = run(b, i, &PATH, Wide::Ucs);
    if b.get(i) == Some(&b'?') {
        i = run(b, i + 1, &QUERY, Wide::UcsOrPrivate);
    }
    if b.get(i) == Some(&b'#') {
        i = run(b, i + 1, &QUERY, Wide::Ucs);
    }
    i
}

/// The fast path of validation, for candidates the run scan has already
/// read: whether `b` is certainly a valid URI with a host or a path
/// ([`has_host_or_path`]). `false` means "ask the parser", not "invalid".
///
/// `b` must be what the run scan calls clean: a valid scheme and its `:`
/// at `colon`, then URI characters (`unreserved`, `reserved` and `%`)
/// without `[` or `]`, at most one `#`, and every `%` starting a
/// `pct-encoded`. Every such byte is allowed in a path, a query and a
/// fragment (`pchar / "/" / "?"`, 3.3 to 3.5), so only the authority
/// (3.2) is left to check: `[ userinfo "@" ] host [ ":" port ]`, where
/// with no brackets the host is a `reg-name` (which also spells every
/// `IPv4address`), `userinfo` takes any of these bytes but `@`, and
/// `port = *DIGIT`. A property test holds it to the parser.
///
/// Inlined into confirmation: since confirmation is compiled once per
/// kernel set, the call was the larger part of its cost (URI-dense
/// text: 4.5M of 154M instructions).
#[inline(always)]
pub(crate) fn quick_valid(b: &[u8], colon: usize) -> bool {
    quick_valid_with(b, colon, |b, from| {
        #[cfg(all(target_arch = "x86_64", not(uriscan_disable_simd)))]
        // SAFETY: SSE2 is part of x86-64.
        if let Some(ok) = unsafe { authority_ok_sse2(b, from) } {
            return ok;
        }
        authority_ok_portable(b, from)
    })
}

/// [`quick_valid`] with the check of an authority that starts at
/// `b[from..]` given as `authority_ok(b, from)`: the express lane of
/// confirmation decides it on the masks it already has
/// ([`super::express`]).
#[inline(always)]
pub(crate) fn quick_valid_with(
    b: &[u8],
    colon: usize,
    authority_ok: impl FnOnce(&[u8], usize) -> bool,
) -> bool {
    let rest = &b[colon + 1..];
    if !rest.starts_with(b"//") {
        // `path-rootless` or `path-absolute`: any first byte but these
        // leaves a non-empty path.
        return !matches!(rest.first(), None | Some(b'?' | b'#'));
    }
    authority_ok(b, colon + 3)
}

/// The authority check of [`quick_valid`] for the authority starting at
/// `b[from..]`, a byte at a time: the reference for the vectorized one.
pub(crate) fn authority_ok_portable(b: &[u8], from: usize) -> bool {
    let auth = &b[from..];
    // One pass over the authority: where the host starts (after the
    // `@`, if any) and where its port's `:` is. The three lookups this
    // replaces were a sixth of the time on URI-dense text.
    let (mut host_start, mut port_colon) = (0, None);
    let mut end = auth.len();
    let mut at_seen = false;
    for (i, &c) in auth.iter().enumerate() {
        match c {
            b'/' | b'?' | b'#' => {
                end = i;
                break;
            }
            b'@' if at_seen => return false,
            b'@' => {
                at_seen = true;
                host_start = i + 1;
                port_colon = None;
            }
            b':' if port_colon.is_none() => port_colon = Some(i),
            _ => {}
        }
    }
    let host_end = match port_colon {
        Some(p) => {
            if !auth[p + 1..end].iter().all(|&c| DIGIT.contains(c)) {
                return false;
            }
            p
        }
        None => end,
    };
    host_end > host_start || auth.get(end) == Some(&b'/')
}

/// [`authority_ok_portable`] with SSE2 (which every x86-64 CPU has) on
/// one 16-byte block: the bytes the authority pass looks for, as bit
/// masks, and the decision made on the bits. The block is the first 16
/// bytes of the authority or, when the authority is shorter, the last
/// 16 of `b`, shifted. `None` when `b` is shorter than 16 bytes or the
/// authority does not end within the block. Measured: the byte loop was
/// fifty instructions per URI on URI-dense text.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(uriscan_disable_simd, allow(dead_code))]
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn authority_ok_sse2(b: &[u8], from: usize) -> Option<bool> {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8,
        _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    let len = b.len().checked_sub(from)?;
    let at = if len >= 16 { from } else { b.len().checked_sub(16)? };
    // SAFETY: `at + 16 <= b.len()` in both cases above.
    let v = unsafe { _mm_loadu_si128(b.as_ptr().add(at).cast::<__m128i>()) };
    let shift = from - at;
    let eq = |c: u8| {
        let m = _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
        (_mm_movemask_epi8(m) as u32) >> shift
    };
    let ends = (eq(b'/') | eq(b'?') | eq(b'#')) & block_bits(len.min(16));
    let end = if ends != 0 {
        ends.trailing_zeros() as usize
    } else if len <= 16 {
        len
    } else if matches!(b[from + 16], b'/' | b'?' | b'#') {
        // An authority of exactly 16 bytes (`en.wikipedia.org`).
        16
    } else {
        return None;
    };
    // The authority is ASCII (the run was clean), so the signed
    // compares order the digits.
    let digit = _mm_and_si128(
        _mm_cmpgt_epi8(v, _mm_set1_epi8(b'0' as i8 - 1)),
        _mm_cmplt_epi8(v, _mm_set1_epi8(b'9' as i8 + 1)),
    );
    let digits = (_mm_movemask_epi8(digit) as u32) >> shift;
    let inside = block_bits(end);
    let ats = eq(b'@') & inside;
    if ats & ats.wrapping_sub(1) != 0 {
        return Some(false);
    }
    let host_start =
        if ats != 0 { ats.trailing_zeros() as usize + 1 } else { 0 };
    let colons = eq(b':') & inside & !block_bits(host_start);
    let host_end = if colons != 0 {
        let p = colons.trailing_zeros() as usize;
        let port = inside & !block_bits(p + 1);
        if port & !digits != 0 {
            return Some(false);
        }
        p
    } else {
        end
    };
    Some(host_end > host_start || b.get(from + end) == Some(&b'/'))
}

/// The low `n` bits (`n <= 16`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn block_bits(n: usize) -> u32 {
    (1u32 << n) - 1
}

/// Whether the URI `b` (valid, with its scheme's `:` at `colon`) has a
/// non-empty host or a non-empty path: the least a match must have. A
/// URI without authority may have a query instead of a path
/// (`magnet:?xt=...`).
pub(crate) fn has_host_or_path(b: &[u8], colon: usize) -> bool {
    let rest = &b[colon + 1..];
    let Some(auth) = rest.strip_prefix(b"//") else {
        return match rest.first() {
            None | Some(b'#') => false,
            Some(b'?') => rest.len() > 1 && rest[1] != b'#',
            Some(_) => true,
        };
    };
    let end = auth
        .iter()
        .position(|&c| matches!(c, b'/' | b'?' | b'#'))
        .unwrap_or(auth.len());
    let (authority, after) = auth.split_at(end);
    if after.first() == Some(&b'/') {
        return true;
    }
    let host = match authority.iter().position(|&c| c == b'@') {
        Some(at) => &authority[at + 1..],
        None => authority,
    };
    let host = if host.first() == Some(&b'[') {
        host
    } else {
        match host.iter().rposition(|&c| c == b':') {
            Some(p) => &host[..p],
            None => host,
        }
    };
    !host.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::Parser;
    use proptest::prelude::*;

    /// What the run scan calls clean (see [`quick_valid`]), spelled out.
    fn is_clean(b: &[u8]) -> bool {
        let hashes = b.iter().filter(|&&c| c == b'#').count();
        let pct_ok = b.iter().enumerate().all(|(i, &c)| {
            c != b'%' || crate::syntax::chars::is_pct_encoded(&b[i..])
        });
        b.is_ascii() && hashes <= 1 && pct_ok && !b.contains(&b'[')
    }

    proptest! {
        /// The fast path never accepts what the parser rejects, nor a
        /// URI without host or path.
        #[test]
        fn quick_valid_agrees_with_the_parser(
            s in concat!(
                "[a-zA-Z][a-zA-Z0-9+.-]{0,3}:(//)?",
                "(%[0-9a-fA-F]{2}|[-a-z0-9._~!$&'()*+,;=:@/?#]){0,20}",
            ),
        ) {
            let b = s.as_bytes();
            prop_assume!(is_clean(b));
            let colon = s.find(':').unwrap();
            if quick_valid(b, colon) {
                prop_assert!(Parser::new().validate_uri(&s).is_ok());
                prop_assert!(has_host_or_path(b, colon));
            }
        }
    }

    /// The SSE2 authority pass decides as the portable one whenever it
    /// decides, for the authority at every offset of the block and
    /// every length around 16.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn authority_sse2_equals_portable() {
        let alphabet = b"a0:@/?#";
        let mut words = vec![Vec::new()];
        for len in 1..=4 {
            for mut k in 0..alphabet.len().pow(len) {
                let mut w = Vec::new();
                for _ in 0..len {
                    w.push(alphabet[k % alphabet.len()]);
                    k /= alphabet.len();
                }
                words.push(w);
            }
        }
        let mut decided = 0;
        for word in &words {
            for pad in [0, 5, 11, 12, 15, 16, 20] {
                for scheme in 1..=14 {
                    for tail in ["", "/", "/ppppppppppppp"] {
                        let mut b = vec![b'h'; scheme];
                        b.extend_from_slice(b"://");
                        b.extend(std::iter::repeat_n(b'a', pad));
                        b.extend_from_slice(word);
                        b.extend_from_slice(tail.as_bytes());
                        let from = scheme + 3;
                        let want = authority_ok_portable(&b, from);
                        // SAFETY: SSE2 is part of x86-64.
                        let got = unsafe { authority_ok_sse2(&b, from) };
                        if let Some(got) = got {
                            decided += 1;
                            assert_eq!(got, want, "{}", b.escape_ascii());
                        }
                    }
                }
            }
        }
        assert!(decided > words.len() * 100);
    }

    #[test]
    fn quick_valid_takes_the_common_shapes() {
        for s in [
            "http://a.example/p?q=1#f",
            "https://u:pw@h.example:8080/x/%41",
            "mailto:u@m.example",
            "urn:isbn:0451450523",
            "file:///etc/hosts",
            "http://1.2.3.4",
            "http://a.example#frag?x",
        ] {
            assert!(quick_valid(s.as_bytes(), s.find(':').unwrap()), "{s}");
        }
        for s in [
            "http://a:b/",
            "http://a@b@c/",
            "http://:80",
            "http://",
            "mailto:?x",
            "x:#f",
            "http://a:1:2/",
        ] {
            assert!(!quick_valid(s.as_bytes(), s.find(':').unwrap()), "{s}");
        }
    }

    #[track_caller]
    fn prefix(s: &str) -> &str {
        let colon = s.find(':').unwrap();
        &s[..valid_prefix(s.as_bytes(), colon)]
    }

    #[test]
    fn valid_uris_are_whole() {
        for s in [
            "http://example.com/a?b#c",
            "http://user:pw@example.com:8080/p/a/t/h?q=1&r#f",
            "http://[::1]/x",
            "http://[2001:db8::7]:80",
            "http://[v7.fe80::a+en1]/",
            "http://192.0.2.16/",
            "mailto:a@b.example",
            "urn:isbn:0451450523",
            "file:///etc/hosts",
            "http://例え.テスト/パス?ク#フ",
            "http://h/%41%2f",
            "tel:+1-816-555-1212",
            "http:",
            "http://",
        ] {
            assert_eq!(prefix(s), s, "{s}");
        }
    }

    #[test]
    fn bad_parts_are_cut() {
        assert_eq!(prefix("http://[::1/x"), "http://");
        assert_eq!(prefix("http://[::g]/x"), "http://");
        assert_eq!(prefix("http://a/b%zz"), "http://a/b");
        assert_eq!(prefix("http://a/b%4"), "http://a/b");
        assert_eq!(prefix("http://a:80x/"), "http://a:80");
        assert_eq!(prefix("http://a/b[c]"), "http://a/b");
        assert_eq!(prefix("http://a/b#c#d"), "http://a/b#c");
        assert_eq!(prefix("http://a@b@c/"), "http://a@b");
        assert_eq!(prefix("http://a/\u{E000}"), "http://a/");
        assert_eq!(prefix("http://a/?\u{E000}"), "http://a/?\u{E000}");
    }

    #[test]
    fn ipv6_forms() {
        for ok in [
            "::",
            "::1",
            "1::",
            "1:2:3:4:5:6:7:8",
            "1::8",
            "::ffff:1.2.3.4",
            "1:2:3:4:5:6:1.2.3.4",
            "fe80::1:2",
        ] {
            assert!(is_ipv6(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "",
            ":",
            ":1",
            "1:",
            "1:2:3:4:5:6:7:8:9",
            "1::2::3",
            "12345::",
            "1:2:3:4:5:6:7",
            "::1.2.3",
            "1:2:3:4:5:6:7:1.2.3.4",
            "g::",
        ] {
            assert!(!is_ipv6(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn host_or_path() {
        assert!(has_host_or_path(b"http://a", 4));
        assert!(has_host_or_path(b"file:///x", 4));
        assert!(has_host_or_path(b"mailto:x", 6));
        assert!(!has_host_or_path(b"http://", 4));
        assert!(!has_host_or_path(b"http://:80", 4));
        assert!(!has_host_or_path(b"http://u@?q", 4));
        assert!(has_host_or_path(b"x:?q", 1));
        assert!(!has_host_or_path(b"x:?", 1));
        assert!(!has_host_or_path(b"x:#f", 1));
    }
}
