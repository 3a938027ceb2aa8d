//! Reading a file into a reused buffer, with binary detection and gzip.

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
    /// decompressed, or standard input. The first block (already checked
    /// for binary) comes first.
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

    /// Whether `path` is read through a decompressor.
    pub fn is_compressed(&self, path: &Path) -> bool {
        self.decompress
            && path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gz"))
    }

    /// Reads the file at `path`: whole when it is small, as a stream when
    /// it is large or compressed.
    pub fn read(&mut self, path: &Path) -> io::Result<Contents<'_>> {
        let file = File::open(path)?;
        if self.is_compressed(path) {
            let gz =
                flate2::read::MultiGzDecoder::new(io::BufReader::new(file));
            // Decompressed sizes are unknown up front: always stream.
            return self.stream(gz);
        }
        // The size is a hint only: the file may grow or shrink meanwhile.
        let len = file.metadata().map_or(0, |m| m.len());
        if self.stream_above.is_some_and(|max| len > max) {
            return self.stream(file);
        }
        // One byte more than the size, so that the read that sees the
        // end of the file needs no room of its own.
        self.fill(file, (len as usize).saturating_add(1), usize::MAX)
    }

    /// Reads everything from `rdr` into the buffer.
    pub fn read_from<R: Read>(&mut self, rdr: R) -> io::Result<Contents<'_>> {
        self.fill(rdr, 64 * 1024, usize::MAX)
    }

    /// Checks the first block of `rdr` for binary and hands the rest out
    /// as a stream (standard input, a pipe, a decoder).
    pub fn stream<'b, R: Read + 'b>(
        &'b mut self,
        mut rdr: R,
    ) -> io::Result<Contents<'b>> {
        let n = self.fill_buf(&mut rdr, BINARY_PROBE, BINARY_PROBE)?;
        let head = &self.buf[..n];
        if self.skip_binary && memchr::memchr(0, head).is_some() {
            return Ok(Contents::Binary);
        }
        Ok(Contents::Stream(Box::new(io::Cursor::new(head).chain(rdr))))
    }

    /// Reads `rdr` to its end (or `max` bytes), then checks the first
    /// block: large files never come here (they are streamed, and a stream
    /// checks its first block before reading on), so reading the first
    /// block separately would only cost small files a system call.
    fn fill<R: Read>(
        &mut self,
        mut rdr: R,
        hint: usize,
        max: usize,
    ) -> io::Result<Contents<'_>> {
        let n = self.fill_buf(&mut rdr, hint, max)?;
        let text = &self.buf[..n];
        if self.skip_binary
            && memchr::memchr(0, &text[..n.min(BINARY_PROBE)]).is_some()
        {
            return Ok(Contents::Binary);
        }
        Ok(Contents::Text(text))
    }

    /// Reads into the front of the buffer until the end of `rdr` or `max`
    /// bytes; returns the number of bytes read.
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
    ) -> io::Result<usize> {
        self.buf.clear();
        self.buf.reserve(hint.min(max));
        let res = if max == usize::MAX {
            rdr.read_to_end(&mut self.buf)
        } else {
            rdr.take(max as u64).read_to_end(&mut self.buf)
        };
        // What was read before an error is kept, like `read` does.
        res.map(|_| self.buf.len())
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
}
