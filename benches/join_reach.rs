//! How far the join reaches: for one board size, the time the plan takes,
//! a seeded random sample of its units counted one per thread, and the
//! process's peak memory; from them, the whole count projected in
//! core-hours with a 95% interval.
//!
//! `cargo bench --bench join_reach -- N [units=K] [seed=S] [cap=SECONDS]`
//! (default 24 units, seed 2026, no cap; `benches/join-reach.sh` runs
//! n = 23..28 and writes results/); `... -- N ids=A,B,...` counts those
//! units only and projects nothing.
//!
//! Each unit is counted alone on a fresh scratch
//! (`queens::internals::join_unit_tally`), which also says what it did:
//! one line a unit on stderr with its half-boards, the pairs its matcher
//! tested, its solutions and where its time went (the profile of the
//! join's growth in docs/how-it-counts.md is made of these lines).
//!
//! The sample is stratified: the units, sorted by cost, are cut into
//! `K / 2` strata of about equal total cost (as `queens estimate` cuts
//! them) and two are drawn from each, so that the few costly units that
//! hold much of the work are always seen. The projection is the
//! separate ratio estimator of `queens estimate`: in each stratum, time
//! per unit of cost times the stratum's cost. Where a unit is projected
//! (from the ratio of the strata below it) to take longer than `cap`
//! seconds, it is not counted and its stratum takes the ratio of the
//! strata counted: the line says so, and that projection is an
//! extrapolation, not a measurement.

use std::sync::Mutex;
use std::time::Instant;

