//! `uriscan check --remote` as a process, against a server on 127.0.0.1
//! in this test process (tests/support/http.rs): each distinct URI
//! requested once, the cache, the address rule, credentials, headers,
//! output formats and exit codes.

use std::path::Path;

use crate::support::http::Server;
use crate::support::tree::write;
use assert_cmd::Command;

/// Runs `uriscan check --remote ARGS` in `dir` with short timeouts and
/// retries: (stdout, exit code).
fn check(dir: &Path, args: &[&str]) -> (String, i32) {
    let (out, _, code) = check_with_stderr(dir, args);
    (out, code)
}

/// As [`check`], with standard error: (stdout, stderr, exit code).
fn check_with_stderr(dir: &Path, args: &[&str]) -> (String, String, i32) {
    let out = Command::cargo_bin("uriscan")
        .unwrap()
        .current_dir(dir)
        .env_remove("GITHUB_TOKEN")
        .args(["check", "--remote", "--timeout", "300ms", "--retries", "1"])
        .args(["--retry-wait", "10ms", "--no-progress"])
        .args(args)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap(),
    )
}

fn json_rows(out: &str) -> Vec<serde_json::Value> {
    out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn each_distinct_uri_is_requested_once() {
    let s = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let port = s.addr.port();
    // The same URIs from several files, with fragments, credentials, case
    // and default-port variants.
    for f in ["a.md", "b.md", "sub/c.md"] {
        write(
            d,
            f,
            &format!(
                "[1](http://127.0.0.1:{port}/ok)\n\
                 [2](http://127.0.0.1:{port}/ok#part)\n\
                 [3](HTTP://127.0.0.1:{port}/./ok)\n\
                 [4](http://user:pw@127.0.0.1:{port}/ok)\n\
                 [5](http://127.0.0.1:{port}/404)\n\
                 <http://127.0.0.1:{port}/r301>\n"
            ),
        );
    }
    let (out, code) = check(d, &["--allow-private", "--json"]);
    assert_eq!(code, 1, "{out}");
    let rows = json_rows(&out);
    assert_eq!(rows.len(), 18);
    let by_link = |needle: &str| -> Vec<&serde_json::Value> {
        rows.iter()
            .filter(|r| r["link"].as_str().unwrap().ends_with(needle))
            .collect()
    };
    for r in by_link("/ok") {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["http_status"], 200);
    }
    for r in by_link("/404") {
        assert_eq!(r["status"], "broken");
        assert_eq!(r["reason"], "404 Not Found");
    }
    for r in by_link("/r301") {
        assert_eq!(r["status"], "redirected");
        assert_eq!(r["chain"].as_array().unwrap().len(), 4);
        assert_eq!(r["final_uri"], s.url("/ok"));
    }
    // One request for /ok, from 12 links (and a redirect chain); the
    // 404 of HEAD confirmed by one GET.
    assert_eq!(s.count_any("/ok"), 1);
    assert_eq!((s.count("HEAD", "/404"), s.count("GET", "/404")), (1, 1));
    assert_eq!(s.count_any("/r301"), 1);
    assert_eq!(s.total(), 7);
    // Credentials neither sent nor printed.
    assert_eq!(s.headers("authorization"), []);
    assert!(!out.contains("pw@"), "{out}");
    assert!(out.contains("user:***@"), "{out}");
}

#[test]
fn a_cached_success_is_not_requested_again() {
    let s = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "doc.md",
        &format!("[a]({})\n[b]({})\n", s.url("/ok"), s.url("/404")),
    );
    let (_, code) = check(d, &["--allow-private", "--cache", "."]);
    assert_eq!(code, 1);
    assert!(d.join(".uriscan-cache").is_file());
    assert_eq!((s.count_any("/ok"), s.count("GET", "/404")), (1, 1));
    // Again: the success comes from the cache, the failure is checked
    // again.
    let (out, code) = check(d, &["--allow-private", "--cache", "--json", "."]);
    assert_eq!(code, 1);
    assert_eq!((s.count_any("/ok"), s.count("GET", "/404")), (1, 2));
    let rows = json_rows(&out);
    let ok = rows.iter().find(|r| r["link"] == s.url("/ok")).unwrap();
    assert_eq!(
        (ok["status"].as_str(), ok["cached"].as_bool()),
        (Some("ok"), Some(true))
    );
    // Too old for --max-cache-age 0s: requested again.
    let (_, _) = check(
        d,
        &["--allow-private", "--cache", "--max-cache-age", "0s", "."],
    );
    assert_eq!(s.count_any("/ok"), 2);
    // --cache-file elsewhere.
    let other = d.join("elsewhere.cache");
    let (_, _) = check(
        d,
        &["--allow-private", "--cache-file", other.to_str().unwrap(), "."],
    );
    assert!(other.is_file());
    assert_eq!(s.count_any("/ok"), 3);
}

