//! Hugo's `ref` and `relref` shortcodes and Jekyll's Liquid links, read
//! by hand from a Markdown text run:
//!
//! - `{{< ref "path#anchor" >}}`, `{{% relref path %}}`, `{{< ref
//!   path="x" >}}`; a commented-out shortcode (`{{</* ref "x" */>}}`) is
//!   text, as Hugo shows it;
//! - `{% link path %}`, `{% post_url 2020-01-02-name %}`, with Liquid's
//!   `-` whitespace control;
//! - `{{ site.baseurl }}/path` (after `{{ site.url }}` too), and a quoted
//!   path through `relative_url` or `absolute_url`.
//!
//! An argument that is itself a Liquid variable (`{% link {{ page.x }}
//! %}`) names no path: no link.

use super::{GeneratorKind, push};
use crate::Span;
use crate::links::RawLink;

/// Reads the constructs in `run` of `bytes`.
pub(super) fn read(bytes: &[u8], run: Span, out: &mut Vec<RawLink>) {
    let mut at = run.start;
    while let Some(off) = memchr::memchr(b'{', &bytes[at..run.end]) {
        let start = at + off;
        match construct(bytes, start, run.end) {
            Some((kind, end, link)) => {
                push(out, bytes, kind, Span::new(start, end), &link);
                at = end;
            }
            None => at = start + 1,
        }
    }
}

/// The path of a Jekyll URL expression that is a whole link as written
/// (`{{site.baseurl}}/about/#x`, `{{ '/a/' | relative_url }}`): what a
/// Markdown link's destination holds when it has no space.
#[cfg(any(feature = "check", test))]
pub(crate) fn jekyll_url_expression(link: &str) -> Option<String> {
    let bytes = link.as_bytes();
    match construct(bytes, 0, bytes.len())? {
        (GeneratorKind::JekyllUrl, end, path) if end == bytes.len() => {
            Some(path)
        }
        _ => None,
    }
}

/// The construct starting at the `{` at `start`, ending before `end`: its
/// kind, where it ends, and the path it names.
fn construct(
    bytes: &[u8],
    start: usize,
    end: usize,
) -> Option<(GeneratorKind, usize, String)> {
    let mut c = Cursor { bytes, at: start + 1, end };
    if c.eat(b"{<") {
        return hugo(c, b">}}");
    }
    if c.eat(b"{%") {
        return hugo(c, b"%}}");
    }
    if c.eat(b"{") {
        return liquid_output(c);
    }
    if c.eat(b"%") {
        return liquid_tag(c);
    }
    None
}

/// `{{< NAME ARG ... >}}` after its opening, closed by `close`.
fn hugo(
    mut c: Cursor<'_>,
    close: &[u8],
) -> Option<(GeneratorKind, usize, String)> {
    c.skip_space();
    let kind = match c.word() {
        "ref" => GeneratorKind::HugoRef,
        "relref" => GeneratorKind::HugoRelref,
        _ => return None,
    };
    if !c.skip_space() {
        return None;
    }
    // `path="x"`, or the first argument, quoted or bare.
    let first = c.clone();
    let path = if c.word() == "path" && {
        c.skip_space();
        c.eat(b"=")
    } {
        c.skip_space();
        c.quoted(b"\"`")?
    } else {
        c = first;
        c.quoted(b"\"`").or_else(|| c.bare(close))?
    };
    // The other arguments (`lang`, `outputFormat`) change no path.
    let rest = &c.bytes[c.at..c.end];
    let closing = memchr::memmem::find(rest, close)?;
    let between = &rest[..closing];
    if memchr::memmem::find(between, b"{{").is_some()
        || memchr::memmem::find(between, b"}}").is_some()
    {
        return None;
    }
    named_path(kind, c.at + closing + close.len(), path)
}

