//! Issue 20: every reader of bytes the user hands in (the checkpoint
//! journal, shard results, the board formats `queens check` reads) fed
//! random bytes and damaged copies of what the writers write: cut at any
//! offset, a byte replaced, a carriage return before a line feed, a line
//! twice, a number of 100,000 digits. Each gives a clean error or the right
//! result, never a panic, and quickly: nothing is allocated in proportion
//! to what a number says.
//!
//! Where the damage leaves a valid prefix, the result is exact: a journal
//! cut at a record's end reads back exactly the records before the cut,
//! boards before the damage are reported as written.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use queens::journal::{Header, Refusal, Replay};
use queens::{Boards, Checked};

use crate::common::crc32;
use queens::shard::{self, Assignment, ShardFile, ShardId};
use queens::{BoardWriter, Config, Counter, Engine, Format, Plan, Shape, Solutions, known};

/// n = 8 with the mirror engine: 21 units, enough to shard and small
/// enough to count in every case.
fn plan() -> Plan {
    Plan::new(Shape::new(8, Engine::Mirror, None), &Config::default()).unwrap()
}

/// Asserts that `read` takes under a second: a reader that walked or
/// allocated in proportion to a huge number would not.
fn quickly<T>(what: &str, read: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let result = read();
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{what}: {:?}",
        started.elapsed()
    );
    result
}

/// 100,000 digits: far past any integer type.
fn huge_number() -> String {
    "9".repeat(100_000)
}

// The journal.

/// A journal's bytes as the CLI writes them, for `records` (ids modulo
/// the plan's units; a unit written again repeats its first count, a
/// confirmation), with where the header and each record end and the
/// records as written.
struct Journal {
    bytes: Vec<u8>,
    header_end: usize,
    ends: Vec<usize>,
    records: Vec<(u32, u128)>,
}

impl Journal {
    fn new(plan: &Plan, records: &[(u32, u128)]) -> Self {
        let header = Header::of(plan);
        let mut bytes = header.line().into_bytes();
        let header_end = bytes.len();
        let mut written: Vec<(u32, u128)> = Vec::new();
        let mut ends = Vec::new();
        for &(id, count) in records {
            let id = id % plan.len() as u32;
            let count = written
                .iter()
                .find(|&&(i, _)| i == id)
                .map_or(count, |&(_, c)| c);
            written.push((id, count));
            bytes.extend(header.record(id, count).as_bytes());
            ends.push(bytes.len());
        }
        Self {
            bytes,
            header_end,
            ends,
            records: written,
        }
    }

    /// What reading the first `k` records must give: each unit once, in
    /// id order.
    fn done(&self, k: usize) -> Vec<(u32, u128)> {
        let mut done = self.records[..k].to_vec();
        done.sort_unstable();
        done.dedup();
        done
    }

    /// Where record `k` starts.
    fn start(&self, k: usize) -> usize {
        if k == 0 {
            self.header_end
        } else {
            self.ends[k - 1]
        }
    }
}

fn read_journal(plan: &Plan, bytes: &[u8]) -> Result<Replay, Refusal> {
    Replay::read(bytes, plan)
}

