//! Standard output as every command writes to it: buffered, and failing
//! when there is nowhere for the output to go.
//!
//! A write error on stdout is an error, never a success with the output
//! lost, and its message says where the write went ("cannot write to
//! standard output: No space left on device"): the `io::Error` of a full
//! disk or a failing device names no file. A closed stdout (`queens count 12 >&-`) does
//! not: before `main`, Rust's runtime opens `/dev/null` on a closed
//! standard descriptor, so every write would succeed into nothing. So the
//! descriptor is looked at before the runtime starts, and when it was
//! closed every write to [`Stdout`] fails instead.
//!
//! This must never decide that a stdout the user chose (`>/dev/null`, a
//! pipe, a file) is closed: only a descriptor missing at startup is.

use crate::exit::ExitCode;
use std::io::{self, BufWriter, StdoutLock, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// How many bytes of output are gathered before a write to stdout.
const OUTPUT_BUFFER: usize = 1 << 16;

/// Whether descriptor 1 was closed when the process started.
static CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Stdout, locked and buffered: boards go out in 64 KiB writes, not a
/// syscall per line. Every write through it fails if stdout was closed
/// when the process started.
pub fn stdout() -> BufWriter<Stdout> {
    BufWriter::with_capacity(
        OUTPUT_BUFFER,
        Stdout {
            lock: io::stdout().lock(),
            closed: closed_at_start(),
        },
    )
}

/// Whether descriptor 1 was closed when the process started, so that what
/// is written to it goes to the runtime's `/dev/null`.
pub fn closed_at_start() -> bool {
    CLOSED_AT_START.load(Ordering::Relaxed)
}

/// The error of a write to a stdout that was closed at startup.
pub fn closed_error() -> io::Error {
    io::Error::other(
        "standard output is closed, so the output would be lost (redirect it to /dev/null to \
         discard it)",
    )
}

/// `err`, a failed write to stdout, saying so; a closed pipe stays the
/// bare `BrokenPipe` that ends a command quietly.
fn write_error(err: io::Error) -> io::Error {
    if err.kind() == io::ErrorKind::BrokenPipe {
        return err;
    }
    io::Error::new(
        err.kind(),
        format!("cannot write to standard output: {err}"),
    )
}

/// Prints clap's help or version, which go to stdout: a write that fails
/// (or a stdout closed at startup) is an error, a closed pipe a success.
pub fn print_help(help: &clap::Error) -> ExitCode {
    let printed = if closed_at_start() {
        Err(closed_error())
    } else {
        (help.print().and_then(|()| io::stdout().flush())).map_err(write_error)
    };
    match printed {
        Err(err) if err.kind() != io::ErrorKind::BrokenPipe => {
            eprintln!("queens: {err}");
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    }
}

/// The terminal's width in columns when stdout is a terminal; `None` when
/// it is a file or a pipe, whose text is left as written.
pub fn terminal_width() -> Option<usize> {
    terminal_size::terminal_size_of(io::stdout()).map(|(width, _)| usize::from(width.0))
}

/// Locked stdout that refuses every write when it was closed at startup.
pub struct Stdout {
    lock: StdoutLock<'static>,
    closed: bool,
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed && !buf.is_empty() {
            return Err(closed_error());
        }
        self.lock.write(buf).map_err(write_error)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.lock.flush().map_err(write_error)
    }
}

/// Records whether descriptor 1 is open, before the runtime reopens it.
///
/// `/proc/self/fd/1` is missing exactly when descriptor 1 is closed; when
/// `/proc` itself is missing, nothing can be told and stdout counts as open.
#[cfg(target_os = "linux")]
extern "C" fn check_stdout_at_start() {
    let closed = std::path::Path::new("/proc/self/fd").is_dir()
        && std::fs::symlink_metadata("/proc/self/fd/1")
            .is_err_and(|err| err.kind() == io::ErrorKind::NotFound);
    CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// Runs [`check_stdout_at_start`] before `main`, as the C runtime runs
/// every function listed in `.init_array`; Rust's runtime replaces a
/// closed descriptor only later, at the start of `main`.
#[cfg(target_os = "linux")]
#[used]
#[allow(unsafe_code)]
// SAFETY: an `.init_array` entry is a pointer to an `extern "C" fn()`,
// which this is; the function runs single-threaded before `main`, touches
// no state that `main` sets up, and only stats two paths and stores a flag.
#[unsafe(link_section = ".init_array")]
static CHECK_STDOUT_AT_START: extern "C" fn() = check_stdout_at_start;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_names_standard_output_and_a_closed_pipe_stays_quiet() {
        // See: issue 32 ("No space left on device" without saying where).
        let full = write_error(io::Error::from(io::ErrorKind::StorageFull));
        assert_eq!(full.kind(), io::ErrorKind::StorageFull);
        assert!(
            full.to_string()
                .starts_with("cannot write to standard output: "),
            "{full}"
        );
        let pipe = write_error(io::Error::from(io::ErrorKind::BrokenPipe));
        assert_eq!(pipe.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(
            super::super::exit::code(Err(pipe.into())),
            ExitCode::SUCCESS
        );
    }
}
