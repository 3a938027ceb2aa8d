//! The report stage of `check`: every verdict in path order, in the
//! report's form, the orphans, and the summary on standard error.

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use uriscan::checking::{CheckedDocument, Reason, Status, Verdict};
use uriscan::links::Link;

use super::plan::Plan;
use super::read::{KeptLinks, ReadDocs, Reread};
use super::remote::RemoteStage;
use crate::config::{CheckConfig, CheckForm};
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
    let mut reread = Reread::new(cfg);
    let counts = Counts {
        included_only: plan.included_only.load(Ordering::Relaxed) as u64,
        ..Counts::default()
    };
    let mut pass = Pass { cfg, plan, remote, report, counts };
    for (di, (label, doc)) in
        docs.labels.iter().zip(&docs.checked.documents).enumerate()
    {
        if !pass.document(docs, di, (label, doc), &verdicts[di], &mut reread) {
            return Ok(None);
        }
    }
    let Pass { remote, report, counts, .. } = pass;
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

/// The report of the links, document by document: what it writes to,
/// and its tallies.
struct Pass<'p, 'c> {
    cfg: &'p CheckConfig,
    plan: &'p Plan,
    remote: &'p mut RemoteStage,
    report: &'p mut CheckReport<'c>,
    counts: Counts,
}

impl Pass<'_, '_> {
    /// Reports document `di` (`label`, `doc`) with its `verdicts`, each
    /// link from those kept or, when some it prints were not, from one
    /// more reading of the document, link by link: a document of
    /// millions of broken links is never held again whole. False when
    /// standard output failed.
    fn document(
        &mut self,
        docs: &ReadDocs,
        di: usize,
        (label, doc): (&PathBuf, &CheckedDocument<(PathBuf, KeptLinks)>),
        verdicts: &[Verdict],
        reread: &mut Reread<'_>,
    ) -> bool {
        self.counts.files += 1;
        self.report.document(label);
        let kept = &docs.kept[di];
        let via = kept.via();
        self.report.via(via.map(|v| v.label.as_path()));
        let site = match via {
            Some(v) => super::site::site_of(&self.plan.sites, &v.page),
            None => super::site::site_of(&self.plan.sites, doc.path()),
        };
        let at = Place { docs, di, label, doc, site: site.as_deref() };
        let wants = |v: &Verdict| self.wants_link(v, doc.path());
        let rereads = verdicts
            .iter()
            .enumerate()
            .any(|(li, v)| kept.get(li).is_none() && wants(v));
        if !rereads {
            return verdicts
                .iter()
                .enumerate()
                .all(|(li, v)| self.link(&at, li, v, kept.get(li)));
        }
        let mut next = 0;
        let mut written = true;
        reread.each(label, |l| {
            let li = next;
            next += 1;
            let Some(v) = verdicts.get(li).filter(|_| written) else {
                return;
            };
            let owned;
            let link = match kept.get(li) {
                Some(k) => Some(k),
                None if self.wants_link(v, doc.path()) => {
                    owned = l.to_link();
                    Some(&owned)
                }
                None => None,
            };
            written = self.link(&at, li, v, link);
        });
        // Those the file no longer has.
        written
            && (next.min(verdicts.len())..verdicts.len())
                .all(|li| self.link(&at, li, &verdicts[li], kept.get(li)))
    }

    /// Whether the report may want the text of a link with the verdict
    /// `v` in the document at `path`: to print it, or to see whether a
    /// broken one reaches what the change touched.
    fn wants_link(&self, v: &Verdict, path: &Path) -> bool {
        let printed = matches!(v.status(), Status::Broken | Status::Warning);
        printed
            || prints_every_link(self.cfg)
            || v.status() == Status::Broken
                && self
                    .cfg
                    .changed
                    .as_ref()
                    .is_some_and(|s| !s.is_changed(path))
    }

    /// Reports link `li` of the document `at`, with the verdict `v` and
    /// its text `link` (`None`: neither kept nor in the file now). False
    /// when standard output failed.
    fn link(
        &mut self,
        at: &Place<'_>,
        li: usize,
        v: &Verdict,
        link: Option<&Link>,
    ) -> bool {
        let (cfg, doc, label) = (self.cfg, at.doc, at.label);
        if self.remote.report_link(self.report, at.docs, at.di, li) {
            return true;
        }
        if v.status() == Status::Broken
            && let Some(scope) = &cfg.changed
            && !scope.is_changed(doc.path())
            && !link.is_some_and(|l| {
                scope.reaches_touched(doc.path(), doc.root(), l)
            })
        {
            // Broken before the change: not this change's to report.
            self.counts.links += 1;
            return true;
        }
        let reason = at.docs.checked.reason(v);
        self.counts.add(v.is_local(), v, reason.as_ref());
        let printed = matches!(v.status(), Status::Broken | Status::Warning);
        if !printed && !prints_every_link(cfg) {
            return true;
        }
        let Some(link) = link else {
            self.plan.errors.say(format_args!(
                "{}: changed while it was checked; run again",
                label.display()
            ));
            return true;
        };
        let remapped = super::read::remap_target(&cfg.remap, link.as_ref());
        let via = at.docs.kept[at.di].via();
        let site_note = match (&remapped, via, at.site) {
            (Some(_), _, _) => None,
            (None, Some(v), Some(s)) => super::included::mapping(s, v, link),
            (None, _, site) => {
                super::site::mapping(site, doc.path(), link.as_ref())
            }
        };
        let mapped = match (&remapped, &site_note) {
            (Some(m), _) => Some(Mapping::Remap(m)),
            (None, Some(why)) => Some(Mapping::Site(why)),
            (None, None) => None,
        };
        self.report.link(label, doc.root(), link, v, reason.as_ref(), mapped);
        self.report.spill()
    }
}

/// Whether the report lists every link, those that hold too.
fn prints_every_link(cfg: &CheckConfig) -> bool {
    cfg.form == CheckForm::Json { errors_only: false }
}

/// The document whose links are being reported.
struct Place<'a> {
    docs: &'a ReadDocs,
    di: usize,
    label: &'a PathBuf,
    doc: &'a CheckedDocument<(PathBuf, KeptLinks)>,
    site: Option<&'a uriscan::checking::site::Site>,
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
    /// Counts a link with the verdict `v`, for `reason`.
    fn add(&mut self, local: bool, v: &Verdict, reason: Option<&Reason<'_>>) {
        self.links += 1;
        match v.status() {
            Status::Broken => self.broken += 1,
            Status::Skipped => match reason {
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
