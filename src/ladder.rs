//! The ladder of algorithms: how n-queens gets fast, one idea per step.
//!
//! Each step counts the solutions in its own, textbook way, and each is kept
//! faithful to its idea (no symmetry, no cleverness borrowed from the steps
//! above), so the gap between two steps measures one idea:
//!
//! | step            | idea                                                     |
//! |-----------------|----------------------------------------------------------|
//! | `cells`         | place or skip a queen on every square, test the whole board at the end: 2^(n*n) leaves |
//! | `attack-counts` | one queen per row; an n x n grid counts the queens attacking each square, updated on every placement and removal |
//! | `scan`          | one queen per row; a square is safe if no queen above shares its column or a diagonal, found by scanning the rows above |
//! | `flags`         | one queen per row; a flag per column and per diagonal (2n - 1 each, indexed `r + c` and `r - c + n - 1`) |
//! | `bitmask`       | the serial engine: columns and diagonals as bitmasks, mirror symmetry (the kernel, on the calling thread) |
//! | `parallel`      | the same on every core ([`crate::Counter`]) |
//!
//! Every step but `parallel` runs on the calling thread and starts no
//! other, so the time of one step against the next measures the idea and
//! nothing else. This module counts only; timing the steps against each
//! other is the caller's business, and it never refuses a size for taking
//! long: [`Algorithm::comfortable_max_n`] says where that starts, for the
//! caller to decide.
//!
//! [`Algorithm::nodes`] says how much searching a step does, the figure
//! that shows what pruning buys: the nodes of the tree it walks, defined
//! there and checked against OEIS A319283 where the step is a plain
//! backtracker.

use std::fmt;
use std::str::FromStr;

use crate::Error;
use crate::kernel::{MAX_N, Masks, count_completions, full_mask, lowest_bit};
use crate::{Config, Counter, Engine};

/// One step of the ladder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Algorithm {
    /// Every subset of squares, tested at the end.
    Cells,
    /// Row by row with a grid of attack counts.
    AttackCounts,
    /// Row by row, scanning the rows above.
    Scan,
    /// Row by row with a flag per column and diagonal.
    Flags,
    /// The bitmask engine on one thread.
    Bitmask,
    /// The bitmask engine on every core.
    #[default]
    Parallel,
}

impl Algorithm {
    /// The ladder, slowest first.
    pub const ALL: [Self; 6] = [
        Self::Cells,
        Self::AttackCounts,
        Self::Scan,
        Self::Flags,
        Self::Bitmask,
        Self::Parallel,
    ];

    /// The name the command line uses.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Cells => "cells",
            Self::AttackCounts => "attack-counts",
            Self::Scan => "scan",
            Self::Flags => "flags",
            Self::Bitmask => "bitmask",
            Self::Parallel => "parallel",
        }
    }

    /// The largest n it counts within about a minute on a 2-core machine.
    ///
    /// Measured with `queens count N --algorithm NAME --force` on a 2-core
    /// VM: cells 0.12 s at n = 5 (n = 6 has 2^11 times the leaves: about
    /// 4 minutes); attack-counts 1.9 s at 14, scan 3.1 s at 14, flags 9.5 s
    /// at 15, bitmask 3.2 s at 16, parallel 2.7 s at 16. Each step of n
    /// costs about 6 times more, which puts the next size past a minute.
    #[must_use]
    pub const fn comfortable_max_n(self) -> u32 {
        match self {
            Self::Cells => 5,
            Self::AttackCounts | Self::Scan | Self::Flags => 15,
            Self::Bitmask | Self::Parallel => 17,
        }
    }

    /// "the cells algorithm", for messages.
    #[must_use]
    pub const fn described(self) -> &'static str {
        match self {
            Self::Cells => "the cells algorithm",
            Self::AttackCounts => "the attack-counts algorithm",
            Self::Scan => "the scan algorithm",
            Self::Flags => "the flags algorithm",
            Self::Bitmask => "the bitmask algorithm",
            Self::Parallel => "the parallel algorithm",
        }
    }

    /// The largest n it can count at all: `cells` keeps the board in 64
    /// bits, the others are bounded by the kernel's 32 columns.
    #[must_use]
    pub const fn max_n(self) -> u32 {
        match self {
            Self::Cells => 8,
            _ => MAX_N,
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| Error::UnknownAlgorithm(s.to_owned()))
    }
}

