//! `--checkpoint FILE`: the CLI's side of the library's journal
//! ([`queens::journal::Journal`], which opens, locks, appends and syncs):
//! what the user reads while it waits for a lock or cuts a damaged tail,
//! the exit codes of a refusal, the SIGBUS handler for a journal truncated
//! from outside, and the test builds' hook that kills the process after K
//! records ([`KillAfter`], an observer outside the journal, which appends
//! as it does in every build).

use std::path::Path;
#[cfg(unix)]
use std::sync::OnceLock;
#[cfg(debug_assertions)]
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use queens::journal::{Journal, LockWait, OpenError};
use queens::{Observer, Plan, UnitDone};

use super::UsageError;
use super::signals;

/// Test builds only (debug assertions on, never the release binary): the
/// process kills itself with SIGKILL once this many units have finished
/// (and so are in the journal), to test resuming from a kill. On Windows
/// it ends at once, as `TerminateProcess` would, with exit code 137
/// (128 + SIGKILL's number), which the tests read there as the kill.
#[cfg(debug_assertions)]
const KILL_AFTER: &str = "QUEENS_TEST_KILL_AFTER";

/// The observer a journaled count reports to in test builds with
/// [`KILL_AFTER`] set: it passes every unit on, and raises SIGKILL when
/// the K-th has finished. A [`queens::Runner`] writes a unit to its journal
/// before its observer hears of it, so at the kill the journal holds those
/// K units at least (exactly K with one thread), written by the group-committed
/// appends that every count makes: what a resumed count must find there.
#[cfg_attr(not(debug_assertions), allow(dead_code))]
pub struct KillAfter<'a> {
    inner: &'a dyn Observer,
    #[cfg(debug_assertions)]
    after: usize,
    #[cfg(debug_assertions)]
    heard: AtomicUsize,
}

impl<'a> KillAfter<'a> {
    /// `inner` behind the kill hook, where a test build's environment asks
    /// for it; `None` in the release binary.
    pub fn from_env(inner: &'a dyn Observer) -> Option<Self> {
        #[cfg(debug_assertions)]
        if let Some(after) = std::env::var(KILL_AFTER).ok().and_then(|k| k.parse().ok()) {
            return Some(Self {
                inner,
                after,
                heard: AtomicUsize::new(0),
            });
        }
        let _ = inner;
        None
    }
}

impl Observer for KillAfter<'_> {
    fn start(&self, units: usize, total_cost: u128) {
        self.inner.start(units, total_cost);
    }

    fn unit_done(&self, done: &UnitDone) {
        self.inner.unit_done(done);
        #[cfg(debug_assertions)]
        if self.heard.fetch_add(1, Ordering::SeqCst) + 1 == self.after {
            kill_self();
        }
    }
}

/// Ends the process as SIGKILL would: no destructor, no flush, nothing
/// cut or synced.
#[cfg(all(debug_assertions, unix))]
fn kill_self() {
    let _ = signal_hook::low_level::raise(signal_hook::consts::SIGKILL);
}

/// Ends the process as `TerminateProcess` would: `exit` runs no Rust
/// destructor and returns to no caller, so the journal is neither cut nor
/// synced, and the other threads are stopped where they are.
#[cfg(all(debug_assertions, windows))]
fn kill_self() {
    std::process::exit(137);
}

/// What ends a count before it starts: the journal's lock was waited for
/// and a signal came. Its last words are printed.
#[derive(Debug, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted(pub u8);

/// Opens the journal at `path` for `plan` (the units `ids`, or all),
/// waiting up to `wait` for another process to let go of it and saying
/// once that it waits; warns unless `quiet` when a damaged tail was cut.
/// Refusals: exit 2 for a file that is not this plan's journal, 1 for one
/// in use; a signal while waiting is [`Interrupted`].
pub fn open(
    path: &Path,
    plan: &Plan,
    ids: Option<&[u32]>,
    wait: Duration,
    quiet: bool,
) -> anyhow::Result<Journal> {
    let waiting = |path: &Path, wait: Duration| {
        eprintln!(
            "queens: the journal {} is in use by another queens process; waiting up to {} s for it",
            path.display(),
            wait.as_secs()
        );
    };
    let lock = LockWait::up_to(wait)
        .cancel(signals::stop_flag())
        .on_wait(&waiting);
    let journal = match Journal::open(path, plan, ids, lock) {
        Ok(journal) => journal,
        Err(busy @ OpenError::Busy { waited, .. }) => {
            let waited = if wait.is_zero() {
                String::new()
            } else {
                format!(
                    " (waited {} s; --lock-wait sets how long)",
                    waited.as_secs()
                )
            };
            return Err(anyhow::anyhow!("{busy}{waited}"));
        }
        Err(cancelled @ OpenError::Cancelled(_)) => {
            eprintln!("{cancelled}");
            return Err(Interrupted(signals::exit_code()).into());
        }
        Err(other) => return Err(UsageError(other.to_string()).into()),
    };
    if let Some(cut) = journal.cut()
        && !quiet
    {
        let (line, bytes, damage) = (cut.line, cut.bytes, &cut.damage);
        eprintln!(
            "queens: warning: {} was damaged from line {line} on ({bytes} bytes; \
             line {line}: {damage}): cut there; those units will be counted again",
            path.display()
        );
    }
    catch_truncation(path);
    Ok(journal)
}

/// On Windows a mapped file cannot be cut short by another process: there
/// is no SIGBUS to catch.
#[cfg(windows)]
fn catch_truncation(_path: &Path) {}

/// What the SIGBUS handler prints: set once, before it is installed.
#[cfg(unix)]
static TRUNCATED: OnceLock<Vec<u8>> = OnceLock::new();

/// Turns the SIGBUS that a record written into the map raises, once
/// another process has truncated the file under it, into one line and
/// exit code 1 rather than a silent death (exit 135).
#[cfg(unix)]
fn catch_truncation(path: &Path) {
    use std::os::fd::AsFd;
    let line = format!(
        "queens: the journal {} was cut short by another process while this count wrote to it; \
         no total is reported (rerun to recount what it lacks)\n",
        path.display()
    );
    if TRUNCATED.set(line.into_bytes()).is_err() {
        return;
    }
    // SAFETY: the action calls only async-signal-safe functions: an atomic
    // load (`OnceLock::get` of a value set before registration), write(2)
    // on the stderr descriptor (`as_fd` takes no lock) and _exit(2). It
    // never returns, so the faulting write is not retried.
    #[allow(unsafe_code)]
    let registered = unsafe {
        signal_hook::low_level::register(signal_hook::consts::SIGBUS, || {
            if let Some(line) = TRUNCATED.get() {
                let _ = rustix::io::write(std::io::stderr().as_fd(), line);
            }
            signal_hook::low_level::exit(1);
        })
    };
    // Without the handler a truncation still ends the count, as SIGBUS.
    let _ = registered;
}
