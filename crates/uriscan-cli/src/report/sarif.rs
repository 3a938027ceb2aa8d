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

/// The SARIF 2.1.0 log of one run.
pub fn log(results: Vec<serde_json::Value>) -> serde_json::Value {
    let mut log = serde_json::json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "uriscan",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": [{
                        "id": "broken-link",
                        "shortDescription": { "text": "A link whose target or anchor does not exist" }
                    }, {
                        "id": "remote-link",
                        "shortDescription": { "text": "A web link that redirects, is rate limited, or did not answer" }
                    }]
                }
            },
            "results": results
        }]
    });
    // The warnings' rule is listed when some result is one.
    if results_use(&log, "link-warning")
        && let Some(rules) = log.pointer_mut("/runs/0/tool/driver/rules")
        && let Some(rules) = rules.as_array_mut()
    {
        rules.push(serde_json::json!({
            "id": "link-warning",
            "shortDescription": { "text": "A Markdown definition that no link uses, or that an earlier one overrides" }
        }));
    }
    log
}

/// Whether a result of `log` is of `rule`.
fn results_use(log: &serde_json::Value, rule: &str) -> bool {
    log.pointer("/runs/0/results")
        .and_then(|r| r.as_array())
        .is_some_and(|r| r.iter().any(|r| r["ruleId"] == rule))
}
