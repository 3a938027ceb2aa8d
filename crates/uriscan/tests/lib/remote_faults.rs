//! The remote checker against failing hosts on 127.0.0.1, each a server
//! of its own (so a host of its own) in this process: a host that accepts
//! and never answers, a refused port, a name that never resolves, a host
//! that answers 503 or asks for an hour's wait, servers whose HEAD lies,
//! a `Location` that is not UTF-8, an absurd retry wait. Each run is
//! bounded in time: a run past its budget fails the test instead of
//! hanging it. No packet leaves the machine: `.invalid` names are never
//! looked up.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::support::large_page::large_page;
use bytes::Bytes;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::{Response, StatusCode};
use uriscan::checking::remote::{
    RemoteChecker, RemoteCheckerBuilder, RemoteResult, RemoteStatus,
    RemoteTarget,
};

type Resp = Response<BoxBody<Bytes, Infallible>>;

/// What a test server answers, from the method and the path.
type Answer = fn(&str, &str) -> Resp;

/// A server on 127.0.0.1 answering with `answer`, or accepting and never
/// answering; it counts connections and requests, and stops when dropped.
struct Host {
    port: u16,
    connections: Arc<AtomicUsize>,
    requests: Arc<std::sync::Mutex<Vec<(String, String)>>>,
    rt: Option<tokio::runtime::Runtime>,
}

impl Drop for Host {
    fn drop(&mut self) {
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }
}

