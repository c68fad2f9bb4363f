//! `queens estimate N`: how long `count N` would take on this machine,
//! projected from counting a random sample of its plan's units
//! ([`queens::estimate`]), with an interval, and the number of solutions
//! the sample projects, set beside A000170 as a check.

use crate::exit::ExitCode;
use std::io::{self, Write};
use std::num::{NonZeroU32, NonZeroUsize};
use std::time::Instant;

use queens::bench::stats;
use queens::{Config, Engine, Executor, MAX_N, Overrun, Plan, Runner, Sample, Shape, human};
use serde::Serialize;

use super::EXIT_USAGE;
use super::args::{parse_board_size, parse_threads};
use super::report::{Form, Human, Report};
use super::verify::{fresh_seed, parse_percent};

#[derive(Debug, clap::Args)]
pub struct EstimateArgs {
    /// The board size.
    #[arg(value_name = "N", allow_negative_numbers = true,
          value_parser = |s: &str| parse_board_size(s, MAX_N))]
    n: u32,

    /// The engine [default: the one `count N` uses].
    #[arg(long, value_parser = super::options::EngineParser)]
    engine: Option<Engine>,

    /// Rows fixed by each unit of the mirror engine (1 to 6) [default: 2],
    /// as `count --split-depth` takes it; for a problem, the rows without a
    /// given queen each unit places. Refused for the other engines.
    #[arg(long, value_name = "D", value_parser = super::args::parse_split_depth,
          allow_negative_numbers = true)]
    split_depth: Option<u32>,

    /// Worker threads [default: all cores, or RAYON_NUM_THREADS].
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads,
          allow_negative_numbers = true)]
    threads: Option<NonZeroUsize>,

    /// Count this share of each stratum's units, e.g. 5% [default: --seconds 10].
    #[arg(long, value_name = "P%", value_parser = parse_percent, allow_hyphen_values = true,
          conflicts_with = "seconds")]
    sample: Option<f64>,

    /// Count units, drawn from every stratum in turn, for about S seconds.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = parse_seconds)]
    seconds: Option<f64>,

    /// Draw the sample with this seed (printed when not given, to repeat it).
    #[arg(long, value_name = "X", value_parser = super::args::parse_seed,
          allow_negative_numbers = true)]
    seed: Option<u64>,

    /// Count the sample on the NVIDIA GPU (a build with `--features gpu`).
    #[arg(
        long,
        default_value_if("gpu_backend", clap::builder::ArgPredicate::IsPresent, "true")
    )]
    gpu: bool,

    /// The GPU executor and its API (implies --gpu): auto (CUDA where it is
    /// built in and an NVIDIA GPU answers, else the portable one), cuda,
    /// portable (wgpu: Vulkan, Metal or DirectX 12), vulkan, metal, dx12.
    #[arg(long, value_name = "BACKEND",
          value_parser = crate::values::ChoiceParser::<queens::GpuBackend>::new())]
    gpu_backend: Option<queens::GpuBackend>,

    /// Read a campaign of K shards (`count N --shard I/K`, 1 to 100000):
    /// its core-hours, longest shard, wall time and the memory a machine
    /// needs.
    #[arg(long, value_name = "K", value_parser = parse_shard_count, allow_negative_numbers = true)]
    shards: Option<NonZeroU32>,

    /// Machines running the shards at once, one shard each [default: K].
    #[arg(long, value_name = "M", requires = "shards", value_parser = parse_machines,
          allow_negative_numbers = true)]
    machines: Option<NonZeroU32>,

    /// Threads of each machine of the campaign [default: -j's].
    #[arg(long, value_name = "T", requires = "shards", value_parser = parse_threads,
          allow_negative_numbers = true)]
    machine_threads: Option<NonZeroUsize>,

    /// Print one JSON object.
    #[arg(long)]
    json: bool,

    /// Print only the projected seconds; no warnings.
    #[arg(short, long)]
    quiet: bool,

    /// Queens given and squares blocked: estimate the count of that
    /// problem's completions (the mirror engine's plan, on the CPU).
    #[command(flatten)]
    problem: super::problem::ProblemArgs,
}

