//! A plan: the deterministic list of work units whose counts sum to a
//! board's total, the same for every engine.
//!
//! An engine builds a [`Plan`] for `(n, engine, split)`. Its units have an
//! id (their index), a descriptor (text from which another program can
//! rebuild the unit) and a cost estimate. Counting one unit alone gives
//! exactly what it contributes to the full count, symmetry weights
//! included, so any subset of units, in any order, in any process, sums
//! correctly: that is what resuming a run and splitting it across machines
//! rest on. The plan's [`hash`](Plan::hash) names it: SHA-256 over a
//! canonical text of everything that defines it, the same on every machine,
//! for every thread count and every run.
//!
//! A plan counts; it never schedules, times or reports. Running many units
//! at once, on the CPU or the GPU, is the [`crate::Runner`]'s business:
//! the executor is no part of the plan, so a plan's hash, journal and
//! shards are the same whichever runs it.
//!
//! Its name is [`hash`]'s, its memory [`memory`]'s, what a claimed count
//! must keep to [`check`]'s, and what builds it [`planner`]'s.

mod check;
mod hash;
mod memory;
mod planner;

use std::cmp::Reverse;
use std::fmt;

use super::completion::{CompletionPlan, CompletionUnit};
use super::constellations::{self, Start};
use super::join::{self, JoinPlan};
use super::mirror::{self, WorkUnit};
use super::options::Options;
use super::{Config, Engine, Selection, Shape};
use crate::cpu::Features;
use crate::{Error, Problem};

pub use self::check::Impossible;
pub use self::hash::PlanHash;
use self::hash::{CONSTELLATIONS_FORMAT, JOIN_FORMAT, MIRROR_FORMAT};
pub(crate) use self::hash::{PlanHeader, sha256_text};
pub use self::memory::CountMemory;
pub(crate) use self::memory::fewest_at_once;
pub(crate) use self::memory::threads_of;
pub(crate) use self::planner::Planner;
use self::planner::resolve_split;
pub use self::planner::{join_stage_plan, join_unit_tally};

/// Every work unit of one count, in a fixed order.
pub struct Plan {
    n: u32,
    planner: Planner,
    body: Body,
    hash: PlanHash,
    /// Its memory limit and how its units may use the hardware: no part
    /// of its hash.
    config: Config,
    /// The CPU's features, less what the config's options turn off.
    features: Features,
}

enum Body {
    Mirror {
        split_depth: u32,
        units: Vec<WorkUnit>,
    },
    Join(Box<JoinPlan>),
    Constellations(Vec<Start>),
    /// The completions of a problem with constraints: the mirror engine's
    /// search with allowed masks (see [`super::completion`]).
    Completion(Box<CompletionPlan>),
}

/// One unit of a plan, as another program sees it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Unit {
    /// Its index in the plan.
    pub id: u32,
    /// The text it is rebuilt from: `rows:3,7,0` (mirror), `rowset:0x2b5`
    /// or `middle:4/rowset:0x...` (join), `start:2,5,4,1` (constellations:
    /// the top and bottom queens' columns, the left and right queens' rows).
    pub descriptor: String,
    /// Its estimated work, in the engine's own unit (nodes for the
    /// backtracking engines, pair tests for the join): comparable within a
    /// plan only.
    pub cost: u64,
    /// How many solutions each solution the unit finds stands for, by the
    /// symmetries its engine uses (2 or 1 for the mirror engine; 8, 4 or 2,
    /// the start's orbit, for the constellations engine): its count
    /// includes it already.
    pub weight: u32,
}

/// Per-thread buffers for counting units, grown to the largest unit and
/// then reused. `Scratch::default()` is empty and cheap.
#[derive(Default)]
pub(crate) struct Scratch {
    join: join::Scratch,
}

impl Scratch {
    /// An empty scratch whose join counts in chunks of `1 << chunk_log`
    /// words (`None`: its fastest; see [`CountMemory`]).
    pub(crate) fn in_chunks(chunk_log: Option<u32>) -> Self {
        let mut scratch = Self::default();
        if let Some(log) = chunk_log {
            scratch.join.set_chunk_log(log);
        }
        scratch
    }

