//! Boards as pictures from the command line (issue 37): `--format unicode`
//! and `--format svg` for `list` and `one`, `check --svg FILE`; a sheet's
//! cap refused in one line that names `--limit`.

use crate::common;

use common::cli::{one_error_line, queens, queens_with_input, stdout};

/// Whether `svg` is one well-formed `<svg>` element: every tag closed in
/// order, nothing after the root (a naive walk over the tags: the pictures
/// hold no comments, CDATA or `>` in attributes).
fn well_formed(svg: &str) -> bool {
    let mut open: Vec<&str> = Vec::new();
    let mut roots = 0;
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let Some(len) = rest[start..].find('>') else {
            return false;
        };
        let tag = &rest[start + 1..start + len];
        rest = &rest[start + len + 1..];
        if let Some(closing) = tag.strip_prefix('/') {
            if open.pop() != Some(closing) {
                return false;
            }
        } else if !tag.ends_with('/') {
            if open.is_empty() {
                roots += 1;
            }
            open.push(tag.split_whitespace().next().unwrap_or(""));
        } else if open.is_empty() {
            return false;
        }
    }
    open.is_empty() && roots == 1 && svg.starts_with("<svg ") && svg.ends_with("</svg>\n")
}

fn queens_drawn(svg: &str) -> usize {
    svg.matches("<use href=\"#queen\"").count()
}

#[test]
fn one_board_is_one_picture_without_a_caption() {
    let svg = stdout(&queens(&["one", "8", "--format", "svg"]).success());
    assert!(well_formed(&svg), "{svg}");
    assert_eq!(queens_drawn(&svg), 8);
    assert!(!svg.contains("<text"));
    // With constraints, the completion found.
    let svg = stdout(&queens(&["one", "6", "--given", "1:2", "--format", "svg"]).success());
    assert!(well_formed(&svg) && queens_drawn(&svg) == 6);
    one_error_line(
        queens(&["one", "1001", "--format", "svg"]),
        2,
        &["--format svg draws all n x n squares and is limited to n <= 1000"],
    );
}

#[test]
fn a_listing_is_one_sheet_captioned_with_the_columns() {
    let svg = stdout(&queens(&["list", "6", "--format", "svg"]).success());
    assert!(well_formed(&svg), "{svg}");
    assert_eq!(queens_drawn(&svg), 4 * 6);
    for columns in ["2 4 6 1 3 5", "3 6 2 5 1 4", "4 1 5 2 6 3", "5 3 1 6 4 2"] {
        assert!(svg.contains(&format!(">{columns}</text>")), "{columns}");
    }
    let unique = stdout(&queens(&["list", "8", "--unique", "--format", "svg"]).success());
    assert_eq!(queens_drawn(&unique), 12 * 8);
    let given = stdout(&queens(&["list", "8", "--given", "1:1", "--format", "svg"]).success());
    assert_eq!(queens_drawn(&given), 4 * 8);
}

#[test]
fn a_sheet_holds_100_boards_and_more_is_refused_naming_limit() {
    // n = 9 has 352 solutions: refused before anything is written.
    one_error_line(
        queens(&["list", "9", "--format", "svg"]).stdout(""),
        2,
        &["draws at most 100 boards on one sheet", "--limit K"],
    );
    one_error_line(
        queens(&["list", "8", "--format", "svg", "--limit", "101"]).stdout(""),
        2,
        &["--limit 101 asks for more"],
    );
    let svg = stdout(&queens(&["list", "9", "--format", "svg", "--limit", "5"]).success());
    assert_eq!(queens_drawn(&svg), 5 * 9);
    let svg = stdout(&queens(&["list", "12", "--format", "svg", "--limit", "100"]).success());
    assert_eq!(queens_drawn(&svg), 100 * 12);
    // 92 boards fit; none is no picture, as for the text formats.
    let svg = stdout(&queens(&["list", "8", "--format", "svg"]).success());
    assert_eq!(queens_drawn(&svg), 92 * 8);
    one_error_line(
        queens(&["list", "3", "--format", "svg"]).stdout(""),
        0,
        &["there is no solution for n = 3"],
    );
}

