//! The GPU executor: runs the backtracking engines' plans (the
//! constellations engine's and the mirror engine's) on an NVIDIA GPU. It
//! is not an engine of its own: it counts the units of the plan, so a GPU
//! run and a CPU run of the same plan share its hash, its journal and its
//! shards, and a unit counted on either gives the same number.
//!
//! A unit is far too big for one GPU thread, so it is cut further: every
//! placement of the first [`task_depth`] rows that extends the unit is a
//! *task*, the three `u32` masks of the attacks on its next row. A
//! constellations unit (a [`Start`](super::constellations::Start): queens
//! fixed on the four border lines) also restricts each row to the columns
//! its fixed queens leave (a side queen's row to that queen's column), so
//! its tasks carry a fourth word, the index of the start's table of allowed
//! columns in the batch, and the batch uploads one table of `n` words per
//! start. A batch of units becomes
//! one array of tasks, counted by one kernel launch with one 64-bit count
//! per task; the host adds them per unit in `u128` and multiplies by the
//! unit's weight. The runner (`count/run.rs`) hands the batches over, from
//! the same loop that runs units on the CPU.
//!
//! The per-task search ([`count_task_allowed`]) is an iterative depth-first
//! walk over a stack of frames (a row's three masks and its columns still
//! open), one child a step, the queen of the last row counted with a
//! popcount rather than placed. A row's open squares are those no queen
//! above attacks, among those it allows: every column for the mirror
//! engine's units. On the GPU the stack sits in shared memory, laid out so
//! that a warp's frames are contiguous (no bank conflicts), and every
//! thread takes its next task from an atomic counter as soon as it
//! finishes one. It covers what the CPU kernel covers, 4 <= n <= 32.

// Without the `gpu` feature the cut and the per-task search are still
// built: the tests pin them against the CPU kernel.
#![cfg_attr(not(feature = "gpu"), allow(dead_code))]

use rayon::prelude::*;

use super::constellations::search_of;
use super::mirror::WorkUnit;
use super::options::GpuOptions;
use super::plan::Plan;
use crate::Error;
use crate::cpu::Features;
use crate::kernel::{
    MAX_N, Masks, RowMasks, count_allowed_on, count_completions_on, full_mask, lowest_bit,
};

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
/// little. `restricted`: for the constellations engine's units, whose rows
/// are restricted by their border queens. Never above [`max_depth`].
#[must_use]
pub(crate) fn task_depth(n: u32, options: &GpuOptions, restricted: bool) -> u32 {
    if let Some(depth) = options.depth {
        return depth.get().clamp(1, max_depth(n));
    }
    let depth = if restricted {
        // The plan places the bottom and side queens as well as the top
        // one (each choice of them is a start of its own), so the first
        // rows of its units hold many more placements in all than those of
        // the mirror engine's: at n = 20, 5 rows are 54 million tasks, 7
        // rows 1.1 billion. Chosen for tasks of the same order of number
        // as the mirror engine's cut: n = 16, 4 rows, 0.7 million; n = 18,
        // 5 rows, 13 million; n = 22, 5 rows, 180 million; above n = 22 one
        // row less, to keep a batch's tasks to a few hundred MB (n = 23:
        // 4 rows, 35 million; 5 rows would be 308 million). Counted on the
        // CPU, not yet timed on a GPU.
        match n {
            0..=11 => n / 2,
            12..=17 => 4,
            18..=22 => 5,
            _ => 4,
        }
    } else {
        // Measured on an H100 (results/). n = 20: 6 rows (3.0 million
        // tasks) 5.2 s, 7 rows (23 million) 4.0 s, 8 rows (150 million)
        // 4.0 s; n = 21: 7 and 8 rows 28.4 s.
        match n {
            0..=11 => n / 2,
            12..=15 => 5,
            16..=17 => 6,
            _ => 7,
        }
    };
    depth.min(max_depth(n))
}

/// A unit as the GPU cuts it: the rows it fixes, the attacks on its next
/// row, the columns each row allows and what each completion stands for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Root {
    rows: u32,
    masks: Masks,
    /// The columns each row allows (a constellations unit's, given its
    /// border queens); `None`: every column of every row.
    allowed: Option<RowMasks>,
    weight: u8,
}

impl Root {
    /// A mirror unit: its rows, no restriction.
    fn of_prefix(unit: &WorkUnit) -> Self {
        Self {
            rows: unit.rows,
            masks: unit.masks,
            allowed: None,
            weight: unit.weight,
        }
    }
}

/// Whether `roots` restrict their rows (the constellations engine's units).
pub(crate) fn restricted(roots: &[Root]) -> bool {
    roots.iter().any(|r| r.allowed.is_some())
}

