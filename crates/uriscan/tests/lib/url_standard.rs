//! The URL Standard mode against the URL Standard's own test file, in
//! full; and the table of the cases where the default RFC 3986 target
//! differs, `docs/url-standard-differences.md`, generated from the same
//! file (`URISCAN_BLESS=1` writes it again).

use serde_json::Value;
use uriscan::links::{Format, LinkExtractor, Page, url_standard_target};

const TESTDATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/conformance/url/urltestdata.json"
);

const TABLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/url-standard-differences.md"
);

/// Each case: input, base, and the `href` expected (`None`: a failure).
fn cases() -> Vec<(String, Option<String>, Option<String>)> {
    let text = std::fs::read_to_string(TESTDATA).expect(TESTDATA);
    let data: Vec<Value> = serde_json::from_str(&text).unwrap();
    data.iter()
        .filter_map(Value::as_object)
        .map(|case| {
            let input = case["input"].as_str().unwrap().to_owned();
            let base =
                case.get("base").and_then(Value::as_str).map(str::to_owned);
            let failure =
                case.get("failure").and_then(Value::as_bool) == Some(true);
            let href = case.get("href").and_then(Value::as_str);
            (input, base, href.filter(|_| !failure).map(str::to_owned))
        })
        .collect()
}

/// The cases where the `url` crate does not yet follow the test file:
/// changes of the URL Standard newer than its release, one JSON
/// `[input, base]` a line. A release that follows them fails this test
/// until they are taken out.
const KNOWN: &str = include_str!("../data/url_standard_known.txt");

#[test]
fn the_url_standard_test_file_in_full() {
    let cases = cases();
    assert!(cases.len() > 800, "{} cases", cases.len());
    let known: Vec<(String, Option<String>)> = KNOWN
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut wrong = vec![];
    let mut off = vec![];
    for (input, base, want) in &cases {
        let got = url_standard_target(input, base.as_deref()).ok();
        let is_known = known.iter().any(|(i, b)| i == input && b == base);
        if (got != *want) != is_known {
            wrong.push(format!(
                "{input:?} against {base:?}: {got:?}, not {want:?}"
            ));
        }
        if got != *want {
            off.push(serde_json::to_string(&(input, base)).unwrap());
        }
    }
    if std::env::var_os("URISCAN_BLESS").is_some() {
        let head: String = KNOWN
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/url_standard_known.txt"
        );
        std::fs::write(path, format!("{head}{}\n", off.join("\n"))).unwrap();
        return;
    }
    assert_eq!(off.len(), known.len());
    assert!(
        wrong.is_empty(),
        "{} of {}:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

/// The default mode's target of `input` as an `<a href>` of a page at
/// `base`: the target, or the error.
fn rfc_target(
    extractor: &LinkExtractor,
    input: &str,
    base: Option<&str>,
) -> Result<Option<String>, String> {
    let attr = input.replace('&', "&amp;").replace('"', "&quot;");
    let html = format!("<a href=\"{attr}\">");
    let mut page = Page::new(html.as_bytes(), Format::Html);
    // Without a base, an absolute link resolves against itself; a
    // relative one then has no base that is a URI, and is an error.
    page = page.url(base.unwrap_or(input.trim()));
    let link = extractor.extract(&page).next().expect("one link");
    match (link.target(), link.error()) {
        (_, Some(e)) => Err(e.to_string()),
        (t, None) => Ok(t.map(str::to_owned)),
    }
}

/// Why the two targets differ, the first reason that fits.
fn reason(
    input: &str,
    base: Option<&str>,
    rfc: &Result<Option<String>, String>,
    std: Option<&str>,
) -> &'static str {
    let special = |s: &str| {
        ["http:", "https:", "ws:", "wss:", "ftp:", "file:"].iter().any(|p| {
            s.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p))
        })
    };
    let trimmed = input.trim_matches(|c: char| c <= ' ');
    let Some(std) = std else {
        return "the URL Standard rejects it (a host, port or IPv6 address it does not accept)";
    };
    let rfc = match rfc {
        Err(_) => {
            return "RFC 3986 rejects it: a character or form outside its grammar that browsers accept";
        }
        Ok(None) => {
            return "no base: RFC 3986 leaves a relative link unresolved";
        }
        Ok(Some(t)) => t,
    };
    if input.contains(['\t', '\n', '\r']) {
        return "browsers drop tabs and line breaks anywhere in the link";
    }
    if input.contains('\\') && (special(trimmed) || base.is_some_and(special))
    {
        return "`\\` is `/` in special schemes";
    }
    if special(trimmed) && !trimmed.contains("//") {
        return "`http:relpath` (same special scheme, no `//`) is relative in browsers";
    }
    if special(trimmed)
        && trimmed.split_once(':').is_some_and(|(_, r)| r.starts_with("///"))
    {
        return "extra slashes after a special scheme are dropped";
    }
    let host = |u: &str| {
        u.split_once("//").map(|(_, r)| {
            r.split(['/', '?', '#']).next().unwrap_or("").to_owned()
        })
    };
    let (hr, hs) = (host(rfc), host(std));
    if hr != hs {
        if hr.as_deref().zip(hs.as_deref()).is_some_and(|(r, s)| {
            r.rsplit_once(':').is_some_and(|(h, p)| {
                matches!(p, "" | "80" | "443" | "21" | "8080")
                    && h.eq_ignore_ascii_case(s)
            })
        }) {
            return "default ports (and empty ones) are dropped";
        }
        return "hosts are IDNA-processed, lowercased, percent-decoded and IPv4 forms normalised";
    }
    if rfc.eq_ignore_ascii_case(std) {
        return "case: the URL Standard lowercases the scheme and the host, and keeps percent-encoding's case";
    }
    if rfc.contains('%') || std.contains('%') {
        return "percent-encoding: the URL Standard encodes other characters (spaces, quotes, non-ASCII per part) and keeps `%zz`";
    }
    if input.contains('.') {
        return "dot segments: the URL Standard also reads `%2e` and keeps a path's empty segments and `..` past the root differently";
    }
    "the URL Standard's special-scheme rules (file hosts, drive letters, opaque paths)"
}

