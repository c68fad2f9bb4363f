//! `queens plan N`: the plan a count would run, without running it: its
//! engine, how many units, their total cost and the plan's hash; with
//! `--units`, every unit as a JSON line (id, descriptor, cost), the list a
//! user recounts any unit from with `queens count N --units ID`.

use crate::exit::ExitCode;
use std::io::{self, Write};

use queens::{Config, Engine, MAX_N, Plan, Shape, human};
use serde::Serialize;

use super::EXIT_USAGE;
use super::args::parse_board_size;
use super::report::{Column, Form, Human, Report, Table};

#[derive(Debug, clap::Args)]
pub struct PlanArgs {
    /// Board size N (1 to 32).
    #[arg(value_name = "N", allow_negative_numbers = true,
          value_parser = |s: &str| parse_board_size(s, MAX_N))]
    n: u32,

    /// The engine whose plan to show [default: the one `count` would use].
    #[arg(long, value_parser = super::options::EngineParser)]
    engine: Option<Engine>,

    /// Rows fixed by each unit of the mirror engine (1 to 6) [default: 2];
    /// for a problem, at any n, the rows without a given queen each unit
    /// places. Refused for the other engines, whose units are fixed by n.
    #[arg(long, value_name = "D", value_parser = super::args::parse_split_depth,
          allow_negative_numbers = true)]
    split_depth: Option<u32>,

    /// Print the summary as one JSON object.
    #[arg(long, conflicts_with = "units")]
    json: bool,

    /// Print every unit instead, one JSON object a line: id, descriptor,
    /// cost, weight.
    #[arg(long)]
    units: bool,

    /// Print only the plan's hash; no note on how long planning takes.
    #[arg(short, long)]
    quiet: bool,

    /// Queens given and squares blocked: the plan of that problem's
    /// completions (the mirror engine's, as `count` counts them).
    #[command(flatten)]
    problem: super::problem::ProblemArgs,
}

/// A plan, as `--json` prints it.
#[derive(Debug, Serialize)]
struct PlanRecord {
    /// Board size.
    n: u32,
    /// The engine whose units these are.
    engine: &'static str,
    /// Rows fixed per unit (the mirror engine; null for the join).
    split_depth: Option<u32>,
    /// How many units the plan has (ids `0..units`).
    units: usize,
    /// The sum of the units' cost estimates (the engine's own unit of
    /// work; past 2^64 for the join from n = 25 on).
    cost: u128,
    /// The plan's hash: `sha256:...`.
    plan: String,
    /// The problem whose completions it counts (`Q` given, `x` blocked,
    /// `.` free, rows joined by `/`); null for the empty board.
    problem: Option<String>,
}

/// One unit, as `--units` prints it.
#[derive(Debug, Serialize)]
struct UnitRecord {
    /// Its id in the plan.
    id: u32,
    /// The text it is rebuilt from.
    descriptor: String,
    /// Its estimated cost.
    cost: u64,
    /// How many solutions each it finds stands for (its count includes it).
    weight: u32,
}

impl Human for PlanRecord {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let table = Table::new(vec![Column::left("", 7), Column::left("", 0)]);
        let engine = match self.split_depth {
            Some(d) if self.problem.is_some() => {
                format!(
                    "{} (units place {d} rows without a given queen)",
                    self.engine
                )
            }
            Some(d) => format!("{} (units fix {d} rows)", self.engine),
            None => self.engine.to_owned(),
        };
        table.row(out, &[&"n", &self.n])?;
        table.row(out, &[&"engine", &engine])?;
        table.row(out, &[&"units", &self.units])?;
        table.row(out, &[&"cost", &self.cost])?;
        if let Some(problem) = &self.problem {
            table.row(out, &[&"problem", problem])?;
        }
        table.row(out, &[&"plan", &self.plan])
    }

    /// The hash alone.
    fn quiet(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{}", self.plan)
    }
}

