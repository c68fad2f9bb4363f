//! Checking boards: whether queens on a board attack each other, and if so
//! which two first.
//!
//! The check itself, [`first_conflict`], is O(n): one bit per row, column
//! and diagonal (`2n - 1` of each kind), set as the queens are visited in
//! reading order; the first queen that finds its bit taken is reported with
//! the earlier queen on that line.
//!
//! A board whose rows are read square by square may also have a row
//! without a queen: [`first_fault`] names whichever comes first in reading
//! order, that row or the first conflict, as a [`Fault`].
//!
//! A solution may also be checked against a [`Problem`]'s constraints,
//! its given queens and blocked squares: [`first_unmet`] names the first
//! it fails, in reading order.
//!
//! This module only checks queens it is given. Reading boards from text is
//! `crate::format::read`'s job (its [`Boards`](crate::format::Boards)
//! check each board they read with [`first_conflict`]); this module never
//! parses, never prints and never decides what to do about a bad board.
//! It imports nothing of the readers, which import it.

use std::collections::TryReserveError;
use std::fmt;

use crate::Error;
use crate::problem::{Problem, Square};

/// A queen on the board, 0-based (messages show them 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Queen {
    /// Row, from the top.
    pub row: u32,
    /// Column, from the left.
    pub col: u32,
}

/// A line two queens can share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Line {
    /// The same row.
    Row,
    /// The same column.
    Column,
    /// The same `\` diagonal (`row - col` equal).
    Diagonal,
    /// The same `/` diagonal (`row + col` equal).
    AntiDiagonal,
}

impl Line {
    /// Whether queens `a` and `b` are both on a line of this kind.
    #[must_use]
    pub fn joins(self, a: Queen, b: Queen) -> bool {
        let (ar, ac, br, bc) = (
            i64::from(a.row),
            i64::from(a.col),
            i64::from(b.row),
            i64::from(b.col),
        );
        match self {
            Self::Row => ar == br,
            Self::Column => ac == bc,
            Self::Diagonal => ar - ac == br - bc,
            Self::AntiDiagonal => ar + ac == br + bc,
        }
    }
}

/// Two queens that attack each other: `first` comes before `second` in
/// reading order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Conflict {
    /// The earlier queen.
    pub first: Queen,
    /// The first queen, in reading order, attacked by an earlier one.
    pub second: Queen,
    /// What they share.
    pub line: Line,
}

impl fmt::Display for Conflict {
    /// `queens at (row 2, col 5) and (row 6, col 1) share a diagonal`, with
    /// rows and columns counted from 1.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.line {
            Line::Row => "row",
            Line::Column => "column",
            Line::Diagonal | Line::AntiDiagonal => "diagonal",
        };
        write!(
            f,
            "queens at (row {}, col {}) and (row {}, col {}) share a {what}",
            u64::from(self.first.row) + 1,
            u64::from(self.first.col) + 1,
            u64::from(self.second.row) + 1,
            u64::from(self.second.col) + 1,
        )
    }
}

/// Why a board is not a solution: two queens that attack each other, or a
/// row without a queen (a board of n rows holds n queens, one a row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Fault {
    /// Two queens that attack each other (two in one row among them).
    Conflict(Conflict),
    /// A row without a queen, from 0.
    EmptyRow(u32),
}

impl Fault {
    /// The row where reading the board from the top finds the fault: the
    /// later queen's of a conflict, or the empty row.
    #[must_use]
    pub const fn row(&self) -> u32 {
        match self {
            Self::Conflict(conflict) => conflict.second.row,
            Self::EmptyRow(row) => *row,
        }
    }
}

impl fmt::Display for Fault {
    /// The conflict's message, or `row 3 has no queen`, counted from 1.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Conflict(conflict) => conflict.fmt(f),
            Self::EmptyRow(row) => write!(f, "row {} has no queen", u64::from(*row) + 1),
        }
    }
}

/// A bit per index, growing on demand (also the reader's record of the
/// columns seen).
#[derive(Clone, Debug, Default)]
pub(crate) struct Bits(Vec<u64>);

impl Bits {
    pub(crate) fn with_len(len: usize) -> Self {
        Self(vec![0; len.div_ceil(64)])
    }

