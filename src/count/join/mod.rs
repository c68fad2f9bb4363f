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
//! the backtracking engine's.
//!
//! The method is Evgeny Kluev's quadrant join (EvgenyKluev/N-Queens-Count-Sol),
//! as restated in `shared/design/quadrant-join.md`; this code is our own.
//! The stages of that note are kept side by side ([`Stage`]) so that tests
//! can compare each with the one before. The file runs past 400 lines for
//! its two test modules, which need the jobs' private families.

pub mod halves;
pub mod matcher;
pub mod odd;
pub mod pairs;
pub mod quarter;
pub mod sieve;

use std::sync::OnceLock;

use self::halves::{Geometry, Side, flip_weight, for_each_subset, mirror_weight, right_weight};
use self::matcher::{SlicedMatcher, count_naive, query};
use self::odd::{Middle, OddGeometry};
use self::quarter::{GroupSizes, QuarterTable};
use self::sieve::Sieve;
use crate::Error;
use crate::cpu::Features;

/// The smallest board the join handles; smaller ones are the backtracker's.
pub(crate) const MIN_JOIN_N: u32 = 4;
/// The largest board the join handles: the quarter table for n = 24 holds
/// about 0.6e9 pieces already.
pub(crate) const MAX_JOIN_N: u32 = 24;

/// How much of the method to use.
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
    /// queen and count 8 times the canonical placements (see [`odd`]).
    FixedMiddle,
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

/// Everything needed to run the jobs of one board size.
pub struct JoinPlan {
    geo: Geometry,
    stage: Stage,
    /// For odd boards in [`Stage::FixedMiddle`]: the split around the middle
    /// row and column.
    odd: Option<OddGeometry>,
    /// The sizes of the quarter table's groups (side q, or h around a fixed
    /// middle): all that the jobs' costs need.
    sizes: GroupSizes,
    /// The quarter tables, built by the first job that runs: describing a
    /// plan needs only `sizes` (64 MiB at n = 24, against 9.7 GB of tables).
    tables: OnceLock<Tables>,
    jobs: Vec<Job>,
    /// The most top-times-bottom candidates one job generates, both sides
    /// together: what bounds a thread's buffers.
    largest: u64,
}

/// The pieces the jobs are made of.
struct Tables {
    table: QuarterTable,
    /// For the symmetric stages of even boards: top-left pieces off the
    /// falling long diagonal (`c = r`), and bottom-left pieces off the
    /// rising one (`c + r = n - 1`), all that their left half-boards are
    /// made of. Filtering the pieces instead of the half-boards spares
    /// generating the ~73% of left half-boards that touch a long diagonal.
    /// `None`: the left half-boards use `table` too.
    lefts: Option<(QuarterTable, QuarterTable)>,
}

impl JoinPlan {
    /// Counts the quarter table's groups and lists the jobs of an
    /// `n`-board; the table itself waits for the first job.
    ///
    /// # Errors
    /// [`Error::BoardSize`] unless `MIN_JOIN_N <= n <= MAX_JOIN_N`.
    #[cfg(test)]
    pub fn new(n: u32, stage: Stage) -> Result<Self, Error> {
        Ok(Self::new_unless(n, stage, &|| false)?.expect("a plan that never stops is built"))
    }

