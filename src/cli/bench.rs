//! `queens bench`: the hardware benchmark of [`queens::bench`], shown as a
//! table (or one JSON object), with the machine at the top, a score line at
//! the bottom, and optionally a plot of speed-up against threads.
//!
//! A wrong count fails the benchmark with exit code 3, as for `count`.

use std::io::{self, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use indicatif::ProgressBar;
use queens::Error;
use queens::bench::{self, Machine, Workload};
use queens::{Config, Counter, Engine, Executor, known};
use serde::Serialize;

use super::args::refuse_engine;
use super::exit::EXIT_MISMATCH;
use super::files::Output;
use super::report::{Column, Form, Human, Report, Table, mismatch};

/// Test builds only: every count is off by one, so the benchmark must fail.
#[cfg(debug_assertions)]
const WRONG_COUNTS: &str = "QUEENS_TEST_BENCH_WRONG";

/// The benchmark. In test builds (debug assertions on, never the release
/// binary) [`WRONG_COUNTS`] makes every count wrong.
fn run_bench(
    workload: &Workload,
    threads: &[usize],
    runs: usize,
    progress: &dyn bench::Progress,
) -> Result<bench::Report, Error> {
    #[cfg(debug_assertions)]
    if std::env::var_os(WRONG_COUNTS).is_some() {
        return bench::bench_with_wrong_counts(workload, threads, runs, progress);
    }
    bench::bench(workload, threads, runs, progress)
}

/// The smallest board worth timing: below it a run counts nothing (n = 2
/// and 3 have no solution, n = 1 one) and the score is 0 or noise.
pub const MIN_N: u32 = 4;

/// The largest board with a published total to check a benchmark against.
pub const MAX_N: u32 = (known::A000170.len() - 1) as u32;

#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Count this board size (4 to 27) instead of the standard workload v1
    /// (join n = 17 and mirror n = 16).
    #[arg(value_name = "N", allow_negative_numbers = true, value_parser = parse_size)]
    n: Option<u32>,

    /// The engine for N [default: the faster for N].
    #[arg(long, value_parser = super::options::EngineParser, requires = "n")]
    engine: Option<Engine>,

    /// Count N on the NVIDIA GPU (a build with `--features gpu`): the
    /// constellations engine's plan, or the mirror engine's with --engine
    /// mirror; --threads then sets the CPU threads that cut the tasks.
    #[arg(long, requires = "n")]
    gpu: bool,

    /// Thread counts, e.g. 1,2,8, each once [default: 1, 2, 4, ... up to
    /// every logical CPU, or to RAYON_NUM_THREADS].
    #[arg(long, value_name = "LIST", value_parser = parse_thread_list, allow_hyphen_values = true)]
    threads: Option<ThreadList>,

    /// Timed runs per thread count, after one warm-up (1 to 100).
    #[arg(long, value_name = "R", default_value_t = 3, value_parser = super::args::parse_runs,
          allow_negative_numbers = true)]
    runs: u32,

    /// Print one JSON object (machine, workload, rows, score) and nothing
    /// else.
    #[arg(long)]
    json: bool,

    /// Draw speed-up against threads, with the ideal line, into FILE (SVG).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

/// Thread counts from `--threads`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadList(Vec<usize>);

/// Thread counts, each once: a count listed twice would be measured, and
/// shown, twice.
fn parse_thread_list(text: &str) -> Result<ThreadList, String> {
    let counts = text
        .split(',')
        .map(|t| super::args::parse_threads(t).map(NonZeroUsize::get))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{e} (a list like 1,2,8)"))?;
    if let Some(t) = counts
        .iter()
        .enumerate()
        .find_map(|(i, t)| counts[..i].contains(t).then_some(t))
    {
        return Err(format!(
            "thread count {t} is listed more than once: expected a list like 1,2,8, each \
             count once"
        ));
    }
    Ok(ThreadList(counts))
}

/// A board size from [`MIN_N`] to [`MAX_N`].
fn parse_size(text: &str) -> Result<u32, String> {
    let n: i64 = text.trim().parse().map_err(|_| {
        format!("'{text}' is not a board size: expected a whole number from {MIN_N} to {MAX_N}")
    })?;
    let why = if n < i64::from(MIN_N) {
        "smaller boards take no work to time"
    } else {
        "no published total would check a larger board's count"
    };
    u32::try_from(n)
        .ok()
        .filter(|n| (MIN_N..=MAX_N).contains(n))
        .ok_or_else(|| {
            format!(
                "board size {n} is out of range: a benchmark takes n from {MIN_N} to {MAX_N} \
                 ({why})"
            )
        })
}

