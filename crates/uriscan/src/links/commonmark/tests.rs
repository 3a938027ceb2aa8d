//! Our reader held to pulldown-cmark, byte for byte: the same links and
//! the same regions (text runs, code, HTML), or a decline.

use super::super::hooks::markdown_differential as compare;

/// The examples of the CommonMark specification, each compared.
#[test]
fn the_commonmark_examples_read_as_pulldown_reads_them() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/conformance/commonmark/spec.json");
    let Ok(json) = std::fs::read_to_string(&path) else {
        eprintln!("SKIPPED: {} is not beside the repository", path.display());
        return;
    };
    let examples: Vec<serde_json::Value> =
        serde_json::from_str(&json).unwrap();
    let mut failures = vec![];
    let mut read = 0;
    for gfm in [false, true] {
        for ex in &examples {
            let md = ex["markdown"].as_str().unwrap();
            match compare(md, gfm) {
                Ok(true) => read += 1,
                Ok(false) => {}
                Err(e) => {
                    failures.push(format!("example {}: {e}", ex["example"]))
                }
            }
        }
    }
    eprintln!("read {read} of {} (the rest declined)", 2 * examples.len());
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `../shared/corpus/markdown.md` cut at blank lines into pieces of about
/// `size` bytes.
pub(crate) fn corpus_pieces(
    size: usize,
) -> Option<(String, Vec<std::ops::Range<usize>>)> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/markdown.md");
    let bytes = std::fs::read(&path).ok()?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let mut pieces = vec![];
    let mut start = 0;
    while start < text.len() {
        let cut = (start + size).min(text.len());
        let end = memchr::memmem::find(&text.as_bytes()[cut..], b"\n\n")
            .map_or(text.len(), |k| cut + k + 2);
        pieces.push(start..end);
        start = end;
    }
    Some((text, pieces))
}

/// [`corpus_pieces`] of 4 KB, or `None` (the test's skip said) when the
/// corpus is not beside the repository.
fn corpus_in_4k_pieces() -> Option<(String, Vec<std::ops::Range<usize>>)> {
    let pieces = corpus_pieces(4096);
    if pieces.is_none() {
        eprintln!(
            "SKIPPED: ../shared/corpus/markdown.md is not beside the repository"
        );
    }
    pieces
}

