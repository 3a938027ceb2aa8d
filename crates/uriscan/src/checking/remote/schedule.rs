//! When a request may go: a permit of the whole run (`--max-concurrency`)
//! and one of its host (`--host-concurrency`), and what is known of the
//! host. A host that asks for a wait (`Retry-After`) is paused as a
//! whole. A host whose name does not resolve, that refuses connections or
//! fails TLS, that has failed several times in a row, or that asks for a
//! wait longer than allowed gets a verdict: every link to it not yet
//! asked is given that verdict at once, without a request or a wait.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use super::RemoteStatus;

/// Failures in a row, with no success, after which a host is given up.
pub(super) const HOST_FAILURES_BEFORE_GIVING_UP: u32 = 3;

/// The run's gates.
pub(super) struct Scheduler {
    all: Arc<Semaphore>,
    per_host: usize,
    hosts: Mutex<HashMap<String, Arc<Host>>>,
    base_wait: Duration,
    max_wait: Duration,
}

/// One host's gate and state.
struct Host {
    gate: Arc<Semaphore>,
    state: Mutex<HostState>,
}

#[derive(Default)]
struct HostState {
    /// No request to the host before this.
    paused_until: Option<Instant>,
    /// Retryable failures in a row.
    failures: u32,
    /// Whether the host has answered once (any answer not retried, a
    /// 404 included): a host that answers is never given up as a whole,
    /// so a few failing pages cannot cost the others their check.
    answered: bool,
    /// What every link to the host not yet asked is given.
    verdict: Option<HostVerdict>,
}

/// What is decided of a whole host, for the links to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct HostVerdict {
    pub(super) status: RemoteStatus,
    pub(super) reason: String,
    /// Its address is refused: no request goes to it.
    pub(super) refused: bool,
}

/// What kind of retryable failure a request had, for the host's verdict
/// once it has had too many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FailureKind {
    /// No answer within the timeout.
    Timeout,
    /// 429 Too Many Requests.
    RateLimited,
    /// A 5xx, or a connection lost after it was made.
    Other,
}

/// Held while a request is in flight.
pub(super) struct Permit {
    _host: OwnedSemaphorePermit,
    _all: OwnedSemaphorePermit,
}

impl Scheduler {
    pub(super) fn new(
        total: usize,
        per_host: usize,
        base_wait: Duration,
        max_wait: Duration,
    ) -> Scheduler {
        Scheduler {
            all: Arc::new(Semaphore::new(total.max(1))),
            per_host: per_host.max(1),
            hosts: Mutex::new(HashMap::new()),
            base_wait,
            max_wait,
        }
    }

    fn host(&self, host: &str) -> Arc<Host> {
        let mut hosts = self.hosts.lock().unwrap_or_else(|e| e.into_inner());
        hosts
            .entry(host.to_ascii_lowercase())
            .or_insert_with(|| {
                Arc::new(Host {
                    gate: Arc::new(Semaphore::new(self.per_host)),
                    state: Mutex::new(HostState::default()),
                })
            })
            .clone()
    }

    /// Waits for the host's pause to end and for a permit of the host,
    /// then of the run. The host's permit comes first, so that a request
    /// queued behind a busy host holds none of the run's permits. The
    /// host's verdict instead, when it has one, at once or as soon as it
    /// is given.
    pub(super) async fn acquire(
        &self,
        host: &str,
    ) -> Result<Permit, HostVerdict> {
        let h = self.host(host);
        loop {
            if let Some(v) = h.state().verdict.clone() {
                return Err(v);
            }
            let host_permit = h.gate.clone().acquire_owned().await;
            let (paused, verdict) = {
                let st = h.state();
                (st.paused_until, st.verdict.clone())
            };
            if let Some(v) = verdict {
                return Err(v);
            }
            match paused {
                Some(t) if t > Instant::now() => {
                    // Wait without holding the permit; re-check after, as
                    // the pause may have been extended meanwhile.
                    drop(host_permit);
                    tokio::time::sleep_until(t).await;
                }
                _ => {
                    let all = self.all.clone().acquire_owned().await;
                    // The semaphores are never closed.
                    if let (Ok(a), Ok(b)) = (host_permit, all) {
                        return Ok(Permit { _host: a, _all: b });
                    }
                }
            }
        }
    }

