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
//! | `bitmask`       | the serial engine: columns and diagonals as bitmasks, mirror symmetry ([`crate::Counter`] on one thread) |
//! | `parallel`      | the same on every core ([`crate::Counter`]) |
//!
//! The slow steps run on one thread. This module counts only; timing the
//! steps against each other is the caller's business, and it never refuses
//! a size for taking long: [`Algorithm::comfortable_max_n`] says where that
//! starts, for the caller to decide.

use std::fmt;
use std::str::FromStr;

use crate::Error;
use crate::count::{Config, Counter, Engine};
use crate::kernel::MAX_N;

/// One step of the ladder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
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

/// Counts the `n`-queens solutions with `algorithm`; `config` matters to
/// `bitmask` (split depth) and `parallel` (threads and split depth) only.
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
        Algorithm::Bitmask => mirror(n, config).threads(1).run()?.solutions,
        Algorithm::Parallel => mirror(n, config).run()?.solutions,
    })
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

/// The mirror engine's count of `n` with `config`: the ladder's top steps.
fn mirror<'a>(n: u32, config: &Config) -> Counter<'a> {
    Counter::new(n).engine(Engine::Mirror).config(config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

    #[test]
    fn every_step_agrees_with_the_oeis_on_small_boards() {
        let config = Config::with_threads(2);
        for algorithm in Algorithm::ALL {
            let top = if algorithm == Algorithm::Cells { 4 } else { 8 };
            for n in 1..=top {
                let got = count_with(algorithm, n, &config).unwrap();
                assert_eq!(Some(got), known::total(n), "{algorithm} at n = {n}");
            }
        }
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
