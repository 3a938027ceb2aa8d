//! The broken links of a run gathered by document, for the forms written
//! whole at the end (Markdown, JUnit), which group them by file and whose
//! header holds counts.
//!
//! Each finding is formatted as the form writes it when it comes, and its
//! bytes are kept in a spool: in memory while it is small, in an unnamed
//! temporary file past that, so that a run of millions of broken links
//! holds only the counts and where each document's entries lie.

use std::fs::File;
use std::io::{self, Read as _, Seek as _, SeekFrom, Write as _};
use std::ops::Range;
use std::path::Path;

/// One broken (or failed remote) link.
pub struct Finding {
    pub line: u64,
    pub column: u64,
    /// The link as written.
    pub link: String,
    pub reason: String,
    pub suggestion: Option<String>,
}

/// The spooled entries of one kind of a document: how many, and where
/// their bytes lie in the spool, in order.
#[derive(Default)]
pub struct Entries {
    count: usize,
    /// Runs of the spool; a run grows while the document's entries follow
    /// one another.
    runs: Vec<Range<u64>>,
}

impl Entries {
    /// The number of entries.
    pub fn count(&self) -> usize {
        self.count
    }

    fn push(&mut self, bytes: Range<u64>) {
        self.count += 1;
        match self.runs.last_mut() {
            Some(run) if run.end == bytes.start => run.end = bytes.end,
            _ => self.runs.push(bytes),
        }
    }
}

/// A checked document and its findings.
pub struct DocFindings {
    /// The path as walked, without a leading `./`.
    path: String,
    /// The path escaped for the form.
    pub escaped: String,
    pub findings: Entries,
    /// Its warnings (unused and duplicate definitions), which fail
    /// nothing unless denied.
    pub warnings: Entries,
}

/// Every checked document, in the report's order, and the spool of their
/// entries.
pub struct Findings {
    pub docs: Vec<DocFindings>,
    /// How the form escapes a path.
    escape: fn(&str) -> String,
    spool: Spool,
}

/// Why the report stopped before its end.
pub enum Stopped {
    /// Standard output failed (and said so, unless its reader is gone).
    Output,
    /// The temporary file could not be read back.
    Spool(io::Error),
}

/// Writes a buffer out once it is large; false when standard output
/// failed.
pub type Spill<'s> = &'s mut dyn FnMut(&mut Vec<u8>) -> bool;

/// The spool's size in memory past which it goes to a temporary file.
const SPOOL_AT: usize = 1 << 20;

/// The bytes read back from the temporary file at a time.
const READ_AT: u64 = 1 << 16;

impl Findings {
    /// No document yet, for a form that escapes paths with `escape`.
    pub fn new(escape: fn(&str) -> String) -> Findings {
        Findings::spooled_at(escape, SPOOL_AT)
    }

    /// [`Findings::new`], moving the spool to a file past `spool_at`
    /// bytes.
    fn spooled_at(escape: fn(&str) -> String, spool_at: usize) -> Findings {
        Findings { docs: vec![], escape, spool: Spool::new(spool_at) }
    }

    /// A document is checked; its findings follow.
    pub fn document(&mut self, label: &Path) {
        let path = display_path(label);
        self.docs.push(DocFindings {
            escaped: (self.escape)(&path),
            path,
            findings: Entries::default(),
            warnings: Entries::default(),
        });
    }

    /// A finding (or a warning) of the document at `label`: the last one
    /// opened, else a new entry (a remote verdict may come after its
    /// document). `entry` writes it as the form does, given its document
    /// before it is counted.
    pub fn add(
        &mut self,
        label: &Path,
        warning: bool,
        entry: impl FnOnce(&mut Vec<u8>, &DocFindings),
    ) {
        let doc = self.doc(label);
        let start = self.spool.len();
        entry(self.spool.buffer(), &self.docs[doc]);
        let bytes = start..self.spool.len();
        self.spool.written();
        let doc = &mut self.docs[doc];
        if warning {
            doc.warnings.push(bytes);
        } else {
            doc.findings.push(bytes);
        }
    }

