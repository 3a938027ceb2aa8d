//! The remote checker against a server on 127.0.0.1 in this process
//! (tests/support/http.rs): the status of every kind of answer, retries,
//! `Retry-After`, the concurrency limits as the server counts them, and
//! the address rules. Every wait is short: timeouts of 300 ms, retries
//! from 10 ms.

use std::time::Duration;

use crate::support::http::Server;
use uriscan::checking::remote::{
    RemoteChecker, RemoteCheckerBuilder, RemoteResult, RemoteStatus,
    RemoteTarget,
};

fn fast() -> RemoteCheckerBuilder {
    let mut b = RemoteChecker::builder();
    b.allow_private(true)
        .timeout(Duration::from_millis(300))
        .retries(2)
        .retry_wait(Duration::from_millis(10))
        .max_retry_wait(Duration::from_secs(5));
    b
}

fn target(uri: String) -> RemoteTarget {
    RemoteTarget { uri, fragments: vec![] }
}

/// Checks `uris`, returning their results in order.
fn run(
    b: &RemoteCheckerBuilder,
    targets: &[RemoteTarget],
) -> Vec<RemoteResult> {
    let checker = b.build().unwrap();
    let mut out = vec![None; targets.len()];
    checker.check(targets, |i, r| out[i] = Some(r)).unwrap();
    out.into_iter().map(Option::unwrap).collect()
}

#[test]
fn every_kind_of_answer() {
    let s = Server::start();
    let paths = [
        "/ok",
        "/r301",
        "/loop-a",
        "/404",
        "/410",
        "/head405",
        "/headdrop",
        "/to-404",
    ];
    let targets: Vec<_> = paths.iter().map(|p| target(s.url(p))).collect();
    let results = run(&fast(), &targets);
    let got = |p: &str| &results[paths.iter().position(|x| *x == p).unwrap()];
    let expect = [
        ("/ok", RemoteStatus::Ok, Some(200)),
        ("/r301", RemoteStatus::Redirected, Some(200)),
        ("/loop-a", RemoteStatus::Broken, Some(302)),
        ("/404", RemoteStatus::Broken, Some(404)),
        ("/410", RemoteStatus::Broken, Some(410)),
        ("/head405", RemoteStatus::Ok, Some(200)),
        ("/headdrop", RemoteStatus::Ok, Some(200)),
        ("/to-404", RemoteStatus::Broken, Some(404)),
    ];
    for (p, status, http) in expect {
        let r = got(p);
        assert_eq!(
            (r.status(), r.http_status()),
            (status, http),
            "{p}: {r:?}"
        );
    }
    // The chain of 301, 302, 307 and 308, each hop reported.
    let chain: Vec<_> = got("/r301")
        .chain()
        .iter()
        .map(|h| (h.uri.clone(), h.status))
        .collect();
    assert_eq!(
        chain,
        [
            (s.url("/r301"), 301),
            (s.url("/r302"), 302),
            (s.url("/r307"), 307),
            (s.url("/r308"), 308)
        ]
    );
    assert_eq!(got("/r301").final_uri(), s.url("/ok"));
    assert!(got("/loop-a").reason().unwrap().contains("redirect loop"));
    assert_eq!(s.count_any("/loop-a"), 1);
    assert_eq!(s.count_any("/loop-b"), 1);
    // HEAD first; GET after 405 and after a dropped connection.
    assert_eq!((s.count("HEAD", "/ok"), s.count("GET", "/ok")), (1, 0));
    assert_eq!(
        (s.count("HEAD", "/head405"), s.count("GET", "/head405")),
        (1, 1)
    );
    assert_eq!(
        (s.count("HEAD", "/headdrop"), s.count("GET", "/headdrop")),
        (1, 1)
    );
    // 404 and 410 are final: no retry, only the GET that confirms what
    // HEAD said.
    assert_eq!((s.count("HEAD", "/410"), s.count("GET", "/410")), (1, 1));
    // Each URI once in the run, redirect hops included: /to-404 ends on
    // /404, which is also linked directly, and /r301's chain on /ok.
    assert_eq!((s.count("HEAD", "/404"), s.count("GET", "/404")), (1, 1));
    assert_eq!(s.count_any("/ok"), 1);
    // The User-Agent names uriscan and its version.
    let ua = s.headers("user-agent");
    assert!(!ua.is_empty());
    for (_, v) in ua {
        assert_eq!(v, concat!("uriscan/", env!("CARGO_PKG_VERSION")));
    }
    assert!(s.total() < 100);
}

/// Checks each of `paths` on a server of its own (a host of its own, so
/// that one's failures do not count against another), at once.
fn each_alone(paths: &[&str]) -> Vec<(Server, RemoteResult)> {
    let runs: Vec<_> = paths
        .iter()
        .map(|p| {
            let p = p.to_string();
            std::thread::spawn(move || {
                let s = Server::start();
                let r = run(&fast(), &[target(s.url(&p))]).remove(0);
                (s, r)
            })
        })
        .collect();
    runs.into_iter().map(|t| t.join().unwrap()).collect()
}

