//! `check` on Markdown reference definitions: a broken definition is
//! reported once, at the definition, with the lines of its uses; unused
//! and duplicate definitions are warnings, which pass the run unless
//! `--deny warnings`, in every report form. An AsciiDoc include of a tag
//! its file does not hold is a warning too.

use crate::snapshots::run;
use crate::support::Dir;

/// A README with a broken definition used twice, an unused one and a
/// duplicate one.
fn tree() -> Dir {
    let dir = Dir::new();
    dir.mkdir(".git");
    dir.create(
        "README.md",
        "# Defs\n\nSee [one][gone] and [two][gone], and [ok].\n\n\
         [gone]: missing.md\n[ok]: README.md\n[spare]: README.md\n\
         [OK]: elsewhere.md\n",
    );
    dir
}

#[test]
fn a_broken_definition_is_reported_once_with_its_uses() {
    let (code, out, err) =
        tree().run(&["check", "--no-progress", "--color", "never"]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(
        out,
        "./README.md:5:9: broken link 'missing.md': no such file or directory (used on lines 3, 3)\n\
         ./README.md:7:10: warning for 'README.md': unused definition\n\
         ./README.md:8:7: warning for 'elsewhere.md': duplicate of the definition at line 6\n"
    );
    assert!(err.contains("1 file, 4 links: 2 local checked, 1 broken, 2 warnings, 0 excluded"), "{err}");
}

#[test]
fn warnings_pass_the_run_unless_denied() {
    let dir = Dir::new();
    dir.create("a.md", "[x]\n\n[x]: a.md\n[X]: b.md\n[y]: a.md\n");
    let (code, out, _) = dir.run(&["check", "--no-progress"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.lines().count(), 2, "{out}");
    let (code, _, _) =
        dir.run(&["check", "--no-progress", "--deny", "warnings"]);
    assert_eq!(code, 1);
    // From the configuration file too; a bad value is named.
    dir.create("uriscan.toml", "deny = [\"warnings\"]\n");
    let (code, _, _) = dir.run(&["check", "--no-progress"]);
    assert_eq!(code, 1);
    dir.create("uriscan.toml", "deny = [\"errors\"]\n");
    let (code, _, err) = dir.run(&["check", "--no-progress"]);
    assert_eq!(code, 2);
    assert!(err.contains("deny = \"errors\""), "{err}");
    // A used definition that holds is no warning, nor is the comment
    // idiom, however often it stands.
    dir.create("uriscan.toml", "");
    dir.create(
        "a.md",
        "[//]: # (a comment)\n\n[x]\n\n[x]: a.md\n\n[//]: # (another)\n[//]: <> (one more)\n",
    );
    let (code, out, _) =
        dir.run(&["check", "--no-progress", "--deny", "warnings"]);
    assert_eq!((code, out.as_str()), (0, ""));
}

#[test]
fn json_has_the_status_and_the_uses() {
    let dir = tree();
    let (code, out, _) = dir.run(&["check", "--json", "--no-progress"]);
    assert_eq!(code, 1);
    let rows: Vec<serde_json::Value> =
        out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // The uses are not rows of their own: the definitions are.
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(rows.iter().all(|r| r["kind"] == "md:definition"));
    assert_eq!(rows[0]["status"], "broken");
    assert_eq!(rows[0]["uses"], serde_json::json!([3, 3]));
    assert_eq!(rows[1]["status"], "ok");
    assert_eq!(rows[1]["uses"], serde_json::json!([3]));
    assert_eq!(rows[2]["status"], "warning");
    assert_eq!(rows[2]["reason"], "unused definition");
    assert_eq!(rows[3]["status"], "warning");
    assert_eq!(rows[3]["reason"], "duplicate of the definition at line 6");
    let (_, broken, _) =
        dir.run(&["check", "--json", "--errors-only", "--no-progress"]);
    assert_eq!(broken.lines().count(), 1, "{broken}");
    // Denied, the warnings are errors.
    let (_, denied, _) = dir.run(&[
        "check",
        "--json",
        "--errors-only",
        "--deny",
        "warnings",
        "--no-progress",
    ]);
    assert_eq!(denied.lines().count(), 3, "{denied}");
}

#[test]
fn links_lists_the_duplicate_definitions() {
    let (code, out, _) = tree().run(&["links", "README.md"]);
    assert_eq!(code, 0);
    assert!(out.contains("README.md:8:7:elsewhere.md\n"), "{out}");
}

/// Each report form with a broken definition and two warnings.
#[test]
fn warnings_in_each_report_form() {
    let dir = tree();
    for form in ["github", "sarif", "markdown", "junit"] {
        let out = run(&dir, &["check", "--format", form, "--no-progress"]);
        insta::assert_snapshot!(format!("warnings_in_{form}"), out);
    }
}

#[test]
fn denied_warnings_in_junit_and_github_fail() {
    let dir = tree();
    let (_, out, _) = dir.run(&[
        "check",
        "--format",
        "junit",
        "--no-progress",
        "--deny",
        "warnings",
    ]);
    assert_eq!(out.matches("<failure ").count(), 3, "{out}");
    assert!(out.contains(r#"type="warning""#), "{out}");
    let (_, out, _) = dir.run(&[
        "check",
        "--format",
        "github",
        "--no-progress",
        "--deny",
        "warnings",
    ]);
    assert_eq!(out.matches("::error ").count(), 3, "{out}");
}

/// An AsciiDoc include of a tag its file does not hold is a warning at
/// the include's line, in Asciidoctor's words; a nested include's is its
/// own file's, reported once, where that file (a fragment) is included.
#[test]
fn an_include_of_a_missing_tag_is_a_warning() {
    let dir = Dir::new();
    dir.create(
        "index.adoc",
        "= Doc\n\ninclude::part.txt[tag=t]\n\ninclude::part.txt[tags=u;v;w]\n\n\
         include::part.txt[tag=u]\n\ninclude::nested.adoc[]\n",
    );
    dir.create("part.txt", "// tag::u[]\nU\n// end::u[]\n");
    dir.create("nested.adoc", "include::part.txt[tag=z]\n");
    let (code, out, err) = dir.run(&["check", "--no-progress"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out,
        "./index.adoc:3:10: warning for 'part.txt': tag 't' not found in include file\n\
         ./index.adoc:5:10: warning for 'part.txt': tags 'v, w' not found in include file\n\
         ./nested.adoc:1:10: warning for 'part.txt': tag 'z' not found in include file (included by ./index.adoc)\n"
    );
    assert!(err.contains("3 warnings"), "{err}");
    let (code, _, _) =
        dir.run(&["check", "--no-progress", "--deny", "warnings"]);
    assert_eq!(code, 1);
}
