//! The remote check (`uriscan check --remote`): whether `http` and
//! `https` links answer, over the network.
//!
//! The rest of the library is synchronous; this module owns a tokio
//! runtime for the length of one [`RemoteChecker::check`] call and hands
//! results back on the caller's thread, as they come.
//!
//! - [`request_uri`] turns a link's target into what is requested: the
//!   normal form, without fragment or credentials. The caller groups its
//!   links by it, so that each distinct URI is requested once.
//! - `fetch` asks for one URI: HEAD first, confirmed with GET when HEAD
//!   gets a failure that is not a redirect or drops the connection; GET
//!   at once when fragments are checked; redirects followed by hand, so
//!   that every hop is checked against the address rules and reported;
//!   retries on timeouts, lost connections, 429 and 5xx.
//! - `schedule` holds the run's and each host's concurrency limits,
//!   pauses a host that asks for it (`Retry-After`), and gives up a host
//!   as a whole: a name that does not resolve, a refused connection, a
//!   TLS failure, 3 failures in a row before any answer, or a wait
//!   asked for beyond the longest allowed. The links to it not yet asked
//!   get its verdict at once, so a run lasts at most about timeout ×
//!   (retries + 1) × ceil(links to a host / host concurrency) for its
//!   slowest host.
//!
//! Every target gets a result: a request task that panics gives its
//! target an `error` naming the panic.
//! - `address` refuses loopback, private and link-local addresses, of
//!   literals and of what names resolve to; a link whose own host is
//!   literally one is skipped, not requested.
//! - `fragments` checks the fragments that links ask for against a page
//!   as it streams in: only those are looked for, the page's tags are read
//!   in pieces, and a page is never held whole.
//! - `retry_after` parses `Retry-After`; `cache` keeps results between
//!   runs ([`Cache`]).

pub(crate) mod address;
mod cache;
mod fetch;
mod fragments;
pub(crate) mod retry_after;
mod schedule;

pub use cache::{Cache, CacheEntry, unix_seconds};

use std::fmt;
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::syntax::Parser;
use crate::syntax::normalize::normalize_scheme_based;

/// What the remote check says of a URI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RemoteStatus {
    /// Answered with an accepted status, without redirects.
    Ok,
    /// Answered with a status that is not accepted, or a redirect loop,
    /// or too many redirects.
    Broken,
    /// Answered with an accepted status after redirects.
    Redirected,
    /// Answered 429 Too Many Requests after every retry.
    RateLimited,
    /// No answer within the timeout, after every retry.
    Timeout,
    /// No answer: a connection or TLS error, a refused address.
    Error,
    /// Not requested: the host is literally a loopback, private or
    /// link-local one (`localhost`, `10.0.0.1`, `printer.local`), which
    /// a document names for its reader's machine. Not a failure.
    Skipped,
}

impl RemoteStatus {
    /// `ok`, `broken`, `redirected`, `rate-limited`, `timeout`, `error`
    /// or `skipped`.
    pub fn as_str(self) -> &'static str {
        match self {
            RemoteStatus::Ok => "ok",
            RemoteStatus::Broken => "broken",
            RemoteStatus::Redirected => "redirected",
            RemoteStatus::RateLimited => "rate-limited",
            RemoteStatus::Timeout => "timeout",
            RemoteStatus::Error => "error",
            RemoteStatus::Skipped => "skipped",
        }
    }

    /// The status named `name` by [`as_str`](Self::as_str).
    pub fn from_name(name: &str) -> Option<RemoteStatus> {
        [
            RemoteStatus::Ok,
            RemoteStatus::Broken,
            RemoteStatus::Redirected,
            RemoteStatus::RateLimited,
            RemoteStatus::Timeout,
            RemoteStatus::Error,
            RemoteStatus::Skipped,
        ]
        .into_iter()
        .find(|s| s.as_str() == name)
    }

    /// Whether the target answered as accepted (`ok` or `redirected`).
    pub fn is_success(self) -> bool {
        matches!(self, RemoteStatus::Ok | RemoteStatus::Redirected)
    }

    /// Whether the link fails the check: `broken`, `timeout`, `error`.
    /// (`rate-limited` says nothing about the link.)
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            RemoteStatus::Broken | RemoteStatus::Timeout | RemoteStatus::Error
        )
    }
}

impl fmt::Display for RemoteStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One redirect of a chain: the URI requested and the status that sent
/// the client on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hop {
    /// The URI requested.
    pub uri: String,
    /// Its redirect status (301, 302, 303, 307, 308).
    pub status: u16,
}

