//! The `queens` binary: sets the allocator, parses the command line and
//! hands it to [`cli`], which runs the library and talks.

mod cli;

use std::process::ExitCode;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    match cli::parse() {
        Ok(args) => cli::run(args),
        Err(err) => cli::usage_error(&err, &std::env::args().nth(1).unwrap_or_default()),
    }
}