    /// The host's verdict, if it has one.
    pub(super) fn verdict(&self, host: &str) -> Option<HostVerdict> {
        self.host(host).state().verdict.clone()
    }

    /// A fact about the host (its name does not resolve, it refuses
    /// connections, TLS fails): the first one stands for every link.
    pub(super) fn decide(&self, host: &str, verdict: HostVerdict) {
        let h = self.host(host);
        let mut st = h.state();
        if st.verdict.is_none() {
            st.verdict = Some(verdict);
        }
    }

    /// An answer not retried: the host's failure count starts again, and
    /// the host is not given up for its failures.
    pub(super) fn succeeded(&self, host: &str) {
        let h = self.host(host);
        let mut st = h.state();
        st.failures = 0;
        st.answered = true;
    }

    /// A retryable failure (timeout, lost connection, 429, 5xx), with the
    /// wait the server asked for. Returns how long this request waits
    /// before its next try: the server's wait when it gave one, else
    /// exponential backoff with jitter, at most the longest wait. The host
    /// is paused for the server's wait; it is given up when the server
    /// asks for longer than the longest wait, or after several failures
    /// in a row when it has never answered.
    pub(super) fn failed(
        &self,
        host: &str,
        attempt: u32,
        kind: FailureKind,
        asked: Option<Duration>,
    ) -> Duration {
        let h = self.host(host);
        let mut st = h.state();
        st.failures += 1;
        if let Some(asked) = asked.filter(|a| *a > self.max_wait) {
            let verdict = HostVerdict {
                status: RemoteStatus::RateLimited,
                reason: format!(
                    "the host asked to wait {}, longer than --max-retry-wait",
                    words(asked)
                ),
                refused: false,
            };
            st.verdict.get_or_insert(verdict);
        } else if st.failures >= HOST_FAILURES_BEFORE_GIVING_UP && !st.answered
        {
            let status = match kind {
                FailureKind::Timeout => RemoteStatus::Timeout,
                FailureKind::RateLimited => RemoteStatus::RateLimited,
                FailureKind::Other => RemoteStatus::Error,
            };
            let reason = format!(
                "host unreachable after {} failures",
                HOST_FAILURES_BEFORE_GIVING_UP
            );
            let refused = false;
            st.verdict.get_or_insert(HostVerdict { status, reason, refused });
        }
        let wait = match asked {
            Some(d) => d.min(self.max_wait),
            None => backoff(self.base_wait, attempt).min(self.max_wait),
        };
        if asked.is_some()
            && let Some(until) = Instant::now().checked_add(wait)
            && st.paused_until.is_none_or(|p| p < until)
        {
            st.paused_until = Some(until);
        }
        wait
    }
}