    /// The index of the document at `label`: the last one opened, else a
    /// new one.
    fn doc(&mut self, label: &Path) -> usize {
        let path = display_path(label);
        match self.docs.iter().rposition(|d| d.path == path) {
            Some(i) => i,
            None => {
                self.document(label);
                self.docs.len() - 1
            }
        }
    }

    /// The number of warnings.
    pub fn warning_count(&self) -> usize {
        self.docs.iter().map(|d| d.warnings.count).sum()
    }

    /// The number of findings.
    pub fn count(&self) -> usize {
        self.docs.iter().map(|d| d.findings.count).sum()
    }

    /// The number of documents with a finding.
    pub fn failing_docs(&self) -> usize {
        self.docs.iter().filter(|d| d.findings.count > 0).count()
    }

    /// Appends the bytes of `entries` to `out` in order, spilling it on
    /// the way.
    pub fn copy(
        &self,
        entries: &Entries,
        out: &mut Vec<u8>,
        spill: Spill<'_>,
    ) -> Result<(), Stopped> {
        for run in &entries.runs {
            self.spool.copy(run.clone(), out, spill)?;
        }
        Ok(())
    }
}

/// Bytes written once and read back at the end: the first in a
/// temporary file once they outgrow memory, the rest in memory.
struct Spool {
    /// The bytes after the file's: all of them while there is no file.
    tail: Vec<u8>,
    /// The unnamed temporary file, once made.
    file: Option<File>,
    /// The bytes written to the file, which come before the tail's.
    file_len: u64,
    /// Whether the tail may still go to the file: not once making it or
    /// writing to it failed (the rest then stays in memory, and nothing
    /// is lost).
    to_file: bool,
    spool_at: usize,
}

impl Spool {
    fn new(spool_at: usize) -> Spool {
        Spool {
            tail: vec![],
            file: None,
            file_len: 0,
            to_file: true,
            spool_at,
        }
    }

    /// The bytes written so far.
    fn len(&self) -> u64 {
        self.file_len + self.tail.len() as u64
    }

    /// Where the next bytes are written; [`Spool::written`] follows.
    fn buffer(&mut self) -> &mut Vec<u8> {
        &mut self.tail
    }

    /// The tail went to the file once it is large.
    fn written(&mut self) {
        if self.to_file && self.tail.len() >= self.spool_at {
            self.to_file = self.move_tail().is_ok();
        }
    }

    fn move_tail(&mut self) -> io::Result<()> {
        let file = match &mut self.file {
            Some(file) => file,
            // Unnamed: nothing is left behind, whatever ends the run.
            None => self.file.insert(tempfile::tempfile()?),
        };
        file.write_all(&self.tail)?;
        self.file_len += self.tail.len() as u64;
        self.tail.clear();
        Ok(())
    }

    /// Appends the spool's `bytes` to `out`, spilling it on the way.
    fn copy(
        &self,
        bytes: Range<u64>,
        out: &mut Vec<u8>,
        spill: Spill<'_>,
    ) -> Result<(), Stopped> {
        let mut at = bytes.start;
        let in_file = bytes.end.min(self.file_len);
        if at < in_file {
            let mut file = self.file.as_ref().ok_or_else(|| {
                Stopped::Spool(io::Error::other("no temporary file"))
            })?;
            file.seek(SeekFrom::Start(at)).map_err(Stopped::Spool)?;
            while at < in_file {
                let n = (in_file - at).min(READ_AT);
                let old = out.len();
                out.resize(old + n as usize, 0);
                if let Err(e) = file.read_exact(&mut out[old..]) {
                    out.truncate(old);
                    return Err(Stopped::Spool(e));
                }
                at += n;
                if !spill(out) {
                    return Err(Stopped::Output);
                }
            }
        }
        if at < bytes.end {
            let tail = (at - self.file_len) as usize
                ..(bytes.end - self.file_len) as usize;
            out.extend_from_slice(&self.tail[tail]);
            if !spill(out) {
                return Err(Stopped::Output);
            }
        }
        Ok(())
    }
}

