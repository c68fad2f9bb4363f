//! Counting: the engines, their plans of work units, the loop that hands
//! units to an executor (`run`), and the choice of engine for a board size.
//!
//! Three independent engines count, each through a [`Plan`] of units:
//!
//! - [`Engine::Mirror`] backtracks row by row on bitmasks, split into units
//!   on its first rows, with mirror symmetry halving the work (n = 1..=32);
//! - [`Engine::Join`] pairs left and right half-boards (Kluev's quadrant
//!   join), one unit per row set, with the board's symmetries (n = 4..=28);
//! - [`Engine::Constellations`] backtracks from the queens on the four
//!   border lines, one unit per start up to the square's symmetries.
//!
//! A plan says what is counted: its [`Shape`] (n, engine, split) and its
//! [`Config`] (memory limit, options). A [`Runner`](crate::Runner) says where and how it
//! runs: threads or a pool, an [`Executor`] (the CPU, or for the
//! backtracking engines' plans an NVIDIA GPU, the `gpu` feature), an
//! [`Observer`], a stop flag, a journal and a shard. The runner is no part
//! of the plan: a GPU run and a CPU run of one plan share its hash, its
//! journal and its shards.
//!
//! [`Engine::best_for`] picks the faster engine for `n`; each is the
//! other's [`second_opinion`](Engine::second_opinion). [`count`](crate::count()) is the
//! one call; [`Counter`](crate::Counter) builds a plan and a runner in one line.

mod completion;
pub(crate) mod constellations;
pub(crate) mod cost;
pub(crate) mod gpu;
pub(crate) mod join;
pub(crate) mod mirror;
mod options;
pub(crate) mod pieces;
pub(crate) mod plan;
pub(crate) mod run;
mod selection;

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

pub use self::gpu::{GPU_EXECUTOR, GPU_EXECUTORS, find_gpu};
pub use self::mirror::{DEFAULT_SPLIT_DEPTH, MAX_SPLIT_DEPTH};
pub use self::options::{GpuBackend, GpuOptions, Options, Simd};
pub use self::plan::{CountMemory, Impossible, Plan, PlanHash, Unit};
pub use self::run::{Observer, UnitDone, thread_pool};
pub use self::selection::{Selection, sample_units};

/// The mirror engine's split for a sharded run (`queens::shard::SPLIT_DEPTH`):
/// two rows give n = 18 only 136 units, and 64 shards of them finish 1.4
/// times later than the ideal; four rows give 18,132
/// (results/amd-epyc-2c/2026-11-23-shards.txt).
pub const SHARD_SPLIT_DEPTH: u32 = 4;
use crate::Error;

/// A counting engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// Bitmask backtracking with mirror symmetry, split on its first rows.
    Mirror,
    /// The half-board join with the board's symmetries; odd boards fix the
    /// middle-column queen.
    Join,
    /// Bitmask backtracking from the queens on the four border lines, one
    /// unit per start up to all eight symmetries of the square.
    Constellations,
}

impl Engine {
    /// Every engine.
    pub const ALL: [Self; 3] = [Self::Mirror, Self::Join, Self::Constellations];

    /// The engine for `n` when none is named: the join from n = 12 to 28
    /// (faster there: 10 ms against 51 ms at n = 14, 1.5 s against 40 s at
    /// n = 18, see results/), the constellations engine beyond, the mirror
    /// engine below.
    #[must_use]
    pub fn best_for(n: u32) -> Self {
        match n {
            12..=join::MAX_JOIN_N => Self::Join,
            n if n > join::MAX_JOIN_N => Self::Constellations,
            _ => Self::Mirror,
        }
    }

    /// The board sizes this engine counts.
    #[must_use]
    pub fn range(self) -> RangeInclusive<u32> {
        match self {
            Self::Mirror => 1..=crate::kernel::MAX_N,
            Self::Constellations => constellations::MIN_N..=crate::kernel::MAX_N,
            Self::Join => join::MIN_JOIN_N..=join::MAX_JOIN_N,
        }
    }

    /// Whether this engine counts an `n`-board.
    #[must_use]
    pub fn covers(self, n: u32) -> bool {
        self.range().contains(&n)
    }

    /// The independent engine to check this one against for `n`, if one
    /// covers it.
    #[must_use]
    pub fn second_opinion(self, n: u32) -> Option<Self> {
        let (first, then) = match self {
            Self::Mirror => (Self::Join, Self::Constellations),
            Self::Constellations => (Self::Join, Self::Mirror),
            Self::Join => (Self::Constellations, Self::Mirror),
        };
        [first, then].into_iter().find(|e| e.covers(n))
    }

