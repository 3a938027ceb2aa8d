//! The server of `benches/remote.sh`: answers every request with 200
//! after a fixed delay, on 127.0.0.1 … 127.0.0.N (one port), so that a
//! link checker sees N hosts on this machine and no packet leaves it.
//!
//! ```sh
//! cargo run --release --example slow_server -- PORT HOSTS DELAY_MS SECONDS
//! ```
//!
//! `GET /__stats` answers the number of requests served so far (not
//! counted itself). The server stops after SECONDS, or after 2,000,000
//! requests.
//!
//! The fault cases of the bench, by the path's first segment: `/hang/…`
//! is accepted and never answered, `/retry-after/…` answers 429 with
//! `Retry-After: 3600`, `/503/…` answers 503, `/large/…` answers a
//! 16 MiB HTML page with an id every KiB, `start` first and `end` last.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::{Request, Response, body::Incoming};

// The page of `/large/…`, the one the remote tests serve.
#[path = "../tests/lib/support/large_page.rs"]
mod large_page;
use large_page::large_page;

const MAX_REQUESTS: u64 = 2_000_000;

/// The answer to `path`: the fault it names, else 200 after `delay` ms.
async fn answer(path: &str, delay: u64) -> Response<Full<Bytes>> {
    let status = |code: u16| {
        let mut r = Response::new(Full::new(Bytes::new()));
        *r.status_mut() =
            hyper::StatusCode::from_u16(code).unwrap_or_default();
        r
    };
    match path.split('/').nth(1) {
        Some("hang") => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            status(200)
        }
        Some("retry-after") => {
            let mut r = status(429);
            r.headers_mut().insert(
                hyper::header::RETRY_AFTER,
                hyper::header::HeaderValue::from_static("3600"),
            );
            r
        }
        Some("503") => status(503),
        Some("large") => {
            let mut r = Response::new(Full::new(large_page()));
            r.headers_mut().insert(
                hyper::header::CONTENT_TYPE,
                hyper::header::HeaderValue::from_static("text/html"),
            );
            r
        }
        _ => {
            tokio::time::sleep(Duration::from_millis(delay)).await;
            Response::new(Full::new(Bytes::from_static(b"<p>ok</p>")))
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| {
        args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
    };
    let (port, hosts, delay, seconds) =
        (arg(0, 8600), arg(1, 200), arg(2, 20), arg(3, 900));
    let served = Arc::new(AtomicU64::new(0));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    rt.block_on(async move {
        for h in 1..=hosts.clamp(1, 254) {
            let addr = format!("127.0.0.{h}:{port}");
            let listener = tokio::net::TcpListener::bind(&addr)
                .await
                .unwrap_or_else(|e| panic!("{addr}: {e}"));
            let served = served.clone();
            tokio::spawn(async move {
                loop {
                    let Ok((stream, _)) = listener.accept().await else {
                        continue;
                    };
                    let served = served.clone();
                    tokio::spawn(async move {
                        let svc = hyper::service::service_fn(
                            move |req: Request<Incoming>| {
                                let served = served.clone();
                                async move {
                                    if req.uri().path() == "/__stats" {
                                        let n = served.load(Ordering::Relaxed);
                                        return Ok::<_, Infallible>(
                                            Response::new(Full::new(
                                                Bytes::from(format!("{n}\n")),
                                            )),
                                        );
                                    }
                                    if served.fetch_add(1, Ordering::Relaxed)
                                        >= MAX_REQUESTS
                                    {
                                        std::process::exit(0);
                                    }
                                    Ok(answer(req.uri().path(), delay).await)
                                }
                            },
                        );
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(
                                hyper_util::rt::TokioIo::new(stream),
                                svc,
                            )
                            .await;
                    });
                }
            });
        }
        eprintln!(
            "slow_server: 127.0.0.1-{hosts} port {port}, {delay} ms, {seconds} s"
        );
        tokio::time::sleep(Duration::from_secs(seconds)).await;
    });
}
