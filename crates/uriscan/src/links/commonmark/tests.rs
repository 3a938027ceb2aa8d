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
