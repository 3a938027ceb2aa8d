//! RFC 3986 section 3.2.2, "Host": the `IPv4address`, `IPv6address` and
//! `IPvFuture` rules, as matchers over the bytes of a host.
//!
//! `reg-name` needs no matcher of its own: it is a byte class, scanned by
//! the parser with a byte table. What lives here are the rules with
//! structure. Each function answers whether the whole of its input matches
//! the rule; none allocates or panics.

use super::chars::{DIGIT, HEXDIG, IPVFUTURE_TAIL};

/// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`
///
/// ```text
/// dec-octet = DIGIT                 ; 0-9
///           / %x31-39 DIGIT         ; 10-99
///           / "1" 2DIGIT            ; 100-199
///           / "2" %x30-34 DIGIT     ; 200-249
///           / "25" %x30-35          ; 250-255
/// ```
///
/// So an octet is 0 to 255 without a leading zero: `01.2.3.4` and
/// `1.2.3.256` do not match (they are `reg-name`s, by the first-match rule
/// of 3.2.2).
///
/// ```
/// use uriscan::syntax::host::is_ipv4;
/// assert!(is_ipv4(b"192.0.2.255"));
/// assert!(!is_ipv4(b"192.0.2.256"));
/// assert!(!is_ipv4(b"01.2.3.4"));
/// assert!(!is_ipv4(b"1.2.3"));
/// ```
pub fn is_ipv4(s: &[u8]) -> bool {
    let mut i = 0;
    for octet in 0..4 {
        if octet > 0 {
            if s.get(i) != Some(&b'.') {
                return false;
            }
            i += 1;
        }
        let start = i;
        let mut value = 0u32;
        while i < s.len() && i - start < 3 && DIGIT.contains(s[i]) {
            value = value * 10 + u32::from(s[i] - b'0');
            i += 1;
        }
        let len = i - start;
        if len == 0 || value > 255 || (len > 1 && s[start] == b'0') {
            return false;
        }
    }
    i == s.len()
}

/// `IPv6address`, the nine alternatives of 3.2.2:
///
/// ```text
/// IPv6address =                            6( h16 ":" ) ls32
///             /                       "::" 5( h16 ":" ) ls32
///             / [               h16 ] "::" 4( h16 ":" ) ls32
///             / [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
///             / [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
///             / [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
///             / [ *4( h16 ":" ) h16 ] "::"              ls32
///             / [ *5( h16 ":" ) h16 ] "::"              h16
///             / [ *6( h16 ":" ) h16 ] "::"
/// h16         = 1*4HEXDIG
/// ls32        = ( h16 ":" h16 ) / IPv4address
/// ```
///
/// Read together, the alternatives say: pieces of 16 bits separated by
/// `:`, an `IPv4address` allowed only as the last thing and counting for
/// two pieces, and either exactly eight pieces, or at most seven with one
/// `::` (which stands for at least one zero piece) anywhere.
///
/// ```
/// use uriscan::syntax::host::is_ipv6;
/// assert!(is_ipv6(b"::"));
/// assert!(is_ipv6(b"2001:db8::7"));
/// assert!(is_ipv6(b"::ffff:192.0.2.1"));
/// assert!(!is_ipv6(b"1:2:3:4:5:6:7:8:9"));
/// assert!(!is_ipv6(b"1::2::3"));
/// ```
pub fn is_ipv6(s: &[u8]) -> bool {
    let n = s.len();
    let mut i = 0;
    let mut pieces = 0;
    let mut elided = false;
    if s.starts_with(b"::") {
        elided = true;
        i = 2;
        if i == n {
            return true;
        }
    }
    loop {
        let start = i;
        while i < n && i - start < 4 && HEXDIG.contains(s[i]) {
            i += 1;
        }
        if i == start {
            return false;
        }
        if i < n && s[i] == b'.' {
            // The digits just read begin an IPv4address, which must end
            // the input and fill two pieces.
            let total = pieces + 2;
            return is_ipv4(&s[start..])
                && if elided { total <= 7 } else { total == 8 };
        }
        pieces += 1;
        if i == n {
            return if elided { pieces <= 7 } else { pieces == 8 };
        }
        if s[i] != b':' || pieces >= 8 {
            return false;
        }
        i += 1;
        if i < n && s[i] == b':' {
            if elided {
                return false;
            }
            elided = true;
            i += 1;
            if i == n {
                return pieces <= 7;
            }
        }
    }
}

/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`
///
/// ABNF strings are case-insensitive (RFC 5234 2.3), so `V` is accepted
/// as well as `v`.
///
/// ```
/// use uriscan::syntax::host::is_ipvfuture;
/// assert!(is_ipvfuture(b"v1.fe80::a+en1"));
/// assert!(!is_ipvfuture(b"v1."));
/// assert!(!is_ipvfuture(b"v.x"));
/// ```
pub fn is_ipvfuture(s: &[u8]) -> bool {
    let [b'v' | b'V', rest @ ..] = s else {
        return false;
    };
    let hex = HEXDIG.prefix_len(rest);
    if hex == 0 || rest.get(hex) != Some(&b'.') {
        return false;
    }
    let tail = &rest[hex + 1..];
    !tail.is_empty() && IPVFUTURE_TAIL.prefix_len(tail) == tail.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4_octets_are_0_to_255_without_leading_zeros() {
        for ok in ["0.0.0.0", "255.255.255.255", "10.99.100.249", "250.2.3.4"]
        {
            assert!(is_ipv4(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "256.1.1.1",
            "1.2.3.04",
            "00.1.1.1",
            "1.2.3",
            "1.2.3.4.",
            ".1.2.3",
            "1..2.3",
            "1.2.3.4.5",
            "1.2.3.1000",
            "a.1.1.1",
            "",
        ] {
            assert!(!is_ipv4(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn ipv6_every_elision_position() {
        for ok in [
            "1:2:3:4:5:6:7:8",
            "::2:3:4:5:6:7:8",
            "1::3:4:5:6:7:8",
            "1:2:3:4:5:6:7::",
            "1:2:3:4:5:6::8",
            "::",
            "::1",
            "1::",
            "1:2:3:4:5:6:1.2.3.4",
            "::1.2.3.4",
            "1::1.2.3.4",
            "1:2:3:4:5::1.2.3.4",
            "::1:2:3:4:5:1.2.3.4",
            "ABCD:ef01::",
            "fe80::1:2",
        ] {
            assert!(is_ipv6(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "",
            ":",
            ":1",
            "1:",
            ":::",
            "1:2:3:4:5:6:7",
            "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7:8::",
            "::1:2:3:4:5:6:7:8",
            "1::2::3",
            ":1::",
            "1::2:",
            "12345::",
            "g::",
            "1:2:3:4:5:6:7:1.2.3.4",
            "1:2:3:4:5:6::1.2.3.4",
            "::1.2.3.4:1",
            "::1.2.3",
            "::01.2.3.4",
            "1.2.3.4",
        ] {
            assert!(!is_ipv6(bad.as_bytes()), "{bad}");
        }
    }
}
