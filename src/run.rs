//! [`Run`]: a whole count as one library value, which every front end
//! drives (the `queens` binary, the Python package): a plan, the units
//! asked for, an executor, an observer, and, with the `files` feature on
//! Unix, a journal to resume from and keep, and a shard whose result it
//! writes.
//!
//! A run resumes what its journal holds, counts what is left, writes each
//! finished unit to the journal before the observer hears of it, and
//! returns a [`Count`] that knows which units were resumed and whether
//! every unit asked for is there. A failed journal sync, or an observer's
//! error, ends the run with that error; an observer's [`crate::Flow::Stop`]
//! or the cancel flag ends it early with what finished, all of it in the
//! journal. Nothing here prints, exits or reads the environment.

#[cfg(all(feature = "files", unix))]
use crate::journal::Journal;
#[cfg(all(feature = "files", unix))]
use crate::shard::Prepared;
use crate::{Count, Counter, Error, Flow, Observer, Plan, Selection, UnitDone};

/// A count of some units of a plan, with what keeps it across
/// interruptions and machines.
///
/// ```
/// use queens::{Counter, Plan, Run, Engine, Config, Shape};
///
/// let plan = Plan::new(Shape::new(10, Engine::Mirror, None), &Config::default())?;
/// let half: Vec<u32> = (0..plan.len() as u32).step_by(2).collect();
/// let count = Run::new(&plan, plan.select(&half)?)
///     .counter(Counter::new(10).threads(1))
///     .count()?;
/// assert!(count.is_finished() && !count.is_complete());
/// assert!(count.resumed.is_empty());
/// # Ok::<(), queens::Error>(())
/// ```
#[must_use]
pub struct Run<'a> {
    plan: &'a Plan,
    job: Selection,
    counter: Counter<'a>,
    #[cfg(all(feature = "files", unix))]
    journal: Option<&'a Journal>,
    #[cfg(all(feature = "files", unix))]
    shard: Option<&'a Prepared>,
}

impl<'a> Run<'a> {
    /// A run of the units `selection` ([`Plan::select`],
    /// [`Plan::select_all`]) of `plan`, on every core, reporting to no one.
    pub fn new(plan: &'a Plan, selection: Selection) -> Self {
        Self {
            plan,
            job: selection,
            counter: Counter::new(plan.n()).engine(plan.engine()),
            #[cfg(all(feature = "files", unix))]
            journal: None,
            #[cfg(all(feature = "files", unix))]
            shard: None,
        }
    }

    /// Count as `counter` says: its threads or pool, config, executor,
    /// observer and cancel flag. The units are the selection's: a counter
    /// with [units](Counter::units) of its own is refused when the run
    /// counts ([`Error::RunUnits`]), as is one for another plan.
    pub fn counter(self, counter: Counter<'a>) -> Self {
        Self { counter, ..self }
    }

    /// The units asked for, less those the journal holds.
    #[must_use]
    pub fn left(&self) -> usize {
        self.resumed_job().left().len()
    }

    /// The selection with what the journal holds taken out.
    fn resumed_job(&self) -> Selection {
        #[cfg(all(feature = "files", unix))]
        if let Some(journal) = self.journal {
            return self.job.clone().resume(journal.done().iter().copied());
        }
        self.job.clone()
    }
}

#[cfg(all(feature = "files", unix))]
impl<'a> Run<'a> {
    /// Resume from `journal` (opened for this plan: [`Journal::open`]) and
    /// keep every unit that finishes in it. The journal is shared, so
    /// that a front end can [`stop`](Journal::stop) it from another thread
    /// when it gives up on the units still running.
    pub fn journal(self, journal: &'a Journal) -> Self {
        Self {
            journal: Some(journal),
            ..self
        }
    }

    /// Write `shard`'s result ([`crate::shard::Task::prepare`]) when every
    /// unit is counted, and then remove its journal. The selection should
    /// be the shard's units.
    pub fn shard(self, shard: &'a Prepared) -> Self {
        Self {
            shard: Some(shard),
            ..self
        }
    }
}

impl Run<'_> {
    /// Counts what is left, and returns the count of every unit asked for
    /// that is done: resumed or counted now.
    ///
    /// # Errors
    /// As [`Counter::run_plan`]; [`Error::Io`] when the journal cannot be
    /// synced or the shard's result written (what finished is in the
    /// journal, and the next run resumes from it); an observer's error;
    /// [`Error::RunUnits`] for a counter with units of its own.
    pub fn count(self) -> Result<Count, Error> {
        if self.counter.has_units() {
            return Err(Error::RunUnits);
        }
        let job = self.resumed_job();
        let watcher = self.counter.watcher();
        #[cfg(all(feature = "files", unix))]
        let journal = self.journal;
        #[cfg(not(all(feature = "files", unix)))]
        let journal: Option<&dyn Observer> = None;
        let both = Journaled {
            journal: journal.map(|j| j as &dyn Observer),
            watcher,
        };
        let counted = self.counter.observer(&both).run_job(self.plan, &job);
        #[cfg(all(feature = "files", unix))]
        {
            let Some(journal) = self.journal else {
                return counted;
            };
            let count = match counted {
                Ok(count) => count,
                Err(e) => {
                    journal.stop();
                    return Err(e);
                }
            };
            if !count.is_finished() {
                journal.stop();
                return Ok(count);
            }
            journal.finish()?;
            if let Some(shard) = self.shard {
                shard.finish(self.plan, &count)?;
            }
            Ok(count)
        }
        #[cfg(not(all(feature = "files", unix)))]
        counted
    }
}

/// The journal and the caller's observer as one: the journal first, so
/// that a unit is on its way to the disk before anything is shown, and
/// its error stops the run before the observer hears of the unit.
struct Journaled<'a> {
    journal: Option<&'a dyn Observer>,
    watcher: &'a dyn Observer,
}

impl Observer for Journaled<'_> {
    fn start(&self, units: usize, total_cost: u128) {
        self.watcher.start(units, total_cost);
    }

    fn unit_finished(&self, done: &UnitDone) -> Result<Flow, Error> {
        if let Some(journal) = self.journal {
            journal.unit_finished(done)?;
        }
        self.watcher.unit_finished(done)
    }
}
