//! The report forms written whole at the end, for CI: Markdown (pull
//! request comments, `$GITHUB_STEP_SUMMARY`) and JUnit XML (GitLab test
//! reports, Jenkins), snapshotted on the tree of `snapshots`, the JUnit
//! one also read back against the structure of the JUnit schema.

use std::collections::BTreeMap;

use crate::snapshots::{run, tree};
use crate::support::Dir;

#[test]
fn check_markdown() {
    insta::assert_snapshot!(run(
        &tree(),
        &["check", "--format", "markdown", "--no-progress"]
    ));
}

#[test]
fn check_junit() {
    insta::assert_snapshot!(run(
        &tree(),
        &["check", "--format", "junit", "--no-progress"]
    ));
}

#[test]
fn markdown_escapes_links_and_says_when_nothing_is_broken() {
    let dir = Dir::new();
    dir.create("a.md", "[x](b|c*_d_[e]<f>`g`.md)\n");
    let (code, out, _) =
        dir.run(&["check", "--format", "markdown", "--no-progress"]);
    assert_eq!(code, 1);
    assert!(out.contains(r"| b\|c\*\_d\_\[e\]\<f\>\`g\`.md |"), "{out}");
    assert!(!out.contains('\x1b'), "no colour: {out}");
    dir.create("a.md", "fine\n");
    let (code, out, _) =
        dir.run(&["check", "--format", "markdown", "--no-progress"]);
    assert_eq!(code, 0);
    assert!(out.contains("No broken links."), "{out}");
    assert!(out.contains("1 file, 0 links"), "{out}");
}

