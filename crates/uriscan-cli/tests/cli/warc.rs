//! `uriscan links` and the main command on web archives (WARC and WET),
//! and the crawler options of `links`, as a process on temporary files.

use std::io::Write;
use std::path::Path;

use assert_cmd::Command;

fn record(kind: &str, uri: &str, id: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn response(uri: &str, id: &str, head: &str, body: &str) -> Vec<u8> {
    let http = format!("HTTP/1.1 {head}\r\n\r\n{body}");
    record("response", uri, id, http.as_bytes())
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e =
        flate2::write::GzEncoder::new(vec![], flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// The records of a small crawl: a page, a redirect, a WET conversion.
fn crawl() -> Vec<Vec<u8>> {
    vec![
        record("warcinfo", "", "0", b"software: test\r\n"),
        response(
            "https://www.example.com/a/",
            "1",
            "200 OK\r\nContent-Type: text/html; charset=utf-8\r\nLink: </s.css>; rel=stylesheet",
            "<base href=/b/><a href=\"x.html#top\" rel=\"nofollow ugc\">x</a>\
             <a href=\"javascript:go()\">j</a><img data-src=\"i.png\">\
             <link rel=alternate hreflang=de href=\"https://B\u{fc}cher.example/de/\">",
        ),
        response(
            "http://example.com/old",
            "2",
            "301 Moved\r\nLocation: /new?b=2&a=1",
            "",
        ),
        record(
            "conversion",
            "https://example.com/t",
            "3",
            b"see https://rfc-editor.org/rfc/rfc3986 ok",
        ),
    ]
}

/// Writes `name` with each record its own gzip member; the offsets.
fn write_gz(dir: &Path, name: &str, records: &[Vec<u8>]) -> Vec<u64> {
    let mut out = vec![];
    let mut offsets = vec![];
    for r in records {
        offsets.push(out.len() as u64);
        out.extend(gz(r));
    }
    std::fs::write(dir.join(name), out).unwrap();
    offsets
}

fn run(dir: &Path, args: &[&str]) -> (String, String, i32) {
    let out = Command::cargo_bin("uriscan")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

#[test]
fn links_of_a_warc_gz() {
    let dir = tempfile::tempdir().unwrap();
    write_gz(dir.path(), "crawl.warc.gz", &crawl());
    let (out, err, code) = run(dir.path(), &["links", "crawl.warc.gz"]);
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(
        out,
        "https://www.example.com/a/:3:8:/s.css\n\
         https://www.example.com/a/:1:12:/b/\n\
         https://www.example.com/a/:1:25:x.html#top\n\
         https://www.example.com/a/:1:70:javascript:go()\n\
         https://www.example.com/a/:1:107:i.png\n\
         https://www.example.com/a/:1:152:https://B\u{fc}cher.example/de/\n\
         http://example.com/old:2:11:/new?b=2&a=1\n\
         https://example.com/t:1:5:https://rfc-editor.org/rfc/rfc3986\n"
    );
    let (out, _, _) = run(dir.path(), &["links", "-o", "crawl.warc.gz"]);
    assert!(out.contains("https://www.example.com/b/x.html#top\n"), "{out}");
    assert!(out.contains("https://www.example.com/s.css\n"), "{out}");
    assert!(out.contains("http://example.com/new?b=2&a=1\n"), "{out}");
}

#[test]
fn json_rows_carry_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let offsets = write_gz(dir.path(), "crawl.warc.gz", &crawl());
    let (out, _, _) = run(dir.path(), &["links", "--json", "crawl.warc.gz"]);
    let rows: Vec<serde_json::Value> =
        out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 8);
    let a = &rows[2];
    assert_eq!(a["path"], "crawl.warc.gz");
    assert_eq!(a["page"], "https://www.example.com/a/");
    assert_eq!(a["record_id"], "<urn:uuid:1>");
    assert_eq!(a["record_offset"].as_u64(), Some(offsets[1]));
    assert_eq!(a["offset_kind"], "gzip-member");
    assert_eq!(a["kind"], "html:a@href");
    assert_eq!(a["rel"], "nofollow ugc");
    assert_eq!(a["role"], "navigate");
    assert_eq!(a["target"], "https://www.example.com/b/x.html#top");
    assert_eq!(rows[0]["kind"], "http:link");
    assert_eq!(rows[0]["rel"], "stylesheet");
    assert_eq!(rows[0]["role"], "embed");
    assert_eq!(rows[4]["kind"], "html:img@data-src");
    assert_eq!(rows[5]["hreflang"], "de");
    assert!(rows[5].get("role").is_none());
    assert_eq!(rows[6]["kind"], "http:location");
    assert_eq!(rows[6]["record_offset"].as_u64(), Some(offsets[2]));
    assert_eq!(rows[7]["kind"], "text");
    assert_eq!(rows[7]["record_offset"].as_u64(), Some(offsets[3]));
}

#[test]
fn the_crawler_options() {
    let dir = tempfile::tempdir().unwrap();
    write_gz(dir.path(), "crawl.warc.gz", &crawl());
    let o = |extra: &[&str]| {
        let mut args = vec!["links", "-o", "crawl.warc.gz"];
        args.extend_from_slice(extra);
        run(dir.path(), &args).0
    };
    let all = o(&[]);
    assert!(all.contains("javascript:go()"));
    let out = o(&["--exclude-scheme", "JavaScript,data"]);
    assert!(!out.contains("javascript:"), "{out}");
    assert_eq!(out.lines().count(), all.lines().count() - 1);
    let out = o(&["--no-fragment"]);
    assert!(out.contains("https://www.example.com/b/x.html\n"), "{out}");
    let out = o(&["--idna"]);
    assert!(out.contains("https://xn--bcher-kva.example/de/\n"), "{out}");
    let out = o(&["--surt", "--exclude-scheme", "javascript"]);
    assert_eq!(
        out,
        "com,example)/s.css\ncom,example)/b\ncom,example)/b/x.html\n\
         com,example)/b/i.png\nexample,xn--bcher-kva)/de\n\
         com,example)/new?a=1&b=2\norg,rfc-editor)/rfc/rfc3986\n"
    );
    // -u dedups on the rewritten target.
    let out = o(&["--surt", "-u", "--exclude-scheme", "javascript"]);
    assert_eq!(out.lines().count(), 7);
    let (_, err, code) = run(
        dir.path(),
        &["links", "--exclude-scheme", "no pe", "crawl.warc.gz"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("--exclude-scheme"), "{err}");
}

#[test]
fn a_damaged_record_is_reported_and_the_rest_read() {
    let dir = tempfile::tempdir().unwrap();
    let recs = crawl();
    let mut bytes = vec![];
    bytes.extend(gz(&recs[1]));
    let bad = bytes.len();
    let mut member = gz(&recs[2]);
    let mid = member.len() / 2;
    member[mid] ^= 0xff;
    member[mid + 1] ^= 0xff;
    bytes.extend(member);
    bytes.extend(gz(&recs[3]));
    std::fs::write(dir.path().join("bad.warc.gz"), bytes).unwrap();
    let (out, err, code) = run(dir.path(), &["links", "-o", "bad.warc.gz"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("bad.warc.gz: record at offset {bad}")),
        "{err}"
    );
    assert!(out.contains("https://www.example.com/b/x.html#top"), "{out}");
    assert!(out.contains("https://rfc-editor.org/rfc/rfc3986"), "{out}");
}

#[test]
fn found_by_its_first_bytes_or_by_format() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("plain.dat"), crawl().concat()).unwrap();
    let (out, _, code) = run(dir.path(), &["links", "-c", "plain.dat"]);
    assert_eq!((out.as_str(), code), ("plain.dat:8\n", 0));
    write_gz(dir.path(), "archive.bin", &crawl());
    let (out, _, _) =
        run(dir.path(), &["links", "-c", "--format", "warc", "archive.bin"]);
    assert_eq!(out, "archive.bin:8\n");
    // Standard input, as a stream.
    let out = Command::cargo_bin("uriscan")
        .unwrap()
        .args(["links", "-c", "--format", "warc", "-"])
        .write_stdin(gz(&crawl().concat()))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "<stdin>:8\n");
    // A WET file: the text of its conversion records.
    std::fs::write(dir.path().join("x.wet"), &crawl()[3]).unwrap();
    let (out, _, _) = run(dir.path(), &["links", "-o", "x.wet"]);
    assert_eq!(out, "https://rfc-editor.org/rfc/rfc3986\n");
}

