//! The hooks of the benches, the fuzz targets and the differential tests
//! into the readers, for [`crate::internals::links`]: kept here, beside
//! the private items they read, and built only with `internals` (and for
//! their own tests).

use super::html::{link_attr, link_attr_elements, wanted_attrs};
use super::tokenizer::{StartTag, TagSink, Wanted, for_each_tag};
use super::{Kind, LinkRef, Place, markdown, target, text_of};

#[cfg(feature = "internals")]
pub use super::oracle::differential;
#[cfg(feature = "internals")]
pub use super::shortcut::differential as shortcut_differential;

/// The inputs of our Markdown reader's differential tests, for those of
/// the anchors.
#[cfg(all(test, feature = "check"))]
pub(crate) use super::commonmark::tests::{
    corpus_pieces, markdown_like, table_like,
};

/// The number of events pulldown-cmark gives for `text`, parsed with
/// extraction's options and no handler: the bare parse that the links
/// bench and `examples/links_floor.rs` hold extraction to.
pub fn count_markdown_events(text: &str) -> usize {
    pulldown_cmark::Parser::new_ext(text, markdown::options(true))
        .into_offset_iter()
        .count()
}

/// The number of items our own Markdown reader finds in `text` (links,
/// text runs, code), or `None` when it declines the document: its bare
/// parse, for the links bench.
pub fn count_markdown_items(text: &str) -> Option<usize> {
    super::commonmark::count_items(text)
}

/// `text` cut into pages of about `size` bytes, each ending after a blank
/// line (or at the end): how the links bench and the reader's profile
/// cut the Markdown corpus.
pub fn markdown_pages(text: &str, size: usize) -> Vec<&str> {
    let mut pages = vec![];
    let mut start = 0;
    while start < text.len() {
        let cut = (start + size).min(text.len());
        let cut = (cut..=text.len())
            .find(|&c| text.is_char_boundary(c))
            .unwrap_or(text.len());
        let end = text[cut..].find("\n\n").map_or(text.len(), |k| cut + k + 2);
        pages.push(&text[start..end]);
        start = end;
    }
    pages
}

/// Where our own Markdown reader declines `text` (the reader's file and
/// line), or `None` when it reads it: what the decline counts of
/// `examples/markdown_declines.rs` are made of.
pub fn markdown_decline(text: &str, gfm: bool) -> Option<(&'static str, u32)> {
    super::commonmark::read(text, gfm, &mut vec![])
        .err()
        .map(|d| (d.file, d.line))
}

/// Our own Markdown reader against pulldown-cmark on `text`: `Ok(true)`
/// when both give the same links and regions, `Ok(false)` when ours
/// declined the document, `Err` with both outputs when they differ.
pub fn markdown_differential(text: &str, gfm: bool) -> Result<bool, String> {
    let mut oracle = vec![];
    let want = markdown::read_with_pulldown(text, gfm, &mut oracle);
    let mut ours = vec![];
    let Ok(got) = super::commonmark::read(text, gfm, &mut ours) else {
        return Ok(false);
    };
    let items = |links: &[super::RawLink], r: &markdown::Regions| {
        let mut all: Vec<(usize, String)> =
            links.iter().map(|l| (l.span().start, format!("{l:?}"))).collect();
        for (name, spans) in
            [("text", &r.text), ("code", &r.code), ("html", &r.html)]
        {
            all.extend(
                spans.iter().map(|s| (s.start, format!("{name} {s:?}"))),
            );
        }
        all
    };
    let (want, got) = (items(&oracle, &want), items(&ours, &got));
    let Some(k) =
        (0..want.len().max(got.len())).find(|&k| want.get(k) != got.get(k))
    else {
        return Ok(true);
    };
    let at = want.get(k).or(got.get(k)).map_or(0, |w| w.0);
    let (mut from, mut to) =
        (at.saturating_sub(80), (at + 80).min(text.len()));
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    while !text.is_char_boundary(to) {
        to += 1;
    }
    Err(format!(
        "around {at} of {:?} (gfm {gfm}): {:?}\n  pulldown-cmark: {:?}\n  ours:           {:?}",
        text.get(..40).unwrap_or(text),
        &text[from..to],
        want.get(k).map(|w| &w.1),
        got.get(k).map(|g| &g.1),
    ))
}

/// The number of start tags in `html`, read by the tokenizer that
/// extraction runs with a sink that wants nothing else: the bare
/// tokenizer, for the links bench.
pub fn count_start_tags(html: &[u8]) -> usize {
    struct Count(usize);
    impl TagSink for Count {
        fn start_tag(&mut self, _tag: &StartTag) {
            self.0 += 1;
        }
        fn wants_value(&self, _name: &[u8]) -> bool {
            false
        }
    }
    let mut count = Count(0);
    for_each_tag(html, &mut count);
    count.0
}

/// The total length of the decoded values of the attributes that hold
/// links in `html`, read by the tokenizer that extraction runs, with
/// extraction's own filter of attributes: the least any extraction on
/// this tokenizer reads (every link's value, decoded), with nothing
/// split, resolved or kept. For the links bench's floor.
pub fn count_link_values(html: &[u8]) -> usize {
    let mut v = FloorSink { total: 0, then: FloorWork::Nothing };
    for_each_tag(html, &mut v);
    v.total
}

