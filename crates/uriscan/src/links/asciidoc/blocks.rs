//! The block pass: the document line by line, telling the blocks that
//! hold no links (listing `----`, literal `....`, passthrough `++++`,
//! comment `////`, fenced code, and paragraphs styled or indented as
//! such) from those whose text the inline pass reads; attribute entries,
//! section titles, anchors and the block macros (`image::`,
//! `include::`).

use super::Reader;
use super::attributes::{Expanded, entry};
use super::ids::section_id;

/// A delimited block whose lines hold no links, until its closing line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Verbatim {
    /// The delimiter's character and length: the closing line is the same.
    delimiter: u8,
    length: usize,
    /// A comment block: not even includes are read in it.
    comment: bool,
}

/// The styles that make a paragraph or block hold no links.
const VERBATIM_STYLES: &[&str] = &[
    "source",
    "listing",
    "literal",
    "pass",
    "stem",
    "latexmath",
    "asciimath",
    "comment",
];

impl Reader<'_, '_> {
    /// Reads the whole document.
    pub(super) fn run(&mut self) {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut pos = 0;
        let mut verbatim: Option<Verbatim> = None;
        // The paragraph being gathered: its start and end, and whether
        // it is verbatim (indented, or styled so).
        let mut paragraph: Option<(usize, usize)> = None;
        let mut paragraph_verbatim = false;
        let mut styled_verbatim: Option<bool> = None;
        let mut in_table = false;
        let mut seen_block = false;
        while pos < bytes.len() {
            let end = memchr::memchr(b'\n', &bytes[pos..])
                .map_or(bytes.len(), |i| pos + i);
            let next = end + 1;
            let line_end = if end > pos && bytes[end - 1] == b'\r' {
                end - 1
            } else {
                end
            };
            let line = &text[pos..line_end];
            let at = pos;
            pos = next;
            if let Some(v) = verbatim {
                if delimiter(line) == Some((v.delimiter, v.length)) {
                    verbatim = None;
                } else if !v.comment {
                    self.include_line(line, at, true);
                }
                continue;
            }
            if line.trim_ascii().is_empty() {
                self.flush(&mut paragraph, paragraph_verbatim, in_table);
                paragraph_verbatim = false;
                continue;
            }
            if is_comment_line(line) {
                self.flush(&mut paragraph, paragraph_verbatim, in_table);
                continue;
            }
            let verbatim_here = match paragraph {
                Some(_) => paragraph_verbatim,
                None => styled_verbatim == Some(true),
            };
            if self.include_line(line, at, verbatim_here)
                || is_preprocessor(line)
            {
                continue;
            }
            if paragraph.is_some() {
                if let Some(d) = delimiter(line) {
                    self.flush(&mut paragraph, paragraph_verbatim, in_table);
                    paragraph_verbatim = false;
                    self.open(
                        d,
                        &mut verbatim,
                        &mut styled_verbatim,
                        &mut in_table,
                    );
                    continue;
                }
                if !paragraph_verbatim && is_attribute_list(line) {
                    self.flush(&mut paragraph, paragraph_verbatim, in_table);
                } else {
                    if let Some(p) = &mut paragraph {
                        p.1 = line_end;
                    }
                    continue;
                }
            }
            // A line that starts a block.
            if let Some(d) = delimiter(line) {
                self.open(
                    d,
                    &mut verbatim,
                    &mut styled_verbatim,
                    &mut in_table,
                );
                seen_block = true;
                continue;
            }
            if let Some((name, value)) = entry(line) {
                self.set_attribute(name, value);
                continue;
            }
            if let Some(id) = block_anchor(line) {
                self.add_id(id);
                self.pending_id = Some(id.to_owned());
                continue;
            }
            if is_attribute_list(line) {
                let inner = &line[1..line.len() - 1];
                if let Some(id) = shorthand_id(inner) {
                    self.add_id(id);
                    self.pending_id = Some(id.to_owned());
                }
                let style =
                    inner.split([',', '#', '.', '%']).next().unwrap_or("");
                styled_verbatim =
                    Some(VERBATIM_STYLES.contains(&style.trim()));
                continue;
            }
            if let Some((level, title, title_at)) = section_title(line) {
                self.section(level, title, !seen_block);
                self.inline(at + title_at, line_end, false);
                seen_block = true;
                styled_verbatim = None;
                continue;
            }
            seen_block = true;
            self.pending_id = None;
            if self.block_macro(line, at) {
                styled_verbatim = None;
                continue;
            }
            if is_block_title(line) {
                self.inline(at + 1, line_end, in_table);
                continue;
            }
            paragraph_verbatim = styled_verbatim.take().unwrap_or(false)
                || line.starts_with([' ', '\t']);
            paragraph = Some((at, line_end));
        }
        self.flush(&mut paragraph, paragraph_verbatim, in_table);
    }

