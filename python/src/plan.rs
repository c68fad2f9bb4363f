//! `plan`: a count's units, with the ids that `count_units` takes, and
//! `count_units` itself.
//!
//! A `Unit` remembers the plan it came from (board, engine, hash), so that
//! `count_units` refuses a unit of another plan instead of counting the
//! unit of its own plan that has the same id. Both classes pickle: a unit
//! by its fields, a plan by `(n, engine, split)`, rebuilt on load and
//! refused if its hash is not the one it was saved with.

use std::collections::BTreeMap;
use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyTuple};
use queens::{Engine, MAX_N, Shape};

use crate::errors::{InputError, QueensError, board_size, to_py};
use crate::runner::{self, Request, parse_engine};

/// One unit of a plan: a piece of the count that can run alone, anywhere.
///
/// Equal units are the same unit of the same plan; a unit pickles, and
/// ``_asdict()`` gives its fields.
#[pyclass(module = "queens", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Unit {
    /// Its id in the plan, from 0: what ``count_units`` takes.
    #[pyo3(get)]
    id: u32,
    /// What it counts, as ``queens plan N --units`` prints it (for example
    /// ``start:0,2,4,1``).
    #[pyo3(get)]
    descriptor: String,
    /// Its estimated cost, in the plan's own units (only the ratios mean
    /// anything).
    #[pyo3(get)]
    cost: u64,
    /// How many boards each solution it finds stands for (1, 2, 4 or 8).
    #[pyo3(get)]
    weight: u32,
    /// The board size of its plan.
    #[pyo3(get)]
    n: u32,
    /// The engine of its plan.
    #[pyo3(get)]
    engine: &'static str,
    plan: Arc<str>,
}

#[pymethods]
impl Unit {
    #[classattr]
    fn __match_args__() -> (&'static str, &'static str, &'static str, &'static str) {
        ("id", "descriptor", "cost", "weight")
    }

    /// The hash of its plan, ``sha256:`` and 64 hex digits.
    #[getter]
    fn plan(&self) -> &str {
        &self.plan
    }

    /// The fields as a dict, plan included.
    fn _asdict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("id", self.id)?;
        dict.set_item("descriptor", &self.descriptor)?;
        dict.set_item("cost", self.cost)?;
        dict.set_item("weight", self.weight)?;
        dict.set_item("n", self.n)?;
        dict.set_item("engine", self.engine)?;
        dict.set_item("plan", &*self.plan)?;
        Ok(dict)
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("queens._queens")?.getattr("_unit")?;
        let args = (
            self.id,
            &self.descriptor,
            self.cost,
            self.weight,
            self.n,
            self.engine,
            &*self.plan,
        );
        Ok((rebuild, args.into_pyobject(py)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "Unit(id={}, descriptor='{}', cost={}, weight={})",
            self.id, self.descriptor, self.cost, self.weight
        )
    }
}

impl Unit {
    fn new(unit: queens::Unit, plan: &Plan) -> Self {
        Self {
            id: unit.id,
            descriptor: unit.descriptor,
            cost: unit.cost,
            weight: unit.weight,
            n: plan.plan.n(),
            engine: plan.plan.engine().name(),
            plan: Arc::clone(&plan.hash),
        }
    }

    /// The words for this unit, when it is not of the plan `n`, `engine`
    /// (with `hash`, when known).
    fn foreign(&self, n: u32, engine: Engine, hash: Option<&str>) -> PyErr {
        let theirs = hash.map_or_else(String::new, |h| format!(", {h}"));
        InputError::new_err(format!(
            "unit {} is of the plan of n = {} with the {} engine ({}), not of this count's plan of \
             n = {n} with the {} engine{theirs}",
            self.id,
            self.n,
            self.engine,
            self.plan,
            engine.name()
        ))
    }
}

/// A unit rebuilt from its pickle (what ``Unit.__reduce__`` names).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn _unit(
    id: u32,
    descriptor: String,
    cost: u64,
    weight: u32,
    n: u32,
    engine: &str,
    plan: &str,
) -> PyResult<Unit> {
    Ok(Unit {
        id,
        descriptor,
        cost,
        weight,
        n,
        engine: parse_engine(engine)?.name(),
        plan: plan.into(),
    })
}

