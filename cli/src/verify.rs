//! `queens verify DIR --sample P%`: recounts a random sample of the units
//! in a set of shard results and compares. Merge proves the files are
//! complete and consistent with each other; only recounting catches a
//! node that counted wrong or a file forged together with its total.
//! The units a shard took from a journal are sampled first.
//! `queens verify --journal FILE --sample P%` does the same for the
//! records of a journal, whose checksums stop damage but not a forger.
//!
//! The sample is the units whose SHA-256 of `seed:id` is smallest: the
//! same on every machine for the same seed, and unpredictable without it.
//! With no `--seed` a fresh one is drawn and printed, so that the check can
//! be repeated.

use crate::exit::ExitCode;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use anyhow::Context;
#[cfg(test)]
use queens::Shape;
use queens::journal::{ReadOnly, Replay};
use queens::shard::{self, ShardFile};
use queens::{Config, Engine, Plan, Runner};
use rayon::prelude::*;
use serde::Serialize;

use super::args::parse_threads;
use super::exit::EXIT_MISMATCH;
use super::report::{Form, Human, Report, disagreement};
use super::shard::{gather, read};

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Shard results (shard-IIII-of-KKKK.json), or directories holding them.
    #[arg(value_name = "DIR|FILES", required_unless_present = "journal")]
    paths: Vec<PathBuf>,

    /// Recount a sample of a journal's records instead (`count
    /// --checkpoint FILE`, or a shard's `.journal`): it is only read.
    #[arg(long, value_name = "FILE", conflicts_with = "paths")]
    journal: Option<PathBuf>,

    /// How much to recount: a percentage of the units present (e.g. 1%,
    /// 0.5%, 100%); at least one unit [default: 1%, and at least 100 units
    /// (all of them where there are fewer)].
    #[arg(long, value_name = "P%", value_parser = parse_percent, allow_hyphen_values = true)]
    sample: Option<f64>,

    /// Which sample: the same seed picks the same units everywhere
    /// [default: a fresh seed, printed].
    #[arg(long, value_name = "S", value_parser = super::args::parse_seed,
          allow_negative_numbers = true)]
    seed: Option<u64>,

    /// Worker threads [default: all cores, or RAYON_NUM_THREADS].
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads,
          allow_negative_numbers = true)]
    threads: Option<NonZeroUsize>,

    /// Print one JSON object.
    #[arg(long)]
    json: bool,

    /// Print nothing (nor the sample on stderr): the exit code says
    /// whether every unit agrees; a disagreement is still said on stderr.
    #[arg(short, long)]
    quiet: bool,
}

/// A verification, as `--json` prints it.
#[derive(Debug, Serialize)]
struct VerifyRecord {
    /// Board size.
    n: u32,
    /// The engine whose plan the shards share, which recounts.
    engine: &'static str,
    /// The plan's hash.
    plan: String,
    /// The seed that picked the sample.
    seed: u64,
    /// Units with a count in the files.
    units_present: usize,
    /// Units recounted.
    sampled: usize,
    /// How many of them came from a journal.
    from_journal: usize,
    /// Sampled units whose recount differs from the file: `[id, file, recount]`.
    disagreements: Vec<(u32, u128, u128)>,
    /// Wall time of the recount, in seconds.
    elapsed_secs: f64,
}

impl Human for VerifyRecord {
    /// One line when every unit agrees; a disagreement is said on stderr.
    fn human(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        if !self.disagreements.is_empty() {
            return Ok(());
        }
        writeln!(
            out,
            "ok: {} of {} units recounted (seed {}), every one agrees",
            self.sampled, self.units_present, self.seed
        )
    }

    /// Nothing: the exit code is the verdict.
    fn quiet(&self, _: &mut dyn std::io::Write) -> std::io::Result<()> {
        Ok(())
    }
}

/// The share of the units recounted without `--sample`, in percent, ...
const DEFAULT_PERCENT: f64 = 1.0;
/// ... and the fewest units that sample holds (all of them where there are
/// fewer): where one unit in a hundred is wrong, 100 units find one with a
/// chance of 63%, whatever the plan's size.
const DEFAULT_UNITS: usize = 100;