fn escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '`' => out.push_str("&#96;"),
            c if c.is_control() || c == '\u{feff}' => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    if out.is_empty() {
        "(empty)".to_owned()
    } else {
        format!("<code>{}</code>", out.replace('<', "&lt;"))
    }
}

fn table() -> String {
    let extractor = LinkExtractor::new();
    let mut rows = vec![];
    let mut same = 0;
    let cases = cases();
    for (input, base, _) in &cases {
        let std = url_standard_target(input, base.as_deref()).ok();
        let rfc = rfc_target(&extractor, input, base.as_deref());
        if rfc.as_ref().ok().and_then(|t| t.as_deref()) == std.as_deref()
            && std.is_some()
        {
            same += 1;
            continue;
        }
        if rfc.is_err() && std.is_none() {
            same += 1;
            continue;
        }
        let shown_rfc = match &rfc {
            Ok(Some(t)) => escape(t),
            Ok(None) => "(unresolved)".to_owned(),
            Err(e) => format!("error: {}", escape(e)),
        };
        let shown_std = std.as_deref().map_or("failure".to_owned(), escape);
        let why = reason(input, base.as_deref(), &rfc, std.as_deref());
        rows.push(format!(
            "| {} | {} | {} | {} | {} |",
            escape(input),
            base.as_deref().map_or("(none)".to_owned(), escape),
            shown_rfc,
            shown_std,
            why
        ));
    }
    format!(
        "# Where the default target differs from the URL Standard's\n\n\
         Generated by `cargo test -p uriscan --features url-standard --test lib \
         url_standard` (`URISCAN_BLESS=1` to write it again) from the URL Standard's \
         own test file, `urltestdata.json` of web-platform-tests: each case read as \
         `<a href=INPUT>` on a page at BASE. The default target is RFC 3986's \
         resolution, the project's core; `--url-standard` gives the URL Standard's \
         parse, what a browser fetches. Of {} cases, {same} agree (or both reject the \
         link); these {} differ.\n\n\
         | input | base | default (RFC 3986) | URL Standard | why |\n\
         |---|---|---|---|---|\n{}\n",
        cases.len(),
        rows.len(),
        rows.join("\n")
    )
}