/// The units a count of one board with one engine splits into, with stable
/// ids and a hash (what journals and shards of the command line record).
///
/// Made by ``queens.plan(n)``. ``len(plan)`` is the number of units,
/// ``plan[i]`` the unit with id ``i`` (``IndexError`` past the end), and
/// iterating gives them in id order, one at a time. Plans with the same
/// hash are equal; a plan pickles as its board, engine and split, and is
/// rebuilt when it is loaded.
#[pyclass(module = "queens", frozen)]
pub struct Plan {
    plan: queens::Plan,
    hash: Arc<str>,
}

#[pymethods]
impl Plan {
    #[classattr]
    fn __match_args__() -> (&'static str, &'static str, &'static str) {
        ("n", "engine", "hash")
    }

    /// The board size.
    #[getter]
    fn n(&self) -> u32 {
        self.plan.n()
    }

    /// The engine whose units these are.
    #[getter]
    fn engine(&self) -> &'static str {
        self.plan.engine().name()
    }

    /// The rows each unit fixes: the mirror engine's split, ``None`` for
    /// the other engines.
    #[getter]
    fn split_depth(&self) -> Option<u32> {
        self.plan.split_depth()
    }

    /// The plan's hash, ``sha256:`` and 64 hex digits.
    #[getter]
    fn hash(&self) -> &str {
        &self.hash
    }

    /// The sum of the units' costs.
    #[getter]
    fn total_cost(&self) -> u128 {
        self.plan.total_cost()
    }

    /// Every unit, in id order, as a list (``iter(plan)`` makes them one at
    /// a time instead).
    #[getter]
    fn units(&self) -> Vec<Unit> {
        self.plan.units().map(|u| Unit::new(u, self)).collect()
    }

    /// The plan's fields as a dict (its units are ``plan.units``).
    fn _asdict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("n", self.n())?;
        dict.set_item("engine", self.engine())?;
        dict.set_item("split_depth", self.split_depth())?;
        dict.set_item("hash", &*self.hash)?;
        dict.set_item("total_cost", self.total_cost())?;
        Ok(dict)
    }

    fn __len__(&self) -> usize {
        self.plan.len()
    }

    fn __getitem__(&self, index: &Bound<'_, PyAny>) -> PyResult<Unit> {
        let len = self.plan.len();
        let out_of_range = || {
            PyIndexError::new_err(format!(
                "plan index {index} is out of range: the plan has {len} units, 0 to {}",
                len as i128 - 1
            ))
        };
        let index = match index.extract::<i64>() {
            Ok(i) if !index.is_instance_of::<PyBool>() => i,
            Err(err) if err.is_instance_of::<PyOverflowError>(index.py()) => {
                return Err(out_of_range());
            }
            _ => {
                let kind = index.get_type().name()?;
                return Err(PyTypeError::new_err(format!(
                    "plan indices must be integers, not {kind}"
                )));
            }
        };
        let id = if index < 0 { index + len as i64 } else { index };
        let id = u32::try_from(id)
            .ok()
            .filter(|&id| (id as usize) < len)
            .ok_or_else(out_of_range)?;
        Ok(Unit::new(self.plan.unit(id).map_err(to_py)?, self))
    }

    fn __iter__(slf: Bound<'_, Self>) -> PlanUnits {
        PlanUnits {
            plan: slf.unbind(),
            next: 0,
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Self>()
            .is_ok_and(|other| other.get().hash == self.hash)
    }

    fn __hash__(&self) -> isize {
        // The plan's hash is a sha256: its first eight bytes will do.
        let digits = &self.hash["sha256:".len()..][..16];
        u64::from_str_radix(digits, 16).unwrap_or_default() as isize
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("queens._queens")?.getattr("_plan")?;
        let args = (self.n(), self.engine(), self.split_depth(), &*self.hash);
        Ok((rebuild, args.into_pyobject(py)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "<queens.Plan n={} engine='{}' units={} hash={}>",
            self.plan.n(),
            self.engine(),
            self.plan.len(),
            self.hash
        )
    }
}

/// The units of a plan, made one at a time as they are asked for.
#[pyclass(module = "queens")]
pub struct PlanUnits {
    plan: Py<Plan>,
    next: u32,
}

#[pymethods]
impl PlanUnits {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> Option<Unit> {
        let plan = self.plan.bind(py).get();
        let unit = plan.plan.unit(self.next).ok()?;
        self.next += 1;
        Some(Unit::new(unit, plan))
    }
}

/// The plan of `n` with `engine`, made with the package's config (the
/// memory limit) and, for the mirror engine, `split_depth` rows a unit.
fn make(py: Python<'_>, n: u32, engine: Engine, split_depth: Option<u32>) -> PyResult<Plan> {
    let config = runner::config(py)?;
    let shape = Shape::new(n, engine, split_depth);
    let pool = crate::pool::for_call(py, None)?;
    let plan = runner::on_pool(py, &pool, || queens::Plan::new(shape, &config)).map_err(to_py)?;
    let hash = plan.hash().to_string().into();
    Ok(Plan { plan, hash })
}

/// The plan of a count of the n-board with ``engine`` (the best engine for
/// n when ``None``).
///
/// Raises ``MemoryLimitError`` when the plan would not fit in memory (see
/// ``count``).
///
/// >>> p = queens.plan(12, engine="mirror")
/// >>> len(p), p[0].descriptor, p[0].weight
/// (55, 'rows:0,2', 2)
#[pyfunction]
#[pyo3(signature = (n, engine = None))]
pub fn plan(py: Python<'_>, n: &Bound<'_, PyAny>, engine: Option<&str>) -> PyResult<Plan> {
    let n = board_size(n, "plan", MAX_N)?;
    let engine = engine
        .map(parse_engine)
        .transpose()?
        .unwrap_or_else(|| Engine::best_for(n));
    make(py, n, engine, None)
}

/// A plan rebuilt from its pickle (what ``Plan.__reduce__`` names),
/// refused when this build makes it with another hash.
#[pyfunction]
pub fn _plan(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    engine: &str,
    split_depth: Option<u32>,
    hash: &str,
) -> PyResult<Plan> {
    let n = board_size(n, "plan", MAX_N)?;
    let plan = make(py, n, parse_engine(engine)?, split_depth)?;
    if *plan.hash != *hash {
        return Err(InputError::new_err(format!(
            "the pickled plan of n = {n} with the {engine} engine had hash {hash}, but this \
             version of queens makes it with hash {}: its units are not the same",
            plan.hash
        )));
    }
    Ok(plan)
}

/// Counts the units ``units`` (ids, or ``Unit`` objects) of the plan that
/// ``plan(n, engine)`` makes, and returns ``{id: solutions}``: each unit's
/// share of the total, weight included. Any subset of a plan, counted in
/// any process, adds up to ``count(n)`` over the whole plan. A ``Unit`` of
/// another plan raises ``InputError``.
///
/// ``threads`` and ``progress`` are as for ``count``; Ctrl-C stops it.
///
/// >>> parts = queens.count_units(8, [0, 1], engine="mirror")
/// >>> sorted(parts)
/// [0, 1]
#[pyfunction]
#[pyo3(signature = (n, units, *, engine = None, threads = None, progress = None))]
pub fn count_units(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    units: &Bound<'_, PyAny>,
    engine: Option<&str>,
    threads: Option<i64>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<BTreeMap<u32, u128>> {
    let n = board_size(n, "count_units", MAX_N)?;
    let mut request = Request::new(n, engine, threads)?;
    let chosen = request.engine.unwrap_or_else(|| Engine::best_for(n));
    let mut ids = Vec::new();
    // One unit given as an object, to check against the plan once counted.
    let mut given: Option<Unit> = None;
    for item in units.try_iter()? {
        let item = item?;
        let id = match item.cast::<Unit>() {
            Ok(unit) => {
                let unit = unit.get();
                if unit.n != n || unit.engine != chosen.name() {
                    return Err(unit.foreign(n, chosen, None));
                }
                if given.as_ref().is_some_and(|g| g.plan != unit.plan) {
                    return Err(unit.foreign(n, chosen, given.as_ref().map(|g| &*g.plan)));
                }
                given.get_or_insert_with(|| unit.clone());
                unit.id
            }
            Err(_) => (!item.is_instance_of::<PyBool>())
                .then(|| item.extract::<i64>().ok())
                .flatten()
                .and_then(|id| u32::try_from(id).ok())
                .ok_or_else(|| match item.repr() {
                    Ok(shown) => InputError::new_err(format!(
                        "{shown} is not a unit id: ids are ints from 0"
                    )),
                    Err(err) => err,
                })?,
        };
        ids.push(id);
    }
    request.units = Some(ids);
    let count = runner::run(py, &request, crate::callable(progress)?)?
        .count
        .ok_or_else(|| QueensError::new_err("internal error: a count without its units"))?;
    // Same board and engine, another plan: a unit pickled by another
    // version of queens. Found only once the plan is built, which the
    // count does.
    let hash = count.plan.to_string();
    if let Some(unit) = given.filter(|u| *u.plan != *hash) {
        return Err(unit.foreign(n, chosen, Some(&hash)));
    }
    Ok(count.unit_counts.into_iter().collect())
}