/// [`count_link_values`], with each value then checked byte by byte
/// against RFC 3986's `query` and `#` (one table lookup a byte) and
/// appended to `dir`, in one buffer: the least that forming each target
/// costs, whatever the resolver (every byte of a link read once, every
/// byte of a target written once). For the links bench's floor of
/// resolution; it resolves nothing (no dot segment, no repair).
pub fn count_link_concatenated(html: &[u8], dir: &str) -> usize {
    let mut target = String::new();
    let mut v = FloorSink {
        total: 0,
        then: FloorWork::Concatenate { dir, to: &mut target, hand_out: None },
    };
    for_each_tag(html, &mut v);
    v.total
}

/// [`count_link_concatenated`], with each link then handed out as
/// extraction hands it out: a [`LinkRef`](LinkRef) with its kind,
/// its span, its raw text and link (each checked as UTF-8 alone, not the
/// whole page), its target (none when the check failed), and no place
/// counted, to a function that adds up the links' lengths and targets,
/// as the bench's borrowed links do. What the
/// least extraction built on this tokenizer costs: every link read,
/// formed and handed out, in one pass, with nothing kept.
pub fn count_link_handed_out(html: &[u8], dir: &str) -> usize {
    let mut target = String::new();
    let mut total = 0;
    let mut sink = |l: LinkRef<'_>| {
        total += l.link().len() + usize::from(l.target().is_some());
    };
    let mut v = FloorSink {
        total: 0,
        then: FloorWork::Concatenate {
            dir,
            to: &mut target,
            hand_out: Some((html, &mut sink)),
        },
    };
    for_each_tag(html, &mut v);
    total
}

/// [`count_link_values`], with each value resolved against `base` as it
/// is read, by extraction's own resolver, into one buffer: the total
/// length of the targets. For the links bench, between the values and the
/// links: what resolving costs, apart from the rest of extraction (the
/// raw links, their order, places and kinds, the handing out).
pub fn count_link_targets(html: &[u8], base: &str) -> usize {
    let Some(base) = target::Base::new(Some(base), None) else {
        return 0;
    };
    let resolver = base.resolver();
    let mut target = String::new();
    let mut v = FloorSink {
        total: 0,
        then: FloorWork::Resolve { resolver: &resolver, to: &mut target },
    };
    for_each_tag(html, &mut v);
    v.total
}

/// The sink of the bench's floors.
struct FloorSink<'r> {
    total: usize,
    then: FloorWork<'r>,
}

/// Where the handed-out floor hands each link.
type HandOut<'r> = dyn FnMut(LinkRef<'_>) + 'r;

/// What a floor does with each link value.
enum FloorWork<'r> {
    Nothing,
    /// Each value checked and appended to `dir`; then, with the page,
    /// handed out as a link to the function.
    Concatenate {
        dir: &'r str,
        to: &'r mut String,
        hand_out: Option<(&'r [u8], &'r mut HandOut<'r>)>,
    },
    Resolve {
        resolver: &'r target::Resolver<'r>,
        to: &'r mut String,
    },
}

impl TagSink for FloorSink<'_> {
    fn start_tag(&mut self, tag: &StartTag) {
        /// `query` and `#`: the bytes a plain link is made of.
        const PLAIN: crate::syntax::chars::Table = crate::syntax::chars::QUERY
            .or(crate::syntax::chars::Table::new(b"#"));
        for a in tag.attrs() {
            let Some((attr, _)) = link_attr(&tag.name, &a.name) else {
                continue;
            };
            match &mut self.then {
                FloorWork::Nothing => self.total += a.value.len(),
                FloorWork::Concatenate { dir, to, hand_out } => {
                    let plain = a.value.iter().all(|&c| PLAIN.contains(c));
                    let link = text_of(&a.value);
                    to.clear();
                    to.push_str(dir);
                    to.push_str(&link);
                    let Some((src, sink)) = hand_out else {
                        self.total += to.len() + usize::from(plain);
                        continue;
                    };
                    sink(LinkRef {
                        kind: Kind::Html(attr),
                        span: a.raw,
                        place: Place::Known { line: 0, column: 0 },
                        raw: &text_of(&src[a.raw.range()]),
                        link: &link,
                        target: plain.then_some(to.as_str()),
                        error: None,
                        extra: None,
                    });
                }
                FloorWork::Resolve { resolver, to } => {
                    to.clear();
                    let _ = resolver.resolve_into(&text_of(&a.value), to);
                    self.total += to.len();
                }
            }
        }
    }
    fn wanted_attrs(&self, name: &[u8]) -> Wanted {
        wanted_attrs(name, false)
    }
    fn wants_value(&self, name: &[u8]) -> bool {
        name == b"style" || link_attr_elements(name).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bench's floors count what they say: the link values, and their
    /// targets, of the link attributes only.
    #[test]
    fn the_floors_count_link_values_and_targets() {
        let html = br#"<p id=x title=t><a href="b.html" rel=r>a</a><img src="&amp;c">"#;
        assert_eq!(count_link_values(html), "b.html".len() + "&c".len());
        assert_eq!(
            count_link_targets(html, "https://h/d/"),
            "https://h/d/b.html".len() + "https://h/d/&c".len()
        );
        assert_eq!(
            count_link_handed_out(html, "https://h/d/"),
            "b.html".len() + "&c".len() + 2
        );
        // A value that fails the check has no target.
        assert_eq!(count_link_handed_out(b"<a href='a b'>", "https://h/"), 3);
        // And one for each plain value (`&` is one).
        assert_eq!(
            count_link_concatenated(html, "https://h/d/"),
            "https://h/d/b.html".len() + "https://h/d/&c".len() + 2
        );
    }
}
