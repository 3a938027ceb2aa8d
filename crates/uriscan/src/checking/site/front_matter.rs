//! A page's front matter: YAML between `---` lines, or TOML between
//! `+++` lines (Hugo), at the very top of the file.

use super::yaml::{self, Node};

/// The front matter of `text`, when it opens with one; `Err` when it
/// opens with one that does not parse.
pub(crate) fn front_matter(text: &str) -> Option<Result<Node, String>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (fence, toml) = if text.starts_with("---") {
        ("---", false)
    } else if text.starts_with("+++") {
        ("+++", true)
    } else {
        return None;
    };
    let mut lines = text.split_inclusive('\n');
    let first = lines.next()?;
    if first.trim_end() != fence {
        return None;
    }
    let start = first.len();
    let mut at = start;
    for line in lines {
        let trimmed = line.trim_end();
        if trimmed == fence || (!toml && trimmed == "...") {
            let body = &text[start..at];
            return Some(if toml {
                yaml::parse_toml(body)
            } else {
                yaml::parse(body)
            });
        }
        at += line.len();
    }
    // No closing fence: not front matter (a thematic break).
    None
}

/// A string field of the front matter.
pub(crate) fn field<'a>(fm: &'a Node, key: &str) -> Option<&'a str> {
    fm.get(key)?.as_str().map(str::trim).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_and_toml_front_matter() {
        let fm = front_matter("---\nid: intro\nslug: /start\n---\n# T\n")
            .unwrap()
            .unwrap();
        assert_eq!(field(&fm, "id"), Some("intro"));
        assert_eq!(field(&fm, "slug"), Some("/start"));
        let fm =
            front_matter("+++\nslug = \"x\"\naliases = [\"/old/\"]\n+++\n")
                .unwrap()
                .unwrap();
        assert_eq!(field(&fm, "slug"), Some("x"));
        assert_eq!(
            fm.get("aliases").unwrap().as_seq()[0].as_str(),
            Some("/old/")
        );
        assert!(front_matter("# no\n---\n").is_none());
        assert!(front_matter("---\nnever closed\n").is_none());
        assert!(front_matter("---\na: [\n---\n").unwrap().is_err());
    }
}
