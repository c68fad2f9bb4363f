//! How long a whole count would take, from counting a random sample of
//! its units: `queens estimate`.
//!
//! The plan's units are sorted by their cost estimate and cut into
//! [`STRATA`] strata of about equal total cost, so that the few big units
//! of an uneven plan form strata of their own and are always sampled. A
//! sample is drawn from every stratum in a random order fixed by a seed
//! (the same seed draws the same units on every machine), and counted on
//! the caller's executor. Within each stratum the time a unit takes is
//! projected from its cost by the ratio of the sampled units' times to
//! their costs (a *separate ratio estimator*), and the strata are added;
//! the interval is Student's t with the sample's own degrees of freedom,
//! the time already spent on the sample being its floor (the statistics
//! are in [`ratio`]). The same estimator projects the number of
//! solutions: where A000170 knows the total, how far the sample's
//! projection of it is off says how representative the sample is, and
//! corrects the projected time by regression on it (a control variate).
//! A sample of every unit projects exactly the count. [`project`] is that
//! projection on its own, from whatever units were counted: `count`'s
//! warning of a long count feeds it the count's first units, so that the
//! warning and `queens estimate` cannot disagree by method.
//!
//! The projection is unit-seconds divided by the threads, plus what the
//! plan prepares before its first unit (the join's quarter tables): a
//! count whose units balance across its threads, as the runner's
//! biggest-first order makes them, takes about that long. This module
//! counts and computes; it never prints.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::{Error, Observer, Plan, Runner, UnitDone};

mod campaign;
mod ratio;

pub use campaign::{Campaign, campaign};

/// How many strata a plan's units are cut into (fewer when it has fewer
/// units).
const STRATA: usize = 10;

/// How many blocks a sample's units are cut into, in the order they
/// ended, to see how far the machine's speed moved while they were
/// counted (fewer in a smaller sample: three units and
/// [`DRIFT_BLOCK_SECONDS`] a block at least). A
/// shared machine's speed moves by several percent from minute to
/// minute, CPU time or not: 2-core VMs ran the same units x0.82 to x1.33
/// their time minutes before (results/intel-xeon-2c), where a sample of
/// 20 units a stratum projects within 2 to 3%.
const DRIFT_BLOCKS: usize = 10;

/// The least a block's units take between them for its speed to say
/// anything of the machine's: below it, what a thread pays as a count
/// starts (waking, its scratch's first pages) is most of a block (n = 14's
/// 168 units, 9 ms in all, read as blocks 58% apart). A sample whose
/// units take less than two such blocks (or are fewer than six) has no
/// [`Estimate::drift`]: its intervals are the sampling's alone.
pub const DRIFT_BLOCK_SECONDS: f64 = 0.1;

/// How much of a plan to count.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Sample {
    /// This percentage of each stratum's units (at least two each, where
    /// a stratum has two), in `(0, 100]`.
    Percent(f64),
    /// Two units of every stratum, then rounds of units drawn from every
    /// stratum in turn while each is projected to end within this many
    /// seconds of counting (see [`estimate`]).
    Seconds(f64),
}

/// A projection of a whole count from a sample of its units.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Estimate {
    /// The seed the sample was drawn with.
    pub seed: u64,
    /// Units in the plan.
    pub units: usize,
    /// Units counted.
    pub sampled: usize,
    /// The share of the plan's estimated cost the sample holds, in `[0, 1]`.
    pub cost_share: f64,
    /// Seconds preparing the plan's tables before its first unit.
    pub prepare_seconds: f64,
    /// Wall seconds counting the sample.
    pub sample_seconds: f64,
    /// The sample's unit-seconds: each unit's wall time on its thread,
    /// summed. The process's CPU time over them (and the tables' time) is
    /// the share of the CPU the units got: below 1 on a busy machine,
    /// whose units took longer than their work, and the projection with
    /// them.
    pub unit_seconds: f64,
    /// Projected wall seconds of the whole count on this executor.
    pub seconds: f64,
    /// The 95% interval of [`seconds`](Self::seconds): Student's t, with
    /// [`degrees_of_freedom`](Self::degrees_of_freedom).
    pub seconds_interval: (f64, f64),
    /// The degrees of freedom of the seconds' interval (Satterthwaite's,
    /// from the strata's spreads; infinite when every unit was counted).
    pub degrees_of_freedom: f64,
    /// The seconds projected from the sample's times alone, without the
    /// correction by the known total (the same as
    /// [`seconds`](Self::seconds) where none is known).
    pub uncorrected_seconds: f64,
    /// The 95% interval of [`uncorrected_seconds`](Self::uncorrected_seconds).
    pub uncorrected_seconds_interval: (f64, f64),
    /// Projected solutions of the whole board.
    pub solutions: f64,
    /// The 95% interval of [`solutions`](Self::solutions).
    pub solutions_interval: (f64, f64),
    /// The standard error of [`solutions`](Self::solutions): how far the
    /// projection is from [`known_solutions`](Self::known_solutions) is
    /// best read in these.
    pub solutions_error: f64,
    /// A000170's value for the board, where it has one and no queen is
    /// given: the control variate that corrected the seconds.
    pub known_solutions: Option<u128>,
    /// The projected unit-seconds of every unit: the whole count's CPU
    /// time, less the plan and its tables, at this machine's speed.
    pub core_seconds: f64,
    /// The 95% interval of [`core_seconds`](Self::core_seconds).
    pub core_seconds_interval: (f64, f64),
    /// How far this machine's speed moved while the sample was counted:
    /// the standard deviation, as a share, of the speed of ten blocks of
    /// its units in the order they ended (fewer in a small sample: three
    /// units and a tenth of a second a block at least), beyond what their
    /// own spread explains. `None` for a sample too small to tell. The
    /// seconds' intervals hold it: the units not counted run at another
    /// time, at whatever speed the machine has then.
    pub drift: Option<f64>,
    /// The half-width, as a share of the seconds of the units not counted,
    /// that the drift adds to the intervals (Student's t with a degree
    /// less than the blocks; in quadrature with the sampling's half-width).
    /// 0 without a drift.
    pub drift_margin: f64,
    /// Each stratum's last unit as `(cost, id)` (the strata cut the units
    /// in that order) and its seconds a unit of cost: what [`campaign()`]
    /// projects a shard's units with.
    rates: Vec<((u64, u32), f64)>,
}

