//! Every solution, one at a time, in lexicographic order.
//!
//! [`Solutions`] walks the same bitmask search as the counting kernel, but
//! stops at each complete board and hands it out: row 0's column first, then
//! row 1's, and so on, smallest first (for n = 4: `[1, 3, 0, 2]`, then
//! `[2, 0, 3, 1]`). The walk keeps an explicit stack of at most 32 frames,
//! so memory stays the same whatever the number of solutions: boards are
//! streamed, never collected. The same walk stopped early yields the legal
//! placements of the first rows ([`Solutions::placements`]), the natural
//! pieces for listing in parallel with the output kept in order. The same
//! walk with one more mask a row lists the completions of a [`Problem`]
//! ([`Solutions::completions`]), its given queens and blocked squares
//! folded into the masks as [`Problem::allowed_columns`] gives them.
//!
//! This module only enumerates. It never counts in bulk (that is the
//! engines' job, far faster) and never formats (that is [`crate::format`]'s).
//! [`solve_n_queens`] gives LeetCode 51 its
//! familiar shapes for programs that embed the library.

use crate::Error;
use crate::format::{Format, Renderer};
use crate::kernel::{MAX_N, Masks, full_mask, lowest_bit};
use crate::problem::Problem;
use crate::symmetry::{Transform, is_canonical};

/// Frames of the walk: one per row below the last.
const STACK: usize = MAX_N as usize;

/// One level of the walk: the attacks on a row and its columns still to try.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    masks: Masks,
    untried: u32,
}

/// The solutions of the `n`-queens puzzle (or the placements of its first
/// rows), in lexicographic order of their columns.
///
/// As an [`Iterator`] it yields each board as a fresh `Vec<u32>`; the
/// lending [`Solutions::next_board`] borrows the walk's own row of columns
/// instead, and allocates nothing.
///
/// ```
/// use queens::Solutions;
///
/// let four: Vec<Vec<u32>> = Solutions::new(4)?.collect();
/// assert_eq!(four, [[1, 3, 0, 2], [2, 0, 3, 1]]);
/// assert_eq!(Solutions::new(8)?.count(), 92);
/// # Ok::<(), queens::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Solutions {
    n: u32,
    full: u32,
    /// Rows fixed by the caller's prefix; the walk never backs into them.
    base: usize,
    /// Rows a yielded placement fills (`n` for whole solutions).
    target: usize,
    /// The columns each row may take before the attacks, for a problem's
    /// completions (`masked`); every column otherwise.
    allowed: [u32; MAX_N as usize],
    masked: bool,
    /// The row being filled: `frames[row]` holds its state.
    row: usize,
    frames: [Frame; STACK],
    cols: [u32; MAX_N as usize],
    /// Only the canonical board of each symmetry class.
    unique: bool,
    /// The symmetries whose classes `unique` keeps one board of: a
    /// problem's own; `None` for all eight.
    group: Option<Vec<Transform>>,
    /// A prefix as long as the target is yielded once, as it stands.
    pending_whole_prefix: bool,
    done: bool,
}

impl Solutions {
    /// Every solution for an `n`-board.
    ///
    /// # Errors
    /// [`Error::BoardSize`] unless `1 <= n <= 32`.
    pub fn new(n: u32) -> Result<Self, Error> {
        Self::placements(n, &[], n)
    }

    /// The solutions whose first rows hold queens at the columns `prefix`,
    /// in order; none when the prefix itself has two queens attacking each
    /// other or a column outside the board.
    ///
    /// # Errors
    /// [`Error::BoardSize`] unless `1 <= n <= 32`.
    pub fn with_prefix(n: u32, prefix: &[u32]) -> Result<Self, Error> {
        Self::placements(n, prefix, n)
    }

