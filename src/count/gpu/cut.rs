//! The task cut: every unit a batch hands the GPU becomes the tasks that
//! fill its next rows down to [`task_depth`], laid out as a launch
//! uploads them ([`Tasks`]), and their counts become the units' totals.

use rayon::prelude::*;

use super::MIN_GPU_N;
use crate::count::constellations::search_of;
use crate::count::mirror::WorkUnit;
use crate::count::options::GpuOptions;
use crate::count::plan::Plan;
use crate::cpu::Features;
use crate::kernel::{
    MAX_N, Masks, RowMasks, count_allowed_on, count_completions_on, full_mask, lowest_bit,
};

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

/// The roots of units `ids` of `plan`, a plan [`refuse`](super::refuse) lets through.
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

/// The deepest cut the kernel takes on an `n`-board: every task has row
/// `n - 2` to search and the last row to count.
#[must_use]
pub(crate) fn max_depth(n: u32) -> u32 {
    n - 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;
    use crate::count::plan::Plan;
    use crate::count::{Config, Engine};

    fn plan(n: u32, engine: Engine) -> Plan {
        Plan::new(Shape::new(n, engine, None), &Config::default()).unwrap()
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
}