/// `Ok` when the GPU can run `plan`: a backtracking plan (the
/// constellations or the mirror engine's) of a board it can cut.
///
/// # Errors
/// [`Error::Gpu`] with one line saying why not.
pub(crate) fn refuse(plan: &Plan) -> Result<(), Error> {
    if plan.prefix_units().is_none() && plan.starts().is_none() {
        return Err(Error::Gpu(format!(
            "{} does not backtrack: the GPU runs the constellations and mirror engines' \
             plans only",
            plan.engine().described()
        )));
    }
    if plan.n() < MIN_GPU_N {
        return Err(Error::Gpu(format!(
            "the GPU counts n >= {MIN_GPU_N}: n = {} leaves too few rows to cut",
            plan.n()
        )));
    }
    Ok(())
}

/// The roots of units `ids` of `plan`, a plan [`refuse`] lets through.
pub(crate) fn roots(plan: &Plan, ids: &[u32]) -> Vec<Root> {
    if let Some(units) = plan.prefix_units() {
        return ids
            .iter()
            .map(|&id| Root::of_prefix(&units[id as usize]))
            .collect();
    }
    let starts = plan.starts().expect("the GPU runs backtracking plans only");
    ids.iter()
        .map(|&id| {
            let start = &starts[id as usize];
            // The top queen is row 0; the search starts on row 1.
            let (masks, allowed) = search_of(plan.n(), start.border);
            Root {
                rows: 1,
                masks,
                allowed: Some(allowed),
                weight: start.weight,
            }
        })
        .collect()
}

/// The tasks of some units, as a launch uploads them: `words` holds
/// [`width`](Self::width) words per task (the columns, `\` and `/`
/// diagonals of its next row, then for restricted units the index of its
/// unit's table), `tables` `n` words per unit of restricted units (row
/// `r`'s allowed columns at `n * index + r`), and
/// `starts[i]..starts[i + 1]` are the tasks of the `i`-th unit. A unit
/// that fixes more rows than a task would has no tasks:
/// [`totals`](Self::totals) counts it on the host.
pub(crate) struct Tasks {
    pub words: Vec<u32>,
    pub tables: Vec<u32>,
    pub starts: Vec<usize>,
    /// The rows every task fixes.
    pub depth: u32,
    /// Whether the units restrict their rows (a table each, the kernel
    /// `count_tasks_allowed`) or not (`count_tasks`).
    pub restricted: bool,
}

impl Tasks {
    /// The tasks of `roots` of an `n`-board (all restricted or none), each
    /// cut at `depth` rows (`depth <=` [`max_depth`]), in order of their
    /// roots, so that neighbouring threads mostly read one table. Units are
    /// cut in parallel, on the current rayon pool.
    pub fn build(n: u32, depth: u32, roots: &[Root]) -> Self {
        debug_assert!((MIN_GPU_N..=MAX_N).contains(&n) && depth <= max_depth(n));
        let restricted = restricted(roots);
        debug_assert!(roots.iter().all(|r| r.allowed.is_some() == restricted));
        let every = [full_mask(n); MAX_N as usize];
        let parts: Vec<Vec<u32>> = roots
            .par_iter()
            .enumerate()
            .with_max_len(1)
            .map(|(i, root)| {
                let mut part = Vec::new();
                if root.rows <= depth {
                    let cut = Cut {
                        depth,
                        allowed: root.allowed.as_ref().unwrap_or(&every),
                        table: restricted.then_some(i as u32),
                    };
                    cut.extend(root.rows, root.masks, &mut part);
                }
                part
            })
            .collect();
        let width = Self::width_of(restricted);
        let mut starts = Vec::with_capacity(roots.len() + 1);
        starts.push(0);
        for part in &parts {
            starts.push(starts[starts.len() - 1] + part.len() / width);
        }
        let tables = roots
            .iter()
            .filter_map(|r| r.allowed)
            .flat_map(|allowed| allowed.into_iter().take(n as usize))
            .collect();
        Self {
            words: parts.concat(),
            tables,
            starts,
            depth,
            restricted,
        }
    }

    /// Words per task: three masks, and a table's index where the units
    /// restrict their rows.
    pub fn width(&self) -> usize {
        Self::width_of(self.restricted)
    }

    fn width_of(restricted: bool) -> usize {
        if restricted { 4 } else { 3 }
    }

    /// How many tasks there are.
    pub fn len(&self) -> usize {
        self.words.len() / self.width()
    }

    /// Task `i`'s masks and the columns each of its rows allows (`every`
    /// for unrestricted units): what the kernel reads for it.
    #[cfg(test)]
    pub fn task<'a>(&'a self, n: u32, i: usize, every: &'a RowMasks) -> (Masks, &'a [u32]) {
        let word = &self.words[self.width() * i..];
        let masks = Masks {
            cols: word[0],
            diag: word[1],
            anti: word[2],
        };
        if !self.restricted {
            return (masks, &every[..n as usize]);
        }
        let table = word[3] as usize * n as usize;
        (masks, &self.tables[table..table + n as usize])
    }

    /// The contribution of unit `i` (of the units built, in order), given
    /// one count per task: counted on the host when the unit has no tasks.
    fn unit_total(
        &self,
        n: u32,
        i: usize,
        root: &Root,
        counts: &[u64],
        features: Features,
    ) -> u128 {
        let completions = if root.rows > self.depth {
            match &root.allowed {
                Some(allowed) => count_allowed_on(features, n, (root.rows, n), root.masks, allowed),
                None => count_completions_on(features, n, root.rows, root.masks),
            }
        } else {
            counts[self.starts[i]..self.starts[i + 1]]
                .iter()
                .map(|&c| u128::from(c))
                .sum()
        };
        completions * u128::from(root.weight)
    }

    /// Every unit's contribution, in order, given one count per task.
    pub fn totals(&self, n: u32, roots: &[Root], counts: &[u64], features: Features) -> Vec<u128> {
        roots
            .iter()
            .enumerate()
            .map(|(i, root)| self.unit_total(n, i, root, counts, features))
            .collect()
    }
}

