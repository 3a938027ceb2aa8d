//! The reader against myst-parser: each case of `tests/data/myst/` with
//! the links, labels and ids that Sphinx with myst-parser found in it
//! (`scripts/myst-oracle.sh --record` writes the `.expected.json` files),
//! and a few rules checked one by one.

use super::*;
use crate::links::{Format, LinkExtractor, Page};

/// Each link of `src` read as MyST: kind, link, line and column.
fn links(src: &str) -> Vec<(String, String, u64, u64)> {
    rows(&Page::new(src.as_bytes(), Format::Myst).url("file:///d/index.md"))
}

/// Each link of `page`: kind, link, line and column.
fn rows(page: &Page<'_>) -> Vec<(String, String, u64, u64)> {
    LinkExtractor::new()
        .extract(page)
        .map(|l| {
            (l.kind().to_string(), l.link().to_owned(), l.line(), l.column())
        })
        .collect()
}

#[test]
fn roles_follow_a_name_in_braces() {
    let got = links(
        "See {doc}`guide` and {ref}`Intro <intro-label>`, not \\{doc}`x`.\n",
    );
    assert_eq!(
        got,
        [
            ("myst:doc".into(), "guide.md".into(), 1, 11),
            ("myst:ref".into(), "intro-label".into(), 1, 35),
        ]
    );
}

#[test]
fn directives_in_fences_name_files() {
    let src = "```{image} img/a.png\n:alt: A\n:target: https://x.example/\n```\n\n\
               :::{figure} b.png\n:name: fig-b\nThe [caption](c.md).\n:::\n\n\
               ```{toctree}\n:glob:\nintro\nTitle <usage>\nref/*\n```\n";
    let got: Vec<_> =
        links(src).into_iter().map(|l| (l.0, l.1, l.2)).collect();
    assert_eq!(
        got,
        [
            ("myst:image".into(), "img/a.png".into(), 1),
            ("myst:image".into(), "https://x.example/".into(), 3),
            ("myst:figure".into(), "b.png".into(), 6),
            ("md:link".into(), "c.md".into(), 8),
            ("myst:toctree".into(), "intro.md".into(), 13),
            ("myst:toctree".into(), "usage.md".into(), 14),
            ("myst:toctree-glob".into(), "ref/*".into(), 15),
        ]
    );
    let (labels, _) = super::labels(src);
    assert_eq!(labels, ["fig-b"]);
}

#[test]
fn markdown_in_a_backtick_directive_is_read() {
    let src = "````{note}\nSee [a](a.md) and {ref}`x`.\n```{image} i.png\n```\n````\n";
    let got: Vec<_> =
        links(src).into_iter().map(|l| (l.0, l.1, l.2, l.3)).collect();
    assert_eq!(
        got,
        [
            ("md:link".into(), "a.md".into(), 2, 9),
            ("myst:ref".into(), "x".into(), 2, 25),
            ("myst:image".into(), "i.png".into(), 3, 12),
        ]
    );
}

#[test]
fn links_to_labels_and_project_paths() {
    let src = "(intro)=\n# Intro\n\n[a](#intro) [b](#elsewhere) [c](some-label) \
               [d](guide.md) <project:#far> <project:other.md#sec> [e](https://x.example)\n";
    let got: Vec<_> = links(src).into_iter().map(|l| (l.0, l.1)).collect();
    assert_eq!(
        got,
        [
            ("md:link".into(), "#intro".into()),
            ("myst:label-link".into(), "elsewhere".into()),
            ("myst:label-link".into(), "some-label".into()),
            ("md:link".into(), "guide.md".into()),
            ("myst:label-link".into(), "far".into()),
            ("myst:project".into(), "other.md#sec".into()),
            ("md:link".into(), "https://x.example".into()),
        ]
    );
}

#[test]
fn eval_rst_is_read_as_restructured_text() {
    let src = "# T\n\n```{eval-rst}\n.. _rst-label:\n\nSee :ref:`x` and `y <https://x.example/>`_.\n```\n";
    let got: Vec<_> =
        links(src).into_iter().map(|l| (l.0, l.1, l.2, l.3)).collect();
    assert_eq!(
        got,
        [
            ("rst:ref".into(), "x".into(), 6, 11),
            ("rst:link".into(), "https://x.example/".into(), 6, 22),
        ]
    );
    assert_eq!(super::labels(src).0, ["rst-label"]);
}

