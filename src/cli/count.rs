//! `queens count`: counts a board size or a range of them with an engine
//! (or a step of the ladder), checks each total against OEIS, optionally
//! against a second engine, and reports it. `--units` counts just some
//! units of the plan, which is how anyone recounts a unit of a published
//! run.
//!
//! One thread pool serves every size of a range and every cross-check.

use std::io::{self, IsTerminal};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::str::FromStr;
use std::time::{Duration, Instant};

use anyhow::Context;
use queens::{
    Algorithm, Config, Counter, DEFAULT_SPLIT_DEPTH, Engine, Executor, MAX_SPLIT_DEPTH, Observer,
    Plan, UnitDone, count_with, known, shard::ShardFile,
};
use rayon::ThreadPool;

use super::EXIT_USAGE;
use super::args::{
    AlgorithmArg, EngineArg, ShardArg, Sizes, UnitList, parse_shard, parse_sizes, parse_threads,
    parse_unit_list, refuse_engine, refuse_size,
};
use super::files::{Input, Output};
use super::journal::{Journal, Opened, Refused};
use super::progress::Progress;
use super::report::{CountRecord, CrossCheck, EXIT_MISMATCH, Style, UniqueRecord, Units, mismatch};
use super::shard::{self, Task};
use super::signals;

/// The largest n with a published total: beyond it a count has nothing to
/// be checked against and takes years.
const LARGEST_KNOWN: u32 = (known::A000170.len() - 1) as u32;

/// The mirror engine's split for shards: two rows give n = 18 only 136
/// units, and 64 shards of them finish 1.4 times later than the ideal;
/// four rows give 18,132 (results/amd-epyc-2c/2026-11-23-shards.txt).
const SHARD_SPLIT_DEPTH: u32 = 4;

/// How long a shard waits for its journal by default: a task requeued by
/// SLURM or a replaced pod may start while the old one is still saving.
const SHARD_LOCK_WAIT: u64 = 60;

#[derive(Debug, clap::Args)]
pub struct CountArgs {
    /// Board size N (1 to 32), or an inclusive range A..B (also A..=B), as
    /// `seq A B` would list it.
    #[arg(value_name = "N|A..B", value_parser = parse_sizes, allow_negative_numbers = true)]
    sizes: Sizes,

    /// Worker threads [default: all cores, or RAYON_NUM_THREADS].
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads)]
    threads: Option<NonZeroUsize>,

    /// Rows fixed by each unit of the mirror engine (1 to 6) [default: 2;
    /// with --shard, 4]. Refused where another method counts (the join
    /// does by default for 12 <= n <= 24: add --engine mirror).
    #[arg(long, value_name = "D",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_SPLIT_DEPTH)))]
    split_depth: Option<u32>,

    /// Print one JSON object per board size (JSON lines).
    #[arg(long)]
    json: bool,

    /// Print only the counts, one per line; no progress bar, no warnings.
    #[arg(short, long)]
    quiet: bool,

    /// Counting engine: `join` pairs half-boards (fast for large n, 4 <= n <= 24),
    /// `mirror` backtracks row by row with mirror symmetry [default: join where it
    /// applies and is faster, else mirror].
    #[arg(long, value_parser = super::options::EngineParser)]
    engine: Option<EngineArg>,

    /// Run the plan's units on the NVIDIA GPU (a build with `--features
    /// gpu`): the mirror engine's plan, the same hash, journal and shards.
    #[arg(long, conflicts_with = "algorithm")]
    gpu: bool,

    /// Count each size with a second, independent engine too (the mirror
    /// backtracker and the join) and exit 3 if they disagree.
    #[arg(long)]
    cross_check: bool,

    /// Also count the essentially different solutions (OEIS A002562) and
    /// the symmetry classes by size.
    #[arg(long)]
    unique: bool,

    /// Count only these units of the plan (see `queens plan N --units`),
    /// e.g. 0-99,150,200-210; each unit at most once. One board size only.
    #[arg(long, value_name = "LIST", value_parser = parse_unit_list,
          conflicts_with_all = ["unique", "cross_check", "algorithm"])]
    units: Option<UnitList>,

    /// Keep every finished unit in this journal, and resume from it: after
    /// an interruption (Ctrl-C, kill, reboot) run the same command again.
    /// One board size only.
    #[arg(long, value_name = "FILE", conflicts_with = "algorithm")]
    checkpoint: Option<PathBuf>,

    /// Also write the JSON record(s) to FILE when the count is done,
    /// atomically: FILE is never left half-written.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Count shard I of K of the plan (0 <= I < K, e.g. 3/64) and write
    /// DIR/shard-IIII-of-KKKK.json; `env/K` takes I from SLURM_ARRAY_TASK_ID,
    /// JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX. A journal beside the
    /// result lets a rerun resume. Put the shards together with `queens merge`.
    #[arg(long, value_name = "I/K", value_parser = parse_shard, allow_hyphen_values = true,
          conflicts_with_all = ["units", "checkpoint", "unique", "cross_check", "algorithm"])]
    shard: Option<ShardArg>,

    /// How long to wait, in seconds, for a journal that another queens
    /// process holds (a requeued task whose predecessor is still dying)
    /// before refusing it [default: 60 with --shard, else 0].
    #[arg(long, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(0..=86_400))]
    lock_wait: Option<u64>,

    /// Where --shard writes its result and its journal [default: .].
    #[arg(long, value_name = "DIR", requires = "shard")]
    out_dir: Option<PathBuf>,

    /// Count with this step of the ladder (see `queens ladder`);
    /// --split-depth applies to bitmask and parallel, --threads to parallel.
    #[arg(long, value_name = "NAME", value_enum, conflicts_with = "engine")]
    algorithm: Option<AlgorithmArg>,

    /// Run a slow algorithm on a board it would take over a minute on.
    #[arg(long)]
    force: bool,
}

