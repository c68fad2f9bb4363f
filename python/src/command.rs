//! The `queens` command from the wheel: the binary's command line
//! (`src/cli`, compiled into the extension), run by `queens._cli.main`
//! for the `queens` script and `python -m queens`.
//!
//! It runs as the binary does, in a process of its own: the same parse,
//! messages, output on descriptors 1 and 2 (not `sys.stdout`) and exit
//! codes. What differs: `--version` names the Python package first (and
//! says the GPU executor is the binary's), the allocator is the
//! interpreter's, and the caller puts SIGINT back to its default first, so
//! that Ctrl-C stops a command as it stops the binary (`count` catches it
//! itself and ends with 130).

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::FromArgMatches;
use pyo3::prelude::*;

use crate::cli;

/// The package's name on the package index (the import name is `queens`).
pub const DISTRIBUTION: &str = "queens-rs";

/// Runs the command line `argv` (`argv[0]` is the program's name) and
/// returns its exit code. Only for the `queens` command and
/// `python -m queens`, which own their process: `count` installs signal
/// handlers for the rest of it, and some failures end the process.
#[pyfunction]
pub fn _main(py: Python<'_>, argv: Vec<OsString>) -> u8 {
    let version = format!(
        "{} (the Python package {DISTRIBUTION} {0}, on Python {})",
        env!("CARGO_PKG_VERSION"),
        Python::version_str()
            .split_whitespace()
            .next()
            .unwrap_or("3")
    );
    py.detach(|| {
        let subcommand = argv
            .get(1)
            .map(|a| a.to_string_lossy().into_owned())
            .unwrap_or_default();
        // The extension never has the GPU executor (it takes the library
        // without its `gpu` feature: python/Cargo.toml), so the binary's
        // "cargo install --features gpu builds it" is no advice for a wheel.
        let long_version = cli::long_version(
            &version,
            "not in the Python package (the queens binary built with --features gpu has it)",
        );
        let parsed = cli::command()
            // Leaked: clap takes a static string, and the process ends
            // with the command.
            .version(&*Box::leak(version.into_boxed_str()))
            .long_version(&*Box::leak(long_version.into_boxed_str()))
            .try_get_matches_from(argv)
            .and_then(|mut matches| {
                cli::Cli::from_arg_matches_mut(&mut matches)
                    .map_err(|err| err.format(&mut cli::command()))
            });
        let code = match parsed {
            Ok(args) => cli::run(args),
            Err(err) => cli::usage_error(&err, &subcommand),
        };
        // A binary's runtime flushes stdout at exit; an extension's must.
        let _ = std::io::stdout().flush();
        exit_status(code)
    })
}

/// The number an `ExitCode` stands for (std keeps it private).
fn exit_status(code: ExitCode) -> u8 {
    (0..=u8::MAX)
        .find(|&k| ExitCode::from(k) == code)
        .unwrap_or(1)
}
