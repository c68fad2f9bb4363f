//! `queens list N`: every solution (or one per symmetry class), in
//! lexicographic order, in any board format, streamed.
//!
//! Boards are generated and rendered in parallel but written in order. The
//! search is cut into tasks, the legal placements of the first rows in
//! lexicographic order; worker `w` of `T` takes tasks `w, w + T, w + 2T,
//! ...`, renders each task's boards into 64 KiB blocks and sends them down a
//! channel of its own that holds at most [`BLOCKS_AHEAD`] blocks. The writer
//! reads task 0 from worker 0's channel, task 1 from worker 1's, and so on
//! round the workers, so the output is exactly the serial order, while the
//! next `T - 1` tasks are already being worked on. Memory is bounded by
//! `T * (BLOCKS_AHEAD + 1)` blocks whatever n is: nothing collects the
//! boards. When the reader goes away (`| head`) or `--limit` is reached, the
//! writer drops the channels and the workers stop at their next send.
//!
//! `--format svg` is a picture, written whole: its boards are collected, at
//! most [`SHEET_MAX`] of them, and a listing of more is refused in one line
//! that names `--limit` ([`super::picture`]).

use crate::exit::ExitCode;
use std::io::Write;
use std::num::NonZeroUsize;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use queens::MAX_N;
use queens::Renderer;
use queens::{Format, Solutions};

use super::UsageError;
use super::picture::{Look, SHEET_MAX, write_sheet};

/// Bytes of rendered boards per message from a worker to the writer.
const BLOCK_BYTES: usize = 1 << 16;

/// Blocks a worker may have rendered that the writer has not taken yet.
const BLOCKS_AHEAD: usize = 16;

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Board size N (1 to 32).
    #[arg(value_name = "N", allow_negative_numbers = true,
          value_parser = |s: &str| super::args::parse_board_size(s, MAX_N))]
    n: u32,

    /// How to write each board (svg: all on one sheet, at most 100).
    #[arg(short, long, value_enum, default_value_t = Look::Text(Format::Board))]
    format: Look,

    /// Write each board as one JSON object, `{"n":N,"cols":[...]}`: the
    /// same as --format jsonl.
    #[arg(long, conflicts_with = "format")]
    json: bool,

    /// Stop after K boards.
    #[arg(long, value_name = "K", value_parser = super::args::parse_limit,
          allow_negative_numbers = true)]
    limit: Option<u64>,

    /// Only one board per symmetry class: the lexicographically smallest of
    /// its rotations and reflections (OEIS A002562 boards in all).
    #[arg(long)]
    unique: bool,

    /// Threads generating boards [default: all cores, or
    /// RAYON_NUM_THREADS].
    #[arg(short = 'j', long, value_name = "T", value_parser = super::args::parse_threads,
          allow_negative_numbers = true)]
    threads: Option<NonZeroUsize>,

    /// No note on stderr for a board size without solutions (2 and 3).
    #[arg(short, long)]
    quiet: bool,

    #[command(flatten)]
    problem: super::problem::ProblemArgs,
}

/// One batch of rendered boards, each preceded by the format's separator.
struct Block {
    bytes: Vec<u8>,
    /// Where each board ends in `bytes`.
    ends: Vec<usize>,
}

enum Message {
    Boards(Block),
    /// The task is done: the next message of this channel is the next task's.
    TaskDone,
}

pub fn run(args: &ListArgs) -> anyhow::Result<ExitCode> {
    let n = args.n;
    let look = if args.json {
        Look::Text(Format::Jsonl)
    } else {
        args.format
    };
    if let Some(limit) = args.limit.filter(|&k| look == Look::Svg && k > SHEET_MAX) {
        return Err(UsageError(format!(
            "--format svg draws at most {SHEET_MAX} boards on one sheet: --limit {limit} asks \
             for more"
        ))
        .into());
    }
    if let Some(problem) = args.problem.problem(n)? {
        return list_completions(args, &problem, look);
    }
    let Look::Text(format) = look else {
        let boards = Solutions::new(n)?;
        let boards = if args.unique { boards.unique() } else { boards };
        let take = args.limit.unwrap_or(SHEET_MAX + 1);
        let drawn: Vec<Vec<u32>> = boards.take(usize::try_from(take)?).collect();
        return draw(args, drawn);
    };
    // Tasks small enough that a worker can run a whole one ahead of the
    // writer: about 30 boards each at n = 12, 250 at n = 14.
    let depth = match n {
        0..8 => 1,
        8..12 => 2,
        _ => 3,
    };
    let tasks: Vec<Vec<u32>> = Solutions::placements(n, &[], depth)?.collect();
    // The counting engines' pool, so `-j` and `RAYON_NUM_THREADS` mean the
    // same here; no more workers than tasks, nor than threads to run them
    // (a worker waits on the writer, so each needs a thread of its own).
    let pool = queens::thread_pool(super::args::threads(args.threads)?)?;
    let workers = pool.current_num_threads().clamp(1, tasks.len().max(1));

    let mut out = super::stdout();
    out.write_all(format.opening())?;
    // The writer runs here, on the calling thread; the workers on the pool.
    let written = pool.in_place_scope(|scope| {
        let mut channels = Vec::with_capacity(workers);
        for worker in 0..workers {
            let (sender, receiver) = sync_channel(BLOCKS_AHEAD);
            channels.push(receiver);
            let tasks = tasks.iter().skip(worker).step_by(workers);
            let unique = args.unique;
            scope.spawn(move |_| render_tasks(n, format, unique, tasks, &sender));
        }
        // The receivers are dropped when this returns, which stops the
        // workers even when it returns early.
        write_in_order(&mut out, format, tasks.len(), channels, args.limit)
    })?;
    debug_assert!(args.limit.is_none_or(|limit| written <= limit));
    out.write_all(format.closing())?;
    out.flush()?;
    // See: issue 35, item 6 (`list 2` printed nothing and said nothing).
    if written == 0 && args.limit != Some(0) && !args.quiet {
        eprintln!("queens: there is no solution for n = {n}: nothing to list");
    }
    Ok(ExitCode::SUCCESS)
}

