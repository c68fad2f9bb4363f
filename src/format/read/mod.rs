//! Reading boards: [`Boards`] reads any number of boards in the formats of
//! [`crate::format`], and in what learners write, from a byte stream, and
//! checks each with [`crate::check::first_fault`].
//!
//! The format is detected from the first character that is not blank or in
//! a `#` comment line (a byte order mark at the very start is skipped): `[`
//! or `(` a list (LeetCode's JSON, or Python's printed lists: `lists.rs`),
//! `{` JSON lines, a digit a line of columns or the first row of a 0/1
//! matrix (`columns.rs` tells which), `Q`, `q`, `.`, `_` or `-` board rows
//! (with or without spaces between the cells), a box-drawing line the
//! `unicode` format. Each format has its file:
//! `grid.rs` (board rows, also the row strings of lists, a matrix's rows
//! and the unicode format's squares), `columns.rs`, `lists.rs`, `json.rs`
//! (JSON lines) and `unicode.rs`; all read through `input.rs`, a byte at a
//! time through a buffer, and keep only what the check needs (a column per
//! row), so memory grows with the size of a board, never with the size of
//! the input: a long line is read as a stream of numbers, never as a line,
//! and garbage is rejected at its first bad byte.
//!
//! Every way the input can be wrong is a [`ReadError`] naming the line;
//! nothing in here panics on any input. A board with a row without a queen
//! (or with two) is read, not refused: it is no solution, and [`Checked`]
//! says why. This module never prints, never writes boards (that is
//! [`super::write`]'s job) and never decides what to do about a bad board.

mod columns;
mod grid;
mod input;
mod json;
mod lists;
mod unicode;

use std::io::{self, BufRead};

use self::columns::{Base, End, First};
use self::grid::Alphabet;
use self::input::{Input, describe};
use self::lists::{Lists, Reading};
use super::Format;
use crate::check::{Conflict, Fault, Queen};
use crate::human::Bytes;
use crate::kernel::MAX_N;

/// The byte order mark Notepad writes at the start of a UTF-8 file (the
/// bytes EF BB BF): skipped there, never read as a board.
const BYTE_ORDER_MARK: char = '\u{feff}';

/// The largest board [`Boards`] accepts: a billion rows (625 MB of bits to
/// check it).
pub const MAX_READ_N: u32 = 1_000_000_000;

/// One board read and checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Checked {
    /// Its position in the input, from 1.
    pub index: u64,
    /// The line it starts on, from 1.
    pub line: u64,
    /// Its size.
    pub n: u32,
    /// The first two queens that attack each other; `None` for a solution,
    /// and where a row without a queen comes first.
    pub conflict: Option<Conflict>,
    /// The first row without a queen (from 0), where it comes before any
    /// conflict in reading order; only a board drawn square by square can
    /// have one.
    pub empty_row: Option<u32>,
    /// The columns of a solution of at most [`MAX_N`] rows.
    small: Option<SmallBoard>,
}

/// The columns of a board of at most [`MAX_N`] rows, one a row.
pub(super) type SmallBoard = [u32; MAX_N as usize];

/// The `n` columns `cols` as a [`SmallBoard`], where `n <= MAX_N`.
pub(super) fn small_board(n: u32, cols: impl Iterator<Item = u32>) -> Option<SmallBoard> {
    (n <= MAX_N).then(|| {
        let mut board = [0; MAX_N as usize];
        for (slot, col) in board.iter_mut().zip(cols) {
            *slot = col;
        }
        board
    })
}

impl Checked {
    /// A board read: the `index`-th of the input, from `line`, of `n`
    /// rows, with its first `conflict`; its columns `small` are kept where
    /// it is a solution.
    fn new(
        index: u64,
        line: u64,
        n: u32,
        conflict: Option<Conflict>,
        small: Option<SmallBoard>,
    ) -> Self {
        Self {
            index,
            line,
            n,
            conflict,
            empty_row: None,
            small: small.filter(|_| conflict.is_none()),
        }
    }

    /// The same board, with a row without a queen (and so no columns).
    fn with_empty_row(self, empty_row: Option<u32>) -> Self {
        Self {
            empty_row,
            small: self.small.filter(|_| empty_row.is_none()),
            ..self
        }
    }

    /// Why the board is no solution: its first conflict or its first row
    /// without a queen, whichever comes first; `None` for a solution.
    #[must_use]
    pub fn fault(&self) -> Option<Fault> {
        self.conflict
            .map(Fault::Conflict)
            .or(self.empty_row.map(Fault::EmptyRow))
    }

