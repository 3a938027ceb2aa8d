//! `uriscan check --remote`: the web links of the offline check's
//! documents, each distinct URI requested once by the library's
//! [`RemoteChecker`], its result given to every link that names it.

use std::io::Write;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use anyhow::{Context, bail};
use serde::Serialize;
use uriscan::checking::remote::cache::{Cache, CacheEntry, unix_seconds};
use uriscan::checking::remote::{
    RemoteChecker, RemoteResult, RemoteStatus, RemoteTarget, request_uri,
};
use uriscan::checking::{Status, Verdict};
use uriscan::links::Link;

use super::printer::mask_password;

/// The remote check's options of `uriscan check`.
#[derive(clap::Args, Debug, Clone)]
pub struct RemoteArgs {
    /// Also check http and https links over the network.
    #[arg(long, help_heading = "Remote")]
    pub remote: bool,
    /// Report remote failures without failing the run (exit 0 when only
    /// remote links fail).
    #[arg(long, requires = "remote", help_heading = "Remote")]
    pub warn_remote: bool,
    /// Fetch HTML pages with GET and report fragments they do not define.
    #[arg(long, requires = "remote", help_heading = "Remote")]
    pub remote_fragments: bool,
    /// Request loopback, private and link-local addresses too (refused by
    /// default, also when a name resolves to one).
    #[arg(long, requires = "remote", help_heading = "Remote")]
    pub allow_private: bool,
    /// Redirects followed before a link is broken. [default: 10]
    #[arg(long, value_name = "NUM", help_heading = "Remote")]
    pub max_redirects: Option<usize>,
    /// Accepted HTTP statuses: a list of codes and ranges (`200..=299`,
    /// `200..300`, `200-299`, `403`). [default: 200..=299]
    #[arg(
        long,
        value_name = "LIST",
        value_parser = parse_accept,
        help_heading = "Remote"
    )]
    pub accept: Option<Accept>,
    /// The timeout of one request (`20s`, `500ms`, `1m`). [default: 20s]
    #[arg(
        long,
        value_name = "DURATION",
        value_parser = parse_duration,
        help_heading = "Remote"
    )]
    pub timeout: Option<Duration>,
    /// A header sent with every request, `Name: value`. Repeatable.
    #[arg(long, value_name = "HEADER", help_heading = "Remote")]
    pub header: Vec<String>,
    /// Requests in flight at once, in all. [default: 64]
    #[arg(
        long,
        value_name = "NUM",
        value_parser = clap::value_parser!(u32).range(1..=4096),
        help_heading = "Remote"
    )]
    pub max_concurrency: Option<u32>,
    /// Requests in flight at once to one host. [default: 4]
    #[arg(
        long,
        value_name = "NUM",
        value_parser = clap::value_parser!(u32).range(1..=1024),
        help_heading = "Remote"
    )]
    pub host_concurrency: Option<u32>,
    /// Retries after a timeout, a connection error, 429 or 5xx.
    /// [default: 3]
    #[arg(long, value_name = "NUM", help_heading = "Remote")]
    pub retries: Option<u32>,
    /// The wait before the first retry, doubled for each next one (with
    /// jitter); a host's `Retry-After` wins. [default: 1s]
    #[arg(
        long,
        value_name = "DURATION",
        value_parser = parse_duration,
        help_heading = "Remote"
    )]
    pub retry_wait: Option<Duration>,
    /// The longest wait before a retry; a `Retry-After` beyond it is not
    /// waited for. [default: 60s]
    #[arg(
        long,
        value_name = "DURATION",
        value_parser = parse_duration,
        help_heading = "Remote"
    )]
    pub max_retry_wait: Option<Duration>,
    /// Keep results in a cache file (`.uriscan-cache` under --root, else
    /// under the first PATH) and skip the URIs that were fine within
    /// --max-cache-age. Failures are always checked again.
    #[arg(long, requires = "remote", help_heading = "Remote")]
    pub cache: bool,
    /// The cache file (implies --cache).
    #[arg(
        long,
        value_name = "FILE",
        requires = "remote",
        help_heading = "Remote"
    )]
    pub cache_file: Option<PathBuf>,
    /// How old a cached success may be (`1d`, `12h`, `30m`).
    /// [default: 1d]
    #[arg(
        long,
        value_name = "DURATION",
        value_parser = parse_duration,
        help_heading = "Remote"
    )]
    pub max_cache_age: Option<Duration>,
}

