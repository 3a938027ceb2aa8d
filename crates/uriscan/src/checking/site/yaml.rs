//! YAML configuration and front matter as a plain tree of strings, over
//! yaml-rust2's event parser: every scalar stays text (the readers want
//! paths and names), tags are kept beside the value and never fail the
//! read (MkDocs configurations hold `!!python/name:` and
//! `!!python/object/apply:`), and each node keeps its line for reports.

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser, Tag};
use yaml_rust2::scanner::Marker;

/// One node of a YAML (or converted TOML) document.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Node {
    /// The 1-based line the node starts on; 0 when not known.
    pub(crate) line: u32,
    /// Its tag's suffix (`python/name:pkg.fn`), if it has one.
    pub(crate) tag: Option<String>,
    pub(crate) value: Value,
}

/// A node's value.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) enum Value {
    /// Nothing, an alias, or a key with no value.
    #[default]
    Null,
    /// Any scalar, as written.
    Str(String),
    Seq(Vec<Node>),
    /// Keys in document order (a complex key reads as empty).
    Map(Vec<(String, Node)>),
}

impl Node {
    /// The value of `key`, for a mapping.
    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    /// The scalar, if it is one.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    /// A boolean as YAML 1.1 (which PyYAML and Ruby read) writes one.
    pub(crate) fn as_bool(&self) -> Option<bool> {
        let s = self.as_str()?.to_ascii_lowercase();
        match s.as_str() {
            "true" | "yes" | "on" | "y" => Some(true),
            "false" | "no" | "off" | "n" => Some(false),
            _ => None,
        }
    }
    /// The items, for a sequence.
    pub(crate) fn as_seq(&self) -> &[Node] {
        match &self.value {
            Value::Seq(s) => s,
            _ => &[],
        }
    }
    /// The entries, for a mapping.
    pub(crate) fn as_map(&self) -> &[(String, Node)] {
        match &self.value {
            Value::Map(m) => m,
            _ => &[],
        }
    }
}

/// Reads the first document of `text`; an empty text is a null node.
pub(crate) fn parse(text: &str) -> Result<Node, String> {
    let mut loader = Loader::default();
    Parser::new_from_str(text)
        .load(&mut loader, false)
        .map_err(|e| e.to_string())?;
    Ok(loader.done.unwrap_or_default())
}

/// A collection being built.
enum Frame {
    Seq(Node, Vec<Node>),
    Map(Node, Vec<(String, Node)>, Option<String>),
}

/// Builds the tree from the parser's events without recursion, so a
/// deeply nested document cannot exhaust the stack.
#[derive(Default)]
struct Loader {
    stack: Vec<Frame>,
    done: Option<Node>,
}

impl Loader {
    fn add(&mut self, node: Node) {
        match self.stack.last_mut() {
            Some(Frame::Seq(_, items)) => items.push(node),
            Some(Frame::Map(_, entries, key)) => match key.take() {
                Some(k) => entries.push((k, node)),
                None => *key = Some(node.as_str().unwrap_or("").to_string()),
            },
            None => {
                self.done.get_or_insert(node);
            }
        }
    }
}

fn head(mark: Marker, tag: Option<Tag>) -> Node {
    let line = u32::try_from(mark.line()).unwrap_or(u32::MAX);
    Node { line, tag: tag.map(|t| t.suffix), value: Value::Null }
}

impl MarkedEventReceiver for Loader {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        match ev {
            Event::Scalar(s, _, _, tag) => {
                let mut node = head(mark, tag);
                node.value = Value::Str(s);
                self.add(node);
            }
            // Aliases are not expanded: no configuration key this reads
            // needs them, and expanding them can explode.
            Event::Alias(_) => self.add(head(mark, None)),
            Event::SequenceStart(_, tag) => {
                self.stack.push(Frame::Seq(head(mark, tag), vec![]));
            }
            Event::MappingStart(_, tag) => {
                self.stack.push(Frame::Map(head(mark, tag), vec![], None));
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let node = match self.stack.pop() {
                    Some(Frame::Seq(mut n, items)) => {
                        n.value = Value::Seq(items);
                        n
                    }
                    Some(Frame::Map(mut n, entries, _)) => {
                        n.value = Value::Map(entries);
                        n
                    }
                    None => return,
                };
                self.add(node);
            }
            _ => {}
        }
    }
}

/// A TOML table as the same tree (lines unknown).
pub(crate) fn from_toml(value: &toml::Value) -> Node {
    let value = match value {
        toml::Value::String(s) => Value::Str(s.clone()),
        toml::Value::Array(a) => Value::Seq(a.iter().map(from_toml).collect()),
        toml::Value::Table(t) => Value::Map(
            t.iter().map(|(k, v)| (k.clone(), from_toml(v))).collect(),
        ),
        toml::Value::Integer(i) => Value::Str(i.to_string()),
        toml::Value::Float(f) => Value::Str(f.to_string()),
        toml::Value::Boolean(b) => Value::Str(b.to_string()),
        toml::Value::Datetime(d) => Value::Str(d.to_string()),
    };
    Node { line: 0, tag: None, value }
}

/// Reads a TOML document into the tree.
pub(crate) fn parse_toml(text: &str) -> Result<Node, String> {
    let table: toml::Table =
        toml::from_str(text).map_err(|e| e.to_string())?;
    Ok(from_toml(&toml::Value::Table(table)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// MkDocs configurations name Python objects by tag; the read keeps
    /// the tag and goes on.
    #[test]
    fn python_tags_do_not_fail_the_read() {
        let text = "site_name: x\nmarkdown_extensions:\n  - toc:\n      slugify: !!python/name:pymdownx.slugs.uslugify\n  - other:\n      f: !!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}\n  - emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n";
        let doc = parse(text).unwrap();
        let exts = doc.get("markdown_extensions").unwrap().as_seq();
        let slugify = exts[0].get("toc").unwrap().get("slugify").unwrap();
        assert_eq!(
            slugify.tag.as_deref(),
            Some("python/name:pymdownx.slugs.uslugify")
        );
        assert_eq!(doc.get("site_name").unwrap().line, 1);
        let apply = exts[1].get("other").unwrap().get("f").unwrap();
        assert_eq!(
            apply.tag.as_deref(),
            Some("python/object/apply:pymdownx.slugs.slugify")
        );
        let case = apply.get("kwds").unwrap().get("case").unwrap();
        assert_eq!(case.as_str(), Some("lower"));
    }

    #[test]
    fn malformed_yaml_is_an_error_and_deep_nesting_no_crash() {
        assert!(parse("a: [b\nc: d: e").is_err());
        let deep = "[".repeat(100_000);
        let _ = parse(&deep);
        assert_eq!(parse("").unwrap(), Node::default());
        let anchors = "a: &x [1, 2]\nb: *x\n";
        assert_eq!(
            parse(anchors).unwrap().get("b").unwrap().value,
            Value::Null
        );
    }

    #[test]
    fn toml_reads_as_the_same_tree() {
        let doc = parse_toml(
            "[book]\nsrc = \"text\"\n[output.html]\nsite-url = \"/b/\"\n",
        )
        .unwrap();
        assert_eq!(
            doc.get("book").unwrap().get("src").unwrap().as_str(),
            Some("text")
        );
        let html = doc.get("output").unwrap().get("html").unwrap();
        assert_eq!(html.get("site-url").unwrap().as_str(), Some("/b/"));
        assert!(parse_toml("[book\n").is_err());
    }
}