/// How one unit is cut: rows `..depth`, each through the columns it
/// allows, each task followed by the unit's table index if it has one.
struct Cut<'a> {
    depth: u32,
    allowed: &'a RowMasks,
    table: Option<u32>,
}

impl Cut<'_> {
    /// Appends the tasks under a placement of `row` rows whose next row is
    /// attacked by `masks`: every way to fill rows `row..depth`, in column
    /// order.
    fn extend(&self, row: u32, masks: Masks, out: &mut Vec<u32>) {
        if row == self.depth {
            out.extend([masks.cols, masks.diag, masks.anti]);
            out.extend(self.table);
            return;
        }
        let mut open = masks.free(self.allowed[row as usize]);
        while open != 0 {
            let bit = lowest_bit(open);
            open ^= bit;
            self.extend(row + 1, masks.place(bit), out);
        }
    }
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

/// The deepest cut the kernel takes on an `n`-board: every task has row
/// `n - 2` to search and the last row to count.
#[must_use]
pub(crate) fn max_depth(n: u32) -> u32 {
    n - 2
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
#[doc(hidden)]
pub fn count_with_kernel(
    plan: &Plan,
    ids: &[u32],
    depth: u32,
    kernel: impl FnOnce(&[u32], &[u32]) -> Vec<u64>,
) -> Result<Vec<u128>, Error> {
    refuse(plan)?;
    plan.check_ids(ids)?;
    let n = plan.n();
    let roots = roots(plan, ids);
    let tasks = Tasks::build(n, depth.clamp(1, max_depth(n)), &roots);
    let counts = kernel(&tasks.words, &tasks.tables);
    assert_eq!(counts.len(), tasks.len(), "the kernel counts every task");
    Ok(tasks.totals(n, &roots, &counts, plan.features()))
}

/// Whether this build has the GPU executor (the `gpu` feature), whatever
/// the machine: [`find_gpu`] says whether it has a GPU for it.
pub const GPU_EXECUTOR: bool = cfg!(feature = "gpu");

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
    pub fn cut(&self, _n: u32, _roots: &[Root]) -> Tasks {
        match *self {}
    }

    /// Never called: no `Gpu` exists.
    pub fn count(
        &self,
        _n: u32,
        _tasks: &Tasks,
        _roots: &[Root],
        _features: Features,
    ) -> Result<Vec<u128>, Error> {
        match *self {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::{Config, Engine};
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
        Plan::new(n, engine, &Config::default()).unwrap()
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
            let mut scratch = super::super::plan::Scratch::default();
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

    /// A constellations task fixes its side queens' rows: each cut row
    /// holds a queen in a column its table allows, and a task's fourth word
    /// names its own start's table.
    #[test]
    fn constellation_tasks_keep_to_their_tables() {
        let n = 11;
        let plan = plan(n, Engine::Constellations);
        let ids: Vec<u32> = (0..plan.len() as u32).collect();
        let roots = roots(&plan, &ids);
        let depth = 6;
        let tasks = Tasks::build(n, depth, &roots);
        assert_eq!(tasks.tables.len(), n as usize * roots.len());
        let every = [full_mask(n); MAX_N as usize];
        for (i, root) in roots.iter().enumerate() {
            let allowed = root.allowed.unwrap();
            for t in tasks.starts[i]..tasks.starts[i + 1] {
                assert_eq!(tasks.words[4 * t + 3] as usize, i);
                let (masks, table) = tasks.task(n, t, &every);
                assert_eq!(table, &allowed[..n as usize]);
                assert_eq!(masks.cols.count_ones(), depth);
            }
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
                for restricted in [false, true] {
                    let depth = task_depth(n, &options, restricted);
                    assert!((1..=max_depth(n)).contains(&depth), "n = {n}, {asked:?}");
                }
            }
        }
    }

    /// Each mirror task counts what the CPU kernel counts from the same
    /// masks.
    #[test]
    fn mirror_tasks_agree_with_the_cpu_kernel() {
        for n in [8, 11, 13] {
            let depth = 3;
            let plan = Plan::new(n, Engine::Mirror, &Config::default().with_split_depth(1));
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

    /// The join's plans do not backtrack: the GPU refuses them in one
    /// line.
    #[test]
    fn the_join_is_refused() {
        let err = refuse(&plan(12, Engine::Join)).unwrap_err();
        assert!(
            err.to_string().contains("constellations and mirror"),
            "{err}"
        );
    }
}