/// The corpus in pieces, each compared; the share read by ours.
#[test]
fn the_corpus_in_pieces_reads_as_pulldown_reads_it() {
    let Some((text, pieces)) = corpus_in_4k_pieces() else { return };
    // The whole corpus is one document: whether ours reads it.
    match super::read(&text, true, &mut vec![]) {
        Ok(_) => eprintln!("the whole corpus: read"),
        Err(why) => eprintln!("the whole corpus: declined at {why:?}"),
    }
    let mut failures = vec![];
    let (mut read, mut total) = (0, 0);
    let mut declines = std::collections::BTreeMap::new();
    for piece in pieces {
        let md = &text[piece.clone()];
        total += md.len();
        match compare(md, true) {
            Ok(true) => read += md.len(),
            Ok(false) => {
                let why = super::read(md, true, &mut vec![]).unwrap_err();
                let file = why.file.rsplit('/').next().unwrap_or(why.file);
                *declines.entry((file, why.line)).or_insert(0) += md.len();
            }
            Err(e) => failures.push(format!("bytes {piece:?}: {e}")),
        }
    }
    eprintln!("declined bytes by the reader's line: {declines:?}");
    eprintln!(
        "read {read} of {total} bytes ({:.1}%), the rest declined",
        100.0 * read as f64 / total as f64
    );
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The corpus as one document, compared: ours reads it whole.
#[test]
fn the_whole_corpus_reads_as_pulldown_reads_it() {
    let Some((text, _)) = corpus_in_4k_pieces() else { return };
    assert_eq!(compare(&text, true), Ok(true));
}

/// The corpus in pieces with `\r\n` line ends, each compared: ours reads
/// them as it reads the `\n` pieces.
#[test]
fn the_corpus_with_crlf_line_ends_reads_as_pulldown_reads_it() {
    let Some((text, pieces)) = corpus_in_4k_pieces() else { return };
    let mut failures = vec![];
    let (mut read, mut read_lf) = (0, 0);
    for piece in pieces {
        let lf = &text[piece.clone()];
        if lf.contains('\r') {
            continue;
        }
        let crlf = lf.replace('\n', "\r\n");
        match compare(&crlf, true) {
            Ok(true) => read += 1,
            Ok(false) => {}
            Err(e) => failures.push(format!("bytes {piece:?}: {e}")),
        }
        read_lf += usize::from(compare(lf, true) == Ok(true));
    }
    assert_eq!(read, read_lf, "a piece read with \\n is read with \\r\\n");
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The pieces Markdown-like input is made of: what opens, closes or
/// nests, container markers, indentation and line ends.
#[rustfmt::skip]
const PIECES: &[&str] = &[
    "-", "1.", "-\n", "2)\n", "[", "]", "(", ")", "{#a}", "{", "}", "`", "``", "<", ">", "*", "_", "**", "__", "~", "!",
    "\\", "&amp;", "&", "&#x26;", "&#0;", "&auml;", " ", "  ", "\t", "\n", "\n\n", "\r\n", "\r", "- ", "* ", "+ ",
    "1. ", "2) ", "> ", "    ", "   ", "#", "# ", "|", "---", "===", "```",
    "~~~", " ```", "  ~~~", "a", "b c", "é", "http://x.y/z", "<a href=x>", "</a>", "<div>", "  <div>", " <!--",
    "<!--", "-->", "<?", "?>", ":", "\"", "'", "x@y.z", "<http://a>", "[ ] ", "[ ]",
    "+++", "[a]: /u", "[a]", "[A][]", "[b]: <x y> 't'", "][a]", "[c]: /v w", "[^1]", "[^1]: ", "[^x]:", "[d]: <v>'t' x", "[e]: /w '",
    "| a | b |\n", "|---|---|\n", "-|-", ":-", " | ", "\\|", "a|b\n--|--\n",
];

/// The pieces of table-like input: pipes, delimiter rows and what ends
/// a table or is read in its cells.
#[rustfmt::skip]
const TABLE_PIECES: &[&str] = &[
    "|", "|", " | ", "a", "b c", "-", "--", ":", "\n", "\n", "\r\n", "`", "[",
    "](", ")", "<", ">", "\\", "*", "> ", "- ", "1. ", "# ", "    ", "\t",
    "[a]: /u\n", "http://x.y", "[a]", "<http://a>", "<div>", "<!--", "```",
    "~~", "&amp;", "|---|---|\n", "| x | y |\n", "---|\n", "  ", "[ ] ",
    "> ", "\n> ", "\n- ", "\n  ", "\n   ", "-\n",
];

/// The pieces of definition-like input: labels, destinations and titles
/// and the line ends, containers and blocks between and around them.
#[rustfmt::skip]
const DEFINITION_PIECES: &[&str] = &[
    "[a]:", "[b]:", "[a]", "[b]", "\n", "\n", "\n", "\n\n", " ", "  ", "    ", "\t",
    "/u", "/v(w)", "(", ")", "<x y>", "<", ">", "\\", "\\)", "&amp;", "\"", "'",
    "\"t\"", "'t'", "(t)", "t", "> ", "- ", "1. ", "2. ", "===", "---", "# ",
    "```", "<div>", "|", "|---|\n", "[^1]:", "x", "é",
];

/// The pieces of emphasis-like input: runs of `~`, `*` and `_` beside
/// words, spaces, punctuation and the brackets of links.
#[rustfmt::skip]
const EMPHASIS_PIECES: &[&str] = &[
    "~", "~~", "~~~", "~", "~~", "*", "**", "_", "__", "a", "b c", " ", "\n",
    ".", "(", ")", "[", "](/u)", "]", "[a]: /u\n", "`", "\\", "\\~", "<http://x>",
    "|", "\n|-|\n", "> ", "é", "。", "\u{a0}", "€", "—", "\u{3000}", "😀",
];

fn emphasis_like() -> impl proptest::strategy::Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(EMPHASIS_PIECES), 0..30)
        .prop_map(|p| p.concat())
}

