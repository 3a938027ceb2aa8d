//! A tolerant reader of the few keys a Docusaurus configuration (or
//! sidebar) written in JavaScript or TypeScript holds, that never runs
//! it: the text becomes tokens (strings, names, punctuation; comments and
//! template literals with `${}` are dropped), and a key's value is read
//! only when it is a literal.

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    /// A string literal's value (escapes read simply).
    Str(String),
    /// A name, number or keyword.
    Word(String),
    /// One punctuation character.
    Punct(char),
    /// A template literal with substitutions: not a value.
    Dynamic,
}

/// The tokens of `text`, with the line each starts on.
pub(crate) fn tokens(text: &str) -> Vec<(u32, Token)> {
    let mut out = vec![];
    let mut line = 1u32;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            c if c.is_whitespace() => {}
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut star = false;
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                    }
                    if star && c == '/' {
                        break;
                    }
                    star = c == '*';
                }
            }
            '"' | '\'' | '`' => {
                let start = line;
                let mut s = String::new();
                let mut dynamic = false;
                while let Some(d) = chars.next() {
                    match d {
                        '\\' => {
                            if let Some(e) = chars.next() {
                                s.push(e);
                            }
                        }
                        '\n' => {
                            line += 1;
                            if c != '`' {
                                break;
                            }
                            s.push(d);
                        }
                        '$' if c == '`' && chars.peek() == Some(&'{') => {
                            dynamic = true;
                            s.push(d);
                        }
                        d if d == c => break,
                        d => s.push(d),
                    }
                }
                out.push((
                    start,
                    if dynamic { Token::Dynamic } else { Token::Str(s) },
                ));
            }
            c if c.is_alphanumeric() || c == '_' || c == '$' => {
                let mut w = String::from(c);
                while let Some(&d) = chars.peek() {
                    if d.is_alphanumeric() || d == '_' || d == '$' || d == '.'
                    {
                        w.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push((line, Token::Word(w)));
            }
            c => out.push((line, Token::Punct(c))),
        }
    }
    out
}

/// What a key holds, when it is a literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Literal {
    Str(String),
    Bool(bool),
}

/// The literal value of the first `key:` (or `"key":`) at or after token
/// `from`, and before `until`; `Err(())` when the key is there with a
/// value that is not a literal, `Ok(None)` when it is not there.
pub(crate) fn value_of(
    toks: &[(u32, Token)],
    key: &str,
    from: usize,
    until: usize,
) -> Result<Option<Literal>, ()> {
    let Some(at) = key_at(toks, key, from, until) else {
        return Ok(None);
    };
    match toks.get(at + 2).map(|(_, t)| t) {
        Some(Token::Str(s)) => Ok(Some(Literal::Str(s.clone()))),
        Some(Token::Word(w)) if w == "true" => Ok(Some(Literal::Bool(true))),
        Some(Token::Word(w)) if w == "false" => Ok(Some(Literal::Bool(false))),
        Some(Token::Word(w)) if w == "undefined" => Ok(None),
        _ => Err(()),
    }
}

/// The index of the first `key` followed by `:`, in `from..until`.
pub(crate) fn key_at(
    toks: &[(u32, Token)],
    key: &str,
    from: usize,
    until: usize,
) -> Option<usize> {
    let until = until.min(toks.len());
    (from..until).find(|&i| {
        let named = match &toks[i].1 {
            Token::Word(w) | Token::Str(w) => w == key,
            _ => false,
        };
        named && toks.get(i + 1).map(|(_, t)| t) == Some(&Token::Punct(':'))
    })
}

