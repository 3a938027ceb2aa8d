//! The report stage of `check`: every verdict in path order, in the
//! report's form, the orphans, and the summary on standard error.

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use uriscan::checking::{Status, Verdict};

use super::plan::Plan;
use super::read::{ReadDocs, Reread};
use super::remote::RemoteStage;
use crate::config::{CheckConfig, CheckForm, KeepLinks};
use crate::report::check::{CheckReport, Mapping};

/// How far the report was written.
pub enum Written {
    /// Whole; whether some link is broken (or a warning is denied).
    All { broken: bool },
    /// Cut short by its reader closing standard output: a quiet end.
    Closed,
    /// Cut short by a failure of standard output, told.
    Failed,
}

/// Writes the report. A run fails on a broken link, and on a warning
/// under `--deny warnings`.
pub fn report(
    cfg: &CheckConfig,
    plan: &Plan,
    docs: &ReadDocs,
    verdicts: &[Vec<Verdict>],
    remote: &mut RemoteStage,
) -> anyhow::Result<Written> {
    let mut report = CheckReport::new(
        cfg.form,
        cfg.color,
        &cfg.sources.cwd,
        cfg.deny_warnings,
    );
    let broken = write_all(cfg, plan, docs, verdicts, remote, &mut report)?;
    Ok(match broken {
        Some(broken) => Written::All { broken },
        None if report.closed() => Written::Closed,
        None => Written::Failed,
    })
}

/// [`report`] into `report`: whether some link is broken, or `None`
/// when standard output failed.
fn write_all(
    cfg: &CheckConfig,
    plan: &Plan,
    docs: &ReadDocs,
    verdicts: &[Vec<Verdict>],
    remote: &mut RemoteStage,
    report: &mut CheckReport<'_>,
) -> anyhow::Result<Option<bool>> {
    let mut counts = Counts {
        included_only: plan.included_only.load(Ordering::Relaxed) as u64,
        ..Counts::default()
    };
    let mut reread = Reread::new(cfg);
    for (di, (label, doc)) in
        docs.labels.iter().zip(&docs.checked.documents).enumerate()
    {
        counts.files += 1;
        report.document(label);
        let via = docs.kept[di].via();
        report.via(via.map(|v| v.label.as_path()));
        let site = match via {
            Some(v) => super::site::site_of(&plan.sites, &v.page),
            None => super::site::site_of(&plan.sites, doc.path()),
        };
        for (li, v) in verdicts[di].iter().enumerate() {
            if remote.report_link(report, docs, di, li) {
                continue;
            }
            if v.status() == Status::Broken
                && let Some(scope) = &cfg.changed
                && !scope.is_changed(doc.path())
                && !reread.link(&docs.kept[di], di, li, label).is_some_and(
                    |l| scope.reaches_touched(doc.path(), doc.root(), l),
                )
            {
                // Broken before the change: not this change's to report.
                counts.links += 1;
                continue;
            }
            counts.add(v.is_local(), v);
            let printed =
                matches!(v.status(), Status::Broken | Status::Warning);
            if !printed && cfg.keep != KeepLinks::All {
                continue;
            }
            let Some(link) = reread.link(&docs.kept[di], di, li, label) else {
                plan.errors.say(format_args!(
                    "{}: changed while it was checked; run again",
                    label.display()
                ));
                continue;
            };
            let remapped =
                super::read::remap_target(&cfg.remap, link.as_ref());
            let site_note = match (&remapped, via, site.as_deref()) {
                (Some(_), _, _) => None,
                (None, Some(v), Some(s)) => {
                    super::included::mapping(s, v, link)
                }
                (None, _, site) => {
                    super::site::mapping(site, doc.path(), link.as_ref())
                }
            };
            let mapped = match (&remapped, &site_note) {
                (Some(m), _) => Some(Mapping::Remap(m)),
                (None, Some(why)) => Some(Mapping::Site(why)),
                (None, None) => None,
            };
            report.link(label, doc.root(), link, v, mapped);
            if !report.spill() {
                return Ok(None);
            }
        }
    }
    report.end_of_links();
    if cfg.orphans {
        let never =
            |p: &std::path::Path| super::site::never_orphan(&plan.sites, p);
        for label in orphans(docs, &cfg.entries, never) {
            report.orphan(label);
        }
    }
    report.finish(&summary_line(cfg, &counts, remote));
    if !report.flush()
        || !remote.stream_json(report, docs, plan.progress.as_ref())?
    {
        return Ok(None);
    }
    if let Some(bar) = &plan.progress {
        bar.finish_and_clear();
    }
    if cfg.form == CheckForm::Human {
        if let Some(sites) =
            super::site::summary(&plan.sites, &cfg.sources.cwd)
        {
            let _ = writeln!(io::stderr().lock(), "{sites}");
        }
        for line in sphinx_notes(plan) {
            let _ = writeln!(io::stderr().lock(), "{line}");
        }
        let _ = writeln!(
            io::stderr().lock(),
            "{} in {:.2} s",
            summary_line(cfg, &counts, remote),
            cfg.started.elapsed().as_secs_f64()
        );
    }
    Ok(Some(counts.broken > 0 || cfg.deny_warnings && counts.warnings > 0))
}