/// What counts a board size: one of the engines, or a step of the ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Engine(Engine),
    Ladder(Algorithm),
}

/// A count by any method, as the report needs it.
struct Counted {
    solutions: u128,
    threads: usize,
    split_depth: Option<u32>,
    /// Units searched (the engines only): all, or the `--units` asked for.
    units: Option<Units>,
    /// The engine's or the algorithm's name.
    engine: &'static str,
    /// The plan's hash (the engines only).
    plan: Option<String>,
    /// Units taken from the journal rather than counted.
    resumed_units: usize,
    /// Their ids.
    resumed_ids: Vec<u32>,
    /// The journal's path, with `--checkpoint`.
    journal: Option<String>,
}

pub fn run(args: &CountArgs) -> anyhow::Result<ExitCode> {
    let Sizes { first, last } = args.sizes;
    if let Some(refusal) = args
        .algorithm
        .and_then(|a| refuse_size(Algorithm::from(a), last, args.force))
    {
        return usage(&refusal);
    }
    for (given, flag) in [
        (args.units.is_some(), "--units counts units"),
        (args.checkpoint.is_some(), "--checkpoint keeps the units"),
        (args.shard.is_some(), "--shard counts a share"),
    ] {
        if given && first != last {
            return usage(&format!(
                "{flag} of one plan: give one board size, not {first}..{last}"
            ));
        }
    }
    if let Some(engine) = args.engine.map(Engine::from)
        && let Some(refusal) = [first, last]
            .into_iter()
            .find_map(|n| refuse_engine(engine, n))
    {
        return usage(&refusal);
    }
    if let Some(refusal) = args.refuse_split_depth() {
        return usage(&refusal);
    }
    let threads = super::args::threads(args.threads)?;
    if args.gpu {
        if let Some(refusal) = super::options::refuse_gpu(args.engine.map(Engine::from), first) {
            return usage(&refusal);
        }
        match queens::find_gpu() {
            Ok(name) if !args.quiet && !args.json => eprintln!("queens: counting on {name}"),
            Ok(_) => {}
            Err(why) => return usage(&why.to_string()),
        }
    }
    let shard = match args
        .shard
        .map(|s| s.resolve(|name| std::env::var(name).ok()))
    {
        Some(Ok(shard)) => Some(shard),
        Some(Err(line)) => return usage(&line),
        None => None,
    };
    let out_dir = args.out_dir.as_deref().unwrap_or(Path::new("."));
    // The files this count reads or writes besides --output, which must be
    // none of them; checked now and again when the result is written.
    let shard_files = shard.map(|shard| {
        let result = out_dir.join(ShardFile::file_name(shard.index, shard.of));
        let journal = result.with_extension("journal");
        (result, journal)
    });
    let mut inputs = Vec::new();
    if let Some(journal) = &args.checkpoint {
        inputs.push(Input {
            role: "the journal",
            path: journal,
        });
    }
    if let Some((result, journal)) = &shard_files {
        inputs.push(Input {
            role: "the shard result",
            path: result,
        });
        inputs.push(Input {
            role: "the shard's journal",
            path: journal,
        });
    }
    let output = args
        .output
        .as_deref()
        .map(|path| Output::new(path, "--output", &inputs))
        .transpose()?;
    if last > LARGEST_KNOWN && !args.quiet {
        eprintln!(
            "queens: warning: no total is published for n > {LARGEST_KNOWN}, so nothing will check \
             this count, and n = {last} may run for years"
        );
    }
    let style = if args.json {
        Style::Json
    } else if args.quiet {
        Style::Quiet
    } else {
        Style::Human {
            unique: args.unique,
        }
    };
    let config = Config::with_threads(threads.map_or(0, NonZeroUsize::get))
        .with_split_depth(args.split_depth.unwrap_or(if args.shard.is_some() {
            SHARD_SPLIT_DEPTH
        } else {
            DEFAULT_SPLIT_DEPTH
        }))
        .with_memory_limit(super::memory::available()?)
        .with_executor(if args.gpu {
            Executor::Gpu
        } else {
            Executor::Cpu
        })
        .with_options(super::options::from_env()?);
    let mut planned = None;
    let sharded = match shard {
        Some(shard) => {
            let Method::Engine(engine) = args.method(first) else {
                unreachable!("clap refuses --shard with --algorithm")
            };
            match shard::prepare(first, engine, &config, shard, out_dir)? {
                Task::Done(file, path) => {
                    return already_done(&file, &path, style, output.as_ref());
                }
                Task::Count(plan, prepared) => {
                    planned = Some(plan);
                    Some(prepared)
                }
            }
        }
        None => None,
    };
    let pool = queens::thread_pool(threads)?;
    signals::install().context("catching Ctrl-C and SIGTERM")?;
    let run = Run {
        pool: &pool,
        config: &config,
        units: args.units.as_ref().or(sharded.as_ref().map(|s| &s.units)),
        checkpoint: args
            .checkpoint
            .as_deref()
            .or(sharded.as_ref().map(|s| s.journal.as_path())),
        quiet: args.quiet,
        lock_wait: Duration::from_secs(args.lock_wait.unwrap_or(if args.shard.is_some() {
            SHARD_LOCK_WAIT
        } else {
            0
        })),
    };
    let long_hint = match (args.quiet, &args.checkpoint) {
        (true, _) => None,
        (false, Some(_)) => Some("; an interruption keeps every finished unit"),
        (false, None) => {
            Some("; add --checkpoint FILE to keep finished units if it is interrupted")
        }
    };
    let mut records = Vec::new();
    let show_progress = matches!(style, Style::Human { .. }) && io::stderr().is_terminal();
    let mut out = super::stdout();
    // The first plan is built, its memory checked, and with --units or
    // --checkpoint the ids checked and the journal opened, before anything
    // is printed, so that a refusal is one line and nothing else.
    let mut opened = None;
    if let Method::Engine(engine) = args.method(first) {
        let plan = match planned.take() {
            Some(plan) => plan,
            None => Plan::new(first, engine, &config)
                .with_context(|| format!("counting n = {first} with the {engine} engine"))?,
        };
        Counter::new(first)
            .config(&config)
            .pool(&pool)
            .fits(&plan)?;
        if let Some(UnitList(ids)) = &args.units
            && let Some(&id) = ids.iter().find(|&&id| id as usize >= plan.len())
        {
            let has = match plan.len() {
                // n = 2: the rows a unit fixes have no legal placement.
                0 => format!("no units, as n = {first} has no solution"),
                len => format!("units 0 to {} (see 'queens plan {first} --units')", len - 1),
            };
            return usage(&format!(
                "unit {id} is not in the plan: n = {first} with the {engine} engine has {has}"
            ));
        }
        if let Some(path) = run.checkpoint {
            opened = Some(open_journal(path, &plan, &run)?);
        }
        planned = Some(plan);
    }
    style.header(&mut out)?;
    let mut mismatches = 0;
    for n in first..=last {
        // The GPU reports its units a batch at a time, all at once: the
        // first units of a batch would pace a wildly long estimate.
        let hint = long_hint.filter(|_| !args.gpu);
        let progress = Progress::new(n, show_progress, hint);
        let started = Instant::now();
        let method = args.method(n);
        let counted = match method {
            Method::Engine(engine) => {
                let plan = match planned.take() {
                    Some(plan) => plan,
                    None => Plan::new(n, engine, &config)
                        .with_context(|| format!("counting n = {n} with the {engine} engine"))?,
                };
                let counted = count_plan(&plan, &run, &progress, opened.take())?;
                if let (Some(prepared), Some(Units::Some(unit_counts))) = (&sharded, &counted.units)
                {
                    let file =
                        shard::finish(&plan, prepared, unit_counts, counted.resumed_ids.clone())?;
                    if !args.quiet {
                        eprintln!(
                            "queens: shard {} of n = {n}: {} units, subtotal {}, written to {}",
                            prepared.shard,
                            file.units.len(),
                            file.total,
                            prepared.result.display()
                        );
                    }
                }
                counted
            }
            Method::Ladder(algorithm) => signals::wait(
                || count_ladder(algorithm, n, &config, &pool, &progress),
                || quit(n),
            )?,
        };
        progress.finish();
        let elapsed = started.elapsed();
        let unique = signals::wait(
            || {
                args.unique
                    .then(|| queens::unique(n, counted.solutions))
                    .transpose()
            },
            || quit(n),
        );
        let unique = match unique {
            Ok(unique) => unique,
            Err(inconsistent) => {
                mismatch(&format!("for n = {n}: {inconsistent}"));
                mismatches += 1;
                continue;
            }
        };
        let cross_check = if args.cross_check {
            signals::wait(
                || cross_check(method, n, &config, &pool, counted.solutions, args.quiet),
                || quit(n),
            )?
        } else {
            None
        };
        if cross_check.is_some_and(|c| !c.agrees) {
            mismatches += 1;
        }
        let partial = matches!(counted.units, Some(Units::Some(_)));
        let record = CountRecord {
            n,
            solutions: counted.solutions,
            elapsed_secs: elapsed.as_secs_f64(),
            threads: counted.threads,
            split_depth: counted.split_depth,
            units: counted.units,
            engine: counted.engine,
            plan: counted.plan,
            known: known::total(n),
            matches_known: if partial {
                None
            } else {
                known::matches_total(n, counted.solutions)
            },
            unique: unique.map(|u| UniqueRecord {
                unique: u.unique,
                classes: u.classes,
                half_turn_symmetric: u.half_turn,
                quarter_turn_symmetric: u.quarter_turn,
                known_unique: known::unique(n),
                matches_known_unique: known::matches_unique(n, u.unique),
            }),
            cross_check,
            resumed_units: counted.resumed_units,
            journal: counted.journal,
            version: env!("CARGO_PKG_VERSION"),
        };
        mismatches += style.write(&mut out, &record)?;
        if output.is_some() {
            records.extend(serde_json::to_vec(&record)?);
            records.push(b'\n');
        }
    }
    if let Some(output) = &output {
        output.write(&records)?;
    }
    Ok(if mismatches > 0 {
        ExitCode::from(EXIT_MISMATCH)
    } else {
        ExitCode::SUCCESS
    })
}

