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
//! The library never prints, exits or chooses an allocator: that is the
//! `queens` binary's job.

pub mod engine;
pub mod join;
pub mod kernel;
pub mod known;
pub mod symmetry;
pub mod unique;
pub mod units;

pub use engine::{Config, Count, Error, Observer, count, count_parallel, count_serial};
pub use unique::{Classes, Unique, unique};
pub use units::WorkUnit;
