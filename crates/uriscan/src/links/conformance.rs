//! html5lib's tokenizer tests, run on the tag layer (`../shared/conformance`
//! beside the repository): every test that starts in the Data state must
//! give the same start tags, with the same decoded attributes.
//!
//! Both the tokenizer that extraction runs (ours) and html5gum's, through
//! the same layer, must pass.
//!
//! The tests tokenize without a tree builder, so the layer runs here
//! without the state switches that tree construction would make (a
//! `<script>` start tag does not change how the rest is read); everything
//! else is the code that extraction runs.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;

use super::oracle;
use super::tokenizer::{StartTag, TagSink, run};

type Tag = (String, BTreeMap<String, String>);

struct Tags(Vec<Tag>);

impl TagSink for Tags {
    fn start_tag(&mut self, tag: &StartTag) {
        let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let attrs =
            tag.attrs().iter().map(|a| (s(&a.name), s(&a.value))).collect();
        self.0.push((s(&tag.name), attrs));
    }
}

/// The `\uXXXX` escapes of a `doubleEscaped` test, surrogates included.
fn unescape(s: &str) -> String {
    let units: Vec<u16> = {
        let mut v = vec![];
        let b: Vec<char> = s.chars().collect();
        let mut i = 0;
        while i < b.len() {
            if b[i] == '\\' && b.get(i + 1) == Some(&'u') && i + 6 <= b.len() {
                let hex: String = b[i + 2..i + 6].iter().collect();
                if let Ok(u) = u16::from_str_radix(&hex, 16) {
                    v.push(u);
                    i += 6;
                    continue;
                }
            }
            let mut buf = [0; 2];
            v.extend_from_slice(b[i].encode_utf16(&mut buf));
            i += 1;
        }
        v
    };
    String::from_utf16_lossy(&units)
}

pub(crate) fn suite_dir(name: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/conformance")
        .join(name);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("SKIPPED: {} is not beside the repository", dir.display());
        None
    }
}

#[test]
fn html5lib_tokenizer_start_tags() {
    let Some(dir) = suite_dir("html5lib-tokenizer") else { return };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "test"))
        .collect();
    files.sort();
    let (mut run_count, mut failures) = (0, vec![]);
    for file in files {
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap())
                .unwrap();
        let Some(tests) = json["tests"].as_array() else { continue };
        for t in tests {
            let states = t["initialStates"].as_array();
            if states.is_some_and(|s| !s.iter().any(|x| x == "Data state")) {
                continue;
            }
            let double = t["doubleEscaped"].as_bool().unwrap_or(false);
            let esc =
                |s: &str| if double { unescape(s) } else { s.to_owned() };
            let input = esc(t["input"].as_str().unwrap());
            let expected: Vec<Tag> = t["output"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|tok| tok[0] == "StartTag")
                .map(|tok| {
                    let attrs = tok[2]
                        .as_object()
                        .map(|o| {
                            o.iter()
                                .map(|(k, v)| {
                                    (esc(k), esc(v.as_str().unwrap()))
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    (esc(tok[1].as_str().unwrap()), attrs)
                })
                .collect();
            // Ours, and html5gum's through the same layer: both must pass.
            let (mut ours, mut gum) = (Tags(vec![]), Tags(vec![]));
            run(input.as_bytes(), &mut ours, false);
            oracle::run(input.as_bytes(), &mut gum, false);
            run_count += 1;
            for (who, got) in [("ours", ours), ("html5gum", gum)] {
                if got.0 != expected {
                    failures.push(format!(
                        "{who}: {}: {}: {input:?}\n  expected {expected:?}\n  got      {:?}",
                        file.file_name().unwrap().to_string_lossy(),
                        t["description"],
                        got.0
                    ));
                }
            }
        }
    }
    eprintln!(
        "html5lib: {run_count} tests in the Data state, {} failed",
        failures.len()
    );
    assert!(run_count > 6000, "only {run_count} tests ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
