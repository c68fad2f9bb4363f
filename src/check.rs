//! Checking boards: reads boards in any format of [`crate::format`] and
//! tells, for each, whether it is a solution or which two queens clash.
//!
//! The check itself, [`first_conflict`], is O(n): one bit per row, column
//! and diagonal (`2n - 1` of each kind), set as the queens are visited in
//! reading order; the first queen that finds its bit taken is reported with
//! the earlier queen on that line.
//!
//! [`Boards`] reads any number of boards from a byte stream, detecting the
//! format from the first non-blank character: `[` LeetCode's JSON, `{` JSON
//! lines, a digit the columns format, `Q` or `.` board rows (with or without
//! spaces between the cells). It reads byte by byte through a buffer and
//! keeps only what the check needs (a column per row), so its memory grows
//! with the size of a board, never with the size of the input: a long line
//! is read as a stream of numbers, never as a line, and garbage is rejected
//! at its first bad byte. Every way the input can be wrong is a
//! [`ReadError`] naming the line; nothing in here panics on any input. This
//! module never prints and never decides what to do about a bad board.

use std::fmt;
use std::io::{self, BufRead};

use crate::format::Format;

/// The largest board [`Boards`] accepts: a billion rows (a few gigabytes of
/// bits to check it).
pub const MAX_N: u32 = 1_000_000_000;

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

/// A bit per index, growing on demand.
#[derive(Clone, Debug, Default)]
struct Bits(Vec<u64>);

impl Bits {
    fn with_len(len: usize) -> Self {
        Self(vec![0; len.div_ceil(64)])
    }

    /// Sets bit `i` and says whether it was set already.
    fn test_and_set(&mut self, i: usize) -> bool {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        if word >= self.0.len() {
            self.0.resize(word + 1, 0);
        }
        let was = self.0[word] & bit != 0;
        self.0[word] |= bit;
        was
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
/// # Panics
/// When a queen lies off the `n`-board.
///
/// ```
/// use queens::check::{Line, Queen, first_conflict};
///
/// let board = |cols: &[u32]| cols.iter().zip(0..).map(|(&col, row)| Queen { row, col }).collect::<Vec<_>>();
/// assert_eq!(first_conflict(4, board(&[1, 3, 0, 2])), None);
/// let clash = first_conflict(4, board(&[0, 2, 3, 1])).unwrap();
/// assert_eq!(clash.line, Line::Diagonal);
/// assert_eq!(clash.to_string(), "queens at (row 2, col 3) and (row 3, col 4) share a diagonal");
/// ```
pub fn first_conflict<I>(n: u32, queens: I) -> Option<Conflict>
where
    I: IntoIterator<Item = Queen>,
    I::IntoIter: Clone,
{
    let queens = queens.into_iter();
    let n = n as usize;
    let mut rows = Bits::with_len(n);
    let mut cols = Bits::with_len(n);
    let mut diagonals = Bits::with_len(2 * n);
    let mut anti_diagonals = Bits::with_len(2 * n);
    for (i, q) in queens.clone().enumerate() {
        let (r, c) = (q.row as usize, q.col as usize);
        // Cheap, and it keeps a bad index from growing a bit set without end.
        assert!(r < n && c < n, "{q:?} is off the {n}-board");
        let line = if rows.test_and_set(r) {
            Line::Row
        } else if cols.test_and_set(c) {
            Line::Column
        } else if diagonals.test_and_set(r + n - 1 - c) {
            Line::Diagonal
        } else if anti_diagonals.test_and_set(r + c) {
            Line::AntiDiagonal
        } else {
            continue;
        };
        let first = queens
            .clone()
            .take(i)
            .find(|&p| line.joins(p, q))
            .expect("a taken line holds an earlier queen");
        return Some(Conflict {
            first,
            second: q,
            line,
        });
    }
    None
}

/// [`first_conflict`] for a board given as the column of each row.
#[must_use]
pub fn first_conflict_in_columns(cols: &[u32]) -> Option<Conflict> {
    let n = u32::try_from(cols.len()).expect("a board of at most 2^32 rows");
    first_conflict(n, (0..n).zip(cols).map(|(row, &col)| Queen { row, col }))
}

/// One board read and checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// Its position in the input, from 1.
    pub index: u64,
    /// The line it starts on, from 1.
    pub line: u64,
    /// Its size.
    pub n: u32,
    /// The first two queens that attack each other; `None` for a solution.
    pub conflict: Option<Conflict>,
}

/// Why boards could not be read.
#[derive(Debug, thiserror::Error)]
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
    /// There is no board at all.
    #[error("the input holds no board (expected boards as `queens list` writes them)")]
    Empty,
}

