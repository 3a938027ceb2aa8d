//! The remote stage of `check --remote`: the web links of the offline
//! check's documents, each distinct URI requested once by the library's
//! [`RemoteChecker`], its result given to every link that names it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use anyhow::{Context, bail};
use indicatif::ProgressBar;
use uriscan::checking::remote::{Cache, CacheEntry, unix_seconds};
use uriscan::checking::remote::{
    RemoteChecker, RemoteResult, RemoteStatus, RemoteTarget, request_uri,
};
use uriscan::checking::{Remapper, Status, Verdict};
use uriscan::links::Link;

use super::read::{KeptLinks, ReadDocs};
use super::report::counted;
use crate::args::RemoteArgs;
use crate::config::{CheckConfig, CheckForm};
use crate::report::check::CheckReport;
use uriscan::walking::io_message;

/// The remote check of a run: nothing without `--remote`.
pub struct RemoteStage {
    remote: Option<Remote>,
    /// Whether the rows stream out after the offline report (JSON).
    stream: bool,
    /// The remote links reported.
    checked: u64,
    /// Those of them that failed.
    failed: u64,
    /// Those of them skipped, as links to a local host.
    skipped: u64,
    /// The run's mappings, which a remote link's reason names.
    remap: Remapper,
}

impl RemoteStage {
    /// Plans the requests of the web links the offline check skipped; for
    /// every report but JSON, makes them now, so that the report keeps
    /// document order. JSON's rows stream out after the offline ones
    /// ([`RemoteStage::stream_json`]).
    pub fn start(
        cfg: &CheckConfig,
        docs: &ReadDocs,
        verdicts: &[Vec<Verdict>],
        progress: Option<&ProgressBar>,
    ) -> anyhow::Result<RemoteStage> {
        let mut remote = Remote::plan(
            &cfg.remote,
            &cfg.cache_dir,
            (&docs.kept, &cfg.remap),
            verdicts,
        )?;
        let stream = matches!(cfg.form, CheckForm::Json { .. });
        if let Some(r) = &mut remote
            && !stream
        {
            r.run(progress, |_, _, _| {})?;
        }
        Ok(RemoteStage {
            remote,
            stream,
            checked: 0,
            failed: 0,
            skipped: 0,
            remap: cfg.remap.clone(),
        })
    }

    /// Reports link `li` of document `di` when it is a web link checked
    /// remotely; false when it is the offline check's.
    pub fn report_link(
        &mut self,
        report: &mut CheckReport<'_>,
        docs: &ReadDocs,
        di: usize,
        li: usize,
    ) -> bool {
        let Some(r) = &self.remote else { return false };
        if !r.is_remote(di, li) {
            return false;
        }
        let Some(link) = docs.kept[di].get(li) else { return false };
        // With --json, written as the result comes, in `stream_json`.
        if let Some(v) = r.verdict(di, li, link) {
            let tally =
                (&mut self.checked, &mut self.failed, &mut self.skipped);
            let v = mapped(&self.remap, link, v);
            write_verdict(tally, report, docs, di, link, v);
        }
        true
    }

    /// With --json, makes the requests and writes each URI's rows as its
    /// result comes; false when standard output failed.
    pub fn stream_json(
        &mut self,
        report: &mut CheckReport<'_>,
        docs: &ReadDocs,
        progress: Option<&ProgressBar>,
    ) -> anyhow::Result<bool> {
        let Some(r) = &mut self.remote else { return Ok(true) };
        if !self.stream {
            return Ok(true);
        }
        let (checked, failed, skipped) =
            (&mut self.checked, &mut self.failed, &mut self.skipped);
        let remap = &self.remap;
        let mut written = true;
        r.run(progress, |plan, results, t| {
            for &(di, li) in plan.links_of(t) {
                let (di, li) = (di as usize, li as usize);
                let Some(link) = docs.kept[di].get(li) else { continue };
                let Some(v) = plan.verdict(results, di, li, link) else {
                    continue;
                };
                let tally = (&mut *checked, &mut *failed, &mut *skipped);
                let v = mapped(remap, link, v);
                write_verdict(tally, report, docs, di, link, v);
            }
            written &= report.flush();
        })?;
        Ok(written)
    }

    /// The remote links reported.
    pub fn checked(&self) -> u64 {
        self.checked
    }

