//! The progress bar of `count` as a person at a terminal sees it: run in
//! a pseudo-terminal of 80 columns (util-linux's `script`), its screen
//! read back through a terminal emulator (vt100). The bar fits the line,
//! Ctrl-C typed at the keyboard (echoed as `^C`) leaves nothing of it on
//! the screen, and a resumed count starts from its journal's units.
//! See: issue 35.
#![cfg(target_os = "linux")]

use std::io::{Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const COLUMNS: u16 = 80;
const ROWS: u16 = 24;

/// What the terminal of a command received, and how it ended.
struct Session {
    bytes: Vec<u8>,
    status: ExitStatus,
}

/// Runs `queens ARGS` in a pseudo-terminal of 80 columns; once `ready`
/// is on it (if given), types Ctrl-C, as a keyboard does: the terminal
/// echoes `^C` and sends SIGINT.
fn in_terminal(args: &[&str], ctrl_c_at: Option<&str>) -> Session {
    let mut line = format!(
        "stty cols {COLUMNS} rows {ROWS}; exec '{}'",
        env!("CARGO_BIN_EXE_queens")
    );
    for arg in args {
        assert!(!arg.contains('\''), "{arg}");
        line.push_str(&format!(" '{arg}'"));
    }
    let mut child = Command::new("script")
        .args(["-qfec", &line, "/dev/null"])
        // The terminal emulated below (indicatif draws nothing where TERM
        // is unset or `dumb`, as CI may leave it).
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("util-linux's `script`, to run queens in a pseudo-terminal");
    let mut stdout = child.stdout.take().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let reader = {
        let seen = Arc::clone(&seen);
        std::thread::spawn(move || {
            let mut buffer = [0; 4096];
            while let Ok(read @ 1..) = stdout.read(&mut buffer) {
                seen.lock().unwrap().extend_from_slice(&buffer[..read]);
            }
        })
    };
    // Kept open until the end: `script` may stop at the end of its input.
    let mut keyboard = child.stdin.take().unwrap();
    if let Some(ready) = ctrl_c_at {
        let since = Instant::now();
        while !contains(&seen.lock().unwrap(), ready) {
            assert!(
                since.elapsed() < Duration::from_secs(120),
                "no {ready:?} on the terminal: {}",
                String::from_utf8_lossy(&seen.lock().unwrap())
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        keyboard.write_all(b"\x03").unwrap();
    }
    let status = child.wait().unwrap();
    drop(keyboard);
    reader.join().unwrap();
    let bytes = Arc::try_unwrap(seen).unwrap().into_inner().unwrap();
    Session { bytes, status }
}

fn contains(bytes: &[u8], text: &str) -> bool {
    bytes.windows(text.len()).any(|w| w == text.as_bytes())
}

/// The screen after `bytes`: its rows, trimmed at the right, and its
/// text, wrapped rows joined.
fn screen(bytes: &[u8]) -> (Vec<String>, String) {
    let mut parser = vt100::Parser::new(ROWS, COLUMNS, 0);
    parser.process(bytes);
    let screen = parser.screen();
    let rows = screen
        .rows(0, COLUMNS)
        .map(|row| row.trim_end().to_owned())
        .collect();
    (rows, screen.contents())
}

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
    crate::common::needs_test_hooks();
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let journal = journal.to_str().unwrap();
    let args = ["count", "15", "--checkpoint", journal];
    let killed = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(args)
        .env("QUEENS_TEST_KILL_AFTER", "40")
        .output()
        .unwrap();
    assert!(!killed.status.success(), "{killed:?}");
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
    assert!(
        text.contains(&format!("ok, 40 of 12902 units from journal {journal}")),
        "{rows:#?}"
    );
}
