//! Asking for one URI: the HTTP client, HEAD then GET, redirects followed
//! by hand, retries. See the [module docs](super).

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{Method, StatusCode, Url};
use tokio::sync::OnceCell;
use tokio::time::Instant;

use super::address::{
    RefusedName, SafeResolver, literal_local_host, refused_range,
};
use super::fragments::{Found, PageFragments, Wanted};
use super::retry_after::parse_retry_after;
use super::schedule::{FailureKind, HostVerdict, Scheduler};
use super::{Hop, Options, Progress, RemoteError, RemoteResult, RemoteStatus};

/// The HTTP client: no redirects (followed by hand), no proxy (a proxy
/// would resolve names where the address check cannot see them), the
/// address-checking resolver unless private addresses are allowed.
pub(super) fn client(opts: &Options) -> Result<reqwest::Client, RemoteError> {
    // rustls needs a crypto provider; ring's, unless the embedder
    // installed another one.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut b = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .user_agent(opts.user_agent.clone())
        .connect_timeout(opts.timeout)
        .pool_max_idle_per_host(opts.host_concurrency)
        .tcp_nodelay(true);
    if !opts.allow_private {
        b = b.dns_resolver(Arc::new(SafeResolver));
    }
    b.build().map_err(|e| RemoteError::Client(Box::new(e)))
}

/// Each hop's answer, asked once per run: a redirect to a URI that is
/// also linked directly, or that several chains share, is not asked
/// again. Keyed by the URI and whether the body was read.
type Memo = std::sync::Mutex<
    std::collections::HashMap<
        (String, bool),
        Arc<OnceCell<Result<Answer, Failure>>>,
    >,
>;

/// What every task shares.
pub(super) struct Ctx {
    client: reqwest::Client,
    memo: Memo,
    sched: Scheduler,
    headers: HeaderMap,
    opts: Options,
    pub(super) progress: Arc<Progress>,
    /// The fragments the run's links ask for: all a page is read for.
    wanted: Wanted,
}

impl Ctx {
    pub(super) fn new(
        opts: &Options,
        client: reqwest::Client,
        progress: Arc<Progress>,
        wanted: Wanted,
    ) -> Ctx {
        let mut headers = HeaderMap::new();
        headers.insert(
            reqwest::header::ACCEPT,
            HeaderValue::from_static(
                "text/html,application/xhtml+xml,*/*;q=0.8",
            ),
        );
        for (name, value) in &opts.headers {
            // Checked by the caller; a bad one is skipped, not sent.
            if let (Ok(n), Ok(v)) = (
                HeaderName::from_bytes(name.as_bytes()),
                HeaderValue::from_str(value),
            ) {
                headers.append(n, v);
            }
        }
        Ctx {
            client,
            memo: Memo::default(),
            sched: Scheduler::new(
                opts.max_concurrency,
                opts.host_concurrency,
                opts.retry_wait,
                opts.max_retry_wait,
            ),
            headers,
            opts: opts.clone(),
            progress,
            wanted,
        }
    }
}

/// What one request got: a status and what the caller needs of the
/// headers and body.
#[derive(Clone)]
struct Answer {
    status: StatusCode,
    location: Option<String>,
    retry_after: Option<Duration>,
    /// The wanted fragments the page defines, when the body was read
    /// for them.
    found: Option<Found>,
    /// The body could not be read whole (fragments wanted).
    body_error: Option<String>,
}

/// Why a request got no answer.
#[derive(Clone)]
struct Failure {
    status: RemoteStatus,
    reason: String,
    /// Worth another try (timeouts, connections lost once made).
    retry: bool,
    /// A fact about the host, not the link (its name does not resolve, it
    /// refuses connections, TLS fails): decided once for every link.
    of_host: bool,
    /// Whether a request went out (an address refused after the lookup
    /// is not one).
    sent: bool,
    /// The address was refused (loopback, private, link-local).
    refused: bool,
}

