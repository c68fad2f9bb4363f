//! The progress bar of a count, fed once per finished work unit, and the
//! warning of a long count.
//!
//! It advances by the units' estimated costs, so its ETA holds even when
//! units differ in size by orders of magnitude, for every engine; a
//! resumed count starts from the units its journal holds. Hidden (and
//! nearly free) when nobody watches: stderr not a terminal, `-q`,
//! `--json`. Its line fits the terminal and leaves the last columns free,
//! so that the `^C` a terminal echoes stays on the line the bar clears.
//! Once the first units have run for a couple of seconds, the projection
//! of `queens estimate` ([`queens::project`]), fed those units, predicts
//! the whole count; one predicted to take over a minute says so on
//! stderr, bar or not. It only shows; it never decides anything about the
//! count.

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use console::Term;
use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use queens::{Observer, Plan, UnitDone};

/// A count predicted to take longer than this is announced.
const LONG: Duration = Duration::from_secs(60);
/// The pace is taken once the count has run this long ...
const CALIBRATE: Duration = Duration::from_secs(2);
/// ... and finished at least this many units.
const CALIBRATE_UNITS: usize = 4;

/// The bar's length: it moves by millionths of the plan's total cost.
const BAR_LENGTH: u64 = 1_000_000;

/// How often the bar's message and position are brought up to date: a
/// count may finish tens of thousands of units a second, and the bar is
/// drawn at most 20 times a second anyway.
const REFRESH: Duration = Duration::from_millis(50);

/// Columns the bar leaves free at the right of the terminal. A terminal
/// echoes Ctrl-C as `^C` where the cursor is; after a line that fills the
/// terminal (indicatif pads its lines to the width it is given) the echo
/// starts a new line, and the bar, clearing its own line, left itself on
/// the screen (see: issue 35). Two columns for the echo, one to spare.
const ECHO_ROOM: u16 = 3;

/// The line of a count, as wide as the terminal less [`ECHO_ROOM`]:
/// `n = 17 ⠚ [00:00:02] ██████░░░░░  56% {msg} (ETA 1s)`.
const LINE: &str =
    "n = {prefix} {spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% {msg} (ETA {eta})";
/// The most columns [`LINE`] takes besides its bar and message:
/// `n = 32 ⠁ [99d 23:59:59] ` (24), ` 100% ` (6) and ` (ETA 99w)` (10);
/// checked by a test.
const LINE_FIXED: usize = 40;
/// The line of a terminal too narrow for [`LINE`] with its shortest
/// message: `n = 17 ███░░  56%`.
const NARROW: &str = "n = {prefix} {wide_bar} {percent:>3}%";
/// The least columns the bar keeps before the message gives way.
const MIN_BAR: usize = 10;

/// A terminal that says it is [`ECHO_ROOM`] columns narrower than it is.
#[derive(Clone, Debug)]
struct Narrowed(Arc<dyn TermLike>);

impl Narrowed {
    /// The columns the bar's line may take.
    fn columns(&self) -> usize {
        usize::from(self.0.width().saturating_sub(ECHO_ROOM).max(1))
    }
}

impl TermLike for Narrowed {
    fn width(&self) -> u16 {
        self.0.width().saturating_sub(ECHO_ROOM).max(1)
    }
    fn height(&self) -> u16 {
        self.0.height()
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_up(n)
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_down(n)
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_right(n)
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_left(n)
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.0.write_line(s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.0.write_str(s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.0.clear_line()
    }
    fn flush(&self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Where a bar is drawn: stderr, narrowed, if `visible` and a terminal
/// that can draw one (not `TERM=dumb`), else nowhere.
fn target(visible: bool) -> (ProgressDrawTarget, Option<Narrowed>) {
    if !visible || ProgressDrawTarget::stderr().is_hidden() {
        return (ProgressDrawTarget::hidden(), None);
    }
    let term = Narrowed(Arc::new(Term::buffered_stderr()));
    (
        ProgressDrawTarget::term_like_with_hz(Box::new(term.clone()), 20),
        Some(term),
    )
}

/// A bar drawn with `template` on stderr if `visible`, else hidden (and
/// nearly free): callers never branch on whether anybody watches.
pub fn styled_bar(visible: bool, template: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, target(visible).0);
    bar.set_style(style(template));
    bar
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).expect("a valid template")
}

/// What the warning of a long count projects it from, and adds.
pub struct Long<'a> {
    /// The plan counted.
    pub plan: &'a Plan,
    /// The units of it this run counts.
    pub units: &'a [u32],
    /// The threads counting them.
    pub threads: usize,
    /// When building the plan began: the time up to the first unit is
    /// part of the count, as `estimate` counts it.
    pub began: Instant,
    /// Said after the prediction.
    pub hint: &'static str,
}

/// A bar for one board size.
pub struct Progress<'a> {
    n: u32,
    bar: ProgressBar,
    /// The terminal drawn on, if any: its width picks the line.
    term: Option<Narrowed>,
    tally: Mutex<Tally>,
    /// How to predict a long count: `None` with `-q` or on the GPU.
    long: Option<Long<'a>>,
    resumed: Resumed,
}

