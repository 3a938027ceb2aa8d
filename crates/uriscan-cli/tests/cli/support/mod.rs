//! Helpers for the command line tests: a temporary directory to build
//! trees in, and a command that runs the binary inside it; the library's
//! test server and RFC 3986 tables, shared with its tests.

#![allow(dead_code)]

#[cfg(feature = "remote")]
#[path = "../../../../uriscan/tests/lib/support/http.rs"]
pub mod http;
#[path = "../../../../uriscan/tests/lib/support/refs.rs"]
pub mod refs;
pub mod tree;

use std::path::{Path, PathBuf};

use std::process::{Command, Output, Stdio};

/// The repository's root. It is also the command line's package root
/// (`CARGO_MANIFEST_DIR`): the root Cargo.toml is its manifest.
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `crates/uriscan-cli/tests/data/NAME`, the command line's test data.
/// Tests find their files here, never from `CARGO_MANIFEST_DIR` alone.
pub fn test_data(name: &str) -> PathBuf {
    repo_root().join("crates/uriscan-cli/tests/data").join(name)
}

/// A temporary directory, removed when dropped.
pub struct Dir {
    tmp: tempfile::TempDir,
}

impl Dir {
    pub fn new() -> Dir {
        Dir { tmp: tempfile::tempdir().unwrap() }
    }

    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// Writes a file, creating its parent directories.
    pub fn create<P: AsRef<Path>>(&self, name: P, contents: &str) -> PathBuf {
        self.create_bytes(name, contents.as_bytes())
    }

    pub fn create_bytes<P: AsRef<Path>>(
        &self,
        name: P,
        bytes: &[u8],
    ) -> PathBuf {
        let p = self.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, bytes).unwrap();
        p
    }

    pub fn mkdir<P: AsRef<Path>>(&self, name: P) {
        std::fs::create_dir_all(self.path().join(name)).unwrap();
    }

    /// `uriscan` with `args`, run in this directory with standard input
    /// from `/dev/null` (so that no path means `.`), a clean environment for colors and git, and no
    /// terminal.
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("uriscan"));
        cmd.current_dir(self.path())
            .stdin(Stdio::null())
            .env_remove("NO_COLOR")
            // Keep the user's global git excludes out of the tests.
            .env("HOME", self.path())
            .env("XDG_CONFIG_HOME", self.path().join(".no-config"))
            .args(args);
        cmd
    }

    /// `uriscan` with `args`, given `input` on standard input (a pipe).
    pub fn with_stdin(&self, args: &[&str], input: &str) -> Output {
        let mut cmd = assert_cmd::Command::from_std(self.cmd(args));
        cmd.write_stdin(input).output().unwrap()
    }

    /// Runs and returns (exit code, stdout, stderr).
    pub fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = self.cmd(args).output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// Runs, asserts exit code 0, and returns the sorted stdout lines.
    #[track_caller]
    pub fn lines(&self, args: &[&str]) -> Vec<String> {
        let (code, out, err) = self.run(args);
        assert_eq!(code, 0, "args {args:?}\nstdout:\n{out}\nstderr:\n{err}");
        let mut v: Vec<String> = out.lines().map(String::from).collect();
        v.sort();
        v
    }
}

/// Whether the tests run as root, which can read a `chmod 000` file.
pub fn is_root() -> bool {
    #[cfg(unix)]
    {
        // The owner of a file we just created is our effective user.
        use std::os::unix::fs::MetadataExt;
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("probe");
        std::fs::write(&p, "").unwrap();
        std::fs::metadata(&p).unwrap().uid() == 0
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// Runs git in `dir` without the user's or the system's configuration;
/// its trimmed standard output. Panics when git fails.
#[track_caller]
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir.join(".no-config"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(["-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"])
        .args(args)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}
