//! The validating parser of `uriscan::syntax`: tables of valid and invalid
//! inputs for every branch of the Appendix A ABNF (in `tests/data/`),
//! error positions, and property tests against a slow reference matcher
//! written straight from the ABNF, against the Appendix B split, and
//! against fluent-uri and iri-string.

use std::borrow::Cow;

use proptest::prelude::*;
use uriscan::syntax::{
    ErrorKind, HostKind, ParseError, Parser, RefKind, UriRef, iri,
    parse_reference,
};

/// The entry points the tables and properties exercise, by name.
const RULES: [&str; 8] =
    ["ref", "uri", "abs", "rel", "iri", "iri-uri", "iri-abs", "iri-rel"];

fn parse<'a>(rule: &str, s: &'a str) -> Result<UriRef<'a>, ParseError> {
    let (iri, rule) = match rule.strip_prefix("iri") {
        Some("") => (true, "ref"),
        Some(rest) => (true, &rest[1..]),
        None => (false, rule),
    };
    let p = Parser::new().iri(iri);
    match rule {
        "ref" => p.parse_reference(s),
        "uri" => p.parse_uri(s),
        "abs" => p.parse_absolute(s),
        "rel" => p.parse_relative(s),
        _ => panic!("unknown rule {rule}"),
    }
}

/// Asserts that `input` fails as a URI-reference with `kind` at `index`.
#[track_caller]
fn fail(input: &str, index: usize, kind: ErrorKind) {
    let e = parse_reference(input).expect_err(input);
    assert_eq!((e.index(), e.kind()), (index, kind), "{input:?}");
}

/// The components of a parse as strings, `None` for absent, in the order
/// of the data table's columns.
fn components(r: &UriRef<'_>) -> Vec<Option<String>> {
    let kind = match r.kind() {
        RefKind::Uri => "uri",
        RefKind::Relative => "relative",
    };
    [
        Some(kind),
        r.scheme(),
        r.authority(),
        r.userinfo(),
        r.host(),
        r.host_kind().map(|k| match k {
            HostKind::Ipv4 => "ipv4",
            HostKind::Ipv6 => "ipv6",
            HostKind::IpvFuture => "ipvfuture",
            HostKind::RegName => "reg-name",
        }),
        r.port(),
        Some(r.path()),
        r.query(),
        r.fragment(),
    ]
    .into_iter()
    .map(|c| c.map(str::to_owned))
    .collect()
}

/// Every span slices the input to the component it stands for, and the
/// spans are in order.
#[track_caller]
fn check_spans(r: &UriRef<'_>) {
    let s = r.as_str();
    let pairs = [
        (r.scheme_span(), r.scheme()),
        (r.authority_span(), r.authority()),
        (r.userinfo_span(), r.userinfo()),
        (r.host_span(), r.host()),
        (r.port_span(), r.port()),
        (Some(r.path_span()), Some(r.path())),
        (r.query_span(), r.query()),
        (r.fragment_span(), r.fragment()),
    ];
    for (span, text) in pairs {
        assert_eq!(span.map(|sp| &s[sp.range()]), text, "{s:?}");
    }
    let order = [
        r.scheme_span(),
        r.authority_span(),
        Some(r.path_span()),
        r.query_span(),
        r.fragment_span(),
    ];
    let mut last = 0;
    for span in order.into_iter().flatten() {
        assert!(span.start >= last, "{s:?}: spans out of order");
        last = span.end;
    }
    assert_eq!(r.host().is_some(), r.authority().is_some());
    assert_eq!(r.host().is_some(), r.host_kind().is_some());
}

/// scheme ":" "//" authority path "?" query "#" fragment (5.3).
fn recompose(r: &UriRef<'_>) -> String {
    let mut out = String::new();
    if let Some(s) = r.scheme() {
        out += s;
        out += ":";
    }
    if let Some(a) = r.authority() {
        out += "//";
        out += a;
    }
    out += r.path();
    if let Some(q) = r.query() {
        out += "?";
        out += q;
    }
    if let Some(f) = r.fragment() {
        out += "#";
        out += f;
    }
    out
}

fn data_lines(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.is_empty())
        .map(|(n, l)| (n + 1, l.split('\t').collect()))
}

