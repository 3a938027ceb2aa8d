//! GitLab's heading anchors, as comrak computes them.

use unicode_properties::{
    GeneralCategory as Gc, GeneralCategoryGroup as Group,
    UnicodeGeneralCategory,
};

use super::github::spaces_to_hyphens;

/// GitLab's rule. Since GitLab 17.0 (gitlab-org/gitlab issue 440733,
/// "Heading link generation changed"), headings get their ids from
/// comrak: `gitlabhq/gitlabhq`
/// `lib/banzai/filter/markdown_engines/glfm_markdown.rb` passes
/// `header_ids: USER_CONTENT_ID_PREFIX` to comrak, whose
/// `kivikakk/comrak` `src/html/anchorizer.rs` does:
///
/// ```text
/// let mut id = header.to_lowercase();
/// id = id.chars().filter(is_permitted_char)
///     .map(|c| if c == ' ' { '-' } else { c }).collect();
/// // is_permitted_char: ' ' | '-' | letter | mark | number
/// //                    | connector punctuation
/// ```
///
/// It differs from GitHub in numbers: every number is kept (`²`, `½`),
/// and in Alphabetic symbols (`Ⓐ`), which go. GitLab's own page
/// (`doc/user/markdown.md`, "Heading IDs and links") still lists "two or
/// more hyphens in a row are converted to one", but its example beside
/// it, `this-heading-has--multiple-spaces-and-----hyphens`, is comrak's
/// output: the squeezing belongs to the rule before 17.0
/// (`lib/gitlab/utils/markdown.rb` `string_to_anchor`: `strip`,
/// `downcase`, `gsub(/[^\p{Word}\- ]/, '')`, `tr(' ', '-')`,
/// `squeeze('-')`, and `anchor-` before an all-digit id), which this
/// style does not implement.
pub(super) fn gitlab_slug(text: &str) -> String {
    let keeps = |c: char| {
        c == '-'
            || c.general_category() == Gc::ConnectorPunctuation
            || matches!(
                c.general_category_group(),
                Group::Letter | Group::Mark | Group::Number
            )
    };
    spaces_to_hyphens(&text.to_lowercase(), keeps)
}
