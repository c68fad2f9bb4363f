//! The files of a long count: `count(n, checkpoint=...)`,
//! `count(n, shard=(i, k), out_dir=...)` and `merge(dir)`, the library's
//! journal, shard task and merge, as the command line uses them, so that
//! either reads what the other wrote.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use queens::shard::{self, MAX_SHARDS, ShardId};

use crate::errors::{InputError, QueensError};
use crate::problem::Problem;
use crate::runner::{self, Files};

/// The files `count` keeps, from its arguments: a journal, a shard's
/// files, or none; refused where they make no sense together.
pub fn requested(
    checkpoint: Option<PathBuf>,
    shard: Option<(i64, i64)>,
    out_dir: Option<PathBuf>,
    unique: bool,
) -> PyResult<Files> {
    if unique && (checkpoint.is_some() || shard.is_some()) {
        return Err(InputError::new_err(
            "unique=True counts the whole board at once: drop checkpoint= and shard=",
        ));
    }
    match (checkpoint, shard, out_dir) {
        (Some(_), Some(_), _) => Err(InputError::new_err(
            "checkpoint= and shard= do not go together: a shard keeps its own journal beside \
             its result in out_dir",
        )),
        (_, None, Some(_)) => Err(InputError::new_err(
            "out_dir= is where shard= writes its result: give shard=(i, k) too",
        )),
        (Some(path), None, None) => Ok(Files::Checkpoint(path)),
        (None, Some((index, of)), out_dir) => Ok(Files::Shard {
            shard: shard_id(index, of)?,
            out_dir: out_dir.unwrap_or_else(|| PathBuf::from(".")),
        }),
        (None, None, None) => Ok(Files::None),
    }
}

/// `(i, k)` as shard i of k, `0 <= i < k <= MAX_SHARDS`.
fn shard_id(index: i64, of: i64) -> PyResult<ShardId> {
    let id = u32::try_from(index)
        .ok()
        .zip(u32::try_from(of).ok())
        .and_then(|(index, of)| ShardId::new(index, of).ok());
    match id {
        Some(id) => Ok(id),
        None => Err(InputError::new_err(format!(
            "shard ({index}, {of}) is out of range: give (i, k) with 0 <= i < k <= {MAX_SHARDS}"
        ))),
    }
}

/// Puts the shards of a run together, as ``queens merge`` does, and
/// returns what it proved: a dict with ``n``, ``engine``, ``plan``,
/// ``shards``, ``shards_present``, ``units``, ``units_present``,
/// ``confirmed_units``, ``missing_shards`` (a list), ``complete``,
/// ``total`` (an int), ``digest``, ``matches_known`` and ``problem``: the
/// ``Problem`` whose completions the shards counted (``count(n, given=...,
/// shard=...)``, ``queens count N --given ... --shard I/K``), ``None`` for
/// the empty board.
///
/// ``paths`` is a directory of ``shard-*-of-*.json`` files (what
/// ``count(n, shard=(i, k), out_dir=...)`` and ``queens count N --shard
/// I/K`` write), a file, or a list of them. Every file is checked before
/// its units are believed; a problem raises ``QueensError`` with one line
/// per kind. Missing shards raise too, unless ``partial=True``, which
/// returns the subtotal with ``complete`` false.
///
/// >>> queens.merge("shards")["total"]  # doctest: +SKIP
/// 365596
#[pyfunction]
#[pyo3(signature = (paths, *, partial = false))]
pub fn merge<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    partial: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let paths: Vec<PathBuf> = match paths.extract::<PathBuf>() {
        Ok(path) => vec![path],
        Err(_) => paths.extract()?,
    };
    let memory_limit = runner::config(py)?.memory_limit;
    let merged = py.detach(|| -> Result<_, String> {
        let gathered = shard::gather(&paths)?;
        let mut files = Vec::new();
        let mut problems = Vec::new();
        for path in &gathered {
            match shard::read(path) {
                Ok(file) => files.push((path.display().to_string(), file)),
                Err(why) => problems.push(why.to_string()),
            }
        }
        let merged = shard::merge_files(&files, memory_limit).map_err(|e| e.to_string())?;
        Ok((merged, problems))
    });
    let (merged, mut problems) = merged.map_err(InputError::new_err)?;
    let Some((plan, merge)) = merged else {
        problems.push("no shard results given".to_owned());
        return Err(InputError::new_err(problems.join("; ")));
    };
    let unreadable = problems.len();
    problems.extend(merge.problems.iter().map(ToString::to_string));
    let consistent = unreadable == 0 && merge.is_consistent();
    let complete = unreadable == 0 && merge.is_complete();
    if !(complete || partial && consistent) {
        return Err(QueensError::new_err(problems.join("; ")));
    }
    let csv = shard::units_csv(&plan, &merge.counts);
    let dict = PyDict::new(py);
    dict.set_item("n", plan.n())?;
    dict.set_item("engine", plan.engine().name())?;
    dict.set_item("plan", plan.hash().to_string())?;
    dict.set_item("shards", merge.shards)?;
    dict.set_item("shards_present", merge.shards_present)?;
    dict.set_item("units", plan.len())?;
    dict.set_item("units_present", merge.units_present())?;
    dict.set_item("confirmed_units", merge.confirmed)?;
    dict.set_item("missing_shards", merge.missing())?;
    dict.set_item("complete", complete)?;
    dict.set_item("total", merge.total)?;
    dict.set_item("digest", shard::digest(&csv))?;
    let matches = complete
        .then(|| plan.known_total().map(|known| known == merge.total))
        .flatten();
    dict.set_item("matches_known", matches)?;
    let problem = plan.problem().cloned().map(Problem::from);
    dict.set_item("problem", problem)?;
    Ok(dict)
}
