//! What an `include::` directive takes of the file it names, as
//! Asciidoctor's preprocessor reads it: the lines `lines=` lists, or the
//! regions `tag=`/`tags=` select between `tag::NAME[]` and `end::NAME[]`
//! (in a comment of any language), with `!NAME`, `*` and `**`.

/// An `include::` directive of an AsciiDoc document, as a check that
/// follows it needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsciidocInclude {
    /// The file it names, as its link has it: attribute references
    /// expanded, an Antora resource id resolved.
    pub link: String,
    /// The line it stands at, from 1.
    pub line: u64,
    /// The part of the file it takes; `None` for all of it.
    pub selection: Option<IncludeSelection>,
    /// It stands in a verbatim block (a listing, a literal): its text is
    /// shown as it is, and holds no links.
    pub verbatim: bool,
    /// The attributes in effect where it stands, as
    /// [`Page::attributes`](crate::links::Page::attributes) takes them: the
    /// included text is read with them.
    pub attributes: Vec<(String, String)>,
}

/// The part of a file an AsciiDoc `include::` directive takes: its
/// `lines=`, else its `tag=` or `tags=`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IncludeSelection {
    /// The attribute as written (`tag=x`, `lines=1..5;10`), after its
    /// attribute references are expanded.
    written: Box<str>,
    how: How,
}

/// How the lines are chosen.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum How {
    /// The lines `lines=` lists.
    Lines(LineNumbers),
    /// Each tag named, and whether it is taken (`!NAME` is not).
    Tags(Vec<(Box<str>, bool)>),
}

/// A file's text as an include takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selected {
    /// The text with each line not taken blanked (its bytes spaces, its
    /// line end kept): every link keeps its offset, line and column.
    pub text: String,
    /// The tags the include asks for that the file does not hold, which
    /// Asciidoctor warns of.
    pub missing_tags: Vec<String>,
}

impl IncludeSelection {
    /// The selection of the attribute list `attrlist` (what is between
    /// the brackets, its references expanded): `lines=` wins over `tag=`,
    /// which wins over `tags=`; `None` when the whole file is taken.
    pub(crate) fn parse(attrlist: &str) -> Option<IncludeSelection> {
        let attrs = named_attributes(attrlist);
        let get = |name: &str| {
            attrs.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v)
        };
        if let Some(lines) = get("lines") {
            // Given, `lines=` wins even when it lists no number.
            let numbers = LineNumbers::parse(lines)?;
            let written = format!("lines={lines}").into();
            return Some(IncludeSelection {
                written,
                how: How::Lines(numbers),
            });
        }
        let (name, tags) = if let Some(tag) = get("tag") {
            let taken = match tag.strip_prefix('!') {
                Some(t) => vec![(t, false)],
                None => vec![(tag.as_str(), true)],
            };
            ("tag", (tag, taken))
        } else {
            let tags = get("tags")?;
            let taken = split_delimited(tags)
                .filter(|t| !t.is_empty() && *t != "!")
                .map(|t| match t.strip_prefix('!') {
                    Some(t) => (t, false),
                    None => (t, true),
                })
                .collect();
            ("tags", (tags, taken))
        };
        let (value, taken) = tags;
        let mut map: Vec<(Box<str>, bool)> = vec![];
        for (tag, take) in taken {
            if tag.is_empty() {
                continue;
            }
            match map.iter_mut().find(|(t, _)| &**t == tag) {
                Some(entry) => entry.1 = take,
                None => map.push((tag.into(), take)),
            }
        }
        (!map.is_empty()).then(|| IncludeSelection {
            written: format!("{name}={value}").into(),
            how: How::Tags(map),
        })
    }

    /// The attribute as written: `tag=x`, `tags=a;!b`, `lines=1..5;10`.
    pub fn as_str(&self) -> &str {
        &self.written
    }

    /// `text` (a file's) as the include takes it.
    pub fn select(&self, text: &str) -> Selected {
        match &self.how {
            How::Lines(numbers) => Selected {
                text: keep_lines(text, |n, _| numbers.takes(n)),
                missing_tags: vec![],
            },
            How::Tags(tags) => select_tags(text, tags),
        }
    }
}

