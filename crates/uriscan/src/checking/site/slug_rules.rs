//! The anchor style a site's configuration asks for: the generator's own
//! slug rule, with the settings its configuration gives
//! ([`AnchorSettings`]). A setting this crate does not know falls back to
//! the generator's default, and the site's notes say so.

use super::{AnchorSettings, Generator};
use crate::checking::anchors::AnchorStyle;

/// The style of `generator`'s pages under `settings`; a note for each
/// setting that could not be honoured goes into `notes`.
pub(super) fn anchor_style(
    generator: Generator,
    settings: &AnchorSettings,
    notes: &mut Vec<String>,
) -> AnchorStyle {
    let known = |style: Result<AnchorStyle, _>, notes: &mut Vec<String>| {
        style.unwrap_or_else(|e: crate::checking::anchors::UnknownSlugRule| {
            notes.push(e.to_string());
            e.fallback()
        })
    };
    match generator {
        Generator::Github => AnchorStyle::Github,
        Generator::Gitlab => AnchorStyle::Gitlab,
        Generator::Mdbook => AnchorStyle::Mdbook,
        Generator::Docusaurus => AnchorStyle::docusaurus(),
        Generator::Mkdocs => {
            let (name, kwds) = match &settings.mkdocs_toc_slugify {
                Some((tag, kwds)) => (Some(python_name(tag)), kwds.as_slice()),
                None => (None, &[][..]),
            };
            let kwds: Vec<(&str, &str)> =
                kwds.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            known(AnchorStyle::mkdocs(name, &kwds), notes)
        }
        Generator::Hugo => known(
            AnchorStyle::hugo(settings.hugo_auto_heading_id_type.as_deref()),
            notes,
        ),
        Generator::Jekyll => {
            let auto_ids = settings.jekyll_auto_ids.unwrap_or(true);
            let prefix = settings.jekyll_auto_id_prefix.as_deref();
            let stripping = settings.jekyll_auto_id_stripping.unwrap_or(false);
            // Jekyll's own default input is kramdown's GFM parser; a site
            // that sets `input: kramdown` gets kramdown's ASCII ids.
            match settings.jekyll_kramdown_input.as_deref() {
                Some(i) if i.eq_ignore_ascii_case("kramdown") => {
                    AnchorStyle::kramdown(auto_ids, prefix, stripping)
                }
                _ => AnchorStyle::jekyll(auto_ids, prefix, stripping),
            }
        }
    }
}

/// The Python name of a YAML tag or value: `python/name:a.b.c` and
/// `python/object/apply:a.b.c` name `a.b.c`; an untagged value is the
/// name itself.
fn python_name(tag: &str) -> &str {
    tag.strip_prefix("tag:yaml.org,2002:")
        .unwrap_or(tag)
        .strip_prefix("!!")
        .unwrap_or(tag)
        .rsplit_once(':')
        .map_or(tag, |(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_names_of_tags() {
        assert_eq!(
            python_name("python/name:pymdownx.slugs.uslugify"),
            "pymdownx.slugs.uslugify"
        );
        assert_eq!(
            python_name("python/object/apply:pymdownx.slugs.slugify"),
            "pymdownx.slugs.slugify"
        );
        assert_eq!(
            python_name("markdown.extensions.toc.slugify_unicode"),
            "markdown.extensions.toc.slugify_unicode"
        );
    }

    /// Each generator's settings reach its style; an unknown one falls
    /// back to the default, with a note.
    #[test]
    fn settings_choose_the_style() {
        let mut notes = vec![];
        let mkdocs = AnchorSettings {
            mkdocs_toc_slugify: Some((
                "python/object/apply:pymdownx.slugs.slugify".into(),
                vec![("case".into(), "lower".into())],
            )),
            ..Default::default()
        };
        let style = anchor_style(Generator::Mkdocs, &mkdocs, &mut notes);
        assert_eq!(
            Ok(style),
            AnchorStyle::mkdocs(
                Some("pymdownx.slugs.slugify"),
                &[("case", "lower")]
            )
        );
        assert!(notes.is_empty(), "{notes:?}");
        let hugo = AnchorSettings {
            hugo_auto_heading_id_type: Some("no-such-rule".into()),
            ..Default::default()
        };
        let style = anchor_style(Generator::Hugo, &hugo, &mut notes);
        assert_eq!(Ok(style), AnchorStyle::hugo(None));
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("no-such-rule"), "{notes:?}");
        let jekyll = AnchorSettings {
            jekyll_kramdown_input: Some("kramdown".into()),
            ..Default::default()
        };
        assert_eq!(
            anchor_style(Generator::Jekyll, &jekyll, &mut notes),
            AnchorStyle::kramdown(true, None, false)
        );
        assert_eq!(
            anchor_style(Generator::Jekyll, &Default::default(), &mut notes),
            AnchorStyle::jekyll(true, None, false)
        );
    }
}
