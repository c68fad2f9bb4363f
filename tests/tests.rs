//! The library's integration tests, one module per concept, built as a
//! single test executable: one link instead of one per file. The command
//! line's are cli/tests.
//!
//! Tests marked `#[ignore = "slow ..."]` would take most of a plain
//! `cargo test`'s time; `.ci/run` runs them, with those that need root,
//! in its step for ignored tests (`cargo test --test tests -- --ignored`).

/// helpers every test module may use: the slow reference solver, random boards, CRC-32
mod common;

/// the board checker against a pairwise check, and fuzzed
mod check;
/// `queens one`'s construction: every board up to n = 5000 is a solution
mod construct;
mod fuzz_readers;
/// the GPU executor: its CUDA kernels run on the CPU, its refusals (the CLI's: cli/tests/cli_gpu.rs)
mod gpu;
/// the join engine against OEIS, its historic stages and the backtracker
mod join;
/// every engine against OEIS A000170 and A059963
mod known_counts;
/// every algorithm of the ladder against OEIS A000170 and A319283
mod ladder;
/// the join past n = 24 in memory bounded by its units (n = 26 sampled)
mod memory;
/// plans of units: sums, partitions, pinned hashes, cancelled runs
mod plans;
/// the fast engines against the slow reference solver
mod reference;
/// shards and their merge, in process, for every engine
mod shards;
/// the ordered solution iterator and the board formats
mod solutions;
/// the dihedral group and the unique counts (OEIS A002562)
mod symmetry;