#[test]
fn the_main_command_scans_each_payload() {
    let dir = tempfile::tempdir().unwrap();
    write_gz(dir.path(), "crawl.warc.gz", &crawl());
    let (out, _, code) = run(dir.path(), &["crawl.warc.gz"]);
    assert_eq!(code, 0);
    // A plain archive by any name is found by its first bytes.
    std::fs::write(dir.path().join("plain.dat"), crawl().concat()).unwrap();
    let (plain, _, _) = run(dir.path(), &["plain.dat"]);
    assert_eq!(plain, out);
    assert_eq!(
        out,
        "https://www.example.com/a/:1:152:https://B\u{fc}cher.example/de/\n\
         https://example.com/t:1:5:https://rfc-editor.org/rfc/rfc3986\n"
    );
}

/// The main command's `--format`: `warc` reads an archive whatever its
/// name and standard input as one; `text` reads an archive's bytes as
/// text.
#[test]
fn the_main_command_takes_a_format() {
    let dir = tempfile::tempdir().unwrap();
    write_gz(dir.path(), "crawl.warc.gz", &crawl());
    let (want, _, _) = run(dir.path(), &["crawl.warc.gz"]);
    write_gz(dir.path(), "archive.bin", &crawl());
    let (out, _, code) = run(dir.path(), &["--format", "warc", "archive.bin"]);
    assert_eq!((out.as_str(), code), (want.as_str(), 0));
    let out = Command::cargo_bin("uriscan")
        .unwrap()
        .args(["--format", "warc", "-"])
        .write_stdin(gz(&crawl().concat()))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);
    // As text, a plain archive is lines of a file: its URIs are labelled
    // by the file and found in the headers too.
    std::fs::write(dir.path().join("plain.warc"), crawl().concat()).unwrap();
    let (text, _, _) = run(dir.path(), &["--format", "text", "plain.warc"]);
    assert!(text.starts_with("plain.warc:"), "{text}");
    assert!(text.contains(":https://www.example.com/a/\n"), "{text}");
}