pub fn run(args: &PlanArgs) -> anyhow::Result<ExitCode> {
    let n = args.n;
    let problem = args.problem.problem(n)?.filter(|p| !p.is_empty_board());
    if let Some(engine) = args
        .engine
        .filter(|&e| problem.is_some() && e != Engine::Mirror)
    {
        return Err(super::UsageError(refuse_problem_engine(engine)).into());
    }
    let engine = match problem {
        Some(_) => Engine::Mirror,
        None => args.engine.unwrap_or_else(|| Engine::best_for(n)),
    };
    // See: issue 23's note (`plan 16 --split-depth 3` printed the join's
    // plan as if the flag had been heard).
    if let Some(refusal) = refuse_split_depth(
        args.split_depth,
        args.engine,
        n,
        engine,
        ("plan", "planned"),
    ) {
        return Err(super::UsageError(refusal).into());
    }
    let config = Config::default().with_memory_limit(super::memory::available()?);
    let shape = Shape::new(n, engine, args.split_depth);
    if !args.quiet {
        announce(shape, &config);
    }
    let planned = match &problem {
        Some(problem) => Plan::for_problem(problem, args.split_depth, &config),
        None => Plan::new(shape, &config),
    };
    let plan = match planned {
        Ok(plan) => plan,
        Err(refused) => {
            eprintln!("queens: {refused}");
            return Ok(ExitCode::from(EXIT_USAGE));
        }
    };
    let mut report = Report::stdout(Form::from_flags(args.json, args.quiet));
    if args.units {
        report.json_lines(plan.units().map(|unit| UnitRecord {
            id: unit.id,
            descriptor: unit.descriptor,
            cost: unit.cost,
            weight: unit.weight,
        }))?;
        return Ok(ExitCode::SUCCESS);
    }
    report.record(&PlanRecord {
        n,
        engine: engine.name(),
        split_depth: plan.split_depth(),
        units: plan.len(),
        cost: plan.total_cost(),
        plan: plan.hash().to_string(),
        problem: plan.problem().map(queens::Problem::to_line),
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Why `--split-depth` (`split`) is refused when `engine` makes the plan
/// of `n` (the one `--engine` named, where `asked`): one line, for
/// `plan` and `estimate` (`verb`). Only the mirror engine has a split; a
/// problem's plan is the mirror engine's whatever n, so `engine` is the
/// one that plans, once the problem is known.
pub(super) fn refuse_split_depth(
    split: Option<u32>,
    asked: Option<Engine>,
    n: u32,
    engine: Engine,
    (verb, done): (&str, &str),
) -> Option<String> {
    if split.is_none() || engine == Engine::Mirror {
        return None;
    }
    let why = if asked.is_some() {
        format!("not {engine} (its units are fixed by n): drop it, or {verb} with --engine mirror")
    } else {
        format!(
            "and n = {n} is {done} by the {engine} engine by default: add --engine mirror, or \
             drop --split-depth"
        )
    };
    Some(format!(
        "--split-depth applies to the mirror engine only, {why}"
    ))
}

/// Why `engine` cannot plan a problem with constraints: one line.
pub(super) fn refuse_problem_engine(engine: Engine) -> String {
    format!(
        "--engine {engine} does not go with --given, --blocked and --board: a problem's \
         completions are counted by the mirror engine (drop --engine)"
    )
}

/// Says on stderr how long building the plan of `shape` with
/// `config` will take, where that is more than a few seconds
/// ([`Plan::planning_seconds`], on the threads of the current rayon pool,
/// which builds it) and the plan fits in `config`'s memory limit (else it
/// is refused at once, in one line): the join's plan of n = 28 takes
/// minutes, with nothing else to show for them.
pub(super) fn announce(shape: Shape, config: &Config) {
    let Shape { n, engine, .. } = shape;
    let threads = rayon::current_num_threads();
    let fits = Plan::memory_estimate(shape)
        .is_ok_and(|needed| config.memory_limit.is_none_or(|limit| needed <= limit));
    if let Some(seconds) = Plan::planning_seconds(n, engine, threads)
        && seconds >= ANNOUNCED_SECONDS
        && fits
    {
        eprintln!(
            "queens: planning n = {n} with the {engine} engine takes about {} on {threads} \
             thread{} before anything is counted",
            human::duration(seconds),
            if threads == 1 { "" } else { "s" }
        );
    }
}

/// Plans that take at least this long are announced.
const ANNOUNCED_SECONDS: f64 = 3.0;
