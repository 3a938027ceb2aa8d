//! The GitHub Action's check script (`scripts/action/check.sh`), run as
//! the runner runs it: in a git repository, with the `GITHUB_*` files and
//! the action's inputs in the environment.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{Dir, git, repo_root};

/// A repository whose second commit renames a heading that an unchanged
/// file links to; `b.md` also has a link broken from the start.
fn repository(repo: &Path) -> String {
    std::fs::create_dir_all(repo).unwrap();
    std::fs::write(repo.join("a.md"), "# A\n\n## Old\n").unwrap();
    std::fs::write(repo.join("b.md"), "[a](a.md#old) [x](gone.md)\n").unwrap();
    git(repo, &["init", "-q"]);
    git(repo, &["add", "."]);
    git(repo, &["commit", "-q", "-m", "one"]);
    let before = git(repo, &["rev-parse", "HEAD"]);
    std::fs::write(repo.join("a.md"), "# A\n\n## New\n").unwrap();
    git(repo, &["commit", "-q", "-a", "-m", "two"]);
    before
}

/// The script's exit code and standard output, and the summary and
/// output files it wrote.
fn run_action(
    dir: &Dir,
    inputs: &[(&str, &str)],
) -> (i32, String, String, String) {
    let script: PathBuf = repo_root().join("scripts/action/check.sh");
    let (summary, output) =
        (dir.path().join("summary.md"), dir.path().join("output"));
    let _ = std::fs::remove_file(&summary);
    let _ = std::fs::remove_file(&output);
    let out = Command::new("bash")
        .arg(script)
        .current_dir(dir.path().join("repo"))
        .env("URISCAN", assert_cmd::cargo::cargo_bin("uriscan"))
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("GITHUB_OUTPUT", &output)
        .env("HOME", dir.path())
        .env_remove("GITHUB_BASE_REF")
        .envs(inputs.iter().copied())
        .output()
        .expect("bash runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        std::fs::read_to_string(&summary).unwrap_or_default(),
        std::fs::read_to_string(&output).unwrap_or_default(),
    )
}

#[test]
fn annotations_summary_and_exit_code() {
    let dir = Dir::new();
    repository(&dir.path().join("repo"));
    let (code, out, summary, output) = run_action(
        &dir,
        &[
            ("INPUT_ARGS", ". --exclude 'no such link'"),
            ("INPUT_FAIL", "true"),
        ],
    );
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("::error file=")).count(),
        2,
        "{out}"
    );
    assert!(summary.starts_with("## uriscan check\n"), "{summary}");
    assert!(summary.contains("| 1:19 | gone.md |"), "{summary}");
    assert_eq!(output, "exit-code=1\n");
    // fail: false reports the same and passes the step.
    let (code, _, _, output) = run_action(&dir, &[("INPUT_FAIL", "false")]);
    assert_eq!(code, 0);
    assert_eq!(output, "exit-code=1\n");
}

#[test]
fn changed_only_reports_what_the_push_broke() {
    let dir = Dir::new();
    let before = repository(&dir.path().join("repo"));
    let (code, out, summary, _) = run_action(
        &dir,
        &[("INPUT_CHANGED_ONLY", "true"), ("UR_BEFORE", before.as_str())],
    );
    assert_eq!(code, 1, "{out}");
    // The renamed heading, not the link broken before the push.
    assert_eq!(
        out.trim(),
        "::error file=b.md,line=1,col=5::broken link 'a.md#old': no anchor '#old' in the target"
    );
    assert!(summary.contains("changed since"), "{summary}");
    // A first push (no before) checks the whole tree.
    let zeros = "0".repeat(40);
    let (code, out, _, _) = run_action(
        &dir,
        &[("INPUT_CHANGED_ONLY", "true"), ("UR_BEFORE", zeros.as_str())],
    );
    assert_eq!(code, 1);
    assert!(out.contains("no base commit found"), "{out}");
    assert!(out.contains("gone.md"), "{out}");
}
