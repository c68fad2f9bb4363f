//! The reference for the GPU's kernels: their per-task search, copied on
//! the CPU so that tests pin the cut and the search against the CPU
//! kernel without a GPU, and the hook that runs a launch's words through
//! any stand-in for the kernel.

#[cfg(test)]
use super::MIN_GPU_N;
use super::cut::{Root, Tasks, max_depth, roots};
use super::refuse;
use crate::Error;
use crate::count::plan::Plan;
use crate::cpu::Features;
#[cfg(test)]
use crate::kernel::{MAX_N, Masks, lowest_bit};

/// Units of a plan cut into tasks for a kernel that runs elsewhere (the
/// web page's WebGPU, which answers asynchronously, or a test's stand-in):
/// the words and tables a launch uploads, laid out as the kernels read
/// them (`kernel.cu`, `kernel.wgsl`), and the units' totals once the
/// kernel has counted each task. Hidden, like [`count_with_kernel`],
/// which it is the two halves of.
#[doc(hidden)]
pub struct KernelTasks {
    n: u32,
    roots: Vec<Root>,
    tasks: Tasks,
    features: Features,
}

impl KernelTasks {
    /// Cuts units `ids` of `plan` the way the GPU executor does, `depth`
    /// rows deep (clamped to `1..=n - 2`).
    ///
    /// # Errors
    /// As [`refuse`]; [`Error::Unit`] or [`Error::DuplicateUnit`] for a bad
    /// unit list.
    pub fn cut(plan: &Plan, ids: &[u32], depth: u32) -> Result<Self, Error> {
        refuse(plan)?;
        plan.check_ids(ids)?;
        let n = plan.n();
        let roots = roots(plan, ids);
        let tasks = Tasks::build(n, depth.clamp(1, max_depth(n)), &roots);
        Ok(Self {
            n,
            roots,
            tasks,
            features: plan.features(),
        })
    }

    /// The tasks' words: [`width`](Self::width) a task.
    #[must_use]
    pub fn words(&self) -> &[u32] {
        &self.tasks.words
    }

    /// The units' tables of allowed columns, `n` words each; empty for
    /// the mirror plan's units, whose rows allow every column.
    #[must_use]
    pub fn tables(&self) -> &[u32] {
        &self.tasks.tables
    }

    /// Words a task: 4 where a task names its unit's table, else 3.
    #[must_use]
    pub fn width(&self) -> usize {
        self.tasks.width()
    }

    /// The rows every task fixes (a kernel's stack holds `n - 1 - depth`
    /// frames).
    #[must_use]
    pub fn depth(&self) -> u32 {
        self.tasks.depth
    }

    /// How many tasks there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether there are no tasks (every unit counted on the host).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each unit's contribution, in the order of the ids cut, given one
    /// count per task.
    ///
    /// # Errors
    /// [`Error::Gpu`] when `counts` is not one a task.
    pub fn totals(&self, counts: &[u64]) -> Result<Vec<u128>, Error> {
        if counts.len() != self.len() {
            return Err(Error::gpu(format!(
                "the kernel counted {} tasks of {}",
                counts.len(),
                self.len()
            )));
        }
        Ok(self
            .tasks
            .totals(self.n, &self.roots, counts, self.features))
    }
}

/// Counts units `ids` of `plan` the way the GPU executor does, cut `depth`
/// rows deep (clamped to `1..=n - 2`), with `kernel` in the GPU's place:
/// given a launch's task words and tables, laid out as the kernels read
/// them (`kernel.cu`), it returns one count per task. Each unit's
/// contribution, in the order of `ids`. Hidden: it lets the integration
/// tests run the CUDA source on the CPU over exactly what a launch
/// uploads.
///
/// # Errors
/// As [`refuse`]; [`Error::Unit`] or [`Error::DuplicateUnit`] for a bad
/// unit list.
///
/// # Panics
/// When `kernel` does not return one count a task.
#[doc(hidden)]
pub fn count_with_kernel(
    plan: &Plan,
    ids: &[u32],
    depth: u32,
    kernel: impl FnOnce(&[u32], &[u32]) -> Vec<u64>,
) -> Result<Vec<u128>, Error> {
    let cut = KernelTasks::cut(plan, ids, depth)?;
    let counts = kernel(cut.words(), cut.tables());
    assert_eq!(counts.len(), cut.len(), "the kernel counts every task");
    cut.totals(&counts)
}