/// The percentage of `present` units that the default sample recounts.
/// The sample is the percentage of the units rounded up, so the floor of
/// `DEFAULT_UNITS` is asked for as half a unit less, which rounds up to it
/// whatever the floating point does.
fn default_percent(present: usize) -> f64 {
    let at_least = 100.0 * (DEFAULT_UNITS as f64 - 0.5) / present.max(1) as f64;
    DEFAULT_PERCENT.max(at_least).min(100.0)
}

/// `1%`, `0.5%`, `100` (the `%` is optional): a share above 0 and at most
/// 100, in decimal digits with at most one point and one `%` (no `100%%`,
/// `1e1` or `inf`).
pub(super) fn parse_percent(text: &str) -> Result<f64, String> {
    let number = text.trim();
    let number = number.strip_suffix('%').unwrap_or(number);
    let decimal = number.bytes().any(|b| b.is_ascii_digit())
        && number.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && number.bytes().filter(|&b| b == b'.').count() <= 1;
    decimal
        .then(|| number.parse::<f64>().ok())
        .flatten()
        .filter(|p| *p > 0.0 && *p <= 100.0)
        .ok_or_else(|| {
            format!(
                "'{text}' is not a sample size: expected a percentage above 0 and at most 100, \
                 like 1% or 0.5%"
            )
        })
}

/// What a verification recounts from: the plan, what the files or the
/// journal say of each unit, and the units to recount first.
struct Claims {
    plan: Plan,
    /// Each unit's count as claimed, `None` where none is.
    counts: Vec<Option<u128>>,
    /// Units taken from a journal (by a shard task, or all of a journal's):
    /// a checksum does not stop a forger, so these are sampled first.
    first: Vec<u32>,
    /// "the files" or "the journal", for messages.
    source: &'static str,
}

pub fn run(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    // The recount may take hours: with nowhere for its verdict to go,
    // refuse before it starts, not after.
    if super::stdout::closed_at_start() {
        return Err(super::stdout::closed_error().into());
    }
    let threads = super::args::threads(args.threads)?;
    let claims = match &args.journal {
        Some(path) => from_journal(path, args.json || args.quiet)?,
        None => from_shards(&args.paths)?,
    };
    let Claims {
        plan,
        counts,
        first,
        source,
    } = claims;
    let engine = plan.engine();
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let present: Vec<u32> = (0..plan.len() as u32)
        .filter(|&id| counts[id as usize].is_some())
        .collect();
    let percent = args
        .sample
        .unwrap_or_else(|| default_percent(present.len()));
    let sample = queens::sample_units(&present, percent, seed, &first);
    if !args.json && !args.quiet {
        let journal = if first.is_empty() || source == "the journal" {
            String::new()
        } else {
            format!(", the {} taken from journals first", first.len())
        };
        // See: issue 47, item 5 (a problem's units were said to be
        // recounted by the mirror engine, which counts them the first time).
        let method = if plan.problem().is_some() {
            "by a plain depth-first search, apart from the mirror engine's kernel".to_owned()
        } else if engine == Engine::Constellations {
            "by plain recursion, apart from the constellations engine's kernel".to_owned()
        } else {
            format!("with the {engine} engine")
        };
        let default = if args.sample.is_none() {
            format!(", the default sample: {DEFAULT_PERCENT}%, at least {DEFAULT_UNITS} units")
        } else {
            String::new()
        };
        eprintln!(
            "queens: recounting {} of {} units (seed {seed}{journal}{default}) {method}",
            sample.len(),
            present.len()
        );
    }
    let started = Instant::now();
    let recount = recount(&plan, threads, &sample)?;
    let disagreements: Vec<(u32, u128, u128)> = recount
        .iter()
        .filter_map(|&(id, count)| {
            let said = counts[id as usize].expect("sampled units are present");
            (said != count).then_some((id, said, count))
        })
        .collect();
    let record = VerifyRecord {
        n: plan.n(),
        engine: engine.name(),
        plan: plan.hash().to_string(),
        seed,
        units_present: present.len(),
        sampled: sample.len(),
        from_journal: sample
            .iter()
            .filter(|id| first.binary_search(id).is_ok())
            .count(),
        disagreements,
        elapsed_secs: started.elapsed().as_secs_f64(),
    };
    Report::stdout(Form::from_flags(args.json, args.quiet)).record(&record)?;
    if let Some(&(id, said, count)) = record.disagreements.first() {
        // Not "a bug in queens": a file's or a journal's claim is what is
        // in doubt, whether damaged, forged or counted on a faulty machine.
        disagreement(&format!(
            "for n = {}: {} of {} recounted units differ from {source}; unit {id} says {said}, \
             the recount gives {count}. So {source} cannot be trusted: recount them without it \
             (e.g. '{}'), on another machine if this one may be faulty",
            plan.n(),
            record.disagreements.len(),
            record.sampled,
            recount_command(&plan, id),
        ));
        return Ok(ExitCode::from(EXIT_MISMATCH));
    }
    Ok(ExitCode::SUCCESS)
}

