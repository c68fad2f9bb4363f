//! The `queens` command line: parses arguments, runs the library, talks.
//!
//! Data goes to stdout (a table, or JSON lines with `--json`); progress,
//! warnings and errors go to stderr. Exit codes: 0 success, 1 runtime
//! failure (or, for `one` and `check`, no solution / an invalid board), 2 bad
//! usage or unreadable input, 3 a count that disagrees with the OEIS.
//!
//! The `count` handler lives here; the other subcommands' handlers live in
//! [`cli`], one file each.

mod cli;

use std::io::{self, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use queens::engine::MAX_THREADS;
use queens::kernel::MAX_N;
use queens::units::{DEFAULT_SPLIT_DEPTH, MAX_SPLIT_DEPTH};
use queens::{Algorithm, Config, Observer, count_parallel, count_serial, count_with, known};
use serde::Serialize;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exit code for a count that disagrees with the published value.
const EXIT_MISMATCH: u8 = 3;
/// Exit code for bad usage (clap uses the same).
const EXIT_USAGE: u8 = 2;
/// The largest n with a published total: beyond it a count has nothing to be
/// checked against and takes years.
const LARGEST_KNOWN: u32 = (known::A000170.len() - 1) as u32;

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
    Count(CountArgs),
    /// List every solution, in lexicographic order, streamed.
    List(cli::list::ListArgs),
    /// Print one solution for any board size, instantly, by formula.
    One(cli::one::OneArgs),
    /// Check boards in any format `list` writes: ok, or the first clash.
    Check(cli::check::CheckArgs),
    /// Time each algorithm of the ladder, from brute force to the engine.
    Ladder(cli::ladder::LadderArgs),
}

#[derive(Debug, clap::Args)]
struct CountArgs {
    /// Board size N (1 to 32), or an inclusive range A..B (also A..=B), as
    /// `seq A B` would list it.
    #[arg(value_name = "N|A..B", value_parser = parse_sizes, allow_negative_numbers = true)]
    sizes: Sizes,

    /// Worker threads [default: all cores, or RAYON_NUM_THREADS].
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads)]
    threads: Option<NonZeroUsize>,

    /// Rows fixed by each parallel work unit (1 to 6).
    #[arg(long, value_name = "D", default_value_t = DEFAULT_SPLIT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_SPLIT_DEPTH)))]
    split_depth: u32,

    /// Print one JSON object per board size (JSON lines).
    #[arg(long)]
    json: bool,

    /// Print only the counts, one per line; no progress bar, no warnings.
    #[arg(short, long)]
    quiet: bool,

    /// Counting engine: `join` pairs half-boards (fast for large n, 4 <= n <= 24),
    /// `mirror` backtracks row by row with mirror symmetry [default: join where it
    /// applies and is faster, else mirror].
    #[arg(long, value_enum)]
    engine: Option<Engine>,

    /// Count each size with a second, independent engine too (the mirror
    /// backtracker and the join) and exit 3 if they disagree.
    #[arg(long)]
    cross_check: bool,

    /// Also count the essentially different solutions (OEIS A002562) and
    /// the symmetry classes by size.
    #[arg(long)]
    unique: bool,

    /// Count with this step of the ladder (see `queens ladder`);
    /// --split-depth applies to bitmask and parallel, --threads to parallel.
    #[arg(long, value_name = "NAME", value_enum, conflicts_with = "engine")]
    algorithm: Option<cli::AlgorithmArg>,

    /// Run a slow algorithm on a board it would take over a minute on.
    #[arg(long)]
    force: bool,
}

/// The counting engines the CLI offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Engine {
    /// Bitmask backtracking with mirror symmetry, split into work units.
    Mirror,
    /// Half-board join with the symmetry rules and the bit-sliced matcher.
    Join,
    /// The join with odd boards split into unequal halves (for cross-checks).
    #[value(hide = true)]
    JoinUnequal,
    /// The join's unoptimised reference stage (for cross-checks).
    #[value(hide = true)]
    JoinReference,
    /// The join without symmetry (for cross-checks).
    #[value(hide = true)]
    JoinSliced,
}

impl Engine {
    /// The engine for `n` when none is named: the join from n = 12 on (it
    /// is faster there, see results/), the backtracker below and past it.
    fn default_for(n: u32) -> Self {
        if (12..=queens::join::MAX_N).contains(&n) {
            Self::Join
        } else {
            Self::Mirror
        }
    }

