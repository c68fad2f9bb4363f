//! `queens ladder N`: counts N with every algorithm of the ladder that
//! finishes within about a minute, and prints each one's time, its
//! speed-up over the step before and the nodes of the tree it walks
//! ([`Algorithm::nodes`], counted after the timed runs).
//!
//! Only the count is timed: every step but `parallel` counts on this
//! thread, and `parallel`'s pool and plan (its work units and their cost
//! estimates) are built before its runs start, so no step pays for
//! starting threads.
//!
//! `--json` writes one object per step (JSON lines), skipped steps
//! included; `-q` one line per step counted, its name and its seconds.
//!
//! A count that takes under [`REPEAT_BELOW`] is repeated until the runs add
//! up to [`REPEAT_UNTIL`], and the mean is shown, so that the speed-ups of
//! small boards are not timer noise. Every count is checked against OEIS
//! A000170; a disagreement exits 3, as for `count`.

use crate::exit::ExitCode;
use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use queens::MAX_N;
use queens::{Algorithm, Config, Counter, Engine, count_with, known, thread_pool};

use super::args::Refusal;
use super::exit::EXIT_MISMATCH;
use super::report::{Column, Form, Human, Report, Table, mismatch, verdict};
use serde::Serialize;

/// A first run shorter than this is repeated.
const REPEAT_BELOW: Duration = Duration::from_millis(50);
/// Repeated runs go on until they add up to this.
const REPEAT_UNTIL: Duration = Duration::from_millis(200);

#[derive(Debug, clap::Args)]
pub struct LadderArgs {
    /// Board size N (1 to 32).
    #[arg(value_name = "N", allow_negative_numbers = true,
          value_parser = |s: &str| super::args::parse_board_size(s, MAX_N))]
    n: u32,

    /// Also run the steps that would take longer than about a minute.
    #[arg(long)]
    force: bool,

    /// Worker threads for the parallel step [default: all cores, or
    /// RAYON_NUM_THREADS].
    #[arg(short = 'j', long, value_name = "T", value_parser = super::args::parse_threads,
          allow_negative_numbers = true)]
    threads: Option<NonZeroUsize>,

    /// Print one JSON object per step (JSON lines).
    #[arg(long)]
    json: bool,

    /// Print only each step's name and its time in seconds, a line each.
    #[arg(short, long)]
    quiet: bool,
}

/// A step of the ladder, as `--json` prints it: counted, or skipped and
/// every measure null.
#[derive(Debug, Serialize)]
struct StepRecord {
    /// Board size.
    n: u32,
    /// The step, as `count --algorithm` names it.
    algorithm: &'static str,
    /// Solutions counted.
    solutions: Option<u128>,
    /// Nodes of the tree the step walks.
    nodes: Option<u128>,
    /// Mean wall time of one count, in seconds.
    mean_secs: Option<f64>,
    /// Timed counts the mean is of (quick ones are repeated).
    runs: Option<u32>,
    /// The time of the step counted before this one over this one's;
    /// null for the first.
    speedup: Option<f64>,
    /// Threads counting: 1, but for `parallel`.
    threads: Option<usize>,
    /// The OEIS A000170 value, or null where none is published.
    known: Option<u128>,
    /// Whether `solutions` equals `known`; null when nothing is known or
    /// the step was skipped.
    matches_known: Option<bool>,
    /// Why the step was not run; null when it was.
    skipped: Option<String>,
}

/// The table the steps are rows of: its header and a row with its
/// verdict fit 80 columns up to 14 digits of solutions and 13 of nodes
/// (n = 20 and beyond), and a longer one is folded between words at a
/// terminal ([`Report`]).
fn table(n: u32) -> Table {
    Table::new(vec![
        Column::left(format!("n = {n}"), 14),
        Column::right("solutions", 14),
        Column::right("nodes", 13),
        Column::right("time", 9),
        Column::right("speed-up", 8),
        Column::left("OEIS A000170", 0),
    ])
}

impl Human for StepRecord {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let table = table(self.n);
        let (Some(solutions), Some(nodes), Some(secs)) =
            (self.solutions, self.nodes, self.mean_secs)
        else {
            let why = self.skipped.as_deref().unwrap_or_default();
            return table.row_then(out, &[&self.algorithm], &format!("skipped: {why}"));
        };
        let speed_up = self.speedup.map_or_else(|| "-".to_owned(), format_ratio);
        let verdict = verdict(self.matches_known, self.known);
        let time = queens::human::duration(secs);
        table.row(
            out,
            &[
                &self.algorithm,
                &solutions,
                &nodes,
                &time,
                &speed_up,
                &verdict,
            ],
        )
    }

    /// The step's name and seconds; nothing for a step skipped.
    fn quiet(&self, out: &mut dyn Write) -> io::Result<()> {
        match self.mean_secs {
            Some(secs) => writeln!(out, "{} {secs}", self.algorithm),
            None => Ok(()),
        }
    }
}

