//! Runs tests/data/passages.txt: one passage per line, expected URIs
//! marked with `|...|` (the file's header explains the markup). Every
//! failing line is reported, not only the first. Also the precision and
//! recall of the extractor on tests/data/precision/real.txt, real lines
//! labelled by hand (that file's header says how it was made).

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

/// The lines of a data file that hold a passage, with their 1-based
/// numbers.
fn passage_lines(name: &str) -> Vec<(usize, String)> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(n, l)| (n + 1, l.to_string()))
        .collect()
}

/// The matches of the default finder, in the shape of the labels.
fn found(input: &str) -> Vec<Expected> {
    Finder::new()
        .find_iter(input.as_bytes())
        .map(|m| Expected {
            start: m.span().start,
            end: m.span().end,
            uri: m.as_str().to_string(),
        })
        .collect()
}

/// Precision and recall on real lines: a found URI is right only when
/// its span and URI are exactly a labelled one. The floors are the
/// figures measured when the set was made, so that a change that loses
/// either fails here and shows the lines it got wrong.
#[test]
fn precision_on_real_lines() {
    let (mut right, mut found_n, mut labelled) = (0, 0, 0);
    let mut wrong = Vec::new();
    for (n, line) in passage_lines("precision/real.txt") {
        let p = parse(&line).unwrap_or_else(|e| panic!("line {n}: {e}"));
        let got = found(&p.input);
        let hits = got.iter().filter(|g| p.expected.contains(g)).count();
        right += hits;
        found_n += got.len();
        labelled += p.expected.len();
        if hits != got.len() || hits != p.expected.len() {
            let uris = |v: &[Expected]| {
                v.iter().map(|e| e.uri.clone()).collect::<Vec<_>>()
            };
            wrong.push(format!(
                "line {n}: expected {:?}, got {:?}",
                uris(&p.expected),
                uris(&got)
            ));
        }
    }
    let precision = right as f64 / found_n as f64;
    let recall = right as f64 / labelled as f64;
    println!(
        "precision {precision:.4} ({right}/{found_n}), \
         recall {recall:.4} ({right}/{labelled})\n{}",
        wrong.join("\n")
    );
    assert!(labelled >= 130, "only {labelled} labelled URIs");
    assert!(
        precision >= PRECISION_FLOOR && recall >= RECALL_FLOOR,
        "precision {precision:.4}, recall {recall:.4}:\n{}",
        wrong.join("\n")
    );
}

/// What `precision_on_real_lines` measured when the set was made.
const PRECISION_FLOOR: f64 = 1.0;
const RECALL_FLOOR: f64 = 1.0;

#[test]
fn passages() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (n, line) in passage_lines("passages.txt") {
        count += 1;
        let p = match parse(&line) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("line {n}: bad markup: {e}"));
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
                "line {n}: {line}\n    {}",
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