/// The command that counts unit `id` of `plan` alone, as a user would
/// type it: the problem's constraints (1-based, in their sorted order),
/// and the engine and the split where they are not what `count` takes
/// without them (a shard's split is 4), so that it builds the same plan.
/// See: issue 47, item 5 (a problem's unit was suggested as the empty
/// board's unit of the same id).
fn recount_command(plan: &Plan, id: u32) -> String {
    let n = plan.n();
    let mut command = format!("queens count {n}");
    let squares = |squares: &[queens::Square]| {
        let squares: Vec<String> = squares.iter().map(ToString::to_string).collect();
        squares.join(",")
    };
    match plan.problem() {
        Some(problem) => {
            for (flag, on) in [("given", problem.given()), ("blocked", problem.blocked())] {
                if !on.is_empty() {
                    command.push_str(&format!(" --{flag} {}", squares(on)));
                }
            }
        }
        None if plan.engine() != Engine::best_for(n) => {
            command.push_str(&format!(" --engine {}", plan.engine()));
        }
        None => {}
    }
    if let Some(rows) = plan
        .split_depth()
        .filter(|&d| d != queens::DEFAULT_SPLIT_DEPTH)
    {
        command.push_str(&format!(" --split-depth {rows}"));
    }
    command.push_str(&format!(" --units {id}"));
    command
}

/// The claims of a set of shard results, once merge's checks pass.
/// Counts `sample`: by a second method where the plan's engine has one
/// (the constellations engine's plain recursion), so that a fault in the
/// kernel cannot agree with itself; else by the engine again.
fn recount(
    plan: &Plan,
    threads: Option<NonZeroUsize>,
    sample: &[u32],
) -> anyhow::Result<Vec<(u32, u128)>> {
    let pool = queens::thread_pool(threads)?;
    if plan.count_plainly(0).is_ok_and(|plain| plain.is_some()) {
        return pool.install(|| {
            sample
                .par_iter()
                .map(|&id| {
                    let count = plan
                        .count_plainly(id)?
                        .expect("the engine has a plain count");
                    Ok((id, count))
                })
                .collect::<Result<Vec<_>, queens::Error>>()
                .map_err(Into::into)
        });
    }
    let count = Runner::new()
        .pool(&pool)
        .count(plan, &plan.select(sample)?)?;
    Ok(count.unit_counts)
}