    /// [`with_len`](Self::with_len), or `Err` where the memory is not
    /// there (never an abort).
    pub(crate) fn try_with_len(len: usize) -> Result<Self, TryReserveError> {
        let mut words = Vec::new();
        words.try_reserve_exact(len.div_ceil(64))?;
        words.resize(len.div_ceil(64), 0);
        Ok(Self(words))
    }

    /// The 64-bit words it holds.
    #[cfg(test)]
    pub(crate) fn words(&self) -> usize {
        self.0.len()
    }

    /// [`test_and_set`](Self::test_and_set), or `Err` where growing to
    /// hold bit `i` needs memory that is not there.
    pub(crate) fn try_test_and_set(&mut self, i: usize) -> Result<bool, TryReserveError> {
        let word = i / 64;
        if word >= self.0.len() {
            self.0.try_reserve(word + 1 - self.0.len())?;
        }
        Ok(self.test_and_set(i))
    }

    /// Whether bit `i` is set.
    pub(crate) fn test(&self, i: usize) -> bool {
        self.0
            .get(i / 64)
            .is_some_and(|word| word & (1 << (i % 64)) != 0)
    }

    /// Sets bit `i` and says whether it was set already.
    pub(crate) fn test_and_set(&mut self, i: usize) -> bool {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        if word >= self.0.len() {
            self.0.resize(word + 1, 0);
        }
        let was = self.0[word] & bit != 0;
        self.0[word] |= bit;
        was
    }
}

/// The first fault of the `n`-board holding `queens`, given in reading
/// order (row by row, any number in a row): the first conflict, or the
/// first row without a queen where it comes before the conflict's later
/// queen; `None` for a solution. (Queens in another order get the first
/// conflict in the order given.)
///
/// O(n), as [`first_conflict`], and `n` bits more for the rows.
///
/// # Errors
/// [`Error::OffBoard`] for the first queen off the `n`-board.
///
/// ```
/// use queens::{Fault, Queen, first_fault};
///
/// // .Q.. / .... / Q... / ..Q. : row 2 is empty, and no two queens clash.
/// let queens = [Queen { row: 0, col: 1 }, Queen { row: 2, col: 0 }, Queen { row: 3, col: 2 }];
/// assert_eq!(first_fault(4, queens)?, Some(Fault::EmptyRow(1)));
/// assert_eq!(first_fault(4, queens)?.unwrap().to_string(), "row 2 has no queen");
/// # Ok::<(), queens::Error>(())
/// ```
pub fn first_fault<I>(n: u32, queens: I) -> Result<Option<Fault>, Error>
where
    I: IntoIterator<Item = Queen>,
    I::IntoIter: Clone,
{
    let queens = queens.into_iter();
    let conflict = first_conflict(n, queens.clone())?;
    let mut rows = Bits::with_len(n as usize);
    for q in queens {
        rows.test_and_set(q.row as usize);
    }
    let empty = (0..n).find(|&r| !rows.test(r as usize));
    Ok(match (conflict, empty) {
        (Some(conflict), Some(row)) if row < conflict.second.row => Some(Fault::EmptyRow(row)),
        (Some(conflict), _) => Some(Fault::Conflict(conflict)),
        (None, row) => row.map(Fault::EmptyRow),
    })
}

/// `Ok` where `queen` lies on the `n`-board.
fn on_board(n: u32, queen: Queen) -> Result<(), Error> {
    if queen.row < n && queen.col < n {
        Ok(())
    } else {
        Err(Error::OffBoard {
            what: "queen",
            row: queen.row,
            col: queen.col,
            n,
        })
    }
}

