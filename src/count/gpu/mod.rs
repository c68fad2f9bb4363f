//! The GPU engine's work: the mirror plan's units, each cut into many small
//! tasks, and the per-task search that the CUDA kernel runs, written once
//! more in Rust as its reference.
//!
//! The engine's plan units are the mirror engine's (`rows:3,7,0`, the same
//! weights: mirror symmetry only, each unit counts twice), so a unit
//! counted here, on the GPU or by the mirror engine gives the same number
//! and a journal or shard of one can be checked by the other. A unit is far
//! too big for one GPU thread, so it is cut further: every placement of the
//! first [`task_depth`] rows that extends the unit is a *task*, three
//! `u32` masks (the attacks on the next row). A batch of units becomes one
//! array of tasks, counted by one kernel launch with one 64-bit count per
//! task; the host adds them per unit in `u128` and multiplies by the
//! unit's weight.
//!
//! The per-task search ([`count_task`]) is an iterative depth-first walk
//! over a stack of frames (a row's three masks and its columns still
//! open), one child a step, the queen of the last row counted with a
//! popcount rather than placed. On the GPU the stack sits in shared memory,
//! laid out so that a warp's frames are contiguous (no bank conflicts), and
//! every thread takes its next task from an atomic counter as soon as it
//! finishes one. The engine covers what the CPU kernel covers, n <= 32.

#[cfg(not(feature = "gpu"))]
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use super::mirror::WorkUnit;
#[cfg(not(feature = "gpu"))]
use super::plan::Plan;
#[cfg(not(feature = "gpu"))]
use super::run::{Finished, Observer};
use crate::Error;
use crate::kernel::{Masks, full_mask, lowest_bit};

#[cfg(feature = "gpu")]
mod batch;
#[cfg(feature = "gpu")]
mod device;
#[cfg(feature = "gpu")]
pub(crate) use batch::run;
#[cfg(feature = "gpu")]
use device::Device;

/// The smallest board the engine takes: smaller ones leave too few rows to
/// cut.
pub const MIN_N: u32 = 4;
/// The largest: a row fits in a `u32`.
pub const MAX_N: u32 = crate::kernel::MAX_N;

/// The rows a task fixes on an `n`-board (counting the unit's own), unless
/// `QUEENS_GPU_DEPTH` says otherwise: enough tasks to keep every thread of
/// a large GPU busy to the end, few enough that building them costs
/// little. Measured on an H100 (results/).
#[must_use]
pub fn task_depth(n: u32) -> u32 {
    if let Some(depth) = std::env::var("QUEENS_GPU_DEPTH")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
    {
        return depth.clamp(1, max_depth(n));
    }
    match n {
        0..=11 => n / 2,
        12..=15 => 5,
        16..=17 => 6,
        // n = 20: 6 rows (3.0 million tasks) 5.2 s, 7 rows (23 million)
        // 4.0 s, 8 rows (150 million) 4.0 s; n = 21: 7 and 8 rows 28.4 s.
        _ => 7,
    }
}

/// The tasks of some units: `masks` holds three words per task (columns,
/// `\` and `/` diagonals of the next row), `starts[i]..starts[i + 1]` are
/// the tasks of the `i`-th unit. A unit that fixes more rows than a task
/// would has no tasks: [`unit_total`](Self::unit_total) counts it on the
/// host.
pub(crate) struct Tasks {
    pub masks: Vec<u32>,
    pub starts: Vec<usize>,
    /// The rows every task fixes.
    pub depth: u32,
}

impl Tasks {
    /// The tasks of `units` of an `n`-board, each cut at `depth` rows
    /// (`depth <=` [`max_depth`]).
    /// Units are cut in parallel, on the current rayon pool.
    pub fn build(n: u32, depth: u32, units: &[&WorkUnit]) -> Self {
        debug_assert!((MIN_N..=MAX_N).contains(&n) && depth <= max_depth(n));
        let parts: Vec<Vec<u32>> = units
            .par_iter()
            .with_max_len(1)
            .map(|unit| {
                let mut part = Vec::new();
                if unit.rows <= depth {
                    extend(n, depth, unit.rows, unit.masks, &mut part);
                }
                part
            })
            .collect();
        let mut starts = Vec::with_capacity(units.len() + 1);
        starts.push(0);
        for part in &parts {
            starts.push(starts[starts.len() - 1] + part.len() / 3);
        }
        let masks = parts.concat();
        Self {
            masks,
            starts,
            depth,
        }
    }

    /// How many tasks there are.
    pub fn len(&self) -> usize {
        self.masks.len() / 3
    }

    /// Task `i`'s masks.
    pub fn task(&self, i: usize) -> Masks {
        Masks {
            cols: self.masks[3 * i],
            diag: self.masks[3 * i + 1],
            anti: self.masks[3 * i + 2],
        }
    }

    /// The contribution of unit `i` (of the units built, in order), given
    /// one count per task: counted on the host when the unit has no tasks.
    pub fn unit_total(&self, n: u32, i: usize, unit: &WorkUnit, counts: &[u64]) -> u128 {
        let completions = if unit.rows > self.depth {
            crate::kernel::count_completions(n, unit.rows, unit.masks)
        } else {
            counts[self.starts[i]..self.starts[i + 1]]
                .iter()
                .map(|&c| u128::from(c))
                .sum()
        };
        completions * u128::from(unit.weight)
    }
}

