//! What makes a benchmark's figures doubtful, found in a finished
//! [`Report`](super::Report), as hyperfine warns about its own: runs too
//! short to time, statistical outliers, more threads than the machine has
//! CPUs for, and more threads running slower. Each warning is a value with
//! a one-line text; the caller decides where it goes.

use std::fmt;

use super::stats;

/// A thread count whose median run is below this many seconds has runs
/// too short to time reliably (the median, not hyperfine's mean, so that
/// one slow run does not hide many short ones). hyperfine's threshold is
/// 5 ms, set by how well it can subtract a shell's start-up; `bench`
/// starts no process, and what disturbs its runs is the scheduler: a time
/// slice that another program takes is up to 3 ms (Linux's EEVDF base
/// slice, 0.75 ms times 1 + log2 of the CPUs, counted up to 8), and a
/// thread that loses one stalls the run's last join. Below 20 ms one lost
/// slice moves a run by 15% or more. (The issue behind this: runs of 9 ms
/// with a threefold spread between the fastest and the slowest.)
pub const SHORT_RUN_SECS: f64 = 0.020;

/// One reason to doubt a benchmark's figures.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Warning {
    /// Runs too short to time.
    ShortRuns {
        /// The thread counts whose median run took less than
        /// [`SHORT_RUN_SECS`].
        threads: Vec<usize>,
        /// Whether the caller chose the board (and so may choose a larger
        /// one).
        custom: bool,
    },
    /// Runs far from the others of their thread count.
    Outliers {
        /// The thread counts with a run whose modified Z-score is above
        /// [`stats::OUTLIER_THRESHOLD`].
        threads: Vec<usize>,
    },
    /// More threads than the machine runs at once.
    MoreThreadsThanCpus {
        /// The thread counts above `logical_cpus`.
        threads: Vec<usize>,
        /// The logical CPUs available.
        logical_cpus: usize,
    },
    /// The process got much less CPU time than its runs asked for (see
    /// [`stats::busy`]): another program was using the CPUs.
    Busy {
        /// The thread counts whose runs got too little CPU time, with the
        /// share they got.
        rows: Vec<(usize, f64)>,
    },
    /// More threads made the workload slower: a speed-up below 1.
    Slower {
        /// The thread counts whose median run was slower than `base`'s,
        /// with their speed-ups.
        rows: Vec<(usize, f64)>,
        /// The fewest threads measured (1 where 1 was).
        base: usize,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ShortRuns { threads, custom } => {
                write!(
                    f,
                    "runs at {} took less than {} ms (median), too short to time reliably (one \
                     time slice taken by another program moves such a run by 15% or more)",
                    threads_list(threads),
                    SHORT_RUN_SECS * 1000.0
                )?;
                if *custom {
                    write!(f, "; time a larger N")?;
                }
                Ok(())
            }
            Self::Outliers { threads } => write!(
                f,
                "statistical outliers at {} (a run more than {:.1} median absolute deviations \
                 from the median): rerun on a quiet machine, or with more runs",
                threads_list(threads),
                stats::OUTLIER_THRESHOLD
            ),
            Self::MoreThreadsThanCpus {
                threads,
                logical_cpus,
            } => write!(
                f,
                "{} {} more than the {logical_cpus} logical CPUs: the threads take turns on the \
                 CPUs, so those rows time the scheduler, not the hardware",
                threads_list(threads),
                if threads.len() == 1 { "is" } else { "are" }
            ),
            Self::Busy { rows } => {
                let threads: Vec<usize> = rows.iter().map(|&(t, _)| t).collect();
                let shares: Vec<String> = rows
                    .iter()
                    .map(|(_, s)| format!("{:.0}%", s * 100.0))
                    .collect();
                let shares = match shares.as_slice() {
                    [rest @ .., last] if !rest.is_empty() => {
                        format!("{} and {last}", rest.join(", "))
                    }
                    _ => shares.concat(),
                };
                write!(
                    f,
                    "the runs at {} got {} of the CPU time they asked for: another program was \
                     using the CPUs, so the times are too long; rerun on a quiet machine",
                    threads_list(&threads),
                    shares,
                )
            }
            Self::Slower { rows, base } => {
                let threads: Vec<usize> = rows.iter().map(|&(t, _)| t).collect();
                let speedups: Vec<String> = rows.iter().map(|(_, s)| format!("{s:.2}x")).collect();
                write!(
                    f,
                    "speed-up below 1 at {} ({}): the workload ran slower than at {}; another \
                     program was using the CPUs, or the work is too small to share",
                    threads_list(&threads),
                    speedups.join(", "),
                    threads_list(&[*base])
                )
            }
        }
    }
}

