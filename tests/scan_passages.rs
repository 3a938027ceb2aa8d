//! Runs tests/data/passages.txt: one passage per line, expected URIs
//! marked with `|...|` (the file's header explains the markup). Every
//! failing line is reported, not only the first.

use uriscan::scanning::Finder;

/// One expected match: the marked span and the URI.
#[derive(Debug, PartialEq)]
struct Expected {
    start: usize,
    end: usize,
    uri: String,
}

struct Passage {
    input: String,
    expected: Vec<Expected>,
    any: bool,
    ascii: bool,
    hyphen: bool,
    schemes: Option<Vec<String>>,
}

fn parse(line: &str) -> Result<Passage, String> {
    let mut rest = line;
    let (mut any, mut ascii, mut hyphen, mut schemes) =
        (false, false, false, None);
    while let Some(opt) = rest.strip_prefix('@') {
        let (word, tail) = opt.split_once(' ').ok_or("option without text")?;
        match word {
            "any" => any = true,
            "ascii" => ascii = true,
            "hyphen" => hyphen = true,
            w if w.starts_with("schemes=") => {
                schemes = Some(w[8..].split(',').map(String::from).collect())
            }
            w => return Err(format!("unknown option @{w}")),
        }
        rest = tail;
    }
    let mut input = String::new();
    let mut expected = Vec::new();
    // Inside a marker: its start in `input` and the text after `=>`.
    let mut open: Option<(usize, Option<String>)> = None;
    let mut chars = rest;
    while let Some(c) = chars.chars().next() {
        let escapes = [
            ("{|}", "|"),
            ("{nl}", "\n"),
            ("{crlf}", "\r\n"),
            ("{tab}", "\t"),
        ];
        if let Some((esc, lit)) =
            escapes.iter().find(|(esc, _)| chars.starts_with(esc))
        {
            match &mut open {
                Some((_, Some(uri))) => uri.push_str(lit),
                _ => input.push_str(lit),
            }
            chars = &chars[esc.len()..];
            continue;
        }
        if c == '|' {
            match open.take() {
                None => open = Some((input.len(), None)),
                Some((start, uri)) => {
                    let raw = input[start..].to_string();
                    expected.push(Expected {
                        start,
                        end: input.len(),
                        uri: uri.unwrap_or(raw),
                    });
                }
            }
        } else if chars.starts_with("=>") && matches!(open, Some((_, None))) {
            open.as_mut().unwrap().1 = Some(String::new());
            chars = &chars[2..];
            continue;
        } else {
            match &mut open {
                Some((_, Some(uri))) => uri.push(c),
                _ => input.push(c),
            }
        }
        chars = &chars[c.len_utf8()..];
    }
    if open.is_some() {
        return Err("unclosed marker".into());
    }
    Ok(Passage { input, expected, any, ascii, hyphen, schemes })
}

#[test]
fn passages() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/passages.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut failures = Vec::new();
    let mut count = 0;
    for (n, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        count += 1;
        let p = match parse(line) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("line {}: bad markup: {e}", n + 1));
                continue;
            }
        };
        let mut b = Finder::builder();
        b.any_scheme(p.any).ascii(p.ascii);
        if let Some(s) = &p.schemes {
            b.schemes(s);
        }
        let finder = b.build();
        let got: Vec<_> = finder.find_iter(p.input.as_bytes()).collect();
        let got_exp: Vec<Expected> = got
            .iter()
            .map(|m| Expected {
                start: m.span().start,
                end: m.span().end,
                uri: m.as_str().to_string(),
            })
            .collect();
        let mut problems = Vec::new();
        if got_exp != p.expected {
            problems
                .push(format!("expected {:?}, got {:?}", p.expected, got_exp));
        }
        for m in &got {
            let raw = &p.input[m.span().range()];
            if m.hyphen_break() != p.hyphen {
                problems.push(format!("hyphen_break {}", m.hyphen_break()));
            }
            if !p.ascii && m.rejoined() != (raw != m.as_str()) {
                problems.push(format!("rejoined {}", m.rejoined()));
            }
        }
        if !problems.is_empty() {
            failures.push(format!(
                "line {}: {line}\n    {}",
                n + 1,
                problems.join("\n    ")
            ));
        }
    }
    assert!(count >= 150, "only {count} passages");
    assert!(
        failures.is_empty(),
        "{} of {count} passages failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