    /// The legal placements of queens on the first `rows` rows of an
    /// `n`-board that begin with `prefix`, in order. With `rows == n` these
    /// are the solutions. `rows` below the prefix's length is read as the
    /// prefix's length.
    ///
    /// # Errors
    /// [`Error::BoardSize`] unless `1 <= n <= 32` and `rows <= n`.
    pub fn placements(n: u32, prefix: &[u32], rows: u32) -> Result<Self, Error> {
        if !(1..=MAX_N).contains(&n) {
            return Err(Error::board_size(n, "listing", 1, MAX_N));
        }
        let asked = rows.max(u32::try_from(prefix.len()).unwrap_or(u32::MAX));
        if asked > n {
            return Err(Error::Rows { rows: asked, n });
        }
        let full = full_mask(n);
        let mut walk = Self {
            n,
            full,
            base: prefix.len(),
            target: (rows as usize).max(prefix.len()),
            allowed: [full; MAX_N as usize],
            masked: false,
            row: prefix.len(),
            frames: [Frame::default(); STACK],
            cols: [0; MAX_N as usize],
            unique: false,
            group: None,
            pending_whole_prefix: false,
            done: false,
        };
        let mut masks = Masks::EMPTY;
        for (r, &c) in prefix.iter().enumerate() {
            if c >= n || masks.free(full) & (1 << c) == 0 {
                walk.done = true;
                return Ok(walk);
            }
            walk.cols[r] = c;
            masks = masks.place(1 << c);
        }
        walk.pending_whole_prefix = walk.base == walk.target;
        walk.frames[walk.row % STACK] = Frame {
            masks,
            untried: masks.free(full),
        };
        Ok(walk)
    }

    /// The completions of `problem`: the solutions of its board that hold
    /// every given queen and leave every blocked square empty, in
    /// lexicographic order, as [`Problem::for_each_completion`] visits
    /// them, but one at a time. None when given queens attack each other.
    ///
    /// ```
    /// use queens::{Problem, Solutions, Square};
    ///
    /// let corner = Problem::new(8, [Square::new(0, 0)], [])?;
    /// let first: Vec<u32> = Solutions::completions(&corner).next().unwrap();
    /// assert_eq!(first, [0, 4, 7, 5, 2, 6, 1, 3]);
    /// assert_eq!(Solutions::completions(&corner).count(), 4);
    /// # Ok::<(), queens::Error>(())
    /// ```
    #[must_use]
    pub fn completions(problem: &Problem) -> Self {
        let n = problem.n();
        let mut walk = Self::new(n).expect("a problem's board size is one the walk takes");
        for (row, allowed) in (0..n).zip(&mut walk.allowed) {
            *allowed = problem.allowed_columns(row);
        }
        walk.frames[0].untried &= walk.allowed[0];
        walk.masked = true;
        walk.done = problem.conflict().is_some();
        walk.group = Some(problem.symmetries());
        walk
    }

    /// Keeps only the canonical board of each symmetry class (the
    /// lexicographically smallest of its orbit, [`is_canonical`]): one board
    /// per essentially different solution, OEIS A002562 of them in all.
    /// For a problem's [completions](Solutions::completions), the classes
    /// are those of the problem's own [symmetries](Problem::symmetries),
    /// as [`Problem::count_classes`] counts them.
    /// Meant for whole solutions, not for partial placements.
    #[must_use]
    pub fn unique(mut self) -> Self {
        self.unique = true;
        self
    }

    /// The board size.
    #[must_use]
    pub const fn n(&self) -> u32 {
        self.n
    }

    /// The next board, borrowed from the walk: `cols[r]` is the column of
    /// row `r`'s queen. No allocation.
    pub fn next_board(&mut self) -> Option<&[u32]> {
        loop {
            // The empty board's walk is compiled without the masks: their
            // one `&` a row cost it 5% (n = 15 on one thread, the best of
            // 9 runs: 1.18 s against 1.12 s before the masks came; 1.14 s
            // compiled out).
            let more = if self.masked {
                self.advance::<true>()
            } else {
                self.advance::<false>()
            };
            if !more {
                return None;
            }
            let board = &self.cols[..self.target];
            if !self.unique || smallest_of_class(board, self.group.as_deref()) {
                return Some(&self.cols[..self.target]);
            }
        }
    }

