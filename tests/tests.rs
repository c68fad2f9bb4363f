//! The integration tests, one file per concept, built as a single test
//! executable: every executable of a release build is linked with fat LTO,
//! so one target instead of fourteen cuts a rebuild of the tests from
//! about two minutes to well under one.

mod common;

mod check;
mod cli;
mod cli_bench;
mod cli_check;
mod cli_check_given;
mod cli_check_learners;
mod cli_completions;
mod cli_constellations;
mod cli_estimate;
mod cli_files;
mod cli_given;
mod cli_given_count;
mod cli_journal;
mod cli_json;
mod cli_ladder;
mod cli_list;
mod cli_memory;
mod cli_messages;
mod cli_one;
mod cli_pictures;
mod cli_plan;
mod cli_progress;
mod cli_scale;
mod cli_shards;
mod cli_stdout;
mod cli_terminal;
mod construct;
mod docs;
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
