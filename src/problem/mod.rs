//! An n-queens problem: a board size, queens already placed, and squares
//! that may not hold a queen (n-Queens Completion and Blocked n-Queens, in
//! the words of Gent, Jefferson and Nightingale, JAIR 59, 2017).
//!
//! The empty board is the problem every engine counts; a problem with
//! constraints is counted by the bitmask kernel with one mask of allowed
//! columns a row ([`crate::kernel`]'s `count_allowed_on`, the
//! constellations engine's kernel). Every constraint is folded into those
//! masks before the search: a row with a given queen allows that column
//! alone, and every other row loses the given queens' columns, their
//! diagonals and its blocked squares. The search then never meets a given
//! queen as a conflict: it only meets what the masks leave open.
//!
//! ## Symmetry
//!
//! A transform of the square maps completions of a problem onto
//! completions of the problem's image. The transforms that map the given
//! queens onto themselves and the blocked squares onto themselves, the
//! problem's [`Problem::symmetries`] (a subgroup of the eight, always with
//! the identity), map its completions onto its own. The count uses one of
//! them where it can: with the mirror, the first row without a given queen
//! takes its queen in the left half only and each such completion counts
//! twice (the middle column of an odd board once), as the mirror engine
//! does for the empty board; with the flip (top to bottom) and no mirror,
//! the problem is transposed first, which turns the flip into the mirror
//! and leaves the count as it is. Rotations and the diagonal reflections
//! alone are not used: they map a row onto a column, so they cut no
//! top-down search in half.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::Error;
use crate::cpu::Features;
use crate::kernel::{MAX_N, Masks, RowMasks, full_mask};
use crate::symmetry::Transform;

mod search;
#[cfg(test)]
pub(crate) mod tests;
mod text;

use self::search::{START_ROWS, Walk};

/// A square of the board, 0-based: `row` from the top, `col` from the left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// The row, `0..n`, from the top.
    pub row: u32,
    /// The column, `0..n`, from the left.
    pub col: u32,
}

impl Square {
    /// The square in `row` and `col`, both 0-based.
    #[must_use]
    pub const fn new(row: u32, col: u32) -> Self {
        Self { row, col }
    }

    /// Whether queens on `self` and `other` attack each other: same row,
    /// column or diagonal.
    #[must_use]
    pub const fn attacks(self, other: Self) -> bool {
        self.row == other.row
            || self.col == other.col
            || self.row.abs_diff(other.row) == self.col.abs_diff(other.col)
    }
}

/// Squares as people write them: 1-based `row:column`, as `check` prints
/// positions.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.row + 1, self.col + 1)
    }
}

/// An n-queens problem: place `n` queens on an `n x n` board, none
/// attacking another, with the [given](Problem::given) queens among them
/// and no queen on a [blocked](Problem::blocked) square.
///
/// The given queens and the blocked squares are kept sorted (row, then
/// column), so that two problems with the same constraints are equal
/// whatever order they were written in.
///
/// ```
/// use queens::{Problem, Square};
///
/// // The 8 x 8 board with a queen in the top-left corner: 4 of the 92
/// // solutions have it.
/// let corner = Problem::new(8, [Square::new(0, 0)], [])?;
/// assert_eq!(corner.count(), 4);
/// // With no constraint, every solution is a completion.
/// assert_eq!(Problem::empty(8)?.count(), 92);
/// # Ok::<(), queens::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Problem {
    n: u32,
    given: Vec<Square>,
    blocked: Vec<Square>,
}

impl Problem {
    /// The problem of the `n x n` board with no constraint.
    ///
    /// # Errors
    ///
    /// [`Error::BoardSize`] unless `1 <= n <= 32`.
    pub fn empty(n: u32) -> Result<Self, Error> {
        Self::new(n, [], [])
    }

