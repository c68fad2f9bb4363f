//! Ctrl-C, SIGTERM and SIGHUP during a count.
//!
//! The first signal sets a flag: the count stops handing out units, and
//! [`wait`] gives the units already running a few seconds to finish before
//! it gives up on them. A second signal ends the process at once (with
//! 128 + its own number), which is safe because every finished unit is already in
//! the journal, record by record. Installed by `count` only; every other
//! subcommand keeps the default behaviour (stop at once).
//!
//! On Windows the console's control handler (the `ctrlc` crate) takes the
//! place of the signals: Ctrl-C and Ctrl-Break do what SIGINT does, with
//! the same exit code (130); closing the console window, logging off or
//! shutting down reach the same handler, but Windows ends the process as
//! soon as the handler has run, as a kill would, and what finished is
//! already in the journal.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Set by the first signal; the cancel flag of every count.
static STOP: AtomicBool = AtomicBool::new(false);
/// The last signal received.
static SIGNAL: AtomicUsize = AtomicUsize::new(0);

/// How long the units running at a signal may take to finish before they
/// are abandoned (and recounted by the next run).
const GRACE: Duration = Duration::from_secs(3);

/// Catches SIGINT, SIGTERM and SIGHUP from now on.
#[cfg(unix)]
pub fn install() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::flag;
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        // The shutdown goes first, so that it sees the flag as the signal
        // before this one left it: unset on the first signal.
        flag::register_conditional_shutdown(signal, 128 + signal, &STOP)?;
        flag::register_usize(signal, &SIGNAL, signal as usize)?;
        flag::register(signal, &STOP)?;
    }
    Ok(())
}

/// Catches the console's Ctrl-C, Ctrl-Break and close from now on, as
/// SIGINT: the first sets the flag, a second ends the process at once.
#[cfg(windows)]
pub fn install() -> std::io::Result<()> {
    /// What the console's events count as: SIGINT's number, for the exit
    /// code a script sees on either system.
    const SIGINT: usize = 2;
    ctrlc::try_set_handler(|| {
        if STOP.load(Ordering::SeqCst) {
            std::process::exit(i32::from(exit_code()));
        }
        SIGNAL.store(SIGINT, Ordering::SeqCst);
        STOP.store(true, Ordering::SeqCst);
    })
    .map_err(std::io::Error::other)
}

/// The flag a count polls between units.
pub fn stop_flag() -> &'static AtomicBool {
    &STOP
}

/// Whether a signal has arrived.
pub fn stopped() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// The exit code for the signal received: 128 + its number (130 for
/// SIGINT, 143 for SIGTERM, 129 for SIGHUP).
pub fn exit_code() -> u8 {
    let signal = SIGNAL.load(Ordering::SeqCst);
    u8::try_from(128 + signal).unwrap_or(130)
}

/// Runs `work` on a thread of its own and waits for it, watching for
/// signals: once one arrives, calls `stopping` at once (a progress bar
/// clears itself there, not seconds later when the units running have
/// finished, nor never if the process ends first), and `work` has
/// [`GRACE`] to return. If it does not, calls `abandon` while the thread
/// is still running, and exits with the signal's code (`abandon` may exit
/// first, with its own last words).
pub fn wait<T: Send>(
    work: impl FnOnce() -> T + Send,
    stopping: impl FnOnce(),
    abandon: impl FnOnce(),
) -> T {
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let worker = scope.spawn(move || {
            let _ = sender.send(work());
        });
        let mut since: Option<Instant> = None;
        let mut stopping = Some(stopping);
        loop {
            match receiver.recv_timeout(Duration::from_millis(100)) {
                Ok(value) => return value,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    // The work panicked before sending: raise it here.
                    match worker.join() {
                        Err(panic) => std::panic::resume_unwind(panic),
                        Ok(()) => unreachable!("the work sends before it ends"),
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if !stopped() {
                continue;
            }
            if let Some(stopping) = stopping.take() {
                stopping();
            }
            if since.get_or_insert_with(Instant::now).elapsed() > GRACE {
                abandon();
                std::process::exit(i32::from(exit_code()));
            }
        }
    })
}