#[test]
fn comments_and_code_hold_no_links() {
    let src = "% see https://x.example/a\n\n```\n(nolabel)=\n{doc}`x`\n```\n\n\
               :::\nhttps://x.example/b\n:::\n\nhttps://x.example/c\n";
    let got: Vec<_> = links(src).into_iter().map(|l| l.1).collect();
    // Colons around no directive fence Markdown, to MyST.
    assert_eq!(got, ["https://x.example/b", "https://x.example/c"]);
    assert!(super::labels(src).0.is_empty());
}

#[test]
fn anchors_are_labels_and_section_ids() {
    let src = "(My Label)=\n## A *big* Title\n\nText\nSetext\n------\n";
    let ids = anchors(src, MystSettings::lenient());
    assert_eq!(
        ids,
        [
            "my label",
            "my-label",
            "a-big-title",
            "text-setext",
            "a-big-title",
            "text-setext"
        ]
    );
}

#[test]
fn malformed_input_never_panics() {
    for src in [
        "```{",
        ":::{x}\n:a",
        "{doc}`",
        "(",
        ")=",
        "```{image}\n---\nx: y",
        "````{note}\n```{note}\n",
        "{a}``",
        "é```{é}é\n:é: é\n",
    ] {
        let _ = links(src);
        let _ = anchors(src, MystSettings::lenient());
    }
}

/// Each link of `src` read as MyST with `settings`: kind and link.
fn links_with(src: &str, settings: &MystSettings) -> Vec<(String, String)> {
    let page = Page::new(src.as_bytes(), Format::Myst)
        .url("file:///d/index.md")
        .myst(settings);
    LinkExtractor::new()
        .extract(&page)
        .map(|l| (l.kind().to_string(), l.link().to_owned()))
        .collect()
}

#[test]
fn colons_fence_a_directive_only_with_colon_fence() {
    let src = ":::{figure} fig.png\n:name: fig-label\nA [caption](https://x.example/c)\n:::\n";
    let on = MystSettings { colon_fence: true, ..Default::default() };
    assert_eq!(
        links_with(src, &on),
        [
            ("myst:figure".into(), "fig.png".into()),
            ("md:link".into(), "https://x.example/c".into()),
        ]
    );
    assert_eq!(super::labels(src).0, ["fig-label"]);
    // Without it the fence is a paragraph: its link stays, no figure.
    assert_eq!(
        links_with(src, &MystSettings::default()),
        [("md:link".into(), "https://x.example/c".into())]
    );
}

#[test]
fn a_scheme_that_is_no_urls_is_a_project_reference() {
    let src = "[a](https://x.example/) [b](gh:user/repo) [c](ftp://x.example/f) <gh:auto>\n";
    let settings = MystSettings {
        url_schemes: Some(vec!["https".into(), "gh".into()]),
        ..Default::default()
    };
    assert_eq!(
        links_with(src, &settings),
        [
            ("md:link".into(), "https://x.example/".into()),
            ("md:link".into(), "gh:user/repo".into()),
            ("myst:label-link".into(), "ftp://x.example/f".into()),
            // An autolink is a URL whatever its scheme.
            ("md:autolink".into(), "gh:auto".into()),
        ]
    );
    // Given no settings, every scheme is a URL's.
    let lenient: Vec<_> = links(src).into_iter().map(|l| l.0).collect();
    assert_eq!(lenient, ["md:link", "md:link", "md:link", "md:autolink"]);
}

#[test]
fn heading_anchors_slug_headings_up_to_their_level() {
    let src = "# Intro\n\n## Set up: *fast*\n\n### Deep Down\n\n## Intro\n\n# Intro\n\n\
               [a](#intro-1) [b](#deep-down)\n";
    let two = MystSettings { heading_anchors: 2, ..Default::default() };
    let ids = anchors(src, &two);
    assert!(ids.contains(&"set-up-fast".to_owned()), "{ids:?}");
    assert!(ids.contains(&"intro-2".to_owned()), "{ids:?}");
    assert!(!ids.contains(&"intro-3".to_owned()), "{ids:?}");
    // Both are the document's: `#deep-down` is the section's id
    // (docutils'), slug or not.
    assert_eq!(
        links_with(src, &two),
        [
            ("md:link".into(), "#intro-1".into()),
            ("md:link".into(), "#deep-down".into()),
        ]
    );
    // With no slugs, `#intro-1` is none of the document's ids: MyST
    // resolves it as a label.
    let none = anchors(src, &MystSettings::default());
    assert!(!none.contains(&"intro-1".to_owned()), "{none:?}");
    assert_eq!(
        links_with(src, &MystSettings::default()),
        [
            ("myst:label-link".into(), "intro-1".into()),
            ("md:link".into(), "#deep-down".into()),
        ]
    );
}

