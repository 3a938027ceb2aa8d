//! Plain relative links resolved by concatenation, against the full
//! resolver: the input is a base and a link, split at the first newline
//! (lossy UTF-8). Wherever the shortcut takes the link, its target must
//! be the full resolver's (`uriscan::internals::links::shortcut_differential`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (base, link) =
        text.split_once('\n').unwrap_or(("https://h/a/b", &text));
    uriscan::internals::links::shortcut_differential(base, link);
});