impl From<HostVerdict> for Failure {
    fn from(v: HostVerdict) -> Failure {
        Failure {
            status: v.status,
            reason: v.reason,
            retry: false,
            of_host: true,
            sent: false,
            refused: v.refused,
        }
    }
}

/// Checks one URI: follows its redirects and classifies the last answer.
pub(super) async fn check_one(
    ctx: &Ctx,
    uri: &str,
    fragments: &[String],
) -> RemoteResult {
    let start = Instant::now();
    if let Some(why) = skipped_as_local(uri, ctx.opts.allow_private) {
        return RemoteResult {
            status: RemoteStatus::Skipped,
            http: None,
            chain: vec![],
            final_uri: uri.to_string(),
            elapsed: Duration::ZERO,
            reason: Some(why.into()),
            missing: vec![],
            requests: 0,
            cached: false,
            refused: false,
        };
    }
    let mut chain: Vec<Hop> = vec![];
    let mut requests = 0u32;
    let end = follow(ctx, uri, fragments, &mut chain, &mut requests).await;
    RemoteResult {
        status: end.status,
        http: end.http,
        chain,
        final_uri: end.uri,
        elapsed: start.elapsed(),
        reason: end.reason,
        missing: end.missing,
        requests,
        cached: false,
        refused: end.refused,
    }
}

/// How a chain of requests ended.
struct End {
    status: RemoteStatus,
    http: Option<u16>,
    uri: String,
    reason: Option<String>,
    missing: Vec<String>,
    /// The address was refused: no request went out.
    refused: bool,
}

impl End {
    fn new(
        status: RemoteStatus,
        http: Option<u16>,
        uri: String,
        reason: String,
    ) -> End {
        let reason = Some(reason);
        End { status, http, uri, reason, missing: vec![], refused: false }
    }

    /// No request to `uri`: its address is refused.
    fn refused(uri: String, reason: String) -> End {
        End {
            refused: true,
            ..End::new(RemoteStatus::Error, None, uri, reason)
        }
    }
}

/// Requests `uri` and the redirects it leads to, recording the chain.
async fn follow(
    ctx: &Ctx,
    uri: &str,
    fragments: &[String],
    chain: &mut Vec<Hop>,
    requests: &mut u32,
) -> End {
    use RemoteStatus::{Broken, Error};
    let need_body = ctx.opts.fragments && !fragments.is_empty();
    let mut seen: HashSet<String> = HashSet::new();
    let mut current = uri.to_string();
    seen.insert(current.clone());
    loop {
        let url = match Url::parse(&current) {
            Ok(u) if matches!(u.scheme(), "http" | "https") => u,
            Ok(_) => {
                let why = "redirected to a URI that is not http or https";
                return End::new(Broken, None, current, why.into());
            }
            Err(e) => {
                let why = format!("cannot be requested: {e}");
                return End::new(Error, None, current, why);
            }
        };
        if let Some(why) = refused_literal(&url, ctx.opts.allow_private) {
            return End::refused(current, why);
        }
        let cell = ctx
            .memo
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry((current.clone(), need_body))
            .or_default()
            .clone();
        let mut n = 0;
        let answer = cell
            .get_or_init(|| async {
                let (r, made) = ask_with_retries(ctx, &url, need_body).await;
                n = made;
                r
            })
            .await
            .clone();
        *requests += n;
        let a = match answer {
            Ok(a) => a,
            Err(f) if f.refused => return End::refused(current, f.reason),
            Err(f) => return End::new(f.status, None, current, f.reason),
        };
        let code = a.status.as_u16();
        if a.status.is_redirection()
            && let Some(loc) = &a.location
        {
            let Some(next) = next_uri(&current, loc) else {
                let why = format!("redirected to a malformed URI '{loc}'");
                return End::new(Broken, Some(code), current, why);
            };
            chain.push(Hop { uri: current, status: code });
            if !seen.insert(next.clone()) {
                let why = format!("redirect loop back to {next}");
                return End::new(Broken, Some(code), next, why);
            }
            if chain.len() > ctx.opts.max_redirects {
                let why =
                    format!("more than {} redirects", ctx.opts.max_redirects);
                return End::new(Broken, Some(code), next, why);
            }
            current = next;
            continue;
        }
        let accepted = ctx.opts.accept.iter().any(|r| r.contains(&code));
        let (status, reason) = if accepted {
            match a.body_error {
                Some(e) => (Error, Some(e)),
                None if chain.is_empty() => (RemoteStatus::Ok, None),
                None => (RemoteStatus::Redirected, None),
            }
        } else if code == 429 {
            (RemoteStatus::RateLimited, Some(status_words(a.status)))
        } else {
            (Broken, Some(status_words(a.status)))
        };
        let (missing, reason) = match (&a.found, accepted) {
            (Some(found), true) => match found.missing(&ctx.wanted, fragments)
            {
                Ok(missing) => (missing, reason),
                // Not found in the part read says nothing of the rest.
                Err(unread) => (vec![], Some(unread)),
            },
            _ => (vec![], reason),
        };
        return End {
            status,
            http: Some(code),
            uri: current,
            reason,
            missing,
            refused: false,
        };
    }
}