/// The first queen, in the order given, that shares a row, column or
/// diagonal with an earlier one, and that earlier queen; `None` when no two
/// queens attack each other.
///
/// O(n) time and `6n` bits of memory (the queens are walked twice when
/// there is a conflict: once to find it, once to find its partner). Every
/// queen must lie on the `n`-board; whether there are `n` of them is the
/// caller's business.
///
/// # Errors
/// [`Error::OffBoard`] for the first queen, in the order given, off the
/// `n`-board, wherever it is (issue 47: it panicked).
///
/// ```
/// use queens::{Line, Queen, first_conflict};
///
/// let board = |cols: &[u32]| cols.iter().zip(0..).map(|(&col, row)| Queen { row, col }).collect::<Vec<_>>();
/// assert_eq!(first_conflict(4, board(&[1, 3, 0, 2]))?, None);
/// let clash = first_conflict(4, board(&[0, 2, 3, 1]))?.unwrap();
/// assert_eq!(clash.line, Line::Diagonal);
/// assert_eq!(clash.to_string(), "queens at (row 2, col 3) and (row 3, col 4) share a diagonal");
/// assert!(first_conflict(4, board(&[0, 4])).is_err());
/// # Ok::<(), queens::Error>(())
/// ```
pub fn first_conflict<I>(n: u32, queens: I) -> Result<Option<Conflict>, Error>
where
    I: IntoIterator<Item = Queen>,
    I::IntoIter: Clone,
{
    let queens = queens.into_iter();
    // A pass of its own, so that a board with a queen off it is refused
    // whether or not a conflict comes first; it also keeps a bad index
    // from growing a bit set without end.
    for q in queens.clone() {
        on_board(n, q)?;
    }
    let size = n as usize;
    let mut rows = Bits::with_len(size);
    let mut cols = Bits::with_len(size);
    let mut diagonals = Bits::with_len(2 * size);
    let mut anti_diagonals = Bits::with_len(2 * size);
    for (i, q) in queens.clone().enumerate() {
        let (r, c) = (q.row as usize, q.col as usize);
        let line = if rows.test_and_set(r) {
            Line::Row
        } else if cols.test_and_set(c) {
            Line::Column
        } else if diagonals.test_and_set(r + size - 1 - c) {
            Line::Diagonal
        } else if anti_diagonals.test_and_set(r + c) {
            Line::AntiDiagonal
        } else {
            continue;
        };
        return Ok(Some(clash(queens.take(i), q, line)));
    }
    Ok(None)
}

/// The conflict of `second` with the first of `earlier` on `line`, a line
/// the bit sets found taken.
fn clash(mut earlier: impl Iterator<Item = Queen>, second: Queen, line: Line) -> Conflict {
    let first = earlier
        .find(|&p| line.joins(p, second))
        .expect("a taken line holds an earlier queen");
    Conflict {
        first,
        second,
        line,
    }
}

/// [`first_conflict`] for the queens of `rows` rows, row `i` holding one
/// in column `cols[i]` (none above `max_col`), in about `5 rows` bits for
/// a whole board: one per column and two per kind of diagonal, none per
/// row (no two queens share one); `Err` where those bits are not there
/// (never an abort).
///
/// # Panics
/// When `cols` holds fewer than `rows` columns, or one above `max_col`.
pub(crate) fn first_conflict_by_rows<I>(
    rows: u32,
    max_col: u32,
    cols: I,
) -> Result<Option<Conflict>, TryReserveError>
where
    I: Iterator<Item = u32> + Clone,
{
    let (rows, max_col) = (rows as usize, max_col as usize);
    let mut columns = Bits::try_with_len(max_col + 1)?;
    // `row - col`, split at 0 so that neither side needs `n`.
    let mut falling = Bits::try_with_len(rows)?;
    let mut rising = Bits::try_with_len(max_col)?;
    let mut anti_diagonals = Bits::try_with_len(rows + max_col)?;
    let queens = (0..).zip(cols).map(|(row, col)| Queen { row, col });
    for (i, q) in queens.clone().take(rows).enumerate() {
        let (r, c) = (q.row as usize, q.col as usize);
        assert!(c <= max_col, "{q:?} is past column {max_col}");
        let diagonal = if r >= c {
            falling.test_and_set(r - c)
        } else {
            rising.test_and_set(c - r - 1)
        };
        let line = if columns.test_and_set(c) {
            Line::Column
        } else if diagonal {
            Line::Diagonal
        } else if anti_diagonals.test_and_set(r + c) {
            Line::AntiDiagonal
        } else {
            continue;
        };
        return Ok(Some(clash(queens.take(i), q, line)));
    }
    Ok(None)
}

/// The bytes [`first_conflict_by_rows`] takes for `rows` rows and columns
/// up to `max_col`.
pub(crate) fn by_rows_bytes(rows: u32, max_col: u32) -> u64 {
    let words = |bits: u64| bits.div_ceil(64) * 8;
    let (rows, max_col) = (u64::from(rows), u64::from(max_col));
    words(max_col + 1) + words(rows) + words(max_col) + words(rows + max_col)
}