    /// The independent engine to check this one against.
    fn other(self, n: u32) -> Option<Self> {
        match self {
            Self::Mirror if (queens::join::MIN_N..=queens::join::MAX_N).contains(&n) => {
                Some(Self::Join)
            }
            Self::Mirror => None,
            Self::Join | Self::JoinUnequal | Self::JoinReference | Self::JoinSliced => {
                Some(Self::Mirror)
            }
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Mirror => "mirror",
            Self::Join => "join",
            Self::JoinUnequal => "join-unequal",
            Self::JoinReference => "join-reference",
            Self::JoinSliced => "join-sliced",
        }
    }

    fn count(
        self,
        n: u32,
        config: &Config,
        observer: &impl Observer,
    ) -> Result<queens::Count, queens::Error> {
        use queens::join::{Stage, count_join};
        match self {
            Self::Mirror => count_parallel(n, config, observer),
            Self::Join => count_join(n, Stage::FixedMiddle, config.threads, observer),
            Self::JoinUnequal => count_join(n, Stage::Symmetric, config.threads, observer),
            Self::JoinReference => count_join(n, Stage::Reference, config.threads, observer),
            Self::JoinSliced => count_join(n, Stage::Sliced, config.threads, observer),
        }
    }
}

/// The board sizes to count: an inclusive range (a single n is `n..=n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sizes {
    first: u32,
    last: u32,
}

const SIZE_SYNTAX: &str = "expected N or A..B (A..=B), with 1 <= A <= B <= 32";

fn parse_sizes(text: &str) -> Result<Sizes, String> {
    let (first, last) = match text.split_once("..") {
        Some((a, b)) => (
            parse_size(a)?,
            parse_size(b.strip_prefix('=').unwrap_or(b))?,
        ),
        None => {
            let n = parse_size(text)?;
            (n, n)
        }
    };
    if first > last {
        return Err(format!(
            "the range {first}..{last} is empty (its start is after its end): {SIZE_SYNTAX}"
        ));
    }
    Ok(Sizes { first, last })
}

fn parse_size(text: &str) -> Result<u32, String> {
    let n: i64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a board size: {SIZE_SYNTAX}"))?;
    u32::try_from(n)
        .ok()
        .filter(|n| (1..=MAX_N).contains(n))
        .ok_or_else(|| format!("board size {n} is out of range: n must be between 1 and {MAX_N}"))
}

fn parse_threads(text: &str) -> Result<NonZeroUsize, String> {
    let range = format!("the thread count must be between 1 and {MAX_THREADS}");
    let t: i64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number: {range}"))?;
    usize::try_from(t)
        .ok()
        .filter(|t| *t <= MAX_THREADS)
        .and_then(NonZeroUsize::new)
        .ok_or_else(|| format!("{t} is out of range: {range}"))
}

/// One count, as `--json` prints it.
#[derive(Debug, Serialize)]
struct CountRecord {
    /// Board size.
    n: u32,
    /// Solutions counted.
    solutions: u128,
    /// Wall time of the count alone, in seconds.
    elapsed_secs: f64,
    /// Threads in the pool that counted.
    threads: usize,
    /// Rows fixed per work unit (null for the join engine and for the slow
    /// algorithms).
    split_depth: Option<u32>,
    /// Work units searched (null for the slow algorithms, which have none).
    units: Option<usize>,
    /// What counted: the engine (`mirror`, `join`) or the `--algorithm`
    /// name (`parallel` is the mirror engine and reports `mirror`).
    engine: &'static str,
    /// The OEIS A000170 value, or null where none is published.
    known: Option<u128>,
    /// Whether `solutions` equals `known`; null when nothing is known.
    matches_known: Option<bool>,
    /// With `--unique`: the essentially different solutions, their classes
    /// by size, and the check against OEIS A002562.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    unique: Option<UniqueRecord>,
    /// With `--cross-check`: the second engine and what it counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    cross_check: Option<CrossCheck>,
    /// Version of queens.
    version: &'static str,
}

/// The second opinion of `--cross-check`.
#[derive(Clone, Copy, Debug, Serialize)]
struct CrossCheck {
    /// The engine that counted again.
    engine: &'static str,
    /// What it counted.
    solutions: u128,
    /// Whether it agrees with the first engine.
    agrees: bool,
}

