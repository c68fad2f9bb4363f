//! What a join plan takes in memory: the plan's own vectors, the quarter
//! tables, each thread's scratch, and a floor for a count found without
//! building the plan. The memory checks of [`crate::Plan`] read these.

use super::halves::Geometry;
use super::matcher::PIECE;
use super::odd::OddGeometry;
use super::plan::Pieces;
use super::plan::{has_lefts, job_count, side};
use super::quarter::{GroupSizes, Piece, QuarterTable};
use super::scratch::MIN_CHUNK_LOG;
use super::sieve::{MAX_CUTS, MAX_SPLIT};
use super::sizes::{self, Largest};
use super::{JoinPlan, Kind, MAX_WHOLE_SIDE, Stage};

impl JoinPlan {
    /// The bytes a plan keeps for an `n`-board: the group
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

    /// The most bytes one thread's [`Scratch`](super::Scratch) grows to over these jobs:
    /// [`SCRATCH_PER_CANDIDATE`] times the largest job's candidates, or,
    /// where that is more, the right half-boards of the job with the most
    /// (at most 8 bytes a right candidate, held whole up to a chunk of
    /// [`RIGHT_CHUNK`](super::scratch::RIGHT_CHUNK)), a chunk of left ones and what counting it takes
    /// ([`chunk_bytes`]); the four slices of the
    /// largest row set where the jobs build them; and the smallest
    /// vectors' worth.
    ///
    /// In chunks of `1 << chunk_log` words
    /// ([`Scratch::set_chunk_log`](super::Scratch::set_chunk_log)).
    #[must_use]
    pub fn scratch_bytes_at(&self, chunk_log: u32) -> u64 {
        let per_job = matches!(self.pieces, Pieces::PerJob);
        scratch_bytes_of(self.sizes.side(), per_job, self.largest(), chunk_log)
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
    /// thread's scratch, exactly where [`sizes::largest`] pins the plan's
    /// largest job, else its floor. Never above what [`bytes`](Self::bytes),
    /// [`table_bytes`](Self::table_bytes) and
    /// [`scratch_bytes_at`](Self::scratch_bytes_at) add up to for the built plan.
    #[must_use]
    pub fn count_bytes_floor(n: u32, stage: Stage, threads: usize) -> u64 {
        let geo = Geometry::new(n);
        let odd = (stage == Stage::FixedMiddle && n % 2 == 1).then(|| OddGeometry::new(n));
        let side = side(&geo, odd.as_ref());
        let per_job = stage == Stage::FixedMiddle && side > MAX_WHOLE_SIDE;
        let scratch = match sizes::largest(n, stage) {
            Some(largest) => scratch_bytes_of(side, per_job, largest, MIN_CHUNK_LOG),
            None => SCRATCH_FLOOR,
        };
        Self::plan_bytes(n, stage) + Self::table_bytes(n, stage) + threads as u64 * scratch
    }
}

impl JoinPlan {
    /// The bytes a thread holds to count its share of a job another
    /// thread holds ([`Scratch::set_shared`](super::Scratch::set_shared)):
    /// a matcher's tables for at most [`PIECE`] words and a block of
    /// buckets' byte tables, as in [`chunk_bytes`], and its smallest
    /// vectors.
    pub const HELPER_BYTES: u64 = PIECE as u64 * 44
        + super::matcher::bytes::BUFFER_BYTES
        + super::matcher::BLOCK_BYTES
        + SCRATCH_FLOOR;
}

/// Bytes a plan keeps per job: its row set and its cost.
const JOB_BYTES: u64 = (size_of::<u32>() + size_of::<u64>()) as u64;
/// Bytes of a plan's family list, at most `n / 2 + 1` entries.
const FAMILIES_BYTES: u64 = 16 * size_of::<(u32, Kind)>() as u64;

/// What counting one chunk of `chunk` stored words takes beyond the
/// half-boards' own vectors: a stored word's copy and cut value in the
/// sieve (12 bytes); the bit-sliced tables of at most [`PIECE`] words at
/// once (4 bytes a word and chunk of 5 bits, 44 at n = 28); the sieve's
/// histograms (16 bytes a bucket), the starts of each bucket's split
/// places on both sides and their copy while sorting (24 bytes a place,
/// up to 8 a bucket), the shared bits of its greedy ranking's sample
/// (a million words), the byte tables' gathered queries (160 KiB; the
/// byte tables themselves take the sliced ones' buffer, 8 MiB at most)
/// and a block of buckets' byte tables (8 MiB at most).
/// The asked
/// words' copies and cut values (12 bytes each) are a chunk of them at
/// most, or the right side (at most a chunk) where it is asked once for
/// several chunks.
const fn chunk_bytes(chunk: u64) -> u64 {
    chunk * 12
        + PIECE as u64 * 44
        + (16 << MAX_CUTS)
        + (24 << (MAX_CUTS + MAX_SPLIT))
        + (8 << 20)
        + super::matcher::bytes::BUFFER_BYTES
        + super::matcher::BLOCK_BYTES
}

/// Bytes a thread's [`Scratch`](super::Scratch) takes per candidate of the largest job
/// it runs (the half-board lists, the sieve's copies and cut values, the
/// matcher's tables): a candidate yields at most one word, and most yield
/// none. Measured over every job, on one scratch, for n = 15 to 19: at
/// most 17.7 (n = 16, the sliced stage) and 12.1 (n = 16, the fixed
/// middle; 11.5 at n = 18, 8.4 at 19). Smaller boards are the floor's.
pub const SCRATCH_PER_CANDIDATE: u64 = 24;

/// Bytes of a scratch's smallest vectors, whatever the jobs.
const SCRATCH_FLOOR: u64 = 64 << 10;

/// [`JoinPlan::scratch_bytes_at`] of a plan whose quarter side is `side`,
/// whose jobs build their slices where `per_job`, and whose largest job
/// and row set are `largest`, in chunks of `1 << chunk_log` words.
fn scratch_bytes_of(side: u32, per_job: bool, largest: Largest, chunk_log: u32) -> u64 {
    let chunk = 1u64 << chunk_log;
    let slices = if per_job {
        4 * (largest.slice * size_of::<Piece>() as u64 + 4 * ((1 << side) + 1))
    } else {
        0
    };
    let right = largest.right.min(chunk);
    let asked = right.max(chunk) * 12;
    let chunked = right * 8 + asked + chunk * 8 + chunk_bytes(chunk);
    let buffers = (largest.candidates * SCRATCH_PER_CANDIDATE).min(chunked);
    SCRATCH_FLOOR + buffers + slices
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::join::scratch::CHUNK_LOG;
    use crate::count::join::{MIN_JOIN_N, Scratch};

    /// The bound a count of n = 28 checks before it starts (issue 38):
    /// at most 8 GiB a thread, so that `count 28 -j 2` starts on a 24 GiB
    /// machine (it was 36 GiB on 2 threads while a job held its right
    /// half-boards whole). From the pinned sizes: no plan is built.
    #[test]
    fn the_largest_board_fits_in_8_gib_a_thread() {
        const GIB: u64 = 1 << 30;
        for n in [26, 27, 28] {
            let one = JoinPlan::count_bytes_floor(n, Stage::FixedMiddle, 1);
            let two = JoinPlan::count_bytes_floor(n, Stage::FixedMiddle, 2);
            assert!(two - one <= 8 * GIB, "n = {n}: {} a thread", two - one);
            assert!(two <= 16 * GIB, "n = {n}: {two} on 2 threads");
        }
    }

    /// n = 28 on machines of 2 GiB a core (issue 50): a unit in the
    /// fastest chunks takes under 6 GiB, so 64 threads on 128 GiB hold 20
    /// units at once (8 are enough) beside the plan and the runner's
    /// records (under 2 GiB: 1.7) and each thread's helper (19 MiB, a
    /// block's byte tables with it); on 2 threads
    /// 4 GiB hold one unit in chunks of 2^26; one a thread takes 1.58 GiB
    /// in chunks of 2^24. From the pinned sizes: no plan is built.
    #[test]
    fn n_28_fits_machines_of_2_gib_a_core() {
        const GIB: f64 = (1u64 << 30) as f64;
        let (n, stage) = (28, Stage::FixedMiddle);
        let largest = sizes::largest(n, stage).expect("n = 28's largest job is pinned");
        let side = side(&Geometry::new(n), None);
        let unit = |log| scratch_bytes_of(side, true, largest, log) as f64 / GIB;
        let once = JoinPlan::count_bytes_floor(n, stage, 0) as f64 / GIB;
        let helper = JoinPlan::HELPER_BYTES as f64 / GIB;
        assert!((5.5..6.0).contains(&unit(CHUNK_LOG)), "{}", unit(CHUNK_LOG));
        assert!(2.0 + 20.0 * unit(CHUNK_LOG) + 64.0 * helper <= 128.0);
        assert!(once < 0.5 && helper < 0.02, "{once} {helper}");
        assert!(unit(26) + 2.0 * helper <= 3.5, "{}", unit(26));
        assert!((1.5..1.6).contains(&unit(24)), "{}", unit(24));
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
                let (estimate, used) = (plan.scratch_bytes_at(CHUNK_LOG), scratch.bytes());
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
}