#[test]
fn valid_table() {
    let text = include_str!("../data/parse_valid.tsv");
    let mut cases = 0;
    for (line, cols) in data_lines(text) {
        assert_eq!(cols.len(), 12, "line {line}: {cols:?}");
        let (rule, input) = (cols[0], cols[1]);
        let want: Vec<Option<String>> = cols[2..]
            .iter()
            .map(|&c| (c != "~").then(|| c.to_owned()))
            .collect();
        let mut rules = vec![rule];
        if rule == "ref" {
            rules.push("iri");
            rules.push(if want[0].as_deref() == Some("uri") {
                "uri"
            } else {
                "rel"
            });
        }
        for rule in rules {
            let r = parse(rule, input).unwrap_or_else(|e| {
                panic!("line {line}: {rule} {input:?}: {e}")
            });
            assert_eq!(components(&r), want, "line {line}: {rule} {input:?}");
            check_spans(&r);
            assert_eq!(recompose(&r), input);
            cases += 1;
        }
        let p = Parser::new().iri(rule.starts_with("iri"));
        if rule != "rel" {
            assert_eq!(p.validate(input), Ok(()), "line {line}");
        }
    }
    assert!(cases > 150, "only {cases} cases read");
}

#[test]
fn invalid_table() {
    let text = include_str!("../data/parse_invalid.tsv");
    let mut cases = 0;
    for (line, cols) in data_lines(text) {
        assert_eq!(cols.len(), 4, "line {line}: {cols:?}");
        let (rule, input) = (cols[0], cols[1]);
        let index: usize = cols[2].parse().expect("index");
        let e = parse(rule, input).expect_err(&format!("line {line}"));
        assert_eq!(
            (e.index(), format!("{:?}", e.kind())),
            (index, cols[3].to_owned()),
            "line {line}: {rule} {input:?}"
        );
        if e.kind() != ErrorKind::InvalidScheme {
            let prefix = &input[..index];
            assert!(
                parse(rule, prefix).is_ok(),
                "line {line}: prefix {prefix:?} of {input:?} should parse"
            );
        }
        cases += 1;
    }
    assert!(cases > 90, "only {cases} cases read");
}

#[test]
fn one_line_errors() {
    fail("http://a b", 8, ErrorKind::UnexpectedByte);
    fail("1a:b", 2, ErrorKind::ColonInFirstSegment);
    fail("http://h:8x/", 10, ErrorKind::InvalidPort);
    fail("http://[::g]/", 7, ErrorKind::InvalidIpLiteral);
    fail("s:%g0", 2, ErrorKind::InvalidPctEncoding);
    fail("/ü", 1, ErrorKind::NonAscii);
}

#[test]
fn error_messages_say_what_and_where() {
    let e = parse_reference("http://h/a b").unwrap_err();
    assert_eq!(e.to_string(), "unexpected character at byte 10");
    let e = parse_reference("http://h/%zz").unwrap_err();
    assert_eq!(
        e.to_string(),
        "percent sign not followed by two hex digits at byte 9"
    );
}

#[test]
fn absent_is_not_empty() {
    let r = parse_reference("http://h").unwrap();
    assert_eq!((r.query(), r.fragment(), r.port()), (None, None, None));
    let r = parse_reference("http://h:?#").unwrap();
    assert_eq!(
        (r.query(), r.fragment(), r.port()),
        (Some(""), Some(""), Some(""))
    );
    let r = parse_reference("s:").unwrap();
    assert_eq!((r.authority(), r.host(), r.path()), (None, None, ""));
    let r = parse_reference("s://").unwrap();
    assert_eq!((r.authority(), r.host(), r.path()), (Some(""), Some(""), ""));
}