    /// The summary's words on the remote check, when there was one.
    pub fn summary(&self) -> Option<String> {
        let r = self.remote.as_ref()?;
        let (uris, cached) = r.uri_counts();
        // An address refused before any request is counted apart.
        let refused = match r.refused() {
            0 => String::new(),
            n => format!(", {n} refused"),
        };
        let mut words = format!(
            "{} remote checked ({}, {cached} cached, {}{refused}), {} remote failed, ",
            self.checked,
            counted(uris as u64, "URI"),
            counted(r.requests(), "request"),
            self.failed,
        );
        if self.skipped > 0 {
            words.push_str(&format!("{} skipped (private), ", self.skipped));
        }
        Some(words)
    }

    /// Whether remote failures fail the run (not under --warn-remote).
    pub fn fails_run(&self) -> bool {
        self.failed > 0 && self.remote.as_ref().is_some_and(|r| !r.warn_only())
    }
}

/// `v` with its reason saying what the link was mapped from, when a
/// mapping gave the URI that was asked.
fn mapped<'r>(
    remap: &Remapper,
    link: &Link,
    mut v: LinkVerdict<'r>,
) -> LinkVerdict<'r> {
    if let Some(m) = super::read::remap_target(remap, link.as_ref())
        && let Some(from) = link.target()
    {
        let by = format!("mapped from '{from}' by {}", m.by);
        v.reason = Some(match v.reason {
            Some(r) => format!("{r} ({by})"),
            None => by,
        });
    }
    v
}

/// Writes the verdict of a remote link of document `di`, and counts it
/// in `(checked, failed, skipped)`.
fn write_verdict(
    (checked, failed, skipped): (&mut u64, &mut u64, &mut u64),
    report: &mut CheckReport<'_>,
    docs: &ReadDocs,
    di: usize,
    link: &Link,
    v: LinkVerdict<'_>,
) {
    *checked += 1;
    *failed += u64::from(v.status.is_failure());
    *skipped += u64::from(v.status == RemoteStatus::Skipped);
    let (label, root) = (&docs.labels[di], docs.checked.documents[di].root());
    report.remote_link(label, root, link, v.status, v.reason, v.result);
}

/// The remote links of a run and their results.
struct Remote {
    checker: RemoteChecker,
    /// The distinct URIs.
    targets: Vec<RemoteTarget>,
    /// Which link names which URI.
    plan: TargetPlan,
    /// The results, as they come; cached ones from the start.
    pub results: Vec<Option<RemoteResult>>,
    cache: Option<(PathBuf, Cache)>,
    warn_only: bool,
}

/// Which link names which URI.
struct TargetPlan {
    /// Per document, per link: the index of its target, or `NONE`.
    of_link: Vec<Vec<u32>>,
    /// Per target: the links that name it.
    links_of: Vec<Vec<(u32, u32)>>,
    /// The fragments are checked.
    fragments: bool,
}

const NONE: u32 = u32::MAX;

/// One link's remote verdict: the URI's status, or broken for a missing
/// fragment.
struct LinkVerdict<'a> {
    status: RemoteStatus,
    reason: Option<String>,
    result: &'a RemoteResult,
}

