//! The anchor a broken fragment most likely meant: the nearest by edit
//! distance, within a bound that keeps it a likely typo.

/// The anchor in `have` closest to `wanted` by edit distance
/// (Levenshtein, in characters), when it is close enough to be a likely
/// typo: at most `max(2, chars(wanted) / 3)` edits. Ties go to the first
/// in `have`.
///
/// ```
/// use uriscan::checking::anchors::suggest;
///
/// let have = ["installation", "usage"];
/// assert_eq!(suggest("instalation", have), Some("installation"));
/// assert_eq!(suggest("licence-and-copyright", have), None);
/// ```
pub fn suggest<'a>(
    wanted: &str,
    have: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    nearest(wanted, have.into_iter().map(|c| (c, Sketch::of(c))))
}

/// [`suggest`] over names whose [`Sketch`]es are given with them (made
/// once for a set that many links look in): each name held in turn, the
/// simple reference that an index of the names is held to.
pub(crate) fn nearest<'a>(
    wanted: &str,
    have: impl IntoIterator<Item = (&'a str, Sketch)>,
) -> Option<&'a str> {
    let mut probe = Probe::new(wanted);
    let mut best: Option<(usize, &'a str)> = None;
    for (candidate, its_sketch) in have {
        let bound = best.map_or(probe.limit(), |(d, _)| d.saturating_sub(1));
        if let Some(d) = probe.within(candidate, &its_sketch, bound) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, name)| name)
}

/// A name looked for, ready to be held against many: its characters,
/// [`Sketch`] and bag made once, and the rows of the table kept.
pub(crate) struct Probe {
    chars: Vec<char>,
    sketch: Sketch,
    /// How many of its characters fall in each class.
    per_class: [u32; 64],
    bag: Option<Bag>,
    rows: (Vec<usize>, Vec<usize>),
}

impl Probe {
    /// The probe of `wanted`.
    pub(crate) fn new(wanted: &str) -> Probe {
        let mut per_class = [0u32; 64];
        for c in wanted.chars() {
            per_class[class_of(c) as usize] += 1;
        }
        Probe {
            chars: wanted.chars().collect(),
            sketch: Sketch::of(wanted),
            per_class,
            bag: Bag::of(wanted),
            rows: (Vec::new(), Vec::new()),
        }
    }

    /// The most edits a suggestion may be away: `max(2, chars / 3)`.
    pub(crate) fn limit(&self) -> usize {
        (self.chars.len() / 3).max(2)
    }

    /// A lower bound of the edit distance to each name of `group`: a
    /// name's length is in
    /// the group's range; each character of this name whose class no
    /// name of the group has is deleted or replaced, an edit each; the
    /// classes every name has and this one lacks are among those that
    /// name has and this one lacks.
    pub(crate) fn group_lower_bound(&self, group: &SketchGroup) -> usize {
        let wanted = &self.sketch;
        let length = if wanted.chars < group.fewest_chars {
            group.fewest_chars - wanted.chars
        } else {
            wanted.chars.saturating_sub(group.most_chars)
        };
        let mut only_wanted = 0;
        let mut classes = wanted.classes & !group.any;
        while classes != 0 {
            only_wanted += self.per_class[classes.trailing_zeros() as usize];
            classes &= classes - 1;
        }
        let only_theirs = (group.every & !wanted.classes).count_ones();
        length.max(only_wanted.max(only_theirs) as usize)
    }

    /// The edit distance to `candidate` (whose sketch is `its_sketch`)
    /// when it is at most `bound`. Lower bounds of the distance first,
    /// cheapest first: most names of a directory are ruled out without
    /// the table.
    pub(crate) fn within(
        &mut self,
        candidate: &str,
        its_sketch: &Sketch,
        bound: usize,
    ) -> Option<usize> {
        if self.sketch.lower_bound(its_sketch) > bound
            || self.bag.as_mut().is_some_and(|b| b.exceeds(candidate, bound))
        {
            return None;
        }
        levenshtein(&self.chars, candidate, bound, &mut self.rows)
    }
}

/// A name's length in characters and the set of its characters (folded
/// into 64 classes), for a lower bound of its edit distance to others
/// in a few instructions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sketch {
    chars: usize,
    classes: u64,
    /// How many classes it has, counted once: a comparison then counts
    /// only the classes the two share.
    count: u32,
}

impl Sketch {
    /// The sketch of `s`.
    pub(crate) fn of(s: &str) -> Sketch {
        let (mut chars, mut classes) = (0, 0u64);
        for c in s.chars() {
            chars += 1;
            classes |= 1 << class_of(c);
        }
        Sketch { chars, classes, count: classes.count_ones() }
    }

    /// Its length in characters.
    pub(crate) fn chars(&self) -> usize {
        self.chars
    }

    /// Its classes, one bit each.
    pub(crate) fn classes(&self) -> u64 {
        self.classes
    }

