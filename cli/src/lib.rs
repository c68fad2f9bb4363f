//! The `queens` command line: one file per subcommand, and what they share,
//! behind one entry, [`main_with`], that the `queens` binary and the Python
//! wheel's `queens` command both call.
//!
//! Data goes to stdout through `report` (a table, or JSON lines with
//! `--json`); progress, warnings and errors go to stderr; `exit` holds
//! the exit codes.
//!
//! Everything here talks (stdout, stderr, exit codes) and nothing computes:
//! boards, plans and counts come from the library, `queens`.

mod args;
mod bench;
mod check;
mod completions;
mod count;
mod cpu_time;
mod estimate;
mod exit;
mod files;
mod journal;
mod ladder;
mod list;
mod man;
pub mod memory;
mod merge;
mod one;
mod options;
mod picture;
mod plan;
mod problem;
mod progress;
mod report;
mod shard;
mod signals;
mod stdout;
mod values;
mod verify;

use std::ffi::OsString;
use std::io::Write;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::exit::ExitCode;

pub use exit::with_causes;
pub(crate) use exit::{EXIT_USAGE, UsageError};
pub(crate) use stdout::stdout;

/// Counts and shows the solutions of the n-queens puzzle.
#[derive(Debug, Parser)]
#[command(name = "queens", version, about, max_term_width = 100)]
struct Cli {
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
    /// Project how long `count N` would take here, from a random sample of
    /// its units, with an interval.
    Estimate(estimate::EstimateArgs),
    /// Print the completion script for a shell: bash, zsh, fish, elvish or
    /// powershell.
    Completions(completions::CompletionsArgs),
    /// Print the man page (roff) of queens, or of one of its commands.
    Man(man::ManArgs),
}

/// What `--version` says: the binary's words, or those of the Python
/// wheel's `queens` command, which names its package and cannot build the
/// GPU executor in.
#[derive(Clone, Debug)]
pub struct Version {
    /// What `-V` prints after `queens ` (the first line of `--version`).
    pub short: String,
    /// What `--version` says when the GPU executor is not built in: how to
    /// get it.
    pub without_gpu: &'static str,
}

impl Version {
    /// The `queens` binary's.
    pub fn binary() -> Self {
        Self {
            short: env!("CARGO_PKG_VERSION").to_owned(),
            without_gpu: "not built in (cargo install --features gpu builds it)",
        }
    }

    /// `--version`'s whole text: [`Version::short`], then the commit,
    /// whether the GPU executor is built in, and the code paths the
    /// counting loops take on this CPU.
    ///
    /// With a GPU executor built in and `probe`, a line naming the GPU
    /// `--gpu` would count on, or why none: asked of the drivers, so only
    /// when `--version` is on the command line.
    fn long(&self, probe: bool) -> String {
        let gpu = if queens::GPU_EXECUTOR && probe {
            let found = match queens::find_gpu(queens::GpuBackend::Auto) {
                Ok(name) => name,
                Err(why) => format!("none ({})", crate::exit::with_causes(&why)),
            };
            format!(
                "built in: {} (count --gpu)\nGPU: {found}",
                queens::GPU_EXECUTORS.join(", ")
            )
        } else if queens::GPU_EXECUTOR {
            format!(
                "built in: {} (count --gpu)",
                queens::GPU_EXECUTORS.join(", ")
            )
        } else {
            self.without_gpu.to_owned()
        };
        format!(
            "{}\ncommit: {}\nGPU executor: {gpu}\ncode paths on this CPU: {}",
            self.short,
            env!("QUEENS_COMMIT"),
            queens::bench::Machine::detect().simd
        )
    }
}

/// Runs the command line `args` (`args[0]` is the program's name) as the
/// `queens` binary does, and returns its exit code: the one entry of the
/// binary and of the Python wheel's `queens` command. Errors are printed
/// on stderr, data on stdout; `count` installs signal handlers for the
/// rest of the process, so the caller owns the process.
pub fn main_with<I, T>(args: I, version: &Version) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let subcommand = args
        .get(1)
        .map(|arg| arg.to_string_lossy().into_owned())
        .unwrap_or_default();
    let code = match parse(args, version) {
        Ok(cli) => run(cli),
        Err(err) => usage_error(&err, &subcommand),
    };
    // A binary's runtime flushes stdout at exit; an extension's must.
    let _ = std::io::stdout().flush();
    code.into()
}

