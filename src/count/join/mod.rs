//! The join engine: counts solutions by pairing left and right half-boards
//! (meet in the middle) instead of backtracking row by row.
//!
//! Every solution splits into the queens of the left columns, which occupy
//! some set X of h rows, and the queens of the right columns, on the other
//! rows. For each X the engine lists the left half-boards (see [`halves`]),
//! lists the right ones on the complement, and counts the pairs whose
//! diagonals do not meet (see [`matcher`]). One row set is one job: jobs are
//! independent, have stable ids and a cost estimate known before they run,
//! and are the join's units in a [`crate::Plan`], run by the same runner as
//! the backtracking engines'.
//!
//! The method is Evgeny Kluev's quadrant join (EvgenyKluev/N-Queens-Count-Sol),
//! restated in a design note of ours (not in this repository;
//! docs/how-it-counts.md tells the method); this code is our own. The
//! stages of that note are kept side by side ([`Stage`]) so that tests
//! can compare each with the one before.
//!
//! This file holds what every part shares: the join's limits, its stages
//! and its jobs. A [`JoinPlan`] lists the jobs of one board ([`plan`]),
//! says what they take in memory ([`memory`]) and where their pieces come
//! from ([`tables`]), and counts them one at a time ([`run`]) in a
//! thread's buffers ([`Scratch`]).

pub mod halves;
pub mod matcher;
mod memory;
pub mod odd;
pub mod pairs;
mod plan;
pub mod quarter;
mod run;
pub(crate) mod scratch;
pub mod sieve;
pub mod sizes;
pub mod subsets;
mod tables;

use self::odd::Middle;

pub use self::plan::JoinPlan;
pub use self::scratch::Scratch;

/// The smallest board the join handles; smaller ones are the backtracker's.
pub(crate) const MIN_JOIN_N: u32 = 4;
/// The largest board the join handles: its quarters are 14 x 14, and a
/// window word of `2(n - 1) = 54` bits stays below the queries' tag.
pub(crate) const MAX_JOIN_N: u32 = 28;
/// The largest board the cross-check stages handle: they read whole
/// quarter tables (9.7 GB at n = 24), never slices.
pub(crate) const MAX_WHOLE_N: u32 = 24;
/// The largest quarter side whose whole tables a plan builds (1.1 GB at
/// n = 22, side 11); from side 12 on (n = 24, 25: 9.7 and 5.1 GB), each job
/// builds the slices it reads ([`Pieces::PerJob`](plan::Pieces::PerJob)).
const MAX_WHOLE_SIDE: u32 = 11;

/// How much of the method to use. The join engine ([`crate::Engine::Join`])
/// is [`Stage::FixedMiddle`]; the earlier stages are no engines of their
/// own, but plans that tests and benchmarks cross-check it with
/// (`queens::internals::join_stage_plan`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Every row set, every half-board, one AND per pair: the reference.
    Reference,
    /// Every row set, every half-board, the bit-sliced matcher.
    Sliced,
    /// Row sets up to the flip, left half-boards off the long diagonals,
    /// weighted right half-boards, the bit-sliced matcher. Odd boards split
    /// into unequal halves (the right one holds the middle column).
    Symmetric,
    /// As `Symmetric` for even boards; odd boards fix the middle-column
    /// queen and count 8 times the canonical placements (see `odd`).
    FixedMiddle,
}

impl Stage {
    /// The largest board this stage plans.
    #[must_use]
    pub const fn max_n(self) -> u32 {
        match self {
            Self::FixedMiddle => MAX_JOIN_N,
            _ => MAX_WHOLE_N,
        }
    }

