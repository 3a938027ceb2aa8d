//! Shared by the syntax test binaries: proptest strategies for valid URI
//! references, built by construction from the ABNF of Appendix A, and
//! the reader of the quoted-string data tables under tests/data/.

#![allow(dead_code)]

use proptest::prelude::*;

/// Characters for a segment, a reg-name, a userinfo, a query: a mix of
/// `unreserved`, `pct-encoded` (unreserved and reserved octets, both
/// cases, UTF-8) and `sub-delims`, no `:`, `@` or `/`.
const ATOMS: &[&str] = &[
    "a", "b", "B", "z", "Z", "0", "9", "-", "_", "~", ".", "%41", "%61",
    "%2e", "%2E", "%7e", "%7E", "%2F", "%2f", "%3A", "%25", "%c3%a9", "!",
    "$", "&", "'", "(", ")", "*", "+", ",", ";", "=",
];

/// Non-ASCII `ucschar` for IRIs.
const UCS: &[&str] = &["é", "Ä", "日本", "ß"];

fn atom(iri: bool) -> BoxedStrategy<String> {
    let ascii = proptest::sample::select(ATOMS).prop_map(str::to_owned);
    if iri {
        prop_oneof![
            4 => ascii,
            1 => proptest::sample::select(UCS).prop_map(str::to_owned),
        ]
        .boxed()
    } else {
        ascii.boxed()
    }
}

fn atoms(iri: bool, extra: &'static [&'static str]) -> BoxedStrategy<String> {
    let one = prop_oneof![
        6 => atom(iri),
        1 => proptest::sample::select(extra).prop_map(str::to_owned),
    ];
    proptest::collection::vec(one, 0..4).prop_map(|v| v.concat()).boxed()
}

/// `segment-nz-nc` (no `:`) when `colon` is false, else `segment-nz`;
/// often a dot segment.
fn segment_nz(iri: bool, colon: bool) -> BoxedStrategy<String> {
    let extra: &'static [&'static str] =
        if colon { &["@", ":"] } else { &["@"] };
    prop_oneof![
        1 => Just(".".to_owned()),
        1 => Just("..".to_owned()),
        4 => atoms(iri, extra).prop_filter("segment-nz is not empty", |s| {
            !s.is_empty()
        }),
    ]
    .boxed()
}

/// `segment = *pchar`.
fn segment(iri: bool) -> BoxedStrategy<String> {
    prop_oneof![1 => Just(String::new()), 4 => segment_nz(iri, true)].boxed()
}

/// `"/" segment`, repeated.
fn slash_segments(iri: bool) -> BoxedStrategy<String> {
    proptest::collection::vec(segment(iri), 0..5)
        .prop_map(|v| v.iter().map(|s| format!("/{s}")).collect())
        .boxed()
}

/// A path for a reference without an authority: `path-absolute`,
/// `path-rootless` (or `path-noscheme` when `colon` is false), or
/// `path-empty`. Never starts with `//`.
fn path_no_authority(iri: bool, colon: bool) -> BoxedStrategy<String> {
    prop_oneof![
        1 => Just(String::new()),
        1 => Just("/".to_owned()),
        3 => (segment_nz(iri, true), slash_segments(iri))
            .prop_map(|(a, b)| format!("/{a}{b}")),
        3 => (segment_nz(iri, colon), slash_segments(iri))
            .prop_map(|(a, b)| format!("{a}{b}")),
    ]
    .boxed()
}

fn host(iri: bool) -> BoxedStrategy<String> {
    prop_oneof![
        4 => atoms(iri, &["EXAMPLE", "Com"]),
        1 => proptest::sample::select(&[
            "1.2.3.4", "255.0.0.1", "1.2.3.256", "[::1]", "[FE80::a:B]",
            "[::FFFF:1.2.3.4]", "[v1.Ab:c]", "[V7.x]",
        ][..])
        .prop_map(str::to_owned),
    ]
    .boxed()
}