fn from_shards(paths: &[PathBuf]) -> anyhow::Result<Claims> {
    let mut files: Vec<(String, ShardFile)> = Vec::new();
    for path in gather(paths)? {
        let file = read(&path).map_err(|e| super::UsageError(e.to_string()))?;
        files.push((path.display().to_string(), file));
    }
    // Files whose plan this build cannot make are bad input, as merge
    // says (exit 2); a plan too big for this machine is the memory
    // refusal every command gives.
    let (plan, merge) = shard::merge_files(&files, super::memory::available()?)
        .map_err(|e| match e {
            queens::Error::Memory { .. } => anyhow::Error::from(e),
            e => super::UsageError(format!("cannot verify the files: {e}")).into(),
        })?
        .context("no shard results given")?;
    if !merge.is_consistent() {
        for problem in &merge.problems {
            eprintln!("queens: {}", super::shard::problem_line(problem));
        }
        anyhow::bail!(
            "the files are not consistent: run 'queens merge' and fix what it says before \
             verifying"
        );
    }
    if merge.units_present() == 0 {
        return Err(super::UsageError(
            "nothing to verify: the files hold no unit's count (every shard there is empty)"
                .to_owned(),
        )
        .into());
    }
    let mut first: Vec<u32> = files
        .iter()
        .flat_map(|(_, file)| file.journal_units.iter().copied())
        .filter(|&id| merge.counts.get(id as usize).is_some_and(Option::is_some))
        .collect();
    first.sort_unstable();
    first.dedup();
    Ok(Claims {
        counts: merge.counts.iter().map(|c| c.map(u128::from)).collect(),
        plan,
        first,
        source: "the files",
    })
}

/// The claims of a journal: its plan, rebuilt from its header, and every
/// record that checks out. The journal is only read, never locked, cut or
/// written ([`ReadOnly`]).
fn from_journal(path: &Path, quiet: bool) -> anyhow::Result<Claims> {
    let shown = path.display();
    let usage = |why: String| super::UsageError(format!("cannot verify {shown}: {why}"));
    let journal = ReadOnly::open(path).map_err(usage)?;
    let config = Config::default().with_memory_limit(super::memory::available()?);
    let shape = journal.shape();
    // Refused before the plan is built when even one thread's recount
    // would not fit (see: issue 32: the join plans n = 28 for minutes).
    let floor = Runner::new()
        .threads(NonZeroUsize::MIN)
        .fits_unplanned(shape, &config, Some(0));
    if let Err(refused @ queens::Error::Memory { .. }) = floor {
        return Err(refused.into());
    }
    // A header naming a plan this build cannot make (n = 99, a split of
    // 9) is bad input like any other bad header (exit 2); a plan too big
    // for this machine is the memory refusal every command gives.
    super::plan::announce(shape, &config);
    let plan = journal.plan(&config).map_err(|e| match e {
        queens::Error::Memory { .. } => anyhow::Error::from(e),
        e => usage(format!(
            "its header names a plan this build cannot make: {e}"
        ))
        .into(),
    })?;
    let replay = journal.replay(&plan).map_err(usage)?;
    if replay.done.is_empty() {
        return Err(nothing_to_verify(&shown.to_string(), &replay).into());
    }
    if let Some((line, damage)) = replay.bad_line.zip(replay.damage.as_ref())
        && !quiet
    {
        eprintln!(
            "queens: warning: {shown} is damaged from line {line} on (line {line}: {damage}): \
             the {} record(s) from there are not verified (a count resumed from it would \
             recount them)",
            replay.untrusted
        );
    }
    let mut counts = vec![None; plan.len()];
    for &(id, count) in &replay.done {
        counts[id as usize] = Some(count);
    }
    Ok(Claims {
        first: replay.done.iter().map(|&(id, _)| id).collect(),
        counts,
        plan,
        source: "the journal",
    })
}

/// Why a journal none of whose records checks out has nothing to verify:
/// recounting nothing would prove nothing.
fn nothing_to_verify(shown: &str, replay: &Replay) -> super::UsageError {
    let why = match replay.bad_line.zip(replay.damage.as_ref()) {
        None => "it holds no records yet (a count with --checkpoint writes one as each unit \
                 finishes)"
            .to_owned(),
        Some((line, damage)) => format!(
            "none of its {} record(s) can be trusted: line {line}, the first, is damaged \
             ({damage}), and nothing after a damaged line is trusted",
            replay.untrusted
        ),
    };
    super::UsageError(format!("nothing to verify in {shown}: {why}"))
}

