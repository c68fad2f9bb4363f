//! The checker: its verdicts against an O(n^2) pairwise check, and fuzzing
//! (by proptest) over random bytes and mutated boards: whatever the input,
//! the reader never panics, always ends, and reports each board or an
//! error.

use proptest::prelude::*;
use queens::{BoardWriter, Format, Solutions};
use queens::{Boards, ReadError};
use queens::{Error, Line, Queen, first_conflict, first_conflict_in_columns, first_fault};

/// The first queen in row order attacked by an earlier one, by comparing
/// every pair: obviously right, O(n^2).
fn naive_first_attacked(cols: &[u32]) -> Option<(usize, usize)> {
    (0..cols.len()).find_map(|j| {
        (0..j)
            .find(|&i| {
                let (a, b) = (i64::from(cols[i]), i64::from(cols[j]));
                a == b || (a - b).abs() == (j - i) as i64
            })
            .map(|i| (i, j))
    })
}

/// Reads everything, checking that it ends and that an error ends it.
fn read_all(input: &[u8]) -> Vec<Result<queens::Checked, String>> {
    let results: Vec<_> = Boards::new(input)
        .take(input.len() + 2)
        .map(|r| r.map_err(|e| e.to_string()))
        .collect();
    assert!(results.len() <= input.len() + 1, "the reader did not end");
    if let Some(i) = results.iter().position(Result::is_err) {
        assert_eq!(i, results.len() - 1, "results after an error");
    }
    for r in &results {
        if let Err(e) = r {
            assert!(!e.contains('\n'), "a message of several lines: {e:?}");
        }
    }
    results
}

fn rendered(n: u32, format: Format, boards: usize) -> Vec<u8> {
    let mut out = BoardWriter::new(Vec::new(), format);
    for b in Solutions::new(n).unwrap().take(boards) {
        out.write(n, b).unwrap();
    }
    out.finish().unwrap()
}

fn format() -> impl Strategy<Value = Format> {
    (0..Format::ALL.len()).prop_map(|i| Format::ALL[i])
}

/// One edit of a byte string: flip, delete, insert, truncate or repeat a
/// piece, at a position taken modulo the length.
#[derive(Clone, Debug)]
enum Mutation {
    Replace(usize, u8),
    Delete(usize),
    Insert(usize, u8),
    Truncate(usize),
    Repeat(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let byte = prop_oneof![
        Just(b'Q'),
        Just(b'.'),
        Just(b' '),
        Just(b'\n'),
        Just(b','),
        Just(b'['),
        Just(b']'),
        Just(b'"'),
        Just(b'0'),
        Just(b'9'),
        any::<u8>()
    ];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Mutation::Replace(i, b)),
        any::<usize>().prop_map(Mutation::Delete),
        (any::<usize>(), byte).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), 1usize..40).prop_map(|(i, k)| Mutation::Repeat(i, k)),
    ]
}

