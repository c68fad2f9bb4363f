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
pub mod sizes;
pub mod subsets;

use std::sync::OnceLock;

use self::halves::{Geometry, Side, flip_weight, mirror_weight, right_weight};
use self::matcher::{SlicedMatcher, count_naive, query};
use self::odd::{FreeColumns, Middle, OddGeometry};
use self::quarter::{GroupSizes, Groups, Piece, QuarterTable, Slice};
use self::sieve::Sieve;
use self::sizes::Largest;
use self::subsets::for_each_subset;
use crate::Error;
use crate::cpu::Features;

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
/// builds the slices it reads ([`Pieces::PerJob`]).
const MAX_WHOLE_SIDE: u32 = 11;

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

impl Stage {
    /// The largest board this stage plans.
    #[must_use]
    pub const fn max_n(self) -> u32 {
        match self {
            Self::FixedMiddle => MAX_JOIN_N,
            _ => MAX_WHOLE_N,
        }
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
    pieces: Pieces,
    jobs: Jobs,
    /// The most top-times-bottom candidates one job generates, both sides
    /// together: what bounds a thread's buffers.
    largest: u64,
    /// The most right candidates one job generates: the right half-boards
    /// a job holds whole while its left ones go by in chunks.
    largest_right: u64,
    /// The most pieces one row set of the quarter square holds: what bounds
    /// a slice.
    largest_slice: u64,
}

/// Where the jobs' quarter pieces come from.
enum Pieces {
    /// The whole quarter tables, shared by every job and built by the first
    /// one that runs: describing a plan needs only its sizes.
    Whole(OnceLock<Tables>),
    /// Each job builds the four slices it reads (top and bottom rows of
    /// each half) in its thread's [`Scratch`]: memory bounded by the job,
    /// not by the board.
    PerJob,
}

/// The jobs, twelve bytes each (20 million at n = 28, 70 million at n =
/// 27): their row sets and costs by id, and the first id of each family.
struct Jobs {
    rows: Vec<u32>,
    costs: Vec<u64>,
    /// `(first id, kind)` of each run of jobs of one kind, in id order.
    families: Vec<(u32, Kind)>,
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

/// Where one job reads its pieces: the top and bottom quarters of its
/// left half, then of its right half.
struct Quarters<'a, G> {
    left: (&'a G, &'a G),
    right: (&'a G, &'a G),
}

/// Jobs whose costs are computed between two looks at `stop()`.
const COST_BATCH: usize = 1 << 16;

impl JoinPlan {
    /// Counts the quarter table's groups and lists the jobs of an
    /// `n`-board; the table itself waits for the first job.
    ///
    /// # Errors
    /// [`Error::BoardSize`] unless `MIN_JOIN_N <= n <= stage.max_n()`.
    #[cfg(test)]
    pub fn new(n: u32, stage: Stage) -> Result<Self, Error> {
        Ok(Self::new_unless(n, stage, &|| false)?.expect("a plan that never stops is built"))
    }

