//! The cache of remote results (`--cache`): each URI's last result and
//! when it was had, so that a rerun within `--max-cache-age` skips the
//! URIs that were fine. Failures are kept for the record but always
//! checked again.
//!
//! The file sits in a checked tree that a stranger may have written, so
//! it is read as untrusted data and written without following links:
//! JSON Lines, a header line naming the format and its version
//! (`{"format":"uriscan-remote-cache","version":3}`), then one object a
//! URI (`{"uri":..,"at":SECONDS,"status":..,"http":CODE}`, and
//! `"final":URI` for a redirect), the URIs the requested ones, without
//! credentials or fragment. Version 2, the same without `final`, is read
//! too. A file in another format is read as an empty cache (with a word
//! why, [`Cache::discarded`]);
//! a line that does not read is dropped, so a damaged file costs
//! requests, never a wrong result.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::Path;
use std::time::{Duration, SystemTime};

use super::RemoteStatus;

/// The header line's `format`.
const FORMAT: &str = "uriscan-remote-cache";
/// The header line's `version`.
const VERSION: u64 = 3;
/// The older versions still read: 2, whose entries have no `final`.
const READ_VERSIONS: [u64; 2] = [2, VERSION];

/// One cached result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheEntry {
    /// When it was had, in seconds since the Unix epoch.
    pub at: u64,
    /// The status then.
    pub status: RemoteStatus,
    /// The final HTTP status then, if any.
    pub http: Option<u16>,
    /// The URI of the last answer then, when it was redirected.
    pub final_uri: Option<String>,
}

/// The cache: URIs and their last results.
#[derive(Clone, Debug, Default)]
pub struct Cache {
    entries: HashMap<String, CacheEntry>,
    /// Why the file's content was not used, when it was not a cache.
    discarded: Option<String>,
}

impl Cache {
    /// Reads a cache file; a missing file is an empty cache, and so is a
    /// file in another format ([`discarded`](Self::discarded) says so).
    ///
    /// # Errors
    ///
    /// When the file exists and cannot be read, or is a symbolic link
    /// (never followed: the cache path is in a tree others may write).
    pub fn load(path: &Path) -> io::Result<Cache> {
        refuse_symlink(path)?;
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Cache::default());
            }
            Err(e) => return Err(e),
        };
        Ok(Cache::parse(&String::from_utf8_lossy(&bytes)))
    }

    fn parse(text: &str) -> Cache {
        let mut lines = text.lines().filter(|l| !l.trim().is_empty());
        let Some(first) = lines.next() else {
            return Cache::default();
        };
        if !is_header(first) {
            let discarded = format!(
                "not a uriscan cache of format version {VERSION}; read as empty and rewritten"
            );
            return Cache {
                entries: HashMap::new(),
                discarded: Some(discarded),
            };
        }
        let entries = lines.filter_map(parse_row).collect();
        Cache { entries, discarded: None }
    }

    /// Why the file's content was not used, when it was not a cache of
    /// this format (an older uriscan's, or another file): it is read as
    /// empty, and replaced when the cache is saved.
    pub fn discarded(&self) -> Option<&str> {
        self.discarded.as_deref()
    }

    /// The entry of `uri` if it is a success younger than `max_age` at
    /// `now`: the one kind of entry that saves a request. (A `max_age`
    /// of zero uses no entry.)
    pub fn fresh(
        &self,
        uri: &str,
        max_age: Duration,
        now: SystemTime,
    ) -> Option<CacheEntry> {
        let e = self.entries.get(uri)?;
        let now = unix_seconds(now);
        (e.status.is_success()
            && e.at <= now
            && Duration::from_secs(now - e.at) < max_age)
            .then(|| e.clone())
    }

    /// Records a result.
    pub fn insert(&mut self, uri: String, entry: CacheEntry) {
        self.entries.insert(uri, entry);
    }

    /// The number of URIs held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Writes the cache to `path`, through a new temporary file in its
    /// directory (created exclusively under a random name, so no link
    /// planted there is followed) renamed over it: a run cut short leaves
    /// the old cache whole. Entries are sorted so that the file diffs
    /// well.
    ///
    /// # Errors
    ///
    /// When the file cannot be written, or `path` is a symbolic link.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        refuse_symlink(path)?;
        let mut rows: Vec<_> = self.entries.iter().collect();
        rows.sort_by(|a, b| a.0.cmp(b.0));
        let mut out = Vec::with_capacity(rows.len() * 80 + 64);
        writeln!(out, r#"{{"format":"{FORMAT}","version":{VERSION}}}"#)?;
        for (uri, e) in rows {
            // The URI is the one value from the documents: JSON-escaped.
            let uri = serde_json::Value::from(uri.as_str());
            let http = e.http.map_or("null".to_string(), |h| h.to_string());
            write!(
                out,
                r#"{{"uri":{uri},"at":{},"status":"{}","http":{http}"#,
                e.at,
                e.status.as_str()
            )?;
            if let Some(f) = &e.final_uri {
                write!(
                    out,
                    r#","final":{}"#,
                    serde_json::Value::from(f.as_str())
                )?;
            }
            writeln!(out, "}}")?;
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut tmp = tempfile::Builder::new()
            .prefix(".uriscan-cache.")
            .suffix(".tmp")
            .tempfile_in(dir)?;
        tmp.write_all(&out)?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    }
}