/// A file compressed as one gzip stream: each record's offset is its
/// offset in the decompressed stream, and the rows say so.
#[test]
fn whole_file_gzip_rows_give_decompressed_offsets() {
    let dir = tempfile::tempdir().unwrap();
    let recs = crawl();
    std::fs::write(dir.path().join("one.warc.gz"), gz(&recs.concat()))
        .unwrap();
    let (out, _, _) = run(dir.path(), &["links", "--json", "one.warc.gz"]);
    let rows: Vec<serde_json::Value> =
        out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let start = (recs[0].len() + recs[1].len()) as u64;
    assert_eq!(rows[6]["kind"], "http:location");
    assert_eq!(rows[6]["record_offset"].as_u64(), Some(start));
    assert_eq!(rows[6]["offset_kind"], "decompressed");
    std::fs::write(dir.path().join("plain.warc"), recs.concat()).unwrap();
    let (out, _, _) = run(dir.path(), &["links", "--json", "plain.warc"]);
    let row: serde_json::Value =
        serde_json::from_str(out.lines().nth(6).unwrap()).unwrap();
    assert_eq!(row["record_offset"].as_u64(), Some(start));
    assert_eq!(row["offset_kind"], "file");
}

/// Gzip is known by its magic: an archive compressed under any name is
/// read without `-z` or `--format`, by both commands; ARC too.
#[test]
fn a_gzip_archive_of_any_name_is_known_by_content() {
    let dir = tempfile::tempdir().unwrap();
    write_gz(dir.path(), "archive.bin", &crawl());
    let (out, err, code) = run(dir.path(), &["links", "-c", "archive.bin"]);
    assert_eq!((out.as_str(), err.as_str(), code), ("archive.bin:8\n", "", 0));
    write_gz(dir.path(), "crawl.warc.gz", &crawl());
    let (want, _, _) = run(dir.path(), &["crawl.warc.gz"]);
    let (out, _, _) = run(dir.path(), &["archive.bin"]);
    assert_eq!(out, want);
    let (out, _, _) = run(dir.path(), &["-z", "archive.bin"]);
    assert_eq!(out, want);
    let (out, _, _) = run(dir.path(), &["links", "-c", "-z", "archive.bin"]);
    assert_eq!(out, "archive.bin:8\n");
    // `--format` overrides: as text, a gzip file is binary and skipped.
    let (out, _, _) =
        run(dir.path(), &["links", "-c", "--format", "html", "archive.bin"]);
    assert_eq!(out, "");
    let body =
        "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=/x>x</a>";
    let arc = format!(
        "filedesc://t.arc 0.0.0.0 20000101000000 text/plain 14\n1 0 test\nURL\n\n\
         http://a.example/ 1.2.3.4 20000101000000 text/html {}\n{body}\n",
        body.len()
    );
    std::fs::write(dir.path().join("old.dat"), gz(arc.as_bytes())).unwrap();
    let (out, _, _) = run(dir.path(), &["links", "-o", "old.dat"]);
    assert_eq!(out, "http://a.example/x\n");
}