/// The keys of `uriscan.toml` for the remote check: the long flags'
/// names.
#[derive(serde::Deserialize, Default, Debug)]
#[serde(rename_all = "kebab-case")]
pub struct RemoteKeys {
    remote: Option<bool>,
    warn_remote: Option<bool>,
    remote_fragments: Option<bool>,
    allow_private: Option<bool>,
    max_redirects: Option<usize>,
    accept: Option<Vec<String>>,
    timeout: Option<String>,
    header: Option<Vec<String>>,
    max_concurrency: Option<u32>,
    host_concurrency: Option<u32>,
    retries: Option<u32>,
    retry_wait: Option<String>,
    max_retry_wait: Option<String>,
    cache: Option<bool>,
    cache_file: Option<PathBuf>,
    max_cache_age: Option<String>,
}

impl RemoteKeys {
    /// Fills what the command line left unset; a relative cache file is
    /// relative to `base`, the config file's directory.
    pub fn apply(
        self,
        args: &mut RemoteArgs,
        base: &Path,
    ) -> anyhow::Result<()> {
        args.remote |= self.remote.unwrap_or(false);
        args.warn_remote |= self.warn_remote.unwrap_or(false);
        args.remote_fragments |= self.remote_fragments.unwrap_or(false);
        args.allow_private |= self.allow_private.unwrap_or(false);
        args.cache |= self.cache.unwrap_or(false);
        let duration = |key: &str, v: Option<String>| {
            v.map(|v| {
                parse_duration(&v).map_err(|e| anyhow::anyhow!("{key}: {e}"))
            })
            .transpose()
        };
        args.max_redirects = args.max_redirects.or(self.max_redirects);
        if args.accept.is_none()
            && let Some(list) = self.accept
        {
            let a = parse_accept(&list.join(","))
                .map_err(|e| anyhow::anyhow!("accept: {e}"))?;
            args.accept = Some(a);
        }
        args.timeout = args.timeout.or(duration("timeout", self.timeout)?);
        if args.header.is_empty() {
            args.header = self.header.unwrap_or_default();
        }
        args.max_concurrency = args.max_concurrency.or(self.max_concurrency);
        args.host_concurrency =
            args.host_concurrency.or(self.host_concurrency);
        args.retries = args.retries.or(self.retries);
        args.retry_wait =
            args.retry_wait.or(duration("retry-wait", self.retry_wait)?);
        args.max_retry_wait = args
            .max_retry_wait
            .or(duration("max-retry-wait", self.max_retry_wait)?);
        if args.cache_file.is_none() {
            args.cache_file = self.cache_file.map(|f| base.join(f));
        }
        args.max_cache_age = args
            .max_cache_age
            .or(duration("max-cache-age", self.max_cache_age)?);
        Ok(())
    }
}

/// Accepted statuses.
#[derive(Clone, Debug)]
pub struct Accept(Vec<RangeInclusive<u16>>);

/// `200..=299,403`: codes and ranges, `..=` and `-` inclusive, `..`
/// exclusive.
fn parse_accept(s: &str) -> Result<Accept, String> {
    let code = |t: &str| -> Result<u16, String> {
        t.trim()
            .parse::<u16>()
            .ok()
            .filter(|c| (100..=999).contains(c))
            .ok_or_else(|| format!("'{t}' is not an HTTP status"))
    };
    let mut out = vec![];
    for part in s.split(',').filter(|p| !p.trim().is_empty()) {
        let r = if let Some((a, b)) = part.split_once("..=") {
            code(a)?..=code(b)?
        } else if let Some((a, b)) = part.split_once("..") {
            code(a)?..=code(b)?.saturating_sub(1)
        } else if let Some((a, b)) = part.split_once('-') {
            code(a)?..=code(b)?
        } else {
            let c = code(part)?;
            c..=c
        };
        if r.is_empty() {
            return Err(format!("'{part}' is an empty range"));
        }
        out.push(r);
    }
    if out.is_empty() {
        return Err("no status given".into());
    }
    Ok(Accept(out))
}

/// `500ms`, `20s`, `5m`, `12h`, `1d`, `1w`; a bare number is seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit() && c != '.');
    let (num, unit) = t.split_at(split.unwrap_or(t.len()));
    let n: f64 = num
        .parse()
        .ok()
        .filter(|n: &f64| n.is_finite() && *n >= 0.0)
        .ok_or_else(|| {
            format!("'{s}' is not a duration (like 500ms, 20s, 1d)")
        })?;
    let secs = match unit.trim() {
        "ms" => n / 1000.0,
        "" | "s" => n,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        "d" => n * 86400.0,
        "w" => n * 7.0 * 86400.0,
        u => return Err(format!("'{u}' is not a unit: ms, s, m, h, d or w")),
    };
    Duration::try_from_secs_f64(secs).map_err(|e| format!("'{s}': {e}"))
}

