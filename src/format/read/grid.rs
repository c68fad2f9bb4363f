//! Board rows: the `board` and `spaced` formats (rows of `Q` and `.`, one a
//! line, cells optionally spaced), and the row strings of LeetCode's arrays,
//! which `json.rs` hands to the same [`Grid`].
//!
//! A board's size is set by its first row. A grid keeps at most two queens
//! of each row (a third can never be the first conflict), never a row's
//! squares, so it must never hold more than `2n` queens whatever the input.

use std::io::BufRead;

use super::input::{Input, counted, describe};
use super::{Checked, MAX_READ_N, ReadError, small_board};
use crate::check::{Queen, first_conflict};

/// A board of rows of `Q` and `.`, ended by its `n`-th row; blank lines
/// around boards are skipped.
pub(super) fn read_grid<R: BufRead>(
    input: &mut Input<R>,
    index: u64,
) -> Result<Option<Checked>, ReadError> {
    input.skip_whitespace(true)?;
    if input.peek()?.is_none() {
        return Ok(None);
    }
    let mut grid = Grid::new(index, input.line);
    loop {
        let row_line = input.line;
        if input.at_blank_line()? {
            return Err(grid.too_few_rows(row_line));
        }
        grid.read_row(input, Quoting::Bare)?;
        if grid.complete() {
            return grid.check();
        }
    }
}

/// How a board row is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Quoting {
    /// A line of its own, cells optionally separated by spaces or tabs.
    Bare,
    /// A JSON string (LeetCode), its opening `"` already read.
    Quoted,
}

/// A board of rows of `Q` and `.` being read.
#[derive(Debug)]
pub(super) struct Grid {
    index: u64,
    pub(super) first_line: u64,
    /// Squares in a row, set by the first row.
    n: Option<u32>,
    pub(super) rows: u32,
    /// The first two queens of each row, in reading order: a third queen in
    /// a row can never be the first conflict, so it need not be kept.
    queens: Vec<Queen>,
    total_queens: u64,
}

impl Grid {
    pub(super) fn new(index: u64, first_line: u64) -> Self {
        Self {
            index,
            first_line,
            n: None,
            rows: 0,
            queens: Vec::new(),
            total_queens: 0,
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

    /// Reads one row up to its end (a line break, or the closing quote).
    pub(super) fn read_row<R: BufRead>(
        &mut self,
        input: &mut Input<R>,
        quoting: Quoting,
    ) -> Result<(), ReadError> {
        let row = self.rows;
        let limit = self.n.unwrap_or(MAX_READ_N);
        let mut cells: u32 = 0;
        let mut in_row: u8 = 0;
        loop {
            match (input.peek()?, quoting) {
                (None, Quoting::Bare) => break,
                (Some(b'\n'), Quoting::Bare) | (Some(b'"'), Quoting::Quoted) => {
                    input.next()?;
                    break;
                }
                (Some(b' ' | b'\t' | b'\r'), Quoting::Bare) => {
                    input.next()?;
                    continue;
                }
                (Some(cell @ (b'Q' | b'.')), _) => {
                    if cells == limit {
                        return Err(input.malformed(match self.n {
                            Some(n) => format!(
                                "row of more than {n} squares, but the first row of board {} \
                                 (line {}) has {n}",
                                self.index, self.first_line
                            ),
                            None => format!("a row of more than {MAX_READ_N} squares"),
                        }));
                    }
                    if cell == b'Q' {
                        self.total_queens += 1;
                        if in_row < 2 {
                            in_row += 1;
                            self.queens.push(Queen { row, col: cells });
                        }
                    }
                    input.next()?;
                    cells += 1;
                }
                (None, Quoting::Quoted) => {
                    return Err(input.malformed("the input ends inside a row string".into()));
                }
                (Some(other), _) => {
                    let allowed = match quoting {
                        Quoting::Bare => "a board row holds only 'Q', '.' and spaces",
                        Quoting::Quoted => "a row string holds only 'Q' and '.'",
                    };
                    return Err(input.malformed(format!(
                        "unexpected {} at column {} ({allowed})",
                        describe(other),
                        input.column
                    )));
                }
            }
        }
        match self.n {
            None if cells == 0 => {
                return Err(input.malformed(format!("board {} has an empty row", self.index)));
            }
            None => self.n = Some(cells),
            Some(n) if cells != n => {
                // The line of the row, which a bare row has just ended.
                let line = input.line - u64::from(quoting == Quoting::Bare && input.column == 1);
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

    pub(super) fn check(self) -> Result<Option<Checked>, ReadError> {
        let n = self.n.unwrap_or_default();
        if self.total_queens != u64::from(n) {
            return Err(ReadError::Malformed {
                line: self.first_line,
                message: format!(
                    "board {} has {}, but a {n} x {n} board needs {n}",
                    self.index,
                    counted(self.total_queens, "queen")
                ),
            });
        }
        let conflict = first_conflict(n, self.queens.iter().copied());
        // A solution has one queen a row, kept in reading order.
        let small = small_board(n, self.queens.iter().map(|q| q.col));
        Ok(Some(Checked::new(
            self.index,
            self.first_line,
            n,
            conflict,
            small,
        )))
    }
}
