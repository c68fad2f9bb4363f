//! The empty board counted on the page's GPU (WebGPU, `web/gpu.js`): the
//! module cuts the constellations plan into the tasks the portable
//! executor's kernel (`src/count/gpu/kernel.wgsl`) counts, the page
//! uploads them and runs the kernel, writes one count a task back, and the
//! module totals them and checks the total against OEIS A000170.
//!
//! The cut is the library's ([`KernelTasks`], what the native GPU
//! executors upload); only the depth is the page's, shallower than theirs
//! so that the tasks fit a browser's memory and its GPU's default buffer
//! limits (n = 20: 1.1 million tasks, 18 MB, where the native cut's 54
//! million take 860 MB). Boards with given queens or blocked squares count
//! on the CPU: the GPU runs whole-board plans only.

use std::sync::Mutex;

use queens::internals::KernelTasks;
use queens::{Config, Engine, Plan, Shape, known};

use crate::lock;

/// The board sizes the page counts on the GPU: the kernel's smallest to the
/// page's largest.
pub const GPU_N: std::ops::RangeInclusive<u32> = 4..=20;

/// The rows a task fixes on an `n`-board: from n = 18 on, 3 rather than
/// 4, which would make 2.8 to 8.5 million tasks (n = 18 to 20; 3 rows make
/// 0.45 to 1.1 million). Clamped to `n - 2` by the cut.
fn depth(n: u32) -> u32 {
    if n >= 18 { 3 } else { 4 }
}

/// The launch the page is counting: its tasks, and one count a task (two
/// words each, low first, as the kernel writes them) for the page to fill.
struct Launch {
    n: u32,
    tasks: KernelTasks,
    counts: Vec<u32>,
}

static LAUNCH: Mutex<Option<Launch>> = Mutex::new(None);

/// Cuts the empty `n`-board's constellations plan into tasks, kept until
/// [`total`]: `{"n":12,"tasks":18025,"width":4,"depth":4,"words":ADDRESS,
/// "tables":ADDRESS,"tables_len":8760,"counts":ADDRESS}`, the addresses
/// being where in the module's memory the words (`tasks * width`), the
/// tables and the counts to fill (`2 * tasks` words) lie.
///
/// # Errors
/// For `n` outside [`GPU_N`], and the library's.
pub fn tasks(n: u32) -> Result<String, String> {
    if !GPU_N.contains(&n) {
        return Err(format!(
            "the page counts boards of {} to {} on the GPU, not {n}",
            GPU_N.start(),
            GPU_N.end()
        ));
    }
    let plan = Plan::new(
        Shape::new(n, Engine::Constellations, None),
        &Config::default(),
    )
    .map_err(|e| e.to_string())?;
    let ids: Vec<u32> = (0..plan.len() as u32).collect();
    let tasks = KernelTasks::cut(&plan, &ids, depth(n)).map_err(|e| e.to_string())?;
    let launch = Launch {
        n,
        counts: vec![0; 2 * tasks.len()],
        tasks,
    };
    let json = format!(
        r#"{{"n":{n},"tasks":{},"width":{},"depth":{},"words":{},"tables":{},"tables_len":{},"counts":{}}}"#,
        launch.tasks.len(),
        launch.tasks.width(),
        launch.tasks.depth(),
        launch.tasks.words().as_ptr() as usize,
        launch.tasks.tables().as_ptr() as usize,
        launch.tasks.tables().len(),
        launch.counts.as_ptr() as usize,
    );
    *lock(&LAUNCH) = Some(launch);
    Ok(json)
}

/// The total of the launch [`tasks`] cut, from the counts the page wrote:
/// `{"count":"14200"}`. The launch is done with.
///
/// # Errors
/// No launch cut, or a total that is not OEIS A000170's (a fault of the
/// GPU, its driver or the page's dispatch: the page says so rather than
/// show it).
pub fn total() -> Result<String, String> {
    let launch = lock(&LAUNCH)
        .take()
        .ok_or("no GPU launch to total: cut one first")?;
    let counts: Vec<u64> = launch
        .counts
        .chunks_exact(2)
        .map(|pair| u64::from(pair[0]) | u64::from(pair[1]) << 32)
        .collect();
    let total: u128 = launch
        .tasks
        .totals(&counts)
        .map_err(|e| e.to_string())?
        .iter()
        .sum();
    let n = launch.n;
    match known::total(n) {
        Some(want) if want != total => Err(format!(
            "the GPU counted {total} for n = {n} but OEIS A000170 says {want}"
        )),
        _ => Ok(format!(r#"{{"count":"{total}"}}"#)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The completions of a task of an `n`-board, slowly: row by row, each
    /// row's free squares among those its table allows, from the row the
    /// task's masks are for (the number of its columns taken).
    fn count_task(n: u32, cols: u32, diag: u32, anti: u32, table: &[u32]) -> u64 {
        let row = cols.count_ones() as usize;
        if row == n as usize {
            return 1;
        }
        let mut free = !(cols | diag | anti) & table[row];
        let mut count = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            count += count_task(n, cols | bit, (diag | bit) << 1, (anti | bit) >> 1, table);
        }
        count
    }

    /// Counts every task of the launch cut for `n` as the kernel would and
    /// writes the counts where the page would, `wrong` added to the first.
    fn count_launch(n: u32, wrong: u64) {
        let mut slot = lock(&LAUNCH);
        let launch = slot.as_mut().unwrap();
        let width = launch.tasks.width();
        assert_eq!(width, 4, "the constellations plan's tasks name a table");
        for (i, task) in launch.tasks.words().chunks_exact(width).enumerate() {
            let at = (task[3] * n) as usize;
            let table = &launch.tasks.tables()[at..at + n as usize];
            let mut count = count_task(n, task[0], task[1], task[2], table);
            if i == 0 {
                count += wrong;
            }
            launch.counts[2 * i] = count as u32;
            launch.counts[2 * i + 1] = (count >> 32) as u32;
        }
    }

    /// One test, as the launch is one static: the tasks of each board
    /// total A000170, and a wrong count is refused.
    #[test]
    fn the_tasks_total_a000170_and_nothing_else() {
        for n in [4, 5, 8, 11, 12] {
            let json = tasks(n).unwrap();
            assert!(
                json.starts_with(&format!(r#"{{"n":{n},"tasks":"#)),
                "{json}"
            );
            count_launch(n, 0);
            let want = known::total(n).unwrap();
            assert_eq!(total(), Ok(format!(r#"{{"count":"{want}"}}"#)), "n = {n}");
        }
        tasks(9).unwrap();
        // One task's high word off by one: the first unit's weight times
        // 2^32 too many.
        count_launch(9, 1 << 32);
        let wrong = total().unwrap_err();
        assert!(wrong.starts_with("the GPU counted "), "{wrong}");
        assert!(
            wrong.ends_with(" for n = 9 but OEIS A000170 says 352"),
            "{wrong}"
        );
        // The launch is gone with its total, wrong or not.
        assert!(total().unwrap_err().contains("no GPU launch"));
        assert!(tasks(3).is_err() && tasks(21).is_err());
    }
}