    /// Whether the board is a solution.
    #[must_use]
    pub const fn is_solution(&self) -> bool {
        self.conflict.is_none() && self.empty_row.is_none()
    }

    /// The board's columns, one a row from 0, where it is a solution of at
    /// most [`MAX_N`] rows (the boards a [`Problem`](crate::Problem) is
    /// of, whose [`admits`](crate::Problem::admits) takes them); `None`
    /// otherwise: a larger board's columns are not kept whole, nor those
    /// of a board past its first conflict.
    #[must_use]
    pub fn columns(&self) -> Option<&[u32]> {
        self.small.as_ref().map(|board| &board[..self.n as usize])
    }
}

/// The queens of the board being read, every one, kept for a picture where
/// the board has at most `up_to` rows (see [`Boards::keeping_queens`]).
#[derive(Debug, Default)]
pub(super) struct Keep {
    up_to: u32,
    queens: Vec<Queen>,
    /// The queens are all there: none fell past `up_to`.
    whole: bool,
}

impl Keep {
    /// The largest board kept, 0 where none is.
    pub(super) const fn up_to(&self) -> u32 {
        self.up_to
    }

    /// A board begins.
    pub(super) fn begin(&mut self) {
        self.queens.clear();
        self.whole = self.up_to > 0;
    }

    /// One more queen of the board, in reading order; one past `up_to`
    /// drops the board's.
    pub(super) fn push(&mut self, queen: Queen) {
        if !self.whole {
            return;
        }
        if queen.row < self.up_to && queen.col < self.up_to {
            self.queens.push(queen);
        } else {
            self.whole = false;
            self.queens = Vec::new();
        }
    }

    /// The board is read, of `n` rows.
    pub(super) fn finish(&mut self, n: u32) {
        if n > self.up_to {
            self.whole = false;
            self.queens = Vec::new();
        }
    }
}

/// Why boards could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The input could not be read.
    #[error("cannot read the input: {0}")]
    Io(#[from] io::Error),
    /// The input is not boards in any known format.
    #[error("line {line}: {message}")]
    Malformed {
        /// Where, from 1.
        line: u64,
        /// What is wrong, in words.
        message: String,
    },
    /// A board would need more memory than there is to check: the limit
    /// given to [`Boards::with_memory_limit`], or what the allocator could
    /// give. Refused before the board's attack sets are allocated, or as
    /// soon as its columns, as read, need more.
    #[error(
        "line {line}: checking this board needs at least {needed} (a bit per column and two per \
         diagonal for each of the {rows} rows read so far, and their columns){}",
        available.map_or_else(
            || ", more than this machine could give".to_owned(),
            |a| format!("; this machine has {} available", Bytes(a))
        ),
        needed = Bytes(*.needed)
    )]
    Memory {
        /// Where the board starts, from 1.
        line: u64,
        /// Columns read when it was refused.
        rows: u32,
        /// Bytes needed, at least.
        needed: u64,
        /// The limit, `None` where the allocator refused.
        available: Option<u64>,
    },
    /// There is no board at all: nothing but blank lines, or LeetCode's
    /// `[]`, which is what every format writes for a board size without
    /// solutions. Not malformed; the caller decides whether it is wrong.
    #[error("the input holds no board (expected boards as `queens list` writes them)")]
    Empty,
}

/// The boards of a byte stream, each checked, in order: an iterator of
/// [`Checked`] that ends after the first [`ReadError`]. A UTF-8 byte order
/// mark at the very start (as Notepad writes) is skipped.
///
/// ```
/// use queens::Boards;
///
/// let input = "2 4 1 3\n1 2 3 4\n";
/// let results: Vec<_> = Boards::new(input.as_bytes()).map(Result::unwrap).collect();
/// assert!(results[0].conflict.is_none());
/// assert_eq!(
///     results[1].conflict.unwrap().to_string(),
///     "queens at (row 1, col 1) and (row 2, col 2) share a diagonal"
/// );
/// ```
#[derive(Debug)]
pub struct Boards<R> {
    input: Input<R>,
    /// Detected on the first board.
    layout: Option<Layout>,
    boards: u64,
    /// Where the reader is among lists, for [`Layout::Lists`].
    lists: Lists,
    done: bool,
    /// The bytes one board may take, `None` for no limit.
    memory_limit: Option<u64>,
    base: Base,
    keep: Keep,
}

