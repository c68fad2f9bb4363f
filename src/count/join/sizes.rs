//! What the fixed-middle plans of the boards that take seconds to plan
//! look like before they are built: the sizes of their largest job and
//! row set, pinned as the plans computed them, and how long listing the
//! jobs takes.
//!
//! A count's memory is mostly its threads' scratch, which grows with the
//! plan's largest job; finding that job means computing every job's
//! candidates, which is what takes the plan its time (51 s at n = 28 on
//! 2 threads), and counting the quarter's groups needs a walk of every
//! placement on it (most of the rest). Pinning the sizes lets a count that
//! would not fit be refused in milliseconds instead of after the plan
//! (issue 32). The pins are checked against the built plans by the tests
//! (to n = 24 in `cargo test`, every one in an ignored test), and the
//! count checks its memory again once the plan is built, from the plan.
//!
//! This module computes nothing big and never prints.

use super::Stage;

/// The sizes of a plan's largest job and row set, which bound what a
/// thread's scratch grows to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Largest {
    /// The most top-times-bottom candidates one job generates, both sides
    /// together.
    pub candidates: u64,
    /// The most right candidates one job generates.
    pub right: u64,
    /// The most pieces one row set of the quarter square holds.
    pub slice: u64,
}

/// `(n, candidates, right, slice)` of the fixed-middle plans of n = 17 to
/// 28, as [`super::JoinPlan`] computes them (printed by the ignored test
/// `every_pin_is_what_the_plan_computes`).
const LARGEST: [(u32, u64, u64, u64); 12] = [
    (17, 11_320, 9_204, 1_174),
    (18, 52_440, 41_644, 5_366),
    (19, 75_856, 66_640, 5_366),
    (20, 376_120, 300_950, 26_548),
    (21, 521_624, 456_356, 26_548),
    (22, 2_790_320, 2_300_692, 143_140),
    (23, 4_139_054, 3_655_344, 143_140),
    (24, 24_577_848, 21_487_384, 788_698),
    (25, 35_032_728, 31_662_712, 788_698),
    (26, 209_842_740, 188_691_180, 4_684_690),
    (27, 333_229_968, 312_332_436, 4_684_690),
    (28, 2_146_283_982, 1_943_431_672, 29_555_392),
];

/// The sizes of the largest job and row set of the `n`-board's plan with
/// `stage`, where pinned: the fixed middle's, n = 17 to 28.
#[must_use]
pub fn largest(n: u32, stage: Stage) -> Option<Largest> {
    if stage != Stage::FixedMiddle {
        return None;
    }
    LARGEST
        .iter()
        .find(|&&(pinned, ..)| pinned == n)
        .map(|&(_, candidates, right, slice)| Largest {
            candidates,
            right,
            slice,
        })
}

/// Core-seconds the fixed middle's plan of an `n`-board takes to build
/// (group sizes and job costs, both spread over the threads), n = 23 to
/// 28: the user time of `queens plan N` on 2 threads of an AMD EPYC
/// (results/amd-epyc-2c/2026-11-26-plans.txt: wall 0.7 s at n = 23, 3.9 s
/// at 25, 5.6 s at 26, 36 s at 27, 51 s at 28).
const PLAN_CORE_SECONDS: [(u32, f64); 6] = [
    (23, 0.9),
    (24, 1.1),
    (25, 5.7),
    (26, 10.1),
    (27, 60.0),
    (28, 96.0),
];

/// About how many seconds building the `n`-board's plan with `stage`
/// takes on `threads` threads, where it takes more than a second or so on
/// two: `None` for the rest.
#[must_use]
pub fn planning_seconds(n: u32, stage: Stage, threads: usize) -> Option<f64> {
    if stage != Stage::FixedMiddle {
        return None;
    }
    PLAN_CORE_SECONDS
        .iter()
        .find(|&&(pinned, _)| pinned == n)
        .map(|&(_, seconds)| seconds / threads.max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::super::JoinPlan;
    use super::super::scratch::MIN_CHUNK_LOG;
    use super::*;

    fn check_pin(n: u32) {
        let plan = JoinPlan::new(n, Stage::FixedMiddle).unwrap();
        assert_eq!(
            Some(plan.largest()),
            largest(n, Stage::FixedMiddle),
            "n = {n}"
        );
        for threads in [1, 2, 16] {
            let floor = JoinPlan::count_bytes_floor(n, Stage::FixedMiddle, threads);
            let built = plan.bytes()
                + JoinPlan::table_bytes(n, Stage::FixedMiddle)
                + threads as u64 * plan.scratch_bytes_at(MIN_CHUNK_LOG);
            assert_eq!(floor, built, "n = {n}, {threads} threads");
        }
        assert_eq!(JoinPlan::jobs_in(n, Stage::FixedMiddle), plan.len());
    }

    #[test]
    fn the_pins_are_what_the_plans_compute() {
        let last = if cfg!(debug_assertions) { 21 } else { 23 };
        for n in 17..=last {
            check_pin(n);
        }
    }

    /// Prints each pin as the plan computes it: minutes (n = 28 takes
    /// 51 s on 2 threads).
    #[test]
    #[ignore = "builds the plans of n = 17 to 28: minutes"]
    fn every_pin_is_what_the_plan_computes() {
        for n in 17..=28 {
            let l = JoinPlan::new(n, Stage::FixedMiddle).unwrap().largest();
            eprintln!("({n}, {}, {}, {}),", l.candidates, l.right, l.slice);
            check_pin(n);
        }
    }

    #[test]
    fn a_floor_without_pins_is_still_a_floor() {
        for stage in [Stage::Symmetric, Stage::Reference, Stage::Sliced] {
            for n in [8, 12, 14] {
                let plan = JoinPlan::new(n, stage).unwrap();
                let built = plan.bytes()
                    + JoinPlan::table_bytes(n, stage)
                    + plan.scratch_bytes_at(MIN_CHUNK_LOG);
                assert!(JoinPlan::count_bytes_floor(n, stage, 1) <= built, "n = {n}");
            }
        }
        for n in [8, 12, 16] {
            assert!(largest(n, Stage::FixedMiddle).is_none());
            let plan = JoinPlan::new(n, Stage::FixedMiddle).unwrap();
            let built = plan.bytes()
                + JoinPlan::table_bytes(n, Stage::FixedMiddle)
                + plan.scratch_bytes_at(MIN_CHUNK_LOG);
            assert!(JoinPlan::count_bytes_floor(n, Stage::FixedMiddle, 1) <= built);
        }
    }
}
