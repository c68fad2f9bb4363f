//! The `queens` command from the wheel: the binary's command line
//! (`queens_cli::main_with`), run by `queens._cli.main` for the `queens`
//! script and `python -m queens`.
//!
//! It runs as the binary does, in a process of its own: the same parse,
//! messages, output on descriptors 1 and 2 (not `sys.stdout`) and exit
//! codes. What differs: `--version` names the Python package first (and
//! says the GPU executor is the binary's), the allocator is the
//! interpreter's, and the caller puts SIGINT back to its default first, so
//! that Ctrl-C stops a command as it stops the binary (`count` catches it
//! itself and ends with 130).

use std::ffi::OsString;

use pyo3::prelude::*;

/// The package's name on the package index (the import name is `queens`).
pub const DISTRIBUTION: &str = "queens-rs";

/// Runs the command line `argv` (`argv[0]` is the program's name) and
/// returns its exit code. Only for the `queens` command and
/// `python -m queens`, which own their process: `count` installs signal
/// handlers for the rest of it, and some failures end the process.
#[pyfunction]
pub fn _main(py: Python<'_>, argv: Vec<OsString>) -> u8 {
    let version = queens_cli::Version {
        short: format!(
            "{} (the Python package {DISTRIBUTION} {0}, on Python {})",
            env!("CARGO_PKG_VERSION"),
            Python::version_str()
                .split_whitespace()
                .next()
                .unwrap_or("3")
        ),
        // The extension never has the GPU executor (it takes the library
        // without its `gpu` feature: python/Cargo.toml), so the binary's
        // "cargo install --features gpu builds it" is no advice for a wheel.
        without_gpu: "not in the Python package (the queens binary built with --features gpu has it)",
    };
    py.detach(|| queens_cli::main_with(argv, &version))
}