/// A walked path for a report: lossy UTF-8, without a leading `./`.
fn display_path(label: &Path) -> String {
    let path = label.strip_prefix("./").unwrap_or(label);
    path.to_string_lossy().into_owned()
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// Runs of entries in one spool, in memory and through a file at each
    /// size, read back the same.
    #[test]
    fn spool_reads_back_what_was_written() {
        for spool_at in [0, 1, 3, 7, 64, SPOOL_AT] {
            let mut findings = Findings::spooled_at(str::to_owned, spool_at);
            for (i, doc) in ["a", "b", "a", "c", "b"].iter().enumerate() {
                for n in 0..i + 2 {
                    findings.add(Path::new(doc), n % 2 == 1, |out, d| {
                        let _ = write!(out, "{}{n};", d.escaped);
                    });
                }
            }
            let (mut all, mut out) = (vec![], vec![]);
            let mut spill = |out: &mut Vec<u8>| {
                all.append(out);
                true
            };
            for doc in &findings.docs {
                for entries in [&doc.findings, &doc.warnings] {
                    if findings.copy(entries, &mut out, &mut spill).is_err() {
                        panic!("read back");
                    }
                }
            }
            assert_eq!(
                String::from_utf8(all).unwrap(),
                "a0;a0;a2;a1;a1;a3;b0;b2;b0;b2;b4;b1;b1;b3;b5;c0;c2;c4;c1;c3;",
                "spooled at {spool_at}"
            );
            assert_eq!(findings.spool.file.is_some(), spool_at < 64);
        }
    }

    /// A run: `a.md` with findings and a warning, `b.md` with none,
    /// `c.md` with both, and a late finding of `a.md` (as a remote
    /// verdict comes after its document), each written by `entry`.
    pub fn run(
        mut findings: Findings,
        entry: impl Fn(&mut Vec<u8>, &DocFindings, &Finding, bool),
    ) -> Findings {
        let finding = |n: u64| Finding {
            line: n,
            column: 2,
            link: format!("#a|<{n}>"),
            reason: format!("no anchor & '{n}'"),
            suggestion: n.is_multiple_of(3).then(|| format!("#b{n}")),
        };
        let add = |findings: &mut Findings, doc: &str, n, warning| {
            let f = finding(n);
            findings.add(Path::new(doc), warning, |out, d| {
                entry(out, d, &f, warning)
            });
        };
        findings.document(Path::new("./a.md"));
        add(&mut findings, "./a.md", 1, false);
        add(&mut findings, "./a.md", 2, true);
        add(&mut findings, "./a.md", 3, false);
        findings.document(Path::new("./b.md"));
        findings.document(Path::new("./c.md"));
        add(&mut findings, "./c.md", 4, true);
        add(&mut findings, "./c.md", 5, false);
        add(&mut findings, "./c.md", 6, true);
        add(&mut findings, "./a.md", 7, false);
        findings
    }

    /// What `write` writes, spilled as it goes.
    pub fn written(
        write: impl FnOnce(&mut Vec<u8>, Spill<'_>) -> Result<(), Stopped>,
    ) -> String {
        let (mut all, mut out) = (vec![], vec![]);
        let mut spill = |out: &mut Vec<u8>| {
            all.append(out);
            true
        };
        assert!(write(&mut out, &mut spill).is_ok());
        all.append(&mut out);
        String::from_utf8(all).expect("UTF-8")
    }

    /// Findings spooled to a file from the first byte, for the forms'
    /// tests.
    pub fn spooled(escape: fn(&str) -> String) -> Findings {
        Findings::spooled_at(escape, 0)
    }

    /// Findings that stay in memory.
    pub fn in_memory(escape: fn(&str) -> String) -> Findings {
        Findings::spooled_at(escape, usize::MAX)
    }
}