/// `404 Not Found`.
fn status_words(s: StatusCode) -> String {
    match s.canonical_reason() {
        Some(r) => format!("{} {r}", s.as_u16()),
        None => s.as_u16().to_string(),
    }
}

/// Why an IP literal is not requested, if it is refused.
fn refused_literal(url: &Url, allow_private: bool) -> Option<String> {
    if allow_private {
        return None;
    }
    // The URL parser writes IP hosts in their canonical form: an IPv6
    // one in brackets, an IPv4 one (whatever its form in the link) as a
    // dotted quad.
    let host = url.host_str()?;
    let ip: std::net::IpAddr =
        host.trim_start_matches('[').trim_end_matches(']').parse().ok()?;
    let range = refused_range(ip)?;
    Some(format!(
        "not requested: {ip} is {} {range} address (--allow-private to check it)",
        article(range)
    ))
}

/// Why a requested URI is skipped: its own host is literally a local one
/// (only the link's host: a redirect to one is refused as an error).
fn skipped_as_local(uri: &str, allow_private: bool) -> Option<&'static str> {
    let url = Url::parse(uri).ok()?;
    (!allow_private && literal_local_host(&url).is_some())
        .then_some("private address (not requested)")
}

/// `a` or `an`, for the word that follows.
pub(super) fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
}

/// The redirect target: `Location` resolved against the URI it came from
/// (RFC 9110 10.2.2, by RFC 3986 section 5), in the form requested.
fn next_uri(current: &str, location: &str) -> Option<String> {
    let parser = crate::syntax::Parser::new().iri(true);
    let resolved =
        crate::syntax::resolve::resolve_with(parser, current, location)
            .ok()
            // Servers send Locations with spaces and other characters no URI
            // has; browsers encode them, and so does the URL parser.
            .or_else(|| {
                Some(
                    Url::parse(current).ok()?.join(location).ok()?.to_string(),
                )
            })?;
    super::request_uri(&resolved).or(Some(resolved))
}

/// The host key of the scheduler: host and port.
fn host_key(url: &Url) -> String {
    format!(
        "{}:{}",
        url.host_str().unwrap_or(""),
        url.port_or_known_default().unwrap_or(0)
    )
}

