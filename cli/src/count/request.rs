//! One `queens count`, resolved once from its arguments: the sizes, the
//! method of each, the config, the shard, the files; every refusal that
//! clap cannot make is made here, before anything is counted.

use std::io;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Duration;

use queens::shard::{Prepared, ShardFile, ShardId};
use queens::{Algorithm, Config, Engine, Executor, Problem, Runner, Shape};
use rayon::ThreadPool;

use super::args::CountArgs;
use super::records::{Style, count_table};
use crate::UsageError;
use crate::args::{Sizes, UnitList, refuse_engine, refuse_size};
use crate::files::{Input, Output};
use crate::report::Report;

/// How long a shard waits for its journal by default: a task requeued by
/// SLURM or a replaced pod may start while the old one is still saving.
const SHARD_LOCK_WAIT: u64 = 60;

/// What counts a board size: one of the engines, or a step of the ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Method {
    Engine(Engine),
    Ladder(Algorithm),
}

/// One `queens count`, checked and resolved once from its arguments:
/// nothing that counts reads the command line again.
pub(super) struct Request {
    /// Each board size to count, in order, with the method that counts it.
    pub(super) sizes: Vec<(u32, Method)>,
    /// The plans' memory limit and the environment's options.
    pub(super) config: Config,
    /// `-j`: the count's threads (`None`: every core).
    pub(super) threads: Option<NonZeroUsize>,
    /// `--gpu`: where the units run.
    pub(super) executor: Executor,
    /// `--split-depth` (see [`Self::shape`]).
    pub(super) split_depth: Option<u32>,
    pub(super) style: Style,
    /// `-q`: no progress bar, no warnings or notes on stderr.
    pub(super) quiet: bool,
    /// `--units`: the ids of the units to count, else all of them.
    pub(super) units: Option<Vec<u32>>,
    /// `--unique`.
    pub(super) unique: bool,
    /// `--cross-check`.
    pub(super) cross_check: bool,
    /// `--shard`, its index resolved from the scheduler's variable.
    pub(super) shard: Option<ShardId>,
    /// `--out-dir`, or `.`.
    pub(super) out_dir: PathBuf,
    /// `--checkpoint`.
    pub(super) checkpoint: Option<PathBuf>,
    /// `--output`, checked against the files this count reads.
    pub(super) output: Option<Output>,
    /// `--lock-wait`, or its default with `--shard` or without.
    pub(super) lock_wait: Duration,
    /// `--given`, `--blocked` or `--board`: the problem whose completions
    /// are counted, with constraints (`None` for the empty board, however
    /// it was given).
    pub(super) problem: Option<Problem>,
}

impl Request {
    /// Checks what clap cannot: refusals are one line and exit 2.
    pub(super) fn resolve(args: &CountArgs) -> anyhow::Result<Self> {
        let Sizes { first, last } = args.sizes;
        if let Some(refusal) = args.refusal() {
            return Err(UsageError(refusal).into());
        }
        let problem = match args.problem.any() {
            true => args.problem.problem(first)?,
            false => None,
        }
        .filter(|problem| !problem.is_empty_board());
        let sizes: Vec<(u32, Method)> = match &problem {
            Some(problem) => {
                let engine = Engine::for_count(first, args.engine, Executor::Cpu, Some(problem));
                vec![(first, Method::Engine(engine))]
            }
            None => (first..=last).map(|n| (n, args.method(n))).collect(),
        };
        // See: issue 47, item 4 (a problem's split was refused as if the
        // join counted it): the split is held against the methods that
        // count, once the problem says which.
        if let Some(refusal) = args.refuse_split_depth(&sizes) {
            return Err(UsageError(refusal).into());
        }
        let threads = crate::args::threads(args.threads)?;
        if args.gpu {
            let name = crate::options::find_gpu(args.gpu_backend)?;
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
        let out_dir = args.out_dir.clone().unwrap_or_else(|| PathBuf::from("."));
        let inputs = inputs(args, shard, &out_dir);
        let inputs: Vec<Input<'_>> = (inputs.iter())
            .map(|(role, path)| Input::File { role, path })
            .chain(args.problem.input())
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
        let config = Config::default()
            .with_memory_limit(crate::memory::available()?)
            .with_options(crate::options::with_backend(args.gpu_backend)?);
        let executor = if args.gpu {
            Executor::Gpu
        } else {
            Executor::Cpu
        };
        let wait = args
            .lock_wait
            .unwrap_or(if shard.is_some() { SHARD_LOCK_WAIT } else { 0 });
        Ok(Self {
            sizes,
            config,
            threads,
            executor,
            split_depth: args.split_depth,
            style,
            quiet: args.quiet,
            units: args.units.clone().map(|UnitList(ids)| ids),
            unique: args.unique,
            cross_check: args.cross_check,
            shard,
            out_dir,
            checkpoint: args.checkpoint.clone(),
            output,
            lock_wait: Duration::from_secs(wait),
            problem,
        })
    }

    /// The shape of the plan of `engine` for `n`: `--split-depth`
    /// (refused for counts by the engines without a split), or a shard's,
    /// as the library shapes a count.
    pub(super) fn shape(&self, n: u32, engine: Engine) -> Shape {
        Shape::of_count(n, engine, self.split_depth, self.shard.is_some())
    }

    /// Where the units run: on `pool`, on the request's executor.
    pub(super) fn runner<'a>(&self, pool: &'a ThreadPool) -> Runner<'a> {
        Runner::new().pool(pool).executor(self.executor)
    }

    /// The report on stdout, its table's header kept until the first record
    /// so that a count refused or failed before it leaves stdout empty.
    pub(super) fn report(&self) -> io::Result<Report> {
        let mut report = Report::stdout(self.style.form());
        if let Style::Human { unique } = self.style {
            report.header(|out| count_table(unique).header(out))?;
        }
        Ok(report)
    }

    /// The journal's path: `--checkpoint`, or the shard's beside its result.
    pub(super) fn journal_path<'p>(&'p self, shard: Option<&'p Prepared>) -> Option<&'p Path> {
        (self.checkpoint.as_deref()).or(shard.map(|s| s.journal.as_path()))
    }

    /// The first size and its method: the only one, for the options of
    /// one plan (`--units`, `--checkpoint`, `--shard`).
    pub(super) fn first(&self) -> (u32, Method) {
        self.sizes[0]
    }

    /// Whether the units run on the GPU (`--gpu`).
    pub(super) fn gpu(&self) -> bool {
        matches!(self.executor, Executor::Gpu)
    }
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
        let result = out_dir.join(ShardFile::file_name(shard.index(), shard.of()));
        inputs.push(("the shard's journal", result.with_extension("journal")));
        inputs.push(("the shard result", result));
    }
    inputs
}

