//! The queens library as the web page (`web/`) calls it: a WebAssembly
//! module for `wasm32-unknown-unknown` with a small C-style API, loaded
//! by `web/worker.js` with `WebAssembly.instantiate` and no generated
//! glue.
//!
//! Text goes both ways. The page writes a board into the module's input
//! buffer (`web_input(len)` makes room and gives its address), as
//! [`Problem::from_board`] reads it: a line a row, `Q` a queen, `x` a
//! blocked square, `.` a free one. It calls one function, which returns
//! 0 and leaves a JSON object in the output buffer (`web_output`,
//! `web_output_len`), or returns 1 and leaves an error message there.
//! Counts travel as decimal strings, exact whatever their size.
//!
//! Why not wasm-bindgen: its command-line tool must be built from source
//! at the crate's exact version, about four minutes of CPU on CI's two
//! cores (docs/web.md says more); five calls that take and give text do
//! not need it.
//!
//! The module counts serially ([`Problem::count_serially`]): a browser's
//! `wasm32-unknown-unknown` has no threads for rayon to start. It never
//! reads a clock (`std::time::Instant` panics there); the page times
//! what it asks for.
//!
//! The empty board can count on the page's GPU instead, where the browser
//! has WebGPU: the module cuts the work into the GPU executor's tasks and
//! totals their counts, the page runs the kernel ([`gpu`]).

pub mod gpu;

use std::fmt::Write as _;
use std::sync::{Mutex, MutexGuard, PoisonError};

use queens::{Config, Plan, Problem, Solutions, known, orbit, stabiliser};

/// The largest board whose solutions [`classes`] lists: 724 boards, 92
/// classes at n = 10; n = 11 would make 2,680.
pub const MAX_CLASSES_N: u32 = 10;