impl CountArgs {
    /// The method for `n`: the `--algorithm` if one is named, else the
    /// `--engine`, else the faster engine for `n`.
    fn method(&self, n: u32) -> Method {
        match (self.algorithm, self.engine) {
            (Some(a), _) => Method::Ladder(Algorithm::from(a)),
            (None, Some(e)) => Method::Engine(e.into()),
            (None, None) if self.gpu => Method::Engine(Engine::Mirror),
            (None, None) => Method::Engine(Engine::best_for(n)),
        }
    }

    /// Why `--split-depth` is refused: a size of the range is counted by a
    /// method without a split (the join, by choice or by default, or a slow
    /// algorithm), which would ignore it in silence.
    fn refuse_split_depth(&self) -> Option<String> {
        self.split_depth?;
        let (n, method) = (self.sizes.first..=self.sizes.last)
            .map(|n| (n, self.method(n)))
            .find(|&(_, method)| !method.splits())?;
        Some(match method {
            Method::Ladder(a) => format!(
                "--split-depth applies to --algorithm bitmask and parallel only, not {a}: drop it"
            ),
            Method::Engine(e) if self.engine.is_some() => format!(
                "--split-depth applies to the mirror engine only, not {e} (its units \
                 are fixed by n): drop it, or count with --engine mirror"
            ),
            Method::Engine(e) => {
                let chosen: Vec<u32> = (1..=queens::MAX_N)
                    .filter(|&m| Engine::best_for(m) == e)
                    .collect();
                format!(
                    "--split-depth applies to the mirror engine only, and n = {n} is counted by \
                     the {e} engine (the default for {} <= n <= {}): add --engine mirror, or \
                     drop --split-depth",
                    chosen.first().unwrap_or(&n),
                    chosen.last().unwrap_or(&n)
                )
            }
        })
    }
}