#[test]
fn every_byte_in_every_component() {
    // Each byte value after a prefix that puts it in one component,
    // against the component's rule spelled out by hand.
    let unreserved = |c: char| c.is_ascii_alphanumeric() || "-._~".contains(c);
    let sub = |c: char| "!$&'()*+,;=".contains(c);
    for b in 0u8..128 {
        let c = char::from(b);
        let pchar = unreserved(c) || sub(c) || c == ':' || c == '@';
        let cases: [(String, bool); 7] = [
            (
                format!("s://{c}"),
                unreserved(c) || sub(c) || "/?#:@".contains(c),
            ),
            (
                format!("s://u{c}@h"),
                unreserved(c) || sub(c) || ":/?#".contains(c),
            ),
            (format!("s:/{c}"), pchar || "/?#".contains(c)),
            (format!("s:?{c}"), pchar || "/?#".contains(c)),
            (format!("s:#{c}"), pchar || "/?".contains(c)),
            (format!("1{c}"), (pchar && c != ':') || "/?#".contains(c)),
            (format!("{c}:"), c.is_ascii_alphabetic() || "/?#".contains(c)),
        ];
        for (input, ok) in cases {
            assert_eq!(parse_reference(&input).is_ok(), ok, "{input:?}");
        }
    }
}

#[test]
fn validate_matches_parse() {
    for s in ["http://a/b", "a:b", "1a:b", "//[::1]:x", "", "%", "?#"] {
        let p = Parser::new();
        assert_eq!(p.validate(s), p.parse_reference(s).map(|_| ()), "{s}");
        assert_eq!(p.validate_uri(s), p.parse_uri(s).map(|_| ()), "{s}");
    }
}

#[test]
fn iri_to_uri_keeps_components() {
    let s = "http://ü@例え.jp/パス?クエリ#断片";
    let r = Parser::new().iri(true).parse_uri(s).unwrap();
    let u = iri::to_uri(s);
    assert!(matches!(u, Cow::Owned(_)));
    let ru = Parser::new().parse_uri(&u).unwrap();
    assert_eq!(ru.host(), Some(&*iri::to_uri(r.host().unwrap())));
    assert_eq!(ru.path(), iri::to_uri(r.path()));
    assert_eq!(ru.fragment(), Some("%E6%96%AD%E7%89%87"));
}

/// A slow matcher for the ABNF of Appendix A: each rule returns every
/// position where a match starting at `i` can end, so alternation and
/// repetition backtrack fully, with no shortcut taken from the fast
/// parser. It works on chars, so the IRI rules of RFC 3987 widen
/// `unreserved` by a character class.
mod abnf {
    use std::rc::Rc;

    type Ends = Vec<usize>;

    type Matcher = dyn Fn(&[char], usize) -> Ends;

    /// A rule: from a start position to all end positions.
    #[derive(Clone)]
    pub struct P(Rc<Matcher>);

    impl P {
        pub fn ends(&self, s: &[char], i: usize) -> Ends {
            (self.0)(s, i)
        }
        pub fn full(&self, s: &[char]) -> bool {
            self.ends(s, 0).contains(&s.len())
        }
    }

    fn norm(mut v: Ends) -> Ends {
        v.sort_unstable();
        v.dedup();
        v
    }

    pub fn class(f: impl Fn(char) -> bool + 'static) -> P {
        P(Rc::new(move |s, i| match s.get(i) {
            Some(&c) if f(c) => vec![i + 1],
            _ => vec![],
        }))
    }

    /// A literal string; ABNF strings are case-insensitive (RFC 5234).
    pub fn lit(t: &'static str) -> P {
        P(Rc::new(move |s, i| {
            let n = t.chars().count();
            let ok = s.len() >= i + n
                && s[i..i + n]
                    .iter()
                    .zip(t.chars())
                    .all(|(a, b)| a.eq_ignore_ascii_case(&b));
            if ok { vec![i + n] } else { vec![] }
        }))
    }

    pub fn seq(ps: &[P]) -> P {
        let ps = ps.to_vec();
        P(Rc::new(move |s, i| {
            let mut at = vec![i];
            for p in &ps {
                at = norm(at.iter().flat_map(|&j| p.ends(s, j)).collect());
                if at.is_empty() {
                    break;
                }
            }
            at
        }))
    }

    pub fn alt(ps: &[P]) -> P {
        let ps = ps.to_vec();
        P(Rc::new(move |s, i| {
            norm(ps.iter().flat_map(|p| p.ends(s, i)).collect())
        }))
    }