/// `{{ ... }}` after its opening: a Jekyll URL expression, else nothing.
fn liquid_output(mut c: Cursor<'_>) -> Option<(GeneratorKind, usize, String)> {
    c.eat(b"-");
    c.skip_space();
    if let Some(path) = c.quoted(b"\"'") {
        c.skip_space();
        if !c.eat(b"|") {
            return None;
        }
        c.skip_space();
        if !matches!(c.word(), "relative_url" | "absolute_url") {
            return None;
        }
        c.close_output()?;
        return named_path(GeneratorKind::JekyllUrl, c.at, path);
    }
    let mut name = c.word();
    if name == "site.url" {
        // `{{ site.url }}{{ site.baseurl }}/path`: the site's own URL.
        c.close_output()?;
        if !c.eat(b"{{") {
            return None;
        }
        c.eat(b"-");
        c.skip_space();
        name = c.word();
    }
    if name != "site.baseurl" {
        return None;
    }
    c.close_output()?;
    let from = c.at;
    while c.at < c.end
        && !matches!(
            c.bytes[c.at],
            b' ' | b'\t'
                | b'\n'
                | b'\r'
                | b')'
                | b'('
                | b'"'
                | b'\''
                | b'<'
                | b'>'
                | b'['
                | b']'
                | b'`'
                | b'{'
                | b'}'
                | b'|'
        )
    {
        c.at += 1;
    }
    let path = String::from_utf8_lossy(&c.bytes[from..c.at]);
    let path = if path.is_empty() { "/".into() } else { path.into_owned() };
    Some((GeneratorKind::JekyllUrl, c.at, path))
}

/// `{% NAME ARG %}` after its opening: `link` and `post_url`.
fn liquid_tag(mut c: Cursor<'_>) -> Option<(GeneratorKind, usize, String)> {
    c.eat(b"-");
    c.skip_space();
    let kind = match c.word() {
        "link" => GeneratorKind::JekyllLink,
        "post_url" => GeneratorKind::JekyllPostUrl,
        _ => return None,
    };
    if !c.skip_space() {
        return None;
    }
    let path = c.bare(b"%}")?;
    c.skip_space();
    c.eat(b"-");
    if !c.eat(b"%}") {
        return None;
    }
    named_path(kind, c.at, path)
}

/// The construct, unless its path is empty or a Liquid variable.
fn named_path(
    kind: GeneratorKind,
    end: usize,
    path: String,
) -> Option<(GeneratorKind, usize, String)> {
    (!path.is_empty() && !path.contains("{{")).then_some((kind, end, path))
}

/// A position in a text run.
#[derive(Clone)]
struct Cursor<'b> {
    bytes: &'b [u8],
    at: usize,
    end: usize,
}