    /// [`new`](Self::new), given up (`Ok(None)`) as soon as `stop()` says
    /// so: listing the jobs takes 11 to 15 s at n = 23 and 24, and a
    /// cancelled count should not wait for it. `stop()` is read once a
    /// job.
    pub(crate) fn new_unless(
        n: u32,
        stage: Stage,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Self>, Error> {
        if !(MIN_JOIN_N..=MAX_JOIN_N).contains(&n) {
            return Err(Error::board_size(
                n,
                "the join engine",
                MIN_JOIN_N,
                MAX_JOIN_N,
            ));
        }
        let geo = Geometry::new(n);
        let odd = (stage == Stage::FixedMiddle && n % 2 == 1).then(|| OddGeometry::new(n));
        let sizes = GroupSizes::new(side(&geo, odd.as_ref()));
        let mut jobs = Vec::with_capacity(job_count(&geo, stage, odd.as_ref()));
        let mut largest = 0;
        let mut stopped = false;
        for_each_job(&geo, stage, odd.as_ref(), |rows, weight, kind| {
            stopped = stopped || stop();
            if stopped {
                return;
            }
            let (left, right) = match (kind, &odd) {
                (Kind::Odd(middle), Some(odd)) => {
                    let free = odd.free_rows(middle);
                    (
                        odd.left_candidates(&sizes, rows),
                        odd.right_candidates(&sizes, middle, free & !rows),
                    )
                }
                _ => (
                    candidates(&geo, &sizes, Side::Left, rows),
                    candidates(&geo, &sizes, Side::Right, !rows & geo.all_rows()),
                ),
            };
            largest = largest.max(left + right);
            push_job(&mut jobs, rows, left * right, weight, kind);
        });
        if stopped {
            return Ok(None);
        }
        Ok(Some(Self {
            geo,
            stage,
            odd,
            sizes,
            tables: OnceLock::new(),
            jobs,
            largest,
        }))
    }

    /// The bytes [`new`](Self::new) keeps for an `n`-board: the group
    /// sizes and the jobs. Cheap: counts the jobs, builds nothing.
    #[must_use]
    pub fn plan_bytes(n: u32, stage: Stage) -> u64 {
        let geo = Geometry::new(n);
        let odd = (stage == Stage::FixedMiddle && n % 2 == 1).then(|| OddGeometry::new(n));
        let jobs = job_count(&geo, stage, odd.as_ref()) as u64;
        GroupSizes::bytes(side(&geo, odd.as_ref())) + jobs * size_of::<Job>() as u64
    }

    /// The bytes this plan keeps: what [`plan_bytes`](Self::plan_bytes)
    /// estimates, from the vectors themselves.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.sizes.bytes_held() + (self.jobs.capacity() * size_of::<Job>()) as u64
    }

    /// The bytes the quarter tables of an `n`-board take once the first
    /// job has built them, counted without building them.
    #[must_use]
    pub fn table_bytes(n: u32, stage: Stage) -> u64 {
        let geo = Geometry::new(n);
        let odd = (stage == Stage::FixedMiddle && n % 2 == 1).then(|| OddGeometry::new(n));
        let side = side(&geo, odd.as_ref());
        let piece = size_of::<quarter::Piece>() as u64;
        let (all, off_long) = QuarterTable::pieces(side);
        let table = GroupSizes::bytes(side) + all * piece;
        if has_lefts(stage, odd.as_ref()) {
            table + 2 * (GroupSizes::bytes(side) + off_long * piece)
        } else {
            table
        }
    }

    /// The most bytes one thread's [`Scratch`] grows to over these jobs:
    /// [`SCRATCH_PER_CANDIDATE`] times the largest job's candidates, and
    /// the smallest vectors' worth.
    #[must_use]
    pub fn scratch_bytes(&self) -> u64 {
        SCRATCH_FLOOR + self.largest * SCRATCH_PER_CANDIDATE
    }

    /// Builds the tables now rather than in the first job.
    pub fn prepare(&self) {
        self.tables();
    }

    /// The tables, built on first use.
    fn tables(&self) -> &Tables {
        self.tables.get_or_init(|| {
            let table = QuarterTable::fill(self.sizes.clone());
            let lefts = has_lefts(self.stage, self.odd.as_ref()).then(|| {
                // Both long diagonals are local bit q - 1 of their family
                // in the quarter that holds them on the left.
                let long = 1 << (self.geo.q - 1);
                (table.without(long, 0), table.without(0, long))
            });
            Tables { table, lefts }
        })
    }

    /// The jobs, in id order.
    #[must_use]
    pub fn jobs(&self) -> &[Job] {
        &self.jobs
    }