    /// A lower bound of the edit distance between the two names: the
    /// difference of their lengths, and the classes one has and the
    /// other lacks (each such class holds a character of one name that
    /// is nowhere in the other, so an edit of its own mends it).
    fn lower_bound(&self, other: &Sketch) -> usize {
        let shared = (self.classes & other.classes).count_ones();
        let only_self = self.count - shared;
        let only_other = other.count - shared;
        self.chars
            .abs_diff(other.chars)
            .max(only_self.max(only_other) as usize)
    }
}

/// What the sketches of a group of names have in common: the range of
/// their lengths, the classes some have and the classes all have. It
/// bounds the distance to every name of the group at once, so an index
/// rules out a whole group by one comparison.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SketchGroup {
    fewest_chars: usize,
    most_chars: usize,
    /// The classes of any name of the group.
    any: u64,
    /// The classes of every name of the group.
    every: u64,
}

impl SketchGroup {
    /// The group of `sketches`; `None` when there are none.
    pub(crate) fn of<'s>(
        sketches: impl IntoIterator<Item = &'s Sketch>,
    ) -> Option<SketchGroup> {
        let mut sketches = sketches.into_iter();
        let first = sketches.next()?;
        let mut group = SketchGroup {
            fewest_chars: first.chars,
            most_chars: first.chars,
            any: first.classes,
            every: first.classes,
        };
        for s in sketches {
            group.fewest_chars = group.fewest_chars.min(s.chars);
            group.most_chars = group.most_chars.max(s.chars);
            group.any |= s.classes;
            group.every &= s.classes;
        }
        Some(group)
    }

    /// The classes some names of the group have and others lack.
    pub(crate) fn varying(&self) -> u64 {
        self.any & !self.every
    }

    /// Whether the names of the group differ in length.
    pub(crate) fn lengths_vary(&self) -> bool {
        self.fewest_chars < self.most_chars
    }
}

/// The edit distance between `a` and `b` (insertions, deletions and
/// substitutions of one character each) when it is at most `bound`, in
/// O(n·m) time with two rows. A row's smallest entry never shrinks
/// further down the table, so the walk stops at the first row whose
/// entries all pass `bound` (Ukkonen's cut-off): a missing page's name
/// is held against every name of its directory, and nearly all are far.
fn levenshtein(
    a: &[char],
    b: &str,
    bound: usize,
    (prev, cur): &mut (Vec<usize>, Vec<usize>),
) -> Option<usize> {
    prev.clear();
    prev.extend(0..=a.len());
    for (j, cb) in b.chars().enumerate() {
        cur.clear();
        cur.push(j + 1);
        let mut least = j + 1;
        for (i, &ca) in a.iter().enumerate() {
            let substitute = prev[i] + usize::from(ca != cb);
            let d = substitute.min(prev[i + 1] + 1).min(cur[i] + 1);
            least = least.min(d);
            cur.push(d);
        }
        if least > bound {
            return None;
        }
        std::mem::swap(prev, cur);
    }
    Some(prev[a.len()]).filter(|&d| d <= bound)
}

/// The characters of an ASCII string, counted: for a lower bound of its
/// edit distance to others, in linear time. Each edit mends at most one
/// character that one string has more of than the other (the bag
/// distance), and most names of a directory are ruled out by it.
struct Bag {
    count: [i32; 128],
    len: usize,
}

impl Bag {
    /// The bag of `s`, when it is ASCII.
    fn of(s: &str) -> Option<Bag> {
        if !s.is_ascii() {
            return None;
        }
        let mut count = [0i32; 128];
        for c in s.bytes() {
            count[usize::from(c)] += 1;
        }
        Some(Bag { count, len: s.len() })
    }

    /// Whether the bag distance to `other` passes `bound` (never when
    /// `other` is not ASCII). The counts are taken down for `other` and
    /// put back, which is cheaper than a copy of them for each of
    /// thousands of names, and the walk stops once `other` has more than
    /// `bound` characters this string lacks.
    fn exceeds(&mut self, other: &str, bound: usize) -> bool {
        if !other.is_ascii() {
            return false;
        }
        let b = other.as_bytes();
        let (mut common, mut seen) = (0, 0);
        for &c in b {
            let n = &mut self.count[usize::from(c)];
            common += usize::from(*n > 0);
            *n -= 1;
            seen += 1;
            if seen - common > bound {
                break;
            }
        }
        for &c in &b[..seen] {
            self.count[usize::from(c)] += 1;
        }
        seen - common > bound
            || (self.len - common).max(b.len() - common) > bound
    }
}

/// The edit distance by the whole table, with no cut-off: the simple
/// reference that the bounds and the fast paths are held to.
/// A character's class, 0 to 63: letters by their letter, whatever the
/// case, digits and the punctuation of names each their own, the rest
/// folded. Any folding keeps [`Sketch::lower_bound`] a bound; this one
/// keeps the characters that names differ by apart.
fn class_of(c: char) -> u32 {
    let c = u32::from(c);
    match char::from_u32(c | 0x20) {
        Some(l @ 'a'..='z') => u32::from(l) - u32::from('a'),
        _ => match c {
            0x30..=0x39 => 26 + (c - 0x30),
            0x2d => 36,
            0x2e => 37,
            0x5f => 38,
            0x2f => 39,
            _ => 40 + c % 24,
        },
    }
}

