//! Counting a GPU plan: its units in batches, a launch a batch, the next
//! batch cut into tasks on the CPU while the GPU counts the current one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{Device, Tasks, max_depth, task_depth};
use crate::Error;
use crate::count::mirror::WorkUnit;
use crate::count::plan::Plan;
use crate::count::run::{Finished, Observer, UnitDone};

/// How many launches a count is cut into, unless overridden: a finished
/// launch is what a journal records and what a cancel waits for.
const BATCHES: usize = 8;

/// Counts the units `order` of a GPU plan (largest first), a batch of
/// units a launch, telling `observer` of each unit as its batch ends.
/// The next batch is cut into tasks on the CPU while the GPU counts the
/// current one. Once `cancel` is set no batch starts.
pub(crate) fn run(
    plan: &Plan,
    order: &[u32],
    observer: &dyn Observer,
    cancel: Option<&AtomicBool>,
) -> Result<Finished, Error> {
    let device = Device::open().map_err(Error::Gpu)?;
    let n = plan.n();
    let units = plan
        .prefix_units()
        .expect("a GPU plan is made of row prefixes");
    let depth = task_depth(n).min(max_depth(n));
    let total_cost: u64 = order.iter().map(|&id| plan.cost(id)).sum();
    observer.start(order.len(), total_cost);

    let batches = batches(plan, order, total_cost);
    let cut = |batch: &[u32]| {
        let refs: Vec<&WorkUnit> = batch.iter().map(|&id| &units[id as usize]).collect();
        Tasks::build(n, depth, &refs)
    };
    let mut counts = Vec::with_capacity(order.len());
    std::thread::scope(|scope| -> Result<(), Error> {
        let mut next = batches.first().map(|b| scope.spawn(|| cut(b)));
        for (k, batch) in batches.iter().enumerate() {
            let tasks = next
                .take()
                .expect("every batch is cut")
                .join()
                .expect("cutting does not panic");
            if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                break;
            }
            next = batches.get(k + 1).map(|b| scope.spawn(|| cut(b)));
            let started = Instant::now();
            let task_counts = device.count(n, depth, &tasks.masks).map_err(Error::Gpu)?;
            let elapsed = started.elapsed();
            let batch_cost: u64 = batch.iter().map(|&id| plan.cost(id)).sum::<u64>().max(1);
            for (i, &id) in batch.iter().enumerate() {
                let unit = &units[id as usize];
                let solutions = tasks.unit_total(n, i, unit, &task_counts);
                let share = plan.cost(id) as f64 / batch_cost as f64;
                observer.unit_done(&UnitDone {
                    id,
                    solutions,
                    cost: plan.cost(id),
                    elapsed: elapsed.mul_f64(share),
                });
                counts.push((id, solutions));
            }
        }
        Ok(())
    })?;
    counts.sort_unstable_by_key(|&(id, _)| id);
    Ok(Finished {
        counts,
        threads: rayon::current_num_threads(),
    })
}

/// Cuts `order` into consecutive batches of about equal estimated cost
/// (`QUEENS_GPU_BATCHES` of them, default [`BATCHES`]).
fn batches(plan: &Plan, order: &[u32], total_cost: u64) -> Vec<Vec<u32>> {
    let wanted = std::env::var("QUEENS_GPU_BATCHES")
        .ok()
        .and_then(|b| b.parse::<usize>().ok())
        .filter(|&b| b > 0)
        .unwrap_or(BATCHES);
    let share = total_cost.div_ceil(wanted as u64).max(1);
    let mut out = vec![Vec::new()];
    let mut cost = 0;
    for &id in order {
        let last = out.last_mut().expect("never empty");
        last.push(id);
        cost += plan.cost(id);
        if cost >= share {
            out.push(Vec::new());
            cost = 0;
        }
    }
    out.retain(|b| !b.is_empty());
    out
}
