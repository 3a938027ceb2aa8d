//! Reading a file into a reused buffer, with binary detection and gzip.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// How many leading bytes are checked for a NUL to call a file binary:
/// one block, as grep and ripgrep do.
const BINARY_PROBE: usize = 8 * 1024;

/// What [`FileReader::read`] found in a file.
#[derive(Debug)]
pub enum Contents<'b> {
    /// The file's bytes (decompressed when it was a gzip file and
    /// decompression is on).
    Text(&'b [u8]),
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
#[derive(Debug, Default)]
pub struct FileReader {
    buf: Vec<u8>,
    decompress: bool,
    skip_binary: bool,
}

impl FileReader {
    /// A reader that skips binary files and does not decompress.
    pub fn new() -> FileReader {
        FileReader { buf: vec![], decompress: false, skip_binary: true }
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

    /// Reads the file at `path`.
    pub fn read(&mut self, path: &Path) -> io::Result<Contents<'_>> {
        let file = File::open(path)?;
        if self.is_compressed(path) {
            let gz =
                flate2::read::MultiGzDecoder::new(io::BufReader::new(file));
            return self.read_from(gz);
        }
        // The size is a hint only: the file may grow or shrink meanwhile.
        let hint = file.metadata().map_or(0, |m| m.len() as usize);
        self.buf.clear();
        self.buf.reserve(hint.saturating_add(1));
        self.fill(file)
    }

    /// Reads everything from `rdr` (standard input, a pipe, a decoder).
    pub fn read_from<R: Read>(&mut self, rdr: R) -> io::Result<Contents<'_>> {
        self.buf.clear();
        self.fill(rdr)
    }

    fn fill<R: Read>(&mut self, mut rdr: R) -> io::Result<Contents<'_>> {
        if self.skip_binary {
            // Read the first block alone so that a large binary file costs
            // one small read.
            let mut probe = (&mut rdr).take(BINARY_PROBE as u64);
            probe.read_to_end(&mut self.buf)?;
            if memchr::memchr(0, &self.buf).is_some() {
                return Ok(Contents::Binary);
            }
        }
        rdr.read_to_end(&mut self.buf)?;
        Ok(Contents::Text(&self.buf))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

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
            Contents::Binary => panic!("late NUL made the file binary"),
        }
        assert!(matches!(r.read(&d.join("bin")).unwrap(), Contents::Binary));
        assert!(matches!(r.read(&d.join("a.gz")).unwrap(), Contents::Binary));
        r.decompress(true);
        match r.read(&d.join("a.gz")).unwrap() {
            Contents::Text(t) => assert_eq!(t, b"see http://gz.example/"),
            Contents::Binary => panic!("gzip not decompressed"),
        }
        r.skip_binary(false);
        match r.read(&d.join("bin")).unwrap() {
            Contents::Text(t) => assert_eq!(t, b"ab\0cd"),
            Contents::Binary => panic!("binary skipped"),
        }
        assert!(r.read(&d.join("missing")).is_err());
    }
}