fn definition_like() -> impl proptest::strategy::Strategy<Value = String> {
    proptest::collection::vec(
        proptest::sample::select(DEFINITION_PIECES),
        0..30,
    )
    .prop_map(|p| p.concat())
}

/// Table-like input, for the differential tests.
pub(crate) fn table_like() -> impl proptest::strategy::Strategy<Value = String>
{
    proptest::collection::vec(proptest::sample::select(TABLE_PIECES), 0..40)
        .prop_map(|p| p.concat())
}

/// Markdown-like input, for the differential tests.
pub(crate) fn markdown_like()
-> impl proptest::strategy::Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(PIECES), 0..40)
        .prop_map(|p| p.concat())
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn markdown_like_input_reads_as_pulldown_reads_it(
        md in markdown_like(),
        gfm in any::<bool>(),
    ) {
        if let Err(e) = compare(&md, gfm) {
            return Err(TestCaseError::fail(e));
        }
    }

    #[test]
    fn definition_like_input_reads_as_pulldown_reads_it(
        md in definition_like(),
        gfm in any::<bool>(),
    ) {
        if let Err(e) = compare(&md, gfm) {
            return Err(TestCaseError::fail(e));
        }
    }

    #[test]
    fn emphasis_like_input_reads_as_pulldown_reads_it(md in emphasis_like()) {
        if let Err(e) = compare(&md, true) {
            return Err(TestCaseError::fail(e));
        }
    }

    #[test]
    fn table_like_input_reads_as_pulldown_reads_it(md in table_like()) {
        if let Err(e) = compare(&md, true) {
            return Err(TestCaseError::fail(e));
        }
    }

    #[test]
    fn arbitrary_input_reads_as_pulldown_reads_it(
        bytes in proptest::collection::vec(any::<u8>(), 0..200),
        gfm in any::<bool>(),
    ) {
        let md = String::from_utf8_lossy(&bytes);
        if let Err(e) = compare(&md, gfm) {
            return Err(TestCaseError::fail(e));
        }
    }
}

/// `md` compared, read both without and with the GitHub extensions.
fn compare_both_ways(md: &str) {
    for gfm in [false, true] {
        compare(md, gfm).unwrap_or_else(|e| panic!("{md:?}: {e}"));
    }
}

/// Empty list items, and what follows them, each compared; the first
/// ones read by ours, not declined.
#[test]
fn empty_list_items_read_as_pulldown_reads_them() {
    for md in ["-\n", "1.\n", "- \n  foo", "-\n\n  foo", "-\n\n\n  [a](b)\n"] {
        for gfm in [false, true] {
            assert_eq!(compare(md, gfm), Ok(true), "{md:?}");
        }
    }
    for md in [
        "-\n",
        "1.\n",
        "- \n  foo",
        "-\n\n  foo",
        "-\n  foo\n",
        "-\nfoo\n",
        "-   \n  foo\n",
        "-\n      code [a](b)\n",
        "-\n\n      code [a](b)\n",
        "-\n\n\n  foo [a](b)\n",
        "1)\n   foo\n\n   bar\n",
        "10.\n    foo [a](b)\n",
        "- a\n-\n- b\n",
        "- a\n-\n\n  b\n",
        "-\n  - \n    x\n",
        "- -\n\n   x\n",
        "> -\n>\n>   foo\n",
        "> -\n\n  foo\n",
        "-\n  > q\n  lazy\n",
        "-\n\n  > q\nlazy\n",
        "-\n  ```\n  a\n  ```\n",
        "-\n\n  ```\n  a\n```\n",
        "-\t\n  foo\n",
        "- \t\n\tfoo\n",
        "-\n  [a]: /u\n[a]\n",
        "-\n\n  [a]: /u\n  [a]\n",
        "a\n-\nb\n",
        "a\n1.\nb\n",
        "-\n  <div>\n  x\n\n  y\n",
        "-\n\n  <div>\n  x\n",
        "- [ ]\n  x\n",
        "- [ ]\n\n  x\n",
        "- [x]",
        "- [\t] x [a](b)\n",
        "[^1]:\n-\n\n    x\n",
    ] {
        compare_both_ways(md);
    }
}

