//! A hardware benchmark: a fixed, named workload counted at several thread
//! counts, each a warm-up and then timed runs, every count checked against
//! OEIS A000170.
//!
//! Workload `v1` is a join count (n = 17) and a backtracking count
//! (n = 16): a few seconds each on one core of a current CPU, the two
//! engines' different loads (the join's memory traffic and SIMD matcher,
//! the backtracker's branches). It never changes, so scores stay
//! comparable across versions; a new workload gets a new name. Only the
//! counting is timed: each plan is built once, before the runs.
//!
//! The score ([`Report::score`]) is the fixed workload's solutions
//! counted per second, at the most threads measured that the machine has
//! logical CPUs for: one number that grows with speed. A custom workload
//! has none, as its solutions per second depend on its n. Each thread
//! count keeps its runs' times and their statistics ([`stats`]), and a
//! finished report names what makes its figures doubtful
//! ([`Report::warnings`], as hyperfine warns). This module measures and
//! returns figures; it never prints.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::{
    Config, Engine, Error, Executor, Observer, Options, Plan, Runner, Shape, UnitDone, known,
};

pub mod stats;
mod warning;

pub use warning::{SHORT_RUN_SECS, Warning};

/// A named set of counts: [`Workload::v1`] or [`Workload::custom`], then
/// the `with_` methods.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Workload {
    /// `v1`, or `custom` for one chosen by the caller.
    pub name: &'static str,
    /// What is counted, in order: the engine and the board size.
    pub counts: Vec<(Engine, u32)>,
    /// How the counts may use the hardware (see [`Options`]).
    pub options: Options,
    /// Where the units run: the CPU, or the GPU (the mirror engine's
    /// plans only).
    pub executor: Executor,
    /// The memory the counts may take (see [`Config::memory_limit`]): a
    /// count that would need more is refused before its plan is built.
    pub memory_limit: Option<u64>,
}

impl Workload {
    /// The standard workload: the join at n = 17, the mirror engine at
    /// n = 16.
    #[must_use]
    pub fn v1() -> Self {
        Self {
            name: "v1",
            counts: vec![(Engine::Join, 17), (Engine::Mirror, 16)],
            options: Options::default(),
            executor: Executor::Cpu,
            memory_limit: None,
        }
    }

    /// One count of `n`, with `engine` or the best engine for `n`.
    #[must_use]
    pub fn custom(n: u32, engine: Option<Engine>) -> Self {
        Self {
            name: "custom",
            counts: vec![(engine.unwrap_or_else(|| Engine::best_for(n)), n)],
            options: Options::default(),
            executor: Executor::Cpu,
            memory_limit: None,
        }
    }

    /// Whether this is the fixed workload [`Workload::v1`] on the CPU,
    /// whose score compares across machines and versions.
    #[must_use]
    pub fn is_fixed(&self) -> bool {
        let v1 = Self::v1();
        self.name == v1.name && self.counts == v1.counts && self.executor == v1.executor
    }

    /// This workload counting with `options`.
    #[must_use]
    pub fn with_options(self, options: Options) -> Self {
        Self { options, ..self }
    }

    /// This workload refused past `bytes` of memory (`None`: no check).
    #[must_use]
    pub fn with_memory_limit(self, bytes: Option<u64>) -> Self {
        Self {
            memory_limit: bytes,
            ..self
        }
    }

    /// This workload counting on `executor`.
    #[must_use]
    pub fn with_executor(self, executor: Executor) -> Self {
        Self { executor, ..self }
    }

    /// The workload in words: `join n = 17, mirror n = 16`.
    #[must_use]
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self
            .counts
            .iter()
            .map(|(engine, n)| format!("{engine} n = {n}"))
            .collect();
        match self.executor {
            Executor::Gpu => format!("{} on the GPU", parts.join(", ")),
            _ => parts.join(", "),
        }
    }
}

/// The thread counts to measure by default: 1, 2, 4, ... and `max` itself.
#[must_use]
pub fn thread_counts(max: usize) -> Vec<usize> {
    let mut counts: Vec<usize> = std::iter::successors(Some(1usize), |t| t.checked_mul(2))
        .take_while(|&t| t < max)
        .collect();
    counts.push(max.max(1));
    counts
}

