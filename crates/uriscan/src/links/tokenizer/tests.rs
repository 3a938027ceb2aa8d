//! Our tokenizer against html5gum's (the oracle, through the same layer):
//! the same start tags, attributes, value spans and text runs on
//! arbitrary HTML-ish input, with the state switches on and off; every
//! named reference decoded alike; and inputs built to be slow read in
//! one pass.

use proptest::prelude::*;

use super::super::oracle::{self, Log};
use crate::Span;

fn both(html: &[u8], switch: bool, picky: bool) -> (Log, Log) {
    (Log::ours(html, switch, picky), Log::html5gum(html, switch, picky))
}

fn assert_same(html: &[u8]) {
    oracle::differential(html);
}

/// Pieces that HTML is made of, the tricky ones first.
const PIECES: &[&[u8]] = &[
    b"<",
    b">",
    b"&",
    b"\"",
    b"'",
    b"=",
    b"/",
    b"!",
    b"-",
    b"--",
    b"?",
    b"a",
    b"A",
    b"b",
    b"x",
    b"1",
    b";",
    b" ",
    b"\t",
    b"\n",
    b"\r",
    b"\r\n",
    b"\x0C",
    b"\0",
    b"\xFF",
    b"\xC3\xA9",
    b"\xE2\x82",
    b"script",
    b"SCRIPT",
    b"style",
    b"svg",
    b"math",
    b"textarea",
    b"title",
    b"xmp",
    b"plaintext",
    b"iframe",
    b"noscript",
    b"href",
    b"src",
    b"&amp;",
    b"&amp",
    b"&#x",
    b"&#",
    b"&#X41;",
    b"&#128;",
    b"&#0;",
    b"&#xD800;",
    b"&#99999999;",
    b"&notin;",
    b"&noti",
    b"&not",
    b"&lt",
    b"&gt;",
    b"&AElig",
    b"&ampx",
    b"&amp=",
    b"<!--",
    b"-->",
    b"--!>",
    b"--!",
    b"<!-->",
    b"<!DOCTYPE",
    b"<![CDATA[",
    b"]]>",
    b"]",
    b"</",
    b"<a ",
    b"<a href=",
    b"</a>",
    b"<script>",
    b"</script>",
    b"<style>",
    b"</style>",
    b"<svg>",
    b"</svg>",
    b"<title>",
    b"</title>",
    b"<textarea>",
    b"</textarea>",
    b"<plaintext>",
    b"<!",
    b"<?",
    b"`",
];

fn html_ish() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(PIECES).prop_map(<[u8]>::to_vec),
            1 => prop::collection::vec(any::<u8>(), 0..4),
        ],
        0..60,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn same_as_html5gum(html in html_ish()) {
        assert_same(&html);
    }

    #[test]
    fn same_as_html5gum_on_any_bytes(html in prop::collection::vec(any::<u8>(), 0..200)) {
        assert_same(&html);
    }
}

#[test]
fn same_on_the_cases_written_out() {
    for html in [
        &b"<a href=x>a &amp; b < c</a>"[..],
        b"&amp;http://a.b/ <p>",
        b"a</>b<p>c</>",
        b"<title>a</b>c</title>d<p>",
        b"<style>a<b</style><p style=x>",
        b"<script>a<!--<script>x</script>--></script>y</script>z<p>",
        b"<script><!--x--></script><a href=1>",
        b"<svg><![CDATA[x]]]></svg>a<b>",
        b"<svg/><script><a href=x></script><a href=y>",
        b"<math><svg/></math><style><a href=x></style><svg a=b/>",
        b"<!--->a<!-->b<!---->c<!--x--!>d<!-- -- -!->e-->",
        b"<!---!>a-->",
        b"<!--a--!->b-->c<!--d--!-->e",
        b"<a b=c b=d B=e>",
        b"<a href='&amp;&notin;&noti;&amp=&ampx&#x26;&#38'>",
        b"<a =x>",
        b"<a\r\nhref=\"a\r\nb\rc\">",
        b"<plaintext><a href=x>",
        b"<textarea><a href=x></textarea>",
        b"<a href=x",
        b"x<a href=\"y",
    ] {
        assert_same(html);
    }
}

/// Every named reference, with `;` and without, before the end of a
/// value, a letter and `=`: decoded exactly as html5gum decodes it.
#[test]
fn every_named_reference() {
    assert_eq!(super::entities::ENTITIES.len(), 2231);
    let mut html = Vec::new();
    for (name, _) in &super::entities::ENTITIES {
        for after in [&b""[..], b"x", b"=", b";"] {
            html.extend_from_slice(b"<a v=\"&");
            html.extend_from_slice(name);
            html.extend_from_slice(after);
            html.extend_from_slice(b"\">&");
            html.extend_from_slice(name);
            html.extend_from_slice(after);
        }
    }
    let (ours, gum) = both(&html, false, false);
    assert_eq!(ours.tags.len(), 2231 * 4);
    assert_eq!(ours, gum);
}