/// Counts the `n`-queens solutions with `algorithm`; `config` (its
/// options and memory limit) matters to `parallel` only. Every step but
/// `parallel` counts on the calling thread; `parallel` on rayon's current
/// pool (a caller's, installed around the call, or the global one).
///
/// ```
/// use queens::Config;
/// use queens::{Algorithm, count_with};
///
/// for algorithm in Algorithm::ALL {
///     assert_eq!(count_with(algorithm, 5, &Config::default())?, 10);
/// }
/// # Ok::<(), queens::Error>(())
/// ```
///
/// # Errors
/// [`Error::BoardSize`] outside `1..=algorithm.max_n()`; the engines' errors
/// when the engines refuse `config`.
pub fn count_with(algorithm: Algorithm, n: u32, config: &Config) -> Result<u128, Error> {
    if !(1..=algorithm.max_n()).contains(&n) {
        return Err(Error::board_size(
            n,
            algorithm.described(),
            1,
            algorithm.max_n(),
        ));
    }
    let size = n as usize;
    Ok(match algorithm {
        Algorithm::Cells => cells(size),
        Algorithm::AttackCounts => attack_counts(size),
        Algorithm::Scan => scan(size),
        Algorithm::Flags => flags(size),
        Algorithm::Bitmask => bitmask(n),
        Algorithm::Parallel => mirror(n, config).run()?.solutions,
    })
}

impl Algorithm {
    /// The number of nodes of the tree this step walks for an `n`-board:
    /// how much searching it does, the figure that shows what pruning buys.
    ///
    /// The row-by-row steps (`attack-counts`, `scan`, `flags`) walk Knuth's
    /// backtrack tree (TAOCP 7.2.2): a node is a placement of `k` queens on
    /// rows `0..k`, no two attacking, for `k` from 0 (the empty board, the
    /// root) to `n` (a solution). Each of them makes one recursive call per
    /// node. The count is the sum of row `n` of OEIS
    /// [A319284](https://oeis.org/A319284), the tree's profile, which is
    /// [A319283](https://oeis.org/A319283) (2057 at n = 8). A square tried
    /// and found attacked is not a node: what such a test costs is what the
    /// three steps differ in.
    ///
    /// `cells` walks the full binary tree of place-or-skip over the `n * n`
    /// squares: `2^(n*n + 1) - 1` calls. `bitmask` and `parallel` walk the
    /// backtrack tree cut by mirror symmetry: the root, and the nodes whose
    /// row-0 queen is in the left half or, for odd `n`, in the middle with
    /// the row-1 queen in the left half (about half the tree). The kernel
    /// finishes the last three rows without a loop, testing their squares
    /// rather than calling for them, but those placements count as nodes
    /// all the same.
    ///
    /// Counted by a bitmask walk of that tree, not by the steps: they keep
    /// no tally, so their times are of counting alone.
    ///
    /// ```
    /// use queens::Algorithm;
    ///
    /// assert_eq!(Algorithm::Flags.nodes(8)?, 2057); // OEIS A319283
    /// assert_eq!(Algorithm::Bitmask.nodes(8)?, 1029); // the left half
    /// # Ok::<(), queens::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::BoardSize`] outside `1..=self.max_n()`, as
    /// [`count_with`].
    pub fn nodes(self, n: u32) -> Result<u128, Error> {
        if !(1..=self.max_n()).contains(&n) {
            return Err(Error::board_size(n, self.described(), 1, self.max_n()));
        }
        let full = full_mask(n);
        Ok(match self {
            Algorithm::Cells => (1u128 << (n * n + 1)) - 1,
            Algorithm::AttackCounts | Algorithm::Scan | Algorithm::Flags => {
                1 + subtree(full, Masks::EMPTY, full)
            }
            Algorithm::Bitmask | Algorithm::Parallel => {
                let (left, middle) = halves(n);
                let mut nodes = 1 + subtree(full, Masks::EMPTY, left);
                if let Some(middle) = middle {
                    let below = Masks::EMPTY.place(middle);
                    nodes += 1 + subtree(full, below, below.free(full) & left);
                }
                nodes
            }
        })
    }
}