    /// The text another program rebuilds `job` from: its left row set in
    /// hex (bit r = row r), behind the fixed middle queen for odd boards
    /// (`rowset:0x2b5`, `middle:4/rowset:0x...`, `centre/rowset:0x...`).
    #[must_use]
    pub fn descriptor(job: &Job) -> String {
        match job.kind {
            Kind::Halves => format!("rowset:{:#x}", job.rows),
            Kind::Odd(Middle::Column(j)) => format!("middle:{j}/rowset:{:#x}", job.rows),
            Kind::Odd(Middle::Centre) => format!("centre/rowset:{:#x}", job.rows),
        }
    }

    /// Counts the solutions of one job (its weight included).
    pub fn run_job(&self, job: &Job, scratch: &mut Scratch) -> u128 {
        let tables = self.tables();
        if let (Kind::Odd(middle), Some(odd)) = (job.kind, &self.odd) {
            return Self::run_odd_job(job, middle, odd, &tables.table, scratch);
        }
        let geo = &self.geo;
        if self.stage == Stage::FixedMiddle && geo.n.is_multiple_of(2) {
            return self.run_even_job(job, tables, scratch);
        }
        let symmetric = matches!(self.stage, Stage::Symmetric | Stage::FixedMiddle);
        let (long_falling, long_rising) = geo.long_diagonals();
        let long = long_falling | long_rising;

        let table = &tables.table;
        let (top_left, bottom_left) = tables
            .lefts
            .as_ref()
            .map_or((table, table), |(t, b)| (t, b));
        let left = &mut scratch.left;
        left.clear();
        geo.for_each_half(top_left, bottom_left, Side::Left, job.rows, |word, _| {
            debug_assert!(!symmetric || word & long == 0);
            left.push(word);
        });
        if left.is_empty() {
            return 0;
        }
        let mirror = if symmetric {
            mirror_weight(geo, job.rows)
        } else {
            1
        };
        let queries = &mut scratch.queries;
        queries.clear();
        let right_rows = !job.rows & geo.all_rows();
        geo.for_each_half(table, table, Side::Right, right_rows, |word, centre| {
            let weight = if symmetric {
                right_weight(geo, word, centre, mirror)
            } else {
                1
            };
            if weight > 0 {
                queries.push(query(word, weight));
            }
        });
        let pairs = match self.stage {
            Stage::Reference => count_naive(left, queries),
            Stage::Sliced | Stage::Symmetric => {
                scratch.matcher.count(left, queries, geo.window_bits())
            }
            Stage::FixedMiddle => scratch.sieve.count(left, queries, geo.window_bits()),
        };
        u128::from(pairs) * u128::from(job.weight)
    }

    /// [`Stage::FixedMiddle`]'s even jobs: the symmetric stage's half-boards
    /// and weights, made by [`pairs`] with the weights in the queries.
    fn run_even_job(&self, job: &Job, tables: &Tables, scratch: &mut Scratch) -> u128 {
        let geo = &self.geo;
        let left = &mut scratch.left;
        left.clear();
        let (top_left, bottom_left) = tables
            .lefts
            .as_ref()
            .expect("the symmetric stages of even boards filter their left pieces");
        let lefts = (top_left, bottom_left);
        pairs::left_halves(geo, lefts, job.rows, left, &mut scratch.pairing);
        if left.is_empty() {
            return 0;
        }
        let queries = &mut scratch.queries;
        queries.clear();
        // Rules 2 and 3: see `right_weight`.
        let mirror = pairs::OffDiagonal::new(mirror_weight(geo, job.rows));
        let right_rows = !job.rows & geo.all_rows();
        pairs::right_halves(
            geo,
            &tables.table,
            right_rows,
            mirror,
            queries,
            &mut scratch.pairing,
        );
        let pairs = scratch.sieve.count(left, queries, geo.window_bits());
        u128::from(pairs) * u128::from(job.weight)
    }

