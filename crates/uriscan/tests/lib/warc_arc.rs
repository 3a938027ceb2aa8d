//! ARC files (the Internet Archive's format before WARC), plain and gzip,
//! read by the WARC reader: their links come out as a WARC's do.

use std::io::Write;

use uriscan::links::LinkExtractor;
use uriscan::warc::{RecordType, WarcLinks, WarcReader};

/// An ARC v1 file: its `filedesc://` record, then a response per page,
/// each record a gzip member when `gzip`; and each record's offset.
fn arc(pages: &[(&str, &[u8])], gzip: bool) -> (Vec<u8>, Vec<u64>) {
    let desc =
        b"1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n";
    let mut records = vec![
        [
            format!(
                "filedesc://x.arc 0.0.0.0 20140216050221 text/plain {}\n",
                desc.len()
            )
            .as_bytes(),
            desc,
            b"\n",
        ]
        .concat(),
    ];
    for (url, body) in pages {
        let http =
            [&b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"[..], body]
                .concat();
        let line = format!(
            "{url} 93.184.216.119 20140216050221 text/html {}\n",
            http.len()
        );
        records.push([line.as_bytes(), &http, b"\n"].concat());
    }
    let mut out = vec![];
    let mut offsets = vec![];
    for r in records {
        offsets.push(out.len() as u64);
        if gzip {
            let mut e = flate2::write::GzEncoder::new(
                vec![],
                flate2::Compression::fast(),
            );
            e.write_all(&r).unwrap();
            out.extend(e.finish().unwrap());
        } else {
            out.extend(r);
        }
    }
    (out, offsets)
}

#[test]
fn arc_files_give_their_links_plain_and_gzip() {
    let pages: [(&str, &[u8]); 2] = [
        ("http://example.com/", b"<a href=/about>a</a>"),
        ("http://example.com/with space", b"<img src=i.png>"),
    ];
    for gzip in [false, true] {
        let (file, offsets) = arc(&pages, gzip);
        let records: Vec<_> =
            WarcReader::new(&file[..]).collect::<Result<_, _>>().unwrap();
        let types: Vec<_> = records.iter().map(|r| r.record_type()).collect();
        assert_eq!(
            types,
            [RecordType::Warcinfo, RecordType::Response, RecordType::Response]
        );
        let extractor = LinkExtractor::new();
        let links: Vec<_> =
            WarcLinks::new(WarcReader::new(&file[..]), &extractor)
                .collect::<Result<_, _>>()
                .unwrap();
        let got: Vec<_> = links
            .iter()
            .map(|l| {
                (
                    l.page(),
                    l.record_id(),
                    l.record_offset(),
                    l.link().target().unwrap_or(""),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    "http://example.com/",
                    "<urn:arc:20140216050221/http://example.com/>",
                    offsets[1],
                    "http://example.com/about"
                ),
                // A page URL with a space is no URI: the link is kept,
                // unresolved, as in a WARC file.
                (
                    "http://example.com/with space",
                    "<urn:arc:20140216050221/http://example.com/with space>",
                    offsets[2],
                    ""
                ),
            ],
            "gzip: {gzip}"
        );
    }
}

#[test]
fn the_suites_arc_files_are_read() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/conformance/warc"
    );
    if !std::path::Path::new(dir).is_dir() {
        println!("skipped: {dir} is missing");
        return;
    }
    let extractor = LinkExtractor::new();
    let read = |name: &str| {
        let bytes = std::fs::read(format!("{dir}/{name}")).unwrap();
        let mut targets = vec![];
        let mut errors = vec![];
        for item in WarcLinks::new(WarcReader::new(&bytes[..]), &extractor) {
            match item {
                Ok(l) => targets.push(l.link().link().to_owned()),
                Err(e) => errors.push(e.offset()),
            }
        }
        (targets, errors)
    };
    let iana = "http://www.iana.org/domains/example";
    for name in [
        "warcio/example.arc",
        "warcio/example.arc.gz",
        "warcio/example-space-in-url.arc",
    ] {
        let (targets, errors) = read(name);
        assert!(errors.is_empty(), "{name}: {errors:?}");
        assert_eq!(targets, [iana], "{name}");
    }
    let (targets, _) = read(
        "webarchive-commons/IAH-20080430204825-00000-blackbook-truncated.arc",
    );
    assert!(targets.len() > 100, "{}", targets.len());
    // Malformed on purpose: its damage is reported, nothing panics.
    let (_, errors) = read("warcio/bad.arc");
    assert!(!errors.is_empty());
}
