//! The link syntax that site generators add to Markdown, read from the
//! text the Markdown reader leaves (its text runs), never from code:
//!
//! - `template`: Hugo's `ref` and `relref` shortcodes, Jekyll's `link`
//!   and `post_url` tags, and Jekyll's URL expressions (`{{ site.baseurl
//!   }}/x`, `{{ '/x' | relative_url }}`). Each is a link whose `raw` is
//!   the whole construct and whose `link` the path it names. Only the
//!   site model of its generator knows where that path leads (the
//!   check's `site` module); elsewhere such a link is an unrendered
//!   template.
//! - `mdx`: an MDX document's ESM and expressions taken out of its
//!   Markdown, and its `<Link to>`, imports and `require`s as links.
//! - `includes`: MkDocs' include directives (`--8<-- "file"`, `{%
//!   include-markdown "file" %}`), anywhere in the document.
//!
//! Each is a link of a [`GeneratorKind`] of its own.

pub(crate) mod includes;
pub(crate) mod mdx;
mod template;

use super::{Kind, RawLink};
use crate::Span;

#[cfg(feature = "check")]
pub(crate) use template::jekyll_url_expression;

/// A site generator's own link syntax: which construct a link was
/// written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GeneratorKind {
    /// Hugo's `{{< ref "path" >}}` (or `{{% ref %}}`): `hugo:ref`.
    HugoRef,
    /// Hugo's `{{< relref "path" >}}` (or `{{% relref %}}`):
    /// `hugo:relref`.
    HugoRelref,
    /// A Hugo shortcode of the site's own that reads a file or a page
    /// by a parameter (`{{< include "path" >}}`): `hugo:include`.
    HugoInclude,
    /// Jekyll's `{% link path %}`: `jekyll:link`.
    JekyllLink,
    /// Jekyll's `{% post_url name %}`: `jekyll:post_url`.
    JekyllPostUrl,
    /// A Jekyll URL under the site's base: `{{ site.baseurl }}/path`, or
    /// a quoted path through the `relative_url` or `absolute_url`
    /// filter: `jekyll:url`.
    JekyllUrl,
    /// MDX's `<Link to="...">` (or `href`): `mdx:link`.
    MdxLink,
    /// A local path an MDX `import` names (an asset, a partial):
    /// `mdx:import`.
    MdxImport,
    /// A local path an MDX expression `require`s: `mdx:require`.
    MdxRequire,
    /// A file `pymdownx.snippets` includes (`--8<-- "path"`), from the
    /// MkDocs project's folder: `mkdocs:snippet`.
    MkdocsSnippet,
    /// A file `mkdocs-include-markdown-plugin` includes (`{%
    /// include-markdown "path" %}`), from the page's folder:
    /// `mkdocs:include-markdown`.
    MkdocsIncludeMarkdown,
}

impl GeneratorKind {
    /// The kind's name: `hugo:ref`, `jekyll:link`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            GeneratorKind::HugoRef => "hugo:ref",
            GeneratorKind::HugoRelref => "hugo:relref",
            GeneratorKind::HugoInclude => "hugo:include",
            GeneratorKind::JekyllLink => "jekyll:link",
            GeneratorKind::JekyllPostUrl => "jekyll:post_url",
            GeneratorKind::JekyllUrl => "jekyll:url",
            GeneratorKind::MdxLink => "mdx:link",
            GeneratorKind::MdxImport => "mdx:import",
            GeneratorKind::MdxRequire => "mdx:require",
            GeneratorKind::MkdocsSnippet => "mkdocs:snippet",
            GeneratorKind::MkdocsIncludeMarkdown => "mkdocs:include-markdown",
        }
    }

    /// Whether following such a link navigates: all but the MDX imports
    /// and `require`s and the includes, whose files the page holds.
    pub(crate) fn navigates(self) -> bool {
        !matches!(
            self,
            GeneratorKind::MdxImport
                | GeneratorKind::MdxRequire
                | GeneratorKind::HugoInclude
                | GeneratorKind::MkdocsSnippet
                | GeneratorKind::MkdocsIncludeMarkdown
        )
    }

    /// Whether it is a generator's own syntax (Hugo's, Jekyll's, MkDocs'
    /// includes), which only its generator's site model resolves; an MDX
    /// link is a plain URI reference.
    pub fn is_template(self) -> bool {
        !matches!(
            self,
            GeneratorKind::MdxLink
                | GeneratorKind::MdxImport
                | GeneratorKind::MdxRequire
        )
    }
}

/// Reads the generator syntax in the text runs `runs` of `text` (a
/// Markdown document's runs outside code, links and HTML), pushing a link
/// for each construct.
pub(crate) fn read_markdown_runs(
    text: &str,
    runs: &[Span],
    out: &mut Vec<RawLink>,
) {
    let bytes = text.as_bytes();
    // Most documents hold no brace at all: one search says so.
    if memchr::memchr(b'{', bytes).is_none() {
        return;
    }
    for run in runs {
        template::read(bytes, *run, out);
    }
}

/// Reads the include directives of the Markdown `text` (anywhere: they
/// are preprocessors), pushing a link to each file; returns where the
/// directives are.
pub(crate) fn read_includes(text: &str, out: &mut Vec<RawLink>) -> Vec<Span> {
    includes::directives(text)
        .into_iter()
        .map(|d| {
            push(out, text.as_bytes(), d.kind, d.written, &d.path);
            d.whole
        })
        .collect()
}

/// A link of the generator's `kind` at `span` of `bytes`, naming `link`.
fn push(
    out: &mut Vec<RawLink>,
    bytes: &[u8],
    kind: GeneratorKind,
    span: Span,
    link: &str,
) {
    out.push(RawLink::new(
        Kind::Generator(kind),
        span,
        &bytes[span.range()],
        link,
        None,
    ));
}
