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
use queens::journal::Journal;
use queens::shard::{Prepared, ShardFile, ShardId, Task};
use queens::{
    Algorithm, Config, Count, Counter, DEFAULT_SPLIT_DEPTH, Engine, Executor, Plan, Run, Selection,
    count_with, known,
};
use rayon::ThreadPool;

use super::UsageError;
use super::args::{
    ShardArg, Sizes, UnitList, parse_shard, parse_sizes, parse_threads, parse_unit_list,
    refuse_engine, refuse_size,
};
use super::files::{Input, Output};
use super::journal::{self, Interrupted};
use super::progress::{Long, Progress};
use super::report::{
    CountRecord, CrossCheck, EXIT_MISMATCH, Report, Style, UniqueRecord, Units, count_table,
    mismatch, report_mismatches,
};
use super::shard;
use super::signals;

/// The largest n with a published total: beyond it a count has nothing to
/// be checked against and takes years.
const LARGEST_KNOWN: u32 = (known::A000170.len() - 1) as u32;

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
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads,
          allow_negative_numbers = true)]
    threads: Option<NonZeroUsize>,

    /// Rows fixed by each unit of the mirror engine (1 to 6) [default: 2;
    /// with --shard, 4]. Refused where another method counts (the join
    /// does by default for 12 <= n <= 28: add --engine mirror).
    #[arg(long, value_name = "D", value_parser = super::args::parse_split_depth,
          allow_negative_numbers = true)]
    split_depth: Option<u32>,

    /// Print one JSON object per board size (JSON lines).
    #[arg(long)]
    json: bool,

    /// Print only the counts, one per line; no progress bar, no warnings.
    #[arg(short, long)]
    quiet: bool,

    /// Counting engine: `join` pairs half-boards (the fastest, 4 <= n <= 28),
    /// `constellations` backtracks from the four border queens with all eight
    /// symmetries (4 <= n <= 32), `mirror` backtracks row by row with mirror
    /// symmetry [default: join for 12 <= n <= 28, constellations beyond, else
    /// mirror; with --gpu, constellations].
    #[arg(long, value_parser = super::options::EngineParser)]
    engine: Option<Engine>,

    /// Run the plan's units on the NVIDIA GPU (a build with `--features
    /// gpu`): the constellations engine's plan, or the mirror engine's with
    /// --engine mirror; the same hash, journal and shards as on the CPU.
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
    #[arg(long, value_name = "LIST", value_parser = parse_unit_list, allow_hyphen_values = true,
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
    #[arg(long, value_name = "SECONDS", value_parser = super::args::parse_lock_wait,
          allow_negative_numbers = true)]
    lock_wait: Option<u64>,

    /// Where --shard writes its result and its journal [default: .].
    #[arg(long, value_name = "DIR", requires = "shard")]
    out_dir: Option<PathBuf>,

    /// Count with this step of the ladder (see `queens ladder`);
    /// --split-depth applies to bitmask and parallel, --threads to parallel.
    #[arg(long, value_name = "NAME", value_enum, conflicts_with = "engine")]
    algorithm: Option<Algorithm>,

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

/// The arguments of one `queens count`, checked and resolved once.
struct Request<'a> {
    args: &'a CountArgs,
    first: u32,
    last: u32,
    config: Config,
    style: Style,
    /// `--shard`, its index resolved from the scheduler's variable.
    shard: Option<ShardId>,
    out_dir: &'a Path,
    /// `--output`, checked against the files this count reads.
    output: Option<Output>,
    lock_wait: Duration,
}

/// The first plan of a count, built (its memory checked, the units asked
/// for checked, the journal opened) before anything is printed, so that a
/// refusal is one line and nothing else.
struct Ready {
    plan: Plan,
    /// The units asked for.
    job: Selection,
    journal: Option<Journal>,
    /// When building the plan began: the long-count warning counts from
    /// there, as `estimate` does.
    began: Instant,
}

pub fn run(args: &CountArgs) -> anyhow::Result<ExitCode> {
    match count(&Request::resolve(args)?) {
        Err(err) if let Some(&Interrupted(code)) = err.downcast_ref() => Ok(ExitCode::from(code)),
        other => other,
    }
}

