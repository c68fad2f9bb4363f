//! The progress bar of `count` as a person at a terminal sees it: run in
//! a pseudo-terminal of 80 columns (util-linux's `script`), its screen
//! read back through a terminal emulator (vt100). The bar fits the line,
//! Ctrl-C typed at the keyboard (echoed as `^C`) leaves nothing of it on
//! the screen, and a resumed count starts from its journal's units.
//! See: issue 35.
#![cfg(target_os = "linux")]

use crate::common::terminal::{COLUMNS, contains, in_terminal, screen};

#[test]
fn the_bar_fits_80_columns_and_ctrl_c_leaves_nothing_of_it() {
    let session = in_terminal(&["count", "18"], Some(" units"));
    assert_eq!(
        session.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&session.bytes)
    );
    // The screen as the `^C` arrived: one line of bar, with the echo's room.
    let echo = (session.bytes.windows(2))
        .position(|w| w == b"^C")
        .expect("the terminal echoes Ctrl-C");
    let (rows, _) = screen(&session.bytes[..echo]);
    let bars: Vec<&String> = rows.iter().filter(|r| !r.is_empty()).collect();
    assert_eq!(bars.len(), 1, "{rows:#?}");
    assert!(
        bars[0].starts_with("n = 18 ") && bars[0].contains(" units"),
        "{rows:#?}"
    );
    let width = bars[0].chars().count();
    assert!(
        width <= usize::from(COLUMNS) - 3,
        "{width} columns: {:?}",
        bars[0]
    );
    // The screen at the end: the last words and nothing of the bar.
    let (rows, text) = screen(&session.bytes);
    assert!(text.starts_with("interrupted: "), "{rows:#?}");
    assert!(
        !rows.iter().any(|r| r.contains("n = 18") || r.contains('░')),
        "{rows:#?}"
    );
}

#[test]
fn a_resumed_count_starts_from_its_journals_units() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let journal = journal.to_str().unwrap();
    let args = ["count", "15", "--checkpoint", journal];
    crate::common::cli::killed_after(40, &args);
    let session = in_terminal(&args, None);
    assert!(
        session.status.success(),
        "{}",
        String::from_utf8_lossy(&session.bytes)
    );
    // Its first frame counts the journal's units as done.
    assert!(
        contains(&session.bytes, " 40/12,902 units"),
        "{}",
        String::from_utf8_lossy(&session.bytes)
    );
    let (rows, text) = screen(&session.bytes);
    let said = format!("queens: resumed 40 units from {journal}; ");
    assert!(text.starts_with(&said), "{rows:#?}");
    assert!(
        text.lines()
            .next()
            .unwrap()
            .ends_with("% of n = 15 is done"),
        "{rows:#?}"
    );
    // The row may be folded between words to the terminal's 80 columns.
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(&format!("ok, 40 of 12902 units from journal {journal}")),
        "{rows:#?}"
    );
}