/// One URI asked, with retries on timeouts, lost connections, 429 and
/// 5xx; returns the last answer or failure and the requests made. A link
/// to a host with a verdict gets it without a request; one that has an
/// answer of its own when its host is given up reports that answer.
async fn ask_with_retries(
    ctx: &Ctx,
    url: &Url,
    need_body: bool,
) -> (Result<Answer, Failure>, u32) {
    let host = host_key(url);
    if let Some(why) = reserved_name(url) {
        let verdict = HostVerdict {
            status: RemoteStatus::Error,
            reason: why,
            refused: false,
        };
        ctx.sched.decide(&host, verdict);
    }
    let mut attempt = 0;
    let mut requests = 0;
    // Once HEAD has been found wanting, the retries ask with GET.
    let mut head = !need_body;
    loop {
        let permit = match ctx.sched.acquire(&host).await {
            Ok(p) => p,
            Err(v) => return (Err(v.into()), requests),
        };
        ctx.progress.in_flight.fetch_add(1, Ordering::Relaxed);
        let (r, n, head_ok) = ask(ctx, url, need_body, head).await;
        ctx.progress.in_flight.fetch_sub(1, Ordering::Relaxed);
        drop(permit);
        requests += n;
        head &= head_ok;
        let (kind, asked) = match &r {
            Ok(a) => {
                let code = a.status.as_u16();
                let accepted =
                    ctx.opts.accept.iter().any(|r| r.contains(&code));
                let kind = if a.body_error.is_some() {
                    Some(FailureKind::Other)
                } else if accepted {
                    None
                } else if code == 429 {
                    Some(FailureKind::RateLimited)
                } else if a.status.is_server_error() {
                    Some(FailureKind::Other)
                } else {
                    None
                };
                (kind, a.retry_after)
            }
            Err(f) if f.of_host => {
                let verdict = HostVerdict {
                    status: f.status,
                    reason: f.reason.clone(),
                    refused: f.refused,
                };
                ctx.sched.decide(&host, verdict);
                return (r, requests);
            }
            Err(f) if f.retry && f.status == RemoteStatus::Timeout => {
                (Some(FailureKind::Timeout), None)
            }
            Err(f) if f.retry => (Some(FailureKind::Other), None),
            Err(_) => (None, None),
        };
        let Some(kind) = kind else {
            ctx.sched.succeeded(&host);
            return (r, requests);
        };
        let wait = ctx.sched.failed(&host, attempt, kind, asked);
        // A server that asks for a longer wait than allowed gets its
        // answer reported, not a request sooner than it asked; so does
        // one given up.
        if attempt >= ctx.opts.retries || ctx.sched.verdict(&host).is_some() {
            return (r, requests);
        }
        tokio::time::sleep(wait).await;
        attempt += 1;
    }
}

/// Why a name is not looked up: `.invalid` never resolves (RFC 6761
/// section 6.4), and asking a resolver about it would only leak it.
fn reserved_name(url: &Url) -> Option<String> {
    let host = url.host_str()?.trim_end_matches('.');
    let tld = host.rsplit('.').next()?;
    tld.eq_ignore_ascii_case("invalid")
        .then(|| format!("{host} does not resolve: .invalid is reserved"))
}

/// One try: HEAD, then GET when HEAD gets no accepted answer that is
/// not a redirect (some servers answer HEAD 404, 405 or 500 and GET 200),
/// unless it is 429, or when the connection drops; GET at once when the
/// body is needed or `head` is false. Returns the answer, the requests
/// made, and whether HEAD may be trusted on the next try.
async fn ask(
    ctx: &Ctx,
    url: &Url,
    need_body: bool,
    head: bool,
) -> (Result<Answer, Failure>, u32, bool) {
    if need_body || !head {
        let r = get(ctx, url, need_body).await;
        let n = sent(&r);
        return (r, n, head);
    }
    match send(ctx, Method::HEAD, url).await {
        Ok(resp) => {
            let s = resp.status();
            let accepted =
                ctx.opts.accept.iter().any(|r| r.contains(&s.as_u16()));
            if accepted || s.is_redirection() || s.as_u16() == 429 {
                return (Ok(answer(&resp, None, None)), 1, true);
            }
        }
        Err(e) => {
            let f = failure(&e);
            // A connection dropped (some servers close on HEAD); a
            // timeout or a fact about the host would only repeat.
            if !f.retry || f.status == RemoteStatus::Timeout {
                let n = u32::from(f.sent);
                return (Err(f), n, true);
            }
        }
    }
    let r = get(ctx, url, false).await;
    let n = 1 + sent(&r);
    (r, n, false)
}