#[cfg(test)]
pub(crate) fn whole_table_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) =
        (a.chars().collect(), b.chars().collect());
    let mut prev: Vec<usize> = (0..=a.len()).collect();
    for (j, cb) in b.iter().enumerate() {
        let mut cur = vec![j + 1];
        for (i, ca) in a.iter().enumerate() {
            let d = (prev[i] + usize::from(ca != cb))
                .min(prev[i + 1] + 1)
                .min(cur[i] + 1);
            cur.push(d);
        }
        prev = cur;
    }
    prev[a.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let have = ["installation", "usage"];
        assert_eq!(suggest("instalation", have), Some("installation"));
        assert_eq!(suggest("usag", have), Some("usage"));
        // Far off: more edits than max(2, len / 3).
        assert_eq!(suggest("configuration", have), None);
        assert_eq!(suggest("xyz", have), None);
        assert_eq!(suggest("anything", []), None);
        // Ties go to the first; a closer later one wins.
        assert_eq!(suggest("ab", ["ax", "xb"]), Some("ax"));
        assert_eq!(suggest("abcd", ["abxy", "abcx"]), Some("abcx"));
        // Distance is counted in characters, not bytes.
        assert_eq!(suggest("привет", ["привед"]), Some("привед"));
    }

    /// A group's bound is under the distance to its nearest name, and
    /// counts each character of the name looked for whose class no name
    /// of the group has.
    #[test]
    fn group_bounds() {
        let words = ["part-0012.md", "part-1212.md", "index.md", "Part-9.MD"];
        let sketches: Vec<Sketch> =
            words.iter().map(|w| Sketch::of(w)).collect();
        let group = SketchGroup::of(&sketches).unwrap();
        for wanted in ["missing-12.md", "part-12.md", "", "ßß", "p"] {
            let nearest = words
                .iter()
                .map(|w| whole_table_distance(wanted, w))
                .min()
                .unwrap();
            let bound = Probe::new(wanted).group_lower_bound(&group);
            assert!(bound <= nearest, "{wanted}: {bound} > {nearest}");
        }
        // `s`, `s` and `g` are in none of the names (`i` is in one).
        let bound = Probe::new("missing-12.md").group_lower_bound(&group);
        assert_eq!(bound, 3);
        assert!(SketchGroup::of([]).is_none());
    }

    #[test]
    fn levenshtein_distances() {
        let mut rows = (Vec::new(), Vec::new());
        let mut d = |a: &str, b: &str, bound| {
            let a: Vec<char> = a.chars().collect();
            levenshtein(&a, b, bound, &mut rows)
        };
        assert_eq!(d("kitten", "sitting", 9), Some(3));
        assert_eq!(d("kitten", "sitting", 3), Some(3));
        assert_eq!(d("kitten", "sitting", 2), None);
        assert_eq!(d("", "abc", 9), Some(3));
        assert_eq!(d("abc", "", 9), Some(3));
        assert_eq!(d("flaw", "lawn", 9), Some(2));
        assert_eq!(d("same", "same", 0), Some(0));
        assert_eq!(d("missing-12.md", "part-0012.md", 4), None);
        let mut bag = Bag::of("abc");
        assert!(bag.as_mut().is_some_and(|b| b.exceeds("xyz", 2)));
        assert!(bag.as_mut().is_some_and(|b| !b.exceeds("cab", 0)));
    }

    /// The cut-off and the bag distance change no answer: each held to
    /// the whole table, with no bound.
    #[test]
    fn cut_offs_keep_the_distance() {
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "abc",
            "install",
            "instalation",
            "installation",
            "usage",
            "part-0001.md",
            "missing-1.md",
            "é-x",
            "x-é",
            "kitten",
            "sitting",
            "aaaa",
            "bbbb",
            "abab",
        ];
        let mut rows = (Vec::new(), Vec::new());
        for a in words {
            let ac: Vec<char> = a.chars().collect();
            for b in words {
                let d = whole_table_distance(a, b);
                // A lower bound too, alone and in a group.
                let sketch = Sketch::of(a);
                assert!(sketch.lower_bound(&Sketch::of(b)) <= d, "{a} {b}");
                let group = SketchGroup::of([&Sketch::of(b)]).unwrap();
                assert!(Probe::new(a).group_lower_bound(&group) <= d);
                if let Some(mut bag) = Bag::of(a) {
                    // A lower bound: never past the distance itself.
                    assert!(!bag.exceeds(b, d), "{a} {b}");
                    for bound in 0..d {
                        bag.exceeds(b, bound);
                    }
                    // The counts are put back after each.
                    let fresh = Bag::of(a).map(|f| f.count);
                    assert_eq!(Some(bag.count), fresh, "{a} {b}");
                }
                for bound in 0..8 {
                    let want = (d <= bound).then_some(d);
                    assert_eq!(levenshtein(&ac, b, bound, &mut rows), want);
                }
            }
        }
    }
}
