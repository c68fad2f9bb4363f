//! Counting one board size with the method the request resolved for it
//! (an engine's plan, or a step of the ladder), then its checks:
//! `--unique` against OEIS A002562 and `--cross-check` with a second,
//! independent engine.

use std::num::NonZeroUsize;
use std::time::Instant;

use anyhow::Context;
use queens::shard::Prepared;
use queens::{Algorithm, Counter, Engine, Plan, Runner, count_with, known};
use rayon::ThreadPool;

use super::records::{CountRecord, CrossCheck, UniqueRecord, bare_record, engine_record};
use super::request::{Method, Request};
use super::run::Ready;
use crate::report::mismatch;
use crate::signals;

impl Request {
    /// Counts the `n`-board with its `method`, checks it, and
    /// returns its record and how many checks it failed.
    pub(super) fn count_size(
        &self,
        n: u32,
        method: Method,
        ready: Option<Ready>,
        shard: Option<&Prepared>,
        pool: &ThreadPool,
    ) -> anyhow::Result<(CountRecord, u32)> {
        let started = Instant::now();
        let mut record = match method {
            Method::Engine(engine) => {
                let ready = match ready {
                    Some(ready) => ready,
                    None => self.ready(self.plan(n, engine, pool)?, None, pool, started)?,
                };
                let Ready {
                    plan,
                    job,
                    journal,
                    began,
                } = ready;
                let whole = job.is_whole();
                let (count, journal) =
                    self.count_plan(&plan, job, journal.as_ref(), shard, pool, began)?;
                if let Some(prepared) = shard {
                    self.said_shard(&plan, prepared, &count);
                }
                let mut record = engine_record(&count, whole, count.resumed.len(), journal);
                if let Some(problem) = plan.problem() {
                    // Completions: no published value to check against.
                    record.problem = Some(problem.to_line());
                    record.known = None;
                    record.matches_known = None;
                }
                record
            }
            Method::Ladder(algorithm) => self.count_ladder(algorithm, n, pool, started)?,
        };
        record.elapsed_secs = started.elapsed().as_secs_f64();
        let mut wrong = 0;
        if self.unique {
            let unique = signals::wait(|| queens::unique(n, record.solutions), || {}, || quit(n));
            match unique {
                Ok(u) => {
                    record.unique = Some(UniqueRecord {
                        unique: u.unique,
                        classes: u.classes,
                        half_turn_symmetric: u.half_turn,
                        quarter_turn_symmetric: u.quarter_turn,
                        known_unique: known::unique(n),
                        matches_known_unique: known::matches_unique(n, u.unique),
                    });
                }
                Err(inconsistent) => {
                    mismatch(&format!("for n = {n}: {inconsistent}"));
                    wrong += 1;
                }
            }
        }
        if self.cross_check {
            let solutions = record.solutions;
            record.cross_check = signals::wait(
                || self.cross_check(method, n, pool, solutions),
                || {},
                || quit(n),
            )?;
            wrong += u32::from(record.cross_check.as_ref().is_some_and(|c| !c.agrees));
        }
        Ok((record, wrong))
    }

    /// Counts with a step of the ladder: the slow ones on their own, the
    /// last two (bitmask and parallel) as the mirror engine, serial and on
    /// the pool.
    pub(super) fn count_ladder(
        &self,
        algorithm: Algorithm,
        n: u32,
        pool: &ThreadPool,
        began: Instant,
    ) -> anyhow::Result<CountRecord> {
        let (runner, threads) = match algorithm {
            Algorithm::Parallel => (Runner::new().pool(pool), pool.current_num_threads()),
            Algorithm::Bitmask => (Runner::new().threads(NonZeroUsize::MIN), 1),
            slow => {
                let counted = || count_with(slow, n, &self.config);
                let solutions = signals::wait(counted, || {}, || quit(n))?;
                return Ok(bare_record(n, solutions, 1, slow.name()));
            }
        };
        let context = || format!("counting n = {n} with --algorithm {algorithm}");
        let plan = Plan::new(self.shape(n, Engine::Mirror), &self.config).with_context(context)?;
        let all: Vec<u32> = (0..plan.len() as u32).collect();
        let progress = self.progress(&plan, &all, threads, began, false);
        let count = signals::wait(
            || runner.observer(&progress).count(&plan, &plan.select_all()),
            || progress.finish(),
            || quit(n),
        );
        progress.finish();
        let mut record = engine_record(&count.with_context(context)?, true, 0, None);
        if algorithm == Algorithm::Bitmask {
            record.engine = algorithm.name();
        }
        Ok(record)
    }

    /// Counts `n` again with a second, independent engine; says loudly when
    /// the two disagree. `None` when no second engine covers `n`.
    pub(super) fn cross_check(
        &self,
        method: Method,
        n: u32,
        pool: &ThreadPool,
        solutions: u128,
    ) -> anyhow::Result<Option<CrossCheck>> {
        let first = match method {
            Method::Engine(e) => e,
            Method::Ladder(Algorithm::Parallel | Algorithm::Bitmask) => Engine::Mirror,
            // The slow algorithms share nothing with the engines.
            Method::Ladder(_) => Engine::Join,
        };
        let Some(other) = first.second_opinion(n) else {
            if !self.quiet {
                let join = Engine::Join.range();
                eprintln!(
                    "queens: warning: no second engine for n = {n} (the join covers {} <= n <= \
                     {}): not cross-checked",
                    join.start(),
                    join.end()
                );
            }
            return Ok(None);
        };
        let second = Counter::new(n)
            .engine(other)
            .config(&self.config)
            .pool(pool)
            .run()
            .with_context(|| format!("cross-checking n = {n} with the {other} engine"))?;
        let agrees = second.solutions == solutions;
        if !agrees {
            let by = match method {
                Method::Engine(e) => format!("the {e} engine"),
                Method::Ladder(a) => format!("--algorithm {}", a.name()),
            };
            mismatch(&format!(
                "for n = {n}: {by} counted {solutions} but the {other} engine {}",
                second.solutions
            ));
        }
        Ok(Some(CrossCheck {
            engine: other.name(),
            solutions: second.solutions,
            agrees,
        }))
    }
}

/// The last words of a count interrupted outside the units of a plan (a
/// slow algorithm, the symmetric searches of `--unique`, a cross-check).
pub(super) fn quit(n: u32) {
    eprintln!("interrupted while counting n = {n}: nothing of it is kept");
}