/// Counts the completions of one task of an `n`-board whose first `depth`
/// rows are filled, row `r` taking its queen among `allowed[r]` only,
/// exactly as the kernels do (`kernel.cu`: `count_tasks_allowed`, and
/// `count_tasks`, whose rows allow every column): the reference that tests
/// check without a GPU.
///
/// A frame is a row's masks and its columns still open. Each step takes
/// one column of the top frame, pops the frame if that was its last, and
/// pushes the row below unless it is dead or the last row, whose open
/// squares are counted. A child may take its popped parent's slot, so the
/// depth is read from the queens placed: one a row above, so a frame's
/// row is the number of its columns taken.
#[cfg(test)]
#[must_use]
pub(crate) fn count_task_allowed(n: u32, depth: u32, task: Masks, allowed: &[u32]) -> u64 {
    debug_assert!((MIN_GPU_N..=MAX_N).contains(&n) && depth <= max_depth(n));
    let open_on = |m: Masks| m.free(allowed[m.cols.count_ones() as usize]);
    // The queens of a frame whose children lie on the last row.
    let target = n - 2;
    let mut frames = [(Masks::EMPTY, 0u32); MAX_N as usize];
    let mut top = 0;
    let open = open_on(task);
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
        let free = open_on(below);
        if masks.cols.count_ones() == target {
            count += u64::from(free.count_ones());
        } else if free != 0 {
            frames[top] = (below, free);
            top += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;
    use crate::count::gpu::cut::task_depth;
    use crate::count::options::GpuOptions;
    use crate::count::{Config, Engine};
    use crate::cpu::Features;
    use crate::kernel::full_mask;
    use crate::known::A000170;

    /// Every unit of `engine`'s plan for an `n`-board, counted through the
    /// cut at `depth` rows and [`count_task_allowed`]: each unit's
    /// contribution, in id order.
    fn count_plan(plan: &Plan, depth: u32) -> Vec<u128> {
        let n = plan.n();
        let ids: Vec<u32> = (0..plan.len() as u32).collect();
        count_with_kernel(plan, &ids, depth, |words, tables| {
            let tasks = Tasks {
                words: words.to_vec(),
                tables: tables.to_vec(),
                starts: Vec::new(),
                depth,
                restricted: plan.starts().is_some(),
            };
            let every = [full_mask(n); MAX_N as usize];
            (0..tasks.len())
                .map(|i| {
                    let (masks, allowed) = tasks.task(n, i, &every);
                    count_task_allowed(n, depth, masks, allowed)
                })
                .collect()
        })
        .unwrap()
    }

    fn plan(n: u32, engine: Engine) -> Plan {
        Plan::new(Shape::new(n, engine, None), &Config::default()).unwrap()
    }

    /// The weighted sum of every mirror task, cut at every depth the
    /// executor could use, is A000170.
    #[test]
    fn mirror_tasks_sum_to_a000170() {
        for n in MIN_GPU_N..=12 {
            let plan = plan(n, Engine::Mirror);
            for depth in 1..=max_depth(n) {
                let total: u128 = count_plan(&plan, depth).iter().sum();
                assert_eq!(total, A000170[n as usize], "n = {n}, depth {depth}");
            }
        }
    }

    /// Every start of every constellations plan up to n = 13, cut at its
    /// default depth and at the shallowest and deepest, counts on the
    /// GPU's path what the CPU kernel counts for it, weight included.
    #[test]
    fn every_start_counts_as_on_the_cpu() {
        for n in MIN_GPU_N..=13 {
            let plan = plan(n, Engine::Constellations);
            let mut scratch = crate::count::plan::Scratch::default();
            let cpu: Vec<u128> = (0..plan.len() as u32)
                .map(|id| plan.count_unit_unchecked(id, &mut scratch))
                .collect();
            let usual = task_depth(n, &GpuOptions::default(), true);
            for depth in [1, usual, max_depth(n)] {
                assert_eq!(count_plan(&plan, depth), cpu, "n = {n}, depth {depth}");
            }
            assert_eq!(Some(cpu.iter().sum()), crate::known::total(n), "n = {n}");
        }
    }

    /// `count_task_allowed` from the empty board with every column allowed
    /// (a task of depth 0 stands for the whole board) counts every
    /// solution: the two-row finish included.
    #[test]
    fn one_task_from_the_empty_board_counts_every_solution() {
        for n in MIN_GPU_N..=12 {
            let every = [full_mask(n); MAX_N as usize];
            assert_eq!(
                u128::from(count_task_allowed(n, 0, Masks::EMPTY, &every)),
                A000170[n as usize]
            );
        }
    }

    /// Each mirror task counts what the CPU kernel counts from the same
    /// masks.
    #[test]
    fn mirror_tasks_agree_with_the_cpu_kernel() {
        for n in [8, 11, 13] {
            let depth = 3;
            let plan = Plan::new(Shape::new(n, Engine::Mirror, Some(1)), &Config::default());
            let plan = plan.unwrap();
            let ids: Vec<u32> = (0..plan.len() as u32).collect();
            let tasks = Tasks::build(n, depth, &roots(&plan, &ids));
            let every = [full_mask(n); MAX_N as usize];
            for i in 0..tasks.len() {
                let (masks, allowed) = tasks.task(n, i, &every);
                let expected = crate::kernel::count_completions(n, depth, masks);
                let counted = count_task_allowed(n, depth, masks, allowed);
                assert_eq!(u128::from(counted), expected);
            }
        }
    }

    /// Each constellations task counts what the CPU kernel counts from the
    /// same masks and table.
    #[test]
    fn constellation_tasks_agree_with_the_cpu_kernel() {
        for n in [9, 12] {
            let depth = 4;
            let plan = plan(n, Engine::Constellations);
            let ids: Vec<u32> = (0..plan.len() as u32).collect();
            let tasks = Tasks::build(n, depth, &roots(&plan, &ids));
            let every = [full_mask(n); MAX_N as usize];
            for i in 0..tasks.len() {
                let (masks, allowed) = tasks.task(n, i, &every);
                let mut table = [0; MAX_N as usize];
                table[..n as usize].copy_from_slice(allowed);
                let expected = crate::kernel::count_allowed_on(
                    Features::PORTABLE,
                    n,
                    (depth, n),
                    masks,
                    &table,
                );
                let counted = count_task_allowed(n, depth, masks, allowed);
                assert_eq!(u128::from(counted), expected);
            }
        }
    }
}
