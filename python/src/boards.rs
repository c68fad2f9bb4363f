//! The boards: `solutions` (a lazy iterator) and `check` (one board, in
//! any form: columns, row strings, a 0/1 matrix, a numpy array, text);
//! `one` is in `construction.rs`.
//!
//! A board is the tuple of its queens' columns, row by row, counted from 0,
//! the form `solutions` yields and `check` takes back. `format="leetcode"`
//! draws it as LeetCode 51 does, a list of row strings (`".Q.."`), and
//! `format="board"` as one string of those rows, a line each.

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyString, PyTuple};
use queens::{Line, MAX_N, MAX_READ_N, ReadError};

use crate::construction::Construction;
use crate::errors::{BoardFormatError, board_size, to_py};
use crate::form::Form;
use crate::problem::Constraints;

/// The solutions of an n-board, found one at a time as you iterate, in
/// lexicographic order of their columns; nothing is computed ahead.
///
/// Made by ``queens.solutions(n)``; with ``given=`` or ``blocked=``, the
/// completions of that problem.
#[pyclass(module = "queens")]
pub struct Solutions {
    walk: queens::Solutions,
    form: Form,
    /// The problem whose completions these are, if any.
    problem: Option<queens::Problem>,
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let walk = &mut self.walk;
        // A large n can search a while between two boards: let other
        // Python threads run meanwhile.
        let board = py.detach(|| walk.next_board().map(<[u32]>::to_vec));
        board.map(|cols| self.form.render(py, &cols)).transpose()
    }

    fn __repr__(&self) -> String {
        match &self.problem {
            Some(problem) => format!(
                "<queens.Solutions: the completions of {}>",
                crate::problem::repr(problem)
            ),
            None => format!("<queens.Solutions of the {}-board>", self.walk.n()),
        }
    }
}

/// The solutions of the n-board (1 <= n <= 32), as a lazy iterator: each
/// board is found when you ask for the next one, so
/// ``next(queens.solutions(30))`` returns at once and memory stays small.
///
/// Boards come in lexicographic order of their columns. ``format`` is
/// ``"columns"`` (the default: a tuple of each row's queen column, from 0),
/// ``"leetcode"`` (a list of row strings, ``[".Q..", "...Q", "Q...",
/// "..Q."]``) or ``"board"`` (those rows as one string, a line each).
/// ``unique=True`` keeps one board per class under rotation and reflection
/// (the least of its orbit): OEIS A002562 of them.
///
/// ``given`` (a dict ``{row: column}`` or ``(row, column)`` pairs) and
/// ``blocked`` (pairs), counted from 0, list the completions instead: the
/// solutions that hold every given queen and no queen on a blocked
/// square, in the same order and formats, as lazily; with
/// ``unique=True``, one per class of the problem's own symmetries
/// (``Problem.symmetries``), as ``Problem.count_classes()`` counts them.
///
/// >>> [b for b in queens.solutions(4)]
/// [(1, 3, 0, 2), (2, 0, 3, 1)]
/// >>> list(queens.solutions(8, given={0: 0, 1: 4}))
/// [(0, 4, 7, 5, 2, 6, 1, 3)]
/// >>> next(queens.solutions(4, blocked=[(0, 1)], format="leetcode"))
/// ['..Q.', 'Q...', '...Q', '.Q..']
#[pyfunction]
#[pyo3(signature = (n, *, given = None, blocked = None, format = None, unique = false))]
pub fn solutions(
    n: &Bound<'_, PyAny>,
    given: Option<&Bound<'_, PyAny>>,
    blocked: Option<&Bound<'_, PyAny>>,
    format: Option<&str>,
    unique: bool,
) -> PyResult<Solutions> {
    let n = board_size(n, "solutions", MAX_N)?;
    let form = Form::parse(format)?;
    let constraints = Constraints::new(given, blocked);
    let (walk, problem) = if constraints.any() {
        let problem = constraints.problem(n)?;
        (queens::Solutions::completions(&problem), Some(problem))
    } else {
        (queens::Solutions::new(n).map_err(to_py)?, None)
    };
    let walk = if unique { walk.unique() } else { walk };
    Ok(Solutions {
        walk,
        form,
        problem,
    })
}