    /// The same scratch, its join's units counted by all the pool's
    /// threads ([`CountMemory::shared`]).
    pub(crate) fn shared(mut self) -> Self {
        self.join.set_shared(true);
        self
    }
}

impl Plan {
    /// The plan of `shape` (its board, engine and the mirror engine's
    /// split; the join's units are fixed by `n`), whose units count with
    /// `config.options` (which never change the plan).
    ///
    /// # Errors
    /// [`Error::BoardSize`] when the engine does not cover `n`,
    /// [`Error::SplitDepth`] for a split outside `1..=6`,
    /// [`Error::NoSplit`] for a split given to an engine without one,
    /// [`Error::Memory`] when `config.memory_limit` is set and the plan
    /// would need more (see [`memory_estimate`](Self::memory_estimate)).
    pub fn new(shape: Shape, config: &Config) -> Result<Self, Error> {
        Self::build(shape.n, shape.engine.into(), shape.split_depth, config)
    }

    /// The plan of `problem`'s completions: the mirror engine's search,
    /// each row kept to the columns the problem allows, halved by the
    /// mirror (or the flip) where the problem keeps it, each unit placing
    /// `split_depth` rows without a given queen ([`DEFAULT_SPLIT_DEPTH`](crate::DEFAULT_SPLIT_DEPTH)
    /// when `None`). Its header, hash, journals and shard files name the
    /// problem ([`Problem::to_line`]), so that they are refused for
    /// another. The empty board's problem is planned as
    /// `Plan::new(Shape::new(n, Engine::Mirror, split_depth), config)`,
    /// with that plan's hash. See [`Plan::problem`].
    ///
    /// ```
    /// use queens::{Config, Counter, Engine, Plan, Problem, Square};
    ///
    /// let corner = Problem::new(8, [Square::new(0, 0)], [])?;
    /// let plan = Plan::for_problem(&corner, None, &Config::default())?;
    /// let count = Counter::new(8).engine(Engine::Mirror).run_plan(&plan)?;
    /// assert_eq!(count.solutions, 4);
    /// # Ok::<(), queens::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::SplitDepth`] for a split outside `1..=6`, [`Error::Memory`]
    /// when `config.memory_limit` is set and the plan would need more.
    pub fn for_problem(
        problem: &Problem,
        split_depth: Option<u32>,
        config: &Config,
    ) -> Result<Self, Error> {
        let n = problem.n();
        let split = resolve_split(n, Planner::Mirror, split_depth)?;
        if problem.is_empty_board() {
            return Self::new(Shape::new(n, Engine::Mirror, Some(split)), config);
        }
        let needed =
            CompletionPlan::unit_count(problem, split) as u64 * size_of::<CompletionUnit>() as u64;
        refuse_planning(n, Planner::Mirror, needed, config)?;
        let body = Body::Completion(Box::new(CompletionPlan::new(problem, split)));
        Ok(Self::named(n, Planner::Mirror, body, config))
    }

    /// The published total a count of every unit must equal: OEIS
    /// A000170 for the plans of the empty board, where it is known; `None`
    /// for a [problem](Self::problem)'s completions, which nothing
    /// publishes.
    #[must_use]
    pub fn known_total(&self) -> Option<u128> {
        match &self.body {
            Body::Completion(_) => None,
            _ => crate::known::total(self.n),
        }
    }

    /// The problem whose completions the plan counts, where it was built
    /// by [`Plan::for_problem`] with constraints; `None` for the plans of
    /// the empty board.
    #[must_use]
    pub fn problem(&self) -> Option<&Problem> {
        match &self.body {
            Body::Completion(plan) => Some(plan.problem()),
            _ => None,
        }
    }