/// [`first_conflict`] for a board given as the column of each row, from 0.
///
/// # Errors
/// [`Error::OffBoard`] for the first queen whose column is not below the
/// number of rows (issue 47: `[5, 0]` panicked); [`Error::LongBoard`] for
/// a board of more than `u32::MAX` rows, whose rows a [`Queen`] cannot name.
///
/// ```
/// use queens::{Error, first_conflict_in_columns};
///
/// assert_eq!(first_conflict_in_columns(&[1, 3, 0, 2])?, None);
/// assert!(matches!(first_conflict_in_columns(&[5, 0]), Err(Error::OffBoard { col: 5, n: 2, .. })));
/// # Ok::<(), queens::Error>(())
/// ```
pub fn first_conflict_in_columns(cols: &[u32]) -> Result<Option<Conflict>, Error> {
    let n = u32::try_from(cols.len()).map_err(|_| Error::LongBoard(cols.len() as u64))?;
    first_conflict(n, (0..n).zip(cols).map(|(row, &col)| Queen { row, col }))
}

/// A constraint of a [`Problem`] that a board does not meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Unmet {
    /// The board has `n` rows, the problem's `problem`.
    Size {
        /// The board's size.
        n: u64,
        /// The problem's.
        problem: u32,
    },
    /// No queen on this given square.
    Given(Square),
    /// A queen on this blocked square.
    Blocked(Square),
}

impl fmt::Display for Unmet {
    /// `no queen on given square 2:3`, squares counted from 1 as `--given`
    /// takes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Size { n, problem } => {
                write!(f, "a board of {n}, but the problem is of {problem}")
            }
            Self::Given(square) => write!(f, "no queen on given square {square}"),
            Self::Blocked(square) => write!(f, "a queen on blocked square {square}"),
        }
    }
}

