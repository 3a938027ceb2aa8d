//! Reading files to scan: into a reused buffer, with binary detection
//! and gzip, or as a stream when a file is large or not a regular file
//! (a FIFO, a device), so that memory stays bounded.
//!
//! Apart from `walking`, which decides which files to read: a crawler that has its own list of files reads them with this.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// How many leading bytes are checked for a NUL to call a file binary:
/// one block, as grep and ripgrep do.
const BINARY_PROBE: usize = 8 * 1024;

/// Files larger than this are streamed rather than read whole, by
/// default: above it, bounded memory matters more than the one `read`
/// call saved per file.
pub const DEFAULT_STREAM_ABOVE: u64 = 1024 * 1024;

/// What [`FileReader::read`] found in a file.
pub enum Contents<'b> {
    /// The file's bytes.
    Text(&'b [u8]),
    /// The file's bytes, to be read: a large file, a gzip file being
    /// decompressed, a FIFO or device, or standard input. The first block
    /// (already checked for binary) comes first. When reading failed
    /// after some bytes, the stream hands out those bytes, then the error.
    Stream(Box<dyn Read + 'b>),
    /// The file has a NUL byte in its first block and binary files are
    /// skipped; nothing else was read.
    Binary,
}

/// Reads whole files into one buffer that is reused from file to file, so
/// that a worker thread allocates only when it meets a larger file than
/// any before.
///
/// Reading the whole file and scanning it in one slice beats reading in
/// chunks on the files a tree is made of (mostly small): one `read` call
/// per file, no roll-over of partial URIs at chunk edges.
#[derive(Debug)]
pub struct FileReader {
    buf: Vec<u8>,
    decompress: bool,
    skip_binary: bool,
    stream_above: Option<u64>,
}

impl Default for FileReader {
    fn default() -> FileReader {
        FileReader::new()
    }
}

impl std::fmt::Debug for Contents<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contents::Text(t) => write!(f, "Text({} bytes)", t.len()),
            Contents::Stream(_) => f.write_str("Stream"),
            Contents::Binary => f.write_str("Binary"),
        }
    }
}

impl FileReader {
    /// A reader that skips binary files and does not decompress.
    pub fn new() -> FileReader {
        FileReader {
            buf: vec![],
            decompress: false,
            skip_binary: true,
            stream_above: Some(DEFAULT_STREAM_ABOVE),
        }
    }
    /// Files larger than this many bytes are handed out as a
    /// [`Contents::Stream`]; `None` reads every file whole. Default:
    /// [`DEFAULT_STREAM_ABOVE`].
    pub fn stream_above(&mut self, bytes: Option<u64>) -> &mut FileReader {
        self.stream_above = bytes;
        self
    }
    /// Whether to decompress `.gz` files (by name); without it they are
    /// binary like any other compressed file.
    pub fn decompress(&mut self, yes: bool) -> &mut FileReader {
        self.decompress = yes;
        self
    }
    /// Whether to skip files with a NUL in their first block. Default: yes.
    pub fn skip_binary(&mut self, yes: bool) -> &mut FileReader {
        self.skip_binary = yes;
        self
    }

    /// Whether files with a NUL in their first block are skipped.
    pub fn skips_binary(&self) -> bool {
        self.skip_binary
    }

    /// Whether `path` is read through a decompressor.
    pub fn is_compressed(&self, path: &Path) -> bool {
        self.decompress
            && path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gz"))
    }