    /// The plan of `planner` for an `n`-board split on `split` rows (the
    /// mirror engine's), refused before it is built where the config's
    /// memory limit is below its [estimate](Self::memory_estimate).
    pub(crate) fn build(
        n: u32,
        planner: Planner,
        split: Option<u32>,
        config: &Config,
    ) -> Result<Self, Error> {
        let split = resolve_split(n, planner, split)?;
        refuse_planning(
            n,
            planner,
            Self::memory_estimate_of(n, planner, split)?,
            config,
        )?;
        let body = match planner {
            Planner::Constellations => Body::Constellations(constellations::starts(n)),
            Planner::Mirror => Body::Mirror {
                split_depth: split,
                units: mirror::work_units(n, split),
            },
            Planner::Join(stage) => Body::Join(Box::new(JoinPlan::new(n, stage)?)),
        };
        Ok(Self::named(n, planner, body, config))
    }

    /// The plan of `body`, its hash computed.
    fn named(n: u32, planner: Planner, body: Body, config: &Config) -> Self {
        let mut plan = Self {
            n,
            planner,
            body,
            hash: PlanHash([0; 32]),
            config: *config,
            features: Features::allowed(config.options.simd),
        };
        plan.hash = plan.canonical_hash();
        plan
    }

    /// Builds now what counting needs beyond the plan (the join's quarter
    /// tables), which the first unit counted would build otherwise: for
    /// timing units apart from it.
    pub fn prepare(&self) {
        if let Body::Join(join) = &self.body {
            join.prepare();
        }
    }

    /// The board size.
    #[must_use]
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The engine whose units these are.
    #[must_use]
    pub fn engine(&self) -> Engine {
        self.planner.engine()
    }

    /// What defines the plan: its board, engine and split
    /// ([`Plan::new`] of it builds this plan again, with the same hash;
    /// for a [problem](Self::problem)'s plan, [`Plan::for_problem`] of the
    /// problem and this split does).
    #[must_use]
    pub fn shape(&self) -> Shape {
        Shape::new(self.n, self.engine(), self.split_depth())
    }

    /// Rows fixed by each unit: the mirror engine's split, `None` for the
    /// others.
    #[must_use]
    pub fn split_depth(&self) -> Option<u32> {
        match &self.body {
            Body::Mirror { split_depth, .. } => Some(*split_depth),
            Body::Completion(plan) => Some(plan.split()),
            Body::Join(_) | Body::Constellations(_) => None,
        }
    }

    /// How many units the plan has; their ids are `0..len()`.
    #[must_use]
    pub fn len(&self) -> usize {
        match &self.body {
            Body::Mirror { units, .. } => units.len(),
            Body::Join(plan) => plan.len(),
            Body::Constellations(starts) => starts.len(),
            Body::Completion(plan) => plan.units().len(),
        }
    }

    /// Whether the plan has no unit (boards without solutions may have none).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Unit `id`.
    ///
    /// # Errors
    /// [`Error::Unit`] when the plan has no unit `id`.
    pub fn unit(&self, id: u32) -> Result<Unit, Error> {
        self.unit_at(id).ok_or(Error::Unit {
            id,
            units: self.len(),
        })
    }

    /// Unit `id`, or `None` past the end.
    fn unit_at(&self, id: u32) -> Option<Unit> {
        let i = id as usize;
        let (descriptor, cost, weight) = match &self.body {
            Body::Mirror { units, .. } => {
                let u = units.get(i)?;
                (u.descriptor(), u.cost, u32::from(u.weight))
            }
            Body::Join(plan) => {
                if i >= plan.len() {
                    return None;
                }
                let job = plan.job(id);
                (JoinPlan::descriptor(&job), job.cost, job.weight())
            }
            Body::Constellations(starts) => {
                let start = starts.get(i)?;
                (start.descriptor(), start.cost, u32::from(start.weight))
            }
            Body::Completion(plan) => {
                let unit = plan.units().get(i)?;
                (plan.descriptor(unit), unit.cost, plan.weight(unit))
            }
        };
        Some(Unit {
            id,
            descriptor,
            cost,
            weight,
        })
    }

