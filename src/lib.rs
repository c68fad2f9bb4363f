//! Counts the solutions of the n-queens puzzle, as fast as the hardware
//! allows.
//!
//! Three independent engines count, and each checks another:
//!
//! - the **join** pairs left and right half-boards (meet in the middle, after
//!   Kluev's quadrant join) and uses the board's symmetries; it is the
//!   faster from n = 12 and covers `4 <= n <= 28`;
//! - the **mirror** engine is a bitmask backtracker with mirror symmetry,
//!   for every `1 <= n <= 32`;
//! - the **constellations** engine backtracks from the queens on the four
//!   border lines, one unit per start up to the square's eight symmetries,
//!   and counts past the join's reach.
//!
//! Each splits its search into a [`Plan`] of independent work units with
//! stable ids, descriptors, cost estimates and a hash that names the plan:
//! any subset of units counts exactly its share, in any order and any
//! process, which is what resuming and sharding build on. A plan says what
//! is counted ([`Shape`], [`Config`]); a [`Runner`] says where and how it
//! runs. [`count()`] picks the faster engine ([`Engine::best_for`]) and
//! uses every core; [`Counter`] builds a plan and a runner in one line.
//! Every total can be checked against the published values in [`known`].
//!
//! ```
//! use queens::{Config, Counter, Engine, Plan, Runner, Shape};
//!
//! assert_eq!(queens::count(12)?, 14_200);
//!
//! // The mirror engine on two threads, split on three rows: the same total.
//! let count = Counter::new(12).engine(Engine::Mirror).threads(2).split_depth(3).run()?;
//! assert_eq!(count.solutions, 14_200);
//! assert_eq!(queens::known::total(12), Some(14_200));
//!
//! // A plan's units, and one of them counted alone.
//! let plan = Plan::new(Shape::new(12, Engine::Join, None), &Config::default())?;
//! let first = plan.unit(0)?;
//! assert!(first.descriptor.starts_with("rowset:0x"));
//! let share = Runner::new().count(&plan, &plan.select(&[0])?)?;
//! assert!(share.solutions <= 14_200 && share.is_finished() && !share.is_complete());
//! # Ok::<(), queens::Error>(())
//! ```
//!
//! To see the boards rather than count them, [`Solutions`] streams every
//! solution in lexicographic order, [`BoardWriter`] writes boards in the
//! six text [`Format`]s and [`Boards`] reads them back (and what learners
//! write), [`write_svg`] draws them as pictures, [`Construction`]
//! builds one solution for any n by formula, and [`first_conflict`]
//! verifies them in O(n). [`count_with`] counts with each classic
//! [`Algorithm`], from brute force to the bitmask engine.
//!
//! ```
//! use queens::{Construction, Solutions, first_conflict_in_columns};
//!
//! let first: Vec<u32> = Solutions::new(8)?.next().unwrap();
//! assert_eq!(first, [0, 4, 7, 5, 2, 6, 1, 3]);
//! let big: Vec<u32> = Construction::new(1_000_000)?.collect();
//! assert_eq!(first_conflict_in_columns(&big)?, None);
//! assert_eq!(queens::solve_n_queens(4)?[0], [".Q..", "...Q", "Q...", "..Q."]);
//! # Ok::<(), queens::Error>(())
//! ```
//!
//! A long count is a [`Runner`] given a plan and a selection of its units
//! ([`Plan::select`]): its threads, executor, observer and stop flag, and
//! with the `files` feature on Unix and Windows a [`journal::Journal`] it resumes from
//! and keeps, and a shard task ([`shard::Task`]) whose result it writes
//! for [`shard::merge`]. The `queens` binary and the Python package both
//! drive it, so their journals and shard files are the same bytes.
//!
//! The library never prints, exits or chooses an allocator: that is the
//! `queens` binary's job.

// The modules are private and their public items re-exported here, one
// path each; a few stay public as namespaces for families whose names
// would clash or mislead at the root: the OEIS tables (`known`), the
// benchmark (`bench`), the two file formats (`journal`, `shard`), the
// rules their files are opened by (`files`), and how quantities read in
// messages (`human`).
pub mod bench;
mod check;
mod construct;
mod count;
mod counter;
mod cpu;
mod error;
mod estimate;
#[cfg(all(feature = "files", any(unix, windows)))]
pub mod files;
mod format;
pub mod human;
pub mod journal;
mod kernel;
pub mod known;
mod ladder;
mod problem;
mod runner;
pub mod shard;
mod solutions;
mod svg;
mod symmetry;
mod unique;

pub use check::{
    Conflict, Fault, Line, Queen, Unmet, first_conflict, first_conflict_in_columns, first_fault,
    first_unmet,
};
pub use construct::Construction;
pub use count::{
    Config, CountMemory, DEFAULT_SPLIT_DEPTH, Engine, Executor, GPU_EXECUTOR, GPU_EXECUTORS,
    GpuBackend, GpuOptions, Impossible, MAX_SPLIT_DEPTH, Observer, Options, Plan, PlanHash,
    Selection, Shape, Simd, Unit, UnitDone, find_gpu, sample_units, thread_pool,
};
pub use counter::{Counter, count};
pub use error::{Error, MAX_THREADS};
pub use estimate::{
    Campaign, DRIFT_BLOCK_SECONDS, Estimate, Overrun, Projection, Sample, campaign, estimate,
    project,
};
pub use format::{BoardWriter, Boards, Checked, Format, MAX_READ_N, ReadError, Renderer};
pub use kernel::MAX_N;
pub use ladder::{Algorithm, count_with};
pub use problem::{Problem, Square};
pub use runner::{Count, Runner};
pub use solutions::{Solutions, solve_n_queens};
pub use svg::{SvgBoard, write_svg};
pub use symmetry::{Transform, canonical, is_canonical, orbit, stabiliser};
pub use unique::{
    Classes, Unique, count_half_turn_symmetric, count_quarter_turn_symmetric, unique,
};

/// Internals that are public only so that the integration tests and
/// benchmarks can pin them against slow references (the join's earlier
/// stages among them: [`JoinStage`](internals::JoinStage)). Not part of
/// the API: they change without notice.
#[doc(hidden)]
pub mod internals {
    pub use crate::count::gpu::{KernelTasks, count_with_kernel};
    pub use crate::count::join::Stage as JoinStage;
    pub use crate::count::join::matcher::{SlicedMatcher, count_naive, count_portable, query};
    pub use crate::count::join::sieve::Tally as JoinTally;
    pub use crate::count::plan::{join_stage_plan, join_unit_tally};
    pub use crate::estimate::{SampleProjection, SampleTotal, estimate_strata, project_sample};
    pub use crate::kernel::{Masks, count_completions, count_completions_portable};
}

/// The user guide's library page, whose examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
struct LibraryGuide;
