//! A count split into shards, read before it is launched: what an
//! [`Estimate`] says of each shard of `count N --shard I/K` and of the
//! machines that would run them. Arithmetic on the estimate; nothing is
//! counted.
//!
//! Each unit's seconds are projected as the estimate projects them: its
//! cost times its stratum's seconds a unit of cost (moved by the known
//! total's correction where there was one). A shard's core-seconds are
//! its units'; on a machine of T threads it takes them over T, or its
//! longest unit's time if that is longer, plus the plan and tables every
//! shard's process builds first. Machines take shards in index order as
//! they come free, as a job array starts them. The intervals scale with
//! the estimate's: a projection off by some factor is off by it in
//! every shard alike (the errors of one sample are not independent from
//! shard to shard).

use std::num::NonZeroU32;

use super::Estimate;
use crate::Plan;
use crate::count::join::scratch::{CHUNK_LOG, MIN_CHUNK_LOG};
use crate::count::plan::fewest_at_once;
use crate::shard::Assignment;

/// What a campaign of shards is projected to take.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Campaign {
    /// Shards (K of `--shard I/K`).
    pub shards: u32,
    /// Machines running them at once.
    pub machines: u32,
    /// Threads of each machine.
    pub threads: usize,
    /// Core-seconds of every unit (the estimate's).
    pub core_seconds: f64,
    /// Their 95% interval.
    pub core_seconds_interval: (f64, f64),
    /// The shard projected to take longest.
    pub longest_shard: u32,
    /// Its core-seconds.
    pub longest_shard_core_seconds: f64,
    /// Its wall seconds on a machine of [`threads`](Self::threads): its
    /// units over the threads (at least its longest unit), plus
    /// [`setup_seconds`](Self::setup_seconds).
    pub longest_shard_seconds: f64,
    /// Their 95% interval.
    pub longest_shard_seconds_interval: (f64, f64),
    /// The longest unit of all, projected, in seconds: no shard, however
    /// many threads, takes less.
    pub longest_unit_seconds: f64,
    /// What each shard's process spends before its first unit: the plan
    /// and its tables, as the estimate timed them.
    pub setup_seconds: f64,
    /// Wall seconds of the whole campaign, from the first shard's start to
    /// the last one's end.
    pub wall_seconds: f64,
    /// Their 95% interval.
    pub wall_seconds_interval: (f64, f64),
    /// The bytes a machine needs to count the largest shard on
    /// [`threads`](Self::threads) threads ([`Plan::count_memory`]), in the
    /// join's fastest chunks.
    pub machine_memory: u64,
    /// What a machine needs for it in the join's fastest chunks with its
    /// threads sharing units, one unit at a time for every 8 threads
    /// ([`CountMemory::shared`](crate::CountMemory::shared)): each unit as
    /// fast, the threads idle a little while one is made.
    pub shared_machine_memory: u64,
    /// The least a machine needs for it: the join's smallest chunks, one
    /// unit at a time for every 8 threads, its biggest units slower
    /// ([`Plan::count_memory_in`]). A machine with more than this and less
    /// than [`machine_memory`](Self::machine_memory) counts in the largest
    /// chunks that fit.
    pub least_machine_memory: u64,
}

