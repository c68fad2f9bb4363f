//! `queens bench`: the hardware benchmark of [`queens::bench`], shown as a
//! table (or one JSON object), with the machine at the top, the score line
//! of workload v1 at the bottom, its warnings on stderr, and optionally a
//! plot of speed-up against threads and the rows as CSV or Markdown.
//!
//! A wrong count fails the benchmark with exit code 3, as for `count`.

use crate::exit::ExitCode;
use std::io::{self, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use anyhow::Context;
use indicatif::ProgressBar;
use queens::Error;
use queens::bench::{self, Machine, Workload};
use queens::{Config, Engine, Executor, Runner, Shape, known};
use serde::Serialize;

use super::args::refuse_engine;
use super::exit::EXIT_MISMATCH;
use super::files::{Identity, Output};
use super::report::{Column, Form, Human, Report, Table, mismatch};

/// Test builds only (debug assertions on, never the release binary):
/// every count the benchmark checks is off by one, so it must fail.
#[cfg(debug_assertions)]
const WRONG_COUNTS: &str = "QUEENS_TEST_BENCH_WRONG";

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
    #[arg(
        long,
        requires = "n",
        default_value_if("gpu_backend", clap::builder::ArgPredicate::IsPresent, "true")
    )]
    gpu: bool,

    /// The GPU executor and its API (implies --gpu): auto (CUDA where it is
    /// built in and an NVIDIA GPU answers, else the portable one), cuda,
    /// portable (wgpu: Vulkan, Metal or DirectX 12), vulkan, metal, dx12.
    #[arg(long, value_name = "BACKEND",
          value_parser = crate::values::ChoiceParser::<queens::GpuBackend>::new(), requires = "n")]
    gpu_backend: Option<queens::GpuBackend>,

    /// Thread counts, e.g. 1,2,8, each once [default: 1, 2, 4, ... up to
    /// every logical CPU, or to RAYON_NUM_THREADS].
    #[arg(long, value_name = "LIST", value_parser = parse_thread_list, allow_hyphen_values = true)]
    threads: Option<ThreadList>,

    /// Timed runs per thread count, after one warm-up (1 to 100).
    #[arg(long, value_name = "R", default_value_t = 3, value_parser = super::args::parse_runs,
          allow_negative_numbers = true)]
    runs: u32,

    /// Print one JSON object (machine, workload, rows with every run's
    /// time, score, warnings) and nothing else.
    #[arg(long)]
    json: bool,

    /// Print only the score (workload v1), or a line `THREADS MEDIAN_SECS`
    /// per thread count (`bench N`); no warnings.
    #[arg(short, long)]
    quiet: bool,

    /// Draw speed-up against threads, with min-max bars and the ideal line
    /// up to the logical CPUs, into FILE (SVG).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,

    /// Write the rows to FILE as CSV: threads, mean_secs, stddev_secs,
    /// median_secs, min_secs, max_secs, speedup, efficiency.
    #[arg(long, value_name = "FILE")]
    export_csv: Option<PathBuf>,

    /// Write the rows to FILE as a Markdown table.
    #[arg(long, value_name = "FILE")]
    export_markdown: Option<PathBuf>,
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
    /// Workload v1's solutions per second; `null` for a custom workload,
    /// or when every thread count is above the logical CPUs.
    score: Option<bench::Score>,
    /// What makes the figures doubtful, one line each, as stderr shows
    /// them (without the `queens: warning: ` prefix).
    warnings: Vec<String>,
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
    let mut gpu = None;
    if let (true, Some(n)) = (args.gpu, args.n) {
        if let Some(refusal) = super::options::refuse_gpu(args.engine, n) {
            return Err(super::UsageError(refusal).into());
        }
        gpu = Some(super::options::find_gpu(args.gpu_backend)?);
    }
    let workload = match (args.n, args.gpu) {
        (Some(n), true) => {
            let engine = args.engine.unwrap_or_else(|| Executor::Gpu.engine_for(n));
            Workload::custom(n, Some(engine)).with_executor(Executor::Gpu)
        }
        (Some(n), false) => Workload::custom(n, args.engine),
        (None, _) => Workload::v1(),
    }
    .with_options(super::options::with_backend(args.gpu_backend)?)
    .with_memory_limit(super::memory::available()?);
    // Checked before the benchmark runs, and again when they are written.
    let outputs = outputs(&[
        ("--svg", args.svg.as_deref()),
        ("--export-csv", args.export_csv.as_deref()),
        ("--export-markdown", args.export_markdown.as_deref()),
    ])?;
    let machine = Machine::detect()
        .with_options(&workload.options)
        .with_gpu(gpu);
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
        let config = Config::default().with_memory_limit(workload.memory_limit);
        let shape = Shape::new(n, engine, None);
        let most = NonZeroUsize::new(most_asked).unwrap_or(NonZeroUsize::MIN);
        Runner::new()
            .threads(most)
            .fits_unplanned(shape, &config, None)?;
        super::plan::announce(shape, &config);
    }
    let shown = !args.json && !args.quiet && io::stderr().is_terminal();
    let bar = Bar::new(shown, &workload, runs);
    let report = match bench::bench(&workload, &threads, runs, &bar) {
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
        score: report.score(machine.logical_cpus),
        warnings: (report.warnings(machine.logical_cpus).iter())
            .map(ToString::to_string)
            .collect(),
    };
    Report::stdout(Form::from_flags(args.json, args.quiet)).record(&record)?;
    if !args.quiet {
        for warning in &record.warnings {
            eprintln!("queens: warning: {warning}");
        }
    }
    for (flag, output) in &outputs {
        let text = match *flag {
            "--svg" => {
                let mut drawn = String::new();
                plot(&mut drawn, &report, &machine)
                    .with_context(|| format!("drawing the plot for {}", output.path().display()))?;
                drawn
            }
            "--export-csv" => csv(&report.rows),
            _ => markdown(&report.rows),
        };
        output.write(text.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The outputs named, each checked; two options naming one file are
/// refused, as the second would overwrite the first.
fn outputs(
    named: &[(&'static str, Option<&std::path::Path>)],
) -> anyhow::Result<Vec<(&'static str, Output)>> {
    let mut checked: Vec<(&'static str, Output, Option<Identity>)> = Vec::new();
    for &(flag, path) in named {
        let Some(path) = path else { continue };
        let output = Output::new(path, flag, &[])?;
        let identity = Identity::of(path);
        if let Some((other, _, _)) = checked
            .iter()
            .find(|(_, _, seen)| identity.is_some() && *seen == identity)
        {
            return Err(super::UsageError(format!(
                "{flag} {} names the same file as {other}: one would overwrite the other; \
                 name another file",
                path.display()
            ))
            .into());
        }
        checked.push((flag, output, identity));
    }
    Ok(checked
        .into_iter()
        .map(|(flag, output, _)| (flag, output))
        .collect())
}

/// The rows as CSV, with a header row, as hyperfine's `--export-csv`: every
/// duration in seconds, as precise as measured; an empty stddev_secs for
/// one run.
fn csv(rows: &[bench::Row]) -> String {
    let mut text = String::from(
        "threads,mean_secs,stddev_secs,median_secs,min_secs,max_secs,speedup,efficiency\n",
    );
    for r in rows {
        let stddev = r.stddev_secs.map(|s| s.to_string()).unwrap_or_default();
        text.push_str(&format!(
            "{},{},{stddev},{},{},{},{},{}\n",
            r.threads, r.mean_secs, r.median_secs, r.min_secs, r.max_secs, r.speedup, r.efficiency
        ));
    }
    text
}

/// The rows as a Markdown table, as hyperfine's `--export-markdown`: the
/// mean with its standard deviation, in the one unit (s, ms or µs) that
/// suits the slowest mean.
fn markdown(rows: &[bench::Row]) -> String {
    let slowest = rows.iter().map(|r| r.mean_secs).fold(0.0, f64::max);
    let (unit, scale, digits) = if slowest >= 1.0 {
        ("s", 1.0, 3)
    } else if slowest >= 1e-3 {
        ("ms", 1e3, 2)
    } else {
        ("µs", 1e6, 1)
    };
    let time = |secs: f64| format!("{:.digits$}", secs * scale);
    let mut text = format!(
        "| Threads | Mean [{unit}] | Median [{unit}] | Min [{unit}] | Max [{unit}] | Speed-up | \
         Efficiency |\n|---:|---:|---:|---:|---:|---:|---:|\n"
    );
    for r in rows {
        let mean = match r.stddev_secs {
            Some(s) => format!("{} ± {}", time(r.mean_secs), time(s)),
            None => time(r.mean_secs),
        };
        text.push_str(&format!(
            "| {} | {mean} | {} | {} | {} | {:.2}x | {:.0}% |\n",
            r.threads,
            time(r.median_secs),
            time(r.min_secs),
            time(r.max_secs),
            r.speedup,
            r.efficiency * 100.0
        ));
    }
    text
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
        if let Some(gpu) = &machine.gpu {
            writeln!(out, "GPU: {gpu}")?;
        }
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
        match &self.score {
            Some(score) => {
                writeln!(out)?;
                writeln!(
                    out,
                    "score: {:.3e} solutions per second on workload {} ({}, median run)",
                    score.solutions_per_sec,
                    score.workload,
                    super::report::plural(score.threads as u64, "thread")
                )
            }
            None if workload.name == "v1" => {
                writeln!(out)?;
                writeln!(
                    out,
                    "no score: every thread count measured is more than the {} logical CPUs",
                    machine.logical_cpus
                )
            }
            None => Ok(()),
        }
    }

    /// The score's solutions per second, or each row's median seconds.
    fn quiet(&self, out: &mut dyn Write) -> io::Result<()> {
        match &self.score {
            Some(score) => writeln!(out, "{}", score.solutions_per_sec),
            None => self
                .rows
                .iter()
                .try_for_each(|row| writeln!(out, "{} {}", row.threads, row.median_secs)),
        }
    }
}

/// Speed-up against threads: each thread count's median run, with a bar
/// from its slowest run to its fastest, and the ideal line up to the
/// logical CPUs (beyond them threads take turns, and nothing is ideal).
fn plot(svg: &mut String, report: &bench::Report, machine: &Machine) -> anyhow::Result<()> {
    use plotters::prelude::*;
    let top = report.rows.iter().map(|r| r.threads).max().unwrap_or(1);
    let ideal_to = machine.logical_cpus.clamp(1, top);
    // Speed-up scales as 1 / time: the slowest run gives the low end.
    let mut points: Vec<(i64, f64, f64, f64)> = (report.rows.iter())
        .map(|r| {
            let at = |secs: f64| r.speedup * r.median_secs / secs;
            (r.threads as i64, at(r.max_secs), r.speedup, at(r.min_secs))
        })
        .collect();
    // The line joins the thread counts left to right, whatever order
    // `--threads` measured them in.
    points.sort_by_key(|p| p.0);
    let highest = points.iter().map(|p| p.3).fold(ideal_to as f64, f64::max);
    let root = SVGBackend::with_string(svg, (720, 480)).into_drawing_area();
    root.fill(&WHITE)?;
    let what = if report.workload.is_fixed() {
        format!(
            "workload {} ({})",
            report.workload.name,
            report.workload.describe()
        )
    } else {
        report.workload.describe()
    };
    let caption = format!(
        "queens bench, {what}: speed-up on {} ({} logical CPUs)",
        machine.cpu, machine.logical_cpus
    );
    // Whole threads only: the ticks are the ones `thread_ticks` picks, and
    // the axis runs one past each end so that no point sits on its edge.
    let x_axis = (0..top as i64 + 1).with_key_points(thread_ticks(top));
    let mut chart = ChartBuilder::on(&root)
        .caption(&caption, ("sans-serif", caption_size(&caption)))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(48)
        // The top quarter is left free for the legend.
        .build_cartesian_2d(x_axis, 0.0..highest * 1.35)?;
    chart
        .configure_mesh()
        .x_desc("threads")
        .y_desc("speed-up over 1 thread")
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()?;
    chart
        .draw_series(LineSeries::new(
            [(1, 1.0), (ideal_to as i64, ideal_to as f64)],
            BLACK.stroke_width(1),
        ))?
        .label(format!(
            "ideal, up to the {} logical CPUs",
            machine.logical_cpus
        ))
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLACK));
    chart
        .draw_series(LineSeries::new(
            points.iter().map(|p| (p.0, p.2)),
            BLUE.stroke_width(2),
        ))?
        .label("measured: median run, bar from slowest to fastest")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLUE));
    chart.draw_series(
        (points.iter()).map(|&(x, lo, mid, hi)| ErrorBar::new_vertical(x, lo, mid, hi, BLUE, 8)),
    )?;
    chart.draw_series(
        points
            .iter()
            .map(|p| Circle::new((p.0, p.2), 4, BLUE.filled())),
    )?;
    chart
        .configure_series_labels()
        .background_style(WHITE)
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()?;
    Ok(())
}