    /// [`new`](Self::new), given up (`Ok(None)`) as soon as `stop()` says
    /// so: listing the jobs takes seconds from n = 23 on, and a cancelled
    /// count should not wait for it. `stop()` is read once every
    /// [`COST_BATCH`] jobs. The costs are computed on the current rayon
    /// pool.
    pub(crate) fn new_unless(
        n: u32,
        stage: Stage,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Self>, Error> {
        use rayon::prelude::*;
        if !(MIN_JOIN_N..=stage.max_n()).contains(&n) {
            return Err(Error::board_size(
                n,
                "the join engine",
                MIN_JOIN_N,
                stage.max_n(),
            ));
        }
        let geo = Geometry::new(n);
        let odd = (stage == Stage::FixedMiddle && n % 2 == 1).then(|| OddGeometry::new(n));
        let side = side(&geo, odd.as_ref());
        let sizes = GroupSizes::new(side);
        if stop() {
            return Ok(None);
        }
        let mut rows = Vec::with_capacity(job_count(&geo, stage, odd.as_ref()));
        let mut families: Vec<(u32, Kind)> = Vec::new();
        for_each_job(&geo, stage, odd.as_ref(), |set, _, kind| {
            if families.last().is_none_or(|&(_, k)| k != kind) {
                let id = u32::try_from(rows.len()).expect("fewer than 2^32 jobs");
                families.push((id, kind));
            }
            rows.push(set);
        });
        let free = odd.as_ref().map(|_| FreeColumns::new(&sizes));
        let mut costs = Vec::with_capacity(rows.len());
        let mut largest = 0;
        let mut largest_right = 0;
        for (batch, sets) in rows.chunks(COST_BATCH).enumerate() {
            if stop() {
                return Ok(None);
            }
            let first = batch * COST_BATCH;
            let sides: Vec<(u64, u64)> = sets
                .par_iter()
                .enumerate()
                .map(|(i, &set)| {
                    let kind = kind_of(&families, (first + i) as u32);
                    candidates_of(&geo, odd.as_ref().zip(free.as_ref()), &sizes, set, kind)
                })
                .collect();
            for (left, right) in sides {
                largest = largest.max(left + right);
                largest_right = largest_right.max(right);
                costs.push(left * right);
            }
        }
        let largest_slice = (0..1u32 << side)
            .map(|set| sizes.of(set).iter().map(|&len| u64::from(len)).sum::<u64>())
            .max()
            .unwrap_or(0);
        let pieces = if stage != Stage::FixedMiddle || side <= MAX_WHOLE_SIDE {
            Pieces::Whole(OnceLock::new())
        } else {
            Pieces::PerJob
        };
        Ok(Some(Self {
            geo,
            stage,
            odd,
            sizes,
            pieces,
            jobs: Jobs {
                rows,
                costs,
                families,
            },
            largest,
            largest_right,
            largest_slice,
        }))
    }

    /// The same plan, its jobs building their own slices even where the
    /// whole tables would fit: for comparing the two.
    #[cfg(test)]
    #[must_use]
    pub fn per_job(mut self) -> Self {
        assert_eq!(
            self.stage,
            Stage::FixedMiddle,
            "only the fixed middle reads slices"
        );
        self.pieces = Pieces::PerJob;
        self
    }

    /// The bytes [`new`](Self::new) keeps for an `n`-board: the group
    /// sizes and the jobs. Cheap: counts the jobs, builds nothing.
    #[must_use]
    pub fn plan_bytes(n: u32, stage: Stage) -> u64 {
        let geo = Geometry::new(n);
        let odd = (stage == Stage::FixedMiddle && n % 2 == 1).then(|| OddGeometry::new(n));
        let jobs = job_count(&geo, stage, odd.as_ref()) as u64;
        GroupSizes::bytes(side(&geo, odd.as_ref())) + jobs * JOB_BYTES + FAMILIES_BYTES
    }

    /// The bytes this plan keeps: what [`plan_bytes`](Self::plan_bytes)
    /// estimates, from the vectors themselves.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.sizes.bytes_held()
            + (self.jobs.rows.capacity() * size_of::<u32>()) as u64
            + (self.jobs.costs.capacity() * size_of::<u64>()) as u64
            + FAMILIES_BYTES
    }

    /// The bytes the quarter tables of an `n`-board take once the first
    /// job has built them, counted without building them: none where the
    /// jobs build slices.
    #[must_use]
    pub fn table_bytes(n: u32, stage: Stage) -> u64 {
        let geo = Geometry::new(n);
        let odd = (stage == Stage::FixedMiddle && n % 2 == 1).then(|| OddGeometry::new(n));
        let side = side(&geo, odd.as_ref());
        if stage == Stage::FixedMiddle && side > MAX_WHOLE_SIDE {
            return 0;
        }
        let table = QuarterTable::bytes_of(side, false);
        if has_lefts(stage, odd.as_ref()) {
            table + 2 * QuarterTable::bytes_of(side, true)
        } else {
            table
        }
    }

    /// The most bytes one thread's [`Scratch`] grows to over these jobs:
    /// [`SCRATCH_PER_CANDIDATE`] times the largest job's candidates, or,
    /// where that is more, the right half-boards of the job with the most
    /// (at most 8 bytes a right candidate, held whole), a chunk of left ones
    /// and what counting it takes ([`CHUNK_BYTES`]); the four slices of the
    /// largest row set where the jobs build them; and the smallest
    /// vectors' worth.
    #[must_use]
    pub fn scratch_bytes(&self) -> u64 {
        let per_job = matches!(self.pieces, Pieces::PerJob);
        scratch_bytes_of(self.sizes.side(), per_job, self.largest())
    }

