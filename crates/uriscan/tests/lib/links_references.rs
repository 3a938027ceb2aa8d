//! Markdown's link references: which definition each reference link
//! uses, the lines of each definition's uses, and the duplicate
//! definitions that CommonMark drops (the parser keeps the first).

use uriscan::links::{Format, Kind, Link, LinkExtractor, Page, Reference};

fn links(md: &str) -> Vec<Link> {
    let page = Page::new(md.as_bytes(), Format::Markdown);
    LinkExtractor::new().extract(&page).collect()
}

/// The definitions of `md`: (line, link, how it takes part).
fn definitions(md: &str) -> Vec<(u64, String, Reference)> {
    links(md)
        .into_iter()
        .filter(|l| l.kind() == Kind::MdDefinition)
        .map(|l| {
            (l.line(), l.link().to_string(), l.reference().unwrap().clone())
        })
        .collect()
}

fn used(lines: &[u64]) -> Reference {
    Reference::Definition { uses: lines.into() }
}

#[test]
fn each_use_names_its_definition_and_each_definition_its_uses() {
    let md = "[a][x] and ![b][Y]\n\n[c]\n\n[x]: a.md\n[  y  ]: b.png\n[c]: c.md\n[z]: z.md\n";
    let all = links(md);
    let uses: Vec<_> = all
        .iter()
        .filter_map(|l| match l.reference() {
            Some(Reference::Use { definition_line }) => {
                Some((l.line(), *definition_line))
            }
            _ => None,
        })
        .collect();
    assert_eq!(uses, [(1, 5), (1, 6), (3, 7)]);
    assert_eq!(
        definitions(md),
        [
            (5, "a.md".into(), used(&[1])),
            (6, "b.png".into(), used(&[1])),
            (7, "c.md".into(), used(&[3])),
            (8, "z.md".into(), used(&[])),
        ]
    );
    // An inline link takes part in no reference.
    assert_eq!(links("[a](b.md)")[0].reference(), None);
}

#[test]
fn labels_match_as_the_parser_folds_them() {
    // Case folding beyond ASCII, and whitespace runs as one space.
    let md =
        "[STRASSE Ä] [two  words]\n\n[straße ä]: a.md\n[Two\n words]: b.md\n";
    let defs = definitions(md);
    assert_eq!(defs[0].2, used(&[1]), "{defs:?}");
    assert_eq!(defs[1].2, used(&[1]), "{defs:?}");
}

#[test]
fn duplicates_are_found_wherever_a_definition_may_stand() {
    let md = "\
[x]

[x]: first.md
[X]: second.md

> [x]: quoted.md

- [x]: listed.md

```
[x]: code.md
```

    [x]: indented.md

Text [x]: prose.md

[^x]: a footnote

[y]: <with space.md>
[ Y ]: <y2.md> \"title\"
";
    let defs = definitions(md);
    assert_eq!(
        defs,
        [
            (3, "first.md".into(), used(&[1, 16])),
            (4, "second.md".into(), Reference::Duplicate { first_line: 3 }),
            (6, "quoted.md".into(), Reference::Duplicate { first_line: 3 }),
            (8, "listed.md".into(), Reference::Duplicate { first_line: 3 }),
            (20, "with space.md".into(), used(&[])),
            (21, "y2.md".into(), Reference::Duplicate { first_line: 20 }),
        ]
    );
}

#[test]
fn a_document_without_definitions_has_no_duplicates() {
    assert!(definitions("Text [x]: y\n\n[x]\n").is_empty());
    assert!(definitions("").is_empty());
}

/// The lines a generated document is made of; `L` is a label, `D` a
/// destination.
const LINES: &[&str] = &[
    "[L]: D",
    "> [L]: D",
    "- [L]: D",
    "1. [L]: D",
    "  [L]: D",
    "    [L]: D",
    "[L]:\n  D",
    "[L]: D \"title\"",
    "```",
    "text",
    "Text [L]: D",
    "",
    "> text",
    "- item",
    "[^L]: a footnote",
    "[L]",
    "| a | b |\n| - | - |",
    "<div>",
    "</div>",
    "# [L]: D",
    "***",
];

/// The document of `picks`, each definition's label `x` (`same`) or
/// `x` and its number, and its destination `/d` and its number.
fn generated(picks: &[usize], same: bool) -> String {
    let mut out = String::new();
    for (i, &p) in picks.iter().enumerate() {
        let label = if same { "x".to_string() } else { format!("x{i}") };
        let line =
            LINES[p].replace('L', &label).replace('D', &format!("/d{i}"));
        out.push_str(&line);
        out.push('\n');
    }
    out
}

proptest::proptest! {
    /// With every label made unique, which changes no block, the parser
    /// itself says where the definitions stand: the first of them is the
    /// one kept, the others are the duplicates.
    #[test]
    fn duplicates_are_the_parsers_definitions_after_the_first(
        picks in proptest::collection::vec(0..LINES.len(), 0..14),
    ) {
        let unique = generated(&picks, false);
        let opts = pulldown_cmark::Options::ENABLE_TABLES
            | pulldown_cmark::Options::ENABLE_STRIKETHROUGH
            | pulldown_cmark::Options::ENABLE_FOOTNOTES
            | pulldown_cmark::Options::ENABLE_TASKLISTS
            | pulldown_cmark::Options::ENABLE_HEADING_ATTRIBUTES
            | pulldown_cmark::Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
            | pulldown_cmark::Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS;
        let parser = pulldown_cmark::Parser::new_ext(&unique, opts);
        let mut all: Vec<(usize, String)> = parser
            .reference_definitions()
            .iter()
            .map(|(_, d)| (d.span.start, d.dest.to_string()))
            .collect();
        all.sort();
        let want: Vec<String> = all.into_iter().map(|(_, d)| d).collect();
        let same = generated(&picks, true);
        let defs = definitions(&same);
        let got: Vec<String> = defs.iter().map(|d| d.1.clone()).collect();
        proptest::prop_assert_eq!(&got, &want, "{}", same);
        for (k, d) in defs.iter().enumerate() {
            let duplicate = matches!(d.2, Reference::Duplicate { .. });
            proptest::prop_assert_eq!(duplicate, k > 0, "{}", same);
        }
    }
}