impl<'b> Cursor<'b> {
    /// Steps over `lit` when it comes next.
    fn eat(&mut self, lit: &[u8]) -> bool {
        let ok = self.bytes[self.at..self.end].starts_with(lit);
        if ok {
            self.at += lit.len();
        }
        ok
    }
    /// Steps over whitespace: whether there was any.
    fn skip_space(&mut self) -> bool {
        let from = self.at;
        while self.at < self.end && self.bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
        self.at > from
    }
    /// A name: letters, digits, `_`, `.`.
    fn word(&mut self) -> &'b str {
        let from = self.at;
        while self.at < self.end
            && (self.bytes[self.at].is_ascii_alphanumeric()
                || matches!(self.bytes[self.at], b'_' | b'.'))
        {
            self.at += 1;
        }
        // ASCII only: always a `str`.
        std::str::from_utf8(&self.bytes[from..self.at]).unwrap_or("")
    }
    /// A string in one of the `quotes`, on one line, without them.
    fn quoted(&mut self, quotes: &[u8]) -> Option<String> {
        let q = *self.bytes.get(self.at).filter(|_| self.at < self.end)?;
        if !quotes.contains(&q) {
            return None;
        }
        let from = self.at + 1;
        let len = self.bytes[from..self.end]
            .iter()
            .position(|&b| b == q || b == b'\n')?;
        if self.bytes[from + len] != q {
            return None;
        }
        self.at = from + len + 1;
        Some(String::from_utf8_lossy(&self.bytes[from..from + len]).into())
    }
    /// An unquoted argument: up to whitespace or `close`.
    fn bare(&mut self, close: &[u8]) -> Option<String> {
        let from = self.at;
        // A quote left open is no argument.
        if matches!(self.bytes.get(from), Some(b'"' | b'\'' | b'`')) {
            return None;
        }
        while self.at < self.end
            && !self.bytes[self.at].is_ascii_whitespace()
            && !self.bytes[self.at..self.end].starts_with(close)
        {
            self.at += 1;
        }
        (self.at > from).then(|| {
            String::from_utf8_lossy(&self.bytes[from..self.at]).into()
        })
    }
    /// The end of a Liquid output, `}}` or `-}}`, after spaces.
    fn close_output(&mut self) -> Option<()> {
        self.skip_space();
        self.eat(b"-");
        self.eat(b"}}").then_some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::links::Kind;

    /// Each construct found in a text run: its kind, its raw text and
    /// the path it names.
    fn found(text: &str) -> Vec<(String, String, String)> {
        let mut out = vec![];
        read(text.as_bytes(), Span::new(0, text.len()), &mut out);
        out.iter()
            .map(|r| {
                let Kind::Generator(k) = r.kind else { panic!() };
                let raw = text[r.span().range()].to_string();
                let link = r.link().map_or(raw.clone(), str::to_string);
                (k.as_str().to_string(), raw, link)
            })
            .collect()
    }

    fn one(text: &str) -> (String, String) {
        let f = found(text);
        assert_eq!(f.len(), 1, "{text}: {f:?}");
        (f[0].0.clone(), f[0].2.clone())
    }

    #[test]
    fn hugo_shortcodes() {
        let o = |k: &str, l: &str| (k.to_string(), l.to_string());
        assert_eq!(
            one(r#"{{< ref "a/b.md#x" >}}"#),
            o("hugo:ref", "a/b.md#x")
        );
        assert_eq!(one(r#"{{% relref "b" %}}"#), o("hugo:relref", "b"));
        assert_eq!(one("{{<relref b.md>}}"), o("hugo:relref", "b.md"));
        assert_eq!(one("{{< ref `b.md` >}}"), o("hugo:ref", "b.md"));
        assert_eq!(
            one(r#"{{< ref path="b.md" lang="fr" >}}"#),
            o("hugo:ref", "b.md")
        );
        let f =
            found(r#"See [a]({{< ref "a.md" >}}) and {{< relref "/b" >}}."#);
        assert_eq!(f[0].1, r#"{{< ref "a.md" >}}"#);
        assert_eq!(f[1].2, "/b");
        for none in [
            r#"{{</* ref "a.md" */>}}"#,
            r#"{{< figure src="a.png" >}}"#,
            r#"{{% ref "a.md" >}}"#,
            r#"{{< ref "a.md" "#,
            r#"{{< ref "" >}}"#,
            r#"{{< ref "a.md >}}"#,
            "{{< ref {{ .x }} >}}",
            "{{< reference x >}}",
            "{{<",
            "{",
        ] {
            assert_eq!(found(none), [], "{none}");
        }
    }

    #[test]
    fn jekyll_tags_and_urls() {
        let o = |k: &str, l: &str| (k.to_string(), l.to_string());
        assert_eq!(one("{% link about.md %}"), o("jekyll:link", "about.md"));
        assert_eq!(
            one("{%- link _posts/2020-01-02-a.md -%}"),
            o("jekyll:link", "_posts/2020-01-02-a.md")
        );
        assert_eq!(
            one("{% post_url 2020-01-02-hello %}"),
            o("jekyll:post_url", "2020-01-02-hello")
        );
        assert_eq!(
            one("[a]({{ site.baseurl }}/about/#x)"),
            o("jekyll:url", "/about/#x")
        );
        assert_eq!(
            one("{{ site.url }}{{ site.baseurl }}/a.png"),
            o("jekyll:url", "/a.png")
        );
        assert_eq!(
            one("{{ '/about/' | relative_url }}"),
            o("jekyll:url", "/about/")
        );
        assert_eq!(
            one(r#"{{- "a.css" | absolute_url -}}"#),
            o("jekyll:url", "a.css")
        );
        assert_eq!(one("{{site.baseurl}}"), o("jekyll:url", "/"));
        let f = found("{{ site.baseurl }}/a/ and {% link b.md %}");
        assert_eq!(f[0].1, "{{ site.baseurl }}/a/");
        assert_eq!(f[1].1, "{% link b.md %}");
        for none in [
            "{% link {{ page.x }} %}",
            "{% include x.html %}",
            "{% link %}",
            "{% link a.md",
            "{{ site.url }}/a/",
            "{{ page.url | relative_url }}",
            "{{ '/a/' | upcase }}",
            "{{ site.baseurl",
        ] {
            assert_eq!(found(none), [], "{none}");
        }
    }

    #[test]
    fn whole_links_as_jekyll_urls() {
        assert_eq!(
            jekyll_url_expression("{{site.baseurl}}/about/#x").as_deref(),
            Some("/about/#x")
        );
        assert_eq!(
            jekyll_url_expression("{{ '/a/' | relative_url }}").as_deref(),
            Some("/a/")
        );
        assert_eq!(jekyll_url_expression("{{site.baseurl}}/a/{{x}}"), None);
        assert_eq!(jekyll_url_expression("{% link a.md %}"), None);
        assert_eq!(jekyll_url_expression("x{{site.baseurl}}"), None);
    }
}
