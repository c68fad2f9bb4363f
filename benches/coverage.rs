//! How often the 95% intervals of `queens estimate` hold the truth, where
//! the truth is known (issue 50).
//!
//! `cargo bench --bench coverage -- time N [tries=40] [per=K[,K...]]
//! [seed=S] [warm=W]` counts every unit of `count N`'s plan, each unit's
//! CPU time measured on its thread, so that the truth is the whole count's
//! CPU time; draws `tries` samples of `per` units a stratum as `estimate`
//! draws them (seeds S, S+1, ...) and counts their units anew, in turns
//! with the whole count (a slice of it, then a piece of the samples'
//! units, 10 times over: see [`TURNS`]), each after the `W` units that
//! precede it in a whole count (counted, not kept; none by default); and
//! projects the whole count's CPU time from each try's units with
//! `estimate`'s estimator and A000170's total as control variate. CPU
//! time, not wall time: on a shared machine the wall time of a unit is
//! the neighbours' as much as its own. With a list of `per`, each is
//! projected from the same tries' first units of every stratum.
//!
//! `cargo bench --bench coverage -- solutions N [tries=40] [per=K]
//! [seed=S]` draws and counts the samples only, and projects the number
//! of solutions from them (no control: it is the total checked), against
//! A000170, where no whole count is within reach (n = 23..27).
//!
//! One line a try (its seed, units, projection, interval, degrees of
//! freedom, whether it covers), then the share covered, and how many
//! intervals fell below the truth (the count took longer than their top).
//! Without `seed=` the first seed is drawn afresh and printed.
//! `benches/coverage.sh` runs the set in results/.

use std::cell::Cell;
use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::Mutex;
use std::time::Instant;