/// A task list marker alone on its line, which begins an item as an
/// empty one does, and what follows it, each compared; the first ones
/// read by ours.
#[test]
fn a_task_marker_alone_reads_as_pulldown_reads_it() {
    let read = [
        "- [ ]\n  [a](b)\n",
        "- [x]\n\n  foo [a](b)\n",
        "- [ ]\nfoo [a](b)\n",
        "-   [X]  \n    foo\n",
    ];
    for md in read {
        assert_eq!(compare(md, true), Ok(true), "{md:?}");
    }
    for md in read.into_iter().chain([
        "- [ ]\n\n\n  foo\n",
        "- a\n- [ ]\n- b\n",
        "a\n- [ ]\nb\n",
        "> - [ ]\n>   x\n",
        "- [ ]\n      code\n",
        "- [ ]\t\n  x\n",
        "1. [ ]\n   x\n",
        "- [ ]",
    ]) {
        compare_both_ways(md);
    }
}

/// Definitions alone over a setext underline, which is then read as a
/// block of its own, each compared.
#[test]
fn definitions_over_an_underline_read_as_pulldown_reads_them() {
    for md in [
        "[a]: /u\n===\n[a]\n",
        "[a]: /u\n---\n[a]\n",
        "[a]: /u\n--\n[a]\n",
        "[a]: /u\n-\n[a]\n",
        "[a]: /u\n  ==  \n[a]\n---\n",
        "[a]: /u\n[b]: /v\n===\n[a] [b]\n\n",
        "> [a]: /u\n> ===\n> [a]\n",
        "- [a]: /u\n  ---\n  [a]\n",
        "[a]: /u\n===\n| x |\n|---|\n",
        "[a]: /u\n'title'\n===\n[a]\n",
        "[a]: /u\n---\nname: x\n---\n[a]\n",
        "[a]: /u\n+++\nname\n+++\n",
    ] {
        compare_both_ways(md);
    }
    assert_eq!(compare("[a]: /u\n===\n[a]\n", true), Ok(true));
}

/// Definitions across lines: the destination on the label's next line,
/// the title on the destination's next line or across lines, and what
/// ends them there; each compared, and read by ours.
#[test]
fn definitions_across_lines_read_as_pulldown_reads_them() {
    for md in [
        "[a]:\n  http://x\n\n[a]\n",
        "[a]:\n<x y>\n[a]\n",
        "[a]:\n/u \"t\"\n[a]\n",
        "[a]:\n/u\n\"t\"\n[a]\n",
        "[a]: /u\n't'\n[a]\n",
        "[a]: /u\n't' x\n[a]\n",
        "[a]: /u 't\nu'\n[a]\n",
        "[a]: /u 't\n\nu'\n[a]\n",
        "[a]: /u\n't\nu' x\n[a]\n",
        "[a]: /u (t\nu) x\n[a]\n",
        "[a]:\n/u\n[b]:\n/v\n[a] [b]\n",
        "[a]:\n\n/u\n[a]\n",
        "[a]:\n# h\n[a]\n",
        "[a]:\n===\n[a]\n",
        "> [a]:\n> /u\n> 't'\n\n[a]\n",
        "- [a]:\n  /u\n  [a]\n",
        "[a]: /v(w)\n[b]: /x\\)y\n[c]: /(((z\n[a] [b] [c]\n",
        "[a]: <x\\>y>\n[a]\n",
        "[a]: /u \"t\"\"\n[a]\n",
    ] {
        compare_both_ways(md);
    }
    for md in ["[a]:\n  http://x\n\n[a]\n", "[a]: /u\n'a\nb'\n[a]\n"] {
        assert_eq!(compare(md, true), Ok(true), "{md:?}");
    }
}

