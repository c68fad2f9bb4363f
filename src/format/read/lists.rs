//! Lists, as JSON and Python print them: LeetCode 51's array of boards
//! (`[[".Q..", ...], ...]`) and what learners print, single quotes and
//! tuples included (`[['.Q..', ...]]`, `[(1, 3, 0, 2), ...]`).
//!
//! A list's first leaf, and how deep it lies, says what the list is:
//!
//! ```text
//! ['.Q..', '...Q', 'Q...', '..Q.']     a board of row strings
//! [['.Q..', ...], ['..Q.', ...]]       a list of them (LeetCode's answer)
//! [1, 3, 0, 2]                         a board of columns
//! [[1, 3, 0, 2], [2, 0, 3, 1]]         a list of them
//! [[0, 1, 0, 0], [0, 0, 0, 1], ...]    a 0/1 matrix (numpy prints its rows without commas)
//! [[[0, 1, 0, 0], ...], [[...], ...]]  a list of them
//! ```
//!
//! At depth two, numbers are columns or a matrix's first row; the first
//! inner list settles it as a line of them does (`columns.rs`). One list may
//! follow another on a line of its own. Columns count from 1 or 0 as on a
//! line.
//!
//! This is not a JSON or Python parser and must never become one: no
//! escapes, no other values, nothing kept beyond a board's rows or
//! columns, so garbage is refused at its first bad byte.

use std::io::BufRead;

use super::columns::{self, Base, Columns, End, First};
use super::grid::{Alphabet, Grid, Quoting};
use super::input::{Input, counted, describe, describe_opt};
use super::{Checked, Keep, ReadError};

/// What the boards of a list of boards are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Lists of row strings.
    Rows,
    /// Lists of column numbers.
    Columns,
    /// Lists of lists of 0s and 1s.
    Matrix,
}

impl Kind {
    const fn what(self) -> &'static str {
        match self {
            Self::Rows => "a board (an array of row strings)",
            Self::Columns => "a board (a list of column numbers)",
            Self::Matrix => "a board (a list of rows of 0s and 1s)",
        }
    }
}

/// Where the reader is among an input's lists.
#[derive(Debug, Default)]
pub(super) struct Lists {
    /// The list of boards being read: its closing bracket and its boards'
    /// kind.
    open: Option<(u8, Kind)>,
    /// Lists begun at the top level.
    values: u64,
    /// The line the last of them closed on: another starts on a new line.
    closed_on: u64,
}

/// How a board's column numbers count, and what a board may take.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reading {
    pub(super) base: Base,
    pub(super) limit: Option<u64>,
}

/// The closing bracket of an opening one.
const fn closing(open: u8) -> Option<u8> {
    match open {
        b'[' => Some(b']'),
        b'(' => Some(b')'),
        _ => None,
    }
}

/// The next board of the input's lists.
pub(super) fn read_list<R: BufRead>(
    input: &mut Input<R>,
    lists: &mut Lists,
    index: u64,
    reading: Reading,
    keep: &mut Keep,
) -> Result<Option<Checked>, ReadError> {
    loop {
        if let Some((close, kind)) = lists.open {
            if another_board_follows(input, lists, close, index)? {
                return read_listed_board(input, kind, index, reading, keep);
            }
            continue;
        }
        let Some(first) = input.skip_between_boards()? else {
            return Ok(None);
        };
        if closing(first).is_none() || (lists.values > 0 && input.line == lists.closed_on) {
            return Err(input.malformed(format!(
                "unexpected {} after the closing ']'",
                describe(first)
            )));
        }
        lists.values += 1;
        let closes = open_to_first_leaf(input)?;
        if let Began::Board(board) = begin_list(input, lists, &closes, index, reading, keep)? {
            return Ok(board);
        }
    }
}

/// After a board of the open list of boards, which closes with `close`:
/// past the comma, whether another board follows (its bracket is next),
/// or past the closing bracket, that none does.
fn another_board_follows<R: BufRead>(
    input: &mut Input<R>,
    lists: &mut Lists,
    close: u8,
    index: u64,
) -> Result<bool, ReadError> {
    input.skip_whitespace(true)?;
    match input.peek()? {
        Some(c) if c == close => {
            input.next()?;
            lists.open = None;
            lists.closed_on = input.line;
            Ok(false)
        }
        Some(b',') => {
            input.next()?;
            input.skip_whitespace(true)?;
            Ok(true)
        }
        // numpy separates rows by line breaks alone.
        Some(b'[' | b'(') => Ok(true),
        other => Err(input.malformed(format!(
            "expected ',' or '{}' after board {}, found {}",
            close as char,
            index - 1,
            describe_opt(other)
        ))),
    }
}

