//! Running a plan of an engine: the plan built once its memory is
//! checked, the units asked for selected and the journal opened
//! ([`Ready`]), then counted by the library's [`Runner`] with the
//! progress bar, the journal and the shard's result wired in.

use std::io::{self, IsTerminal};
use std::time::Instant;

use anyhow::Context;
use queens::journal::Journal;
use queens::shard::Prepared;
use queens::{Config, Count, Engine, Observer, Plan, Problem, Runner, Selection, Shape, known};
use rayon::ThreadPool;

use super::records::Style;
use super::request::Request;
use crate::UsageError;
use crate::journal::{self, Interrupted};
use crate::progress::{Long, Progress};
use crate::signals;

/// The largest n with a published total: beyond it a count has nothing to
/// be checked against and takes years.
const LARGEST_KNOWN: u32 = (known::A000170.len() - 1) as u32;

/// The first plan of a count, built (its memory checked, the units asked
/// for checked, the journal opened) before anything is printed, so that a
/// refusal is one line and nothing else.
pub(super) struct Ready {
    pub(super) plan: Plan,
    /// The units asked for.
    pub(super) job: Selection,
    pub(super) journal: Option<Journal>,
    /// When building the plan began: the long-count warning counts from
    /// there, as `estimate` does.
    pub(super) began: Instant,
}

impl Request {
    /// The plan of the `n`-board, refused before it is built when even
    /// the least its count can take is more memory than there is (see:
    /// issue 32; the join's plan of n = 28 takes minutes, and was refused
    /// only after them), and announced on stderr when it takes seconds.
    pub(super) fn plan(&self, n: u32, engine: Engine, pool: &ThreadPool) -> anyhow::Result<Plan> {
        let shape = self.shape(n, engine);
        let units = self.units.as_deref().map(<[u32]>::len);
        // A problem's plan is smaller than the empty board's, which the
        // floor is of; it checks its own memory as it is built.
        let floor = match &self.problem {
            Some(_) => Ok(()),
            None => (self.runner(pool)).fits_unplanned(shape, &self.config, units),
        };
        // Anything else wrong with the plan is said as the plan says it.
        if let Err(refused @ queens::Error::Memory { .. }) = floor {
            return Err(refused.into());
        }
        self.warn_unpublished(n);
        if !self.quiet {
            crate::plan::announce(shape, &self.config);
        }
        plan_for(shape, self.problem.as_ref(), &self.config)
    }

    /// Warns that nothing will check the count of `n` where OEIS has no
    /// total for it: after the memory check, so that a refusal stays one
    /// line.
    pub(super) fn warn_unpublished(&self, n: u32) {
        if n > LARGEST_KNOWN && !self.quiet {
            eprintln!(
                "queens: warning: no total is published for n > {LARGEST_KNOWN}, so nothing will \
                 check this count, and n = {n} may run for years"
            );
        }
    }

    /// Gets `plan` (or the shard's) ready to count: its memory and the
    /// units asked for checked, its journal opened and replayed.
    pub(super) fn ready(
        &self,
        plan: Plan,
        shard: Option<&Prepared>,
        pool: &ThreadPool,
        began: Instant,
    ) -> anyhow::Result<Ready> {
        let ids = (self.units.as_deref()).or(shard.map(|s| s.units.as_slice()));
        let job = match ids {
            Some(ids) => plan.select(ids).map_err(|e| unit_refusal(&plan, &e))?,
            None => plan.select_all(),
        };
        let memory = self.runner(pool).memory(&plan, job.len())?;
        if (memory.chunks_reduced() || memory.shared()) && !self.quiet {
            eprintln!(
                "queens: {}",
                crate::memory::reduced_chunks(&plan, job.len(), &memory)
            );
        }
        let Some(path) = self.journal_path(shard) else {
            let journal = None;
            return Ok(Ready {
                plan,
                job,
                journal,
                began,
            });
        };
        let journal = journal::open(path, &plan, ids, self.lock_wait, self.quiet)?;
        let left = job.clone().resume(journal.done().iter().copied());
        if left.left().is_empty() && !self.quiet {
            eprintln!(
                "queens: {} holds every unit of this count: the run finished; nothing to count",
                path.display()
            );
        }
        let journal = Some(journal);
        Ok(Ready {
            plan,
            job,
            journal,
            began,
        })
    }