/// The command line, with the exit codes at the end of every help: the
/// whole table in `queens --help`, the short form in each subcommand's;
/// `--version` says what this build and this CPU run ([`Version`]).
pub(crate) fn command() -> clap::Command {
    command_for(&Version::binary(), false)
}

/// The command line; `probe`: with the GPU in `--version`'s text.
fn command_for(version: &Version, probe: bool) -> clap::Command {
    Cli::command()
        .version(version.short.clone())
        .long_version(version.long(probe))
        .after_help(exit::TABLE)
        .mut_subcommands(|sub| {
            let help = match sub.get_after_help() {
                Some(own) => format!("{own}\n\n{}", exit::SHORT),
                None => exit::SHORT.to_owned(),
            };
            sub.after_help(help)
        })
}

/// `args`, parsed.
///
/// # Errors
/// Clap's, for [`usage_error`] to print.
fn parse(args: Vec<OsString>, version: &Version) -> Result<Cli, clap::Error> {
    let probe = args.iter().any(|arg| arg == "--version");
    let mut matches = command_for(version, probe).try_get_matches_from(args)?;
    Cli::from_arg_matches_mut(&mut matches).map_err(|err| err.format(&mut command()))
}

/// Runs a parsed command line; [`exit::code`] prints what went wrong and
/// picks the exit code.
fn run(cli: Cli) -> ExitCode {
    exit::code(match cli.command {
        Command::Count(args) => count::run(&args),
        Command::Plan(args) => plan::run(&args),
        Command::List(args) => list::run(&args),
        Command::One(args) => one::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Ladder(args) => ladder::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Estimate(args) => estimate::run(&args),
        Command::Completions(args) => completions::run(&args),
        Command::Man(args) => man::run(&args),
    })
}

/// Help and version go out as clap writes them; every other parse error
/// becomes one line on stderr and exit code 2, and a second, `tip: ...`,
/// where clap knows a similar subcommand, flag or value ([`tip`]).
fn usage_error(err: &clap::Error, subcommand: &str) -> ExitCode {
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
    } else if let Some(line) = refused_value(err) {
        line
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
    if let Some(tip) = tip(err) {
        eprintln!("{tip}");
    }
    ExitCode::from(EXIT_USAGE)
}

/// Clap's "did you mean", in its words (`tip: a similar subcommand
/// exists: 'count'`), taken from the error's context: clap's other tips
/// and its usage, which follow the message in its text, stay out.
///
/// See: issue 35, item 2 (`queens cout 8` got one bare line).
fn tip(err: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    [
        (ContextKind::SuggestedSubcommand, "subcommand"),
        (ContextKind::SuggestedArg, "argument"),
        (ContextKind::SuggestedValue, "value"),
    ]
    .into_iter()
    .find_map(|(kind, what)| {
        let similar = match err.get(kind)? {
            ContextValue::String(one) => vec![one.clone()],
            ContextValue::Strings(some) => some.clone(),
            _ => return None,
        };
        let quoted: Vec<String> = similar.iter().map(|s| format!("'{s}'")).collect();
        match quoted.as_slice() {
            [] => None,
            [one] => Some(format!("tip: a similar {what} exists: {one}")),
            some => Some(format!(
                "tip: some similar {what}s exist: {}",
                some.join(", ")
            )),
        }
    })
}

/// An option's value that its parser refused, as `--flag: why`, the flag
/// named once (a parser's line may start with it); `None` for any other
/// error, and for positional arguments, whose lines clap's words
/// (`invalid value '0' for '<N>': ...`) already say enough.
fn refused_value(err: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if err.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let Some(ContextValue::String(arg)) = err.get(ContextKind::InvalidArg) else {
        return None;
    };
    let flag = arg
        .split_whitespace()
        .next()
        .filter(|f| f.starts_with('-'))?;
    let why = std::error::Error::source(err)?.to_string();
    Some(if why.starts_with(flag) {
        why
    } else {
        format!("{flag}: {why}")
    })
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
    const VERIFY_EXAMPLE: &str = "(for example 'queens verify results/')";
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
        "verify" if is("<DIR|FILES>...") => format!("missing {SHARDS} {VERIFY_EXAMPLE}"),
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
        "one" => queens::MAX_READ_N,
        _ => queens::MAX_N,
    };
    format!("missing board size N, from 1 to {max} (for example 'queens {subcommand} 8')")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_definition_is_consistent() {
        command().debug_assert();
    }
}
