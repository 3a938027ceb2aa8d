//! A test HTTP server on 127.0.0.1 (hyper), inside the test process, for
//! the remote check: it serves every case the check must tell apart and
//! counts what it is asked. It stops when dropped, after 60 s, or after
//! 2,000 requests, whichever comes first.

#![allow(dead_code)]

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::{Body, Frame, Incoming};
use hyper::{Request, Response, StatusCode};

const MAX_REQUESTS: usize = 2000;
const LIFETIME: Duration = Duration::from_secs(60);

type Resp = Response<BoxBody<Bytes, std::io::Error>>;

/// What the server saw.
#[derive(Default)]
pub struct Seen {
    /// Requests per (method, path and query).
    counts: Mutex<HashMap<(String, String), usize>>,
    /// Headers of interest per request: (path, name, value).
    headers: Mutex<Vec<(String, String, String)>>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    total: AtomicUsize,
}

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    seen: Arc<Seen>,
    rt: Option<tokio::runtime::Runtime>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }
}

impl Server {
    /// Starts a server on 127.0.0.1, on a free port.
    pub fn start() -> Server {
        Server::start_on("127.0.0.1:0".parse().unwrap())
    }

    /// Starts a server on `addr`.
    pub fn start_on(addr: SocketAddr) -> Server {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let listener =
            rt.block_on(tokio::net::TcpListener::bind(addr)).unwrap();
        let addr = listener.local_addr().unwrap();
        let seen = Arc::new(Seen::default());
        let s = seen.clone();
        rt.spawn(async move {
            let accept = async {
                loop {
                    let Ok((stream, _)) = listener.accept().await else {
                        continue;
                    };
                    if s.total.load(Ordering::Relaxed) >= MAX_REQUESTS {
                        break;
                    }
                    let s = s.clone();
                    tokio::spawn(async move {
                        let svc = hyper::service::service_fn(move |req| {
                            handle(s.clone(), req)
                        });
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(
                                hyper_util::rt::TokioIo::new(stream),
                                svc,
                            )
                            .await;
                    });
                }
            };
            let _ = tokio::time::timeout(LIFETIME, accept).await;
        });
        Server { addr, seen, rt: Some(rt) }
    }

    /// `http://127.0.0.1:PORT` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Requests of `method` to `path` (with its query).
    pub fn count(&self, method: &str, path: &str) -> usize {
        let c = self.seen.counts.lock().unwrap();
        c.get(&(method.to_string(), path.to_string())).copied().unwrap_or(0)
    }

    /// Requests to `path` by any method.
    pub fn count_any(&self, path: &str) -> usize {
        let c = self.seen.counts.lock().unwrap();
        c.iter().filter(|((_, p), _)| p == path).map(|(_, n)| n).sum()
    }

    /// Every request.
    pub fn total(&self) -> usize {
        self.seen.total.load(Ordering::Relaxed)
    }

    /// The most requests in flight at once.
    pub fn max_in_flight(&self) -> usize {
        self.seen.max_in_flight.load(Ordering::Relaxed)
    }

    /// The values of header `name` the server received, with their paths.
    pub fn headers(&self, name: &str) -> Vec<(String, String)> {
        let h = self.seen.headers.lock().unwrap();
        h.iter()
            .filter(|(_, n, _)| n == name)
            .map(|(p, _, v)| (p.clone(), v.clone()))
            .collect()
    }
}

fn full(status: u16, body: &'static str) -> Resp {
    let mut r = Response::new(
        Full::new(Bytes::from_static(body.as_bytes()))
            .map_err(|e: Infallible| match e {})
            .boxed(),
    );
    *r.status_mut() = StatusCode::from_u16(status).unwrap();
    r.headers_mut()
        .insert("content-type", "text/html; charset=utf-8".parse().unwrap());
    r
}

fn redirect(status: u16, to: &str) -> Resp {
    let mut r = full(status, "");
    r.headers_mut().insert("location", to.parse().unwrap());
    r
}

fn with_retry_after(mut r: Resp, value: String) -> Resp {
    r.headers_mut().insert("retry-after", value.parse().unwrap());
    r
}

/// A body that sends a few bytes of the promised thousand, waits for
/// them to go out, and fails: the connection is closed mid-body.
struct CutShort {
    sent: bool,
    pause: Pin<Box<tokio::time::Sleep>>,
}

impl Body for CutShort {
    type Data = Bytes;
    type Error = std::io::Error;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        if !self.sent {
            self.sent = true;
            return Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(
                b"<html><p id=",
            )))));
        }
        match self.pause.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(()) => {
                Poll::Ready(Some(Err(std::io::Error::other("cut"))))
            }
        }
    }
}

const PAGE: &str = "<!doctype html><title>t</title><h1 id=\"present\">Here</h1><a name=\"named\"></a>";

