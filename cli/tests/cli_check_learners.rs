//! `queens check` reads what learners write (issue 37): Python's printed
//! lists, commas, lists of columns, 0/1 matrices, `_` or `-` for an empty
//! square, a lowercase `q`, `#` comment lines, columns from 0; and a row
//! without a queen, or with two, is no solution (exit 1), named, and the
//! next board is checked. One test per way of writing a board.

use crate::common;

use common::cli::{one_error_line, queens_with_input};

fn check(input: &str) -> assert_cmd::assert::Assert {
    queens_with_input(&["check"], input)
}

const OK: &str = "board 1: ok\n";
const TWO_OK: &str = "board 1: ok\nboard 2: ok\n";

#[test]
fn pythons_printed_list_of_row_strings_with_single_quotes() {
    // print(solveNQueens(4)), and one board alone: print(board).
    check("[['.Q..', '...Q', 'Q...', '..Q.'], ['..Q.', 'Q...', '...Q', '.Q..']]\n")
        .success()
        .stdout(TWO_OK);
    check("['.Q..', '...Q', 'Q...', '..Q.']\n['..Q.', 'Q...', '...Q', '.Q..']\n")
        .success()
        .stdout(TWO_OK);
    check("[['.Q..', '...Q', 'Q...', '.Q..']]\n")
        .code(1)
        .stdout("board 1: queens at (row 1, col 2) and (row 4, col 2) share a column\n");
}

#[test]
fn columns_separated_by_commas() {
    check("2,4,1,3\n3, 1, 4, 2\n").success().stdout(TWO_OK);
    one_error_line(
        check("2,4,1,3,\n"),
        2,
        &["line 1: a line of column numbers ends with ','"],
    );
}

#[test]
fn a_list_of_columns_as_python_prints_it() {
    check("[1, 3, 0, 2]\n").success().stdout(OK);
    // list(queens.solutions(4)): tuples in a list.
    check("[(1, 3, 0, 2), (2, 0, 3, 1)]\n")
        .success()
        .stdout(TWO_OK);
    check("[[2, 4, 1, 3], [1, 2, 3, 4]]\n").code(1).stdout(
        "board 1: ok\nboard 2: queens at (row 1, col 1) and (row 2, col 2) share a diagonal\n",
    );
}

#[test]
fn columns_from_0_are_detected_where_a_line_holds_a_0() {
    // No line that counts from 1 can hold a 0; one without a 0 counts from 1.
    check("1 3 0 2\n2 4 1 3\n").success().stdout(TWO_OK);
    one_error_line(
        check("1 3 0 4\n"),
        2,
        &["column 4 is off a board of 4 rows"],
    );
}

#[test]
fn zero_based_counts_every_line_from_0() {
    queens_with_input(&["check", "--zero-based"], "1 3 0 2\n2 0 3 1\n")
        .success()
        .stdout(TWO_OK);
    // 1 3 3 2 has no 0: from 1 without the flag (rows 2 and 3 share
    // column 3), from 0 with it (the same clash, in column 4).
    check("1 3 3 2\n")
        .code(1)
        .stdout("board 1: queens at (row 2, col 3) and (row 3, col 3) share a column\n");
    queens_with_input(&["check", "--zero-based"], "1 3 3 2\n")
        .code(1)
        .stdout("board 1: queens at (row 2, col 4) and (row 3, col 4) share a column\n");
    one_error_line(
        queens_with_input(&["check", "--zero-based"], "2 4 1 3\n"),
        2,
        &["column 4 is off a board of 4 rows: counted from 0"],
    );
}

#[test]
fn a_0_1_matrix_of_digits() {
    check("0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n")
        .success()
        .stdout(OK);
    check("0100\n0001\n1000\n0010\n\n0010\n1000\n0001\n0100\n")
        .success()
        .stdout(TWO_OK);
    check("0,1,0,0\n0,0,0,1\n1,0,0,0\n0,0,1,0\n")
        .success()
        .stdout(OK);
}