/// What [`estimate`] reports before it counts the smallest sample it can
/// project from (two units of every stratum), when that sample alone is
/// projected to take longer than the [`Sample::Seconds`] asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Overrun {
    /// The seconds asked for.
    pub budget: f64,
    /// The smallest sample's projected wall seconds, from the time its
    /// cheapest units took (counted first, one a thread) against their
    /// cost.
    pub projected: f64,
    /// Units in the smallest sample.
    pub units: usize,
    /// Whether `projected` is only a floor: the cheapest units were still
    /// running when the seconds asked for ran out (it is then their
    /// seconds, at the least rate they can be counting at, and told then).
    pub at_least: bool,
}

/// Counts a sample of `plan`'s units with `runner` (its threads,
/// executor and memory limit; `threads` is how many threads it counts on)
/// and projects the whole count.
///
/// With [`Sample::Seconds`], the smallest sample that projects a spread
/// (two units of every stratum) is counted first, its cheapest units
/// first, one a thread: if the rest of it is projected, from their time
/// against their cost, to end past the seconds asked for, `overrun` is
/// told before the rest is counted. Then rounds of units, one of each
/// stratum in turn, are counted while each is projected to end within
/// the seconds asked for: the sample takes about that long, or, when even
/// the smallest one takes longer, about what `overrun` was told.
///
/// # Errors
/// [`Error::Sample`] for a percentage outside `(0, 100]` or a number of
/// seconds that is not positive; [`Error::Memory`] when counting the plan's
/// units takes more memory than the plan's limit (checked before the
/// plan's tables are built); what counting the units may return.
pub fn estimate(
    plan: &Plan,
    runner: &Runner<'_>,
    threads: usize,
    sample: Sample,
    seed: u64,
    overrun: &(dyn Fn(Overrun) + Sync),
) -> Result<Estimate, Error> {
    check_sample(sample)?;
    // See: issue 32 (the join's tables of n = 22, 534 MB, aborted under
    // `ulimit -v 300000`). The runner's records are the sample's: none
    // counted here.
    runner.fits(plan, 0)?;
    let strata = strata(plan, seed);
    let started = Instant::now();
    plan.prepare();
    let prepare_seconds = started.elapsed().as_secs_f64();

    let recorder = Recorder::default();
    let runner = runner.observer(&recorder);
    let started = Instant::now();
    match sample {
        Sample::Percent(p) => sample_percent(plan, &runner, &strata, p)?,
        Sample::Seconds(budget) => {
            let sampling = Sampling {
                plan,
                runner: &runner,
                recorder: &recorder,
                strata: &strata,
                threads: threads.max(1),
                budget,
                started,
            };
            sampling.run(overrun)?;
        }
    }
    let sample_seconds = started.elapsed().as_secs_f64();
    let done = recorder
        .done
        .into_inner()
        .expect("no thread panicked holding it");
    Ok(Estimate::of(
        plan,
        &done,
        threads,
        seed,
        prepare_seconds,
        sample_seconds,
    ))
}

/// Refuses a share of units or a number of seconds that no sample has.
fn check_sample(sample: Sample) -> Result<(), Error> {
    match sample {
        Sample::Percent(p) if !(p > 0.0 && p <= 100.0) => Err(Error::Sample(format!("{p}%"))),
        Sample::Seconds(s) if !(s > 0.0 && s.is_finite()) => Err(Error::Sample(format!("{s} s"))),
        _ => Ok(()),
    }
}

/// Counts `p` percent of each stratum's units, and at least two of each
/// (or all it has).
fn sample_percent(
    plan: &Plan,
    runner: &Runner<'_>,
    strata: &[Vec<u32>],
    p: f64,
) -> Result<(), Error> {
    let ids: Vec<u32> = strata
        .iter()
        .flat_map(|s| {
            let want = (s.len() as f64 * p / 100.0).ceil() as usize;
            s[..want.clamp(s.len().min(2), s.len())].to_vec()
        })
        .collect();
    runner.count(plan, &plan.select(&ids)?)?;
    Ok(())
}