#[test]
fn a_cached_redirect_says_where_it_went() {
    let s = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "doc.md", &format!("[a]({})\n", s.url("/r301")));
    let (first, code) = check(d, &["--allow-private", "--cache", "."]);
    assert_eq!(code, 0, "{first}");
    let requests = s.total();
    let (again, code) = check(d, &["--allow-private", "--cache", "."]);
    assert_eq!(code, 0, "{again}");
    assert_eq!(s.total(), requests);
    let now =
        format!("redirected link '{}': now {}", s.url("/r301"), s.url("/ok"));
    assert!(first.contains(&now), "{first}");
    assert!(again.contains(&now), "{again}");
}

#[cfg(unix)]
#[test]
fn the_cache_is_not_written_through_a_planted_symlink() {
    let s = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let d = dir.path();
    let victim = home.path().join(".bashrc");
    std::fs::write(&victim, "precious\n").unwrap();
    write(d, "doc.md", &format!("[a]({})\n", s.url("/ok")));
    // At the old fixed temporary name: written around, not through.
    std::os::unix::fs::symlink(&victim, d.join(".uriscan-cache.tmp")).unwrap();
    let (_, code) = check(d, &["--allow-private", "--cache", "."]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let cache = std::fs::read_to_string(d.join(".uriscan-cache")).unwrap();
    assert!(
        cache.starts_with(r#"{"format":"uriscan-remote-cache","version":3}"#)
    );
    assert!(cache.contains(&s.url("/ok")), "{cache}");
    // At the cache path itself: refused before any request.
    std::fs::remove_file(d.join(".uriscan-cache")).unwrap();
    std::os::unix::fs::symlink(&victim, d.join(".uriscan-cache")).unwrap();
    let requests = s.total();
    let (_, err, code) =
        check_with_stderr(d, &["--allow-private", "--cache", "."]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("the cache file ./.uriscan-cache: is a symbolic link"),
        "{err}"
    );
    assert_eq!(s.total(), requests);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
}

#[test]
fn a_cache_in_another_format_is_read_as_empty_with_a_warning() {
    let s = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "doc.md", &format!("[a]({})\n", s.url("/ok")));
    // An older uriscan's cache, which would have saved the request.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    write(
        d,
        ".uriscan-cache",
        &format!(
            "# uriscan remote cache v1: seconds\tstatus\thttp\turi\n{now}\tok\t200\t{}\n",
            s.url("/ok")
        ),
    );
    let (out, err, code) =
        check_with_stderr(d, &["--allow-private", "--cache", "."]);
    assert_eq!((out.as_str(), code), ("", 0), "{err}");
    assert!(
        err.contains("the cache file ./.uriscan-cache: not a uriscan cache"),
        "{err}"
    );
    assert_eq!(s.count_any("/ok"), 1);
    // Rewritten in the format: the next run takes the success from it.
    let (_, err, _) =
        check_with_stderr(d, &["--allow-private", "--cache", "."]);
    assert!(!err.contains("not a uriscan cache"), "{err}");
    assert_eq!(s.count_any("/ok"), 1);
}

#[test]
fn local_hosts_are_skipped_unless_allow_private() {
    let s = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let port = s.addr.port();
    write(
        d,
        "doc.md",
        &format!(
            "[a]({})\n[b](http://localhost:{port}/ok/other)\n[c](http://10.0.0.1/)\n",
            s.url("/ok")
        ),
    );
    // A README's links to the reader's machine do not fail the run.
    let (out, code) = check(d, &["doc.md"]);
    assert_eq!((out.as_str(), code), ("", 0));
    assert_eq!(s.total(), 0);
    let (out, code) = check(d, &["--json", "doc.md"]);
    assert_eq!(code, 0);
    let rows = json_rows(&out);
    assert_eq!(rows.len(), 3);
    for row in &rows {
        assert_eq!(row["status"], "skipped", "{row}");
        assert_eq!(row["reason"], "private address (not requested)", "{row}");
    }
    assert_eq!(s.total(), 0);
    // Allowed: the loopback ones are asked (10.0.0.1 would leave this
    // machine, so it goes first).
    write(
        d,
        "doc.md",
        &format!(
            "[a]({})\n[b](http://localhost:{port}/ok/other)\n",
            s.url("/ok")
        ),
    );
    let (out, code) = check(d, &["--allow-private", "doc.md"]);
    assert_eq!((out.as_str(), code), ("", 0));
    assert_eq!(s.total(), 2);
}

