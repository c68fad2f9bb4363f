//! Slow, obviously correct helpers shared by the integration tests.
#![allow(dead_code)] // each test file uses its own subset

/// Every solution of the `n`-queens puzzle, as the column of the queen in
/// each row, found by plain backtracking on a board of booleans: place a
/// queen row by row on any square that no earlier queen attacks, checked by
/// walking up the column and both diagonals. No bit tricks, no symmetry.
pub fn reference_solutions(n: usize) -> Vec<Vec<usize>> {
    let mut board = vec![vec![false; n]; n];
    let mut found = Vec::new();
    place(&mut board, 0, &mut found);
    found
}

/// The ways to complete a board whose first rows hold queens at `prefix`.
pub fn reference_completions(n: usize, prefix: &[usize]) -> u128 {
    let mut board = vec![vec![false; n]; n];
    for (row, &col) in prefix.iter().enumerate() {
        if !safe(&board, row, col) {
            return 0;
        }
        board[row][col] = true;
    }
    let mut found = Vec::new();
    place(&mut board, prefix.len(), &mut found);
    found.len() as u128
}

/// A legal placement of up to `choices.len()` rows: row `r` takes the
/// `choices[r]`-th (modulo) of its safe columns; stops early at a row with
/// none. A way to turn random numbers into legal prefixes.
pub fn legal_prefix(n: usize, choices: &[usize]) -> Vec<usize> {
    let mut board = vec![vec![false; n]; n];
    let mut prefix = Vec::new();
    for (row, &choice) in choices.iter().enumerate().take(n) {
        let safe_cols: Vec<usize> = (0..n).filter(|&c| safe(&board, row, c)).collect();
        if safe_cols.is_empty() {
            break;
        }
        let col = safe_cols[choice % safe_cols.len()];
        board[row][col] = true;
        prefix.push(col);
    }
    prefix
}

fn place(board: &mut Vec<Vec<bool>>, row: usize, found: &mut Vec<Vec<usize>>) {
    let n = board.len();
    if row == n {
        let cols = board
            .iter()
            .map(|r| r.iter().position(|&q| q).unwrap())
            .collect();
        found.push(cols);
        return;
    }
    for col in 0..n {
        if safe(board, row, col) {
            board[row][col] = true;
            place(board, row + 1, found);
            board[row][col] = false;
        }
    }
}

/// Whether no queen in the rows above `row` attacks `(row, col)`.
fn safe(board: &[Vec<bool>], row: usize, col: usize) -> bool {
    (1..=row).all(|up| {
        let r = row - up;
        let left = col.checked_sub(up);
        let right = Some(col + up).filter(|&c| c < board.len());
        !board[r][col] && !left.is_some_and(|c| board[r][c]) && !right.is_some_and(|c| board[r][c])
    })
}

/// The standard CRC-32 (IEEE 802.3, reflected, as zlib and crc32fast),
/// bit by bit: an independent check of the journal's checksums, and a way
/// to write records the library would not (a forged count, a count of
/// 100,000 digits, a unit past the plan).
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[cfg(unix)]
/// Asserts that the tests run as root, for a test marked
/// `#[ignore = "needs root"]` (CI runs them: `.ci/run`), so that one run
/// by hand as another user fails saying why instead of passing unchecked.
pub fn needs_root(what: &str) {
    use std::os::unix::fs::MetadataExt;
    assert!(
        std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0),
        "{what} needs root: run this ignored test as root (CI does)"
    );
}

#[cfg(unix)]
/// A temporary folder with a 64 KiB tmpfs mounted on it, to fill the disk
/// without touching the machine's own (root only: see [`needs_root`]).
/// Unmount it before it is dropped.
pub fn small_tmpfs() -> tempfile::TempDir {
    needs_root("mounting a small tmpfs");
    let dir = tempfile::tempdir().unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(dir.path())
        .status()
        .is_ok_and(|status| status.success());
    assert!(
        mounted,
        "this machine would not mount a tmpfs on {:?}",
        dir.path()
    );
    dir
}

/// The mirror engine's count of `n` on the calling thread, with `config`'s
/// options, each unit told to `observer`.
pub fn serial(
    n: u32,
    config: &queens::Config,
    observer: &dyn queens::Observer,
) -> Result<queens::Count, queens::Error> {
    mirror(n, config, observer).threads(1).run()
}

/// The mirror engine's count of `n` on `threads` threads, each unit told
/// to `observer`.
pub fn parallel(
    n: u32,
    threads: usize,
    observer: &dyn queens::Observer,
) -> Result<queens::Count, queens::Error> {
    mirror(n, &queens::Config::default(), observer)
        .threads(threads)
        .run()
}

fn mirror<'a>(
    n: u32,
    config: &queens::Config,
    observer: &'a dyn queens::Observer,
) -> queens::Counter<'a> {
    queens::Counter::new(n)
        .engine(queens::Engine::Mirror)
        .config(config)
        .observer(observer)
}

/// Unit `id` of `plan` counted alone, on the calling thread.
pub fn count_unit(plan: &queens::Plan, id: u32) -> Result<u128, queens::Error> {
    queens::Counter::new(plan.n())
        .engine(plan.engine())
        .threads(1)
        .units(&[id])
        .run_plan(plan)
        .map(|count| count.solutions)
}

/// Says why a test that uses a test hook (`QUEENS_TEST_KILL_AFTER`,
/// `QUEENS_TEST_BENCH_WRONG`) cannot run, when it cannot: the hooks exist
/// only in builds with debug assertions, never in a release binary.
pub fn needs_test_hooks() {
    #[cfg(not(debug_assertions))]
    panic!(
        "this test uses a test hook, which only builds with debug assertions have: run \
         `cargo test`, not `cargo test --release`"
    );
}

/// A small deterministic generator (SplitMix64) for the tests' random
/// cases, so that a failure names its seed.
pub fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Squares as `--given` and `--blocked` take them: `1:2,4:3`.
pub fn squares_flag(squares: &[queens::Square]) -> String {
    let items: Vec<String> = squares.iter().map(ToString::to_string).collect();
    items.join(",")
}

/// `count` given queens drawn from `state` for an `n`-board, at most one a
/// row (a row drawn twice keeps its first queen).
pub fn random_given(state: &mut u64, n: u32, count: u64) -> Vec<queens::Square> {
    let mut given: Vec<queens::Square> = Vec::new();
    for _ in 0..count {
        let row = (next_random(state) % u64::from(n)) as u32;
        if given.iter().all(|q| q.row != row) {
            let col = (next_random(state) % u64::from(n)) as u32;
            given.push(queens::Square::new(row, col));
        }
    }
    given
}

/// `count` squares drawn from `state` for an `n`-board, repeats allowed.
pub fn random_squares(state: &mut u64, n: u32, count: u64) -> Vec<queens::Square> {
    (0..count)
        .map(|_| {
            let row = (next_random(state) % u64::from(n)) as u32;
            queens::Square::new(row, (next_random(state) % u64::from(n)) as u32)
        })
        .collect()
}