/// A seed nobody chose: the clock's nanoseconds and the process id.
pub(super) fn fresh_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    seed_below_2_53(nanos, std::process::id())
}

/// The seed of `nanos` and `pid`, below 2^53: `--json` prints it as a
/// number, and readers that hold numbers as doubles (jq 1.6, JavaScript)
/// change integers past 2^53, so that "repeat with --seed X" drew other
/// units (issue 47, item 13). A seed stays a number rather than becoming
/// a string, so `--json`'s schema is unchanged; 53 bits are more than a
/// sample's choice needs, and `--seed` still takes any 64-bit seed.
fn seed_below_2_53(nanos: u64, pid: u32) -> u64 {
    (nanos ^ u64::from(pid).rotate_left(21)) & ((1 << 53) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 47, item 13.
    #[test]
    fn a_fresh_seed_survives_a_double() {
        for (nanos, pid) in [
            (u64::MAX, u32::MAX),
            (1_780_000_000_000_000_000, 4_194_304),
            (0, 0),
        ] {
            let seed = seed_below_2_53(nanos, pid);
            assert!(seed < 1 << 53, "{seed}");
            assert_eq!(seed as f64 as u64, seed);
        }
        // The pid still changes the seed of two processes started at once.
        assert_ne!(seed_below_2_53(7, 1), seed_below_2_53(7, 2));
        assert!(fresh_seed() < 1 << 53);
    }

    #[test]
    fn the_default_sample_is_one_percent_and_at_least_a_hundred_units() {
        let ids: Vec<u32> = (0..100_000).collect();
        for (present, want) in [
            (1, 1),
            (99, 99),
            (100, 100),
            (101, 100),
            (300, 100),
            (7_001, 100),
            (10_000, 100),
            (10_001, 101),
            (54_779, 548),
            (100_000, 1000),
        ] {
            let sample = queens::sample_units(&ids[..present], default_percent(present), 7, &[]);
            assert_eq!(sample.len(), want, "{present} units");
        }
    }

    /// See: issue 47, item 5: the command names what `count` would not
    /// take by itself, and nothing more.
    #[test]
    fn the_recount_command_builds_the_same_plan() {
        let config = Config::default();
        let plan = |n, engine, split| Plan::new(Shape::new(n, engine, split), &config).unwrap();
        for (plan, command) in [
            (plan(12, Engine::Join, None), "queens count 12 --units 5"),
            (plan(8, Engine::Mirror, None), "queens count 8 --units 5"),
            (
                plan(12, Engine::Mirror, Some(4)),
                "queens count 12 --engine mirror --split-depth 4 --units 5",
            ),
            (
                plan(12, Engine::Constellations, None),
                "queens count 12 --engine constellations --units 5",
            ),
        ] {
            assert_eq!(recount_command(&plan, 5), command);
        }
        let squares = |s: &[(u32, u32)]| {
            s.iter()
                .map(|&(r, c)| queens::Square::new(r, c))
                .collect::<Vec<_>>()
        };
        let problem =
            queens::Problem::new(12, squares(&[(6, 0), (1, 4)]), squares(&[(0, 0)])).unwrap();
        let plan = Plan::for_problem(&problem, Some(3), &config).unwrap();
        assert_eq!(
            recount_command(&plan, 5),
            "queens count 12 --given 2:5,7:1 --blocked 1:1 --split-depth 3 --units 5"
        );
    }

    #[test]
    fn percentages_are_checked() {
        assert_eq!(parse_percent("1%"), Ok(1.0));
        assert_eq!(parse_percent("0.5"), Ok(0.5));
        assert_eq!(parse_percent("100%"), Ok(100.0));
        assert_eq!(parse_percent(".5%"), Ok(0.5));
        // See: issue 20 (`100%%` was taken for 100%).
        for bad in [
            "0%", "101%", "x", "-1%", "", "%", "100%%", "1%%", "%1", "1e1", "inf", "NaN", "+5",
            "1.2.3", "0.", "1 %",
        ] {
            assert!(parse_percent(bad).is_err(), "{bad}");
        }
    }
}