/// 1 when a request went out for this result, else 0.
fn sent(r: &Result<Answer, Failure>) -> u32 {
    u32::from(r.as_ref().map_or_else(|f| f.sent, |_| true))
}

async fn get(
    ctx: &Ctx,
    url: &Url,
    need_body: bool,
) -> Result<Answer, Failure> {
    let mut resp =
        send(ctx, Method::GET, url).await.map_err(|e| failure(&e))?;
    let html = resp
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            let v = v.trim_start().to_ascii_lowercase();
            v.starts_with("text/html") || v.starts_with("application/xhtml")
        });
    if !(need_body && resp.status().is_success() && html) {
        // Only the status was wanted: the body is not read, and the
        // connection goes with it.
        return Ok(answer(&resp, None, None));
    }
    let mut page = PageFragments::new(&ctx.wanted, &ctx.progress);
    let mut read = 0usize;
    loop {
        match resp.chunk().await {
            Ok(Some(c)) => {
                let room = ctx.opts.max_body - read;
                read += c.len();
                if c.len() > room {
                    page.push(&c[..room]);
                    page.stop(format!(
                        "past the first {} bytes of the page (--max-body)",
                        ctx.opts.max_body
                    ));
                    break;
                }
                if !page.push(&c) {
                    break;
                }
            }
            Ok(None) => break,
            Err(e) => {
                let why = format!("the body was cut short: {}", describe(&e));
                return Ok(answer(&resp, None, Some(why)));
            }
        }
    }
    Ok(answer(&resp, Some(page.finish()), None))
}

fn answer(
    resp: &reqwest::Response,
    found: Option<Found>,
    body_error: Option<String>,
) -> Answer {
    let h = resp.headers();
    let text = |name| h.get(name).and_then(|v: &HeaderValue| v.to_str().ok());
    Answer {
        status: resp.status(),
        location: h.get(reqwest::header::LOCATION).map(location_text),
        retry_after: text(reqwest::header::RETRY_AFTER)
            .and_then(|v| parse_retry_after(v, SystemTime::now())),
        found,
        body_error,
    }
}

