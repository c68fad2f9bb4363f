//! How well each engine's unit cost estimate predicts the time a unit
//! takes: every unit of a plan is counted alone on one thread and timed,
//! then the estimate is compared with the time (Pearson's r of cost and
//! time, Spearman's rank correlation, and the share of the total time
//! that the costliest tenth of the units takes against the share the
//! estimate gives them).
//!
//! With the measured times it also scores the shard assignments (issue 11):
//! for K = 4, 16 and 64 shards, the makespan (the slowest shard's time)
//! over the ideal (the total time / K), for round-robin and for largest
//! cost first to the least-loaded shard (LPT); the assignment each engine
//! uses is marked `*`.
//!
//! `cargo bench --bench cost_model [-- N... [split=D]]` (default 16 17;
//! `split=D` gives the mirror engine's units D rows, default 2). Prints one
//! line per engine and n, then the makespan table; results/ keeps the
//! figures.

use std::num::NonZeroU32;
use std::time::Instant;

use queens::shard::Assignment;
use queens::{Config, Counter, Engine, Plan, Shape};

fn main() {
    let sizes: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let split = std::env::args()
        .find_map(|a| a.strip_prefix("split=").and_then(|d| d.parse().ok()))
        .unwrap_or(queens::DEFAULT_SPLIT_DEPTH);
    let sizes = if sizes.is_empty() {
        vec![16, 17]
    } else {
        sizes
    };
    println!("engine   n  units  pearson_r  spearman_rho  top10%_time_share  top10%_cost_share");
    let mut makespans = Vec::new();
    for n in sizes {
        for engine in [Engine::Mirror, Engine::Join] {
            let split = (engine == Engine::Mirror).then_some(split);
            let plan = Plan::new(Shape::new(n, engine, split), &Config::default()).expect("a plan");
            plan.prepare();
            let (mut costs, mut times) = (Vec::new(), Vec::new());
            for unit in plan.units() {
                let started = Instant::now();
                Counter::new(n)
                    .engine(engine)
                    .threads(1)
                    .units(&[unit.id])
                    .run_plan(&plan)
                    .expect("a unit of the plan");
                times.push(started.elapsed().as_secs_f64());
                costs.push(unit.cost as f64);
            }
            let top = top_tenth(&costs);
            let share =
                |xs: &[f64]| top.iter().map(|&i| xs[i]).sum::<f64>() / xs.iter().sum::<f64>();
            println!(
                "{:<6} {n:>3} {:>6}  {:>9.3}  {:>12.3}  {:>17.3}  {:>17.3}",
                engine.name(),
                plan.len(),
                pearson(&costs, &times),
                pearson(&ranks(&costs), &ranks(&times)),
                share(&times),
                share(&costs),
            );
            for shards in SHARDS {
                let ratios = [Assignment::RoundRobin, Assignment::Lpt]
                    .map(|a| makespan(&a.owners(&plan, nonzero(shards)), &times, shards));
                makespans.push((engine, n, shards, ratios));
            }
        }
    }
    println!("\nmakespan / ideal (ideal = total time / K); * = the engine's assignment");
    println!("engine   n    K  round-robin     lpt");
    for (engine, n, shards, [round_robin, lpt]) in makespans {
        let mark = |a: Assignment| {
            if Assignment::for_engine(engine) == a {
                '*'
            } else {
                ' '
            }
        };
        println!(
            "{:<6} {n:>3} {shards:>4}  {round_robin:>10.3}{}  {lpt:>6.3}{}",
            engine.name(),
            mark(Assignment::RoundRobin),
            mark(Assignment::Lpt),
        );
    }
}

/// The shard counts the assignments are scored for.
const SHARDS: [u32; 3] = [4, 16, 64];

/// The slowest shard's time over the total time / `shards`, with unit `i`
/// of time `times[i]` on shard `owners[i]`.
fn nonzero(shards: u32) -> NonZeroU32 {
    NonZeroU32::new(shards).expect("a positive shard count")
}

fn makespan(owners: &[u32], times: &[f64], shards: u32) -> f64 {
    let mut loads = vec![0.0; shards as usize];
    for (&owner, &time) in owners.iter().zip(times) {
        loads[owner as usize] += time;
    }
    let ideal = times.iter().sum::<f64>() / f64::from(shards);
    loads.iter().copied().fold(0.0, f64::max) / ideal
}

/// The indices of the costliest tenth of the units (at least one).
fn top_tenth(costs: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]));
    order.truncate(costs.len().div_ceil(10));
    order
}

fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let cov: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
    cov / (vx * vy).sqrt()
}

/// Ranks (0-based, ties broken by position): Spearman's rho is Pearson's r
/// of the ranks.
fn ranks(x: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut rank = vec![0.0; x.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r as f64;
    }
    rank
}
