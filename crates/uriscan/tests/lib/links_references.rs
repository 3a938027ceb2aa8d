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
