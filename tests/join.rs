//! The join engine against OEIS A000170, against its own reference stage,
//! and against the backtracking engine; its matcher against the naive one.

use std::sync::Mutex;

use crate::common::parallel;
use proptest::prelude::*;
use queens::internals::{
    JoinStage, SlicedMatcher, count_naive, count_portable, join_stage_plan, query,
};
use queens::{Config, Count, Counter, Engine, Observer, Plan, Shape, UnitDone, known};

const MIN_N: u32 = 4;

/// Counts `n` with the join at `stage` on `threads` threads.
fn count_join(n: u32, stage: JoinStage, threads: usize, observer: &dyn Observer) -> Count {
    let plan = join_stage_plan(n, stage, &Config::default()).unwrap();
    Counter::new(n)
        .engine(Engine::Join)
        .threads(threads)
        .observer(observer)
        .run_plan(&plan)
        .unwrap()
}

#[test]
fn join_totals_match_a000170_from_4_to_16() {
    for n in MIN_N..=16 {
        let got = count_join(n, JoinStage::FixedMiddle, 2, &());
        assert_eq!(Some(got.solutions), known::total(n), "n = {n}");
    }
}

#[test]
fn the_odd_scheme_equals_unequal_halves_up_to_15() {
    for n in (5..=15).step_by(2) {
        let fixed = count_join(n, JoinStage::FixedMiddle, 2, &());
        let unequal = count_join(n, JoinStage::Symmetric, 2, &());
        assert_eq!(fixed.solutions, unequal.solutions, "n = {n}");
        assert_ne!(
            fixed.units, unequal.units,
            "n = {n}: two different job lists"
        );
    }
}

#[test]
fn every_stage_equals_the_reference() {
    for n in MIN_N..=12 {
        let reference = count_join(n, JoinStage::Reference, 2, &()).solutions;
        for stage in [
            JoinStage::Sliced,
            JoinStage::Symmetric,
            JoinStage::FixedMiddle,
        ] {
            let got = count_join(n, stage, 2, &()).solutions;
            assert_eq!(got, reference, "n = {n}, {stage:?}");
        }
        let mirror = parallel(n, 2, &()).unwrap().solutions;
        assert_eq!(reference, mirror, "n = {n}: join reference vs backtracking");
    }
}

#[test]
fn totals_never_depend_on_the_thread_count() {
    for n in [13, 14] {
        let want = known::total(n).unwrap();
        for t in [1, 2, 3, 7] {
            for stage in [JoinStage::Symmetric, JoinStage::FixedMiddle] {
                let got = count_join(n, stage, t, &());
                assert_eq!(
                    (got.solutions, got.threads),
                    (want, t),
                    "n = {n}, {stage:?}"
                );
            }
        }
    }
}

#[derive(Default)]
struct Recorder {
    start: Mutex<(usize, u128)>,
    done: Mutex<Vec<(u32, u128, u64)>>,
}

impl Observer for Recorder {
    fn start(&self, units: usize, total_cost: u128) {
        *self.start.lock().unwrap() = (units, total_cost);
    }
    fn unit_done(&self, done: &UnitDone) {
        self.done
            .lock()
            .unwrap()
            .push((done.id, done.solutions, done.cost));
    }
}

#[test]
fn the_observer_sees_every_job_once_with_its_cost() {
    let recorder = Recorder::default();
    let count = count_join(13, JoinStage::FixedMiddle, 3, &recorder);
    let (units, total_cost) = *recorder.start.lock().unwrap();
    let mut done = recorder.done.into_inner().unwrap();
    done.sort_by_key(|d| d.0);
    assert_eq!(units, count.units);
    assert_eq!(
        done.iter().map(|d| d.0).collect::<Vec<_>>(),
        (0..units as u32).collect::<Vec<_>>()
    );
    assert_eq!(done.iter().map(|d| d.1).sum::<u128>(), count.solutions);
    assert_eq!(
        done.iter().map(|d| u128::from(d.2)).sum::<u128>(),
        total_cost
    );
    let plan = Plan::new(Shape::new(13, Engine::Join, None), &Config::default()).unwrap();
    for (unit, (_, _, cost)) in plan.units().zip(&done) {
        assert_eq!(unit.cost, *cost, "costs are known before the jobs run");
    }
}

#[test]
fn sizes_outside_the_join_are_refused_with_the_join_s_range() {
    // See: issue 9 (the join's refusals used to name the kernel's 1..=32).
    for (n, stage, max) in [
        (3, JoinStage::Symmetric, 24),
        (25, JoinStage::Symmetric, 24),
        (29, JoinStage::FixedMiddle, 28),
    ] {
        let err = join_stage_plan(n, stage, &Config::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("board size {n} is out of range: the {stage} engine takes n from 4 to {max}")
        );
    }
    let err = Plan::new(Shape::new(29, Engine::Join, None), &Config::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "board size 29 is out of range: the join engine takes n from 4 to 28"
    );
}

/// Random words of about the density half-boards have (a quarter of the
/// bits set); callers cut them to their window.
fn words(len: usize) -> impl Strategy<Value = Vec<u64>> {
    proptest::collection::vec((any::<u64>(), any::<u64>()).prop_map(|(a, b)| a & b), len)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The sliced matcher, dispatched for this CPU (AVX-512 for blocks of
    /// 512 words, AVX-512VL for 256 and 128, hardware popcount for 64) and
    /// in its portable form, equals the naive count on sets at every block
    /// edge of every width, for windows of 2 to 10 chunks, with every
    /// weight a query can carry and the all-zero query among the queries
    /// (padding must never count).
    #[test]
    fn sliced_matchers_equal_the_naive_one(
        len in prop::sample::select(vec![0usize, 1, 23, 24, 63, 64, 65, 128, 129, 200, 256, 257, 511, 512, 513]),
        bits in prop::sample::select(vec![6u32, 30, 34, 38, 46]),
        seed_words in words(513),
        asked in proptest::collection::vec((any::<u64>().prop_map(|q| q & q.rotate_left(7)), 0u32..4), 0..40),
    ) {
        let mask = (1u64 << bits) - 1;
        let stored: Vec<u64> = seed_words[..len].iter().map(|w| w & mask).collect();
        let mut queries: Vec<u64> = asked.iter().map(|&(q, log)| query(q & mask, 1 << log)).collect();
        queries.push(0);
        let want = count_naive(&stored, &queries);
        prop_assert_eq!(SlicedMatcher::default().count(&stored, &queries, bits), want);
        prop_assert_eq!(count_portable(&stored, &queries, bits), want);
    }
}

/// About two seconds on 2 cores in a release build (issue 12), half a
/// minute with the test profile's debug assertions.
#[test]
#[ignore = "slow (about half a minute): .ci/run runs it"]
fn join_totals_match_a000170_for_17_and_18() {
    for n in [17, 18] {
        // On every core: a count that names no threads.
        let got = Counter::new(n).engine(Engine::Join).run().unwrap();
        assert_eq!(Some(got.solutions), known::total(n), "n = {n}");
    }
}