/// One thread count's figures.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Row {
    /// Threads in the pool.
    pub threads: usize,
    /// Wall time of each timed run of the whole workload, in seconds, in
    /// the order run (the warm-up is not among them).
    pub times_secs: Vec<f64>,
    /// Mean of the runs, in seconds.
    pub mean_secs: f64,
    /// Sample standard deviation of the runs, in seconds; `None` (JSON
    /// `null`) for one run.
    pub stddev_secs: Option<f64>,
    /// Median run, in seconds (the mean of the two middle runs for an
    /// even number).
    pub median_secs: f64,
    /// Fastest run, in seconds.
    pub min_secs: f64,
    /// Slowest run, in seconds.
    pub max_secs: f64,
    /// The 1-thread median over this one. When 1 thread was not measured,
    /// the fewest threads measured count as perfectly efficient.
    pub speedup: f64,
    /// Speed-up per thread, 1.0 being perfect.
    pub efficiency: f64,
    /// Solutions counted per second (median run).
    pub solutions_per_sec: f64,
    /// The process's CPU time in the timed runs, from
    /// [`Progress::cpu_secs`], over their unit-seconds (each unit's wall
    /// time on its thread, summed: the threads' idle ends ask for
    /// nothing); `None` (JSON `null`) where the caller cannot read CPU
    /// time. About 1 on a quiet machine; well below, another program was
    /// using the CPUs (issue 47, item 14).
    pub cpu_share: Option<f64>,
}

/// A finished benchmark.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Report {
    /// What was counted.
    pub workload: Workload,
    /// Work units in one run of the workload.
    pub units: usize,
    /// Solutions in one run of the workload.
    pub solutions: u128,
    /// Timed runs per thread count.
    pub runs: usize,
    /// One row per thread count, in the order measured.
    pub rows: Vec<Row>,
}

/// The score of the fixed workload: its solutions counted per second.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Score {
    /// The workload scored: `v1`.
    pub workload: &'static str,
    /// The thread count scored: the most measured that the machine has
    /// logical CPUs for.
    pub threads: usize,
    /// The workload's solutions over its median run's seconds at
    /// `threads`.
    pub solutions_per_sec: f64,
}

impl Report {
    /// The score on a machine with `logical_cpus`: the fixed workload's
    /// solutions per second at the most threads measured, up to
    /// `logical_cpus` (more threads than CPUs take turns, and time the
    /// scheduler). `None` for a custom workload, whose solutions per
    /// second depend on its n and compare with nothing, or when every
    /// thread count measured is above `logical_cpus`.
    #[must_use]
    pub fn score(&self, logical_cpus: usize) -> Option<Score> {
        if !self.workload.is_fixed() {
            return None;
        }
        let row = (self.rows.iter())
            .filter(|r| r.threads <= logical_cpus.max(1))
            .max_by_key(|r| r.threads)?;
        Some(Score {
            workload: self.workload.name,
            threads: row.threads,
            solutions_per_sec: row.solutions_per_sec,
        })
    }

    /// What makes the figures doubtful on a machine with `logical_cpus`
    /// ([`Warning`]): one warning per kind, none when all is well.
    #[must_use]
    pub fn warnings(&self, logical_cpus: usize) -> Vec<Warning> {
        warning::find(self, logical_cpus)
    }
}

/// The unit-seconds of the runs since its last reset: each unit's wall
/// time on its thread, summed.
#[derive(Default)]
struct UnitClock(AtomicU64);

impl UnitClock {
    fn reset(&self) {
        self.0.store(0, Ordering::Relaxed);
    }

    fn seconds(&self) -> f64 {
        self.0.load(Ordering::Relaxed) as f64 * 1e-9
    }
}

impl Observer for UnitClock {
    fn unit_done(&self, done: &UnitDone) {
        let nanos = u64::try_from(done.elapsed.as_nanos()).unwrap_or(u64::MAX);
        self.0.fetch_add(nanos, Ordering::Relaxed);
    }
}