#[test]
fn retries_and_retry_after() {
    let paths =
        ["/429s", "/429date", "/429always", "/500once", "/500always", "/slow"];
    let got = each_alone(&paths);
    let expect = [
        (RemoteStatus::Ok, Some(200)),
        (RemoteStatus::Ok, Some(200)),
        (RemoteStatus::RateLimited, Some(429)),
        (RemoteStatus::Ok, Some(200)),
        (RemoteStatus::Broken, Some(500)),
        (RemoteStatus::Timeout, None),
    ];
    for ((p, (_, r)), want) in paths.iter().zip(&got).zip(expect) {
        assert_eq!((r.status(), r.http_status()), want, "{p}: {r:?}");
    }
    let count = |i: usize| got[i].0.count_any(paths[i]);
    // Retry-After honoured, in seconds and as a date: one retry, after
    // the wait asked for (the date is 1 to 2 s ahead, whole seconds).
    assert_eq!(count(0), 2);
    assert!(got[0].1.elapsed() >= Duration::from_millis(950));
    assert_eq!(count(1), 2);
    assert!(got[1].1.elapsed() >= Duration::from_millis(500));
    // Retries: twice for 429 and a timeout, then the last answer. The
    // 500 that turns into 200 is HEAD confirmed by GET; the one that
    // stays 500 is then asked with GET on each retry.
    assert_eq!(count(2), 3);
    assert_eq!(count(3), 2);
    assert_eq!(
        (
            got[4].0.count("HEAD", "/500always"),
            got[4].0.count("GET", "/500always")
        ),
        (1, 3)
    );
    assert_eq!(count(5), 3);
    assert_eq!(got[5].1.requests(), 3);
}

#[test]
fn too_many_redirects_are_broken() {
    let s = Server::start();
    let mut b = fast();
    b.max_redirects(2);
    let r = &run(&b, &[target(s.url("/r301"))])[0];
    assert_eq!(r.status(), RemoteStatus::Broken);
    assert_eq!(r.reason(), Some("more than 2 redirects"));
    assert_eq!(r.chain().len(), 3);
    assert_eq!(s.count_any("/r308"), 0);
}

#[test]
fn accepted_statuses_are_configurable() {
    let s = Server::start();
    let mut b = fast();
    b.accept(vec![200..=299, 404..=404]);
    let r = run(&b, &[target(s.url("/404")), target(s.url("/410"))]);
    assert_eq!(r[0].status(), RemoteStatus::Ok);
    assert_eq!(r[1].status(), RemoteStatus::Broken);
}

#[test]
fn in_flight_requests_per_host_stay_within_the_limit() {
    let s = Server::start();
    let targets: Vec<_> =
        (0..24).map(|i| target(s.url(&format!("/delay?{i}")))).collect();
    let mut b = fast();
    b.host_concurrency(3).max_concurrency(64).timeout(Duration::from_secs(5));
    let r = run(&b, &targets);
    assert!(r.iter().all(|r| r.status() == RemoteStatus::Ok));
    assert_eq!(s.total(), 24);
    // Never more than 3, and the limit was reached (the requests were
    // concurrent, not one by one).
    assert_eq!(s.max_in_flight(), 3);
}

#[test]
fn in_flight_requests_in_all_stay_within_the_limit() {
    let s = Server::start();
    let targets: Vec<_> =
        (0..16).map(|i| target(s.url(&format!("/delay?{i}")))).collect();
    let mut b = fast();
    b.host_concurrency(8).max_concurrency(2).timeout(Duration::from_secs(5));
    run(&b, &targets);
    assert_eq!(s.max_in_flight(), 2);
}

#[test]
fn literally_local_hosts_are_skipped_unless_allowed() {
    let s = Server::start();
    let port = s.addr.port();
    let literal = s.url("/ok");
    // `localhost` is local by name, before any lookup.
    let name = format!("http://localhost:{port}/ok/other");
    let mut b = fast();
    b.allow_private(false);
    let r = run(&b, &[target(literal.clone()), target(name.clone())]);
    for r in &r {
        assert_eq!(r.status(), RemoteStatus::Skipped, "{r:?}");
        assert_eq!(r.reason(), Some("private address (not requested)"));
        assert_eq!(r.requests(), 0);
        assert!(!r.status().is_failure());
    }
    assert_eq!(s.total(), 0);
    // Allowed: both reach the server.
    let r = run(&fast(), &[target(literal), target(name)]);
    assert!(r.iter().all(|r| r.status() == RemoteStatus::Ok), "{r:?}");
    assert_eq!(s.count("HEAD", "/ok"), 1);
    assert_eq!(s.count("HEAD", "/ok/other"), 1);
}