    /// Reads the file at `path`: whole when it is a small regular file,
    /// as a stream when it is large, compressed, or not a regular file (a
    /// FIFO or a device).
    pub fn read(&mut self, path: &Path) -> io::Result<Contents<'_>> {
        let file = File::open(path)?;
        if self.is_compressed(path) {
            let gz =
                flate2::read::MultiGzDecoder::new(io::BufReader::new(file));
            // Decompressed sizes are unknown up front: always stream.
            return self.stream(gz);
        }
        // A FIFO, a device or a socket has no size to trust and may not
        // end (`/dev/zero`, a pipe fed by a long job): read whole, it
        // would take as much memory as it delivers. Streamed, it takes a
        // bounded buffer, like standard input. So does a file of unknown
        // kind.
        let len = match file.metadata() {
            Ok(m) if m.is_file() => m.len(),
            _ => return self.stream(file),
        };
        // The size is a hint only: the file may grow or shrink meanwhile.
        if self.stream_above.is_some_and(|max| len > max) {
            return self.stream(file);
        }
        // One byte more than the size, so that the read that sees the
        // end of the file needs no room of its own.
        self.fill(file, (len as usize).saturating_add(1))
    }

    /// Takes the buffer, which holds the bytes of the last
    /// [`Contents::Text`] (and only them), to keep them without a copy.
    /// The reader starts a new buffer unless one is handed back with
    /// [`FileReader::give_buffer`].
    ///
    /// ```
    /// # fn main() -> std::io::Result<()> {
    /// use uriscan::reading::{Contents, FileReader};
    ///
    /// let mut reader = FileReader::new();
    /// let n = match reader.read_from(&b"see https://example.com/"[..])? {
    ///     Contents::Text(t) => t.len(),
    ///     _ => 0,
    /// };
    /// let owned = reader.take_buffer();
    /// assert_eq!(owned.len(), n);
    /// reader.give_buffer(owned); // reused by the next read
    /// # Ok(())
    /// # }
    /// ```
    pub fn take_buffer(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.buf)
    }

    /// Hands a buffer to the reader to read the next files into, so that
    /// one taken with [`FileReader::take_buffer`] is reused; its contents
    /// are dropped.
    pub fn give_buffer(&mut self, mut buf: Vec<u8>) {
        buf.clear();
        if buf.capacity() >= self.buf.capacity() {
            self.buf = buf;
        }
    }

    /// Reads everything from `rdr` into the buffer.
    pub fn read_from<R: Read>(&mut self, rdr: R) -> io::Result<Contents<'_>> {
        self.fill(rdr, 64 * 1024)
    }

    /// Checks the first block of `rdr` for binary and hands the rest out
    /// as a stream (standard input, a pipe, a decoder).
    ///
    /// A read error within the first block is not returned at once when
    /// bytes came before it: the stream hands out those bytes, then the
    /// error, so that they are scanned like the rest of a stream.
    pub fn stream<'b, R: Read + 'b>(
        &'b mut self,
        mut rdr: R,
    ) -> io::Result<Contents<'b>> {
        let (n, err) = self.fill_buf(&mut rdr, BINARY_PROBE, BINARY_PROBE);
        let head = &self.buf[..n];
        if let Some(e) = err {
            return Self::cut_short(head, e, self.skip_binary);
        }
        if self.skip_binary && is_binary(head) {
            return Ok(Contents::Binary);
        }
        Ok(Contents::Stream(Box::new(io::Cursor::new(head).chain(rdr))))
    }

    /// Reads `rdr` to its end, then checks the first block: large files
    /// never come here (they are streamed, and a stream checks its first
    /// block before reading on), so reading the first block separately
    /// would only cost small files a system call.
    fn fill<R: Read>(
        &mut self,
        mut rdr: R,
        hint: usize,
    ) -> io::Result<Contents<'_>> {
        let (n, err) = self.fill_buf(&mut rdr, hint, usize::MAX);
        let text = &self.buf[..n];
        if let Some(e) = err {
            return Self::cut_short(text, e, self.skip_binary);
        }
        if self.skip_binary && is_binary(text) {
            return Ok(Contents::Binary);
        }
        Ok(Contents::Text(text))
    }

    /// The contents of an input whose read failed after `read` bytes:
    /// those bytes, then the error, as a stream, so that a bad input
    /// loses nothing that was read and its error is still reported (by
    /// whoever reads the stream to its end). With nothing to scan (no
    /// bytes, or binary ones), the error alone.
    fn cut_short<'b>(
        read: &'b [u8],
        err: io::Error,
        skip_binary: bool,
    ) -> io::Result<Contents<'b>> {
        if read.is_empty() || (skip_binary && is_binary(read)) {
            return Err(err);
        }
        let fail = Failing(Some(err));
        Ok(Contents::Stream(Box::new(io::Cursor::new(read).chain(fail))))
    }

    /// Reads into the front of the buffer until the end of `rdr` or `max`
    /// bytes; returns the number of bytes read, and the error that ended
    /// the read early. What was read before an error is in the buffer
    /// (`read_to_end` keeps it) and counted.
    ///
    /// `read_to_end` into the buffer's spare capacity: for a `File`, std
    /// reads into it without zeroing it first. Measured on one 8 MB file
    /// (`uriscan -o`, whole process): zeroing a fresh buffer before each
    /// read cost more than the scan itself.
    fn fill_buf<R: Read>(
        &mut self,
        rdr: &mut R,
        hint: usize,
        max: usize,
    ) -> (usize, Option<io::Error>) {
        self.buf.clear();
        self.buf.reserve(hint.min(max));
        // Through `take` even without a limit: `File::read_to_end` asks
        // the kernel for the file's size and position first (`fstat`,
        // `lseek`), two of the nine system calls a small file cost,
        // when the caller has sized the buffer already.
        let limit = if max == usize::MAX { u64::MAX } else { max as u64 };
        let res = rdr.take(limit).read_to_end(&mut self.buf);
        (self.buf.len(), res.err())
    }
}

