//! What a person at a terminal of 80 columns reads: help and reports
//! folded between words to its width, never broken mid-word by the
//! terminal; and the same words as in a pipe, where the reports are left
//! one record a line.
//! See: issue 47, item 11 ("RAYON_NUM_" / "THREADS" in `--help`) and
//! item 16 (table rows over 80 columns wrapped mid-word).
#![cfg(target_os = "linux")]

use crate::common::cli::{queens, stdout};
use crate::common::terminal::{COLUMNS, in_terminal, lines_and_breaks};

/// `queens ARGS` at an 80-column terminal: what it shows, after checking
/// that the terminal broke no line of it.
fn shown(args: &[&str]) -> String {
    let session = in_terminal(args, None);
    let text = String::from_utf8_lossy(&session.bytes);
    assert!(session.status.success(), "{args:?}: {text}");
    let lines = lines_and_breaks(&session.bytes);
    for (line, broken) in &lines {
        assert!(
            !broken,
            "{args:?}: a line longer than {COLUMNS} columns, broken by the terminal at {line:?}"
        );
    }
    let lines: Vec<String> = lines.into_iter().map(|(line, _)| line).collect();
    lines.join("\n")
}

/// `text` without its whitespace: what folding must not change.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect()
}

#[test]
fn help_is_folded_between_words_to_the_terminal() {
    let (subcommands, _) = crate::common::cli::subcommands();
    let mut pages = vec![vec!["--help"], vec!["-h"]];
    pages.extend(subcommands.iter().map(|sub| vec![sub.as_str(), "--help"]));
    for args in pages {
        let seen = shown(&args);
        let piped = stdout(&queens(&args).success());
        assert_eq!(squeezed(&seen), squeezed(&piped), "{args:?}");
    }
    assert!(shown(&["count", "--help"]).contains("RAYON_NUM_THREADS"));
}

#[test]
fn reports_are_folded_between_words_to_the_terminal_and_not_in_a_pipe() {
    // A problem's rows, one word of 155 characters, and a plan hash.
    let args = ["plan", "12", "--given", "1:2"];
    let seen = shown(&args);
    let piped = stdout(&queens(&args).success());
    assert_eq!(squeezed(&seen), squeezed(&piped));
    assert!(
        piped.lines().any(|line| line.chars().count() > 150),
        "a pipe gets the problem on one line: {piped}"
    );
    // Tables whose rows would not fit: their cells and words all there.
    for args in [
        &["count", "8..9", "--unique"][..],
        &["ladder", "8"],
        &["estimate", "12", "--seed", "1"],
    ] {
        let seen = shown(args);
        for word in ["ok", "8-member", "solutions", "seed"] {
            if stdout(&queens(args).success()).contains(word) {
                assert!(seen.contains(word), "{args:?}: no {word:?} in\n{seen}");
            }
        }
    }
}