#[test]
fn junit_follows_the_schema_and_escapes() {
    let dir = tree();
    dir.create("odd.md", "[q](\"a&b'<c>\".md)\n");
    let (code, out, _) =
        dir.run(&["check", "--format", "junit", "--no-progress"]);
    assert_eq!(code, 1);
    let root = xml::parse(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    validate_junit(&root);
    let suite = &root.children[0];
    // One test case per document: README.md, guide.md, page.html, odd.md.
    assert_eq!(suite.attr("tests"), "4");
    assert_eq!(suite.attr("failures"), "3");
    let odd = suite
        .children
        .iter()
        .find(|c| c.name == "testcase" && c.attr("name") == "odd.md")
        .expect("odd.md's test case");
    assert_eq!(
        odd.children[0].attr("message"),
        "broken link '\"a&b'<c>\".md': no such file or directory"
    );
    let failures: usize = suite
        .children
        .iter()
        .map(|c| c.children.iter().filter(|f| f.name == "failure").count())
        .sum();
    assert_eq!(failures, 5, "one failure per broken link");
}

/// The essential structure of the JUnit XSD that GitLab documents (the
/// Jenkins `junit-10.xsd`): `testsuites` > `testsuite[name, tests,
/// failures]` > `testcase[name, classname]` > `failure[message]`, with
/// counts that are numbers and agree with the elements.
fn validate_junit(root: &xml::Element) {
    assert_eq!(root.name, "testsuites");
    for suite in &root.children {
        assert_eq!(suite.name, "testsuite");
        for a in ["name", "tests", "failures"] {
            assert!(suite.attrs.contains_key(a), "testsuite lacks {a}");
        }
        let tests: usize = suite.attr("tests").parse().expect("tests");
        let failures: usize =
            suite.attr("failures").parse().expect("failures");
        let cases: Vec<_> =
            suite.children.iter().filter(|c| c.name == "testcase").collect();
        assert_eq!(cases.len(), tests);
        let mut failed = 0;
        for case in &suite.children {
            match case.name.as_str() {
                "testcase" => {}
                "system-out" | "system-err" | "properties" => continue,
                other => panic!("unexpected <{other}> in a testsuite"),
            }
            assert!(case.attrs.contains_key("name"));
            assert!(case.attrs.contains_key("classname"));
            for f in &case.children {
                assert!(
                    matches!(f.name.as_str(), "failure" | "error" | "skipped"),
                    "unexpected <{}> in a testcase",
                    f.name
                );
                assert!(f.attrs.contains_key("message"));
            }
            failed += usize::from(!case.children.is_empty());
        }
        assert_eq!(failed, failures);
    }
}

/// A small XML reader: elements, attributes, text and the predefined and
/// numeric entities; enough to hold the report to well-formedness.
mod xml {
    use super::BTreeMap;

    /// An element with its attributes and child elements.
    #[derive(Debug)]
    pub struct Element {
        pub name: String,
        pub attrs: BTreeMap<String, String>,
        pub children: Vec<Element>,
    }

    impl Element {
        pub fn attr(&self, name: &str) -> &str {
            self.attrs.get(name).map(String::as_str).unwrap_or("")
        }
    }

    /// Parses a document with one root element.
    pub fn parse(text: &str) -> Result<Element, String> {
        let mut rest = text.trim_start();
        if let Some(decl) = rest.strip_prefix("<?xml") {
            let end = decl.find("?>").ok_or("unended declaration")?;
            rest = decl[end + 2..].trim_start();
        }
        let (root, rest) = element(rest)?;
        if !rest.trim().is_empty() {
            return Err(format!("text after the root: {rest:?}"));
        }
        Ok(root)
    }

    fn element(text: &str) -> Result<(Element, &str), String> {
        let text = text.strip_prefix('<').ok_or("expected '<'")?;
        let name_end = text
            .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .ok_or("unended tag")?;
        let name = text[..name_end].to_string();
        let mut rest = &text[name_end..];
        let mut attrs = BTreeMap::new();
        loop {
            rest = rest.trim_start();
            if let Some(r) = rest.strip_prefix("/>") {
                let e = Element { name, attrs, children: vec![] };
                return Ok((e, r));
            }
            if let Some(r) = rest.strip_prefix('>') {
                rest = r;
                break;
            }
            let eq = rest.find('=').ok_or("attribute without '='")?;
            let key = rest[..eq].trim().to_string();
            let r = rest[eq + 1..].trim_start();
            let r = r.strip_prefix('"').ok_or("unquoted attribute")?;
            let end = r.find('"').ok_or("unended attribute")?;
            let value = &r[..end];
            if value.contains('<') {
                return Err(format!("'<' in attribute {key}"));
            }
            if attrs.insert(key.clone(), unescape(value)?).is_some() {
                return Err(format!("attribute {key} twice"));
            }
            rest = &r[end + 1..];
        }
        let mut children = vec![];
        loop {
            let lt = rest.find('<').ok_or("unended element")?;
            unescape(&rest[..lt])?;
            rest = &rest[lt..];
            if let Some(r) = rest.strip_prefix("</") {
                let r =
                    r.strip_prefix(name.as_str()).ok_or("mismatched end")?;
                let r = r.trim_start().strip_prefix('>').ok_or("bad end")?;
                return Ok((Element { name, attrs, children }, r));
            }
            let (child, r) = element(rest)?;
            children.push(child);
            rest = r;
        }
    }

    fn unescape(text: &str) -> Result<String, String> {
        let mut out = String::new();
        let mut rest = text;
        while let Some(amp) = rest.find('&') {
            out.push_str(&rest[..amp]);
            let semi = rest[amp..].find(';').ok_or("unended entity")?;
            let entity = &rest[amp + 1..amp + semi];
            let c = match entity {
                "amp" => '&',
                "lt" => '<',
                "gt" => '>',
                "quot" => '"',
                "apos" => '\'',
                e if e.starts_with('#') => e[1..]
                    .parse::<u32>()
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or(format!("bad reference {e}"))?,
                e => return Err(format!("unknown entity {e}")),
            };
            out.push(c);
            rest = &rest[amp + semi + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }
}