/// The result of one requested URI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteResult {
    status: RemoteStatus,
    http: Option<u16>,
    chain: Vec<Hop>,
    final_uri: String,
    elapsed: Duration,
    reason: Option<String>,
    missing: Vec<String>,
    requests: u32,
    cached: bool,
    refused: bool,
}

impl RemoteResult {
    /// The status.
    pub fn status(&self) -> RemoteStatus {
        self.status
    }
    /// The last HTTP status received, if any.
    pub fn http_status(&self) -> Option<u16> {
        self.http
    }
    /// The redirects followed, in order.
    pub fn chain(&self) -> &[Hop] {
        &self.chain
    }
    /// The URI of the last answer (the requested one without redirects).
    pub fn final_uri(&self) -> &str {
        &self.final_uri
    }
    /// The time from the first request to the result, retries and waits
    /// included.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }
    /// Why it is not `ok`, in words.
    pub fn reason(&self) -> Option<&str> {
        self.reason.as_deref()
    }
    /// The fragments asked for that the page does not define (with
    /// fragment checking on, for an HTML page).
    pub fn missing_fragments(&self) -> &[String] {
        &self.missing
    }
    /// The HTTP requests made for this result (0 when cached).
    pub fn requests(&self) -> u32 {
        self.requests
    }
    /// Whether the result came from the cache.
    pub fn is_cached(&self) -> bool {
        self.cached
    }
    /// Whether no request went out because the address was refused: a
    /// name that resolves to a loopback, private or link-local address,
    /// or a redirect to one (an [`Error`](RemoteStatus::Error)).
    pub fn is_refused(&self) -> bool {
        self.refused
    }

    /// A result taken from the cache instead of a request: its final
    /// URI the one cached for a redirect.
    pub fn from_cache(uri: &str, entry: CacheEntry) -> RemoteResult {
        RemoteResult {
            status: entry.status,
            http: entry.http,
            chain: vec![],
            final_uri: entry.final_uri.unwrap_or_else(|| uri.to_string()),
            elapsed: Duration::ZERO,
            reason: None,
            missing: vec![],
            requests: 0,
            cached: true,
            refused: false,
        }
    }
}

/// One URI to check, and the fragments its links want (checked with
/// [`RemoteCheckerBuilder::fragments`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteTarget {
    /// The URI, as [`request_uri`] gives it.
    pub uri: String,
    /// The fragments wanted, percent-decoded.
    pub fragments: Vec<String>,
}

/// What is requested for a link's target: `http` and `https` URIs only,
/// in their scheme-based normal form (RFC 3986 6.2.3: case, percent
/// encoding, dot segments, default port), without the fragment, which is
/// not sent, and without the userinfo, as credentials are never sent.
/// IRIs are accepted (their non-ASCII characters are encoded when sent).
/// `None` for other schemes and for URIs without a host.
///
/// ```
/// use uriscan::checking::remote::request_uri;
/// assert_eq!(
///     request_uri("HTTP://user:pw@Example.COM:80/a/../b#top").as_deref(),
///     Some("http://example.com/b")
/// );
/// assert_eq!(request_uri("https://h").as_deref(), Some("https://h/"));
/// assert_eq!(request_uri("mailto:a@b"), None);
/// assert_eq!(request_uri("http:///nohost"), None);
/// ```
pub fn request_uri(target: &str) -> Option<String> {
    let parser = Parser::new().iri(true);
    let r = parser.parse_uri(target).ok()?;
    let scheme = r.scheme()?;
    if !scheme.eq_ignore_ascii_case("http")
        && !scheme.eq_ignore_ascii_case("https")
    {
        return None;
    }
    let normal = normalize_scheme_based(&r);
    let n = parser.parse_uri(&normal).ok()?;
    let host = n.host().filter(|h| !h.is_empty())?;
    let mut out = String::with_capacity(normal.len());
    out.push_str(n.scheme()?);
    out.push_str("://");
    out.push_str(host);
    if let Some(port) = n.port().filter(|p| !p.is_empty()) {
        out.push(':');
        out.push_str(port);
    }
    out.push_str(n.path());
    if let Some(q) = n.query() {
        out.push('?');
        out.push_str(q);
    }
    Some(out)
}

/// The progress of a run, readable from another thread: requests in
/// flight and URIs done.
#[derive(Debug, Default)]
pub struct Progress {
    in_flight: AtomicUsize,
    done: AtomicUsize,
    /// Bytes of pages held while they are read for their fragments.
    body_bytes: AtomicUsize,
    peak_body_bytes: AtomicUsize,
}