    /// The name its plans go by (in their hash, journals and shards):
    /// `join` for the engine's own stage.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::FixedMiddle => "join",
            Self::Symmetric => "join-unequal",
            Self::Reference => "join-reference",
            Self::Sliced => "join-sliced",
        }
    }

    /// "the join-unequal engine", for messages.
    pub(crate) const fn described(self) -> &'static str {
        match self {
            Self::FixedMiddle => "the join engine",
            Self::Symmetric => "the join-unequal engine",
            Self::Reference => "the join-reference engine",
            Self::Sliced => "the join-sliced engine",
        }
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One row set: the unit of work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Position of the row set in increasing order among the jobs of this
    /// plan; stable for a given `n` and stage.
    pub id: u32,
    /// The rows of the left half-board's queens.
    pub rows: u32,
    /// Estimated pair tests: left candidates times right candidates.
    pub cost: u64,
    /// How many times this job's pairs count (by the symmetries used).
    weight: u32,
    /// Which family of half-boards the job pairs.
    kind: Kind,
}

impl Job {
    /// How many times its pairs count.
    pub(crate) fn weight(&self) -> u32 {
        self.weight
    }
}

/// The families of jobs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Left and right halves of [`halves`] (even boards; odd boards split
    /// unequally).
    Halves,
    /// Odd boards around a pre-placed middle queen ([`odd`]).
    Odd(Middle),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(n: u32, stage: Stage) -> u128 {
        let plan = JoinPlan::new(n, stage).unwrap();
        let mut scratch = Scratch::default();
        plan.jobs().map(|j| plan.run_job(&j, &mut scratch)).sum()
    }

    #[test]
    fn every_stage_counts_small_boards_right() {
        for n in MIN_JOIN_N..=11 {
            let want = crate::known::total(n).unwrap();
            for stage in [
                Stage::Reference,
                Stage::Sliced,
                Stage::Symmetric,
                Stage::FixedMiddle,
            ] {
                assert_eq!(total(n, stage), want, "n = {n}, {stage:?}");
            }
        }
    }
}

#[cfg(test)]
mod odd_tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Every solution of an odd board, keyed as scheme F files it: the
    /// centre family, `(0 < i < j)` by `j`, or `None` (counted through the
    /// symmetric images).
    fn brute_force_families(n: u32) -> BTreeMap<Option<Middle>, u128> {
        fn extend(p: &mut Vec<u32>, n: u32, out: &mut BTreeMap<Option<Middle>, u128>) {
            let r = p.len() as u32;
            if r == n {
                let h = n / 2;
                let i = i64::from(p[h as usize]) - i64::from(h);
                let j = p.iter().position(|&c| c == h).unwrap() as i64 - i64::from(h);
                let key = match (i, j) {
                    (0, _) => Some(Middle::Centre),
                    (i, j) if 0 < i && i < j => Some(Middle::Column(j as u32)),
                    _ => None,
                };
                *out.entry(key).or_default() += 1;
                return;
            }
            for c in 0..n {
                let safe = p.iter().enumerate().all(|(row, &col)| {
                    col != c
                        && (i64::from(col) - i64::from(c)).unsigned_abs()
                            != u64::from(r) - row as u64
                });
                if safe {
                    p.push(c);
                    extend(p, n, out);
                    p.pop();
                }
            }
        }
        let mut out = BTreeMap::new();
        extend(&mut Vec::new(), n, &mut out);
        out
    }

    #[test]
    fn each_odd_family_counts_what_a_brute_force_files_under_it() {
        for n in [5u32, 7, 9, 11] {
            let plan = JoinPlan::new(n, Stage::FixedMiddle).unwrap();
            let mut scratch = Scratch::default();
            let mut engine: BTreeMap<Option<Middle>, u128> = BTreeMap::new();
            for job in plan.jobs() {
                let Kind::Odd(middle) = job.kind else {
                    panic!("odd plans have odd jobs")
                };
                *engine.entry(Some(middle)).or_default() += plan.run_job(&job, &mut scratch);
            }
            let brute = brute_force_families(n);
            for (family, count) in &engine {
                let want = brute.get(family).copied().unwrap_or(0);
                let want = if family == &Some(Middle::Centre) {
                    want
                } else {
                    8 * want
                };
                assert_eq!(*count, want, "n = {n}, {family:?}");
            }
        }
    }
}
