//! What the criterion benches share: finding the shared corpus, taking
//! real URIs from it, and reading criterion's results back.

// Each bench is its own crate and uses only part of this module.
#![allow(dead_code)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The corpus directory: `$URISCAN_CORPUS`, else `shared/corpus` beside
/// the repository (as in CI), else two levels up (a worktree under
/// `wt/`).
pub fn corpus_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("URISCAN_CORPUS") {
        return Some(PathBuf::from(dir));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    ["../../../shared/corpus", "../../../../shared/corpus"]
        .iter()
        .map(|rel| root.join(rel))
        .find(|dir| dir.is_dir())
}

/// The corpus files that exist, by name.
pub fn inputs() -> Vec<(String, Vec<u8>)> {
    let dir = corpus_dir();
    let mut out = Vec::new();
    for name in ["prose.txt", "markdown.md", "html.html"] {
        let found =
            dir.as_ref().and_then(|d| std::fs::read(d.join(name)).ok());
        match found {
            Some(bytes) => out.push((name.to_string(), bytes)),
            None => eprintln!("skipping {name}: not found"),
        }
    }
    out.push(("uri-dense".to_string(), uri_dense(8 << 20)));
    out
}

/// linkify as both extraction benches run it: URLs only (no e-mail
/// addresses), its defaults otherwise, so that their ratios are taken
/// against the same work.
pub fn linkify_urls() -> linkify::LinkFinder {
    let mut f = linkify::LinkFinder::new();
    f.kinds(&[linkify::LinkKind::Url]);
    f
}

/// About `len` bytes of text where most words are URIs, in the forms the
/// finder delimits: bare, punctuated, bracketed, quoted, angled.
pub fn uri_dense(len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 256);
    let mut i = 0u64;
    while out.len() < len {
        let line = format!(
            "see http://a{i}.example/p/{i}?q={i}, and <https://b.example/x/{i}> \
             (http://en.wikipedia.org/wiki/Foo_({i})). \"ftp://f.example/{i}\" \
             mailto:u{i}@m.example\n"
        );
        out.extend_from_slice(line.as_bytes());
        i += 1;
    }
    out
}

/// The `http(s)://` tokens of the corpus files, in order of first
/// appearance.
pub fn corpus_uris(max: usize) -> Vec<String> {
    let Some(dir) = corpus_dir() else { return Vec::new() };
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for name in ["prose.txt", "markdown.md", "html.html"] {
        let Ok(text) = std::fs::read(dir.join(name)) else { continue };
        let text = String::from_utf8_lossy(&text);
        let tokens = text.split(|c: char| {
            c.is_whitespace() || "\"'<>()[]{}|\\^`".contains(c)
        });
        for token in tokens {
            let Some(at) = token.find("http") else { continue };
            let uri = token[at..].trim_end_matches(['.', ',', ';', ':', '!']);
            let real =
                uri.starts_with("http://") || uri.starts_with("https://");
            if real && uri.len() > 10 && seen.insert(uri.to_owned()) {
                out.push(uri.to_owned());
                if out.len() == max {
                    return out;
                }
            }
        }
    }
    out
}

/// Where criterion wrote its estimates (its own search order, without
/// asking cargo).
pub fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        PathBuf::from,
    );
    target.join("criterion")
}

/// The median time of one iteration of bench `id` in `group`, in ns, from
/// criterion's `estimates.json`.
pub fn median_ns(group: &str, id: &str) -> Option<f64> {
    let path = criterion_dir().join(group).join(id).join("new/estimates.json");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    json["median"]["point_estimate"].as_f64()
}

/// Prints time per input, MB/s and the speedup over `reference` for the
/// benches `ids` of `group`, from criterion's medians.
pub fn summary(group: &str, items: &[String], ids: &[&str], reference: &str) {
    let Some(base) = median_ns(group, reference) else { return };
    let n = items.len() as f64;
    let bytes = items.iter().map(String::len).sum::<usize>() as f64;
    println!("\n{group}: {n} inputs, {:.1} bytes on average", bytes / n);
    println!("{:<32} {:>9} {:>9} {:>9}", "", "ns/input", "MB/s", "speedup");
    for id in ids {
        if let Some(t) = median_ns(group, id) {
            println!(
                "{:<32} {:>9.1} {:>9.0} {:>8.2}x",
                id,
                t / n,
                bytes / t * 1e3,
                base / t
            );
        }
    }
}
