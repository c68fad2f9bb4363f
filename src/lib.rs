//! Counts the solutions of the n-queens puzzle, as fast as the hardware
//! allows.
//!
//! The engine is a bitmask backtracker ([`kernel`]) whose search is split on
//! its first rows into independent [`units`], with mirror symmetry halving
//! the work, and run across threads by [`engine::count_parallel`]. Every
//! count can be checked against the published values in [`known`].
//!
//! ```
//! use queens::{Config, count_parallel, count_serial};
//!
//! let eight = count_serial(8, &Config::default(), &())?;
//! assert_eq!(eight.solutions, 92);
//!
//! // Two threads, units fixing three rows: the same total.
//! let config = Config { split_depth: 3, ..Config::with_threads(2) };
//! assert_eq!(count_parallel(8, &config, &())?.solutions, 92);
//! assert_eq!(queens::known::total(8), Some(92));
//! # Ok::<(), queens::Error>(())
//! ```
//!
//! To see the boards rather than count them, [`Solutions`] streams every
//! solution in lexicographic order, [`format`](mod@format) writes boards in
//! five text formats and reads them back, [`construct`] builds one solution
//! for any n by formula, and [`check`] verifies them in O(n). The
//! [`ladder`] counts with each classic algorithm, from brute force to the
//! bitmask engine.
//!
//! ```
//! use queens::{Solutions, check, construct::Construction};
//!
//! let first: Vec<u32> = Solutions::new(8)?.next().unwrap();
//! assert_eq!(first, [0, 4, 7, 5, 2, 6, 1, 3]);
//! let big: Vec<u32> = Construction::new(1_000_000).unwrap().collect();
//! assert_eq!(check::first_conflict_in_columns(&big), None);
//! assert_eq!(queens::solve_n_queens(4)[0], [".Q..", "...Q", "Q...", "..Q."]);
//! # Ok::<(), queens::Error>(())
//! ```
//!
//! The library never prints, exits or chooses an allocator: that is the
//! `queens` binary's job.

pub mod check;
pub mod construct;
pub mod engine;
pub mod format;
pub mod join;
pub mod kernel;
pub mod known;
pub mod ladder;
pub mod solutions;
pub mod symmetry;
pub mod unique;
pub mod units;

pub use construct::Construction;
pub use engine::{Config, Count, Error, Observer, count, count_parallel, count_serial};
pub use format::{BoardWriter, Format};
pub use ladder::{Algorithm, count_with};
pub use solutions::{Solutions, solve_n_queens, total_n_queens};
pub use unique::{Classes, Unique, unique};
pub use units::WorkUnit;