/// A sample that takes about `budget` seconds from `started` on.
struct Sampling<'s, 'c> {
    plan: &'s Plan,
    runner: &'s Runner<'c>,
    recorder: &'s Recorder,
    strata: &'s [Vec<u32>],
    threads: usize,
    budget: f64,
    started: Instant,
}

impl Sampling<'_, '_> {
    /// Counts the two cheapest units of every stratum (what any projection
    /// needs, whatever the budget: `overrun` hears when they outlast it),
    /// then draws more while the budget lasts.
    fn run(&self, overrun: &(dyn Fn(Overrun) + Sync)) -> Result<(), Error> {
        let (plan, threads, budget) = (self.plan, self.threads, self.budget);
        let mut smallest: Vec<u32> = (self.strata.iter())
            .flat_map(|s| s.iter().take(2))
            .copied()
            .collect();
        smallest.sort_by_key(|&id| (plan.cost_of(id), id));
        let (probe, rest) = smallest.split_at(threads.min(smallest.len()));
        let units = smallest.len();
        let warned = self.probe(probe, rest, units, overrun)?;
        // Units of no cost say nothing of the others' time: no warning.
        let projected = (self.recorder.rate())
            .map(|rate| self.started.elapsed().as_secs_f64() + wall(plan, rest, rate, threads));
        if let Some(projected) = projected
            && projected > budget
            && !warned
        {
            overrun(Overrun {
                budget,
                projected,
                units,
                at_least: false,
            });
        }
        if !rest.is_empty() {
            self.runner.count(plan, &plan.select(rest)?)?;
        }
        self.draw_while_time_is_left()
    }

    /// Counts the `probe` units, one a thread; returns whether `overrun`
    /// heard that they outlast the budget. Where even the cheapest units
    /// do (n = 30: minutes each), that is said when the budget runs out,
    /// with the least the `rest` can take at the rate they have shown.
    fn probe(
        &self,
        probe: &[u32],
        rest: &[u32],
        units: usize,
        overrun: &(dyn Fn(Overrun) + Sync),
    ) -> Result<bool, Error> {
        let (plan, threads, budget) = (self.plan, self.threads, self.budget);
        let (finished, timer) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            let waiting = scope.spawn(move || {
                let out = Duration::from_secs_f64(budget);
                if timer.recv_timeout(out) != Err(RecvTimeoutError::Timeout) {
                    return false;
                }
                let most = probe.iter().map(|&id| plan.cost_of(id)).max().unwrap_or(0);
                let rate = budget / (most as f64).max(1.0);
                overrun(Overrun {
                    budget,
                    projected: budget + wall(plan, rest, rate, threads),
                    units,
                    at_least: true,
                });
                true
            });
            let probed = plan
                .select(probe)
                .and_then(|units| self.runner.count(plan, &units));
            drop(finished);
            probed.map(|_| waiting.join().expect("the timer does not panic"))
        })
    }

    /// Draws units past the two of each stratum already counted, as many
    /// as the seconds left allow at the rate seen so far, until none fit.
    fn draw_while_time_is_left(&self) -> Result<(), Error> {
        let mut next: Vec<usize> = self.strata.iter().map(|s| s.len().min(2)).collect();
        loop {
            let left = self.budget - self.started.elapsed().as_secs_f64();
            // No unit of any cost counted yet (every unit of the smallest
            // sample of cost 0): one unit at a time.
            let rate = self.recorder.rate().unwrap_or(f64::INFINITY);
            let ids = draw(self.plan, self.strata, &mut next, rate, self.threads, left);
            if ids.is_empty() {
                return Ok(());
            }
            self.runner.count(self.plan, &self.plan.select(&ids)?)?;
        }
    }
}

impl Estimate {
    /// The estimate of `plan` from the units `done` in the sample.
    fn of(
        plan: &Plan,
        done: &[UnitDone],
        threads: usize,
        seed: u64,
        prepare_seconds: f64,
        sample_seconds: f64,
    ) -> Self {
        let all: Vec<u32> = (0..plan.len() as u32).collect();
        // The whole board's total, where A000170 has it, is what the
        // sample's units add up to: the control variate.
        let known = crate::known::total(plan.n()).filter(|_| plan.problem().is_none());
        let counted = counted(done);
        let strata = cut(plan, &all);
        let drift = drift(plan, &strata, done);
        let margin = drift.map_or(0.0, |d| d.margin());
        let projected = projection(plan, &strata, &counted, threads, known, margin);
        let unit_seconds = done.iter().map(|d| d.elapsed.as_secs_f64()).sum();
        // The correction by the known total moves every stratum's rate
        // alike.
        let corrected = projected.seconds / projected.uncorrected_seconds.max(f64::MIN_POSITIVE);
        let rates = (strata.iter())
            .zip(ratio::rates(&sampled(plan, &strata, &counted), |u| u.value))
            .filter_map(|(stratum, rate)| {
                let &last = stratum.last()?;
                Some(((plan.cost_of(last), last), rate * corrected))
            })
            .collect();
        let threads = threads.max(1) as f64;
        let prepared = |(low, high): (f64, f64)| (prepare_seconds + low, prepare_seconds + high);
        Self {
            seed,
            units: plan.len(),
            sampled: done.len(),
            cost_share: projected.cost_share,
            prepare_seconds,
            sample_seconds,
            unit_seconds,
            seconds: prepare_seconds + projected.seconds,
            seconds_interval: prepared(projected.seconds_interval),
            degrees_of_freedom: projected.degrees_of_freedom,
            uncorrected_seconds: prepare_seconds + projected.uncorrected_seconds,
            uncorrected_seconds_interval: prepared(projected.uncorrected_seconds_interval),
            solutions: projected.solutions,
            solutions_interval: projected.solutions_interval,
            solutions_error: projected.solutions_error,
            known_solutions: projected.known_solutions,
            drift: drift.map(|d| d.spread),
            drift_margin: margin,
            core_seconds: projected.seconds * threads,
            core_seconds_interval: (
                projected.seconds_interval.0 * threads,
                projected.seconds_interval.1 * threads,
            ),
            rates,
        }
    }
}

