//! `check`'s report in each of its forms: human lines, JSON Lines, GitHub
//! annotations, or one SARIF log gathered to the end.

use std::io::{self, Write as _};
use std::path::Path;

use uriscan::checking::{Status, Verdict};
use uriscan::links::Link;

use super::findings::{Finding, Findings};
use super::json::{CheckRow, LinkRow};
use super::{Label, github, json, junit, markdown, sarif, text, write_stdout};
use crate::config::CheckForm;

/// The size at which the report's buffer is written out.
const FLUSH_AT: usize = 1 << 16;

/// The report being written: its buffer, and the SARIF results held for
/// the log at the end.
pub struct CheckReport<'c> {
    form: CheckForm,
    color: bool,
    /// The current directory, which JSON's `local` is relative to.
    cwd: &'c Path,
    out: Vec<u8>,
    sarif_results: Vec<serde_json::Value>,
    /// Whether standard output was closed by its reader.
    closed: bool,
    /// The documents and broken links of the Markdown and JUnit forms.
    findings: Findings,
}

impl<'c> CheckReport<'c> {
    pub fn new(
        form: CheckForm,
        color: bool,
        cwd: &'c Path,
    ) -> CheckReport<'c> {
        CheckReport {
            form,
            color,
            cwd,
            out: Vec::with_capacity(FLUSH_AT),
            sarif_results: vec![],
            closed: false,
            findings: Findings::default(),
        }
    }

    /// A document is checked: the forms that list every document (JUnit)
    /// need to know it even when all its links hold.
    pub fn document(&mut self, label: &Path) {
        if matches!(self.form, CheckForm::Markdown | CheckForm::Junit) {
            self.findings.document(label);
        }
    }

    /// The verdict of a link checked offline, at `label` whose root is
    /// `root`. Only broken links are printed, but for JSON without
    /// `--errors-only`.
    /// `mapped` says how a site's rules mapped the link to a local
    /// target, when they did: JSON gives it as `mapped`, the other forms
    /// after the reason.
    pub fn link(
        &mut self,
        label: &Path,
        root: &Path,
        link: &Link,
        v: &Verdict,
        mapped: Option<&str>,
    ) {
        let broken = v.status() == Status::Broken;
        let reason = || {
            let r = v.reason().map(|r| r.to_string());
            match (r, mapped) {
                (Some(r), Some(m)) => Some(format!("{r} ({m})")),
                (r, _) => r,
            }
        };
        let why =
            || text::broken_reason(reason(), v.suggestion(link).as_deref());
        let at = (link.line(), link.column());
        match self.form {
            CheckForm::Json { errors_only } => {
                if errors_only && !broken {
                    return;
                }
                let label = Label::path(label, false);
                let row = CheckRow {
                    link: LinkRow::new(
                        &label,
                        link.as_ref(),
                        Some(root),
                        self.cwd,
                    ),
                    status: v.status().as_str(),
                    reason: v.reason().map(|r| r.to_string()),
                    suggestion: v.suggestion(link),
                    mapped,
                };
                let _ = serde_json::to_writer(&mut self.out, &row);
                self.out.push(b'\n');
            }
            _ if !broken => {}
            CheckForm::Sarif => {
                self.sarif_results
                    .push(sarif::broken_link(label, link, v, mapped));
            }
            CheckForm::Markdown | CheckForm::Junit => {
                let finding = Finding {
                    line: at.0,
                    column: at.1,
                    link: link.link().to_string(),
                    reason: reason().unwrap_or_default(),
                    suggestion: v.suggestion(link).map(|s| s.into_owned()),
                };
                self.findings.add(label, finding);
            }
            CheckForm::Github => {
                let message =
                    format!("broken link '{}': {}", link.link(), why());
                github::annotation(
                    &mut self.out,
                    "error",
                    label,
                    at,
                    &message,
                );
            }
            CheckForm::Human => {
                text::broken_link(
                    &mut self.out,
                    self.color,
                    label,
                    at,
                    link.link(),
                    &why(),
                );
            }
        }
    }

    /// The verdict of a web link: its status and reason, and its URI's
    /// result. A failure is an error, the rest a warning.
    #[cfg(feature = "remote")]
    pub fn remote_link(
        &mut self,
        label: &Path,
        root: &Path,
        link: &Link,
        status: uriscan::checking::remote::RemoteStatus,
        reason: Option<String>,
        result: &uriscan::checking::remote::RemoteResult,
    ) {
        use uriscan::checking::remote::RemoteStatus;
        let failure = status.is_failure();
        if let CheckForm::Json { errors_only } = self.form {
            if errors_only && !failure {
                return;
            }
            let label = Label::path(label, false);
            let row = json::RemoteRow {
                link: LinkRow::new(
                    &label,
                    link.as_ref(),
                    Some(root),
                    self.cwd,
                )
                .mask_passwords(),
                remote: json::RemoteFields::new(status, reason, result),
            };
            let _ = serde_json::to_writer(&mut self.out, &row);
            self.out.push(b'\n');
            return;
        }
        let Some(message) = text::remote_message(
            link.link(),
            status,
            reason.as_deref(),
            result,
        ) else {
            return;
        };
        let level = if failure { "error" } else { "warning" };
        let at = (link.line(), link.column());
        match self.form {
            CheckForm::Sarif => {
                let rule = if status == RemoteStatus::Broken {
                    "broken-link"
                } else {
                    "remote-link"
                };
                let result =
                    sarif::result_at(label, link, rule, level, &message);
                self.sarif_results.push(result);
            }
            CheckForm::Github => {
                github::annotation(&mut self.out, level, label, at, &message);
            }
            // Only failures fail a test case; the rest are warnings.
            CheckForm::Markdown | CheckForm::Junit if !failure => {}
            CheckForm::Markdown | CheckForm::Junit => {
                let finding = Finding {
                    line: at.0,
                    column: at.1,
                    link: super::mask_password(link.link()).into_owned(),
                    reason: reason.unwrap_or(message),
                    suggestion: None,
                };
                self.findings.add(label, finding);
            }
            CheckForm::Human | CheckForm::Json { .. } => {
                text::remote_link(
                    &mut self.out,
                    self.color,
                    label,
                    at,
                    &message,
                );
            }
        }
    }

    /// A document nothing links to.
    pub fn orphan(&mut self, label: &Path) {
        if let CheckForm::Json { .. } = self.form {
            json::orphan_row(&mut self.out, label);
        } else {
            text::orphan(&mut self.out, label);
        }
    }

    /// Writes the forms gathered to the end: the SARIF log, or the
    /// Markdown or JUnit report with `summary`, the run's counts.
    pub fn finish(&mut self, summary: &str) {
        if self.form == CheckForm::Markdown {
            markdown::write(&mut self.out, &self.findings, summary);
        } else if self.form == CheckForm::Junit {
            junit::write(&mut self.out, &self.findings, summary);
        } else if self.form == CheckForm::Sarif {
            let results = std::mem::take(&mut self.sarif_results);
            let _ = serde_json::to_writer_pretty(
                &mut self.out,
                &sarif::log(results),
            );
            self.out.push(b'\n');
        }
    }

    /// Writes the buffer out once it is large; false when standard output
    /// failed.
    pub fn spill(&mut self) -> bool {
        self.out.len() <= FLUSH_AT || self.flush()
    }

    /// Writes the buffer out; false when standard output failed (said,
    /// unless the reader is gone).
    pub fn flush(&mut self) -> bool {
        match write_stdout(&mut self.out) {
            Ok(()) => true,
            Err(reason) => {
                match reason {
                    Some(r) => {
                        let _ = writeln!(
                            io::stderr().lock(),
                            "uriscan: standard output: {r}"
                        );
                    }
                    None => self.closed = true,
                }
                false
            }
        }
    }

    /// Whether a write failed because the reader closed standard output
    /// (`uriscan check . | head`): nothing is wrong, the rest is unwanted.
    pub fn closed(&self) -> bool {
        self.closed
    }
}