/// Tables in block quotes, list items and footnote definitions, each
/// compared; the first ones read by ours.
#[test]
fn tables_in_containers_read_as_pulldown_reads_them() {
    let read = [
        "- x\n\n  | a | b |\n  |---|---|\n  | [c](d) | e |\n\n- y\n",
        "> a | b\n> --|--\n> [c](d) | e\n",
        "1. | a |\n   |---|\n   | <http://x> |\n",
    ];
    for md in read {
        assert_eq!(compare(md, true), Ok(true), "{md:?}");
    }
    for md in read.into_iter().chain([
        "- | a |\n  |---|\n| b |\n",
        "- | a |\n  |---|\n  - b\n",
        "- | a |\n |---|\n",
        "- [ ] a | b\n  --|--\n  c | d\n",
        "> | a |\n|---|\n",
        "> | a |\n> |---|\n> > b\n",
        "[^1]: | a |\n    |---|\n    | [b](c) |\n",
        "- a\n  | b |\n  |---|\n",
        "> a\n> | b |\n> |---|\n",
    ]) {
        compare_both_ways(md);
    }
}

/// Strikethrough, which ends text runs where it opens and closes, each
/// compared, and read by ours.
#[test]
fn strikethrough_reads_as_pulldown_reads_it() {
    for md in [
        "~~a [b](c) d~~ e\n",
        "a~~b~~c ~d~ e~ ~f\n",
        "~~a~ b~~ [c](d)\n",
        "~a~~ b~ ~~c~~~d~~~\n",
        "*a ~~b* c~~ http://x\n",
        "\\~~a~~ \\~~~b~\n",
        "[a ~~b](c)~~ d\n",
        "| ~~a | b~~ |\n|---|---|\n| ~c~ | ~~[d](e)~~ |\n",
        "> ~~a\n> b~~\n",
        "~~.a~~. .~a.~\n",
    ] {
        assert_eq!(compare(md, true), Ok(true), "{md:?}");
        compare(md, false).unwrap();
    }
}

/// References whose labels cross a block quote's lines, whose markers
/// are no part of the label, each compared, and read by ours.
#[test]
fn labels_across_quoted_lines_read_as_pulldown_reads_them() {
    for md in [
        "> [a\n> b] [c\n>d][] [x][a\n> b]\n\n[a b]: /u\n[c d]: /v\n",
        "> - [a\n>   b]\n\n[a b]: /u\n",
        "> [a\nb] lazy\n\n[a b]: /u\n",
        "> > [a\n> b]\n\n[a b]: /u\n",
        "> [a\n>    b]\n\n[a b]: /u\n",
    ] {
        assert_eq!(compare(md, true), Ok(true), "{md:?}");
        compare(md, false).unwrap();
    }
    compare_both_ways("> [x][a\n> > b]\n\n[a b]: /u\n");
}

/// Long labels, as pulldown-cmark counts them (bytes outside ASCII,
/// escapes and runs of whitespace), each compared, and read by ours.
#[test]
fn long_labels_read_as_pulldown_reads_them() {
    let ascii = "a".repeat(1200);
    let wide = "é".repeat(499);
    let wider = "é".repeat(500);
    let spaced = "a  ".repeat(333);
    let escaped = "\\.".repeat(500);
    for label in [&ascii, &wide, &wider, &spaced, &escaped] {
        let md = format!(
            "[{label}] [x][{label}] [{label}][]\n> [x][{label}\n> b]\n\n\
             [x]: /x\n[{label}]: /u\n"
        );
        assert_eq!(compare(&md, true), Ok(true), "{label:?}");
        compare(&md, false).unwrap();
    }
}

/// Every character past ASCII beside emphasis (and strikethrough): as a
/// run's next character, and as its previous, where a letter, a space
/// and punctuation each flank differently; all compared in one document.
#[test]
fn emphasis_beside_every_character_reads_as_pulldown_reads_it() {
    let mut md = String::new();
    for c in (0x80..0x2_0000).filter_map(char::from_u32) {
        for probe in ["a*C b*", ".*a C*.", "a_C b_", "._a C_.", "a~~C b~~"] {
            md.push_str(&probe.replace('C', c.encode_utf8(&mut [0; 4])));
            md.push_str("\n\n");
        }
    }
    assert_eq!(compare(&md, true), Ok(true));
}

