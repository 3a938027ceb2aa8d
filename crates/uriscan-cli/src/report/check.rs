//! `check`'s report in each of its forms: human lines, JSON Lines, GitHub
//! annotations, or one SARIF log gathered to the end.

use std::io::{self, Write as _};
use std::path::Path;

use uriscan::checking::{Mapped, Reason, Status, Verdict};
use uriscan::links::{Link, Reference};

use super::findings::{Finding, Findings, Stopped};
use super::json::{CheckRow, LinkRow};
use super::{Label, github, json, junit, markdown, sarif, text, write_stdout};
use crate::config::CheckForm;

/// The lines of the uses of a Markdown definition.
fn uses_of(link: &Link) -> Option<&[u64]> {
    match link.reference() {
        Some(Reference::Definition { uses }) => Some(uses),
        _ => None,
    }
}

/// How a link was mapped to the target it was checked as.
#[derive(Clone, Copy)]
pub enum Mapping<'m> {
    /// By `--remap` or the repository's web view.
    Remap(&'m Mapped),
    /// By the rules of the document's site: how, in words.
    Site(&'m str),
}

/// The size at which the report's buffer is written out.
const FLUSH_AT: usize = 1 << 16;

/// The report being written: its buffer, and the SARIF log's state.
pub struct CheckReport<'c> {
    form: CheckForm,
    color: bool,
    /// The current directory, which JSON's `local` is relative to.
    cwd: &'c Path,
    out: Vec<u8>,
    sarif: sarif::Log,
    /// Whether standard output was closed by its reader.
    closed: bool,
    /// Whether the report stopped before its end (and said why).
    stopped: bool,
    /// The documents and broken links of the Markdown and JUnit forms.
    findings: Findings,
    /// The human report's warnings, written after the broken links.
    warnings: Vec<u8>,
    /// `--deny warnings`: warnings fail the run, and say so.
    deny_warnings: bool,
    /// The page that includes the current document, whose links are
    /// checked as that page renders them.
    via: Option<String>,
}