#[test]
fn includes_with_relative_links_are_listed() {
    let src = "```{include} ../README.md\n:relative-images:\n:relative-docs: docs/\n```\n\n\
               ```{include} plain.md\n```\n";
    assert_eq!(
        relative_includes(src),
        [RelativeInclude {
            path: "../README.md".into(),
            images: true,
            docs: Some("docs/".into()),
        }]
    );
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect()
        })
        .unwrap_or_default()
}

/// The oracle's case directories: the second with the extensions its
/// `_conf.py` enables.
const CASE_DIRS: [&str; 2] = ["tests/data/myst", "tests/data/myst-extensions"];

#[test]
fn cases_agree_with_myst_parser() {
    let mut seen = 0;
    let mut failures = vec![];
    let dirs = CASE_DIRS
        .map(|d| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(d));
    let entries = dirs.iter().flat_map(|dir| {
        let conf =
            std::fs::read_to_string(dir.join("_conf.py")).unwrap_or_default();
        let files = std::fs::read_dir(dir).unwrap();
        files.map(move |e| (e.unwrap(), conf.clone()))
    });
    for (entry, conf) in entries {
        let path = entry.path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".md") || name.starts_with('_') {
            continue;
        }
        let src = std::fs::read_to_string(&path).unwrap();
        let expected: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(path.with_extension("expected.json"))
                .unwrap(),
        )
        .unwrap();
        let (links, labels, ids) = super::hooks::facts(&src, &conf);
        // What the oracle cannot see: what an include brings in, and the
        // patterns of a toctree glob; a figure's image is an image.
        let mut links: Vec<String> = links
            .into_iter()
            .filter(|l| {
                !l.starts_with("include:")
                    && !l.starts_with("literalinclude:")
                    && !l.starts_with("toctree-glob:")
            })
            .map(|l| match l.strip_prefix("figure:") {
                Some(rest) => format!("image:{rest}"),
                None => l,
            })
            .collect();
        links.sort();
        if links != strings(&expected["links"]) {
            failures.push(format!(
                "links of {name}: {links:?} != {}",
                expected["links"]
            ));
        }
        if labels != strings(&expected["labels"]) {
            failures.push(format!(
                "labels of {name}: {labels:?} != {}",
                expected["labels"]
            ));
        }
        // Every id of the doctree is one a link may name (ours also has
        // the labels' names, which MyST resolves too).
        let missing: Vec<String> = strings(&expected["ids"])
            .into_iter()
            .filter(|i| !ids.contains(i))
            .collect();
        if !missing.is_empty() {
            failures.push(format!("ids of {name}: missing {missing:?}"));
        }
        seen += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(seen >= 7, "only {seen} cases");
}

#[test]
fn every_cut_of_the_cases_reads() {
    for path in case_files() {
        let bytes = std::fs::read(&path).unwrap();
        for cut in (0..bytes.len()).step_by(3) {
            // A prefix, and the document with one byte gone.
            let mut gone = bytes.clone();
            gone.remove(cut);
            for doc in [&bytes[..cut], &gone[..]] {
                let page =
                    Page::new(doc, Format::Myst).url("file:///d/index.md");
                for l in LinkExtractor::new().extract(&page) {
                    let line = doc[..l.span().start]
                        .iter()
                        .filter(|&&b| b == b'\n')
                        .count();
                    assert!(l.span().end <= doc.len());
                    assert_eq!(
                        l.line(),
                        line as u64 + 1,
                        "{path:?} cut at {cut}"
                    );
                }
                let doc = String::from_utf8_lossy(doc);
                let _ = super::hooks::facts(&doc, EVERY_EXTENSION);
            }
        }
    }
}