/// A `Location` as text: its bytes past ASCII percent-encoded when it is
/// not UTF-8 (a Latin-1 one, say), as browsers send them.
fn location_text(value: &HeaderValue) -> String {
    if let Ok(text) = std::str::from_utf8(value.as_bytes()) {
        return text.to_string();
    }
    let mut out = String::with_capacity(value.len() * 3);
    for &b in value.as_bytes() {
        if b.is_ascii() {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

async fn send(
    ctx: &Ctx,
    method: Method,
    url: &Url,
) -> Result<reqwest::Response, reqwest::Error> {
    request(ctx, method, url).send().await
}

/// The request for one hop. The client follows no redirect itself, so
/// each hop is a request of its own, and `GITHUB_TOKEN` is decided anew
/// for its URL: never carried to the next host.
fn request(ctx: &Ctx, method: Method, url: &Url) -> reqwest::RequestBuilder {
    let mut req = ctx
        .client
        .request(method, url.clone())
        .headers(ctx.headers.clone())
        .timeout(ctx.opts.timeout);
    if let Some(token) = &ctx.opts.github_token
        && takes_github_token(url)
    {
        req = req.bearer_auth(token);
    }
    req
}

/// Whether `GITHUB_TOKEN` goes with a request to `url`: GitHub's own
/// hosts, over https, on the default port.
fn takes_github_token(url: &Url) -> bool {
    url.scheme() == "https"
        && matches!(url.host_str(), Some("github.com" | "api.github.com"))
        && url.port().is_none()
}

/// What a failed request says: a refused address, a name that does not
/// resolve, a refused connection and a TLS failure are facts about the
/// host; a timeout and a connection lost once made are worth a retry.
fn failure(e: &reqwest::Error) -> Failure {
    if let Some(refused) = find_source::<RefusedName>(e) {
        return Failure {
            status: RemoteStatus::Error,
            reason: refused.to_string(),
            retry: false,
            of_host: true,
            sent: false,
            refused: true,
        };
    }
    if e.is_timeout() {
        return Failure {
            status: RemoteStatus::Timeout,
            reason: "timed out".into(),
            retry: true,
            of_host: false,
            sent: true,
            refused: false,
        };
    }
    let of_host = e.is_connect();
    Failure {
        status: RemoteStatus::Error,
        reason: describe(e),
        retry: !of_host,
        of_host,
        // A refused connection is a request that went out.
        sent: true,
        refused: false,
    }
}

/// The error and its causes, without the URL (which may be long, and is
/// printed beside it anyway).
fn describe(e: &reqwest::Error) -> String {
    let mut out = String::new();
    let mut cur: Option<&dyn std::error::Error> = Some(e);
    let mut first = true;
    while let Some(err) = cur {
        let msg = if first {
            // reqwest's own message names the URL; keep its kind only.
            let full = err.to_string();
            match full.find(" for url (") {
                Some(i) => full[..i].to_string(),
                None => full,
            }
        } else {
            err.to_string()
        };
        if !out.contains(&msg) {
            if !out.is_empty() {
                out.push_str(": ");
            }
            out.push_str(&msg);
        }
        first = false;
        cur = err.source();
    }
    out
}

fn find_source<'a, T: std::error::Error + 'static>(
    e: &'a (dyn std::error::Error + 'static),
) -> Option<&'a T> {
    let mut cur = Some(e);
    while let Some(err) = cur {
        if let Some(t) = err.downcast_ref::<T>() {
            return Some(t);
        }
        cur = err.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirect_targets() {
        assert_eq!(
            next_uri("http://a/b/c", "../d#f").as_deref(),
            Some("http://a/d")
        );
        assert_eq!(
            next_uri("http://a/b", "HTTPS://B:443/x").as_deref(),
            Some("https://b/x")
        );
        // Characters no URI has are encoded, as browsers do.
        assert_eq!(
            next_uri("http://a/b", "/a b").as_deref(),
            Some("http://a/a%20b")
        );
    }

    #[test]
    fn the_github_token_goes_to_github_only() {
        let yes = |s| takes_github_token(&Url::parse(s).unwrap());
        assert!(yes("https://github.com/rust-lang/rust"));
        assert!(yes("https://api.github.com/repos/a/b"));
        assert!(yes("https://GitHub.com/a"));
        assert!(!yes("http://github.com/a"));
        assert!(!yes("https://github.com:8443/a"));
        assert!(!yes("https://gist.github.com/a"));
        assert!(!yes("https://github.com.evil.example/a"));
        assert!(!yes("https://evil.example/github.com"));
        assert!(!yes("https://raw.githubusercontent.com/a"));
    }

    #[test]
    fn links_to_local_hosts_are_skipped_unless_allowed() {
        for uri in [
            "http://localhost:3000/",
            "http://LocalHost./x",
            "http://app.localhost/",
            "http://printer.local/",
            "http://127.0.0.1:8080/",
            "http://[::1]/",
            "http://10.1.2.3/",
            "http://192.168.0.1/",
            "http://172.20.0.1/",
            "http://169.254.169.254/latest",
            "http://[fe80::1]/",
            "http://[fd00::1]/",
            "http://[::ffff:192.168.0.1]/",
            "http://0x7f.1/",
        ] {
            assert_eq!(
                skipped_as_local(uri, false),
                Some("private address (not requested)"),
                "{uri}"
            );
            assert_eq!(skipped_as_local(uri, true), None, "{uri}");
        }
        for uri in [
            "http://example.com/",
            "http://8.8.8.8/",
            "http://local/",
            "http://localhost.example/",
            "http://[2606:4700::1111]/",
        ] {
            assert_eq!(skipped_as_local(uri, false), None, "{uri}");
        }
    }

    /// A context with `GITHUB_TOKEN` set.
    fn ctx_with_token() -> Ctx {
        let mut b = super::super::RemoteCheckerBuilder::new();
        b.github_token(Some("secret".into())).allow_private(true);
        Ctx::new(
            &b.opts,
            client(&b.opts).unwrap(),
            Arc::default(),
            Wanted::default(),
        )
    }

    #[test]
    fn the_github_token_is_decided_for_each_hop() {
        let ctx = ctx_with_token();
        let auth = |s: &str| {
            let r = request(&ctx, Method::GET, &Url::parse(s).unwrap());
            r.build().unwrap().headers().get("authorization").cloned()
        };
        // github.com redirecting to another host: the first hop carries
        // the token, the next one, a request of its own, does not.
        assert_eq!(auth("https://github.com/a/b").unwrap(), "Bearer secret");
        assert_eq!(auth("https://evil.example/b"), None);
        assert_eq!(auth("http://github.com/a/b"), None);
    }

    #[test]
    fn the_client_follows_no_redirect_itself() {
        // A redirect to another host answered to the client as is: reqwest
        // never sends the request, or its headers, on to the next host.
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            let listener =
                tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let port = listener.local_addr().unwrap().port();
            let server = tokio::spawn(async move {
                let mut served = 0;
                while let Ok(Ok((mut conn, _))) = tokio::time::timeout(
                    Duration::from_millis(500),
                    listener.accept(),
                )
                .await
                {
                    let mut buf = [0u8; 4096];
                    let _ = conn.read(&mut buf).await;
                    let answer = format!(
                        "HTTP/1.1 302 Found\r\nLocation: http://localhost:{port}/next\r\n\
                         Content-Length: 0\r\nConnection: close\r\n\r\n"
                    );
                    let _ = conn.write_all(answer.as_bytes()).await;
                    served += 1;
                }
                served
            });
            let ctx = ctx_with_token();
            let url = Url::parse(&format!("http://127.0.0.1:{port}/")).unwrap();
            let resp = send(&ctx, Method::GET, &url).await.unwrap();
            assert_eq!(resp.status(), StatusCode::FOUND);
            drop(resp);
            assert_eq!(server.await.unwrap(), 1);
        });
    }

    #[test]
    fn a_name_refused_after_its_lookup_is_no_request() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let opts = super::super::RemoteCheckerBuilder::new().opts;
        let ctx = Ctx::new(
            &opts,
            client(&opts).unwrap(),
            Arc::default(),
            Wanted::default(),
        );
        // `localhost` is looked up (in /etc/hosts), found loopback and
        // refused before any connection; the next link to it gets the
        // host's verdict.
        for path in ["/a", "/b"] {
            let uri = format!("http://localhost:9{path}");
            let (mut chain, mut requests) = (vec![], 0);
            let end = rt.block_on(follow(
                &ctx,
                &uri,
                &[],
                &mut chain,
                &mut requests,
            ));
            assert_eq!(end.status, RemoteStatus::Error);
            assert!(end.refused, "{:?}", end.reason);
            assert!(end.reason.unwrap().contains("a loopback address"));
            assert_eq!(requests, 0);
        }
    }

    #[test]
    fn literals_refused_unless_allowed() {
        let u = |s| Url::parse(s).unwrap();
        assert!(refused_literal(&u("http://127.0.0.1/"), false).is_some());
        assert_eq!(
            refused_literal(&u("http://0.0.0.0/"), false).as_deref(),
            Some(
                "not requested: 0.0.0.0 is an unspecified address \
                 (--allow-private to check it)"
            )
        );
        assert!(refused_literal(&u("http://[::1]/"), false).is_some());
        // WHATWG URL parsing reads this reg-name as 127.0.0.1: judged as
        // what is connected to.
        assert!(refused_literal(&u("http://2130706433/"), false).is_some());
        assert!(refused_literal(&u("http://127.0.0.1/"), true).is_none());
        assert!(refused_literal(&u("http://8.8.8.8/"), false).is_none());
        assert!(refused_literal(&u("http://example.com/"), false).is_none());
    }
}