/// A journal of up to 30 records, each with a count its unit can have:
/// n = 8's mirror units all have weight 2, and none counts more than 92.
fn records() -> impl Strategy<Value = Vec<(u32, u128)>> {
    proptest::collection::vec((any::<u32>(), (0u128..=46).prop_map(|c| 2 * c)), 0..30)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Cut anywhere, with or without the zeros a writer sets aside after
    /// it: a torn header starts afresh; otherwise exactly the records
    /// before the cut, and the first torn line named.
    #[test]
    fn a_journal_cut_anywhere_reads_back_the_records_before_the_cut(
        records in records(),
        cut in any::<prop::sample::Index>(),
        zeros in 0usize..64,
    ) {
        let plan = plan();
        let journal = Journal::new(&plan, &records);
        let cut = cut.index(journal.bytes.len() + 1);
        let mut bytes = journal.bytes[..cut].to_vec();
        bytes.extend(std::iter::repeat_n(0, zeros));
        if cut == 0 && zeros > 0 {
            // Issue 20: nothing but zeros is no journal.
            prop_assert_eq!(read_journal(&plan, &bytes).unwrap_err(), Refusal::Zeros);
            return Ok(());
        }
        let replay = read_journal(&plan, &bytes).unwrap();
        if cut < journal.header_end {
            prop_assert!(replay.fresh && replay.done.is_empty() && replay.good_len == 0);
            return Ok(());
        }
        let whole = journal.ends.iter().filter(|&&end| end <= cut).count();
        prop_assert!(!replay.fresh);
        prop_assert_eq!(&replay.done, &journal.done(whole));
        prop_assert_eq!(replay.good_len, journal.start(whole));
        let torn = cut > journal.start(whole);
        prop_assert_eq!(replay.bad_line, torn.then_some(whole + 2));
    }

    /// One record damaged (a byte replaced, a carriage return before its
    /// line feed, a number of 100,000 digits, a count no unit can have or
    /// a unit the plan does not have, each with a checksum that fits): the
    /// journal is cut at that record, or, where the damage left the record
    /// saying the same (an upper-case checksum digit), read whole.
    #[test]
    fn a_damaged_record_cuts_the_journal_there(
        records in records().prop_filter("a record to damage", |r| !r.is_empty()),
        which in any::<prop::sample::Index>(),
        damage in 0..5,
        at in any::<prop::sample::Index>(),
        byte in 1u8..=255,
    ) {
        let plan = plan();
        let journal = Journal::new(&plan, &records);
        let k = which.index(journal.records.len());
        let (start, end) = (journal.start(k), journal.ends[k]);
        // A checksum that fits: the CRC-32 of the plan's hash and the body.
        let line = |body: &str| {
            let crc = crc32(format!("{} {body}", plan.hash()).as_bytes());
            format!("{body} {crc:08x}\n")
        };
        let damaged: Vec<u8> = match damage {
            0 => {
                let mut text = journal.bytes[start..end].to_vec();
                let i = at.index(text.len());
                prop_assume!(text[i] != byte);
                text[i] = byte;
                text
            }
            1 => {
                let mut text = journal.bytes[start..end - 1].to_vec();
                text.extend(b"\r\n");
                text
            }
            2 => line(&format!("{} {}", journal.records[k].0, huge_number())).into_bytes(),
            3 => {
                // See: issue 32. Odd, past n = 8's 92, or both.
                let count = [1, 93, 94, u128::from(u64::MAX), u128::MAX][at.index(5)];
                line(&format!("{} {count}", journal.records[k].0)).into_bytes()
            }
            _ => line(&format!("{} 7", plan.len() + at.index(1000))).into_bytes(),
        };
        let mut bytes = journal.bytes[..start].to_vec();
        bytes.extend(&damaged);
        bytes.extend(&journal.bytes[end..]);
        let replay = quickly("a damaged journal", || read_journal(&plan, &bytes)).unwrap();
        let cut_there = replay.done == journal.done(k)
            && replay.good_len == start
            && replay.bad_line == Some(k + 2);
        let same = replay.done == journal.done(journal.records.len())
            && replay.good_len == bytes.len()
            && replay.bad_line.is_none();
        prop_assert!(cut_there || (damage == 0 && same), "{:?}", replay);
    }

    /// A record written twice is a confirmation; the header twice is
    /// damage at line 2; a unit with two counts is refused.
    #[test]
    fn duplicated_lines_confirm_or_are_refused(
        records in records().prop_filter("a record to repeat", |r| !r.is_empty()),
        which in any::<prop::sample::Index>(),
    ) {
        let plan = plan();
        let journal = Journal::new(&plan, &records);
        let k = which.index(journal.records.len());
        let (start, end) = (journal.start(k), journal.ends[k]);
        let all = journal.done(journal.records.len());

        let mut twice = journal.bytes[..end].to_vec();
        twice.extend_from_slice(&journal.bytes[start..]);
        let replay = read_journal(&plan, &twice).unwrap();
        prop_assert_eq!(&replay.done, &all);
        prop_assert_eq!((replay.good_len, replay.bad_line), (twice.len(), None));

        let mut header_twice = journal.bytes[..journal.header_end].to_vec();
        header_twice.extend_from_slice(&journal.bytes);
        let replay = read_journal(&plan, &header_twice).unwrap();
        prop_assert!(replay.done.is_empty());
        prop_assert_eq!(
            (replay.good_len, replay.bad_line),
            (journal.header_end, Some(2))
        );

        let (id, count) = journal.records[k];
        let mut conflict = journal.bytes.clone();
        let header = Header::of(&plan);
        conflict.extend(header.record(id, (count + 2) % 94).as_bytes());
        let refused = matches!(read_journal(&plan, &conflict), Err(Refusal::Conflict { .. }));
        prop_assert!(refused, "a unit with two counts was not refused");
    }

    /// Random bytes, alone or after a good journal: an error, a fresh
    /// start, or the good records and nothing made up.
    #[test]
    fn random_bytes_never_panic_the_journal_reader(
        records in records(),
        garbage in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        let plan = plan();
        if let Ok(replay) = read_journal(&plan, &garbage) {
            prop_assert!(replay.fresh || replay.done.is_empty());
        }
        let journal = Journal::new(&plan, &records);
        let mut bytes = journal.bytes.clone();
        bytes.extend(&garbage);
        // A CRC-32 that fits random bytes is a 1 in 4 billion chance.
        let replay = read_journal(&plan, &bytes).unwrap();
        prop_assert_eq!(replay.done, journal.done(journal.records.len()));
        prop_assert!(replay.good_len >= journal.bytes.len());
    }
}

