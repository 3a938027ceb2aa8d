//! The settings of myst-parser that change which links a document holds,
//! as a Sphinx project's `conf.py` sets them: read, never executed, from
//! simple assignments of literals.

/// What myst-parser is told by a project's `conf.py`, as far as links go.
/// [`Default`] is myst-parser's defaults (what a `conf.py` that sets none
/// of them gives); a [`Page`](crate::links::Page) given none is read
/// leniently: every construct of MyST accepted, every URI scheme
/// external, every heading slugged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MystSettings {
    /// `colon_fence` is in `myst_enable_extensions`: `:::{name}` fences
    /// a directive (without it, `:::` is text).
    pub colon_fence: bool,
    /// `myst_url_schemes`: a Markdown link whose scheme is among these is
    /// an external URL; one with another scheme is a reference to
    /// resolve in the project (`project:`, `path:` and `inv:` are always
    /// MyST's own). `None`: every scheme is a URL's.
    pub url_schemes: Option<Vec<String>>,
    /// `myst_heading_anchors`: headings of this level and above (`#` is
    /// 1) get an anchor, their slug; 0 for none.
    pub heading_anchors: u8,
    /// `linkify` is in `myst_enable_extensions`: URLs and e-mail
    /// addresses in text are links, as linkify-it finds them.
    pub linkify: bool,
    /// `myst_linkify_fuzzy_links`: with `linkify`, a host with no scheme
    /// (`www.x.org`, `x.com/a`) is a link too.
    pub linkify_fuzzy_links: bool,
    /// `substitution` is in `myst_enable_extensions`: `{{ name }}` in
    /// text is replaced by the value of `name`, read as Markdown.
    pub substitution: bool,
    /// `myst_substitutions`: each name whose value is a string literal,
    /// with that value (a name given another value is unknown).
    pub substitutions: Vec<(String, String)>,
    /// `attrs_inline` is in `myst_enable_extensions`: `{#id}` right after
    /// a code span, a link, an image or a `[span]` gives it an id.
    pub attrs_inline: bool,
    /// `html_image` is in `myst_enable_extensions`: an `<img>` standing
    /// alone in its HTML is an image, as the `{image}` directive.
    pub html_image: bool,
}

impl Default for MystSettings {
    fn default() -> MystSettings {
        MystSettings {
            colon_fence: false,
            url_schemes: Some(
                ["http", "https", "mailto", "ftp"].map(str::to_owned).to_vec(),
            ),
            heading_anchors: 0,
            linkify: false,
            linkify_fuzzy_links: true,
            substitution: false,
            substitutions: vec![],
            attrs_inline: false,
            html_image: false,
        }
    }
}

impl MystSettings {
    /// What a page given no settings is read with: every fence, every
    /// scheme, every heading, every id; but no link or image that
    /// CommonMark does not make (no linkify, no substitution, no
    /// `html_image`).
    pub(crate) fn lenient() -> &'static MystSettings {
        static LENIENT: std::sync::OnceLock<MystSettings> =
            std::sync::OnceLock::new();
        LENIENT.get_or_init(|| MystSettings {
            colon_fence: true,
            url_schemes: None,
            heading_anchors: 6,
            attrs_inline: true,
            ..MystSettings::default()
        })
    }

    /// The settings a `conf.py` (its text) gives, from top-level
    /// assignments whose value is a literal: `myst_enable_extensions`
    /// (a list, tuple or set of strings), `myst_url_schemes` (a list of
    /// strings, or a dict whose keys are the schemes) and
    /// `myst_heading_anchors` (an integer). What is not such an
    /// assignment keeps its default.
    pub fn from_conf_py(text: &str) -> MystSettings {
        let mut settings = MystSettings::default();
        let literal = |name| assigned(text, name).filter(|v| is_literal(v));
        if let Some(v) = literal("myst_enable_extensions") {
            let extensions = strings(v);
            let on = |name| extensions.iter().any(|e| e == name);
            settings.colon_fence = on("colon_fence");
            settings.linkify = on("linkify");
            settings.substitution = on("substitution");
            // `attrs_image`, its older name, reads ids after images only.
            settings.attrs_inline = on("attrs_inline");
            settings.html_image = on("html_image");
        }
        if let Some(v) = literal("myst_linkify_fuzzy_links") {
            settings.linkify_fuzzy_links = v.trim() != "False";
        }
        // Read entry by entry: a dict whose other values are code still
        // gives its string literals.
        if let Some(v) = assigned(text, "myst_substitutions") {
            settings.substitutions = string_entries(v);
        }
        if let Some(v) = literal("myst_url_schemes") {
            settings.url_schemes = Some(strings(v));
        }
        if let Some(v) = literal("myst_heading_anchors") {
            settings.heading_anchors =
                v.trim().parse::<u32>().map_or(0, |n| n.min(6) as u8);
        }
        settings
    }

    /// Whether a Markdown link to `value` is an external URL: its scheme
    /// is among [`url_schemes`](Self::url_schemes).
    pub(crate) fn is_external(&self, value: &str) -> bool {
        let Some(schemes) = &self.url_schemes else { return true };
        let Some((scheme, _)) = value.split_once(':') else { return false };
        schemes.iter().any(|s| s.eq_ignore_ascii_case(scheme))
    }

    /// What of the settings [`from_conf_py`](Self::from_conf_py) reads
    /// the `conf.py` `text` sets otherwise than by a top-level assignment
    /// of a literal: one line for each, with the default used.
    #[cfg(any(test, feature = "check"))]
    pub(crate) fn unread_in_conf_py(text: &str) -> Vec<String> {
        let defaults = [
            ("myst_enable_extensions", "[]"),
            ("myst_url_schemes", "['http', 'https', 'mailto', 'ftp']"),
            ("myst_heading_anchors", "0"),
            ("myst_linkify_fuzzy_links", "True"),
            ("myst_substitutions", "its string literals"),
        ];
        defaults
            .iter()
            .filter_map(|(name, default)| {
                let why = unread_setting(text, name)?;
                Some(format!("{name}: {why}, {default} used"))
            })
            .collect()
    }
}