use queens::internals::join_unit_tally;
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
        .expect("usage: join_reach N [units=K] [seed=S] [cap=SECONDS]");
    let wanted: usize = value("units").map_or(24, |k| k.parse().expect("units=K"));
    let seed: u64 = value("seed").map_or(2026, |s| s.parse().expect("seed=S"));
    let cap: f64 = value("cap").map_or(f64::INFINITY, |c| c.parse().expect("cap=SECONDS"));

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
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    while let Some(id) = queue.lock().unwrap().pop() {
                        count_one(&plan, n, id);
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
    let mut ids: Vec<u32> = (0..plan.len() as u32).collect();
    ids.sort_by_key(|&id| (plan.cost(id).expect("in the plan"), id));
    let total_cost: u128 = ids
        .iter()
        .map(|&id| u128::from(plan.cost(id).unwrap()))
        .sum();
    let strata_count = (wanted / 2).max(1) as u128;
    let mut state = seed ^ u64::from(n) << 32;
    let mut strata: Vec<Stratum> = Vec::new();
    let mut first = 0;
    let mut cost = 0u128;
    for (i, &id) in ids.iter().enumerate() {
        cost += u128::from(plan.cost(id).unwrap());
        // Cut where the running cost passes the next share, and at the end.
        let share = total_cost * (strata.len() as u128 + 1) / strata_count;
        if (cost >= share && strata.len() + 1 < strata_count as usize) || i + 1 == ids.len() {
            let units = &ids[first..=i];
            let stratum_cost = units
                .iter()
                .map(|&id| u128::from(plan.cost(id).unwrap()))
                .sum();
            let mut sample: Vec<u32> = (0..2.min(units.len()))
                .map(|_| units[(splitmix64(&mut state) % units.len() as u64) as usize])
                .collect();
            sample.dedup();
            strata.push(Stratum {
                cost: stratum_cost,
                sample,
            });
            first = i + 1;
        }
    }

    // Cheapest strata first, so that the cap can be judged from the
    // ratio measured below each unit; two units at a time, one per thread.
    let times: Mutex<Vec<(u32, u64, f64)>> = Mutex::new(Vec::new());
    let skipped: Mutex<Vec<u32>> = Mutex::new(Vec::new());
    let queue: Mutex<Vec<u32>> =
        Mutex::new(strata.iter().flat_map(|s| s.sample.clone()).rev().collect());
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let Some(id) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let cost = plan.cost(id).unwrap();
                    let ratio = {
                        let t = times.lock().unwrap();
                        let (c, s) = t.iter().fold((0.0, 0.0), |(c, s), &(_, cost, secs)| {
                            (c + cost as f64, s + secs)
                        });
                        if c > 0.0 { s / c } else { 0.0 }
                    };
                    if ratio * cost as f64 > cap {
                        skipped.lock().unwrap().push(id);
                        continue;
                    }
                    let secs = count_one(&plan, n, id);
                    times.lock().unwrap().push((id, cost, secs));
                }
            });
        }
    });
    let times = times.into_inner().unwrap();
    let skipped = skipped.into_inner().unwrap();

    // Separate ratio estimator, with the variance of each stratum's ratio
    // from its (at most two) units; a stratum with one unit or none
    // counted takes the pooled ratio of the counted ones and their spread.
    let pooled = {
        let (c, s) = times.iter().fold((0.0, 0.0), |(c, s), &(_, cost, secs)| {
            (c + cost as f64, s + secs)
        });
        s / c.max(1.0)
    };
    let ratios: Vec<f64> = times
        .iter()
        .map(|&(_, c, s)| s / (c as f64).max(1.0))
        .collect();
    let spread = std_dev(&ratios);
    let (mut total, mut variance, mut extrapolated) = (0.0, 0.0, 0);
    for stratum in &strata {
        let counted: Vec<&(u32, u64, f64)> = times
            .iter()
            .filter(|t| stratum.sample.contains(&t.0))
            .collect();
        let cost = stratum.cost as f64;
        if counted.len() < stratum.sample.len() {
            extrapolated += 1;
        }
        match counted.len() {
            0 => {
                total += pooled * cost;
                variance += (spread * cost).powi(2);
            }
            _ => {
                let (c, s) = counted
                    .iter()
                    .fold((0.0, 0.0), |(c, s), &&(_, cost, secs)| {
                        (c + cost as f64, s + secs)
                    });
                let ratio = s / c.max(1.0);
                total += ratio * cost;
                let r: Vec<f64> = counted
                    .iter()
                    .map(|&&(_, c, s)| s / (c as f64).max(1.0))
                    .collect();
                let sd = if r.len() > 1 { std_dev(&r) } else { spread };
                variance += (sd * cost).powi(2) / r.len() as f64;
            }
        }
    }
    let hours = total / 3600.0;
    let half = 1.96 * variance.sqrt() / 3600.0;
    let unit_secs: f64 = times.iter().map(|t| t.2).sum();
    println!(
        "n = {n}: plan {plan_secs:.1} s, tables {prepare_secs:.1} s, {} units, peak after plan {:.2} GiB; \
         sampled {} units ({unit_secs:.0} core-s){}, peak {:.2} GiB; \
         projected {hours:.4e} core-hours, 95% interval {:.4e} to {:.4e}{}",
        plan.len(),
        gib(plan_peak),
        times.len(),
        if skipped.is_empty() {
            String::new()
        } else {
            format!(", {} over the cap not counted", skipped.len())
        },
        gib(peak_bytes()),
        (hours - half).max(unit_secs / 3600.0),
        hours + half,
        if extrapolated > 0 {
            format!(" ({extrapolated} of {} strata extrapolated)", strata.len())
        } else {
            String::new()
        }
    );
}

/// Counts unit `id` alone, says on stderr what it did, and returns the
/// seconds it took.
fn count_one(plan: &Plan, n: u32, id: u32) -> f64 {
    let cost = plan.cost(id).expect("in the plan");
    let start = Instant::now();
    let (count, tally) = join_unit_tally(plan, id).expect("a unit of the join's plan");
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
    secs
}

struct Stratum {
    cost: u128,
    sample: Vec<u32>,
}

fn std_dev(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (xs.len() - 1) as f64).sqrt()
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

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49eb_311c_e133);
    z ^ (z >> 31)
}
