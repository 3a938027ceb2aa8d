use std::io::Write;

use super::*;
use crate::links::{LinkExtractor, Role};

/// A record of `kind` at `uri` with `block`.
fn record(kind: &str, uri: &str, id: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Target-URI: {uri}\r\nContent-Type: application/http; msgtype=response\r\n\
         Content-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn response(uri: &str, id: &str, head: &str, body: &[u8]) -> Vec<u8> {
    let mut http = format!("HTTP/1.1 {head}\r\n\r\n").into_bytes();
    http.extend_from_slice(body);
    record("response", uri, id, &http)
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e =
        flate2::write::GzEncoder::new(vec![], flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Each record its own gzip member; the members' offsets.
fn gz_members(records: &[Vec<u8>]) -> (Vec<u8>, Vec<u64>) {
    let mut out = vec![];
    let mut offsets = vec![];
    for r in records {
        offsets.push(out.len() as u64);
        out.extend(gz(r));
    }
    (out, offsets)
}

/// The record ids read, and the errors' offsets, in order. (Reads cut
/// at every size give the same: `tests/warc_props.rs`.)
fn read_all(bytes: &[u8]) -> Vec<Result<(String, u64), u64>> {
    WarcReader::new(bytes)
        .map(|r| match r {
            Ok(r) => Ok((r.record_id().unwrap_or("").to_owned(), r.offset())),
            Err(e) => Err(e.offset()),
        })
        .collect()
}

#[path = "../../tests/lib/support/trickle.rs"]
mod trickle;

/// As [`read_all`], the file handed out `step` bytes a read.
fn read_in_steps(
    bytes: &[u8],
    step: usize,
) -> Vec<Result<(String, u64), u64>> {
    WarcReader::new(trickle::Trickle::step(bytes, step))
        .map(|r| match r {
            Ok(r) => Ok((r.record_id().unwrap_or("").to_owned(), r.offset())),
            Err(e) => Err(e.offset()),
        })
        .collect()
}

fn ids(n: std::ops::Range<usize>) -> Vec<Vec<u8>> {
    n.map(|i| {
        let head = "200 OK\r\nContent-Type: text/html";
        response(
            &format!("http://e.com/{i}"),
            &i.to_string(),
            head,
            b"<a href=x>",
        )
    })
    .collect()
}

fn ok(id: usize, off: u64) -> Result<(String, u64), u64> {
    Ok((format!("<urn:uuid:{id}>"), off))
}

#[test]
fn plain_records_and_offsets() {
    let recs = ids(0..3);
    let bytes = recs.concat();
    let o1 = recs[0].len() as u64;
    let o2 = o1 + recs[1].len() as u64;
    assert_eq!(read_all(&bytes), [ok(0, 0), ok(1, o1), ok(2, o2)]);
    // Blank lines between records are skipped.
    let mut spaced = recs[0].clone();
    spaced.extend_from_slice(b"\r\n");
    spaced.extend_from_slice(&recs[1]);
    assert_eq!(read_all(&spaced).len(), 2);
}

#[test]
fn gzip_member_offsets() {
    let (bytes, offs) = gz_members(&ids(0..3));
    assert_eq!(
        read_all(&bytes),
        [ok(0, offs[0]), ok(1, offs[1]), ok(2, offs[2])]
    );
}

#[test]
fn gzip_single_stream() {
    // Offsets in the decompressed stream: the first record starts its
    // member, the others start inside it.
    let recs = ids(0..3);
    let bytes = gz(&recs.concat());
    let second = recs[0].len() as u64;
    let third = second + recs[1].len() as u64;
    assert_eq!(read_all(&bytes), [ok(0, 0), ok(1, second), ok(2, third)]);
}

#[test]
fn a_bad_gzip_member_is_reported_and_skipped() {
    let recs = ids(0..3);
    let (mut bytes, offs) = gz_members(&recs);
    // Damage the middle member's deflate data.
    let mid = offs[1] as usize + 20;
    for b in &mut bytes[mid..mid + 8] {
        *b ^= 0x55;
    }
    let got = read_all(&bytes);
    assert_eq!(got.first(), Some(&ok(0, offs[0])));
    assert_eq!(got.last(), Some(&ok(2, offs[2])));
    assert!(got.contains(&Err(offs[1])), "{got:?}");
    // Garbage between members, and at the end.
    let (mut bytes, _) = gz_members(&recs[..1]);
    bytes.extend_from_slice(b"garbage");
    let off = bytes.len() as u64;
    bytes.extend(gz(&recs[1]));
    bytes.extend_from_slice(b"\0\0");
    let got = read_all(&bytes);
    assert_eq!(got.iter().filter(|r| r.is_ok()).count(), 2, "{got:?}");
    assert!(got.contains(&ok(1, off)), "{got:?}");
}

/// The next member after a damaged one is found whatever the size of the
/// reads: a gzip magic handed out a byte at a time was missed (found by
/// the `warc` fuzz target).
#[test]
fn the_member_after_a_damaged_one_is_found_in_reads_of_one_byte() {
    // A first record that does not compress, so that the damaged member
    // lies past the bytes the reader sniffs in one piece.
    let mut recs = ids(0..3);
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    let noise: Vec<u8> = (0..6000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 56) as u8
        })
        .collect();
    recs[0] = response("http://e.com/0", "0", "200 OK", &noise);
    let (mut bytes, offs) = gz_members(&recs);
    assert!(offs[1] > 4096);
    // Damage the middle member's deflate data early, so that its decoder
    // fails before it reaches the next member.
    let at = offs[1] as usize + 12;
    for b in &mut bytes[at..at + 4] {
        *b ^= 0x55;
    }
    let want = read_all(&bytes);
    assert_eq!(want, [ok(0, offs[0]), Err(offs[1]), ok(2, offs[2])]);
    for step in [1, 2, 3, 5, 64] {
        assert_eq!(read_in_steps(&bytes, step), want, "reads of {step}");
    }
}

/// A damaged member met while skipping past a damaged record is
/// reported too, at its offset, whatever the size of the reads: before,
/// whole reads (whose decoder fails before handing out a byte of it)
/// skipped it in silence (found by the `warc` fuzz target).
#[test]
fn a_damaged_member_after_a_damaged_record_is_reported() {
    let recs = ids(0..3);
    // The first record's Content-Length far short (beyond the window in
    // which a length a few bytes off is let pass): its trailer is wrong,
    // and the reader scans for the next record.
    let big = response(
        "http://e.com/0",
        "0",
        "200 OK\r\nContent-Type: text/html",
        &vec![b'x'; 10_000],
    );
    let text = String::from_utf8(big).unwrap();
    let len = text.split("Content-Length: ").nth(1).unwrap();
    let len: usize = len[..len.find('\r').unwrap()].parse().unwrap();
    let short = text.replacen(
        &format!("Content-Length: {len}"),
        &format!("Content-Length: {}", len - 9000),
        1,
    );
    let (mut bytes, offs) =
        gz_members(&[short.into_bytes(), recs[1].clone(), recs[2].clone()]);
    let at = offs[1] as usize + 12;
    for b in &mut bytes[at..at + 4] {
        *b ^= 0x55;
    }
    let want = [Err(offs[0]), Err(offs[1]), ok(2, offs[2])];
    assert_eq!(read_all(&bytes), want);
    for step in [1, 7, 64, 4096] {
        assert_eq!(read_in_steps(&bytes, step), want, "reads of {step}");
    }
}

#[test]
fn a_truncated_header_is_reported() {
    let recs = ids(0..2);
    // Plain: the first record's header cut, the second whole.
    let mut bytes = recs[0][..40].to_vec();
    bytes.extend_from_slice(b"\r\n");
    let off = bytes.len() as u64;
    bytes.extend_from_slice(&recs[1]);
    assert_eq!(read_all(&bytes), [Err(0), ok(1, off)]);
    // Gzip: a member holding only part of a header.
    let mut bytes = gz(&recs[0][..40]);
    let off = bytes.len() as u64;
    bytes.extend(gz(&recs[1]));
    assert_eq!(read_all(&bytes), [Err(0), ok(1, off)]);
    // At the end of the file.
    assert_eq!(read_all(&recs[0][..40]), [Err(0)]);
}

#[test]
fn a_wrong_content_length_is_reported_and_the_next_record_kept() {
    let recs = ids(0..3);
    let too_long = |r: &[u8], by: i64| {
        let s = String::from_utf8_lossy(r).into_owned();
        let i = s.find("Content-Length: ").unwrap() + 16;
        let j = i + s[i..].find('\r').unwrap();
        let n: i64 = s[i..j].parse().unwrap();
        format!("{}{}{}", &s[..i], n + by, &s[j..]).into_bytes()
    };
    // A few bytes off: the record is kept, with a warning.
    for by in [40, -3, 2] {
        // Plain.
        let bad = too_long(&recs[1], by);
        let bytes = [recs[0].clone(), bad.clone(), recs[2].clone()].concat();
        let o1 = recs[0].len() as u64;
        let o2 = o1 + bad.len() as u64;
        assert_eq!(
            read_all(&bytes),
            [ok(0, 0), ok(1, o1), ok(2, o2)],
            "plain, by {by}"
        );
        // One member per record.
        let (bytes, offs) =
            gz_members(&[recs[0].clone(), bad, recs[2].clone()]);
        assert_eq!(
            read_all(&bytes),
            [ok(0, 0), ok(1, offs[1]), ok(2, offs[2])],
            "members, by {by}"
        );
    }
    // Far off: the record is damaged, the next one kept.
    let bad = too_long(&recs[1], 5000);
    let bytes = [recs[0].clone(), bad.clone(), recs[2].clone()].concat();
    let o1 = recs[0].len() as u64;
    let o2 = o1 + bad.len() as u64;
    assert_eq!(read_all(&bytes), [ok(0, 0), Err(o1), ok(2, o2)]);
    // A length past the end of the file.
    let bad = too_long(&recs[0], 10_000);
    assert_eq!(read_all(&bad), [Err(0)]);
}

#[test]
fn garbage_before_a_record_is_skipped() {
    let recs = ids(0..2);
    let bytes =
        [b"junk\nmore junk\n".to_vec(), recs[0].clone(), recs[1].clone()]
            .concat();
    let got = read_all(&bytes);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[0], Err(0));
    assert_eq!(got[1], ok(0, 15));
}