#[test]
fn a_0_1_matrix_as_python_and_numpy_print_it() {
    check("[[0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 1, 0]]\n")
        .success()
        .stdout(OK);
    check("[[0 1 0 0]\n [0 0 0 1]\n [1 0 0 0]\n [0 0 1 0]]\n")
        .success()
        .stdout(OK);
    check("[[[0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 1, 0]], [[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 1, 0, 0]]]\n")
        .success()
        .stdout(TWO_OK);
}

#[test]
fn underscores_and_dashes_for_empty_squares() {
    check("_Q__\n___Q\nQ___\n__Q_\n\n--Q-\nQ---\n---Q\n-Q--\n")
        .success()
        .stdout(TWO_OK);
    check("_ Q _ _\n_ _ _ Q\nQ _ _ _\n_ _ Q _\n")
        .success()
        .stdout(OK);
}

#[test]
fn a_lowercase_q_is_a_queen() {
    check(".q..\n...q\nq...\n..Q.\n").success().stdout(OK);
}

#[test]
fn comment_lines_are_skipped() {
    check("# n = 4, both solutions\n2 4 1 3\n  # the mirror image\n3 1 4 2\n")
        .success()
        .stdout(TWO_OK);
    check("# a board\n.Q..\n...Q\n# half way\nQ...\n..Q.\n")
        .success()
        .stdout(OK);
    // A `#` after a board's text is not a comment: refused where it is.
    one_error_line(check("2 4 1 3 # n = 4\n"), 2, &["line 1: unexpected '#'"]);
}

#[test]
fn a_box_drawn_board_as_the_unicode_format_draws_it() {
    let board = "┌───┬───┐\n│ ♛ │   │\n├───┼───┤\n│   │ ♛ │\n└───┴───┘\n";
    check(board)
        .code(1)
        .stdout("board 1: queens at (row 1, col 1) and (row 2, col 2) share a diagonal\n");
    let four =
        common::cli::stdout(&common::cli::queens(&["list", "4", "--format", "unicode"]).success());
    check(&four).success().stdout(TWO_OK);
}

/// See: issue 37 (a board missing a queen was malformed input, exit 2,
/// and checking stopped there).
#[test]
fn a_row_without_a_queen_is_no_solution_and_checking_goes_on() {
    check(".Q..\n....\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n")
        .code(1)
        .stdout("board 1: row 2 has no queen\nboard 2: ok\n")
        .stderr("");
    // Two in a row: the first two queens that clash, in that row.
    check("QQ..\n...Q\n....\n..Q.\n")
        .code(1)
        .stdout("board 1: queens at (row 1, col 1) and (row 1, col 2) share a row\n");
    check("0 1 0 0\n0 0 0 0\n1 0 0 0\n0 0 1 0\n")
        .code(1)
        .stdout("board 1: row 2 has no queen\n");
    // Whichever comes first from the top.
    check("Q...\n.Q..\n....\n..Q.\n")
        .code(1)
        .stdout("board 1: queens at (row 1, col 1) and (row 2, col 2) share a diagonal\n");
    check("....\nQ...\n..Q.\n....\n")
        .code(1)
        .stdout("board 1: row 1 has no queen\n");
    queens_with_input(&["check", "-q"], "....\n....\n....\n....\n")
        .code(1)
        .stdout("");
}

/// Notepad saves UTF-8 with a byte order mark first: it is not content,
/// for the boards `check` reads nor for the partial board of `--board`.
/// See: issue 47, item 16.
#[test]
fn a_byte_order_mark_at_the_start_is_skipped() {
    check("\u{feff}2 4 1 3\r\n3 1 4 2\r\n")
        .success()
        .stdout(TWO_OK);
    check("\u{feff}.Q..\r\n...Q\r\nQ...\r\n..Q.\r\n")
        .success()
        .stdout(OK);
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("board.txt");
    std::fs::write(&board, "\u{feff}.Q..\r\n....\r\n....\r\n....\r\n").unwrap();
    let board = board.to_str().unwrap();
    queens_with_input(&["check", "--board", board], "2 4 1 3\n")
        .success()
        .stdout(OK);
    common::cli::queens(&["count", "4", "--board", board, "-q"])
        .success()
        .stdout("1\n");
}