fn mutate(text: &mut Vec<u8>, m: &Mutation) {
    let len = text.len().max(1);
    match *m {
        Mutation::Replace(i, b) if !text.is_empty() => text[i % len] = b,
        Mutation::Delete(i) if !text.is_empty() => {
            text.remove(i % len);
        }
        Mutation::Insert(i, b) => text.insert(i % (text.len() + 1), b),
        Mutation::Truncate(i) => text.truncate(i % len),
        Mutation::Repeat(i, k) if !text.is_empty() => {
            let start = i % len;
            let piece: Vec<u8> = text[start..(start + k).min(text.len())].to_vec();
            text.splice(start..start, piece);
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    #[test]
    fn random_bytes_never_panic(input in proptest::collection::vec(any::<u8>(), 0..300)) {
        read_all(&input);
    }

    #[test]
    fn random_text_of_board_characters_never_panics(
        input in proptest::collection::vec(
            prop_oneof![Just(b'Q'), Just(b'.'), Just(b' '), Just(b'\n'), Just(b'1'), Just(b'3'),
                        Just(b'['), Just(b']'), Just(b'"'), Just(b','), Just(b'{'), Just(b'}'), Just(b':')],
            0..200)
    ) {
        read_all(&input);
    }

    #[test]
    fn mutated_boards_never_panic(
        n in 1u32..=7,
        format in format(),
        mutations in proptest::collection::vec(mutation(), 1..4),
    ) {
        let mut text = rendered(n, format, 3);
        for m in &mutations {
            mutate(&mut text, m);
        }
        for result in read_all(&text).into_iter().flatten() {
            // Whatever was read is a board of the size it claims, and a
            // conflict names two queens on it.
            if let Some(c) = result.conflict {
                prop_assert!(c.first.row < result.n && c.second.col < result.n);
                prop_assert!(c.line.joins(c.first, c.second));
            }
        }
    }

    #[test]
    fn verdicts_match_the_pairwise_check(cols in (1usize..=12).prop_flat_map(|n| proptest::collection::vec(0..n as u32, n))) {
        let got = first_conflict_in_columns(&cols).unwrap();
        let want = naive_first_attacked(&cols);
        match (got, want) {
            (None, None) => {}
            (Some(c), Some((_, j))) => {
                prop_assert_eq!(c.second.row as usize, j, "the first attacked queen");
                prop_assert_eq!(c.second.col, cols[j]);
                prop_assert!(c.first.row < c.second.row);
                prop_assert_eq!(c.first.col, cols[c.first.row as usize]);
                prop_assert!(c.line.joins(c.first, c.second));
            }
            (got, want) => prop_assert!(false, "checker {:?}, pairwise {:?}", got, want),
        }
        // The same board through the columns format.
        let line: Vec<String> = cols.iter().map(|c| (c + 1).to_string()).collect();
        let text = line.join(" ") + "\n";
        let read = Boards::new(text.as_bytes()).next().unwrap().unwrap();
        prop_assert_eq!(read.conflict, got);
    }
}

#[test]
fn the_message_names_both_queens_from_1() {
    // .Q.... / ...... : rows 2 and 6 share a diagonal, columns 5 and 1.
    let q = |row, col| Queen { row, col };
    let clash = first_conflict(8, [q(1, 4), q(5, 0)]).unwrap().unwrap();
    assert_eq!(clash.line, Line::AntiDiagonal);
    assert_eq!(
        clash.to_string(),
        "queens at (row 2, col 5) and (row 6, col 1) share a diagonal"
    );
}

#[test]
fn a_huge_board_streams_through_the_reader() {
    let n = 1_000_000;
    let mut text = Vec::new();
    let mut out = BoardWriter::new(&mut text, Format::Columns);
    out.write(n, queens::Construction::new(n).unwrap()).unwrap();
    out.finish().unwrap();
    let read: Vec<_> = Boards::new(text.as_slice()).collect();
    assert_eq!(read.len(), 1);
    let board = read[0].as_ref().unwrap();
    assert_eq!((board.n, board.conflict), (n, None));
}

#[test]
fn empty_inputs_are_errors() {
    for input in ["", "\n\n", "   \n", "[]", " [ ] \n"] {
        let results: Vec<_> = Boards::new(input.as_bytes()).collect();
        assert!(
            matches!(results[..], [Err(ReadError::Empty)]),
            "{input:?}: {results:?}"
        );
    }
}

/// A column: mostly on a small board, sometimes anywhere a `u32` reaches.
fn any_col() -> impl Strategy<Value = u32> {
    prop_oneof![4 => 0u32..12, 1 => any::<u32>()]
}

// Issue 47, item 9: the library's public check and write functions take
// any input and answer it, an error for a queen off the board, never a
// panic (`first_conflict_in_columns(&[5, 0])` panicked).
proptest! {
    #[test]
    fn any_columns_are_checked_or_refused(cols in proptest::collection::vec(any_col(), 0..12)) {
        let n = cols.len() as u32;
        let off = cols.iter().position(|&c| c >= n);
        match (first_conflict_in_columns(&cols), off) {
            (Ok(got), None) => prop_assert_eq!(got.map(|c| c.second.row as usize), naive_first_attacked(&cols).map(|(_, j)| j)),
            (Err(Error::OffBoard { row, col, n: size, .. }), Some(at)) => {
                prop_assert_eq!((row as usize, col, size), (at, cols[at], n));
            }
            (got, off) => prop_assert!(false, "{:?} for {:?}, first off the board {:?}", got, cols, off),
        }
        for format in Format::ALL {
            let mut out = BoardWriter::new(Vec::new(), format);
            let written = out.write(n, cols.iter().copied());
            prop_assert_eq!(written.is_err(), off.is_some(), "{:?} {:?}", format, cols);
            if let Err(e) = written {
                prop_assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
                prop_assert!(e.to_string().contains("is off the board"), "{}", e);
            }
        }
    }

    #[test]
    fn any_queens_are_checked_or_refused(
        n in prop_oneof![0u32..10, Just(1 << 16)],
        queens in proptest::collection::vec((any_col(), any_col()), 0..12),
    ) {
        let queens: Vec<Queen> = queens.into_iter().map(|(row, col)| Queen { row, col }).collect();
        let off = queens.iter().any(|q| q.row >= n || q.col >= n);
        prop_assert_eq!(first_conflict(n, queens.iter().copied()).is_err(), off);
        prop_assert_eq!(first_fault(n, queens.iter().copied()).is_err(), off);
    }
}
