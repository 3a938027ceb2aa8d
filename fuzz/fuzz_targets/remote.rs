//! The remote check's readers of untrusted text: `Retry-After` values
//! from servers, and link targets from documents turned into what is
//! requested. No panic; digits are seconds; a requested URI has no
//! userinfo or fragment and is a fixed point.

#![no_main]

use std::time::{Duration, SystemTime};

use libfuzzer_sys::fuzz_target;
use uriscan::checking::remote::request_uri;
use uriscan::internals::remote::parse_retry_after;
use uriscan::syntax::Parser;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    let got = parse_retry_after(s, now);
    let t = s.trim_matches([' ', '\t']);
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        let secs = t.parse().unwrap_or(u64::MAX);
        assert_eq!(got, Some(Duration::from_secs(secs)));
    }
    if let Some(u) = request_uri(s) {
        let r = Parser::new().iri(true).parse_uri(&u).expect("a URI");
        assert!(r.userinfo().is_none() && r.fragment().is_none(), "{u}");
        assert_eq!(request_uri(&u).as_deref(), Some(u.as_str()));
    }
});