/// `1 thread`, `1 and 2 threads`, `1, 2 and 4 threads`.
fn threads_list(threads: &[usize]) -> String {
    let words: Vec<String> = threads.iter().map(ToString::to_string).collect();
    let list = match words.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let noun = if threads == [1] { "thread" } else { "threads" };
    format!("{list} {noun}")
}

/// The warnings about `report` on a machine with `logical_cpus`, one per
/// kind, in the order: short runs, outliers, more threads than CPUs, a
/// busy machine, slower with more threads.
pub(super) fn find(report: &super::Report, logical_cpus: usize) -> Vec<Warning> {
    let rows = &report.rows;
    let pick = |keep: &dyn Fn(&super::Row) -> bool| -> Vec<usize> {
        rows.iter().filter(|r| keep(r)).map(|r| r.threads).collect()
    };
    let mut found = Vec::new();
    let short = pick(&|r| r.median_secs < SHORT_RUN_SECS);
    if !short.is_empty() {
        found.push(Warning::ShortRuns {
            threads: short,
            custom: !report.workload.is_fixed(),
        });
    }
    let outlying = pick(&|r| stats::outliers(&r.times_secs) > 0);
    if !outlying.is_empty() {
        found.push(Warning::Outliers { threads: outlying });
    }
    let logical_cpus = logical_cpus.max(1);
    let over = pick(&|r| r.threads > logical_cpus);
    if !over.is_empty() {
        found.push(Warning::MoreThreadsThanCpus {
            threads: over,
            logical_cpus,
        });
    }
    let busy: Vec<(usize, f64)> = rows
        .iter()
        .filter_map(|r| {
            let share = r.cpu_share?;
            let asked = r.times_secs.iter().sum::<f64>() * r.threads as f64;
            stats::busy(share, asked, r.threads, logical_cpus).then_some((r.threads, share))
        })
        .collect();
    if !busy.is_empty() {
        found.push(Warning::Busy { rows: busy });
    }
    if let Some(base) = rows.iter().min_by_key(|r| r.threads) {
        let slower: Vec<(usize, f64)> = rows
            .iter()
            .filter(|r| r.threads > base.threads && r.median_secs > base.median_secs)
            .map(|r| (r.threads, r.speedup))
            .collect();
        if !slower.is_empty() {
            found.push(Warning::Slower {
                rows: slower,
                base: base.threads,
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_of_threads_read_as_english() {
        assert_eq!(threads_list(&[1]), "1 thread");
        assert_eq!(threads_list(&[2]), "2 threads");
        assert_eq!(threads_list(&[1, 2]), "1 and 2 threads");
        assert_eq!(threads_list(&[1, 2, 4, 8]), "1, 2, 4 and 8 threads");
    }

    #[test]
    fn each_warning_is_one_line() {
        let all = [
            Warning::ShortRuns {
                threads: vec![1, 2],
                custom: true,
            },
            Warning::Outliers { threads: vec![16] },
            Warning::MoreThreadsThanCpus {
                threads: vec![4, 8, 16],
                logical_cpus: 2,
            },
            Warning::Slower {
                rows: vec![(2, 0.98)],
                base: 1,
            },
            Warning::Busy {
                rows: vec![(2, 0.36)],
            },
        ];
        let texts: Vec<String> = all.iter().map(ToString::to_string).collect();
        assert!(texts.iter().all(|t| !t.contains('\n')), "{texts:?}");
        assert_eq!(
            texts[0],
            "runs at 1 and 2 threads took less than 20 ms (median), too short to time \
             reliably (one time slice taken by another program moves such a run by 15% or \
             more); time a larger N"
        );
        assert!(texts[1].contains("outliers at 16 threads") && texts[1].contains("14.8"));
        assert!(texts[2].starts_with("4, 8 and 16 threads are more than the 2 logical CPUs"));
        assert!(texts[3].starts_with("speed-up below 1 at 2 threads (0.98x)"));
        assert!(texts[3].contains("slower than at 1 thread;"));
        assert!(texts[4].starts_with("the runs at 2 threads got 36% of the CPU time"));
    }
}