/// Counts every size of the request, prints a record for each and writes
/// `--output`.
fn count(request: &Request<'_>) -> anyhow::Result<ExitCode> {
    let method = request.args.method(request.first);
    let began = Instant::now();
    let (mut first_plan, mut shard) = (None, None);
    if let (Some(id), Method::Engine(engine)) = (request.shard, method) {
        let (n, config, out_dir) = (request.first, &request.config, request.out_dir);
        request.warn_unpublished(n);
        match shard::prepare(n, engine, config, id, out_dir)? {
            (_, Task::Done(file, path)) => return already_done(&file, &path, request),
            (plan, Task::Count(prepared)) => (first_plan, shard) = (Some(plan), Some(prepared)),
            (_, task) => unreachable!("a shard task counts or is done: {task:?}"),
        }
    }
    let pool = queens::thread_pool(request.config.threads)?;
    signals::install().context("catching Ctrl-C and SIGTERM")?;
    let mut ready = None;
    if let Method::Engine(engine) = method {
        let plan = match first_plan {
            Some(plan) => plan,
            None => request.plan(request.first, engine, &pool)?,
        };
        ready = Some(request.ready(plan, shard.as_ref(), &pool, began)?);
    }
    let mut report = request.report()?;
    let (mut records, mut mismatches) = (Vec::new(), 0);
    for n in request.first..=request.last {
        let (record, wrong) = request.count_size(n, ready.take(), shard.as_ref(), &pool)?;
        report.record(&record)?;
        mismatches += wrong + report_mismatches(&record);
        if request.output.is_some() {
            records.extend(serde_json::to_vec(&record)?);
            records.push(b'\n');
        }
    }
    if let Some(output) = &request.output {
        output.write(&records)?;
    }
    Ok(if mismatches > 0 {
        ExitCode::from(EXIT_MISMATCH)
    } else {
        ExitCode::SUCCESS
    })
}

impl<'a> Request<'a> {
    /// Checks what clap cannot: refusals are one line and exit 2.
    fn resolve(args: &'a CountArgs) -> anyhow::Result<Self> {
        let Sizes { first, last } = args.sizes;
        if let Some(refusal) = args.refusal() {
            return Err(UsageError(refusal).into());
        }
        let threads = super::args::threads(args.threads)?;
        if args.gpu {
            let name = super::options::find_gpu()?;
            if !args.quiet && !args.json {
                eprintln!("queens: counting on {name}");
            }
        }
        let shard = match args
            .shard
            .map(|s| s.resolve(|name| std::env::var(name).ok()))
        {
            Some(Ok(shard)) => Some(shard),
            Some(Err(line)) => return Err(UsageError(line).into()),
            None => None,
        };
        let out_dir = args.out_dir.as_deref().unwrap_or(Path::new("."));
        let inputs = inputs(args, shard, out_dir);
        let inputs: Vec<Input<'_>> = (inputs.iter())
            .map(|(role, path)| Input { role, path })
            .collect();
        let output = args
            .output
            .as_deref()
            .map(|path| Output::new(path, "--output", &inputs))
            .transpose()?;
        let style = if args.json {
            Style::Json
        } else if args.quiet {
            Style::Quiet
        } else {
            Style::Human {
                unique: args.unique,
            }
        };
        let split_depth = args.split_depth.unwrap_or(if shard.is_some() {
            queens::shard::SPLIT_DEPTH
        } else {
            DEFAULT_SPLIT_DEPTH
        });
        let config = Config::with_threads(threads.map_or(0, NonZeroUsize::get))
            .with_split_depth(split_depth)
            .with_memory_limit(super::memory::available()?)
            .with_executor(if args.gpu {
                Executor::Gpu
            } else {
                Executor::Cpu
            })
            .with_options(super::options::from_env()?);
        let wait = args
            .lock_wait
            .unwrap_or(if shard.is_some() { SHARD_LOCK_WAIT } else { 0 });
        Ok(Self {
            args,
            first,
            last,
            config,
            style,
            shard,
            out_dir,
            output,
            lock_wait: Duration::from_secs(wait),
        })
    }

    /// The report on stdout, its table's header kept until the first record
    /// so that a count refused or failed before it leaves stdout empty.
    fn report(&self) -> io::Result<Report> {
        let mut report = Report::stdout(self.style.form());
        if let Style::Human { unique } = self.style {
            report.header(|out| count_table(unique).header(out))?;
        }
        Ok(report)
    }

    /// The journal's path: `--checkpoint`, or the shard's beside its result.
    fn journal_path<'p>(&'p self, shard: Option<&'p Prepared>) -> Option<&'p Path> {
        (self.args.checkpoint.as_deref()).or(shard.map(|s| s.journal.as_path()))
    }

