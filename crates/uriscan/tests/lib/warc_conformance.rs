//! The WARC files that three archive libraries keep to test their readers
//! (`../shared/conformance/warc/`, README there): each is read whole and in
//! small reads, every record gives its links, and what the README says a
//! file is for is checked.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use uriscan::links::LinkExtractor;
use uriscan::warc::{RecordType, WarcReader, record_links};

use crate::support::trickle::Trickle;

const DIR: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/conformance/warc");

/// What reading a file gives.
#[derive(Debug, Default)]
struct Reading {
    /// Each record's type, offset, link targets and warnings' names.
    records: Vec<(RecordType, u64, Vec<String>, Vec<&'static str>)>,
    /// Each damaged record's offset and message.
    errors: Vec<(u64, String)>,
}

impl Reading {
    fn targets(&self) -> Vec<&str> {
        self.records
            .iter()
            .flat_map(|r| r.2.iter().map(String::as_str))
            .collect()
    }
    fn warned(&self, name: &str) -> usize {
        self.records.iter().filter(|r| r.3.contains(&name)).count()
    }
}

fn read(bytes: &[u8]) -> Reading {
    let extractor = LinkExtractor::new();
    let mut out = Reading::default();
    for item in WarcReader::new(bytes) {
        match item {
            Ok(r) => {
                let targets = record_links(&r, &extractor)
                    .iter()
                    .filter_map(|l| l.target().map(str::to_owned))
                    .collect();
                let warnings =
                    r.warnings().iter().map(|w| w.as_str()).collect();
                out.records.push((
                    r.record_type(),
                    r.offset(),
                    targets,
                    warnings,
                ));
            }
            Err(e) => out.errors.push((e.offset(), e.to_string())),
        }
    }
    out
}

/// Each record's offset and block, or an error's offset.
fn shape(bytes: &[u8], step: usize) -> Vec<Result<(u64, usize), u64>> {
    WarcReader::new(Trickle::step(bytes, step))
        .map(|r| {
            r.map(|r| (r.offset(), r.block().len())).map_err(|e| e.offset())
        })
        .collect()
}

/// Every WARC file of the suite (ARC files aside), by name.
fn files() -> Option<BTreeMap<String, Vec<u8>>> {
    let dir = Path::new(DIR);
    if !dir.is_dir() {
        println!("skipped: {DIR} is missing");
        return None;
    }
    let mut out = BTreeMap::new();
    for library in std::fs::read_dir(dir).unwrap() {
        let library = library.unwrap().path();
        if !library.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&library).unwrap() {
            let path: PathBuf = file.unwrap().path();
            let name =
                path.file_name().unwrap().to_string_lossy().into_owned();
            if name.contains(".warc") {
                out.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    Some(out)
}

#[test]
fn every_file_is_read_whatever_the_read_size() {
    let Some(files) = files() else { return };
    assert!(files.len() >= 15, "{:?}", files.keys());
    for (name, bytes) in &files {
        let reading = read(bytes);
        assert!(!reading.records.is_empty(), "{name}: no record");
        for (offset, message) in &reading.errors {
            assert!(*offset < bytes.len() as u64, "{name}: {message}");
        }
        let whole = shape(bytes, usize::MAX);
        for step in [1, 7, 4096] {
            assert_eq!(shape(bytes, step), whole, "{name}, reads of {step}");
        }
    }
}

#[test]
fn the_files_read_as_their_libraries_read_them() {
    let Some(files) = files() else { return };
    let reading = |name: &str| read(&files[name]);
    let iana = "http://www.iana.org/domains/example";
    // Clean files: no damage, no warning.
    for name in [
        "example.warc",
        "example.warc.gz",
        "example-digest.warc",
        "example-resource.warc.gz",
        "IAH-urls-wget.warc",
        "IAH-urls-wget.warc.gz",
        "cc.warc.gz",
        "gzip_extra_sl.warc.gz",
        "mutliple-headers.warc",
        "example-iana.org-chunked.warc",
    ] {
        let r = reading(name);
        assert!(r.errors.is_empty(), "{name}: {:?}", r.errors);
        assert!(r.records.iter().all(|r| r.3.is_empty()), "{name}: {r:?}");
    }
    assert!(reading("example.warc.gz").targets().contains(&iana));
    // The same records plain and compressed.
    assert_eq!(
        reading("IAH-urls-wget.warc").targets(),
        reading("IAH-urls-wget.warc.gz").targets()
    );
    // Chunked responses are de-chunked, their links all found.
    let chunked = reading("example-iana.org-chunked.warc");
    assert!(chunked.targets().len() >= 40, "{chunked:?}");
    // A gzip member with an extra field is read.
    assert!(!reading("gzip_extra_sl.warc.gz").records.is_empty());
    // Gzip as one stream: its records are read.
    for name in ["example-bad-non-chunked.warc.gz", "example-bad.warc.gz.bad"]
    {
        let r = reading(name);
        assert!(r.records.len() >= 2, "{name}: {r:?}");
    }
    // A file cut short: the response whose length runs past it is kept,
    // with a warning, and the request after it read, as warcio does.
    let trunc = reading("example-trunc.warc");
    assert!(trunc.errors.is_empty(), "{:?}", trunc.errors);
    assert_eq!(trunc.warned("length-off"), 1, "{trunc:?}");
    assert!(trunc.targets().contains(&iana));
    assert!(trunc.records.iter().any(|r| r.0 == RecordType::Request));
    // Bad chunk sizes: the page is read all the same.
    assert!(reading("example-wrong-chunks.warc.gz").targets().contains(&iana));
    // Pages kept to test link extraction: every record read, those whose
    // lengths are off with a warning.
    let pages = reading("link-extraction-test.warc");
    assert!(pages.errors.is_empty(), "{:?}", pages.errors);
    assert!(pages.warned("length-off") >= 4, "{pages:?}");
    assert!(pages.targets().len() >= 30, "{pages:?}");
}