impl<'c> CheckReport<'c> {
    pub fn new(
        form: CheckForm,
        color: bool,
        cwd: &'c Path,
        deny_warnings: bool,
    ) -> CheckReport<'c> {
        CheckReport {
            form,
            color,
            cwd,
            out: Vec::with_capacity(FLUSH_AT),
            sarif: sarif::Log::default(),
            closed: false,
            stopped: false,
            findings: Findings::new(match form {
                CheckForm::Junit => junit::escape,
                _ => markdown::escape,
            }),
            warnings: vec![],
            deny_warnings,
            via: None,
        }
    }

    /// The links that follow are of a file that the page `page` includes
    /// (as the site renders them there), or of no such file.
    pub fn via(&mut self, page: Option<&Path>) {
        self.via = page.map(|p| Label::path(p, false).lossy().to_string());
    }

    /// A document is checked: the forms that list every document (JUnit)
    /// need to know it even when all its links hold.
    pub fn document(&mut self, label: &Path) {
        if matches!(self.form, CheckForm::Markdown | CheckForm::Junit) {
            self.findings.document(label);
        }
    }

    /// The verdict of a link checked offline, at `label` whose root is
    /// `root`, and its reason. Only broken links and warnings are printed, but for JSON
    /// without `--errors-only`. `mapped` says how the link was mapped to
    /// the target it was checked as, when it was: JSON gives it in its own
    /// fields, the other forms after the reason.
    pub fn link(
        &mut self,
        label: &Path,
        root: &Path,
        link: &Link,
        v: &Verdict,
        verdict_reason: Option<&Reason<'_>>,
        mapped: Option<Mapping<'_>>,
    ) {
        let broken = v.status() == Status::Broken;
        let remapped = match mapped {
            Some(Mapping::Remap(m)) => Some(m),
            _ => None,
        };
        let warning = v.status() == Status::Warning;
        // A mapped link's reason says what it was mapped from, and by what.
        let reason = || {
            let reason = verdict_reason.map(|r| r.to_string());
            match (mapped, link.target()) {
                (Some(Mapping::Remap(m)), Some(from)) => Some(format!(
                    "{} (mapped from '{from}' by {})",
                    reason.unwrap_or_default(),
                    m.by
                )),
                (Some(Mapping::Site(why)), _) => {
                    reason.map(|r| format!("{r} ({why})"))
                }
                _ => reason,
            }
        };
        // An included file's link says which page it was checked on.
        let reason = || match &self.via {
            Some(page) => {
                reason().map(|r| format!("{r} (included by {page})"))
            }
            None => reason(),
        };
        let why = || {
            let why =
                text::broken_reason(reason(), v.suggestion(link).as_deref());
            match uses_of(link) {
                Some(uses) if !uses.is_empty() => {
                    format!("{why} {}", text::used_on(uses))
                }
                _ => why,
            }
        };
        let at = (link.line(), link.column());
        match self.form {
            CheckForm::Json { errors_only } => {
                // A denied warning fails the run as an error does.
                if errors_only && !broken && !(warning && self.deny_warnings) {
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
                    // A site's mapping has a field of its own, `mapped`.
                    reason: if (broken || warning) && remapped.is_some() {
                        reason()
                    } else {
                        verdict_reason.map(|r| r.to_string())
                    },
                    suggestion: v.suggestion(link),
                    uses: uses_of(link),
                    mapped_to: remapped.map(|m| m.target.as_str()),
                    mapped_by: remapped.map(|m| m.by.to_string()),
                    mapped: match mapped {
                        Some(Mapping::Site(why)) => Some(why),
                        _ => None,
                    },
                    via: self.via.as_deref(),
                };
                let _ = serde_json::to_writer(&mut self.out, &row);
                self.out.push(b'\n');
            }
            _ if !broken && !warning => {}
            CheckForm::Sarif => {
                let (rule, level) = self.rule_and_level(warning);
                let message = text::link_message(warning, link.link(), &why());
                let result =
                    sarif::result_at(label, link, rule, level, &message);
                self.sarif.push(&mut self.out, &result);
            }
            CheckForm::Markdown | CheckForm::Junit => {
                let reason = reason();
                let finding = Finding {
                    line: at.0,
                    column: at.1,
                    link: link.link().to_string(),
                    reason: match uses_of(link) {
                        Some(uses) if !uses.is_empty() => format!(
                            "{} {}",
                            reason.unwrap_or_default(),
                            text::used_on(uses)
                        ),
                        _ => reason.unwrap_or_default(),
                    },
                    suggestion: v.suggestion(link).map(|s| s.into_owned()),
                };
                self.keep(label, &finding, warning);
            }
            CheckForm::Github => {
                let message = text::link_message(warning, link.link(), &why());
                let level = self.rule_and_level(warning).1;
                github::annotation(&mut self.out, level, label, at, &message);
            }
            CheckForm::Human if warning => {
                text::link_warning(
                    &mut self.warnings,
                    self.color,
                    label,
                    at,
                    link.link(),
                    &why(),
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

    /// The SARIF rule and the level of a broken link or a warning: a
    /// warning is an error when denied.
    fn rule_and_level(&self, warning: bool) -> (&'static str, &'static str) {
        match (warning, self.deny_warnings) {
            (false, _) => ("broken-link", "error"),
            (true, false) => ("link-warning", "warning"),
            (true, true) => ("link-warning", "error"),
        }
    }

    /// A finding (or a warning) of the Markdown or JUnit form, kept as
    /// the form writes it until the end.
    fn keep(&mut self, label: &Path, f: &Finding, warning: bool) {
        let (form, deny) = (self.form, self.deny_warnings);
        self.findings.add(label, warning, |out, doc| match (form, warning) {
            (CheckForm::Junit, false) => junit::finding(out, doc, f),
            (CheckForm::Junit, true) => junit::warning(out, doc, f, deny),
            (_, false) => markdown::finding(out, f),
            (_, true) => markdown::warning(out, doc, f),
        });
    }

    /// The links are all reported: the human report's warnings follow
    /// its broken links.
    pub fn end_of_links(&mut self) {
        self.out.append(&mut self.warnings);
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
                self.sarif.push(&mut self.out, &result);
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
                self.keep(label, &finding, false);
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
        let closed = &mut self.closed;
        // The kept entries are copied out a piece at a time.
        let mut spill = |out: &mut Vec<u8>| {
            out.len() <= FLUSH_AT || write_out(out, closed)
        };
        let (out, findings) = (&mut self.out, &self.findings);
        let written = match self.form {
            CheckForm::Markdown => {
                markdown::write(out, findings, summary, &mut spill)
            }
            CheckForm::Junit => {
                let deny = self.deny_warnings;
                junit::write(out, findings, summary, deny, &mut spill)
            }
            CheckForm::Sarif => {
                self.sarif.finish(out);
                Ok(())
            }
            _ => Ok(()),
        };
        match written {
            Ok(()) => {}
            Err(Stopped::Output) => self.stopped = true,
            Err(Stopped::Spool(e)) => {
                let _ = writeln!(
                    io::stderr().lock(),
                    "uriscan: the report's temporary file: {}",
                    uriscan::walking::io_message(&e)
                );
                self.stopped = true;
            }
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
        !self.stopped && write_out(&mut self.out, &mut self.closed)
    }

    /// Whether a write failed because the reader closed standard output
    /// (`uriscan check . | head`): nothing is wrong, the rest is unwanted.
    pub fn closed(&self) -> bool {
        self.closed
    }
}

/// Writes `out` to standard output; false when that failed, said unless
/// the reader is gone (then `closed`).
fn write_out(out: &mut Vec<u8>, closed: &mut bool) -> bool {
    match write_stdout(out) {
        Ok(()) => true,
        Err(reason) => {
            match reason {
                Some(r) => {
                    let _ = writeln!(
                        io::stderr().lock(),
                        "uriscan: standard output: {r}"
                    );
                }
                None => *closed = true,
            }
            false
        }
    }
}