    /// The engine's name, as the CLI and plan texts spell it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Mirror => "mirror",
            Self::Join => "join",
            Self::Constellations => "constellations",
        }
    }

    /// "the join engine", for messages.
    pub(crate) fn described(self) -> &'static str {
        match self {
            Self::Mirror => "the mirror engine",
            Self::Join => "the join engine",
            Self::Constellations => "the constellations engine",
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Engine {
    type Err = Error;

    /// An engine by [name](Engine::name).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| Error::UnknownEngine(s.to_owned()))
    }
}

/// Where a plan's units run. The executor never changes a count or a
/// plan: a unit counted on either gives the same number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Executor {
    /// The CPU: rayon's current pool, a pool of [`Runner::threads`](crate::Runner::threads), the
    /// calling thread (one thread), or the caller's pool
    /// ([`Runner::pool`](crate::Runner::pool)).
    #[default]
    Cpu,
    /// The first NVIDIA GPU (a build with the `gpu` feature), for the
    /// backtracking engines' plans (the constellations engine's, its
    /// default, and the mirror engine's), 4 <= n <= 32: their units cut
    /// into millions of tasks, a batch of units a launch. Its knobs are
    /// [`Options::gpu`].
    Gpu,
}

impl Executor {
    /// The engine a count on this executor uses for an `n`-board when none
    /// is named: on the GPU the constellations engine (the faster of the
    /// two it runs), else [`Engine::best_for`] `n`.
    #[must_use]
    pub fn engine_for(self, n: u32) -> Engine {
        match self {
            Self::Cpu => Engine::best_for(n),
            Self::Gpu => Engine::Constellations,
        }
    }

    /// Whether this executor runs `engine`'s plans: the CPU every
    /// engine's, the GPU the backtracking ones (the constellations and the
    /// mirror engine's).
    #[must_use]
    pub fn runs(self, engine: Engine) -> bool {
        match self {
            Self::Cpu => true,
            Self::Gpu => gpu::runs(engine),
        }
    }

    /// The board sizes this executor counts (each engine's own
    /// [range](Engine::range) applies too): the CPU `1..=32`, the GPU
    /// `4..=32` (a smaller board leaves too few rows to cut into tasks).
    #[must_use]
    pub fn range(self) -> RangeInclusive<u32> {
        match self {
            Self::Cpu => 1..=crate::kernel::MAX_N,
            Self::Gpu => gpu::RANGE,
        }
    }
}

/// What defines a plan: the board size, the engine, and the mirror
/// engine's split (how many rows its units fix). Two plans of one shape
/// are the same plan, with one hash, journal and shards; what the plan
/// needs of the machine (the options, a memory limit) is its [`Config`],
/// and where it runs its [`Runner`](crate::Runner)'s, neither part of the shape.
///
/// ```
/// use queens::{Config, Engine, Plan, Shape};
///
/// let plan = Plan::new(Shape::new(10, Engine::Mirror, Some(3)), &Config::default())?;
/// assert_eq!((plan.split_depth(), plan.shape()), (Some(3), Shape::new(10, Engine::Mirror, Some(3))));
/// let join = Plan::new(Shape::new(10, Engine::Join, None), &Config::default())?;
/// assert_eq!(join.split_depth(), None);
/// # Ok::<(), queens::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Shape {
    /// Board size.
    pub n: u32,
    /// The engine whose units the plan holds.
    pub engine: Engine,
    /// Rows each of the mirror engine's units fixes
    /// (`1..=MAX_SPLIT_DEPTH`); `None`: [`DEFAULT_SPLIT_DEPTH`] for the
    /// mirror engine, and no split for the others, whose units are fixed
    /// by `n` (a split given to them is refused with [`Error::NoSplit`]).
    pub split_depth: Option<u32>,
}

impl Shape {
    /// The shape of `engine`'s plan for an `n`-board, split on
    /// `split_depth` rows (`None`: the engine's own split, if it has one).
    /// Checked when a plan is built or estimated, not here.
    #[must_use]
    pub fn new(n: u32, engine: Engine, split_depth: Option<u32>) -> Self {
        Self {
            n,
            engine,
            split_depth,
        }
    }