impl Method {
    /// Whether the method's units are cut by `--split-depth`.
    fn splits(self) -> bool {
        match self {
            Self::Engine(e) => matches!(e, Engine::Mirror),
            Self::Ladder(a) => matches!(a, Algorithm::Bitmask | Algorithm::Parallel),
        }
    }
}

/// How the units of a plan are run: on which pool, which units, with
/// which journal.
struct Run<'a> {
    pool: &'a ThreadPool,
    config: &'a Config,
    /// `--units`: only these.
    units: Option<&'a UnitList>,
    /// `--checkpoint`: the journal's path.
    checkpoint: Option<&'a Path>,
    quiet: bool,
    /// How long to wait for a journal another process holds.
    lock_wait: Duration,
}

/// Counts the units of `plan` that `run` asks for and its journal does not
/// hold yet, saving each to the journal as it finishes. On a signal, saves
/// what finished, says how to resume and exits.
fn count_plan(
    plan: &Plan,
    run: &Run<'_>,
    progress: &Progress,
    opened: Option<Opened>,
) -> anyhow::Result<Counted> {
    let all: Vec<u32>;
    let target = match run.units {
        Some(UnitList(ids)) => ids.as_slice(),
        None => {
            all = (0..plan.len() as u32).collect();
            &all
        }
    };
    let opened = match (opened, run.checkpoint) {
        (Some(opened), _) => Some(opened),
        (None, Some(path)) => Some(open_journal(path, plan, run)?),
        (None, None) => None,
    };
    let (journal, resumed) = match opened {
        Some(opened) => {
            let mut wanted = vec![false; plan.len()];
            target.iter().for_each(|&id| wanted[id as usize] = true);
            let resumed: Vec<(u32, u128)> = opened
                .done
                .into_iter()
                .filter(|&(id, _)| wanted[id as usize])
                .collect();
            (Some(opened.journal), resumed)
        }
        None => (None, Vec::new()),
    };
    let mut left = vec![true; plan.len()];
    resumed
        .iter()
        .for_each(|&(id, _)| left[id as usize] = false);
    let to_count: Vec<u32> = target
        .iter()
        .copied()
        .filter(|&id| left[id as usize])
        .collect();
    if let Some(journal) = &journal
        && to_count.is_empty()
        && !run.quiet
    {
        eprintln!(
            "queens: {} holds every unit of this count: the run finished; nothing to count",
            journal.path().display()
        );
    }

    let observers = Both(progress, journal.as_ref());
    let counter = Counter::new(plan.n())
        .config(run.config)
        .pool(run.pool)
        .observer(&observers)
        .units(&to_count)
        .cancel(signals::stop_flag());
    let interrupted = || {
        progress.finish();
        interrupted(
            journal.as_ref(),
            resumed.len(),
            progress.units_done(),
            target.len(),
        );
    };
    let count = signals::wait(|| counter.run_plan(plan), interrupted)?;
    if signals::stopped() {
        interrupted();
    }
    if let Some(journal) = &journal {
        journal
            .finish()
            .with_context(|| format!("writing the journal {}", journal.path().display()))?;
    }

    let mut unit_counts = resumed.clone();
    unit_counts.extend_from_slice(&count.unit_counts);
    unit_counts.sort_unstable();
    // Every unit asked for, once: the journal's and this run's never
    // overlap, and a total is only reported whole.
    anyhow::ensure!(
        unit_counts.len() == target.len()
            && unit_counts.windows(2).all(|pair| pair[0].0 < pair[1].0),
        "internal error: {} units counted for {} asked; no total is reported (please report it)",
        unit_counts.len(),
        target.len()
    );
    Ok(Counted {
        solutions: unit_counts.iter().map(|&(_, c)| c).sum(),
        threads: count.threads,
        split_depth: count.split_depth,
        units: Some(match run.units {
            Some(_) => Units::Some(unit_counts),
            None => Units::All(unit_counts.len()),
        }),
        engine: plan.engine().name(),
        plan: Some(plan.hash().to_string()),
        resumed_units: resumed.len(),
        resumed_ids: resumed.iter().map(|&(id, _)| id).collect(),
        journal: journal.map(|j| j.path().display().to_string()),
    })
}