/// The boards of a byte stream, each checked, in order: an iterator of
/// [`Checked`] that ends after the first [`ReadError`].
///
/// ```
/// use queens::check::Boards;
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
}

impl<R: BufRead> Boards<R> {
    /// The boards of `reader`.
    pub fn new(reader: R) -> Self {
        Self {
            input: Input {
                inner: reader,
                line: 1,
                column: 1,
            },
            format: None,
            boards: 0,
            array_open: false,
            done: false,
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
            Format::Board | Format::Spaced => self.read_grid(index)?,
            Format::Leetcode => self.read_leetcode(index)?,
            Format::Columns => self.read_columns(index)?,
            Format::Jsonl => self.read_jsonl(index)?,
        };
        if board.is_some() {
            self.boards = index;
        }
        Ok(board)
    }

    /// A board of rows of `Q` and `.`, ended by its `n`-th row; blank lines
    /// around boards are skipped.
    fn read_grid(&mut self, index: u64) -> Result<Option<Checked>, ReadError> {
        self.input.skip_whitespace(true)?;
        if self.input.peek()?.is_none() {
            return Ok(None);
        }
        let mut grid = Grid::new(index, self.input.line);
        loop {
            let row_line = self.input.line;
            if self.input.at_blank_line()? {
                return Err(grid.too_few_rows(row_line));
            }
            grid.read_row(&mut self.input, Quoting::Bare)?;
            if grid.complete() {
                return grid.check();
            }
        }
    }