    /// The plan of the `n`-board, refused before it is built when even
    /// the least its count can take is more memory than there is (see:
    /// issue 32; the join's plan of n = 28 takes minutes, and was refused
    /// only after them), and announced on stderr when it takes seconds.
    fn plan(&self, n: u32, engine: Engine, pool: &ThreadPool) -> anyhow::Result<Plan> {
        let counter = Counter::new(n)
            .engine(engine)
            .config(&self.config)
            .pool(pool);
        let floor = match self.args.units.as_ref() {
            Some(UnitList(ids)) => counter.units(ids).fits_unplanned(),
            None => counter.fits_unplanned(),
        };
        // Anything else wrong with the plan is said as the plan says it.
        if let Err(refused @ queens::Error::Memory { .. }) = floor {
            return Err(refused.into());
        }
        self.warn_unpublished(n);
        if !self.args.quiet {
            super::plan::announce(n, engine, &self.config);
        }
        plan_for(n, engine, &self.config)
    }

    /// Warns that nothing will check the count of `n` where OEIS has no
    /// total for it: after the memory check, so that a refusal stays one
    /// line.
    fn warn_unpublished(&self, n: u32) {
        if n > LARGEST_KNOWN && !self.args.quiet {
            eprintln!(
                "queens: warning: no total is published for n > {LARGEST_KNOWN}, so nothing will \
                 check this count, and n = {n} may run for years"
            );
        }
    }

    /// Gets `plan` (or the shard's) ready to count: its memory and the
    /// units asked for checked, its journal opened and replayed.
    fn ready(
        &self,
        plan: Plan,
        shard: Option<&Prepared>,
        pool: &ThreadPool,
        began: Instant,
    ) -> anyhow::Result<Ready> {
        Counter::new(plan.n())
            .config(&self.config)
            .pool(pool)
            .fits(&plan)?;
        let ids = (self.args.units.as_ref().map(|UnitList(ids)| ids.as_slice()))
            .or(shard.map(|s| s.units.as_slice()));
        let job = match ids {
            Some(ids) => plan.select(ids).map_err(|e| unit_refusal(&plan, &e))?,
            None => plan.select_all(),
        };
        let Some(path) = self.journal_path(shard) else {
            let journal = None;
            return Ok(Ready {
                plan,
                job,
                journal,
                began,
            });
        };
        let journal = journal::open(path, &plan, ids, self.lock_wait, self.args.quiet)?;
        let left = job.clone().resume(journal.done().iter().copied());
        if left.left().is_empty() && !self.args.quiet {
            eprintln!(
                "queens: {} holds every unit of this count: the run finished; nothing to count",
                path.display()
            );
        }
        let journal = Some(journal);
        Ok(Ready {
            plan,
            job,
            journal,
            began,
        })
    }

    /// Counts the `n`-board with the method asked for, checks it, and
    /// returns its record and how many checks it failed.
    fn count_size(
        &self,
        n: u32,
        ready: Option<Ready>,
        shard: Option<&Prepared>,
        pool: &ThreadPool,
    ) -> anyhow::Result<(CountRecord, u32)> {
        let started = Instant::now();
        let method = self.args.method(n);
        let mut record = match method {
            Method::Engine(engine) => {
                let ready = match ready {
                    Some(ready) => ready,
                    None => self.ready(self.plan(n, engine, pool)?, None, pool, started)?,
                };
                let Ready {
                    plan,
                    job,
                    journal,
                    began,
                } = ready;
                let whole = job.is_whole();
                let (count, journal) =
                    self.count_plan(&plan, job, journal.as_ref(), shard, pool, began)?;
                if let Some(prepared) = shard {
                    self.said_shard(&plan, prepared, &count);
                }
                engine_record(&count, whole, count.resumed.len(), journal)
            }
            Method::Ladder(algorithm) => self.count_ladder(algorithm, n, pool, started)?,
        };
        record.elapsed_secs = started.elapsed().as_secs_f64();
        let mut wrong = 0;
        if self.args.unique {
            let unique = signals::wait(|| queens::unique(n, record.solutions), || {}, || quit(n));
            match unique {
                Ok(u) => {
                    record.unique = Some(UniqueRecord {
                        unique: u.unique,
                        classes: u.classes,
                        half_turn_symmetric: u.half_turn,
                        quarter_turn_symmetric: u.quarter_turn,
                        known_unique: known::unique(n),
                        matches_known_unique: known::matches_unique(n, u.unique),
                    });
                }
                Err(inconsistent) => {
                    mismatch(&format!("for n = {n}: {inconsistent}"));
                    wrong += 1;
                }
            }
        }
        if self.args.cross_check {
            let solutions = record.solutions;
            record.cross_check = signals::wait(
                || self.cross_check(method, n, pool, solutions),
                || {},
                || quit(n),
            )?;
            wrong += u32::from(record.cross_check.as_ref().is_some_and(|c| !c.agrees));
        }
        Ok((record, wrong))
    }