impl Progress {
    /// Requests in flight now.
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::Relaxed)
    }
    /// URIs with a result.
    pub fn done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }
    /// The most bytes of pages held at once so far, while pages are read
    /// for their fragments: pages stream through the reader of their
    /// tags, so this stays near the size of one network read per page
    /// in flight, whatever the pages' size.
    pub fn peak_body_bytes(&self) -> usize {
        self.peak_body_bytes.load(Ordering::Relaxed)
    }
}

/// Configures a [`RemoteChecker`].
#[derive(Clone, Debug)]
pub struct RemoteCheckerBuilder {
    opts: Options,
}

#[derive(Clone, Debug)]
struct Options {
    max_redirects: usize,
    accept: Vec<RangeInclusive<u16>>,
    timeout: Duration,
    user_agent: String,
    headers: Vec<(String, String)>,
    max_concurrency: usize,
    host_concurrency: usize,
    retries: u32,
    retry_wait: Duration,
    max_retry_wait: Duration,
    allow_private: bool,
    github_token: Option<String>,
    fragments: bool,
    max_body: usize,
}

impl Default for RemoteCheckerBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl RemoteCheckerBuilder {
    /// The defaults: 10 redirects; 200 to 299 accepted; 20 s timeout;
    /// `uriscan/VERSION`; 64 requests at once, 4 per host; 3 retries from
    /// 1 s, waiting at most 60 s; private addresses refused; fragments
    /// not checked.
    pub fn new() -> Self {
        RemoteCheckerBuilder {
            opts: Options {
                max_redirects: 10,
                accept: vec![200..=299],
                timeout: Duration::from_secs(20),
                user_agent: concat!("uriscan/", env!("CARGO_PKG_VERSION"))
                    .to_string(),
                headers: vec![],
                max_concurrency: 64,
                host_concurrency: 4,
                retries: 3,
                retry_wait: Duration::from_secs(1),
                max_retry_wait: Duration::from_secs(60),
                allow_private: false,
                github_token: None,
                fragments: false,
                max_body: 16 << 20,
            },
        }
    }
    /// Redirects followed before the link is broken.
    pub fn max_redirects(&mut self, n: usize) -> &mut Self {
        self.opts.max_redirects = n;
        self
    }
    /// The accepted HTTP statuses.
    pub fn accept(&mut self, ranges: Vec<RangeInclusive<u16>>) -> &mut Self {
        self.opts.accept = ranges;
        self
    }
    /// The timeout of one request, body included.
    pub fn timeout(&mut self, t: Duration) -> &mut Self {
        self.opts.timeout = t;
        self
    }
    /// The `User-Agent` header.
    pub fn user_agent(&mut self, ua: String) -> &mut Self {
        self.opts.user_agent = ua;
        self
    }
    /// A header sent with every request.
    pub fn header(&mut self, name: String, value: String) -> &mut Self {
        self.opts.headers.push((name, value));
        self
    }
    /// Requests in flight at once, in all.
    pub fn max_concurrency(&mut self, n: usize) -> &mut Self {
        self.opts.max_concurrency = n.max(1);
        self
    }
    /// Requests in flight at once to one host (name and port).
    pub fn host_concurrency(&mut self, n: usize) -> &mut Self {
        self.opts.host_concurrency = n.max(1);
        self
    }
    /// Retries after a timeout, a lost connection, 429 or 5xx. A host
    /// that fails 3 times in a row, never having answered, is given up:
    /// its links not yet asked are reported at once.
    pub fn retries(&mut self, n: u32) -> &mut Self {
        self.opts.retries = n;
        self
    }
    /// The first retry's wait; each next one doubles it, with jitter.
    pub fn retry_wait(&mut self, d: Duration) -> &mut Self {
        self.opts.retry_wait = d;
        self
    }
    /// The longest wait before a retry. A `Retry-After` longer than this
    /// is not waited for: the link is reported rate limited (or as what
    /// it answered).
    pub fn max_retry_wait(&mut self, d: Duration) -> &mut Self {
        self.opts.max_retry_wait = d;
        self
    }
    /// Whether loopback, private and link-local addresses may be
    /// requested. When not, a URI whose host is literally one is
    /// [`Skipped`](RemoteStatus::Skipped), and a name that resolves to
    /// one, or a redirect to one, is an [`Error`](RemoteStatus::Error).
    pub fn allow_private(&mut self, yes: bool) -> &mut Self {
        self.opts.allow_private = yes;
        self
    }
    /// A GitHub token, sent as `Authorization: Bearer` to github.com and
    /// api.github.com over https, and nowhere else.
    pub fn github_token(&mut self, token: Option<String>) -> &mut Self {
        self.opts.github_token = token.filter(|t| !t.is_empty());
        self
    }
    /// Whether fragments are checked against the ids of HTML pages.
    pub fn fragments(&mut self, yes: bool) -> &mut Self {
        self.opts.fragments = yes;
        self
    }
    /// The bytes of a page read for its ids (16 MiB). A fragment not
    /// found in them is not reported missing: the result says it was not
    /// checked. Pages stream through the reader of their tags, so this
    /// bounds time, not memory.
    pub fn max_body(&mut self, bytes: usize) -> &mut Self {
        self.opts.max_body = bytes.max(1);
        self
    }
    /// The checker.
    ///
    /// # Errors
    ///
    /// When a header is not a valid one, or the HTTP client cannot be
    /// set up.
    pub fn build(&self) -> Result<RemoteChecker, RemoteError> {
        let client = fetch::client(&self.opts)?;
        Ok(RemoteChecker {
            opts: self.opts.clone(),
            client,
            progress: Arc::new(Progress::default()),
        })
    }
}