/// `text` with every line for which `keep(number, line)` is false
/// blanked: its bytes but the line end made spaces.
fn keep_lines<'t>(
    text: &'t str,
    mut keep: impl FnMut(u64, &'t str) -> bool,
) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let body = line.strip_suffix('\n').unwrap_or(line);
        if keep(i as u64 + 1, body.strip_suffix('\r').unwrap_or(body)) {
            out.push_str(line);
        } else {
            out.extend(std::iter::repeat_n(' ', body.len()));
            if body.len() < line.len() {
                out.push('\n');
            }
        }
    }
    out
}

/// The regions of `text` that `tags` select, by Asciidoctor's rules
/// (`Reader#preprocess_include_directive`): outside any tag, lines are
/// taken with `**`, or when no tag is asked for (only `!NAME`s); a tag
/// not named takes the value of `*` when it is given, else leaves the
/// selection as it is; the directive lines are never taken.
fn select_tags<'t>(text: &'t str, tags: &[(Box<str>, bool)]) -> Selected {
    let value = |name: &str| {
        tags.iter().find(|(t, _)| &**t == name).map(|&(_, take)| take)
    };
    let named: Vec<&(Box<str>, bool)> =
        tags.iter().filter(|(t, _)| !matches!(&**t, "*" | "**")).collect();
    let (base, wildcard) = match (value("**"), value("*")) {
        (Some(all), Some(star)) => (all, Some(star)),
        (Some(all), None) => (all, Some(all)),
        // Asked before `*` is set apart: `tags=*` asks for a tag.
        (None, star) => (!tags.iter().any(|(_, take)| *take), star),
    };
    let mut select = base;
    // The open tags, innermost last, with the selection each set.
    let mut stack: Vec<(&'t str, bool)> = vec![];
    let mut found: Vec<&'t str> = vec![];
    let text_out = keep_lines(text, |_, line| {
        let Some((end, tag)) = tag_directive(line) else { return select };
        let active = stack.last().map(|(t, _)| *t);
        let asked = named.iter().find(|(t, _)| &**t == tag);
        if end {
            if active == Some(tag) {
                stack.pop();
                select = stack.last().map_or(base, |&(_, s)| s);
            } else if asked.is_some()
                && let Some(i) = stack.iter().rposition(|(t, _)| *t == tag)
            {
                // A mismatched end: the tag is closed, the selection kept.
                stack.remove(i);
            }
        } else if let Some((_, take)) = asked {
            select = *take;
            if select && !found.contains(&tag) {
                found.push(tag);
            }
            stack.push((tag, select));
        } else if let Some(star) = wildcard {
            select = if active.is_some() && !select { false } else { star };
            stack.push((tag, select));
        }
        false
    });
    let missing_tags = named
        .iter()
        .filter(|(t, take)| *take && !found.contains(&&**t))
        .map(|(t, _)| t.to_string())
        .collect();
    Selected { text: text_out, missing_tags }
}

/// A tag directive in `line`: whether it ends a region, and its name.
/// Asciidoctor's `TagDirectiveRx`, `\b(?:tag|(e)nd)::(\S+?)\[\](?=$|[ \r])`:
/// anywhere in the line, after no word character, the first that
/// matches.
fn tag_directive(line: &str) -> Option<(bool, &str)> {
    if !line.contains("::") || !line.contains("[]") {
        return None;
    }
    let bytes = line.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
    let mut from = 0;
    while let Some(i) = memchr::memmem::find(&bytes[from..], b"::") {
        let colons = from + i;
        from = colons + 1;
        if colons < 3 {
            continue;
        }
        let end = match &bytes[colons - 3..colons] {
            b"tag" => false,
            b"end" => true,
            _ => continue,
        };
        if colons > 3 && word(bytes[colons - 4]) {
            continue;
        }
        let name_at = colons + 2;
        let mut j = name_at + 1;
        while j + 1 < bytes.len() && !bytes[j - 1].is_ascii_whitespace() {
            let closes = &bytes[j..j + 2] == b"[]"
                && matches!(bytes.get(j + 2), None | Some(b' ' | b'\r'));
            if closes {
                return Some((end, &line[name_at..j]));
            }
            j += 1;
        }
    }
    None
}

/// Asciidoctor's `split_delimited_value`: on `,` when there is one, else
/// on `;`; as Ruby's `split`, without the empty items at the end.
fn split_delimited(value: &str) -> impl Iterator<Item = &str> {
    let on = if value.contains(',') { ',' } else { ';' };
    let items: Vec<&str> = value.split(on).collect();
    let kept = items.iter().rposition(|i| !i.is_empty()).map_or(0, |i| i + 1);
    items.into_iter().take(kept)
}

/// The numbers `lines=` lists (`1..5;10`, `8..` or `8..-1` to the end),
/// each read as Ruby's `to_i` reads it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct LineNumbers {
    /// Each range, both ends in it; an empty one (`5..3`) left out.
    ranges: Vec<(i64, i64)>,
    /// The least number listed.
    least: i64,
    /// Whether some range runs to the end.
    to_the_end: bool,
}

