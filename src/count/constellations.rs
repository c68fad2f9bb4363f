//! The constellations engine's plan: the search split on the board's four
//! border lines, one unit for each start up to the eight symmetries of the
//! square.
//!
//! Every solution has exactly one queen on each border line: row 0, row
//! `n - 1`, column 0 and column `n - 1` (a queen in a corner is on two of
//! them). Those queens are the solution's *start*, written as the column
//! of the top and bottom queens and the row of the left and right ones:
//!
//! ```text
//!   n = 8, start 1,4,5,3        turned a quarter clockwise: 2,4,4,1
//!   . Q . . . . . .   top 1     . . Q . . . . .   top 2
//!   . . . . . . . .             . . . . . . . Q   right 1
//!   . . . . . . . .             . . . . . . . .
//!   . . . . . . . Q   right 3   . . . . . . . .
//!   . . . . . . . .             Q . . . . . . .   left 4
//!   Q . . . . . . .   left 5    . . . . . . . .
//!   . . . . . . . .             . . . . . . . .
//!   . . . . Q . . .   bottom 4  . . . . Q . . .   bottom 4
//! ```
//!
//! A rotation or a reflection of a solution is a solution, and its start
//! is the same map applied to the start. So the solutions of all the
//! starts in one orbit of the eight maps are equally many, and the plan
//! keeps one start of each orbit, with the orbit's size as its weight: 8 in
//! general, 4 for a start that a half turn leaves as it is, 2 for one a
//! quarter turn leaves. (No start is its own mirror image: the two queens a
//! reflection would swap attack each other.) The mirror engine uses one of
//! those eight maps and searches half the board; this one searches about an
//! eighth.
//!
//! Which start of an orbit a unit searches matters: the search runs top
//! to bottom, and the orientations of one start differ in how early their
//! fixed queens cut it. Counted node for node down to the rows the kernel
//! finishes without a loop, at n = 15, searching the least start of each
//! orbit visits 0.90 times the nodes of the mirror engine, the cheapest
//! orientation 0.51 times. So the plan estimates every orientation's tree
//! (32 or more random walks each, [`probe_tree`]) and keeps the cheapest
//! (0.52 times); the units are numbered in order of their orbits' least
//! starts.
//!
//! A unit counts its start's completions: rows 1 to `n - 2`, searched top
//! to bottom by the kernel's walk, with the squares the bottom and side
//! queens attack looked up per row ([`count_allowed_on`]) and the side
//! queens' rows fixed. The ids follow the order of the starts, and the
//! descriptor `start:1,4,5,3` is enough for another program to rebuild a
//! unit. A unit's cost is the size of its search tree, estimated by the
//! same random walks as the mirror engine's ([`probe_tree`]).
//!
//! [`count_start_plainly`] counts a start a second, independent way
//! (recursion over the rows, attacks kept by diagonal number): `verify`
//! recounts with it, and the tests pin the kernel's units against it.

use std::fmt::Write;

use rayon::prelude::*;

use super::cost::{costs, probe_tree, seed_of};
use super::pieces::count_in_pieces;
use crate::cpu::Features;
use crate::kernel::{MAX_N, Masks, RowMasks, count_allowed_on, full_mask};
use crate::symmetry::Transform;

/// The smallest board the engine counts: below 4 the border lines overlap
/// too much to be four (and no board of 2 or 3 has a solution).
pub(crate) const MIN_N: u32 = 4;

/// Random walks per plan, shared among the eight orientations of its
/// starts, from 32 to 128 each: 3,206 starts at n = 16 get 40 each, a
/// fifth of a second in all.
const WALKS_PER_PLAN: usize = 1 << 20;

/// One start: the queens on the four border lines, the unit that counts
/// its completions, and the orbit it stands for (the start is the orbit's
/// cheapest to search).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Start {
    /// Position in the plan (0-based), in order of the orbits' least
    /// starts.
    pub id: u32,
    /// The size of the start's orbit under the eight maps of the square:
    /// how many solutions each completion stands for.
    pub weight: u8,
    /// The top queen's column, the bottom queen's column, the left queen's
    /// row and the right queen's row.
    pub border: [u8; 4],
    /// Estimated work: see [`probe_tree`].
    pub cost: u64,
}

impl Start {
    /// The text another program rebuilds the unit from: `start:` and the
    /// four numbers of [`Self::border`].
    #[must_use]
    pub fn descriptor(&self) -> String {
        let [top, bottom, left, right] = self.border;
        let mut text = String::new();
        write!(text, "start:{top},{bottom},{left},{right}")
            .expect("writing to a String cannot fail");
        text
    }