    /// The progress bar of a count of `units` of `plan` on `threads`
    /// threads, drawn where people read the table on a terminal, warning
    /// of a long count (planned from `began`) unless quiet.
    fn progress<'p>(
        &self,
        plan: &'p Plan,
        units: &'p [u32],
        threads: usize,
        began: Instant,
        journaled: bool,
    ) -> Progress<'p> {
        let show = matches!(self.style, Style::Human { .. }) && io::stderr().is_terminal();
        let progress = Progress::new(plan.n(), show);
        // The GPU reports its units a batch at a time, all at once: the
        // first units of a batch would pace a wildly long estimate.
        if self.args.quiet || self.args.gpu {
            return progress;
        }
        let hint = if journaled {
            "; an interruption keeps every finished unit"
        } else {
            "; add --checkpoint FILE to keep finished units if it is interrupted"
        };
        progress.warn_long(Long {
            plan,
            units,
            threads,
            began,
            hint,
        })
    }

    /// Counts what `job` has left of `plan` after what the journal holds,
    /// saving each unit to the journal as it finishes, and writes the
    /// shard's result: the library's [`Run`]. On a signal, says what was
    /// saved and how to resume.
    fn count_plan(
        &self,
        plan: &Plan,
        job: Selection,
        journal: Option<&Journal>,
        shard: Option<&Prepared>,
        pool: &ThreadPool,
        began: Instant,
    ) -> anyhow::Result<(Count, Option<String>)> {
        // What the journal holds, as the run will resume it.
        let left = match journal {
            Some(journal) => job.clone().resume(journal.done().iter().copied()),
            None => job.clone(),
        };
        let threads = pool.current_num_threads();
        let mut progress = self.progress(plan, left.left(), threads, began, journal.is_some());
        if let Some(journal) = journal {
            let resumed = left.resumed();
            // The journal's ids are checked against the plan: each has a cost.
            let cost = (resumed.iter()).filter_map(|&(id, _)| plan.cost(id).ok().map(u128::from));
            let solutions = resumed.iter().map(|&(_, count)| count).sum();
            progress = progress.resumed(resumed.len(), cost.sum(), solutions, journal.path());
        }
        let progress = &progress;
        let counter = Counter::new(plan.n())
            .config(&self.config)
            .pool(pool)
            .observer(progress)
            .cancel(signals::stop_flag());
        let asked = job.len();
        let resumed = left.resumed().len();
        let mut run = Run::new(plan, job).counter(counter);
        if let Some(journal) = journal {
            run = run.journal(journal);
        }
        if let Some(shard) = shard {
            run = run.shard(shard);
        }
        let count = signals::wait(
            || run.count(),
            || progress.finish(),
            || {
                // Units still running may finish while the process exits:
                // the journal is stopped, so that none is written after the
                // last words.
                progress.finish();
                let saved = journal.map(|j| resumed + j.stop());
                interrupted(journal, saved, progress.units_done(), asked);
            },
        )?;
        progress.finish();
        if signals::stopped() {
            let saved = journal.map(|_| count.units);
            interrupted(journal, saved, progress.units_done(), asked);
            return Err(Interrupted(signals::exit_code()).into());
        }
        let journal = journal.map(|j| j.path().display().to_string());
        Ok((count, journal))
    }

    /// Says that the shard's result is written.
    fn said_shard(&self, plan: &Plan, prepared: &Prepared, count: &Count) {
        if !self.args.quiet {
            eprintln!(
                "queens: shard {} of n = {}: {} units, subtotal {}, written to {}",
                prepared.shard,
                plan.n(),
                count.units,
                count.solutions,
                prepared.result.display()
            );
        }
    }

    /// Counts with a step of the ladder: the slow ones on their own, the
    /// last two (bitmask and parallel) as the mirror engine, serial and on
    /// the pool.
    fn count_ladder(
        &self,
        algorithm: Algorithm,
        n: u32,
        pool: &ThreadPool,
        began: Instant,
    ) -> anyhow::Result<CountRecord> {
        let (counter, threads) = match algorithm {
            Algorithm::Parallel => (
                Counter::new(n).config(&self.config).pool(pool),
                pool.current_num_threads(),
            ),
            Algorithm::Bitmask => (Counter::new(n).config(&self.config).threads(1), 1),
            slow => {
                let counted = || count_with(slow, n, &self.config);
                let solutions = signals::wait(counted, || {}, || quit(n))?;
                return Ok(bare_record(n, solutions, 1, slow.name()));
            }
        };
        let context = || format!("counting n = {n} with --algorithm {algorithm}");
        let plan = Plan::new(n, Engine::Mirror, &self.config).with_context(context)?;
        let all: Vec<u32> = (0..plan.len() as u32).collect();
        let progress = self.progress(&plan, &all, threads, began, false);
        let count = signals::wait(
            || {
                (counter.engine(Engine::Mirror))
                    .observer(&progress)
                    .run_plan(&plan)
            },
            || progress.finish(),
            || quit(n),
        );
        progress.finish();
        let mut record = engine_record(&count.with_context(context)?, true, 0, None);
        if algorithm == Algorithm::Bitmask {
            record.engine = algorithm.name();
        }
        Ok(record)
    }

    /// Counts `n` again with a second, independent engine; says loudly when
    /// the two disagree. `None` when no second engine covers `n`.
    fn cross_check(
        &self,
        method: Method,
        n: u32,
        pool: &ThreadPool,
        solutions: u128,
    ) -> anyhow::Result<Option<CrossCheck>> {
        let first = match method {
            Method::Engine(e) => e,
            Method::Ladder(Algorithm::Parallel | Algorithm::Bitmask) => Engine::Mirror,
            // The slow algorithms share nothing with the engines.
            Method::Ladder(_) => Engine::Join,
        };
        let Some(other) = first.second_opinion(n) else {
            if !self.args.quiet {
                let join = Engine::Join.range();
                eprintln!(
                    "queens: warning: no second engine for n = {n} (the join covers {} <= n <= \
                     {}): not cross-checked",
                    join.start(),
                    join.end()
                );
            }
            return Ok(None);
        };
        let second = Counter::new(n)
            .engine(other)
            .config(&self.config)
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
}