/// How the `conf.py` `text` sets `name` otherwise than by top-level
/// assignments of literals (which is all that is read), when it does:
/// `None` when it does not, or does not set it at all.
#[cfg(any(test, feature = "check"))]
pub(crate) fn unread_setting(text: &str, name: &str) -> Option<&'static str> {
    for line in text.lines() {
        let code = line.trim_start_matches([' ', '\t']);
        let Some(rest) = code.strip_prefix(name) else { continue };
        let op = rest.trim_start_matches([' ', '\t']);
        let assigns = op.starts_with('=') && !op.starts_with("==");
        let changes = ["+=", ".append(", ".extend(", "[", "|=", ".add("]
            .iter()
            .any(|o| op.starts_with(o));
        if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if changes {
            return Some("changed by code");
        }
        if assigns && code.len() < line.len() {
            return Some("set inside a block");
        }
    }
    assigned(text, name).filter(|v| !is_literal(v)).map(|_| "not a literal")
}

/// Whether `value` (an assignment's, as [`assigned`] gives it) is a
/// literal: strings, numbers, `True`, `False` and `None`, in brackets,
/// with commas and colons between. A name or a call is code.
fn is_literal(value: &str) -> bool {
    let mut strings = vec![];
    literal_len(value, &mut |_, start, end| strings.push((start, end)));
    // The text outside the strings and comments.
    let mut rest = String::new();
    let mut at = 0;
    for (start, end) in strings {
        rest.push_str(&value[at..start.saturating_sub(1).max(at)]);
        at = (end + 1).min(value.len()).max(at);
    }
    rest.push_str(&value[at.min(value.len())..]);
    let rest: String =
        rest.lines().map(|l| l.split('#').next().unwrap_or("")).collect();
    !value.trim().is_empty()
        && rest
            .split(|c: char| "[](){},: \t\r-+.".contains(c))
            .filter(|w| !w.is_empty())
            .all(|w| {
                matches!(w, "True" | "False" | "None")
                    || w.bytes().all(|b| b.is_ascii_digit() || b == b'_')
                    || w.bytes().all(|b| b"rbuRBUfF".contains(&b))
            })
}

/// The value of the last top-level assignment to `name` in `text`: from
/// after its `=` to where its brackets close (a value may span lines),
/// comments removed.
pub(crate) fn assigned<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    let mut found = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let Some(rest) = line.strip_prefix(name) else { continue };
        let rest = rest.trim_start_matches([' ', '\t']);
        let Some(value) =
            rest.strip_prefix('=').filter(|v| !v.starts_with('='))
        else {
            continue;
        };
        let from = start + (line.len() - value.len());
        let len = literal_len(&text[from..], &mut |_, _, _| {});
        found = Some(&text[from..from + len]);
    }
    found
}

