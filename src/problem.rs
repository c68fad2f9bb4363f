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
use crate::kernel::{MAX_N, Masks, RowMasks, count_allowed_on, full_mask};
use crate::symmetry::Transform;

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

    /// Cuts the search into independent starts: every placement of the
    /// first `rows` rows that the masks allow (fewer rows where the board
    /// is smaller), each with its weight, 2 for a start that stands for
    /// its mirror image too. Counting every start's completions, times its
    /// weight, counts the problem.
    pub(crate) fn starts(&self, rows: u32) -> Starts {
        let (problem, mirrored) = self.searched();
        let allowed = problem.row_masks();
        let n = problem.n;
        let mut rows = rows.min(n);
        let mut list = Vec::new();
        if problem.conflict().is_none() {
            // The first row whose queen is not given is the one the mirror
            // halves; rows with a given queen allow one column (the middle
            // one, in a mirror-symmetric problem).
            let halved = mirrored
                .then(|| (0..n).find(|&r| !has_given(&problem, r)))
                .flatten();
            // The halved row is placed in the starts, however deep it is.
            rows = halved.map_or(rows, |row| rows.max(row + 1));
            walk_starts(n, &allowed, halved, rows, &mut list);
        }
        Starts {
            n,
            allowed,
            rows,
            list,
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

    /// Reads a partial board: one line a row, one character a square,
    /// `Q` (or `q`) for a given queen, `x` (or `X`) for a blocked square
    /// and `.` for a free one. Blank lines and lines starting with `#` are
    /// skipped; trailing spaces are ignored. The board is square: as many
    /// rows as the first row has squares.
    ///
    /// # Errors
    ///
    /// [`Error::PartialBoard`] naming the line and what is wrong with it,
    /// and the errors of [`Problem::new`].
    pub fn from_board(text: &str) -> Result<Self, Error> {
        let bad = |line: usize, why: String| Error::PartialBoard { line, why };
        let mut given = Vec::new();
        let mut blocked = Vec::new();
        let mut n = None;
        let mut row = 0u32;
        for (index, line) in text.lines().enumerate() {
            let line_no = index + 1;
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let width = line.chars().count();
            let size = *n.get_or_insert(width);
            if width != size {
                return Err(bad(
                    line_no,
                    format!("{width} squares where the first row has {size}"),
                ));
            }
            if row as usize == size {
                return Err(bad(
                    line_no,
                    format!("row {} of a board of {size}", row + 1),
                ));
            }
            for (col, square) in (0u32..).zip(line.chars()) {
                match square {
                    'Q' | 'q' => given.push(Square::new(row, col)),
                    'x' | 'X' => blocked.push(Square::new(row, col)),
                    '.' => {}
                    other => {
                        return Err(bad(
                            line_no,
                            format!("'{other}' is not a square: expected Q, x or ."),
                        ));
                    }
                }
            }
            row += 1;
        }
        let Some(size) = n else {
            return Err(bad(0, "no board: expected rows of Q, x and .".to_owned()));
        };
        if (row as usize) < size {
            return Err(bad(
                text.lines().count(),
                format!("{row} rows for a board of {size}: it needs {size}"),
            ));
        }
        let size = u32::try_from(size).unwrap_or(u32::MAX);
        Self::new(size, given, blocked)
    }
}

impl Problem {
    /// The problem on one line, as a plan's header, its journals and its
    /// shard files name it: the board of [`Display`](fmt::Display) with
    /// its rows joined by `/` (`.Q../..../x.../....`), at most 1,055
    /// characters (n = 32).
    #[must_use]
    pub fn to_line(&self) -> String {
        self.to_string().trim_end().replace('\n', "/")
    }

    /// Reads back what [`Problem::to_line`] wrote, and nothing else.
    ///
    /// # Errors
    /// [`Error::PartialBoard`] for a line that is not one problem's line,
    /// and the errors of [`Problem::new`].
    pub fn from_line(line: &str) -> Result<Self, Error> {
        let problem = Self::from_board(&line.replace('/', "\n"))?;
        if problem.to_line() != line {
            return Err(Error::PartialBoard {
                line: 1,
                why: "not a problem's line: rows of Q, x and . joined by /".to_owned(),
            });
        }
        Ok(problem)
    }
}

/// The problem as [`Problem::from_board`] reads it back: `Q`, `x`, `.`.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..self.n {
            for col in 0..self.n {
                let here = Square::new(row, col);
                let c = if self.given.binary_search(&here).is_ok() {
                    'Q'
                } else if self.blocked.binary_search(&here).is_ok() {
                    'x'
                } else {
                    '.'
                };
                f.write_fmt(format_args!("{c}"))?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

/// How many rows [`Problem::count`] places before it hands the rest to the
/// kernel: enough starts to keep a pool busy, few enough to list cheaply.
const START_ROWS: u32 = 3;

fn has_given(problem: &Problem, row: u32) -> bool {
    problem.given.iter().any(|q| q.row == row)
}

/// A problem's search, cut into starts (see [`Problem::starts`]).
pub(crate) struct Starts {
    n: u32,
    allowed: RowMasks,
    rows: u32,
    list: Vec<Start>,
}

/// One start: the attacks on row `rows` after a placement of the rows
/// above it, and how many completions each of its own stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Start {
    pub(crate) masks: Masks,
    pub(crate) weight: u8,
}

impl Starts {
    /// The starts, in lexicographic order of their placements.
    pub(crate) fn list(&self) -> &[Start] {
        &self.list
    }

    /// [`Starts::count_on`], in pieces with `stop()` read between two
    /// ([`crate::count::pieces`]), so that a stop is heard inside a start
    /// of many rows: `None` once it said stop.
    pub(crate) fn count_unless(
        &self,
        features: Features,
        start: &Start,
        stop: &dyn Fn() -> bool,
    ) -> Option<u128> {
        let allowed = &self.allowed;
        let n = self.n;
        let completions = crate::count::pieces::count_in_pieces(
            n,
            (self.rows, n),
            start.masks,
            &|row| allowed[row as usize],
            stop,
            &mut |row, masks| count_allowed_on(features, n, (row, n), masks, allowed),
        )?;
        Some(u128::from(start.weight) * completions)
    }

    /// The completions of one start, times its weight.
    pub(crate) fn count_on(&self, features: Features, start: &Start) -> u128 {
        u128::from(start.weight)
            * count_allowed_on(
                features,
                self.n,
                (self.rows, self.n),
                start.masks,
                &self.allowed,
            )
    }
}

/// Every placement of rows `0..rows` the masks allow, halved on row
/// `halved` (its queen in the left half, weight 2; the middle column of an
/// odd board, weight 1).
fn walk_starts(n: u32, allowed: &RowMasks, halved: Option<u32>, rows: u32, out: &mut Vec<Start>) {
    fn go(
        n: u32,
        allowed: &RowMasks,
        halved: Option<u32>,
        (row, rows): (u32, u32),
        masks: Masks,
        weight: u8,
        out: &mut Vec<Start>,
    ) {
        if row == rows {
            out.push(Start { masks, weight });
            return;
        }
        let mut open = masks.free(full_mask(n)) & allowed[row as usize];
        while open != 0 {
            let bit = open & open.wrapping_neg();
            open ^= bit;
            let col = bit.trailing_zeros();
            let weight = if halved == Some(row) {
                match (2 * col + 1).cmp(&n) {
                    std::cmp::Ordering::Less => 2 * weight,
                    std::cmp::Ordering::Equal => weight,
                    std::cmp::Ordering::Greater => continue,
                }
            } else {
                weight
            };
            go(
                n,
                allowed,
                halved,
                (row + 1, rows),
                masks.place(bit),
                weight,
                out,
            );
        }
    }
    go(n, allowed, halved, (0, rows), Masks::EMPTY, 1, out);
}

/// The depth-first search of [`Problem::for_each_completion_until`].
struct Walk<'a> {
    n: u32,
    allowed: &'a RowMasks,
    stop: &'a AtomicBool,
}

