//! The GPU executor: runs the mirror engine's plans (backtracking units)
//! on an NVIDIA GPU. It is not an engine of its own: it counts the units
//! of the mirror plan, so a GPU run and a CPU run of the same plan share
//! its hash, its journal and its shards, and a unit counted on either
//! gives the same number.
//!
//! A unit is far too big for one GPU thread, so it is cut further: every
//! placement of the first [`task_depth`] rows that extends the unit is a
//! *task*, three `u32` masks (the attacks on the next row). A batch of
//! units becomes one array of tasks, counted by one kernel launch with one
//! 64-bit count per task; the host adds them per unit in `u128` and
//! multiplies by the unit's weight. The runner (`count/run.rs`) hands the
//! batches over, from the same loop that runs units on the CPU.
//!
//! The per-task search ([`count_task`]) is an iterative depth-first walk
//! over a stack of frames (a row's three masks and its columns still
//! open), one child a step, the queen of the last row counted with a
//! popcount rather than placed. On the GPU the stack sits in shared memory,
//! laid out so that a warp's frames are contiguous (no bank conflicts), and
//! every thread takes its next task from an atomic counter as soon as it
//! finishes one. It covers what the CPU kernel covers, 4 <= n <= 32.

// Without the `gpu` feature the cut and the per-task search are still
// built: the tests pin them against the CPU kernel.
#![cfg_attr(not(feature = "gpu"), allow(dead_code))]

use rayon::prelude::*;

use super::mirror::WorkUnit;
use super::options::GpuOptions;
use crate::Error;
use crate::cpu::Features;
use crate::kernel::{MAX_N, Masks, full_mask, lowest_bit};

#[cfg(feature = "gpu")]
mod batch;
#[cfg(feature = "gpu")]
mod device;
#[cfg(feature = "gpu")]
pub(crate) use batch::Gpu;

/// The smallest board the GPU counts: smaller ones leave too few rows to
/// cut into tasks. (The largest is [`MAX_N`], the kernel's.)
pub(crate) const MIN_GPU_N: u32 = 4;

/// The rows a task fixes on an `n`-board (counting the unit's own), unless
/// `options.depth` says otherwise: enough tasks to keep every thread of
/// a large GPU busy to the end, few enough that building them costs
/// little. Measured on an H100 (results/). Never above [`max_depth`].
#[must_use]
pub(crate) fn task_depth(n: u32, options: &GpuOptions) -> u32 {
    if let Some(depth) = options.depth {
        return depth.get().clamp(1, max_depth(n));
    }
    let depth = match n {
        0..=11 => n / 2,
        12..=15 => 5,
        16..=17 => 6,
        // n = 20: 6 rows (3.0 million tasks) 5.2 s, 7 rows (23 million)
        // 4.0 s, 8 rows (150 million) 4.0 s; n = 21: 7 and 8 rows 28.4 s.
        _ => 7,
    };
    depth.min(max_depth(n))
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
        debug_assert!((MIN_GPU_N..=MAX_N).contains(&n) && depth <= max_depth(n));
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
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.masks.len() / 3
    }

    /// Task `i`'s masks.
    #[cfg(test)]
    pub fn task(&self, i: usize) -> Masks {
        Masks {
            cols: self.masks[3 * i],
            diag: self.masks[3 * i + 1],
            anti: self.masks[3 * i + 2],
        }
    }

    /// The contribution of unit `i` (of the units built, in order), given
    /// one count per task: counted on the host when the unit has no tasks.
    pub fn unit_total(
        &self,
        n: u32,
        i: usize,
        unit: &WorkUnit,
        counts: &[u64],
        features: Features,
    ) -> u128 {
        let completions = if unit.rows > self.depth {
            crate::kernel::count_completions_on(features, n, unit.rows, unit.masks)
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
#[cfg(test)]
#[must_use]
pub(crate) fn count_task(n: u32, depth: u32, task: Masks) -> u64 {
    debug_assert!((MIN_GPU_N..=MAX_N).contains(&n) && depth <= max_depth(n));
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

/// Whether this build has the GPU executor and this machine a GPU for it:
/// the GPU's name. Cheap: it compiles nothing.
///
/// # Errors
/// [`Error::Gpu`] with one line: a build without the `gpu` feature, no
/// driver, no NVRTC or no device.
pub fn find_gpu() -> Result<String, Error> {
    #[cfg(feature = "gpu")]
    return device::Device::find().map_err(Error::Gpu);
    #[cfg(not(feature = "gpu"))]
    Err(not_built())
}

/// The refusal of a build without the `gpu` feature.
#[cfg(not(feature = "gpu"))]
fn not_built() -> Error {
    Error::Gpu(
        "this queens was built without the GPU executor: \
         rebuild with `cargo build --release --features gpu`"
            .into(),
    )
}

/// Without the `gpu` feature: a GPU that never opens.
#[cfg(not(feature = "gpu"))]
pub(crate) enum Gpu {}

#[cfg(not(feature = "gpu"))]
impl Gpu {
    /// The refusal: this build has no GPU executor.
    pub fn open(_options: GpuOptions) -> Result<Self, Error> {
        Err(not_built())
    }

    /// Never called: no `Gpu` exists.
    pub fn cut(&self, _n: u32, _units: &[&WorkUnit]) -> Tasks {
        match *self {}
    }

    /// Never called: no `Gpu` exists.
    pub fn count(
        &self,
        _n: u32,
        _tasks: &Tasks,
        _units: &[&WorkUnit],
        _features: Features,
    ) -> Result<Vec<u128>, Error> {
        match *self {}
    }
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
        for n in MIN_GPU_N..=12 {
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
                    .map(|(i, u)| tasks.unit_total(n, i, u, &counts, Features::detect()))
                    .sum();
                assert_eq!(total, A000170[n as usize], "n = {n}, depth {depth}");
            }
        }
    }

    /// `count_task` from the empty board (a task of depth 0 stands for the
    /// whole board) counts every solution: the two-row finish included.
    #[test]
    fn one_task_from_the_empty_board_counts_every_solution() {
        for n in MIN_GPU_N..=12 {
            assert_eq!(
                u128::from(count_task(n, 0, Masks::EMPTY)),
                A000170[n as usize]
            );
        }
    }

    /// The cut never goes deeper than the kernel's shared memory allows,
    /// whatever the options ask.
    #[test]
    fn the_task_depth_stays_at_most_n_minus_2() {
        for n in MIN_GPU_N..=MAX_N {
            for asked in [None, Some(1), Some(7), Some(30), Some(u32::MAX)] {
                let options = GpuOptions {
                    depth: asked.and_then(std::num::NonZeroU32::new),
                    ..GpuOptions::default()
                };
                let depth = task_depth(n, &options);
                assert!((1..=max_depth(n)).contains(&depth), "n = {n}, {asked:?}");
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
