//! The progress bar of a count, fed once per finished work unit.
//!
//! It advances by the units' estimated costs, so its ETA holds even when
//! units differ in size by orders of magnitude, for both engines. Hidden
//! (and nearly free) when nobody watches: stderr not a terminal, `-q`,
//! `--json`. It only shows; it never decides anything about the count.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use queens::{Observer, UnitDone};

/// A bar for one board size.
pub struct Progress {
    bar: ProgressBar,
    tally: Mutex<Tally>,
}

#[derive(Default)]
struct Tally {
    units: usize,
    done: usize,
    solutions: u128,
}

impl Progress {
    /// A bar labelled with `n`, drawn on stderr only if `visible`.
    pub fn new(n: u32, visible: bool) -> Self {
        let target = if visible {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(None, target);
        bar.set_style(
            ProgressStyle::with_template(
                "n = {prefix} {spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% {msg} (ETA {eta})",
            )
            .expect("a valid template"),
        );
        bar.set_prefix(n.to_string());
        Self {
            bar,
            tally: Mutex::new(Tally::default()),
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Observer for Progress {
    fn start(&self, units: usize, total_cost: u64) {
        self.bar.set_length(total_cost);
        self.tally
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .units = units;
        if !self.bar.is_hidden() {
            self.bar
                .set_message(format!("0/{units} units, 0 solutions"));
            self.bar.enable_steady_tick(Duration::from_millis(200));
        }
    }

    fn unit_done(&self, done: &UnitDone) {
        if self.bar.is_hidden() {
            return;
        }
        let mut tally = self.tally.lock().unwrap_or_else(PoisonError::into_inner);
        tally.done += 1;
        tally.solutions += done.solutions;
        let rate = tally.done as f64 / self.bar.elapsed().as_secs_f64().max(1e-9);
        self.bar.set_message(format!(
            "{}/{} units, {} solutions, {rate:.1} units/s",
            tally.done, tally.units, tally.solutions
        ));
        self.bar.inc(done.cost);
    }
}
