//! `queens merge DIR|FILES...`: puts the shards of a run together and
//! prints the total only once the library has proven that every unit of
//! this build's plan is there exactly once. Each kind of problem is one
//! line on stderr, with counts and an example; exit 2 when there is no
//! set to merge (no path holds a shard result this build can read), 1 for
//! an incomplete or inconsistent set, 3 for a total that differs from
//! OEIS.

use crate::exit::ExitCode;
use std::path::PathBuf;

use std::io::{self, Write};

use queens::Plan;
use queens::shard::{self, Merge};
use serde::Serialize;

use super::exit::{EXIT_MISMATCH, EXIT_USAGE};
use super::files::{Input, Output};
use super::report::{Form, Human, Report, disagreement};
use super::shard::{gather, problem_line, read};

#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// Shard results (shard-IIII-of-KKKK.json), or directories holding them.
    #[arg(value_name = "DIR|FILES", required = true)]
    paths: Vec<PathBuf>,

    /// Print one JSON object.
    #[arg(long)]
    json: bool,

    /// Print only the total (the subtotal with --partial).
    #[arg(short, long)]
    quiet: bool,

    /// Report how far a run has got instead of failing on missing shards
    /// (other problems still fail).
    #[arg(long)]
    partial: bool,

    /// Write every unit's count as CSV, `id,descriptor,count` in id order,
    /// to FILE: the text whose SHA-256 is the digest.
    #[arg(long, value_name = "FILE")]
    units_csv: Option<PathBuf>,
}

/// A merge, as `--json` prints it.
#[derive(Debug, Serialize)]
struct MergeRecord {
    /// Board size.
    n: u32,
    /// The engine whose plan the shards share.
    engine: String,
    /// The plan's hash.
    plan: String,
    /// Shards in the run.
    shards: u32,
    /// Shards with a checked result.
    shards_present: usize,
    /// Units in the plan.
    units: usize,
    /// Units with a checked count.
    units_present: usize,
    /// Units found in two files with equal counts.
    confirmed_units: usize,
    /// Shards without a checked result, in order (the text shows them as
    /// job-array ranges, `3,17-19`).
    missing_shards: Vec<u32>,
    /// Every unit there, once, and nothing wrong.
    complete: bool,
    /// The sum of the units present; null when a problem other than
    /// missing shards was found.
    total: Option<u128>,
    /// The problem whose completions the shards counted (`Q` given, `x`
    /// blocked, `.` free, rows joined by `/`); null for the empty board.
    problem: Option<String>,
    /// OEIS A000170 for n; null where none is published (and for a
    /// problem's completions).
    known: Option<u128>,
    /// Whether a complete total equals it; null otherwise.
    matches_known: Option<bool>,
    /// SHA-256 of the `id,descriptor,count` CSV of the units present.
    digest: Option<String>,
    /// The total mod 13 and mod 15, to compare with logs that keep residues.
    mod13: Option<u32>,
    mod15: Option<u32>,
    /// One line per kind of problem.
    problems: Vec<String>,
    /// The share of the plan's estimated work present, in percent (the
    /// text of a partial merge only).
    #[serde(skip)]
    work_present: f64,
}

