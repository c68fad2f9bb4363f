//! `count` and `count_units`: a count on the package's pool ([`pool`],
//! safe in a forked child) with the GIL released, refused up front when it
//! would not fit in the memory the command line would allow it. The
//! calling thread waits in short naps, and between two naps it takes the
//! GIL to look for Ctrl-C and to call the progress callback,
//! so Python's signal handlers run during a count of hours and the callback
//! runs on the thread that passed it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use std::path::PathBuf;

use pyo3::prelude::*;
use queens::journal::{Journal, LockWait};
use queens::shard::{ShardId, Task};
use queens::{Config, Engine, Executor, MAX_THREADS, Observer, Plan, Runner, Shape, UnitDone};
use rayon::ThreadPool;

use crate::errors::{InputError, QueensError, to_py};
use crate::pool;

/// The longest the calling thread naps before it looks for Ctrl-C again.
const NAP: Duration = Duration::from_millis(50);

/// The least time between two calls of the progress callback (the last
/// call, when the count is done, comes at once).
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// What a count is asked to do, as the Python arguments give it.
pub struct Request {
    pub n: u32,
    pub engine: Option<Engine>,
    pub threads: Option<usize>,
    pub units: Option<Vec<u32>>,
    /// Where the run keeps its journal: `checkpoint=`, or a shard's.
    pub files: Files,
    /// The problem whose completions are counted, through its plan
    /// ([`queens::Plan::for_problem`]); `None` for the empty board.
    pub problem: Option<queens::Problem>,
}

/// The files a count keeps: none, a journal, or a shard's result and
/// journal in a directory, as `queens count --checkpoint` and `--shard`
/// name them.
pub enum Files {
    None,
    Checkpoint(PathBuf),
    Shard { shard: ShardId, out_dir: PathBuf },
}

/// How long a shard waits for its journal, as the command line's
/// `--shard` does: a task requeued while the old one is still saving.
const SHARD_LOCK_WAIT: Duration = Duration::from_secs(60);

impl Request {
    /// A request for the `n`-board, with the engine named `engine` (the
    /// best for `n` when `None`) on `threads` threads (the package's
    /// shared pool, every core, when `None`).
    pub fn new(n: u32, engine: Option<&str>, threads: Option<i64>) -> PyResult<Self> {
        Ok(Self {
            n,
            engine: engine.map(parse_engine).transpose()?,
            threads: threads.map(thread_count).transpose()?,
            units: None,
            files: Files::None,
            problem: None,
        })
    }
}

/// An engine by name: `join`, `mirror` or `constellations`.
pub fn parse_engine(name: &str) -> PyResult<Engine> {
    name.parse().map_err(to_py)
}

/// The config every plan and count of the package is made with: the
/// library's defaults and the command line's memory limit (what the
/// machine has available, or `QUEENS_MEMORY_LIMIT`; see
/// `queens_cli::memory::available_recent`). The `Python` token is the
/// proof that the GIL is held, as the lock there needs (see `pool.rs` on
/// forks and locks).
///
/// # Errors
/// `InputError` when `QUEENS_MEMORY_LIMIT` is neither bytes nor `none`.
pub fn config(_gil: Python<'_>) -> PyResult<Config> {
    let limit = queens_cli::memory::available_recent()
        .map_err(|err| InputError::new_err(format!("{err:#}")))?;
    Ok(Config::default().with_memory_limit(limit))
}

/// `work` on `pool`, with the GIL released: how the package runs anything
/// that may use rayon, so that nothing reaches rayon's global pool.
pub fn on_pool<T: Send>(py: Python<'_>, pool: &ThreadPool, work: impl FnOnce() -> T + Send) -> T {
    py.detach(|| pool.install(work))
}

/// A thread count in `1..=MAX_THREADS`.
pub fn thread_count(threads: i64) -> PyResult<usize> {
    usize::try_from(threads)
        .ok()
        .filter(|t| (1..=MAX_THREADS).contains(t))
        .ok_or_else(|| {
            InputError::new_err(format!(
                "{threads} threads is out of range: use between 1 and {MAX_THREADS}, or None \
                 for every core"
            ))
        })
}