async fn handle(
    seen: Arc<Seen>,
    req: Request<Incoming>,
) -> Result<Resp, std::io::Error> {
    let method = req.method().as_str().to_string();
    let path = req
        .uri()
        .path_and_query()
        .map_or("/".to_string(), |p| p.as_str().to_string());
    let n = {
        let mut c = seen.counts.lock().unwrap();
        let n = c.entry((method.clone(), path.clone())).or_insert(0);
        *n += 1;
        // The requests to this path by any method, this one included.
        c.iter()
            .filter(|((_, p), _)| *p == path)
            .map(|(_, n)| n)
            .sum::<usize>()
    };
    seen.total.fetch_add(1, Ordering::Relaxed);
    {
        let mut h = seen.headers.lock().unwrap();
        for (name, value) in req.headers() {
            if matches!(
                name.as_str(),
                "user-agent" | "authorization" | "x-test" | "accept-encoding"
            ) {
                h.push((
                    path.clone(),
                    name.as_str().to_string(),
                    value.to_str().unwrap_or("").to_string(),
                ));
            }
        }
    }
    let now = seen.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    seen.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let r = respond(&method, &path, n).await;
    seen.in_flight.fetch_sub(1, Ordering::SeqCst);
    r
}

async fn respond(
    method: &str,
    path: &str,
    n: usize,
) -> Result<Resp, std::io::Error> {
    let head = method == "HEAD";
    let p = path.split('?').next().unwrap_or(path);
    Ok(match p {
        "/ok" | "/ok/other" => full(200, "<p>fine</p>"),
        "/page" => full(200, PAGE),
        "/plain" => {
            let mut r = full(200, "id=\"present\"");
            r.headers_mut()
                .insert("content-type", "text/plain".parse().unwrap());
            r
        }
        "/r301" => redirect(301, "/r302"),
        "/r302" => redirect(302, "/r307"),
        "/r307" => redirect(307, "r308"),
        "/r308" => redirect(308, "/ok"),
        "/to-404" => redirect(301, "/404"),
        "/loop-a" => redirect(301, "/loop-b"),
        "/loop-b" => redirect(302, "/loop-a"),
        "/404" => full(404, "gone"),
        "/410" => full(410, "gone for good"),
        "/head405" if head => full(405, ""),
        "/head405" => full(200, "<p>GET only</p>"),
        "/headdrop" if head => return Err(std::io::Error::other("dropped")),
        "/headdrop" => full(200, "<p>GET only</p>"),
        "/429s" if n == 1 => with_retry_after(full(429, ""), "1".into()),
        "/429s" => full(200, "ok"),
        "/429date" if n == 1 => {
            // Two seconds ahead: at least one whole second after rounding
            // down to the second.
            let at = SystemTime::now() + Duration::from_secs(2);
            with_retry_after(full(429, ""), httpdate::fmt_http_date(at))
        }
        "/429date" => full(200, "ok"),
        "/429always" => with_retry_after(full(429, ""), "0".into()),
        "/500once" if n == 1 => full(500, "oops"),
        "/500once" => full(200, "ok"),
        "/500always" => full(500, "oops"),
        "/slow" => {
            tokio::time::sleep(Duration::from_secs(3)).await;
            full(200, "late")
        }
        "/delay" => {
            tokio::time::sleep(Duration::from_millis(50)).await;
            full(200, "ok")
        }
        "/midbody" if head => full(200, ""),
        "/midbody" => {
            let pause =
                Box::pin(tokio::time::sleep(Duration::from_millis(50)));
            let mut r = Response::new(CutShort { sent: false, pause }.boxed());
            r.headers_mut()
                .insert("content-type", "text/html".parse().unwrap());
            r.headers_mut().insert("content-length", "1000".parse().unwrap());
            r
        }
        "/br" => br_page(&br(PAGE.as_bytes())),
        // Cut short in the middle of its brotli data.
        "/br-cut" => {
            let data = br(PAGE.as_bytes());
            br_page(&data[..data.len() / 2])
        }
        "/br-bomb" => br_page(br_bomb()),
        _ => full(404, "no route"),
    })
}

/// An HTML page of `body` in `Content-Encoding: br`.
fn br_page(body: &[u8]) -> Resp {
    let mut r = full(200, "");
    *r.body_mut() = Full::new(Bytes::copy_from_slice(body))
        .map_err(|e: Infallible| match e {})
        .boxed();
    r.headers_mut().insert("content-encoding", "br".parse().unwrap());
    r
}

/// `data` in brotli.
pub fn br(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = brotli::CompressorWriter::new(vec![], 1 << 16, 1, 24);
    e.write_all(data).unwrap();
    e.into_inner()
}

/// A few KiB of brotli that decode to a page of 16 MiB: `<p id=start>`,
/// spaces, `<p id=end>`.
pub fn br_bomb() -> &'static [u8] {
    static BOMB: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BOMB.get_or_init(|| {
        let mut page = b"<!doctype html><p id=start>".to_vec();
        page.resize(16 << 20, b' ');
        page.extend_from_slice(b"<p id=end>");
        br(&page)
    })
}