/// A board of `kind` in a list of boards, from its opening bracket.
fn read_listed_board<R: BufRead>(
    input: &mut Input<R>,
    kind: Kind,
    index: u64,
    reading: Reading,
    keep: &mut Keep,
) -> Result<Option<Checked>, ReadError> {
    let open = input.peek()?;
    let Some(board_close) = open.and_then(closing) else {
        return Err(input.malformed(format!(
            "expected '[' to open {}, found {}",
            kind.what(),
            describe_opt(open)
        )));
    };
    input.next()?;
    let line = input.line;
    match kind {
        Kind::Rows => read_rows(input, index, board_close, keep),
        Kind::Columns => read_columns(input, index, line, board_close, reading, keep),
        Kind::Matrix => {
            input.skip_whitespace(true)?;
            let grid = Grid::new(index, line, Alphabet::Digits, keep);
            read_matrix(input, grid, board_close, None, keep)
        }
    }
}

/// Reads the opening brackets of a top-level list down to its first leaf
/// and returns their closing brackets, outermost first (three at most).
fn open_to_first_leaf<R: BufRead>(input: &mut Input<R>) -> Result<Vec<u8>, ReadError> {
    let mut closes: Vec<u8> = Vec::with_capacity(3);
    while let Some(close) = input.peek()?.and_then(closing) {
        if closes.len() == 3 {
            return Err(input.malformed(
                "lists nested more than 3 deep: a list of boards holds boards, each a list of \
                 rows or of columns"
                    .to_owned(),
            ));
        }
        input.next()?;
        closes.push(close);
        input.skip_whitespace(true)?;
    }
    Ok(closes)
}

/// What a top-level list's first leaf began.
enum Began {
    /// An empty list, `[]`, read: no board.
    Empty,
    /// Its first board, read (and the list of boards left open, if it is one).
    Board(Option<Checked>),
}

/// The first board of a top-level list whose brackets `closes` are open,
/// by what its first leaf and its depth say the list is.
fn begin_list<R: BufRead>(
    input: &mut Input<R>,
    lists: &mut Lists,
    closes: &[u8],
    index: u64,
    reading: Reading,
    keep: &mut Keep,
) -> Result<Began, ReadError> {
    let line = input.line;
    let board = match (closes, input.peek()?) {
        (&[close], Some(c)) if c == close => {
            input.next()?;
            lists.closed_on = input.line;
            return Ok(Began::Empty);
        }
        (&[_, close, ..], Some(c)) if c == close => {
            return Err(input.malformed(format!("board {index} is an empty array")));
        }
        (&[close], Some(b'"' | b'\'')) => {
            let board = read_rows(input, index, close, keep)?;
            lists.closed_on = input.line;
            board
        }
        (&[outer, close], Some(b'"' | b'\'')) => {
            lists.open = Some((outer, Kind::Rows));
            read_rows(input, index, close, keep)?
        }
        (&[close], Some(b'0'..=b'9')) => {
            let board = read_columns(input, index, line, close, reading, keep)?;
            lists.closed_on = input.line;
            board
        }
        (&[outer, close], Some(b'0'..=b'9')) => {
            begin_columns_or_matrix(input, lists, outer, close, index, reading, keep)?
        }
        (&[outer, board, row], Some(b'0'..=b'9')) => {
            lists.open = Some((outer, Kind::Matrix));
            let grid = Grid::new(index, line, Alphabet::Digits, keep);
            read_matrix(input, grid, board, Some(row), keep)?
        }
        (_, other) => return Err(unexpected_leaf(input, closes.len(), other)),
    };
    Ok(Began::Board(board))
}

/// Numbers two lists deep: a list of boards of columns, or one 0/1 matrix,
/// as the first inner list says (`columns::read_first`).
fn begin_columns_or_matrix<R: BufRead>(
    input: &mut Input<R>,
    lists: &mut Lists,
    outer: u8,
    close: u8,
    index: u64,
    reading: Reading,
    keep: &mut Keep,
) -> Result<Option<Checked>, ReadError> {
    let first = columns::read_first(
        input,
        index,
        End::Close(close),
        reading.limit,
        reading.base,
        keep,
    )?;
    match first {
        First::Columns(checked) => {
            lists.open = Some((outer, Kind::Columns));
            Ok(Some(checked))
        }
        First::Matrix(grid) => {
            let board = read_matrix(input, grid, outer, None, keep)?;
            lists.closed_on = input.line;
            Ok(board)
        }
    }
}

/// The error for a leaf `found` that no list `deep` lists deep starts with.
fn unexpected_leaf<R: BufRead>(input: &Input<R>, deep: usize, found: Option<u8>) -> ReadError {
    input.malformed(format!(
        "expected {} in a list nested {deep} deep, found {}",
        match deep {
            1 => "a row string, a column number or another list",
            2 => "a row string or a number",
            _ => "a number (a 0/1 matrix's square)",
        },
        describe_opt(found)
    ))
}