/// The `--unique` fields of a [`CountRecord`].
#[derive(Clone, Copy, Debug, Serialize)]
struct UniqueRecord {
    /// Essentially different solutions.
    unique: u128,
    /// Classes of 8 (`none`), 4 (`rotation_180`) and 2 (`rotation_90`).
    classes: queens::Classes,
    /// Solutions unchanged by a half turn (S180).
    half_turn_symmetric: u128,
    /// Solutions unchanged by a quarter turn (S90).
    quarter_turn_symmetric: u128,
    /// The OEIS A002562 value, or null where none is published.
    known_unique: Option<u128>,
    /// Whether `unique` equals `known_unique`; null when nothing is known.
    matches_known_unique: Option<bool>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let subcommand = std::env::args().nth(1).unwrap_or_default();
            return usage_error(&err, &subcommand);
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("queens: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// Help and version go out as clap writes them; every other parse error
/// becomes one line on stderr and exit code 2.
fn usage_error(err: &clap::Error, subcommand: &str) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            return ExitCode::from(EXIT_USAGE);
        }
        _ => {}
    }
    let line = if err.kind() == ErrorKind::MissingRequiredArgument {
        match subcommand {
            "list" | "one" | "ladder" => cli::missing_size(subcommand),
            _ => format!("missing board size: {SIZE_SYNTAX} (for example 'queens count 12')"),
        }
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

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Count(args) => run_count(&args),
        Command::List(args) => cli::list::run(&args),
        Command::One(args) => cli::one::run(&args),
        Command::Check(args) => cli::check::run(&args),
        Command::Ladder(args) => cli::ladder::run(&args),
    }
}

fn run_count(args: &CountArgs) -> anyhow::Result<ExitCode> {
    let config = Config {
        threads: args.threads,
        split_depth: args.split_depth,
    };
    let human = !args.json && !args.quiet;
    let Sizes { first, last } = args.sizes;
    if let Some(refusal) = args
        .algorithm
        .and_then(|a| cli::refuse_size(Algorithm::from(a), last, args.force))
    {
        eprintln!("queens: {refusal}");
        return Ok(ExitCode::from(EXIT_USAGE));
    }
    if last > LARGEST_KNOWN && !args.quiet {
        eprintln!(
            "queens: warning: no total is published for n > {LARGEST_KNOWN}, so nothing will check \
             this count, and n = {last} may run for years"
        );
    }
    if let Some(engine) = args.engine.filter(|e| *e != Engine::Mirror) {
        let join = queens::join::MIN_N..=queens::join::MAX_N;
        if !join.contains(&first) || !join.contains(&last) {
            eprintln!(
                "queens: the {} engine counts {} <= n <= {} only; use --engine mirror for n = {}",
                engine.name(),
                join.start(),
                join.end(),
                if join.contains(&first) { last } else { first }
            );
            return Ok(ExitCode::from(EXIT_USAGE));
        }
    }
    let show_progress = human && io::stderr().is_terminal();
    let mut out = io::stdout().lock();
    if human {
        write!(out, "{:>3}  {:>20}  ", "n", "solutions")?;
        if args.unique {
            write!(
                out,
                "{:>18}  {:>18}  {:>12}  {:>8}  ",
                "unique", "8-member", "4-member", "2-member"
            )?;
        }
        writeln!(out, "{:>10}  {:>7}  OEIS", "time", "threads")?;
    }
    let mut mismatches = 0;
    for n in first..=last {
        let progress = Progress::new(n, show_progress);
        let started = Instant::now();
        let counter = args.counter(n);
        let count = counter
            .count(n, &config, &progress)
            .with_context(|| format!("counting n = {n} with {}", counter.name()))?;
        progress.finish();
        let unique = match args
            .unique
            .then(|| queens::unique(n, count.solutions))
            .transpose()
        {
            Ok(unique) => unique,
            Err(inconsistent) => {
                eprintln!(
                    "queens: MISMATCH: {inconsistent}. This is a bug in queens or a hardware \
                     fault: please report it."
                );
                mismatches += 1;
                continue;
            }
        };
        let elapsed = started.elapsed();
        let cross_check = if args.cross_check {
            cross_check(counter, n, &config, count.solutions, args.quiet)?
        } else {
            None
        };
        if cross_check.is_some_and(|c| !c.agrees) {
            mismatches += 1;
        }

        let known = known::total(n);
        let matches_known = known::matches_total(n, count.solutions);
        let unique = unique.map(|u| UniqueRecord {
            unique: u.unique,
            classes: u.classes,
            half_turn_symmetric: u.half_turn,
            quarter_turn_symmetric: u.quarter_turn,
            known_unique: known::unique(n),
            matches_known_unique: known::matches_unique(n, u.unique),
        });
        if args.json {
            let record = CountRecord {
                n,
                solutions: count.solutions,
                elapsed_secs: elapsed.as_secs_f64(),
                threads: count.threads,
                split_depth: count.split_depth,
                units: count.units,
                engine: count.engine,
                known,
                matches_known,
                unique,
                cross_check,
                version: env!("CARGO_PKG_VERSION"),
            };
            serde_json::to_writer(&mut out, &record)?;
            writeln!(out)?;
            out.flush()?;
            mismatches += report_mismatches(n, count.solutions, known, unique.as_ref());
            continue;
        }
        if args.quiet {
            match &unique {
                Some(u) => writeln!(out, "{} {}", count.solutions, u.unique)?,
                None => writeln!(out, "{}", count.solutions)?,
            }
        } else {
            let mut verdict = verdict(matches_known, known);
            write!(out, "{n:>3}  {:>20}  ", count.solutions)?;
            if let Some(u) = &unique {
                let c = u.classes;
                write!(
                    out,
                    "{:>18}  {:>18}  {:>12}  {:>8}  ",
                    u.unique, c.none, c.rotation_180, c.rotation_90
                )?;
                verdict = format!("{verdict}, {}", verdict_unique(u));
            }
            if let Some(c) = cross_check {
                let word = if c.agrees { "agrees" } else { "DISAGREES" };
                verdict = format!("{verdict}, {} {word}", c.engine);
            }
            writeln!(
                out,
                "{:>10}  {:>7}  {verdict}",
                format_duration(elapsed),
                count.threads
            )?;
        }
        out.flush()?;
        mismatches += report_mismatches(n, count.solutions, known, unique.as_ref());
    }
    Ok(if mismatches > 0 {
        ExitCode::from(EXIT_MISMATCH)
    } else {
        ExitCode::SUCCESS
    })
}

