//! The arguments of `queens count`, as clap parses them: each flag's help
//! text and the values it accepts. What clap cannot check is checked once,
//! in [`super::request`].

use std::num::NonZeroUsize;
use std::path::PathBuf;

use queens::{Algorithm, Engine};

use crate::args::{
    ShardArg, Sizes, UnitList, parse_shard, parse_sizes, parse_threads, parse_unit_list,
};
use crate::problem::ProblemArgs;

#[derive(Debug, clap::Args)]
pub struct CountArgs {
    /// Board size N (1 to 32), or an inclusive range A..B (also A..=B), as
    /// `seq A B` would list it.
    #[arg(value_name = "N|A..B", value_parser = parse_sizes, allow_negative_numbers = true)]
    pub(super) sizes: Sizes,

    /// Worker threads [default: all cores, or RAYON_NUM_THREADS].
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads,
          allow_negative_numbers = true)]
    pub(super) threads: Option<NonZeroUsize>,

    /// Rows fixed by each unit of the mirror engine (1 to 6) [default: 2;
    /// with --shard, 4]; for a problem, at any n, the rows without a given
    /// queen each unit places. Refused where another method counts (the
    /// join does by default for 12 <= n <= 28: add --engine mirror).
    #[arg(long, value_name = "D", value_parser = crate::args::parse_split_depth,
          allow_negative_numbers = true)]
    pub(super) split_depth: Option<u32>,

    /// Print one JSON object per board size (JSON lines).
    #[arg(long)]
    pub(super) json: bool,

    /// Print only the counts, one per line; no progress bar, no warnings.
    #[arg(short, long)]
    pub(super) quiet: bool,

    /// Counting engine: `join` pairs half-boards (the fastest, 4 <= n <= 28),
    /// `constellations` backtracks from the four border queens with all eight
    /// symmetries (4 <= n <= 32), `mirror` backtracks row by row with mirror
    /// symmetry [default: join for 12 <= n <= 28, constellations beyond, else
    /// mirror; with --gpu, constellations].
    #[arg(long, value_parser = crate::options::EngineParser)]
    pub(super) engine: Option<Engine>,

    /// Run the plan's units on the GPU (a build with `--features gpu`):
    /// the constellations engine's plan, or the mirror engine's with
    /// --engine mirror; the same hash, journal and shards as on the CPU.
    #[arg(
        long,
        conflicts_with = "algorithm",
        default_value_if("gpu_backend", clap::builder::ArgPredicate::IsPresent, "true")
    )]
    pub(super) gpu: bool,

    /// The GPU executor and its API (implies --gpu): auto (CUDA where it is
    /// built in and an NVIDIA GPU answers, else the portable one), cuda,
    /// portable (wgpu: Vulkan, Metal or DirectX 12), vulkan, metal, dx12.
    #[arg(long, value_name = "BACKEND",
          value_parser = crate::values::ChoiceParser::<queens::GpuBackend>::new(), conflicts_with = "algorithm")]
    pub(super) gpu_backend: Option<queens::GpuBackend>,

    /// Count each size with a second, independent engine too (the mirror
    /// backtracker and the join) and exit 3 if they disagree.
    #[arg(long)]
    pub(super) cross_check: bool,

    /// Also count the essentially different solutions (OEIS A002562) and
    /// the symmetry classes by size.
    #[arg(long)]
    pub(super) unique: bool,

    /// Count only these units of the plan (see `queens plan N --units`),
    /// e.g. 0-99,150,200-210; each unit at most once. One board size only.
    #[arg(long, value_name = "LIST", value_parser = parse_unit_list, allow_hyphen_values = true,
          conflicts_with_all = ["unique", "cross_check", "algorithm"])]
    pub(super) units: Option<UnitList>,

    /// Keep every finished unit in this journal, and resume from it: after
    /// an interruption (Ctrl-C, kill, reboot) run the same command again.
    /// One board size only.
    #[arg(long, value_name = "FILE", conflicts_with = "algorithm")]
    pub(super) checkpoint: Option<PathBuf>,

    /// Also write the JSON record(s) to FILE when the count is done,
    /// atomically: FILE is never left half-written.
    #[arg(long, value_name = "FILE")]
    pub(super) output: Option<PathBuf>,

    /// Count shard I of K of the plan (0 <= I < K, e.g. 3/64) and write
    /// DIR/shard-IIII-of-KKKK.json; `env/K` takes I from SLURM_ARRAY_TASK_ID,
    /// JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX. A journal beside the
    /// result lets a rerun resume. Put the shards together with `queens merge`.
    #[arg(long, value_name = "I/K", value_parser = parse_shard, allow_hyphen_values = true,
          conflicts_with_all = ["units", "checkpoint", "unique", "cross_check", "algorithm"])]
    pub(super) shard: Option<ShardArg>,

    /// How long to wait, in seconds, for a journal that another queens
    /// process holds (a requeued task whose predecessor is still dying)
    /// before refusing it [default: 60 with --shard, else 0].
    #[arg(long, value_name = "SECONDS", value_parser = crate::args::parse_lock_wait,
          allow_negative_numbers = true)]
    pub(super) lock_wait: Option<u64>,

    /// Where --shard writes its result and its journal [default: .].
    #[arg(long, value_name = "DIR", requires = "shard")]
    pub(super) out_dir: Option<PathBuf>,

    /// Count with this step of the ladder (see `queens ladder`);
    /// --split-depth applies to bitmask and parallel, --threads to parallel.
    #[arg(long, value_name = "NAME", conflicts_with = "engine",
          value_parser = crate::values::ChoiceParser::<Algorithm>::new())]
    pub(super) algorithm: Option<Algorithm>,

    /// Run a slow algorithm on a board it would take over a minute on.
    #[arg(long)]
    pub(super) force: bool,

    /// Queens given and squares blocked: count the completions of that
    /// problem (one board size, the mirror engine with --split-depth free
    /// rows a unit; --units, --checkpoint and --shard work as for any plan).
    #[command(flatten)]
    pub(super) problem: ProblemArgs,
}