/// Projects `shards` shards of `plan`'s count (dealt as `count --shard`
/// deals them) run on `machines` machines of `threads` threads each, from
/// `estimate` of the same plan; `setup_seconds` is what each shard's
/// process spends on the plan and its tables.
#[must_use]
pub fn campaign(
    plan: &Plan,
    estimate: &Estimate,
    shards: NonZeroU32,
    machines: NonZeroU32,
    threads: usize,
    setup_seconds: f64,
) -> Campaign {
    let threads = threads.max(1);
    let owners = Assignment::for_engine(plan.engine()).owners(plan, shards);
    let mut core = vec![0.0; shards.get() as usize];
    let mut longest_unit = vec![0.0f64; shards.get() as usize];
    let mut units = vec![0usize; shards.get() as usize];
    for (id, &owner) in (0..plan.len() as u32).zip(&owners) {
        let seconds = unit_seconds(plan, estimate, id);
        let shard = owner as usize;
        core[shard] += seconds;
        longest_unit[shard] = longest_unit[shard].max(seconds);
        units[shard] += 1;
    }
    let wall = |shard: usize, scale: f64| {
        setup_seconds + scale * (core[shard] / threads as f64).max(longest_unit[shard])
    };
    let longest = (0..core.len())
        .max_by(|&a, &b| wall(a, 1.0).total_cmp(&wall(b, 1.0)))
        .unwrap_or(0);
    // The unit-seconds summed over the units, against the estimate's
    // total: the same but for rounding.
    let projected: f64 = core.iter().sum();
    let scale = |bound: f64| {
        if projected > 0.0 {
            bound / projected
        } else {
            1.0
        }
    };
    let (low, high) = (
        scale(estimate.core_seconds_interval.0),
        scale(estimate.core_seconds_interval.1),
    );
    let makespan = |scale: f64| {
        // Shards in index order, each to the machine free first.
        let mut free = vec![0.0f64; machines.get().min(shards.get()) as usize];
        for shard in 0..core.len() {
            let first = (0..free.len())
                .min_by(|&a, &b| free[a].total_cmp(&free[b]))
                .expect("at least one machine");
            free[first] += wall(shard, scale);
        }
        free.into_iter().fold(0.0, f64::max)
    };
    let biggest = units.iter().copied().max().unwrap_or(0);
    // Sharing units costs each thread a matcher's tables: on small
    // boards, more than one unit a thread takes.
    let memory = |chunk_log, at_once| {
        plan.count_memory_at(threads, biggest, chunk_log, at_once)
            .total()
    };
    let machine_memory = plan.count_memory(threads, biggest);
    let shared_machine_memory = memory(CHUNK_LOG, fewest_at_once(threads)).min(machine_memory);
    let least_machine_memory = memory(MIN_CHUNK_LOG, fewest_at_once(threads))
        .min(memory(MIN_CHUNK_LOG, threads))
        .min(shared_machine_memory);
    Campaign {
        shards: shards.get(),
        machines: machines.get(),
        threads,
        core_seconds: estimate.core_seconds,
        core_seconds_interval: estimate.core_seconds_interval,
        longest_shard: longest as u32,
        longest_shard_core_seconds: core[longest],
        longest_shard_seconds: wall(longest, 1.0),
        longest_shard_seconds_interval: (wall(longest, low), wall(longest, high)),
        longest_unit_seconds: longest_unit.iter().copied().fold(0.0, f64::max),
        setup_seconds,
        wall_seconds: makespan(1.0),
        wall_seconds_interval: (makespan(low), makespan(high)),
        machine_memory,
        shared_machine_memory,
        least_machine_memory,
    }
}

/// Unit `id`'s projected seconds: its cost times its stratum's rate.
fn unit_seconds(plan: &Plan, estimate: &Estimate, id: u32) -> f64 {
    let key = (plan.cost_of(id), id);
    let stratum = estimate.rates.partition_point(|&(last, _)| last < key);
    let rate = (estimate.rates.get(stratum))
        .or_else(|| estimate.rates.last())
        .map_or(0.0, |&(_, rate)| rate);
    rate * plan.cost_of(id) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Engine, Runner, Sample, Shape, estimate};
    use std::num::NonZeroUsize;

    fn whole(n: u32, engine: Engine) -> (Plan, Estimate) {
        let plan = Plan::new(Shape::new(n, engine, None), &Config::default()).unwrap();
        let runner = Runner::new().threads(NonZeroUsize::MIN);
        let e = estimate(&plan, &runner, 1, Sample::Percent(100.0), 1, &|_| {}).unwrap();
        (plan, e)
    }

    fn one(k: u32) -> NonZeroU32 {
        NonZeroU32::new(k).unwrap()
    }

    #[test]
    fn the_shards_add_up_to_the_estimate() {
        for engine in [Engine::Join, Engine::Mirror] {
            let (plan, e) = whole(13, engine);
            let all: f64 = (0..plan.len() as u32)
                .map(|id| unit_seconds(&plan, &e, id))
                .sum();
            assert!(
                (all - e.core_seconds).abs() <= 1e-9 * e.core_seconds,
                "{engine:?}: {all} against {}",
                e.core_seconds
            );
            let c = campaign(&plan, &e, one(4), one(4), 1, 0.0);
            assert!(c.longest_shard_core_seconds * 4.0 >= c.core_seconds * 0.999);
            assert!(c.longest_shard < 4);
            // All at once: the campaign is its longest shard.
            assert!(
                (c.wall_seconds - c.longest_shard_seconds).abs() < 1e-12,
                "{c:?}"
            );
        }
    }

    #[test]
    fn fewer_machines_take_longer_and_setup_is_paid_per_shard() {
        let (plan, e) = whole(12, Engine::Join);
        let all = campaign(&plan, &e, one(8), one(8), 1, 0.0);
        let two = campaign(&plan, &e, one(8), one(2), 1, 0.0);
        let one_machine = campaign(&plan, &e, one(8), one(1), 1, 10.0);
        assert!(two.wall_seconds >= all.wall_seconds);
        assert!(two.wall_seconds >= e.core_seconds / 2.0 * 0.999, "{two:?}");
        // One machine, one thread: every unit and eight setups in turn.
        assert!(
            (one_machine.wall_seconds - (e.core_seconds + 80.0)).abs() < 1e-6,
            "{one_machine:?}"
        );
        // More threads, the longest unit bounds the shard.
        let wide = campaign(&plan, &e, one(8), one(8), 1 << 20, 0.0);
        assert!(wide.longest_shard_seconds >= wide.longest_unit_seconds);
        assert!(wide.machine_memory > all.machine_memory);
    }
}