/// Told what the benchmark is doing, for a progress display, and asked
/// the process's CPU time, which the library does not read itself.
pub trait Progress: Sync {
    /// Run `run` of `runs` at `threads` threads is starting (run 0 is the
    /// warm-up).
    fn step(&self, _threads: usize, _run: usize, _runs: usize) {}

    /// Run `run` of `runs` at `threads` threads took `secs` (run 0 is the
    /// warm-up): what a running estimate is made of.
    fn ran(&self, _threads: usize, _run: usize, _runs: usize, _secs: f64) {}

    /// The CPU seconds this process has used so far (all its threads),
    /// where the caller can read them: each row's
    /// [`cpu_share`](Row::cpu_share) comes from them.
    fn cpu_secs(&self) -> Option<f64> {
        None
    }

    /// Checks `solutions`, a run's count of `plan`: [`check_known`], the
    /// OEIS A000170 total, unless the caller knows better. (The `queens`
    /// binary's test builds add one here, to see a wrong count fail.)
    ///
    /// # Errors
    /// A count that is wrong, as [`Error::Mismatch`]: the benchmark ends
    /// with it.
    fn check(&self, plan: &Plan, solutions: u128) -> Result<(), Error> {
        check_known(plan, solutions)
    }
}

impl Progress for () {}

/// Whether `solutions` is OEIS A000170's total for `plan`'s board.
///
/// # Errors
/// [`Error::Mismatch`] when it is not (or the table has no total).
pub fn check_known(plan: &Plan, solutions: u128) -> Result<(), Error> {
    let want = known::total(plan.n()).unwrap_or_default();
    if solutions == want {
        return Ok(());
    }
    Err(Error::Mismatch {
        by: plan.engine().described(),
        n: plan.n(),
        got: solutions,
        want,
    })
}

/// Counts `workload` at each thread count of `threads`, a warm-up and then
/// `runs` timed runs each (at least one), checking every count
/// ([`Progress::check`]).
///
/// ```
/// use queens::bench::{Workload, bench};
///
/// let report = bench(&Workload::custom(10, None), &[1, 2], 1, &())?;
/// assert_eq!(report.solutions, 724);
/// assert_eq!(report.rows.len(), 2);
/// # Ok::<(), queens::Error>(())
/// ```
///
/// # Errors
/// [`Error::Mismatch`] on a wrong count; the engines' errors when a
/// count cannot start (bad n or thread count); [`Error::Unpublished`] for
/// an n without a published total.
pub fn bench(
    workload: &Workload,
    threads: &[usize],
    runs: usize,
    progress: &dyn Progress,
) -> Result<Report, Error> {
    let runs = runs.max(1);
    // The memory of the most threads asked for is the most a count takes.
    let most = threads.iter().copied().max().unwrap_or(1);
    let plans = prepared_plans(workload, most)?;
    let units = plans.iter().map(Plan::len).sum();
    let solutions: u128 = plans.iter().filter_map(|p| known::total(p.n())).sum();
    let mut rows = Vec::with_capacity(threads.len());
    for &t in threads {
        let times = Times::of(workload, &plans, t, runs, progress)?;
        rows.push(times.row(workload, solutions));
    }
    set_speedups(&mut rows);
    Ok(Report {
        workload: workload.clone(),
        units,
        solutions,
        runs,
        rows,
    })
}

/// The workload's plans, each refused before it is built where its n has
/// no published total or it would not fit in `most` threads' memory, and
/// prepared, so that no timed run builds tables.
fn prepared_plans(workload: &Workload, most: usize) -> Result<Vec<Plan>, Error> {
    let config = Config::default()
        .with_options(workload.options)
        .with_memory_limit(workload.memory_limit);
    let runner = Runner::new().thread_count(most);
    let prepared = |&(engine, n): &(Engine, u32)| {
        known::total(n).ok_or(Error::Unpublished(n))?;
        let shape = Shape::new(n, engine, None);
        runner.fits_unplanned(shape, &config, None)?;
        let plan = Plan::new(shape, &config)?;
        runner.fits(&plan, plan.len())?;
        // The quarter tables are built here, not in the first timed run.
        plan.prepare();
        Ok(plan)
    };
    workload.counts.iter().map(prepared).collect()
}

