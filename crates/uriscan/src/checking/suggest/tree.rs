//! The names a suggestion is looked for among, as a tree of groups by
//! their sketches: a node's [`SketchGroup`] bounds the edit distance to
//! every name below it, so most of a directory is ruled out a group at
//! a time rather than a name at a time. The names that are left are held
//! one by one, exactly as the scan holds them, so the tree finds what the
//! scan finds: the closest name within the limit, the first of equals.

use crate::checking::anchors::{Probe, Sketch, SketchGroup};

/// A group of at most this many names is held name by name.
const LEAF: usize = 8;

/// The tree over a set of names' sketches.
pub(super) struct SketchTree {
    /// The root first.
    nodes: Vec<Node>,
    /// The names' positions in the set, each leaf's a run of them.
    order: Vec<u32>,
}

struct Node {
    group: SketchGroup,
    below: Below,
}

#[derive(Clone, Copy)]
enum Below {
    /// Two nodes, by their positions in `nodes`.
    Split(u32, u32),
    /// A run of `order`, from and to.
    Names(u32, u32),
}

/// How a group is cut in two.
#[derive(Clone, Copy)]
enum Cut {
    /// The names with this class, and the rest.
    Has(u32),
    /// The names of fewer characters than this, and the rest.
    Shorter(usize),
}

impl Cut {
    fn first_side(self, sketch: &Sketch) -> bool {
        match self {
            Cut::Has(class) => sketch.classes() & (1 << class) != 0,
            Cut::Shorter(chars) => sketch.chars() < chars,
        }
    }
}

impl SketchTree {
    /// The tree of `sketches`; `None` when there are none.
    pub(super) fn new(sketches: &[Sketch]) -> Option<SketchTree> {
        let group_of = |run: &[u32]| {
            SketchGroup::of(run.iter().map(|&i| &sketches[i as usize]))
        };
        let mut order: Vec<u32> = (0..sketches.len() as u32).collect();
        let root = Node {
            group: group_of(&order)?,
            below: Below::Names(0, order.len() as u32),
        };
        let mut nodes = vec![root];
        let mut work = vec![0usize];
        while let Some(at) = work.pop() {
            let Below::Names(start, end) = nodes[at].below else {
                continue;
            };
            let run = &mut order[start as usize..end as usize];
            let cut = if run.len() <= LEAF {
                None
            } else {
                cut_of(run, sketches, &nodes[at].group)
            };
            let Some(cut) = cut else {
                // Held in the set's order, as the scan holds them.
                run.sort_unstable();
                continue;
            };
            let (mut first, mut rest): (Vec<u32>, Vec<u32>) = run
                .iter()
                .partition(|&&i| cut.first_side(&sketches[i as usize]));
            let middle = start + first.len() as u32;
            // Both sides hold a name, by the cut's choice.
            let (Some(first_group), Some(rest_group)) =
                (group_of(&first), group_of(&rest))
            else {
                run.sort_unstable();
                continue;
            };
            first.append(&mut rest);
            run.copy_from_slice(&first);
            let a = nodes.len();
            nodes.push(Node {
                group: first_group,
                below: Below::Names(start, middle),
            });
            nodes.push(Node {
                group: rest_group,
                below: Below::Names(middle, end),
            });
            nodes[at].below = Below::Split(a as u32, a as u32 + 1);
            work.extend([a, a + 1]);
        }
        Some(SketchTree { nodes, order })
    }

    /// The position of the closest name to `probe`'s within its limit
    /// (the first of equals), of `names`, the set this tree was made of
    /// with `sketches` theirs.
    pub(super) fn nearest(
        &self,
        probe: &mut Probe,
        names: &[String],
        sketches: &[Sketch],
    ) -> Option<usize> {
        let limit = probe.limit();
        let mut best: Option<(usize, u32)> = None;
        let root = probe.group_lower_bound(&self.nodes.first()?.group);
        let mut work: Vec<(u32, usize)> = Vec::with_capacity(64);
        work.push((0, root));
        while let Some((at, bound_of_node)) = work.pop() {
            // A node whose every name is farther than the best so far
            // holds nothing better, nor an equal one before it.
            if bound_of_node > best.map_or(limit, |(d, _)| d) {
                continue;
            }
            match self.nodes[at as usize].below {
                Below::Split(a, b) => {
                    let bound_a =
                        probe.group_lower_bound(&self.nodes[a as usize].group);
                    let bound_b =
                        probe.group_lower_bound(&self.nodes[b as usize].group);
                    // The nearer group first, for an early best.
                    if bound_a <= bound_b {
                        work.extend([(b, bound_b), (a, bound_a)]);
                    } else {
                        work.extend([(a, bound_a), (b, bound_b)]);
                    }
                }
                Below::Names(start, end) => {
                    for &i in &self.order[start as usize..end as usize] {
                        // Only a closer name, or an equal one earlier in
                        // the set, takes the best's place.
                        let bound = match best {
                            None => limit,
                            Some((d, first)) if i < first => d,
                            Some((0, _)) => continue,
                            Some((d, _)) => d - 1,
                        };
                        let (name, sketch) =
                            (&names[i as usize], &sketches[i as usize]);
                        if let Some(d) = probe.within(name, sketch, bound) {
                            best = Some((d, i));
                        }
                    }
                }
            }
        }
        best.map(|(_, i)| i as usize)
    }
}