/// The plan of `engine` for `n`, with the count's config.
fn plan_for(n: u32, engine: Engine, config: &Config) -> anyhow::Result<Plan> {
    Plan::new(n, engine, config)
        .with_context(|| format!("counting n = {n} with the {engine} engine"))
}

/// The files this count reads or writes besides `--output`, which must be
/// none of them: checked when the count starts and again when the result
/// is written.
fn inputs(
    args: &CountArgs,
    shard: Option<ShardId>,
    out_dir: &Path,
) -> Vec<(&'static str, PathBuf)> {
    let mut inputs = Vec::new();
    if let Some(journal) = &args.checkpoint {
        inputs.push(("the journal", journal.clone()));
    }
    if let Some(shard) = shard {
        let result = out_dir.join(ShardFile::file_name(shard.index, shard.of));
        inputs.push(("the shard's journal", result.with_extension("journal")));
        inputs.push(("the shard result", result));
    }
    inputs
}

/// A unit list the plan refuses, as the user should read it.
fn unit_refusal(plan: &Plan, err: &queens::Error) -> anyhow::Error {
    let (n, engine) = (plan.n(), plan.engine());
    match err {
        queens::Error::Unit { id, .. } => {
            let has = match plan.len() {
                // n = 2: the rows a unit fixes have no legal placement.
                0 => format!("no units, as n = {n} has no solution"),
                len => format!("units 0 to {} (see 'queens plan {n} --units')", len - 1),
            };
            UsageError(format!(
                "unit {id} is not in the plan: n = {n} with the {engine} engine has {has}"
            ))
            .into()
        }
        other => UsageError(other.to_string()).into(),
    }
}

/// The record of an engine's count: of the whole plan, or of some units;
/// `resumed` of them taken from `journal`.
fn engine_record(
    count: &Count,
    whole: bool,
    resumed: usize,
    journal: Option<String>,
) -> CountRecord {
    let mut record = bare_record(count.n, count.solutions, count.threads, count.engine.name());
    record.split_depth = count.split_depth;
    record.plan = Some(count.plan.to_string());
    record.units = Some(if whole {
        Units::All(count.units)
    } else {
        Units::Some(count.unit_counts.clone())
    });
    if !whole {
        record.matches_known = None;
    }
    record.resumed_units = resumed;
    record.journal = journal;
    record
}