    /// The sizes of this plan's largest job and row set.
    #[must_use]
    pub fn largest(&self) -> Largest {
        Largest {
            candidates: self.largest,
            right: self.largest_right,
            slice: self.largest_slice,
        }
    }

    /// A lower bound on the bytes a count of every job of an `n`-board
    /// takes on `threads` threads, besides the runner's records, found
    /// without building the plan (in milliseconds, where building it takes
    /// up to minutes): the plan's own bytes and tables, exactly, and each
    /// thread's scratch, exactly where [`sizes::LARGEST`] pins the plan's
    /// largest job, else its floor. Never above what [`bytes`](Self::bytes),
    /// [`table_bytes`](Self::table_bytes) and
    /// [`scratch_bytes`](Self::scratch_bytes) add up to for the built plan.
    #[must_use]
    pub fn count_bytes_floor(n: u32, stage: Stage, threads: usize) -> u64 {
        let geo = Geometry::new(n);
        let odd = (stage == Stage::FixedMiddle && n % 2 == 1).then(|| OddGeometry::new(n));
        let side = side(&geo, odd.as_ref());
        let per_job = stage == Stage::FixedMiddle && side > MAX_WHOLE_SIDE;
        let scratch = match sizes::largest(n, stage) {
            Some(largest) => scratch_bytes_of(side, per_job, largest),
            None => SCRATCH_FLOOR,
        };
        Self::plan_bytes(n, stage) + Self::table_bytes(n, stage) + threads as u64 * scratch
    }

    /// How many jobs an `n`-board's plan lists, counted without listing
    /// them.
    #[must_use]
    pub fn jobs_in(n: u32, stage: Stage) -> usize {
        let geo = Geometry::new(n);
        let odd = (stage == Stage::FixedMiddle && n % 2 == 1).then(|| OddGeometry::new(n));
        job_count(&geo, stage, odd.as_ref())
    }

    /// Builds the tables now rather than in the first job (nothing where
    /// the jobs build slices).
    pub fn prepare(&self) {
        if let Pieces::Whole(tables) = &self.pieces {
            self.tables(tables);
        }
    }

