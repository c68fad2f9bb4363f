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
//! at once, on the CPU or the GPU, is [`crate::Counter`]'s business: the
//! executor is no part of the plan, so a plan's hash, journal and shards
//! are the same whichever runs it.

use std::fmt;
use std::num::NonZeroUsize;
use std::ops::RangeInclusive;

use sha2::{Digest, Sha256};

use super::completion::{CompletionPlan, CompletionUnit};
use super::constellations::{self, Start};
use super::join::{self, JoinPlan, Stage};
use super::mirror::{self, WorkUnit};
use super::options::Options;
use super::{Config, Engine, Shape};
use crate::cpu::Features;
use crate::{Error, Problem};

/// The mirror engine's plan format: bump when its units or descriptors
/// change meaning, so that old journals and shards are refused.
const MIRROR_FORMAT: u32 = 1;
/// The join engine's plan format (all its stages).
const JOIN_FORMAT: u32 = 1;
/// The constellations engine's plan format.
const CONSTELLATIONS_FORMAT: u32 = 1;

/// Every work unit of one count, in a fixed order.
pub struct Plan {
    n: u32,
    planner: Planner,
    body: Body,
    hash: PlanHash,
    /// How its units may use the hardware: no part of its hash.
    options: Options,
    /// The CPU's features, less what `options` turns off.
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

/// Why a unit's count, as a journal or a shard file claims it, cannot be
/// right ([`Plan::check_count`]): the record is damaged or forged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Impossible {
    /// The plan has no such unit.
    #[error("unit {id}: the plan has no such unit (it has {units})")]
    NoUnit {
        /// The unit claimed.
        id: u32,
        /// How many the plan has.
        units: usize,
    },
    /// The count is not a multiple of the unit's weight.
    #[error("unit {id}: count {count} is not a multiple of its weight {weight}")]
    NotAMultiple {
        /// The unit.
        id: u32,
        /// Its count as claimed.
        count: u128,
        /// Its weight.
        weight: u32,
    },
    /// The count is more than any unit of the board can have.
    #[error("unit {id}: count {count} is more than any unit of n = {n} can have ({most}, {why})")]
    TooLarge {
        /// The unit.
        id: u32,
        /// Its count as claimed.
        count: u128,
        /// The most it can be.
        most: u128,
        /// Board size.
        n: u32,
        /// What the bound is.
        why: &'static str,
    },
}

/// The SHA-256 that names a plan, shown as `sha256:<64 hex digits>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlanHash([u8; 32]);

impl fmt::Display for PlanHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&sha256_text(&self.0))
    }
}

/// A SHA-256 digest as queens writes it everywhere (plan hashes, shard
/// runs' digests): `sha256:` and 64 lower-case hex digits.
pub(crate) fn sha256_text(digest: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut text = String::with_capacity(7 + 2 * digest.len());
    text.push_str("sha256:");
    for byte in digest {
        write!(text, "{byte:02x}").expect("writing to a String cannot fail");
    }
    text
}

impl std::str::FromStr for PlanHash {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        let bad = || Error::PlanHash(s.to_owned());
        let hex = s
            .strip_prefix("sha256:")
            .filter(|h| h.len() == 64)
            .ok_or_else(bad)?;
        let mut bytes = [0; 32];
        for (i, b) in bytes.iter_mut().enumerate() {
            let pair = hex.get(2 * i..2 * i + 2).ok_or_else(bad)?;
            *b = u8::from_str_radix(pair, 16).map_err(|_| bad())?;
        }
        Ok(Self(bytes))
    }
}

/// Per-thread buffers for counting units, grown to the largest unit and
/// then reused. `Scratch::default()` is empty and cheap.
#[derive(Default)]
pub(crate) struct Scratch {
    join: join::Scratch,
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
        Ok(
            Self::new_unless(shape.n, shape.engine, shape.split_depth, config, &|| false)?
                .expect("a plan that never stops is built"),
        )
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
        let split = check(n, Planner::Mirror, split_depth)?;
        if problem.is_empty_board() {
            return Self::new(Shape::new(n, Engine::Mirror, Some(split)), config);
        }
        if let Some(available) = config.memory_limit {
            let needed = CompletionPlan::unit_count(problem, split) as u64
                * size_of::<CompletionUnit>() as u64;
            if needed > available {
                return Err(Error::Memory {
                    doing: "planning",
                    n,
                    by: Planner::Mirror.described(),
                    needed,
                    available,
                });
            }
        }
        let mut plan = Self {
            n,
            planner: Planner::Mirror,
            body: Body::Completion(Box::new(CompletionPlan::new(problem, split))),
            hash: PlanHash([0; 32]),
            options: config.options,
            features: Features::allowed(config.options.simd),
        };
        plan.hash = plan.canonical_hash();
        Ok(plan)
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