impl Algorithm {
    /// Whether `self` and `other` walk the same tree, so that their
    /// [`nodes`](Self::nodes) are equal for every `n`: the row-by-row steps
    /// do, and so do `bitmask` and `parallel`.
    #[must_use]
    pub const fn walks_the_tree_of(self, other: Self) -> bool {
        const fn tree(a: Algorithm) -> u8 {
            match a {
                Algorithm::Cells => 0,
                Algorithm::AttackCounts | Algorithm::Scan | Algorithm::Flags => 1,
                Algorithm::Bitmask | Algorithm::Parallel => 2,
            }
        }
        tree(self) == tree(other)
    }
}

/// The nodes below a node whose next row has attacks `masks`, its queen
/// taken only from `allowed`: one for each placement and what lies below it.
fn subtree(full: u32, masks: Masks, allowed: u32) -> u128 {
    let mut nodes = 0;
    let mut untried = masks.free(full) & allowed;
    while untried != 0 {
        let bit = lowest_bit(untried);
        untried ^= bit;
        nodes += 1 + subtree(full, masks.place(bit), full);
    }
    nodes
}

/// Row 0's left half, as a mask, and for odd `n` its middle column.
fn halves(n: u32) -> (u32, Option<u32>) {
    let half = n / 2;
    ((1 << half) - 1, (n % 2 == 1).then(|| 1 << half))
}

/// The mirror engine's count on the calling thread, one kernel call per
/// row-0 queen of the left half (and, for odd `n`, per row-1 queen left of
/// a middle row-0 queen), each standing for itself and its mirror image.
/// No plan: building one (its cost estimates) takes longer than counting a
/// small board.
fn bitmask(n: u32) -> u128 {
    let full = full_mask(n);
    let (left, middle) = halves(n);
    let twice = |row: u32, masks: Masks, allowed: u32| -> u128 {
        let mut untried = masks.free(full) & allowed;
        let mut solutions = 0;
        while untried != 0 {
            let bit = lowest_bit(untried);
            untried ^= bit;
            solutions += 2 * count_completions(n, row + 1, masks.place(bit));
        }
        solutions
    };
    let mut solutions = twice(0, Masks::EMPTY, left);
    if let Some(middle) = middle {
        let below = Masks::EMPTY.place(middle);
        solutions += if n == 1 { 1 } else { twice(1, below, left) };
    }
    solutions
}

/// Every subset of the `n * n` squares: each square in turn gets a queen
/// or not, and only the finished board is tested. Bit `r * n + c` of the
/// board is square `(r, c)`.
fn cells(n: usize) -> u128 {
    debug_assert!(n * n <= 64);
    let lines = Lines::new(n);
    let mut solutions = 0;
    place_or_skip(&lines, 0, 0, &mut solutions);
    solutions
}

fn place_or_skip(lines: &Lines, square: usize, board: u64, solutions: &mut u128) {
    if square == lines.n * lines.n {
        *solutions += u128::from(lines.is_solution(board));
        return;
    }
    place_or_skip(lines, square + 1, board, solutions);
    place_or_skip(lines, square + 1, board | 1 << square, solutions);
}

/// The squares of every row, column and diagonal of an `n`-board, as
/// 64-bit masks: a board is a solution when each row and each column holds
/// exactly one queen and no diagonal holds two.
struct Lines {
    n: usize,
    exactly_one: Vec<u64>,
    at_most_one: Vec<u64>,
}

