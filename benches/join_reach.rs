//! How far the join reaches: for one board size, the time the plan takes,
//! a random sample of its units counted one per thread, and the
//! process's peak memory; from them, the whole count projected in
//! core-hours with a 95% interval.
//!
//! `cargo bench --bench join_reach -- N [per=K] [seed=S] [cap=SECONDS]
//! [threads=T] [chunk=C]`
//! (default 3 units a stratum, a fresh seed, printed, no cap, a unit on
//! each core, the fastest chunks; `chunk=C`: chunks of 2^C words, as a
//! count takes where its fastest would not fit in memory;
//! `benches/join-reach.sh` runs n = 23..28 and writes results/);
//! `... -- N ids=A,B,...` counts those units only and projects nothing.
//!
//! Each unit is counted alone on a fresh scratch
//! (`queens::internals::join_unit_tally`), which also says what it did:
//! one line a unit on stderr with its half-boards, the pairs its matcher
//! tested, its solutions and where its time went (the profile of the
//! join's growth in docs/how-it-counts.md is made of these lines).
//!
//! The sample is `queens estimate`'s: the units, sorted by cost, cut into
//! ten strata of about equal total cost, `K` drawn from each, so that the
//! few costly units that hold much of the work are always seen; and so is
//! the projection (`queens::internals::project_sample`): the separate
//! ratio estimator, Student's t interval with the sample's own degrees of
//! freedom, and, where A000170 has the total, the sample's projection of
//! it printed beside it and used as control variate. Until 2026-11-27 the
//! seed was fixed (2026): every published run counted the same units,
//! and the join was tuned on them. Where a unit is projected (from the
//! ratio of the units counted before it) to take longer than `cap`
//! seconds, it is not counted: the line says so, and its stratum is
//! projected from its other units, or from the others' ratio with the
//! widest interval.