    /// `min*max rule`; every rule repeated here consumes at least one
    /// character, so empty iterations are skipped.
    pub fn rep(min: usize, max: usize, p: P) -> P {
        P(Rc::new(move |s, i| {
            let mut out = if min == 0 { vec![i] } else { vec![] };
            let mut frontier = vec![i];
            let mut k = 0;
            while !frontier.is_empty() && k < max {
                k += 1;
                frontier = norm(
                    frontier
                        .iter()
                        .flat_map(|&f| {
                            p.ends(s, f).into_iter().filter(move |&e| e > f)
                        })
                        .collect(),
                );
                if k >= min {
                    out.extend(&frontier);
                }
            }
            norm(out)
        }))
    }

    pub fn opt(p: P) -> P {
        rep(0, 1, p)
    }

    pub const MANY: usize = usize::MAX;

    /// RFC 3987 2.2, `ucschar`, range by range.
    fn ucschar(c: char) -> bool {
        const RANGES: [(u32, u32); 17] = [
            (0xA0, 0xD7FF),
            (0xF900, 0xFDCF),
            (0xFDF0, 0xFFEF),
            (0x10000, 0x1FFFD),
            (0x20000, 0x2FFFD),
            (0x30000, 0x3FFFD),
            (0x40000, 0x4FFFD),
            (0x50000, 0x5FFFD),
            (0x60000, 0x6FFFD),
            (0x70000, 0x7FFFD),
            (0x80000, 0x8FFFD),
            (0x90000, 0x9FFFD),
            (0xA0000, 0xAFFFD),
            (0xB0000, 0xBFFFD),
            (0xC0000, 0xCFFFD),
            (0xD0000, 0xDFFFD),
            (0xE1000, 0xEFFFD),
        ];
        RANGES.iter().any(|&(lo, hi)| (lo..=hi).contains(&(c as u32)))
    }

    /// RFC 3987 2.2, `iprivate`.
    fn iprivate(c: char) -> bool {
        [(0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD)]
            .iter()
            .any(|&(lo, hi)| (lo..=hi).contains(&(c as u32)))
    }

    pub struct Grammar {
        pub reference: P,
        pub uri: P,
        pub absolute: P,
        pub relative: P,
        pub ipv4: P,
    }