    /// The shape of a count of the `n`-board with `engine`, split on
    /// `split_depth` rows where given; else, for a shard of a run
    /// (`sharded`), the mirror engine's units fix
    /// [`shard::SPLIT_DEPTH`](crate::shard::SPLIT_DEPTH) rows, small
    /// enough to spread over many machines. The one rule that every front
    /// end follows, since it decides the plan's hash: the command line's
    /// and the Python package's shards of one run merge.
    ///
    /// ```
    /// use queens::{Engine, Shape};
    ///
    /// let shard = Shape::of_count(16, Engine::Mirror, None, true);
    /// assert_eq!(shard.split_depth, Some(queens::shard::SPLIT_DEPTH));
    /// assert_eq!(Shape::of_count(16, Engine::Join, None, true).split_depth, None);
    /// assert_eq!(Shape::of_count(16, Engine::Mirror, Some(2), true).split_depth, Some(2));
    /// ```
    #[must_use]
    pub fn of_count(n: u32, engine: Engine, split_depth: Option<u32>, sharded: bool) -> Self {
        let shard_split = (sharded && engine == Engine::Mirror).then_some(SHARD_SPLIT_DEPTH);
        Self::new(n, engine, split_depth.or(shard_split))
    }
}

impl Engine {
    /// The engine a count of the `n`-board uses: for a problem's
    /// completions the mirror engine, the one that takes given queens and
    /// blocked squares ([`Plan::for_problem`]); else the engine `named`,
    /// else the `executor`'s [choice](Executor::engine_for). The one rule
    /// that every front end follows, since it decides the plan's hash.
    ///
    /// ```
    /// use queens::{Engine, Executor, Problem, Square};
    ///
    /// let corner = Problem::new(8, [Square::new(0, 0)], [])?;
    /// assert_eq!(Engine::for_count(8, None, Executor::Cpu, Some(&corner)), Engine::Mirror);
    /// assert_eq!(Engine::for_count(14, None, Executor::Cpu, None), Engine::Join);
    /// # Ok::<(), queens::Error>(())
    /// ```
    #[must_use]
    pub fn for_count(
        n: u32,
        named: Option<Engine>,
        executor: Executor,
        problem: Option<&crate::Problem>,
    ) -> Self {
        match (problem, named) {
            (Some(_), _) => Self::Mirror,
            (None, Some(engine)) => engine,
            (None, None) => executor.engine_for(n),
        }
    }
}

/// What a plan needs of the machine it counts on: the memory it may take
/// and how its units may use the hardware. A plan keeps its config
/// ([`Plan::config`]): neither changes the plan's units or hash, and
/// where and on how many threads its units run is the [`Runner`](crate::Runner)'s.
/// `Config::default()` sets no memory limit and takes the default options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// The memory this machine has available, in bytes: a plan or a count
    /// estimated to need more is refused with [`Error::Memory`] before it
    /// allocates (see [`Plan::memory_estimate`]). `None`: no check. The
    /// library never looks at the machine: each front end fills it (the
    /// CLI and the Python package read what the machine has).
    pub memory_limit: Option<u64>,
    /// How the count may use the hardware (SIMD loops, the GPU's cut).
    pub options: Options,
}

impl Config {
    /// This configuration refusing plans and counts that need more than
    /// `bytes` (`None`: no limit).
    #[must_use]
    pub fn with_memory_limit(self, bytes: Option<u64>) -> Self {
        Self {
            memory_limit: bytes,
            ..self
        }
    }