    /// [`new`](Self::new), given up (`Ok(None)`) when `stop()` says so
    /// while the join lists its jobs (seconds at n = 23 and 24; the other
    /// engines' plans are built whole).
    pub(crate) fn new_unless(
        n: u32,
        planner: impl Into<Planner>,
        split: Option<u32>,
        config: &Config,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Self>, Error> {
        let planner = planner.into();
        let split = check(n, planner, split)?;
        if let Some(available) = config.memory_limit {
            let needed = Self::memory_estimate_of(n, planner, split)?;
            if needed > available {
                return Err(Error::Memory {
                    doing: "planning",
                    n,
                    by: planner.described(),
                    needed,
                    available,
                });
            }
        }
        let body = match planner {
            Planner::Constellations => Body::Constellations(constellations::starts(n)),
            Planner::Mirror => Body::Mirror {
                split_depth: split,
                units: mirror::work_units(n, split),
            },
            Planner::Join(stage) => match JoinPlan::new_unless(n, stage, stop)? {
                Some(join) => Body::Join(Box::new(join)),
                None => return Ok(None),
            },
        };
        let mut plan = Self {
            n,
            planner,
            body,
            hash: PlanHash([0; 32]),
            options: config.options,
            features: Features::allowed(config.options.simd),
        };
        plan.hash = plan.canonical_hash();
        Ok(Some(plan))
    }

    /// The bytes [`Plan::new`] keeps for `shape`, estimated without
    /// building the plan: the mirror engine's units (counted, not made),
    /// or the join's jobs and the sizes of its quarter table's groups.
    /// Counting takes more: see [`count_memory`](Self::count_memory).
    ///
    /// # Errors
    /// As [`Plan::new`], but never [`Error::Memory`].
    pub fn memory_estimate(shape: Shape) -> Result<u64, Error> {
        let planner = Planner::from(shape.engine);
        let split = check(shape.n, planner, shape.split_depth)?;
        Self::memory_estimate_of(shape.n, planner, split)
    }

    /// [`memory_estimate`](Self::memory_estimate) of any planner's plan,
    /// checked, its split resolved (the mirror engine's; ignored by the
    /// others).
    fn memory_estimate_of(n: u32, planner: Planner, split: u32) -> Result<u64, Error> {
        Ok(match planner {
            Planner::Constellations => {
                constellations::start_count(n) as u64 * size_of::<Start>() as u64
            }
            Planner::Mirror => {
                let units = mirror::unit_count(n, split) as u64;
                units * size_of::<WorkUnit>() as u64
            }
            Planner::Join(stage) => JoinPlan::plan_bytes(n, stage),
        })
    }

    /// A lower bound on [`count_memory`](Self::count_memory) of the plan
    /// [`Plan::new`] would build for `shape`, on `threads` threads, of
    /// `units` of its units (`None`: all), found without building it:
    /// milliseconds, where the join's plans of n = 25 to 28 take from
    /// seconds to minutes (its largest jobs are pinned, see
    /// [`Plan::planning_seconds`]). A count whose floor is above its memory
    /// limit can be refused before its plan is built, and is never one
    /// that the check after the plan would let through.
    ///
    /// # Errors
    /// As [`Plan::new`], but never [`Error::Memory`].
    pub fn count_memory_floor(
        shape: Shape,
        threads: usize,
        units: Option<usize>,
    ) -> Result<u64, Error> {
        let n = shape.n;
        let planner = Planner::from(shape.engine);
        let split = check(n, planner, shape.split_depth)?;
        let (plan, all, counting) = match planner {
            Planner::Constellations => {
                let starts = constellations::start_count(n);
                (starts as u64 * size_of::<Start>() as u64, starts, 0)
            }
            Planner::Mirror => {
                let count = mirror::unit_count(n, split);
                (count as u64 * size_of::<WorkUnit>() as u64, count, 0)
            }
            Planner::Join(stage) => (
                0,
                JoinPlan::jobs_in(n, stage),
                JoinPlan::count_bytes_floor(n, stage, threads),
            ),
        };
        let records = units.unwrap_or(all) as u64 * RECORD_BYTES;
        Ok(plan + records + counting)
    }

    /// About how many seconds [`Plan::new`] takes for `(n, engine)` on
    /// `threads` threads, where that is more than a second or so: the
    /// join's plans of n = 23 to 28 (n = 28: about 200 s on 2 threads),
    /// which compute every job's cost before the first unit can run.
    /// `None` for the plans that take less.
    #[must_use]
    pub fn planning_seconds(n: u32, engine: Engine, threads: usize) -> Option<f64> {
        join::sizes::planning_seconds(n, Planner::from(engine).stage()?, threads)
    }

    /// The bytes a count of `units` of its units takes on `threads`
    /// threads, the plan's own included: the join's quarter tables (built
    /// by the first unit that runs, 1.1 GB at n = 22; none from n = 24 on,
    /// where each job builds its slices) and each thread's buffers, and
    /// the runner's record of each unit.
    #[must_use]
    pub fn count_memory(&self, threads: usize, units: usize) -> u64 {
        let plan = match &self.body {
            Body::Mirror { units, .. } => (units.capacity() * size_of::<WorkUnit>()) as u64,
            Body::Join(join) => join.bytes(),
            Body::Constellations(starts) => (starts.capacity() * size_of::<Start>()) as u64,
            Body::Completion(plan) => size_of_val(plan.units()) as u64,
        };
        let records = units as u64 * RECORD_BYTES;
        let counting = match (&self.body, self.planner.stage()) {
            (Body::Join(join), Some(stage)) => {
                JoinPlan::table_bytes(self.n, stage) + threads as u64 * join.scratch_bytes()
            }
            _ => 0,
        };
        plan + records + counting
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

    /// The sum of every unit's cost: past 2^64 for the join from n = 25 on.
    #[must_use]
    pub fn total_cost(&self) -> u128 {
        (0..self.len() as u32)
            .map(|id| u128::from(self.cost_of(id)))
            .sum()
    }

    /// The options its units count with.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The CPU features its units may use.
    pub(crate) fn features(&self) -> Features {
        self.features
    }

    /// Checks that every id of `ids` is one of this plan's units, none
    /// twice.
    pub(crate) fn check_ids(&self, ids: &[u32]) -> Result<(), Error> {
        let mut seen = vec![false; self.len()];
        for &id in ids {
            let slot = seen.get_mut(id as usize).ok_or(Error::Unit {
                id,
                units: self.len(),
            })?;
            if std::mem::replace(slot, true) {
                return Err(Error::DuplicateUnit(id));
            }
        }
        Ok(())
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
    /// unit with `Counter::units`.)
    #[cfg(test)]
    pub(crate) fn count_unit_unchecked(&self, id: u32, scratch: &mut Scratch) -> u128 {
        self.count_unit_unless(id, scratch, &|| false)
            .expect("a count that never stops ends")
    }

    /// `count_unit_unchecked` (the tests'), stopped inside the unit when
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
                let cuts = self.options.sieve_cuts.map(|c| c as usize);
                scratch
                    .join
                    .set_max_cuts(cuts.unwrap_or_else(|| plan.sieve_cuts()));
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

    /// Unit `id`'s weight, known to be in the plan, without building its
    /// descriptor.
    fn weight_of(&self, id: u32) -> u32 {
        match &self.body {
            Body::Mirror { units, .. } => u32::from(units[id as usize].weight),
            Body::Join(plan) => plan.job(id).weight(),
            Body::Constellations(starts) => u32::from(starts[id as usize].weight),
            Body::Completion(plan) => plan.weight(&plan.units()[id as usize]),
        }
    }

    /// The most solutions one unit can count: a bound that a count read
    /// from a journal or a shard file must keep to.
    ///
    /// Every unit's count, its weight included, is a part of the board's
    /// total (the counts are never negative and sum to it), so for
    /// `n <= 27` the bound is the total itself, OEIS A000170. Past that
    /// nothing is published, and the bound is `n!` (saturating at
    /// `u128::MAX`), since every solution is a permutation: a column for
    /// each row. It is loose (Q(27) is about 2 x 10^-11 of 27!), but it
    /// is sound; the weight check of [`check_count`](Self::check_count) is the
    /// sharper one there.
    #[must_use]
    pub fn max_unit_count(&self) -> u128 {
        // A problem's completions are some of the board's solutions.
        crate::known::total(self.n)
            .unwrap_or_else(|| (2..=u128::from(self.n)).fold(1u128, |f, k| f.saturating_mul(k)))
    }

    /// Checks that `count` is a count unit `id` can have: a multiple of its
    /// weight (each solution it finds stands for `weight` of them), and at
    /// most [`max_unit_count`](Self::max_unit_count). A journal's checksum
    /// or a shard's total is recomputed by anyone who forges a count; this
    /// is what a forged or damaged count cannot hide from without a
    /// recount.
    ///
    /// # Errors
    /// [`Impossible`] naming the unit and why; [`Impossible::NoUnit`] when
    /// the plan has no unit `id`.
    pub fn check_count(&self, id: u32, count: u128) -> Result<(), Impossible> {
        if id as usize >= self.len() {
            return Err(Impossible::NoUnit {
                id,
                units: self.len(),
            });
        }
        let weight = self.weight_of(id);
        let multiple = match weight {
            // A unit no solution falls into (its symmetry class is counted
            // by another unit) counts nothing.
            0 => count == 0,
            w => count.is_multiple_of(u128::from(w)),
        };
        if !multiple {
            return Err(Impossible::NotAMultiple { id, count, weight });
        }
        let most = self.max_unit_count();
        if count > most {
            let why = if crate::known::total(self.n).is_some() {
                "the board's whole total, OEIS A000170"
            } else {
                "n!, the number of ways to give each row its own column"
            };
            return Err(Impossible::TooLarge {
                id,
                count,
                most,
                n: self.n,
                why,
            });
        }
        Ok(())
    }

    /// Everything that defines the plan besides its units, as its hash,
    /// its journals and its shard files name it.
    pub(crate) fn header(&self) -> PlanHeader {
        PlanHeader {
            n: self.n,
            engine: self.planner.name(),
            format: self.format(),
            split: self.split_depth(),
            problem: match &self.body {
                Body::Completion(plan) => Some(plan.line().to_owned()),
                _ => None,
            },
        }
    }

    /// SHA-256 over a header of everything that defines the plan, then
    /// one descriptor a line, fed to the hash a line at a time: the text
    /// itself would take 3 GB at n = 32, split depth 6.
    fn canonical_hash(&self) -> PlanHash {
        let mut hash = Sha256::new();
        hash.update("queens plan\n");
        for (key, value) in self.header().fields() {
            hash.update(format!("{key} {value}\n"));
        }
        for unit in self.units() {
            hash.update("unit ");
            hash.update(unit.descriptor);
            hash.update("\n");
        }
        PlanHash(hash.finalize().into())
    }
}

/// What defines a plan besides its units: the one list that its hash,
/// its journals' headers and its shard files are written from, so that
/// none of them can leave a field out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PlanHeader {
    pub n: u32,
    /// The engine's name.
    pub engine: &'static str,
    /// The engine's plan format ([`Plan::format`]).
    pub format: u32,
    /// The split depth, for an engine that has one.
    pub split: Option<u32>,
    /// The problem's [line](Problem::to_line), for a plan of a problem's
    /// completions; `None` (and no field at all) for the empty board.
    pub problem: Option<String>,
}

impl PlanHeader {
    /// The fields as text, in the order the hash and journals write them,
    /// `split` as `-` where there is none, and `problem` last where there
    /// is one (so that the plans of the empty board keep their hashes).
    pub(crate) fn fields(&self) -> Vec<(&'static str, String)> {
        let mut fields = vec![
            ("n", self.n.to_string()),
            ("engine", self.engine.to_owned()),
            ("format", self.format.to_string()),
            (
                "split",
                self.split.map_or("-".to_owned(), |d| d.to_string()),
            ),
        ];
        if let Some(problem) = &self.problem {
            fields.push(("problem", problem.clone()));
        }
        fields
    }
}

/// Bytes the runner keeps for each unit of a count: its id twice (the
/// list asked for, the order by cost) and its `(id, count)` result, which
/// rayon's collect may hold twice.
const RECORD_BYTES: u64 = 2 * 4 + 2 * size_of::<(u32, u128)>() as u64;

/// The split of `planner`'s plan of an `n`-board given `split`: the one
/// given or [`mirror::DEFAULT_SPLIT_DEPTH`] for the mirror engine (the
/// others ignore it), once `planner` covers `n`, the split is in range and
/// none was given to an engine without one.
fn check(n: u32, planner: Planner, split: Option<u32>) -> Result<u32, Error> {
    let range = planner.range();
    if !range.contains(&n) {
        return Err(Error::board_size(
            n,
            planner.described(),
            *range.start(),
            *range.end(),
        ));
    }
    match (planner, split) {
        (Planner::Mirror, None) => Ok(mirror::DEFAULT_SPLIT_DEPTH),
        (Planner::Mirror, Some(depth)) if (1..=mirror::MAX_SPLIT_DEPTH).contains(&depth) => {
            Ok(depth)
        }
        (Planner::Mirror, Some(depth)) => Err(Error::SplitDepth {
            depth,
            max: mirror::MAX_SPLIT_DEPTH,
        }),
        (_, Some(_)) => Err(Error::NoSplit {
            engine: planner.name(),
        }),
        (_, None) => Ok(mirror::DEFAULT_SPLIT_DEPTH),
    }
}

/// The threads a count on `threads` (rayon's default when `None`) runs on,
/// for its memory estimate.
pub(crate) fn threads_of(threads: Option<NonZeroUsize>) -> usize {
    threads
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get)
}

/// The plan of the join at `stage`: an earlier stage, to cross-check the
/// join engine's plans with, or the engine's own. It is a join plan,
/// counted by a [`crate::Counter`] of [`Engine::Join`], under the stage's
/// name (its hash, journals and shards are its own). Public only through
/// `queens::internals`, for the tests and benchmarks.
///
/// # Errors
/// As [`Plan::new`], the stage's range in place of the engine's.
pub fn join_stage_plan(n: u32, stage: Stage, config: &Config) -> Result<Plan, Error> {
    Ok(
        Plan::new_unless(n, Planner::Join(stage), None, config, &|| false)?
            .expect("a plan that never stops is built"),
    )
}

/// Counts unit `id` of a join plan alone, on a fresh scratch, with its
/// time taken apart: the unit's count and what it did (its half-boards,
/// the pairs its matcher tested, where the time went). `None` for another
/// engine's plan or an id out of range. Public only through
/// `queens::internals`, for the join's profiles (`benches/join_reach.rs`).
#[must_use]
pub fn join_unit_tally(plan: &Plan, id: u32) -> Option<(u128, join::sieve::Tally)> {
    if !matches!(plan.body, Body::Join(_)) || id as usize >= plan.len() {
        return None;
    }
    let mut scratch = Scratch::default();
    scratch.join.set_timed(true);
    let count = plan.count_unit_unless(id, &mut scratch, &|| false)?;
    Some((count, scratch.join.tally()))
}

/// What builds a plan: an engine, or for the join one of its stages (the
/// engine's own, or an earlier one that cross-checks it). Only the engines
/// are public; a stage's plan is a join plan under the stage's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Planner {
    Mirror,
    Constellations,
    Join(Stage),
}