/// What counting some units of a plan is projected to take and to find,
/// from those of them counted so far: see [`project`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Projection {
    /// Projected wall seconds of counting every unit: their projected
    /// unit-seconds divided by the threads (nothing for building or
    /// preparing the plan).
    pub seconds: f64,
    /// The 95% interval of [`seconds`](Self::seconds); its floor is the
    /// time the units counted took.
    pub seconds_interval: (f64, f64),
    /// The degrees of freedom of that interval's Student's t (infinite
    /// when every unit was counted).
    pub degrees_of_freedom: f64,
    /// The seconds projected without the control variate (the same as
    /// [`seconds`](Self::seconds) where no total is known).
    pub uncorrected_seconds: f64,
    /// The 95% interval of [`uncorrected_seconds`](Self::uncorrected_seconds).
    pub uncorrected_seconds_interval: (f64, f64),
    /// Projected solutions of the units.
    pub solutions: f64,
    /// The 95% interval of [`solutions`](Self::solutions).
    pub solutions_interval: (f64, f64),
    /// The standard error of [`solutions`](Self::solutions).
    pub solutions_error: f64,
    /// The units' total of solutions where it is known (A000170, for every
    /// unit of the whole board): the seconds were corrected by how far the
    /// sample's projection of it is from it.
    pub known_solutions: Option<u128>,
    /// The share of the units' estimated cost counted, in `[0, 1]`.
    pub cost_share: f64,
}

/// Projects counting `units` of `plan` on `threads` threads from `done`,
/// those of them counted so far (each once; any other is ignored): the
/// one projection behind [`estimate`] and the CLI's warning of a long
/// count, which feeds it a count's first units.
///
/// The units are cut into ten strata of about equal cost; within
/// each, a unit's time and solutions are projected from its cost by the
/// ratio its stratum's counted units show (the separate ratio
/// estimator), and the strata are added; the intervals are Student's t.
/// A stratum none of whose units is counted (a count's first units are
/// its biggest) takes the ratio of every unit counted, and the widest
/// interval. No total is known for a part of a plan: the seconds are not
/// corrected by one. Cheap: a sort of `units`.
#[must_use]
pub fn project(plan: &Plan, units: &[u32], done: &[UnitDone], threads: usize) -> Projection {
    projection(plan, &cut(plan, units), &counted(done), threads, None, 0.0)
}

/// How far the machine's speed moved over `done`, the sample's units in
/// the order they ended: cut into up to [`DRIFT_BLOCKS`] blocks of as
/// many units each (of those with a cost), each unit projected at its
/// stratum's rate over the whole sample.
fn drift(plan: &Plan, strata: &[Vec<u32>], done: &[UnitDone]) -> Option<ratio::Drift> {
    let ended: Vec<(u32, f64)> = (done.iter())
        .map(|d| (d.id, d.elapsed.as_secs_f64()))
        .collect();
    drift_of(plan, strata, &ended)
}

/// [`drift`] of units given as `(id, seconds)`, in the order they ended,
/// `strata` the plan's units as [`cut`] cuts them.
fn drift_of(plan: &Plan, strata: &[Vec<u32>], ended: &[(u32, f64)]) -> Option<ratio::Drift> {
    let counted: HashMap<u32, (f64, f64)> = ended.iter().map(|&(id, t)| (id, (t, 0.0))).collect();
    let rates = ratio::rates(&sampled(plan, strata, &counted), |u| u.value);
    let mut stratum_of = HashMap::with_capacity(ended.len());
    for (h, stratum) in strata.iter().enumerate() {
        for id in stratum {
            if counted.contains_key(id) {
                stratum_of.insert(*id, h);
            }
        }
    }
    let units: Vec<(f64, f64)> = (ended.iter())
        .map(|&(id, t)| (rates[stratum_of[&id]] * plan.cost_of(id) as f64, t))
        .filter(|u| u.0 > 0.0)
        .collect();
    let seconds: f64 = units.iter().map(|u| u.1).sum();
    let blocks = (DRIFT_BLOCKS.min(units.len() / 3)).min((seconds / DRIFT_BLOCK_SECONDS) as usize);
    if blocks < 2 {
        return None;
    }
    let cut: Vec<Vec<(f64, f64)>> = (0..blocks)
        .map(|b| units[b * units.len() / blocks..(b + 1) * units.len() / blocks].to_vec())
        .collect();
    ratio::drift(&cut)
}