/// Opens the journal at `path` for `plan`, or says why not: exit 2 for a
/// file that is not this plan's journal, 1 for one in use.
fn open_journal(path: &Path, plan: &Plan, run: &Run<'_>) -> anyhow::Result<Opened> {
    let quiet = run.quiet;
    let target = run.units.map(|UnitList(ids)| ids.as_slice());
    match Journal::open(path, plan, target, run.lock_wait) {
        Ok(opened) => {
            if let Some((line, bytes)) = opened.cut
                && !quiet
            {
                eprintln!(
                    "queens: warning: {} was damaged from line {line} on ({bytes} bytes, a \
                     torn or corrupt record): cut there; those units will be counted again",
                    path.display()
                );
            }
            Ok(opened)
        }
        Err(Refused::Busy(line)) => Err(anyhow::anyhow!(line)),
        Err(Refused::Unusable(line)) => Err(super::UsageError(line).into()),
    }
}

/// The end of an interrupted count: the journal synced (and held, so
/// that nothing more is written), one line on what was kept, and the
/// signal's exit code.
fn interrupted(journal: Option<&Journal>, resumed: usize, counted: usize, target: usize) -> ! {
    let code = signals::exit_code();
    match journal {
        Some(journal) => {
            let (_held, written) = journal.sync_and_hold();
            let saved = resumed + written;
            eprintln!(
                "interrupted: {saved} of {target} units saved in {}; rerun the same command to \
                 resume",
                journal.path().display()
            );
            std::process::exit(i32::from(code));
        }
        None => {
            eprintln!(
                "interrupted: {counted} of {target} units were counted and are lost; \
                 --checkpoint FILE would have kept them"
            );
            std::process::exit(i32::from(code));
        }
    }
}

