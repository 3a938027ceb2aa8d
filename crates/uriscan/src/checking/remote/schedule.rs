//! When a request may go: a permit of the whole run (`--max-concurrency`)
//! and one of its host (`--host-concurrency`), and the host's backoff. A
//! host that answers 429 with `Retry-After`, or keeps failing, is paused
//! as a whole: every request to it waits, not only the one that failed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// Failures in a row after which a host is paused as a whole.
const HOST_FAILURES_BEFORE_PAUSE: u32 = 3;

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
    /// queued behind a busy host holds none of the run's permits.
    pub(super) async fn acquire(&self, host: &str) -> Permit {
        let h = self.host(host);
        loop {
            let host_permit = h.gate.clone().acquire_owned().await;
            let paused = h.state().paused_until;
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
                        return Permit { _host: a, _all: b };
                    }
                }
            }
        }
    }

    /// A success: the host's failure count starts again.
    pub(super) fn succeeded(&self, host: &str) {
        self.host(host).state().failures = 0;
    }

    /// A retryable failure (timeout, connection error, 429, 5xx), with
    /// the wait the server asked for. Returns how long this request waits
    /// before its next try: the server's wait when it gave one (capped),
    /// else exponential backoff with jitter. The host is paused for that
    /// long when the server asked, or when it has failed several times in
    /// a row.
    pub(super) fn failed(
        &self,
        host: &str,
        attempt: u32,
        asked: Option<Duration>,
    ) -> Duration {
        let h = self.host(host);
        let mut st = h.state();
        st.failures += 1;
        let wait = match asked {
            Some(d) => d.min(self.max_wait),
            None => backoff(self.base_wait, attempt).min(self.max_wait),
        };
        if asked.is_some() || st.failures >= HOST_FAILURES_BEFORE_PAUSE {
            let pause = match asked {
                Some(_) => wait,
                None => backoff(
                    self.base_wait,
                    st.failures - HOST_FAILURES_BEFORE_PAUSE,
                )
                .min(self.max_wait),
            };
            let until = Instant::now() + pause;
            if st.paused_until.is_none_or(|p| p < until) {
                st.paused_until = Some(until);
            }
        }
        wait
    }
}

impl Host {
    fn state(&self) -> std::sync::MutexGuard<'_, HostState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `base × 2^attempt`, times a jitter factor between 0.5 and 1.5 so that
/// the requests a failure stopped together do not come back together.
pub(super) fn backoff(base: Duration, attempt: u32) -> Duration {
    let exp = base.saturating_mul(1u32 << attempt.min(16));
    exp.mul_f64(0.5 + fastrand::f64())
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

    #[tokio::test(start_paused = true)]
    async fn a_host_failing_in_a_row_is_paused_as_a_whole() {
        let s = Scheduler::new(
            8,
            2,
            Duration::from_secs(1),
            Duration::from_secs(60),
        );
        // Two failures: no pause yet.
        s.failed("h", 0, None);
        s.failed("h", 0, None);
        let t = Instant::now();
        drop(s.acquire("h").await);
        assert_eq!(Instant::now(), t);
        // The third pauses the host, another host goes on.
        s.failed("h", 0, None);
        drop(s.acquire("other").await);
        assert_eq!(Instant::now(), t);
        drop(s.acquire("h").await);
        assert!(Instant::now() >= t + Duration::from_millis(500));
        // A success resets the count.
        s.succeeded("h");
        s.failed("h", 0, None);
        let t = Instant::now();
        drop(s.acquire("h").await);
        assert_eq!(Instant::now(), t);
    }

    #[tokio::test(start_paused = true)]
    async fn retry_after_pauses_the_host_and_is_capped() {
        let s = Scheduler::new(
            8,
            2,
            Duration::from_millis(10),
            Duration::from_secs(30),
        );
        let w = s.failed("h", 0, Some(Duration::from_secs(3600)));
        assert_eq!(w, Duration::from_secs(30));
        let t = Instant::now();
        drop(s.acquire("h").await);
        assert_eq!(Instant::now() - t, Duration::from_secs(30));
    }
}
