//! The command line's tests, built as a single test executable: they run
//! the `queens` binary as a user would (assert_cmd), in a pseudo-terminal
//! where the terminal matters, and every console example of the docs.

mod common;

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
mod cli_gpu;
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
mod docs;