/// The record of `solutions` counted on `threads` threads by `engine`,
/// with nothing else known yet.
fn bare_record(n: u32, solutions: u128, threads: usize, engine: &'static str) -> CountRecord {
    CountRecord {
        n,
        solutions,
        elapsed_secs: 0.0,
        threads,
        split_depth: None,
        units: None,
        engine,
        plan: None,
        known: known::total(n),
        matches_known: known::matches_total(n, solutions),
        unique: None,
        cross_check: None,
        resumed_units: 0,
        journal: None,
        version: env!("CARGO_PKG_VERSION"),
    }
}

/// The last words of an interrupted count: `saved` of the `target` units
/// in the journal, or `counted` of them lost without one.
fn interrupted(journal: Option<&Journal>, saved: Option<usize>, counted: usize, target: usize) {
    match journal.zip(saved) {
        None => eprintln!(
            "interrupted: {counted} of {target} units were counted and are lost; --checkpoint \
             FILE would have kept them"
        ),
        Some((journal, saved)) => eprintln!(
            "interrupted: {saved} of {target} units saved in {}; rerun the same command to resume",
            journal.path().display()
        ),
    }
}

/// The last words of a count interrupted outside the units of a plan (a
/// slow algorithm, the symmetric searches of `--unique`, a cross-check).
fn quit(n: u32) {
    eprintln!("interrupted while counting n = {n}: nothing of it is kept");
}

/// A shard whose result is already written: says so, reports it as if
/// counted (nothing of it is counted again) and succeeds.
fn already_done(file: &ShardFile, path: &Path, request: &Request<'_>) -> anyhow::Result<ExitCode> {
    if !matches!(request.style, Style::Quiet) {
        eprintln!(
            "queens: {} already holds shard {}/{}, checked: nothing to count",
            path.display(),
            file.shard,
            file.shards
        );
    }
    let units: Vec<(u32, u128)> = (file.units.iter())
        .map(|&(id, c)| (id, u128::from(c)))
        .collect();
    let engine = Engine::from_str(&file.engine).map_or("?", Engine::name);
    let mut record = bare_record(file.n, units.iter().map(|&(_, c)| c).sum(), 0, engine);
    record.split_depth = file.split;
    record.matches_known = None;
    record.plan = Some(file.plan.clone());
    record.resumed_units = file.units.len();
    record.units = Some(Units::Some(units));
    request.report()?.record(&record)?;
    if let Some(output) = &request.output {
        let mut bytes = serde_json::to_vec(&record)?;
        bytes.push(b'\n');
        output.write(&bytes)?;
    }
    Ok(ExitCode::SUCCESS)
}

impl CountArgs {
    /// Why these arguments cannot count, in one line, where clap cannot
    /// tell: a size too big for a slow algorithm, a one-plan option with a
    /// range, an engine or `--gpu` that does not cover a size, a split the
    /// method would ignore.
    fn refusal(&self) -> Option<String> {
        let Sizes { first, last } = self.sizes;
        if let Some(refusal) = self
            .algorithm
            .and_then(|a| refuse_size(a, last, self.force))
        {
            return Some(refusal);
        }
        for (given, flag) in [
            (self.units.is_some(), "--units counts units"),
            (self.checkpoint.is_some(), "--checkpoint keeps the units"),
            (self.shard.is_some(), "--shard counts a share"),
        ] {
            if given && first != last {
                return Some(format!(
                    "{flag} of one plan: give one board size, not {first}..{last}"
                ));
            }
        }
        if let Some(refusal) = self
            .engine
            .and_then(|e| [first, last].into_iter().find_map(|n| refuse_engine(e, n)))
        {
            return Some(refusal);
        }
        if self.gpu
            && let Some(refusal) = super::options::refuse_gpu(self.engine, first)
        {
            return Some(refusal);
        }
        self.refuse_split_depth()
    }

    /// The method for `n`: the `--algorithm` if one is named, else the
    /// `--engine`, else the faster engine for `n`.
    fn method(&self, n: u32) -> Method {
        match (self.algorithm, self.engine) {
            (Some(a), _) => Method::Ladder(a),
            (None, Some(e)) => Method::Engine(e),
            (None, None) if self.gpu => Method::Engine(super::options::gpu_engine(n)),
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
            Method::Engine(e) if self.gpu && self.engine.is_none() => format!(
                "--split-depth applies to the mirror engine only, and --gpu counts with the \
                 {e} engine unless told: add --engine mirror, or drop --split-depth"
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