/// A benchmark, as `--json` prints it.
#[derive(Serialize)]
struct BenchRecord<'a> {
    /// The machine.
    machine: &'a Machine,
    /// queens's version and commit.
    version: &'static str,
    commit: &'static str,
    /// The workload's name, its counts and sizes.
    workload: WorkloadRecord,
    /// Timed runs per thread count, after a warm-up.
    runs: usize,
    /// One row per thread count.
    rows: &'a [bench::Row],
    /// Work units per second at the highest thread count.
    score: f64,
}

/// The workload of a [`BenchRecord`].
#[derive(Serialize)]
struct WorkloadRecord {
    /// `v1`, or `custom` for a board size given.
    name: &'static str,
    /// Each count a run makes: `[engine, n]`.
    counts: Vec<(&'static str, u32)>,
    /// Work units in one run.
    units: usize,
    /// Solutions in one run.
    solutions: u128,
    /// The counts in words (`join n = 17, mirror n = 16`), for the text.
    #[serde(skip)]
    described: String,
}

pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    if let (Some(n), Some(engine)) = (args.n, args.engine)
        && let Some(refusal) = refuse_engine(engine, n)
    {
        return Err(super::UsageError(refusal).into());
    }
    if let (true, Some(n)) = (args.gpu, args.n) {
        if let Some(refusal) = super::options::refuse_gpu(args.engine, n) {
            return Err(super::UsageError(refusal).into());
        }
        super::options::find_gpu()?;
    }
    let workload = match (args.n, args.gpu) {
        (Some(n), true) => {
            let engine = args.engine.unwrap_or_else(|| super::options::gpu_engine(n));
            Workload::custom(n, Some(engine)).with_executor(Executor::Gpu)
        }
        (Some(n), false) => Workload::custom(n, args.engine),
        (None, _) => Workload::v1(),
    }
    .with_options(super::options::from_env()?)
    .with_memory_limit(super::memory::available()?);
    // Checked before the benchmark runs, and again when it is written.
    let svg = args
        .svg
        .as_deref()
        .map(|path| Output::new(path, "--svg", &[]))
        .transpose()?;
    let machine = Machine::detect().with_options(&workload.options);
    let most = super::args::threads(None)?.map_or(machine.logical_cpus, NonZeroUsize::get);
    let threads = args
        .threads
        .as_ref()
        .map_or_else(|| bench::thread_counts(most), |t| t.0.clone());
    let runs = args.runs as usize;
    // A count too big for this machine is refused before the plan is
    // announced (the library checks again).
    let most_asked = threads.iter().copied().max().unwrap_or(1);
    for &(engine, n) in &workload.counts {
        let config = Config::with_threads(most_asked).with_memory_limit(workload.memory_limit);
        Counter::new(n)
            .engine(engine)
            .config(&config)
            .fits_unplanned()?;
        super::plan::announce(n, engine, &config);
    }
    let bar = Bar::new(!args.json && io::stderr().is_terminal(), &workload, runs);
    let report = match run_bench(&workload, &threads, runs, &bar) {
        Ok(report) => report,
        Err(Error::Mismatch { by, n, got, want }) => {
            bar.0.finish_and_clear();
            mismatch(&format!(
                "for n = {n}: {by} counted {got} but OEIS A000170 says {want}"
            ));
            return Ok(ExitCode::from(EXIT_MISMATCH));
        }
        Err(Error::Unpublished(n)) => {
            bar.0.finish_and_clear();
            return Err(super::UsageError(format!(
                "n = {n} has no published total to check a benchmark against: use n <= 27"
            ))
            .into());
        }
        Err(other) => return Err(other.into()),
    };
    bar.0.finish_and_clear();
    let record = BenchRecord {
        machine: &machine,
        version: env!("CARGO_PKG_VERSION"),
        commit: env!("QUEENS_COMMIT"),
        workload: WorkloadRecord {
            name: report.workload.name,
            counts: report
                .workload
                .counts
                .iter()
                .map(|(e, n)| (e.name(), *n))
                .collect(),
            units: report.units,
            solutions: report.solutions,
            described: report.workload.describe(),
        },
        runs: report.runs,
        rows: &report.rows,
        score: report.score,
    };
    Report::stdout(Form::of(args.json)).record(&record)?;
    if let Some(svg) = &svg {
        let mut drawn = String::new();
        plot(&mut drawn, &report, &machine)
            .with_context(|| format!("drawing the plot for {}", svg.path().display()))?;
        svg.write(drawn.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

impl Human for BenchRecord<'_> {
    /// The machine and the workload, a row per thread count, the score.
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (machine, workload) = (self.machine, &self.workload);
        writeln!(
            out,
            "queens {} (commit {}), workload {}: {}",
            self.version, self.commit, workload.name, workload.described
        )?;
        writeln!(
            out,
            "machine: {}, {} logical CPUs, {}; {}",
            machine.cpu, machine.logical_cpus, machine.os, machine.simd
        )?;
        writeln!(
            out,
            "{} runs per thread count after a warm-up; every count checked against OEIS A000170",
            self.runs
        )?;
        writeln!(out)?;
        let table = Table::new(vec![
            Column::right("threads", 7),
            Column::right("median (s)", 10),
            Column::right("min-max (s)", 17),
            Column::right("speed-up", 8),
            Column::right("efficiency", 10),
            Column::right("solutions/s", 13),
        ]);
        table.header(out)?;
        for row in self.rows {
            table.row(
                out,
                &[
                    &row.threads,
                    &format!("{:.4}", row.median_secs),
                    &format!("{:.4}-{:.4}", row.min_secs, row.max_secs),
                    &format!("{:.2}x", row.speedup),
                    &format!("{:.0}%", row.efficiency * 100.0),
                    &format!("{:.3e}", row.solutions_per_sec),
                ],
            )?;
        }
        let top = self.rows.iter().map(|r| r.threads).max().unwrap_or(1);
        writeln!(out)?;
        writeln!(
            out,
            "score: {:.1} units/s (workload {}, {top} threads; {} units a run)",
            self.score, workload.name, workload.units
        )
    }
}

/// Speed-up against threads, measured and ideal.
fn plot(svg: &mut String, report: &bench::Report, machine: &Machine) -> anyhow::Result<()> {
    use plotters::prelude::*;
    let top = report.rows.iter().map(|r| r.threads).max().unwrap_or(1) as f64;
    let root = SVGBackend::with_string(svg, (720, 480)).into_drawing_area();
    root.fill(&WHITE)?;
    let caption = format!(
        "queens bench {}: speed-up on {} ({} logical CPUs)",
        report.workload.name, machine.cpu, machine.logical_cpus
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 16))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(48)
        .build_cartesian_2d(0.0..top * 1.05, 0.0..top * 1.05)?;
    chart
        .configure_mesh()
        .x_desc("threads")
        .y_desc("speed-up over 1 thread")
        .draw()?;
    chart
        .draw_series(LineSeries::new(
            [(1.0, 1.0), (top, top)],
            BLACK.stroke_width(1),
        ))?
        .label("ideal")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLACK));
    let measured: Vec<(f64, f64)> = report
        .rows
        .iter()
        .map(|r| (r.threads as f64, r.speedup))
        .collect();
    chart
        .draw_series(LineSeries::new(measured.clone(), BLUE.stroke_width(2)))?
        .label("measured (median runs)")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLUE));
    chart.draw_series(measured.iter().map(|&p| Circle::new(p, 4, BLUE.filled())))?;
    chart
        .configure_series_labels()
        .background_style(WHITE)
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()?;
    Ok(())
}

/// The progress bar: what is running now.
struct Bar(ProgressBar);

impl Bar {
    fn new(visible: bool, workload: &Workload, runs: usize) -> Self {
        let bar = super::progress::styled_bar(visible, "{spinner} [{elapsed_precise}] {msg}");
        bar.set_prefix(format!("{} ({runs} runs)", workload.describe()));
        if visible {
            bar.enable_steady_tick(Duration::from_millis(200));
        }
        Self(bar)
    }
}

impl bench::Progress for Bar {
    fn step(&self, threads: usize, run: usize, runs: usize) {
        let what = if run == 0 {
            "warm-up".to_owned()
        } else {
            format!("run {run}/{runs}")
        };
        self.0
            .set_message(format!("{}: {threads} threads, {what}", self.0.prefix()));
    }
}
