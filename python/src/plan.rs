//! `plan`: a count's units, with the ids that `count_units` takes, and
//! `count_units` itself.

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyList};
use queens::{Config, Engine, MAX_N};

use crate::errors::{InputError, board_size, to_py};
use crate::runner::{self, Request, parse_engine};

/// One unit of a plan: a piece of the count that can run alone, anywhere.
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
}

#[pymethods]
impl Unit {
    fn __repr__(&self) -> String {
        format!(
            "Unit(id={}, descriptor='{}', cost={}, weight={})",
            self.id, self.descriptor, self.cost, self.weight
        )
    }
}

impl From<queens::Unit> for Unit {
    fn from(unit: queens::Unit) -> Self {
        Self {
            id: unit.id,
            descriptor: unit.descriptor,
            cost: unit.cost,
            weight: unit.weight,
        }
    }
}

/// The units a count of one board with one engine splits into, with stable
/// ids and a hash (what journals and shards of the command line record).
///
/// Made by ``queens.plan(n)``. ``len(plan)`` is the number of units,
/// ``plan[i]`` the unit with id ``i``, and iterating gives them in id order.
#[pyclass(module = "queens", frozen)]
pub struct Plan {
    plan: queens::Plan,
}

#[pymethods]
impl Plan {
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

    /// The plan's hash, ``sha256:`` and 64 hex digits.
    #[getter]
    fn hash(&self) -> String {
        self.plan.hash().to_string()
    }

    /// The sum of the units' costs.
    #[getter]
    fn total_cost(&self) -> u128 {
        self.plan.total_cost()
    }

    /// Every unit, in id order.
    #[getter]
    fn units(&self) -> Vec<Unit> {
        self.plan.units().map(Unit::from).collect()
    }

    fn __len__(&self) -> usize {
        self.plan.len()
    }

    fn __getitem__(&self, index: isize) -> PyResult<Unit> {
        let len = self.plan.len() as isize;
        let id = if index < 0 { index + len } else { index };
        let unit = u32::try_from(id)
            .map_err(|_| {
                InputError::new_err(format!(
                    "unit {index} is not in the plan: it has {len} units"
                ))
            })
            .and_then(|id| self.plan.unit(id).map_err(to_py))?;
        Ok(unit.into())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyList::new(py, self.units())?
            .into_any()
            .try_iter()
            .map(Bound::into_any)
    }

    fn __repr__(&self) -> String {
        format!(
            "<queens.Plan n={} engine='{}' units={} hash={}>",
            self.plan.n(),
            self.engine(),
            self.plan.len(),
            self.plan.hash()
        )
    }
}

/// The plan of a count of the n-board with ``engine`` (the best engine for
/// n when ``None``).
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
    let plan = py
        .detach(|| queens::Plan::new(n, engine, &Config::default()))
        .map_err(to_py)?;
    Ok(Plan { plan })
}

/// Counts the units ``units`` (ids, or ``Unit`` objects) of the plan that
/// ``plan(n, engine)`` makes, and returns ``{id: solutions}``: each unit's
/// share of the total, weight included. Any subset of a plan, counted in
/// any process, adds up to ``count(n)`` over the whole plan.
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
    let mut ids = Vec::new();
    for item in units.try_iter()? {
        let item = item?;
        let id = match item.cast::<Unit>() {
            Ok(unit) => unit.get().id,
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
    let count = runner::run(py, &request, crate::callable(progress)?)?;
    Ok(count.unit_counts.into_iter().collect())
}
