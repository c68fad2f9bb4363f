//! What builds a plan: a [`Planner`] (an engine, or one of the join's
//! stages), and the split it plans with once checked. The join's stages
//! other than the engine's own are no engines: they cross-check it, and
//! reach the tests and benchmarks through `queens::internals`.

use std::ops::RangeInclusive;

use super::{Body, Plan, Scratch};
use crate::Error;
use crate::count::join::{self, Stage};
use crate::count::mirror;
use crate::count::{Config, Engine};

/// The split of `planner`'s plan of an `n`-board given `split`: the one
/// given or [`mirror::DEFAULT_SPLIT_DEPTH`] for the mirror engine (the
/// others ignore it), once `planner` covers `n`, the split is in range and
/// none was given to an engine without one.
pub(super) fn resolve_split(n: u32, planner: Planner, split: Option<u32>) -> Result<u32, Error> {
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

/// The plan of the join at `stage`: an earlier stage, to cross-check the
/// join engine's plans with, or the engine's own. It is a join plan,
/// counted by a [`crate::Counter`] of [`Engine::Join`], under the stage's
/// name (its hash, journals and shards are its own). Public only through
/// `queens::internals`, for the tests and benchmarks.
///
/// # Errors
/// As [`Plan::new`], the stage's range in place of the engine's.
pub fn join_stage_plan(n: u32, stage: Stage, config: &Config) -> Result<Plan, Error> {
    Plan::build(n, Planner::Join(stage), None, config)
}

/// Counts unit `id` of a join plan alone, on a fresh scratch, with its
/// time taken apart: the unit's count and what it did (its half-boards,
/// the pairs its matcher tested, where the time went). `None` for another
/// engine's plan or an id out of range. In chunks of `1 << chunk_log`
/// words (`None`: the fastest). Public only through
/// `queens::internals`, for the join's profiles (`benches/join_reach.rs`).
#[must_use]
pub fn join_unit_tally(
    plan: &Plan,
    id: u32,
    chunk_log: Option<u32>,
) -> Option<(u128, join::sieve::Tally)> {
    if !matches!(plan.body, Body::Join(_)) || id as usize >= plan.len() {
        return None;
    }
    let mut scratch = Scratch::in_chunks(chunk_log);
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
    pub(super) fn engine(self) -> Engine {
        match self {
            Self::Mirror => Engine::Mirror,
            Self::Constellations => Engine::Constellations,
            Self::Join(_) => Engine::Join,
        }
    }

    /// The join stage it runs, `None` for the backtracking engines.
    pub(super) fn stage(self) -> Option<Stage> {
        match self {
            Self::Join(stage) => Some(stage),
            Self::Mirror | Self::Constellations => None,
        }
    }

    /// The name its plans go by: the engine's, or the stage's.
    pub(super) fn name(self) -> &'static str {
        self.stage().map_or(self.engine().name(), Stage::name)
    }

    /// "the join engine", for messages.
    pub(super) fn described(self) -> &'static str {
        self.stage()
            .map_or(self.engine().described(), Stage::described)
    }

    /// The board sizes it plans.
    pub(super) fn range(self) -> RangeInclusive<u32> {
        match self {
            Self::Join(stage) => join::MIN_JOIN_N..=stage.max_n(),
            _ => self.engine().range(),
        }
    }
}