/// For each Sphinx `conf.py` the walk met that sets a setting the check
/// reads otherwise than by a simple assignment, a line that says which,
/// and what was used instead.
fn sphinx_notes(plan: &Plan) -> Vec<String> {
    let mut confs =
        plan.sphinx_confs.lock().map(|c| c.clone()).unwrap_or_default();
    confs.sort();
    confs
        .iter()
        .filter_map(|conf| {
            let notes = conf
                .parent()
                .map(uriscan::checking::sphinx_conf_notes)
                .unwrap_or_default();
            (!notes.is_empty()).then(|| {
                format!("sphinx: {}: {}", conf.display(), notes.join("; "))
            })
        })
        .collect()
}

/// The summary's counts, without the time: on standard error for the
/// human report, inside the Markdown and JUnit ones.
fn summary_line(
    cfg: &CheckConfig,
    counts: &Counts,
    remote: &RemoteStage,
) -> String {
    let mut line =
        cfg.changed.as_ref().map(|scope| scope.summary()).unwrap_or_default();
    let included_only = match counts.included_only {
        0 => String::new(),
        n => format!(" ({n} checked only where included)"),
    };
    line += &format!(
        "{}{included_only}, {}: {} local checked, {} broken, ",
        counted(counts.files, "file"),
        counted(counts.links + remote.checked(), "link"),
        counts.local,
        counts.broken,
    );
    if let Some(words) = remote.summary() {
        line.push_str(&words);
    }
    if counts.skipped > 0 {
        line.push_str(&format!("{} skipped (remote), ", counts.skipped));
    }
    for (why, n) in &counts.skipped_for {
        line.push_str(&format!("{n} skipped ({why}), "));
    }
    if counts.warnings > 0 {
        line.push_str(&format!("{}, ", counted(counts.warnings, "warning")));
    }
    line.push_str(&format!("{} excluded", counts.excluded));
    line
}

/// `n` and the noun, plural but for one: `1 file`, `2 files`.
pub fn counted(n: u64, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// The offline check's tallies for the summary.
#[derive(Default)]
struct Counts {
    files: u64,
    links: u64,
    local: u64,
    broken: u64,
    skipped: u64,
    excluded: u64,
    warnings: u64,
    /// Files checked only where other documents include them.
    included_only: u64,
    /// Skipped for a reason of their own (a template, a role not
    /// resolved offline), not as web links: how many for each reason.
    skipped_for: std::collections::BTreeMap<String, u64>,
}

impl Counts {
    fn add(&mut self, local: bool, v: &Verdict) {
        self.links += 1;
        match v.status() {
            Status::Broken => self.broken += 1,
            Status::Skipped => match v.reason() {
                Some(why) => {
                    *self.skipped_for.entry(why.to_string()).or_default() += 1;
                }
                None => self.skipped += 1,
            },
            Status::Excluded => self.excluded += 1,
            Status::Warning => self.warnings += 1,
            _ => {}
        }
        if local {
            self.local += 1;
        }
    }
}

/// An Antora navigation file: an AsciiDoc document in a component's
/// `modules/NAME/` itself, as `antora.yml` lists them. The site's
/// navigation starts there, as at an entry point.
fn is_antora_nav(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "adoc")
        && path
            .parent()
            .and_then(Path::parent)
            .and_then(Path::file_name)
            .is_some_and(|n| n == "modules")
}

/// The documents no other document links to, in path order: a link to a
/// directory counts for its index files; README.md, index.html,
/// index.htm, index.rst (Sphinx's root document, whose toctree links the
/// others), the entries, a file a page includes, and what `never` says
/// (a site's configuration, mdBook's SUMMARY.md) are never orphans.
fn orphans<'a>(
    docs: &'a ReadDocs,
    entries: &[PathBuf],
    never: impl Fn(&std::path::Path) -> bool,
) -> Vec<&'a PathBuf> {
    let mut linked = std::collections::HashSet::new();
    for p in docs.checked.linked_paths() {
        for index in ["README.md", "index.md", "index.html", "index.htm"] {
            linked.insert(p.join(index));
        }
        linked.insert(p.to_path_buf());
    }
    let entries: Vec<PathBuf> =
        entries.iter().filter_map(|e| std::fs::canonicalize(e).ok()).collect();
    docs.labels
        .iter()
        .zip(&docs.checked.documents)
        .zip(&docs.kept)
        // A file read where a page includes it (each match of a glob
        // too) is linked by the directive.
        .filter(|(_, kept)| kept.via().is_none())
        .map(|(doc, _)| doc)
        .filter(|(_, d)| {
            let name =
                d.path().file_name().and_then(|n| n.to_str()).unwrap_or("");
            !matches!(
                name,
                "README.md" | "index.html" | "index.htm" | "index.rst"
            ) && !entries.iter().any(|e| e == d.path())
                && !never(d.path())
                && !linked.contains(d.path())
                && !is_antora_nav(d.path())
        })
        .map(|(l, _)| l)
        .collect()
}