/// One thread count's timed runs.
struct Times {
    threads: usize,
    /// Each timed run's wall time.
    secs: Vec<f64>,
    /// The process's CPU seconds in the timed runs, where readable.
    cpu_secs: Option<f64>,
    /// The units' wall times in the timed runs, summed.
    unit_secs: f64,
}

impl Times {
    /// A warm-up and `runs` timed runs of every plan on `threads` threads.
    fn of(
        workload: &Workload,
        plans: &[Plan],
        threads: usize,
        runs: usize,
        progress: &dyn Progress,
    ) -> Result<Self, Error> {
        let pool = crate::thread_pool(NonZeroUsize::new(threads))?;
        let mut secs = Vec::with_capacity(runs);
        let mut cpu_secs = Some(0.0);
        let unit_clock = UnitClock::default();
        for run in 0..=runs {
            progress.step(threads, run, runs);
            if run == 1 {
                unit_clock.reset();
            }
            let cpu_before = progress.cpu_secs();
            let took = run_once(workload, plans, &pool, &unit_clock, progress)?;
            progress.ran(threads, run, runs, took);
            if run > 0 {
                secs.push(took);
                cpu_secs = cpu_secs
                    .zip(progress.cpu_secs().zip(cpu_before))
                    .map(|(sum, (after, before))| sum + (after - before));
            }
        }
        Ok(Self {
            threads,
            secs,
            cpu_secs,
            unit_secs: unit_clock.seconds(),
        })
    }

    /// The row of these times, for a workload of `solutions`; its
    /// speed-up is filled in by [`set_speedups`].
    fn row(self, workload: &Workload, solutions: u128) -> Row {
        let summary = stats::Summary::of(&self.secs);
        let unit_secs = self.unit_secs;
        Row {
            threads: self.threads,
            mean_secs: summary.mean,
            stddev_secs: summary.stddev,
            median_secs: summary.median,
            min_secs: summary.min,
            max_secs: summary.max,
            speedup: 1.0,
            efficiency: 1.0 / self.threads as f64,
            solutions_per_sec: solutions as f64 / summary.median,
            // The GPU's units take no CPU time of their own.
            cpu_share: (self.cpu_secs)
                .filter(|_| workload.executor != Executor::Gpu)
                .map(|cpu| stats::cpu_share(cpu, unit_secs)),
            times_secs: self.secs,
        }
    }
}

/// Counts every plan once on `pool`, each count checked; returns the
/// seconds it took.
fn run_once(
    workload: &Workload,
    plans: &[Plan],
    pool: &rayon::ThreadPool,
    unit_clock: &UnitClock,
    progress: &dyn Progress,
) -> Result<f64, Error> {
    let started = Instant::now();
    for plan in plans {
        let count = Runner::new()
            .executor(workload.executor)
            .pool(pool)
            .observer(unit_clock)
            .count(plan, &plan.select_all())?;
        progress.check(plan, count.solutions)?;
    }
    Ok(started.elapsed().as_secs_f64())
}

/// Speed-ups against the 1-thread row, wherever the list put it; against
/// the fewest threads measured when 1 was not.
fn set_speedups(rows: &mut [Row]) {
    let base = rows
        .iter()
        .min_by_key(|r| r.threads)
        .map(|r| (r.threads, r.median_secs));
    if let Some((base_threads, base_secs)) = base {
        for row in rows {
            row.speedup = base_secs / row.median_secs * base_threads as f64;
            row.efficiency = row.speedup / row.threads as f64;
        }
    }
}

/// What the benchmark ran on.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Machine {
    /// The CPU's model name (`/proc/cpuinfo` on Linux), or `unknown`.
    pub cpu: String,
    /// Logical CPUs available to this process.
    pub logical_cpus: usize,
    /// The operating system and its kernel release.
    pub os: String,
    /// The code paths the engines take on this CPU.
    pub simd: String,
    /// The GPU a GPU benchmark counted on, and its executor (as
    /// [`find_gpu`](crate::find_gpu) names them); `None` on the CPU.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub gpu: Option<String>,
}