/// A font size at which `caption` fits the plot's 720 pixels (a
/// sans-serif letter is about 0.55 of its size wide): 15, or less for a
/// long CPU name.
fn caption_size(caption: &str) -> f64 {
    (680.0 / (0.55 * caption.chars().count() as f64)).min(15.0)
}

/// The x axis's ticks: 1, then every `step` up to `top`, and `top`, with
/// the step the smallest of 1, 2, 4, 5, 10, 20, 25, 50, ... that keeps
/// the ticks to about 16.
fn thread_ticks(top: usize) -> Vec<i64> {
    let top = top.max(1);
    let step = [1, 2, 4, 5]
        .into_iter()
        .chain(
            std::iter::successors(Some(10usize), |s| s.checked_mul(10))
                .flat_map(|s| [s, 2 * s, 5 * s / 2, 5 * s]),
        )
        .find(|&step| top / step <= 16)
        .unwrap_or(top);
    let mut ticks = vec![1];
    ticks.extend((step..=top).step_by(step).filter(|&t| t > 1));
    if ticks.last() != Some(&top) {
        ticks.push(top);
    }
    ticks.into_iter().map(|t| t as i64).collect()
}

/// The progress bar: what is running now, and the running estimate of
/// this thread count's median run, as hyperfine shows its current mean
/// (issue 47: 85 s of a spinner alone).
struct Bar(ProgressBar, Mutex<Vec<f64>>);

