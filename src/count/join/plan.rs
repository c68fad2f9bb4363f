//! The join's plan: the jobs of one board size, listed in id order with
//! their costs (left candidates times right candidates) before any runs.
//! Which row sets are jobs, and with what weight, is the stage's choice
//! ([`Stage`]); the pieces and the counting are the other files'.

use std::sync::OnceLock;

use super::halves::{Geometry, Side, flip_weight};
use super::odd::{FreeColumns, Middle, OddGeometry};
use super::quarter::{GroupSizes, QuarterTable};
use super::sieve;
use super::subsets::for_each_subset;
use super::{Job, Kind, MAX_WHOLE_SIDE, MIN_JOIN_N, Stage};
use crate::Error;

/// Everything needed to run the jobs of one board size.
pub struct JoinPlan {
    pub(super) geo: Geometry,
    pub(super) stage: Stage,
    /// For odd boards in [`Stage::FixedMiddle`]: the split around the middle
    /// row and column.
    pub(super) odd: Option<OddGeometry>,
    /// The sizes of the quarter table's groups (side q, or h around a fixed
    /// middle): all that the jobs' costs need.
    pub(super) sizes: GroupSizes,
    pub(super) pieces: Pieces,
    pub(super) jobs: Jobs,
    /// The most top-times-bottom candidates one job generates, both sides
    /// together: what bounds a thread's buffers.
    pub(super) largest: u64,
    /// The most right candidates one job generates: the right half-boards
    /// a job holds whole while its left ones go by in chunks.
    pub(super) largest_right: u64,
    /// The most pieces one row set of the quarter square holds: what bounds
    /// a slice.
    pub(super) largest_slice: u64,
}

/// The jobs, twelve bytes each (20 million at n = 28, 70 million at n =
/// 27): their row sets and costs by id, and the first id of each family.
pub(super) struct Jobs {
    pub(super) rows: Vec<u32>,
    pub(super) costs: Vec<u64>,
    /// `(first id, kind)` of each run of jobs of one kind, in id order.
    pub(super) families: Vec<(u32, Kind)>,
}

/// Where the jobs' quarter pieces come from.
pub(super) enum Pieces {
    /// The whole quarter tables, shared by every job and built by the first
    /// one that runs: describing a plan needs only its sizes.
    Whole(OnceLock<Tables>),
    /// Each job builds the four slices it reads (top and bottom rows of
    /// each half) in its thread's [`Scratch`](super::Scratch): memory bounded by the job,
    /// not by the board.
    PerJob,
}

/// The pieces the jobs are made of.
pub(super) struct Tables {
    pub(super) table: QuarterTable,
    /// For the symmetric stages of even boards: top-left pieces off the
    /// falling long diagonal (`c = r`), and bottom-left pieces off the
    /// rising one (`c + r = n - 1`), all that their left half-boards are
    /// made of. Filtering the pieces instead of the half-boards spares
    /// generating the ~73% of left half-boards that touch a long diagonal.
    /// `None`: the left half-boards use `table` too.
    pub(super) lefts: Option<(QuarterTable, QuarterTable)>,
}

/// Jobs whose costs are computed in one parallel batch: the batch's
/// results are held at once, so that a plan of millions of jobs does not
/// hold them all twice.
const COST_BATCH: usize = 1 << 16;