impl From<Engine> for Planner {
    fn from(engine: Engine) -> Self {
        match engine {
            Engine::Mirror => Self::Mirror,
            Engine::Constellations => Self::Constellations,
            Engine::Join => Self::Join(Stage::FixedMiddle),
        }
    }
}

impl Planner {
    /// The engine whose units its plans are: the join for every stage.
    fn engine(self) -> Engine {
        match self {
            Self::Mirror => Engine::Mirror,
            Self::Constellations => Engine::Constellations,
            Self::Join(_) => Engine::Join,
        }
    }

    /// The join stage it runs, `None` for the backtracking engines.
    fn stage(self) -> Option<Stage> {
        match self {
            Self::Join(stage) => Some(stage),
            Self::Mirror | Self::Constellations => None,
        }
    }

    /// The name its plans go by: the engine's, or the stage's.
    fn name(self) -> &'static str {
        self.stage().map_or(self.engine().name(), Stage::name)
    }

    /// "the join engine", for messages.
    fn described(self) -> &'static str {
        self.stage()
            .map_or(self.engine().described(), Stage::described)
    }

    /// The board sizes it plans.
    fn range(self) -> RangeInclusive<u32> {
        match self {
            Self::Join(stage) => join::MIN_JOIN_N..=stage.max_n(),
            _ => self.engine().range(),
        }
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