/// How an input's boards are written, told from its first character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// Rows of squares, a line each.
    Grid(Alphabet),
    /// A line of column numbers a board.
    Columns,
    /// A JSON object a line.
    Jsonl,
    /// JSON's or Python's lists.
    Lists,
    /// Boards drawn with box-drawing characters.
    Unicode,
}

impl<R: BufRead> Boards<R> {
    /// The boards of `reader`.
    pub fn new(reader: R) -> Self {
        Self {
            input: Input::new(reader),
            layout: None,
            boards: 0,
            lists: Lists::default(),
            done: false,
            memory_limit: None,
            base: Base::Detect,
            keep: Keep::default(),
        }
    }

    /// These boards, each refused ([`ReadError::Memory`]) where checking
    /// it would take more than `bytes` (`None`: no limit, only what the
    /// allocator gives). A board in the columns format or JSON lines takes
    /// its attack sets, 5 bits a row, and its columns as read: next to
    /// nothing for a board that steps evenly (as `queens one` writes
    /// them), 4 bytes a row for one without a pattern.
    #[must_use]
    pub fn with_memory_limit(self, bytes: Option<u64>) -> Self {
        Self {
            memory_limit: bytes,
            ..self
        }
    }

    /// These boards, with every column number counted from 0 where
    /// `zero_based`; otherwise (the default) a board of column numbers
    /// counts from 1 unless it holds a 0, which only counting from 0 can
    /// hold. JSON lines' `"cols"` count from 0 either way.
    ///
    /// ```
    /// use queens::Boards;
    ///
    /// let checked = |boards: Boards<&[u8]>| boards.map(|b| b.unwrap().is_solution()).collect::<Vec<_>>();
    /// // 1 3 0 2 holds a 0: from 0. 2 3 1 2 does not: from 1, unless told.
    /// assert_eq!(checked(Boards::new(&b"1 3 0 2\n2 4 1 3\n"[..])), [true, true]);
    /// assert_eq!(checked(Boards::new(&b"1 3 0 2\n1 3 0 2\n"[..]).zero_based(true)), [true, true]);
    /// ```
    #[must_use]
    pub fn zero_based(self, zero_based: bool) -> Self {
        Self {
            base: if zero_based { Base::Zero } else { Base::Detect },
            ..self
        }
    }

    /// These boards, the queens of each of at most `up_to` rows kept for a
    /// picture, every one as read ([`Boards::queens`]); up to `up_to`
    /// squared queens a board (a row may hold several). 0 keeps none.
    #[must_use]
    pub fn keeping_queens(mut self, up_to: u32) -> Self {
        self.keep.up_to = up_to;
        self
    }

    /// The queens of the board last read, in reading order, every one
    /// (several in a row, none in another, as written), where
    /// [`keeping_queens`](Boards::keeping_queens) asked for them and the
    /// board has at most that many rows; `None` otherwise.
    #[must_use]
    pub fn queens(&self) -> Option<&[Queen]> {
        self.keep.whole.then_some(self.keep.queens.as_slice())
    }

    /// The format of `list` the input is written in, or nearest to, once a
    /// board has been read: `Board` also stands for `Spaced` and for a 0/1
    /// matrix, `Leetcode` for any list (Python's included), `Columns` for
    /// a line of columns from 0 or 1.
    #[must_use]
    pub const fn format(&self) -> Option<Format> {
        match self.layout {
            None => None,
            Some(Layout::Grid(_)) => Some(Format::Board),
            Some(Layout::Columns) => Some(Format::Columns),
            Some(Layout::Jsonl) => Some(Format::Jsonl),
            Some(Layout::Lists) => Some(Format::Leetcode),
            Some(Layout::Unicode) => Some(Format::Unicode),
        }
    }

