//! `check` on templates: a link that still holds template syntax
//! (`{{ … }}`, `{% … %}`) is made when the template is rendered, so it is
//! skipped with the reason `template`, never broken, and never fetched.

use crate::support::Dir;

fn tree() -> Dir {
    let dir = Dir::new();
    dir.create(
        "theme/base.html",
        "<a href=\"{{ site.baseurl }}/a.html\">a</a>\n\
         <a href=\"{% link _posts/b.md %}\">b</a>\n\
         <img src=\"http://127.0.0.1:9/{{ page.image }}\">\n\
         <a href=\"gone.html\">gone</a>\n",
    );
    dir.create("a.md", "[x]({{site.url}}/gone.md) [y](gone.md)\n");
    dir
}

#[test]
fn template_links_are_skipped_not_broken() {
    let (code, out, err) = tree().run(&["check", "--no-progress"]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "./a.md:1:31: broken link 'gone.md': no such file or directory\n\
         ./theme/base.html:4:10: broken link 'gone.html': no such file or directory\n"
    );
    assert!(
        err.contains("2 broken, 4 skipped (template), 0 excluded"),
        "{err}"
    );
}

#[test]
fn template_links_say_why_in_json() {
    let (_, out, _) = tree().run(&["check", "--json", "--no-progress"]);
    let rows: Vec<serde_json::Value> =
        out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let templates: Vec<_> =
        rows.iter().filter(|r| r["reason"] == "template").collect();
    assert_eq!(templates.len(), 4, "{out}");
    assert!(templates.iter().all(|r| r["status"] == "skipped"));
}

#[cfg(feature = "remote")]
#[test]
fn template_links_are_not_fetched() {
    let (_, out, err) = tree().run(&[
        "check",
        "--no-progress",
        "--remote",
        "--allow-private",
        "--timeout",
        "1s",
        "--retries",
        "0",
    ]);
    assert!(err.contains("0 remote checked (0 URIs"), "{err}");
    assert!(!out.contains("127.0.0.1"), "{out}");
}

/// The summary counts each reason a link is skipped for apart, by its
/// own name: a role with a domain is no template.
#[test]
fn each_skipped_group_has_its_reason_in_the_summary() {
    let dir = tree();
    dir.create("conf.py", "project = 'x'\n");
    dir.create(
        "index.rst",
        ":py:class:`x.Y` :func:`f`\n\n.. toctree::\n   :glob:\n\n   parts/*\n",
    );
    let (_, _, err) = dir.run(&["check", "--no-progress"]);
    assert!(
        err.contains(
            "2 broken, \
             2 skipped (a role with a domain or an intersphinx reference is not resolved offline), \
             1 skipped (a toctree glob pattern is not checked), \
             4 skipped (template), 0 excluded"
        ),
        "{err}"
    );
}