/// An error setting up the remote check.
#[derive(Debug)]
#[non_exhaustive]
pub enum RemoteError {
    /// The HTTP client could not be set up: a header that is not valid,
    /// or no TLS backend.
    Client(Box<dyn std::error::Error + Send + Sync>),
    /// The async runtime did not start.
    Runtime(std::io::Error),
}

impl fmt::Display for RemoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RemoteError::Client(e) => write!(f, "the HTTP client: {e}"),
            RemoteError::Runtime(e) => write!(f, "the async runtime: {e}"),
        }
    }
}

impl std::error::Error for RemoteError {}

/// The remote checker. See the [module docs](self).
#[derive(Debug)]
pub struct RemoteChecker {
    opts: Options,
    client: reqwest::Client,
    progress: Arc<Progress>,
}

impl RemoteChecker {
    /// A builder.
    pub fn builder() -> RemoteCheckerBuilder {
        RemoteCheckerBuilder::new()
    }

    /// The run's progress, to show while [`check`](Self::check) runs.
    pub fn progress(&self) -> Arc<Progress> {
        self.progress.clone()
    }

    /// Checks `targets`, each once, calling `each` on this thread with
    /// the target's index and result as results come (not in order).
    /// Returns when every target has its result.
    ///
    /// # Errors
    ///
    /// When the async runtime cannot start.
    pub fn check(
        &self,
        targets: &[RemoteTarget],
        mut each: impl FnMut(usize, RemoteResult),
    ) -> Result<(), RemoteError> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(RemoteError::Runtime)?;
        let wanted = match self.opts.fragments {
            true => fragments::Wanted::of(targets),
            false => fragments::Wanted::default(),
        };
        let ctx = Arc::new(fetch::Ctx::new(
            &self.opts,
            self.client.clone(),
            self.progress.clone(),
            wanted,
        ));
        rt.block_on(async {
            let tasks = targets.iter().map(|t| {
                let ctx = ctx.clone();
                let t = t.clone();
                async move {
                    let r = fetch::check_one(&ctx, &t.uri, &t.fragments).await;
                    ctx.progress.done.fetch_add(1, Ordering::Relaxed);
                    r
                }
            });
            each_result(targets, tasks, &self.progress, &mut each).await;
        });
        // The idle connections' tasks end with the runtime.
        rt.shutdown_background();
        Ok(())
    }
}

/// Runs each of `tasks` (the check of the target of the same index) on
/// its own task, calling `each` as they end. A task that panics or is
/// cancelled gives its target an `error` with the reason, so that every
/// target has a result.
async fn each_result<F>(
    targets: &[RemoteTarget],
    tasks: impl Iterator<Item = F>,
    progress: &Progress,
    each: &mut impl FnMut(usize, RemoteResult),
) where
    F: std::future::Future<Output = RemoteResult> + Send + 'static,
{
    let mut set = tokio::task::JoinSet::new();
    let mut index = std::collections::HashMap::new();
    for (i, task) in tasks.enumerate() {
        index.insert(set.spawn(task).id(), i);
    }
    while let Some(joined) = set.join_next_with_id().await {
        match joined {
            Ok((id, r)) => {
                if let Some(&i) = index.get(&id) {
                    each(i, r);
                }
            }
            Err(e) => {
                let Some(&i) = index.get(&e.id()) else { continue };
                progress.done.fetch_add(1, Ordering::Relaxed);
                each(i, RemoteResult::crashed(&targets[i].uri, &e));
            }
        }
    }
}

impl RemoteResult {
    /// The result of a request task that panicked or was cancelled.
    fn crashed(uri: &str, e: &tokio::task::JoinError) -> RemoteResult {
        let why = if e.is_panic() {
            "the request task panicked"
        } else {
            "the request task was cancelled"
        };
        RemoteResult::crashed_with(
            uri,
            format!("{why} (a bug in uriscan): {e}"),
        )
    }