/// Two queens that attack each other, as ``check`` reports them.
///
/// ``first`` and ``second`` are ``(row, column)`` pairs counted from 0, as
/// boards are; ``str()`` gives the command line's message, which counts
/// from 1.
#[pyclass(module = "queens", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Conflict {
    /// The earlier queen, ``(row, column)``.
    #[pyo3(get)]
    first: (u32, u32),
    /// The later queen, ``(row, column)``: the first queen in reading
    /// order that an earlier one attacks.
    #[pyo3(get)]
    second: (u32, u32),
    /// What they share: ``"row"``, ``"column"``, ``"diagonal"`` or
    /// ``"anti-diagonal"``.
    #[pyo3(get)]
    line: &'static str,
    message: String,
}

#[pymethods]
impl Conflict {
    #[classattr]
    fn __match_args__() -> (&'static str, &'static str, &'static str) {
        ("first", "second", "line")
    }

    /// The fields as a dict.
    fn _asdict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("first", self.first)?;
        dict.set_item("second", self.second)?;
        dict.set_item("line", self.line)?;
        Ok(dict)
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("queens._queens")?.getattr("_conflict")?;
        let args = (self.first, self.second, self.line, &self.message);
        Ok((rebuild, args.into_pyobject(py)?))
    }

    fn __str__(&self) -> &str {
        &self.message
    }

    fn __repr__(&self) -> String {
        format!(
            "Conflict(first={:?}, second={:?}, line='{}')",
            self.first, self.second, self.line
        )
    }
}

/// A conflict rebuilt from its pickle (what ``Conflict.__reduce__``
/// names): the fields and the message as the library wrote it.
#[pyfunction]
pub fn _conflict(
    first: (u32, u32),
    second: (u32, u32),
    line: &str,
    message: String,
) -> PyResult<Conflict> {
    let line = ["row", "column", "diagonal", "anti-diagonal"]
        .into_iter()
        .find(|&l| l == line)
        .ok_or_else(|| crate::errors::InputError::new_err(format!("unknown line '{line}'")))?;
    Ok(Conflict {
        first,
        second,
        line,
        message,
    })
}

impl From<queens::Conflict> for Conflict {
    fn from(c: queens::Conflict) -> Self {
        Self {
            first: (c.first.row, c.first.col),
            second: (c.second.row, c.second.col),
            line: match c.line {
                Line::Row => "row",
                Line::Column => "column",
                Line::Diagonal => "diagonal",
                _ => "anti-diagonal",
            },
            message: c.to_string(),
        }
    }
}

/// A row without a queen, as ``check`` reports it.
///
/// ``row`` counts from 0, as boards do; ``str()`` gives the command line's
/// message, which counts from 1.
#[pyclass(module = "queens", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct EmptyRow {
    /// The row, from 0.
    #[pyo3(get)]
    row: u32,
}

#[pymethods]
impl EmptyRow {
    #[classattr]
    fn __match_args__() -> (&'static str,) {
        ("row",)
    }

    /// The fields as a dict.
    fn _asdict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("row", self.row)?;
        Ok(dict)
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("queens._queens")?.getattr("_empty_row")?;
        Ok((rebuild, (self.row,).into_pyobject(py)?))
    }

    fn __str__(&self) -> String {
        queens::Fault::EmptyRow(self.row).to_string()
    }

    fn __repr__(&self) -> String {
        format!("EmptyRow(row={})", self.row)
    }
}

/// An empty row rebuilt from its pickle (what ``EmptyRow.__reduce__``
/// names).
#[pyfunction]
pub fn _empty_row(row: u32) -> EmptyRow {
    EmptyRow { row }
}

/// What ``check`` says of a board that is no solution.
#[derive(IntoPyObject)]
pub enum Fault {
    Conflict(Conflict),
    EmptyRow(EmptyRow),
}

impl From<queens::Fault> for Fault {
    fn from(fault: queens::Fault) -> Self {
        match fault {
            queens::Fault::Conflict(c) => Self::Conflict(c.into()),
            queens::Fault::EmptyRow(row) => Self::EmptyRow(EmptyRow { row }),
            // A kind of fault added to the library and not here.
            other => Self::EmptyRow(EmptyRow { row: other.row() }),
        }
    }
}