/// Whether `line` is this format's header.
fn is_header(line: &str) -> bool {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
        return false;
    };
    v["format"] == FORMAT
        && v["version"].as_u64().is_some_and(|n| READ_VERSIONS.contains(&n))
}

/// One row: a URI and its entry, or `None` when it does not read.
fn parse_row(line: &str) -> Option<(String, CacheEntry)> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    let uri = v["uri"].as_str()?.to_string();
    let at = v["at"].as_u64()?;
    let status = RemoteStatus::from_name(v["status"].as_str()?)?;
    let http = match &v["http"] {
        serde_json::Value::Null => None,
        h => Some(u16::try_from(h.as_u64()?).ok()?),
    };
    let final_uri = match &v["final"] {
        serde_json::Value::Null => None,
        f => Some(f.as_str()?.to_string()),
    };
    Some((uri, CacheEntry { at, status, http, final_uri }))
}

/// An error when `path` is a symbolic link: the cache is neither read nor
/// written through one, as a link planted in the checked tree could send
/// the write anywhere the user may write.
fn refuse_symlink(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is a symbolic link, which the cache does not follow",
        )),
        _ => Ok(()),
    }
}

/// Seconds since the Unix epoch.
pub fn unix_seconds(t: SystemTime) -> u64 {
    t.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_freshness() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".uriscan-cache");
        let mut c = Cache::load(&path).unwrap();
        assert!(c.is_empty());
        let e = |at, status, http| CacheEntry {
            at,
            status,
            http,
            final_uri: None,
        };
        c.insert("http://a/".into(), e(1000, RemoteStatus::Ok, Some(200)));
        c.insert(
            "http://b/".into(),
            e(1000, RemoteStatus::Redirected, Some(200)),
        );
        c.insert("http://c/".into(), e(1000, RemoteStatus::Broken, Some(404)));
        c.insert("http://d/".into(), e(1000, RemoteStatus::Timeout, None));
        c.save(&path).unwrap();
        let c = Cache::load(&path).unwrap();
        assert_eq!(c.len(), 4);
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1060);
        let day = Duration::from_secs(86400);
        assert_eq!(
            c.fresh("http://a/", day, now),
            Some(e(1000, RemoteStatus::Ok, Some(200)))
        );
        assert!(c.fresh("http://b/", day, now).is_some());
        // Failures are always checked again.
        assert_eq!(c.fresh("http://c/", day, now), None);
        assert_eq!(c.fresh("http://d/", day, now), None);
        // Too old.
        assert_eq!(c.fresh("http://a/", Duration::from_secs(60), now), None);
        assert!(c.fresh("http://a/", Duration::from_secs(61), now).is_some());
        assert_eq!(c.fresh("http://a/", Duration::ZERO, now), None);
        assert_eq!(c.fresh("http://x/", day, now), None);
    }

    #[test]
    fn damaged_lines_are_dropped() {
        let c = Cache::parse(concat!(
            "{\"format\":\"uriscan-remote-cache\",\"version\":2}\n",
            "{\"uri\":\"http://a/\",\"at\":1,\"status\":\"ok\",\"http\":200}\n",
            "{\"uri\":\"http://b/\",\"at\":\"x\",\"status\":\"ok\",\"http\":200}\n",
            "{\"uri\":\"http://c/\",\"at\":2,\"status\":\"fine\",\"http\":200}\n",
            "{\"uri\":\"http://d/\",\"at\":3,\"status\":\"ok\",\"http\":70000}\n",
            "{\"uri\":\"http://e/ f\",\"at\":5,\"status\":\"broken\",\"http\":null}\n",
            "1\tok\t200\thttp://g/\n",
            "{\"uri\":\"http://h/\"\n",
        ));
        assert_eq!(c.len(), 2);
        assert!(c.entries.contains_key("http://a/"));
        assert!(c.entries.contains_key("http://e/ f"));
        assert_eq!(c.discarded(), None);
    }

    #[test]
    fn other_content_is_an_empty_cache_with_a_word_why() {
        for text in [
            "# uriscan remote cache v1: seconds\tstatus\thttp\turi\n1\tok\t200\thttp://a/\n",
            "{\"format\":\"uriscan-remote-cache\",\"version\":4}\n",
            "#!/bin/sh\nrm -rf ~\n",
            "\u{0}\u{1}binary",
        ] {
            let c = Cache::parse(text);
            assert!(c.is_empty(), "{text:?}");
            assert!(c.discarded().unwrap().contains("version 3"), "{text:?}");
        }
        assert_eq!(Cache::parse("").discarded(), None);
        assert_eq!(Cache::parse("\n\n").discarded(), None);
    }

    #[test]
    fn the_file_is_json_lines_under_a_header() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".uriscan-cache");
        let mut c = Cache::default();
        // A URI is data: no line of the file can be read as a command.
        let uri = "http://a/\n$(touch x)\n";
        let entry = CacheEntry {
            at: 7,
            status: RemoteStatus::Ok,
            http: Some(200),
            final_uri: None,
        };
        c.insert(uri.into(), entry.clone());
        let moved = CacheEntry {
            status: RemoteStatus::Redirected,
            final_uri: Some("http://b/".into()),
            ..entry.clone()
        };
        c.insert("http://m/".into(), moved.clone());
        c.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                r#"{"format":"uriscan-remote-cache","version":3}"#,
                r#"{"uri":"http://a/\n$(touch x)\n","at":7,"status":"ok","http":200}"#,
                r#"{"uri":"http://m/","at":7,"status":"redirected","http":200,"final":"http://b/"}"#,
            ]
        );
        let back = Cache::load(&path).unwrap();
        assert_eq!(back.entries[uri], entry);
        assert_eq!(back.entries["http://m/"], moved);
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_version_2_file_is_read_without_final_uris() {
        let c = Cache::parse(concat!(
            "{\"format\":\"uriscan-remote-cache\",\"version\":2}\n",
            "{\"uri\":\"http://a/\",\"at\":1,\"status\":\"redirected\",\"http\":200}\n",
        ));
        assert_eq!(c.discarded(), None);
        let e = &c.entries["http://a/"];
        assert_eq!(
            (e.status, e.final_uri.as_deref()),
            (RemoteStatus::Redirected, None)
        );
    }

    /// A file to protect and a symlink to it at `name`, in a new
    /// directory; a cache of one entry to write.
    #[cfg(unix)]
    fn planted(
        name: &str,
    ) -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf, Cache)
    {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious\n").unwrap();
        let link = dir.path().join(name);
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let mut c = Cache::default();
        c.insert(
            "http://a/".into(),
            CacheEntry {
                at: 1,
                status: RemoteStatus::Ok,
                http: None,
                final_uri: None,
            },
        );
        (dir, victim, link, c)
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_at_the_cache_path_is_neither_read_nor_followed() {
        let (_dir, victim, path, c) = planted(".uriscan-cache");
        let err = Cache::load(&path).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        let err = c.save(&path).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
        assert!(std::fs::symlink_metadata(&path).unwrap().is_symlink());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_at_the_old_temporary_name_is_not_followed() {
        let (dir, victim, planted, c) = planted(".uriscan-cache.tmp");
        let path = dir.path().join(".uriscan-cache");
        c.save(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
        assert!(std::fs::symlink_metadata(&planted).unwrap().is_symlink());
        assert_eq!(Cache::load(&path).unwrap().len(), 1);
    }
}