    fn run_odd_job(
        job: &Job,
        middle: Middle,
        odd: &OddGeometry,
        table: &QuarterTable,
        scratch: &mut Scratch,
    ) -> u128 {
        let left = &mut scratch.left;
        left.clear();
        odd.left_halves(table, middle, job.rows, left, &mut scratch.pairing);
        if left.is_empty() {
            return 0;
        }
        let queries = &mut scratch.queries;
        queries.clear();
        let right_rows = odd.free_rows(middle) & !job.rows;
        odd.right_halves(table, middle, right_rows, queries, &mut scratch.pairing);
        // Every word counts once on both sides, so either side can be the
        // stored one: the shorter, whose tables are cheaper to build (on
        // average 2.2 times fewer right half-boards than left ones at n = 19).
        let (stored, asked) = if left.len() <= queries.len() {
            (&left[..], &queries[..])
        } else {
            (&queries[..], &left[..])
        };
        let pairs = scratch.sieve.count(stored, asked, odd.window_bits());
        u128::from(pairs) * u128::from(job.weight)
    }
}

/// Per-thread buffers, grown to the largest job and then reused.
#[derive(Default)]
pub struct Scratch {
    left: Vec<u64>,
    queries: Vec<u64>,
    pairing: pairs::Buffers,
    matcher: SlicedMatcher,
    sieve: Sieve,
}

impl Scratch {
    /// Take the loops `features` allow from now on.
    pub fn set_features(&mut self, features: Features) {
        self.matcher.features = features;
        self.sieve.set_features(features);
        self.pairing.features = features;
    }

    /// The bytes its buffers hold.
    #[cfg(test)]
    #[must_use]
    pub fn bytes(&self) -> u64 {
        ((self.left.capacity() + self.queries.capacity()) * 8) as u64
            + self.pairing.bytes()
            + self.matcher.bytes()
            + self.sieve.bytes()
    }
}

/// Bytes a thread's [`Scratch`] takes per candidate of the largest job
/// it runs (the half-board lists, the sieve's copies and cut values, the
/// matcher's tables): a candidate yields at most one word, and most yield
/// none. Measured over every job, on one scratch, for n = 15 to 19: at
/// most 17.7 (n = 16, the sliced stage) and 12.1 (n = 16, the fixed
/// middle; 11.5 at n = 18, 8.4 at 19). Smaller boards are the floor's.
pub const SCRATCH_PER_CANDIDATE: u64 = 24;

/// Bytes of a scratch's smallest vectors, whatever the jobs.
const SCRATCH_FLOOR: u64 = 64 << 10;

/// The side of the quarter table: `q`, or `h` around a fixed middle.
fn side(geo: &Geometry, odd: Option<&OddGeometry>) -> u32 {
    odd.map_or(geo.q, |odd| odd.h)
}

/// Whether the left half-boards come from pieces off the long diagonals.
fn has_lefts(stage: Stage, odd: Option<&OddGeometry>) -> bool {
    matches!(stage, Stage::Symmetric | Stage::FixedMiddle) && odd.is_none()
}

/// Calls `job(rows, weight, kind)` for every job of the plan, in id order.
fn for_each_job(
    geo: &Geometry,
    stage: Stage,
    odd: Option<&OddGeometry>,
    mut job: impl FnMut(u32, u32, Kind),
) {
    let Some(odd) = odd else {
        for_each_subset(geo.n, geo.h, |rows| {
            let weight = if stage == Stage::Reference || stage == Stage::Sliced {
                1
            } else {
                flip_weight(geo, rows)
            };
            if weight > 0 {
                job(rows, weight, Kind::Halves);
            }
        });
        return;
    };
    // Scheme F: for each `j`, every left row set off the middle row and
    // row `h + j`, weight 8; then the centre family, with the flip and
    // mirror weights.
    for middle in (1..=odd.h).map(Middle::Column).chain([Middle::Centre]) {
        let free = odd.free_rows(middle);
        for_each_subset(geo.n, geo.h, |rows| {
            if rows & !free != 0 {
                return;
            }
            let weight = match middle {
                Middle::Column(_) => 8,
                Middle::Centre => flip_weight(geo, rows) * odd.centre_mirror_weight(rows),
            };
            if weight > 0 {
                job(rows, weight, Kind::Odd(middle));
            }
        });
    }
}