#[test]
fn reports_exit_codes_and_warn_remote() {
    let s = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "doc.md",
        &format!(
            "[gone]({})\n[moved]({})\n[slow]({})\n[local](missing.md)\n",
            s.url("/410"),
            s.url("/r308"),
            s.url("/slow")
        ),
    );
    let (out, code) = check(d, &["--allow-private", "doc.md"]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        format!(
            "doc.md:1:8: broken link '{}': 410 Gone\n\
             doc.md:2:9: redirected link '{}': now {} (via 308 {} → {})\n\
             doc.md:3:8: timed-out link '{}': timed out\n\
             doc.md:4:9: broken link 'missing.md': no such file or directory\n",
            s.url("/410"),
            s.url("/r308"),
            s.url("/ok"),
            s.url("/r308"),
            s.url("/ok"),
            s.url("/slow"),
        )
    );
    // --warn-remote: the remote failures are reported, the local one
    // still fails the run; without it, the run passes.
    let (_, code) = check(d, &["--allow-private", "--warn-remote", "doc.md"]);
    assert_eq!(code, 1);
    write(d, "doc.md", &format!("[gone]({})\n", s.url("/410")));
    let (out, code) =
        check(d, &["--allow-private", "--warn-remote", "doc.md"]);
    assert_eq!((code, out.lines().count()), (0, 1));
    // GitHub annotations: an error for a failure.
    let (out, _) =
        check(d, &["--allow-private", "--format", "github", "doc.md"]);
    assert_eq!(
        out,
        format!(
            "::error file=doc.md,line=1,col=8::broken link '{}': 410 Gone\n",
            s.url("/410")
        )
    );
    // SARIF: the same result.
    let (out, _) =
        check(d, &["--allow-private", "--format", "sarif", "doc.md"]);
    let log: serde_json::Value = serde_json::from_str(&out).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["ruleId"], "broken-link");
    assert_eq!(results[0]["level"], "error");
}

#[test]
fn remote_fragments_and_headers() {
    let s = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "doc.md",
        &format!("[a]({0}#present)\n[b]({0}#absent)\n", s.url("/page")),
    );
    let (out, code) = check(
        d,
        &[
            "--allow-private",
            "--remote-fragments",
            "--header",
            "X-Test: yes",
            "doc.md",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(
        out,
        format!(
            "doc.md:2:5: broken link '{}#absent': no anchor '#absent' in the page\n",
            s.url("/page")
        )
    );
    assert_eq!((s.count("GET", "/page"), s.count("HEAD", "/page")), (1, 0));
    assert_eq!(
        s.headers("x-test"),
        [("/page".to_string(), "yes".to_string())]
    );
    // Without --remote-fragments the fragment is not checked.
    let (out, code) = check(d, &["--allow-private", "doc.md"]);
    assert_eq!((out.as_str(), code), ("", 0));
}

#[test]
fn bad_options_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["--header", "no colon"][..],
        &["--accept", "abc"],
        &["--timeout", "soon"],
        &["--timeout", "0"],
        &["--timeout", "2d"],
        &["--retry-wait", "200000000000000d"],
        &["--max-retry-wait", "25h"],
    ] {
        let (_, code) = check(dir.path(), args);
        assert_eq!(code, 2, "{args:?}");
    }
}

#[test]
fn remote_settings_in_the_config_file() {
    let s = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "doc.md",
        &format!("[a]({})\n[b]({})\n", s.url("/404"), s.url("/410")),
    );
    write(
        d,
        "uriscan.toml",
        "remote = true\naccept = [\"200..=299\", \"404\"]\n\
         timeout = \"5s\"\ncache-file = \"results.cache\"\n\
         header = [\"Accept-Language: en\"]\n",
    );
    // Private addresses are allowed on the command line only (which
    // takes --remote with it).
    let out = Command::cargo_bin("uriscan")
        .unwrap()
        .current_dir(d)
        .args(["check", "--no-progress", "--remote", "--allow-private", "."])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout,
        format!("./doc.md:2:5: broken link '{}': 410 Gone\n", s.url("/410"))
    );
    assert!(d.join("results.cache").is_file());
    // A bad value names its key.
    write(d, "uriscan.toml", "remote = true\ntimeout = \"soon\"\n");
    let out = Command::cargo_bin("uriscan")
        .unwrap()
        .current_dir(d)
        .args(["check", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("timeout: 'soon' is not a duration"), "{err}");
}