/// The units done and the solutions in them so far, as the runner reports
/// them from its threads.
#[derive(Default)]
struct Tally {
    units: AtomicUsize,
    done: Mutex<(usize, u128)>,
}

impl Tally {
    /// `(units_done, units_total, solutions_so_far)`, one consistent view.
    fn snapshot(&self) -> (usize, usize, u128) {
        let (done, solutions) = *self.done.lock().unwrap_or_else(PoisonError::into_inner);
        (done, self.units.load(Ordering::Relaxed), solutions)
    }
}

impl Observer for Tally {
    fn start(&self, units: usize, _total_cost: u128) {
        self.units.store(units, Ordering::Relaxed);
    }

    fn unit_done(&self, unit: &UnitDone) {
        let mut done = self.done.lock().unwrap_or_else(PoisonError::into_inner);
        done.0 += 1;
        done.1 += unit.solutions;
    }
}

/// What a count returns to Python: the solutions in the units counted,
/// how many units, and the library's count (none for a shard whose
/// result was already there).
pub struct Counted {
    pub solutions: u128,
    pub units: usize,
    pub count: Option<queens::Count>,
}

/// Runs `request` to the end, or until Ctrl-C or an exception from
/// `progress`: then no new unit starts, the units under way finish (their
/// counts are dropped, or kept in the journal), and the exception is
/// raised. No thread of the count is running when this returns.
pub fn run(
    py: Python<'_>,
    request: &Request,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Counted> {
    let tally = Tally::default();
    let cancel = AtomicBool::new(false);
    let config = config(py)?;
    let pool: Arc<ThreadPool> = pool::for_call(py, request.threads)?;
    let runner = Runner::new().pool(&pool).observer(&tally).stop(&cancel);
    // The library's rules, as the command line follows them, so that both
    // write the same plan's files.
    let (n, problem) = (request.n, request.problem.as_ref());
    let engine = Engine::for_count(n, request.engine, Executor::Cpu, problem);
    let sharded = matches!(request.files, Files::Shard { .. });
    let shape = Shape::of_count(n, engine, None, sharded);

    let waiter = thread::current();
    // Set by the worker before it wakes the waiter: its thread is not
    // `is_finished` yet then, and a waiter that went by that would nap once
    // more (50 ms added to a count of a millisecond).
    let finished = AtomicBool::new(false);
    thread::scope(|scope| {
        let worker = scope.spawn(|| {
            // On the pool, so that the plan's own parallel work (the
            // join's job costs) runs there too.
            let count =
                pool.install(|| count_with_files(shape, &runner, &config, request, &cancel));
            finished.store(true, Ordering::Release);
            waiter.unpark();
            count
        });
        let mut stopped: Option<PyErr> = None;
        let mut reported = (Instant::now(), tally.snapshot());
        while !finished.load(Ordering::Acquire) {
            py.detach(|| thread::park_timeout(NAP));
            if stopped.is_some() || finished.load(Ordering::Acquire) {
                continue;
            }
            let outcome = py.check_signals().and_then(|()| match progress {
                Some(callback) if reported.0.elapsed() >= PROGRESS_EVERY => {
                    let now = tally.snapshot();
                    if now != reported.1 {
                        callback.call1(now)?;
                    }
                    reported = (Instant::now(), now);
                    Ok(())
                }
                _ => Ok(()),
            });
            if let Err(err) = outcome {
                cancel.store(true, Ordering::Relaxed);
                stopped = Some(err);
            }
        }
        let count = py.detach(|| worker.join()).map_err(|_| {
            QueensError::new_err("internal error: the count's thread panicked (please report it)")
        })?;
        if let Some(err) = stopped {
            return Err(err);
        }
        let count = count?;
        if let Some(callback) = progress {
            callback.call1((count.units, count.units, count.solutions))?;
        }
        Ok(count)
    })
}

/// The count of the plan of `shape` on `runner`, with the files
/// `request` asks for: a journal it resumes from and keeps
/// (`checkpoint=`), or a shard's result and journal (`shard=`,
/// `out_dir=`), through the library's [`Runner`], as the command line
/// counts.
fn count_with_files(
    shape: Shape,
    runner: &Runner<'_>,
    config: &Config,
    request: &Request,
    cancel: &AtomicBool,
) -> PyResult<Counted> {
    let plan = || match &request.problem {
        Some(problem) => Plan::for_problem(problem, shape.split_depth, config),
        None => Plan::new(shape, config),
    };
    let counted = |count: queens::Count| Counted {
        solutions: count.solutions,
        units: count.units,
        count: Some(count),
    };
    let (path, shard, wait) = match &request.files {
        Files::None => {
            if request.problem.is_none() {
                let units = request.units.as_deref().map(<[u32]>::len);
                (runner.fits_unplanned(shape, config, units)).map_err(to_py)?;
            }
            let plan = plan().map_err(to_py)?;
            let selection = select(&plan, request.units.as_deref()).map_err(to_py)?;
            return runner.count(&plan, &selection).map(counted).map_err(to_py);
        }
        Files::Checkpoint(path) => (path.clone(), None, Duration::ZERO),
        Files::Shard { shard, out_dir } => {
            let plan = plan().map_err(to_py)?;
            match Task::prepare(&plan, *shard, out_dir).map_err(prepare_error)? {
                Task::Done(file, _) => {
                    let solutions = file.total.parse().unwrap_or_default();
                    let units = file.units.len();
                    return Ok(Counted {
                        solutions,
                        units,
                        count: None,
                    });
                }
                Task::Count(prepared) => (
                    prepared.journal.clone(),
                    Some((plan, prepared)),
                    SHARD_LOCK_WAIT,
                ),
                _ => {
                    return Err(QueensError::new_err(
                        "internal error: an unknown shard task",
                    ));
                }
            }
        }
    };
    let (plan, prepared) = match shard {
        Some((plan, prepared)) => (plan, Some(prepared)),
        None => (plan().map_err(to_py)?, None),
    };
    let ids = prepared
        .as_ref()
        .map(|p| p.units.as_slice())
        .or(request.units.as_deref());
    let selection = select(&plan, ids).map_err(to_py)?;
    let lock = LockWait::up_to(wait).cancel(cancel);
    let journal = Journal::open(&path, &plan, ids, lock).map_err(journal_error)?;
    let mut runner = runner.journal(&journal);
    if let Some(prepared) = &prepared {
        runner = runner.shard(prepared);
    }
    runner.count(&plan, &selection).map(counted).map_err(to_py)
}

/// The units `ids` of `plan` (`None`: all of them).
fn select(plan: &Plan, ids: Option<&[u32]>) -> Result<queens::Selection, queens::Error> {
    match ids {
        Some(ids) => plan.select(ids),
        None => Ok(plan.select_all()),
    }
}

/// A journal that cannot be used, as Python's exception: busy or damaged
/// beyond use is the caller's to sort out (`InputError` for a file that is
/// not this plan's journal).
fn journal_error(err: queens::journal::OpenError) -> PyErr {
    use queens::journal::OpenError as E;
    match err {
        E::Unusable(_) => InputError::new_err(err.to_string()),
        _ => QueensError::new_err(err.to_string()),
    }
}

/// A shard task that cannot start, as Python's exception.
fn prepare_error(err: queens::shard::PrepareError) -> PyErr {
    use queens::shard::PrepareError as E;
    match err {
        E::NotThisShard { .. } => {
            InputError::new_err(format!("{err}; move it away or choose another out_dir"))
        }
        E::Unreadable(_) => InputError::new_err(err.to_string()),
        _ => QueensError::new_err(err.to_string()),
    }
}