/// A `conf.py` that enables every extension the reader knows.
const EVERY_EXTENSION: &str = "myst_enable_extensions = ['colon_fence', \
    'linkify', 'substitution', 'attrs_inline', 'html_image']\n\
    myst_substitutions = {'a': '[x](https://x.example/) {{ a }}', 'b': 'www.x.org'}\n";

/// Each link of `src` read as MyST with the extensions of `conf_py` on:
/// kind, link, line and column.
fn links_with_conf(
    src: &str,
    conf_py: &str,
) -> Vec<(String, String, u64, u64)> {
    let settings = MystSettings::from_conf_py(conf_py);
    let page = Page::new(src.as_bytes(), Format::Myst)
        .url("file:///d/index.md")
        .myst(&settings);
    rows(&page)
}

#[test]
fn a_target_inside_an_html_block_is_none() {
    let src = "(before)=\n<div>\n(inside)=\n```{image} no.png\n```\n</div>\n\n(after)=\nText.\n";
    assert_eq!(super::labels(src).0, ["before", "after"]);
    assert!(links(src).is_empty(), "{:?}", links(src));
    // A line that starts with inline HTML is text: a line indented four
    // columns after it goes on with it.
    let inline = "<b>x</b> text\n    (goes-on)=\n\n(target)=\n";
    assert_eq!(super::labels(inline).0, ["target"]);
}

#[test]
fn linkify_makes_links_of_hosts_and_addresses_in_text() {
    let src = "See www.example.org, https://x.example/a and me@example.org.\n\
               Not `www.code.org` nor [www.text.org](https://x.example/b).\n\n\
               ```{note}\nInside example.com/a.\n```\n";
    let conf = "myst_enable_extensions = ['linkify']\n";
    assert_eq!(
        links_with_conf(src, conf),
        [
            ("text".into(), "http://www.example.org".into(), 1, 5),
            ("text".into(), "https://x.example/a".into(), 1, 22),
            ("text".into(), "mailto:me@example.org".into(), 1, 46),
            ("md:link".into(), "https://x.example/b".into(), 2, 39),
            ("text".into(), "http://example.com/a".into(), 5, 8),
        ]
    );
    // With `myst_linkify_fuzzy_links = False`, addresses only.
    let strict = "myst_enable_extensions = ['linkify']\nmyst_linkify_fuzzy_links = False\n";
    let got: Vec<_> =
        links_with_conf(src, strict).into_iter().map(|l| l.1).collect();
    assert_eq!(
        got,
        [
            "https://x.example/a",
            "mailto:me@example.org",
            "https://x.example/b"
        ]
    );
    // Without the extension, only the URI with a scheme.
    let got: Vec<_> =
        links_with_conf(src, "").into_iter().map(|l| l.1).collect();
    assert_eq!(got, ["https://x.example/a", "https://x.example/b"]);
}

#[test]
fn substitutions_are_read_where_they_stand() {
    let conf = "myst_enable_extensions = ['substitution']\n\
                myst_substitutions = {'logo': '![logo](img/logo.png)', \
                'site': '[site](https://x.example/) and {{ logo }}', 'n': N}\n";
    let src = "# T\n\nA {{ site }} and {{n}} and {{ n | upper }}.\n\n\
               `{{ site }}` and [b]({{ site }}/x) [c]({{site}}/y)\n";
    assert_eq!(
        links_with_conf(src, conf),
        [
            // The value's links, at the reference; its own reference too.
            ("md:link".into(), "https://x.example/".into(), 3, 3),
            ("md:image".into(), "img/logo.png".into(), 3, 3),
            // No literal value: a template, listed.
            ("myst:substitution".into(), "{{n}}".into(), 3, 18),
            ("myst:substitution".into(), "{{ n | upper }}".into(), 3, 28),
            // Not in code; and with blanks, the destination is no link:
            // the reference stands in text.
            ("md:link".into(), "https://x.example/".into(), 5, 22),
            ("md:image".into(), "img/logo.png".into(), 5, 22),
            // A destination is never substituted.
            ("md:link".into(), "{{site}}/y".into(), 5, 40),
        ]
    );
    // Without the extension, `{{ ... }}` is text.
    let plain =
        links_with_conf(src, "myst_substitutions = {'site': '[s](x.md)'}\n");
    assert_eq!(plain, [("md:link".into(), "{{site}}/y".into(), 5, 40)]);
}