/// Whether `bytes` has a NUL in its first block (8 KiB): how
/// [`FileReader`] tells a binary file, for a caller that gets a file's
/// bytes another way.
///
/// ```
/// assert!(uriscan::reading::is_binary(b"PK\x03\x04\0\0"));
/// assert!(!uriscan::reading::is_binary(b"<a href=x>"));
/// ```
pub fn is_binary(bytes: &[u8]) -> bool {
    memchr::memchr(0, &bytes[..bytes.len().min(BINARY_PROBE)]).is_some()
}

/// A reader that fails once with its error, then reads as ended: the end
/// of a stream whose read failed.
struct Failing(Option<io::Error>);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        self.0.take().map_or(Ok(0), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn all(c: Contents<'_>) -> Vec<u8> {
        match c {
            Contents::Text(t) => t.to_vec(),
            Contents::Stream(mut s) => {
                let mut v = vec![];
                s.read_to_end(&mut v).unwrap();
                v
            }
            Contents::Binary => panic!("binary"),
        }
    }

    #[test]
    fn text_binary_and_gzip() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let mut big = vec![b'a'; BINARY_PROBE * 3];
        big.extend_from_slice(b" http://x.example/ \0");
        std::fs::write(d.join("late-nul.txt"), &big).unwrap();
        std::fs::write(d.join("bin"), b"ab\0cd").unwrap();
        let mut gz = flate2::write::GzEncoder::new(
            vec![],
            flate2::Compression::default(),
        );
        gz.write_all(b"see http://gz.example/").unwrap();
        std::fs::write(d.join("a.gz"), gz.finish().unwrap()).unwrap();

        let mut r = FileReader::new();
        // A NUL after the first block does not make the file binary.
        match r.read(&d.join("late-nul.txt")).unwrap() {
            Contents::Text(t) => assert_eq!(t, &big[..]),
            c => panic!("late NUL: {c:?}"),
        }
        assert!(matches!(r.read(&d.join("bin")).unwrap(), Contents::Binary));
        assert!(matches!(r.read(&d.join("a.gz")).unwrap(), Contents::Binary));
        r.decompress(true);
        assert_eq!(
            all(r.read(&d.join("a.gz")).unwrap()),
            b"see http://gz.example/"
        );
        r.skip_binary(false);
        assert_eq!(all(r.read(&d.join("bin")).unwrap()), b"ab\0cd");
        // Above the threshold, the same bytes come as a stream.
        r.stream_above(Some(100));
        let c = r.read(&d.join("late-nul.txt")).unwrap();
        assert!(matches!(c, Contents::Stream(_)));
        assert_eq!(all(c), big);
        r.skip_binary(true);
        assert!(matches!(r.stream(&b"a\0b"[..]).unwrap(), Contents::Binary));
        assert!(r.read(&d.join("missing")).is_err());
    }

    #[test]
    fn a_taken_buffer_holds_the_text_and_is_reused_when_given_back() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::write(&a, b"see http://a.example/ ".repeat(100)).unwrap();
        std::fs::write(&b, b"http://b.example/").unwrap();
        let mut r = FileReader::new();
        let text = all(r.read(&a).unwrap());
        let owned = r.take_buffer();
        assert_eq!(owned, text);
        // Taken, the buffer is the caller's: the next read does not
        // write into it.
        assert_eq!(all(r.read(&b).unwrap()), b"http://b.example/");
        assert_eq!(owned, text);
        // Given back, the larger buffer is read into (no new allocation),
        // and what it held is gone.
        let (ptr, cap) = (owned.as_ptr(), owned.capacity());
        r.give_buffer(owned);
        assert!(
            matches!(r.read(&b).unwrap(), Contents::Text(t) if t == b"http://b.example/")
        );
        let again = r.take_buffer();
        assert_eq!((again.as_ptr(), again.capacity()), (ptr, cap));
        // A smaller one is not taken in place of a larger.
        r.give_buffer(again);
        r.give_buffer(Vec::new());
        assert_eq!(r.take_buffer().capacity(), cap);
    }

    /// Hands out `data` in reads of at most `step` bytes, then fails.
    struct FailAfter<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for FailAfter<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.data.is_empty() {
                return Err(io::Error::other("disk on fire"));
            }
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    /// The bytes of `c`, and the error that ended them.
    fn until_error(c: Contents<'_>) -> (Vec<u8>, io::Error) {
        let Contents::Stream(mut s) = c else { panic!("not a stream: {c:?}") };
        let mut v = vec![];
        let err = s.read_to_end(&mut v).unwrap_err();
        (v, err)
    }

    #[test]
    fn bytes_read_before_an_error_are_kept_then_the_error() {
        let text = b"see http://a.example/ and http://b.example/ ";
        let mut big = b"x ".repeat(BINARY_PROBE);
        big.extend_from_slice(text);
        let mut r = FileReader::new();
        // Read whole (a small file), within the first block of a stream,
        // and past it.
        let cases: [(&[u8], bool); 3] =
            [(text, false), (text, true), (&big, true)];
        for (data, as_stream) in cases {
            let rdr = FailAfter { data, step: 7 };
            let c = if as_stream {
                r.stream(rdr).unwrap()
            } else {
                r.read_from(rdr).unwrap()
            };
            let (got, err) = until_error(c);
            assert_eq!(got, data);
            assert_eq!(err.to_string(), "disk on fire");
        }
        // With nothing to scan, the error at once: no bytes, or binary
        // ones that are skipped.
        for data in [&b""[..], b"a\0b"] {
            let e = r.read_from(FailAfter { data, step: 7 }).unwrap_err();
            assert_eq!(e.to_string(), "disk on fire");
            let e = r.stream(FailAfter { data, step: 7 }).unwrap_err();
            assert_eq!(e.to_string(), "disk on fire");
        }
        // Binary ones scanned anyway are kept, too.
        r.skip_binary(false);
        let c = r.read_from(FailAfter { data: b"a\0b", step: 7 }).unwrap();
        assert_eq!(until_error(c).0, b"a\0b");
    }

    /// A FIFO is streamed through a bounded buffer, not read whole: the
    /// reader's buffer never grows to what the FIFO delivered.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_streamed_in_bounded_memory() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
        // Four times the size above which a regular file is streamed.
        let total = 4 * DEFAULT_STREAM_ABOVE as usize;
        let line = b"http://f.example/ \n";
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                // Opening blocks until the reader opens the FIFO.
                let mut w = std::fs::File::create(fifo).unwrap();
                let mut sent = 0;
                while sent < total {
                    w.write_all(line).unwrap();
                    sent += line.len();
                }
                sent
            })
        };
        let mut r = FileReader::new();
        let mut s = match r.read(&fifo).unwrap() {
            Contents::Stream(s) => s,
            c => panic!("read whole: {c:?}"),
        };
        let (mut got, mut chunk) = (0, vec![0; 4096]);
        loop {
            let n = s.read(&mut chunk).unwrap();
            if n == 0 {
                break;
            }
            assert!(chunk[..n].iter().all(|b| line.contains(b)));
            got += n;
        }
        drop(s);
        assert_eq!(got, writer.join().unwrap());
        assert!(r.buf.capacity() <= BINARY_PROBE * 2, "{}", r.buf.capacity());
    }
}