#[test]
fn records_spanning_members_are_read_whole() {
    // A stream cut into gzip members at arbitrary places (as bgzip does).
    let data = ids(0..3).concat();
    let mut bytes = vec![];
    for piece in data.chunks(50) {
        bytes.extend(gz(piece));
    }
    let got = read_all(&bytes);
    assert_eq!(got.iter().filter(|r| r.is_ok()).count(), 3, "{got:?}");
}

#[test]
fn blocks_are_capped() {
    let body = vec![b'x'; 1000];
    let rec = response("http://e.com/", "1", "200 OK", &body);
    let next = ids(5..6).concat();
    let bytes = [rec, next].concat();
    let mut reader = WarcReader::new(&bytes[..]);
    reader.max_block(100);
    let r = reader.next().unwrap().unwrap();
    assert!(r.truncated());
    assert_eq!(r.block().len(), 100);
    assert!(r.content_length() > 1000);
    assert_eq!(
        reader.next().unwrap().unwrap().record_id(),
        Some("<urn:uuid:5>")
    );
    assert!(reader.next().is_none());
}

#[test]
fn header_fields() {
    let bytes = b"WARC/1.0\r\nWARC-Type: conversion\r\nWARC-Target-URI: <http://a/>\r\n\
        X-Long: one\r\n  two\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n";
    let r = WarcReader::new(&bytes[..]).next().unwrap().unwrap();
    assert_eq!(r.version(), "1.0");
    assert_eq!(r.record_type(), RecordType::Conversion);
    assert_eq!(r.target_uri(), Some("http://a/"));
    assert_eq!(r.header("x-long"), Some("one two"));
    assert_eq!(r.block(), b"hi");
    assert!(r.http().is_none());
}