#[test]
fn records_carry_the_standard_crc32_of_their_plan_and_body() {
    let plan = plan();
    let header = Header::of(&plan);
    for (id, count) in [(0, 0), (17, 81_234_567), (u32::MAX, u128::MAX)] {
        let body = format!("{id} {count}");
        let bound = format!("{} {body}", plan.hash());
        assert_eq!(
            header.record(id, count),
            format!("{body} {:08x}\n", crc32(bound.as_bytes()))
        );
    }
}

// Shard results.

/// Every shard file of the run of `plan()` among `shards`, with the true
/// count of each unit, as bytes the CLI writes (JSON and a newline).
fn shard_files(shards: u32) -> Vec<(ShardFile, Vec<u8>)> {
    let plan = plan();
    let count = Counter::new(plan.n()).run_plan(&plan).unwrap();
    let owners = Assignment::for_engine(plan.engine())
        .owners(&plan, std::num::NonZeroU32::new(shards).unwrap());
    (0..shards)
        .map(|index| {
            let units: Vec<(u32, u128)> = count
                .unit_counts
                .iter()
                .copied()
                .filter(|&(id, _)| owners[id as usize] == index)
                .collect();
            let file = ShardFile::new(&plan, ShardId::new(index, shards).unwrap(), &units);
            let bytes = file.to_json();
            (file, bytes)
        })
        .collect()
}

/// The shard reader that `queens merge` and `queens verify` use once a
/// file is open. See: issue 32 (this fuzzed `serde_json::from_slice`).
fn parse_shard(bytes: &[u8]) -> Result<ShardFile, shard::NotAShard> {
    ShardFile::from_json(bytes)
}

/// Merges `files` as `queens merge` does once they are read: against
/// this build's plan for the run they name. `None` where it refuses to
/// build that plan (an engine it lacks, a board size out of range). A
/// damaged field names another board at worst (one byte of n = 8 or of
/// split 2 changed: n = 0..9, 80..89, split 0..9), whose plans are quick
/// to build; n = 4 billion is refused at once.
fn merged(files: &[ShardFile]) -> Option<shard::Merge> {
    let named: Vec<(String, ShardFile)> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (format!("file {i}"), f.clone()))
        .collect();
    shard::merge_files(&named, None)
        .ok()
        .flatten()
        .map(|(_, merge)| merge)
}

