//! What `links` does to each target before printing it, for crawlers:
//! drop the schemes they do not fetch, and rewrite the rest into the form
//! they key and deduplicate on.
//!
//! The steps run in this order, each on the output of the one before:
//!
//! 1. `--exclude-scheme`: a link whose target (or, without a target, whose
//!    reference) has one of the schemes is not listed at all;
//! 2. `--normalize`: the syntax-based normal form (RFC 3986 6.2.2: case,
//!    percent-encoding, dot segments);
//! 3. `--idna`: a host with non-ASCII characters (after percent-decoding)
//!    to its ASCII form by UTS 46 (`bücher.example` to
//!    `xn--bcher-kva.example`); a host that IDNA refuses stays as it is;
//! 4. `--no-fragment`: the `#` and what follows are dropped;
//! 5. `--surt`: the SURT key (`uriscan::syntax::surt`), with `--idna`
//!    implied (it drops the fragment anyway).

use std::borrow::Cow;

use uriscan::links::LinkRef;
use uriscan::syntax::Parser;

/// The rewriting asked for.
#[derive(Debug, Default)]
pub struct Rewrite {
    /// Lowercased.
    pub exclude: Vec<String>,
    pub normalize: bool,
    pub idna: bool,
    pub no_fragment: bool,
    pub surt: bool,
}

impl Rewrite {
    /// Whether `link` is dropped by `--exclude-scheme`.
    pub fn excludes(&self, link: LinkRef<'_>) -> bool {
        if self.exclude.is_empty() {
            return false;
        }
        let s = link.target().unwrap_or(link.link());
        let Some(colon) = s.find(':') else { return false };
        let scheme = &s[..colon];
        uriscan::syntax::is_scheme(scheme)
            && self.exclude.iter().any(|e| e.eq_ignore_ascii_case(scheme))
    }

    /// The target as printed.
    pub fn target<'a>(&self, target: &'a str) -> Cow<'a, str> {
        let mut t = Cow::Borrowed(target);
        if self.normalize
            && let Ok(r) = Parser::new().iri(true).parse_reference(&t)
        {
            t = Cow::Owned(uriscan::syntax::normalize::normalize(&r));
        }
        if self.idna || self.surt {
            t = idna_host(t);
        }
        if self.no_fragment
            && let Some(i) = t.find('#')
        {
            t = Cow::Owned(t[..i].to_owned());
        }
        if self.surt
            && let Some(k) = uriscan::syntax::surt::surt(&t)
        {
            t = Cow::Owned(k);
        }
        t
    }
}

/// `t` with its host in ASCII form, when it has non-ASCII characters.
fn idna_host(t: Cow<'_, str>) -> Cow<'_, str> {
    let Ok(r) = Parser::new().iri(true).parse_reference(&t) else { return t };
    let Some(span) = r.host_span() else { return t };
    let host = &t[span.range()];
    let decoded = uriscan::links::percent_decode(host);
    if decoded.is_ascii() {
        return t;
    }
    match idna::domain_to_ascii(&decoded) {
        Ok(ascii) => Cow::Owned(format!(
            "{}{ascii}{}",
            &t[..span.start],
            &t[span.end..]
        )),
        Err(_) => t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_steps_combine_in_order() {
        let r = |normalize, idna, no_fragment, surt| Rewrite {
            exclude: vec![],
            normalize,
            idna,
            no_fragment,
            surt,
        };
        let t = "HTTP://Bücher.Example/a/../%7Eb#Top";
        assert_eq!(r(false, false, false, false).target(t), t);
        assert_eq!(
            r(true, false, false, false).target(t),
            "http://bücher.example/~b#Top"
        );
        assert_eq!(
            r(true, true, false, false).target(t),
            "http://xn--bcher-kva.example/~b#Top"
        );
        assert_eq!(
            r(true, true, true, false).target(t),
            "http://xn--bcher-kva.example/~b"
        );
        assert_eq!(
            r(false, false, true, true).target(t),
            "example,xn--bcher-kva)/~b"
        );
        // A host IDNA refuses stays.
        assert_eq!(
            r(false, true, false, false).target("http://a\u{0}b.ü/"),
            "http://a\u{0}b.ü/"
        );
    }
}