/// The end of a count interrupted outside the units of a plan (a slow
/// algorithm, the symmetric searches of `--unique`, a cross-check).
fn quit(n: u32) -> ! {
    eprintln!("interrupted while counting n = {n}: nothing of it is kept");
    std::process::exit(i32::from(signals::exit_code()));
}

/// The progress bar and the journal, as one observer: the journal first,
/// so that a unit is on its way to the disk before anything is shown.
struct Both<'a>(&'a Progress, Option<&'a Journal>);

impl Observer for Both<'_> {
    fn start(&self, units: usize, total_cost: u64) {
        self.0.start(units, total_cost);
    }

    fn unit_done(&self, done: &UnitDone) {
        if let Some(journal) = self.1 {
            journal.unit_done(done);
        }
        self.0.unit_done(done);
    }
}

/// Counts with a step of the ladder; the last two steps are the mirror
/// engine, serial and parallel.
fn count_ladder(
    algorithm: Algorithm,
    n: u32,
    config: &Config,
    pool: &ThreadPool,
    progress: &Progress,
) -> anyhow::Result<Counted> {
    let (engine_config, name) = match algorithm {
        Algorithm::Parallel => (*config, "mirror"),
        Algorithm::Bitmask => (
            Config::with_threads(1)
                .with_split_depth(config.split_depth)
                .with_memory_limit(config.memory_limit),
            "bitmask",
        ),
        slow => {
            return Ok(Counted {
                solutions: count_with(slow, n, config)?,
                threads: 1,
                split_depth: None,
                units: None,
                engine: slow.name(),
                plan: None,
                resumed_units: 0,
                resumed_ids: Vec::new(),
                journal: None,
            });
        }
    };
    let plan = Plan::new(n, Engine::Mirror, &engine_config)?;
    let mut counted = if algorithm == Algorithm::Bitmask {
        let count = Counter::new(n)
            .config(&engine_config)
            .observer(progress)
            .run_plan(&plan)?;
        Counted {
            solutions: count.solutions,
            threads: count.threads,
            split_depth: count.split_depth,
            units: Some(Units::All(count.units)),
            engine: name,
            plan: Some(plan.hash().to_string()),
            resumed_units: 0,
            resumed_ids: Vec::new(),
            journal: None,
        }
    } else {
        let run = Run {
            pool,
            config,
            units: None,
            checkpoint: None,
            quiet: true,
            lock_wait: Duration::ZERO,
        };
        count_plan(&plan, &run, progress, None)?
    };
    counted.engine = name;
    Ok(counted)
}