    /// Appendix A, rule by rule (with RFC 3987's `i` rules when `iri`).
    pub fn grammar(iri: bool) -> Grammar {
        let alpha = class(|c| c.is_ascii_alphabetic());
        let digit = class(|c| c.is_ascii_digit());
        let hexdig = class(|c| c.is_ascii_hexdigit());
        let ascii_unreserved =
            class(|c| c.is_ascii_alphanumeric() || "-._~".contains(c));
        let unreserved = class(move |c| {
            c.is_ascii_alphanumeric()
                || "-._~".contains(c)
                || (iri && ucschar(c))
        });
        let sub_delims = class(|c| "!$&'()*+,;=".contains(c));
        let pct = seq(&[lit("%"), hexdig.clone(), hexdig.clone()]);
        let pchar = alt(&[
            unreserved.clone(),
            pct.clone(),
            sub_delims.clone(),
            lit(":"),
            lit("@"),
        ]);
        let segment = rep(0, MANY, pchar.clone());
        let segment_nz = rep(1, MANY, pchar.clone());
        let segment_nz_nc = rep(
            1,
            MANY,
            alt(&[
                unreserved.clone(),
                pct.clone(),
                sub_delims.clone(),
                lit("@"),
            ]),
        );
        let slash_segments = rep(0, MANY, seq(&[lit("/"), segment.clone()]));
        let path_abempty = slash_segments.clone();
        let path_absolute = seq(&[
            lit("/"),
            opt(seq(&[segment_nz.clone(), slash_segments.clone()])),
        ]);
        let path_noscheme = seq(&[segment_nz_nc, slash_segments.clone()]);
        let path_rootless = seq(&[segment_nz, slash_segments]);
        let path_empty = rep(0, 0, pchar.clone());
        let private = class(move |c| iri && iprivate(c));
        let query =
            rep(0, MANY, alt(&[pchar.clone(), lit("/"), lit("?"), private]));
        let fragment = rep(0, MANY, alt(&[pchar, lit("/"), lit("?")]));

        let dec_octet = alt(&[
            digit.clone(),
            seq(&[class(|c| ('1'..='9').contains(&c)), digit.clone()]),
            seq(&[lit("1"), digit.clone(), digit.clone()]),
            seq(&[
                lit("2"),
                class(|c| ('0'..='4').contains(&c)),
                digit.clone(),
            ]),
            seq(&[lit("25"), class(|c| ('0'..='5').contains(&c))]),
        ]);
        let ipv4 = seq(&[
            dec_octet.clone(),
            lit("."),
            dec_octet.clone(),
            lit("."),
            dec_octet.clone(),
            lit("."),
            dec_octet,
        ]);
        let h16 = rep(1, 4, hexdig.clone());
        let h16c = seq(&[h16.clone(), lit(":")]);
        let ls32 =
            alt(&[seq(&[h16.clone(), lit(":"), h16.clone()]), ipv4.clone()]);
        let before =
            |n: usize| opt(seq(&[rep(0, n, h16c.clone()), h16.clone()]));
        let ipv6 = alt(&[
            seq(&[rep(6, 6, h16c.clone()), ls32.clone()]),
            seq(&[lit("::"), rep(5, 5, h16c.clone()), ls32.clone()]),
            seq(&[
                opt(h16.clone()),
                lit("::"),
                rep(4, 4, h16c.clone()),
                ls32.clone(),
            ]),
            seq(&[
                before(1),
                lit("::"),
                rep(3, 3, h16c.clone()),
                ls32.clone(),
            ]),
            seq(&[
                before(2),
                lit("::"),
                rep(2, 2, h16c.clone()),
                ls32.clone(),
            ]),
            seq(&[before(3), lit("::"), h16c.clone(), ls32.clone()]),
            seq(&[before(4), lit("::"), ls32]),
            seq(&[before(5), lit("::"), h16.clone()]),
            seq(&[before(6), lit("::")]),
        ]);
        let ipvfuture = seq(&[
            lit("v"),
            rep(1, MANY, hexdig),
            lit("."),
            rep(
                1,
                MANY,
                alt(&[ascii_unreserved, sub_delims.clone(), lit(":")]),
            ),
        ]);
        let ip_literal = seq(&[lit("["), alt(&[ipv6, ipvfuture]), lit("]")]);
        let reg_name = rep(
            0,
            MANY,
            alt(&[unreserved.clone(), pct.clone(), sub_delims.clone()]),
        );
        let host = alt(&[ip_literal, ipv4.clone(), reg_name]);
        let port = rep(0, MANY, digit.clone());
        let userinfo =
            rep(0, MANY, alt(&[unreserved, pct, sub_delims, lit(":")]));
        let authority = seq(&[
            opt(seq(&[userinfo, lit("@")])),
            host,
            opt(seq(&[lit(":"), port])),
        ]);
        let scheme = seq(&[
            alpha,
            rep(
                0,
                MANY,
                class(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)),
            ),
        ]);
        let with_authority = seq(&[lit("//"), authority, path_abempty]);
        let hier_part = alt(&[
            with_authority.clone(),
            path_absolute.clone(),
            path_rootless,
            path_empty.clone(),
        ]);
        let relative_part =
            alt(&[with_authority, path_absolute, path_noscheme, path_empty]);
        let query_part = opt(seq(&[lit("?"), query]));
        let fragment_part = opt(seq(&[lit("#"), fragment]));
        let absolute = seq(&[scheme, lit(":"), hier_part, query_part.clone()]);
        let uri = seq(&[absolute.clone(), fragment_part.clone()]);
        let relative = seq(&[relative_part, query_part, fragment_part]);
        Grammar {
            reference: alt(&[uri.clone(), relative.clone()]),
            uri,
            absolute,
            relative,
            ipv4,
        }
    }
}