impl Lines {
    fn new(n: usize) -> Self {
        let square = |r: usize, c: usize| 1u64 << (r * n + c);
        let mut exactly_one = vec![0; 2 * n];
        let mut at_most_one = vec![0; 2 * (2 * n - 1)];
        for r in 0..n {
            for c in 0..n {
                exactly_one[r] |= square(r, c);
                exactly_one[n + c] |= square(r, c);
                at_most_one[r + c] |= square(r, c);
                at_most_one[(2 * n - 1) + (r + n - 1 - c)] |= square(r, c);
            }
        }
        Self {
            n,
            exactly_one,
            at_most_one,
        }
    }

    fn is_solution(&self, board: u64) -> bool {
        board.count_ones() as usize == self.n
            && self
                .exactly_one
                .iter()
                .all(|&l| (board & l).count_ones() == 1)
            && self
                .at_most_one
                .iter()
                .all(|&l| (board & l).count_ones() <= 1)
    }
}

/// One queen per row; `attacks[r][c]` counts the queens attacking square
/// `(r, c)`, and a queen goes only where it is 0.
fn attack_counts(n: usize) -> u128 {
    let mut attacks = vec![vec![0u8; n]; n];
    let mut solutions = 0;
    attack_counts_from(&mut attacks, 0, &mut solutions);
    solutions
}

fn attack_counts_from(attacks: &mut [Vec<u8>], row: usize, solutions: &mut u128) {
    let n = attacks.len();
    if row == n {
        *solutions += 1;
        return;
    }
    for col in 0..n {
        if attacks[row][col] == 0 {
            mark_attacks(attacks, row, col, true);
            attack_counts_from(attacks, row + 1, solutions);
            mark_attacks(attacks, row, col, false);
        }
    }
}

/// Adds (or removes) one to every square the queen at `(row, col)` attacks:
/// its row, its column and both its diagonals, the whole board over.
fn mark_attacks(attacks: &mut [Vec<u8>], row: usize, col: usize, place: bool) {
    let n = attacks.len();
    let mut bump = |r: usize, c: usize| {
        let cell = &mut attacks[r][c];
        *cell = if place { *cell + 1 } else { *cell - 1 };
    };
    for i in 0..n {
        bump(row, i);
        if i != row {
            bump(i, col);
            // The diagonals cross row i at col ± (i - row), where on the board.
            let d = i.abs_diff(row);
            if col + d < n {
                bump(i, col + d);
            }
            if let Some(c) = col.checked_sub(d) {
                bump(i, c);
            }
        }
    }
}

/// One queen per row; a square is safe when no queen in the rows above is
/// in its column or on one of its diagonals, checked by scanning them.
fn scan(n: usize) -> u128 {
    let mut cols = vec![0usize; n];
    let mut solutions = 0;
    scan_from(&mut cols, 0, &mut solutions);
    solutions
}

fn scan_from(cols: &mut [usize], row: usize, solutions: &mut u128) {
    let n = cols.len();
    if row == n {
        *solutions += 1;
        return;
    }
    for col in 0..n {
        let safe = (0..row).all(|above| {
            let c = cols[above];
            c != col && c.abs_diff(col) != row - above
        });
        if safe {
            cols[row] = col;
            scan_from(cols, row + 1, solutions);
        }
    }
}

/// One queen per row, with a flag for each column and each diagonal: the
/// `/` diagonal of `(r, c)` is `r + c`, the `\` one `r - c + n - 1`.
fn flags(n: usize) -> u128 {
    let mut state = Flags {
        n,
        cols: vec![false; n],
        anti: vec![false; 2 * n - 1],
        diag: vec![false; 2 * n - 1],
        solutions: 0,
    };
    state.place_rows_from(0);
    state.solutions
}

struct Flags {
    n: usize,
    cols: Vec<bool>,
    anti: Vec<bool>,
    diag: Vec<bool>,
    solutions: u128,
}