/// Appends the tasks under a placement of `row` rows whose next row is
/// attacked by `masks`: every way to fill rows `row..depth`, in column
/// order.
fn extend(n: u32, depth: u32, row: u32, masks: Masks, out: &mut Vec<u32>) {
    if row == depth {
        out.extend([masks.cols, masks.diag, masks.anti]);
        return;
    }
    let mut open = masks.free(full_mask(n));
    while open != 0 {
        let bit = lowest_bit(open);
        open ^= bit;
        extend(n, depth, row + 1, masks.place(bit), out);
    }
}

/// Counts the completions of one task of an `n`-board whose first `depth`
/// rows are filled, exactly as the kernel does (`kernel.cu`,
/// `count_tasks`): the reference that tests check without a GPU.
///
/// A frame is a row's masks and its columns still open. Each step takes
/// one column of the top frame, pops the frame if that was its last, and
/// pushes the row below unless it is dead or the last row, whose open
/// squares are counted. A child may take its popped parent's slot, so the
/// depth is read from the queens placed.
#[must_use]
pub fn count_task(n: u32, depth: u32, task: Masks) -> u64 {
    debug_assert!((MIN_N..=MAX_N).contains(&n) && depth <= max_depth(n));
    let full = full_mask(n);
    // The queens of a frame whose children lie on the last row.
    let target = n - 2;
    let mut frames = [(Masks::EMPTY, 0u32); MAX_N as usize];
    let mut top = 0;
    let open = task.free(full);
    if open != 0 {
        frames[0] = (task, open);
        top = 1;
    }
    let mut count = 0u64;
    while top > 0 {
        let level = top - 1;
        let (masks, open) = frames[level];
        let bit = lowest_bit(open);
        let rest = open ^ bit;
        frames[level].1 = rest;
        if rest == 0 {
            top = level;
        }
        let below = masks.place(bit);
        let free = below.free(full);
        if masks.cols.count_ones() == target {
            count += u64::from(free.count_ones());
        } else if free != 0 {
            frames[top] = (below, free);
            top += 1;
        }
    }
    count
}

/// The deepest cut the kernel takes on an `n`-board: every task has row
/// `n - 2` to search and the last row to count.
#[must_use]
pub(crate) fn max_depth(n: u32) -> u32 {
    n - 2
}

/// Counts a unit of an `n`-board on the CPU the way the GPU does: cut into
/// tasks at [`task_depth`], each searched by [`count_task`]. Its
/// contribution to the total, weight included.
#[must_use]
pub(crate) fn count_unit(n: u32, unit: &WorkUnit) -> u128 {
    let depth = task_depth(n).max(unit.rows).min(max_depth(n));
    let tasks = Tasks::build(n, depth, &[unit]);
    let counts: Vec<u64> = (0..tasks.len())
        .map(|i| count_task(n, depth, tasks.task(i)))
        .collect();
    tasks.unit_total(n, 0, unit, &counts)
}

/// Whether this build has the GPU engine and this machine a GPU for it:
/// the GPU's name. Cheap: it compiles nothing.
///
/// # Errors
/// [`Error::Gpu`] with one line: a build without the `gpu` feature, no
/// driver, no NVRTC or no device.
pub fn probe() -> Result<String, Error> {
    #[cfg(feature = "gpu")]
    return Device::find().map_err(Error::Gpu);
    #[cfg(not(feature = "gpu"))]
    Err(not_built())
}

/// The refusal of a build without the `gpu` feature.
#[cfg(not(feature = "gpu"))]
fn not_built() -> Error {
    Error::Gpu(
        "this queens was built without the GPU engine: \
         rebuild with `cargo build --release --features gpu`"
            .into(),
    )
}

/// Without the `gpu` feature: the refusal.
#[cfg(not(feature = "gpu"))]
pub(crate) fn run(
    _plan: &Plan,
    _order: &[u32],
    _observer: &dyn Observer,
    _cancel: Option<&AtomicBool>,
) -> Result<Finished, Error> {
    Err(not_built())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::mirror::work_units;
    use crate::known::A000170;

    /// The weighted sum of every task, cut at every depth the engine could
    /// use, is A000170.
    #[test]
    fn tasks_sum_to_a000170() {
        for n in MIN_N..=12 {
            for depth in 1..=max_depth(n) {
                let units = work_units(n, 2);
                let refs: Vec<&WorkUnit> = units.iter().collect();
                let tasks = Tasks::build(n, depth, &refs);
                let counts: Vec<u64> = (0..tasks.len())
                    .map(|i| count_task(n, depth, tasks.task(i)))
                    .collect();
                let total: u128 = units
                    .iter()
                    .enumerate()
                    .map(|(i, u)| tasks.unit_total(n, i, u, &counts))
                    .sum();
                assert_eq!(total, A000170[n as usize], "n = {n}, depth {depth}");
            }
        }
    }

    /// Each task counts what the CPU kernel counts from the same masks.
    #[test]
    fn count_task_agrees_with_the_cpu_kernel() {
        for n in [8, 11, 13] {
            let depth = 3;
            let units = work_units(n, 1);
            let refs: Vec<&WorkUnit> = units.iter().collect();
            let tasks = Tasks::build(n, depth, &refs);
            for i in 0..tasks.len() {
                let expected = crate::kernel::count_completions(n, depth, tasks.task(i));
                assert_eq!(u128::from(count_task(n, depth, tasks.task(i))), expected);
            }
        }
    }
}