#[test]
fn a_config_file_in_the_tree_may_not_widen_what_is_reached_or_written() {
    let s = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let d = dir.path().join("docs");
    write(&d, "doc.md", &format!("[a]({})\n", s.url("/ok")));
    let elsewhere = outside.path().join("planted.cache");
    let run = |args: &[&str]| {
        let out = Command::cargo_bin("uriscan")
            .unwrap()
            .current_dir(&d)
            .args(["check", "--no-progress", "--remote", "--timeout", "2s"])
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code().unwrap(), err)
    };
    for (setting, names) in [
        ("allow-private = true", "`allow-private = true`"),
        ("cache-file = \"../up.cache\"", "`cache-file = \"../up.cache\"`"),
        (
            &format!("cache-file = {:?}", elsewhere.to_str().unwrap()),
            "`cache-file = ",
        ),
        (
            "header = [\"Accept: */*\", \"Authorization: Bearer stolen\"]",
            "`header` \"Authorization\" carries credentials",
        ),
        ("header = [\"X-Api-Key: k\"]", "`header` \"X-Api-Key\""),
    ] {
        write(&d, "uriscan.toml", &format!("remote = true\n{setting}\n"));
        // Found in the checked tree: refused, naming the setting and the
        // file, before any request.
        let (code, err) = run(&["."]);
        assert_eq!(code, 2, "{setting}: {err}");
        assert!(err.contains("./uriscan.toml: "), "{err}");
        assert!(err.contains(names), "{setting}: {err}");
        assert!(err.contains("found in the checked tree"), "{err}");
        assert_eq!(s.total(), 0);
        assert!(!dir.path().join("up.cache").exists());
        assert!(!elsewhere.exists());
    }
    // Named with --config, the file is trusted.
    write(&d, "uriscan.toml", "remote = true\nallow-private = true\n");
    let (code, err) = run(&["--config", "uriscan.toml", "."]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(s.total(), 1);
    let cache = format!("remote = true\ncache-file = {elsewhere:?}\n");
    write(&d, "uriscan.toml", &cache);
    let (code, err) =
        run(&["--config", "uriscan.toml", "--allow-private", "."]);
    assert_eq!(code, 0, "{err}");
    assert!(elsewhere.is_file());
    // The command line may set what the file may not.
    write(&d, "uriscan.toml", "remote = true\n");
    let (code, err) = run(&["--allow-private", "."]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn json_rows_stream_as_results_come() {
    let s = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The slow link first in the document; its result comes last.
    write(
        d,
        "doc.md",
        &format!(
            "[slow]({})\n[fast]({})\n[local](doc.md)\n",
            s.url("/slow"),
            s.url("/ok")
        ),
    );
    let (out, _) = check(d, &["--allow-private", "--json", "doc.md"]);
    let rows = json_rows(&out);
    let order: Vec<&str> =
        rows.iter().map(|r| r["status"].as_str().unwrap()).collect();
    // The offline rows first, then the remote ones as they come.
    assert_eq!(order, ["ok", "ok", "timeout"]);
    assert_eq!(rows[0]["link"], "doc.md");
    assert_eq!(rows[1]["link"], s.url("/ok"));
    assert!(rows[2]["time_ms"].as_u64().unwrap() >= 300);
}

#[test]
fn a_host_that_fails_fails_the_run_quickly() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut doc = String::new();
    for i in 0..30 {
        doc.push_str(&format!("- <http://127.0.0.1:{port}/{i}>\n"));
        doc.push_str(&format!("- <http://nowhere.invalid/{i}>\n"));
    }
    write(d, "doc.md", &doc);
    let start = std::time::Instant::now();
    let (out, code) = check(d, &["--allow-private", "doc.md"]);
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(code, 1, "{out}");
    assert_eq!(out.lines().count(), 60, "{out}");
    assert_eq!(
        out.matches(
            ": nowhere.invalid does not resolve: .invalid is reserved\n"
        )
        .count(),
        30,
        "{out}"
    );
}