use queens::internals::{SampleTotal, estimate_strata, project_sample};
use queens::{Config, Engine, Executor, Observer, Plan, Runner, Shape, UnitDone, known};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |key: &str| {
        args.iter()
            .find_map(|a| a.strip_prefix(key)?.strip_prefix('='))
            .map(str::to_owned)
    };
    let usage = "usage: coverage time|solutions N [tries=T] [per=K[,K...]] [seed=S] [warm=W]";
    let mode = args
        .iter()
        .find(|a| *a == "time" || *a == "solutions")
        .expect(usage)
        .clone();
    let n: u32 = args.iter().find_map(|a| a.parse().ok()).expect(usage);
    let tries: u64 = value("tries").map_or(40, |t| t.parse().expect("tries=T"));
    let pers: Vec<usize> = value("per").map_or(vec![2], |k| {
        k.split(',')
            .map(|k| k.parse().expect("per=K[,K...]"))
            .collect()
    });
    let most = pers.iter().copied().max().expect("per=K[,K...]");
    let warm: usize = value("warm").map_or(0, |k| k.parse().expect("warm=K"));
    let seed: u64 = value("seed").map_or_else(
        // Below 2^53, as `queens estimate` draws them.
        || RandomState::new().build_hasher().finish() >> 11,
        |s| s.parse().expect("seed=S"),
    );
    let truth_solutions = known::total(n).expect("A000170 has this n") as f64;

    let engine = Engine::for_count(n, None, Executor::Cpu, None);
    let plan = Plan::new(Shape::new(n, engine, None), &Config::default()).expect("n in range");
    plan.prepare();
    println!(
        "# {mode} n = {n}: {} engine, {} units, {pers:?} a stratum, {tries} tries from seed \
         {seed}",
        engine.name(),
        plan.len()
    );

    // Each try's first units of every stratum, as many as the most asked
    // for; fewer a stratum are the first of them, as `estimate` takes them.
    let drawn: Vec<Vec<Vec<u32>>> = (0..tries)
        .map(|t| {
            (estimate_strata(&plan, seed + t).iter())
                .map(|s| s.iter().take(most).copied().collect())
                .collect()
        })
        .collect();
    let samples = |per: usize| -> Vec<Vec<u32>> {
        (drawn.iter())
            .map(|strata| {
                strata
                    .iter()
                    .flat_map(|s| s.iter().take(per))
                    .copied()
                    .collect()
            })
            .collect()
    };

    // The whole count and every try's units, counted anew, in turns: a
    // slice of the whole count, then a piece of the tries' units, so that
    // the truth and each try are timed over the same minutes. A shared
    // machine's speed drifts by a few percent from minute to minute, CPU
    // time or not (the pieces' own ratios below show by how much), and
    // 20 units a stratum make intervals of 2 to 3%: timed apart, the
    // drift between the two, not the estimator, decides whether one
    // covers the other.
    let mut whole: HashMap<u32, (u32, f64, f64)> = HashMap::new();
    let mut retimed: HashMap<u32, (u32, f64, f64)> = HashMap::new();
    // Where each unit ended among the re-timed ones and in the whole
    // count: a try's units in that order make its blocks for the drift.
    let mut ended: HashMap<u32, usize> = HashMap::new();
    let truth = match mode.as_str() {
        "time" => {
            let started = Instant::now();
            let order = costliest_first(&plan);
            let slices = slices(&plan, &order, TURNS);
            let pieces = pieces(&samples(most).concat(), TURNS, seed);
            let at: HashMap<u32, usize> =
                order.iter().enumerate().map(|(k, &id)| (id, k)).collect();
            for (slice, piece) in slices.iter().zip(&pieces) {
                whole.extend(count(&plan, slice).into_iter().map(|u| (u.0, u)));
                // With `warm=K`, each unit after the K that precede it in
                // a whole count, counted but not kept.
                let mut ids = piece.clone();
                for id in piece {
                    let k = at[id];
                    ids.extend(&order[k.saturating_sub(warm)..k]);
                }
                ids.sort_unstable();
                ids.dedup();
                let kept = count(&plan, &ids)
                    .into_iter()
                    .filter(|u| piece.binary_search(&u.0).is_ok());
                for u in kept {
                    ended.insert(u.0, ended.len());
                    retimed.insert(u.0, u);
                }
            }
            let drift: Vec<f64> = (pieces.iter())
                .map(|piece| {
                    let sum = |times: &HashMap<u32, (u32, f64, f64)>| -> f64 {
                        piece.iter().map(|id| times[id].1).sum()
                    };
                    sum(&retimed) / sum(&whole)
                })
                .collect();
            // The same by stratum, cheapest first: where re-timing costs
            // the same few microseconds a unit, the cheapest units show it.
            let by_stratum: Vec<String> = (estimate_strata(&plan, seed).iter())
                .map(|stratum| {
                    let counted: Vec<u32> = (stratum.iter())
                        .filter(|id| retimed.contains_key(id))
                        .copied()
                        .collect();
                    let sum = |times: &HashMap<u32, (u32, f64, f64)>| -> f64 {
                        counted.iter().map(|id| times[id].1).sum()
                    };
                    format!("x{:.3}", sum(&retimed) / sum(&whole))
                })
                .collect();
            println!(
                "# by stratum, cheapest first, the tries' units took {} their time in the whole \
                 count",
                by_stratum.join(" ")
            );
            let cpu: f64 = whole.values().map(|u| u.1).sum();
            let found: f64 = whole.values().map(|u| u.2).sum();
            assert_eq!(whole.len(), plan.len(), "every unit counted once");
            assert_eq!(found, truth_solutions, "the whole count is A000170's");
            let mut drift = drift;
            drift.sort_by(f64::total_cmp);
            println!(
                "# whole count: {cpu:.2} CPU s in {TURNS} slices, {found} solutions; the tries' \
                 units in {TURNS} pieces between them ({:.2} s wall in all); a piece's units took \
                 x{:.3} to x{:.3} (median x{:.3}) their time in the whole count",
                started.elapsed().as_secs_f64(),
                drift[0],
                drift[drift.len() - 1],
                drift[drift.len() / 2],
            );
            Some(cpu)
        }
        _ => None,
    };

    for &per in &pers {
        let (mut covered, mut covered_plain, mut covered_alone) = (0, 0, 0);
        // Intervals below the truth: the count took longer than their top,
        // the miss a person who budgets by them pays for.
        let (mut covered_sampling, mut under) = (0, 0);
        let mut drifts = Vec::new();
        let mut drifts_alone = Vec::new();
        let mut slower = Vec::new();
        let mut errors = Vec::new();
        for (t, ids) in (0..tries).zip(&samples(per)) {
            let counted: Vec<(u32, f64, f64)> = match truth {
                Some(_) => {
                    let mut ids = ids.clone();
                    ids.sort_by_key(|id| ended[id]);
                    ids.iter().map(|id| retimed[id]).collect()
                }
                None => count(&plan, ids),
            };
            let cpu: f64 = counted.iter().map(|u| u.1).sum();
            let line = match truth {
                Some(truth) => {
                    let p = project_sample(&plan, &counted, Some(truth_solutions as u128));
                    covered += usize::from(holds(&p.value, truth));
                    under += usize::from(truth > p.value.high);
                    covered_sampling += usize::from(holds(&p.sampling, truth));
                    covered_plain += usize::from(holds(&p.uncorrected, truth));
                    drifts.push(p.drift_margin);
                    errors.push(p.value.value / truth - 1.0);
                    // The same units with the times they took in the whole
                    // count: the sampling error alone, and how much slower the
                    // units ran in the sample than there.
                    let before: Vec<(u32, f64, f64)> =
                        counted.iter().map(|u| whole[&u.0]).collect();
                    let alone = project_sample(&plan, &before, Some(truth_solutions as u128));
                    covered_alone += usize::from(holds(&alone.sampling, truth));
                    // The same order with the whole count's times, where
                    // each piece's units were spread over every slice: a
                    // drift seen there is the order's, not the machine's.
                    drifts_alone.push(alone.drift_margin);
                    let ratio = cpu / before.iter().map(|u| u.1).sum::<f64>();
                    slower.push(ratio);
                    format!(
                        "{} | drift {} | sampling alone {} | uncorrected {} | whole count's \
                         times {} | sample x{ratio:.3} slower | solutions x{:.3} ({:+.1} SE)",
                        show(&p.value, truth),
                        p.drift.map_or_else(
                            || "none".to_owned(),
                            |d| format!("{:.1}% (+-{:.1}%)", 100.0 * d, 100.0 * p.drift_margin)
                        ),
                        covers(&p.sampling, truth),
                        show(&p.uncorrected, truth),
                        show(&alone.sampling, truth),
                        p.control.value / truth_solutions,
                        (p.control.value - truth_solutions)
                            / p.control.error.max(f64::MIN_POSITIVE),
                    )
                }
                None => {
                    let p = project_sample(&plan, &counted, None);
                    covered += usize::from(holds(&p.control, truth_solutions));
                    errors.push(p.control.value / truth_solutions - 1.0);
                    format!(
                        "{} | CPU {:.3e} core-hours ({:.3e} to {:.3e}, the drift +-{:.1}%)",
                        show(&p.control, truth_solutions),
                        p.uncorrected.value / 3600.0,
                        p.uncorrected.low / 3600.0,
                        p.uncorrected.high / 3600.0,
                        100.0 * p.drift_margin
                    )
                }
            };
            println!(
                "n = {n} per {per} try {t} seed {} units {} ({cpu:.1} CPU s): {line}",
                seed + t,
                ids.len()
            );
        }
        errors.sort_by(f64::total_cmp);
        let median = |xs: &[f64]| xs.get(xs.len() / 2).copied().unwrap_or(f64::NAN);
        let absolute: Vec<f64> = {
            let mut a: Vec<f64> = errors.iter().map(|e| e.abs()).collect();
            a.sort_by(f64::total_cmp);
            a
        };
        println!(
            "n = {n} {mode}, {per} a stratum: {covered} of {tries} intervals cover the truth \
             ({:.0}%){}; \
             median error {:+.1}%, median |error| {:.1}%",
            100.0 * covered as f64 / tries as f64,
            if truth.is_some() {
                slower.sort_by(f64::total_cmp);
                drifts.sort_by(f64::total_cmp);
                drifts_alone.sort_by(f64::total_cmp);
                format!(
                    " ({under} below the truth), the sampling's interval alone \
                     {covered_sampling}, uncorrected {covered_plain}; with the units' times in \
                     the whole count {covered_alone} of {tries}; the sample's units took x{:.3} \
                     their time there (median); the drift added +-{:.1}% (median; +-{:.1}% from \
                     their times in the whole count)",
                    median(&slower),
                    100.0 * median(&drifts),
                    100.0 * median(&drifts_alone)
                )
            } else {
                String::new()
            },
            100.0 * median(&errors),
            100.0 * median(&absolute),
        );
    }
}