/// Each counted unit's seconds and solutions, by id.
fn counted(done: &[UnitDone]) -> HashMap<u32, (f64, f64)> {
    done.iter()
        .map(|d| (d.id, (d.elapsed.as_secs_f64(), d.solutions as f64)))
        .collect()
}

/// [`project`] of the units cut into `strata` (as [`cut`] cuts them), the
/// seconds corrected by the solutions' total where it is `known` (every
/// unit of a plan of the whole board), their intervals widened by
/// `drift`, the half-width the machine's drift adds (a share of the
/// seconds of the units not counted, added to the sampling's in
/// quadrature).
fn projection(
    plan: &Plan,
    strata: &[Vec<u32>],
    counted: &HashMap<u32, (f64, f64)>,
    threads: usize,
    known: Option<u128>,
    drift: f64,
) -> Projection {
    let units = strata.iter().flatten();
    let strata = sampled(plan, strata, counted);
    let plain = ratio::ratio(&strata, |u| u.value);
    let found = ratio::ratio(&strata, |u| u.control);
    let time = known.map_or(plain, |k| ratio::controlled(&strata, k as f64));
    let (mut spent, mut sampled_cost, mut total_cost) = (0.0, 0.0, 0.0);
    for &id in units {
        let cost = plan.cost_of(id) as f64;
        total_cost += cost;
        if let Some(&(t, _)) = counted.get(&id) {
            spent += t;
            sampled_cost += cost;
        }
    }
    let wall = |x: f64| x / threads.max(1) as f64;
    // The drift moves the units still to count, not those counted.
    let interval = |t: ratio::Total| {
        let margin = t.margin.hypot(drift * (t.value - spent).max(0.0));
        (wall((t.value - margin).max(spent)), wall(t.value + margin))
    };
    Projection {
        seconds: wall(time.value),
        seconds_interval: interval(time),
        degrees_of_freedom: time.degrees,
        uncorrected_seconds: wall(plain.value),
        uncorrected_seconds_interval: interval(plain),
        solutions: found.value,
        solutions_interval: (
            (found.value - found.margin).max(0.0),
            found.value + found.margin,
        ),
        solutions_error: found.error,
        known_solutions: known,
        cost_share: if total_cost > 0.0 {
            sampled_cost / total_cost
        } else {
            1.0
        },
    }
}

/// A projected total of some quantity over a plan's units and its 95%
/// interval, from a sample: see [`project_sample`].
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleTotal {
    pub value: f64,
    pub low: f64,
    pub high: f64,
    /// Its standard error.
    pub error: f64,
    /// The degrees of freedom of the interval's Student's t.
    pub degrees: f64,
}

/// What [`project_sample`] projects.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleProjection {
    /// The values' total, corrected by the controls' where it is known,
    /// its interval holding the drift as [`estimate`]'s seconds do.
    pub value: SampleTotal,
    /// The same with the sampling's interval alone.
    pub sampling: SampleTotal,
    /// The values' total from their ratio to cost alone (with the drift).
    pub uncorrected: SampleTotal,
    /// The drift of the values over the units in the order given, and the
    /// half-width it adds, as [`Estimate::drift`] and
    /// [`Estimate::drift_margin`].
    pub drift: Option<f64>,
    pub drift_margin: f64,
    /// The controls' total.
    pub control: SampleTotal,
}

/// The estimator of [`estimate`] on its own, for benches that measure
/// their units their own way (CPU time, a unit alone on a fresh scratch):
/// `counted` holds each counted unit's id, value (seconds) and control
/// (solutions), in the order they ended, `known` the controls' total
/// where it is known. The plan's units are cut into strata as
/// [`estimate_strata`] cuts them.
#[doc(hidden)]
#[must_use]
pub fn project_sample(
    plan: &Plan,
    counted: &[(u32, f64, f64)],
    known: Option<u128>,
) -> SampleProjection {
    let all: Vec<u32> = (0..plan.len() as u32).collect();
    let cut = cut(plan, &all);
    let ended: Vec<(u32, f64)> = counted.iter().map(|&(id, v, _)| (id, v)).collect();
    let drift = drift_of(plan, &cut, &ended);
    let drift_margin = drift.map_or(0.0, |d| d.margin());
    // As in `estimate`: the drift moves the units not counted.
    let spent: f64 = counted.iter().map(|u| u.1).sum();
    let counted: HashMap<u32, (f64, f64)> =
        counted.iter().map(|&(id, v, c)| (id, (v, c))).collect();
    let strata = sampled(plan, &cut, &counted);
    let plain = ratio::ratio(&strata, |u| u.value);
    let total = |t: ratio::Total, drift: f64| {
        let margin = t.margin.hypot(drift * (t.value - spent).max(0.0));
        SampleTotal {
            value: t.value,
            low: t.value - margin,
            high: t.value + margin,
            error: t.error,
            degrees: t.degrees,
        }
    };
    let value = known.map_or(plain, |k| ratio::controlled(&strata, k as f64));
    SampleProjection {
        value: total(value, drift_margin),
        sampling: total(value, 0.0),
        uncorrected: total(plain, drift_margin),
        control: total(ratio::ratio(&strata, |u| u.control), 0.0),
        drift: drift.map(|d| d.spread),
        drift_margin,
    }
}