    /// Reads the gathered paragraph, unless it holds no links.
    fn flush(
        &mut self,
        paragraph: &mut Option<(usize, usize)>,
        verbatim: bool,
        in_table: bool,
    ) {
        if let Some((start, end)) = paragraph.take()
            && !verbatim
        {
            self.inline(start, end, in_table);
        }
    }

    /// Opens the block that `(char, length)` delimits.
    fn open(
        &mut self,
        (delim, length): (u8, usize),
        verbatim: &mut Option<Verbatim>,
        styled: &mut Option<bool>,
        in_table: &mut bool,
    ) {
        let styled = styled.take().unwrap_or(false);
        self.pending_id = None;
        let by_kind = matches!(delim, b'-' if length >= 4)
            || matches!(delim, b'.' | b'+' | b'/' | b'`');
        if delim == b'|' {
            *in_table = !*in_table;
        } else if by_kind || styled {
            *verbatim = Some(Verbatim {
                delimiter: delim,
                length,
                comment: delim == b'/',
            });
        }
    }

    /// Applies an attribute entry; its value's references are expanded.
    fn set_attribute(&mut self, name: &str, value: Option<&str>) {
        let value = value.map(|v| match self.attrs.expand(v) {
            Expanded::Text(t) | Expanded::Undefined(t, _) => t,
        });
        self.attrs.set(name, value.as_deref());
    }

    /// A section title: its id, unless it is the document's title or
    /// `sectids` is off.
    fn section(&mut self, level: usize, title: &str, first: bool) {
        let explicit = self.pending_id.take();
        if level == 0 && first {
            return;
        }
        let id = match explicit {
            Some(id) => Some(id),
            None if !self.attrs.explicitly_unset("sectids") => {
                let id = section_id(title, &self.attrs, &self.taken);
                self.add_id(&id);
                Some(id)
            }
            None => None,
        };
        if let Some(id) = id {
            self.titles.push((title.to_owned(), id));
        }
    }

    /// An `include::target[...]` line: its link. Whether it was one.
    /// `verbatim`: it stands where its text would be shown as it is.
    fn include_line(&mut self, line: &str, at: usize, verbatim: bool) -> bool {
        let Some(rest) = line.strip_prefix("include::") else {
            return false;
        };
        let Some((target, attrlist)) = macro_parts(rest) else {
            return false;
        };
        let start = at + "include::".len();
        self.include(
            target,
            (start, start + target.len()),
            attrlist,
            verbatim,
        );
        true
    }

    /// `image::target[...]` (and the other block macros, which name no
    /// file of the document's): whether the line was one.
    fn block_macro(&mut self, line: &str, at: usize) -> bool {
        let Some(rest) = line.strip_prefix("image::") else {
            return ["video::", "audio::", "toc::"]
                .iter()
                .any(|m| line.starts_with(m) && line.ends_with(']'));
        };
        let Some((target, attrs)) = macro_parts(rest) else {
            return false;
        };
        let start = at + "image::".len();
        self.image(target, (start, start + target.len()));
        let attrs_at = start + target.len() + 1;
        self.image_link((attrs_at, attrs_at + attrs.len()));
        true
    }
}

/// A block macro's target and attribute list: `target[attrs]` to the end
/// of the line, the target with no blank at either end.
fn macro_parts(rest: &str) -> Option<(&str, &str)> {
    let rest = rest.trim_end();
    let open = rest.find('[')?;
    let target = &rest[..open];
    let attrs = rest[open + 1..].strip_suffix(']')?;
    let ok = !target.is_empty()
        && !target.starts_with(|c: char| c.is_whitespace())
        && !target.ends_with(|c: char| c.is_whitespace());
    ok.then_some((target, attrs))
}

/// A block delimiter line: its character and length. `--` is the open
/// block; the others are four or more of one character, fenced code
/// three backticks (and a language), a table `|===`.
fn delimiter(line: &str) -> Option<(u8, usize)> {
    let b = line.trim_end().as_bytes();
    if b == b"--" {
        return Some((b'-', 2));
    }
    if b.starts_with(b"```") {
        return Some((b'`', 3));
    }
    if b.len() >= 4 && b[0] == b'|' && b[1..].iter().all(|&c| c == b'=') {
        return Some((b'|', b.len()));
    }
    let first = *b.first()?;
    let kinds = [b'-', b'.', b'+', b'/', b'=', b'*', b'_'];
    (b.len() >= 4 && kinds.contains(&first) && b.iter().all(|&c| c == first))
        .then_some((first, b.len()))
}