/// What counts a board size: one of the engines, or a step of the ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Counter {
    Engine(Engine),
    Ladder(Algorithm),
}

/// A count by any counter, with what the engines report about it.
struct Counted {
    solutions: u128,
    threads: usize,
    /// Rows fixed per work unit (the mirror engine only).
    split_depth: Option<u32>,
    /// Work units searched (the engines only).
    units: Option<usize>,
    /// The engine's or the algorithm's name.
    engine: &'static str,
}

impl Counter {
    fn name(self) -> String {
        match self {
            Self::Engine(e) => format!("the {} engine", e.name()),
            Self::Ladder(a) => format!("--algorithm {}", a.name()),
        }
    }

    fn count(self, n: u32, config: &Config, progress: &Progress) -> anyhow::Result<Counted> {
        let (count, engine) = match self {
            Self::Engine(e) => (e.count(n, config, progress)?, e.name()),
            // The last step of the ladder is the mirror engine itself.
            Self::Ladder(Algorithm::Parallel) => {
                (Engine::Mirror.count(n, config, progress)?, "mirror")
            }
            Self::Ladder(Algorithm::Bitmask) => (count_serial(n, config, progress)?, "bitmask"),
            Self::Ladder(slow) => {
                return Ok(Counted {
                    solutions: count_with(slow, n, config)?,
                    threads: 1,
                    split_depth: None,
                    units: None,
                    engine: slow.name(),
                });
            }
        };
        Ok(Counted {
            solutions: count.solutions,
            threads: count.threads,
            split_depth: count.split_depth,
            units: Some(count.units),
            engine,
        })
    }

    /// The engine independent of this counter, to cross-check it with.
    fn second_opinion(self, n: u32) -> Option<Engine> {
        match self {
            Self::Engine(e) => e.other(n),
            Self::Ladder(Algorithm::Parallel | Algorithm::Bitmask) => Engine::Mirror.other(n),
            Self::Ladder(_) => Some(Engine::Mirror),
        }
    }
}

impl CountArgs {
    /// The counter for `n`: the `--algorithm` if one is named, else the
    /// `--engine`, else the faster engine for `n`.
    fn counter(&self, n: u32) -> Counter {
        match (self.algorithm, self.engine) {
            (Some(a), _) => Counter::Ladder(Algorithm::from(a)),
            (None, Some(e)) => Counter::Engine(e),
            (None, None) => Counter::Engine(Engine::default_for(n)),
        }
    }
}

/// Counts `n` again with a second, independent engine; says loudly when
/// the two disagree. `None` when no second engine covers `n`.
fn cross_check(
    counter: Counter,
    n: u32,
    config: &Config,
    solutions: u128,
    quiet: bool,
) -> anyhow::Result<Option<CrossCheck>> {
    let Some(other) = counter.second_opinion(n) else {
        if !quiet {
            eprintln!(
                "queens: warning: no second engine for n = {n} (the join covers {} <= n <= {}): \
                 not cross-checked",
                queens::join::MIN_N,
                queens::join::MAX_N
            );
        }
        return Ok(None);
    };
    let second = other
        .count(n, config, &())
        .with_context(|| format!("cross-checking n = {n} with the {} engine", other.name()))?;
    let agrees = second.solutions == solutions;
    if !agrees {
        eprintln!(
            "queens: MISMATCH for n = {n}: {} counted {solutions} but the {} engine {}. \
             This is a bug in queens or a hardware fault: please report it.",
            counter.name(),
            other.name(),
            second.solutions
        );
    }
    Ok(Some(CrossCheck {
        engine: other.name(),
        solutions: second.solutions,
        agrees,
    }))
}