impl Host {
    /// A host answering with `answer`; `None`: accepting and never
    /// answering.
    fn start(answer: Option<Answer>) -> Host {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let listener =
            rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
        let port = listener.local_addr().unwrap().port();
        let connections = Arc::new(AtomicUsize::new(0));
        let requests = Arc::new(std::sync::Mutex::new(vec![]));
        let (c, r) = (connections.clone(), requests.clone());
        rt.spawn(async move {
            let mut held = vec![];
            while let Ok((stream, _)) = listener.accept().await {
                c.fetch_add(1, Ordering::SeqCst);
                let Some(answer) = answer else {
                    // Accepted, never answered, never closed.
                    held.push(stream);
                    continue;
                };
                let r = r.clone();
                tokio::spawn(async move {
                    let svc = hyper::service::service_fn(move |req| {
                        let method = req.method().to_string();
                        let path = req.uri().path().to_string();
                        r.lock().unwrap().push((method.clone(), path.clone()));
                        async move {
                            Ok::<_, Infallible>(answer(&method, &path))
                        }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(
                            hyper_util::rt::TokioIo::new(stream),
                            svc,
                        )
                        .await;
                });
            }
        });
        Host { port, connections, requests, rt: Some(rt) }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Requests of `method` to `path`.
    fn count(&self, method: &str, path: &str) -> usize {
        let r = self.requests.lock().unwrap();
        r.iter().filter(|(m, p)| m == method && p == path).count()
    }

    fn total(&self) -> usize {
        self.requests.lock().unwrap().len()
    }
}

fn respond(status: u16) -> Resp {
    let mut r = Response::new(Full::new(Bytes::new()).boxed());
    *r.status_mut() = StatusCode::from_u16(status).unwrap();
    r
}

fn fast() -> RemoteCheckerBuilder {
    let mut b = RemoteChecker::builder();
    b.allow_private(true)
        .timeout(Duration::from_millis(300))
        .retries(3)
        .retry_wait(Duration::from_millis(10))
        .max_retry_wait(Duration::from_secs(5))
        .host_concurrency(4);
    b
}

fn targets(uris: impl IntoIterator<Item = String>) -> Vec<RemoteTarget> {
    uris.into_iter()
        .map(|uri| RemoteTarget { uri, fragments: vec![] })
        .collect()
}

/// `n` distinct links to `base`.
fn links(base: &str, n: usize) -> Vec<RemoteTarget> {
    targets((0..n).map(|i| format!("{base}/{i}")))
}

/// Checks `targets` on another thread; fails the test when the run takes
/// longer than `budget`, or when a target has no result. Returns the
/// results in order and the time taken.
fn run_within(
    b: &RemoteCheckerBuilder,
    targets: Vec<RemoteTarget>,
    budget: Duration,
) -> (Vec<RemoteResult>, Duration) {
    let checker = b.build().unwrap();
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    std::thread::spawn(move || {
        let mut out = vec![None; targets.len()];
        checker.check(&targets, |i, r| out[i] = Some(r)).unwrap();
        let _ = tx.send(out);
    });
    let out = rx
        .recv_timeout(budget)
        .unwrap_or_else(|_| panic!("the run took longer than {budget:?}"));
    let took = start.elapsed();
    let out = out
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.unwrap_or_else(|| panic!("target {i} has no result")))
        .collect();
    (out, took)
}

/// The run's bound for one host: timeout × (retries + 1) × ceil(links /
/// host concurrency).
fn bound(
    timeout: Duration,
    retries: u32,
    links: u32,
    per_host: u32,
) -> Duration {
    timeout * (retries + 1) * links.div_ceil(per_host)
}

#[test]
fn a_host_that_never_answers_costs_one_timeout_not_two_hundred() {
    let host = Host::start(None);
    let (r, took) =
        run_within(&fast(), links(&host.url(""), 200), Duration::from_secs(5));
    // Far below the bound (60 s here): the first four time out together,
    // and the host is given up.
    assert!(
        took < bound(Duration::from_millis(300), 3, 200, 4) / 20,
        "{took:?}"
    );
    assert!(r.iter().all(|r| r.status() == RemoteStatus::Timeout));
    let given_up = r
        .iter()
        .filter(|r| r.reason() == Some("host unreachable after 3 failures"))
        .count();
    assert!(given_up >= 190, "{given_up}");
    assert!(host.connections.load(Ordering::SeqCst) <= 8);
}

#[test]
fn a_refused_port_is_tried_once_for_every_link() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut b = fast();
    b.host_concurrency(1);
    let (r, took) = run_within(
        &b,
        links(&format!("http://127.0.0.1:{port}"), 40),
        Duration::from_secs(5),
    );
    assert!(took < Duration::from_secs(2), "{took:?}");
    for r in &r {
        assert_eq!(r.status(), RemoteStatus::Error);
        assert!(r.reason().unwrap().contains("connect"), "{r:?}");
    }
    // One connection tried for the host, not one per link and retry.
    assert_eq!(r.iter().map(RemoteResult::requests).sum::<u32>(), 1);
}

#[test]
fn a_name_that_never_resolves_is_not_looked_up() {
    let (r, took) = run_within(
        &fast(),
        links("http://nowhere.invalid", 50),
        Duration::from_secs(5),
    );
    assert!(took < Duration::from_secs(1), "{took:?}");
    for r in &r {
        assert_eq!(r.status(), RemoteStatus::Error);
        assert_eq!(
            r.reason(),
            Some("nowhere.invalid does not resolve: .invalid is reserved")
        );
        assert_eq!(r.requests(), 0);
    }
}

#[test]
fn a_host_answering_503_is_given_up_after_three_failures() {
    let host = Host::start(Some(|_, _| respond(503)));
    let (r, took) =
        run_within(&fast(), links(&host.url(""), 40), Duration::from_secs(5));
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(r.iter().all(|r| r.status().is_failure()), "{r:?}");
    let given_up = r
        .iter()
        .filter(|r| r.reason() == Some("host unreachable after 3 failures"))
        .count();
    assert!(given_up >= 36, "{given_up}");
    // The four first links, each HEAD and the GET that confirms it, and
    // maybe a retry or two begun before the host was given up.
    assert!(host.total() <= 12, "{}", host.total());
}

#[test]
fn an_hours_retry_after_marks_the_host_rate_limited_at_once() {
    fn answer(_: &str, _: &str) -> Resp {
        let mut r = respond(429);
        r.headers_mut().insert("retry-after", "3600".parse().unwrap());
        r
    }
    let host = Host::start(Some(answer));
    let (r, took) =
        run_within(&fast(), links(&host.url(""), 40), Duration::from_secs(5));
    assert!(took < Duration::from_secs(2), "{took:?}");
    for r in &r {
        assert_eq!(r.status(), RemoteStatus::RateLimited, "{r:?}");
    }
    assert!(r.iter().any(|r| {
        r.reason()
            == Some(
                "the host asked to wait 3600 s, longer than --max-retry-wait",
            )
    }));
    assert!(host.total() <= 4, "{}", host.total());
}

#[test]
fn a_head_failure_is_confirmed_with_get() {
    fn answer(method: &str, path: &str) -> Resp {
        match (method, path) {
            ("HEAD", "/head404") => respond(404),
            ("HEAD", "/head400") => respond(400),
            ("HEAD", "/head410") => respond(410),
            ("HEAD", "/head500") => respond(500),
            (_, "/gone") => respond(404),
            _ => respond(200),
        }
    }
    let host = Host::start(Some(answer));
    let paths = ["/head404", "/head400", "/head410", "/head500", "/gone"];
    let mut b = fast();
    b.retries(0);
    let (r, _) = run_within(
        &b,
        targets(paths.iter().map(|p| host.url(p))),
        Duration::from_secs(5),
    );
    for (p, r) in paths.iter().zip(&r).take(4) {
        assert_eq!(
            (r.status(), r.http_status()),
            (RemoteStatus::Ok, Some(200)),
            "{p}"
        );
        assert_eq!(
            (host.count("HEAD", p), host.count("GET", p)),
            (1, 1),
            "{p}"
        );
        assert_eq!(r.requests(), 2);
    }
    // What GET confirms is broken.
    assert_eq!(
        (r[4].status(), r[4].http_status()),
        (RemoteStatus::Broken, Some(404))
    );
}

#[test]
fn a_location_that_is_not_utf8_is_followed_percent_encoded() {
    fn answer(_: &str, path: &str) -> Resp {
        match path {
            "/moved" => {
                let mut r = respond(301);
                let latin1 =
                    hyper::header::HeaderValue::from_bytes(b"/caf\xe9")
                        .unwrap();
                r.headers_mut().insert("location", latin1);
                r
            }
            "/caf%E9" => respond(200),
            _ => respond(404),
        }
    }
    let host = Host::start(Some(answer));
    let (r, _) = run_within(
        &fast(),
        targets([host.url("/moved")]),
        Duration::from_secs(5),
    );
    assert_eq!(r[0].status(), RemoteStatus::Redirected, "{:?}", r[0]);
    assert_eq!(r[0].final_uri(), host.url("/caf%E9"));
}

#[test]
fn an_absurd_retry_wait_gives_every_link_a_result() {
    // 200000000000000 days: the backoff once overflowed and the task
    // panicked, losing its link.
    let host = Host::start(Some(|_, _| respond(500)));
    let mut b = fast();
    b.retry_wait(Duration::from_secs(200_000_000_000_000 * 86_400))
        .max_retry_wait(Duration::from_millis(20))
        .retries(1)
        .host_concurrency(16);
    let (r, _) =
        run_within(&b, links(&host.url(""), 16), Duration::from_secs(5));
    for r in &r {
        assert!(r.status().is_failure(), "{r:?}");
    }
}

#[test]
fn a_literally_local_host_is_skipped_with_no_request() {
    // A name that only resolves to a private address needs a resolver
    // this test cannot set; `localhost` is refused before any lookup.
    let host = Host::start(Some(|_, _| respond(200)));
    let mut b = fast();
    b.allow_private(false);
    let name = format!("http://localhost:{}", host.port);
    let (r, _) = run_within(&b, links(&name, 8), Duration::from_secs(5));
    for r in &r {
        assert_eq!(r.status(), RemoteStatus::Skipped, "{r:?}");
        assert_eq!(r.requests(), 0, "{r:?}");
    }
    assert_eq!(host.connections.load(Ordering::SeqCst), 0);
}

#[test]
fn a_fragment_past_the_body_limit_is_not_checked_not_broken() {
    fn answer(_: &str, _: &str) -> Resp {
        let mut page = String::from("<!doctype html><p id=start>");
        page.push_str(&"<p>filler</p>".repeat(400));
        page.push_str("<p id=end>the end</p>");
        let mut r = Response::new(Full::new(Bytes::from(page)).boxed());
        r.headers_mut().insert("content-type", "text/html".parse().unwrap());
        r
    }
    let host = Host::start(Some(answer));
    let mut b = fast();
    b.fragments(true).max_body(1024);
    let wanted = ["start", "end"].map(String::from).to_vec();
    let target = RemoteTarget { uri: host.url("/long"), fragments: wanted };
    let (r, _) = run_within(&b, vec![target], Duration::from_secs(5));
    assert_eq!(r[0].status(), RemoteStatus::Ok);
    assert_eq!(r[0].missing_fragments(), [] as [String; 0]);
    assert_eq!(
        r[0].reason(),
        Some(
            "not checked: #end past the first 1024 bytes of the page \
             (--max-body)"
        )
    );
}

#[test]
fn a_tls_failure_is_decided_once_for_the_host() {
    // https to a server that speaks plain HTTP: the handshake fails.
    let host = Host::start(Some(|_, _| respond(200)));
    let mut b = fast();
    b.host_concurrency(1);
    let base = format!("https://127.0.0.1:{}", host.port);
    let (r, took) = run_within(&b, links(&base, 20), Duration::from_secs(5));
    assert!(took < Duration::from_secs(2), "{took:?}");
    for r in &r {
        assert_eq!(r.status(), RemoteStatus::Error, "{r:?}");
    }
    // One handshake tried, not one per link and retry.
    assert_eq!(host.connections.load(Ordering::SeqCst), 1);
    assert_eq!(host.total(), 0);
}

#[test]
fn forty_large_pages_stream_through_with_their_fragments() {
    fn answer(_: &str, _: &str) -> Resp {
        let mut r = Response::new(Full::new(large_page()).boxed());
        r.headers_mut().insert("content-type", "text/html".parse().unwrap());
        r
    }
    let host = Host::start(Some(answer));
    let mut b = fast();
    b.fragments(true)
        .timeout(Duration::from_secs(240))
        .retries(0)
        .host_concurrency(40);
    let wanted = ["start", "end", "n1000", "nowhere"].map(String::from);
    let targets: Vec<RemoteTarget> = (0..40)
        .map(|i| RemoteTarget {
            uri: host.url(&format!("/page/{i}")),
            fragments: wanted.to_vec(),
        })
        .collect();
    let checker = b.build().unwrap();
    let progress = checker.progress();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut out = vec![None; targets.len()];
        checker.check(&targets, |i, r| out[i] = Some(r)).unwrap();
        let _ = tx.send(out);
    });
    let r = rx.recv_timeout(Duration::from_secs(300)).expect("the run ended");
    for r in r.iter().map(|r| r.as_ref().expect("a result")) {
        assert_eq!(r.status(), RemoteStatus::Ok, "{r:?}");
        assert_eq!(r.reason(), None, "{r:?}");
        // The last id of each 16 MiB page is found, and what is not
        // there is missing.
        assert_eq!(r.missing_fragments(), ["nowhere"], "{r:?}");
    }
    assert_eq!(host.count("GET", "/page/0"), 1);
    // 640 MiB went through; what was held at once is less than half a
    // page.
    let peak = progress.peak_body_bytes();
    assert!(peak > 0 && peak < 8 << 20, "{peak}");
}