fn links_of(rec: &[u8]) -> Vec<crate::links::Link> {
    let r = WarcReader::new(rec).next().unwrap().unwrap();
    record_links(&r, &LinkExtractor::new())
}

fn targets(links: &[crate::links::Link]) -> Vec<(String, &str)> {
    links
        .iter()
        .map(|l| (l.kind().to_string(), l.target().unwrap_or("-")))
        .collect()
}

#[test]
fn redirects_and_header_links() {
    let rec = response(
        "http://e.com/a/b",
        "1",
        "302 Found\r\nLocation: ../c\r\nContent-Location: /b.en\r\n\
         Link: </style.css>; rel=preload, <https://x.org/>; rel=\"canonical\"",
        b"",
    );
    let links = links_of(&rec);
    assert_eq!(
        targets(&links),
        [
            ("http:location".into(), "http://e.com/c"),
            ("http:content-location".into(), "http://e.com/b.en"),
            ("http:link".into(), "http://e.com/style.css"),
            ("http:link".into(), "https://x.org/"),
        ]
    );
    assert_eq!(links[0].role(), Role::Navigate);
    assert_eq!(
        (links[2].rel(), links[2].role()),
        (Some("preload"), Role::Embed)
    );
    assert_eq!(links[3].rel(), Some("canonical"));
    // The span points into the HTTP header block.
    assert_eq!((links[0].line(), links[0].column()), (2, 11));
    // Location of a 200 is not a redirect.
    let rec = response("http://e.com/", "1", "200 OK\r\nLocation: /x", b"");
    assert!(links_of(&rec).is_empty());
}