    /// The unit's contribution to the total of an `n`-board: its
    /// completions times its weight.
    #[cfg(test)]
    #[must_use]
    pub fn count(&self, n: u32, features: Features) -> u128 {
        self.count_unless(n, features, &|| false)
            .expect("a count that never stops ends")
    }

    /// `count` (the tests'), in pieces with `stop()` read between two
    /// ([`super::pieces`]): `None` when it said stop.
    pub(crate) fn count_unless(
        &self,
        n: u32,
        features: Features,
        stop: &dyn Fn() -> bool,
    ) -> Option<u128> {
        let (mut masks, allowed) = search_of(n, self.border);
        // The bottom queen is placed already: its row is not searched.
        masks.cols |= 1 << self.border[1];
        let completions = count_in_pieces(
            n,
            (1, n - 1),
            masks,
            &|row| allowed[row as usize],
            stop,
            &mut |row, masks| count_allowed_on(features, n, (row, n - 1), masks, &allowed),
        )?;
        Some(completions * u128::from(self.weight))
    }
}

/// The squares of the queens of `border` on an `n`-board, `(row, column)`,
/// a corner queen once.
fn squares(n: u32, border: [u8; 4]) -> Vec<(u32, u32)> {
    let last = n - 1;
    let [top, bottom, left, right] = border.map(u32::from);
    let mut out = Vec::with_capacity(4);
    for square in [(0, top), (last, bottom), (left, 0), (right, last)] {
        if !out.contains(&square) {
            out.push(square);
        }
    }
    out
}

/// The start of a set of squares that has one queen on each border line.
fn border_of(n: u32, squares: &[(u32, u32)]) -> [u8; 4] {
    let last = n - 1;
    let mut border = [0u8; 4];
    for &(r, c) in squares {
        if r == 0 {
            border[0] = c as u8;
        }
        if r == last {
            border[1] = c as u8;
        }
        if c == 0 {
            border[2] = r as u8;
        }
        if c == last {
            border[3] = r as u8;
        }
    }
    border
}

/// Whether the queens of `border` are a valid start: one queen on each
/// border line, none attacking another.
fn is_start(n: u32, border: [u8; 4]) -> bool {
    let squares = squares(n, border);
    let last = n - 1;
    let on = |line: &dyn Fn(&(u32, u32)) -> bool| squares.iter().filter(|s| line(s)).count() == 1;
    if !(on(&|s| s.0 == 0) && on(&|s| s.0 == last) && on(&|s| s.1 == 0) && on(&|s| s.1 == last)) {
        return false;
    }
    squares.iter().enumerate().all(|(i, &(r, c))| {
        squares[i + 1..]
            .iter()
            .all(|&(r2, c2)| r != r2 && c != c2 && r.abs_diff(r2) != c.abs_diff(c2))
    })
}

/// The starts of `border`'s orbit, each once.
fn orbit(n: u32, border: [u8; 4]) -> Vec<[u8; 4]> {
    let squares = squares(n, border);
    let mut images: Vec<[u8; 4]> = Transform::ALL
        .iter()
        .map(|t| {
            let image: Vec<(u32, u32)> = squares
                .iter()
                .map(|&(r, c)| t.map_square(n, r, c))
                .collect();
            border_of(n, &image)
        })
        .collect();
    images.sort_unstable();
    images.dedup();
    images
}

/// Every start of an `n`-board that is the least of its orbit, with its
/// orbit, in order.
fn representatives(n: u32) -> impl Iterator<Item = Vec<[u8; 4]>> {
    let sizes = 0..n as u8;
    let all = sizes.clone().flat_map(move |top| {
        let sizes = sizes.clone();
        sizes.clone().flat_map(move |bottom| {
            let sizes = sizes.clone();
            sizes
                .clone()
                .flat_map(move |left| sizes.clone().map(move |right| [top, bottom, left, right]))
        })
    });
    all.filter(move |&b| is_start(n, b)).filter_map(move |b| {
        let orbit = orbit(n, b);
        (orbit[0] == b).then_some(orbit)
    })
}