/// How many slices the whole count is counted in, with a piece of the
/// tries' units after each.
const TURNS: usize = 10;

/// `plan`'s units in the order the runner counts them: costliest first,
/// ties by lower id.
fn costliest_first(plan: &Plan) -> Vec<u32> {
    let cost = |id: u32| plan.cost(id).expect("an id of the plan");
    let mut order: Vec<(std::cmp::Reverse<u64>, u32)> = (0..plan.len() as u32)
        .map(|id| (std::cmp::Reverse(cost(id)), id))
        .collect();
    order.sort_unstable();
    order.into_iter().map(|(_, id)| id).collect()
}

/// `order` cut into `k` slices of about equal cost, each of every cost:
/// runs of about equal cost dealt out in turn, 20 to a slice. Slices of
/// one cost each (the costliest first) put a stratum's whole-count time
/// in one stretch of the count: a drift of the machine's speed during it
/// then reads as a slope by stratum (n = 19: the cheapest strata x1.22,
/// the costliest x0.85, re-timed against the whole count).
fn slices(plan: &Plan, order: &[u32], k: usize) -> Vec<Vec<u32>> {
    let runs = 20 * k;
    let cost = |id: u32| plan.cost(id).expect("an id of the plan");
    let total: u128 = order.iter().map(|&id| u128::from(cost(id))).sum();
    let mut out = vec![Vec::new(); k];
    let mut before = 0u128;
    for &id in order {
        // The run this unit's cost starts in, and its slice.
        let run = ((before * runs as u128 / total.max(1)) as usize).min(runs - 1);
        out[run % k].push(id);
        before += u128::from(cost(id));
    }
    out
}