/// A board of row strings, its opening bracket read, up to `close`.
fn read_rows<R: BufRead>(
    input: &mut Input<R>,
    index: u64,
    close: u8,
    keep: &mut Keep,
) -> Result<Option<Checked>, ReadError> {
    input.skip_whitespace(true)?;
    let mut grid = Grid::new(index, input.line, Alphabet::Letters, keep);
    loop {
        input.skip_whitespace(true)?;
        if grid.rows == 0 && input.peek()? == Some(close) {
            return Err(input.malformed(format!("board {index} is an empty array")));
        }
        let quote = match input.peek()? {
            Some(q @ (b'"' | b'\'')) => q,
            other => {
                return Err(input.malformed(format!(
                    "expected '\"' to open a row string, found {}",
                    describe_opt(other)
                )));
            }
        };
        input.next()?;
        grid.read_row(input, Quoting::Quoted(quote), keep)?;
        input.skip_whitespace(true)?;
        match input.next()? {
            Some(b',') if !grid.complete() => {}
            Some(c) if c == close && grid.complete() => return grid.check(keep),
            Some(c) if c == close => return Err(grid.too_few_rows(input.line)),
            Some(b',') => {
                return Err(input.malformed(format!(
                    "board {index} has more than {}, but its first row (line {}) has {}: a \
                     board has as many rows as columns",
                    counted(grid.rows, "row"),
                    grid.first_line,
                    counted(grid.rows, "square")
                )));
            }
            other => {
                return Err(input.malformed(format!(
                    "expected ',' or '{}' after a row of board {index}, found {}",
                    close as char,
                    describe_opt(other)
                )));
            }
        }
    }
}

/// A board of column numbers, its opening bracket read, up to `close`.
fn read_columns<R: BufRead>(
    input: &mut Input<R>,
    index: u64,
    line: u64,
    close: u8,
    reading: Reading,
    keep: &mut Keep,
) -> Result<Option<Checked>, ReadError> {
    let mut cols = Columns::new(reading.limit, keep.up_to());
    columns::read_numbers(input, End::Close(close), &mut cols)?;
    if cols.count == 0 {
        return Err(input.malformed(format!("board {index} is an empty list")));
    }
    cols.finish(index, line, reading.base, keep).map(Some)
}

/// The rows of a 0/1 matrix up to `close`, after those `grid` holds; the
/// first of them already opened where `row` holds its closing bracket.
fn read_matrix<R: BufRead>(
    input: &mut Input<R>,
    mut grid: Grid,
    close: u8,
    mut row: Option<u8>,
    keep: &mut Keep,
) -> Result<Option<Checked>, ReadError> {
    loop {
        let row_close = match row.take() {
            Some(row_close) => row_close,
            None => {
                input.skip_whitespace(true)?;
                match input.peek()? {
                    Some(c) if c == close => {
                        input.next()?;
                        return if grid.complete() {
                            grid.check(keep)
                        } else {
                            Err(grid.too_few_rows(input.line))
                        };
                    }
                    Some(b',') if grid.rows > 0 => {
                        input.next()?;
                        input.skip_whitespace(true)?;
                    }
                    _ => {}
                }
                if grid.complete() {
                    return Err(input.malformed(format!(
                        "a 0/1 matrix of more than {}, but its first row (line {}) has {}: a \
                         board has as many rows as columns",
                        counted(grid.rows, "row"),
                        grid.first_line,
                        counted(grid.rows, "square")
                    )));
                }
                let open = input.peek()?;
                match open.and_then(closing) {
                    Some(row_close) => {
                        input.next()?;
                        row_close
                    }
                    None => {
                        return Err(input.malformed(format!(
                            "expected '[' to open a row of a 0/1 matrix, or '{}' to end it, \
                             found {}",
                            close as char,
                            describe_opt(open)
                        )));
                    }
                }
            }
        };
        read_matrix_row(input, &mut grid, row_close, keep)?;
    }
}

/// One row of a 0/1 matrix, its opening bracket read, up to `close`.
fn read_matrix_row<R: BufRead>(
    input: &mut Input<R>,
    grid: &mut Grid,
    close: u8,
    keep: &mut Keep,
) -> Result<(), ReadError> {
    let line = input.line;
    let mut squares = 0u32;
    loop {
        input.skip_whitespace(true)?;
        if squares > 0 && input.peek()? == Some(b',') {
            input.next()?;
            input.skip_whitespace(true)?;
        }
        match input.peek()? {
            Some(c) if c == close => {
                input.next()?;
                return grid.end_row(line);
            }
            Some(digit @ (b'0' | b'1')) => {
                grid.square(input, digit == b'1', keep)?;
                input.next()?;
                squares += 1;
                input.expect_separator("a square of a 0/1 matrix (0 or 1)", |b| {
                    b.is_ascii_whitespace() || b == b',' || b == close
                })?;
            }
            other => {
                return Err(input.malformed(format!(
                    "expected 0 or 1 in a row of a 0/1 matrix, or '{}' to end it, found {}",
                    close as char,
                    describe_opt(other)
                )));
            }
        }
    }
}
