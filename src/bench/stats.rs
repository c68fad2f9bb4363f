//! The figures of a set of timed runs (mean, sample standard deviation,
//! median, min, max) and hyperfine's rule for statistical outliers. Plain
//! arithmetic on seconds; it never measures anything itself.

/// A modified Z-score above this marks an outlier, as in hyperfine
/// (`src/outlier_detection.rs`): 1.4826 turns the median absolute
/// deviation into an estimate of the standard deviation, and 10 is how
/// many of those a run must lie from the median. Iglewicz and Hoaglin
/// (1993), "How to Detect and Handle Outliers", propose the score.
pub const OUTLIER_THRESHOLD: f64 = 1.4826 * 10.0;

/// The MAD counts as at least this fraction of the median. hyperfine
/// floors it at `f64::EPSILON` only, and times at least 10 runs; `bench`
/// times 3 by default, whose MAD is the smaller of two gaps, so two runs
/// that agree to a microsecond would make a third run 2% off an outlier
/// (seen: 5.1, 5.1 and 5.2 ms). With the floor an outlier lies at least
/// 14.8% from the median.
pub const MAD_FLOOR: f64 = 0.01;

/// Below this share of the CPU time it asked for, a measurement ran on a
/// busy machine: another program had the CPUs for a quarter of the time
/// or more. (Issue 47: `bench` at 36% of the CPU it asked for scored
/// 1.16e7 against 4.9e7 on the quiet machine, and said nothing.) What a
/// count asks for is its unit-seconds, each unit's wall time on its
/// thread: a quiet machine gives about 1 (a little more, as rayon's idle
/// threads spin before they sleep).
pub const BUSY_SHARE: f64 = 0.75;

/// A measurement that asked for fewer CPU seconds than this (wall seconds
/// times threads) says nothing of a busy machine: a thread's start, its
/// idle end and the clock's granularity are too large a part of it.
pub const MIN_BUSY_SECS: f64 = 0.2;

/// The share of `asked_secs` (the unit-seconds of the units counted) that
/// `cpu_secs` of the process's CPU time is; 0 where nothing was asked. It
/// may pass 1 slightly: idle threads spin, a progress bar's thread runs.
#[must_use]
pub fn cpu_share(cpu_secs: f64, asked_secs: f64) -> f64 {
    if asked_secs > 0.0 {
        (cpu_secs / asked_secs).max(0.0)
    } else {
        0.0
    }
}

/// Whether `share` of the CPU time asked for, by `threads` threads for
/// `asked_secs` (unit-seconds) on a machine of
/// `logical_cpus`, says that another program was using the CPUs. Threads
/// past the CPUs take turns and cannot all run at once, so the share
/// expected of them is the CPUs' over the threads.
#[must_use]
pub fn busy(share: f64, asked_secs: f64, threads: usize, logical_cpus: usize) -> bool {
    let threads = threads.max(1);
    let can_run = threads.min(logical_cpus.max(1)) as f64 / threads as f64;
    asked_secs >= MIN_BUSY_SECS && share < BUSY_SHARE * can_run
}

/// The summary of one thread count's runs, in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Summary {
    /// The arithmetic mean.
    pub mean: f64,
    /// The sample standard deviation (divided by runs - 1); `None` for
    /// one run, which has none.
    pub stddev: Option<f64>,
    /// The middle run, or the mean of the two middle runs.
    pub median: f64,
    /// The fastest run.
    pub min: f64,
    /// The slowest run.
    pub max: f64,
}