pub fn run(args: &LadderArgs) -> anyhow::Result<ExitCode> {
    let n = args.n;
    let threads = super::args::threads(args.threads)?;
    // The slow steps count on the calling thread; the parallel one on the
    // pool below.
    let config = Config::default();
    let known = known::total(n);
    let mut report = Report::stdout(Form::from_flags(args.json, args.quiet));
    report.header(|out| table(n).header(out))?;
    let mut previous: Option<Duration> = None;
    // The last tree walked, and its nodes: the next step may walk the same.
    let mut walked: Option<(Algorithm, u128)> = None;
    let mut mismatches = 0;
    for algorithm in Algorithm::ALL {
        if let Some(refusal) = super::args::refusal(algorithm, n, args.force) {
            let why = match refusal {
                Refusal::TooSlow { limit, max } if n <= max => {
                    format!("beyond n = {limit} it takes longer than a minute (--force runs it)")
                }
                Refusal::TooSlow { max, .. } | Refusal::TooLarge { max } => {
                    format!("it cannot count boards beyond n = {max}")
                }
            };
            report.record(&StepRecord {
                n,
                algorithm: algorithm.name(),
                solutions: None,
                nodes: None,
                mean_secs: None,
                runs: None,
                speedup: None,
                threads: None,
                known,
                matches_known: None,
                skipped: Some(why),
            })?;
            continue;
        }
        let mut threads_used = 1;
        let ((solutions, time), runs) = if algorithm == Algorithm::Parallel {
            // `count_with` would build a pool and a plan on every run; built
            // once here, their start stays out of the time.
            let pool = thread_pool(threads)?;
            let counter = Counter::new(n)
                .engine(Engine::Mirror)
                .config(&config)
                .pool(&pool);
            let plan = counter.plan()?;
            threads_used = pool.current_num_threads();
            timed(|| counter.run_plan(&plan).map(|c| c.solutions))?
        } else {
            timed(|| count_with(algorithm, n, &config))?
        };
        let nodes = match walked {
            Some((before, nodes)) if algorithm.walks_the_tree_of(before) => nodes,
            _ => algorithm.nodes(n)?,
        };
        walked = Some((algorithm, nodes));
        let speedup = previous.map(|p| p.as_secs_f64() / time.as_secs_f64().max(1e-9));
        let matches = known.map(|k| k == solutions);
        if matches == Some(false) {
            mismatches += 1;
        }
        report.record(&StepRecord {
            n,
            algorithm: algorithm.name(),
            solutions: Some(solutions),
            nodes: Some(nodes),
            mean_secs: Some(time.as_secs_f64()),
            runs: Some(runs),
            speedup,
            threads: Some(threads_used),
            known,
            matches_known: matches,
            skipped: None,
        })?;
        previous = Some(time);
    }
    if mismatches > 0 {
        mismatch(&format!(
            "for n = {n}: {mismatches} algorithm(s) disagree with OEIS A000170"
        ));
        return Ok(ExitCode::from(EXIT_MISMATCH));
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `count` once, or, when that is quick, until the runs add up to
/// [`REPEAT_UNTIL`]; returns its result and the mean time of a run, and
/// how many runs that is the mean of.
fn timed<E>(mut count: impl FnMut() -> Result<u128, E>) -> Result<((u128, Duration), u32), E> {
    let started = Instant::now();
    let solutions = count()?;
    let first = started.elapsed();
    if first >= REPEAT_BELOW {
        return Ok(((solutions, first), 1));
    }
    let mut runs = 1u32;
    while started.elapsed() < REPEAT_UNTIL {
        count()?;
        runs += 1;
    }
    Ok(((solutions, started.elapsed() / runs), runs))
}

/// Two significant digits or so: `0.05x`, `2.4x`, `31x`; `<0.01x` below.
fn format_ratio(ratio: f64) -> String {
    if ratio >= 10.0 {
        format!("{ratio:.0}x")
    } else if ratio >= 1.0 {
        format!("{ratio:.1}x")
    } else if ratio >= 0.01 {
        format!("{ratio:.2}x")
    } else {
        "<0.01x".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_keep_about_two_digits() {
        let shown: Vec<String> = [123.4, 23.46, 2.44, 0.456, 0.0123, 0.001]
            .into_iter()
            .map(format_ratio)
            .collect();
        assert_eq!(shown, ["123x", "23x", "2.4x", "0.46x", "0.01x", "<0.01x"]);
    }

    #[test]
    fn quick_counts_are_repeated_and_averaged() {
        let mut runs = 0;
        let ((solutions, _), runs_counted) = timed(|| {
            runs += 1;
            Ok::<u128, ()>(7)
        })
        .unwrap();
        assert_eq!(solutions, 7);
        assert!(runs > 1);
        assert_eq!(runs, runs_counted);
    }
}