/// Every unit of the constellations engine for an `n`-board, in order,
/// with its cost estimated.
///
/// Contract: `MIN_N <= n <= MAX_N` (checked by the engines).
#[must_use]
pub(crate) fn starts(n: u32) -> Vec<Start> {
    debug_assert!((MIN_N..=MAX_N).contains(&n));
    let orbits: Vec<Vec<[u8; 4]>> = representatives(n).collect();
    let walks = (WALKS_PER_PLAN / (8 * orbits.len().max(1))).clamp(32, 128) as u32;
    // In parallel: 38,604 orbits at n = 27 take 9 s on one thread.
    let chosen: Vec<([u8; 4], f64)> = orbits
        .par_iter()
        .map(|orbit| {
            orbit
                .iter()
                .map(|&b| {
                    let (masks, allowed) = search_of(n, b);
                    (b, probe_tree(n, 1, masks, &allowed, walks, seed_of(&b)))
                })
                .min_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)))
                .expect("an orbit has a start")
        })
        .collect();
    let trees: Vec<f64> = chosen.iter().map(|&(_, tree)| tree).collect();
    orbits
        .iter()
        .zip(chosen)
        .zip(costs(&trees))
        .enumerate()
        .map(|(id, ((orbit, (border, _)), cost))| Start {
            id: id as u32,
            weight: orbit.len() as u8,
            border,
            cost,
        })
        .collect()
}

/// How many units [`starts`] makes, counted without making them.
#[must_use]
pub(crate) fn start_count(n: u32) -> usize {
    representatives(n).count()
}

/// What the kernel searches for a start: the attacks on row 1 of the top
/// queen, and each row's allowed columns given every border queen (a side
/// queen's row allows its column alone).
pub(crate) fn search_of(n: u32, border: [u8; 4]) -> (Masks, RowMasks) {
    let full = full_mask(n);
    let squares = squares(n, border);
    let mut allowed = [0; MAX_N as usize];
    for (r, slot) in allowed.iter_mut().enumerate().take(n as usize) {
        let r = r as u32;
        *slot = match squares.iter().find(|s| s.0 == r) {
            Some(&(_, c)) => 1 << c,
            None => {
                let attacked = squares.iter().fold(0u32, |m, &(qr, qc)| {
                    let d = r.abs_diff(qr);
                    let mut m = m | 1 << qc;
                    if qc + d < n {
                        m |= 1 << (qc + d);
                    }
                    if qc >= d {
                        m |= 1 << (qc - d);
                    }
                    m
                });
                full & !attacked
            }
        };
    }
    (Masks::EMPTY.place(1 << border[0]), allowed)
}