    fn crashed_with(uri: &str, reason: String) -> RemoteResult {
        RemoteResult {
            status: RemoteStatus::Error,
            http: None,
            chain: vec![],
            final_uri: uri.to_string(),
            elapsed: Duration::ZERO,
            reason: Some(reason),
            missing: vec![],
            requests: 0,
            cached: false,
            refused: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_task_that_panics_gives_its_target_an_error() {
        type Task = std::pin::Pin<
            Box<dyn std::future::Future<Output = RemoteResult> + Send>,
        >;
        let targets: Vec<RemoteTarget> = ["http://a/", "http://b/"]
            .map(|uri| RemoteTarget { uri: uri.into(), fragments: vec![] })
            .to_vec();
        let fine = RemoteResult {
            status: RemoteStatus::Ok,
            ..RemoteResult::crashed_with("http://a/", String::new())
        };
        let tasks: Vec<Task> = vec![
            Box::pin(async move { fine }),
            Box::pin(async { panic!("a timer overflowed") }),
        ];
        let progress = Progress::default();
        let mut got = [None, None];
        each_result(&targets, tasks.into_iter(), &progress, &mut |i, r| {
            got[i] = Some(r)
        })
        .await;
        assert_eq!(got[0].as_ref().unwrap().status(), RemoteStatus::Ok);
        let crashed = got[1].as_ref().unwrap();
        assert_eq!(crashed.status(), RemoteStatus::Error);
        assert_eq!(crashed.final_uri(), "http://b/");
        let why = crashed.reason().unwrap();
        assert!(why.contains("panicked"), "{why}");
        assert!(why.contains("a timer overflowed"), "{why}");
        assert_eq!(progress.done(), 1);
    }

    #[test]
    fn request_uris() {
        for (t, want) in [
            ("http://a/b?c#d", Some("http://a/b?c")),
            ("https://A.example:443/%7euser", Some("https://a.example/~user")),
            ("http://u@h:8080", Some("http://h:8080/")),
            ("http://[::1]:80/x", Some("http://[::1]/x")),
            ("http://h:/x", Some("http://h/x")),
            ("http://ü.example/ä", Some("http://ü.example/ä")),
            ("ftp://h/", None),
            ("file:///etc/passwd", None),
            ("http:/x", None),
            ("not a uri", None),
        ] {
            assert_eq!(request_uri(t).as_deref(), want, "{t}");
        }
    }

    proptest::proptest! {
        /// What is requested is an http(s) URI with a host, no userinfo
        /// and no fragment, and a fixed point: asking again for it asks
        /// for the same URI.
        #[test]
        fn request_uris_are_fixed_points(
            scheme in "(?i)https?",
            user in proptest::option::of("[a-z]{1,3}(:[a-z]{0,3})?@"),
            host in "[A-Za-z0-9.-]{1,12}|\\[::1\\]",
            port in proptest::option::of(":[0-9]{0,5}"),
            path in "(/[a-zA-Z0-9._~%!$&'()*+,;=:@-]{0,6}){0,4}",
            query in proptest::option::of("\\?[a-z=&/?%]{0,8}"),
            frag in proptest::option::of("#[a-z%]{0,5}"),
        ) {
            let t = format!(
                "{scheme}://{}{host}{}{path}{}{}",
                user.unwrap_or_default(),
                port.unwrap_or_default(),
                query.unwrap_or_default(),
                frag.unwrap_or_default()
            );
            if let Some(u) = request_uri(&t) {
                let r = Parser::new().iri(true).parse_uri(&u).unwrap();
                proptest::prop_assert!(r.userinfo().is_none(), "{}", u);
                proptest::prop_assert!(r.fragment().is_none(), "{}", u);
                proptest::prop_assert!(!r.host().unwrap_or("").is_empty());
                let again = request_uri(&u);
                proptest::prop_assert_eq!(again.as_deref(), Some(u.as_str()));
            }
        }
    }

    #[test]
    fn statuses_round_trip_by_name() {
        for s in [
            RemoteStatus::Ok,
            RemoteStatus::Broken,
            RemoteStatus::Redirected,
            RemoteStatus::RateLimited,
            RemoteStatus::Timeout,
            RemoteStatus::Error,
            RemoteStatus::Skipped,
        ] {
            assert_eq!(RemoteStatus::from_name(s.as_str()), Some(s));
        }
        assert_eq!(RemoteStatus::from_name("fine"), None);
    }
}