#[test]
fn decodes_as_the_standard_says() {
    let value = |v: &[u8]| {
        let mut out = vec![];
        let verbatim = super::decode(v, &mut out);
        // Told verbatim only when nothing was decoded.
        assert_eq!(verbatim, !v.iter().any(|c| b"&\0\r".contains(c)));
        assert!(!verbatim || out == v);
        String::from_utf8(out).unwrap()
    };
    assert_eq!(value(b"a.html?x=1"), "a.html?x=1");
    assert_eq!(value(b"a&amp;b"), "a&b");
    assert_eq!(value(b"&ampx&amp=&amp"), "&ampx&amp=&");
    assert_eq!(value(b"&notin;&notit;&noti"), "\u{2209}&notit;&noti");
    assert_eq!(
        value(b"&#x80;&#128;&#0;&#xD800;&#x110000;"),
        "€€\u{FFFD}\u{FFFD}\u{FFFD}"
    );
    assert_eq!(value(b"&#;&#x;&#xZ"), "&#;&#x;&#xZ");
    assert_eq!(value(b"a\r\nb\rc\0"), "a\nb\nc\u{FFFD}");
    assert_eq!(value(b"&CounterClockwiseContourIntegral;"), "\u{2233}");
}

/// Inputs that a careless reader takes quadratic time on: each must be
/// read, with the right result (a timed test would be noisy; a quadratic
/// reader makes these take minutes).
#[test]
fn pathological_inputs_are_read() {
    const MIB: usize = 1 << 20;
    let check = |html: &[u8], tags: usize| {
        let log = Log::ours(html, true, false);
        assert_eq!(log.tags.len(), tags);
        log
    };
    // An unclosed value: no tag, and no text after its `<`.
    let log = check(&b"<a href=\"".repeat(MIB / 9), 0);
    assert!(log.text.is_empty());
    // References without end.
    check(&b"&#".repeat(MIB / 2), 0);
    let mut one = b"<a v=\"".to_vec();
    one.extend(b"&#".repeat(MIB / 2));
    one.extend_from_slice(b"\">");
    let log = check(&one, 1);
    assert_eq!(log.tags[0].2[0].1, b"&#".repeat(MIB / 2));
    // One long line of text, and one tag with many attributes.
    let log = check(&b"x".repeat(MIB), 0);
    assert_eq!(log.text, [Span::new(0, MIB)]);
    let mut many = b"<a".to_vec();
    for i in 0..100_000 {
        many.extend_from_slice(format!(" a{i}=1").as_bytes());
    }
    many.extend_from_slice(b" a5=2>");
    let log = check(&many, 1);
    assert_eq!(log.tags[0].2.len(), 100_000);
    // Comments, escaped scripts and end-tag-like text.
    check(&b"<!--".repeat(MIB / 4), 0);
    let mut script = b"<script>".to_vec();
    script.extend(b"<!--<script>-".repeat(MIB / 13));
    check(&script, 1);
    let mut title = b"<title>".to_vec();
    title.extend(b"</titl".repeat(MIB / 6));
    check(&title, 1);
}

/// A self-closing `<svg/>` opens no foreign content: the script after it
/// is still script, whose text holds no tags.
#[test]
fn self_closing_svg_closes_at_once() {
    let log =
        Log::ours(b"<svg/><script><a href=x></script><a href=y>", true, false);
    let names: Vec<&[u8]> = log.tags.iter().map(|t| &t.0[..]).collect();
    assert_eq!(names, [&b"svg"[..], b"script", b"a"]);
    assert_eq!(log.tags[2].2[0].1, b"y");
    // Not so `<svg>`, where `<script>` holds markup.
    let log = Log::ours(b"<svg><script><a href=x></script>", true, false);
    assert_eq!(log.tags.len(), 3);
}

/// A text run is the bytes between two pieces of markup: a `<` that opens
/// none, `</>` and a leading reference are inside it; script text is not
/// reported, style text is, whole.
#[test]
fn text_runs_lie_between_markup() {
    let runs = |html: &[u8]| {
        let log = Log::ours(html, true, false);
        let text: Vec<&[u8]> =
            log.text.iter().map(|s| &html[s.range()]).collect();
        let style: Vec<&[u8]> =
            log.style.iter().map(|s| &html[s.range()]).collect();
        (text.concat(), text.len(), style.concat())
    };
    assert_eq!(runs(b"a < b</>c<p>"), (b"a < b</>c".to_vec(), 1, vec![]));
    assert_eq!(
        runs(b"<p>&amp;x<!-- y -->z"),
        (b"&amp;xz".to_vec(), 2, vec![])
    );
    assert_eq!(
        runs(b"<script>s<p></script><style>a<b{}</style>t"),
        (b"t".to_vec(), 1, b"a<b{}".to_vec())
    );
    // The input ending inside a tag ends the text at its `<`.
    assert_eq!(runs(b"x<a href=y"), (b"x".to_vec(), 1, vec![]));
}
