//! Records that the standards refuse but archives hold, read as warcio and
//! jwarc read them: kept, their links given, with a warning on the record.

use std::io::Write;

use uriscan::links::LinkExtractor;
use uriscan::warc::{RecordWarning, WarcReader, record_links};

use crate::support::trickle::Trickle;

/// A response record of `http` at `http://e.com/{id}`, with its header
/// lines ended by `eol` and `Content-Length` moved by `off`, followed by
/// `trailer`.
fn record(
    id: usize,
    http: &[u8],
    eol: &str,
    off: i64,
    trailer: &[u8],
) -> Vec<u8> {
    let length = http.len() as i64 + off;
    let head = [
        "WARC/1.0".to_owned(),
        "WARC-Type: response".to_owned(),
        format!("WARC-Record-ID: <urn:uuid:{id}>"),
        format!("WARC-Target-URI: http://e.com/{id}"),
        "Content-Type: application/http; msgtype=response".to_owned(),
        format!("Content-Length: {length}"),
        String::new(),
        String::new(),
    ]
    .join(eol);
    [head.as_bytes(), http, trailer].concat()
}

/// An HTTP response with `headers` (lines ended by `eol`) and `body`.
fn http(headers: &[&str], eol: &str, body: &[u8]) -> Vec<u8> {
    let mut lines = vec!["HTTP/1.1 200 OK"];
    lines.extend_from_slice(headers);
    lines.extend(["", ""]);
    [lines.join(eol).as_bytes(), body].concat()
}

