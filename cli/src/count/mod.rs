//! `queens count`: counts a board size or a range of them with an engine
//! (or a step of the ladder), checks each total against OEIS, optionally
//! against a second engine, and reports it. `--units` counts just some
//! units of the plan, which is how anyone recounts a unit of a published
//! run.
//!
//! One thread pool serves every size of a range and every cross-check.
//!
//! [`args`] is the command line as clap parses it; [`request`] resolves it
//! once into what to count and refuses what cannot be counted; [`mod@run`]
//! gets a plan ready and runs it; [`size`] counts one board size with its
//! method and its checks; [`records`] is what is reported of each.

mod args;
mod records;
mod request;
mod run;
mod size;

use crate::exit::ExitCode;
use std::path::Path;
use std::str::FromStr;
use std::time::Instant;

use anyhow::Context;
use queens::Engine;
use queens::shard::{ShardFile, Task};

pub use self::args::CountArgs;
use self::records::report_mismatches;
use self::records::{Style, Units, bare_record};
use self::request::{Method, Request};
use super::journal::Interrupted;
use super::report::EXIT_MISMATCH;
use super::shard;
use super::signals;

pub fn run(args: &CountArgs) -> anyhow::Result<ExitCode> {
    let result = count(&Request::resolve(args)?);
    match result.as_ref().err().and_then(|err| err.downcast_ref()) {
        Some(&Interrupted(code)) => Ok(ExitCode::from(code)),
        None => result,
    }
}

/// Counts every size of the request, prints a record for each and writes
/// `--output`.
fn count(request: &Request) -> anyhow::Result<ExitCode> {
    let (first, method) = request.first();
    let began = Instant::now();
    let (mut first_plan, mut shard) = (None, None);
    if let (Some(id), Method::Engine(engine)) = (request.shard, method) {
        let (n, out_dir) = (first, &request.out_dir);
        request.warn_unpublished(n);
        let plan = run::plan_for(
            request.shape(n, engine),
            request.problem.as_ref(),
            &request.config,
        )?;
        match shard::prepare(plan, id, out_dir)? {
            (_, Task::Done(file, path)) => return already_done(&file, &path, request),
            (plan, Task::Count(prepared)) => (first_plan, shard) = (Some(plan), Some(prepared)),
            (_, task) => unreachable!("a shard task counts or is done: {task:?}"),
        }
    }
    let pool = queens::thread_pool(request.threads)?;
    signals::install().context("catching Ctrl-C and SIGTERM")?;
    let mut ready = None;
    if let Method::Engine(engine) = method {
        let plan = match first_plan {
            Some(plan) => plan,
            None => request.plan(first, engine, &pool)?,
        };
        ready = Some(request.ready(plan, shard.as_ref(), &pool, began)?);
    }
    let mut report = request.report()?;
    let (mut records, mut mismatches) = (Vec::new(), 0);
    for &(n, method) in &request.sizes {
        let (record, wrong) = request.count_size(n, method, ready.take(), shard.as_ref(), &pool)?;
        report.record(&record)?;
        mismatches += wrong + report_mismatches(&record);
        if request.output.is_some() {
            records.extend(serde_json::to_vec(&record)?);
            records.push(b'\n');
        }
    }
    if let Some(output) = &request.output {
        output.write(&records)?;
    }
    Ok(if mismatches > 0 {
        ExitCode::from(EXIT_MISMATCH)
    } else {
        ExitCode::SUCCESS
    })
}

/// A shard whose result is already written: says so, reports it as if
/// counted (nothing of it is counted again) and succeeds.
fn already_done(file: &ShardFile, path: &Path, request: &Request) -> anyhow::Result<ExitCode> {
    if !matches!(request.style, Style::Quiet) {
        eprintln!(
            "queens: {} already holds shard {}/{}, checked: nothing to count",
            path.display(),
            file.shard,
            file.shards
        );
    }
    let units: Vec<(u32, u128)> = (file.units.iter())
        .map(|&(id, c)| (id, u128::from(c)))
        .collect();
    let engine = Engine::from_str(&file.engine).map_or("?", Engine::name);
    let mut record = bare_record(file.n, units.iter().map(|&(_, c)| c).sum(), 0, engine);
    record.split_depth = file.split;
    record.matches_known = None;
    if file.problem.is_some() {
        record.problem.clone_from(&file.problem);
        record.known = None;
    }
    record.plan = Some(file.plan.clone());
    record.resumed_units = file.units.len();
    record.units = Some(Units::Some(units));
    record.counted_before = Some(path.display().to_string());
    request.report()?.record(&record)?;
    if let Some(output) = &request.output {
        let mut bytes = serde_json::to_vec(&record)?;
        bytes.push(b'\n');
        output.write(&bytes)?;
    }
    Ok(ExitCode::SUCCESS)
}