/// A worker: renders the boards of its tasks, in order, into blocks.
fn render_tasks<'a>(
    n: u32,
    format: Format,
    unique: bool,
    tasks: impl Iterator<Item = &'a Vec<u32>>,
    sender: &SyncSender<Message>,
) {
    let mut renderer = Renderer::new(format);
    let new_block = || Block {
        bytes: Vec::with_capacity(BLOCK_BYTES + 1024),
        ends: Vec::new(),
    };
    let mut block = new_block();
    for prefix in tasks {
        let Ok(mut boards) = Solutions::with_prefix(n, prefix) else {
            return;
        };
        if unique {
            boards = boards.unique();
        }
        while let Some(cols) = boards.next_board() {
            block.bytes.extend_from_slice(format.separator());
            renderer
                .write(&mut block.bytes, n, cols.iter().copied())
                .expect("writing to a Vec cannot fail");
            block.ends.push(block.bytes.len());
            if block.bytes.len() >= BLOCK_BYTES {
                let full = std::mem::replace(&mut block, new_block());
                if sender.send(Message::Boards(full)).is_err() {
                    return;
                }
            }
        }
        if !block.ends.is_empty() {
            let last = std::mem::replace(&mut block, new_block());
            if sender.send(Message::Boards(last)).is_err() {
                return;
            }
        }
        if sender.send(Message::TaskDone).is_err() {
            return;
        }
    }
}

/// The writer: takes task `i` from channel `i % T`, writes its boards, and
/// returns how many boards it wrote. Drops the first board's separator.
fn write_in_order(
    out: &mut impl Write,
    format: Format,
    tasks: usize,
    channels: Vec<Receiver<Message>>,
    limit: Option<u64>,
) -> std::io::Result<u64> {
    let mut written: u64 = 0;
    let limit = limit.unwrap_or(u64::MAX);
    for task in 0..tasks {
        if written >= limit {
            break;
        }
        let channel = &channels[task % channels.len()];
        // A closed channel means a worker stopped early, which it only does
        // when this side is gone: it cannot happen here, so stop quietly.
        while let Ok(Message::Boards(block)) = channel.recv() {
            let room = usize::try_from(limit - written).unwrap_or(usize::MAX);
            let boards = block.ends.len().min(room);
            let end = block.ends[boards - 1];
            let start = if written == 0 {
                format.separator().len()
            } else {
                0
            };
            out.write_all(&block.bytes[start..end])?;
            written += boards as u64;
            if written >= limit {
                break;
            }
        }
    }
    Ok(written)
}