/// The components of a valid reference by the regular expression of
/// Appendix B, `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`,
/// with the authority split at its `@` and the `:` after the host, and the
/// host kind by the first-match rule of 3.2.2.
fn appendix_b(s: &str, ipv4: &abnf::P) -> Vec<Option<String>> {
    let mut rest = s;
    let mut scheme = None;
    if let Some(end) = rest.find([':', '/', '?', '#'])
        && end > 0
        && rest.as_bytes()[end] == b':'
    {
        scheme = Some(&rest[..end]);
        rest = &rest[end + 1..];
    }
    let (mut authority, mut userinfo, mut host, mut kind, mut port) =
        (None, None, None, None, None);
    if let Some(after) = rest.strip_prefix("//") {
        let end = after.find(['/', '?', '#']).unwrap_or(after.len());
        let a = &after[..end];
        authority = Some(a);
        rest = &after[end..];
        let hostport = match a.split_once('@') {
            Some((u, hp)) => {
                userinfo = Some(u);
                hp
            }
            None => a,
        };
        let host_end = if hostport.starts_with('[') {
            hostport.find(']').map_or(hostport.len(), |i| i + 1)
        } else {
            hostport.find(':').unwrap_or(hostport.len())
        };
        let h = &hostport[..host_end];
        port = hostport[host_end..].strip_prefix(':');
        host = Some(h);
        let chars: Vec<char> = h.chars().collect();
        kind = Some(if h.starts_with("[v") || h.starts_with("[V") {
            "ipvfuture"
        } else if h.starts_with('[') {
            "ipv6"
        } else if ipv4.full(&chars) {
            "ipv4"
        } else {
            "reg-name"
        });
    }
    let path_end = rest.find(['?', '#']).unwrap_or(rest.len());
    let path = &rest[..path_end];
    rest = &rest[path_end..];
    let mut query = None;
    if let Some(q) = rest.strip_prefix('?') {
        let end = q.find('#').unwrap_or(q.len());
        query = Some(&q[..end]);
        rest = &q[end..];
    }
    let fragment = rest.strip_prefix('#');
    let kind_of_ref = if scheme.is_some() { "uri" } else { "relative" };
    [
        Some(kind_of_ref),
        scheme,
        authority,
        userinfo,
        host,
        kind,
        port,
        Some(path),
        query,
        fragment,
    ]
    .into_iter()
    .map(|c| c.map(str::to_owned))
    .collect()
}

/// Strings built from pieces that exercise the grammar's decisions: the
/// delimiters, hex digits, IP literal parts, percent signs, and a few
/// non-ASCII characters (ucschar, iprivate, a noncharacter).
fn uri_like() -> impl Strategy<Value = String> {
    const PIECES: &[&str] = &[
        "a", "Z", "v", "F", "0", "1", "2", "5", "9", "25", "255", "256", "01",
        ":", "::", "/", "//", "?", "#", "[", "]", "@", "%", "%4", "%41", "%g",
        ".", "-", "_", "~", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";",
        "=", " ", "\"", "<", "\\", "^", "|", "1.2.3.4", "http:", "s://",
        "[::1]", "[v1.x]", "ffff", "ü", "\u{E000}", "\u{FFFE}", "\u{85}",
        "例",
    ];
    prop::collection::vec(prop::sample::select(PIECES), 0..14)
        .prop_map(|v| v.concat())
}

/// Denser in what makes authorities and IP literals hard.
fn authority_like() -> impl Strategy<Value = String> {
    const PIECES: &[&str] = &[
        "1", "0", "f", "v", ".", ":", "::", "25", "255", "256", "01", "@",
        "[", "]", "%41", "x", "/",
    ];
    prop::collection::vec(prop::sample::select(PIECES), 0..12)
        .prop_map(|v| format!("s://{}", v.concat()))
}

