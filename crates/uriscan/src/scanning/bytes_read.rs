//! A count of the bytes each bounded look reads, kept only in test
//! builds: the linear-time tests assert on it instead of on timings.

#[cfg(test)]
thread_local! {
    static BYTES_READ: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Records `bytes` bytes read (a no-op outside tests).
#[inline(always)]
pub(crate) fn add(bytes: usize) {
    #[cfg(test)]
    BYTES_READ.with(|w| w.set(w.get() + bytes as u64));
    #[cfg(not(test))]
    let _ = bytes;
}

/// The bytes recorded on this thread since the last call.
#[cfg(test)]
pub(crate) fn take() -> u64 {
    BYTES_READ.with(|w| w.replace(0))
}

/// The bytes recorded on this thread since the last [`take`], left as it
/// is.
#[cfg(test)]
pub(crate) fn peek() -> u64 {
    BYTES_READ.with(|w| w.get())
}