/// Hours to three significant figures, thousands apart: `129,000`,
/// `36.2`, `0.00412`.
fn hours(h: f64) -> String {
    if !(h.is_finite() && h > 0.0) {
        return format!("{h}");
    }
    let digits = h.log10().floor() as i32;
    if digits < 3 {
        let decimals = (2 - digits).max(0) as usize;
        return format!("{h:.decimals$}");
    }
    let rounded = {
        let unit = 10f64.powi(digits - 2);
        ((h / unit).round() * unit) as u64
    };
    let text = rounded.to_string();
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i > 0 && (text.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A number of shards, as `--shard I/K` takes K.
fn parse_shard_count(text: &str) -> Result<NonZeroU32, String> {
    (text.trim().parse::<u32>().ok())
        .filter(|k| (1..=queens::shard::MAX_SHARDS).contains(k))
        .and_then(NonZeroU32::new)
        .ok_or_else(|| {
            format!(
                "'{text}' is not a number of shards: expected a whole number from 1 to {}",
                queens::shard::MAX_SHARDS
            )
        })
}

/// A number of machines, 1 to a million.
fn parse_machines(text: &str) -> Result<NonZeroU32, String> {
    (text.trim().parse::<u32>().ok())
        .filter(|m| (1..=1_000_000).contains(m))
        .and_then(NonZeroU32::new)
        .ok_or_else(|| {
            format!(
                "'{text}' is not a number of machines: expected a whole number from 1 to 1000000"
            )
        })
}

/// Seconds above 0 and at most a day.
fn parse_seconds(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0 && *s <= 86_400.0)
        .ok_or_else(|| {
            format!("'{text}' is not a time to sample for: expected seconds above 0, at most 86400")
        })
}

/// What `estimate` prints.
#[derive(Debug, Serialize)]
struct EstimateRecord {
    /// The board size.
    n: u32,
    /// The engine whose plan was sampled.
    engine: &'static str,
    /// `cpu` or `gpu`.
    executor: &'static str,
    /// Threads counting (the projection divides unit-seconds by them).
    threads: usize,
    /// The seed the sample was drawn with: `--seed` repeats it.
    seed: u64,
    /// Units in the plan.
    units: usize,
    /// Units counted.
    sampled: usize,
    /// The share of the plan's estimated cost counted, in [0, 1].
    cost_share: f64,
    /// Seconds building the plan, part of the projection.
    plan_secs: f64,
    /// Seconds preparing the plan's tables (the join), part of the projection.
    prepare_secs: f64,
    /// Wall seconds counting the sample.
    sample_secs: f64,
    /// Projected wall seconds of `count N` with this engine and threads:
    /// the plan, its tables and its units.
    projected_secs: f64,
    /// The 95% interval of `projected_secs` (Student's t).
    low_secs: f64,
    high_secs: f64,
    /// The degrees of freedom of that interval; null when every unit was
    /// counted.
    degrees_of_freedom: Option<f64>,
    /// How far the machine's speed moved while the sample was counted: the
    /// standard deviation, as a share, of the speed of ten blocks of its
    /// units in the order they ended, beyond their own spread; null for a
    /// sample too small to tell.
    drift: Option<f64>,
    /// The half-width, as a share of the projected seconds of the units
    /// not counted, that the drift adds to the intervals (in quadrature
    /// with the sampling's).
    drift_margin: f64,
    /// The projection from the sample's times alone, before the
    /// correction by the known total (`known`); the same as
    /// `projected_secs` where there is none.
    uncorrected_secs: f64,
    /// The 95% interval of `uncorrected_secs`.
    uncorrected_low_secs: f64,
    uncorrected_high_secs: f64,
    /// Projected number of solutions.
    projected_solutions: f64,
    /// The 95% interval of `projected_solutions`.
    low_solutions: f64,
    high_solutions: f64,
    /// How far `projected_solutions` is from `known`, in its standard
    /// errors (null where there is no known value or no error left).
    solutions_deviation: Option<f64>,
    /// The process's CPU time while the tables were built and the sample
    /// counted, over their wall time and the sample's unit-seconds (each
    /// unit's time on its thread); null on the GPU. About 1 on a quiet
    /// machine; well below, another program was using the CPUs and the
    /// projection is too long (a warning says so).
    cpu_share: Option<f64>,
    /// A000170's value, where published (null for a problem).
    known: Option<u128>,
    /// The problem whose completions were sampled (`Q` given, `x`
    /// blocked, `.` free, rows joined by `/`); null for the empty board.
    problem: Option<String>,
    /// Rows fixed per unit (the mirror engine's plan; null for the others).
    split_depth: Option<u32>,
    /// With `--shards`: the campaign read from the estimate; else null.
    campaign: Option<CampaignRecord>,
}

/// `estimate --shards K`: a campaign of K shards, read from the estimate.
#[derive(Debug, Serialize)]
struct CampaignRecord {
    /// Shards, as `count --shard I/K` deals them.
    shards: u32,
    /// How units are dealt to shards (`lpt`, `round-robin`).
    assignment: &'static str,
    /// Machines running shards at once, and threads of each.
    machines: u32,
    machine_threads: usize,
    /// Core-hours of every unit at this machine's speed a core, and the
    /// 95% interval.
    core_hours: f64,
    low_core_hours: f64,
    high_core_hours: f64,
    /// The shard projected to take longest: its index, core-hours, and
    /// wall seconds on one machine (with the plan and tables it builds
    /// first), with their interval.
    longest_shard: u32,
    longest_shard_core_hours: f64,
    longest_shard_secs: f64,
    low_longest_shard_secs: f64,
    high_longest_shard_secs: f64,
    /// The longest unit's projected seconds: no shard takes less.
    longest_unit_secs: f64,
    /// Seconds each shard's process spends on the plan and its tables.
    setup_secs: f64,
    /// Wall seconds from the first shard's start to the last one's end,
    /// machines taking shards in index order as they come free.
    wall_secs: f64,
    low_wall_secs: f64,
    high_wall_secs: f64,
    /// Bytes a machine needs to count the largest shard on its threads.
    machine_bytes: u64,
    /// What it needs with its threads sharing units (one at a time for
    /// every 8 threads) in the join's fastest chunks.
    shared_machine_bytes: u64,
    /// The least it needs: the join's smallest chunks, more slowly.
    least_machine_bytes: u64,
}

impl CampaignRecord {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let gib = |b: u64| b as f64 / f64::from(1u32 << 30);
        writeln!(
            out,
            "campaign         {} shards ({}) on {} of {}",
            self.shards,
            self.assignment,
            super::report::plural(u64::from(self.machines), "machine"),
            super::report::plural(self.machine_threads as u64, "thread"),
        )?;
        writeln!(
            out,
            "core-hours       {} (95% interval {} to {}) at this machine's speed a core",
            hours(self.core_hours),
            hours(self.low_core_hours),
            hours(self.high_core_hours)
        )?;
        writeln!(
            out,
            "longest shard    {} ({} core-hours): {} (95% interval {} to {}), of which {} plan \
             and tables; its longest unit {}",
            self.longest_shard,
            hours(self.longest_shard_core_hours),
            human::duration(self.longest_shard_secs),
            human::duration(self.low_longest_shard_secs),
            human::duration(self.high_longest_shard_secs),
            human::duration(self.setup_secs),
            human::duration(self.longest_unit_secs),
        )?;
        writeln!(
            out,
            "wall time        {} (95% interval {} to {})",
            human::duration(self.wall_secs),
            human::duration(self.low_wall_secs),
            human::duration(self.high_wall_secs),
        )?;
        let bytes = |bytes: u64| {
            if bytes >= 1 << 30 {
                format!("{:.1} GiB", gib(bytes))
            } else {
                format!("{:.0} MiB", bytes as f64 / f64::from(1u32 << 20))
            }
        };
        let mut least = String::new();
        if self.shared_machine_bytes < self.machine_bytes {
            least += &format!(
                "; {} with its threads sharing units, as fast but for a little idling",
                bytes(self.shared_machine_bytes)
            );
        }
        if self.least_machine_bytes < self.shared_machine_bytes.min(self.machine_bytes) {
            least += &format!(
                "; at least {}, in smaller chunks, its biggest units slower",
                bytes(self.least_machine_bytes)
            );
        }
        writeln!(
            out,
            "memory           {} a machine ({} threads and the largest shard's units){least}",
            bytes(self.machine_bytes),
            self.machine_threads
        )
    }
}