/// The units a journal held when the count began.
#[derive(Default)]
struct Resumed {
    units: usize,
    cost: u128,
    solutions: u128,
    /// The journal's path, as given.
    from: String,
}

struct Tally {
    units: usize,
    total_cost: u128,
    done: usize,
    done_cost: u128,
    solutions: u128,
    started: Instant,
    /// The units finished before the prediction, which it is made from.
    first: Vec<UnitDone>,
    estimated: bool,
    /// When the bar was last brought up to date.
    shown: Option<Instant>,
    narrow: bool,
}

impl<'a> Progress<'a> {
    /// A bar labelled with `n`, drawn on stderr only if `visible`.
    pub fn new(n: u32, visible: bool) -> Self {
        let (target, term) = target(visible);
        Self::drawn_on(n, target, term)
    }

    fn drawn_on(n: u32, target: ProgressDrawTarget, term: Option<Narrowed>) -> Self {
        // Nothing is drawn before the count starts.
        let bar = ProgressBar::with_draw_target(Some(BAR_LENGTH), target)
            .with_style(style(LINE))
            .with_prefix(n.to_string());
        Self {
            n,
            bar,
            term,
            tally: Mutex::new(Tally {
                units: 0,
                total_cost: 0,
                done: 0,
                done_cost: 0,
                solutions: 0,
                started: Instant::now(),
                first: Vec::new(),
                estimated: false,
                shown: None,
                narrow: false,
            }),
            long: None,
            resumed: Resumed::default(),
        }
    }

    /// Announces the count if it is predicted to take over a minute.
    pub fn warn_long(mut self, long: Long<'a>) -> Self {
        self.long = Some(long);
        self
    }

    /// Starts the bar from `units` of total `cost` and `solutions` taken
    /// from the journal at `from`.
    pub fn resumed(mut self, units: usize, cost: u128, solutions: u128, from: &Path) -> Self {
        self.resumed = Resumed {
            units,
            cost,
            solutions,
            from: from.display().to_string(),
        };
        self
    }

    /// Units finished so far by this run (not those resumed).
    pub fn units_done(&self) -> usize {
        self.tally().done
    }

    /// Removes the bar from the terminal; it draws nothing after.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    fn tally(&self) -> std::sync::MutexGuard<'_, Tally> {
        self.tally.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Brings the bar up to date with `tally`: its line chosen for the
    /// terminal's width, its message as much as fits.
    fn show(&self, tally: &mut Tally, now: Instant) {
        tally.shown = Some(now);
        let resumed = &self.resumed;
        let rate = tally.done as f64 / now.duration_since(tally.started).as_secs_f64().max(1e-9);
        let parts = [
            format!(
                "{}/{} units",
                HumanCount((resumed.units + tally.done) as u64),
                HumanCount((resumed.units + tally.units) as u64)
            ),
            format!(
                ", {} solutions",
                grouped(resumed.solutions + tally.solutions)
            ),
            format!(", {} units/s", per_second(rate)),
        ];
        let columns = self.term.as_ref().map_or(usize::MAX, Narrowed::columns);
        let message = fit(columns, &parts);
        if message.is_none() != tally.narrow {
            tally.narrow = message.is_none();
            self.bar
                .set_style(style(if tally.narrow { NARROW } else { LINE }));
        }
        // In millionths of the total cost, which can pass 2^64.
        let done = resumed.cost + tally.done_cost;
        let position = done * u128::from(BAR_LENGTH) / (resumed.cost + tally.total_cost).max(1);
        self.bar
            .set_position(u64::try_from(position).unwrap_or(BAR_LENGTH));
        self.bar.set_message(message.unwrap_or_default());
    }
}

/// The most of `parts` (each extending the one before) that fits
/// `columns` with [`LINE`] and a bar at least [`MIN_BAR`] wide; `None`
/// when not even the first does, and the line is [`NARROW`].
fn fit(columns: usize, parts: &[String]) -> Option<String> {
    let room = columns.checked_sub(LINE_FIXED + MIN_BAR)?;
    let mut message = String::new();
    for part in parts {
        if message.len() + part.len() > room {
            break;
        }
        message.push_str(part);
    }
    (!message.is_empty()).then_some(message)
}

/// `count` with its thousands grouped, as [`HumanCount`] writes them.
fn grouped(count: u128) -> String {
    u64::try_from(count).map_or_else(|_| count.to_string(), |c| HumanCount(c).to_string())
}

