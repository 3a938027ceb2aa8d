//! The scanner on arbitrary bytes: it never panics, and every URI it
//! reports is a valid URI (an IRI, as the default finder keeps non-ASCII
//! characters).

#![no_main]

use libfuzzer_sys::fuzz_target;
use uriscan::scanning::Finder;
use uriscan::syntax::Parser;

fuzz_target!(|data: &[u8]| {
    let parser = Parser::new().iri(true);
    for m in Finder::new().find_iter(data) {
        if let Err(e) = parser.parse_uri(m.as_str()) {
            panic!("finder reported {:?}, which is invalid: {e}", m.as_str());
        }
    }
});
