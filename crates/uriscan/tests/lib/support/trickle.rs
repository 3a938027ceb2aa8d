//! A reader that hands out its bytes a few at a time, as a pipe would:
//! for the properties that must hold whatever the size of the reads
//! (the finder's streaming, the WARC reader). Shared by the property
//! tests and the `warc` fuzz target.

use std::io::{self, Read};

/// Hands out its bytes in reads of the sizes given, then of `then` bytes
/// (a size of 0 counts as 1).
pub struct Trickle<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    next: usize,
    then: usize,
}

impl<'a> Trickle<'a> {
    /// Reads of `sizes`, then of one byte each.
    #[allow(dead_code)]
    pub fn sizes(data: &'a [u8], sizes: Vec<usize>) -> Self {
        Trickle { data, sizes, next: 0, then: 1 }
    }
    /// Reads of at most `step` bytes each.
    #[allow(dead_code)]
    pub fn step(data: &'a [u8], step: usize) -> Self {
        Trickle { data, sizes: vec![], next: 0, then: step }
    }
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let size =
            self.sizes.get(self.next).copied().unwrap_or(self.then).max(1);
        self.next += 1;
        let n = size.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}