impl Bar {
    fn new(visible: bool, workload: &Workload, runs: usize) -> Self {
        let bar = super::progress::styled_bar(visible, "{spinner} [{elapsed_precise}] {msg}");
        bar.set_prefix(format!("{} ({runs} runs)", workload.describe()));
        if visible {
            bar.enable_steady_tick(Duration::from_millis(200));
        }
        Self(bar, Mutex::new(Vec::new()))
    }
}

impl bench::Progress for Bar {
    fn step(&self, threads: usize, run: usize, runs: usize) {
        let mut times = self.1.lock().unwrap_or_else(PoisonError::into_inner);
        if run == 0 {
            times.clear();
        }
        self.0
            .set_message(step_line(&self.0.prefix(), threads, run, runs, &times));
    }

    fn ran(&self, _threads: usize, run: usize, _runs: usize, secs: f64) {
        if run > 0 {
            (self.1.lock().unwrap_or_else(PoisonError::into_inner)).push(secs);
        }
    }

    fn cpu_secs(&self) -> Option<f64> {
        super::cpu_time::process_secs()
    }

    fn check(&self, plan: &queens::Plan, solutions: u128) -> Result<(), Error> {
        #[cfg(debug_assertions)]
        if std::env::var_os(WRONG_COUNTS).is_some() {
            return bench::check_known(plan, solutions + 1);
        }
        bench::check_known(plan, solutions)
    }
}

