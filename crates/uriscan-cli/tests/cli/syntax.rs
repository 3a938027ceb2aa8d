//! The `parse`, `resolve` and `normalize` subcommands, run as a user
//! runs them: the fixed output contract, exit codes, stdin and
//! arguments, bad bytes.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use crate::support::refs::{data, resolution_cases, table_line};
use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::{Value, json};

/// Runs `uriscan ARGS` with `stdin`; returns (exit code, stdout lines).
fn run(args: &[&str], stdin: &[u8]) -> (i32, Vec<String>) {
    let out = cargo_bin_cmd!("uriscan")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code().expect("exited");
    if code != 2 {
        assert!(stderr.is_empty(), "stderr: {stderr}");
    }
    let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    (code, stdout.lines().map(str::to_owned).collect())
}

fn parse_json(args: &[&str], stdin: &[u8]) -> (i32, Vec<Value>) {
    let (code, lines) = run(args, stdin);
    let values = lines
        .iter()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))
        })
        .collect();
    (code, values)
}

#[test]
fn parse_prints_every_component_with_null_for_absent_and_empty_for_empty() {
    let (code, v) = parse_json(
        &["parse"],
        b"http://u:p@h:/a?#\nhttp://h/\n//[::1]:8080\nfoo:bar\n",
    );
    assert_eq!(code, 0);
    assert_eq!(
        v,
        [
            json!({
                "input": "http://u:p@h:/a?#", "valid": true, "kind": "uri",
                "scheme": "http", "authority": "u:p@h:", "userinfo": "u:p",
                "host": "h", "host_kind": "reg-name", "port": "",
                "path": "/a", "query": "", "fragment": ""
            }),
            json!({
                "input": "http://h/", "valid": true, "kind": "uri",
                "scheme": "http", "authority": "h", "userinfo": null,
                "host": "h", "host_kind": "reg-name", "port": null,
                "path": "/", "query": null, "fragment": null
            }),
            json!({
                "input": "//[::1]:8080", "valid": true, "kind": "relative",
                "scheme": null, "authority": "[::1]:8080", "userinfo": null,
                "host": "[::1]", "host_kind": "ipv6", "port": "8080",
                "path": "", "query": null, "fragment": null
            }),
            json!({
                "input": "foo:bar", "valid": true, "kind": "uri",
                "scheme": "foo", "authority": null, "userinfo": null,
                "host": null, "host_kind": null, "port": null,
                "path": "bar", "query": null, "fragment": null
            }),
        ]
    );
}