    /// The layout of the input, told from its first character: `None`
    /// where there is no board; the first line of numbers is read here,
    /// where it tells columns from a 0/1 matrix, and that board returned.
    fn detect(&mut self, index: u64) -> Result<Result<Layout, Option<Checked>>, ReadError> {
        let mut first = self.input.skip_between_boards()?;
        // 0xef: the byte order mark's first byte, at the input's first.
        if first == Some(0xef) && (self.input.line, self.input.column) == (1, 1) {
            // See: issue 47, item 16 (Notepad begins a UTF-8 file with a
            // byte order mark; it is not content, and not a format).
            if self.input.next_char()? != Some(BYTE_ORDER_MARK) {
                return Err(self.cannot_tell(0xef));
            }
            // Columns in messages count what an editor shows.
            self.input.column = 1;
            first = self.input.skip_between_boards()?;
        }
        Ok(Ok(match first {
            None => return Ok(Err(None)),
            Some(b'[' | b'(') => Layout::Lists,
            Some(b'{') => Layout::Jsonl,
            Some(b'0'..=b'9') => {
                let first = columns::read_first(
                    &mut self.input,
                    index,
                    End::Line,
                    self.memory_limit,
                    self.base,
                    &mut self.keep,
                )?;
                return Ok(Err(Some(match first {
                    First::Columns(checked) => {
                        self.layout = Some(Layout::Columns);
                        checked
                    }
                    First::Matrix(grid) => {
                        self.layout = Some(Layout::Grid(Alphabet::Digits));
                        let board = grid::read_rows(&mut self.input, grid, &mut self.keep)?;
                        board.expect("a grid whose first row is read is a board")
                    }
                })));
            }
            Some(b'Q' | b'q' | b'.' | b'_' | b'-') => Layout::Grid(Alphabet::Letters),
            // The first byte of U+2500 to U+257F, the box-drawing characters.
            Some(0xe2) => Layout::Unicode,
            Some(other) => return Err(self.cannot_tell(other)),
        }))
    }

    /// The refusal of an input whose first mark, `first`, starts no format.
    fn cannot_tell(&self, first: u8) -> ReadError {
        self.input.malformed(format!(
            "cannot tell the format from {}: expected a board row of 'Q' and '.', a line of \
             numbers (columns, or a row of a 0/1 matrix), a JSON object, a list ('[' or '(') or \
             a board drawn with box-drawing lines",
            describe(first)
        ))
    }

    fn read_next(&mut self) -> Result<Option<Checked>, ReadError> {
        let index = self.boards + 1;
        let layout = match self.layout {
            Some(layout) => layout,
            None => match self.detect(index)? {
                Ok(layout) => {
                    self.layout = Some(layout);
                    layout
                }
                Err(board) => {
                    if board.is_some() {
                        self.boards = index;
                    }
                    return Ok(board);
                }
            },
        };
        let (input, keep) = (&mut self.input, &mut self.keep);
        let board = match layout {
            Layout::Grid(alphabet) => grid::read_grid(input, index, alphabet, keep)?,
            Layout::Columns => {
                columns::read_columns(input, index, self.memory_limit, self.base, keep)?
            }
            Layout::Jsonl => json::read_jsonl(input, index, self.memory_limit, keep)?,
            Layout::Lists => {
                let reading = Reading {
                    base: self.base,
                    limit: self.memory_limit,
                };
                lists::read_list(input, &mut self.lists, index, reading, keep)?
            }
            Layout::Unicode => unicode::read_unicode(input, index, keep)?,
        };
        if board.is_some() {
            self.boards = index;
        }
        Ok(board)
    }
}

