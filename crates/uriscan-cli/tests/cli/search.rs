//! The `uriscan` command line, run as a process on temporary trees.

use crate::support::{Dir, is_root};
use serde_json::Value;

fn json_rows(out: &str) -> Vec<Value> {
    out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

// ---- Output formats and exit codes ----

#[test]
fn default_output_is_path_line_column_uri() {
    let d = Dir::new();
    d.create(
        "a.txt",
        "x\nsee http://example.com/x and\n  https://b.example/y\n",
    );
    let (code, out, err) = d.run(&["a.txt"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "a.txt:2:5:http://example.com/x\na.txt:3:3:https://b.example/y\n"
    );
}

#[test]
fn exit_one_when_nothing_found() {
    let d = Dir::new();
    d.create("a.txt", "no links here, only text: 12:34\n");
    let (code, out, err) = d.run(&["a.txt"]);
    assert_eq!((code, out.as_str(), err.as_str()), (1, "", ""));
}

#[test]
fn exit_two_on_missing_path_but_others_are_scanned() {
    let d = Dir::new();
    d.create("a.txt", "http://example.com/x\n");
    let (code, out, err) = d.run(&["missing.txt", "a.txt"]);
    assert_eq!(code, 2);
    assert_eq!(out, "a.txt:1:1:http://example.com/x\n");
    assert_eq!(err, "uriscan: missing.txt: no such file or directory\n");
}

#[test]
fn exit_two_on_usage_error() {
    let d = Dir::new();
    for args in [
        &["--no-such-flag"][..],
        &["-c", "-o"],
        &["--json", "-o"],
        &["--color", "sometimes"],
        &["--max-filesize", "12X", "."],
        &["-g", "a[", "."],
        &["-j", "0", "."],
        &["--scheme", "1x", "."],
        &["--scheme", "http", "--any-scheme", "."],
    ] {
        let (code, out, err) = d.run(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert!(!err.is_empty(), "{args:?}");
    }
}

#[test]
fn only_uri() {
    let d = Dir::new();
    d.create("a.txt", "http://a.example/1 http://a.example/2\n");
    let (code, out, _) = d.run(&["-o", "a.txt"]);
    assert_eq!(code, 0);
    assert_eq!(out, "http://a.example/1\nhttp://a.example/2\n");
    let (_, out, _) = d.run(&["--only-uri", "a.txt"]);
    assert_eq!(out, "http://a.example/1\nhttp://a.example/2\n");
}

#[test]
fn count_per_file() {
    let d = Dir::new();
    d.create("a.txt", "http://a.example/1 http://a.example/2\n");
    d.create("b.txt", "http://b.example/\n");
    d.create("c.txt", "nothing\n");
    assert_eq!(d.lines(&["-c"]), ["a.txt:2", "b.txt:1"]);
    assert_eq!(d.lines(&["--count", "c.txt", "b.txt"]), ["b.txt:1"]);
}

#[test]
fn null_separates_paths() {
    let d = Dir::new();
    d.create("a.txt", "http://a.example/1\n");
    let (_, out, _) = d.run(&["-0", "a.txt"]);
    assert_eq!(out, "a.txt\x001:1:http://a.example/1\n");
    let (_, out, _) = d.run(&["--null", "-c", "a.txt"]);
    assert_eq!(out, "a.txt\x001\n");
    let (_, out, _) = d.run(&["-0", "-o", "a.txt"]);
    assert_eq!(out, "http://a.example/1\x00");
}

#[test]
fn json_fields() {
    let d = Dir::new();
    d.create(
        "a.txt",
        "first line\nGo to http://www.bank.example@evil.example/login now\n",
    );
    let (code, out, _) = d.run(&["--json", "a.txt"]);
    assert_eq!(code, 0);
    let rows = json_rows(&out);
    assert_eq!(rows.len(), 1);
    let r = rows[0].as_object().unwrap();
    assert_eq!(r["path"], "a.txt");
    assert_eq!(r["line"], 2);
    assert_eq!(r["column"], 7);
    assert_eq!(r["offset"], 17);
    assert_eq!(r["uri"], "http://www.bank.example@evil.example/login");
    assert_eq!(r["scheme"], "http");
    assert_eq!(r["warnings"], serde_json::json!(["userinfo-looks-like-host"]));
    // Absent: not rejoined, nothing trimmed, path is UTF-8.
    assert!(!r.contains_key("raw"));
    assert!(!r.contains_key("trimmed"));
    assert!(!r.contains_key("path_bytes"));
    // The offset points at the URI in the file.
    let text = std::fs::read_to_string(d.path().join("a.txt")).unwrap();
    let off = r["offset"].as_u64().unwrap() as usize;
    assert!(text[off..].starts_with(r["uri"].as_str().unwrap()));
}

#[test]
fn json_raw_when_the_uri_differs() {
    let d = Dir::new();
    d.create("a.txt", "HTTP://Example.COM/a/./b/../c\n");
    let (_, out, _) = d.run(&["--json", "--normalize", "a.txt"]);
    let rows = json_rows(&out);
    assert_eq!(rows[0]["uri"], "http://example.com/a/c");
    assert_eq!(rows[0]["raw"], "HTTP://Example.COM/a/./b/../c");
    assert_eq!(rows[0]["scheme"], "http");
}

#[test]
fn json_raw_trimmed_and_hyphen_break() {
    let d = Dir::new();
    let text = "see <URL:http://a.example/long-\n   path/b>.\n\
                (see http://w.example/x).\n";
    d.create("r.txt", text);
    let rows = json_rows(&d.run(&["--json", "r.txt"]).1);
    assert_eq!(rows.len(), 2);
    let r = &rows[0];
    assert_eq!(r["uri"], "http://a.example/long-path/b");
    assert_eq!(r["raw"], "http://a.example/long-\n   path/b");
    assert_eq!(r["hyphen_break"], true);
    assert_eq!(r["trimmed"]["prefix"], "URL:");
    assert_eq!(r["trimmed"]["reasons"], serde_json::json!(["url-prefix"]));
    assert_eq!(
        (&r["line"], &r["column"], &r["offset"]),
        (&1.into(), &10.into(), &9.into())
    );
    let r = &rows[1];
    assert_eq!(r["uri"], "http://w.example/x");
    assert!(r.get("raw").is_none() && r.get("hyphen_break").is_none());
    assert_eq!(r["trimmed"]["suffix"], ")");
    assert_eq!(
        r["trimmed"]["reasons"],
        serde_json::json!(["unbalanced-bracket"])
    );
    // Streamed (standard input): the same rows, raw and trimmed texts
    // included.
    let out = d.with_stdin(&["--json"], text);
    let streamed = json_rows(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(streamed.len(), rows.len());
    for (s, w) in streamed.iter().zip(&rows) {
        let mut s = s.clone();
        assert_eq!(s["path"], "<stdin>");
        s["path"] = w["path"].clone();
        assert_eq!(&s, w);
    }
    // So is a file large enough to be streamed.
    let padding = format!("{}\n", "x".repeat(2 << 20));
    d.create("big.txt", &format!("{padding}{text}"));
    let (_, out, _) = d.run(&["--json", "big.txt"]);
    let big = json_rows(&out);
    assert_eq!(big.len(), rows.len());
    for (b, w) in big.iter().zip(&rows) {
        for k in ["uri", "raw", "trimmed", "hyphen_break", "column"] {
            assert_eq!(b.get(k), w.get(k), "{k}");
        }
    }
}

#[cfg(unix)]
#[test]
fn json_non_utf8_path_is_lossless() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let d = Dir::new();
    let name = OsStr::from_bytes(b"caf\xe9.txt");
    d.create(name, "http://example.com/\n");
    let (code, out, _) = d.run(&["--json"]);
    assert_eq!(code, 0);
    let rows = json_rows(&out);
    assert_eq!(rows[0]["path"], "caf\u{fffd}.txt");
    let bytes: Vec<u8> = rows[0]["path_bytes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap() as u8)
        .collect();
    assert_eq!(bytes, b"caf\xe9.txt");
    // Text output writes the file name's bytes as they are.
    let out = d.cmd(&[]).output().unwrap();
    assert_eq!(out.stdout, b"caf\xe9.txt:1:1:http://example.com/\n");
}

#[test]
fn unique_prints_first_occurrence() {
    let d = Dir::new();
    d.create("a/1.txt", "http://x.example/ http://y.example/\n");
    d.create("a/2.txt", "http://x.example/\nhttp://z.example/\n");
    let (_, out, _) = d.run(&["-u", "--sort", "path"]);
    assert_eq!(
        out,
        "a/1.txt:1:1:http://x.example/\na/1.txt:1:19:http://y.example/\n\
         a/2.txt:2:1:http://z.example/\n"
    );
    // Without sorting, each URI is still printed exactly once.
    assert_eq!(
        d.lines(&["-o", "--unique"]),
        ["http://x.example/", "http://y.example/", "http://z.example/"]
    );
    // Counts count only the new ones.
    assert_eq!(
        d.lines(&["-c", "-u", "--sort", "path"]),
        ["a/1.txt:2", "a/2.txt:1"]
    );
}

#[test]
fn sort_path_is_stable_and_ordered() {
    let d = Dir::new();
    let mut expected = vec![];
    for i in (0..60).rev() {
        let name = format!("d{}/f{i:02}.txt", i % 3);
        d.create(&name, &format!("http://example.com/{i}\n"));
        expected.push(format!("{name}:1:1:http://example.com/{i}"));
    }
    expected.sort();
    let (_, first, _) = d.run(&["--sort", "path", "-j", "2"]);
    assert_eq!(first.lines().collect::<Vec<_>>(), expected);
    for _ in 0..3 {
        assert_eq!(d.run(&["--sort=path"]).1, first);
    }
    // `--sort none` is the parallel default: same set.
    assert_eq!(d.lines(&["--sort", "none"]), expected);
}

#[test]
fn parallel_output_never_interleaves() {
    let d = Dir::new();
    for i in 0..40 {
        let body: String = (0..200)
            .map(|j| format!("http://example.com/{i}/{j}\n"))
            .collect();
        d.create(format!("f{i:02}.txt"), &body);
    }
    let (code, out, _) = d.run(&["-j", "4"]);
    assert_eq!(code, 0);
    // Lines of one file come together and in order.
    let mut files = vec![];
    for line in out.lines() {
        let file = line.split(':').next().unwrap();
        if files.last() != Some(&file) {
            assert!(!files.contains(&file), "{file} interleaved");
            files.push(file);
        }
    }
    assert_eq!(files.len(), 40);
    assert_eq!(out.lines().count(), 40 * 200);
}

#[test]
fn color() {
    let d = Dir::new();
    d.create("a.txt", "http://a.example/\n");
    let (_, out, _) = d.run(&["--color", "always", "a.txt"]);
    assert_eq!(
        out,
        "\x1b[35ma.txt\x1b[0m:\x1b[32m1\x1b[0m:1:\x1b[1;31mhttp://a.example/\
         \x1b[0m\n"
    );
    // Not a terminal: `auto` (the default) and `never` do not color.
    assert_eq!(d.run(&["a.txt"]).1, "a.txt:1:1:http://a.example/\n");
    assert_eq!(
        d.run(&["--color=never", "a.txt"]).1,
        "a.txt:1:1:http://a.example/\n"
    );
    // NO_COLOR does not override an explicit `always`.
    let out = d
        .cmd(&["--color=always", "-o", "a.txt"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(out.stdout.starts_with(b"\x1b["));
}

#[test]
fn stats_go_to_stderr() {
    let d = Dir::new();
    d.create("a.txt", "http://a.example/ http://b.example/\n");
    d.create("b.bin", "http://c.example/\0");
    let (code, out, err) = d.run(&["--stats", "-o"]);
    assert_eq!(code, 0);
    assert_eq!(out, "http://a.example/\nhttp://b.example/\n");
    assert!(err.contains("1 files scanned\n"), "{err}");
    assert!(err.contains("1 binary files skipped\n"), "{err}");
    assert!(err.contains("36 bytes scanned\n"), "{err}");
    assert!(err.contains("2 URIs\n"), "{err}");
    assert!(err.contains(" seconds\n") && err.contains(" MB/s\n"), "{err}");
}

// ---- URIs ----

#[test]
fn passwords() {
    let d = Dir::new();
    d.create("a.txt", "ftp://user:secret@ftp.example/file\n");
    // Piped: `auto` shows the exact URI.
    assert_eq!(
        d.run(&["-o", "a.txt"]).1,
        "ftp://user:secret@ftp.example/file\n"
    );
    assert_eq!(
        d.run(&["-o", "--passwords", "mask", "a.txt"]).1,
        "ftp://user:***@ftp.example/file\n"
    );
    assert_eq!(
        d.run(&["-o", "--passwords=show", "a.txt"]).1,
        "ftp://user:secret@ftp.example/file\n"
    );
    let (_, out, _) = d.run(&["--json", "--passwords=mask", "a.txt"]);
    let rows = json_rows(&out);
    assert_eq!(rows[0]["uri"], "ftp://user:***@ftp.example/file");
    assert!(!out.contains("secret"), "{out}");
}

#[test]
fn normalize() {
    let d = Dir::new();
    d.create("a.txt", "HTTP://Example.COM/%7euser/./a/../b?%3f\n");
    assert_eq!(
        d.run(&["-o", "--normalize", "a.txt"]).1,
        "http://example.com/~user/b?%3F\n"
    );
    // The JSON scheme is the printed URI's: as written, or normalized.
    let scheme = |args: &[&str]| {
        let out = d.run(&[&["--json", "a.txt"], args].concat()).1;
        json_rows(&out)[0]["scheme"].clone()
    };
    assert_eq!(scheme(&[]), "HTTP");
    assert_eq!(scheme(&["--normalize"]), "http");
}

#[test]
fn ascii_gives_the_uri_form_of_iris() {
    let d = Dir::new();
    d.create("a.txt", "http://example.com/caf\u{e9}\n");
    assert_eq!(
        d.run(&["-o", "--ascii", "a.txt"]).1,
        "http://example.com/caf%C3%A9\n"
    );
}

#[test]
fn scheme_restricts() {
    let d = Dir::new();
    d.create(
        "a.txt",
        "http://a.example/ ftp://b.example/ HTTPS://c.example/\n",
    );
    assert_eq!(
        d.lines(&["-o", "--scheme", "ftp,https", "a.txt"]),
        ["HTTPS://c.example/", "ftp://b.example/"]
    );
}

#[test]
fn any_scheme_accepts_every_scheme() {
    let d = Dir::new();
    d.create("a.txt", "see x-custom:thing here\n");
    let (code, _, _) = d.run(&["-o", "a.txt"]);
    assert_eq!(code, 1);
    assert_eq!(d.lines(&["-o", "--any-scheme", "a.txt"]), ["x-custom:thing"]);
}

#[test]
fn warnings_only() {
    let d = Dir::new();
    d.create(
        "a.txt",
        "http://example.com/ok http://0x7f.1/ http://example.com/a%2Fb \
         http://www.bank.example@evil.example/\n",
    );
    assert_eq!(
        d.lines(&["-o", "--warnings-only", "a.txt"]),
        [
            "http://0x7f.1/",
            "http://example.com/a%2Fb",
            "http://www.bank.example@evil.example/",
        ]
    );
    let (_, out, _) = d.run(&["--json", "--warnings-only", "a.txt"]);
    let warnings: Vec<Value> =
        json_rows(&out).into_iter().map(|r| r["warnings"].clone()).collect();
    assert_eq!(
        warnings,
        [
            serde_json::json!(["rare-ip-form"]),
            serde_json::json!(["encoded-delimiter-in-path"]),
            serde_json::json!(["userinfo-looks-like-host"]),
        ]
    );
    let d = Dir::new();
    d.create("b.txt", "http://example.com/\n");
    assert_eq!(d.run(&["--warnings-only", "b.txt"]).0, 1);
}

// ---- Walking ----

#[test]
fn gitignore_outside_and_inside_a_repository() {
    let d = Dir::new();
    d.create(".gitignore", "ignored.txt\nbuild/\n");
    d.create("ignored.txt", "http://ignored.example/\n");
    d.create("build/out.txt", "http://build.example/\n");
    d.create("kept.txt", "http://kept.example/\n");
    // A .gitignore applies even outside a git repository.
    assert_eq!(d.lines(&["-o"]), ["http://kept.example/"]);
    d.mkdir(".git");
    assert_eq!(d.lines(&["-o"]), ["http://kept.example/"]);
    assert_eq!(
        d.lines(&["-o", "--no-ignore"]),
        [
            "http://build.example/",
            "http://ignored.example/",
            "http://kept.example/",
        ]
    );
    // A path given explicitly is scanned even when ignored.
    assert_eq!(d.lines(&["-o", "ignored.txt"]), ["http://ignored.example/"]);
}

#[test]
fn dot_ignore_and_git_excludes() {
    let d = Dir::new();
    d.create(".ignore", "a.txt\n");
    d.create(".git/info/exclude", "b.txt\n");
    d.create("cfg/git/ignore", "c.txt\n");
    d.create("a.txt", "http://a.example/\n");
    d.create("b.txt", "http://b.example/\n");
    d.create("c.txt", "http://c.example/\n");
    d.create("d.txt", "http://d.example/\n");
    let out = d
        .cmd(&["-o", "--sort=path", "--glob", "!cfg/**"])
        .env("XDG_CONFIG_HOME", d.path().join("cfg"))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "http://d.example/\n");
    assert_eq!(
        d.lines(&["-o", "--no-ignore", "-g", "!cfg/**"]),
        [
            "http://a.example/",
            "http://b.example/",
            "http://c.example/",
            "http://d.example/"
        ]
    );
}

#[test]
fn hidden_files() {
    let d = Dir::new();
    d.create(".hidden.txt", "http://hidden.example/\n");
    d.create(".dir/a.txt", "http://dir.example/\n");
    d.create("shown.txt", "http://shown.example/\n");
    assert_eq!(d.lines(&["-o"]), ["http://shown.example/"]);
    assert_eq!(
        d.lines(&["-o", "--hidden"]),
        [
            "http://dir.example/",
            "http://hidden.example/",
            "http://shown.example/",
        ]
    );
}

#[test]
fn globs_include_and_exclude() {
    let d = Dir::new();
    d.create("a.md", "http://md.example/\n");
    d.create("b.txt", "http://txt.example/\n");
    d.create("sub/c.md", "http://sub.example/\n");
    assert_eq!(
        d.lines(&["-o", "-g", "*.md"]),
        ["http://md.example/", "http://sub.example/",]
    );
    assert_eq!(d.lines(&["-o", "-g", "!*.md"]), ["http://txt.example/"]);
    assert_eq!(
        d.lines(&["-o", "-g", "*.md", "--glob", "!sub/**"]),
        ["http://md.example/"]
    );
}

#[test]
fn max_depth() {
    let d = Dir::new();
    d.create("a.txt", "http://0.example/\n");
    d.create("x/b.txt", "http://1.example/\n");
    d.create("x/y/c.txt", "http://2.example/\n");
    assert_eq!(d.lines(&["-o", "--max-depth", "1"]), ["http://0.example/"]);
    assert_eq!(
        d.lines(&["-o", "--max-depth=2"]),
        ["http://0.example/", "http://1.example/"]
    );
}

#[test]
fn max_filesize() {
    let d = Dir::new();
    d.create("small.txt", "http://s.example/\n");
    d.create("big.txt", &format!("http://b.example/ {}\n", "x".repeat(2000)));
    assert_eq!(
        d.lines(&["-o", "--max-filesize", "1K"]),
        ["http://s.example/"]
    );
    assert_eq!(
        d.lines(&["-o", "--max-filesize", "3000"]),
        ["http://b.example/", "http://s.example/"]
    );
}

#[test]
fn threads() {
    let d = Dir::new();
    for i in 0..20 {
        d.create(format!("{i}.txt"), &format!("http://{i}.example/\n"));
    }
    let one = d.lines(&["-o", "-j1"]);
    assert_eq!(one.len(), 20);
    assert_eq!(d.lines(&["-o", "--threads", "3"]), one);
}

#[test]
fn threads_are_capped() {
    let d = Dir::new();
    d.create("a.txt", "http://a.example/\n");
    assert_eq!(d.lines(&["-o", "-j256"]), ["http://a.example/"]);
    for j in ["0", "257", "5000"] {
        let (code, out, err) = d.run(&["-o", "-j", j]);
        assert_eq!((code, out.as_str()), (2, ""), "-j {j}");
        assert!(err.contains("is not in 1..=256"), "-j {j}: {err}");
    }
}

/// Threads that cannot be started (here: their stacks do not fit under
/// an address-space limit) are an error with exit 2, not a panic or a
/// hang.
#[cfg(target_os = "linux")]
#[test]
fn threads_that_cannot_start_are_an_error() {
    use std::time::{Duration, Instant};
    let d = Dir::new();
    d.create("a.txt", "http://a.example/\n");
    d.create("b.txt", "http://b.example/\n");
    // 256 default stacks of 2 MiB do not fit in 300 MB; the program
    // alone does.
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg(r#"ulimit -v 300000 && exec "$0" "$@""#)
        .arg(assert_cmd::cargo::cargo_bin("uriscan"))
        .args(["-o", "-j256", "."])
        .current_dir(d.path())
        .env_remove("RUST_MIN_STACK")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    // A guard, not a measure: the walk that panicked on a spawn waited
    // for its other threads forever.
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("hung after a failed thread spawn");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert!(err.starts_with("uriscan: cannot start 256 threads: "), "{err}");
    assert!(err.ends_with(" (try a lower -j)\n"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[cfg(unix)]
#[test]
fn follow_symlinks_and_report_loops() {
    use std::os::unix::fs::symlink;
    let d = Dir::new();
    d.create("real/a.txt", "http://a.example/\n");
    d.create("other/b.txt", "http://b.example/\n");
    d.mkdir("top");
    symlink(d.path().join("other"), d.path().join("top/link")).unwrap();
    // A link back up the tree.
    symlink(d.path().join("real"), d.path().join("real/loop")).unwrap();
    assert_eq!(d.lines(&["-o", "top", "real"]), ["http://a.example/"]);
    let (code, out, err) = d.run(&["-o", "-L", "--sort=path", "top", "real"]);
    assert_eq!(code, 2, "a loop is an error: {err}");
    assert_eq!(out, "http://b.example/\nhttp://a.example/\n");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("uriscan: real/loop: symlink loop"), "{err}");
}

#[cfg(unix)]
#[test]
fn unreadable_file_is_reported() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let d = Dir::new();
    d.create("ok.txt", "http://ok.example/\n");
    // A path that cannot be opened, root or not: a dangling link.
    symlink(d.path().join("gone"), d.path().join("dangling.txt")).unwrap();
    let (code, out, err) = d.run(&["-o", "dangling.txt", "ok.txt"]);
    assert_eq!(code, 2);
    assert_eq!(out, "http://ok.example/\n");
    assert_eq!(err, "uriscan: dangling.txt: no such file or directory\n");
    if is_root() {
        eprintln!("skipping the chmod 000 case: running as root");
        return;
    }
    let p = d.create("secret.txt", "http://secret.example/\n");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000))
        .unwrap();
    let (code, out, err) = d.run(&["-o", "--sort=path", "."]);
    assert_eq!(code, 2);
    assert_eq!(out, "http://ok.example/\n");
    assert_eq!(err, "uriscan: ./secret.txt: permission denied\n");
}

/// A FIFO named as a path is read as it is written (streamed, like
/// standard input), URIs after the first block and after the size above
/// which files are streamed included.
#[cfg(unix)]
#[test]
fn a_fifo_named_as_a_path_is_scanned() {
    use std::io::Write;
    let d = Dir::new();
    let fifo = d.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    let writer = std::thread::spawn(move || {
        // Opening blocks until uriscan opens the FIFO to read.
        let mut w = std::fs::File::create(fifo).unwrap();
        w.write_all(b"see http://fifo.example/first\n").unwrap();
        for _ in 0..3 * 1024 {
            w.write_all(&[b'x'; 1023]).unwrap();
            w.write_all(b"\n").unwrap();
        }
        w.write_all(b"and <http://fifo.example/\n  last>\n").unwrap();
    });
    let (code, out, err) = d.run(&["-o", "pipe"]);
    writer.join().unwrap();
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, "http://fifo.example/first\nhttp://fifo.example/last\n");
}

#[test]
fn binary_files_are_skipped() {
    let d = Dir::new();
    d.create("text.txt", "http://text.example/\n");
    d.create_bytes("bin.dat", b"\x00\x01http://bin.example/\n");
    assert_eq!(d.lines(&["-o"]), ["http://text.example/"]);
    // Even when named explicitly.
    assert_eq!(d.run(&["-o", "bin.dat"]).0, 1);
    assert_eq!(
        d.lines(&["-o", "-a"]),
        ["http://bin.example/", "http://text.example/"]
    );
    assert_eq!(d.lines(&["-o", "--text", "bin.dat"]), ["http://bin.example/"]);
}

#[test]
fn search_zip_reads_gzip() {
    use std::io::Write;
    let d = Dir::new();
    let mut gz =
        flate2::write::GzEncoder::new(vec![], flate2::Compression::default());
    gz.write_all(b"line one\nhttp://gz.example/inside\n").unwrap();
    d.create_bytes("log.gz", &gz.finish().unwrap());
    // Without -z a gzip file is binary.
    assert_eq!(d.run(&["-o"]).0, 1);
    assert_eq!(d.lines(&["-z"]), ["log.gz:2:1:http://gz.example/inside"]);
    assert_eq!(
        d.lines(&["--search-zip", "-o", "log.gz"]),
        ["http://gz.example/inside"]
    );
    // A corrupt .gz is an error about that file.
    d.create("bad.gz", "not gzip at all");
    let (code, _, err) = d.run(&["-z", "-o", "bad.gz"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("uriscan: bad.gz: "), "{err}");
}

// ---- Standard input ----

#[test]
fn stdin_when_no_path_and_dash() {
    let d = Dir::new();
    d.create("a.txt", "http://file.example/\n");
    let out = d.with_stdin(&["-o"], "from stdin http://stdin.example/\n");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"http://stdin.example/\n");
    let out = d.with_stdin(&["-", "a.txt"], "x http://stdin.example/\n");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "<stdin>:1:3:http://stdin.example/\na.txt:1:1:http://file.example/\n"
    );
    // Empty standard input: nothing found.
    let out = d.with_stdin(&[], "");
    assert_eq!(out.status.code(), Some(1));
}

/// A stream's output is written in pieces as it is found (so memory
/// stays bounded); across the pieces no line is lost, doubled or split.
#[test]
fn long_stdin_output_is_whole_across_pieces() {
    let d = Dir::new();
    let text: String = (0..20_000)
        .map(|i| format!("line {i} see http://h{i}.example/p?q={i}.\n"))
        .collect();
    let out = d.with_stdin(&["-o"], &text);
    assert_eq!(out.status.code(), Some(0));
    let want: String = (0..20_000)
        .map(|i| format!("http://h{i}.example/p?q={i}\n"))
        .collect();
    assert!(want.len() > 4 * 64 * 1024, "the output must spill");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want);
    let out = d.with_stdin(&["--json"], &text);
    let rows = String::from_utf8(out.stdout).unwrap();
    for (i, row) in rows.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(row).unwrap();
        assert_eq!(v["line"], i + 1);
    }
    assert_eq!(rows.lines().count(), 20_000);
}

#[test]
fn invalid_utf8_input_does_not_break_anything() {
    let d = Dir::new();
    d.create_bytes("a.txt", b"\xff\xfe http://ok.example/ \xc3\x28 more\n");
    assert_eq!(d.lines(&["-o"]), ["http://ok.example/"]);
}

// ---- Process behaviour ----

#[cfg(unix)]
#[test]
fn broken_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let d = Dir::new();
    let body: String =
        (0..2_000).map(|i| format!("http://example.com/{i}\n")).collect();
    // Far more than a pipe buffer holds, so the writer meets the close.
    for i in 0..40 {
        d.create(format!("{i}.txt"), &body);
    }
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("uriscan"))
        .current_dir(d.path())
        .arg("-o")
        .arg(".")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    // Ended by itself, not by a signal or a panic.
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn help_and_version() {
    let d = Dir::new();
    let (code, out, _) = d.run(&["--help"]);
    assert_eq!(code, 0);
    for needle in
        ["--only-uri", "--passwords", "./parse", "Exit status", "-g, --glob"]
    {
        assert!(out.contains(needle), "--help lacks {needle}:\n{out}");
    }
    let (code, short, _) = d.run(&["-h"]);
    assert_eq!(code, 0);
    assert!(short.len() < out.len());
    let (code, out, _) = d.run(&["--version"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("uriscan "));
}

#[test]
fn generate_completions_and_man_page() {
    let d = Dir::new();
    for (kind, needle) in [
        ("complete-bash", "_uriscan()"),
        ("complete-zsh", "#compdef uriscan"),
        ("complete-fish", "complete -c uriscan"),
        ("complete-powershell", "Register-ArgumentCompleter"),
        ("man", ".TH uriscan"),
    ] {
        let (code, out, _) = d.run(&["--generate", kind]);
        assert_eq!(code, 0, "{kind}");
        assert!(out.contains(needle), "{kind}: {out}");
        assert!(out.replace('\\', "").contains("max-filesize"), "{kind}");
    }
}

#[test]
fn subcommands_and_a_file_named_like_one() {
    let d = Dir::new();
    d.create("parse", "http://in-a-file.example/\n");
    let (code, out, _) = d.run(&["parse", "http://h:8/p"]);
    assert_eq!(code, 0);
    let row: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(row["port"], "8");
    assert_eq!(d.lines(&["-o", "./parse"]), ["http://in-a-file.example/"]);
}