/// The end (one past the closing brace) of the object opening at or
/// after token `from`.
pub(crate) fn object_end(toks: &[(u32, Token)], from: usize) -> usize {
    let mut depth = 0usize;
    for (i, (_, t)) in toks.iter().enumerate().skip(from) {
        match t {
            Token::Punct('{' | '[' | '(') => depth += 1,
            Token::Punct('}' | ']' | ')') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// The keys whose values name no doc, though they may hold lists of
/// strings: an item's free-form properties.
const NOT_DOC_IDS: [&str; 1] = ["customProps"];

/// The doc ids a sidebar names, with their lines: the strings that are
/// items of a list (`['intro', 'guide/a']`), and the values of `id:`
/// keys (`{type: 'doc', id: 'intro'}`); none inside the value of a key
/// of [`NOT_DOC_IDS`].
pub(crate) fn sidebar_ids(toks: &[(u32, Token)]) -> Vec<(u32, String)> {
    let mut out = vec![];
    // For each open bracket, whether it opens the value of such a key.
    let mut open: Vec<bool> = vec![];
    for (i, (line, t)) in toks.iter().enumerate() {
        match t {
            Token::Punct('[' | '{' | '(') => {
                let key = i.checked_sub(2).map(|k| &toks[k].1);
                let keyed = i >= 1 && toks[i - 1].1 == Token::Punct(':');
                let not_ids = keyed
                    && matches!(key, Some(Token::Word(w) | Token::Str(w)) if NOT_DOC_IDS.contains(&w.as_str()));
                open.push(not_ids);
                continue;
            }
            Token::Punct(']' | '}' | ')') => {
                open.pop();
                continue;
            }
            _ => {}
        }
        let Token::Str(s) = t else { continue };
        if open.iter().any(|&n| n) {
            continue;
        }
        let prev = i.checked_sub(1).map(|p| &toks[p].1);
        let next = toks.get(i + 1).map(|(_, t)| t);
        let item = matches!(prev, Some(Token::Punct('[' | ',')))
            && matches!(next, Some(Token::Punct(',' | ']')));
        let id = matches!(prev, Some(Token::Punct(':')))
            && i >= 2
            && matches!(&toks[i - 2].1, Token::Word(w) | Token::Str(w) if w == "id");
        if item || id {
            out.push((*line, s.clone()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_keys_are_read_and_the_rest_said_unread() {
        let js = r#"
// url: 'https://wrong.example'
const config = {
  url: 'https://e.org', /* baseUrl: '/no/' */
  baseUrl: process.env.BASE,
  trailingSlash: false,
  title: `My ${name}`,
  presets: [['classic', { docs: { path: "guides", routeBasePath: '/' } }]],
};"#;
        let t = tokens(js);
        let all = t.len();
        assert_eq!(
            value_of(&t, "url", 0, all),
            Ok(Some(Literal::Str("https://e.org".into())))
        );
        assert_eq!(value_of(&t, "baseUrl", 0, all), Err(()));
        assert_eq!(
            value_of(&t, "trailingSlash", 0, all),
            Ok(Some(Literal::Bool(false)))
        );
        assert_eq!(value_of(&t, "title", 0, all), Err(()));
        assert_eq!(value_of(&t, "nothing", 0, all), Ok(None));
        let docs = key_at(&t, "docs", 0, all).unwrap();
        let end = object_end(&t, docs);
        assert_eq!(
            value_of(&t, "path", docs, end),
            Ok(Some(Literal::Str("guides".into())))
        );
        assert_eq!(
            value_of(&t, "routeBasePath", docs, end),
            Ok(Some(Literal::Str("/".into())))
        );
    }

    #[test]
    fn sidebar_doc_ids() {
        let js = "module.exports = { docs: ['intro', {type: 'category', label: 'G', items: [\n'guide/a', {type: 'doc', id: 'guide/b'}, {type: 'link', label: 'L', href: 'https://e.org'}]}] };";
        let ids: Vec<String> =
            sidebar_ids(&tokens(js)).into_iter().map(|(_, s)| s).collect();
        assert_eq!(ids, ["intro", "guide/a", "guide/b"]);
        // TypeScript, a category's own doc, and lists that name no doc.
        let ts = "import type {SidebarsConfig} from '@docusaurus/plugin-content-docs';\nconst sidebars: SidebarsConfig = { docs: [{type: 'category', label: 'G', link: {type: 'doc', id: 'guide/index'}, className: 'a', customProps: {tags: ['x', 'y'], more: {id: 'z'}}, items: ['guide/c']}, 'last'] } satisfies SidebarsConfig;\nexport default sidebars;";
        let ids: Vec<String> =
            sidebar_ids(&tokens(ts)).into_iter().map(|(_, s)| s).collect();
        assert_eq!(ids, ["guide/index", "guide/c", "last"]);
        let json = r#"{"docs": {"Intro": ["intro", "more"]}}"#;
        let ids: Vec<String> =
            sidebar_ids(&tokens(json)).into_iter().map(|(_, s)| s).collect();
        assert_eq!(ids, ["intro", "more"]);
        // Unclosed strings and comments end the text, no more.
        let _ = tokens("'abc");
        let _ = tokens("/* never");
    }
}