/// Garbage full of `WARC/1.` lines gives a few errors, a summary of the
/// rest and the counts, not a line per false start.
#[test]
fn repeated_errors_are_summarised() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = b"WARC/1.0\r\nx: y\r\n".repeat(1000);
    bytes.extend(crawl().concat());
    std::fs::write(dir.path().join("junk.warc"), &bytes).unwrap();
    let (out, err, code) = run(dir.path(), &["links", "-c", "junk.warc"]);
    assert_eq!((out.as_str(), code), ("junk.warc:8\n", 2));
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 5, "{err}");
    assert!(lines[0].starts_with("uriscan: junk.warc: record at offset 0: "));
    assert_eq!(
        lines[3],
        "uriscan: junk.warc: …and 997 more like it up to offset 15984"
    );
    assert_eq!(
        lines[4],
        "uriscan: junk.warc: 4 records read, 0 with warnings, 1000 damaged"
    );
    let (_, err, _) = run(dir.path(), &["--stats", "junk.warc"]);
    assert!(err.contains("…and 997 more like it"), "{err}");
    assert!(
        err.contains(
            "4 archive records read\n0 archive records with warnings\n\
             1000 archive records damaged\n"
        ),
        "{err}"
    );
}

/// `--url-standard`: targets as a browser fetches them; a link the URL
/// Standard rejects gets an error.
#[test]
fn url_standard_targets() {
    let dir = tempfile::tempdir().unwrap();
    let body = "<a href=\"http:rel\">r</a><a href=\"HTTP://B\u{fc}cher.example:80/%zz\">b</a>\
                <a href=\"http://a:port/\">p</a>";
    std::fs::write(dir.path().join("c.warc"), html_page(body)).unwrap();
    let (out, _, _) =
        run(dir.path(), &["links", "-o", "--url-standard", "c.warc"]);
    assert_eq!(
        out,
        "http://example.com/d/rel\nhttp://xn--bcher-kva.example/%zz\nhttp://a:port/\n"
    );
    let (out, _, _) =
        run(dir.path(), &["links", "--json", "--url-standard", "c.warc"]);
    let rows: Vec<serde_json::Value> =
        out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(rows[2]["target"].is_null(), "{}", rows[2]);
    assert!(
        rows[2]["error"].as_str().unwrap().contains("URL Standard"),
        "{}",
        rows[2]
    );
    // The default mode, for comparison.
    let (out, _, _) = run(dir.path(), &["links", "-o", "c.warc"]);
    assert!(out.starts_with("http:rel\n"), "{out}");
}

/// In the default mode, a link that browsers read otherwise than its RFC
/// 3986 target says so in its JSON `warnings`, after the record's own;
/// in the URL Standard mode the target is the browser's, and it does not.
#[test]
fn links_browsers_read_otherwise_are_warned_of() {
    let dir = tempfile::tempdir().unwrap();
    let body = "<a href=\"http:rel\">r</a><a href=\"http:///h/x\">x</a>\
                <a href=\"http://h/ok\">o</a>";
    std::fs::write(dir.path().join("c.warc"), html_page(body)).unwrap();
    let warnings = |args: &[&str]| -> Vec<serde_json::Value> {
        let (out, _, _) = run(dir.path(), args);
        out.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .map(|row| row["warnings"].clone())
            .collect()
    };
    assert_eq!(
        warnings(&["links", "--json", "c.warc"]),
        [
            serde_json::json!(["browsers-read-without-authority"]),
            serde_json::json!(["browsers-skip-extra-slashes"]),
            serde_json::Value::Null,
        ]
    );
    assert_eq!(
        warnings(&["links", "--json", "--url-standard", "c.warc"]),
        [const { serde_json::Value::Null }; 3]
    );
    std::fs::write(dir.path().join("p.html"), body).unwrap();
    assert_eq!(
        warnings(&["links", "--json", "p.html"])[1],
        serde_json::json!(["browsers-skip-extra-slashes"])
    );
}

/// A response record of an HTML page at `http://example.com/d/page`.
fn html_page(body: &str) -> Vec<u8> {
    response(
        "http://example.com/d/page",
        "1",
        "200 OK\r\nContent-Type: text/html",
        body,
    )
}