    /// One board of LeetCode's `[["..Q.", ...], ...]`; the outer array is
    /// opened on the first call and closed after the last board.
    fn read_leetcode(&mut self, index: u64) -> Result<Option<Checked>, ReadError> {
        let input = &mut self.input;
        input.skip_whitespace(true)?;
        if self.array_open {
            match input.next()? {
                Some(b',') => {}
                Some(b']') => return input.expect_end("after the closing ']'").map(|()| None),
                other => {
                    return Err(input.malformed(format!(
                        "expected ',' or ']' after board {}, found {}",
                        index - 1,
                        describe_opt(other)
                    )));
                }
            }
        } else {
            input.expect(b'[', "to open the array of boards")?;
            self.array_open = true;
            input.skip_whitespace(true)?;
            if input.peek()? == Some(b']') {
                input.next()?;
                return input.expect_end("after the closing ']'").map(|()| None);
            }
        }
        input.skip_whitespace(true)?;
        input.expect(b'[', "to open a board (an array of row strings)")?;
        let mut grid = Grid::new(index, input.line);
        loop {
            input.skip_whitespace(true)?;
            if grid.rows == 0 && input.peek()? == Some(b']') {
                return Err(input.malformed(format!("board {index} is an empty array")));
            }
            input.expect(b'"', "to open a row string")?;
            grid.read_row(input, Quoting::Quoted)?;
            input.skip_whitespace(true)?;
            match input.next()? {
                Some(b',') if !grid.complete() => {}
                Some(b']') if grid.complete() => return grid.check(),
                Some(b']') => return Err(grid.too_few_rows(input.line)),
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
                        "expected ',' or ']' after a row of board {index}, found {}",
                        describe_opt(other)
                    )));
                }
            }
        }
    }

    /// One line of 1-based column numbers.
    fn read_columns(&mut self, index: u64) -> Result<Option<Checked>, ReadError> {
        let input = &mut self.input;
        input.skip_whitespace(true)?;
        if input.peek()?.is_none() {
            return Ok(None);
        }
        let line = input.line;
        let mut cols = Columns::default();
        loop {
            input.skip_whitespace(false)?;
            match input.peek()? {
                None => break,
                Some(b'\n') => {
                    input.next()?;
                    break;
                }
                Some(b'0'..=b'9') => {
                    let col = input.number(u64::from(MAX_N), "column number")?;
                    input.expect_separator("a column number", |b| {
                        matches!(b, b' ' | b'\t' | b'\r' | b'\n')
                    })?;
                    if col == 0 {
                        return Err(input.malformed(
                            "column 0: the columns format counts columns from 1".to_owned(),
                        ));
                    }
                    cols.push(&*input, col as u32 - 1)?;
                }
                Some(other) => {
                    return Err(input.malformed(format!(
                        "unexpected {} in a line of column numbers",
                        describe(other)
                    )));
                }
            }
        }
        let n = cols.count;
        if let Some(max) = cols.max.filter(|&max| max >= n) {
            return Err(ReadError::Malformed {
                line,
                message: format!(
                    "column {} is off a board of {n} rows: a line of n numbers is an n x n board, \
                     with columns from 1 to n",
                    u64::from(max) + 1
                ),
            });
        }
        Ok(Some(Checked {
            index,
            line,
            n,
            conflict: cols.first_conflict(),
        }))
    }

    /// One line holding `{"n":N,"cols":[...]}` (0-based columns).
    fn read_jsonl(&mut self, index: u64) -> Result<Option<Checked>, ReadError> {
        let input = &mut self.input;
        input.skip_whitespace(true)?;
        if input.peek()?.is_none() {
            return Ok(None);
        }
        let line = input.line;
        input.expect(b'{', "to open a JSON object")?;
        let mut n: Option<u32> = None;
        let mut cols: Option<Columns> = None;
        loop {
            input.skip_whitespace(false)?;
            input.expect(b'"', "to open a key (\"n\" or \"cols\")")?;
            let key = input.key()?;
            input.skip_whitespace(false)?;
            input.expect(b':', "after a key")?;
            input.skip_whitespace(false)?;
            match key {
                Key::N if n.is_none() => {
                    let value = input.number(u64::from(MAX_N), "n")?;
                    if value == 0 {
                        return Err(input.malformed("n is 0: a board has at least one row".into()));
                    }
                    n = Some(value as u32);
                }
                Key::Cols if cols.is_none() => {
                    cols = Some(read_json_columns(input, n)?);
                }
                Key::N | Key::Cols => {
                    return Err(
                        input.malformed(format!("the key \"{}\" appears twice", key.name()))
                    );
                }
            }
            input.skip_whitespace(false)?;
            match input.next()? {
                Some(b',') => {}
                Some(b'}') => break,
                other => {
                    return Err(input.malformed(format!(
                        "expected ',' or '}}' in the object, found {}",
                        describe_opt(other)
                    )));
                }
            }
        }
        input.skip_whitespace(false)?;
        input.expect_separator("the object", |b| b == b'\n')?;
        let (Some(n), Some(cols)) = (n, cols) else {
            return Err(ReadError::Malformed {
                line,
                message: "the object needs both \"n\" and \"cols\"".into(),
            });
        };
        if cols.count != n {
            return Err(ReadError::Malformed {
                line,
                message: format!("\"cols\" holds {} columns, but \"n\" is {n}", cols.count),
            });
        }
        if let Some(max) = cols.max.filter(|&max| max >= n) {
            return Err(ReadError::Malformed {
                line,
                message: format!(
                    "column {max} is off a board of n = {n} (\"cols\" counts from 0 to n - 1)"
                ),
            });
        }
        Ok(Some(Checked {
            index,
            line,
            n,
            conflict: cols.first_conflict(),
        }))
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

/// The `[...]` of a JSON line's `"cols"`, each column checked against `n`
/// as soon as it is read when `n` came first.
fn read_json_columns<R: BufRead>(
    input: &mut Input<R>,
    n: Option<u32>,
) -> Result<Columns, ReadError> {
    input.expect(b'[', "to open \"cols\"")?;
    let mut cols = Columns::default();
    input.skip_whitespace(false)?;
    if input.peek()? == Some(b']') {
        input.next()?;
        return Ok(cols);
    }
    let limit = n.map_or(MAX_N, |n| n - 1);
    loop {
        input.skip_whitespace(false)?;
        let col = input.number(u64::from(limit), "column")?;
        cols.push(input, col as u32)?;
        if n.is_some_and(|n| cols.count > n) {
            return Err(input.malformed(format!(
                "\"cols\" holds more than n = {} columns",
                limit + 1
            )));
        }
        input.skip_whitespace(false)?;
        match input.next()? {
            Some(b',') => {}
            Some(b']') => return Ok(cols),
            other => {
                return Err(input.malformed(format!(
                    "expected ',' or ']' in \"cols\", found {}",
                    describe_opt(other)
                )));
            }
        }
    }
}

/// The two keys of a JSON line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    N,
    Cols,
}

