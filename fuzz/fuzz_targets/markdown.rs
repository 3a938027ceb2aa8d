//! Our own Markdown reader against pulldown-cmark on arbitrary bytes (read
//! as UTF-8, bad bytes as U+FFFD, as extraction reads them): the first
//! byte picks the GitHub extensions, the rest is the document. Where ours
//! does not decline it, both give the same links and the same regions
//! (text runs, code, HTML), byte for byte
//! (`uriscan::internals::links::markdown_differential`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&knob, doc)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(doc);
    if let Err(diff) =
        uriscan::internals::links::markdown_differential(&text, knob & 1 == 0)
    {
        panic!("{diff}");
    }
});