/// The completions of the board `text`: `{"count":"4"}`.
///
/// # Errors
/// The board's, as [`Problem::from_board`] words them.
pub fn count(text: &str) -> Result<String, String> {
    let problem = read(text)?;
    Ok(format!(r#"{{"count":"{}"}}"#, problem.count_serially()))
}

/// What the plan of the board's completions estimates its search at:
/// `{"cost":1234,"units":10,"known":null}`, the sum of its units'
/// estimated search trees ([`Plan::total_cost`]), in nodes. The page turns
/// it into a time with the nodes a second it measured. `known` is the
/// total OEIS A000170 gives for an empty board ([`known::total`]), as a
/// decimal string, so that the page can show it where the count would take
/// long; null for any other board.
///
/// # Errors
/// The board's, and the plan's.
pub fn cost(text: &str) -> Result<String, String> {
    let problem = read(text)?;
    let plan = Plan::for_problem(&problem, None, &Config::default()).map_err(|e| e.to_string())?;
    let known = match known::total(problem.n()).filter(|_| problem.is_empty_board()) {
        Some(total) => format!(r#""{total}""#),
        None => "null".to_owned(),
    };
    Ok(format!(
        r#"{{"cost":{},"units":{},"known":{known}}}"#,
        plan.total_cost(),
        plan.len()
    ))
}

/// The first completion of the board in lexicographic order, a column a
/// row from 0: `{"cols":[1,3,0,2]}`, or `{"cols":null}` where there is
/// none, with the two given queens that attack each other where that is
/// why: `"conflict":[[0,0],[3,3]]` (0-based row and column).
///
/// # Errors
/// The board's.
pub fn first_completion(text: &str) -> Result<String, String> {
    let problem = read(text)?;
    let mut json = String::from(r#"{"cols":"#);
    match problem.first_completion() {
        Some(cols) => push_board(&mut json, &cols),
        None => json.push_str("null"),
    }
    if let Some((a, b)) = problem.conflict() {
        let _ = write!(
            json,
            r#","conflict":[[{},{}],[{},{}]]"#,
            a.row, a.col, b.row, b.col
        );
    }
    json.push('}');
    Ok(json)
}

/// Every solution of the empty `n`-board, grouped by symmetry class: each
/// class's canonical board (the smallest of its orbit, as `list --unique`
/// lists them), the boards of its orbit in lexicographic order, and the
/// symmetries that leave its boards unchanged (`"identity"` alone for
/// most): `{"n":6,"solutions":4,"classes":[{"boards":[[1,3,5,0,2,4],...],
/// "symmetries":["identity","rotate 180"]}]}`.
///
/// # Errors
/// For `n` outside `1..=MAX_CLASSES_N`.
pub fn classes(n: u32) -> Result<String, String> {
    if !(1..=MAX_CLASSES_N).contains(&n) {
        return Err(format!(
            "the solutions are listed for boards of 1 to {MAX_CLASSES_N}, not {n}"
        ));
    }
    let mut json = format!(r#"{{"n":{n},"classes":["#);
    let mut solutions = 0;
    for (k, canonical) in Solutions::new(n)
        .map_err(|e| e.to_string())?
        .unique()
        .enumerate()
    {
        let boards = orbit(&canonical);
        solutions += boards.len();
        if k > 0 {
            json.push(',');
        }
        json.push_str(r#"{"boards":["#);
        for (i, board) in boards.iter().enumerate() {
            if i > 0 {
                json.push(',');
            }
            push_board(&mut json, board);
        }
        json.push_str(r#"],"symmetries":["#);
        for (i, t) in stabiliser(&canonical).iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            let _ = write!(json, r#"{comma}"{t}""#);
        }
        json.push_str("]}");
    }
    let _ = write!(json, r#"],"solutions":{solutions}}}"#);
    Ok(json)
}

/// The board, or the library's message for what is wrong with it.
fn read(text: &str) -> Result<Problem, String> {
    Problem::from_board(text).map_err(|e| e.to_string())
}

fn push_board(json: &mut String, cols: &[u32]) {
    json.push('[');
    for (i, col) in cols.iter().enumerate() {
        let comma = if i == 0 { "" } else { "," };
        let _ = write!(json, "{comma}{col}");
    }
    json.push(']');
}

// The buffers the page reads and writes through the module's memory. The
// page is one thread (a worker) calling one function at a time, so the
// locks are never contended; they are there so that no `static mut` is.
static INPUT: Mutex<Vec<u8>> = Mutex::new(Vec::new());
static OUTPUT: Mutex<Vec<u8>> = Mutex::new(Vec::new());

fn lock<T>(buffer: &Mutex<T>) -> MutexGuard<'_, T> {
    buffer.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The board the page wrote into the input buffer.
fn input_text() -> Result<String, String> {
    String::from_utf8(lock(&INPUT).clone()).map_err(|e| format!("the board is not UTF-8: {e}"))
}

/// Leaves `result` in the output buffer: 0 for `Ok` (its JSON), 1 for
/// `Err` (the message).
fn answer(result: Result<String, String>) -> u32 {
    let (status, text) = match result {
        Ok(json) => (0, json),
        Err(message) => (1, message),
    };
    *lock(&OUTPUT) = text.into_bytes();
    status
}

// The exports. `#[unsafe(no_mangle)]` is what `unsafe_code` flags: each
// name below is defined once in the module, which is all it asks.

/// Makes the input buffer `len` bytes (zeros) and returns its address, for
/// the page to write the board's UTF-8 bytes into before its next call.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn web_input(len: usize) -> *mut u8 {
    let mut input = lock(&INPUT);
    input.clear();
    input.resize(len, 0);
    input.as_mut_ptr()
}

/// The address of the last call's answer.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn web_output() -> *const u8 {
    lock(&OUTPUT).as_ptr()
}

/// The length in bytes of the last call's answer.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn web_output_len() -> usize {
    lock(&OUTPUT).len()
}

/// [`count`] of the input board.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn web_count() -> u32 {
    answer(input_text().and_then(|text| count(&text)))
}

/// [`cost`] of the input board.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn web_cost() -> u32 {
    answer(input_text().and_then(|text| cost(&text)))
}

/// [`first_completion`] of the input board.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn web_first_completion() -> u32 {
    answer(input_text().and_then(|text| first_completion(&text)))
}

/// [`classes`] of the `n`-board (the input is not read).
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn web_classes(n: u32) -> u32 {
    answer(classes(n))
}

/// Cuts the empty `n`-board into the GPU's tasks ([`gpu::tasks`]): where
/// they lie in the module's memory, and where the page writes their
/// counts.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn web_gpu_tasks(n: u32) -> u32 {
    answer(gpu::tasks(n))
}

/// The total of the counts the page wrote for the last tasks cut
/// ([`gpu::total`]), checked against OEIS A000170.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn web_gpu_total() -> u32 {
    answer(gpu::total())
}