impl LineNumbers {
    /// The numbers of `value`; `None` when it lists none.
    fn parse(value: &str) -> Option<LineNumbers> {
        let mut ranges = vec![];
        let mut to_the_end = false;
        for def in split_delimited(value) {
            match def.split_once("..") {
                Some((from, to)) => {
                    let from = to_i(from);
                    let to = if to.is_empty() { -1 } else { to_i(to) };
                    if to < 0 {
                        ranges.push((from, from));
                        to_the_end = true;
                    } else if from <= to {
                        ranges.push((from, to));
                    }
                }
                None => {
                    let n = to_i(def);
                    ranges.push((n, n));
                }
            }
        }
        let least = ranges.iter().map(|&(from, _)| from).min()?;
        Some(LineNumbers { ranges, least, to_the_end })
    }

    /// Whether line `n` (from 1) is taken. Asciidoctor walks the sorted
    /// numbers as it reads the lines: a number below 1 is never met, so
    /// that nothing is taken; the end is reached only after the greatest
    /// number (`8..;10` leaves 9 out).
    fn takes(&self, n: u64) -> bool {
        if self.least < 1 {
            return false;
        }
        let n = i64::try_from(n).unwrap_or(i64::MAX);
        let greatest = self.ranges.iter().map(|&(_, to)| to).max();
        self.ranges.iter().any(|&(from, to)| from <= n && n <= to)
            || (self.to_the_end && greatest.is_some_and(|g| n > g))
    }
}