impl Remote {
    /// The remote links of each document (kept by the offline check's
    /// reading): those it skipped, with an http or https target. `None`
    /// without --remote.
    fn plan(
        args: &RemoteArgs,
        root: &Path,
        (kept, remap): (&[KeptLinks], &uriscan::checking::Remapper),
        verdicts: &[Vec<Verdict>],
    ) -> anyhow::Result<Option<Remote>> {
        if !args.remote {
            return Ok(None);
        }
        let mut b = RemoteChecker::builder();
        // The builder holds the defaults that the help text names.
        if let Some(n) = args.max_redirects {
            b.max_redirects(n);
        }
        if let Some(a) = &args.accept {
            b.accept(a.0.clone());
        }
        if let Some(t) = args.timeout {
            b.timeout(t);
        }
        if let Some(n) = args.max_concurrency {
            b.max_concurrency(n as usize);
        }
        if let Some(n) = args.host_concurrency {
            b.host_concurrency(n as usize);
        }
        if let Some(n) = args.retries {
            b.retries(n);
        }
        if let Some(d) = args.retry_wait {
            b.retry_wait(d);
        }
        if let Some(d) = args.max_retry_wait {
            b.max_retry_wait(d);
        }
        if let Some(n) = args.max_body {
            b.max_body(n);
        }
        b.allow_private(args.allow_private)
            .fragments(args.remote_fragments)
            .github_token(std::env::var("GITHUB_TOKEN").ok());
        for h in &args.header {
            let Some((name, value)) = h.split_once(':') else {
                bail!("--header '{h}': write it as 'Name: value'");
            };
            let (name, value) = (name.trim(), value.trim());
            reqwest_header_check(name, value)
                .with_context(|| format!("--header '{name}'"))?;
            b.header(name.to_string(), value.to_string());
        }
        let checker = b.build()?;
        let mut index = std::collections::HashMap::new();
        let mut targets: Vec<RemoteTarget> = vec![];
        let mut links_of: Vec<Vec<(u32, u32)>> = vec![];
        let mut of_link = Vec::with_capacity(kept.len());
        for (di, (kept, vs)) in kept.iter().zip(verdicts).enumerate() {
            let mut mine = vec![NONE; vs.len()];
            for (li, link) in kept.iter() {
                // Skipped for a reason of its own (a template): not a
                // web link to ask.
                if vs[li].status() != Status::Skipped || vs[li].has_reason() {
                    continue;
                }
                // A mapped link is asked at the URI it was mapped to.
                let mapped = super::read::remap_target(remap, link.as_ref());
                let target = match &mapped {
                    Some(m) => Some(m.target.as_str()),
                    None => link.target(),
                };
                let Some(uri) = target.and_then(request_uri) else {
                    continue;
                };
                let t = *index.entry(uri.clone()).or_insert_with(|| {
                    targets.push(RemoteTarget { uri, fragments: vec![] });
                    links_of.push(vec![]);
                    targets.len() as u32 - 1
                });
                if args.remote_fragments
                    && let Some(f) = link.fragment()
                {
                    let fs = &mut targets[t as usize].fragments;
                    if !fs.iter().any(|x| *x == f) {
                        fs.push(f.into_owned());
                    }
                }
                mine[li] = t;
                links_of[t as usize].push((di as u32, li as u32));
            }
            of_link.push(mine);
        }
        let cache = if args.cache || args.cache_file.is_some() {
            let path = args
                .cache_file
                .clone()
                .unwrap_or_else(|| root.join(".uriscan-cache"));
            let cache = Cache::load(&path).with_context(|| {
                format!("the cache file {}", path.display())
            })?;
            if let Some(why) = cache.discarded() {
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "uriscan: the cache file {}: {why}",
                    path.display()
                );
            }
            Some((path, cache))
        } else {
            None
        };
        let mut results: Vec<Option<RemoteResult>> = vec![None; targets.len()];
        if let Some((_, cache)) = &cache {
            let now = SystemTime::now();
            let max_age =
                args.max_cache_age.unwrap_or(Duration::from_secs(86400));
            for (t, r) in targets.iter().zip(&mut results) {
                // A page whose fragments are checked is fetched again:
                // the cache keeps statuses, not ids.
                if t.fragments.is_empty() || !args.remote_fragments {
                    *r = cache
                        .fresh(&t.uri, max_age, now)
                        .map(|e| RemoteResult::from_cache(&t.uri, e));
                }
            }
        }
        Ok(Some(Remote {
            checker,
            targets,
            plan: TargetPlan {
                of_link,
                links_of,
                fragments: args.remote_fragments,
            },
            results,
            cache,
            warn_only: args.warn_remote,
        }))
    }

    /// The distinct URIs, and how many came from the cache.
    pub fn uri_counts(&self) -> (usize, usize) {
        let cached = self
            .results
            .iter()
            .filter(|r| r.as_ref().is_some_and(|r| r.is_cached()))
            .count();
        (self.targets.len(), cached)
    }

    /// The HTTP requests made.
    pub fn requests(&self) -> u64 {
        self.results.iter().flatten().map(|r| u64::from(r.requests())).sum()
    }

    /// The URIs not requested because their address was refused.
    pub fn refused(&self) -> usize {
        self.results.iter().flatten().filter(|r| r.is_refused()).count()
    }

    /// Whether remote failures leave the exit status alone.
    pub fn warn_only(&self) -> bool {
        self.warn_only
    }

    /// Requests every URI without a cached result, calling `each` with
    /// each URI's index as its result comes (cached ones first); shows
    /// the progress on `bar`.
    pub fn run(
        &mut self,
        bar: Option<&indicatif::ProgressBar>,
        mut each: impl FnMut(&TargetPlan, &[Option<RemoteResult>], usize),
    ) -> anyhow::Result<()> {
        let todo: Vec<usize> = (0..self.targets.len())
            .filter(|&i| self.results[i].is_none())
            .collect();
        let batch: Vec<RemoteTarget> =
            todo.iter().map(|&i| self.targets[i].clone()).collect();
        for i in 0..self.targets.len() {
            if self.results[i].is_some() {
                each(&self.plan, &self.results, i);
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let ticker = bar.map(|bar| {
            let bar = bar.clone();
            let progress = self.checker.progress();
            let stop = stop.clone();
            let total = batch.len();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    bar.set_message(format!(
                        "remote: {} in flight, {}/{total} URIs done",
                        progress.in_flight(),
                        progress.done()
                    ));
                    std::thread::sleep(Duration::from_millis(100));
                }
            })
        });
        let (plan, results) = (&self.plan, &mut self.results);
        let outcome = self.checker.check(&batch, |j, r| {
            results[todo[j]] = Some(r);
            each(plan, results, todo[j]);
        });
        stop.store(true, Ordering::Relaxed);
        if let Some(t) = ticker {
            let _ = t.join();
        }
        outcome?;
        self.save_cache();
        Ok(())
    }

    fn save_cache(&mut self) {
        let Some((path, cache)) = &mut self.cache else { return };
        for (t, r) in self.targets.iter().zip(&self.results) {
            // A skipped link was not asked: nothing to keep.
            let asked = |r: &&RemoteResult| {
                !r.is_cached() && r.status() != RemoteStatus::Skipped
            };
            if let Some(r) = r.as_ref().filter(asked) {
                let redirected = r.status() == RemoteStatus::Redirected;
                let entry = CacheEntry {
                    at: unix_seconds(SystemTime::now()),
                    status: r.status(),
                    http: r.http_status(),
                    final_uri: redirected.then(|| r.final_uri().to_string()),
                };
                cache.insert(t.uri.clone(), entry);
            }
        }
        if let Err(e) = cache.save(path) {
            let _ = writeln!(
                std::io::stderr().lock(),
                "uriscan: the cache file {}: {}",
                path.display(),
                io_message(&e)
            );
        }
    }

    /// The remote verdict of link `li` of document `di`.
    pub fn verdict(
        &self,
        di: usize,
        li: usize,
        link: &Link,
    ) -> Option<LinkVerdict<'_>> {
        self.plan.verdict(&self.results, di, li, link)
    }

    /// Whether link `li` of document `di` is checked remotely.
    pub fn is_remote(&self, di: usize, li: usize) -> bool {
        self.plan.of_link[di][li] != NONE
    }
}

