//! `one(n)`: a solution for any n up to a billion, by formula, as a lazy
//! sequence of columns.
//!
//! The library's [`queens::Construction`] gives the column of any row in
//! O(1), so the board is never stored: `one(10**9)[k]` is instant and a
//! walk over it runs in constant memory (a tuple of 10^9 Python ints was
//! 24 GB, issue 33). A [`Construction`] is a view, `start + k * step` for
//! `k` in `0..len`, so a slice is one too.

use pyo3::exceptions::{PyIndexError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PySlice, PyTuple};
use queens::{MAX_N, MAX_READ_N};

use crate::errors::{BoardSizeError, board_size, to_py};
use crate::form::Form;
use crate::problem::Constraints;

/// The largest board ``one`` draws square by square (``format="leetcode"``
/// or ``"board"``): 10^8 characters, about 100 MB. The command line stops
/// at 1,000, for a screen; here the bound is memory.
const MAX_DRAWN: u32 = 10_000;

/// Longest run of columns a repr shows before it elides the middle.
const REPR_COLUMNS: u64 = 16;

/// One solution of the n-board, built by formula: a sequence of the
/// rows' queen columns (from 0), each computed when it is asked for.
///
/// Made by ``queens.one(n)``. It is a ``collections.abc.Sequence`` of
/// ints: ``len``, indexing, slicing (another lazy sequence), iteration,
/// ``in``; it equals the tuple of the same columns and hashes as it does.
/// ``bytes(board)`` is the columns as native-endian 32-bit unsigned ints,
/// for ``numpy.frombuffer(bytes(board), dtype=numpy.uint32)``, and
/// ``tuple(board)`` or ``list(board)`` makes them all at once.
#[pyclass(module = "queens", frozen, sequence)]
#[derive(Clone)]
pub struct Construction {
    board: queens::Construction,
    start: i64,
    step: i64,
    len: i64,
}

impl Construction {
    /// The column of the view's `k`-th entry, `k` in `0..len`.
    fn at(&self, k: i64) -> u32 {
        let row = self.start + k * self.step;
        self.board
            .column(u32::try_from(row).expect("a row of the board"))
    }

    /// Whether this is the whole board, in order.
    fn is_whole(&self) -> bool {
        self.start == 0 && self.step == 1 && self.len == i64::from(self.board.n())
    }

    /// The entries, all at once.
    pub fn to_vec(&self) -> Vec<u32> {
        self.columns().collect()
    }

    /// The entries, in order.
    fn columns(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len).map(|k| self.at(k))
    }

    /// CPython's hash of the tuple of these columns (Objects/tupleobject.c,
    /// xxHash-based since 3.8; a small int hashes to itself).
    fn tuple_hash(&self) -> isize {
        const PRIME_1: u64 = 11_400_714_785_074_694_791;
        const PRIME_2: u64 = 14_029_467_366_897_019_727;
        const PRIME_5: u64 = 2_870_177_450_012_600_261;
        let mut acc = PRIME_5;
        for column in self.columns() {
            acc = acc.wrapping_add(u64::from(column).wrapping_mul(PRIME_2));
            acc = acc.rotate_left(31);
            acc = acc.wrapping_mul(PRIME_1);
        }
        acc = acc.wrapping_add(self.len as u64 ^ (PRIME_5 ^ 3_527_539));
        if acc == u64::MAX {
            return 1_546_275_796;
        }
        acc as isize
    }

    /// The index of the first entry equal to `value`, if any.
    fn find(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> Option<i64> {
        let value = value.extract::<i64>().ok()?;
        let column = u32::try_from(value).ok()?;
        if column >= self.board.n() {
            return None;
        }
        py.detach(|| (0..self.len).find(|&k| self.at(k) == column))
    }
}

#[pymethods]
impl Construction {
    /// The board size.
    #[getter]
    fn n(&self) -> u32 {
        self.board.n()
    }

    fn __len__(&self) -> usize {
        self.len as usize
    }