impl JoinPlan {
    /// Counts the quarter table's groups and lists the jobs of an
    /// `n`-board; the table itself waits for the first job.
    ///
    /// # Errors
    /// [`Error::BoardSize`] unless `MIN_JOIN_N <= n <= stage.max_n()`.
    ///
    /// Listing the jobs takes seconds from n = 23 on (n = 28: minutes),
    /// and is not stopped part-way: a plan is whole or not there. The
    /// costs are computed on the current rayon pool.
    pub(crate) fn new(n: u32, stage: Stage) -> Result<Self, Error> {
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
        let twins: Vec<Twins<'_>> = match &odd {
            None if geo.q == geo.h => vec![Twins::new(geo.h, &rows, 0, true)],
            None => Vec::new(),
            // The jobs of one family are in increasing order of rows, and
            // only their top rows flip (the bottom ones hold the fixed
            // queen's row).
            Some(_) => families
                .iter()
                .enumerate()
                .map(|(f, &(first, _))| {
                    let end = families
                        .get(f + 1)
                        .map_or(rows.len(), |&(next, _)| next as usize);
                    Twins::new(geo.h, &rows[first as usize..end], first, false)
                })
                .collect(),
        };
        for (batch, sets) in rows.chunks(COST_BATCH).enumerate() {
            let first = batch * COST_BATCH;
            let sides: Vec<Result<(u64, u64), usize>> = sets
                .par_iter()
                .enumerate()
                .map(|(i, &set)| {
                    let id = (first + i) as u32;
                    let family = families.partition_point(|&(start, _)| start <= id) - 1;
                    let twin = twins.get(family).and_then(|t| t.costed_before(set));
                    if let Some(id) = twin {
                        return Err(id);
                    }
                    let kind = families[family].1;
                    Ok(candidates_of(
                        &geo,
                        odd.as_ref().zip(free.as_ref()),
                        &sizes,
                        set,
                        kind,
                    ))
                })
                .collect();
            for side in sides {
                match side {
                    Ok((left, right)) => {
                        largest = largest.max(left + right);
                        largest_right = largest_right.max(right);
                        costs.push(left * right);
                    }
                    // Costed already, in this batch or an earlier one: the
                    // twin's rows are smaller, so its id is too.
                    Err(id) => costs.push(costs[id]),
                }
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
        Ok(Self {
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
        })
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

    /// How many jobs an `n`-board's plan lists, counted without listing
    /// them.
    #[must_use]
    pub fn jobs_in(n: u32, stage: Stage) -> usize {
        let geo = Geometry::new(n);
        let odd = (stage == Stage::FixedMiddle && n % 2 == 1).then(|| OddGeometry::new(n));
        job_count(&geo, stage, odd.as_ref())
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

    /// How many bits past the cuts order each sieve bucket by default for
    /// this board size ([`sieve::DEFAULT_SPLIT`] where the sieve takes
    /// [`sieve::MAX_CUTS`], none to n = 22). Measured alone, one after the
    /// other, on samples of units (`QUEENS_SIEVE_SPLIT`, against 0): n = 27
    /// 0.91, n = 24 0.87, n = 22 0.96, n = 20 1.03
    /// (results/amd-epyc-2c/2026-11-29-sieve-split.txt).
    #[must_use]
    pub fn sieve_split(&self) -> usize {
        if self.geo.n <= 22 {
            0
        } else {
            sieve::DEFAULT_SPLIT
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
}

/// The jobs whose costs are equal by symmetry. A job's left candidates
/// pair the pieces of its top rows `t` with those of its bottom rows `b`
/// on complementary column sets, and its right ones those of the
/// complements. A quarter's group sizes do not change when its rows are
/// flipped top to bottom, nor when its column sets are flipped left to
/// right (a mirror of the square maps its placements one to one), so
/// neither candidate count changes when `t`, or `b`, is flipped: on an
/// even board the (up to four) row sets `t | b << h`, `flip(t) | b << h`,
/// `t | flip(b) << h` and `flip(t) | flip(b) << h` cost the same. Only the
/// smallest of them that is a job is costed (a dot product of up to
/// `C(h, h/2)` terms, some 5 million of them at n = 26); the others copy
/// its cost. Around a fixed middle only the top rows flip: the bottom
/// quarter's hold the fixed queen's row, which the right candidates'
/// free column depends on (`queens plan 27` on 2 threads took 58 s
/// with no twins, 36 s with these).
struct Twins<'a> {
    h: u32,
    /// The jobs of one family, in increasing order of rows, the first
    /// with id `base`.
    rows: &'a [u32],
    base: u32,
    /// Whether flipping the bottom rows makes a twin too.
    bottoms: bool,
    /// `first[b]..first[b + 1]`: the positions in `rows` of the jobs whose
    /// rows above the top quarter's are `b`.
    first: Vec<u32>,
}

impl<'a> Twins<'a> {
    fn new(h: u32, rows: &'a [u32], base: u32, bottoms: bool) -> Self {
        let high = rows.last().map_or(0, |&set| set >> h);
        let first = (0..=high + 1)
            .map(|b| rows.partition_point(|&set| set >> h < b) as u32)
            .collect();
        Self {
            h,
            rows,
            base,
            bottoms,
            first,
        }
    }

    /// The id of the smallest job among `set`'s twins, if it is smaller
    /// than `set` (and so costed before it).
    fn costed_before(&self, set: u32) -> Option<usize> {
        let h = self.h;
        let flip = |half: u32| half.reverse_bits() >> (32 - h);
        let (t, b) = (set & ((1 << h) - 1), set >> h);
        let mut twins = [flip(t) | b << h, t | flip(b) << h, flip(t) | flip(b) << h];
        let twins = if self.bottoms {
            twins.sort_unstable();
            &twins[..]
        } else {
            &twins[..1]
        };
        twins
            .iter()
            .take_while(|&&twin| twin < set)
            .find_map(|&twin| {
                let b = (twin >> h) as usize;
                let run = self.first[b] as usize..self.first[b + 1] as usize;
                let at = self.rows[run.clone()].binary_search(&twin).ok()?;
                Some(self.base as usize + run.start + at)
            })
    }
}

/// The kind of job `id`, by the families' first ids.
pub(super) fn kind_of(families: &[(u32, Kind)], id: u32) -> Kind {
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

/// The side of the quarter table: `q`, or `h` around a fixed middle.
pub(super) fn side(geo: &Geometry, odd: Option<&OddGeometry>) -> u32 {
    odd.map_or(geo.q, |odd| odd.h)
}

/// Whether the left half-boards come from pieces off the long diagonals.
pub(super) fn has_lefts(stage: Stage, odd: Option<&OddGeometry>) -> bool {
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
pub(super) fn job_count(geo: &Geometry, stage: Stage, odd: Option<&OddGeometry>) -> usize {
    let mut jobs = 0;
    for_each_job(geo, stage, odd, |_, _, _| jobs += 1);
    jobs
}

/// How many (top piece, bottom piece) pairs a half-board generation for
/// `rows` will test: an upper bound on the half-boards it yields.
pub(super) fn candidates(geo: &Geometry, sizes: &GroupSizes, side: Side, rows: u32) -> u64 {
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

    /// Copying a twin's cost gives every job what its own dot products
    /// give, and the same largest sizes: even boards on every stage (with
    /// and without the flip's weight filtering the jobs), and odd ones,
    /// whose fixed-middle jobs have twins within each family.
    #[test]
    fn twins_cost_what_their_own_candidates_cost() {
        for n in [12, 13, 14, 15, 16, 17] {
            for stage in [
                Stage::Reference,
                Stage::Sliced,
                Stage::Symmetric,
                Stage::FixedMiddle,
            ] {
                let plan = JoinPlan::new(n, stage).unwrap();
                let free = plan.odd.as_ref().map(|_| FreeColumns::new(&plan.sizes));
                let (mut largest, mut largest_right, mut copied) = (0, 0, 0);
                let twins = Twins::new(plan.geo.h, &plan.jobs.rows, 0, true);
                for (id, &set) in plan.jobs.rows.iter().enumerate() {
                    let kind = kind_of(&plan.jobs.families, id as u32);
                    let odd = plan.odd.as_ref().zip(free.as_ref());
                    let (left, right) = candidates_of(&plan.geo, odd, &plan.sizes, set, kind);
                    assert_eq!(
                        plan.jobs.costs[id],
                        left * right,
                        "n = {n}, {stage:?}, job {id}"
                    );
                    largest = largest.max(left + right);
                    largest_right = largest_right.max(right);
                    if n % 2 == 0 && twins.costed_before(set).is_some() {
                        copied += 1;
                    }
                }
                assert_eq!((plan.largest, plan.largest_right), (largest, largest_right));
                if n % 2 == 0 {
                    assert!(
                        copied * 2 > plan.len(),
                        "n = {n}, {stage:?}: {copied} copied"
                    );
                }
            }
        }
    }
}