#[test]
fn inline_attributes_give_ids_and_labels() {
    let src = "# T\n\nA `code`{#code-id} ![i](i.png){#img-id} [l](https://x.example/){#link-id}\n\
               [span]{#Span-ID} *em*{#no-id} `x` {#no-either}\n\n[to](#code-id) [to](#link-id)\n";
    let (labels, _) = super::labels(src);
    assert_eq!(labels, ["code-id", "img-id", "span-id"]);
    let on = MystSettings { attrs_inline: true, ..Default::default() };
    let ids = anchors(src, &on);
    for id in ["code-id", "img-id", "link-id", "span-id"] {
        assert!(ids.contains(&id.to_owned()), "{id} {ids:?}");
    }
    assert!(!ids.iter().any(|i| i.contains("no-")), "{ids:?}");
    // The ids are the document's: links to them stay Markdown links.
    let kinds: Vec<_> =
        links_with(src, &on).into_iter().map(|l| l.0).collect();
    assert_eq!(kinds, ["md:image", "md:link", "md:link", "md:link"]);
}

#[test]
fn html_image_makes_images_of_lone_img_tags() {
    let src = "<img src=\"a.png\" alt=\"A\">\n\nText <img src='b.png'> here.\n\n\
               <div>\n<img src=\"c.png\">\n</div>\n";
    let conf = "myst_enable_extensions = ['html_image']\n";
    let kinds: Vec<_> =
        links_with_conf(src, conf).into_iter().map(|l| (l.0, l.1)).collect();
    assert_eq!(
        kinds,
        [
            ("myst:image".into(), "a.png".into()),
            ("myst:image".into(), "b.png".into()),
            ("md:html".into(), "c.png".into()),
        ]
    );
    let off: Vec<_> =
        links_with_conf(src, "").into_iter().map(|l| l.0).collect();
    assert!(off.iter().all(|k| k.starts_with("md:html")), "{off:?}");
}

#[test]
fn extension_settings_are_read_from_conf_py() {
    let conf = "myst_enable_extensions = ['linkify', 'substitution', 'attrs_inline', 'html_image']\n\
                myst_linkify_fuzzy_links = False\n\
                myst_substitutions = {\n    'a': 'x',  # note\n    \"b\": \"y\\\"z\",\n    'c': C,\n    'd': 'p' 'q',\n}\n";
    let s = MystSettings::from_conf_py(conf);
    assert!(s.linkify && s.substitution && s.attrs_inline && s.html_image);
    assert!(!s.linkify_fuzzy_links);
    assert_eq!(
        s.substitutions,
        [
            ("a".to_owned(), "x".to_owned()),
            ("b".to_owned(), "y\"z".to_owned())
        ]
    );
    assert_eq!(
        MystSettings::unread_in_conf_py(conf),
        ["myst_substitutions: not a literal, its string literals used"]
    );
    let lenient = MystSettings::lenient();
    assert!(lenient.attrs_inline && !lenient.linkify && !lenient.html_image);
}

#[test]
fn both_markdown_readers_give_the_same_myst_links() {
    use crate::links::MarkdownParser;
    let pulldown = LinkExtractor::builder()
        .markdown_parser(MarkdownParser::Pulldown)
        .build();
    for path in case_files() {
        let src = std::fs::read(&path).unwrap();
        let page = Page::new(&src, Format::Myst).url("file:///d/index.md");
        let each = |e: &LinkExtractor| -> Vec<(String, String, u64)> {
            e.extract(&page)
                .map(|l| (l.kind().to_string(), l.link().to_owned(), l.line()))
                .collect()
        };
        assert_eq!(each(&LinkExtractor::new()), each(&pulldown), "{path:?}");
    }
}

/// The `.md` files of the case directories.
fn case_files() -> Vec<std::path::PathBuf> {
    let dirs = CASE_DIRS
        .map(|d| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(d));
    let entries = dirs.iter().flat_map(|d| std::fs::read_dir(d).unwrap());
    let paths = entries.map(|e| e.unwrap().path());
    paths.filter(|p| p.extension().is_some_and(|e| e == "md")).collect()
}