    /// The problem of the `n x n` board with queens on `given` and none
    /// allowed on `blocked` (0-based squares).
    ///
    /// A blocked square listed twice counts once. Given queens that attack
    /// each other (in different rows) make a problem without completion,
    /// not an error: [`Problem::conflict`] names them and the count is 0.
    ///
    /// # Errors
    ///
    /// - [`Error::BoardSize`] unless `1 <= n <= 32`;
    /// - [`Error::OffBoard`] for a square outside the board;
    /// - [`Error::GivenTwice`] for a square given twice;
    /// - [`Error::GivenRow`] for two given queens in one row;
    /// - [`Error::GivenBlocked`] for a given queen on a blocked square.
    pub fn new(
        n: u32,
        given: impl IntoIterator<Item = Square>,
        blocked: impl IntoIterator<Item = Square>,
    ) -> Result<Self, Error> {
        if !(1..=MAX_N).contains(&n) {
            return Err(Error::BoardSize {
                n,
                by: "a problem",
                min: 1,
                max: MAX_N,
            });
        }
        let on_board = |what: &'static str, square: Square| {
            if square.row < n && square.col < n {
                Ok(square)
            } else {
                Err(Error::OffBoard {
                    what,
                    row: square.row,
                    col: square.col,
                    n,
                })
            }
        };
        let mut given = given
            .into_iter()
            .map(|s| on_board("given queen", s))
            .collect::<Result<Vec<_>, _>>()?;
        let mut blocked = blocked
            .into_iter()
            .map(|s| on_board("blocked square", s))
            .collect::<Result<Vec<_>, _>>()?;
        given.sort_unstable();
        blocked.sort_unstable();
        blocked.dedup();
        // Sorted, a square given twice is next to itself.
        if let Some(pair) = given.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(Error::GivenTwice {
                row: pair[0].row,
                col: pair[0].col,
            });
        }
        if let Some(pair) = given.windows(2).find(|pair| pair[0].row == pair[1].row) {
            return Err(Error::GivenRow {
                row: pair[0].row,
                cols: (pair[0].col, pair[1].col),
            });
        }
        if let Some(&square) = given.iter().find(|s| blocked.binary_search(s).is_ok()) {
            return Err(Error::GivenBlocked {
                row: square.row,
                col: square.col,
            });
        }
        Ok(Self { n, given, blocked })
    }

    /// The board size.
    #[must_use]
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The queens placed in advance, sorted by row.
    #[must_use]
    pub fn given(&self) -> &[Square] {
        &self.given
    }

    /// The squares that may not hold a queen, sorted.
    #[must_use]
    pub fn blocked(&self) -> &[Square] {
        &self.blocked
    }

    /// Whether the problem has no constraint: the plain n-queens puzzle.
    #[must_use]
    pub fn is_empty_board(&self) -> bool {
        self.given.is_empty() && self.blocked.is_empty()
    }

    /// The first two given queens that attack each other (in row order),
    /// if any: then the problem has no completion.
    #[must_use]
    pub fn conflict(&self) -> Option<(Square, Square)> {
        self.given.iter().enumerate().find_map(|(i, &a)| {
            self.given[i + 1..]
                .iter()
                .find(|&&b| a.attacks(b))
                .map(|&b| (a, b))
        })
    }

    /// The columns open to row `row`'s queen before the search: the given
    /// queen's column in a row that has one; otherwise every column that no
    /// given queen attacks and that is not blocked. Bit `c` is column `c`.
    ///
    /// # Panics
    ///
    /// If `row >= n`.
    #[must_use]
    pub fn allowed_columns(&self, row: u32) -> u32 {
        assert!(row < self.n, "row {row} of an {0} x {0} board", self.n);
        if let Some(queen) = self.given.iter().find(|q| q.row == row) {
            return 1 << queen.col;
        }
        let mut open = full_mask(self.n);
        for queen in &self.given {
            let rows_apart = queen.row.abs_diff(row);
            open &= !(1 << queen.col);
            // The two diagonals cross this row `rows_apart` columns either
            // side of the queen's column (shifts past the board fall off).
            open &= !((1u64 << queen.col << rows_apart) as u32);
            if let Some(left) = queen.col.checked_sub(rows_apart) {
                open &= !(1 << left);
            }
        }
        for square in self.blocked.iter().filter(|s| s.row == row) {
            open &= !(1 << square.col);
        }
        open
    }

    /// Every row's [`Problem::allowed_columns`], as the kernel reads them.
    pub(crate) fn row_masks(&self) -> RowMasks {
        let mut rows = [0; MAX_N as usize];
        for (row, mask) in (0..self.n).zip(&mut rows) {
            *mask = self.allowed_columns(row);
        }
        rows
    }

    /// The image of the problem under `transform`: its completions are the
    /// images of this problem's.
    #[must_use]
    pub fn transformed(&self, transform: Transform) -> Self {
        let map = |s: &Square| {
            let (row, col) = transform.map_square(self.n, s.row, s.col);
            Square::new(row, col)
        };
        let mut given: Vec<_> = self.given.iter().map(map).collect();
        let mut blocked: Vec<_> = self.blocked.iter().map(map).collect();
        given.sort_unstable();
        blocked.sort_unstable();
        Self {
            n: self.n,
            given,
            blocked,
        }
    }

    /// The symmetries of the square that map this problem onto itself (the
    /// given queens onto given queens, the blocked squares onto blocked
    /// ones), in the order of [`Transform::ALL`]: all eight for the empty
    /// board, the identity alone in general. They form a group, and map
    /// the problem's completions onto its completions.
    #[must_use]
    pub fn symmetries(&self) -> Vec<Transform> {
        Transform::ALL
            .into_iter()
            .filter(|&t| self.transformed(t) == *self)
            .collect()
    }

    /// Whether `board` (one column a row, `board.len() == n`) holds every
    /// given queen and no queen on a blocked square. It does not check that
    /// the board is a solution.
    #[must_use]
    pub fn admits(&self, board: &[u32]) -> bool {
        board.len() == self.n as usize
            && self.given.iter().all(|q| board[q.row as usize] == q.col)
            && self.blocked.iter().all(|s| board[s.row as usize] != s.col)
    }

    /// The symmetry the count uses to halve its work: [`Transform::MIRROR`]
    /// or [`Transform::FLIP`] (counted as the mirror of the transposed
    /// problem), or `None`. See the module's documentation.
    #[must_use]
    pub fn halving_symmetry(&self) -> Option<Transform> {
        let symmetries = self.symmetries();
        [Transform::MIRROR, Transform::FLIP]
            .into_iter()
            .find(|t| symmetries.contains(t))
    }

    /// The problem as the search takes it: transposed where the flip is
    /// its only usable symmetry, so that the mirror halves it.
    pub(crate) fn searched(&self) -> (Self, bool) {
        match self.halving_symmetry() {
            Some(Transform::MIRROR) => (self.clone(), true),
            Some(_) => (self.transformed(Transform::TRANSPOSE), true),
            None => (self.clone(), false),
        }
    }

    /// Counts the completions: the solutions of the `n x n` board that hold
    /// every given queen and leave every blocked square empty. Runs on the
    /// current rayon pool.
    #[must_use]
    pub fn count(&self) -> u128 {
        self.count_until(&AtomicBool::new(false))
            .expect("a count that is never stopped ends")
    }

    /// [`Problem::count`], stopped soon after `stop` is set: `None` then.
    /// The flag is read between pieces of the search of at most 15 rows
    /// (a tenth of a second or less), so a stop is heard inside a start of
    /// many rows too.
    #[must_use]
    pub fn count_until(&self, stop: &AtomicBool) -> Option<u128> {
        let features = Features::detect();
        let starts = self.starts(START_ROWS);
        starts
            .list()
            .par_iter()
            .map(|start| starts.count_unless(features, start, &|| stop.load(Ordering::Relaxed)))
            .sum()
    }

    /// [`Problem::count`] on the calling thread alone: the same starts,
    /// one after another, and no thread started. For where rayon can start
    /// none (a browser's `wasm32-unknown-unknown`) and for a caller that
    /// runs many small counts on threads of its own.
    #[must_use]
    pub fn count_serially(&self) -> u128 {
        let features = Features::detect();
        let starts = self.starts(START_ROWS);
        starts
            .list()
            .iter()
            .map(|start| starts.count_on(features, start))
            .sum()
    }

    /// Calls `visit` with every completion (one column a row), in
    /// lexicographic order, until it returns `false`. Returns whether it
    /// went to the end. A plain depth-first search over the allowed masks,
    /// on the calling thread.
    pub fn for_each_completion(&self, visit: impl FnMut(&[u32]) -> bool) -> bool {
        self.for_each_completion_until(&AtomicBool::new(false), visit)
    }

    /// [`Problem::for_each_completion`], which also stops (and returns
    /// `false`) once `stop` is set: the flag is read at every square the
    /// search tries, so a search that finds nothing for hours still stops
    /// at once.
    pub fn for_each_completion_until(
        &self,
        stop: &AtomicBool,
        mut visit: impl FnMut(&[u32]) -> bool,
    ) -> bool {
        if self.conflict().is_some() {
            return true;
        }
        let allowed = self.row_masks();
        let mut board = Vec::with_capacity(self.n as usize);
        let mut walk = Walk {
            n: self.n,
            allowed: &allowed,
            stop,
        };
        walk.go(Masks::EMPTY, &mut board, &mut visit)
    }

    /// The first completion in lexicographic order, if there is one.
    #[must_use]
    pub fn first_completion(&self) -> Option<Vec<u32>> {
        let mut found = None;
        self.for_each_completion(|board| {
            found = Some(board.to_vec());
            false
        });
        found
    }
}

impl Problem {
    /// Counts the completions up to the problem's own symmetries: the
    /// classes into which its [`symmetries`](Problem::symmetries) sort its
    /// completions, each counted once (A002562 for the empty board). A
    /// completion counts where it is the smallest (lexicographically) of
    /// its images under that group, so this lists every completion: for
    /// small boards and narrow problems.
    #[must_use]
    pub fn count_classes(&self) -> u128 {
        let group = self.symmetries();
        let mut image = vec![0; self.n as usize];
        let mut classes = 0u128;
        self.for_each_completion(|board| {
            let smallest = group.iter().all(|t| {
                t.apply_into(board, &mut image);
                image.as_slice() >= board
            });
            classes += u128::from(smallest);
            true
        });
        classes
    }
}