const PAGE: &[u8] = b"<html><a href=/one>1</a> <a href=/two>2</a></html>";

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e =
        flate2::write::GzEncoder::new(vec![], flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Each record read: its id, its links' targets and its warnings' names;
/// each error: its offset.
type Read = Vec<Result<(String, Vec<String>, Vec<&'static str>), u64>>;

fn read(file: &[u8]) -> Read {
    let extractor = LinkExtractor::new();
    WarcReader::new(file)
        .map(|r| match r {
            Ok(r) => Ok((
                r.record_id().unwrap_or("").to_owned(),
                record_links(&r, &extractor)
                    .iter()
                    .filter_map(|l| l.target().map(str::to_owned))
                    .collect(),
                r.warnings().iter().map(RecordWarning::as_str).collect(),
            )),
            Err(e) => Err(e.offset()),
        })
        .collect()
}

/// The links of [`PAGE`] in any record.
fn page_links() -> Vec<String> {
    vec!["http://e.com/one".to_owned(), "http://e.com/two".to_owned()]
}

fn ok(
    id: usize,
    warnings: &[&'static str],
) -> Result<(String, Vec<String>, Vec<&'static str>), u64> {
    Ok((format!("<urn:uuid:{id}>"), page_links(), warnings.to_vec()))
}

fn html() -> Vec<u8> {
    http(&["Content-Type: text/html"], "\r\n", PAGE)
}

/// `first`, then a clean record 2.
fn then_clean(first: Vec<u8>) -> Vec<u8> {
    [first, record(2, &html(), "\r\n", 0, b"\r\n\r\n")].concat()
}

#[test]
fn clean_records_have_no_warnings() {
    let file = [
        record(1, &html(), "\r\n", 0, b"\r\n\r\n"),
        record(2, &html(), "\r\n", 0, b"\r\n\r\n"),
    ]
    .concat();
    assert_eq!(read(&file), [ok(1, &[]), ok(2, &[])]);
}

#[test]
fn warc_lines_in_lf_or_cr_cr_lf() {
    for eol in ["\n", "\r\r\n"] {
        let file = then_clean(record(1, &html(), eol, 0, b"\r\n\r\n"));
        assert_eq!(
            read(&file),
            [ok(1, &["warc-line-ends"]), ok(2, &[])],
            "{eol:?}"
        );
        let members = [
            gz(&record(1, &html(), eol, 0, b"\r\n\r\n")),
            gz(&record(2, &html(), "\r\n", 0, b"\r\n\r\n")),
        ]
        .concat();
        assert_eq!(
            read(&members),
            [ok(1, &["warc-line-ends"]), ok(2, &[])],
            "{eol:?}"
        );
    }
}

#[test]
fn http_lines_in_lf_or_cr_cr_lf() {
    for eol in ["\n", "\r\r\n"] {
        let odd = http(&["Content-Type: text/html"], eol, PAGE);
        let file = then_clean(record(1, &odd, "\r\n", 0, b"\r\n\r\n"));
        assert_eq!(
            read(&file),
            [ok(1, &["http-line-ends"]), ok(2, &[])],
            "{eol:?}"
        );
    }
}

#[test]
fn stale_chunked_is_read_as_it_is() {
    let stale = http(
        &["Content-Type: text/html", "Transfer-Encoding: chunked"],
        "\r\n",
        PAGE,
    );
    let file = record(1, &stale, "\r\n", 0, b"\r\n\r\n");
    assert_eq!(read(&file), [ok(1, &["stale-chunked"])]);
    // A body that is chunked is de-chunked, without a warning.
    let mut chunked = format!("{:x}\r\n", PAGE.len()).into_bytes();
    chunked.extend_from_slice(PAGE);
    chunked.extend_from_slice(b"\r\n0\r\n\r\n");
    let fresh = http(
        &["Content-Type: text/html", "Transfer-Encoding: chunked"],
        "\r\n",
        &chunked,
    );
    assert_eq!(read(&record(1, &fresh, "\r\n", 0, b"\r\n\r\n")), [ok(1, &[])]);
    // A body that starts as chunks but breaks off is not chunked.
    let broken = [&chunked[..chunked.len() - 5], b"zz\r\n"].concat();
    let broken = http(
        &["Content-Type: text/html", "Transfer-Encoding: chunked"],
        "\r\n",
        &broken,
    );
    let got = read(&record(1, &broken, "\r\n", 0, b"\r\n\r\n"));
    assert!(
        matches!(&got[..], [Ok((_, _, w))] if w == &["stale-chunked"]),
        "{got:?}"
    );
}

#[test]
fn stale_content_coding_is_read_as_it_is() {
    for coding in ["gzip", "x-gzip", "deflate", "br"] {
        let header = format!("Content-Encoding: {coding}");
        let stale = http(&["Content-Type: text/html", &header], "\r\n", PAGE);
        assert_eq!(
            read(&record(1, &stale, "\r\n", 0, b"\r\n\r\n")),
            [ok(1, &["stale-content-encoding"])],
            "{coding}"
        );
    }
    // Stale chunked and stale gzip together.
    let both = http(
        &[
            "Content-Type: text/html",
            "Transfer-Encoding: chunked",
            "Content-Encoding: gzip",
        ],
        "\r\n",
        PAGE,
    );
    assert_eq!(
        read(&record(1, &both, "\r\n", 0, b"\r\n\r\n")),
        [ok(1, &["stale-chunked", "stale-content-encoding"])]
    );
    // A body in its coding is decoded, without a warning.
    let fresh = http(
        &["Content-Type: text/html", "Content-Encoding: gzip"],
        "\r\n",
        &gz(PAGE),
    );
    assert_eq!(read(&record(1, &fresh, "\r\n", 0, b"\r\n\r\n")), [ok(1, &[])]);
}

/// Each record its own gzip member.
fn members(records: &[Vec<u8>]) -> Vec<u8> {
    records.iter().flat_map(|r| gz(r)).collect()
}

#[test]
fn lengths_a_few_bytes_off_are_read() {
    for off in -4i64..=4 {
        let odd = record(1, &html(), "\r\n", off, b"\r\n\r\n");
        // A length 1 or 2 too large takes in part of the trailer, which
        // is then short.
        let want: &[&[&str]] = match off {
            0 => &[&[]],
            1 | 2 => &[&["length-off"], &["short-trailer"]],
            // The block takes in the whole trailer: in a gzip member of
            // its own, as if the writer had left the trailer out.
            4 => &[&["length-off"], &[]],
            _ => &[&["length-off"]],
        };
        let records = [odd, record(2, &html(), "\r\n", 0, b"\r\n\r\n")];
        for file in [records.concat(), members(&records)] {
            let got = read(&file);
            assert!(
                want.iter().any(|w| got == [ok(1, w), ok(2, &[])]),
                "off by {off}: {got:?}"
            );
            for step in [1, 3, 64] {
                let stepped: Vec<_> =
                    WarcReader::new(Trickle::step(&file, step))
                        .map(|r| {
                            r.map(|r| r.block().to_vec())
                                .map_err(|e| e.offset())
                        })
                        .collect();
                let whole: Vec<_> = WarcReader::new(&file[..])
                    .map(|r| {
                        r.map(|r| r.block().to_vec()).map_err(|e| e.offset())
                    })
                    .collect();
                assert_eq!(stepped, whole, "off by {off}, reads of {step}");
            }
        }
        // The last record of the file.
        let last = record(1, &html(), "\r\n", off, b"\r\n\r\n");
        for file in [last.clone(), members(&[last])] {
            let got = read(&file);
            assert!(
                want.iter().any(|w| got == [ok(1, w)]),
                "last, off by {off}: {got:?}"
            );
        }
    }
}

#[test]
fn a_short_trailer_is_read() {
    for trailer in [&b"\r\n"[..], b"\r\n\r"] {
        let records = [
            record(1, &html(), "\r\n", 0, trailer),
            record(2, &html(), "\r\n", 0, b"\r\n\r\n"),
        ];
        for file in [records.concat(), members(&records)] {
            assert_eq!(
                read(&file),
                [ok(1, &["short-trailer"]), ok(2, &[])],
                "{trailer:?}"
            );
        }
    }
}

#[test]
fn records_in_lf_alone() {
    let records = [
        record(
            1,
            &http(&["Content-Type: text/html"], "\n", PAGE),
            "\n",
            0,
            b"\n\n",
        ),
        record(2, &html(), "\r\n", 0, b"\r\n\r\n"),
    ];
    for file in [records.concat(), members(&records)] {
        let got = read(&file);
        assert_eq!(got.len(), 2, "{got:?}");
        let Ok((_, links, warnings)) = &got[0] else { panic!("{got:?}") };
        assert_eq!(links, &page_links());
        assert!(warnings.contains(&"warc-line-ends"), "{warnings:?}");
        assert!(warnings.contains(&"http-line-ends"), "{warnings:?}");
        assert_eq!(got[1], ok(2, &[]));
    }
}

/// A file compressed as one gzip stream: each record after the first
/// starts inside the member, and its offset is its offset in the
/// decompressed stream; a record per member keeps the member's offset.
#[test]
fn whole_file_gzip_offsets_count_the_decompressed_stream() {
    use uriscan::warc::OffsetKind;
    let page = http(&["Content-Type: text/html"], "\r\n", PAGE);
    let recs: Vec<_> =
        (0..3).map(|i| record(i, &page, "\r\n", 0, b"\r\n\r\n")).collect();
    let starts: Vec<u64> = recs
        .iter()
        .scan(0, |at, r| {
            let start = *at;
            *at += r.len() as u64;
            Some(start)
        })
        .collect();
    let whole = gz(&recs.concat());
    let got: Vec<_> = WarcReader::new(&whole[..])
        .map(|r| r.map(|r| (r.offset(), r.offset_kind())).unwrap())
        .collect();
    assert_eq!(
        got,
        [
            (0, OffsetKind::GzipMember),
            (starts[1], OffsetKind::Decompressed),
            (starts[2], OffsetKind::Decompressed),
        ]
    );
    let members: Vec<u8> = recs.iter().flat_map(|r| gz(r)).collect();
    let kinds: Vec<_> = WarcReader::new(&members[..])
        .map(|r| r.unwrap().offset_kind())
        .collect();
    assert_eq!(kinds, [OffsetKind::GzipMember; 3]);
    let plain = recs.concat();
    let got: Vec<_> = WarcReader::new(&plain[..])
        .map(|r| r.map(|r| (r.offset(), r.offset_kind())).unwrap())
        .collect();
    assert_eq!(got[2], (starts[2], OffsetKind::File));
}

/// Garbage with a `WARC/1.` line on every line gives a few errors, then
/// one summary; a good record between runs ends a run.
#[test]
fn a_run_of_errors_is_summarised() {
    use uriscan::warc::ReadTally;
    let page = http(&["Content-Type: text/html"], "\r\n", PAGE);
    let good = record(1, &page, "\r\n", 0, b"\r\n\r\n");
    let garbage = b"WARC/1.0\r\nx: y\r\n".repeat(50);
    let file = [&garbage[..], &good, &garbage, &good].concat();
    let mut tally = ReadTally::new();
    let mut lines = vec![];
    for item in WarcReader::new(&file[..]) {
        match item {
            Ok(r) => tally.record(&r, |m| lines.push(m.to_string())),
            Err(e) => tally.error(&e, |m| lines.push(m.to_string())),
        }
    }
    tally.finish(|m| lines.push(m.to_string()));
    assert_eq!(tally.records(), 2);
    assert_eq!(tally.with_warnings(), 0);
    assert_eq!(tally.damaged(), 100);
    assert_eq!(lines.len(), 8, "{lines:#?}");
    assert!(lines[0].starts_with("record at offset 0: bad header"));
    let second_run = (garbage.len() * 2 + good.len() - 16) as u64;
    assert_eq!(
        lines[7],
        format!("…and 47 more like it up to offset {second_run}")
    );
}

/// `data` in brotli, as a server sends `Content-Encoding: br`.
fn br(data: &[u8]) -> Vec<u8> {
    let mut e = brotli::CompressorWriter::new(vec![], 4096, 5, 22);
    e.write_all(data).unwrap();
    e.into_inner()
}

/// A response record at `http://e.com/{id}` of an HTML `body` in `coding`.
fn coded(id: usize, coding: &str, body: &[u8]) -> Vec<u8> {
    let header = format!("Content-Encoding: {coding}");
    let http = http(&["Content-Type: text/html", &header], "\r\n", body);
    record(id, &http, "\r\n", 0, b"\r\n\r\n")
}

/// A page of `n` links, `/0` to `/{n-1}`, and their targets.
fn many_links(n: usize) -> (Vec<u8>, Vec<String>) {
    let page: String =
        (0..n).map(|i| format!("<a href=/{i}>{i}</a>\n")).collect();
    let targets = (0..n).map(|i| format!("http://e.com/{i}")).collect();
    (page.into_bytes(), targets)
}

#[test]
fn brotli_bodies_are_decoded() {
    let records = [coded(1, "br", &br(PAGE)), coded(2, "BR", &br(PAGE))];
    for file in [records.concat(), members(&records)] {
        assert_eq!(read(&file), [ok(1, &[]), ok(2, &[])]);
    }
    // Under chunked transfer coding too, in chunks of any size.
    let data = br(PAGE);
    let chunked = [
        format!("{:x}\r\n", 7).as_bytes(),
        &data[..7],
        format!("\r\n{:x}\r\n", data.len() - 7).as_bytes(),
        &data[7..],
        b"\r\n0\r\n\r\n",
    ]
    .concat();
    let http = http(
        &[
            "Content-Type: text/html",
            "Transfer-Encoding: chunked",
            "Content-Encoding: br",
        ],
        "\r\n",
        &chunked,
    );
    assert_eq!(read(&record(1, &http, "\r\n", 0, b"\r\n\r\n")), [ok(1, &[])]);
}

/// Brotli data cut short or corrupt: the links decoded before the damage
/// are kept, the record says it is damaged, the next record is read.
#[test]
fn damaged_brotli_keeps_what_decoded_and_says_so() {
    let (page, targets) = many_links(2000);
    let data = br(&page);
    let cut = &data[..data.len() / 2];
    let mut corrupt = data.clone();
    let at = data.len() / 2;
    for b in &mut corrupt[at..at + 16] {
        *b ^= 0xa5;
    }
    for damaged in [cut, &corrupt[..]] {
        let file = [coded(1, "br", damaged), coded(2, "br", &br(PAGE))];
        let got = read(&members(&file));
        let [Ok((id, links, warnings)), second] = &got[..] else {
            panic!("{got:?}")
        };
        assert_eq!(
            (id.as_str(), &warnings[..]),
            ("<urn:uuid:1>", &["damaged-content-encoding"][..])
        );
        // The links before the damage (brotli has no checksum: corrupt
        // data may decode to some garbage before it breaks).
        assert!(links.len() > 500 && links.len() < 2000, "{}", links.len());
        assert!(links[..500] == targets[..500]);
        assert_eq!(*second, ok(2, &[]));
    }
    // The warning says how much decoded.
    let rec = WarcReader::new(&coded(1, "br", cut)[..]).next().unwrap();
    let rec = rec.unwrap();
    let decoded = rec.payload().unwrap().len() as u64;
    assert!(page.starts_with(rec.payload().unwrap()));
    assert_eq!(
        rec.warnings(),
        [RecordWarning::DamagedContentEncoding { decoded }]
    );
}

/// A brotli bomb stops at the 64 MiB the payload is decoded to: its
/// links before there are kept, with a warning, and so is the next
/// record.
#[test]
fn a_brotli_bomb_stops_at_the_limit() {
    let mut e = brotli::CompressorWriter::new(vec![], 1 << 16, 1, 24);
    e.write_all(b"<a href=/first>f</a>").unwrap();
    let spaces = vec![b' '; 1 << 20];
    for _ in 0..80 {
        e.write_all(&spaces).unwrap();
    }
    e.write_all(b"<a href=/past>p</a>").unwrap();
    let bomb = e.into_inner();
    assert!(bomb.len() < 1 << 20, "{}", bomb.len());
    let file = [coded(1, "br", &bomb), coded(2, "br", &br(PAGE))];
    assert_eq!(
        read(&members(&file)),
        [
            Ok((
                "<urn:uuid:1>".to_owned(),
                vec!["http://e.com/first".to_owned()],
                vec!["payload-too-large"],
            )),
            ok(2, &[]),
        ]
    );
}