impl Walk<'_> {
    /// Visits the completions of `board` (the rows above), whose attacks
    /// on the next row are `masks`; `false` once the visitor or the flag
    /// says stop.
    fn go(
        &mut self,
        masks: Masks,
        board: &mut Vec<u32>,
        visit: &mut impl FnMut(&[u32]) -> bool,
    ) -> bool {
        let row = board.len();
        if row == self.n as usize {
            return visit(board);
        }
        let mut open = masks.free(full_mask(self.n)) & self.allowed[row];
        while open != 0 {
            if self.stop.load(Ordering::Relaxed) {
                return false;
            }
            let bit = open & open.wrapping_neg();
            open ^= bit;
            board.push(bit.trailing_zeros());
            let go_on = self.go(masks.place(bit), board, visit);
            board.pop();
            if !go_on {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::known::A000170 as SOLUTIONS;

    /// A small deterministic generator (SplitMix64), so that a failure
    /// names its seed.
    pub(crate) struct Rng(pub(crate) u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        pub(crate) fn below(&mut self, bound: u32) -> u32 {
            (self.next() % u64::from(bound)) as u32
        }
    }

    /// Every permutation of `0..n` that is a solution and that `problem`
    /// admits, by brute force.
    pub(crate) fn brute_force(problem: &Problem) -> Vec<Vec<u32>> {
        fn go(n: u32, board: &mut Vec<u32>, problem: &Problem, out: &mut Vec<Vec<u32>>) {
            if board.len() == n as usize {
                if problem.admits(board) {
                    out.push(board.clone());
                }
                return;
            }
            for col in 0..n {
                let here = Square::new(board.len() as u32, col);
                if (0..board.len() as u32).all(|r| !Square::new(r, board[r as usize]).attacks(here))
                {
                    board.push(col);
                    go(n, board, problem, out);
                    board.pop();
                }
            }
        }
        let mut out = Vec::new();
        go(problem.n, &mut Vec::new(), problem, &mut out);
        out
    }

    /// A random problem: a few given queens (from a random solution, or
    /// anywhere, so that some contradict each other), a few blocked squares,
    /// and, for one in three, its mirror image added so that it keeps the
    /// mirror (or the flip).
    pub(crate) fn random_problem(rng: &mut Rng, n: u32) -> Problem {
        let mut given = Vec::new();
        let mut rows_used = 0u32;
        for _ in 0..rng.below(n / 2 + 1) {
            let row = rng.below(n);
            if rows_used & (1 << row) == 0 {
                rows_used |= 1 << row;
                given.push(Square::new(row, rng.below(n)));
            }
        }
        let mut blocked: Vec<_> = (0..rng.below(2 * n))
            .map(|_| Square::new(rng.below(n), rng.below(n)))
            .filter(|s| !given.iter().any(|g| g.row == s.row))
            .collect();
        match rng.below(3) {
            0 => blocked.extend(
                blocked
                    .clone()
                    .iter()
                    .map(|s| Square::new(s.row, n - 1 - s.col)),
            ),
            1 => {
                given.retain(|g| 2 * g.row + 1 == n);
                blocked.extend(
                    blocked
                        .clone()
                        .iter()
                        .map(|s| Square::new(n - 1 - s.row, s.col)),
                );
            }
            _ => {}
        }
        Problem::new(n, given, blocked).expect("a valid problem")
    }

    #[test]
    fn random_problems_count_what_brute_force_finds() {
        let mut rng = Rng(0x5eed);
        let mut halved = 0;
        for case in 0..300 {
            let n = 1 + rng.below(8);
            let problem = random_problem(&mut rng, n);
            let want = brute_force(&problem);
            assert_eq!(
                problem.count(),
                want.len() as u128,
                "case {case}: {problem:?}"
            );
            let mut listed = Vec::new();
            problem.for_each_completion(|b| {
                listed.push(b.to_vec());
                true
            });
            assert_eq!(listed, want, "case {case}: {problem:?}");
            assert_eq!(problem.first_completion(), want.first().cloned());
            halved += usize::from(problem.halving_symmetry().is_some());
        }
        // The generator makes symmetric problems often enough to test the
        // halving.
        assert!(halved > 50, "{halved} of 300 problems were halved");
    }

    #[test]
    fn the_serial_count_counts_what_the_parallel_one_counts() {
        let mut rng = Rng(0x5e71a1);
        for case in 0..300 {
            let n = 1 + rng.below(12);
            let problem = random_problem(&mut rng, n);
            assert_eq!(
                problem.count_serially(),
                problem.count(),
                "case {case}: {problem:?}"
            );
        }
        for n in 1..=12 {
            let problem = Problem::empty(n).unwrap();
            assert_eq!(problem.count_serially(), SOLUTIONS[n as usize], "n = {n}");
        }
    }

    #[test]
    fn the_empty_board_counts_a000170() {
        for n in 1..=12 {
            let problem = Problem::empty(n).unwrap();
            assert_eq!(problem.count(), SOLUTIONS[n as usize], "n = {n}");
            assert_eq!(problem.symmetries().len(), 8);
        }
    }

    /// Every solution has its queen of row `r` somewhere: the completions
    /// of the `n` single-queen problems of one row add up to A000170(n).
    #[test]
    fn the_completions_of_one_row_add_up_to_the_whole() {
        for n in 1..=13 {
            let row = n / 3;
            let total: u128 = (0..n)
                .map(|col| {
                    Problem::new(n, [Square::new(row, col)], [])
                        .unwrap()
                        .count()
                })
                .sum();
            assert_eq!(total, SOLUTIONS[n as usize], "n = {n}");
        }
    }

    #[test]
    fn the_symmetries_are_the_stabiliser_of_the_constraints() {
        let mut rng = Rng(7);
        for _ in 0..200 {
            let n = 1 + rng.below(9);
            let problem = random_problem(&mut rng, n);
            for t in Transform::ALL {
                // A transform keeps the problem exactly when it maps every
                // completion-candidate square set onto itself: checked square
                // by square, independently of `transformed`.
                let keeps = |set: &[Square]| {
                    set.iter().all(|s| {
                        let (r, c) = t.map_square(n, s.row, s.col);
                        set.contains(&Square::new(r, c))
                    })
                };
                let want = keeps(&problem.given) && keeps(&problem.blocked);
                assert_eq!(problem.symmetries().contains(&t), want, "{t} {problem:?}");
            }
            // A group: closed under composition.
            let group = problem.symmetries();
            for a in &group {
                for b in &group {
                    assert!(group.contains(&a.after(*b)));
                }
            }
        }
    }

    #[test]
    fn classes_under_the_whole_group_are_a002562() {
        for n in 1..=10 {
            let problem = Problem::empty(n).unwrap();
            assert_eq!(
                problem.count_classes(),
                crate::known::A002562[n as usize - 1],
                "n = {n}"
            );
        }
    }

    /// Classes counted by canonical forms against classes counted as
    /// orbits, by brute force: the set of completions closed under the
    /// group, cut into orbits.
    #[test]
    fn classes_are_the_orbits_of_the_problems_own_group() {
        let mut rng = Rng(99);
        for case in 0..150 {
            let n = 1 + rng.below(8);
            let problem = random_problem(&mut rng, n);
            let group = problem.symmetries();
            let mut left: std::collections::BTreeSet<_> =
                brute_force(&problem).into_iter().collect();
            let mut orbits = 0u128;
            while let Some(board) = left.pop_first() {
                for t in &group {
                    let image = t.apply(&board);
                    assert!(image == board || left.remove(&image) || !left.contains(&image));
                }
                orbits += 1;
            }
            assert_eq!(problem.count_classes(), orbits, "case {case}: {problem:?}");
        }
    }

    #[test]
    fn a_partial_board_reads_back_as_it_prints() {
        let text = "# a corner queen\n.Q..\nx...\n...x\n....\n";
        let problem = Problem::from_board(text).unwrap();
        assert_eq!(problem.n(), 4);
        assert_eq!(problem.given(), [Square::new(0, 1)]);
        assert_eq!(problem.blocked(), [Square::new(1, 0), Square::new(2, 3)]);
        assert_eq!(Problem::from_board(&problem.to_string()).unwrap(), problem);
        // .Q.. / ...Q / Q... / ..Q. is the one completion, and it puts no
        // queen on a blocked square.
        assert_eq!(problem.first_completion(), Some(vec![1, 3, 0, 2]));
        for (text, why) in [
            ("..\n...\n", "line 2: 3 squares where the first row has 2"),
            ("Q.\n..\n..\n", "line 3: row 3 of a board of 2"),
            ("Q.\n", "line 1: 1 rows for a board of 2: it needs 2"),
            (
                "Q*\n..\n",
                "line 1: '*' is not a square: expected Q, x or .",
            ),
            (
                "QQ\n..\n",
                "given queens 1:1 and 1:2 share row 1: one queen a row",
            ),
        ] {
            let err = Problem::from_board(text).unwrap_err().to_string();
            assert!(err.ends_with(why), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_stopped_search_visits_nothing() {
        let mut seen = 0;
        let went_on =
            Problem::empty(8)
                .unwrap()
                .for_each_completion_until(&AtomicBool::new(true), |_| {
                    seen += 1;
                    true
                });
        assert!(!went_on);
        assert_eq!(seen, 0);
    }

    #[test]
    fn a_stopped_count_gives_no_total() {
        let problem = Problem::empty(12).unwrap();
        assert_eq!(problem.count_until(&AtomicBool::new(true)), None);
        assert_eq!(problem.count_until(&AtomicBool::new(false)), Some(14_200));
    }

    #[test]
    fn contradictions_count_zero_and_name_the_queens() {
        let p = Problem::new(8, [Square::new(0, 0), Square::new(3, 3)], []).unwrap();
        assert_eq!(p.conflict(), Some((Square::new(0, 0), Square::new(3, 3))));
        assert_eq!(p.count(), 0);
        assert_eq!(p.first_completion(), None);
    }

    #[test]
    fn bad_constraints_are_refused_with_the_square() {
        let err = Problem::new(8, [Square::new(8, 1)], []).unwrap_err();
        assert_eq!(
            err.to_string(),
            "given queen 9:2 is off the board: rows and columns run from 1 to 8"
        );
        let err = Problem::new(8, [Square::new(2, 1), Square::new(2, 5)], []).unwrap_err();
        assert_eq!(
            err.to_string(),
            "given queens 3:2 and 3:6 share row 3: one queen a row"
        );
        let err = Problem::new(8, [Square::new(2, 1)], [Square::new(2, 1)]).unwrap_err();
        assert_eq!(err.to_string(), "given queen 3:2 is on a blocked square");
        assert!(Problem::empty(0).is_err());
        assert!(Problem::empty(33).is_err());
    }
}