#[test]
fn unicode_draws_boxes_a_blank_line_between_boards() {
    let text = stdout(&queens(&["list", "4", "--format", "unicode"]).success());
    let first = "┌───┬───┬───┬───┐\n│   │ ♛ │   │   │\n├───┼───┼───┼───┤\n│   │   │   │ ♛ │\n\
                 ├───┼───┼───┼───┤\n│ ♛ │   │   │   │\n├───┼───┼───┼───┤\n│   │   │ ♛ │   │\n\
                 └───┴───┴───┴───┘\n";
    assert!(text.starts_with(&format!("{first}\n┌")), "{text}");
    assert_eq!(text.matches('♛').count(), 8);
    let one = stdout(&queens(&["one", "5", "--format", "unicode"]).success());
    queens_with_input(&["check"], one)
        .success()
        .stdout("board 1: ok\n");
    one_error_line(
        queens(&["one", "1001", "--format", "unicode"]),
        2,
        &["--format unicode draws all n x n squares"],
    );
}

#[test]
fn check_draws_every_board_with_its_fault_marked() {
    let dir = tempfile::tempdir().unwrap();
    let picture = dir.path().join("boards.svg");
    let path = picture.to_str().unwrap();
    let boards = "2 4 1 3\n2 5 3 6 4 1 7 8\n";
    queens_with_input(&["check", "--svg", path], boards)
        .code(1)
        .stdout(
            "board 1: ok\nboard 2: queens at (row 2, col 5) and (row 6, col 1) share a diagonal\n",
        )
        .stderr("");
    let svg = std::fs::read_to_string(&picture).unwrap();
    assert!(well_formed(&svg), "{svg}");
    assert_eq!(queens_drawn(&svg), 12);
    assert!(svg.contains(">board 2</text>") && svg.contains(">ok</text>"));
    assert!(svg.contains(">queens at (row 2, col 5) and (row 6, col 1) share a diagonal</text>"));
    // The two queens in red, and their line twice: across, and between them.
    assert_eq!(svg.matches("fill=\"#d92d20\" stroke=").count(), 2);
    assert_eq!(svg.matches("<line ").count(), 2);

    // A row without a queen, shaded; a row with two, drawn as read.
    queens_with_input(
        &["check", "--svg", path],
        ".Q...\n.....\nQ....\n...Q.\n.Q..Q\n",
    )
    .code(1)
    .stdout("board 1: row 2 has no queen\n");
    let svg = std::fs::read_to_string(&picture).unwrap();
    assert_eq!(queens_drawn(&svg), 5);
    assert!(svg.contains("stroke-dasharray=\"6 4\""));

    // Malformed input: the boards before it drawn, exit 2.
    one_error_line(
        queens_with_input(&["check", "--svg", path], "2 4 1 3\n2 x\n"),
        2,
        &["line 2: unexpected 'x'"],
    );
    assert_eq!(queens_drawn(&std::fs::read_to_string(&picture).unwrap()), 4);

    // No board: no picture, said.
    let empty = dir.path().join("empty.svg");
    one_error_line(
        queens_with_input(&["check", "--svg", empty.to_str().unwrap()], "[]\n"),
        0,
        &["0 boards checked", "empty.svg is not written"],
    );
    assert!(!empty.exists());
    let large = stdout(&queens(&["one", "1001", "--format", "columns"]).success());
    one_error_line(
        queens_with_input(&["check", "--svg", empty.to_str().unwrap()], large)
            .stdout("board 1: ok\n"),
        0,
        &["empty.svg is not written: no board of at most 1000 rows to draw"],
    );
    assert!(!empty.exists());
}

#[test]
fn check_draws_the_first_100_boards_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let picture = dir.path().join("all.svg");
    let all = stdout(&queens(&["list", "9", "--format", "columns"]).success());
    let err = one_error_line(
        queens_with_input(&["check", "--svg", picture.to_str().unwrap()], all)
            .stdout(predicates::str::contains("board 352: ok")),
        0,
        &["shows 100 boards; 252 more checked are not drawn"],
    );
    assert!(err.contains("all.svg"), "{err}");
    assert_eq!(
        queens_drawn(&std::fs::read_to_string(&picture).unwrap()),
        900
    );
}

#[test]
fn check_never_draws_over_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("boards.txt");
    std::fs::write(&input, "2 4 1 3\n").unwrap();
    let path = input.to_str().unwrap();
    one_error_line(
        queens(&["check", path, "--svg", path]),
        2,
        &["--svg", "is the file of boards this command reads"],
    );
    assert_eq!(std::fs::read_to_string(&input).unwrap(), "2 4 1 3\n");
}