#[test]
fn shard_files_read_back_whole_and_cut_anywhere_are_refused() {
    for shards in [1, 2, 3] {
        let files = shard_files(shards);
        let parsed: Vec<ShardFile> = files.iter().map(|(_, b)| parse_shard(b).unwrap()).collect();
        for ((file, _), read) in files.iter().zip(&parsed) {
            assert_eq!(read, file);
        }
        let merge = merged(&parsed).unwrap();
        assert!(merge.is_complete(), "{merge:?}");
        assert_eq!(Some(merge.total), known::total(8));
        let bytes = &files[0].1;
        for cut in 0..bytes.len() {
            let read = parse_shard(&bytes[..cut]);
            if cut == bytes.len() - 1 {
                assert_eq!(read.unwrap(), files[0].0, "only the newline is cut");
            } else {
                assert!(read.is_err(), "cut at {cut} of {}", bytes.len());
            }
        }
    }
}

/// Numbers that say more than a file holds: a count of 100,000 digits,
/// 4 billion shards, a plan of 2^64 - 1 units, a board of 4 billion rows.
/// Each is refused quickly, by the parse or by the merge, and nothing is
/// allocated for what it claims.
#[test]
fn huge_numbers_in_a_shard_file_are_refused_quickly() {
    let (file, bytes) = shard_files(1).remove(0);
    let original = String::from_utf8(bytes).unwrap();
    let text = &original;
    let count = file.units[0].1.to_string();
    let huge = huge_number();
    let damaged = [
        text.replacen(&format!(",{count}]"), &format!(",{huge}]"), 1),
        text.replacen(
            &format!("\"total\":\"{}\"", file.total),
            &format!("\"total\":\"{huge}\""),
            1,
        ),
        text.replacen("\"shards\":1", "\"shards\":4294967295", 1),
        text.replacen("\"shards\":1", &format!("\"shards\":{huge}"), 1),
        text.replacen(
            "\"shard\":0,\"shards\":1",
            "\"shard\":4294967294,\"shards\":4294967295",
            1,
        ),
        text.replacen(
            "\"plan_units\":21",
            "\"plan_units\":18446744073709551615",
            1,
        ),
        text.replacen("\"n\":8", "\"n\":4294967295", 1),
        text.replacen("\"n\":8", &format!("\"n\":{huge}"), 1),
        text.replacen(
            "\"units\":[",
            &format!("\"units\":[{}", "[0,1],".repeat(100_000)),
            1,
        ),
    ];
    for (i, text) in damaged.iter().enumerate() {
        assert_ne!(*text, original, "case {i}: nothing replaced");
        let merge = quickly(&format!("case {i}"), || {
            parse_shard(text.as_bytes()).map(|file| merged(&[file]))
        });
        if let Ok(Some(merge)) = merge {
            assert!(!merge.is_complete(), "case {i}: {merge:?}");
        }
    }
}

/// A byte damaged anywhere in one shard file of a run.
#[derive(Clone, Debug)]
enum ShardDamage {
    Replace(prop::sample::Index, u8),
    CarriageReturn,
    LineTwice,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// One file of a run damaged: the parse refuses it, or the merge does,
    /// or the total is still the true one; never a wrong total.
    #[test]
    fn a_damaged_shard_file_never_gives_a_wrong_total(
        shards in 1u32..=3,
        which in any::<prop::sample::Index>(),
        damage in prop_oneof![
            (any::<prop::sample::Index>(), any::<u8>())
                .prop_map(|(at, byte)| ShardDamage::Replace(at, byte)),
            Just(ShardDamage::CarriageReturn),
            Just(ShardDamage::LineTwice),
        ],
    ) {
        let files = shard_files(shards);
        let k = which.index(files.len());
        let mut bytes = files[k].1.clone();
        match damage {
            ShardDamage::Replace(at, byte) => {
                let i = at.index(bytes.len());
                bytes[i] = byte;
            }
            ShardDamage::CarriageReturn => {
                bytes.insert(bytes.len() - 1, b'\r');
            }
            ShardDamage::LineTwice => bytes.extend(files[k].1.clone()),
        }
        let Ok(damaged) = parse_shard(&bytes) else {
            return Ok(());
        };
        if matches!(damage, ShardDamage::CarriageReturn) {
            // JSON allows a carriage return between values.
            prop_assert_eq!(&damaged, &files[k].0);
        }
        let mut set: Vec<ShardFile> = files.iter().map(|(f, _)| f.clone()).collect();
        set[k] = damaged;
        if let Some(merge) = merged(&set)
            && merge.is_complete()
        {
            prop_assert_eq!(Some(merge.total), known::total(8));
        }
    }