impl Flags {
    fn place_rows_from(&mut self, row: usize) {
        let n = self.n;
        if row == n {
            self.solutions += 1;
            return;
        }
        for col in 0..n {
            let (a, d) = (row + col, row + n - 1 - col);
            if !self.cols[col] && !self.anti[a] && !self.diag[d] {
                (self.cols[col], self.anti[a], self.diag[d]) = (true, true, true);
                self.place_rows_from(row + 1);
                (self.cols[col], self.anti[a], self.diag[d]) = (false, false, false);
            }
        }
    }
}

/// The mirror engine's count of `n` with `config`, on rayon's current pool.
fn mirror<'a>(n: u32, config: &Config) -> Counter<'a> {
    Counter::new(n).engine(Engine::Mirror).config(config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

    #[test]
    fn every_step_agrees_with_the_oeis_on_small_boards() {
        let config = Config::default();
        for algorithm in Algorithm::ALL {
            let top = if algorithm == Algorithm::Cells { 4 } else { 8 };
            for n in 1..=top {
                let got = count_with(algorithm, n, &config).unwrap();
                assert_eq!(Some(got), known::total(n), "{algorithm} at n = {n}");
            }
        }
    }

    #[test]
    fn the_bitmask_step_is_the_mirror_engine_on_the_calling_thread() {
        // See: issue 35, item 8 (bitmask ran on a pool of its own, 0.17x
        // flags at n = 9). It is a loop of kernel calls now, no pool: it agrees with
        // the mirror engine's plan run on one thread of a pool.
        for n in 1..=12 {
            let engine = mirror(n, &Config::default()).threads(1).run().unwrap();
            assert_eq!(bitmask(n), engine.solutions, "n = {n}");
            assert_eq!(
                count_with(Algorithm::Bitmask, n, &Config::default()).unwrap(),
                engine.solutions
            );
        }
    }

    #[test]
    fn the_row_by_row_steps_walk_the_backtrack_tree_of_a319283() {
        for n in 1..=12 {
            let tree = known::backtrack_nodes(n).unwrap();
            for algorithm in [Algorithm::AttackCounts, Algorithm::Scan, Algorithm::Flags] {
                assert_eq!(algorithm.nodes(n), Ok(tree), "{algorithm} at n = {n}");
            }
            // Mirror symmetry: an even board's tree is the root and two
            // mirror-image halves; an odd board's cut is a little larger.
            let cut = Algorithm::Bitmask.nodes(n).unwrap();
            assert_eq!(Algorithm::Parallel.nodes(n), Ok(cut));
            if n % 2 == 0 {
                assert_eq!(cut, 1 + (tree - 1) / 2, "n = {n}");
            } else {
                assert!(cut > 1 + (tree - 1) / 2 && cut <= tree, "n = {n}");
            }
        }
        assert_eq!(Algorithm::Cells.nodes(2), Ok(31));
        for a in Algorithm::ALL {
            for b in Algorithm::ALL {
                let same = (1..=5).all(|n| a.nodes(n) == b.nodes(n));
                assert_eq!(a.walks_the_tree_of(b), same, "{a} and {b}");
            }
        }
        assert!(Algorithm::Cells.nodes(9).is_err() && Algorithm::Flags.nodes(0).is_err());
    }

    #[test]
    fn sizes_beyond_an_algorithm_are_refused() {
        let c = Config::default();
        for (algorithm, n) in [
            (Algorithm::Cells, 9),
            (Algorithm::Flags, 33),
            (Algorithm::Scan, 0),
        ] {
            assert!(matches!(
                count_with(algorithm, n, &c),
                Err(Error::BoardSize { n: m, max, .. }) if m == n && max == algorithm.max_n()
            ));
        }
        assert_eq!(
            count_with(Algorithm::Cells, 9, &c).unwrap_err().to_string(),
            "board size 9 is out of range: the cells algorithm takes n from 1 to 8"
        );
    }

    #[test]
    fn names_round_trip_and_the_ladder_is_ordered() {
        for a in Algorithm::ALL {
            assert_eq!(a.name().parse::<Algorithm>(), Ok(a));
        }
        assert!(Algorithm::ALL.windows(2).all(|w| w[0] < w[1]));
        assert!("Cells".parse::<Algorithm>().is_err());
    }
}
