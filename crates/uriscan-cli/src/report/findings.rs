//! The broken links of a run gathered by document, for the forms written
//! whole at the end (Markdown, JUnit), which group them by file.

use std::path::Path;

/// One broken (or failed remote) link.
pub struct Finding {
    pub line: u64,
    pub column: u64,
    /// The link as written.
    pub link: String,
    pub reason: String,
    pub suggestion: Option<String>,
}

/// A checked document and its findings.
pub struct DocFindings {
    /// The path as walked, without a leading `./`.
    pub path: String,
    pub findings: Vec<Finding>,
}

/// Every checked document, in the report's order.
#[derive(Default)]
pub struct Findings {
    pub docs: Vec<DocFindings>,
}

impl Findings {
    /// A document is checked; its findings follow.
    pub fn document(&mut self, label: &Path) {
        let path = display_path(label);
        self.docs.push(DocFindings { path, findings: vec![] });
    }

    /// A finding of the document at `label`: the last one opened, else a
    /// new entry (a remote verdict may come after its document).
    pub fn add(&mut self, label: &Path, finding: Finding) {
        let path = display_path(label);
        match self.docs.iter_mut().rev().find(|d| d.path == path) {
            Some(doc) => doc.findings.push(finding),
            None => {
                self.docs.push(DocFindings { path, findings: vec![finding] })
            }
        }
    }

    /// The number of findings.
    pub fn count(&self) -> usize {
        self.docs.iter().map(|d| d.findings.len()).sum()
    }

    /// The number of documents with a finding.
    pub fn failing_docs(&self) -> usize {
        self.docs.iter().filter(|d| !d.findings.is_empty()).count()
    }
}

/// A walked path for a report: lossy UTF-8, without a leading `./`.
fn display_path(label: &Path) -> String {
    let path = label.strip_prefix("./").unwrap_or(label);
    path.to_string_lossy().into_owned()
}
