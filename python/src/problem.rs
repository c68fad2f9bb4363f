//! `Problem`: a board with queens given and squares blocked (the library's
//! [`queens::Problem`]), its completions counted, found and listed; and
//! the same for the module's `count`, `solutions` and `one` when they are
//! given `given=` or `blocked=` ([`Constraints`]). A count and a search
//! run on a thread of their own, which Ctrl-C stops ([`interruptible`]).
//!
//! Rows and columns are counted from 0, as everywhere in the package; the
//! library's own messages count from 1 (as the command line does), so the
//! errors of the constraints are phrased here again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use queens::{MAX_N, Square};

use crate::errors::{InputError, QueensError, board_size, to_py};
use crate::pool;

/// How long the calling thread naps between two looks for Ctrl-C.
const NAP: Duration = Duration::from_millis(50);

/// An n-queens problem: an ``n`` x ``n`` board whose solutions must hold
/// the ``given`` queens and leave the ``blocked`` squares empty (the
/// n-Queens Completion and Blocked n-Queens problems).
///
/// ``given`` is a dict ``{row: column}`` or pairs ``(row, column)``;
/// ``blocked`` is pairs. Rows and columns count from 0. A square off the
/// board (however large its ints), two given queens in one row, or a given
/// queen on a blocked square raise ``InputError``; another shape (a string
/// such as the command line's ``"1:1"``) raises ``TypeError``. Given queens
/// that attack each other make a problem without completion (``conflict``
/// names them, ``count()`` is 0). A problem pickles.
///
/// >>> p = queens.Problem(8, given={0: 0})
/// >>> p.count()
/// 4
/// >>> p.one()
/// (0, 4, 7, 5, 2, 6, 1, 3)
/// >>> p.symmetries
/// ('identity', 'transpose')
/// >>> queens.Problem(8).count_classes()
/// 12
#[pyclass(module = "queens", frozen, eq, hash)]
#[derive(PartialEq, Eq, Hash)]
pub struct Problem {
    inner: queens::Problem,
}

/// The squares `value` names on an `n`-board (`what`: `given` or
/// `blocked`; `noun`: what one of them is, for messages): a dict `{row:
/// column}` or an iterable of `(row, column)` pairs, or `None` for none.
/// A square off the board is an `InputError` naming it as the caller wrote
/// it, whatever the size of its ints (`{10**30: 0}` too); a value of
/// another shape, a string included, is a `TypeError` that quotes it.
fn squares(
    value: Option<&Bound<'_, PyAny>>,
    n: u32,
    what: &str,
    noun: &str,
) -> PyResult<Vec<Square>> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let shape = format!("{what} must be a dict {{row: column}} or (row, column) pairs");
    // A string iterates as its characters: `given="1:1"` would be refused
    // as its first character, `'1'`, never as what the caller wrote.
    if value.is_instance_of::<PyString>() || value.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "{shape}, counted from 0, not the string {}",
            value.repr()?
        )));
    }
    let mut pairs: Vec<(Bound<'_, PyAny>, Bound<'_, PyAny>)> = Vec::new();
    if let Ok(dict) = value.cast::<PyDict>() {
        pairs.extend(dict.iter());
    } else {
        let Ok(items) = value.try_iter() else {
            return Err(PyTypeError::new_err(format!(
                "{shape}, not {}",
                value.repr()?
            )));
        };
        for item in items {
            let item = item?;
            let Ok(pair) = item.extract() else {
                return Err(PyTypeError::new_err(format!(
                    "{what}: {} is not a (row, column) pair",
                    item.repr()?
                )));
            };
            pairs.push(pair);
        }
    }
    pairs
        .iter()
        .map(
            |(row, col)| match (coordinate(row, noun)?, coordinate(col, noun)?) {
                (Some(r), Some(c)) if r < n && c < n => Ok(Square::new(r, c)),
                _ => Err(InputError::new_err(format!(
                    "{noun} ({}, {}) is off the board: rows and columns run from 0 to {}",
                    row.repr()?,
                    col.repr()?,
                    n - 1
                ))),
            },
        )
        .collect()
}

/// A row or column the caller gave: `None` for an int that is on no
/// board (negative, or past `u32`: `10**30` raises no `OverflowError`), a
/// `TypeError` for a value that is no int.
fn coordinate(value: &Bound<'_, PyAny>, noun: &str) -> PyResult<Option<u32>> {
    match value.extract::<i64>() {
        Ok(x) => Ok(u32::try_from(x).ok()),
        Err(err) if err.is_instance_of::<PyOverflowError>(value.py()) => Ok(None),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{noun}: {} is not an int (a row or a column)",
            value.repr()?
        ))),
    }
}

fn pair(square: Square) -> (u32, u32) {
    (square.row, square.col)
}

