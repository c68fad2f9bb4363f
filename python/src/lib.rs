//! The Python package `queens`: the library's counts, boards and plans as
//! Python functions, built by maturin into `queens/_queens.abi3.so`.
//!
//! Everything here translates: Python values in, the library's calls, Python
//! values out, the library's errors as the exceptions of
//! `queens/_errors.py`. Nothing counts or checks a board on its own.
//!
//! The `queens` command the wheel installs runs the binary's command line,
//! the `queens-cli` crate ([`command`]).

mod boards;
mod command;
mod construction;
mod errors;
mod files;
mod form;
mod plan;
mod pool;
mod problem;
mod runner;

use std::path::PathBuf;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use queens::{Engine, MAX_N};

use crate::errors::{board_size, to_py};
use crate::problem::Constraints;
use crate::runner::Request;

/// The solutions of the n-queens puzzle on an n x n board (OEIS A000170),
/// counted on every core with the GIL released.
///
/// ``engine`` is ``"join"``, ``"mirror"`` or ``"constellations"`` (by
/// default the fastest for n); ``threads`` the number of threads (by
/// default the package's pool, one per core, rebuilt in a forked child).
/// ``progress``, if given, is called as ``progress(units_done,
/// units_total, solutions_so_far)`` at most four times a second on the
/// calling thread, and once more at the end.
/// Ctrl-C (``KeyboardInterrupt``) stops a count in about a second or less
/// (the units under way stop at their next piece; the join's run whole,
/// seconds to minutes each past n = 24) and raises, with no thread of the
/// count left running; an exception
/// raised by ``progress`` stops it the same way.
///
/// With ``unique=True`` the result is a ``UniqueCount``: the total, the
/// essentially different solutions (OEIS A002562) and the classes by size.
///
/// ``checkpoint="n22.journal"`` keeps every finished unit in that journal
/// and resumes from it: after Ctrl-C, a kill or a reboot, call the same
/// count again. ``shard=(i, k)`` counts shard i of k of the plan and writes
/// ``out_dir/shard-IIII-of-KKKK.json`` (``out_dir`` defaults to ``"."``),
/// with a journal beside it, and returns its subtotal: the same files as
/// ``queens count N --shard I/K``; ``merge(out_dir)`` puts the shards
/// together.
///
/// A count that would need more memory than the machine has available
/// (the command line's limit; ``QUEENS_MEMORY_LIMIT`` sets it in bytes,
/// ``none`` lifts it) raises ``MemoryLimitError`` before it starts.
///
/// ``given`` (a dict ``{row: column}`` or ``(row, column)`` pairs) and
/// ``blocked`` (pairs), counted from 0, count the completions instead:
/// the solutions that hold every given queen and no queen on a blocked
/// square, as ``Problem(n, given, blocked).count()`` does (the GIL
/// released, Ctrl-C honoured, on ``threads`` threads). Either, even
/// empty, makes the count a problem's, which ``engine`` and ``unique`` do
/// not go with (``InputError``). With ``checkpoint``, ``shard`` or
/// ``progress`` a problem is counted through its plan, as ``queens count
/// N --given ...`` counts it: the same journal and shard files, the
/// problem named in them.
///
/// >>> queens.count(8)
/// 92
/// >>> queens.count(8, unique=True).unique
/// 12
/// >>> queens.count(8, given={0: 0})
/// 4
/// >>> queens.count(10, blocked=[(0, 0), (0, 9)])
/// 596
#[pyfunction]
#[pyo3(signature = (
    n, *, given = None, blocked = None, engine = None, threads = None, unique = false,
    progress = None, checkpoint = None, shard = None, out_dir = None
))]
#[allow(clippy::too_many_arguments)]
fn count<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    given: Option<&Bound<'py, PyAny>>,
    blocked: Option<&Bound<'py, PyAny>>,
    engine: Option<&str>,
    threads: Option<i64>,
    unique: bool,
    progress: Option<&Bound<'py, PyAny>>,
    checkpoint: Option<PathBuf>,
    shard: Option<(i64, i64)>,
    out_dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let n = board_size(n, "count", MAX_N)?;
    let constraints = Constraints::new(given, blocked);
    if constraints.any() {
        let refusals = [
            (
                engine.is_some(),
                "engine=",
                "a problem is counted by its own search, not by an engine",
            ),
            (
                unique,
                "unique=True",
                "use Problem(n, given, blocked).count_classes() for the completions up to the \
                 problem's own symmetries",
            ),
        ];
        if let Some((_, what, why)) = refusals.into_iter().find(|(asked, ..)| *asked) {
            return Err(constraints.refuse(what, why));
        }
        let problem = constraints.problem(n)?;
        let files = files::requested(checkpoint, shard, out_dir, false)?;
        if matches!(files, runner::Files::None) && progress.is_none() {
            let count = problem::count(py, &problem, threads)?;
            return Ok(count.into_pyobject(py)?.into_any());
        }
        // A journal, a shard or progress: the problem's plan, run as the
        // command line's `count N --given ...` runs it, with its files.
        let mut request = Request::new(n, None, threads)?;
        request.files = files;
        request.problem = Some(problem);
        let count = runner::run(py, &request, callable(progress)?)?;
        return Ok(count.solutions.into_pyobject(py)?.into_any());
    }
    let mut request = Request::new(n, engine, threads)?;
    request.files = files::requested(checkpoint, shard, out_dir, unique)?;
    let count = runner::run(py, &request, callable(progress)?)?;
    if !unique {
        return Ok(count.solutions.into_pyobject(py)?.into_any());
    }
    let classes = py
        .detach(|| queens::unique(n, count.solutions))
        .map_err(to_py)?;
    Ok(Bound::new(py, UniqueCount::from(classes))?.into_any())
}

