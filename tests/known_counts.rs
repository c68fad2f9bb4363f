//! The engines against the published values: OEIS A000170 for the totals,
//! OEIS A059963 for the counts per column of row 0.

use std::sync::Mutex;

use crate::common::{parallel, serial};
use queens::{Config, Counter, Engine, MAX_SPLIT_DEPTH, Observer, Plan, Shape, UnitDone, known};

#[test]
fn serial_totals_match_a000170_up_to_15() {
    for n in 1..=15 {
        let got = serial(n, &Config::default(), &()).unwrap();
        assert_eq!(Some(got.solutions), known::total(n), "n = {n}");
    }
}

#[test]
fn parallel_totals_match_a000170_up_to_15() {
    for n in 1..=15 {
        let got = parallel(n, 2, &()).unwrap();
        assert_eq!(Some(got.solutions), known::total(n), "n = {n}");
    }
}

#[test]
fn totals_never_depend_on_threads_or_split_depth() {
    for n in 1..=12 {
        let total = serial(n, &Config::default(), &()).unwrap().solutions;
        for threads in [1, 2, 3, 7] {
            for split_depth in [1, 2, 3] {
                let par = split(n, split_depth).threads(threads).run().unwrap();
                assert_eq!(
                    par.solutions, total,
                    "n = {n}, {threads} threads, split {split_depth}"
                );
                assert_eq!(par.threads, threads);
                assert_eq!(par.split_depth, Some(split_depth));
                let ser = split(n, split_depth).threads(1).run().unwrap();
                assert_eq!(ser.solutions, total, "n = {n}, serial, split {split_depth}");
            }
        }
    }
}

/// The mirror engine's count of `n`, split on `rows` rows.
fn split(n: u32, rows: u32) -> Counter<'static> {
    Counter::new(n).engine(Engine::Mirror).split_depth(rows)
}

#[test]
fn the_deepest_splits_agree_too() {
    for split_depth in 4..=MAX_SPLIT_DEPTH {
        let count = split(13, split_depth).threads(3).run().unwrap();
        assert_eq!(count.solutions, 73_712);
    }
}

/// Collects each unit's contribution, to check the units one by one.
#[derive(Default)]
struct Recorder {
    started: Mutex<usize>,
    done: Mutex<Vec<(u32, u128)>>,
}

impl Observer for Recorder {
    fn start(&self, units: usize, _total_cost: u128) {
        *self.started.lock().unwrap() = units;
    }
    fn unit_done(&self, done: &UnitDone) {
        self.done.lock().unwrap().push((done.id, done.solutions));
    }
}

/// The row-0 column of each recorded unit of the mirror plan of `n` at
/// `split_depth` (read from its descriptor, `rows:c0,c1,...`), with the
/// unit's contribution.
fn by_first_column(n: u32, split_depth: u32, done: Vec<(u32, u128)>) -> Vec<(usize, u128)> {
    let shape = Shape::new(n, Engine::Mirror, Some(split_depth));
    let plan = Plan::new(shape, &Config::default()).unwrap();
    done.into_iter()
        .map(|(id, s)| {
            let descriptor = plan.unit(id).unwrap().descriptor;
            let columns = descriptor.strip_prefix("rows:").unwrap();
            let first = columns.split(',').next().unwrap().parse().unwrap();
            (first, s)
        })
        .collect()
}

#[test]
fn the_observer_sees_every_unit_once_and_the_counts_sum_to_the_total() {
    for (n, split_depth) in [(9, 1), (12, 2), (13, 3)] {
        let recorder = Recorder::default();
        let counter = split(n, split_depth).threads(3).observer(&recorder);
        let count = counter.run().unwrap();
        let mut done = recorder.done.into_inner().unwrap();
        assert_eq!(*recorder.started.lock().unwrap(), count.units);
        assert_eq!(done.len(), count.units);
        done.sort_by_key(|(id, _)| *id);
        let ids: Vec<u32> = done.iter().map(|(id, _)| *id).collect();
        let expected: Vec<u32> = (0..u32::try_from(count.units).unwrap()).collect();
        assert_eq!(ids, expected, "each id exactly once");
        assert_eq!(done.iter().map(|(_, s)| s).sum::<u128>(), count.solutions);
    }
}

/// OEIS A059963, rows 8 to 11: solutions with the row-0 queen in column k.
const A059963: [&[u128]; 4] = [
    &[4, 8, 16, 18, 18, 16, 8, 4],
    &[28, 30, 47, 44, 54, 44, 47, 30, 28],
    &[64, 48, 65, 93, 92, 92, 93, 65, 48, 64],
    &[96, 219, 209, 295, 346, 350, 346, 295, 209, 219, 96],
];

#[test]
fn per_unit_counts_by_first_column_match_a059963() {
    for (row, n) in A059963.iter().zip(8u32..) {
        for split_depth in [1, 2, 3] {
            let recorder = Recorder::default();
            let counter = split(n, split_depth).threads(2).observer(&recorder);
            counter.run().unwrap();
            // A unit of weight 2 in column c < n/2 stands for column c and
            // its mirror n-1-c; in the middle column it stands for both
            // halves of that column. So: unweighted sums for the left half,
            // weighted for the middle, mirrored for the right.
            let mut by_column = vec![0u128; n as usize];
            // Every unit of n > 1 has weight 2.
            let done = recorder.done.into_inner().unwrap();
            for (c, solutions) in by_first_column(n, split_depth, done) {
                if 2 * c + 1 == n as usize {
                    by_column[c] += solutions;
                } else {
                    by_column[c] += solutions / 2;
                    by_column[n as usize - 1 - c] += solutions / 2;
                }
            }
            assert_eq!(&by_column[..], *row, "n = {n}, split {split_depth}");
        }
    }
}

#[test]
fn constellations_totals_match_a000170_from_4_to_16() {
    // n = 17 and 18 are counted by CI through the binary (.ci/run).
    for n in 4..=16 {
        let got = queens::Counter::new(n)
            .engine(Engine::Constellations)
            .threads(2)
            .run()
            .unwrap();
        assert_eq!(Some(got.solutions), known::total(n), "n = {n}");
        assert_eq!(
            got.units,
            Plan::new(
                Shape::new(n, Engine::Constellations, None),
                &Config::default()
            )
            .unwrap()
            .len()
        );
    }
}

#[test]
fn constellations_units_agree_with_the_plain_recursion_one_by_one() {
    // The kernel's count of each unit, through the public API, against the
    // second method `verify` uses, for every unit of three boards.
    for n in [8, 11, 13] {
        let plan = Plan::new(
            Shape::new(n, Engine::Constellations, None),
            &Config::default(),
        )
        .unwrap();
        let count = queens::Counter::new(n)
            .engine(Engine::Constellations)
            .threads(2)
            .run_plan(&plan)
            .unwrap();
        assert_eq!(count.unit_counts.len(), plan.len());
        for &(id, got) in &count.unit_counts {
            assert_eq!(plan.count_plainly(id), Ok(Some(got)), "n = {n}, unit {id}");
        }
    }
    let mirror = Plan::new(Shape::new(8, Engine::Mirror, None), &Config::default()).unwrap();
    assert_eq!(mirror.count_plainly(0), Ok(None));
}