use std::sync::Mutex;
use std::time::Instant;

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use queens::internals::{SampleTotal, estimate_strata, join_unit_tally, project_sample};
use queens::{Config, Engine, Plan, Shape};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |key: &str| {
        args.iter()
            .find_map(|a| a.strip_prefix(key)?.strip_prefix('='))
            .map(str::to_owned)
    };
    let n: u32 = args
        .iter()
        .find_map(|a| a.parse().ok())
        .expect("usage: join_reach N [per=K] [seed=S] [cap=SECONDS]");
    let per: usize = value("per").map_or(3, |k| k.parse().expect("per=K"));
    let seed: u64 = value("seed").map_or_else(
        || RandomState::new().build_hasher().finish() >> 11,
        |s| s.parse().expect("seed=S"),
    );
    let cap: f64 = value("cap").map_or(f64::INFINITY, |c| c.parse().expect("cap=SECONDS"));
    let threads: usize = value("threads").map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
        |t| t.parse().expect("threads=T"),
    );
    let chunk: Option<u32> = value("chunk").map(|c| c.parse().expect("chunk=C"));
    if let Some(chunk) = chunk {
        println!("n = {n}: chunks of 2^{chunk} words");
    }

    let started = Instant::now();
    let plan = Plan::new(Shape::new(n, Engine::Join, None), &Config::default())
        .expect("n is in the join's range");
    let plan_secs = started.elapsed().as_secs_f64();
    let plan_peak = peak_bytes();

    let started = Instant::now();
    plan.prepare();
    let prepare_secs = started.elapsed().as_secs_f64();

    // `ids=A,B,...`: count those units, one per thread, and say what
    // they did; no projection.
    if let Some(ids) = value("ids") {
        let ids: Vec<u32> = ids
            .split(',')
            .map(|id| id.parse().expect("ids=A,B"))
            .collect();
        let queue = Mutex::new(ids.into_iter().rev().collect::<Vec<u32>>());
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    while let Some(id) = queue.lock().unwrap().pop() {
                        count_one(&plan, n, id, chunk);
                    }
                });
            }
        });
        println!(
            "n = {n}: plan {plan_secs:.1} s, peak {:.2} GiB",
            gib(peak_bytes())
        );
        return;
    }
    // The sample `queens estimate` would draw: the plan's units cut into
    // strata of equal cost, the first `per` of each in the seed's order.
    let strata = estimate_strata(&plan, seed);
    let sample: Vec<u32> = strata
        .iter()
        .flat_map(|s| s.iter().take(per))
        .copied()
        .collect();

    // Cheapest first, so that the cap can be judged from the ratio
    // measured below each unit; one unit a thread.
    let mut order = sample.clone();
    order.sort_by_key(|&id| std::cmp::Reverse((plan.cost(id).unwrap(), id)));
    let counted: Mutex<Vec<(u32, f64, f64)>> = Mutex::new(Vec::new());
    let skipped: Mutex<Vec<u32>> = Mutex::new(Vec::new());
    let queue = Mutex::new(order);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let Some(id) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let cost = plan.cost(id).unwrap() as f64;
                    let rate = {
                        let done = counted.lock().unwrap();
                        let (c, s) = (done.iter()).fold((0.0, 0.0), |(c, s), &(id, secs, _)| {
                            (c + plan.cost(id).unwrap() as f64, s + secs)
                        });
                        if c > 0.0 { s / c } else { 0.0 }
                    };
                    if rate * cost > cap {
                        skipped.lock().unwrap().push(id);
                        continue;
                    }
                    let (secs, solutions) = count_one(&plan, n, id, chunk);
                    counted.lock().unwrap().push((id, secs, solutions as f64));
                }
            });
        }
    });
    let counted = counted.into_inner().unwrap();
    let skipped = skipped.into_inner().unwrap();

    // `queens estimate`'s estimator (Student's t, Satterthwaite's degrees
    // of freedom), the known total as control variate where A000170 has
    // one. A stratum with a unit over the cap is projected from fewer
    // units, or from the others' ratio with the widest interval.
    let known = queens::known::total(n);
    let p = project_sample(&plan, &counted, known);
    let hours = |t: &SampleTotal| {
        format!(
            "{:.4e} core-hours, 95% interval {:.4e} to {:.4e} ({:.1} degrees of freedom)",
            t.value / 3600.0,
            (t.low / 3600.0).max(0.0),
            t.high / 3600.0,
            t.degrees
        )
    };
    let unit_secs: f64 = counted.iter().map(|t| t.1).sum();
    let solutions = match known {
        Some(q) => format!(
            "solutions projected {:.4e}, {:.3} x A000170 ({:+.1} standard errors); \
             corrected by it: {}",
            p.control.value,
            p.control.value / q as f64,
            (p.control.value - q as f64) / p.control.error.max(f64::MIN_POSITIVE),
            hours(&p.value)
        ),
        None => format!(
            "solutions projected {:.4e} (95% interval {:.4e} to {:.4e}), no A000170 value to \
             correct by",
            p.control.value, p.control.low, p.control.high
        ),
    };
    println!(
        "n = {n}: seed {seed}, plan {plan_secs:.1} s, tables {prepare_secs:.1} s, {} units, peak \
         after plan {:.2} GiB; sampled {} units ({unit_secs:.0} core-s){}, peak {:.2} GiB; \
         projected {}; {solutions}",
        plan.len(),
        gib(plan_peak),
        counted.len(),
        if skipped.is_empty() {
            String::new()
        } else {
            format!(", {} over the cap not counted", skipped.len())
        },
        gib(peak_bytes()),
        hours(&p.uncorrected),
    );
}

/// Counts unit `id` alone, says on stderr what it did, and returns the
/// seconds it took and its solutions.
fn count_one(plan: &Plan, n: u32, id: u32, chunk: Option<u32>) -> (f64, u128) {
    let cost = plan.cost(id).expect("in the plan");
    let start = Instant::now();
    let (count, tally) = join_unit_tally(plan, id, chunk).expect("a unit of the join's plan");
    let secs = start.elapsed().as_secs_f64();
    let counting = tally.counting.as_secs_f64();
    eprintln!(
        "n = {n}: unit {id} cost {cost} took {secs:.2} s: made {} left ({} passes) and {} right \
         half-boards in {:.2} s, tested {:.4e} pairs in {counting:.2} s (sieve {:.2} s, tables \
         {:.2} s), {count} solutions; peak so far {:.2} GiB",
        tally.left,
        tally.left_passes,
        tally.right,
        secs - counting,
        tally.tested as f64,
        tally.sieving.as_secs_f64(),
        tally.building.as_secs_f64(),
        gib(peak_bytes()),
    );
    (secs, count)
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1u32 << 30)
}

/// The process's peak resident memory (`VmHWM`), 0 where /proc has none.
fn peak_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}