/// `ids`, distinct, dealt into `k` pieces in an order drawn by `seed`,
/// each piece in id order.
fn pieces(ids: &[u32], k: usize, seed: u64) -> Vec<Vec<u32>> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    // SplitMix64 of the id: a shuffle the seed repeats.
    let mix = |id: u32| {
        let mut z = (u64::from(id) ^ seed).wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    ids.sort_unstable_by_key(|&id| (mix(id), id));
    let mut out = vec![Vec::new(); k];
    for (i, id) in ids.into_iter().enumerate() {
        out[i % k].push(id);
    }
    for piece in &mut out {
        piece.sort_unstable();
    }
    out
}

fn holds(total: &SampleTotal, truth: f64) -> bool {
    total.low <= truth && truth <= total.high
}

fn covers(total: &SampleTotal, truth: f64) -> &'static str {
    if holds(total, truth) {
        "covers"
    } else {
        "MISSES"
    }
}

/// `1.234e5 (1.1e5 to 1.3e5, 4.2 df) x1.02 covers`.
fn show(total: &SampleTotal, truth: f64) -> String {
    format!(
        "{:.4e} ({:.4e} to {:.4e}, {:.1} df) x{:.3} {}",
        total.value,
        total.low,
        total.high,
        total.degrees,
        total.value / truth,
        covers(total, truth)
    )
}

/// Counts `ids` of `plan` on every core: each unit's id, CPU seconds and
/// solutions.
fn count(plan: &Plan, ids: &[u32]) -> Vec<(u32, f64, f64)> {
    // Every worker's clock starts now, not when it last counted.
    rayon::broadcast(|_| LAST.set(thread_cpu()));
    let clock = CpuClock::default();
    Runner::new()
        .observer(&clock)
        .count(plan, &plan.select(ids).expect("ids of the plan"))
        .expect("the count runs");
    clock.units.into_inner().expect("no thread panicked")
}

thread_local! {
    /// This thread's CPU seconds when it last finished a unit.
    static LAST: Cell<f64> = const { Cell::new(0.0) };
}

/// Hears each unit as it ends, on the thread that counted it: the CPU
/// time that thread spent since its last unit ended is this unit's.
#[derive(Default)]
struct CpuClock {
    units: Mutex<Vec<(u32, f64, f64)>>,
}

impl Observer for CpuClock {
    fn unit_done(&self, done: &UnitDone) {
        let now = thread_cpu();
        let cpu = now - LAST.replace(now);
        (self.units.lock().expect("no thread panicked")).push((
            done.id,
            cpu,
            done.solutions as f64,
        ));
    }
}

#[cfg(unix)]
fn thread_cpu() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

#[cfg(not(unix))]
fn thread_cpu() -> f64 {
    unimplemented!("the coverage bench reads a thread's CPU time on Unix only")
}