/// Counts `n` again with a second, independent engine; says loudly when
/// the two disagree. `None` when no second engine covers `n`.
fn cross_check(
    method: Method,
    n: u32,
    config: &Config,
    pool: &ThreadPool,
    solutions: u128,
    quiet: bool,
) -> anyhow::Result<Option<CrossCheck>> {
    let first = match method {
        Method::Engine(e) => e,
        Method::Ladder(Algorithm::Parallel | Algorithm::Bitmask) => Engine::Mirror,
        // The slow algorithms share nothing with the engines.
        Method::Ladder(_) => Engine::Join,
    };
    let Some(other) = first.second_opinion(n) else {
        if !quiet {
            let join = Engine::Join.range();
            eprintln!(
                "queens: warning: no second engine for n = {n} (the join covers {} <= n <= {}): \
                 not cross-checked",
                join.start(),
                join.end()
            );
        }
        return Ok(None);
    };
    let second = Counter::new(n)
        .engine(other)
        .config(config)
        .executor(Executor::Cpu)
        .pool(pool)
        .run()
        .with_context(|| format!("cross-checking n = {n} with the {other} engine"))?;
    let agrees = second.solutions == solutions;
    if !agrees {
        let by = match method {
            Method::Engine(e) => format!("the {e} engine"),
            Method::Ladder(a) => format!("--algorithm {}", a.name()),
        };
        mismatch(&format!(
            "for n = {n}: {by} counted {solutions} but the {other} engine {}",
            second.solutions
        ));
    }
    Ok(Some(CrossCheck {
        engine: other.name(),
        solutions: second.solutions,
        agrees,
    }))
}

/// A shard whose result is already written: says so, reports it as if
/// counted (nothing of it is counted again) and succeeds.
fn already_done(
    file: &ShardFile,
    path: &Path,
    style: Style,
    output: Option<&Output>,
) -> anyhow::Result<ExitCode> {
    if !matches!(style, Style::Quiet) {
        eprintln!(
            "queens: {} already holds shard {}/{}, checked: nothing to count",
            path.display(),
            file.shard,
            file.shards
        );
    }
    let units: Vec<(u32, u128)> = file
        .units
        .iter()
        .map(|&(id, c)| (id, u128::from(c)))
        .collect();
    let record = CountRecord {
        n: file.n,
        solutions: units.iter().map(|&(_, c)| c).sum(),
        elapsed_secs: 0.0,
        threads: 0,
        split_depth: file.split,
        units: Some(Units::Some(units)),
        engine: Engine::from_str(&file.engine).map_or("?", Engine::name),
        plan: Some(file.plan.clone()),
        known: known::total(file.n),
        matches_known: None,
        unique: None,
        cross_check: None,
        resumed_units: file.units.len(),
        journal: None,
        version: env!("CARGO_PKG_VERSION"),
    };
    let mut out = super::stdout();
    style.header(&mut out)?;
    style.write(&mut out, &record)?;
    if let Some(output) = output {
        let mut bytes = serde_json::to_vec(&record)?;
        bytes.push(b'\n');
        output.write(&bytes)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A usage error found after parsing: one line, exit 2.
fn usage(line: &str) -> anyhow::Result<ExitCode> {
    eprintln!("queens: {line}");
    Ok(ExitCode::from(EXIT_USAGE))
}
