//! `count` and `count_units`: a count on the library's pool with the GIL
//! released. The calling thread waits in short naps, and between two naps
//! it takes the GIL to look for Ctrl-C and to call the progress callback,
//! so Python's signal handlers run during a count of hours and the callback
//! runs on the thread that passed it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use queens::{Count, Counter, Engine, MAX_THREADS, Observer, UnitDone};

use crate::errors::{InputError, QueensError, to_py};

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
}

impl Request {
    /// A request for the `n`-board, with the engine named `engine` (the
    /// best for `n` when `None`) on `threads` threads (the library's pool,
    /// every core, when `None`).
    pub fn new(n: u32, engine: Option<&str>, threads: Option<i64>) -> PyResult<Self> {
        Ok(Self {
            n,
            engine: engine.map(parse_engine).transpose()?,
            threads: threads.map(thread_count).transpose()?,
            units: None,
        })
    }
}

/// An engine by name: `join`, `mirror` or `constellations`.
pub fn parse_engine(name: &str) -> PyResult<Engine> {
    name.parse().map_err(to_py)
}

/// A thread count in `1..=MAX_THREADS`.
fn thread_count(threads: i64) -> PyResult<usize> {
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

/// Runs `request` to the end, or until Ctrl-C or an exception from
/// `progress`: then no new unit starts, the units under way finish (their
/// counts are dropped), and the exception is raised. No thread of the
/// count is running when this returns.
pub fn run(
    py: Python<'_>,
    request: &Request,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Count> {
    let tally = Tally::default();
    let cancel = AtomicBool::new(false);
    let mut counter = Counter::new(request.n).observer(&tally).cancel(&cancel);
    if let Some(engine) = request.engine {
        counter = counter.engine(engine);
    }
    if let Some(threads) = request.threads {
        counter = counter.threads(threads);
    }
    if let Some(units) = &request.units {
        counter = counter.units(units);
    }

    let waiter = thread::current();
    // Set by the worker before it wakes the waiter: its thread is not
    // `is_finished` yet then, and a waiter that went by that would nap once
    // more (50 ms added to a count of a millisecond).
    let finished = AtomicBool::new(false);
    thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let count = counter.run();
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
        let count = count.map_err(to_py)?;
        if let Some(callback) = progress {
            callback.call1((count.units, count.units, count.solutions))?;
        }
        Ok(count)
    })
}