#[test]
fn parse_keeps_the_documented_field_order() {
    let (_, lines) = run(&["parse", "http://h", "%"], b"");
    assert!(lines[0].starts_with(
        r#"{"input":"http://h","valid":true,"kind":"uri","scheme":"http","#
    ));
    assert!(lines[0].ends_with(r#""query":null,"fragment":null}"#));
    assert!(
        lines[1].starts_with(r#"{"input":"%","valid":false,"error":""#),
        "{}",
        lines[1]
    );
}

#[test]
fn parse_names_every_host_kind() {
    let (_, v) = parse_json(
        &["parse"],
        b"//1.2.3.4\n//1.2.3.256\n//01.2.3.4\n//[v1.x]\n//[::]\n//\n",
    );
    let kinds: Vec<_> = v.iter().map(|o| o["host_kind"].clone()).collect();
    assert_eq!(
        kinds,
        ["ipv4", "reg-name", "reg-name", "ipvfuture", "ipv6", "reg-name"]
    );
    assert_eq!(v[5]["host"], "");
}

#[test]
fn parse_reports_invalid_items_and_exits_1() {
    let (code, v) = parse_json(&["parse"], b"http://h/a b\nhttp://h\n");
    assert_eq!(code, 1);
    assert_eq!(v[0]["input"], "http://h/a b");
    assert_eq!(v[0]["valid"], false);
    assert_eq!(v[0].as_object().unwrap().len(), 3);
    let error = v[0]["error"].as_str().unwrap();
    assert!(error.contains("at byte 10"), "{error}");
    assert_eq!(v[1]["valid"], true);
}

#[test]
fn a_line_that_is_not_utf8_is_one_invalid_item() {
    let (code, v) =
        parse_json(&["parse"], b"http://a\n\xff\xfeab\nhttp://b\n");
    assert_eq!(code, 1);
    assert_eq!(v.len(), 3);
    assert_eq!(v[1]["valid"], false);
    assert_eq!(v[1]["input"], "\u{fffd}\u{fffd}ab");
    assert!(v[1]["error"].as_str().unwrap().contains("UTF-8"));
    assert_eq!(v[2]["input"], "http://b");

    let (code, lines) = run(&["resolve", "--base", "http://a/"], b"x\n\xc3\n");
    assert_eq!(code, 1);
    assert_eq!(lines[0], "http://a/x");
    assert!(lines[1].starts_with("error:"), "{}", lines[1]);

    let (code, lines) = run(&["normalize"], b"\x80/a\n");
    assert_eq!(code, 1);
    assert!(lines[0].starts_with("error:"), "{}", lines[0]);
}

#[test]
fn lines_end_with_lf_or_crlf_and_the_last_needs_no_newline() {
    let (code, v) = parse_json(&["parse"], b"a\r\nb\nc");
    assert_eq!(code, 0);
    let inputs: Vec<_> = v.iter().map(|o| o["input"].clone()).collect();
    assert_eq!(inputs, ["a", "b", "c"]);
    // An empty line is an empty reference, which is valid.
    let (code, v) = parse_json(&["parse"], b"\n");
    assert_eq!(code, 0);
    assert_eq!(v[0]["path"], "");
    let (code, lines) = run(&["parse"], b"");
    assert_eq!((code, lines.len()), (0, 0));
}

#[test]
fn parse_iri_accepts_non_ascii_only_when_asked() {
    let (code, v) = parse_json(&["parse", "http://例え.jp/ä?ö#ü"], b"");
    assert_eq!(code, 1);
    assert_eq!(v[0]["valid"], false);
    let (code, v) =
        parse_json(&["parse", "--iri", "http://例え.jp/ä?ö#ü"], b"");
    assert_eq!(code, 0);
    assert_eq!(v[0]["host"], "例え.jp");
    assert_eq!(v[0]["path"], "/ä");
    assert_eq!(v[0]["fragment"], "ü");
}

#[test]
fn arguments_and_stdin_give_the_same_output() {
    let items = ["http://a/b", "../c", "HTTP://X/%7e", "bad uri"];
    for sub in
        [&["parse"][..], &["resolve", "-b", "http://a/b/c"], &["normalize"]]
    {
        let mut args = sub.to_vec();
        args.extend(items);
        let from_args = run(&args, b"");
        let from_stdin = run(sub, items.join("\n").as_bytes());
        assert_eq!(from_args, from_stdin, "{sub:?}");
        assert_eq!(from_args.0, 1);
        assert_eq!(from_args.1.len(), items.len());
    }
}

#[test]
fn resolve_gives_every_example_of_5_4() {
    let cases = resolution_cases("resolve_5_4.txt");
    let input: String =
        cases.iter().map(|(_, r, _)| format!("{r}\n")).collect();
    let (code, lines) =
        run(&["resolve", "--base", &cases[0].0], input.as_bytes());
    assert_eq!(code, 0);
    let want: Vec<_> = cases.iter().map(|(_, _, t)| t.clone()).collect();
    assert_eq!(lines, want);
}

#[test]
fn resolve_applies_the_documented_choices() {
    let (code, lines) =
        run(&["resolve", "--base", "s:/a#frag"], b"..//g\n\n#x\n");
    assert_eq!(code, 0);
    assert_eq!(lines, ["s:/.//g", "s:/a", "s:/a#x"]);
}

#[test]
fn resolve_marks_bad_references_with_error() {
    let (code, lines) =
        run(&["resolve", "--base", "http://a/b"], b"c\n[x]\nd\n");
    assert_eq!(code, 1);
    assert_eq!(lines[0], "http://a/c");
    assert!(lines[1].starts_with("error: "), "{}", lines[1]);
    assert!(lines[1].contains("[x]"), "{}", lines[1]);
    assert_eq!(lines[2], "http://a/d");
}

#[test]
fn a_bad_base_is_a_usage_error() {
    for base in ["/relative", "http://a b", ""] {
        let out = cargo_bin_cmd!("uriscan")
            .args(["resolve", "--base", base, "g"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{base:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("base"), "{err}");
    }
    let out =
        cargo_bin_cmd!("uriscan").args(["resolve", "g"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn resolve_iri() {
    let (code, lines) = run(
        &["resolve", "--iri", "-b", "http://例え.jp/ä/"],
        "../ö\n".as_bytes(),
    );
    assert_eq!(code, 0);
    assert_eq!(lines, ["http://例え.jp/ö"]);
}

#[test]
fn normalize_gives_the_table_forms() {
    let mut syntax = (String::new(), Vec::new());
    let mut scheme = (String::new(), Vec::new());
    for line in data("normalize.txt").lines() {
        match table_line(line) {
            Some(("syntax", s)) => {
                syntax.0 += &format!("{}\n", s[0]);
                syntax.1.push(s[1].to_owned());
            }
            Some(("scheme", s)) => {
                scheme.0 += &format!("{}\n", s[0]);
                scheme.1.push(s[1].to_owned());
            }
            _ => {}
        }
    }
    let (code, lines) = run(&["normalize"], syntax.0.as_bytes());
    assert_eq!(code, 0);
    assert_eq!(lines, syntax.1);
    let (code, lines) =
        run(&["normalize", "--scheme-based"], scheme.0.as_bytes());
    assert_eq!(code, 0);
    assert_eq!(lines, scheme.1);
}

#[test]
fn normalize_keeps_relative_dot_segments_and_flags_errors() {
    let (code, lines) = run(
        &["normalize"],
        b"../a/./%7e\nHTTP://H/a/../%7e\nhttp://h:80\n%zz\n",
    );
    assert_eq!(code, 1);
    assert_eq!(lines[..3], ["../a/./~", "http://h/~", "http://h:80"]);
    assert!(lines[3].starts_with("error: "), "{}", lines[3]);
    let (code, lines) =
        run(&["normalize", "--scheme-based", "http://h:80"], b"");
    assert_eq!((code, lines), (0, vec!["http://h/".to_owned()]));
}

#[test]
fn normalize_iri() {
    let (code, lines) =
        run(&["normalize", "--iri", "HTTP://Ä.X/ö/./%7E"], b"");
    assert_eq!(code, 0);
    assert_eq!(lines, ["http://Ä.x/ö/~"]);
}

#[test]
fn help_documents_the_exit_codes() {
    for sub in ["parse", "resolve", "normalize"] {
        let out =
            cargo_bin_cmd!("uriscan").args([sub, "--help"]).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let help = String::from_utf8(out.stdout).unwrap();
        assert!(
            help.contains("Exit status: 0 if every item was valid, 1"),
            "{help}"
        );
    }
}

/// `uriscan parse | head -1`: the reader goes away, uriscan stops quietly.
#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child =
        std::process::Command::new(assert_cmd::cargo::cargo_bin!("uriscan"))
            .arg("parse")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let line = b"http://example.com/a/b/c?d#e\n".repeat(1000);
        for _ in 0..200 {
            if stdin.write_all(&line).is_err() {
                break;
            }
        }
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with(r#"{"input":"http://example.com/a/b/c?d#e""#));
    // stdout is dropped here: the pipe is closed.
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// An argument that is not UTF-8 is an invalid item like a line of
/// stdin, not a usage error.
#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_one_invalid_item() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let out = cargo_bin_cmd!("uriscan")
        .arg("parse")
        .arg(OsStr::from_bytes(b"http://a/\xff"))
        .arg("http://b")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let v: Vec<Value> =
        stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(v[0]["valid"], false);
    assert_eq!(v[0]["input"], "http://a/\u{fffd}");
    assert!(v[0]["error"].as_str().unwrap().contains("at byte 9"));
    assert_eq!(v[1]["valid"], true);
}