/// The problem of the `n`-board with the queens `given` and the squares
/// `blocked` (each a dict `{row: column}` or pairs, or `None`), refused in
/// the package's words, counted from 0.
pub fn build(
    n: u32,
    given: Option<&Bound<'_, PyAny>>,
    blocked: Option<&Bound<'_, PyAny>>,
) -> PyResult<queens::Problem> {
    let given = squares(given, n, "given", "given queen")?;
    let blocked = squares(blocked, n, "blocked", "blocked square")?;
    let mut rows = given.clone();
    rows.sort_unstable();
    // See: issue 47, item 16 (a square given twice was "two queens sharing a row").
    if let Some(two) = rows.windows(2).find(|two| two[0] == two[1]) {
        return Err(InputError::new_err(format!(
            "given queen ({}, {}) is given twice: name each given queen once",
            two[0].row, two[0].col
        )));
    }
    if let Some(two) = rows.windows(2).find(|two| two[0].row == two[1].row) {
        return Err(InputError::new_err(format!(
            "given queens ({0}, {1}) and ({0}, {2}) share row {0}: one queen a row",
            two[0].row, two[0].col, two[1].col
        )));
    }
    if let Some(q) = given.iter().find(|q| blocked.contains(q)) {
        return Err(InputError::new_err(format!(
            "given queen ({}, {}) is on a blocked square",
            q.row, q.col
        )));
    }
    queens::Problem::new(n, given, blocked).map_err(to_py)
}

/// `given=` and `blocked=` of the module's `count`, `solutions` and `one`:
/// with either, they work on the problem these make instead of the empty
/// board.
pub struct Constraints<'a, 'py> {
    given: Option<&'a Bound<'py, PyAny>>,
    blocked: Option<&'a Bound<'py, PyAny>>,
}

impl<'a, 'py> Constraints<'a, 'py> {
    pub fn new(
        given: Option<&'a Bound<'py, PyAny>>,
        blocked: Option<&'a Bound<'py, PyAny>>,
    ) -> Self {
        Self { given, blocked }
    }

    /// Whether either is given (even empty).
    pub fn any(&self) -> bool {
        self.given.is_some() || self.blocked.is_some()
    }

    /// The arguments given, as a message names them.
    fn named(&self) -> &'static str {
        match (self.given.is_some(), self.blocked.is_some()) {
            (true, true) => "given= and blocked=",
            (true, false) => "given=",
            _ => "blocked=",
        }
    }

    /// `InputError` for the argument `what`, which does not go with these:
    /// `why`.
    pub fn refuse(&self, what: &str, why: &str) -> PyErr {
        InputError::new_err(format!("{what} does not go with {}: {why}", self.named()))
    }

    /// The problem of the `n`-board they make.
    pub fn problem(&self, n: u32) -> PyResult<queens::Problem> {
        build(n, self.given, self.blocked)
    }
}

/// `work`, given a stop flag, on a thread of its own with the GIL
/// released; the calling thread naps and looks for Ctrl-C between naps,
/// and sets the flag on one, then raises `KeyboardInterrupt` once `work`
/// has stopped. `work` returns `None` only when the flag stopped it.
fn interruptible<T: Send>(
    py: Python<'_>,
    what: &str,
    work: impl FnOnce(&AtomicBool) -> Option<T> + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let waiter = thread::current();
    let done = AtomicBool::new(false);
    thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let result = work(&stop);
            done.store(true, Ordering::Release);
            waiter.unpark();
            result
        });
        let mut stopped = None;
        while !done.load(Ordering::Acquire) {
            py.detach(|| thread::park_timeout(NAP));
            if stopped.is_none()
                && let Err(err) = py.check_signals()
            {
                stop.store(true, Ordering::Relaxed);
                stopped = Some(err);
            }
        }
        let result = py.detach(|| worker.join()).map_err(|_| {
            QueensError::new_err(format!(
                "internal error: the {what}'s thread panicked (please report it)"
            ))
        })?;
        match (stopped, result) {
            (Some(err), _) => Err(err),
            (None, Some(result)) => Ok(result),
            (None, None) => Err(QueensError::new_err(format!(
                "internal error: a {what} stopped unasked"
            ))),
        }
    })
}

/// The completions of `problem`, counted on `threads` threads (the
/// package's pool for `None`) with the GIL released; Ctrl-C stops it.
pub fn count(py: Python<'_>, problem: &queens::Problem, threads: Option<i64>) -> PyResult<u128> {
    let threads = threads.map(crate::runner::thread_count).transpose()?;
    let pool = pool::for_call(py, threads)?;
    interruptible(py, "count", |stop| {
        pool.install(|| problem.count_until(stop))
    })
}

/// The first completion of `problem` in lexicographic order, or `None`:
/// a search on a thread of its own with the GIL released, which Ctrl-C
/// stops.
pub fn first_completion(py: Python<'_>, problem: &queens::Problem) -> PyResult<Option<Vec<u32>>> {
    interruptible(py, "search", |stop| {
        let mut found = None;
        problem.for_each_completion_until(stop, |board| {
            found = Some(board.to_vec());
            false
        });
        // Found, or searched to the end; `None` only when stopped.
        match found {
            Some(board) => Some(Some(board)),
            None if stop.load(Ordering::Relaxed) => None,
            None => Some(None),
        }
    })
}