    /// The progress bar of a count of `units` of `plan` on `threads`
    /// threads, drawn where people read the table on a terminal, warning
    /// of a long count (planned from `began`) unless quiet.
    pub(super) fn progress<'p>(
        &self,
        plan: &'p Plan,
        units: &'p [u32],
        threads: usize,
        began: Instant,
        journaled: bool,
    ) -> Progress<'p> {
        let show = matches!(self.style, Style::Human { .. }) && io::stderr().is_terminal();
        let progress = Progress::new(plan.n(), show);
        // The GPU reports its units a batch at a time, all at once: the
        // first units of a batch would pace a wildly long estimate.
        if self.quiet || self.gpu() {
            return progress;
        }
        let hint = if journaled {
            "; an interruption keeps every finished unit"
        } else {
            "; add --checkpoint FILE to keep finished units if it is interrupted"
        };
        progress.warn_long(Long {
            plan,
            units,
            threads,
            began,
            hint,
        })
    }

    /// Counts what `job` has left of `plan` after what the journal holds,
    /// saving each unit to the journal as it finishes, and writes the
    /// shard's result: the library's [`Runner`]. On a signal, says what was
    /// saved and how to resume.
    pub(super) fn count_plan(
        &self,
        plan: &Plan,
        job: Selection,
        journal: Option<&Journal>,
        shard: Option<&Prepared>,
        pool: &ThreadPool,
        began: Instant,
    ) -> anyhow::Result<(Count, Option<String>)> {
        // What the journal holds, as the run will resume it.
        let left = match journal {
            Some(journal) => Runner::new().journal(journal).resumed(&job),
            None => job.clone(),
        };
        let threads = pool.current_num_threads();
        let mut progress = self.progress(plan, left.left(), threads, began, journal.is_some());
        if let Some(journal) = journal {
            let resumed = left.resumed();
            // The journal's ids are checked against the plan: each has a cost.
            let cost = (resumed.iter()).filter_map(|&(id, _)| plan.cost(id).ok().map(u128::from));
            let solutions = resumed.iter().map(|&(_, count)| count).sum();
            progress = progress.resumed(resumed.len(), cost.sum(), solutions, journal.path());
        }
        let progress = &progress;
        let kill_hook = journal.and_then(|_| journal::KillAfter::from_env(progress));
        let observer: &dyn Observer = match &kill_hook {
            Some(hook) => hook,
            None => progress,
        };
        let mut runner = (self.runner(pool))
            .observer(observer)
            .stop(signals::stop_flag());
        if let Some(journal) = journal {
            runner = runner.journal(journal);
        }
        if let Some(shard) = shard {
            runner = runner.shard(shard);
        }
        let asked = job.len();
        let resumed = left.resumed().len();
        let count = signals::wait(
            || runner.count(plan, &job),
            || progress.finish(),
            || {
                // Units still running may finish while the process exits:
                // the journal is stopped, so that none is written after the
                // last words.
                progress.finish();
                let saved = journal.map(|j| resumed + j.stop());
                interrupted(journal, saved, progress.units_done(), asked);
            },
        )?;
        progress.finish();
        if signals::stopped() {
            let saved = journal.map(|_| count.units);
            interrupted(journal, saved, progress.units_done(), asked);
            return Err(Interrupted(signals::exit_code()).into());
        }
        let journal = journal.map(|j| j.path().display().to_string());
        Ok((count, journal))
    }

    /// Says that the shard's result is written.
    pub(super) fn said_shard(&self, plan: &Plan, prepared: &Prepared, count: &Count) {
        if !self.quiet {
            eprintln!(
                "queens: shard {} of n = {}: {} units, subtotal {}, written to {}",
                prepared.shard,
                plan.n(),
                count.units,
                count.solutions,
                prepared.result.display()
            );
        }
    }
}

/// The plan of `shape`, or of `problem`'s completions where there is
/// one (on `shape`'s board, with its split), with the count's config.
pub(super) fn plan_for(
    shape: Shape,
    problem: Option<&Problem>,
    config: &Config,
) -> anyhow::Result<Plan> {
    let Shape { n, engine, .. } = shape;
    match problem {
        Some(problem) => Plan::for_problem(problem, shape.split_depth, config).with_context(|| {
            format!(
                "counting the completions of n = {n} with {}",
                problem.describe()
            )
        }),
        None => Plan::new(shape, config)
            .with_context(|| format!("counting n = {n} with the {engine} engine")),
    }
}

/// A unit list the plan refuses, as the user should read it.
fn unit_refusal(plan: &Plan, err: &queens::Error) -> anyhow::Error {
    let (n, engine) = (plan.n(), plan.engine());
    match err {
        queens::Error::Unit { id, .. } => {
            let has = match plan.len() {
                // n = 2: the rows a unit fixes have no legal placement.
                0 => format!("no units, as n = {n} has no solution"),
                len => format!("units 0 to {} (see 'queens plan {n} --units')", len - 1),
            };
            UsageError(format!(
                "unit {id} is not in the plan: n = {n} with the {engine} engine has {has}"
            ))
            .into()
        }
        other => UsageError(crate::exit::with_causes(other)).into(),
    }
}

/// The last words of an interrupted count: `saved` of the `target` units
/// in the journal, or `counted` of them lost without one.
pub(super) fn interrupted(
    journal: Option<&Journal>,
    saved: Option<usize>,
    counted: usize,
    target: usize,
) {
    match journal.zip(saved) {
        None => eprintln!(
            "interrupted: {counted} of {target} units were counted and are lost; --checkpoint \
             FILE would have kept them"
        ),
        Some((journal, saved)) => eprintln!(
            "interrupted: {saved} of {target} units saved in {}; rerun the same command to resume",
            journal.path().display()
        ),
    }
}