    /// Moves to the next placement of `target` rows; false when there is
    /// none. `MASKED`: each row takes only its `allowed` columns.
    fn advance<const MASKED: bool>(&mut self) -> bool {
        if self.done {
            return false;
        }
        if self.base == self.target {
            self.done = true;
            return std::mem::take(&mut self.pending_whole_prefix);
        }
        // The current frame lives in a local and goes back to `frames` only
        // when the walk descends or yields: 1.3x faster than updating
        // `frames` in place (n = 14, one thread: 178 ms against 230 ms).
        // Finishing the last row from the row above, as the kernel does,
        // measured no gain here.
        // `% STACK` is free and lets the compiler drop the bounds checks;
        // rows stay below n <= STACK anyway.
        let mut row = self.row;
        let mut here = self.frames[row % STACK];
        loop {
            if here.untried == 0 {
                if row == self.base {
                    self.done = true;
                    return false;
                }
                row -= 1;
                here = self.frames[row % STACK];
                continue;
            }
            let bit = lowest_bit(here.untried);
            here.untried ^= bit;
            self.cols[row % STACK] = bit.trailing_zeros();
            if row + 1 == self.target {
                // Stay on this row: the next call tries its next column.
                self.frames[row % STACK] = here;
                self.row = row;
                return true;
            }
            let below = here.masks.place(bit);
            self.frames[row % STACK] = here;
            row += 1;
            let mut untried = below.free(self.full);
            if MASKED {
                untried &= self.allowed[row % STACK];
            }
            here = Frame {
                masks: below,
                untried,
            };
        }
    }
}

/// Whether `board` is the smallest of its images under `group` (under all
/// eight transforms for `None`).
fn smallest_of_class(board: &[u32], group: Option<&[Transform]>) -> bool {
    let Some(group) = group else {
        return is_canonical(board);
    };
    let mut image = [0; MAX_N as usize];
    let image = &mut image[..board.len()];
    group.iter().all(|t| {
        t.apply_into(board, image);
        &*image >= board
    })
}

impl Iterator for Solutions {
    type Item = Vec<u32>;

    fn next(&mut self) -> Option<Vec<u32>> {
        self.next_board().map(<[u32]>::to_vec)
    }
}

