//! The MyST reader on any bytes (lossy UTF-8): it never panics, and its
//! facts (links, labels, ids) come out for any input
//! (`uriscan::internals::links::myst_facts`); every link lies in the
//! document, on the line its position says; with no settings and with
//! every extension on. Seeds: the per-rule cases,
//! `crates/uriscan/tests/data/myst` and `myst-extensions`.

#![no_main]

use libfuzzer_sys::fuzz_target;

/// A `conf.py` with every extension the reader knows, and substitutions
/// whose values link (one names itself).
const CONF: &str = "myst_enable_extensions = ['colon_fence', 'linkify', \
    'substitution', 'attrs_inline', 'html_image']\n\
    myst_substitutions = {'a': '[x](https://x.example/) {{ a }}', 'b': 'www.x.org'}\n";

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = uriscan::internals::links::myst_facts(&text, "");
    let _ = uriscan::internals::links::myst_facts(&text, CONF);
    let every = uriscan::links::MystSettings::from_conf_py(CONF);
    let page = uriscan::links::Page::new(data, uriscan::links::Format::Myst)
        .url("file:///docs/index.md");
    for page in [page, page.myst(&every)] {
        for link in uriscan::links::LinkExtractor::new().extract(&page) {
            let span = link.span();
            assert!(span.start <= span.end && span.end <= data.len());
            let line =
                data[..span.start].iter().filter(|&&b| b == b'\n').count();
            assert_eq!(link.line(), line as u64 + 1);
        }
    }
});
