//! Placeholder, replaced by the anchors branch: heading anchors.

/// Which renderer's anchor rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnchorStyle {
    /// GitHub.
    Github,
    /// GitLab.
    Gitlab,
    /// mdBook.
    Mdbook,
}

/// An anchor of a rendered Markdown page.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Anchor {
    /// The fragment that reaches it.
    pub name: String,
    /// The 1-based line of its heading.
    pub line: u32,
}

/// The anchors of a Markdown document.
pub fn markdown_anchors(_src: &str, _style: AnchorStyle) -> Vec<Anchor> {
    vec![]
}

/// The closest of `have` to `wanted`.
pub fn suggest<'a>(_wanted: &str, _have: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    None
}