pub fn run(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    let paths = gather(&args.paths)?;
    let inputs: Vec<Input<'_>> = (paths.iter().map(|path| (path, "a shard result")))
        .chain(args.paths.iter().map(|path| (path, "an input")))
        .map(|(path, role)| Input::File { role, path })
        .collect();
    // Checked before anything is read, and again when it is written.
    let units_csv = args
        .units_csv
        .as_deref()
        .map(|path| Output::new(path, "--units-csv", &inputs))
        .transpose()?;
    let mut files = Vec::new();
    let mut unreadable = Vec::new();
    for path in &paths {
        match read(path) {
            Ok(file) => files.push((path.display().to_string(), file)),
            Err(e) => unreadable.push(e),
        }
    }
    let mut problems = Vec::new();
    if let Some(first) = unreadable.first() {
        problems.push(format!(
            "{} file(s) are not shard results: {first}",
            unreadable.len()
        ));
    }
    let (plan, merge) = match shard::merge_files(&files, super::memory::available()?) {
        Ok(Some(merged)) => merged,
        Ok(None) => return fail(&problems),
        Err(refusal @ queens::Error::Memory { .. }) => return Err(refusal.into()),
        Err(why) => {
            let reference = shard::reference(&files).expect("a plan was built for a file");
            problems.push(format!("{}: {why}", files[reference].0));
            return fail(&problems);
        }
    };
    problems.extend(merge.problems.iter().map(problem_line));
    let consistent = unreadable.is_empty() && merge.is_consistent();
    let complete = unreadable.is_empty() && merge.is_complete();

    let mut record = MergeRecord {
        n: plan.n(),
        engine: plan.engine().name().to_owned(),
        plan: plan.hash().to_string(),
        shards: merge.shards,
        shards_present: merge.shards_present,
        units: plan.len(),
        units_present: merge.units_present(),
        confirmed_units: merge.confirmed,
        missing_shards: merge.missing(),
        complete,
        total: None,
        problem: plan.problem().map(queens::Problem::to_line),
        known: plan.known_total(),
        matches_known: None,
        digest: None,
        mod13: None,
        mod15: None,
        problems: problems.clone(),
        work_present: work_present(&plan, &merge),
    };
    if consistent {
        let csv = shard::units_csv(&plan, &merge.counts);
        record.digest = Some(shard::digest(&csv));
        record.total = Some(merge.total);
        record.mod13 = Some((merge.total % 13) as u32);
        record.mod15 = Some((merge.total % 15) as u32);
        if complete {
            record.matches_known = record.known.map(|known| known == merge.total);
        }
        if let Some(units_csv) = &units_csv {
            units_csv.write(csv.as_bytes())?;
        }
    }

    for line in &problems {
        if !(args.partial && consistent) {
            eprintln!("queens: {line}");
        }
    }
    if args.json || (consistent && (complete || args.partial)) {
        Report::stdout(Form::from_flags(args.json, args.quiet)).record(&record)?;
    }

    if record.matches_known == Some(false) {
        // Every file passed merge's checks, which a forger who fixes a
        // file's total passes too: the files are the first suspects, not
        // queens.
        disagreement(&format!(
            "for n = {}: the shards add up to {} but OEIS A000170 says {}. A shard result is \
             damaged or forged (with its total made to fit), or was counted on a faulty \
             machine: find which units are wrong with 'queens verify {} --sample 100%' and \
             count their shards again",
            plan.n(),
            merge.total,
            record.known.unwrap_or_default(),
            shown_paths(&args.paths),
        ));
        return Ok(ExitCode::from(EXIT_MISMATCH));
    }
    if complete || (args.partial && consistent) {
        Ok(ExitCode::SUCCESS)
    } else {
        Ok(ExitCode::FAILURE)
    }
}

impl Human for MergeRecord {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let total = self.total.unwrap_or_default();
        writeln!(
            out,
            "n = {}, {} engine, plan {}",
            self.n, self.engine, self.plan
        )?;
        if let Some(problem) = &self.problem {
            writeln!(out, "problem {problem}")?;
        }
        let confirmed = match self.confirmed_units {
            0 => String::new(),
            c => format!(", {c} confirmed by a second file"),
        };
        writeln!(
            out,
            "shards  {} of {}, units {} of {}{confirmed}",
            self.shards_present, self.shards, self.units_present, self.units
        )?;
        if self.complete {
            let verdict = match (self.matches_known, &self.known) {
                (Some(true), _) => "matches OEIS A000170".to_owned(),
                (Some(false), Some(k)) => format!("MISMATCH: OEIS A000170 says {k}"),
                _ => "no OEIS value to check against".to_owned(),
            };
            writeln!(out, "total   {total} ({verdict})")?;
        } else {
            writeln!(
                out,
                "partial {:.1}% of the estimated work; subtotal {total}; missing shards {}",
                self.work_present,
                shard::ranges(&self.missing_shards)
            )?;
        }
        writeln!(
            out,
            "digest  {} (of the id,descriptor,count CSV)",
            self.digest.as_deref().unwrap_or_default()
        )?;
        writeln!(
            out,
            "mod13   {}  mod15 {}",
            self.mod13.unwrap_or_default(),
            self.mod15.unwrap_or_default()
        )
    }

    /// The total, or the subtotal of a partial merge.
    fn quiet(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{}", self.total.unwrap_or_default())
    }
}

/// The share of `plan`'s estimated work whose units `merge` holds, in
/// percent.
fn work_present(plan: &Plan, merge: &Merge) -> f64 {
    let cost = |id: u32| u128::from(plan.cost(id).unwrap_or(0));
    let ids = 0..plan.len() as u32;
    let done: u128 = (ids.clone())
        .filter(|&id| merge.counts[id as usize].is_some())
        .map(cost)
        .sum();
    let all: u128 = ids.map(cost).sum();
    if all == 0 {
        100.0
    } else {
        done as f64 * 100.0 / all as f64
    }
}

/// No merge at all (no file could be read as a shard result, or their
/// plan is not one this build makes): the problems, and exit 2, as for
/// any input that is not what it should be.
fn fail(problems: &[String]) -> anyhow::Result<ExitCode> {
    for line in problems {
        eprintln!("queens: {line}");
    }
    Ok(ExitCode::from(EXIT_USAGE))
}

/// The paths as given, for a command to paste: `DIR`, or `A B ...`.
fn shown_paths(paths: &[PathBuf]) -> String {
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    shown.join(" ")
}