    /// This configuration with `options`.
    #[must_use]
    pub fn with_options(self, options: Options) -> Self {
        Self { options, ..self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::plan::Planner;
    use crate::cpu::Features;
    use crate::{Counter, Runner};
    use std::num::NonZeroUsize;
    use std::sync::atomic::AtomicBool;

    /// A count stopped before it starts counts nothing, and says so by
    /// being unfinished: the plan is built whole, no unit starts.
    #[test]
    fn a_stop_set_at_the_start_counts_nothing() {
        let stop = AtomicBool::new(true);
        for engine in Engine::ALL {
            let count = Counter::new(16).engine(engine).cancel(&stop).run().unwrap();
            assert_eq!((count.units, count.solutions), (0, 0), "{engine}");
            assert!(count.plan_units > 0 && !count.is_finished());
        }
    }

    /// Units counted fewer at a time than there are threads, each by all
    /// of them ([`CountMemory::shared`]), count what one unit a thread
    /// counts, every unit once: n = 16 and 17 (its big jobs sieved), one
    /// and two units at once on three threads.
    #[test]
    fn units_shared_by_threads_count_what_one_a_thread_counts() {
        let pool = run::thread_pool(NonZeroUsize::new(3)).unwrap();
        for n in [16, 17] {
            let plan = Plan::new(Shape::new(n, Engine::Join, None), &Config::default()).unwrap();
            let ids: Vec<u32> = (0..plan.len() as u32).collect();
            let counts = |at_once| {
                let target = run::Target::Cpu {
                    pool: Some(&pool),
                    threads: None,
                    chunk_log: None,
                    at_once,
                };
                run::run(&plan, &ids, &target, &|_| Ok(()), &(), None)
                    .unwrap()
                    .counts
            };
            let alone = counts(None);
            assert_eq!(alone.len(), ids.len());
            let total: u128 = alone.iter().map(|&(_, c)| c).sum();
            assert_eq!(Some(total), crate::known::total(n), "n = {n}");
            for at_once in [1, 2] {
                assert_eq!(counts(Some(at_once)), alone, "n = {n}, {at_once} at once");
            }
        }
    }

    /// Every unit of the plan of `planner`, counted on two threads.
    fn unit_counts(n: u32, planner: Planner, simd: Simd) -> Vec<(u32, u128)> {
        let options = Options::default().with_simd(simd);
        let config = Config::default().with_options(options);
        let plan = Plan::build(n, planner, None, &config).unwrap();
        let portable = simd == Simd::PORTABLE;
        assert!(!portable || plan.features() == Features::PORTABLE);
        let two = NonZeroUsize::new(2).unwrap();
        let count = Runner::new().threads(two).count(&plan, &plan.select_all());
        let count = count.unwrap();
        assert_eq!(
            Some(count.solutions),
            crate::known::total(n),
            "n = {n}, {planner:?}"
        );
        count.unit_counts
    }

    /// The portable loops and the ones this CPU has give every unit the
    /// same count: both paths tested on every machine, chosen through
    /// [`Options`], with no environment variable. (n = 17 takes the
    /// sieve's cuts and its `pext` where the CPU has it.)
    #[test]
    fn the_portable_loops_count_what_the_fast_ones_count() {
        let unequal = Planner::Join(join::Stage::Symmetric);
        for planner in [Engine::Mirror.into(), Engine::Join.into(), unequal] {
            let sizes = if planner == Engine::Join.into() {
                4..=17
            } else {
                4..=12
            };
            // The AVX2 loops too, where the CPU has AVX-512 as well.
            let no_avx512 = Simd {
                avx512: false,
                ..Simd::AUTO
            };
            for n in sizes {
                let portable = unit_counts(n, planner, Simd::PORTABLE);
                assert_eq!(
                    unit_counts(n, planner, Simd::AUTO),
                    portable,
                    "n = {n}, {planner:?}"
                );
                assert_eq!(
                    unit_counts(n, planner, no_avx512),
                    portable,
                    "n = {n}, {planner:?}, without AVX-512"
                );
            }
        }
    }

    /// See: issues 22 and 34 (`Counter::run_plan` ignored the counter's
    /// `n`, then its options). A counter given a plan counts it only
    /// where it describes it: what it names must be the plan's, what it
    /// leaves out is taken from the plan.
    #[test]
    fn a_counter_counts_only_the_plan_it_describes() {
        let plan = Plan::new(Shape::new(10, Engine::Mirror, None), &Config::default()).unwrap();
        let board = Counter::new(11).run_plan(&plan).unwrap_err();
        assert!(
            matches!(board, Error::OtherPlan { what: "board", .. }),
            "{board}"
        );
        let engine = Counter::new(10).engine(Engine::Join).run_plan(&plan);
        assert!(matches!(
            engine,
            Err(Error::OtherPlan { what: "engine", .. })
        ));
        let portable = Options::default().with_simd(Simd::PORTABLE);
        let options = Counter::new(10).options(portable).run_plan(&plan);
        assert!(matches!(
            options,
            Err(Error::OtherPlan { what: "config", .. })
        ));
        let limit = Config::default().with_memory_limit(Some(1 << 40));
        let limited = Counter::new(10).config(&limit).run_plan(&plan);
        assert!(matches!(
            limited,
            Err(Error::OtherPlan { what: "config", .. })
        ));
        assert_eq!(Counter::new(10).run_plan(&plan).unwrap().solutions, 724);
        let config = Config::default().with_options(portable);
        let same = Plan::new(Shape::new(10, Engine::Mirror, None), &config).unwrap();
        for counter in [Counter::new(10), Counter::new(10).options(portable)] {
            assert_eq!(counter.run_plan(&same).unwrap().solutions, 724);
        }
    }

    /// Where the units run is one setting: the last of `threads` and
    /// `pool` decides; threads are counted from one, never 0 for "the
    /// default".
    #[test]
    fn the_last_of_threads_and_pool_decides() {
        let pool = thread_pool(NonZeroUsize::new(3)).unwrap();
        let on_pool = Counter::new(10).threads(2).pool(&pool).run().unwrap();
        assert_eq!(on_pool.threads, 3);
        let on_one = Counter::new(10).pool(&pool).threads(1).run().unwrap();
        assert_eq!(on_one.threads, 1);
        assert_eq!(Counter::new(10).threads(0).run(), Err(Error::Threads(0)));
        let plan = Plan::new(Shape::new(10, Engine::Mirror, None), &Config::default()).unwrap();
        let runner = Runner::new().threads(NonZeroUsize::MIN).pool(&pool);
        assert_eq!(runner.count(&plan, &plan.select_all()).unwrap().threads, 3);
    }

    /// See: issue 34 (the split was a `Config` setting, ignored by the
    /// engines without one). A shape is the plan: its split is the
    /// mirror engine's, given or default, refused for the others and for
    /// a counter given another one.
    #[test]
    fn a_shape_is_the_plan_and_a_split_needs_an_engine_with_one() {
        let config = Config::default();
        let default = Plan::new(Shape::new(10, Engine::Mirror, None), &config).unwrap();
        assert_eq!(default.split_depth(), Some(DEFAULT_SPLIT_DEPTH));
        let three = Shape::new(10, Engine::Mirror, Some(3));
        let plan = Plan::new(three, &config).unwrap();
        assert_eq!(plan.shape(), three);
        assert_eq!(
            Plan::new(plan.shape(), &config).unwrap().hash(),
            plan.hash()
        );
        assert_ne!(plan.hash(), default.hash());
        for engine in [Engine::Join, Engine::Constellations] {
            let split = Shape::new(10, engine, Some(2));
            let no_split = Error::NoSplit {
                engine: engine.name(),
            };
            let err = Plan::new(split, &config).unwrap_err();
            assert_eq!(err, no_split);
            assert_eq!(Plan::memory_estimate(split).unwrap_err(), no_split);
            let counted = Counter::new(10).engine(engine).split_depth(2).run();
            assert_eq!(counted, Err(no_split));
        }
        let seven = Shape::new(10, Engine::Mirror, Some(7));
        assert!(matches!(
            Plan::new(seven, &config),
            Err(Error::SplitDepth { depth: 7, .. })
        ));
        let other = Counter::new(10).split_depth(2).run_plan(&plan);
        assert!(matches!(other, Err(Error::OtherPlan { what: "split", .. })));
        let same = Counter::new(10).engine(Engine::Mirror).split_depth(3);
        assert_eq!(same.shape(), three);
        assert_eq!(same.run_plan(&plan).unwrap().solutions, 724);
        assert_eq!(same.run().unwrap().plan, plan.hash());
    }

    /// The policies that decide a plan's hash, once for every front end:
    /// a problem is counted by the mirror engine, whatever is named; a
    /// shard of the mirror engine splits on `shard::SPLIT_DEPTH` rows
    /// unless told, the other engines' shards have no split.
    #[test]
    fn the_shape_of_a_count_is_decided_once() {
        let corner = crate::Problem::new(8, [crate::Square::new(0, 0)], []).unwrap();
        for named in [None, Some(Engine::Mirror)] {
            let engine = Engine::for_count(8, named, Executor::Cpu, Some(&corner));
            assert_eq!(engine, Engine::Mirror);
        }
        assert_eq!(
            Engine::for_count(20, None, Executor::Gpu, None),
            Engine::Constellations
        );
        assert_eq!(
            Engine::for_count(20, Some(Engine::Join), Executor::Cpu, None),
            Engine::Join
        );
        let shard = Shape::of_count(12, Engine::Mirror, None, true);
        assert_eq!(
            shard,
            Shape::new(12, Engine::Mirror, Some(SHARD_SPLIT_DEPTH))
        );
        assert_eq!(
            Shape::of_count(12, Engine::Mirror, None, false).split_depth,
            None
        );
        for engine in [Engine::Join, Engine::Constellations] {
            assert_eq!(Shape::of_count(12, engine, None, true).split_depth, None);
        }
    }

    /// The engines parse by name, the join's earlier stages do not (they
    /// are no engines: see `queens::internals::join_stage_plan`), and `gpu`
    /// says where it went.
    #[test]
    fn engines_by_name() {
        assert_eq!(
            Engine::ALL,
            [Engine::Mirror, Engine::Join, Engine::Constellations]
        );
        for engine in Engine::ALL {
            assert_eq!(engine.name().parse::<Engine>(), Ok(engine));
        }
        for stage in ["join-unequal", "join-reference", "join-sliced"] {
            assert_eq!(
                stage.parse::<Engine>(),
                Err(Error::UnknownEngine(stage.into()))
            );
        }
        for name in ["gpu", "cpu"] {
            assert!(matches!(
                name.parse::<Engine>(),
                Err(Error::UnknownEngine(_))
            ));
        }
    }
}
