//! Board rows: a board drawn square by square, one row a line (the `board`
//! and `spaced` formats, and what learners write: `q` for a queen, `_` or
//! `-` for an empty square, a 0/1 matrix), and the row strings of
//! LeetCode's and Python's lists, which `lists.rs` hands to the same
//! [`Grid`]; `unicode.rs` and the first row of a matrix feed it a square
//! at a time.
//!
//! A board's size is set by its first row. A grid keeps at most two queens
//! of each row (a third can never be the first conflict), never a row's
//! squares, so it must never hold more than `2n` queens whatever the input
//! (a picture's [`Keep`] holds them all, up to its size).

use std::io::BufRead;

use super::input::{Input, counted, describe};
use super::{Checked, Keep, MAX_READ_N, ReadError, small_board};
use crate::check::{Fault, Queen, first_fault};

/// The characters a board's squares are written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Alphabet {
    /// `Q` or `q` a queen; `.`, `_` or `-` an empty square.
    Letters,
    /// `1` a queen, `0` an empty square: a 0/1 matrix, whose cells may
    /// also be separated by commas.
    Digits,
}

impl Alphabet {
    /// Whether `byte` is a queen (`Some(true)`), an empty square
    /// (`Some(false)`), or no square.
    pub(super) const fn square(self, byte: u8) -> Option<bool> {
        match (self, byte) {
            (Self::Letters, b'Q' | b'q') | (Self::Digits, b'1') => Some(true),
            (Self::Letters, b'.' | b'_' | b'-') | (Self::Digits, b'0') => Some(false),
            _ => None,
        }
    }

    /// What a row may hold, for messages.
    const fn holds(self, quoting: Quoting) -> &'static str {
        match (self, quoting) {
            (Self::Letters, Quoting::Bare) => {
                "a board row holds only 'Q' or 'q' (a queen), '.', '_' or '-' (an empty \
                 square) and spaces"
            }
            (Self::Letters, Quoting::Quoted(_)) => {
                "a row string holds only 'Q' or 'q' (a queen) and '.', '_' or '-' (an empty \
                 square)"
            }
            (Self::Digits, _) => {
                "a row of a 0/1 matrix holds only 1 (a queen), 0, spaces and commas"
            }
        }
    }
}

/// A board of rows, ended by its `n`-th row; blank lines and comment lines
/// around boards are skipped, and comment lines between its rows.
pub(super) fn read_grid<R: BufRead>(
    input: &mut Input<R>,
    index: u64,
    alphabet: Alphabet,
    keep: &mut Keep,
) -> Result<Option<Checked>, ReadError> {
    if input.skip_between_boards()?.is_none() {
        return Ok(None);
    }
    let grid = Grid::new(index, input.line, alphabet, keep);
    read_rows(input, grid, keep)
}

/// The rows of `grid` after those it holds, up to its last.
pub(super) fn read_rows<R: BufRead>(
    input: &mut Input<R>,
    mut grid: Grid,
    keep: &mut Keep,
) -> Result<Option<Checked>, ReadError> {
    while !grid.complete() {
        let row_line = input.line;
        if input.at_blank_line()? {
            return Err(grid.too_few_rows(row_line));
        }
        if input.peek()? == Some(b'#') {
            input.skip_to_line_end()?;
            input.next()?;
            continue;
        }
        grid.read_row(input, Quoting::Bare, keep)?;
    }
    grid.check(keep)
}

/// How a board row is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Quoting {
    /// A line of its own, cells optionally separated by spaces or tabs.
    Bare,
    /// A string of a list, its opening quote (`"` or `'`, the byte held)
    /// already read.
    Quoted(u8),
}

/// A board of rows being read.
#[derive(Debug)]
pub(super) struct Grid {
    index: u64,
    pub(super) first_line: u64,
    alphabet: Alphabet,
    /// Squares in a row, set by the first row.
    n: Option<u32>,
    pub(super) rows: u32,
    /// The first two queens of each row, in reading order: a third queen in
    /// a row can never be the first conflict, so it need not be kept.
    queens: Vec<Queen>,
    /// Squares and queens of the row being read.
    cells: u32,
    in_row: u8,
}

impl Grid {
    pub(super) fn new(index: u64, first_line: u64, alphabet: Alphabet, keep: &mut Keep) -> Self {
        keep.begin();
        Self {
            index,
            first_line,
            alphabet,
            n: None,
            rows: 0,
            queens: Vec::new(),
            cells: 0,
            in_row: 0,
        }
    }