/// `list N --given ...`: every completion, in lexicographic order, from
/// one search on the calling thread (a constrained board has few), which
/// Ctrl-C stops. With `--unique`, one board per class of the problem's own
/// symmetries: the smallest of its images under them.
fn list_completions(
    args: &ListArgs,
    problem: &queens::Problem,
    look: Look,
) -> anyhow::Result<ExitCode> {
    use anyhow::Context as _;
    let n = problem.n();
    let group = problem.symmetries();
    super::signals::install().context("catching Ctrl-C and SIGTERM")?;
    // A picture collects its boards, at most one more than a sheet holds.
    let (mut out, limit) = match look {
        Look::Text(format) => (
            Some(queens::BoardWriter::new(super::stdout(), format)),
            args.limit.unwrap_or(u64::MAX),
        ),
        Look::Svg => (None, args.limit.unwrap_or(SHEET_MAX + 1)),
    };
    let mut drawn: Vec<Vec<u32>> = Vec::new();
    let (mut written, mut image, mut failed) = (0u64, vec![0; n as usize], None);
    if limit > 0 {
        problem.for_each_completion_until(super::signals::stop_flag(), |board| {
            let smallest = !args.unique
                || group.iter().all(|t| {
                    t.apply_into(board, &mut image);
                    image.as_slice() >= board
                });
            if smallest {
                match &mut out {
                    Some(out) => {
                        if let Err(err) = out.write(n, board.iter().copied()) {
                            failed = Some(err);
                            return false;
                        }
                    }
                    None => drawn.push(board.to_vec()),
                }
                written += 1;
            }
            written < limit
        });
    }
    if let Some(err) = failed {
        return Err(err.into());
    }
    if let Some(out) = out {
        out.finish()?;
    }
    if super::signals::stopped() {
        eprintln!("interrupted: {written} completions of n = {n} listed");
        return Ok(ExitCode::from(super::signals::exit_code()));
    }
    // See: issue 47, item 16 (given queens that attack each other were
    // not named, only every constraint echoed): as `one` says it.
    if written == 0 && limit > 0 && !args.quiet {
        match problem.conflict() {
            Some((a, b)) => {
                eprintln!("queens: no completion: the given queens {a} and {b} attack each other");
            }
            None => eprintln!(
                "queens: no completion: no solution of n = {n} has {}",
                problem.describe()
            ),
        }
    }
    if look == Look::Svg && written > 0 {
        return draw(args, drawn);
    }
    Ok(ExitCode::SUCCESS)
}

/// `list --format svg`: the boards `drawn`, on one sheet, if a sheet holds
/// them all; nothing for none (as the text formats, with their note; a
/// problem's completions come here only when there are some).
fn draw(args: &ListArgs, drawn: Vec<Vec<u32>>) -> anyhow::Result<ExitCode> {
    let n = args.n;
    if drawn.len() as u64 > SHEET_MAX {
        return Err(UsageError(format!(
            "--format svg draws at most {SHEET_MAX} boards on one sheet, and n = {n} lists more: \
             draw the first K with --limit K (K up to {SHEET_MAX})"
        ))
        .into());
    }
    if drawn.is_empty() {
        if args.limit != Some(0) && !args.quiet {
            eprintln!("queens: there is no solution for n = {n}: nothing to list");
        }
        return Ok(ExitCode::SUCCESS);
    }
    write_sheet(&drawn)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Channels holding `tasks`, each a list of blocks, each a list of
    /// boards, as `workers` round-robin workers would have sent them.
    fn channels(workers: usize, tasks: &[&[&[&str]]]) -> Vec<Receiver<Message>> {
        let (senders, receivers): (Vec<_>, Vec<_>) = (0..workers).map(|_| sync_channel(64)).unzip();
        for (i, task) in tasks.iter().enumerate() {
            for boards in *task {
                let mut block = Block {
                    bytes: Vec::new(),
                    ends: Vec::new(),
                };
                for board in *boards {
                    block.bytes.extend_from_slice(b",");
                    block.bytes.extend_from_slice(board.as_bytes());
                    block.ends.push(block.bytes.len());
                }
                senders[i % workers].send(Message::Boards(block)).unwrap();
            }
            senders[i % workers].send(Message::TaskDone).unwrap();
        }
        receivers
    }

    fn written(workers: usize, tasks: &[&[&[&str]]], limit: Option<u64>) -> (String, u64) {
        let mut out = Vec::new();
        let count = write_in_order(
            &mut out,
            Format::Leetcode,
            tasks.len(),
            channels(workers, tasks),
            limit,
        )
        .unwrap();
        (String::from_utf8(out).unwrap(), count)
    }

    const TASKS: [&[&[&str]]; 4] = [&[&["a", "b"], &["c"]], &[], &[&["d"]], &[&["e", "f"]]];

    #[test]
    fn tasks_come_out_in_order_whatever_the_workers() {
        for workers in 1..=5 {
            assert_eq!(written(workers, &TASKS, None), ("a,b,c,d,e,f".into(), 6));
        }
    }

    #[test]
    fn a_limit_cuts_inside_a_block() {
        assert_eq!(written(2, &TASKS, Some(1)), ("a".into(), 1));
        assert_eq!(written(2, &TASKS, Some(5)), ("a,b,c,d,e".into(), 5));
        assert_eq!(written(3, &TASKS, Some(0)), (String::new(), 0));
    }

    #[test]
    fn the_first_board_loses_its_separator_even_after_empty_tasks() {
        let tasks: [&[&[&str]]; 3] = [&[], &[], &[&["x"]]];
        assert_eq!(written(2, &tasks, None), ("x".into(), 1));
    }
}