/// ``None`` when ``board`` is a solution, else what makes it none: the
/// first two queens that attack each other (a ``Conflict``), or a row
/// without a queen (an ``EmptyRow``), whichever comes first from the top.
///
/// ``board`` is one board, in any of these forms:
///
/// - a sequence of ints: each row's queen column, from 0 (as
///   ``solutions`` yields them);
/// - a sequence of row strings of ``Q`` and ``.`` (LeetCode's form; ``q``,
///   ``_`` and ``-`` too);
/// - a 0/1 matrix: a sequence of rows, each a sequence of 0 (or
///   ``False``) and 1 (or ``True``), such as a list of lists;
/// - anything with a ``tolist()`` method (a numpy array: a 1-D array of
///   columns or a 2-D 0/1 matrix), taken as what ``tolist()`` gives;
/// - a string (or bytes) holding one board in any format ``queens check``
///   reads: rows of ``Q`` and ``.`` (spaced or not), a line of columns
///   (from 1, or from 0 where it holds a 0), a JSON line, LeetCode's or
///   Python's printed lists, a 0/1 matrix, a box-drawn board.
///
/// Raises ``BoardFormatError`` (a ``ValueError``) for anything else,
/// including a string with more than one board; its message counts rows
/// from 1, as the results' messages do.
///
/// >>> queens.check((1, 3, 0, 2)) is None
/// True
/// >>> queens.check([0, 1, 2, 3])
/// Conflict(first=(0, 0), second=(1, 1), line='diagonal')
/// >>> queens.check([[0, 1, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0]])
/// EmptyRow(row=1)
#[pyfunction]
pub fn check(board: &Bound<'_, PyAny>) -> PyResult<Option<Fault>> {
    if board.is_instance_of::<PyString>() {
        return check_text(board.extract::<String>()?.as_bytes());
    }
    if let Ok(bytes) = board.cast::<PyBytes>() {
        return check_text(bytes.as_bytes());
    }
    if let Ok(built) = board.cast::<Construction>() {
        // Its columns as they are, not as a billion Python ints.
        let cols = built.get().to_vec();
        let n = cols.len();
        if let Some((row, &col)) = cols.iter().enumerate().find(|&(_, &c)| c as usize >= n) {
            return Err(off_board(row, &col.to_string(), n));
        }
        let conflict = board
            .py()
            .detach(|| queens::first_conflict_in_columns(&cols))
            .map_err(|e| BoardFormatError::new_err(e.to_string()))?;
        return Ok(conflict.map(|c| Fault::Conflict(c.into())));
    }
    // numpy's arrays (and array.array, pandas' Series...): their Python
    // values, so that a matrix's row is a list, never shown as a column.
    let listed;
    let board = match tolist(board)? {
        Some(list) => {
            listed = list;
            &listed
        }
        None => board,
    };
    let Ok(items) = board.try_iter() else {
        let kind = board.get_type().name()?;
        return Err(PyTypeError::new_err(format!(
            "a board is a sequence of columns, of row strings or of rows of 0s and 1s, or a \
             string, not {kind}"
        )));
    };
    let items: Vec<Bound<'_, PyAny>> = items.collect::<PyResult<_>>()?;
    if items.is_empty() {
        return Err(BoardFormatError::new_err(
            "the board is empty: a board has at least one row",
        ));
    }
    if items[0].is_instance_of::<PyString>() {
        let mut text = String::new();
        for (row, item) in items.iter().enumerate() {
            let line: String = item.extract().map_err(|_| {
                BoardFormatError::new_err(format!(
                    "row {} is not a string like the rows before it",
                    row + 1
                ))
            })?;
            if !line.starts_with(['Q', 'q', '.', '_', '-']) {
                return Err(BoardFormatError::new_err(format!(
                    "row {} is {line:?}: a row is a string of 'Q' and '.'",
                    row + 1
                )));
            }
            text.push_str(&line);
            text.push('\n');
        }
        return check_text(text.as_bytes());
    }
    if is_row(&items[0])? {
        return check_matrix(&items);
    }
    let n = items.len();
    if n > MAX_READ_N as usize {
        return Err(BoardFormatError::new_err(format!(
            "a board of {n} rows is too large: at most {MAX_READ_N}"
        )));
    }
    let mut cols = Vec::with_capacity(n);
    for (row, item) in items.iter().enumerate() {
        if is_row(item)? {
            return Err(BoardFormatError::new_err(format!(
                "row {} is of type {}, not a column number like row 1: a board is a \
                 sequence of columns, or of rows of 0s and 1s",
                row + 1,
                item.get_type().name()?
            )));
        }
        // An int (`__index__`, numpy's too) off the board, or no column
        // at all (a bool is a slip, not column 0 or 1).
        let int = match item.extract::<i64>() {
            _ if item.is_instance_of::<PyBool>() => None,
            Ok(c) => Some(u32::try_from(c).ok().filter(|&c| (c as usize) < n)),
            Err(err) if err.is_instance_of::<PyOverflowError>(item.py()) => Some(None),
            Err(_) => None,
        };
        let col = match int {
            Some(Some(col)) => col,
            Some(None) => return Err(off_board(row, &item.repr()?.to_string(), n)),
            None => {
                return Err(BoardFormatError::new_err(format!(
                    "row {} holds {}, not a column number: a board of {n} rows has columns 0 to \
                     {}",
                    row + 1,
                    item.repr()?,
                    n - 1
                )));
            }
        };
        cols.push(col);
    }
    let conflict = queens::first_conflict_in_columns(&cols)
        .map_err(|e| BoardFormatError::new_err(e.to_string()))?;
    Ok(conflict.map(|c| Fault::Conflict(c.into())))
}