/// A rate in units a second: `12.5`, `8,781`.
fn per_second(rate: f64) -> String {
    if rate < 100.0 {
        format!("{rate:.1}")
    } else {
        HumanCount(rate.round() as u64).to_string()
    }
}

impl Observer for Progress<'_> {
    fn start(&self, units: usize, total_cost: u128) {
        let mut tally = self.tally();
        tally.units = units;
        tally.total_cost = total_cost;
        tally.started = Instant::now();
        if self.bar.is_hidden() {
            return;
        }
        self.show(&mut tally, Instant::now());
        let resumed = &self.resumed;
        if resumed.units > 0 {
            let share = resumed.cost as f64 / (resumed.cost + total_cost).max(1) as f64;
            let line = format!(
                "queens: resumed {} units from {}; {:.0}% of n = {} is done",
                HumanCount(resumed.units as u64),
                resumed.from,
                100.0 * share,
                self.n
            );
            // Not `println`: indicatif pads its lines to the width it is
            // told, which is not the terminal's, and relies on the wrap.
            self.bar.suspend(|| eprintln!("{line}"));
        }
        // The journal's share is done, not done at this run's pace.
        self.bar.reset_eta();
        self.bar.enable_steady_tick(Duration::from_millis(200));
    }

    fn unit_done(&self, done: &UnitDone) {
        let mut tally = self.tally();
        tally.done += 1;
        tally.done_cost += u128::from(done.cost);
        tally.solutions += done.solutions;
        if let Some(long) = &self.long
            && !tally.estimated
        {
            tally.first.push(*done);
            if tally.started.elapsed() >= CALIBRATE && tally.done >= CALIBRATE_UNITS {
                tally.estimated = true;
                let (first, started) = (std::mem::take(&mut tally.first), tally.started);
                drop(tally);
                self.warn(long, &first, started);
                return;
            }
        }
        if self.bar.is_hidden() || self.bar.is_finished() {
            return;
        }
        let now = Instant::now();
        if tally
            .shown
            .is_none_or(|shown| now.duration_since(shown) >= REFRESH)
        {
            self.show(&mut tally, now);
        }
    }
}

impl Progress<'_> {
    /// Announces a count projected to take over [`LONG`] from its `first`
    /// units, finished since `started`.
    fn warn(&self, long: &Long<'_>, first: &[UnitDone], started: Instant) {
        let total = projected(long, first, started);
        if total <= LONG.as_secs_f64() {
            return;
        }
        let what = match self.resumed.units {
            0 => format!("n = {}", self.n),
            _ => format!("the rest of n = {}", self.n),
        };
        let line = format!(
            "queens: {what} will take about {} on this machine (projected from its first \
             units){}",
            queens::human::duration(total),
            long.hint
        );
        self.bar.suspend(|| eprintln!("{line}"));
    }
}

/// The wall seconds of a count projected from its `first` units, its
/// units started at `started`: the time up to then as it was, the units
/// as `estimate` projects them, by the same function.
fn projected(long: &Long<'_>, first: &[UnitDone], started: Instant) -> f64 {
    let before = started.saturating_duration_since(long.began).as_secs_f64();
    before + queens::project(long.plan, long.units, first, long.threads).seconds
}

#[cfg(test)]
mod tests {
    use indicatif::InMemoryTerm;
    use queens::{Config, Counter, Engine, Shape};

    use super::*;

    /// A bar of `n` on a terminal in memory `width` columns wide, narrowed
    /// as on stderr, and drawn at every change.
    fn on_terminal(n: u32, width: u16) -> (Progress<'static>, InMemoryTerm) {
        let term = InMemoryTerm::new(6, width);
        let narrowed = Narrowed(Arc::new(term.clone()));
        let target = ProgressDrawTarget::term_like(Box::new(narrowed.clone()));
        (Progress::drawn_on(n, target, Some(narrowed)), term)
    }

    /// Shows `progress` as n = 21 is 53% through: the longest numbers
    /// its line carries below n = 24.
    fn halfway(progress: &Progress<'_>) {
        let mut tally = progress.tally();
        (tally.units, tally.total_cost) = (970_288, 1 << 40);
        (tally.done, tally.done_cost) = (512_345, 1 << 39);
        tally.solutions = 166_023_425_128;
        progress.show(&mut tally, Instant::now());
    }

    fn columns(line: &str) -> usize {
        line.chars().count()
    }

