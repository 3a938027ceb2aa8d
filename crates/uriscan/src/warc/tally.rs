//! What reading an archive met, for people: the records read, with
//! warnings and damaged, and the damaged records' errors with a run of
//! the same error summarised after the first few, so that garbage input
//! gives a few lines, not one per false record start.

use std::fmt;
use std::mem::Discriminant;

use super::error::{WarcError, WarcErrorKind};
use super::record::Record;

/// The errors of a run shown before the rest are summarised.
const SHOWN_PER_RUN: u64 = 3;

/// The rest of a run of one kind of error, not shown one by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSummary {
    /// The errors not shown.
    pub more: u64,
    /// The offset of the last of them.
    pub last_offset: u64,
}

impl fmt::Display for RunSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "…and {} more like it up to offset {}",
            self.more, self.last_offset
        )
    }
}

/// A line to show: a damaged record's error, or the summary of a run.
#[derive(Debug)]
pub enum ReadMessage<'a> {
    /// An error shown as it is.
    Error(&'a WarcError),
    /// The errors of a run not shown.
    Summary(RunSummary),
}

impl fmt::Display for ReadMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadMessage::Error(e) => e.fmt(f),
            ReadMessage::Summary(s) => s.fmt(f),
        }
    }
}

/// Counts an archive's records and chooses which errors to show: of a run
/// of errors of one kind on consecutive records, the first
/// few, then one [`RunSummary`] when the run ends.
///
/// ```
/// use uriscan::warc::{ReadTally, WarcReader};
///
/// let garbage = b"WARC/1.0\r\n".repeat(100);
/// let mut tally = ReadTally::new();
/// let mut lines = vec![];
/// for item in WarcReader::new(&garbage[..]) {
///     match item {
///         Ok(record) => tally.record(&record, |m| lines.push(m.to_string())),
///         Err(e) => tally.error(&e, |m| lines.push(m.to_string())),
///     }
/// }
/// tally.finish(|m| lines.push(m.to_string()));
/// assert_eq!(tally.damaged(), 100);
/// assert_eq!(lines.len(), 4, "{lines:?}");
/// assert_eq!(lines[3], "…and 97 more like it up to offset 990");
/// ```
#[derive(Debug, Default)]
pub struct ReadTally {
    records: u64,
    with_warnings: u64,
    damaged: u64,
    /// The current run of errors: their kind, the last one's offset, and
    /// how many.
    run: Option<(Discriminant<WarcErrorKind>, u64, u64)>,
}

impl ReadTally {
    /// Nothing read yet.
    pub fn new() -> ReadTally {
        ReadTally::default()
    }

    /// Counts a record read, which ends a run of errors (its summary goes
    /// to `say`).
    pub fn record(&mut self, record: &Record, say: impl FnMut(ReadMessage)) {
        self.records += 1;
        if !record.warnings().is_empty() {
            self.with_warnings += 1;
        }
        self.finish(say);
    }

    /// Counts a record read whose warnings are known already: as
    /// [`ReadTally::record`].
    pub fn record_with(&mut self, warned: bool, say: impl FnMut(ReadMessage)) {
        self.records += 1;
        self.with_warnings += u64::from(warned);
        self.finish(say);
    }

    /// Counts a damaged record; `say` gets its error, or nothing while
    /// the run it continues is past its first few.
    pub fn error(&mut self, e: &WarcError, mut say: impl FnMut(ReadMessage)) {
        self.damaged += 1;
        let class = std::mem::discriminant(e.kind());
        if self.run.is_some_and(|(c, _, _)| c != class) {
            self.finish(&mut say);
        }
        let n = self.run.map_or(0, |(_, _, n)| n) + 1;
        if n <= SHOWN_PER_RUN {
            say(ReadMessage::Error(e));
        }
        self.run = Some((class, e.offset(), n));
    }

    /// Ends the current run of errors: its summary, when some were not
    /// shown, goes to `say`.
    pub fn finish(&mut self, mut say: impl FnMut(ReadMessage)) {
        if let Some((_, last_offset, n)) = self.run.take()
            && n > SHOWN_PER_RUN
        {
            let more = n - SHOWN_PER_RUN;
            say(ReadMessage::Summary(RunSummary { more, last_offset }));
        }
    }

    /// The records read (damaged ones not counted).
    pub fn records(&self) -> u64 {
        self.records
    }
    /// The records read that have warnings.
    pub fn with_warnings(&self) -> u64 {
        self.with_warnings
    }
    /// The damaged records.
    pub fn damaged(&self) -> u64 {
        self.damaged
    }
}