/// Whole references assembled from components, most of them near-valid:
/// the hosts are dotted numbers, IPv6 groups with `::` anywhere and an
/// optional IPv4 tail, IPvFuture and reg-names, so that the first-match
/// and IP literal rules are exercised far more than by chance.
fn structured() -> impl Strategy<Value = String> {
    let pick = |v: &'static [&'static str]| prop::sample::select(v);
    let dec = pick(&[
        "0", "1", "9", "10", "25", "99", "199", "249", "250", "255", "256",
        "01", "300",
    ]);
    let ipv4 = prop_oneof![
        4 => prop::collection::vec(dec.clone(), 4),
        1 => prop::collection::vec(dec, 3..=5),
    ]
    .prop_map(|v| v.join("."));
    let h16 = pick(&["0", "f", "ffff", "Ab", "1", "1", "12345", "g"]);
    let ipv6 = (
        prop::collection::vec(h16, 0..=8),
        0..10usize,
        any::<bool>(),
        ipv4.clone(),
    )
        .prop_map(|(groups, elide, tail, v4)| {
            let mut out = String::new();
            for (k, g) in groups.iter().enumerate() {
                if k == elide {
                    out.push_str("::");
                } else if k > 0 {
                    out.push(':');
                }
                out.push_str(g);
            }
            if elide >= groups.len() && elide < 9 {
                out.push_str("::");
            }
            if tail {
                if !out.ends_with(':') && !out.is_empty() {
                    out.push(':');
                }
                out.push_str(&v4);
            }
            format!("[{out}]")
        });
    let future = (
        pick(&["v", "V", "v1", "vF", "v1.", "v12."]),
        pick(&["", "x", ":", "a+b", "%41", "::1", "ü"]),
    )
        .prop_map(|(a, b)| format!("[{a}.{b}]"));
    let reg_name = prop::collection::vec(
        pick(&["a", "-", ".", "%41", "%4", "!", "~", "1", "ü", ":", " "]),
        0..5,
    )
    .prop_map(|v| v.concat());
    let host = prop_oneof![3 => ipv4, 4 => ipv6, 1 => future, 2 => reg_name];
    let userinfo = prop::option::of(
        prop::collection::vec(pick(&["u", ":", "%20", "@", "[", "ü"]), 0..4)
            .prop_map(|v| v.concat() + "@"),
    );
    let port = prop::option::of(
        prop::collection::vec(pick(&["8", "0", "80", "x", ":", "%30"]), 0..3)
            .prop_map(|v| format!(":{}", v.concat())),
    );
    let scheme = pick(&["", "", "http:", "s:", "1a:", "a+b.c-d:"]);
    let slashes = pick(&["//", "//", "//", "", "/"]);
    let piece = pick(&[
        "/", "a", ":", "@", "%41", "?", "#", "..", "ü", "[", "/", "", "",
    ]);
    let tail = prop::collection::vec(piece, 0..4).prop_map(|v| v.concat());
    (scheme, slashes, userinfo, host, port, tail).prop_map(
        |(scheme, slashes, userinfo, host, port, tail)| {
            let mut s = format!("{scheme}{slashes}");
            if slashes == "//" {
                s += &userinfo.unwrap_or_default();
                s += &host;
                s += &port.unwrap_or_default();
            }
            s + &tail
        },
    )
}

thread_local! {
    static GRAMMARS: [abnf::Grammar; 2] =
        [abnf::grammar(false), abnf::grammar(true)];
}

