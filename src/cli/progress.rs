//! The progress bar of a count, fed once per finished work unit, and the
//! up-front estimate of a long count.
//!
//! It advances by the units' estimated costs, so its ETA holds even when
//! units differ in size by orders of magnitude, for both engines. Hidden
//! (and nearly free) when nobody watches: stderr not a terminal, `-q`,
//! `--json`. Once the first units have run for a couple of seconds, their
//! pace (cost done per second) predicts the whole count; one predicted to
//! take over a minute says so on stderr, bar or not. It only shows; it
//! never decides anything about the count.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use queens::{Observer, UnitDone};

/// A count predicted to take longer than this is announced.
const LONG: Duration = Duration::from_secs(60);
/// The pace is taken once the count has run this long ...
const CALIBRATE: Duration = Duration::from_secs(2);
/// ... and finished at least this many units.
const CALIBRATE_UNITS: usize = 4;

/// The bar's length: it moves by millionths of the plan's total cost.
const BAR_LENGTH: u64 = 1_000_000;

/// A bar for one board size.
pub struct Progress {
    n: u32,
    bar: ProgressBar,
    tally: Mutex<Tally>,
    /// What to say about a long count, if anything: `None` with `-q`.
    long_hint: Option<&'static str>,
}

struct Tally {
    units: usize,
    total_cost: u128,
    done: usize,
    done_cost: u128,
    solutions: u128,
    started: Instant,
    estimated: bool,
}

/// A bar drawn with `template` on stderr if `visible`, else hidden (and
/// nearly free): callers never branch on whether anybody watches.
pub fn styled_bar(visible: bool, template: &str) -> ProgressBar {
    let target = if visible {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(None, target);
    bar.set_style(ProgressStyle::with_template(template).expect("a valid template"));
    bar
}

impl Progress {
    /// A bar labelled with `n`, drawn on stderr only if `visible`; a count
    /// predicted to take over a minute is announced with `long_hint` added.
    pub fn new(n: u32, visible: bool, long_hint: Option<&'static str>) -> Self {
        let bar = styled_bar(
            visible,
            "n = {prefix} {spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% {msg} (ETA {eta})",
        );
        bar.set_prefix(n.to_string());
        Self {
            n,
            bar,
            tally: Mutex::new(Tally {
                units: 0,
                total_cost: 0,
                done: 0,
                done_cost: 0,
                solutions: 0,
                started: Instant::now(),
                estimated: false,
            }),
            long_hint,
        }
    }

    /// Units finished so far.
    pub fn units_done(&self) -> usize {
        self.tally
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .done
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Observer for Progress {
    fn start(&self, units: usize, total_cost: u128) {
        self.bar.set_length(BAR_LENGTH);
        let mut tally = self.tally.lock().unwrap_or_else(PoisonError::into_inner);
        tally.units = units;
        tally.total_cost = total_cost;
        tally.started = Instant::now();
        drop(tally);
        if !self.bar.is_hidden() {
            self.bar
                .set_message(format!("0/{units} units, 0 solutions"));
            self.bar.enable_steady_tick(Duration::from_millis(200));
        }
    }

    fn unit_done(&self, done: &UnitDone) {
        let mut tally = self.tally.lock().unwrap_or_else(PoisonError::into_inner);
        tally.done += 1;
        tally.done_cost += u128::from(done.cost);
        tally.solutions += done.solutions;
        self.estimate(&mut tally);
        if self.bar.is_hidden() {
            return;
        }
        let rate = tally.done as f64 / self.bar.elapsed().as_secs_f64().max(1e-9);
        self.bar.set_message(format!(
            "{}/{} units, {} solutions, {rate:.1} units/s",
            tally.done, tally.units, tally.solutions
        ));
        // In millionths of the total cost, which can pass 2^64.
        let position = tally.done_cost * u128::from(BAR_LENGTH) / tally.total_cost.max(1);
        self.bar
            .set_position(u64::try_from(position).unwrap_or(BAR_LENGTH));
    }
}

impl Progress {
    /// Once the first units give a pace, announces a count predicted to
    /// take over [`LONG`]. The prediction ignores the units still running,
    /// so it errs long.
    fn estimate(&self, tally: &mut Tally) {
        let Some(hint) = self.long_hint else { return };
        let elapsed = tally.started.elapsed();
        if tally.estimated || elapsed < CALIBRATE || tally.done < CALIBRATE_UNITS {
            return;
        }
        tally.estimated = true;
        let share = tally.done_cost as f64 / tally.total_cost.max(1) as f64;
        let total = elapsed.as_secs_f64() / share.max(1e-12);
        if total > LONG.as_secs_f64() {
            let line = format!(
                "queens: n = {} will take about {} on this machine (paced by its first units){hint}",
                self.n,
                about(total)
            );
            self.bar.suspend(|| eprintln!("{line}"));
        }
    }
}

/// A duration in words: `2 min`, `1 h 20 min`, `3 days`.
fn about(secs: f64) -> String {
    let minutes = (secs / 60.0).round() as u64;
    match minutes {
        0..=1 => "a minute".to_owned(),
        2..=59 => format!("{minutes} min"),
        60..=2879 => format!("{} h {} min", minutes / 60, minutes % 60),
        _ => format!("{} days", minutes / 1440),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_durations_read_as_words() {
        let shown: Vec<String> = [30.0, 150.0, 4000.0, 90_000.0, 400_000.0]
            .into_iter()
            .map(about)
            .collect();
        assert_eq!(
            shown,
            ["a minute", "3 min", "1 h 7 min", "25 h 0 min", "4 days"]
        );
    }
}
