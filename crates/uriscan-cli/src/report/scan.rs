//! The scan's output: which URIs of a file are printed (normalized,
//! masked, once under `-u`, only those with warnings under
//! `--warnings-only`) and in which form.

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::Mutex;

use uriscan::scanning::Match;
use uriscan::syntax::Parser;
use uriscan::syntax::security;

use super::json::{self, Texts};
use super::{Label, mask_password, text};
use crate::config::{Mode, ScanConfig};

/// Formats matches by the configuration. One per worker thread.
#[derive(Debug)]
pub struct Printer<'c> {
    cfg: &'c ScanConfig,
    parser: Parser,
    /// Each URI is printed alone on its line as found: `-o` without
    /// normalizing or warnings.
    plain_uri: bool,
}

impl<'c> Printer<'c> {
    pub fn new(cfg: &'c ScanConfig) -> Printer<'c> {
        let plain_uri = cfg.mode == Mode::OnlyUri
            && !cfg.normalize
            && !cfg.needs_warnings();
        Printer { cfg, parser: Parser::new().iri(true), plain_uri }
    }

    /// Appends the output for the `matches` of a file read whole (its
    /// bytes are `haystack`) to `out`; returns the number of URIs printed
    /// (or counted).
    pub fn file<'h>(
        &self,
        out: &mut Vec<u8>,
        label: &Label<'_>,
        matches: impl Iterator<Item = Match<'h>>,
        haystack: &[u8],
        seen: Option<&Mutex<HashSet<String>>>,
    ) -> u64 {
        let mut count = 0;
        for m in matches {
            let texts = Texts::Haystack(haystack);
            count += u64::from(self.one(out, label, &m, texts, seen));
        }
        self.file_end(out, label, count);
        count
    }

    /// Appends the output for one match to `out`; false when it is not
    /// printed (a duplicate, or without warnings under
    /// `--warnings-only`). A stream calls this for each match while its
    /// buffer holds it, then [`file_end`](Printer::file_end).
    pub fn one(
        &self,
        out: &mut Vec<u8>,
        label: &Label<'_>,
        m: &Match<'_>,
        texts: Texts<'_>,
        seen: Option<&Mutex<HashSet<String>>>,
    ) -> bool {
        // The plain `-o` line apart: a URI printed alone is little more
        // work than the registers the general path saves and restores.
        if self.plain_uri && seen.is_none() {
            let cfg = self.cfg;
            let shown = self.shown(m.as_str());
            text::uri_line(out, cfg.color, cfg.null, &shown);
            return true;
        }
        self.one_in_general(out, label, m, texts, seen)
    }

    /// [`one`](Printer::one) for every configuration.
    #[inline(never)]
    fn one_in_general(
        &self,
        out: &mut Vec<u8>,
        label: &Label<'_>,
        m: &Match<'_>,
        texts: Texts<'_>,
        seen: Option<&Mutex<HashSet<String>>>,
    ) -> bool {
        let cfg = self.cfg;
        let uri: Cow<'_, str> = if cfg.normalize {
            Cow::Owned(self.normalize(m.as_str()))
        } else {
            Cow::Borrowed(m.as_str())
        };
        let warnings = if cfg.needs_warnings() {
            match self.parser.parse_uri(&uri) {
                Ok(r) => security::warnings(&r),
                Err(_) => vec![],
            }
        } else {
            vec![]
        };
        if cfg.warnings_only && warnings.is_empty() {
            return false;
        }
        if let Some(seen) = seen {
            let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
            if seen.contains(uri.as_ref()) {
                return false;
            }
            seen.insert(uri.to_string());
        }
        let shown = self.shown(&uri);
        match cfg.mode {
            Mode::Count => {}
            Mode::OnlyUri => text::uri_line(out, cfg.color, cfg.null, &shown),
            Mode::Standard => {
                let at = (m.line(), m.column());
                text::match_line(
                    out,
                    cfg.color,
                    cfg.null,
                    label.raw(),
                    at,
                    &shown,
                );
            }
            Mode::Json => {
                let mask = cfg.mask_passwords;
                json::match_row(out, label, m, texts, &shown, &warnings, mask);
            }
        }
        true
    }

    /// Appends what follows a file's matches to `out`: its count, under
    /// `--count`, when it has any.
    pub fn file_end(&self, out: &mut Vec<u8>, label: &Label<'_>, count: u64) {
        let cfg = self.cfg;
        if cfg.mode == Mode::Count && count > 0 {
            text::count_line(out, cfg.color, cfg.null, label.raw(), count);
        }
    }

    /// The URI as shown: its password masked unless asked otherwise.
    #[inline(always)]
    fn shown<'u>(&self, uri: &'u str) -> Cow<'u, str> {
        if self.cfg.mask_passwords {
            mask_password(uri)
        } else {
            Cow::Borrowed(uri)
        }
    }

    fn normalize(&self, uri: &str) -> String {
        match self.parser.parse_uri(uri) {
            Ok(r) => uriscan::syntax::normalize::normalize(&r),
            // The finder emits only valid URIs; should one not reparse,
            // it is printed as found rather than lost.
            Err(_) => uri.to_string(),
        }
    }
}