/// Ruby's `String#to_i`: leading blanks, a sign and the digits after,
/// `0` without.
fn to_i(text: &str) -> i64 {
    let t = text.trim_start();
    let (negative, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let digits = t.bytes().take_while(u8::is_ascii_digit);
    let n = digits.fold(0i64, |n, d| {
        n.saturating_mul(10).saturating_add(i64::from(d - b'0'))
    });
    if negative { -n } else { n }
}

/// The named attributes of an attribute list (`name=value`, the value
/// bare, or quoted with `"` or `'`), in order; positional ones left out.
fn named_attributes(attrlist: &str) -> Vec<(String, String)> {
    let mut out = vec![];
    let mut rest = attrlist;
    while !rest.is_empty() {
        let item_end;
        let item;
        let trimmed = rest.trim_start();
        let eq = trimmed.find(['=', ',']);
        match eq {
            Some(e) if trimmed.as_bytes()[e] == b'=' => {
                let name = trimmed[..e].trim();
                let value = trimmed[e + 1..].trim_start();
                let (v, after) = match value.as_bytes().first() {
                    Some(&q @ (b'"' | b'\'')) => {
                        match value[1..].find(q as char) {
                            Some(c) => (&value[1..1 + c], &value[c + 2..]),
                            None => (value, ""),
                        }
                    }
                    _ => {
                        let c = value.find(',').unwrap_or(value.len());
                        (value[..c].trim_end(), &value[c..])
                    }
                };
                item = Some((name.to_ascii_lowercase(), v.to_owned()));
                item_end = after;
            }
            _ => {
                item = None;
                item_end = &trimmed[eq.unwrap_or(trimmed.len())..];
            }
        }
        out.extend(item);
        rest = match item_end.find(',') {
            Some(c) => &item_end[c + 1..],
            None => "",
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taken(attrlist: &str, text: &str) -> Vec<String> {
        let selected = match IncludeSelection::parse(attrlist) {
            Some(s) => s.select(text).text,
            None => text.to_owned(),
        };
        selected
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned)
            .collect()
    }

    const FILE: &str = "l1\n// tag::a[]\nl3\n# tag::b[]\nl5\n# end::b[]\n\
                        // end::a[]\nl8\n<!-- tag::c[] -->\nl10\n<!-- end::c[] -->\nl12\n";

    #[test]
    fn tags_as_asciidoctor_selects_them() {
        assert_eq!(taken("tag=a", FILE), ["l3", "l5"]);
        assert_eq!(taken("tags=a;!b", FILE), ["l3"]);
        assert_eq!(taken("tags=*", FILE), ["l3", "l5", "l10"]);
        assert_eq!(
            taken("tags=**", FILE),
            ["l1", "l3", "l5", "l8", "l10", "l12"]
        );
        assert_eq!(taken("tags=**;!*", FILE), ["l1", "l8", "l12"]);
        assert_eq!(taken("tags=!a", FILE), ["l1", "l8", "l10", "l12"]);
        assert_eq!(taken("tags=\"c,b\"", FILE), ["l5", "l10"]);
        let missing = IncludeSelection::parse("tags=a;zz").unwrap();
        assert_eq!(missing.select(FILE).missing_tags, ["zz"]);
        assert_eq!(missing.as_str(), "tags=a;zz");
    }

    #[test]
    fn lines_win_and_keep_positions() {
        assert_eq!(
            taken("lines=1..3;10", FILE),
            ["l1", "// tag::a[]", "l3", "l10"]
        );
        assert_eq!(taken("lines=\"1,8..-1\"", FILE).len(), 6);
        assert_eq!(taken("lines=11..", FILE), ["<!-- end::c[] -->", "l12"]);
        assert_eq!(taken("lines=1, tag=a", FILE), ["l1"]);
        let s = IncludeSelection::parse("lines=3").unwrap();
        let text = s.select(FILE).text;
        assert_eq!(text.len(), FILE.len());
        assert_eq!(text.lines().nth(2), Some("l3"));
        // Nothing selects: the whole file.
        assert!(IncludeSelection::parse("leveloffset=+1").is_none());
        assert!(IncludeSelection::parse("lines=5..3, tag=a").is_none());
        assert_eq!(taken("lines=0", FILE), Vec::<String>::new());
    }

    proptest::proptest! {
        /// Any selection of any text keeps every byte's place.
        #[test]
        fn a_selection_keeps_every_place(
            text in "([a-z:\\[\\]!*/ \r\n]|tag::|end::|é){0,80}",
            list in "((tags?|lines)=[a-z0-9.;,!*\"-]{0,12},?){0,3}",
        ) {
            if let Some(s) = IncludeSelection::parse(&list) {
                let taken = s.select(&text);
                proptest::prop_assert_eq!(taken.text.len(), text.len());
                for (ours, theirs) in taken.text.lines().zip(text.lines()) {
                    proptest::prop_assert!(
                        ours.trim().is_empty() || ours == theirs
                    );
                }
            }
        }
    }

    #[test]
    fn directives_and_numbers_as_ruby_reads_them() {
        assert_eq!(tag_directive("// tag::x[]"), Some((false, "x")));
        assert_eq!(tag_directive("<!-- end::x-y[] -->"), Some((true, "x-y")));
        assert_eq!(tag_directive("retag::x[]"), None);
        assert_eq!(tag_directive("tag::x[]y"), None);
        assert_eq!(tag_directive("tag::[]"), None);
        assert_eq!(to_i(" +12x"), 12);
        assert_eq!(to_i("-1"), -1);
        assert_eq!(to_i("x"), 0);
        let takes = |value: &str| {
            let numbers = LineNumbers::parse(value);
            numbers
                .map(|l| (1..=12).filter(|&n| l.takes(n)).collect::<Vec<_>>())
        };
        assert_eq!(takes("8..;10"), Some(vec![8, 10, 11, 12]));
        assert_eq!(takes("3..-1"), Some((3..=12).collect()));
        assert_eq!(takes("..5"), Some(vec![]));
        assert_eq!(takes("2;0"), Some(vec![]));
        assert_eq!(takes("x"), Some(vec![]));
        assert_eq!(takes("5..3"), None);
        assert_eq!(takes(""), None);
        assert_eq!(takes("2;"), Some(vec![2]));
    }
}