    #[test]
    fn random_bytes_never_panic_the_shard_reader(
        garbage in proptest::collection::vec(any::<u8>(), 0..300),
    ) {
        if let Ok(file) = parse_shard(&garbage) {
            let _ = merged(&[file]);
        }
    }
}

// Boards, as `queens check` reads them.

/// Up to `count` solutions of `n` written in `format`, with where each
/// board's text ends (its own line feed included, not the separator after
/// it).
fn written_boards(n: u32, format: Format, count: usize) -> (Vec<u8>, Vec<usize>) {
    let mut out = BoardWriter::new(Vec::new(), format);
    let mut ends = Vec::new();
    for cols in Solutions::new(n).unwrap().take(count) {
        out.write(n, cols).unwrap();
        ends.push(0);
    }
    let bytes = out.finish().unwrap();
    // The writer hides its buffer: find each end by writing the first k.
    for (k, end) in ends.iter_mut().enumerate() {
        let mut first = BoardWriter::new(Vec::new(), format);
        for cols in Solutions::new(n).unwrap().take(k + 1) {
            first.write(n, cols).unwrap();
        }
        *end = first.finish().unwrap().len() - format.closing().len();
    }
    (bytes, ends)
}

fn read_boards(bytes: &[u8]) -> Vec<Result<Checked, String>> {
    Boards::new(bytes)
        .take(bytes.len() + 2)
        .map(|r| r.map_err(|e| e.to_string()))
        .collect()
}

/// Whether the columns `cols` (0-based, one per row) are a solution:
/// every pair compared.
fn naive_solution(cols: &[i64]) -> bool {
    let n = cols.len() as i64;
    cols.iter().all(|&c| (0..n).contains(&c))
        && (0..cols.len()).all(|j| {
            (0..j).all(|i| cols[i] != cols[j] && (cols[i] - cols[j]).abs() != (j - i) as i64)
        })
}

/// The last board of a cut text, read the obvious way (the columns and
/// board formats only: a cut JSON board is never whole).
fn naive_last_board(text: &str, format: Format) -> Vec<i64> {
    match format {
        Format::Columns => text
            .lines()
            .next_back()
            .unwrap_or_default()
            .split_whitespace()
            .map(|c| c.parse::<i64>().unwrap() - 1)
            .collect(),
        _ => text
            .trim_end_matches('\n')
            .rsplit("\n\n")
            .next()
            .unwrap_or_default()
            .lines()
            .map(|row| {
                let cells: Vec<char> = row.chars().filter(|&c| c != ' ').collect();
                cells
                    .iter()
                    .position(|&c| c == 'Q')
                    .map_or(-1, |c| c as i64)
            })
            .collect(),
    }
}