impl CountArgs {
    /// Why these arguments cannot count, in one line, where clap cannot
    /// tell: a size too big for a slow algorithm, a one-plan option with a
    /// range, an engine or `--gpu` that does not cover a size. (A split
    /// the method would ignore is [`Self::refuse_split_depth`]'s.)
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
        if self.problem.any()
            && let Some(refusal) = self.refuse_with_problem()
        {
            return Some(refusal);
        }
        if let Some(refusal) = self
            .engine
            .and_then(|e| [first, last].into_iter().find_map(|n| refuse_engine(e, n)))
        {
            return Some(refusal);
        }
        self.gpu
            .then(|| crate::options::refuse_gpu(self.engine, first))
            .flatten()
    }

    /// Why the options cannot count a problem's completions, where they
    /// cannot: a range, an engine or executor that takes no constraints,
    /// the checks that exist for the empty board only.
    fn refuse_with_problem(&self) -> Option<String> {
        let Sizes { first, last } = self.sizes;
        let flags = "--given, --blocked and --board";
        if first != last {
            return Some(format!(
                "{flags} describe one board: give one board size, not {first}..{last}"
            ));
        }
        let refused = [
            (self.engine.is_some_and(|e| e != Engine::Mirror), "--engine"),
            (self.gpu, "--gpu"),
            (self.algorithm.is_some(), "--algorithm"),
            (self.cross_check, "--cross-check"),
            (self.unique, "--unique"),
        ];
        let (_, flag) = refused.into_iter().find(|(given, _)| *given)?;
        Some(match flag {
            "--unique" => format!(
                "--unique does not go with {flags}: 'queens list N --given ... --unique' lists \
                 one completion a class under the problem's own symmetries"
            ),
            "--cross-check" => format!(
                "--cross-check does not go with {flags}: count with --checkpoint FILE, then \
                 'queens verify --journal FILE' recounts units by a plain search"
            ),
            flag => format!(
                "{flag} does not go with {flags}: a problem's completions are counted by the \
                 mirror engine on the CPU (drop {flag})"
            ),
        })
    }

    /// The method for `n`: the `--algorithm` if one is named, else the
    /// `--engine`, else the faster engine for `n`. Asked once for each
    /// size, by [`Request::resolve`].
    fn method(&self, n: u32) -> Method {
        match (self.algorithm, self.engine) {
            (Some(a), _) => Method::Ladder(a),
            (None, Some(e)) => Method::Engine(e),
            (None, None) => {
                let executor = if self.gpu {
                    Executor::Gpu
                } else {
                    Executor::Cpu
                };
                Method::Engine(Engine::for_count(n, None, executor, None))
            }
        }
    }

    /// Why `--split-depth` is refused: a size of the range is counted by a
    /// method without a split (the join, by choice or by default, or a slow
    /// algorithm), which would ignore it in silence. `sizes` are the
    /// methods that count: a problem's is the mirror engine's, whatever n.
    fn refuse_split_depth(&self, sizes: &[(u32, Method)]) -> Option<String> {
        self.split_depth?;
        let &(n, method) = sizes.iter().find(|&&(_, method)| !method.splits())?;
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