/// The progress line of run `run` of `runs` at `threads`, after the timed
/// runs `times` of this thread count:
/// `join n = 17 (3 runs): 2 threads, run 3/3, current estimate 1.234 s`.
fn step_line(prefix: &str, threads: usize, run: usize, runs: usize, times: &[f64]) -> String {
    let what = if run == 0 {
        "warm-up".to_owned()
    } else {
        format!("run {run}/{runs}")
    };
    let threads = super::report::plural(threads as u64, "thread");
    match times {
        [] => format!("{prefix}: {threads}, {what}"),
        _ => format!(
            "{prefix}: {threads}, {what}, current estimate {:.3} s (median of {})",
            bench::stats::Summary::of(times).median,
            super::report::plural(times.len() as u64, "run")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 47, item 14: the progress line showed a spinner alone.
    #[test]
    fn the_progress_line_shows_the_running_estimate() {
        let prefix = "join n = 17 (3 runs)";
        assert_eq!(
            step_line(prefix, 1, 0, 3, &[]),
            "join n = 17 (3 runs): 1 thread, warm-up"
        );
        assert_eq!(
            step_line(prefix, 2, 3, 3, &[0.95, 0.944]),
            "join n = 17 (3 runs): 2 threads, run 3/3, current estimate 0.947 s (median of 2 runs)"
        );
        assert!(step_line(prefix, 2, 2, 3, &[0.5]).ends_with("0.500 s (median of 1 run)"));
    }
}