    #[test]
    fn the_line_fits_the_terminal_and_leaves_room_for_the_echo() {
        // See: issue 35 (padded to about 190 columns, wrapped at 80).
        for (width, has, lacks) in [
            (30, "n = 21 ", "["),
            (50, "n = 21 ", "units"),
            (80, "/970,288 units (ETA", "solutions"),
            (120, "166,023,425,128 solutions (ETA", "units/s"),
            (200, "166,023,425,128 solutions, ", "\n"),
        ] {
            let (progress, term) = on_terminal(21, width);
            halfway(&progress);
            let screen = term.contents();
            let lines: Vec<&str> = screen.lines().collect();
            assert_eq!(lines.len(), 1, "{width} columns: {screen:?}");
            let line = lines[0];
            assert!(
                columns(line) <= usize::from(width - ECHO_ROOM),
                "{width} columns: {} wide: {line:?}",
                columns(line)
            );
            assert!(line.contains(has), "{width} columns: {line:?}");
            assert!(!line.contains(lacks), "{width} columns: {line:?}");
            assert!(line.contains("50%") && line.contains('█'), "{line:?}");
        }
    }

    #[test]
    fn the_echoed_ctrl_c_is_cleared_with_the_bar() {
        let (progress, term) = on_terminal(21, 80);
        halfway(&progress);
        // What the terminal does at Ctrl-C, where the cursor is.
        term.write_str("^C").unwrap();
        progress.finish();
        assert_eq!(term.contents(), "");

        // A bar padded to the terminal's whole width, as indicatif pads
        // it, leaves itself behind: the echo started a new line.
        let full = InMemoryTerm::new(6, 80);
        let bar = ProgressBar::with_draw_target(
            Some(BAR_LENGTH),
            ProgressDrawTarget::term_like(Box::new(full.clone())),
        )
        .with_style(style(LINE))
        .with_prefix("21");
        bar.set_position(BAR_LENGTH / 2);
        full.write_str("^C").unwrap();
        bar.finish_and_clear();
        assert!(
            full.contents().starts_with("n = 21"),
            "{:?}",
            full.contents()
        );
    }

    #[test]
    fn messages_give_way_in_order() {
        let parts = ["a/b units".to_owned(), ", 9 solutions".to_owned()];
        let room = LINE_FIXED + MIN_BAR;
        assert_eq!(fit(room - 1, &parts), None);
        assert_eq!(fit(room + 9, &parts).as_deref(), Some("a/b units"));
        assert_eq!(fit(room + 21, &parts).as_deref(), Some("a/b units"));
        assert_eq!(
            fit(room + 22, &parts).as_deref(),
            Some("a/b units, 9 solutions")
        );
    }

    #[test]
    fn the_fixed_part_of_the_line_is_as_wide_as_said() {
        // LINE with its fields at their widest, less `{wide_bar}` and `{msg}`.
        let widest = LINE
            .replace("{prefix}", "32")
            .replace("{spinner}", "⠁")
            .replace("{elapsed_precise}", "99d 23:59:59")
            .replace("{percent:>3}", "100")
            .replace("{eta}", "99w")
            .replace("{wide_bar}", "")
            .replace("{msg}", "");
        assert_eq!(columns(&widest), LINE_FIXED);
    }

    /// Records the units of a count.
    #[derive(Default)]
    struct Recorder(Mutex<Vec<UnitDone>>);

    impl Observer for Recorder {
        fn unit_done(&self, done: &UnitDone) {
            self.0.lock().unwrap().push(*done);
        }
    }

    #[test]
    fn the_long_count_warning_is_estimates_projection() {
        // See: issue 35 (`estimate 21` said 3.9 min, `count 21`'s warning
        // 6 min: two estimators). The warning's figure is the time up to
        // the first unit plus `queens::project`, as `estimate` adds its
        // plan and tables to it.
        let plan = Plan::new(Shape::new(12, Engine::Join, None), &Config::default()).unwrap();
        let all: Vec<u32> = (0..plan.len() as u32).collect();
        let recorder = Recorder::default();
        let counter = Counter::new(12).engine(Engine::Join).threads(2);
        counter.observer(&recorder).run_plan(&plan).unwrap();
        let done = recorder.0.into_inner().unwrap();
        let began = Instant::now();
        let long = Long {
            plan: &plan,
            units: &all,
            threads: 2,
            began,
            hint: "",
        };
        let started = began + Duration::from_secs(3);
        let first = &done[..done.len() / 4];
        let want = 3.0 + queens::project(&plan, &all, first, 2).seconds;
        assert!((projected(&long, first, started) - want).abs() < 1e-9);
        // Every unit: their own unit-seconds over the threads, which the
        // pace of the first units (their wall time over their share of
        // the cost) was not.
        let unit_seconds: f64 = done.iter().map(|d| d.elapsed.as_secs_f64()).sum();
        let whole = projected(&long, &done, started);
        assert!((whole - (3.0 + unit_seconds / 2.0)).abs() < 1e-9, "{whole}");
    }
}