/// How many jobs [`for_each_job`] calls.
fn job_count(geo: &Geometry, stage: Stage, odd: Option<&OddGeometry>) -> usize {
    let mut jobs = 0;
    for_each_job(geo, stage, odd, |_, _, _| jobs += 1);
    jobs
}

fn push_job(jobs: &mut Vec<Job>, rows: u32, cost: u64, weight: u32, kind: Kind) {
    let id = u32::try_from(jobs.len()).expect("fewer than 2^32 jobs");
    jobs.push(Job {
        id,
        rows,
        cost,
        weight,
        kind,
    });
}

/// How many (top piece, bottom piece) pairs a half-board generation for
/// `rows` will test: an upper bound on the half-boards it yields.
fn candidates(geo: &Geometry, sizes: &GroupSizes, side: Side, rows: u32) -> u64 {
    let (width, top, bottom) = match side {
        Side::Left => (geo.h, rows & ((1 << geo.h) - 1), rows >> geo.h),
        Side::Right => (geo.q, rows & ((1 << geo.h) - 1), rows >> geo.h),
    };
    let all = (1u32 << width) - 1;
    let mut pairs = 0;
    for_each_subset(width, top.count_ones(), |c| {
        pairs += (sizes.len(top, c) * sizes.len(bottom, all ^ c)) as u64;
    });
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(n: u32, stage: Stage) -> u128 {
        let plan = JoinPlan::new(n, stage).unwrap();
        let mut scratch = Scratch::default();
        plan.jobs()
            .iter()
            .map(|j| plan.run_job(j, &mut scratch))
            .sum()
    }

    /// What a plan says it takes against what its vectors hold, after
    /// every job ran on one scratch: the plan and the tables exactly, the
    /// scratch within [`SCRATCH_PER_CANDIDATE`] per candidate and not
    /// absurdly below it.
    #[test]
    fn memory_estimates_hold_what_the_vectors_take() {
        let max_n = if cfg!(debug_assertions) { 14 } else { 16 };
        for n in MIN_JOIN_N..=max_n {
            for stage in [Stage::Sliced, Stage::Symmetric, Stage::FixedMiddle] {
                let plan = JoinPlan::new(n, stage).unwrap();
                assert_eq!(plan.bytes(), JoinPlan::plan_bytes(n, stage), "n = {n}");
                assert_eq!(plan.jobs.capacity(), plan.jobs.len());
                let mut scratch = Scratch::default();
                for job in plan.jobs() {
                    plan.run_job(job, &mut scratch);
                }
                let tables = plan.tables();
                let held = tables.table.bytes()
                    + tables
                        .lefts
                        .as_ref()
                        .map_or(0, |(top, bottom)| top.bytes() + bottom.bytes());
                assert_eq!(held, JoinPlan::table_bytes(n, stage), "n = {n}, {stage:?}");
                let (estimate, used) = (plan.scratch_bytes(), scratch.bytes());
                println!("n = {n} {stage:?}: scratch {used} of {estimate} estimated");
                assert!(used <= estimate, "n = {n}, {stage:?}: {used} > {estimate}");
                if n >= 12 {
                    let per_candidate = plan.largest * SCRATCH_PER_CANDIDATE;
                    assert!(
                        used * 8 >= per_candidate,
                        "n = {n}, {stage:?}: {used} << {per_candidate}"
                    );
                }
            }
        }
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
                *engine.entry(Some(middle)).or_default() += plan.run_job(job, &mut scratch);
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