/// The first constraint of `problem` that `board` (the column of each
/// row, from 0) fails, in reading order: a given square without its
/// queen, a queen on a blocked square (where a row has both, the given
/// square), or first of all a board of another size; `None` where the
/// problem [admits](Problem::admits) the board. Whether the board is a
/// solution is [`first_conflict`]'s to say.
///
/// ```
/// use queens::{Problem, Square, Unmet, first_unmet};
///
/// let problem = Problem::new(4, [Square::new(0, 1)], [Square::new(2, 0)])?;
/// assert_eq!(first_unmet(&problem, &[1, 3, 0, 2]), Some(Unmet::Blocked(Square::new(2, 0))));
/// let other = first_unmet(&problem, &[2, 0, 3, 1]).unwrap();
/// assert_eq!(other.to_string(), "no queen on given square 1:2");
/// # Ok::<(), queens::Error>(())
/// ```
#[must_use]
pub fn first_unmet(problem: &Problem, board: &[u32]) -> Option<Unmet> {
    if board.len() != problem.n() as usize {
        return Some(Unmet::Size {
            n: board.len() as u64,
            problem: problem.n(),
        });
    }
    let col = |square: &Square| board[square.row as usize];
    // Both lists are sorted by row: the first of each is its earliest.
    let given = problem.given().iter().find(|q| col(q) != q.col);
    let blocked = problem.blocked().iter().find(|s| col(s) == s.col);
    match (given, blocked) {
        (Some(&q), Some(s)) if q.row <= s.row => Some(Unmet::Given(q)),
        (_, Some(&s)) => Some(Unmet::Blocked(s)),
        (Some(&q), None) => Some(Unmet::Given(q)),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checker_finds_each_kind_of_conflict() {
        let q = |row, col| Queen { row, col };
        assert_eq!(first_conflict_in_columns(&[1, 3, 0, 2]), Ok(None));
        let column = first_conflict_in_columns(&[1, 3, 1, 2]).unwrap().unwrap();
        assert_eq!(
            (column.first, column.second, column.line),
            (q(0, 1), q(2, 1), Line::Column)
        );
        let anti = first_conflict_in_columns(&[1, 0, 3, 2]).unwrap().unwrap();
        assert_eq!((anti.first, anti.line), (q(0, 1), Line::AntiDiagonal));
        let row = first_conflict(3, [q(0, 0), q(0, 2), q(2, 1)])
            .unwrap()
            .unwrap();
        assert_eq!(row.line, Line::Row);
        assert_eq!(
            row.to_string(),
            "queens at (row 1, col 1) and (row 1, col 3) share a row"
        );
    }

    #[test]
    fn an_empty_row_is_a_fault_where_it_comes_first() {
        let q = |row, col| Queen { row, col };
        // Row 1 empty, then rows 2 and 3 clash: the empty row comes first.
        let board = [q(0, 1), q(2, 0), q(3, 1)];
        assert_eq!(first_fault(4, board), Ok(Some(Fault::EmptyRow(1))));
        // Rows 0 and 1 clash before the empty row 3.
        let board = [q(0, 0), q(1, 1), q(2, 3)];
        let fault = first_fault(4, board).unwrap().unwrap();
        assert_eq!(
            (fault.row(), fault.to_string().contains("diagonal")),
            (1, true)
        );
        // Two in a row is a conflict, the row it leaves empty comes after.
        let board = [q(0, 1), q(0, 3), q(2, 0)];
        assert!(
            matches!(first_fault(4, board), Ok(Some(Fault::Conflict(c))) if c.line == Line::Row)
        );
        assert_eq!(
            first_fault(4, [q(0, 1), q(1, 3), q(2, 0), q(3, 2)]),
            Ok(None)
        );
        assert_eq!(
            first_fault(2, []).unwrap().unwrap().to_string(),
            "row 1 has no queen"
        );
    }

    /// Issue 47, item 9: a queen off the board panicked (check.rs:269).
    #[test]
    fn a_queen_off_the_board_is_an_error_not_a_panic() {
        let q = |row, col| Queen { row, col };
        let off = |row, col, n| Error::OffBoard {
            what: "queen",
            row,
            col,
            n,
        };
        assert_eq!(first_conflict_in_columns(&[5, 0]), Err(off(0, 5, 2)));
        assert_eq!(
            first_conflict_in_columns(&[0, u32::MAX]),
            Err(off(1, u32::MAX, 2))
        );
        assert_eq!(first_conflict(4, [q(0, 1), q(4, 0)]), Err(off(4, 0, 4)));
        assert_eq!(first_fault(3, [q(0, 0), q(1, 3)]), Err(off(1, 3, 3)));
        assert_eq!(first_fault(0, [q(0, 0)]), Err(off(0, 0, 0)));
        assert_eq!(
            first_conflict_in_columns(&[5, 0]).unwrap_err().to_string(),
            "queen 1:6 is off the board: rows and columns run from 1 to 2"
        );
    }

    #[test]
    fn the_first_unmet_constraint_is_named_in_reading_order() {
        let sq = Square::new;
        let problem = Problem::new(6, [sq(2, 1)], [sq(0, 1), sq(4, 2), sq(2, 3)]).unwrap();
        // Every solution of 6, against a brute force of the two lists.
        for board in crate::Solutions::new(6).unwrap() {
            let unmet = first_unmet(&problem, &board);
            assert_eq!(unmet.is_none(), problem.admits(&board), "{board:?}");
            let rows = |u: Option<Unmet>| match u {
                Some(Unmet::Given(s) | Unmet::Blocked(s)) => Some(s.row),
                _ => None,
            };
            let first_row = (0..6).find(|&r| {
                let c = board[r as usize];
                (r == 2 && c != 1) || problem.blocked().contains(&sq(r, c))
            });
            assert_eq!(rows(unmet), first_row, "{board:?}");
        }
        // Row 2 misses its given queen and has it on a blocked square: the
        // given square is named.
        assert_eq!(
            first_unmet(&problem, &[4, 0, 3, 5, 1, 2]),
            Some(Unmet::Given(sq(2, 1)))
        );
        assert_eq!(
            first_unmet(&problem, &[1, 3, 5, 0, 2, 4])
                .unwrap()
                .to_string(),
            "a queen on blocked square 1:2"
        );
        assert_eq!(
            first_unmet(&problem, &[1, 3, 0, 2]).unwrap().to_string(),
            "a board of 4, but the problem is of 6"
        );
    }
}