/// Where to cut a group of more than [`LEAF`] names: by the class that
/// parts them most evenly (each side then has it, or lacks it, in every
/// name, which is what bounds the distance), else by their median
/// length; `None` when their sketches are all alike.
fn cut_of(
    run: &[u32],
    sketches: &[Sketch],
    group: &SketchGroup,
) -> Option<Cut> {
    let varying = group.varying();
    if varying != 0 {
        let mut counts = [0u32; 64];
        for &i in run {
            let mut bits = sketches[i as usize].classes() & varying;
            while bits != 0 {
                counts[bits.trailing_zeros() as usize] += 1;
                bits &= bits - 1;
            }
        }
        let half = run.len() as u32 / 2;
        let mut bits = varying;
        let mut cut = bits.trailing_zeros();
        while bits != 0 {
            let class = bits.trailing_zeros();
            if counts[class as usize].abs_diff(half)
                < counts[cut as usize].abs_diff(half)
            {
                cut = class;
            }
            bits &= bits - 1;
        }
        return Some(Cut::Has(cut));
    }
    if !group.lengths_vary() {
        return None;
    }
    let mut lengths: Vec<usize> =
        run.iter().map(|&i| sketches[i as usize].chars()).collect();
    let middle = lengths.len() / 2;
    let median = *lengths.select_nth_unstable(middle).1;
    let fewest = lengths.iter().copied().min().unwrap_or(median);
    // Both sides hold a name: the shortest is on the first, the median
    // (or, when it is the shortest, the longest) on the other.
    Some(Cut::Shorter(if median > fewest { median } else { median + 1 }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checking::anchors;

    /// The tree's answer and the scan's, name by name (the reference).
    fn both(
        wanted: &str,
        names: &[String],
    ) -> (Option<String>, Option<String>) {
        let sketches: Vec<Sketch> =
            names.iter().map(|n| Sketch::of(n)).collect();
        let scan = anchors::nearest(
            wanted,
            names.iter().map(String::as_str).zip(sketches.iter().copied()),
        );
        let tree = SketchTree::new(&sketches).and_then(|t| {
            t.nearest(&mut Probe::new(wanted), names, &sketches)
        });
        (tree.map(|i| names[i].clone()), scan.map(str::to_owned))
    }

    /// A directory of numbered pages and its missing pages: the shape of
    /// a docs tree, where every name is alike but for its digits.
    #[test]
    fn numbered_pages() {
        let names: Vec<String> = (0..1000)
            .map(|i| format!("part-{:04}.md", (i * 7919) % 2345))
            .collect();
        for wanted in [
            "missing-12.md",
            "missing-2000.md",
            "part-0012.md",
            "part-012.md",
            "part-0012.mdx",
            "Part-0012.md",
            "part-9999.md",
            "PART-1234.MD",
            "",
            "x",
        ] {
            let (tree, scan) = both(wanted, &names);
            assert_eq!(tree, scan, "{wanted}");
        }
        // A name of the set is its own nearest; a missing page none.
        assert_eq!(both(&names[500], &names).0.as_ref(), Some(&names[500]));
        assert_eq!(both("missing-12.md", &names).0, None);
    }

    /// Ties go to the first name of the set, wherever the tree holds it.
    #[test]
    fn ties_go_to_the_first() {
        let mut names: Vec<String> =
            (0..200).map(|i| format!("zz{i:03}qq")).collect();
        names.extend(["abcx", "abxd", "axcd", "xbcd"].map(String::from));
        names.rotate_right(2);
        let (tree, scan) = both("abcd", &names);
        assert_eq!(tree, scan);
        assert_eq!(tree.as_deref(), Some("axcd"));
    }

    #[test]
    fn no_names() {
        assert!(SketchTree::new(&[]).is_none());
        let one = [Sketch::of("a")];
        let tree = SketchTree::new(&one).unwrap();
        let names = ["a".to_owned()];
        assert_eq!(tree.nearest(&mut Probe::new("b"), &names, &one), Some(0));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// The tree finds what the scan finds, on names of a few letters
        /// in both cases, digits, punctuation and characters past ASCII
        /// (so that ties, near misses and alike sketches abound).
        #[test]
        fn the_tree_answers_as_the_scan(
            names in proptest::collection::vec("[aAbB01.é_Ω-]{0,8}", 0..300),
            wanted in "[aAbBc01.é_Ω-]{0,10}",
        ) {
            let (tree, scan) = both(&wanted, &names);
            proptest::prop_assert_eq!(tree, scan);
        }

        /// Longer names apart from each other by a few edits, as the
        /// pages of a directory are.
        #[test]
        fn the_tree_answers_as_the_scan_on_long_names(
            names in proptest::collection::vec("(part|Part|missing|index)-[0-9]{1,4}\\.(md|html|MD)", 0..400),
            wanted in "(part|Part|missing|index|pat)-[0-9]{1,5}\\.(md|html|htm)",
        ) {
            let (tree, scan) = both(&wanted, &names);
            proptest::prop_assert_eq!(tree, scan);
        }
    }
}