impl Host {
    fn state(&self) -> std::sync::MutexGuard<'_, HostState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `3600 s`, `1.5 s`.
fn words(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// `base × 2^attempt`, times a jitter factor between 0.5 and 1.5 so that
/// the requests a failure stopped together do not come back together.
/// Saturates instead of overflowing, however long `base` is.
pub(super) fn backoff(base: Duration, attempt: u32) -> Duration {
    let exp = base.saturating_mul(1u32 << attempt.min(16));
    Duration::try_from_secs_f64(exp.as_secs_f64() * (0.5 + fastrand::f64()))
        .unwrap_or(Duration::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_within_its_jitter() {
        let base = Duration::from_millis(100);
        for attempt in 0..6 {
            let d = backoff(base, attempt);
            let mid = base * (1 << attempt);
            assert!(d >= mid / 2 && d <= mid * 3 / 2, "{attempt}: {d:?}");
        }
    }

    #[test]
    fn backoff_of_an_absurd_wait_saturates() {
        let huge = Duration::from_secs(200_000_000_000_000 * 86_400);
        for attempt in [0, 3, 40] {
            assert!(backoff(huge, attempt) >= huge / 2);
            assert!(backoff(Duration::MAX, attempt) >= Duration::MAX / 3);
        }
    }

    fn scheduler() -> Scheduler {
        Scheduler::new(8, 2, Duration::from_secs(1), Duration::from_secs(60))
    }

    #[tokio::test(start_paused = true)]
    async fn a_host_failing_in_a_row_is_given_up_without_waiting() {
        let s = scheduler();
        // Two failures: the host is still asked, at once.
        s.failed("h", 0, FailureKind::Timeout, None);
        s.failed("h", 0, FailureKind::Timeout, None);
        let t = Instant::now();
        assert!(s.acquire("h").await.is_ok());
        assert_eq!(Instant::now(), t);
        // A host that has answered once is never given up for failures.
        s.succeeded("up");
        for _ in 0..10 {
            s.failed("up", 0, FailureKind::Other, None);
        }
        assert!(s.acquire("up").await.is_ok());
        // The third in a row gives it up; another host goes on.
        s.failed("h", 0, FailureKind::Timeout, None);
        let v = s.acquire("h").await.err().unwrap();
        assert_eq!(v.status, RemoteStatus::Timeout);
        assert_eq!(v.reason, "host unreachable after 3 failures");
        assert!(s.acquire("other").await.is_ok());
        assert_eq!(Instant::now(), t);
        // A later success does not bring it back.
        s.succeeded("h");
        assert!(s.acquire("h").await.is_err());
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_waiting_for_its_host_gets_the_verdict_given_meanwhile()
    {
        let s = Arc::new(Scheduler::new(
            8,
            1,
            Duration::from_secs(1),
            Duration::from_secs(60),
        ));
        let held = s.acquire("h").await.ok().unwrap();
        let waiting = tokio::spawn({
            let s = s.clone();
            async move { s.acquire("h").await.err() }
        });
        tokio::task::yield_now().await;
        let refused = HostVerdict {
            status: RemoteStatus::Error,
            reason: "connection refused".into(),
            refused: false,
        };
        s.decide("h", refused.clone());
        drop(held);
        assert_eq!(waiting.await.unwrap(), Some(refused));
    }

    #[tokio::test(start_paused = true)]
    async fn retry_after_pauses_the_host_and_too_long_gives_it_up() {
        let s = Scheduler::new(
            8,
            2,
            Duration::from_millis(10),
            Duration::from_secs(30),
        );
        let w = s.failed(
            "h",
            0,
            FailureKind::RateLimited,
            Some(Duration::from_secs(20)),
        );
        assert_eq!(w, Duration::from_secs(20));
        let t = Instant::now();
        drop(s.acquire("h").await);
        assert_eq!(Instant::now() - t, Duration::from_secs(20));
        let w = s.failed(
            "h",
            0,
            FailureKind::RateLimited,
            Some(Duration::from_secs(3600)),
        );
        assert_eq!(w, Duration::from_secs(30));
        let t = Instant::now();
        let v = s.acquire("h").await.err().unwrap();
        assert_eq!(Instant::now(), t);
        assert_eq!(v.status, RemoteStatus::RateLimited);
        assert!(v.reason.contains("3600 s"), "{}", v.reason);
    }

    #[tokio::test(start_paused = true)]
    async fn an_absurd_retry_after_does_not_overflow_the_timer() {
        let s = Scheduler::new(8, 2, Duration::MAX, Duration::MAX);
        let w = s.failed("h", 0, FailureKind::Other, Some(Duration::MAX));
        assert_eq!(w, Duration::MAX);
        s.failed("h", 5, FailureKind::Other, None);
    }
}
