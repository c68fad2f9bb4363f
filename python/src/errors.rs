//! The library's errors as the Python exceptions of `queens/_errors.py`:
//! one base class, `ValueError` subclasses for the caller's input, a
//! `MemoryError` subclass for a count the memory limit refuses.

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

pyo3::import_exception!(queens._errors, QueensError);
pyo3::import_exception!(queens._errors, InputError);
pyo3::import_exception!(queens._errors, BoardSizeError);
pyo3::import_exception!(queens._errors, BoardFormatError);
pyo3::import_exception!(queens._errors, NoSolutionError);
pyo3::import_exception!(queens._errors, MemoryLimitError);

/// The exception for a library error, with the library's one-line message
/// and its causes (an I/O or GPU error's), as the command line prints it.
pub fn to_py(err: queens::Error) -> PyErr {
    use queens::Error as E;
    let message = queens_cli::with_causes(&err);
    match err {
        E::BoardSize { .. } | E::Rows { .. } => BoardSizeError::new_err(message),
        E::NoSolution(_) => NoSolutionError::new_err(message),
        // As the command line says it: with where the limit comes from.
        E::Memory { .. } => MemoryLimitError::new_err(queens_cli::memory::refusal(&err)),
        E::SplitDepth { .. }
        | E::NoSplit { .. }
        | E::Threads(_)
        | E::Sample(_)
        | E::Unit { .. }
        | E::DuplicateUnit(_)
        | E::UnknownEngine(_)
        | E::UnknownAlgorithm(_)
        | E::UnknownFormat(_)
        | E::PlanHash(_)
        | E::OtherPlan { .. } => InputError::new_err(message),
        _ => QueensError::new_err(message),
    }
}

/// `value` as a board size that `what` takes, from 1 to `max`: a
/// `TypeError` when it is no int (as `range("x")` is), a `BoardSizeError`
/// naming the range when it is out of it.
pub fn board_size(value: &Bound<'_, PyAny>, what: &str, max: u32) -> PyResult<u32> {
    int(value)?
        .and_then(|n| u32::try_from(n).ok())
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| {
            BoardSizeError::new_err(format!(
                "board size {value} is out of range: {what} takes n from 1 to {max}"
            ))
        })
}

/// `value` as an int: `None` when it is beyond an `i64`, a `TypeError`
/// when it is no int at all (a bool is refused too: `count(True)` is a
/// slip, not a board of one).
pub fn int(value: &Bound<'_, PyAny>) -> PyResult<Option<i64>> {
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err("n must be an int, not bool"));
    }
    match value.extract::<i64>() {
        Ok(n) => Ok(Some(n)),
        Err(err) if err.is_instance_of::<PyOverflowError>(value.py()) => Ok(None),
        Err(_) => {
            let kind = value.get_type().name()?;
            Err(PyTypeError::new_err(format!(
                "n must be an int, not {kind}"
            )))
        }
    }
}