/// The strata [`estimate`] draws its sample from, cheapest first, each
/// shuffled by `seed`: a sample of `k` units a stratum is the first `k`
/// of each.
#[doc(hidden)]
#[must_use]
pub fn estimate_strata(plan: &Plan, seed: u64) -> Vec<Vec<u32>> {
    strata(plan, seed)
}

/// The plan's ids cut into strata of about equal total cost, cheapest
/// first, each shuffled by `seed`.
fn strata(plan: &Plan, seed: u64) -> Vec<Vec<u32>> {
    let all: Vec<u32> = (0..plan.len() as u32).collect();
    let mut out = cut(plan, &all);
    let mut state = seed;
    for stratum in &mut out {
        // Fisher-Yates with SplitMix64: the same order for the same seed.
        for i in (1..stratum.len()).rev() {
            let j = (crate::count::cost::splitmix64(&mut state) % (i as u64 + 1)) as usize;
            stratum.swap(i, j);
        }
    }
    out
}

/// `units` cut into strata of about equal total cost, cheapest first,
/// each in order of cost.
fn cut(plan: &Plan, units: &[u32]) -> Vec<Vec<u32>> {
    let ids = plan.cheapest_first(units.iter().copied());
    let total: u128 = ids.iter().map(|&(cost, _)| u128::from(cost)).sum();
    let wanted = STRATA.min(ids.len()).max(1) as u128;
    let mut out: Vec<Vec<u32>> = vec![Vec::new()];
    let mut cost = 0u128;
    for (here, id) in ids {
        let here = u128::from(here);
        // A stratum closes when it holds its share of the total cost.
        let last = out.last_mut().expect("never empty");
        last.push(id);
        cost += here;
        if cost * wanted >= total * out.len() as u128 && (out.len() as u128) < wanted {
            out.push(Vec::new());
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

/// The next units to count within `left` seconds: one from each stratum
/// in turn, each stratum's next in its shuffled order, while the units
/// taken are projected (at `rate` seconds a unit of cost, on `threads`
/// threads) to take at most half of `left`, or all of it for the first:
/// a round that ends early leaves room for another, timed anew.
fn draw(
    plan: &Plan,
    strata: &[Vec<u32>],
    next: &mut [usize],
    rate: f64,
    threads: usize,
    left: f64,
) -> Vec<u32> {
    let mut ids = Vec::new();
    loop {
        let before = ids.len();
        for (stratum, at) in strata.iter().zip(next.iter_mut()) {
            let Some(&id) = stratum.get(*at) else {
                continue;
            };
            ids.push(id);
            let fits = if ids.len() == 1 { left } else { left / 2.0 };
            if wall(plan, &ids, rate, threads) > fits {
                ids.pop();
                return ids;
            }
            *at += 1;
        }
        if ids.len() == before {
            return ids;
        }
    }
}

/// The wall seconds `ids` are projected to take on `threads` threads at
/// `rate` seconds a unit of cost: their cost spread over the threads, or
/// the biggest one's, whichever is longer.
fn wall(plan: &Plan, ids: &[u32], rate: f64, threads: usize) -> f64 {
    let costs = ids.iter().map(|&id| plan.cost_of(id) as f64);
    let (sum, most) = costs.fold((0.0, 0.0f64), |(s, m), c| (s + c, m.max(c)));
    rate * (sum / threads as f64).max(most)
}

/// The units of `strata` as the estimator sees them: each stratum's size
/// and cost, and its counted units' cost, seconds and solutions.
fn sampled(
    plan: &Plan,
    strata: &[Vec<u32>],
    counted: &HashMap<u32, (f64, f64)>,
) -> Vec<ratio::Stratum> {
    let cost = |id: u32| plan.cost_of(id) as f64;
    strata
        .iter()
        .map(|stratum| ratio::Stratum {
            size: stratum.len(),
            cost: stratum.iter().map(|&id| cost(id)).sum(),
            sample: (stratum.iter())
                .filter_map(|&id| {
                    counted.get(&id).map(|&(value, control)| ratio::Unit {
                        cost: cost(id),
                        value,
                        control,
                    })
                })
                .collect(),
        })
        .collect()
}

/// Keeps what the units of the sample report.
#[derive(Default)]
struct Recorder {
    done: Mutex<Vec<UnitDone>>,
}

impl Recorder {
    /// Seconds a unit of cost has taken so far, over every unit counted;
    /// `None` while they have no cost between them. An odd board's join
    /// has units of cost 0 (n = 19: 24,310 of 231,073) that still take a
    /// fraction of a millisecond: their time over a cost of 1 projected
    /// the smallest sample of n = 19 at 19 days (it takes 0.1 s).
    fn rate(&self) -> Option<f64> {
        let done = self.done.lock().expect("no thread panicked holding it");
        let (seconds, cost) = done.iter().fold((0.0, 0.0), |(s, c), d| {
            (s + d.elapsed.as_secs_f64(), c + d.cost as f64)
        });
        (cost > 0.0).then(|| seconds / cost)
    }
}

impl Observer for Recorder {
    fn unit_done(&self, done: &UnitDone) {
        self.done
            .lock()
            .expect("no thread panicked holding it")
            .push(*done);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Engine, Shape, known};
    use std::num::NonZeroUsize;

    fn plan(n: u32, engine: Engine) -> Plan {
        Plan::new(Shape::new(n, engine, None), &Config::default()).unwrap()
    }

    #[test]
    fn the_same_seed_draws_the_same_strata() {
        let p = plan(14, Engine::Constellations);
        assert_eq!(strata(&p, 7), strata(&p, 7));
        assert_ne!(strata(&p, 7), strata(&p, 8));
        let mut all: Vec<u32> = strata(&p, 7).concat();
        all.sort_unstable();
        assert_eq!(all, (0..p.len() as u32).collect::<Vec<_>>());
        assert_eq!(strata(&p, 7).len(), STRATA);
    }

    #[test]
    fn strata_hold_about_equal_cost() {
        let p = plan(16, Engine::Mirror);
        let costs: Vec<u64> = strata(&p, 1)
            .iter()
            .map(|s| s.iter().map(|&id| p.cost_of(id)).sum())
            .collect();
        let total: u64 = costs.iter().sum();
        let biggest_unit = (0..p.len() as u32).map(|id| p.cost_of(id)).max().unwrap();
        for c in &costs {
            assert!(*c <= total / costs.len() as u64 + biggest_unit, "{costs:?}");
        }
    }

    #[test]
    fn a_whole_sample_projects_the_exact_count() {
        for (n, engine) in [
            (8, Engine::Mirror),
            (10, Engine::Constellations),
            (12, Engine::Join),
        ] {
            let p = plan(n, engine);
            let runner = Runner::new().threads(NonZeroUsize::new(2).unwrap());
            let e = estimate(&p, &runner, 2, Sample::Percent(100.0), 3, &|_| {}).unwrap();
            assert_eq!(e.sampled, p.len());
            let want = known::total(n).unwrap() as f64;
            assert!(
                (e.solutions - want).abs() < 0.5,
                "n = {n}: {} vs {want}",
                e.solutions
            );
            assert_eq!(e.solutions_interval.0, e.solutions);
            assert_eq!(e.solutions_interval.1, e.solutions);
            assert!((e.cost_share - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn a_part_sample_has_a_sane_interval() {
        let n = 13;
        let p = plan(n, Engine::Constellations);
        let runner = Runner::new().threads(NonZeroUsize::MIN);
        let e = estimate(&p, &runner, 1, Sample::Percent(10.0), 11, &|_| {}).unwrap();
        assert!(e.sampled < p.len() && e.sampled >= STRATA, "{e:?}");
        let (low, high) = e.seconds_interval;
        assert!(0.0 < low && low <= e.seconds && e.seconds <= high, "{e:?}");
        let (low, high) = e.solutions_interval;
        assert!(low <= e.solutions && e.solutions <= high, "{e:?}");
        // The projected total is of the right order of magnitude.
        let want = known::total(n).unwrap() as f64;
        assert!(
            e.solutions > want / 3.0 && e.solutions < want * 3.0,
            "{e:?}"
        );
    }

    #[test]
    fn a_machine_that_slows_midway_widens_the_seconds_interval() {
        // 20 units a stratum, one of each in turn as rounds draw them,
        // each taking a second a million of cost, off by up to 20% either
        // way: steady, then the second half of them 30% slower. (A
        // slowdown that falls on whole strata is their rate's, and unseen.)
        let p = plan(14, Engine::Constellations);
        let drawn = strata(&p, 5);
        let ids: Vec<u32> = (0..20)
            .flat_map(|k| drawn.iter().filter_map(move |s| s.get(k)))
            .copied()
            .collect();
        let mut state = 9;
        let times: Vec<(u32, f64, f64)> = (ids.iter())
            .map(|&id| {
                let off = (crate::count::cost::splitmix64(&mut state) % 401) as f64 / 1000.0;
                (id, p.cost_of(id) as f64 * 1e-6 * (0.8 + off), 0.0)
            })
            .collect();
        let steady = project_sample(&p, &times, None);
        let slowing: Vec<(u32, f64, f64)> = (times.iter().enumerate())
            .map(|(i, &(id, t, c))| (id, if i < ids.len() / 2 { t } else { 1.3 * t }, c))
            .collect();
        let slowed = project_sample(&p, &slowing, None);
        let width = |t: &SampleTotal| (t.high - t.low) / t.value;
        assert!(steady.drift.is_some_and(|d| d < 0.03), "{steady:?}");
        assert!(slowed.drift.is_some_and(|d| d > 0.08), "{slowed:?}");
        assert!(
            width(&slowed.value) > 2.0 * width(&slowed.sampling),
            "{slowed:?}"
        );
        assert!(
            width(&steady.value) < 1.2 * width(&steady.sampling),
            "{steady:?}"
        );
        // The same slowdown in units of microseconds in all: too little
        // time for a block's speed to be the machine's.
        let tiny: Vec<(u32, f64, f64)> = (slowing.iter())
            .map(|&(id, t, c)| (id, t * 1e-6 / slowed.value.value, c))
            .collect();
        let tiny = project_sample(&p, &tiny, None);
        assert_eq!((tiny.drift, tiny.drift_margin), (None, 0.0), "{tiny:?}");
    }

    /// The units of a whole count of `plan` on one thread, as its
    /// observer hears of them, biggest first.
    fn counted(plan: &Plan) -> Vec<UnitDone> {
        let recorder = Recorder::default();
        let runner = Runner::new().threads(NonZeroUsize::MIN);
        runner
            .observer(&recorder)
            .count(plan, &plan.select_all())
            .unwrap();
        recorder.done.into_inner().unwrap()
    }

    #[test]
    fn every_unit_counted_projects_their_own_time_and_count() {
        let p = plan(11, Engine::Constellations);
        let done = counted(&p);
        let all: Vec<u32> = (0..p.len() as u32).collect();
        let unit_seconds: f64 = done.iter().map(|d| d.elapsed.as_secs_f64()).sum();
        let projected = project(&p, &all, &done, 2);
        assert!(
            (projected.seconds - unit_seconds / 2.0).abs() < 1e-9,
            "{projected:?}"
        );
        assert!((projected.solutions - 2680.0).abs() < 1e-6, "{projected:?}");
        // No unit left to project: no interval but the sum's rounding.
        let (low, high) = projected.seconds_interval;
        assert!((high - low).abs() < 1e-12, "{projected:?}");
        assert!((projected.cost_share - 1.0).abs() < 1e-12);
    }

    #[test]
    fn strata_none_of_whose_units_ran_take_the_ratio_of_those_that_did() {
        // A count's first units are its biggest: the cheap strata have
        // none counted, and must not be projected to take no time (see:
        // issue 35, the warning of a long count now made from them).
        let p = plan(12, Engine::Mirror);
        let mut done = counted(&p);
        done.sort_by_key(|d| std::cmp::Reverse((d.cost, d.id)));
        let all: Vec<u32> = (0..p.len() as u32).collect();
        let strata = cut(&p, &all);
        let biggest = &strata[strata.len() - 1];
        done.truncate(biggest.len());
        // One second for every million of cost: the projection is exact.
        for d in &mut done {
            d.elapsed = Duration::from_secs_f64(d.cost as f64 * 1e-6);
        }
        let total_cost: f64 = all.iter().map(|&id| p.cost_of(id) as f64).sum();
        let projected = project(&p, &all, &done, 1);
        assert!(strata.len() > 1);
        assert!(
            (projected.seconds - total_cost * 1e-6).abs() < 1e-9 * total_cost,
            "{projected:?} against {}",
            total_cost * 1e-6
        );
        assert!(projected.cost_share < 0.5, "{projected:?}");
        // Units that are not of the count are no part of its projection.
        let half = &all[..all.len() / 2];
        let of_half = project(&p, half, &done, 1);
        let half_cost: f64 = half.iter().map(|&id| p.cost_of(id) as f64).sum();
        assert!((of_half.seconds - half_cost * 1e-6).abs() < 1e-9 * total_cost);
    }

    #[test]
    fn units_of_no_cost_have_no_rate() {
        // See: the rate of units of cost 0 (an odd board's join has them)
        // projected n = 19's smallest sample, 0.1 s, at 19 days.
        let p = plan(15, Engine::Join);
        assert!((0..p.len() as u32).any(|id| p.cost_of(id) == 0));
        let recorder = Recorder::default();
        let unit = |cost, ms| UnitDone {
            id: 0,
            solutions: 0,
            cost,
            elapsed: Duration::from_millis(ms),
        };
        assert_eq!(recorder.rate(), None);
        recorder.unit_done(&unit(0, 3));
        recorder.unit_done(&unit(0, 2));
        assert_eq!(recorder.rate(), None);
        recorder.unit_done(&unit(1000, 5));
        assert_eq!(recorder.rate(), Some(0.010 / 1000.0));
    }

    #[test]
    fn bad_samples_are_refused() {
        let p = plan(8, Engine::Mirror);
        let runner = Runner::new();
        for bad in [
            Sample::Percent(0.0),
            Sample::Percent(101.0),
            Sample::Seconds(-1.0),
        ] {
            assert!(
                estimate(&p, &runner, 1, bad, 1, &|_| {}).is_err(),
                "{bad:?}"
            );
        }
        let e = estimate(&p, &runner, 1, Sample::Seconds(0.01), 1, &|_| {}).unwrap();
        assert!(e.sampled >= 2);
    }
}