/// The fast parser and the ABNF reference agree on every entry point;
/// on success the components are those of the Appendix B split.
fn agree_with_reference(s: &str) -> Result<(), TestCaseError> {
    let chars: Vec<char> = s.chars().collect();
    GRAMMARS.with(|g| {
        for rule in RULES {
            let grammar = &g[usize::from(rule.starts_with("iri"))];
            let p =
                match rule.trim_start_matches("iri").trim_start_matches('-') {
                    "" | "ref" => &grammar.reference,
                    "uri" => &grammar.uri,
                    "abs" => &grammar.absolute,
                    "rel" => &grammar.relative,
                    other => panic!("{other}"),
                };
            let fast = parse(rule, s);
            prop_assert_eq!(
                fast.is_ok(),
                p.full(&chars),
                "{} {:?}: {:?}",
                rule,
                s,
                fast
            );
            if let Ok(r) = fast {
                prop_assert_eq!(components(&r), appendix_b(s, &grammar.ipv4));
            }
        }
        Ok(())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn fast_parser_agrees_with_abnf(s in uri_like()) {
        agree_with_reference(&s)?;
    }

    #[test]
    fn fast_parser_agrees_with_abnf_on_hosts(s in authority_like()) {
        agree_with_reference(&s)?;
    }

    #[test]
    fn fast_parser_agrees_with_abnf_on_structured(s in structured()) {
        agree_with_reference(&s)?;
    }

    #[test]
    fn parse_recompose_round_trips(s in uri_like()) {
        for rule in RULES {
            if let Ok(r) = parse(rule, &s) {
                check_spans(&r);
                prop_assert_eq!(recompose(&r), s.clone());
            }
        }
    }

    #[test]
    fn input_before_the_error_index_is_valid(s in uri_like()) {
        for rule in RULES {
            if let Err(e) = parse(rule, &s) {
                prop_assert!(s.is_char_boundary(e.index()));
                prop_assert!(e.index() <= s.len());
                if e.kind() != ErrorKind::InvalidScheme {
                    let prefix = &s[..e.index()];
                    prop_assert!(
                        parse(rule, prefix).is_ok(),
                        "{} {:?}: {:?}, prefix {:?}", rule, s, e, prefix
                    );
                }
            }
        }
    }

    #[test]
    fn validate_agrees_with_parse(s in uri_like(), iri in any::<bool>()) {
        let p = Parser::new().iri(iri);
        prop_assert_eq!(p.validate(&s), p.parse_reference(&s).map(|_| ()));
        prop_assert_eq!(p.validate_uri(&s), p.parse_uri(&s).map(|_| ()));
    }

    #[test]
    fn iri_to_uri_is_a_uri_with_the_same_structure(s in uri_like()) {
        let p = Parser::new();
        if let Ok(r) = p.iri(true).parse_reference(&s) {
            let u = iri::to_uri(&s);
            let ru = p.parse_reference(&u);
            prop_assert!(ru.is_ok(), "{:?} -> {:?}: {:?}", s, u, ru);
            let ru = ru.unwrap();
            let mapped: Vec<Option<String>> = components(&r)
                .into_iter()
                .map(|c| c.map(|c| iri::to_uri(&c).into_owned()))
                .collect();
            prop_assert_eq!(components(&ru), mapped);
        }
        if s.is_ascii() {
            prop_assert_eq!(
                p.parse_reference(&s),
                p.iri(true).parse_reference(&s)
            );
        }
    }

    #[test]
    fn no_string_panics(s in any::<String>()) {
        for rule in RULES {
            let _ = parse(rule, &s);
        }
        let _ = Parser::new().iri(true).validate(&s);
    }

    #[test]
    fn no_bytes_panic(b in prop::collection::vec(any::<u8>(), 0..64)) {
        let s = String::from_utf8_lossy(&b);
        for rule in RULES {
            let _ = parse(rule, &s);
        }
    }

    /// fluent-uri 0.4 implements RFC 3986 and 3987 strictly; it must
    /// agree on accept/reject and on every component. No divergence is
    /// known on these inputs.
    #[test]
    fn agrees_with_fluent_uri(s in uri_like()) {
        let ours = Parser::new().parse_reference(&s);
        let theirs = fluent_uri::UriRef::parse(s.as_str());
        prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{:?}: {:?}", s, ours);
        if let (Ok(r), Ok(t)) = (ours, theirs) {
            prop_assert_eq!(r.scheme(), t.scheme().map(|x| x.as_str()));
            let ta = t.authority();
            prop_assert_eq!(r.authority(), ta.map(|a| a.as_str()));
            prop_assert_eq!(r.host(), ta.map(|a| a.host()));
            prop_assert_eq!(
                r.userinfo(),
                ta.and_then(|a| a.userinfo()).map(|x| x.as_str())
            );
            prop_assert_eq!(
                r.port(),
                ta.and_then(|a| a.port()).map(|x| x.as_str())
            );
            prop_assert_eq!(r.path(), t.path().as_str());
            prop_assert_eq!(r.query(), t.query().map(|x| x.as_str()));
            prop_assert_eq!(r.fragment(), t.fragment().map(|x| x.as_str()));
        }
        let ours = Parser::new().iri(true).parse_reference(&s);
        let theirs = fluent_uri::IriRef::parse(s.as_str());
        prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "iri {:?}: {:?}", s, ours);
    }

    /// iri-string 0.7, the other strict implementation.
    #[test]
    fn agrees_with_iri_string(s in uri_like()) {
        use iri_string::types::{IriReferenceStr, UriReferenceStr};
        let ours = Parser::new().parse_reference(&s);
        prop_assert_eq!(
            ours.is_ok(),
            UriReferenceStr::new(&s).is_ok(),
            "{:?}: {:?}", s, ours
        );
        let ours = Parser::new().iri(true).parse_reference(&s);
        prop_assert_eq!(
            ours.is_ok(),
            IriReferenceStr::new(&s).is_ok(),
            "iri {:?}: {:?}", s, ours
        );
    }
}
