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
    /// Its warnings (unused and duplicate definitions), which fail
    /// nothing unless denied.
    pub warnings: Vec<Finding>,
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
        self.docs.push(DocFindings {
            path,
            findings: vec![],
            warnings: vec![],
        });
    }

    /// A finding of the document at `label`: the last one opened, else a
    /// new entry (a remote verdict may come after its document).
    pub fn add(&mut self, label: &Path, finding: Finding) {
        self.doc(label).findings.push(finding);
    }

    /// A warning of the document at `label`.
    pub fn warn(&mut self, label: &Path, finding: Finding) {
        self.doc(label).warnings.push(finding);
    }

    /// The entry of the document at `label`: the last one opened, else a
    /// new one.
    fn doc(&mut self, label: &Path) -> &mut DocFindings {
        let path = display_path(label);
        match self.docs.iter().rposition(|d| d.path == path) {
            Some(i) => &mut self.docs[i],
            None => {
                self.document(label);
                self.docs.last_mut().expect("just pushed")
            }
        }
    }

    /// The number of warnings.
    pub fn warning_count(&self) -> usize {
        self.docs.iter().map(|d| d.warnings.len()).sum()
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