impl Human for EstimateRecord {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let on = match self.executor {
            "gpu" => "the GPU".to_owned(),
            _ => super::report::plural(self.threads as u64, "thread"),
        };
        writeln!(
            out,
            "n = {}, {} engine on {on}, seed {} (repeat with --seed {})",
            self.n, self.engine, self.seed, self.seed
        )?;
        writeln!(
            out,
            "sampled {} of {} units ({:.1}% of the estimated cost) in {}",
            self.sampled,
            self.units,
            100.0 * self.cost_share,
            human::duration(self.sample_secs)
        )?;
        // The plan apart: `count`'s time column leaves it out, and where it
        // is most of the projection (constellations at n = 14: 99 of
        // 120 ms) the whole figure read as twice the count's time (issue
        // 47, item 16).
        writeln!(
            out,
            "projected time   {} (95% interval {} to {}): plan {}, then count {}",
            human::duration(self.projected_secs),
            human::duration(self.low_secs),
            human::duration(self.high_secs),
            human::duration(self.plan_secs),
            human::duration(self.projected_secs - self.plan_secs)
        )?;
        // A count at another time runs at whatever speed the machine has
        // then: say how much of the interval is that.
        // Where every unit was counted the time is measured, not projected.
        let whole = self.degrees_of_freedom.is_none();
        match self.drift {
            Some(drift) if whole => writeln!(
                out,
                "machine drift    its speed moved {:.1}% between blocks of the sample; every unit \
                 was counted, so it widens nothing",
                100.0 * drift
            )?,
            Some(drift) if drift > 0.0 => writeln!(
                out,
                "machine drift    its speed moved {:.1}% between blocks of the sample: +-{:.1}% of \
                 the interval",
                100.0 * drift,
                100.0 * self.drift_margin
            )?,
            Some(_) => writeln!(
                out,
                "machine drift    none seen between blocks of the sample beyond its units' own \
                 spread"
            )?,
            None if whole => {}
            None => writeln!(
                out,
                "machine drift    not measured: the sample is under two blocks of {} (three units \
                 each); the interval is the sampling's alone (a longer sample, --seconds, measures \
                 it)",
                human::duration(queens::DRIFT_BLOCK_SECONDS)
            )?,
        }
        let check = match self.known {
            Some(0) => "A000170: 0".to_owned(),
            Some(known) => format!(
                "A000170: {known}, ratio {:.3}{}",
                self.projected_solutions / known as f64,
                self.solutions_deviation
                    .map_or_else(String::new, |d| format!(", {d:+.1} standard errors"))
            ),
            None if self.problem.is_some() => "completions: no OEIS value".to_owned(),
            None => "A000170 has no value for this n".to_owned(),
        };
        writeln!(
            out,
            "projected total  {:.3e} solutions ({check})",
            self.projected_solutions
        )?;
        // The correction is the sample's own: say what it was moved from,
        // so that a reader sees how much the known total did.
        if self.known.is_some_and(|k| k > 0) && self.degrees_of_freedom.is_some() {
            writeln!(
                out,
                "corrected by the known total; by the sample's times alone {} (95% interval {} to {})",
                human::duration(self.uncorrected_secs),
                human::duration(self.uncorrected_low_secs),
                human::duration(self.uncorrected_high_secs),
            )?;
        }
        match &self.campaign {
            Some(campaign) => campaign.human(out),
            None => Ok(()),
        }
    }

    /// The projected seconds alone.
    fn quiet(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{}", self.projected_secs)
    }
}