    /// The tables, built on first use.
    fn tables<'a>(&self, tables: &'a OnceLock<Tables>) -> &'a Tables {
        tables.get_or_init(|| {
            let table = QuarterTable::fill(&self.sizes);
            let lefts = has_lefts(self.stage, self.odd.as_ref()).then(|| {
                // Both long diagonals are local bit q - 1 of their family
                // in the quarter that holds them on the left.
                let long = 1 << (self.geo.q - 1);
                (table.without(long, 0), table.without(0, long))
            });
            Tables { table, lefts }
        })
    }

    /// The most cut bits a job's sieve takes by default for this board
    /// size: [`sieve::DEFAULT_CUTS`] to n = 22, whose jobs are too small
    /// to take more (a cap of 14 against 6 on a sample of n = 22: 1.00),
    /// and [`sieve::MAX_CUTS`] beyond. Measured with simultaneous pairs on
    /// samples of units (`QUEENS_SIEVE_CUTS`): at n = 24, a cap of 10
    /// against 6 took 0.69 of the time, 14 against 10 0.98; at n = 26,
    /// 0.75 and 0.97, the plan's 22 s included in both
    /// (results/amd-epyc-2c/2026-11-24-sieve-cuts.txt).
    #[must_use]
    pub fn sieve_cuts(&self) -> usize {
        if self.geo.n <= 22 {
            sieve::DEFAULT_CUTS
        } else {
            sieve::MAX_CUTS
        }
    }

    /// How many jobs the plan has; their ids are `0..len()`.
    #[must_use]
    pub fn len(&self) -> usize {
        self.jobs.rows.len()
    }

    /// Job `id`, which must be below [`len`](Self::len).
    #[must_use]
    pub fn job(&self, id: u32) -> Job {
        let rows = self.jobs.rows[id as usize];
        let kind = kind_of(&self.jobs.families, id);
        let weight = match kind {
            Kind::Halves if matches!(self.stage, Stage::Reference | Stage::Sliced) => 1,
            Kind::Halves => flip_weight(&self.geo, rows),
            Kind::Odd(Middle::Column(_)) => 8,
            Kind::Odd(Middle::Centre) => {
                let odd = self.odd.as_ref().expect("odd jobs have an odd geometry");
                flip_weight(&self.geo, rows) * odd.centre_mirror_weight(rows)
            }
        };
        Job {
            id,
            rows,
            cost: self.jobs.costs[id as usize],
            weight,
            kind,
        }
    }

    /// Job `id`'s cost, which must be below [`len`](Self::len).
    #[must_use]
    pub fn cost(&self, id: u32) -> u64 {
        self.jobs.costs[id as usize]
    }

    /// The jobs, in id order.
    #[cfg(test)]
    pub fn jobs(&self) -> impl Iterator<Item = Job> + '_ {
        (0..self.len() as u32).map(|id| self.job(id))
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
        let Scratch { slices, work } = scratch;
        match &self.pieces {
            Pieces::Whole(tables) => {
                let tables = self.tables(tables);
                let table = &tables.table;
                let left = tables
                    .lefts
                    .as_ref()
                    .map_or((table, table), |(t, b)| (t, b));
                let quarters = Quarters {
                    left,
                    right: (table, table),
                };
                self.run_with(job, &quarters, work)
            }
            Pieces::PerJob => {
                self.build_slices(job, slices);
                let [lt, lb, rt, rb] = &*slices;
                let quarters = Quarters {
                    left: (lt, lb),
                    right: (rt, rb),
                };
                self.run_with(job, &quarters, work)
            }
        }
    }

    /// Makes `slices` the four a job of [`Stage::FixedMiddle`] reads: the
    /// left half's top and bottom rows, then the right half's. A slot
    /// that holds its slice already keeps it.
    fn build_slices(&self, job: &Job, slices: &mut [Slice; 4]) {
        let side = self.sizes.side();
        let none = Piece::default();
        let (left, right, left_off) = match (job.kind, &self.odd) {
            (Kind::Odd(middle), Some(odd)) => {
                let right_rows = odd.free_rows(middle) & !job.rows;
                (
                    odd.quarter_rows(job.rows),
                    odd.quarter_rows(right_rows),
                    (none, none),
                )
            }
            _ => {
                let geo = &self.geo;
                let split = |rows: u32| (rows & ((1 << geo.h) - 1), rows >> geo.h);
                // As the whole tables' `lefts`: the left half-boards keep
                // off both long diagonals, local bit q - 1 of each family.
                let long = 1 << (geo.q - 1);
                let off = (
                    Piece {
                        falling: long,
                        rising: 0,
                    },
                    Piece {
                        falling: 0,
                        rising: long,
                    },
                );
                (split(job.rows), split(!job.rows & geo.all_rows()), off)
            }
        };
        let wanted = [
            (left.0, left_off.0),
            (left.1, left_off.1),
            (right.0, none),
            (right.1, none),
        ];
        for (slice, (rows, off)) in slices.iter_mut().zip(wanted) {
            slice.build(side, rows, off);
        }
    }

    /// Counts one job with its pieces from `quarters`.
    fn run_with<G: Groups>(&self, job: &Job, quarters: &Quarters<'_, G>, work: &mut Work) -> u128 {
        if let (Kind::Odd(middle), Some(odd)) = (job.kind, &self.odd) {
            return Self::run_odd_job(job, middle, odd, quarters, work);
        }
        let geo = &self.geo;
        if self.stage == Stage::FixedMiddle && geo.n.is_multiple_of(2) {
            return self.run_even_job(job, quarters, work);
        }
        let symmetric = matches!(self.stage, Stage::Symmetric | Stage::FixedMiddle);
        let (long_falling, long_rising) = geo.long_diagonals();
        let long = long_falling | long_rising;

        let (top_left, bottom_left) = quarters.left;
        let left = &mut work.left;
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
        let queries = &mut work.queries;
        queries.clear();
        let right_rows = !job.rows & geo.all_rows();
        let (tops, bottoms) = quarters.right;
        geo.for_each_half(tops, bottoms, Side::Right, right_rows, |word, centre| {
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
                work.matcher.count(left, queries, geo.window_bits())
            }
            Stage::FixedMiddle => work.sieve.count(left, queries, geo.window_bits()),
        };
        u128::from(pairs) * u128::from(job.weight)
    }

    /// [`Stage::FixedMiddle`]'s even jobs: the symmetric stage's half-boards
    /// and weights, made by [`pairs`] with the weights in the queries.
    fn run_even_job<G: Groups>(
        &self,
        job: &Job,
        quarters: &Quarters<'_, G>,
        work: &mut Work,
    ) -> u128 {
        let geo = &self.geo;
        // Rules 2 and 3: see `right_weight`.
        let mirror = pairs::OffDiagonal::new(mirror_weight(geo, job.rows));
        let right_rows = !job.rows & geo.all_rows();
        let pairs = work.count_pairs(
            (geo.window_bits(), false),
            |chunks, buffers| pairs::left_halves(geo, quarters.left, job.rows, chunks, buffers),
            |out, buffers| {
                pairs::right_halves(geo, quarters.right, right_rows, mirror, out, buffers);
            },
        );
        u128::from(pairs) * u128::from(job.weight)
    }

    fn run_odd_job<G: Groups>(
        job: &Job,
        middle: Middle,
        odd: &OddGeometry,
        quarters: &Quarters<'_, G>,
        work: &mut Work,
    ) -> u128 {
        let right_rows = odd.free_rows(middle) & !job.rows;
        let pairs = work.count_pairs(
            (odd.window_bits(), true),
            |chunks, buffers| odd.left_halves(quarters.left, middle, job.rows, chunks, buffers),
            |out, buffers| odd.right_halves(quarters.right, middle, right_rows, out, buffers),
        );
        u128::from(pairs) * u128::from(job.weight)
    }
}

