//! The package's thread pools: every count, plan and uniqueness check runs
//! on one of them, never on rayon's global pool, so that a forked child
//! can count.
//!
//! `fork()` copies only the thread that called it. A pool built before the
//! fork is, in the child, a shell whose worker threads are gone: work sent
//! to it waits forever (issue 33: `multiprocessing`'s "fork" pools hung
//! after one count in the parent). Rayon's global pool cannot be rebuilt,
//! so the package keeps its own, notes the process that built it, and
//! builds a fresh one when it finds itself in another process. The
//! parent's shell is leaked, not dropped: dropping it would wake threads
//! that are not there, through locks a parent thread may have held at the
//! fork.
//!
//! The pool is fetched with the GIL held, and `os.fork()` holds the GIL,
//! so no fork from Python finds the lock below taken; a thread counting
//! in the parent while it forks holds the pool, not the lock.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, PoisonError};

use pyo3::prelude::*;
use rayon::ThreadPool;

use crate::errors::to_py;

/// The shared pool, one thread per core, and the process that built it.
static SHARED: Mutex<Option<(u32, Arc<ThreadPool>)>> = Mutex::new(None);

/// The pool for a call: the process's shared pool, or for `threads` a
/// pool of that many for the call alone (built and dropped with it, so
/// never seen by a child).
///
/// # Errors
/// `QueensError` when the operating system refuses the threads.
pub fn for_call(py: Python<'_>, threads: Option<usize>) -> PyResult<Arc<ThreadPool>> {
    match threads {
        Some(threads) => Ok(Arc::new(
            queens::thread_pool(NonZeroUsize::new(threads)).map_err(to_py)?,
        )),
        None => shared(py),
    }
}

/// This process's shared pool, built on first use in each process. The
/// `Python` token is the proof that the GIL is held (see the module's
/// doc).
fn shared(_gil: Python<'_>) -> PyResult<Arc<ThreadPool>> {
    let pid = std::process::id();
    let mut slot = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((owner, pool)) = slot.as_ref()
        && *owner == pid
    {
        return Ok(Arc::clone(pool));
    }
    if let Some(parents) = slot.take() {
        std::mem::forget(parents);
    }
    let pool = Arc::new(queens::thread_pool(None).map_err(to_py)?);
    *slot = Some((pid, Arc::clone(&pool)));
    Ok(pool)
}
