//! The command-line examples of README.md and of every `docs/*.md`, run:
//! each block marked `<!-- readme-test -->` is a `console` block of
//! `$ uriscan ARGS` lines, each followed by the exact standard output the
//! command gives when run in `tests/data/readme/`. An example that the
//! program cannot produce fails here. (The Rust examples of
//! `docs/library.md` are doc tests.)

use std::path::Path;

use assert_cmd::Command;

use crate::support::{repo_root, test_data};

const MARK: &str = "<!-- readme-test -->";

/// One `$ uriscan ...` line of a marked block and the output shown under
/// it.
struct Example {
    file: String,
    line: usize,
    args: Vec<String>,
    expected: String,
}

/// Splits a command line on spaces, keeping single-quoted words whole
/// (what the README's commands need, and no more).
fn split_words(cmd: &str) -> Vec<String> {
    let mut words = vec![];
    let mut word = String::new();
    let (mut quoted, mut in_word) = (false, false);
    for c in cmd.chars() {
        match c {
            '\'' => (quoted, in_word) = (!quoted, true),
            ' ' if !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                }
                in_word = false;
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    assert!(!quoted, "unclosed quote in `{cmd}`");
    if in_word {
        words.push(word);
    }
    words
}

/// The examples of every marked block of `readme`, the text of the file
/// named `name`.
fn examples(name: &str, readme: &str) -> Vec<Example> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut out = vec![];
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != MARK {
            i += 1;
            continue;
        }
        assert_eq!(
            lines.get(i + 1).copied(),
            Some("```console"),
            "{name}:{}: {MARK} must be followed by a ```console block",
            i + 1
        );
        i += 2;
        while i < lines.len() && lines[i] != "```" {
            let cmd = lines[i].strip_prefix("$ ").unwrap_or_else(|| {
                panic!("{name}:{}: expected `$ uriscan ...`", i + 1)
            });
            let mut args = split_words(cmd);
            assert_eq!(
                args.first().map(String::as_str),
                Some("uriscan"),
                "{name}:{}: only uriscan is run",
                i + 1
            );
            args.remove(0);
            let line = i + 1;
            let mut expected = String::new();
            i += 1;
            while i < lines.len()
                && lines[i] != "```"
                && !lines[i].starts_with("$ ")
            {
                expected.push_str(lines[i]);
                expected.push('\n');
                i += 1;
            }
            out.push(Example { file: name.to_string(), line, args, expected });
        }
        assert!(i < lines.len(), "{name}: unclosed marked block");
    }
    out
}

/// README.md and the guides of `docs/`, as (name, text), named as from
/// the repository's root.
fn documents(repo: &Path) -> Vec<(String, String)> {
    let mut names = vec!["README.md".to_string()];
    let mut guides: Vec<String> = std::fs::read_dir(repo.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    guides.sort();
    names.extend(guides);
    names
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(repo.join(&name)).unwrap();
            (name, text)
        })
        .collect()
}

#[test]
fn readme_command_examples_are_real_output() {
    let documents = documents(repo_root());
    let examples: Vec<Example> = documents
        .iter()
        .flat_map(|(name, text)| examples(name, text))
        .collect();
    assert!(
        examples.iter().filter(|ex| ex.file == "README.md").count() >= 3,
        "no marked examples found in README.md"
    );
    for ex in examples {
        let out = Command::cargo_bin("uriscan")
            .unwrap()
            .current_dir(test_data("readme"))
            .env_remove("NO_COLOR")
            .args(&ex.args)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            ex.expected,
            "{}:{}: `uriscan {}` prints otherwise (stderr: {})",
            ex.file,
            ex.line,
            ex.args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn split_words_keeps_quoted_words() {
    assert_eq!(
        split_words("uriscan resolve --base 'http://a/b;p?q' '?y'  //g"),
        ["uriscan", "resolve", "--base", "http://a/b;p?q", "?y", "//g"]
    );
    assert_eq!(split_words("a '' b"), ["a", "", "b"]);
}