impl Summary {
    /// The summary of `xs` (at least one value).
    ///
    /// # Panics
    /// On an empty slice: a benchmark always times at least one run.
    #[must_use]
    pub fn of(xs: &[f64]) -> Self {
        assert!(!xs.is_empty(), "a summary of no runs");
        let count = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / count;
        let stddev = (xs.len() > 1).then(|| {
            let squares: f64 = xs.iter().map(|x| (x - mean).powi(2)).sum();
            (squares / (count - 1.0)).sqrt()
        });
        Self {
            mean,
            stddev,
            median: median(xs),
            min: xs.iter().copied().fold(f64::INFINITY, f64::min),
            max: xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

/// The median of `xs` (at least one value): the middle value, or the mean
/// of the two middle ones.
fn median(xs: &[f64]) -> f64 {
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let half = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[half]
    } else {
        (sorted[half - 1] + sorted[half]) / 2.0
    }
}

/// Each value's modified Z-score, `(x - median) / MAD`, where MAD is the
/// median of the absolute deviations from the median, taken as at least
/// [`MAD_FLOOR`] of the median. Where half the values or more are equal
/// and the median is 0 the MAD is 0; it is then taken as `f64::EPSILON`,
/// so that any other value scores as an outlier (as in hyperfine). Empty
/// for an empty slice.
#[must_use]
pub fn modified_z_scores(xs: &[f64]) -> Vec<f64> {
    if xs.is_empty() {
        return Vec::new();
    }
    let middle = median(xs);
    let deviations: Vec<f64> = xs.iter().map(|x| (x - middle).abs()).collect();
    let mad = median(&deviations).max(MAD_FLOOR * middle.abs());
    let mad = if mad > 0.0 { mad } else { f64::EPSILON };
    xs.iter().map(|x| (x - middle) / mad).collect()
}

/// How many of `xs` are outliers: a modified Z-score whose size is above
/// [`OUTLIER_THRESHOLD`]. Two values never are (both score 1 or 0).
#[must_use]
pub fn outliers(xs: &[f64]) -> usize {
    modified_z_scores(xs)
        .iter()
        .filter(|z| z.abs() > OUTLIER_THRESHOLD)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 47, item 14: `bench` at 36% of the CPU it asked for said
    /// nothing. The share, and when it means a busy machine, from the
    /// measured figures.
    #[test]
    fn a_busy_machine_is_seen_in_the_cpu_time() {
        // The run: 2 threads' units for 85 s, 61 CPU seconds.
        let share = cpu_share(61.2, 85.0 * 2.0);
        assert!((share - 0.36).abs() < 1e-9, "{share}");
        assert!(busy(share, 170.0, 2, 2));
        // A quiet machine: both threads ran nearly all the time.
        assert!(!busy(cpu_share(9.6, 10.0), 10.0, 2, 2));
        // 4 threads on 2 CPUs can get half the time asked, no more.
        assert!(!busy(0.48, 10.0, 4, 2));
        assert!(busy(0.3, 10.0, 4, 2));
        // Too short to say, however little it got.
        assert!(!busy(0.1, MIN_BUSY_SECS / 2.0, 1, 2));
        assert_eq!(cpu_share(1.0, 0.0), 0.0);
    }

    #[test]
    fn the_summary_of_known_values() {
        let s = Summary::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert!((s.mean - 5.0).abs() < 1e-12);
        // Sample variance 32 / 7.
        assert!((s.stddev.unwrap() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert!((s.median - 4.5).abs() < 1e-12);
        assert_eq!((s.min, s.max), (2.0, 9.0));
        let one = Summary::of(&[0.25]);
        assert_eq!(
            (one.stddev, one.median, one.min, one.max),
            (None, 0.25, 0.25, 0.25)
        );
        assert!((Summary::of(&[3.0, 1.0, 2.0]).median - 2.0).abs() < 1e-12);
    }

    #[test]
    fn outliers_by_the_modified_z_score() {
        // Too few values, or too little spread, to have one.
        assert_eq!(outliers(&[]), 0);
        assert_eq!(outliers(&[0.05]), 0);
        assert_eq!(outliers(&[1000.0, 0.0]), 0);
        assert_eq!(outliers(&[-0.2, 0.0, 0.2]), 0);
        // One run far from the rest: (4.0 - 0.1) / 0.2 = 19.5 MADs.
        assert_eq!(outliers(&[-0.2, 0.0, 0.2, 4.0]), 1);
        assert_eq!(outliers(&[0.5, 0.30, 0.29, 0.31, 0.30]), 1);
        // Three runs: the default of `bench --runs`. A run 50 MADs off
        // is one; the 5.2, 9.3, 19.5 ms (2.5 MADs) is not.
        assert_eq!(outliers(&[0.0093, 0.0095, 0.0195]), 1);
        assert_eq!(outliers(&[0.0052, 0.0093, 0.0195]), 0);
        // Median 10, MAD 1: just either side of the threshold, 14.8 and
        // 14.9 MADs.
        assert_eq!(outliers(&[9.0, 10.0, 10.0, 11.0, 24.8]), 0);
        assert_eq!(outliers(&[9.0, 10.0, 10.0, 11.0, 24.9]), 1);
        // Half the runs equal: the MAD is 0, the floor 1% of the median,
        // and a run 10 times the median is one.
        assert_eq!(outliers(&[0.0, 0.0, 0.0, 1.0]), 1, "a zero median: EPSILON");
        // Two runs that agree to a microsecond do not make a third 2%
        // off an outlier (99 MADs, but 1.9 of the floor); 16% off is one.
        assert_eq!(outliers(&[0.005_100, 0.005_101, 0.005_200]), 0);
        assert_eq!(outliers(&[0.005_100, 0.005_101, 0.005_920]), 1);
        assert_eq!(
            outliers(&[10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 100.0]),
            1
        );
        assert_eq!(
            outliers(&[10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 100.0, 100.0]),
            2
        );
        // A sample from a normal distribution has none; two added far off
        // are found.
        let mut normal = vec![
            2.332_694_88,
            1.421_959_07,
            -0.575_276_98,
            -0.312_934_37,
            2.294_815_8,
            0.758_132_73,
            -1.071_238_8,
            -0.963_947_41,
            -1.158_974_46,
            1.109_762_85,
        ];
        assert_eq!(outliers(&normal), 0);
        normal.extend([20.0, -500.0]);
        assert_eq!(outliers(&normal), 2);
    }

    #[test]
    fn the_scores_are_signed_deviations_over_the_mad() {
        let z = modified_z_scores(&[9.0, 10.0, 11.0, 24.0]);
        // The median of four is 10.5: deviations 1.5, 0.5, 0.5, 13.5, MAD 1.
        assert_eq!(z, [-1.5, -0.5, 0.5, 13.5]);
    }
}
