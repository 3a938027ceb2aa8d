//! `check --format sarif`: one SARIF 2.1.0 log of the broken (and
//! remote) links, for code-scanning dashboards.

use std::path::Path;

use uriscan::checking::Verdict;
use uriscan::links::Link;

use super::text::broken_reason;

/// One SARIF result: a broken link, at its line and bytes.
pub fn broken_link(
    label: &Path,
    link: &Link,
    v: &Verdict,
    mapped: Option<&str>,
) -> serde_json::Value {
    let reason = v.reason().map(|r| match mapped {
        Some(m) => format!("{r} ({m})"),
        None => r.to_string(),
    });
    let why = broken_reason(reason, v.suggestion(link).as_deref());
    let text = format!("broken link '{}': {why}", link.link());
    result_at(label, link, "broken-link", "error", &text)
}

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
    serde_json::json!({
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
    })
}