/// `authority = [ userinfo "@" ] host [ ":" port ]`.
fn authority(iri: bool) -> BoxedStrategy<String> {
    let port = proptest::option::of(prop_oneof![
        Just("".to_owned()),
        Just("80".to_owned()),
        Just("443".to_owned()),
        Just("080".to_owned()),
        "[0-9]{1,4}",
    ]);
    (proptest::option::of(atoms(iri, &[":"])), host(iri), port)
        .prop_map(|(u, h, p)| {
            let mut a = String::new();
            if let Some(u) = u {
                a.push_str(&u);
                a.push('@');
            }
            a.push_str(&h);
            if let Some(p) = p {
                a.push(':');
                a.push_str(&p);
            }
            a
        })
        .boxed()
}

/// `[ "?" query ] [ "#" fragment ]`.
fn query_fragment(iri: bool) -> BoxedStrategy<String> {
    let part = || atoms(iri, &["/", "?", ":", "@", "/./", "/../"]);
    (proptest::option::of(part()), proptest::option::of(part()))
        .prop_map(|(q, f)| {
            let mut s = String::new();
            if let Some(q) = q {
                s.push('?');
                s.push_str(&q);
            }
            if let Some(f) = f {
                s.push('#');
                s.push_str(&f);
            }
            s
        })
        .boxed()
}

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, some of them
/// with default ports.
fn scheme() -> BoxedStrategy<String> {
    prop_oneof![
        2 => "[a-zA-Z][a-zA-Z0-9+.-]{0,3}",
        1 => proptest::sample::select(&[
            "http", "HTTP", "https", "ws", "wss", "ftp", "s",
        ][..])
        .prop_map(str::to_owned),
    ]
    .boxed()
}

/// `relative-part` or `hier-part`: with an authority and a
/// `path-abempty`, or a path without one.
fn hier(iri: bool, colon: bool) -> BoxedStrategy<String> {
    prop_oneof![
        1 => (authority(iri), slash_segments(iri))
            .prop_map(|(a, p)| format!("//{a}{p}")),
        1 => path_no_authority(iri, colon),
    ]
    .boxed()
}

/// `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]`.
pub fn uri(iri: bool) -> BoxedStrategy<String> {
    (scheme(), hier(iri, true), query_fragment(iri))
        .prop_map(|(s, h, qf)| format!("{s}:{h}{qf}"))
        .boxed()
}

/// `relative-ref = relative-part [ "?" query ] [ "#" fragment ]`.
pub fn relative(iri: bool) -> BoxedStrategy<String> {
    (hier(iri, false), query_fragment(iri))
        .prop_map(|(h, qf)| format!("{h}{qf}"))
        .boxed()
}

/// `URI-reference = URI / relative-ref`.
pub fn reference(iri: bool) -> BoxedStrategy<String> {
    prop_oneof![uri(iri), relative(iri)].boxed()
}

/// The quoted strings of a table line, and the word before the first
/// quote (`base`, `syntax`, ...; empty when none). `None` for blank and
/// comment lines. Strings hold no `"`.
pub fn table_line(line: &str) -> Option<(&str, Vec<&str>)> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let mut parts = line.split('"');
    let word = parts.next().unwrap_or("").trim();
    let strings = parts.step_by(2).collect::<Vec<_>>();
    Some((word, strings))
}

/// A data file under tests/data/.
pub fn data(name: &str) -> String {
    // From either package: the command line's manifest is the root's.
    let library = match env!("CARGO_PKG_NAME") {
        "uriscan" => "",
        _ => "/crates/uriscan",
    };
    let path =
        format!("{}{library}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The `(base, reference, target)` cases of a resolution table.
pub fn resolution_cases(name: &str) -> Vec<(String, String, String)> {
    let mut base = None;
    let mut cases = Vec::new();
    for (n, line) in data(name).lines().enumerate() {
        let Some((word, s)) = table_line(line) else { continue };
        match (word, s.as_slice()) {
            ("base", [b]) => base = Some(b.to_string()),
            ("", [r, t]) => {
                let b = base.clone().expect("a base line comes first");
                cases.push((b, r.to_string(), t.to_string()));
            }
            _ => panic!("{name}:{}: bad line {line:?}", n + 1),
        }
    }
    assert!(!cases.is_empty(), "{name} holds no cases");
    cases
}

/// Whether a path holds a `.` or `..` segment.
pub fn has_dot_segment(path: &str) -> bool {
    path.split('/').any(|s| s == "." || s == "..")
}