impl Work {
    /// The compatible pairs of a job's left half-boards (made by `left`,
    /// which hands them over in chunks) and right ones (made by `right`
    /// when the first chunk is full or the left ones end: not at all for a
    /// job without left half-boards), on words of `bits` bits. With
    /// `either` (unweighted words on both sides) the shorter side of each
    /// count is the stored one, whose tables are cheaper to build (on
    /// average 2.2 times fewer right half-boards than left ones at n =
    /// 19); else the right words are the queries.
    fn count_pairs(
        &mut self,
        (bits, either): (u32, bool),
        left: impl FnOnce(pairs::Chunks<'_>, &mut pairs::Buffers),
        right: impl FnOnce(&mut Vec<u64>, &mut pairs::Buffers),
    ) -> u64 {
        let Self {
            left: words,
            queries,
            pairing,
            right_pairing,
            sieve,
            chunks: (stored_chunk, asked_chunk),
            ..
        } = self;
        let sizes = (bits, *stored_chunk, *asked_chunk);
        let mut pairs = 0;
        let mut right = Some(right);
        let mut count = |chunk: &mut Vec<u64>| {
            if let Some(right) = right.take() {
                queries.clear();
                right(queries, right_pairing);
            }
            pairs += if either && chunk.len() > queries.len() {
                count_in_chunks(sieve, queries, chunk, sizes)
            } else {
                count_in_chunks(sieve, chunk, queries, sizes)
            };
            chunk.clear();
        };
        words.clear();
        left((&mut *words, *stored_chunk, &mut count), pairing);
        if !words.is_empty() {
            count(words);
        }
        pairs
    }
}

/// The most left half-boards a job holds at once: past it (jobs of n >= 26
/// only), those made so far are counted against the right ones and
/// dropped, so that a thread's buffers stay near the right side's words
/// and these chunks' (16 M words, 128 MB, and the sieve's and matcher's
/// copies of them).
const STORED_CHUNK: usize = 1 << 24;
/// The most asked words handed to the sieve at once, for its copies.
const ASKED_CHUNK: usize = 1 << 26;
/// What counting one chunk takes beyond the half-boards' own vectors: a
/// stored word's copy and cut value in the sieve (10 bytes) and its share
/// of the bit-sliced tables (4 bytes a chunk of 5 bits, 44 at n = 28); an
/// asked word's copy and cut value (10).
const CHUNK_BYTES: u64 = STORED_CHUNK as u64 * (10 + 44) + ASKED_CHUNK as u64 * 10;

/// The pairs of `stored` and `asked` (words of `bits` bits) that share
/// no bit, handed to the sieve at most `stored_chunk` and `asked_chunk`
/// words at a time (in one call, below that).
fn count_in_chunks(
    sieve: &mut Sieve,
    stored: &[u64],
    asked: &[u64],
    (bits, stored_chunk, asked_chunk): (u32, usize, usize),
) -> u64 {
    if stored.is_empty() {
        return 0;
    }
    let mut pairs = 0;
    for part in stored.chunks(stored_chunk) {
        for questions in asked.chunks(asked_chunk) {
            pairs += sieve.count(part, questions, bits);
        }
    }
    pairs
}

/// Bytes a plan keeps per job: its row set and its cost.
const JOB_BYTES: u64 = (size_of::<u32>() + size_of::<u64>()) as u64;
/// Bytes of a plan's family list, at most `n / 2 + 1` entries.
const FAMILIES_BYTES: u64 = 16 * size_of::<(u32, Kind)>() as u64;

/// The kind of job `id`, by the families' first ids.
fn kind_of(families: &[(u32, Kind)], id: u32) -> Kind {
    let after = families.partition_point(|&(first, _)| first <= id);
    families[after - 1].1
}

/// A job's left and right candidates (top-times-bottom piece pairs).
fn candidates_of(
    geo: &Geometry,
    odd: Option<(&OddGeometry, &FreeColumns)>,
    sizes: &GroupSizes,
    rows: u32,
    kind: Kind,
) -> (u64, u64) {
    match (kind, odd) {
        (Kind::Odd(middle), Some((odd, free))) => {
            let right = odd.free_rows(middle) & !rows;
            (
                odd.left_candidates(sizes, rows),
                odd.right_candidates(sizes, free, middle, right),
            )
        }
        _ => (
            candidates(geo, sizes, Side::Left, rows),
            candidates(geo, sizes, Side::Right, !rows & geo.all_rows()),
        ),
    }
}

/// Per-thread buffers, grown to the largest job and then reused.
#[derive(Default)]
pub struct Scratch {
    /// The slices a job reads where it builds them ([`Pieces::PerJob`]).
    slices: [Slice; 4],
    work: Work,
}

/// The buffers a job's half-boards and matching take.
struct Work {
    left: Vec<u64>,
    queries: Vec<u64>,
    pairing: pairs::Buffers,
    /// The right half-boards' own, made while the left ones' are in use.
    right_pairing: pairs::Buffers,
    matcher: SlicedMatcher,
    sieve: Sieve,
    /// The most stored and asked words one count takes at once:
    /// [`STORED_CHUNK`] and [`ASKED_CHUNK`], smaller in tests.
    chunks: (usize, usize),
}

impl Default for Work {
    fn default() -> Self {
        Self {
            left: Vec::new(),
            queries: Vec::new(),
            pairing: pairs::Buffers::default(),
            right_pairing: pairs::Buffers::default(),
            matcher: SlicedMatcher::default(),
            sieve: Sieve::default(),
            chunks: (STORED_CHUNK, ASKED_CHUNK),
        }
    }
}

impl Scratch {
    /// A scratch that counts at most `stored` and `asked` words at once,
    /// to try the chunked counting on small boards.
    #[cfg(test)]
    #[must_use]
    pub fn chunked(stored: usize, asked: usize) -> Self {
        let mut scratch = Self::default();
        scratch.work.chunks = (stored, asked);
        scratch
    }