/// `// text`: a comment line (`///` is not one).
fn is_comment_line(line: &str) -> bool {
    line.starts_with("//") && !line.starts_with("///")
}

/// `ifdef::`, `ifndef::`, `ifeval::`, `endif::` lines.
fn is_preprocessor(line: &str) -> bool {
    ["ifdef::", "ifndef::", "ifeval::", "endif::"]
        .iter()
        .any(|p| line.starts_with(p))
        && line.trim_end().ends_with(']')
}

/// `[...]` alone on a line: a block attribute list (not an anchor).
fn is_attribute_list(line: &str) -> bool {
    let line = line.trim_end();
    line.len() >= 2
        && line.starts_with('[')
        && line.ends_with(']')
        && !line.starts_with("[[")
        && line[1..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || "_.#%{,\"']".contains(c))
}

/// `[[id]]` or `[[id, reftext]]` alone on a line: the id.
fn block_anchor(line: &str) -> Option<&str> {
    let inner = line.trim_end().strip_prefix("[[")?.strip_suffix("]]")?;
    let id = inner.split(',').next()?.trim_end();
    is_id(id).then_some(id)
}

/// An id as Asciidoctor's anchors accept it: a letter, `_` or `:`, then
/// word characters, `-`, `:` and `.`.
pub(super) fn is_id(id: &str) -> bool {
    let mut chars = id.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == ':')
        && chars.all(|c| c.is_alphanumeric() || "_-:.".contains(c))
}

/// The `#id` of an attribute list's first positional attribute
/// (`[#id]`, `[quote#id.role]`), or its `id=` attribute.
fn shorthand_id(inner: &str) -> Option<&str> {
    let first = inner.split(',').next().unwrap_or("");
    if !first.contains('=')
        && let Some(h) = first.find('#')
    {
        let rest = &first[h + 1..];
        let end = rest.find(['.', '%', '#']).unwrap_or(rest.len());
        let id = rest[..end].trim();
        return (!id.is_empty()).then_some(id);
    }
    inner.split(',').find_map(|a| {
        let (k, v) = a.split_once('=')?;
        (k.trim() == "id").then(|| v.trim().trim_matches('"'))
    })
}

/// A section title, `== Title` (or Markdown's `## Title`): its level,
/// its title, and where the title starts in the line.
fn section_title(line: &str) -> Option<(usize, &str, usize)> {
    let mark = *line.as_bytes().first()?;
    if mark != b'=' && mark != b'#' {
        return None;
    }
    let count = line.bytes().take_while(|&b| b == mark).count();
    if count > 6 {
        return None;
    }
    let rest = &line[count..];
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let title = rest.trim_start();
    let title_at = line.len() - title.len();
    // A closing run of the same marks is not part of the title.
    let mut title = title.trim_end();
    if let Some(t) = title.strip_suffix(&line[..count])
        && t.ends_with([' ', '\t'])
    {
        title = t.trim_end();
    }
    (!title.is_empty()).then_some((count - 1, title, title_at))
}

/// `.Title` (not `..`, not `. item`): a block title.
fn is_block_title(line: &str) -> bool {
    let b = line.as_bytes();
    b.len() > 1 && b[0] == b'.' && !matches!(b[1], b'.' | b' ' | b'\t')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delimiters_by_character_and_length() {
        assert_eq!(delimiter("----"), Some((b'-', 4)));
        assert_eq!(delimiter("------"), Some((b'-', 6)));
        assert_eq!(delimiter("--"), Some((b'-', 2)));
        assert_eq!(delimiter("---"), None);
        assert_eq!(delimiter("```ruby"), Some((b'`', 3)));
        assert_eq!(delimiter("|==="), Some((b'|', 4)));
        assert_eq!(delimiter("////"), Some((b'/', 4)));
        assert_eq!(delimiter("...."), Some((b'.', 4)));
    }

    #[test]
    fn titles_anchors_and_attribute_lists() {
        assert_eq!(section_title("== A b =="), Some((1, "A b", 3)));
        assert_eq!(section_title("= Doc"), Some((0, "Doc", 2)));
        assert_eq!(section_title("==x"), None);
        assert_eq!(block_anchor("[[an-id, Text]]"), Some("an-id"));
        assert_eq!(block_anchor("[[1x]]"), None);
        assert_eq!(shorthand_id("quote#who.role"), Some("who"));
        assert_eq!(shorthand_id("source,id=x"), Some("x"));
        assert!(is_attribute_list("[source,ruby]"));
        assert!(!is_attribute_list("[[x]]"));
        assert_eq!(macro_parts("a b.png[Alt]"), Some(("a b.png", "Alt")));
        assert_eq!(macro_parts(" a.png[]"), None);
    }
}
