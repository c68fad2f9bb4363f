//! The integration tests, one file per concept, built as a single test
//! executable: every executable of a release build is linked with fat LTO,
//! so one target instead of fourteen cuts a rebuild of the tests from
//! about two minutes to well under one.

mod common;

mod check;
mod construct;
mod fuzz_readers;
mod gpu;
mod join;
mod known_counts;
mod ladder;
mod memory;
mod plans;
mod reference;
mod shards;
mod solutions;
mod symmetry;