fn verdict(matches: Option<bool>, known: Option<u128>) -> String {
    match matches {
        Some(true) => "ok".to_owned(),
        Some(false) => format!("MISMATCH (known: {})", known.unwrap_or_default()),
        None => "unknown".to_owned(),
    }
}

fn verdict_unique(u: &UniqueRecord) -> String {
    match u.matches_known_unique {
        Some(true) => "unique ok".to_owned(),
        Some(false) => format!(
            "unique MISMATCH (known: {})",
            u.known_unique.unwrap_or_default()
        ),
        None => "unique unknown".to_owned(),
    }
}

/// Says loudly on stderr which counts disagree with the OEIS; returns how
/// many did.
fn report_mismatches(
    n: u32,
    solutions: u128,
    known: Option<u128>,
    unique: Option<&UniqueRecord>,
) -> u32 {
    let mut found = 0;
    let mut shout = |what: &str, counted: u128, table: &str, value: u128| {
        found += 1;
        eprintln!(
            "queens: MISMATCH for n = {n}: counted {counted} {what} but OEIS {table} says {value}. \
             This is a bug in queens or a hardware fault: please report it."
        );
    };
    if let Some(k) = known.filter(|&k| k != solutions) {
        shout("solutions", solutions, "A000170", k);
    }
    if let Some(u) = unique
        && let Some(k) = u.known_unique.filter(|&k| k != u.unique)
    {
        shout("unique solutions", u.unique, "A002562", k);
    }
    found
}

pub(crate) fn format_duration(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 1.0 {
        format!("{:.2} ms", secs * 1e3)
    } else {
        format!("{secs:.3} s")
    }
}

/// The progress bar, fed once per finished work unit. It advances by the
/// units' estimated costs, so its ETA holds even when units differ in size
/// by orders of magnitude. Hidden (and free) when nobody watches.
struct Progress {
    bar: ProgressBar,
    tally: Mutex<Tally>,
}

#[derive(Default)]
struct Tally {
    units: usize,
    done: usize,
    solutions: u128,
}

impl Progress {
    fn new(n: u32, visible: bool) -> Self {
        let target = if visible {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(None, target);
        bar.set_style(
            ProgressStyle::with_template(
                "n = {prefix} {spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% {msg} (ETA {eta})",
            )
            .expect("a valid template"),
        );
        bar.set_prefix(n.to_string());
        Self {
            bar,
            tally: Mutex::new(Tally::default()),
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Observer for Progress {
    fn start(&self, units: usize, total_cost: u64) {
        self.bar.set_length(total_cost);
        self.tally
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .units = units;
        if !self.bar.is_hidden() {
            self.bar
                .set_message(format!("0/{units} units, 0 solutions"));
            self.bar.enable_steady_tick(Duration::from_millis(200));
        }
    }

    fn unit_done(&self, _id: u32, solutions: u128, cost: u64) {
        if self.bar.is_hidden() {
            return;
        }
        let mut tally = self
            .tally
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        tally.done += 1;
        tally.solutions += solutions;
        let rate = tally.done as f64 / self.bar.elapsed().as_secs_f64().max(1e-9);
        self.bar.set_message(format!(
            "{}/{} units, {} solutions, {rate:.1} units/s",
            tally.done, tally.units, tally.solutions
        ));
        self.bar.inc(cost);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn sizes_accept_a_number_and_both_range_spellings() {
        assert_eq!(
            parse_sizes("16"),
            Ok(Sizes {
                first: 16,
                last: 16
            })
        );
        assert_eq!(parse_sizes("8..16"), Ok(Sizes { first: 8, last: 16 }));
        assert_eq!(parse_sizes("8..=16"), Ok(Sizes { first: 8, last: 16 }));
    }

    #[test]
    fn sizes_reject_everything_else() {
        for bad in [
            "", "0", "-3", "33", "x", "8..", "..8", "8...9", "16..8", "8-16", "1e3",
        ] {
            assert!(parse_sizes(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn threads_reject_zero_and_absurd_counts() {
        assert!(parse_threads("0").is_err());
        assert!(parse_threads("-2").is_err());
        assert!(parse_threads("100000").is_err());
        assert_eq!(parse_threads("7").map(NonZeroUsize::get), Ok(7));
    }
}