impl Key {
    const fn name(self) -> &'static str {
        match self {
            Self::N => "n",
            Self::Cols => "cols",
        }
    }
}

/// The columns of a board as they are read, one per row.
///
/// Columns are kept only up to the first repeated one: the check needs no
/// more to find the first conflict, and a line of a billion `1`s costs no
/// memory. They are kept in chunks of fixed size, so that a growing board
/// is never copied: at n = 10^7 `queens check` peaks at 75 MB of memory
/// instead of 124 MB with one doubling vector (the time is the same,
/// 0.33 s).
#[derive(Debug, Default)]
struct Columns {
    chunks: Vec<Vec<u32>>,
    seen: Bits,
    repeated: bool,
    /// Columns read (the board's n, once the line is done).
    count: u32,
    max: Option<u32>,
}

impl Columns {
    fn push<R>(&mut self, input: &Input<R>, col: u32) -> Result<(), ReadError> {
        if self.count == MAX_N {
            return Err(input.malformed(format!("more than {MAX_N} columns in one board")));
        }
        self.count += 1;
        self.max = self.max.max(Some(col));
        if !self.repeated {
            self.repeated = self.seen.test_and_set(col as usize);
            match self.chunks.last_mut() {
                Some(chunk) if chunk.len() < COLUMNS_CHUNK => chunk.push(col),
                _ => {
                    let mut chunk = Vec::with_capacity(COLUMNS_CHUNK);
                    chunk.push(col);
                    self.chunks.push(chunk);
                }
            }
        }
        Ok(())
    }

    /// The first conflict among the columns kept: when one repeats, the
    /// first conflict of the board is among the rows up to the repeat.
    fn first_conflict(self) -> Option<Conflict> {
        debug_assert!(self.max.is_none_or(|m| m < self.count));
        let n = self.count;
        let queens = (0..)
            .zip(self.chunks.iter().flatten())
            .map(|(row, &col)| Queen { row, col });
        let conflict = first_conflict(n, queens);
        debug_assert!(conflict.is_some() || !self.repeated);
        conflict
    }
}

/// Columns per chunk of [`Columns`]: 256 KiB.
const COLUMNS_CHUNK: usize = 1 << 16;

/// How a board row is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quoting {
    /// A line of its own, cells optionally separated by spaces or tabs.
    Bare,
    /// A JSON string (LeetCode), its opening `"` already read.
    Quoted,
}

/// A board of rows of `Q` and `.` being read.
#[derive(Debug)]
struct Grid {
    index: u64,
    first_line: u64,
    /// Squares in a row, set by the first row.
    n: Option<u32>,
    rows: u32,
    /// The first two queens of each row, in reading order: a third queen in
    /// a row can never be the first conflict, so it need not be kept.
    queens: Vec<Queen>,
    total_queens: u64,
}

impl Grid {
    fn new(index: u64, first_line: u64) -> Self {
        Self {
            index,
            first_line,
            n: None,
            rows: 0,
            queens: Vec::new(),
            total_queens: 0,
        }
    }

    fn complete(&self) -> bool {
        self.n == Some(self.rows)
    }

