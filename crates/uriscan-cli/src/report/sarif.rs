//! `check --format sarif`: one SARIF 2.1.0 log of the broken (and
//! remote) links, for code-scanning dashboards.

use std::path::Path;

use uriscan::links::Link;

/// A SARIF result of `rule` at `link`.
pub fn result_at(
    label: &Path,
    link: &Link,
    rule: &str,
    level: &str,
    text: &str,
) -> serde_json::Value {
    let uri = label.to_string_lossy();
    serde_json::json!({
        "ruleId": rule,
        "level": level,
        "message": { "text": text },
        "locations": [{
            "physicalLocation": {
                "artifactLocation": { "uri": uri.strip_prefix("./").unwrap_or(&uri) },
                // SARIF columns count characters; a byte offset says
                // exactly where the link is.
                "region": {
                    "startLine": link.line(),
                    "byteOffset": link.span().start,
                    "byteLength": link.span().len(),
                }
            }
        }]
    })
}

/// The SARIF 2.1.0 log of one run, written as its results come: only
/// the rules, which follow the results, wait for the end, so a run of
/// millions of broken links holds none of them.
#[derive(Default)]
pub struct Log {
    results: usize,
    /// Whether some result is a warning, whose rule is then listed.
    warned: bool,
}

/// How deep a result sits in the log: its lines are indented so.
const RESULT_INDENT: &[u8] = b"        ";

impl Log {
    /// Appends `result` to the log in `out`, opening it at the first.
    pub fn push(&mut self, out: &mut Vec<u8>, result: &serde_json::Value) {
        if self.results == 0 {
            out.extend_from_slice(opening().as_bytes());
        } else {
            out.push(b',');
        }
        self.results += 1;
        self.warned |= result["ruleId"] == "link-warning";
        let text = serde_json::to_string_pretty(result).unwrap_or_default();
        for line in text.split('\n') {
            out.push(b'\n');
            out.extend_from_slice(RESULT_INDENT);
            out.extend_from_slice(line.as_bytes());
        }
    }

    /// Closes the log in `out`: the results, then the rules.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        let whole = whole(self.warned);
        let (head, tail) = split_at_results(&whole);
        if self.results == 0 {
            out.extend_from_slice(head.as_bytes());
            out.extend_from_slice(b"[]");
        } else {
            out.extend_from_slice(b"\n");
            out.extend_from_slice(&RESULT_INDENT[2..]);
            out.push(b']');
        }
        out.extend_from_slice(tail.as_bytes());
        out.push(b'\n');
    }
}

/// The log up to its results' opening `[`.
fn opening() -> String {
    let whole = whole(false);
    let (head, _) = split_at_results(&whole);
    format!("{head}[")
}

/// The text of `whole` before and after its empty results array.
fn split_at_results(whole: &str) -> (&str, &str) {
    const EMPTY: &str = "\"results\": []";
    let at = whole.find(EMPTY).map_or(whole.len(), |i| i + EMPTY.len() - 2);
    (&whole[..at], whole.get(at + 2..).unwrap_or(""))
}

/// The whole log with no result, pretty-printed as the results' pieces
/// are, with the warnings' rule when `warned`.
fn whole(warned: bool) -> String {
    let mut rules = vec![
        serde_json::json!({
            "id": "broken-link",
            "shortDescription": { "text": "A link whose target or anchor does not exist" }
        }),
        serde_json::json!({
            "id": "remote-link",
            "shortDescription": { "text": "A web link that redirects, is rate limited, or did not answer" }
        }),
    ];
    if warned {
        rules.push(serde_json::json!({
            "id": "link-warning",
            "shortDescription": { "text": "A Markdown definition that no link uses, or that an earlier one overrides" }
        }));
    }
    let log = serde_json::json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "uriscan",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rules,
                }
            },
            "results": [],
        }]
    });
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A result of `rule` as `result_at` shapes one.
    fn result(rule: &str, line: u64) -> serde_json::Value {
        serde_json::json!({
            "ruleId": rule,
            "level": "error",
            "message": { "text": "a \"quoted\"\nmessage" },
            "locations": [{ "physicalLocation": { "region": { "startLine": line } } }]
        })
    }

    /// The log streamed is the log written whole by serde_json, byte for
    /// byte, with the warnings' rule only where a result is a warning.
    #[test]
    fn the_streamed_log_is_the_whole_log_pretty_printed() {
        for rules in [
            &[][..],
            &["broken-link"],
            &["broken-link", "link-warning", "remote-link"],
        ] {
            let results: Vec<_> =
                rules.iter().zip(1..).map(|(r, n)| result(r, n)).collect();
            let mut streamed = vec![];
            let mut log = Log::default();
            for r in &results {
                log.push(&mut streamed, r);
            }
            log.finish(&mut streamed);

            let warned = rules.contains(&"link-warning");
            let mut expected: serde_json::Value =
                serde_json::from_str(&whole(warned)).unwrap();
            expected["runs"][0]["results"] = serde_json::Value::Array(results);
            let expected =
                serde_json::to_string_pretty(&expected).unwrap() + "\n";
            assert_eq!(
                String::from_utf8(streamed).unwrap(),
                expected,
                "{rules:?}"
            );
            assert_eq!(
                expected.contains("\"link-warning\",\n"),
                warned,
                "the warnings' rule is listed only with a warning"
            );
        }
    }
}