#[test]
fn html_payload_base_and_charset() {
    // The base from the target URI, then from <base href>.
    let rec = response(
        "http://e.com/d/p",
        "1",
        "200 OK\r\nContent-Type: text/html",
        b"<a href=q>",
    );
    assert_eq!(
        targets(&links_of(&rec)),
        [("html:a@href".into(), "http://e.com/d/q")]
    );
    let rec = response(
        "http://e.com/d/p",
        "1",
        "200 OK\r\nContent-Type: text/html",
        b"<base href=/z/><a href=q>",
    );
    assert_eq!(targets(&links_of(&rec))[1].1, "http://e.com/z/q");
    // Charset: the header wins over <meta charset>; the meta serves without it.
    let body = b"<meta charset=utf-8><a href=\"/\xe9\">";
    let rec = response(
        "http://e.com/",
        "1",
        "200 OK\r\nContent-Type: text/html; charset=windows-1252",
        body,
    );
    assert_eq!(links_of(&rec)[0].target(), Some("http://e.com/é"));
    let body = b"<meta charset=windows-1252><a href=\"/\xe9\">";
    let rec = response(
        "http://e.com/",
        "1",
        "200 OK\r\nContent-Type: text/html",
        body,
    );
    assert_eq!(links_of(&rec)[0].target(), Some("http://e.com/é"));
    let body = b"<a href=\"/\xe9\">";
    let rec = response(
        "http://e.com/",
        "1",
        "200 OK\r\nContent-Type: text/html",
        body,
    );
    // Declared nowhere and not UTF-8: read in the encoding chardetng
    // guesses, as Firefox reads it, not with U+FFFD.
    assert_eq!(links_of(&rec)[0].target(), Some("http://e.com/é"));
    // Not HTML: no body links.
    let rec = response(
        "http://e.com/",
        "1",
        "200 OK\r\nContent-Type: image/png",
        b"<a href=x>",
    );
    assert!(links_of(&rec).is_empty());
}

#[test]
fn chunked_and_gzip_bodies() {
    let rec = response(
        "http://e.com/",
        "1",
        "200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked",
        b"4\r\n<a h\r\n7\r\nref=/x>\r\n0\r\n\r\n",
    );
    assert_eq!(
        targets(&links_of(&rec)),
        [("html:a@href".into(), "http://e.com/x")]
    );
    let rec = response(
        "http://e.com/",
        "1",
        "200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip",
        &gz(b"<img src=/i.png>"),
    );
    let links = links_of(&rec);
    assert_eq!(
        targets(&links),
        [("html:img@src".into(), "http://e.com/i.png")]
    );
    assert_eq!(links[0].role(), Role::Embed);
}

#[test]
fn wet_conversion_text() {
    let bytes = record(
        "conversion",
        "http://e.com/",
        "9",
        b"See https://rfc-editor.org/ now.",
    );
    assert_eq!(
        targets(&links_of(&bytes)),
        [("text".into(), "https://rfc-editor.org/")]
    );
}

#[test]
fn links_iterator_goes_on_after_errors() {
    let recs = ids(0..2);
    let bad = b"WARC/1.1\r\nContent-Length: x\r\n\r\n".to_vec();
    let bytes = [bad.clone(), recs[0].clone(), recs[1].clone()].concat();
    let extractor = LinkExtractor::new();
    let got: Vec<_> =
        WarcLinks::new(WarcReader::new(&bytes[..]), &extractor).collect();
    assert!(got[0].is_err());
    let ok: Vec<_> = got.iter().filter_map(|r| r.as_ref().ok()).collect();
    assert_eq!(ok.len(), 2);
    assert_eq!(ok[1].page(), "http://e.com/1");
    assert_eq!(ok[1].record_id(), "<urn:uuid:1>");
    assert_eq!(ok[1].record_offset(), (bad.len() + recs[0].len()) as u64);
    assert_eq!(ok[1].link().target(), Some("http://e.com/x"));
}