    /// Every unit, in id order.
    pub fn units(&self) -> impl Iterator<Item = Unit> + '_ {
        (0..self.len() as u32).filter_map(|id| self.unit_at(id))
    }

    /// Unit `id`'s cost estimate, without building its descriptor.
    ///
    /// # Errors
    /// [`Error::Unit`] when the plan has no unit `id`.
    pub fn cost(&self, id: u32) -> Result<u64, Error> {
        if id as usize >= self.len() {
            return Err(Error::Unit {
                id,
                units: self.len(),
            });
        }
        Ok(self.cost_of(id))
    }

    /// [`cost`](Self::cost) for an id known to be in the plan.
    pub(crate) fn cost_of(&self, id: u32) -> u64 {
        match &self.body {
            Body::Mirror { units, .. } => units[id as usize].cost,
            Body::Join(plan) => plan.cost(id),
            Body::Constellations(starts) => starts[id as usize].cost,
            Body::Completion(plan) => plan.units()[id as usize].cost,
        }
    }

    /// `ids` with their costs, cheapest first: sorted on `(cost, id)`.
    /// Each cost is read once, not at each comparison (70 million units
    /// at n = 27 sort in seconds, not half a minute), and no two units
    /// share a key, so the order is what a stable sort would give.
    pub(crate) fn cheapest_first(&self, ids: impl IntoIterator<Item = u32>) -> Vec<(u64, u32)> {
        let mut keyed: Vec<(u64, u32)> = ids.into_iter().map(|id| (self.cost_of(id), id)).collect();
        keyed.sort_unstable();
        keyed
    }

    /// `ids` with their costs, costliest first, ties by lower id: the
    /// order the runner counts units in and shards deal them out.
    pub(crate) fn costliest_first(&self, ids: impl IntoIterator<Item = u32>) -> Vec<(u64, u32)> {
        let mut keyed: Vec<(Reverse<u64>, u32)> = (ids.into_iter())
            .map(|id| (Reverse(self.cost_of(id)), id))
            .collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|(Reverse(c), id)| (c, id)).collect()
    }

    /// The sum of every unit's cost: past 2^64 for the join from n = 25 on.
    #[must_use]
    pub fn total_cost(&self) -> u128 {
        (0..self.len() as u32)
            .map(|id| u128::from(self.cost_of(id)))
            .sum()
    }

    /// The config it was built with: its memory limit, checked again
    /// when it is counted, and the options its units count with.
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The options its units count with.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.config.options
    }

    /// The units `ids` of this plan, to count with a [`crate::Runner`]:
    /// the one place where a list of ids is checked.
    ///
    /// # Errors
    /// [`Error::Unit`] for an id the plan does not have,
    /// [`Error::DuplicateUnit`] for an id given twice.
    pub fn select(&self, ids: &[u32]) -> Result<Selection, Error> {
        self.check_ids(ids)?;
        Ok(Selection::units(self.len(), ids))
    }

    /// Every unit of this plan.
    #[must_use]
    pub fn select_all(&self) -> Selection {
        Selection::whole(self.len())
    }

    /// The CPU features its units may use.
    pub(crate) fn features(&self) -> Features {
        self.features
    }

    /// The version of the engine's plan format: bumped whenever its units
    /// or descriptors change meaning.
    #[must_use]
    pub fn format(&self) -> u32 {
        match &self.body {
            Body::Mirror { .. } => MIRROR_FORMAT,
            Body::Join(_) => JOIN_FORMAT,
            Body::Constellations(_) => CONSTELLATIONS_FORMAT,
            Body::Completion(_) => MIRROR_FORMAT,
        }
    }

    /// The plan's name: the same for the same `(n, engine, format, split)`
    /// on every machine and thread count.
    #[must_use]
    pub fn hash(&self) -> PlanHash {
        self.hash
    }

    /// Counts unit `id`, known to be in the plan, on the CPU: exactly what
    /// it contributes to the total. (A caller outside the crate counts a
    /// unit with a [`Selection`] of it.)
    #[cfg(test)]
    pub(crate) fn count_unit_unchecked(&self, id: u32, scratch: &mut Scratch) -> u128 {
        self.count_unit_unless(id, scratch, &|| false)
            .expect("a count that never stops ends")
    }

    /// `count_unit_unchecked`, stopped inside the unit when
    /// `stop()` says so (`None`): the backtracking engines read it between
    /// pieces of their units ([`super::pieces`]); the join's units are
    /// small (n = 22: 352,716 units, about 0.15 s each on one core) and
    /// run whole.
    pub(crate) fn count_unit_unless(
        &self,
        id: u32,
        scratch: &mut Scratch,
        stop: &dyn Fn() -> bool,
    ) -> Option<u128> {
        match &self.body {
            Body::Mirror { units, .. } => {
                units[id as usize].count_unless(self.n, self.features, stop)
            }
            Body::Join(plan) => {
                scratch.join.set_features(self.features);
                let cuts = self.config.options.sieve_cuts.map(|c| c as usize);
                scratch
                    .join
                    .set_max_cuts(cuts.unwrap_or_else(|| plan.sieve_cuts()));
                let split = self.config.options.sieve_split.map(|s| s as usize);
                scratch
                    .join
                    .set_split(split.unwrap_or_else(|| plan.sieve_split()));
                Some(plan.run_job(&plan.job(id), &mut scratch.join))
            }
            Body::Constellations(starts) => {
                starts[id as usize].count_unless(self.n, self.features, stop)
            }
            Body::Completion(plan) => {
                plan.count_unless(&plan.units()[id as usize], self.features, stop)
            }
        }
    }

    /// The units of a backtracking plan (the mirror engine's: row
    /// prefixes), in id order; `None` for the join.
    pub(crate) fn prefix_units(&self) -> Option<&[WorkUnit]> {
        match &self.body {
            Body::Mirror { units, .. } => Some(units),
            Body::Join(_) | Body::Constellations(_) | Body::Completion(_) => None,
        }
    }

    /// The units of a constellations plan, in id order; `None` for the
    /// others.
    pub(crate) fn starts(&self) -> Option<&[Start]> {
        match &self.body {
            Body::Constellations(starts) => Some(starts),
            _ => None,
        }
    }

    /// Counts unit `id` a second way, sharing no code with the engine's
    /// own count beyond the plan: the constellations engine's units by
    /// plain recursion over the rows, attacks kept by diagonal number
    /// (several times slower than the kernel), and a problem's units by a
    /// plain depth-first search over its allowed masks. `None` for the engines
    /// without one: their second opinion is another engine. `verify`
    /// recounts with it.
    ///
    /// # Errors
    /// [`Error::Unit`] when the plan has no unit `id`.
    pub fn count_plainly(&self, id: u32) -> Result<Option<u128>, Error> {
        self.cost(id)?;
        if let Body::Completion(plan) = &self.body {
            return Ok(Some(plan.count_plainly(&plan.units()[id as usize])));
        }
        Ok(self.starts().map(|starts| {
            let start = &starts[id as usize];
            constellations::count_start_plainly(self.n, start.border) * u128::from(start.weight)
        }))
    }
}

/// [`Error::Memory`] for planning `n` with `planner` where `needed` bytes
/// are above the config's memory limit.
fn refuse_planning(n: u32, planner: Planner, needed: u64, config: &Config) -> Result<(), Error> {
    match config.memory_limit {
        Some(available) if needed > available => Err(Error::Memory {
            doing: "planning",
            n,
            by: planner.described(),
            needed,
            parts: None,
            available,
        }),
        _ => Ok(()),
    }
}

impl fmt::Debug for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Plan")
            .field("n", &self.n)
            .field("engine", &self.engine())
            .field("units", &self.len())
            .field("hash", &self.hash)
            .finish_non_exhaustive()
    }
}