impl<R: BufRead> Iterator for Boards<R> {
    type Item = Result<Checked, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.read_next() {
            Ok(Some(board)) => Some(Ok(board)),
            Ok(None) => {
                self.done = true;
                (self.boards == 0).then_some(Err(ReadError::Empty))
            }
            Err(err) => {
                self.done = true;
                Some(Err(err))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Vec<Result<Checked, String>> {
        Boards::new(text.as_bytes())
            .map(|r| r.map_err(|e| e.to_string()))
            .collect()
    }

    fn verdicts(text: &str) -> Vec<String> {
        check(text)
            .into_iter()
            .map(|r| match r {
                Ok(c) => c.fault().map_or("ok".into(), |c| c.to_string()),
                Err(e) => format!("error: {e}"),
            })
            .collect()
    }
    #[test]
    fn every_format_keeps_the_columns_of_a_small_solution_only() {
        let columns = |text: &str| -> Vec<Option<Vec<u32>>> {
            Boards::new(text.as_bytes())
                .map(|r| r.unwrap().columns().map(<[u32]>::to_vec))
                .collect()
        };
        let want = vec![Some(vec![1, 3, 0, 2]), None];
        assert_eq!(
            columns(".Q..\n...Q\nQ...\n..Q.\n\nQ...\n.Q..\n..Q.\n...Q\n"),
            want
        );
        assert_eq!(
            columns(". Q . .\n. . . Q\nQ . . .\n. . Q .\n\nQ . . .\n. Q . .\n. . Q .\n. . . Q\n"),
            want
        );
        assert_eq!(
            columns(
                "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"Q...\",\".Q..\",\"..Q.\",\"...Q\"]]\n"
            ),
            want
        );
        assert_eq!(columns("2 4 1 3\n1 1 1 1\n"), want);
        assert_eq!(
            columns("{\"n\":4,\"cols\":[1,3,0,2]}\n{\"n\":4,\"cols\":[0,1,2,3]}\n"),
            want
        );
        // Past 32 rows, none: no problem is of that size.
        let big: Vec<String> = crate::Construction::new(33)
            .unwrap()
            .map(|c| (c + 1).to_string())
            .collect();
        assert_eq!(columns(&(big.join(" ") + "\n")), [None]);
        let small: Vec<String> = crate::Construction::new(32)
            .unwrap()
            .map(|c| (c + 1).to_string())
            .collect();
        let cols = columns(&(small.join(" ") + "\n"));
        assert_eq!(cols[0].as_ref().map(Vec::len), Some(32));
    }

    #[test]
    fn every_format_is_detected() {
        let ok = vec!["ok".to_owned(), "ok".to_owned()];
        assert_eq!(
            verdicts(".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n"),
            ok
        );
        assert_eq!(
            verdicts(". Q . .\n. . . Q\nQ . . .\n. . Q .\n\n. . Q .\nQ . . .\n. . . Q\n. Q . .\n"),
            ok
        );
        assert_eq!(
            verdicts(
                "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"..Q.\",\"Q...\",\"...Q\",\".Q..\"]]\n"
            ),
            ok
        );
        assert_eq!(verdicts("2 4 1 3\n3 1 4 2\n"), ok);
        assert_eq!(
            verdicts("{\"n\":4,\"cols\":[1,3,0,2]}\n{\"cols\": [2, 0, 3, 1], \"n\": 4}\n"),
            ok
        );
    }

    /// Notepad begins a UTF-8 file with a byte order mark: skipped at the
    /// very start, in every format; anywhere else it is no board, and
    /// bytes that only begin one are refused where they are. See: issue
    /// 47, item 16.
    #[test]
    fn a_byte_order_mark_at_the_start_is_skipped() {
        for text in [
            "2 4 1 3\n",
            ".Q..\r\n...Q\r\nQ...\r\n..Q.\r\n",
            "# four\n2 4 1 3\n",
            "[1, 3, 0, 2]\n",
            "{\"n\":4,\"cols\":[1,3,0,2]}\n",
            "0100\n0001\n1000\n0010\n",
        ] {
            assert_eq!(verdicts(&format!("\u{feff}{text}")), ["ok"], "{text:?}");
        }
        // Columns in messages are those an editor shows.
        let [err] = &verdicts("\u{feff}.Qx.\n...Q\nQ...\n..Q.\n")[..] else {
            panic!("one verdict")
        };
        assert!(
            err.starts_with("error: line 1: unexpected 'x' at column 3 "),
            "{err}"
        );
        let refused = |text: &[u8]| -> String {
            let results: Vec<_> = Boards::new(text).collect();
            results.last().unwrap().as_ref().unwrap_err().to_string()
        };
        assert!(refused(b"\xef\xbb\xbf\xef\xbb\xbf2 4 1 3\n").contains("cannot tell the format"));
        assert!(refused(b"2 4 1 3\n\xef\xbb\xbf3 1 4 2\n").starts_with("line 2"));
        assert!(refused(b"\xef\xbb2 4 1 3\n").contains("a character cut short"));
        assert!(refused(b"\xef\xbb\xbe\n").contains("cannot tell the format from byte 0xef"));
    }

    /// What learners write, each read as the board it is. See: issue 37.
    #[test]
    fn learners_boards_are_read() {
        let ok = ["ok"];
        // Python's printed lists: single quotes, tuples, one board alone.
        assert_eq!(verdicts("[['.Q..', '...Q', 'Q...', '..Q.']]\n"), ok);
        assert_eq!(verdicts("['.Q..', '...Q', 'Q...', '..Q.']\n"), ok);
        assert_eq!(verdicts("[(1, 3, 0, 2), (2, 0, 3, 1)]\n"), ["ok", "ok"]);
        assert_eq!(verdicts("(0,)\n"), ok);
        assert_eq!(verdicts("[1, 3, 0, 2]\n[2, 4, 1, 3]\n"), ["ok", "ok"]);
        // Commas, columns from 0.
        assert_eq!(verdicts("2,4,1,3\n1, 3, 0, 2\n"), ["ok", "ok"]);
        // 0/1 matrices: rows of digits, spaced, with commas, as lists, as numpy prints them.
        assert_eq!(verdicts("0100\n0001\n1000\n0010\n"), ok);
        assert_eq!(verdicts("0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n"), ok);
        assert_eq!(verdicts("0,1,0,0\n0,0,0,1\n1,0,0,0\n0,0,1,0\n"), ok);
        assert_eq!(
            verdicts("[[0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 1, 0]]"),
            ok
        );
        assert_eq!(
            verdicts("[[0 1 0 0]\n [0 0 0 1]\n [1 0 0 0]\n [0 0 1 0]]\n"),
            ok
        );
        assert_eq!(
            verdicts("[[[0,1],[1,0]],[[1]]]"),
            [
                "queens at (row 1, col 2) and (row 2, col 1) share a diagonal",
                "ok"
            ]
        );
        // Other squares, comments.
        assert_eq!(
            verdicts("# four\n_Q__\n  # between rows\n---q\nQ...\n..Q.\n"),
            ok
        );
        assert_eq!(
            verdicts("# boards\n2 4 1 3\n\n  # two\n3 1 4 2\n"),
            ["ok", "ok"]
        );
        assert_eq!(verdicts("[1, 3, 0, 2]\n# and\n[2, 0, 3, 1]"), ["ok", "ok"]);
        // Boxes, as the unicode format draws them.
        assert_eq!(
            verdicts("┌───┬───┐\n│ ♛ │   │\n├───┼───┤\n│   │ ♛ │\n└───┴───┘\n"),
            ["queens at (row 1, col 1) and (row 2, col 2) share a diagonal"]
        );
    }

    /// A row without a queen, or with two, is no solution, named, and the
    /// next board is read. See: issue 37.
    #[test]
    fn a_row_without_a_queen_is_no_solution() {
        let faults = |text: &str| -> Vec<String> {
            Boards::new(text.as_bytes())
                .map(|r| r.unwrap().fault().map_or("ok".into(), |f| f.to_string()))
                .collect()
        };
        assert_eq!(
            faults(".Q..\n....\nQ...\n..Q.\n\n.Q..\n...Q\nQ...\n..Q.\n"),
            ["row 2 has no queen", "ok"]
        );
        assert_eq!(
            faults("QQ..\n...Q\n....\n..Q.\n"),
            ["queens at (row 1, col 1) and (row 1, col 2) share a row"]
        );
        assert_eq!(faults("0 0\n0 1\n"), ["row 1 has no queen"]);
        let board = Boards::new(&b"Q..\n...\n..Q\n"[..])
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(
            (board.empty_row, board.conflict, board.columns()),
            (Some(1), None, None)
        );
        assert!(!board.is_solution());
    }

    #[test]
    fn queens_are_kept_for_a_picture_up_to_a_size() {
        let mut boards = Boards::new(&b"QQ.\n...\n..Q\n\nQ\n"[..]).keeping_queens(2);
        let q = |row, col| Queen { row, col };
        boards.next().unwrap().unwrap();
        assert_eq!(boards.queens(), None, "3 rows, more than 2");
        boards.next().unwrap().unwrap();
        assert_eq!(boards.queens(), Some(&[q(0, 0)][..]));
        let mut boards = Boards::new(&b"QQ.\n...\n..Q\n"[..]).keeping_queens(3);
        boards.next().unwrap().unwrap();
        assert_eq!(boards.queens(), Some(&[q(0, 0), q(0, 1), q(2, 2)][..]));
        for text in [
            "2 4 1 3\n",
            "[1, 3, 0, 2]",
            "{\"n\":4,\"cols\":[1,3,0,2]}",
            "0100\n0001\n1000\n0010\n",
        ] {
            let mut boards = Boards::new(text.as_bytes()).keeping_queens(4);
            boards.next().unwrap().unwrap();
            assert_eq!(
                boards.queens(),
                Some(&[q(0, 1), q(1, 3), q(2, 0), q(3, 2)][..]),
                "{text}"
            );
        }
    }

    #[test]
    fn boards_without_blank_lines_and_with_crlf_are_read() {
        assert_eq!(
            verdicts(".Q..\r\n...Q\r\nQ...\r\n..Q.\r\nQ\n"),
            ["ok", "ok"]
        );
        assert_eq!(verdicts("\n\n  2 4 1 3  \r\n\n1\n"), ["ok", "ok"]);
    }

    #[test]
    fn positions_are_reported() {
        let boards = check("\n\n2 4 1 3\n\n1 3 2\n");
        let second = boards[1].as_ref().unwrap();
        assert_eq!((second.index, second.line, second.n), (2, 5, 3));
    }

    #[test]
    fn malformed_input_names_the_line() {
        let cases = [
            ("", "no board"),
            ("\n \n", "no board"),
            ("Q.\n.\n", "line 2: row of 1 square, but"),
            ("Q..\n...\n", "line 3: board 1 ends after 2 rows"),
            (".Q..\n...Q\nQ.x.\n", "line 3: unexpected 'x' at column 3"),
            ("2 4 x 3\n", "line 1: unexpected 'x'"),
            ("2 4 1 5\n", "line 1: column 5 is off a board of 4 rows"),
            (
                "2 4 0 3\n",
                "column 4 is off a board of 4 rows: a board that holds a 0 counts",
            ),
            (
                "1\n2 4 1 3a\n",
                "line 2: unexpected 'a' after a column number",
            ),
            ("99999999999999999999999\n", "too large"),
            ("\u{ff}\n", "cannot tell the format from byte 0xc3"),
            (
                "{\"n\":4,\"cols\":[1,3,0]}\n",
                "\"cols\" holds 3 columns, but \"n\" is 4",
            ),
            (
                "{\"n\":4,\"cols\":[1,3,0,4]}\n",
                "column too large: more than 3",
            ),
            ("{\"n\":4}\n", "needs both"),
            ("{\"m\":4}\n", "unknown key \"m\""),
            (
                "{\"n\":4,\"cols\":[1,3,0,2]} x\n",
                "unexpected 'x' after the object",
            ),
            ("[[\".Q..\"]", "board 1 ends after 1 row, but"),
            ("[[\"Q\"],]", "line 1: expected '['"),
            ("[[\"Q\"]] x", "unexpected 'x' after the closing ']'"),
            ("[[\"Q\"", "expected ',' or ']' after a row"),
            ("[[\"Q", "ends inside a row string"),
            ("[]", "no board"),
            ("[[]]", "board 1 is an empty array"),
            ("[1, 3, 0, 2", "expected a column number or ']'"),
            (
                "[[0, 1, 0, 0], [0, 0, 2, 1]]",
                "expected 0 or 1 in a row of a 0/1 matrix",
            ),
            (
                "[[0, 1], [1, 0], [0, 1]]",
                "a 0/1 matrix of more than 2 rows",
            ),
            ("[[[[1]]]]", "nested more than 3 deep"),
            ("2,4,1,3,\n", "ends with ','"),
            ("2,,4\n", "unexpected ','"),
            ("2 4 1 3 # a comment\n", "unexpected '#'"),
            (".Q.. # a comment\n", "unexpected '#' at column 6"),
            (
                "[1, 3, 0, 2] # a comment\n",
                "unexpected '#' after the closing ']'",
            ),
            ("0 1 0 0\n0 0 2 1\n", "line 2: unexpected '2' at column 5"),
            ("┌───┐\n│ ♛ ♛ │\n", "a second queen"),
            ("┌───┐\n│ ♛ \n", "line 2: the row ends inside a square"),
            (
                "┌───┐\n│   │\n",
                "board 1 (line 1) ends without its bottom line",
            ),
            ("┌───┐\n│ x │\n", "unexpected 'x' at column 3"),
            ("┌─x─┐\n", "unexpected 'x' at column 3 of a border line"),
            ("\u{2603}\n", "expected a line of a box-drawn board"),
        ];
        let cut: Vec<_> = Boards::new(&"┌─┐".as_bytes()[..5]).collect();
        let err = cut[0].as_ref().unwrap_err().to_string();
        assert!(err.contains("a character cut short at column 2"), "{err}");
        for (input, want) in cases {
            let got = check(input);
            let err = got.last().unwrap().as_ref().unwrap_err();
            assert!(err.contains(want), "{input:?}: {err:?} lacks {want:?}");
        }
    }
}