    fn __getitem__<'py>(&self, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = key.py();
        if let Ok(slice) = key.cast::<PySlice>() {
            let part = slice.indices(self.len as isize)?;
            let view = Self {
                board: self.board.clone(),
                start: self.start + part.start as i64 * self.step,
                step: self.step * part.step as i64,
                len: part.slicelength as i64,
            };
            return Ok(Bound::new(py, view)?.into_any());
        }
        let out_of_range = || PyIndexError::new_err("board index out of range");
        let index = match key.extract::<i64>() {
            Ok(i) => i,
            Err(err) if err.is_instance_of::<PyOverflowError>(py) => return Err(out_of_range()),
            Err(_) => {
                let kind = key.get_type().name()?;
                return Err(PyTypeError::new_err(format!(
                    "board indices must be integers or slices, not {kind}"
                )));
            }
        };
        let k = if index < 0 { index + self.len } else { index };
        if !(0..self.len).contains(&k) {
            return Err(out_of_range());
        }
        Ok(self.at(k).into_pyobject(py)?.into_any())
    }

    fn __iter__(&self) -> Columns {
        Columns {
            view: self.clone(),
            next: 0,
        }
    }

    fn __reversed__(&self) -> Columns {
        let last = self.start + (self.len - 1) * self.step;
        Columns {
            view: Self {
                start: if self.len == 0 { self.start } else { last },
                step: -self.step,
                ..self.clone()
            },
            next: 0,
        }
    }

    fn __contains__(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> bool {
        self.find(py, value).is_some()
    }

    /// The index of ``value`` (``ValueError`` when it is not there).
    #[pyo3(signature = (value, /))]
    fn index(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<i64> {
        self.find(py, value)
            .ok_or_else(|| PyValueError::new_err(format!("{value} is not in the board")))
    }

    /// How many times ``value`` occurs: 1 or 0, as the columns are distinct.
    #[pyo3(signature = (value, /))]
    fn count(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> usize {
        usize::from(self.find(py, value).is_some())
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if let Ok(other) = other.cast::<Self>() {
            let other = other.get();
            let same = self.len == other.len && py.detach(|| self.columns().eq(other.columns()));
            return Ok(PyBool::new(py, same).to_owned().into_any().unbind());
        }
        let Ok(tuple) = other.cast::<PyTuple>() else {
            return Ok(py.NotImplemented());
        };
        let same = tuple.len() as i64 == self.len
            && tuple
                .iter()
                .zip(self.columns())
                .all(|(item, column)| item.eq(column).unwrap_or(false));
        Ok(PyBool::new(py, same).to_owned().into_any().unbind())
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        if cfg!(target_pointer_width = "64") {
            return Ok(py.detach(|| self.tuple_hash()));
        }
        PyTuple::new(py, self.columns().collect::<Vec<_>>())?.hash()
    }

    fn __bytes__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let len = self.len as usize * 4;
        PyBytes::new_with(py, len, |buf| {
            for (chunk, column) in buf.chunks_exact_mut(4).zip(self.columns()) {
                chunk.copy_from_slice(&column.to_ne_bytes());
            }
            Ok(())
        })
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let module = py.import("queens._queens")?;
        let whole = (
            module.getattr("one")?,
            (self.board.n(),).into_pyobject(py)?.into_any(),
        );
        if self.is_whole() {
            return Ok((whole.0, whole.1.cast_into()?));
        }
        let full = whole.0.call1((self.board.n(),))?;
        // An empty view may start off the board: any empty slice will do.
        let (start, step) = if self.len == 0 {
            (0, 1)
        } else {
            (self.start, self.step)
        };
        let stop = start + self.len * step;
        let stop = (stop >= 0).then_some(stop);
        let slice = py.get_type::<PySlice>().call1((start, stop, step))?;
        let getitem = py.import("operator")?.getattr("getitem")?;
        Ok((getitem, (full, slice).into_pyobject(py)?))
    }

    fn __repr__(&self) -> String {
        let show = |k: i64| self.at(k).to_string();
        let columns: Vec<String> = if self.len as u64 <= REPR_COLUMNS {
            (0..self.len).map(show).collect()
        } else {
            let head = (REPR_COLUMNS - 4) as i64;
            (0..head)
                .map(show)
                .chain(std::iter::once("...".to_owned()))
                .chain((self.len - 3..self.len).map(show))
                .collect()
        };
        let comma = if self.len == 1 { "," } else { "" };
        let whole = if self.is_whole() {
            String::new()
        } else {
            format!(", {} of its columns", self.len)
        };
        format!(
            "<queens.Construction of the {}-board{whole}: ({}{comma})>",
            self.board.n(),
            columns.join(", ")
        )
    }
}

/// The columns of a [`Construction`], one at a time.
#[pyclass(module = "queens")]
pub struct Columns {
    view: Construction,
    next: i64,
}

#[pymethods]
impl Columns {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> Option<u32> {
        (self.next < self.view.len).then(|| {
            self.next += 1;
            self.view.at(self.next - 1)
        })
    }

    fn __length_hint__(&self) -> usize {
        (self.view.len - self.next) as usize
    }
}

/// One solution of the n-board (1 <= n <= 10^9), built by formula rather
/// than searched, so it is instant for any n: a lazy sequence of the rows'
/// columns (a ``Construction``: indexing, slicing, iteration, equal to the
/// tuple of its columns), computed as they are asked for, so
/// ``one(10**9)[k]`` is instant and ``for c in one(10**9)`` runs in
/// constant memory. Raises ``NoSolutionError`` for n = 2 and 3, which have
/// none.
///
/// ``format="leetcode"`` returns the list of row strings and
/// ``format="board"`` one string, a line a row; they draw every square, so
/// they take n up to 10,000.
///
/// ``given`` (a dict ``{row: column}`` or ``(row, column)`` pairs) and
/// ``blocked`` (pairs), counted from 0, make it a search, as
/// ``Problem(n, given, blocked).one()`` is: the first completion in
/// lexicographic order (a tuple of columns, or in ``format``), or
/// ``None`` when there is none, n = 2 and 3 included; n up to 32. The
/// search releases the GIL and Ctrl-C stops it; with no completion it
/// searches everything, which on a large board can take long.
///
/// >>> queens.one(8) == (1, 3, 5, 7, 2, 0, 6, 4)
/// True
/// >>> queens.one(10**9)[-1]
/// 999999998
/// >>> queens.one(8, given={0: 0})
/// (0, 4, 7, 5, 2, 6, 1, 3)
/// >>> queens.one(8, given={0: 0, 2: 2}) is None
/// True
#[pyfunction]
#[pyo3(signature = (n, *, given = None, blocked = None, format = None))]
pub fn one<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    given: Option<&Bound<'py, PyAny>>,
    blocked: Option<&Bound<'py, PyAny>>,
    format: Option<&str>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let constraints = Constraints::new(given, blocked);
    if constraints.any() {
        let n = board_size(n, "one with given= or blocked=", MAX_N)?;
        let form = Form::parse(format)?;
        let problem = constraints.problem(n)?;
        let found = crate::problem::first_completion(py, &problem)?;
        return found.map(|cols| form.render(py, &cols)).transpose();
    }
    let n = board_size(n, "one", MAX_READ_N)?;
    let form = Form::parse(format)?;
    let board = queens::Construction::new(n).map_err(to_py)?;
    if form == Form::Columns {
        let view = Construction {
            board,
            start: 0,
            step: 1,
            len: i64::from(n),
        };
        return Ok(Some(Bound::new(py, view)?.into_any()));
    }
    if n > MAX_DRAWN {
        return Err(BoardSizeError::new_err(format!(
            "board size {n} is out of range: format '{}' draws all n x n squares and takes n up \
             to {MAX_DRAWN}; for more, use the default format (columns)",
            format.unwrap_or_default()
        )));
    }
    let cols: Vec<u32> = board.collect();
    form.render(py, &cols).map(Some)
}
