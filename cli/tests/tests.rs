//! The command line's tests, built as a single test executable: they run
//! the `queens` binary as a user would (assert_cmd), in a pseudo-terminal
//! where the terminal matters, and every console example of the docs.
//!
//! Tests marked `#[ignore = "needs root"]` are run by `.ci/run`, as root.

/// running the binary, in a pipe or a pseudo-terminal; the library tests' helpers
mod common;

/// `queens` as a whole: output, JSON, exit codes, one line per bad input
mod cli;
/// `queens bench`: table, JSON, warnings, exports, plot
mod cli_bench;
/// `queens check`: verdicts, exit codes, malformed input
mod cli_check;
/// `check --given/--blocked/--board`: boards held against a problem
mod cli_check_given;
/// `check` reading what learners write (issue 37)
mod cli_check_learners;
/// `queens completions` and `queens man`
mod cli_completions;
/// `--engine constellations` end to end: plans, counts, journals, shards
mod cli_constellations;
/// `queens estimate`: seeded samples, projections, bad input
mod cli_estimate;
/// every file the tool reads or writes, tried as an attacker would (issue 20)
mod cli_files;
/// `list` and `one` with queens given and squares blocked
mod cli_given;
/// `count`, `plan`, `estimate`, `merge`, `verify` of a problem
mod cli_given_count;
/// `count --gpu` and `bench --gpu`: a GPU's counts, or one-line refusals
mod cli_gpu;
/// The portable GPU executor (wgpu) on lavapipe or a GPU: journals and
/// shards shared with the CPU
#[cfg(feature = "wgpu")]
mod cli_gpu_portable;
/// `count --checkpoint`, `--output` and signals: kills, resumes, damage
mod cli_journal;
/// every command's `--json` against docs/json.md's tables
mod cli_json;
/// `queens ladder` and `count --algorithm`
mod cli_ladder;
/// `queens list`: formats, order, limits, pipes
mod cli_list;
/// counts and plans too big for memory refused before they allocate
mod cli_memory;
/// every number an option takes refused in one line (issue 32)
mod cli_messages;
/// `queens one`: formats, and its boards pass `check`
mod cli_one;
/// boards as Unicode and SVG pictures (issue 37)
mod cli_pictures;
/// `queens plan` and `count --units`: recounting a published plan
mod cli_plan;
/// the progress bar as a terminal shows it
mod cli_progress;
/// runs at scale (issue 21): bound journals, full disks, locks, requeues
mod cli_scale;
/// `count --shard`, `merge` and `verify` as a user meets them
mod cli_shards;
/// a stdout that cannot be written fails every command in one line (`/dev/full`,
/// a closed descriptor: Unix)
#[cfg(unix)]
mod cli_stdout;
/// reports folded to an 80-column terminal, and the same words in a pipe
mod cli_terminal;
/// every console example of README.md and docs/ is real output; links resolve
mod docs;
