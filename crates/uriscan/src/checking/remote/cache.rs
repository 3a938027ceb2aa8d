//! The cache of remote results (`--cache`): each URI's last result and
//! when it was had, so that a rerun within `--max-cache-age` skips the
//! URIs that were fine. Failures are kept for the record but always
//! checked again.
//!
//! The file is text, one URI a line: `SECONDS\tSTATUS\tHTTP\tURI`, after
//! a header line; the URIs are the requested ones, without credentials
//! or fragment. A line that does not read is dropped, so a damaged file
//! costs requests, never a wrong result.

use std::collections::HashMap;
use std::io;
use std::path::Path;
use std::time::{Duration, SystemTime};

use super::RemoteStatus;

const HEADER: &str = "# uriscan remote cache v1: seconds\tstatus\thttp\turi";

/// One cached result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheEntry {
    /// When it was had, in seconds since the Unix epoch.
    pub at: u64,
    /// The status then.
    pub status: RemoteStatus,
    /// The final HTTP status then, if any.
    pub http: Option<u16>,
}

/// The cache: URIs and their last results.
#[derive(Clone, Debug, Default)]
pub struct Cache {
    entries: HashMap<String, CacheEntry>,
}

impl Cache {
    /// Reads a cache file; a missing file is an empty cache.
    ///
    /// # Errors
    ///
    /// When the file exists and cannot be read.
    pub fn load(path: &Path) -> io::Result<Cache> {
        let text = match std::fs::read(path) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Cache::default());
            }
            Err(e) => return Err(e),
        };
        Ok(Cache::parse(&text))
    }

    fn parse(text: &str) -> Cache {
        let mut entries = HashMap::new();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let mut f = line.splitn(4, '\t');
            let (Some(at), Some(status), Some(http), Some(uri)) =
                (f.next(), f.next(), f.next(), f.next())
            else {
                continue;
            };
            let (Ok(at), Some(status)) =
                (at.parse(), RemoteStatus::from_name(status))
            else {
                continue;
            };
            let http = match http {
                "-" => None,
                h => match h.parse() {
                    Ok(h) => Some(h),
                    Err(_) => continue,
                },
            };
            entries.insert(uri.to_string(), CacheEntry { at, status, http });
        }
        Cache { entries }
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
            .then_some(*e)
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

    /// Writes the cache to `path`, through a temporary file renamed over
    /// it, so that a run cut short leaves the old cache whole. Entries
    /// are sorted so that the file diffs well.
    ///
    /// # Errors
    ///
    /// When the file cannot be written.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let mut rows: Vec<_> = self.entries.iter().collect();
        rows.sort_by(|a, b| a.0.cmp(b.0));
        let mut out = String::with_capacity(rows.len() * 64);
        out.push_str(HEADER);
        out.push('\n');
        for (uri, e) in rows {
            let http = e.http.map_or("-".to_string(), |h| h.to_string());
            out.push_str(&format!(
                "{}\t{}\t{http}\t{uri}\n",
                e.at,
                e.status.as_str()
            ));
        }
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        std::fs::write(&tmp, out)?;
        std::fs::rename(&tmp, path)
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
        let e = |at, status, http| CacheEntry { at, status, http };
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
        let c = Cache::parse(
            "1\tok\t200\thttp://a/\nx\tok\t200\thttp://b/\n2\tfine\t200\thttp://c/\n3\tok\n4\tok\t2x\thttp://d/\n5\tbroken\t-\thttp://e/ f\n",
        );
        assert_eq!(c.len(), 2);
        assert!(c.entries.contains_key("http://a/"));
        assert!(c.entries.contains_key("http://e/ f"));
    }
}
