//! mdBook's heading anchors.

/// mdBook's rule, `rust-lang/mdBook` `crates/mdbook-html/src/utils.rs`
/// `id_from_content` (0.5; `src/utils/mod.rs` `normalize_id` in 0.4 is
/// the same), on the heading's text nodes:
///
/// ```text
/// content.trim().chars().filter_map(|ch| {
///     if ch.is_alphanumeric() || ch == '_' || ch == '-' {
///         Some(ch.to_ascii_lowercase())
///     } else if ch.is_whitespace() { Some('-') } else { None }
/// }).collect()
/// ```
///
/// Only ASCII letters are lowercased: `Привет мир` is `Привет-мир`, and
/// a link to `#привет-мир` is broken on an mdBook site.
pub(super) fn mdbook_slug(text: &str) -> String {
    text.trim()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}