#[test]
fn a_private_literal_is_skipped_before_any_connection() {
    // 10.0.0.1 is never connected to (no packet leaves the machine): the
    // rule skips it before the request.
    let s = Server::start();
    let mut b = fast();
    b.allow_private(false);
    let r = &run(&b, &[target("http://10.0.0.1/".into())])[0];
    assert_eq!(r.status(), RemoteStatus::Skipped);
    assert_eq!(r.reason(), Some("private address (not requested)"));
    assert_eq!(r.requests(), 0);
    assert_eq!(s.total(), 0);
}

#[test]
fn fragments_of_remote_pages() {
    let s = Server::start();
    let mut b = fast();
    b.fragments(true);
    let frags = |f: &[&str]| f.iter().map(|s| s.to_string()).collect();
    let targets = [
        RemoteTarget {
            uri: s.url("/page"),
            fragments: frags(&["present", "named", "absent"]),
        },
        RemoteTarget { uri: s.url("/plain"), fragments: frags(&["anything"]) },
        RemoteTarget { uri: s.url("/midbody"), fragments: frags(&["x"]) },
        RemoteTarget { uri: s.url("/ok"), fragments: vec![] },
    ];
    let r = run(&b, &targets);
    assert_eq!(r[0].status(), RemoteStatus::Ok);
    assert_eq!(r[0].missing_fragments(), ["absent"]);
    // GET at once for a page whose ids are wanted.
    assert_eq!((s.count("HEAD", "/page"), s.count("GET", "/page")), (0, 1));
    // Not HTML: no ids to check.
    assert_eq!(r[1].missing_fragments(), [] as [String; 0]);
    // The connection closed mid-body: an error, after the retries.
    assert_eq!(r[2].status(), RemoteStatus::Error, "{:?}", r[2]);
    assert!(r[2].reason().unwrap().contains("cut short"), "{:?}", r[2]);
    assert_eq!(s.count("GET", "/midbody"), 3);
    // No fragment wanted: HEAD.
    assert_eq!(s.count("HEAD", "/ok"), 1);
}

/// Pages in `Content-Encoding: br` are asked for and decoded as they
/// stream: their ids are found, a bomb stops at `--max-body`, data cut
/// short is an error of its own.
#[test]
fn pages_in_brotli_are_decoded() {
    // Encoded before the clock of the checker's timeouts starts.
    crate::support::http::br_bomb();
    let s = Server::start();
    let mut b = fast();
    // Room to decode a bomb under a loaded debug build; no answer here
    // waits, so the room costs nothing when the test passes.
    b.fragments(true).max_body(1 << 20).timeout(Duration::from_secs(5));
    let frags = |f: &[&str]| f.iter().map(|s| s.to_string()).collect();
    let targets = [
        RemoteTarget {
            uri: s.url("/br"),
            fragments: frags(&["present", "named", "absent"]),
        },
        RemoteTarget {
            uri: s.url("/br-bomb"),
            fragments: frags(&["start", "end"]),
        },
        RemoteTarget { uri: s.url("/br-cut"), fragments: frags(&["present"]) },
    ];
    let r = run(&b, &targets);
    assert_eq!(r[0].status(), RemoteStatus::Ok, "{:?}", r[0]);
    assert_eq!(r[0].missing_fragments(), ["absent"]);
    let asked: Vec<_> = s.headers("accept-encoding");
    assert!(
        asked.iter().any(|(p, v)| p == "/br" && v.contains("br")),
        "{asked:?}"
    );
    assert_eq!(r[1].status(), RemoteStatus::Ok, "{:?}", r[1]);
    assert_eq!(r[1].missing_fragments(), [] as [String; 0]);
    assert_eq!(
        r[1].reason(),
        Some(
            "not checked: #end past the first 1048576 bytes of the page \
             (--max-body)"
        )
    );
    assert_eq!(r[2].status(), RemoteStatus::Error, "{:?}", r[2]);
    let why = r[2].reason().unwrap();
    assert!(why.contains("cut short") && why.contains("decod"), "{why}");
}

#[test]
fn the_github_token_goes_only_to_github() {
    let s = Server::start();
    let mut b = fast();
    b.github_token(Some("secret-token".into()));
    let r = run(&b, &[target(s.url("/ok"))]);
    assert_eq!(r[0].status(), RemoteStatus::Ok);
    assert_eq!(s.headers("authorization"), []);
}

#[test]
fn progress_counts_done() {
    let s = Server::start();
    let checker = fast().build().unwrap();
    let progress = checker.progress();
    let targets: Vec<_> =
        (0..5).map(|i| target(s.url(&format!("/ok?{i}")))).collect();
    let mut seen = vec![];
    checker.check(&targets, |i, _| seen.push(i)).unwrap();
    seen.sort();
    assert_eq!(seen, [0, 1, 2, 3, 4]);
    assert_eq!((progress.done(), progress.in_flight()), (5, 0));
}