fn board_format() -> impl Strategy<Value = Format> {
    (0..Format::ALL.len()).prop_map(|i| Format::ALL[i])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Boards cut anywhere: every board wholly before the cut is reported
    /// as written (a solution, its index, its size); then at most one more
    /// result, an error or a board whose verdict is right for what the cut
    /// left of it.
    #[test]
    fn boards_cut_anywhere_report_the_boards_before_the_cut(
        n in prop::sample::select(vec![4u32, 5, 6, 8]),
        format in board_format(),
        count in 1usize..6,
        cut in any::<prop::sample::Index>(),
    ) {
        let (bytes, ends) = written_boards(n, format, count);
        let cut = cut.index(bytes.len() + 1);
        let results = read_boards(&bytes[..cut]);
        let whole = ends.iter().filter(|&&end| end <= cut).count();
        prop_assert!(results.len() <= whole + 1, "{:?}", results);
        for (i, result) in results.iter().take(whole).enumerate() {
            let board = result.as_ref().unwrap();
            prop_assert_eq!((board.index, board.n, board.conflict), (i as u64 + 1, n, None));
        }
        if let Some(Ok(last)) = results.get(whole) {
            prop_assert_eq!(last.index, whole as u64 + 1);
            // A cut that leaves a row without a queen is no solution, as
            // two queens that clash are. See: issue 37.
            let original = last.n == n && last.is_solution();
            if !original {
                let text = std::str::from_utf8(&bytes[..cut]).unwrap();
                let cols = naive_last_board(text, format);
                prop_assert!(matches!(format, Format::Columns | Format::Board | Format::Spaced));
                prop_assert_eq!(last.n as usize, cols.len());
                prop_assert_eq!(last.is_solution(), naive_solution(&cols), "{:?}", cols);
            }
        }
        if cut == bytes.len() {
            prop_assert_eq!(results.len(), count.min(ends.len()));
        }
    }

    /// Line ends written as CR LF read exactly as LF; a line written twice
    /// (JSON lines and columns, a board a line) is one board more.
    #[test]
    fn crlf_and_repeated_lines_read_as_what_they_say(
        n in prop::sample::select(vec![4u32, 5, 6, 8]),
        format in board_format(),
        count in 1usize..6,
        which in any::<prop::sample::Index>(),
    ) {
        let (bytes, _) = written_boards(n, format, count);
        let results = read_boards(&bytes);
        let crlf: Vec<u8> = bytes
            .iter()
            .flat_map(|&b| if b == b'\n' { vec![b'\r', b'\n'] } else { vec![b] })
            .collect();
        prop_assert_eq!(read_boards(&crlf), results.clone());

        if matches!(format, Format::Columns | Format::Jsonl) {
            let text = std::str::from_utf8(&bytes).unwrap();
            let mut lines: Vec<&str> = text.lines().collect();
            let k = which.index(lines.len());
            lines.insert(k, lines[k]);
            let twice = lines.join("\n") + "\n";
            let again = read_boards(twice.as_bytes());
            prop_assert_eq!(again.len(), results.len() + 1);
            for (i, board) in again.iter().enumerate() {
                let board = board.as_ref().unwrap();
                prop_assert_eq!((board.index, board.line), (i as u64 + 1, i as u64 + 1));
                prop_assert_eq!((board.n, board.conflict), (n, None));
            }
        }
    }
}

/// A number of 100,000 digits wherever a format has one, and numbers that
/// claim a board of a billion rows in a few bytes: refused quickly.
#[test]
fn huge_numbers_in_boards_are_refused_quickly() {
    let huge = huge_number();
    let inputs = [
        format!("2 4 {huge} 3\n"),
        format!("{huge}\n"),
        format!("{{\"n\":{huge},\"cols\":[1,3,0,2]}}\n"),
        format!("{{\"n\":4,\"cols\":[1,{huge},0,2]}}\n"),
        format!("{{\"cols\":[1,{huge},0,2],\"n\":4}}\n"),
        "999999999\n".to_owned(),
        "2 999999999 1\n".to_owned(),
        "{\"cols\":[999999999],\"n\":1}\n".to_owned(),
        format!("{}\n", "Q".repeat(100_000)),
    ];
    for input in &inputs {
        let results = quickly(&input[..input.len().min(40)], || {
            read_boards(input.as_bytes())
        });
        let last = results.last().unwrap();
        assert!(
            last.is_err(),
            "{:?}: {last:?}",
            &input[..input.len().min(40)]
        );
    }
}