/// The completions of `border` on an `n`-board, unweighted, counted
/// without the kernel: plain recursion over rows 1 to `n - 2`, each queen
/// checked against every queen so far by column and diagonal number.
/// Slower than the kernel, and independent of it: the check that
/// `verify` and the tests recount with.
#[must_use]
pub(crate) fn count_start_plainly(n: u32, border: [u8; 4]) -> u128 {
    /// Columns, `\` diagonals (`row - column + n`) and `/` diagonals
    /// (`row + column`) taken.
    #[derive(Clone, Copy)]
    struct Taken {
        cols: u64,
        down: u64,
        up: u64,
    }
    impl Taken {
        fn has(self, n: u32, r: u32, c: u32) -> bool {
            self.cols >> c & 1 == 1
                || self.down >> (r + n - c) & 1 == 1
                || self.up >> (r + c) & 1 == 1
        }
        fn with(self, n: u32, r: u32, c: u32) -> Self {
            Self {
                cols: self.cols | 1 << c,
                down: self.down | 1 << (r + n - c),
                up: self.up | 1 << (r + c),
            }
        }
    }
    fn walk(n: u32, row: u32, fixed: &[bool], taken: Taken) -> u128 {
        if row == n - 1 {
            return 1;
        }
        if fixed[row as usize] {
            // A side queen: already taken, never attacked (the squares
            // before it were checked against it).
            return walk(n, row + 1, fixed, taken);
        }
        (0..n)
            .filter(|&c| !taken.has(n, row, c))
            .map(|c| walk(n, row + 1, fixed, taken.with(n, row, c)))
            .sum()
    }
    let squares = squares(n, border);
    let mut fixed = vec![false; n as usize];
    let mut taken = Taken {
        cols: 0,
        down: 0,
        up: 0,
    };
    for &(r, c) in &squares {
        fixed[r as usize] = true;
        taken = taken.with(n, r, c);
    }
    walk(n, 1, &fixed, taken)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

    /// Every solution of an `n`-board, found by brute force over
    /// permutations with pruning (the test's own search).
    fn solutions(n: u32) -> Vec<Vec<u32>> {
        fn go(n: u32, board: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
            let r = board.len() as u32;
            if r == n {
                out.push(board.clone());
                return;
            }
            for c in 0..n {
                let safe = board
                    .iter()
                    .enumerate()
                    .all(|(i, &q)| q != c && (r - i as u32) != q.abs_diff(c));
                if safe {
                    board.push(c);
                    go(n, board, out);
                    board.pop();
                }
            }
        }
        let mut out = Vec::new();
        go(n, &mut Vec::new(), &mut out);
        out
    }

    /// A solution's start.
    fn start_of(n: u32, board: &[u32]) -> [u8; 4] {
        let squares: Vec<(u32, u32)> = board
            .iter()
            .enumerate()
            .map(|(r, &c)| (r as u32, c))
            .filter(|&(r, c)| r == 0 || r == n - 1 || c == 0 || c == n - 1)
            .collect();
        border_of(n, &squares)
    }

    #[test]
    fn weights_are_orbit_sizes_by_brute_force() {
        // From whole boards, apart from the plan's own maps of squares:
        // the starts of every image of the solutions with a plan start are
        // that start's orbit, whose size is its weight, and each of those
        // starts has as many solutions.
        for n in MIN_N..=12 {
            let boards = solutions(n);
            for start in starts(n) {
                let with: Vec<&Vec<u32>> = boards
                    .iter()
                    .filter(|b| start_of(n, b) == start.border)
                    .collect();
                let mut images: Vec<[u8; 4]> = with
                    .iter()
                    .flat_map(|b| crate::symmetry::orbit(b))
                    .map(|image| start_of(n, &image))
                    .collect();
                images.sort_unstable();
                images.dedup();
                if with.is_empty() {
                    continue;
                }
                assert_eq!(
                    usize::from(start.weight),
                    images.len(),
                    "n = {n}, {start:?}"
                );
                assert!(matches!(start.weight, 2 | 4 | 8), "n = {n}, {start:?}");
                for image in &images {
                    let count = boards.iter().filter(|b| start_of(n, b) == *image).count();
                    assert_eq!(count, with.len(), "n = {n}, {start:?} vs {image:?}");
                }
            }
        }
    }

    #[test]
    fn weights_are_orbit_sizes_of_the_starts_themselves() {
        // Every start, solutions or none: its weight is the number of
        // distinct starts its eight images make.
        for n in MIN_N..=12 {
            for start in starts(n) {
                let squares = squares(n, start.border);
                let mut images: Vec<Vec<(u32, u32)>> = Transform::ALL
                    .iter()
                    .map(|t| {
                        let mut image: Vec<(u32, u32)> = squares
                            .iter()
                            .map(|&(r, c)| t.map_square(n, r, c))
                            .collect();
                        image.sort_unstable();
                        image
                    })
                    .collect();
                images.sort_unstable();
                images.dedup();
                assert_eq!(
                    usize::from(start.weight),
                    images.len(),
                    "n = {n}, {start:?}"
                );
            }
        }
    }

    #[test]
    fn every_solution_has_exactly_one_start_of_the_plan_in_its_orbit() {
        for n in MIN_N..=11 {
            let plan: Vec<[u8; 4]> = starts(n).iter().map(|s| s.border).collect();
            for board in solutions(n) {
                let start = start_of(n, &board);
                assert!(is_start(n, start), "n = {n}, {board:?}");
                let orbit = orbit(n, start);
                let in_plan = plan.iter().filter(|b| orbit.contains(b)).count();
                assert_eq!(in_plan, 1, "n = {n}, {board:?}");
            }
        }
    }

    #[test]
    fn units_sum_to_the_known_totals() {
        for n in MIN_N..=13 {
            let total: u128 = starts(n)
                .iter()
                .map(|s| s.count(n, Features::detect()))
                .sum();
            assert_eq!(Some(total), known::total(n), "n = {n}");
        }
    }

    #[test]
    fn the_kernel_and_the_plain_recursion_agree_start_by_start() {
        for n in MIN_N..=12 {
            for start in starts(n) {
                let plain = count_start_plainly(n, start.border) * u128::from(start.weight);
                assert_eq!(
                    start.count(n, Features::detect()),
                    plain,
                    "n = {n}, {start:?}"
                );
                assert_eq!(
                    start.count(n, Features::PORTABLE),
                    plain,
                    "n = {n}, {start:?}"
                );
            }
        }
    }

    #[test]
    fn ids_descriptors_and_counts_are_consistent() {
        let n = 10;
        let plan = starts(n);
        assert_eq!(plan.len(), start_count(n));
        for (i, s) in plan.iter().enumerate() {
            assert_eq!(s.id as usize, i);
            assert!(s.cost >= 1);
        }
        assert_eq!(plan[0].descriptor().split(',').count(), 4);
        let least: Vec<[u8; 4]> = plan.iter().map(|s| orbit(n, s.border)[0]).collect();
        assert!(least.is_sorted(), "units are in order of their orbits");
        assert_eq!(starts(n), plan, "the plan is the same every time");
    }
}
