//! The kinds of reStructuredText links.

/// Which reStructuredText (Sphinx) construct a link is: the kinds
/// `rst:*` of [`Kind::Rst`](crate::links::Kind::Rst).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RstKind {
    /// `` `text <url>`_ ``: `rst:link`.
    Link,
    /// `` `text <url>`__ ``: `rst:anonymous-link`.
    AnonymousLink,
    /// `.. _name: url`: `rst:target`.
    Target,
    /// `.. __: url` or `__ url`: `rst:anonymous-target`.
    AnonymousTarget,
    /// `name_` or `` `a name`_ ``, with its target's URI, or `#id` for a
    /// target in the document: `rst:reference`.
    Reference,
    /// `name__` or `` `a name`__ ``, with the anonymous target's URI:
    /// `rst:anonymous-reference`.
    AnonymousReference,
    /// A standalone URI in text: `rst:uri`.
    Uri,
    /// `:doc:`, as the path of the source file it names: `rst:doc`.
    Doc,
    /// `:ref:`, a label of the project: `rst:ref` (no target).
    Ref,
    /// `:numref:`, a label of the project: `rst:numref` (no target).
    Numref,
    /// `:download:`, a file or URI: `rst:download`.
    Download,
    /// `:term:`, a term of a glossary: `rst:term` (no target).
    Term,
    /// A role with a domain (`:py:class:`) or an intersphinx reference
    /// (`project:label`): `rst:external` (no target: not resolvable
    /// offline).
    External,
    /// `.. image::` and its `:target:`: `rst:image`.
    Image,
    /// `.. figure::`: `rst:figure`.
    Figure,
    /// `.. include::`: `rst:include`.
    Include,
    /// `.. literalinclude::`: `rst:literalinclude`.
    LiteralInclude,
    /// A `.. toctree::` entry, as the path of its source file:
    /// `rst:toctree`.
    Toctree,
    /// A `.. toctree::` entry under `:glob:` that is a pattern:
    /// `rst:toctree-glob` (no target).
    ToctreeGlob,
}

impl RstKind {
    /// The kind's name: `rst:link`, `rst:doc`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            RstKind::Link => "rst:link",
            RstKind::AnonymousLink => "rst:anonymous-link",
            RstKind::Target => "rst:target",
            RstKind::AnonymousTarget => "rst:anonymous-target",
            RstKind::Reference => "rst:reference",
            RstKind::AnonymousReference => "rst:anonymous-reference",
            RstKind::Uri => "rst:uri",
            RstKind::Doc => "rst:doc",
            RstKind::Ref => "rst:ref",
            RstKind::Numref => "rst:numref",
            RstKind::Download => "rst:download",
            RstKind::Term => "rst:term",
            RstKind::External => "rst:external",
            RstKind::Image => "rst:image",
            RstKind::Figure => "rst:figure",
            RstKind::Include => "rst:include",
            RstKind::LiteralInclude => "rst:literalinclude",
            RstKind::Toctree => "rst:toctree",
            RstKind::ToctreeGlob => "rst:toctree-glob",
        }
    }

    /// Whether the link is a URI reference, resolved against the
    /// document; the others name a label, a term or another project, and
    /// get no target.
    pub fn resolves(self) -> bool {
        !matches!(
            self,
            RstKind::Ref
                | RstKind::Numref
                | RstKind::Term
                | RstKind::External
                | RstKind::ToctreeGlob
        )
    }

    /// Why a link of this kind is not checked offline, for the kinds
    /// that are not.
    pub fn unresolved_reason(self) -> Option<&'static str> {
        match self {
            RstKind::External => Some(
                "a role with a domain or an intersphinx reference is not resolved offline",
            ),
            RstKind::ToctreeGlob => {
                Some("a toctree glob pattern is not checked")
            }
            _ => None,
        }
    }
}