pub fn run(args: &EstimateArgs) -> anyhow::Result<ExitCode> {
    let n = args.n;
    let problem = args.problem.problem(n)?.filter(|p| !p.is_empty_board());
    if problem.is_some() {
        if let Some(engine) = args.engine.filter(|&e| e != Engine::Mirror) {
            return Err(super::UsageError(super::plan::refuse_problem_engine(engine)).into());
        }
        if args.gpu {
            return Err(super::UsageError(
                "--gpu does not go with --given, --blocked and --board: a problem's completions \
                 are counted on the CPU (drop --gpu)"
                    .to_owned(),
            )
            .into());
        }
    }
    if args.gpu && args.shards.is_some() {
        return Err(super::UsageError(
            "--shards does not go with --gpu: a campaign is read for machines counting on their \
             CPUs (drop --gpu)"
                .to_owned(),
        )
        .into());
    }
    let threads = super::args::threads(args.threads)?;
    let executor = if args.gpu {
        if let Some(refusal) = super::options::refuse_gpu(args.engine, n) {
            return Err(super::UsageError(refusal).into());
        }
        super::options::find_gpu(args.gpu_backend)?;
        Executor::Gpu
    } else {
        Executor::Cpu
    };
    // One config for the plan and the count: the memory limit is the
    // count's (see: issue 32, which aborted under `ulimit -v` and ignored
    // QUEENS_MEMORY_LIMIT), the options are the environment's.
    let config = Config::default()
        .with_options(super::options::with_backend(args.gpu_backend)?)
        .with_memory_limit(super::memory::available()?);
    let runner = Runner::new().executor(executor);
    let runner = match threads {
        Some(threads) => runner.threads(threads),
        None => runner,
    };
    let engine = Engine::for_count(n, args.engine, executor, problem.as_ref());
    // See: issue 47, item 4 (estimate took no split, so it sampled
    // another plan than the count's with --split-depth).
    let split = args.split_depth;
    if let Some(refusal) =
        super::plan::refuse_split_depth(split, args.engine, n, engine, ("estimate", "estimated"))
    {
        return Err(super::UsageError(refusal).into());
    }
    // The plan `count --shard` counts: the mirror engine's shards split
    // deeper.
    let shape = Shape::of_count(n, engine, split, args.shards.is_some());
    // The sample's records are few: only the tables and the threads'
    // buffers are checked before the plan is built.
    let started = Instant::now();
    let planned = runner
        .fits_unplanned(shape, &config, Some(0))
        .and_then(|()| {
            if !args.quiet {
                super::plan::announce(shape, &config);
            }
            match &problem {
                Some(problem) => Plan::for_problem(problem, split, &config),
                None => Plan::new(shape, &config),
            }
        });
    let plan = match planned {
        Ok(plan) => plan,
        Err(refused) => {
            eprintln!("queens: {refused}");
            return Ok(ExitCode::from(EXIT_USAGE));
        }
    };
    let plan_seconds = started.elapsed().as_secs_f64();
    let threads_used = match executor {
        Executor::Gpu => 1,
        _ => threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
            NonZeroUsize::get,
        ),
    };
    let sample = match (args.sample, args.seconds) {
        (Some(p), _) => Sample::Percent(p),
        (None, Some(s)) => Sample::Seconds(s),
        (None, None) => Sample::Seconds(10.0),
    };
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let warn = |over: Overrun| {
        if args.quiet {
            return;
        }
        eprintln!(
            "queens: warning: the smallest sample that projects a spread ({} units, two of each \
             stratum) is projected to take {} {}, {} more than --seconds {}",
            over.units,
            if over.at_least { "at least" } else { "about" },
            human::duration(over.projected),
            human::duration(over.projected - over.budget),
            over.budget
        );
    };
    let cpu_before = super::cpu_time::process_secs();
    let e = queens::estimate(&plan, &runner, threads_used, sample, seed, &warn)?;
    // Not the sample's wall time times the threads: a round of a few
    // units leaves most threads idle (measured: 14% of 16 threads' time
    // on a quiet machine); each unit's own time is what it asked for. The
    // tables may be built on one thread: they ask for their wall time.
    let asked = e.prepare_seconds + e.unit_seconds;
    let cpu_share = (super::cpu_time::process_secs().zip(cpu_before))
        .filter(|_| executor != Executor::Gpu)
        .map(|(after, before)| stats::cpu_share(after - before, asked));
    let record = EstimateRecord {
        n,
        engine: engine.name(),
        executor: if args.gpu { "gpu" } else { "cpu" },
        threads: threads_used,
        seed: e.seed,
        units: e.units,
        sampled: e.sampled,
        cost_share: e.cost_share,
        plan_secs: plan_seconds,
        prepare_secs: e.prepare_seconds,
        sample_secs: e.sample_seconds,
        projected_secs: plan_seconds + e.seconds,
        low_secs: plan_seconds + e.seconds_interval.0,
        high_secs: plan_seconds + e.seconds_interval.1,
        degrees_of_freedom: Some(e.degrees_of_freedom).filter(|d| d.is_finite()),
        drift: e.drift,
        drift_margin: e.drift_margin,
        uncorrected_secs: plan_seconds + e.uncorrected_seconds,
        uncorrected_low_secs: plan_seconds + e.uncorrected_seconds_interval.0,
        uncorrected_high_secs: plan_seconds + e.uncorrected_seconds_interval.1,
        projected_solutions: e.solutions,
        low_solutions: e.solutions_interval.0,
        high_solutions: e.solutions_interval.1,
        solutions_deviation: e
            .known_solutions
            .filter(|_| e.solutions_error > 0.0)
            .map(|k| (e.solutions - k as f64) / e.solutions_error),
        cpu_share,
        known: e.known_solutions,
        problem: plan.problem().map(queens::Problem::to_line),
        split_depth: plan.split_depth(),
        campaign: args.shards.map(|shards| {
            let machine_threads = args.machine_threads.map_or(threads_used, NonZeroUsize::get);
            let c = queens::campaign(
                &plan,
                &e,
                shards,
                args.machines.unwrap_or(shards),
                machine_threads,
                plan_seconds + e.prepare_seconds,
            );
            CampaignRecord {
                shards: c.shards,
                assignment: queens::shard::Assignment::for_engine(engine).name(),
                machines: c.machines,
                machine_threads: c.threads,
                core_hours: c.core_seconds / 3600.0,
                low_core_hours: c.core_seconds_interval.0 / 3600.0,
                high_core_hours: c.core_seconds_interval.1 / 3600.0,
                longest_shard: c.longest_shard,
                longest_shard_core_hours: c.longest_shard_core_seconds / 3600.0,
                longest_shard_secs: c.longest_shard_seconds,
                low_longest_shard_secs: c.longest_shard_seconds_interval.0,
                high_longest_shard_secs: c.longest_shard_seconds_interval.1,
                longest_unit_secs: c.longest_unit_seconds,
                setup_secs: c.setup_seconds,
                wall_secs: c.wall_seconds,
                low_wall_secs: c.wall_seconds_interval.0,
                high_wall_secs: c.wall_seconds_interval.1,
                machine_bytes: c.machine_memory,
                shared_machine_bytes: c.shared_machine_memory,
                least_machine_bytes: c.least_machine_memory,
            }
        }),
    };
    Report::stdout(Form::from_flags(args.json, args.quiet)).record(&record)?;
    let logical_cpus = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    if let Some(share) = cpu_share
        && stats::busy(share, asked, threads_used, logical_cpus)
        && !args.quiet
    {
        eprintln!(
            "queens: warning: the sample got {:.0}% of the CPU time it asked for: another \
             program was using the CPUs, so the projection is too long; rerun on a quiet machine",
            share * 100.0
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::hours;

    #[test]
    fn hours_keep_three_figures() {
        assert_eq!(hours(129_241.17), "129,000");
        assert_eq!(hours(36_212.0), "36,200");
        assert_eq!(hours(1_234.5), "1,230");
        assert_eq!(hours(129.246), "129");
        assert_eq!(hours(36.21), "36.2");
        assert_eq!(hours(0.004_123), "0.00412");
        assert_eq!(hours(0.0), "0");
    }
}
