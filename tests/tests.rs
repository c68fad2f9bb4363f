//! The integration tests, one module per concept (39 of them, and
//! `common`), built as a single test executable: one link instead of one
//! per file.
//!
//! Tests marked `#[ignore = "slow ..."]` would take most of a plain
//! `cargo test`'s time; `.ci/run` runs them, with those that need root,
//! in its step for ignored tests (`cargo test --test tests -- --ignored`).

/// helpers every test module may use: the slow reference solver, running the binary
mod common;

/// the board checker against a pairwise check, and fuzzed
mod check;
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
/// a stdout that cannot be written fails every command in one line
mod cli_stdout;
/// reports folded to an 80-column terminal, and the same words in a pipe
mod cli_terminal;
/// `queens one`'s construction: every board up to n = 5000 is a solution
mod construct;
/// every console example of README.md and docs/ is real output; links resolve
mod docs;
/// every reader of user bytes (journals, shards, boards) fed damage
mod fuzz_readers;
/// the GPU executor: its CUDA kernels run on the CPU, its refusals
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