/// The length of the literal `text` starts with: up to the end of the
/// line where every bracket opened is closed (strings and comments
/// skipped). Hands each string's span and bracket depth to `each`.
fn literal_len(
    text: &str,
    each: &mut dyn FnMut(usize, usize, usize),
) -> usize {
    let b = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0);
    while i < b.len() {
        match b[i] {
            q @ (b'"' | b'\'') => {
                let start = i + 1;
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                each(depth, start, i.min(b.len()));
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'[' | b'(' | b'{' => depth += 1,
            b']' | b')' | b'}' => depth = depth.saturating_sub(1),
            b'\n' if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The entries of a dict literal whose key and value are both string
/// literals (one string, nothing else), values unescaped as Python
/// reads them.
fn string_entries(value: &str) -> Vec<(String, String)> {
    let mut found: Vec<(usize, usize)> = vec![];
    literal_len(value, &mut |depth, start, end| {
        if depth == 1 {
            found.push((start, end));
        }
    });
    // The code between two strings (or before the first), its comments
    // removed: no string is in it, so a `#` starts a comment.
    let gap = |from: usize, to: usize| -> String {
        let text = value.get(from..to).unwrap_or("");
        let code = text.lines().map(|l| l.split('#').next().unwrap_or(""));
        code.collect::<Vec<_>>().join(" ").trim().to_owned()
    };
    let mut entries = vec![];
    for (k, pair) in found.windows(2).enumerate() {
        let ((ks, ke), (vs, ve)) = (pair[0], pair[1]);
        // `'key': 'value'`: after the dict's `{` or a comma, only the
        // colon between the strings, and a comma or the closing bracket
        // after the value.
        let prev_end = if k == 0 { 0 } else { found[k - 1].1 + 1 };
        let before_key = gap(prev_end, ks.saturating_sub(1));
        let next = found.get(k + 2).map_or(value.len(), |(s, _)| s - 1);
        let after = gap(ve + 1, next);
        if gap(ke + 1, vs.saturating_sub(1)) == ":"
            && after.starts_with([',', '}'])
            && before_key.ends_with(['{', ','])
        {
            let key = unescape(&value[ks..ke]);
            entries.push((key, unescape(&value[vs..ve])));
        }
    }
    entries
}

/// A Python string literal's text with its common escapes read.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// The string literals of a list, tuple or set literal, or the keys of a
/// dict literal: the strings at the first depth of brackets, a dict's
/// values (after a `:`) left out.
pub(crate) fn strings(value: &str) -> Vec<String> {
    let mut out = vec![];
    literal_len(value, &mut |depth, start, end| {
        let is_value = value[..start - 1].trim_end().ends_with(':');
        if depth == 1 && !is_value {
            out.push(value[start..end].to_owned());
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_read_from_simple_assignments() {
        let conf = "extensions = ['myst_parser']\n\
            myst_enable_extensions = [\n    \"deflist\",  # lists\n    \"colon_fence\",\n]\n\
            myst_url_schemes = {\n    'http': None,\n    'gh': 'https://github.com/{{path}}',\n}\n\
            myst_heading_anchors = 3\n";
        let s = MystSettings::from_conf_py(conf);
        assert!(s.colon_fence);
        assert_eq!(
            s.url_schemes.as_deref(),
            Some(&["http", "gh"].map(String::from)[..])
        );
        assert_eq!(s.heading_anchors, 3);
        assert!(s.is_external("GH:x") && !s.is_external("https://x"));
        let tuple = MystSettings::from_conf_py(
            "myst_enable_extensions = ('linkify',)\nmyst_url_schemes = ['https']\n",
        );
        assert!(!tuple.colon_fence);
        assert_eq!(tuple.url_schemes, Some(vec!["https".to_owned()]));
        assert_eq!(
            MystSettings::from_conf_py("# nothing\n"),
            MystSettings::default()
        );
        // Not a top-level assignment: a comparison, an indented line.
        let other = MystSettings::from_conf_py(
            "if x:\n    myst_heading_anchors = 2\nmyst_heading_anchors == 4\n",
        );
        assert_eq!(other.heading_anchors, 0);
        assert!(MystSettings::lenient().is_external("anything:x"));
        // Code keeps the defaults, and says so.
        let code = "myst_url_schemes = BASE_SCHEMES\n\
                    myst_heading_anchors = 2 if x else 3\n\
                    myst_enable_extensions = ['deflist']\n\
                    myst_enable_extensions.append('colon_fence')\n";
        assert_eq!(MystSettings::from_conf_py(code), MystSettings::default());
        assert_eq!(
            MystSettings::unread_in_conf_py(code),
            [
                "myst_enable_extensions: changed by code, [] used",
                "myst_url_schemes: not a literal, ['http', 'https', 'mailto', 'ftp'] used",
                "myst_heading_anchors: not a literal, 0 used",
            ]
        );
        assert!(MystSettings::unread_in_conf_py(conf).is_empty());
        assert!(
            is_literal("{'a': None, \"b\": 'x#y'}  # note")
                && is_literal(" 3")
        );
        assert!(!is_literal(" get()") && !is_literal(" [a, 'b']"));
        for malformed in [
            "myst_url_schemes = ['a\\",
            "myst_url_schemes = {'é': ",
            "myst_enable_extensions = ]]'",
            "myst_heading_anchors =",
            "myst_url_schemes = \"é\\é\"",
        ] {
            let _ = MystSettings::from_conf_py(malformed);
        }
    }
}