impl Machine {
    /// Looks at this machine.
    #[must_use]
    pub fn detect() -> Self {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| {
                info.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, name)| name.trim().to_owned())
            })
            .unwrap_or_else(|| "unknown".to_owned());
        let release = std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .map(|r| format!(" {}", r.trim()))
            .unwrap_or_default();
        Self {
            cpu,
            logical_cpus: std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
            os: format!("{}{release}", std::env::consts::OS),
            simd: code_paths(crate::Simd::AUTO),
            gpu: None,
        }
    }

    /// This machine, benchmarked on the GPU `gpu` names.
    #[must_use]
    pub fn with_gpu(self, gpu: Option<String>) -> Self {
        Self { gpu, ..self }
    }

    /// This machine's code paths under `options` (the SIMD loops they
    /// turn off are not taken).
    #[must_use]
    pub fn with_options(self, options: &Options) -> Self {
        Self {
            simd: code_paths(options.simd),
            ..self
        }
    }
}

/// The code paths the counting loops take on this CPU, less those `simd`
/// turns off, for reports: `kernel bmi1+popcnt, join matcher avx512` (or
/// `portable` for either, and `avx512+vbmi` or `avx2` for the matcher).
#[must_use]
fn code_paths(simd: crate::Simd) -> String {
    let features = crate::cpu::Features::allowed(simd);
    format!(
        "kernel {}, join matcher {}",
        crate::kernel::path(features),
        crate::count::join::matcher::path(features)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_code_paths_are_named() {
        assert_eq!(
            code_paths(crate::Simd::PORTABLE),
            "kernel portable, join matcher portable"
        );
    }

    #[test]
    fn default_thread_counts_double_up_to_every_cpu() {
        assert_eq!(thread_counts(1), [1]);
        assert_eq!(thread_counts(2), [1, 2]);
        assert_eq!(thread_counts(6), [1, 2, 4, 6]);
        assert_eq!(thread_counts(16), [1, 2, 4, 8, 16]);
    }

    #[test]
    fn a_small_workload_is_timed_and_checked() {
        let report = bench(&Workload::custom(9, None), &[1, 2], 2, &()).unwrap();
        assert_eq!((report.units, report.solutions), (plan_units(9), 352));
        assert_eq!(report.rows.len(), 2);
        assert!((report.rows[0].speedup - 1.0).abs() < 1e-12);
        let reversed = bench(&Workload::custom(9, None), &[2, 1], 1, &()).unwrap();
        assert_eq!(reversed.rows[0].threads, 2);
        assert!(
            (reversed.rows[1].speedup - 1.0).abs() < 1e-12,
            "1 thread is the base"
        );
        let ratio = reversed.rows[1].median_secs / reversed.rows[0].median_secs;
        assert!((reversed.rows[0].speedup - ratio).abs() < 1e-9);
        assert!(
            report
                .rows
                .iter()
                .all(|r| r.min_secs <= r.median_secs && r.median_secs <= r.max_secs)
        );
        assert!(report.rows.iter().all(|r| r.times_secs.len() == 2));
        assert!(report.score(64).is_none(), "a custom workload has no score");
    }

    /// A report of `rows` (threads, runs' seconds) of `workload`, with the
    /// statistics and speed-ups `run` would give them.
    fn report_of(workload: Workload, rows: &[(usize, &[f64])]) -> Report {
        let solutions = 1_000_000;
        let rows: Vec<Row> = rows
            .iter()
            .map(|&(threads, times)| {
                let s = stats::Summary::of(times);
                Row {
                    threads,
                    times_secs: times.to_vec(),
                    mean_secs: s.mean,
                    stddev_secs: s.stddev,
                    median_secs: s.median,
                    min_secs: s.min,
                    max_secs: s.max,
                    speedup: 0.0,
                    efficiency: 0.0,
                    solutions_per_sec: solutions as f64 / s.median,
                    cpu_share: None,
                }
            })
            .collect();
        let base = rows.iter().min_by_key(|r| r.threads).unwrap().clone();
        let rows = rows
            .into_iter()
            .map(|r| {
                let speedup = base.median_secs / r.median_secs * base.threads as f64;
                Row {
                    speedup,
                    efficiency: speedup / r.threads as f64,
                    ..r
                }
            })
            .collect();
        Report {
            workload,
            units: 10,
            solutions,
            runs: 3,
            rows,
        }
    }

    #[test]
    fn the_score_is_v1s_solutions_per_second_at_the_most_threads_with_a_cpu() {
        let rows: &[(usize, &[f64])] = &[
            (1, &[4.0, 4.0, 4.0]),
            (2, &[2.0, 2.0, 2.0]),
            (4, &[1.0, 1.0, 1.0]),
        ];
        let report = report_of(Workload::v1(), rows);
        let score = report.score(2).unwrap();
        assert_eq!((score.workload, score.threads), ("v1", 2));
        assert!((score.solutions_per_sec - 500_000.0).abs() < 1e-6);
        assert_eq!(report.score(16).unwrap().threads, 4);
        assert!(report_of(Workload::v1(), &rows[2..]).score(2).is_none());
        assert!(
            report_of(Workload::custom(17, None), rows)
                .score(2)
                .is_none()
        );
        let gpu = Workload::v1().with_executor(Executor::Gpu);
        assert!(!gpu.is_fixed() && Workload::v1().is_fixed());
    }

    #[test]
    fn warnings_name_short_runs_outliers_oversubscription_and_slowdowns() {
        // See: issue 35 (`bench 14 --threads 1,2,4,8,16` on 2 CPUs: runs
        // of 9 ms, 0.98x at 2 threads, scored at 16 threads, no warning).
        let report = report_of(
            Workload::custom(14, None),
            &[
                (1, &[0.0093, 0.0095, 0.0094]),
                (2, &[0.0095, 0.0097, 0.0096]),
                (4, &[0.0080, 0.0079, 0.0195]),
                (16, &[0.0088, 0.0090, 0.0092]),
            ],
        );
        let warnings = report.warnings(2);
        assert_eq!(
            warnings,
            [
                Warning::ShortRuns {
                    threads: vec![1, 2, 4, 16],
                    custom: true
                },
                Warning::Outliers { threads: vec![4] },
                Warning::MoreThreadsThanCpus {
                    threads: vec![4, 16],
                    logical_cpus: 2
                },
                Warning::Slower {
                    rows: vec![(2, report.rows[1].speedup)],
                    base: 1
                },
            ]
        );
        assert!(report.rows[1].speedup < 1.0);
        let quiet = report_of(
            Workload::v1(),
            &[(1, &[4.0, 4.1, 4.05]), (2, &[2.0, 2.1, 2.05])],
        );
        assert_eq!(quiet.warnings(2), []);
        // Issue 47, item 14: the 2-thread runs got 36% of the CPU time
        // their units asked for.
        let mut busy = quiet.clone();
        busy.rows[0].cpu_share = Some(0.98);
        busy.rows[1].cpu_share = Some(0.36);
        assert_eq!(
            busy.warnings(2),
            [Warning::Busy {
                rows: vec![(2, 0.36)]
            }]
        );
        assert_eq!(
            quiet.warnings(1),
            [Warning::MoreThreadsThanCpus {
                threads: vec![2],
                logical_cpus: 1
            }]
        );
    }

    fn plan_units(n: u32) -> usize {
        Plan::new(Shape::new(n, Engine::best_for(n), None), &Config::default())
            .unwrap()
            .len()
    }

    /// Adds one to every count it checks.
    struct OffByOne;

    impl Progress for OffByOne {
        fn check(&self, plan: &Plan, solutions: u128) -> Result<(), Error> {
            check_known(plan, solutions + 1)
        }
    }

    #[test]
    fn a_wrong_count_fails_the_benchmark() {
        let err = bench(&Workload::custom(8, Some(Engine::Join)), &[1], 1, &OffByOne).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the join engine counted 93 for n = 8 but OEIS A000170 says 92"
        );
        let unknown = bench(&Workload::custom(28, None), &[1], 1, &()).unwrap_err();
        assert!(
            unknown
                .to_string()
                .contains("n = 28 has no published total")
        );
    }
}
