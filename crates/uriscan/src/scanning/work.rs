//! A count of the bytes each bounded look reads, kept only in test
//! builds: the linear-time tests assert on it instead of on timings.

#[cfg(test)]
thread_local! {
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Records `bytes` bytes of work (a no-op outside tests).
#[inline(always)]
pub(crate) fn add(bytes: usize) {
    #[cfg(test)]
    WORK.with(|w| w.set(w.get() + bytes as u64));
    #[cfg(not(test))]
    let _ = bytes;
}

/// The work recorded on this thread since the last call.
#[cfg(test)]
pub(crate) fn take() -> u64 {
    WORK.with(|w| w.replace(0))
}

/// The work recorded on this thread since the last [`take`], left as it
/// is.
#[cfg(test)]
pub(crate) fn peek() -> u64 {
    WORK.with(|w| w.get())
}