impl TargetPlan {
    /// The links of target `t`, as (document, link) indexes.
    pub fn links_of(&self, t: usize) -> &[(u32, u32)] {
        &self.links_of[t]
    }

    /// The remote verdict of link `li` of document `di`, when it is a
    /// remote link with a result.
    pub fn verdict<'r>(
        &self,
        results: &'r [Option<RemoteResult>],
        di: usize,
        li: usize,
        link: &Link,
    ) -> Option<LinkVerdict<'r>> {
        let t = self.of_link[di][li];
        if t == NONE {
            return None;
        }
        let result = results[t as usize].as_ref()?;
        let missing = self.fragments
            && link.fragment().is_some_and(|f| {
                result.missing_fragments().iter().any(|m| *m == f)
            });
        Some(if missing {
            LinkVerdict {
                status: RemoteStatus::Broken,
                reason: link
                    .fragment()
                    .map(|f| format!("no anchor '#{f}' in the page")),
                result,
            }
        } else {
            LinkVerdict {
                status: result.status(),
                reason: result.reason().map(str::to_string),
                result,
            }
        })
    }
}

/// Whether reqwest will take this header; checked before the run so a
/// bad one is an error, not a header silently left out.
fn reqwest_header_check(name: &str, value: &str) -> anyhow::Result<()> {
    if name.is_empty()
        || !name.bytes().all(|b| {
            b.is_ascii_graphic() && !b"()<>@,;:\\\"/[]?={}".contains(&b)
        })
    {
        bail!("not a header name");
    }
    if value.bytes().any(|b| b.is_ascii_control() && b != b'\t') {
        bail!("a header value holds no control characters");
    }
    Ok(())
}
