//! The `queens` command line: one file per subcommand, and what they share.
//!
//! Data goes to stdout (a table, or JSON lines with `--json`); progress,
//! warnings and errors go to stderr. Exit codes: 0 success, 1 runtime
//! failure (or, for `one` and `check`, no solution / an invalid board), 2 bad
//! usage or unreadable input, 3 a count that disagrees with the OEIS or
//! with a second engine.
//!
//! Everything here talks (stdout, stderr, exit codes) and nothing computes:
//! boards, plans and counts come from the library.

pub mod args;
pub mod bench;
pub mod check;
pub mod count;
pub mod files;
pub mod journal;
pub mod ladder;
pub mod list;
pub mod memory;
pub mod merge;
pub mod one;
pub mod options;
pub mod plan;
pub mod progress;
pub mod report;
pub mod shard;
pub mod signals;
pub mod stdout;
pub mod verify;

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use stdout::stdout;

/// Exit code for bad usage (clap uses the same).
pub const EXIT_USAGE: u8 = 2;

/// Counts and shows the solutions of the n-queens puzzle.
#[derive(Debug, Parser)]
#[command(name = "queens", version, about, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the solutions for a board size, or for each size in a range.
    Count(count::CountArgs),
    /// Show the plan of work units a count runs: units, cost, hash.
    Plan(plan::PlanArgs),
    /// List every solution, in lexicographic order, streamed.
    List(list::ListArgs),
    /// Print one solution for any board size, instantly, by formula.
    One(one::OneArgs),
    /// Check boards in any format `list` writes: ok, or the first clash.
    Check(check::CheckArgs),
    /// Time each algorithm of the ladder, from brute force to the engine.
    Ladder(ladder::LadderArgs),
    /// Benchmark this machine: a fixed workload at 1, 2, 4, ... threads.
    Bench(bench::BenchArgs),
    /// Put the shards of a run (`count N --shard I/K`) together, proving
    /// every unit is there once, and print the total.
    Merge(merge::MergeArgs),
    /// Recount a random sample of the units in shard results and compare.
    Verify(verify::VerifyArgs),
}

/// Runs a parsed command line: errors are printed once, as `queens:
/// <message>` with their causes; a closed pipe (`| head`) is a success.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Count(args) => count::run(&args),
        Command::Plan(args) => plan::run(&args),
        Command::List(args) => list::run(&args),
        Command::One(args) => one::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Ladder(args) => ladder::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Verify(args) => verify::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        // The refusal says what it refused: the contexts would repeat it.
        Err(ref err) if let Some(refusal) = memory_refusal(err) => {
            eprintln!("queens: {refusal}");
            ExitCode::from(EXIT_USAGE)
        }
        Err(err) if err.is::<UsageError>() => {
            eprintln!("queens: {err:#}");
            ExitCode::from(EXIT_USAGE)
        }
        Err(err) => {
            eprintln!("queens: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// A refusal found after parsing (a file that is not what it should be):
/// printed like any error, with exit code 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Help and version go out as clap writes them; every other parse error
/// becomes one line on stderr and exit code 2.
pub fn usage_error(err: &clap::Error, subcommand: &str) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => return stdout::print_help(err),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            return ExitCode::from(EXIT_USAGE);
        }
        _ => {}
    }
    let line = if err.kind() == ErrorKind::MissingRequiredArgument {
        missing(subcommand, &missing_arguments(err))
    } else {
        // clap's message runs until the first blank line; tips and usage follow.
        let text = err.to_string();
        let message: Vec<&str> = text
            .lines()
            .take_while(|l| !l.trim().is_empty())
            .map(str::trim)
            .collect();
        message.join(" ").trim_start_matches("error: ").to_owned()
    };
    eprintln!("queens: {line}");
    ExitCode::from(EXIT_USAGE)
}

/// The arguments clap found missing, as it writes them (`<N>`,
/// `--sample <P%>`, `<DIR|FILES>...`), in the order of the command line.
fn missing_arguments(err: &clap::Error) -> Vec<String> {
    use clap::error::{ContextKind, ContextValue};
    match err.get(ContextKind::InvalidArg) {
        Some(ContextValue::Strings(names)) => names.clone(),
        Some(ContextValue::String(name)) => vec![name.clone()],
        _ => Vec::new(),
    }
}

/// The line for a subcommand with arguments `missing` (a `requires`
/// names the argument required, not the one that requires it).
fn missing(subcommand: &str, missing: &[String]) -> String {
    const VERIFY_EXAMPLE: &str = "(for example 'queens verify results/ --sample 1%')";
    const SHARDS: &str = "the shard results: a directory or files shard-IIII-of-KKKK.json";
    let is = |name: &str| {
        missing
            .iter()
            .any(|m| m.split_whitespace().next() == Some(name))
    };
    match subcommand {
        _ if is("<N>") || is("<N|A..B>") => missing_size(subcommand),
        "merge" if is("<DIR|FILES>...") => {
            format!("missing {SHARDS} (for example 'queens merge results/')")
        }
        "verify" if is("<DIR|FILES>...") && is("--sample") => {
            format!("missing {SHARDS}, and --sample P% {VERIFY_EXAMPLE}")
        }
        "verify" if is("<DIR|FILES>...") => format!("missing {SHARDS} {VERIFY_EXAMPLE}"),
        "verify" if is("--sample") => format!(
            "missing --sample P%: the share of the units to recount, above 0 and at most 100% \
             {VERIFY_EXAMPLE}"
        ),
        "count" if is("--shard") => "--out-dir needs --shard I/K: it is where a shard's result \
                                     goes (for example 'queens count 18 --shard 0/64 --out-dir \
                                     results/')"
            .to_owned(),
        _ => format!(
            "missing {} (see 'queens {subcommand} --help')",
            missing.join(" and ")
        ),
    }
}

/// The line for a subcommand whose board size is missing.
fn missing_size(subcommand: &str) -> String {
    let max = match subcommand {
        "count" => {
            return format!(
                "missing board size: {} (for example 'queens count 12')",
                args::SIZE_SYNTAX
            );
        }
        "bench" => {
            let (min, max) = (bench::MIN_N, bench::MAX_N);
            return format!(
                "--engine needs a board size N, from {min} to {max} (for example 'queens bench \
                 16 --engine mirror')"
            );
        }
        "one" => queens::format::read::MAX_N,
        _ => queens::MAX_N,
    };
    format!("missing board size N, from 1 to {max} (for example 'queens {subcommand} 8')")
}

/// The library's refusal of a plan or count too big for this machine, if
/// that is what `err` comes to.
fn memory_refusal(err: &anyhow::Error) -> Option<&queens::Error> {
    err.chain()
        .filter_map(|e| e.downcast_ref::<queens::Error>())
        .find(|e| matches!(e, queens::Error::Memory { .. }))
}

/// Whether `err` is a write to a closed pipe, directly or through
/// serde_json (whose error hides the `io::Error` from `source()`).
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        let kind = e
            .downcast_ref::<io::Error>()
            .map(io::Error::kind)
            .or_else(|| {
                e.downcast_ref::<serde_json::Error>()
                    .and_then(serde_json::Error::io_error_kind)
            });
        kind == Some(io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