#[test]
fn the_differences_table_is_up_to_date() {
    let table = table();
    if std::env::var_os("URISCAN_BLESS").is_some() {
        std::fs::write(TABLE, &table).unwrap();
    }
    let written = std::fs::read_to_string(TABLE).unwrap_or_default();
    assert!(
        written == table,
        "{TABLE} is out of date: run with URISCAN_BLESS=1"
    );
}

/// The targets of a page's links in the URL Standard mode.
fn standard_targets(html: &[u8], url: &str) -> Vec<String> {
    let mut b = LinkExtractor::builder();
    b.url_standard(true);
    let page = Page::new(html, Format::Html).url(url);
    b.build()
        .extract(&page)
        .map(|l| l.target().expect("a target").to_owned())
        .collect()
}

/// The URL Standard encodes a special URL's query in the document's
/// encoding and its path in UTF-8 (the query state of the basic URL
/// parser); a character the encoding lacks goes as an HTML numeric
/// character reference, percent-encoded.
#[test]
fn the_query_is_encoded_in_the_document_encoding() {
    // windows-1252: é is 0xE9, € is 0x80.
    let html = b"<meta charset=windows-1252>\
        <a href=\"/caf\xe9?q=\xe9\x80\">a</a>\
        <a href=\"/x?k=&#26085;\">b</a>\
        <a href=\"mailto:x@y?subject=\xe9\">c</a>";
    assert_eq!(
        standard_targets(html, "http://example.org/"),
        [
            "http://example.org/caf%C3%A9?q=%E9%80",
            "http://example.org/x?k=%26%2326085%3B",
            // Not a special scheme: the query is UTF-8.
            "mailto:x@y?subject=%C3%A9",
        ]
    );
    let utf8 = "<a href=\"/caf\u{e9}?q=\u{e9}\">a</a>";
    assert_eq!(
        standard_targets(utf8.as_bytes(), "http://example.org/"),
        ["http://example.org/caf%C3%A9?q=%C3%A9"]
    );
}

/// A page's links, read in one pass against one base, get the targets
/// and errors each gets alone: the base parsed once per page serves
/// every link, a `<base href>` and an invalid base included.
#[test]
fn a_page_of_links_gets_each_links_own_target() {
    let base = "http://example.org/foo/bar";
    let inputs: Vec<String> = cases()
        .into_iter()
        .filter(|(input, b, _)| {
            b.as_deref() == Some(base) && !input.contains('\0')
        })
        .map(|(input, _, _)| input)
        .collect();
    assert!(inputs.len() > 100, "{} cases", inputs.len());
    let html: String = inputs
        .iter()
        .map(|i| {
            let attr = i.replace('&', "&amp;").replace('"', "&quot;");
            format!("<a href=\"{attr}\">x</a>\n")
        })
        .collect();
    let mut b = LinkExtractor::builder();
    b.url_standard(true);
    let extractor = b.build();
    let read = |html: &str, url: &str| -> Vec<Option<String>> {
        let page = Page::new(html.as_bytes(), Format::Html).url(url);
        extractor
            .extract(&page)
            .map(|l| l.target().map(str::to_owned))
            .collect()
    };
    let alone = |base: &str| -> Vec<Option<String>> {
        inputs
            .iter()
            .map(|i| url_standard_target(i, Some(base)).ok())
            .collect()
    };
    assert_eq!(read(&html, base), alone(base));
    // A `<base href>` first: the links go against it, itself against the page.
    let other = "https://other.example/d/e?q";
    let with_base = format!("<base href=\"{other}\">\n{html}");
    let mut want = vec![Some(other.to_owned())];
    want.extend(alone(other));
    assert_eq!(read(&with_base, base), want);
    // A base the URL Standard rejects: every link is an error.
    assert!(read(&html, "http://a:port/").iter().all(Option::is_none));
}