/// `seconds` for people, as the command line writes durations
/// ([`queens::human::duration`]): `"1.50 s"`, `"2.00 h"`.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn web_human_duration(seconds: f64) -> u32 {
    answer(Ok(queens::human::duration(seconds)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_completions_are_the_librarys() {
        assert_eq!(
            count("......\n".repeat(6).as_str()),
            Ok(r#"{"count":"4"}"#.to_owned())
        );
        // A queen in the corner of the 8-board: 4 of the 92.
        let corner = format!("Q.......\n{}", "........\n".repeat(7));
        assert_eq!(count(&corner), Ok(r#"{"count":"4"}"#.to_owned()));
        assert_eq!(
            first_completion(".Q..\nx...\n...x\n....\n"),
            Ok(r#"{"cols":[1,3,0,2]}"#.to_owned())
        );
        assert_eq!(
            first_completion("Q...\n....\n..Q.\n....\n"),
            Ok(r#"{"cols":null,"conflict":[[0,0],[2,2]]}"#.to_owned())
        );
        let cost = cost(&"........\n".repeat(8)).unwrap();
        assert!(cost.starts_with(r#"{"cost":"#), "{cost}");
    }

    #[test]
    fn an_empty_boards_cost_carries_the_oeis_total() {
        // See: issue 47, item 15 (the empty 17- to 20-boards showed "not
        // counted yet", their totals known).
        let empty = |n: usize| format!("{}\n", ".".repeat(n)).repeat(n);
        assert!(
            cost(&empty(20))
                .unwrap()
                .ends_with(r#""known":"39029188884"}"#)
        );
        assert!(cost(&empty(8)).unwrap().ends_with(r#""known":"92"}"#));
        let corner = format!("Q{}\n{}", ".".repeat(19), empty(20).split_at(21).1);
        assert!(cost(&corner).unwrap().ends_with(r#""known":null}"#));
    }

    #[test]
    fn bad_boards_are_refused_with_the_librarys_words() {
        assert_eq!(
            count("QQ\n..\n"),
            Err("given queens 1:1 and 1:2 share row 1: one queen a row".to_owned())
        );
        assert!(
            count("")
                .unwrap_err()
                .contains("it is empty: expected rows of Q, x and .")
        );
    }

    #[test]
    fn classes_hold_every_solution_once() {
        for n in 1..=MAX_CLASSES_N {
            let json = classes(n).unwrap();
            let total = known::total(n).unwrap();
            assert!(
                json.ends_with(&format!(r#""solutions":{total}}}"#)),
                "{json}"
            );
            let listed = json.matches(r#"{"boards""#).count() as u128;
            assert_eq!(Some(listed), known::unique(n), "n = {n}");
        }
        // The one class of n = 4 is its own quarter turn.
        assert_eq!(
            classes(4).unwrap(),
            r#"{"n":4,"classes":[{"boards":[[1,3,0,2],[2,0,3,1]],"symmetries":["identity","rotate 90","rotate 180","rotate 270"]}],"solutions":2}"#
        );
        assert!(classes(11).is_err() && classes(0).is_err());
    }

    #[test]
    fn the_exports_pass_text_through_the_buffers() {
        let board = b"....\n....\n....\n....\n";
        let at = web_input(board.len());
        assert!(!at.is_null());
        lock(&INPUT).copy_from_slice(board);
        assert_eq!(web_count(), 0);
        assert_eq!(&*lock(&OUTPUT), br#"{"count":"2"}"#);
        assert_eq!(web_output_len(), 13);
        lock(&INPUT).copy_from_slice(b"Q...\nQ...\n....\n\xff...\n");
        assert_eq!(web_count(), 1);
        assert_eq!(web_human_duration(90.0), 0);
        assert_eq!(&*lock(&OUTPUT), b"1.50 min");
    }
}