/// What `board.tolist()` gives, where `board` has such a method.
fn tolist<'py>(board: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    match board.getattr_opt("tolist")? {
        Some(method) if method.is_callable() => Ok(Some(method.call0()?)),
        _ => Ok(None),
    }
}

/// Whether `item` is a row of squares rather than a column number: a
/// sized sequence that is not a string (a list, a tuple, a 1-D array; not
/// numpy's scalars, which have `tolist` too).
fn is_row(item: &Bound<'_, PyAny>) -> PyResult<bool> {
    if item.is_instance_of::<PyString>() || item.is_instance_of::<PyBytes>() {
        return Ok(false);
    }
    Ok(item.hasattr("__len__")? && item.hasattr("__getitem__")?)
}

/// A 0/1 matrix: `rows`, each a sequence of 0s and 1s (bools too).
fn check_matrix(rows: &[Bound<'_, PyAny>]) -> PyResult<Option<Fault>> {
    let n = rows.len();
    if n > MAX_READ_N as usize {
        return Err(BoardFormatError::new_err(format!(
            "a board of {n} rows is too large: at most {MAX_READ_N}"
        )));
    }
    let mut queens = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let listed = tolist(row)?;
        let row = listed.as_ref().unwrap_or(row);
        let squares = row
            .try_iter()
            .map_err(|_| {
                BoardFormatError::new_err(format!(
                    "row {} is of type {}, not a row of squares like row 1: a 0/1 matrix is \
                     a sequence of rows of 0s and 1s",
                    r + 1,
                    row.get_type()
                        .name()
                        .map_or_else(|_| "?".into(), |n| n.to_string())
                ))
            })?
            .collect::<PyResult<Vec<_>>>()?;
        if squares.len() != n {
            return Err(BoardFormatError::new_err(format!(
                "row {} has {} squares, but the matrix has {n} rows: a board is square",
                r + 1,
                squares.len()
            )));
        }
        for (c, square) in squares.iter().enumerate() {
            let queen = match square.extract::<i64>() {
                Ok(1) => true,
                Ok(0) => false,
                _ => {
                    return Err(BoardFormatError::new_err(format!(
                        "row {}, column {} holds {}: a 0/1 matrix holds 0 (an empty square) \
                         and 1 (a queen)",
                        r + 1,
                        c + 1,
                        square.repr()?
                    )));
                }
            };
            if queen {
                queens.push(queens::Queen {
                    row: r as u32,
                    col: c as u32,
                });
            }
        }
    }
    let fault = queens::first_fault(n as u32, queens)
        .map_err(|e| BoardFormatError::new_err(e.to_string()))?;
    Ok(fault.map(Fault::from))
}

/// `BoardFormatError` for the column `col` (as the caller wrote it) that
/// row `row` (counted from 0) of a board of `n` columns holds. The message
/// counts rows from 1, as every message of the package and the command
/// line does, and shows the column as given, with the range a column
/// takes (from 0).
fn off_board(row: usize, col: &str, n: usize) -> PyErr {
    BoardFormatError::new_err(format!(
        "row {} has its queen in column {col}, off the board: a board of {n} rows has columns \
         0 to {}",
        row + 1,
        n - 1
    ))
}

/// The one board of `text`, checked.
fn check_text(text: &[u8]) -> PyResult<Option<Fault>> {
    let refuse = |err: ReadError| BoardFormatError::new_err(err.to_string());
    let mut boards = queens::Boards::new(text);
    let first = boards
        .next()
        .ok_or_else(|| refuse(ReadError::Empty))?
        .map_err(refuse)?;
    match boards.next() {
        None => Ok(first.fault().map(Fault::from)),
        Some(Err(err)) => Err(refuse(err)),
        Some(Ok(second)) => Err(BoardFormatError::new_err(format!(
            "the text holds more than one board (another starts on line {}): check takes one; \
             iterate to check several",
            second.line
        ))),
    }
}