/// `progress`, refused unless it is callable.
fn callable<'a, 'py>(
    progress: Option<&'a Bound<'py, PyAny>>,
) -> PyResult<Option<&'a Bound<'py, PyAny>>> {
    match progress {
        Some(p) if !p.is_callable() => {
            let kind = p.get_type().name()?;
            Err(PyTypeError::new_err(format!(
                "progress must be callable as progress(units_done, units_total, \
                 solutions_so_far), not {kind}"
            )))
        }
        _ => Ok(progress),
    }
}

/// What ``count(n, unique=True)`` returns: the total and the essentially
/// different solutions, with the symmetric ones that tell them apart.
///
/// Immutable, hashable and picklable; ``_asdict()`` gives the fields.
#[pyclass(module = "queens", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct UniqueCount {
    /// Every solution (OEIS A000170).
    #[pyo3(get)]
    total: u128,
    /// The essentially different solutions, up to rotation and reflection
    /// (OEIS A002562).
    #[pyo3(get)]
    unique: u128,
    /// Solutions unchanged by a half turn.
    #[pyo3(get)]
    half_turn: u128,
    /// Solutions unchanged by a quarter turn.
    #[pyo3(get)]
    quarter_turn: u128,
    orbits: [u128; 3],
}

#[pymethods]
impl UniqueCount {
    #[classattr]
    fn __match_args__() -> (
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
    ) {
        ("total", "unique", "half_turn", "quarter_turn", "classes")
    }

    /// The fields as a dict, ``classes`` as a dict too.
    fn _asdict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("total", self.total)?;
        dict.set_item("unique", self.unique)?;
        dict.set_item("half_turn", self.half_turn)?;
        dict.set_item("quarter_turn", self.quarter_turn)?;
        dict.set_item("classes", self.classes(py)?)?;
        Ok(dict)
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("queens._queens")?.getattr("_unique_count")?;
        let args = (
            self.total,
            self.unique,
            self.half_turn,
            self.quarter_turn,
            self.orbits,
        );
        Ok((rebuild, args.into_pyobject(py)?))
    }

    /// The classes by size: ``{8: ..., 4: ..., 2: ...}``, how many classes
    /// hold 8 boards (no symmetry), 4 (half-turn symmetric) and 2
    /// (quarter-turn symmetric; n = 1's single board is counted here).
    #[getter]
    fn classes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let classes = PyDict::new(py);
        for (size, number) in [8, 4, 2].into_iter().zip(self.orbits) {
            classes.set_item(size, number)?;
        }
        Ok(classes)
    }

    fn __repr__(&self) -> String {
        format!(
            "UniqueCount(total={}, unique={}, half_turn={}, quarter_turn={}, classes={{8: {}, 4: \
             {}, 2: {}}})",
            self.total,
            self.unique,
            self.half_turn,
            self.quarter_turn,
            self.orbits[0],
            self.orbits[1],
            self.orbits[2]
        )
    }
}