    pub(super) fn complete(&self) -> bool {
        self.n == Some(self.rows)
    }

    pub(super) fn too_few_rows(&self, line: u64) -> ReadError {
        let n = self.n.unwrap_or_default();
        ReadError::Malformed {
            line,
            message: format!(
                "board {} ends after {}, but its first row (line {}) has {}: a board has as \
                 many rows as columns",
                self.index,
                counted(self.rows, "row"),
                self.first_line,
                counted(n, "square")
            ),
        }
    }

    /// One more square of the row being read.
    pub(super) fn square<R>(
        &mut self,
        input: &Input<R>,
        queen: bool,
        keep: &mut Keep,
    ) -> Result<(), ReadError> {
        if self.cells == self.n.unwrap_or(MAX_READ_N) {
            return Err(input.malformed(match self.n {
                Some(n) => format!(
                    "row of more than {n} squares, but the first row of board {} (line {}) has {n}",
                    self.index, self.first_line
                ),
                None => format!("a row of more than {MAX_READ_N} squares"),
            }));
        }
        if queen {
            let queen = Queen {
                row: self.rows,
                col: self.cells,
            };
            keep.push(queen);
            if self.in_row < 2 {
                self.in_row += 1;
                self.queens.push(queen);
            }
        }
        self.cells += 1;
        Ok(())
    }

    /// Ends the row being read, which is on `line`.
    pub(super) fn end_row(&mut self, line: u64) -> Result<(), ReadError> {
        let cells = std::mem::take(&mut self.cells);
        self.in_row = 0;
        match self.n {
            None if cells == 0 => {
                return Err(ReadError::Malformed {
                    line,
                    message: format!("board {} has an empty row", self.index),
                });
            }
            None => self.n = Some(cells),
            Some(n) if cells != n => {
                return Err(ReadError::Malformed {
                    line,
                    message: format!(
                        "row of {}, but the first row of board {} (line {}) has {n}",
                        counted(cells, "square"),
                        self.index,
                        self.first_line
                    ),
                });
            }
            Some(_) => {}
        }
        self.rows += 1;
        Ok(())
    }

    /// Reads one row up to its end (a line break, or the closing quote).
    pub(super) fn read_row<R: BufRead>(
        &mut self,
        input: &mut Input<R>,
        quoting: Quoting,
        keep: &mut Keep,
    ) -> Result<(), ReadError> {
        let line = input.line;
        loop {
            let byte = input.peek()?;
            match (byte, quoting) {
                (None, Quoting::Bare) => break,
                (Some(b'\n'), Quoting::Bare) => {
                    input.next()?;
                    break;
                }
                (Some(q), Quoting::Quoted(quote)) if q == quote => {
                    input.next()?;
                    break;
                }
                (Some(b' ' | b'\t' | b'\r'), Quoting::Bare) => {
                    input.next()?;
                    continue;
                }
                (Some(b','), Quoting::Bare) if self.alphabet == Alphabet::Digits => {
                    input.next()?;
                    continue;
                }
                (None, Quoting::Quoted(_)) => {
                    return Err(input.malformed("the input ends inside a row string".into()));
                }
                (Some(other), _) => {
                    let Some(queen) = self.alphabet.square(other) else {
                        return Err(input.malformed(format!(
                            "unexpected {} at column {} ({})",
                            describe(other),
                            input.column,
                            self.alphabet.holds(quoting)
                        )));
                    };
                    self.square(input, queen, keep)?;
                    input.next()?;
                }
            }
        }
        self.end_row(line)
    }

    /// The board read, checked: its first fault, a conflict or a row
    /// without a queen.
    pub(super) fn check(self, keep: &mut Keep) -> Result<Option<Checked>, ReadError> {
        let n = self.n.unwrap_or_default();
        // Every row is `n` squares long and there are `n` rows: each queen
        // kept lies on the board.
        let fault = first_fault(n, self.queens.iter().copied())
            .expect("the reader keeps only queens on its board");
        // A solution has one queen a row, kept in reading order.
        let small = small_board(n, self.queens.iter().map(|q| q.col));
        keep.finish(n);
        let (conflict, empty_row) = match fault {
            Some(Fault::Conflict(conflict)) => (Some(conflict), None),
            Some(Fault::EmptyRow(row)) => (None, Some(row)),
            None => (None, None),
        };
        Ok(Some(
            Checked::new(self.index, self.first_line, n, conflict, small).with_empty_row(empty_row),
        ))
    }
}