/// LeetCode 51 "N-Queens": every solution, each as its rows drawn with `Q`
/// and `.`, in lexicographic order of the columns.
///
/// ```
/// let boards = queens::solve_n_queens(4)?;
/// assert_eq!(boards, [[".Q..", "...Q", "Q...", "..Q."], ["..Q.", "Q...", "...Q", ".Q.."]]);
/// # Ok::<(), queens::Error>(())
/// ```
///
/// # Errors
/// [`Error::BoardSize`] unless `1 <= n <= 32` (in practice n is small:
/// n = 14 already makes 365,596 boards).
pub fn solve_n_queens(n: u32) -> Result<Vec<Vec<String>>, Error> {
    let mut walk = Solutions::new(n)?;
    let mut renderer = Renderer::new(Format::Board);
    let mut boards = Vec::new();
    let mut text = Vec::new();
    while let Some(cols) = walk.next_board() {
        text.clear();
        renderer
            .write(&mut text, n, cols.iter().copied())
            .expect("writing to a Vec cannot fail");
        let rows = text
            .split(|&b| b == b'\n')
            .filter(|row| !row.is_empty())
            .map(|row| String::from_utf8_lossy(row).into_owned())
            .collect();
        boards.push(rows);
    }
    Ok(boards)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

    #[test]
    fn counts_match_the_known_totals_and_unique_counts() {
        for n in 1..=9 {
            assert_eq!(
                Some(Solutions::new(n).unwrap().count() as u128),
                known::total(n),
                "n = {n}"
            );
            assert_eq!(
                Some(Solutions::new(n).unwrap().unique().count() as u128),
                known::unique(n),
                "n = {n}"
            );
        }
    }

    #[test]
    fn boards_come_in_lexicographic_order() {
        let boards: Vec<_> = Solutions::new(8).unwrap().collect();
        assert!(boards.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(boards[0], [0, 4, 7, 5, 2, 6, 1, 3]);
    }

    #[test]
    fn a_prefix_selects_its_solutions() {
        let all: Vec<_> = Solutions::new(6).unwrap().collect();
        let with: Vec<_> = Solutions::with_prefix(6, &[1]).unwrap().collect();
        let want: Vec<_> = all.iter().filter(|b| b[0] == 1).cloned().collect();
        assert_eq!(with, want);
        // Illegal prefixes: an attack, a column off the board.
        assert_eq!(Solutions::with_prefix(6, &[0, 1]).unwrap().count(), 0);
        assert_eq!(Solutions::with_prefix(6, &[6]).unwrap().count(), 0);
        // A whole solution as prefix yields itself once.
        assert_eq!(
            Solutions::with_prefix(4, &[1, 3, 0, 2])
                .unwrap()
                .collect::<Vec<_>>(),
            [[1, 3, 0, 2]]
        );
    }

    #[test]
    fn placements_of_the_first_rows_partition_the_solutions() {
        let n = 7;
        let mut joined = Vec::new();
        for prefix in Solutions::placements(n, &[], 2).unwrap() {
            assert_eq!(prefix.len(), 2);
            joined.extend(Solutions::with_prefix(n, &prefix).unwrap());
        }
        assert_eq!(joined, Solutions::new(n).unwrap().collect::<Vec<_>>());
    }

    /// Problems of small boards with a few given queens and blocked
    /// squares, from a small generator (SplitMix64) seeded with `seed`.
    fn problems(seed: u64, count: usize) -> Vec<Problem> {
        use crate::problem::Square;
        let mut state = seed;
        let mut next = move |below: u32| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) % u64::from(below)) as u32
        };
        (0..count)
            .map(|_| {
                let n = 1 + next(9);
                let mut given: Vec<Square> = Vec::new();
                for _ in 0..next(3) {
                    let square = Square::new(next(n), next(n));
                    if given.iter().all(|q| q.row != square.row) {
                        given.push(square);
                    }
                }
                let blocked: Vec<Square> = (0..next(2 * n))
                    .map(|_| Square::new(next(n), next(n)))
                    .filter(|s| !given.contains(s))
                    .collect();
                Problem::new(n, given, blocked).unwrap()
            })
            .collect()
    }

    #[test]
    fn completions_are_the_problems_own_one_at_a_time() {
        for problem in problems(36, 300) {
            let mut want = Vec::new();
            problem.for_each_completion(|board| {
                want.push(board.to_vec());
                true
            });
            let got: Vec<_> = Solutions::completions(&problem).collect();
            assert_eq!(got, want, "{problem:?}");
            let classes = Solutions::completions(&problem).unique().count();
            assert_eq!(classes as u128, problem.count_classes(), "{problem:?}");
        }
        // The empty board's completions are its solutions, its classes
        // the A002562 ones.
        let empty = Problem::empty(8).unwrap();
        let all: Vec<_> = Solutions::new(8).unwrap().collect();
        assert_eq!(Solutions::completions(&empty).collect::<Vec<_>>(), all);
        assert_eq!(Solutions::completions(&empty).unique().count(), 12);
    }

    #[test]
    fn attacking_given_queens_have_no_completion() {
        use crate::problem::Square;
        let problem = Problem::new(8, [Square::new(0, 0), Square::new(2, 2)], []).unwrap();
        assert_eq!(Solutions::completions(&problem).next(), None);
    }

    #[test]
    fn sizes_out_of_range_are_refused() {
        assert_eq!(
            Solutions::new(0).unwrap_err().to_string(),
            "board size 0 is out of range: listing takes n from 1 to 32"
        );
        assert!(matches!(
            Solutions::new(33),
            Err(Error::BoardSize { n: 33, .. })
        ));
        assert_eq!(
            Solutions::placements(4, &[], 5).unwrap_err().to_string(),
            "5 rows asked of a board of 4: at most 4"
        );
    }

    #[test]
    fn leetcode_helpers() {
        assert_eq!(solve_n_queens(1).unwrap(), [["Q"]]);
        assert!(solve_n_queens(3).unwrap().is_empty());
        assert_eq!(solve_n_queens(6).unwrap().len(), 4);
        assert!(matches!(
            solve_n_queens(0),
            Err(Error::BoardSize { n: 0, .. })
        ));
        assert!(matches!(
            solve_n_queens(33),
            Err(Error::BoardSize { n: 33, .. })
        ));
    }
}