/// A `UniqueCount` rebuilt from its pickle (what
/// ``UniqueCount.__reduce__`` names).
#[pyfunction]
fn _unique_count(
    total: u128,
    unique: u128,
    half_turn: u128,
    quarter_turn: u128,
    orbits: [u128; 3],
) -> UniqueCount {
    UniqueCount {
        total,
        unique,
        half_turn,
        quarter_turn,
        orbits,
    }
}

impl From<queens::Unique> for UniqueCount {
    fn from(u: queens::Unique) -> Self {
        Self {
            total: u.total,
            unique: u.unique,
            half_turn: u.half_turn,
            quarter_turn: u.quarter_turn,
            orbits: [
                u.classes.none,
                u.classes.rotation_180,
                u.classes.rotation_90,
            ],
        }
    }
}

/// The published number of solutions of the n-board (OEIS A000170), or
/// ``None`` past the last published value (n = 27).
///
/// >>> queens.known_total(8)
/// 92
#[pyfunction]
fn known_total(n: &Bound<'_, PyAny>) -> PyResult<Option<u128>> {
    Ok(published(n)?.and_then(queens::known::total))
}

/// The published number of essentially different solutions of the
/// n-board (OEIS A002562), or ``None`` past the last published value.
///
/// >>> queens.known_unique(8)
/// 12
#[pyfunction]
fn known_unique(n: &Bound<'_, PyAny>) -> PyResult<Option<u128>> {
    Ok(published(n)?.and_then(queens::known::unique))
}

/// `n` as a board size to look up: `None` (nothing published) for an int
/// that is no `u32`, a `TypeError` for what is no int.
fn published(n: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
    Ok(errors::int(n)?.and_then(|n| u32::try_from(n).ok()))
}

#[pymodule]
fn _queens(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(plan::count_units, m)?)?;
    m.add_function(wrap_pyfunction!(files::merge, m)?)?;
    m.add_function(wrap_pyfunction!(boards::solutions, m)?)?;
    m.add_function(wrap_pyfunction!(construction::one, m)?)?;
    m.add_function(wrap_pyfunction!(boards::check, m)?)?;
    m.add_function(wrap_pyfunction!(plan::plan, m)?)?;
    m.add_function(wrap_pyfunction!(known_total, m)?)?;
    m.add_function(wrap_pyfunction!(known_unique, m)?)?;
    m.add_function(wrap_pyfunction!(_unique_count, m)?)?;
    m.add_function(wrap_pyfunction!(boards::_conflict, m)?)?;
    m.add_function(wrap_pyfunction!(boards::_empty_row, m)?)?;
    m.add_function(wrap_pyfunction!(plan::_unit, m)?)?;
    m.add_function(wrap_pyfunction!(plan::_plan, m)?)?;
    m.add_function(wrap_pyfunction!(command::_main, m)?)?;
    m.add_class::<UniqueCount>()?;
    m.add_class::<boards::Solutions>()?;
    m.add_class::<boards::Conflict>()?;
    m.add_class::<boards::EmptyRow>()?;
    m.add_class::<construction::Construction>()?;
    m.add_class::<plan::Plan>()?;
    m.add_class::<plan::Unit>()?;
    m.add_class::<problem::Problem>()?;
    let engines: Vec<&str> = Engine::ALL.iter().map(|e| e.name()).collect();
    m.add("ENGINES", PyTuple::new(m.py(), engines)?)?;
    m.add("MAX_N", MAX_N)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("DISTRIBUTION", command::DISTRIBUTION)?;
    Ok(())
}