/// Definitions whose titles hold escapes or parentheses, each compared.
#[test]
fn titles_with_escapes_read_as_pulldown_reads_them() {
    for md in [
        "[a]: /u \"x \\\" (y) \\\\\"\n[a]\n",
        "[a]: /u 'x \\' y' z\n[a]\n",
        "[a]: /u 'x\\\ny'\n[a]\n",
        "[a]: /u (x \\) (y)\n[a]\n",
        "[a]: /u (x \\( y)\n[a]\n",
        "[a]: /u \"\\\"\n[a]\n",
        "[a]: /u \"x\\\n[a]\n",
        "[a]: /u \"\\é\" [a]\n",
    ] {
        compare_both_ways(md);
    }
    assert_eq!(compare("[a]: /u \"(\\\")\"\n[a]\n", true), Ok(true));
}

/// What the property tests found, each compared (both ways of reading).
#[test]
fn the_findings_read_as_pulldown_reads_them() {
    for md in [
        "_\n# [\t ",
        "\u{b}",
        "```\n ",
        "```\n\t",
        "```\n        ",
        ">[[\n    #",
        "# ```[```\t",
        "* [a](b):\nAdd `c`\n",
        "* [a](b)\n---\ntitle: x\n---\n",
        "- <!--\n ",
        "]\n- [ ] [a]: /u",
        "[a]: /u\n[a][ ] ",
        "[foo][]\n\n[foo]: /url \"title\"\n",
        "    [\r\n",
        "```\n```\t",
        "> <a\n> ||:",
        "> [](\n> )",
        "[a]: /u|---|---|\n[a][^1]]",
        "- http://x.y\n|[a]: /u\n    - ---|\n|",
        "|[](\\\r\n)",
        "*a|b\n--|--\n[^1]: ",
        "a[^1] b [^2]\n\n[^1]: x [y](z)\n    more\nlazy\n\n    code?\n[^x-2]:\n    > q\n[a [^1] b](c)\n",
        "[^A]: one\n[^a]: two\n[^a]\n- [^A]: in list\n",
        "  <div>\n<a href=x>\n\n   <!-- a -->\n- x\n\n   <div>\n",
        "[a]: /u bar\n[b]: /v\n\n[c]: <w>x\n\n[d]: /x 'y' z\n\n[a] [b] [c] [d]\n",
        "[a]: /u\nText [a]\n===\n\n[b]: /v\n---\n\n[c]: /w\n==\n",
        "> [a]: /u\nlazy [a]\n\n> [b]: /v\n> text\nlazy [b]\n",
        "# [a](b) {#id .c}\n## x ## {#y}  \n# {#z}\n# a {b\\}\n#\t<x> {a}\n",
        "[a](/&amp;b&#x26;c&#38;d&#0;e&#1114112;f&nosuch;g&#xFFFFFFF;&AMP &auml;)",
        "[a]: /&quot;x\\&amp;\n\n[a]\n",
        "[a]: /u\n[a]\\[a]",
        "  ```\n   a\n b\nc\n\n  ```\n",
        "- x\n   ~~~\n    [a](b)\n  c\n",
        "[a]: /u\n)a|b\n--|--\n",
        "|[a]: /u\n|\\\n---|\n",
        "```\r\na\r\n\r\nb\r\n```\r\n",
        "a\\\r\nb  \r\n[c](\r\n/d)\r\n",
        "*\n   <!--> \n  |",
        "[x][a\\]] [x][a\\b] [x][a\\\\] [x][\\\\]] [x][a\\\n\n[a\\]]: /u\n[a\\b]: /v\n",
        "[a\\]]: /u\n[a\\b]: /v\n[a\\[]: /w\n[a\\\\]: /x\n\n[a\\]] [a\\b] [a\\\\]\n",
        "- a\n   <!-- -->\n  b\n- c\n",
        "* a\n    <!-- b -->\n* [c](d)\n  <!-- e -->\n  > f\n",
        "a {#x [l](u)}\\\n===\n",
        "{#id}\\\n===\n",
        "a# [^1]\\[a]# \n[^1]: note\n",
        "</u\n    >",
        "- [ ] ](\n  -\n",
        "- [x] [a](b)\n  ===\n",
        "> [](a\n> )",
        "> [](>\n> )",
        "</u \t>\n</u\n>\n> </u\n> >\n",
    ] {
        for gfm in [false, true] {
            compare(md, gfm).unwrap();
        }
    }
}
