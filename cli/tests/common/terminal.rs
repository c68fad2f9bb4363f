//! A pseudo-terminal of 80 columns (util-linux's `script`) to run
//! `queens` in, and its screen read back through a terminal emulator
//! (vt100): what a person at a terminal sees.

use std::io::{Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const COLUMNS: u16 = 80;
pub const ROWS: u16 = 24;

/// What the terminal of a command received, and how it ended.
pub struct Session {
    pub bytes: Vec<u8>,
    pub status: ExitStatus,
}

/// Runs `queens ARGS` in a pseudo-terminal of 80 columns; once `ready`
/// is on it (if given), types Ctrl-C, as a keyboard does: the terminal
/// echoes `^C` and sends SIGINT.
pub fn in_terminal(args: &[&str], ctrl_c_at: Option<&str>) -> Session {
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

pub fn contains(bytes: &[u8], text: &str) -> bool {
    bytes.windows(text.len()).any(|w| w == text.as_bytes())
}

/// The screen after `bytes`: its rows, trimmed at the right, and its
/// text, wrapped rows joined.
pub fn screen(bytes: &[u8]) -> (Vec<String>, String) {
    let mut parser = vt100::Parser::new(ROWS, COLUMNS, 0);
    parser.process(bytes);
    let screen = parser.screen();
    let rows = screen
        .rows(0, COLUMNS)
        .map(|row| row.trim_end().to_owned())
        .collect();
    (rows, screen.contents())
}

/// The lines a terminal of [`COLUMNS`] shows for `bytes`, each with
/// whether the terminal had to break it (too long for a row) where it
/// went on to the next row.
pub fn lines_and_breaks(bytes: &[u8]) -> Vec<(String, bool)> {
    const TALL: u16 = 2000;
    let mut parser = vt100::Parser::new(TALL, COLUMNS, 0);
    parser.process(bytes);
    let screen = parser.screen();
    let (last, _) = screen.cursor_position();
    assert!(last + 1 < TALL, "more than {TALL} rows");
    (screen.rows(0, COLUMNS).take(usize::from(last) + 1))
        .enumerate()
        .map(|(row, text)| (text.trim_end().to_owned(), screen.row_wrapped(row as u16)))
        .collect()
}
