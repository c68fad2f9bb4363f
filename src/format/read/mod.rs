//! Reading boards: [`Boards`] reads any number of boards in the formats of
//! [`crate::format`] from a byte stream, and checks each with
//! [`crate::check::first_conflict`].
//!
//! The format is detected from the first non-blank character: `[` LeetCode's
//! JSON, `{` JSON lines, a digit the columns format, `Q` or `.` board rows
//! (with or without spaces between the cells). Each format has its file:
//! `grid.rs` (board rows, also the row strings of LeetCode's arrays),
//! `json.rs` (LeetCode and JSON lines) and `columns.rs`; all read through
//! `input.rs`, a byte at a time through a buffer, and keep only what the
//! check needs (a column per row), so memory grows with the size of a board,
//! never with the size of the input: a long line is read as a stream of
//! numbers, never as a line, and garbage is rejected at its first bad byte.
//!
//! Every way the input can be wrong is a [`ReadError`] naming the line;
//! nothing in here panics on any input. This module never prints, never
//! writes boards (that is [`super::write`]'s job) and never decides what to
//! do about a bad board.

mod columns;
mod grid;
mod input;
mod json;

use std::io::{self, BufRead};

use self::input::{Input, describe};
use super::Format;
use crate::check::Conflict;
use crate::error::Bytes;
use crate::kernel::MAX_N;

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
    /// The first two queens that attack each other; `None` for a solution.
    pub conflict: Option<Conflict>,
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
            small: small.filter(|_| conflict.is_none()),
        }
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
/// [`Checked`] that ends after the first [`ReadError`].
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
    format: Option<Format>,
    boards: u64,
    /// LeetCode's outer `[` has been read.
    array_open: bool,
    done: bool,
    /// The bytes one board may take, `None` for no limit.
    memory_limit: Option<u64>,
}

impl<R: BufRead> Boards<R> {
    /// The boards of `reader`.
    pub fn new(reader: R) -> Self {
        Self {
            input: Input::new(reader),
            format: None,
            boards: 0,
            array_open: false,
            done: false,
            memory_limit: None,
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

    /// The format detected from the first board (`Board` also stands for
    /// `Spaced`: the two read alike), once one has been read.
    #[must_use]
    pub const fn format(&self) -> Option<Format> {
        self.format
    }

    fn read_next(&mut self) -> Result<Option<Checked>, ReadError> {
        let format = match self.format {
            Some(format) => format,
            None => {
                self.input.skip_whitespace(true)?;
                let format = match self.input.peek()? {
                    None => return Ok(None),
                    Some(b'[') => Format::Leetcode,
                    Some(b'{') => Format::Jsonl,
                    Some(b'0'..=b'9') => Format::Columns,
                    Some(b'Q' | b'.') => Format::Board,
                    Some(other) => {
                        return Err(self.input.malformed(format!(
                            "cannot tell the format from {}: expected a board row of 'Q' and \
                             '.', a line of column numbers, a JSON object or a JSON array",
                            describe(other)
                        )));
                    }
                };
                self.format = Some(format);
                format
            }
        };
        let index = self.boards + 1;
        let board = match format {
            Format::Board | Format::Spaced => grid::read_grid(&mut self.input, index)?,
            Format::Leetcode => json::read_leetcode(&mut self.input, &mut self.array_open, index)?,
            Format::Columns => columns::read_columns(&mut self.input, index, self.memory_limit)?,
            Format::Jsonl => json::read_jsonl(&mut self.input, index, self.memory_limit)?,
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
                Ok(c) => c.conflict.map_or("ok".into(), |c| c.to_string()),
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
            (
                "Q..\n...\n..Q\n",
                "line 1: board 1 has 2 queens, but a 3 x 3 board needs 3",
            ),
            ("2 4 x 3\n", "line 1: unexpected 'x'"),
            ("2 4 1 5\n", "line 1: column 5 is off a board of 4 rows"),
            ("2 4 0 3\n", "column 0"),
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
        ];
        for (input, want) in cases {
            let got = check(input);
            let err = got.last().unwrap().as_ref().unwrap_err();
            assert!(err.contains(want), "{input:?}: {err:?} lacks {want:?}");
        }
    }
}