    fn too_few_rows(&self, line: u64) -> ReadError {
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
    fn read_row<R: BufRead>(
        &mut self,
        input: &mut Input<R>,
        quoting: Quoting,
    ) -> Result<(), ReadError> {
        let row = self.rows;
        let limit = self.n.unwrap_or(MAX_N);
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
                            None => format!("a row of more than {MAX_N} squares"),
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

    fn check(self) -> Result<Option<Checked>, ReadError> {
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
        Ok(Some(Checked {
            index: self.index,
            line: self.first_line,
            n,
            conflict: first_conflict(n, self.queens.iter().copied()),
        }))
    }
}

/// The input, a byte at a time through its buffer, with the position for
/// messages.
#[derive(Debug)]
struct Input<R> {
    inner: R,
    /// Current line, from 1.
    line: u64,
    /// Current byte in the line, from 1.
    column: u64,
}

impl<R> Input<R> {
    fn malformed(&self, message: String) -> ReadError {
        ReadError::Malformed {
            line: self.line,
            message,
        }
    }
}

impl<R: BufRead> Input<R> {
    /// The buffered bytes, refilled when empty; empty at the end.
    fn buffer(&mut self) -> Result<&[u8], ReadError> {
        loop {
            match self.inner.fill_buf() {
                Ok(_) => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        // Filled just above: this returns the same bytes without reading.
        Ok(self.inner.fill_buf()?)
    }

    fn peek(&mut self) -> Result<Option<u8>, ReadError> {
        Ok(self.buffer()?.first().copied())
    }

    fn next(&mut self) -> Result<Option<u8>, ReadError> {
        let byte = self.peek()?;
        if let Some(b) = byte {
            self.inner.consume(1);
            if b == b'\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
        Ok(byte)
    }

    /// Skips spaces, tabs and carriage returns, and line breaks too when
    /// `lines` is set.
    ///
    /// A buffer at a time, not a byte at a time: this and [`Input::number`]
    /// are the whole cost of reading the columns format (79 MB for
    /// n = 10^7: 0.3 s, against 0.8 s a byte at a time).
    fn skip_whitespace(&mut self, lines: bool) -> Result<(), ReadError> {
        loop {
            let (mut line, mut column) = (self.line, self.column);
            let buf = self.buffer()?;
            let skipped = buf
                .iter()
                .take_while(|&&b| match b {
                    b' ' | b'\t' | b'\r' => {
                        column += 1;
                        true
                    }
                    b'\n' if lines => {
                        (line, column) = (line + 1, 1);
                        true
                    }
                    _ => false,
                })
                .count();
            let more = skipped > 0 && skipped == buf.len();
            self.inner.consume(skipped);
            (self.line, self.column) = (line, column);
            if !more {
                return Ok(());
            }
        }
    }

    /// Whether the rest of the line is blank (or the input has ended); a
    /// blank line is consumed, anything else is left alone.
    fn at_blank_line(&mut self) -> Result<bool, ReadError> {
        // Leading spaces of a row are skipped by the row reader too, so
        // consuming them here changes nothing.
        while let Some(b' ' | b'\t' | b'\r') = self.peek()? {
            self.next()?;
        }
        match self.peek()? {
            None => Ok(true),
            Some(b'\n') => {
                self.next()?;
                Ok(true)
            }
            Some(_) => Ok(false),
        }
    }

    fn expect(&mut self, want: u8, why: &str) -> Result<(), ReadError> {
        match self.peek()? {
            Some(b) if b == want => {
                self.next()?;
                Ok(())
            }
            other => Err(self.malformed(format!(
                "expected '{}' {why}, found {}",
                want as char,
                describe_opt(other)
            ))),
        }
    }

    /// The byte after `what` must end it: EOF, or one `ends` accepts (left
    /// unread).
    fn expect_separator(&mut self, what: &str, ends: impl Fn(u8) -> bool) -> Result<(), ReadError> {
        match self.peek()? {
            None => Ok(()),
            Some(b) if ends(b) => Ok(()),
            Some(other) => {
                Err(self.malformed(format!("unexpected {} after {what}", describe(other))))
            }
        }
    }

    /// Nothing but whitespace may follow.
    fn expect_end(&mut self, what: &str) -> Result<(), ReadError> {
        self.skip_whitespace(true)?;
        match self.peek()? {
            None => Ok(()),
            Some(other) => Err(self.malformed(format!("unexpected {} {what}", describe(other)))),
        }
    }

    /// A run of decimal digits, refused as soon as it exceeds `max`, so a
    /// gigabyte of digits is rejected after a dozen.
    fn number(&mut self, max: u64, what: &str) -> Result<u64, ReadError> {
        let mut value: Option<u64> = None;
        loop {
            let mut too_large = false;
            let buf = self.buffer()?;
            let digits = buf
                .iter()
                .take_while(|&&d| {
                    if !d.is_ascii_digit() {
                        return false;
                    }
                    // max is at most a few billion: no overflow.
                    let v = value.unwrap_or(0) * 10 + u64::from(d - b'0');
                    too_large = v > max;
                    value = Some(v);
                    !too_large
                })
                .count();
            let more = digits > 0 && digits == buf.len();
            self.inner.consume(digits);
            self.column += digits as u64;
            if too_large {
                return Err(self.malformed(format!("{what} too large: more than {max}")));
            }
            if !more {
                break;
            }
        }
        match value {
            Some(v) => Ok(v),
            None => {
                let found = self.peek()?;
                Err(self.malformed(format!("expected a {what}, found {}", describe_opt(found))))
            }
        }
    }

    /// The rest of a JSON key whose opening quote is read: `n` or `cols`,
    /// refused at the first byte that cannot belong to either.
    fn key(&mut self) -> Result<Key, ReadError> {
        let mut read = Vec::with_capacity(4);
        loop {
            match self.next()? {
                Some(b'"') => break,
                Some(b) if read.len() < 4 && b.is_ascii_graphic() => read.push(b),
                other => {
                    let shown = String::from_utf8_lossy(&read).into_owned();
                    let found = other.map_or("the end of the input".into(), describe);
                    return Err(self.malformed(format!(
                        "unknown key starting \"{shown}\" then {found} (expected \"n\" or \"cols\")"
                    )));
                }
            }
        }
        match read.as_slice() {
            b"n" => Ok(Key::N),
            b"cols" => Ok(Key::Cols),
            other => Err(self.malformed(format!(
                "unknown key \"{}\" (expected \"n\" or \"cols\")",
                String::from_utf8_lossy(other)
            ))),
        }
    }
}

/// `1 row`, `2 rows`.
fn counted(k: impl Into<u64>, what: &str) -> String {
    let k = k.into();
    if k == 1 {
        format!("1 {what}")
    } else {
        format!("{k} {what}s")
    }
}

/// A byte for a message: printable ASCII quoted, anything else in hex.
fn describe(byte: u8) -> String {
    if byte.is_ascii_graphic() || byte == b' ' {
        format!("'{}'", byte as char)
    } else if byte == b'\n' {
        "the end of the line".into()
    } else {
        format!("byte 0x{byte:02x}")
    }
}

fn describe_opt(byte: Option<u8>) -> String {
    byte.map_or_else(|| "the end of the input".into(), describe)
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
    fn the_checker_finds_each_kind_of_conflict() {
        let q = |row, col| Queen { row, col };
        assert_eq!(first_conflict_in_columns(&[1, 3, 0, 2]), None);
        let column = first_conflict_in_columns(&[1, 3, 1, 2]).unwrap();
        assert_eq!(
            (column.first, column.second, column.line),
            (q(0, 1), q(2, 1), Line::Column)
        );
        let anti = first_conflict_in_columns(&[1, 0, 3, 2]).unwrap();
        assert_eq!((anti.first, anti.line), (q(0, 1), Line::AntiDiagonal));
        let row = first_conflict(3, [q(0, 0), q(0, 2), q(2, 1)]).unwrap();
        assert_eq!(row.line, Line::Row);
        assert_eq!(
            row.to_string(),
            "queens at (row 1, col 1) and (row 1, col 3) share a row"
        );
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

    #[test]
    fn a_line_of_repeats_keeps_no_columns() {
        let line = "1 ".repeat(100_000) + "\n";
        let mut cols = Columns::default();
        let input = Input {
            inner: &b""[..],
            line: 1,
            column: 1,
        };
        for _ in 0..100_000 {
            cols.push(&input, 0).unwrap();
        }
        assert_eq!(cols.chunks.concat(), [0, 0]);
        let got = check(&line);
        assert!(got[0].as_ref().unwrap().conflict.unwrap().line == Line::Column);
    }
}
