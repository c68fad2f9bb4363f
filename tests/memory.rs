//! The join past n = 24 counts in memory bounded by its units, not by the
//! board: a sample of n = 26 units, whose whole quarter tables would take
//! 51 GB, counted on two threads, the process's own peak read back.

use std::process::Command;

use queens::{Config, Counter, Engine, Plan, Shape};

/// Set in the process this test starts to run itself alone.
const CHILD: &str = "QUEENS_TEST_MEMORY_CHILD";

/// The target for n = 26 on two threads.
const TARGET: u64 = 6 << 30;

/// The units counted: those nearest this cost, about a second each on
/// one core of the development machine (n = 26 units took 0.5e-14 to
/// 3e-14 s per unit of cost there: results/amd-epyc-2c/2026-11-24-join-reach.txt).
const SAMPLE_COST: u64 = 50_000_000_000_000;

#[test]
#[ignore = "slow (about a minute): .ci/run runs it"]
fn a_sample_of_n_26_counts_in_bounded_memory() {
    if std::env::var_os(CHILD).is_none() {
        // Again, alone in a fresh process, so that the peak it reads is
        // this count's and no other test's.
        let status = Command::new(std::env::current_exe().unwrap())
            .args([
                "memory::a_sample_of_n_26_counts_in_bounded_memory",
                "--exact",
                // Run whether this one ran as ignored or not.
                "--include-ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, "1")
            .status()
            .unwrap();
        assert!(status.success(), "the count in its own process failed");
        return;
    }
    let plan = Plan::new(Shape::new(26, Engine::Join, None), &Config::default()).unwrap();
    let mut ids: Vec<u32> = (0..plan.len() as u32).collect();
    ids.sort_by_key(|&id| (plan.cost(id).unwrap().abs_diff(SAMPLE_COST), id));
    ids.truncate(4);
    let count = Counter::new(26)
        .engine(Engine::Join)
        .threads(2)
        .units(&ids)
        .run_plan(&plan)
        .unwrap();
    assert_eq!(count.units, 4);
    assert!(count.solutions > 0, "{count:?}");

    let peak = peak_bytes();
    let bound = plan.count_memory(2, ids.len());
    println!(
        "n = 26, units {ids:?}: {} solutions, peak {} MB, bound {} MB",
        count.solutions,
        peak >> 20,
        bound >> 20
    );
    assert!(peak > 0, "no VmHWM in /proc/self/status");
    assert!(
        peak <= TARGET,
        "peak {peak} bytes is over the target {TARGET}"
    );
    assert!(
        peak <= bound,
        "peak {peak} bytes is over the plan's own bound {bound}"
    );
}

/// The process's peak resident memory, from `VmHWM` (0 where /proc has
/// none: the test then fails, as it cannot check anything).
fn peak_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let kb = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
            kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok()
        })
        .map_or(0, |kb| kb * 1024)
}