/// The remote links of a run and their results.
pub struct Remote {
    checker: RemoteChecker,
    /// The distinct URIs.
    targets: Vec<RemoteTarget>,
    /// Which link names which URI.
    pub plan: Plan,
    /// The results, as they come; cached ones from the start.
    pub results: Vec<Option<RemoteResult>>,
    cache: Option<(PathBuf, Cache)>,
    warn_only: bool,
}

/// Which link names which URI.
pub struct Plan {
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
pub struct LinkVerdict<'a> {
    pub status: RemoteStatus,
    pub reason: Option<String>,
    pub result: &'a RemoteResult,
}

impl Remote {
    /// The remote links of each document (kept by the offline check's
    /// reading): those it skipped, with an http or https target. `None`
    /// without --remote.
    pub fn plan(
        args: &RemoteArgs,
        root: &Path,
        kept: &[super::check::Kept],
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
                if vs[li].status() != Status::Skipped {
                    continue;
                }
                let Some(uri) = link.target().and_then(request_uri) else {
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
            plan: Plan { of_link, links_of, fragments: args.remote_fragments },
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
        mut each: impl FnMut(&Plan, &[Option<RemoteResult>], usize),
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
            if let Some(r) = r.as_ref().filter(|r| !r.is_cached()) {
                let entry = CacheEntry {
                    at: unix_seconds(SystemTime::now()),
                    status: r.status(),
                    http: r.http_status(),
                };
                cache.insert(t.uri.clone(), entry);
            }
        }
        if let Err(e) = cache.save(path) {
            let _ = writeln!(
                std::io::stderr().lock(),
                "uriscan: the cache file {}: {}",
                path.display(),
                uriscan::walking::io_message(&e)
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

impl Plan {
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

/// The remote fields of a `check --json` row.
#[derive(Serialize)]
pub struct JsonRemote<'a> {
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub http_status: Option<u16>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub chain: Vec<JsonHop<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_uri: Option<&'a str>,
    pub time_ms: u64,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
}

/// One redirect of `chain`.
#[derive(Serialize)]
pub struct JsonHop<'a> {
    pub uri: &'a str,
    pub status: u16,
}

impl<'a> JsonRemote<'a> {
    pub fn new(v: &'a LinkVerdict<'a>) -> JsonRemote<'a> {
        let r = v.result;
        JsonRemote {
            status: v.status.as_str(),
            reason: v.reason.clone(),
            http_status: r.http_status(),
            chain: r
                .chain()
                .iter()
                .map(|h| JsonHop { uri: &h.uri, status: h.status })
                .collect(),
            final_uri: (!r.chain().is_empty()).then(|| r.final_uri()),
            time_ms: r.elapsed().as_millis() as u64,
            cached: r.is_cached(),
        }
    }
}

/// How a remote verdict reads in a human or GitHub report: the word
/// before "link", the reason, and the redirect chain. `None` for `ok`.
pub fn describe(link: &Link, v: &LinkVerdict<'_>) -> Option<String> {
    let r = v.result;
    let word = match v.status {
        RemoteStatus::Ok => return None,
        RemoteStatus::Broken => "broken",
        RemoteStatus::Redirected => "redirected",
        RemoteStatus::RateLimited => "rate-limited",
        RemoteStatus::Timeout => "timed-out",
        _ => "unreachable",
    };
    let mut s = format!("{word} link '{}'", mask_password(link.link()));
    match (&v.reason, v.status) {
        (Some(reason), _) => s.push_str(&format!(": {reason}")),
        (None, RemoteStatus::Redirected) => {
            s.push_str(&format!(": now {}", r.final_uri()));
        }
        _ => {}
    }
    if !r.chain().is_empty() {
        let hops: Vec<String> = r
            .chain()
            .iter()
            .map(|h| format!("{} {}", h.status, h.uri))
            .collect();
        s.push_str(&format!(
            " (via {} → {})",
            hops.join(" → "),
            r.final_uri()
        ));
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("20s"), Ok(Duration::from_secs(20)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1d"), Ok(Duration::from_secs(86400)));
        assert_eq!(parse_duration("1.5m"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("7"), Ok(Duration::from_secs(7)));
        assert!(parse_duration("").is_err());
        assert!(parse_duration("5 years").is_err());
        assert!(parse_duration("-1s").is_err());
    }

    #[test]
    fn accept_lists() {
        let a = |s| parse_accept(s).map(|a| a.0);
        assert_eq!(a("200..=299"), Ok(vec![200..=299]));
        assert_eq!(a("200..300,403"), Ok(vec![200..=299, 403..=403]));
        assert_eq!(a("200-204, 429"), Ok(vec![200..=204, 429..=429]));
        assert!(a("abc").is_err());
        assert!(a("300..200").is_err());
        assert!(a("").is_err());
        assert!(a("99").is_err());
    }
}