    /// Let each job's sieve take at most `cuts` cut bits from now on.
    pub fn set_max_cuts(&mut self, cuts: usize) {
        self.work.sieve.set_max_cuts(cuts);
    }

    /// Take the loops `features` allow from now on.
    pub fn set_features(&mut self, features: Features) {
        let work = &mut self.work;
        work.matcher.features = features;
        work.sieve.set_features(features);
        work.pairing.features = features;
        work.right_pairing.features = features;
    }

    /// The bytes its buffers hold.
    #[cfg(test)]
    #[must_use]
    pub fn bytes(&self) -> u64 {
        let work = &self.work;
        ((work.left.capacity() + work.queries.capacity()) * 8) as u64
            + work.pairing.bytes()
            + work.right_pairing.bytes()
            + work.matcher.bytes()
            + work.sieve.bytes()
            + self.slices.iter().map(Slice::bytes).sum::<u64>()
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

/// [`JoinPlan::scratch_bytes`] of a plan whose quarter side is `side`,
/// whose jobs build their slices where `per_job`, and whose largest job
/// and row set are `largest`.
fn scratch_bytes_of(side: u32, per_job: bool, largest: Largest) -> u64 {
    let slices = if per_job {
        4 * (largest.slice * size_of::<Piece>() as u64 + 4 * ((1 << side) + 1))
    } else {
        0
    };
    let chunked = largest.right * 8 + STORED_CHUNK as u64 * 8 + CHUNK_BYTES;
    let buffers = (largest.candidates * SCRATCH_PER_CANDIDATE).min(chunked);
    SCRATCH_FLOOR + buffers + slices
}

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

/// How many (top piece, bottom piece) pairs a half-board generation for
/// `rows` will test: an upper bound on the half-boards it yields.
fn candidates(geo: &Geometry, sizes: &GroupSizes, side: Side, rows: u32) -> u64 {
    let (width, top, bottom) = match side {
        Side::Left => (geo.h, rows & ((1 << geo.h) - 1), rows >> geo.h),
        Side::Right => (geo.q, rows & ((1 << geo.h) - 1), rows >> geo.h),
    };
    if width == sizes.side() {
        return sizes.complementary_pairs(top, bottom);
    }
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
        plan.jobs().map(|j| plan.run_job(&j, &mut scratch)).sum()
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
                assert_eq!(plan.jobs.rows.capacity(), plan.len());
                let mut scratch = Scratch::default();
                for job in plan.jobs() {
                    plan.run_job(&job, &mut scratch);
                }
                let Pieces::Whole(tables) = &plan.pieces else {
                    panic!("small boards read whole tables")
                };
                let tables = plan.tables(tables);
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

    /// Jobs that build their own slices count what jobs reading the whole
    /// tables count, one by one, and so do jobs that count their half-boards
    /// in chunks: every job of the small boards, a random sample of the
    /// larger ones (n = 22's jobs take 0.15 s each).
    #[test]
    fn jobs_on_slices_count_what_jobs_on_whole_tables_count() {
        let mut seed = 0x2026_1124_u64;
        let mut draw = |len: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % len as u64) as u32
        };
        for (n, sample) in (4..=15).map(|n| (n, None)).chain([
            (16, Some(40)),
            (17, Some(40)),
            (18, Some(20)),
            (19, Some(20)),
            (20, Some(6)),
            (21, Some(6)),
            (22, Some(3)),
        ]) {
            let whole = JoinPlan::new(n, Stage::FixedMiddle).unwrap();
            let sliced = JoinPlan::new(n, Stage::FixedMiddle).unwrap().per_job();
            let ids: Vec<u32> = match sample {
                None => (0..whole.len() as u32).collect(),
                Some(k) => (0..k).map(|_| draw(whole.len())).collect(),
            };
            // Chunks of a few hundred words: the path of n >= 26's
            // biggest jobs, taken here by every job that has that many.
            let (mut a, mut b, mut c) = (
                Scratch::default(),
                Scratch::default(),
                Scratch::chunked(300, 500),
            );
            for id in ids {
                let job = whole.job(id);
                assert_eq!(sliced.job(id), job);
                let want = whole.run_job(&job, &mut a);
                assert_eq!(sliced.run_job(&job, &mut b), want, "n = {n}, job {id}");
                assert_eq!(
                    sliced.run_job(&job, &mut c),
                    want,
                    "n = {n}, job {id}, chunked"
                );
            }
        }
    }

    /// The deepest sieve (up to 14 cut bits, the default from n = 23)
    /// counts what the shallow one of n <= 22 counts, on the costliest jobs
    /// of n = 21 and 22, where the deep one takes more than 6 cuts.
    #[test]
    fn a_deeper_sieve_counts_the_same_jobs_alike() {
        let mut deepest = 0;
        for n in [21, 22] {
            let plan = JoinPlan::new(n, Stage::FixedMiddle).unwrap();
            let mut ids: Vec<u32> = (0..plan.len() as u32).collect();
            ids.sort_by_key(|&id| std::cmp::Reverse(plan.cost(id)));
            let (mut shallow, mut deep) = (Scratch::default(), Scratch::default());
            deep.set_max_cuts(sieve::MAX_CUTS);
            for &id in &ids[..2] {
                let job = plan.job(id);
                let want = plan.run_job(&job, &mut shallow);
                assert_eq!(plan.run_job(&job, &mut deep), want, "n = {n}, job {id}");
                deepest = deepest.max(deep.work.sieve.last_cuts());
            }
        }
        assert!(
            deepest > sieve::DEFAULT_CUTS,
            "the deep sieve took {deepest} cuts"
        );
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