/// `Problem(8, given={0: 0}, blocked=[(1, 2)])`, as it is built again.
pub fn repr(problem: &queens::Problem) -> String {
    let given: Vec<String> = (problem.given().iter())
        .map(|q| format!("{}: {}", q.row, q.col))
        .collect();
    let blocked: Vec<String> = (problem.blocked().iter())
        .map(|s| format!("({}, {})", s.row, s.col))
        .collect();
    format!(
        "Problem({}, given={{{}}}, blocked=[{}])",
        problem.n(),
        given.join(", "),
        blocked.join(", ")
    )
}

#[pymethods]
impl Problem {
    #[new]
    #[pyo3(signature = (n, given = None, blocked = None))]
    fn new(
        n: &Bound<'_, PyAny>,
        given: Option<&Bound<'_, PyAny>>,
        blocked: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let n = board_size(n, "a problem", MAX_N)?;
        Ok(Self {
            inner: build(n, given, blocked)?,
        })
    }

    /// A problem read from a partial board: a line a row, ``Q`` for a
    /// given queen, ``x`` for a blocked square, ``.`` for a free one;
    /// blank lines and ``#`` comments skipped.
    ///
    /// >>> print(queens.Problem.from_board(".Q..\nx...\n....\n....\n").count())
    /// 1
    #[staticmethod]
    fn from_board(text: &str) -> PyResult<Self> {
        let inner = queens::Problem::from_board(text)
            .map_err(|err| crate::errors::BoardFormatError::new_err(err.to_string()))?;
        Ok(Self { inner })
    }

    /// The board size.
    #[getter]
    fn n(&self) -> u32 {
        self.inner.n()
    }

    /// The given queens as a dict ``{row: column}``.
    #[getter]
    fn given<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for q in self.inner.given() {
            dict.set_item(q.row, q.col)?;
        }
        Ok(dict)
    }

    /// The blocked squares as sorted ``(row, column)`` pairs.
    #[getter]
    fn blocked(&self) -> Vec<(u32, u32)> {
        self.inner.blocked().iter().copied().map(pair).collect()
    }

    /// The symmetries of the square that map the problem onto itself (its
    /// given queens onto given queens, its blocked squares onto blocked
    /// ones), by name: all eight for an empty board, ``('identity',)`` in
    /// general.
    #[getter]
    fn symmetries<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let names: Vec<String> = self
            .inner
            .symmetries()
            .iter()
            .map(ToString::to_string)
            .collect();
        PyTuple::new(py, names)
    }

    /// The first two given queens that attack each other, as a pair of
    /// ``(row, column)`` pairs, or ``None``.
    #[getter]
    fn conflict(&self) -> Option<((u32, u32), (u32, u32))> {
        self.inner.conflict().map(|(a, b)| (pair(a), pair(b)))
    }

    /// The number of completions: the solutions that hold every given
    /// queen and no queen on a blocked square. Counted with the GIL
    /// released, on ``threads`` threads (by default the package's pool);
    /// Ctrl-C stops it.
    #[pyo3(signature = (*, threads = None))]
    fn count(&self, py: Python<'_>, threads: Option<i64>) -> PyResult<u128> {
        count(py, &self.inner, threads)
    }

    /// The completions up to the problem's own symmetries: each class of
    /// completions that ``symmetries`` maps onto each other counted once
    /// (OEIS A002562 for an empty board). Lists every completion: for
    /// small boards.
    fn count_classes(&self, py: Python<'_>) -> u128 {
        py.detach(|| self.inner.count_classes())
    }

    /// The first completion in lexicographic order as a tuple of each
    /// row's column, or ``None`` when there is none. A search, not a
    /// formula: on a large, tightly constrained board it may take time;
    /// it releases the GIL, and Ctrl-C stops it.
    fn one<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let found = first_completion(py, &self.inner)?;
        found.map(|board| PyTuple::new(py, board)).transpose()
    }

    /// Every completion, in lexicographic order, as tuples; at most
    /// ``limit`` of them when given.
    #[pyo3(signature = (*, limit = None))]
    fn solutions<'py>(
        &self,
        py: Python<'py>,
        limit: Option<usize>,
    ) -> PyResult<Bound<'py, PyList>> {
        let limit = limit.unwrap_or(usize::MAX);
        let boards = py.detach(|| {
            let mut boards = Vec::new();
            if limit > 0 {
                self.inner.for_each_completion(|board| {
                    boards.push(board.to_vec());
                    boards.len() < limit
                });
            }
            boards
        });
        let tuples = boards
            .into_iter()
            .map(|board| PyTuple::new(py, board))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, tuples)
    }

    /// The partial board: ``Q`` given, ``x`` blocked, ``.`` free.
    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        repr(&self.inner)
    }

    /// Pickles as the arguments that build it again, so that a problem
    /// crosses to a `multiprocessing` worker as the package's results do.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let this = slf.get();
        let args = (this.n(), this.given(slf.py())?, this.blocked());
        Ok((slf.get_type().into_any(), args.into_pyobject(slf.py())?))
    }
}

impl From<queens::Problem> for Problem {
    fn from(inner: queens::Problem) -> Self {
        Self { inner }
    }
}
