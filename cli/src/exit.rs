//! The exit codes of every command, and which error ends with which: the
//! one place a code is defined or chosen. [`TABLE`] is this table as
//! `queens --help` prints it, and docs/README.md shows that output;
//! [`SHORT`] ends every subcommand's help.
//!
//! | code | meaning |
//! |------|---------|
//! | 0 | success, a closed pipe (`\| head`) included |
//! | 1 | a runtime failure; for `one` and `check`, no solution or an invalid board; for `merge` and `verify`, an incomplete or inconsistent set of shards |
//! | 2 | bad usage, unreadable or damaged input (clap uses the same), nothing to merge or verify, a plan too big for this machine |
//! | 3 | a count that disagrees: with the OEIS, with a second engine, or (`verify`) with the files or journal recounted |
//! | 128 + S | stopped by signal S, what was counted kept (130 for Ctrl-C): [`super::signals`] |

use std::io;

/// The exit codes, as the end of `queens --help` lists them.
pub const TABLE: &str = "\
Exit codes (every command):
  0      success (a closed pipe, as with '| head', included)
  1      a runtime failure; no solution or an invalid board (one, check);
         an incomplete or inconsistent set of shards (merge, verify)
  2      bad usage, unreadable or damaged input, nothing to merge or
         verify, or a plan too big for this machine
  3      a count that disagrees: with the OEIS, with a second engine, or
         (verify) with the files or journal recounted
  128+S  stopped by signal S, what was counted kept (130 for Ctrl-C)";

/// The exit codes and what each means, [`TABLE`]'s words unwrapped: the
/// man page's EXIT STATUS, a list roff lays out for itself.
pub const CODES: [(&str, &str); 5] = [
    ("0", "success (a closed pipe, as with '| head', included)"),
    (
        "1",
        "a runtime failure; no solution or an invalid board (one, check); an incomplete or \
         inconsistent set of shards (merge, verify)",
    ),
    (
        "2",
        "bad usage, unreadable or damaged input, nothing to merge or verify, or a plan too big \
         for this machine",
    ),
    (
        "3",
        "a count that disagrees: with the OEIS, with a second engine, or (verify) with the files \
         or journal recounted",
    ),
    (
        "128+S",
        "stopped by signal S, what was counted kept (130 for Ctrl-C)",
    ),
];

/// The exit codes in short, as the end of every subcommand's help lists
/// them; where to read more is named as an installed queens has it.
pub const SHORT: &str = "Exit codes: 0 success, 1 failure, 2 bad usage or input, 3 a count that \
                         disagrees\n(queens --help lists them all, as does EXIT STATUS in man \
                         queens).";

/// A command's exit code, as the number it is: std's `ExitCode` keeps its
/// number to itself, and the Python wheel's `queens` command returns it to
/// the interpreter ([`crate::main_with`]). The same constants and `From<u8>`
/// as std's, so a command reads as it would with std's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExitCode(u8);

impl ExitCode {
    /// Success: 0.
    pub const SUCCESS: Self = Self(0);
    /// A runtime failure: 1.
    pub const FAILURE: Self = Self(1);
}

impl From<u8> for ExitCode {
    fn from(code: u8) -> Self {
        Self(code)
    }
}

impl From<ExitCode> for u8 {
    fn from(code: ExitCode) -> Self {
        code.0
    }
}

/// Bad usage, or input that is not what it should be.
pub const EXIT_USAGE: u8 = 2;

/// A count that disagrees with the OEIS, with a second engine, or with the
/// claims `verify` recounts.
pub const EXIT_MISMATCH: u8 = 3;

/// A refusal found after parsing (a file that is not what it should be):
/// printed like any error, with exit code [`EXIT_USAGE`].
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// The exit code of a command's result: errors are printed once, as
/// `queens: <message>` with their causes; a closed pipe is a success.
pub fn code(result: anyhow::Result<ExitCode>) -> ExitCode {
    let err = match result {
        Ok(code) => return code,
        Err(err) => err,
    };
    if is_broken_pipe(&err) {
        return ExitCode::SUCCESS;
    }
    // The refusal says what it refused: the contexts would repeat it.
    if let Some(refusal) = memory_refusal(&err) {
        eprintln!("queens: {}", super::memory::refusal(refusal));
        return ExitCode::from(EXIT_USAGE);
    }
    eprintln!("queens: {err:#}");
    if err.is::<UsageError>() {
        ExitCode::from(EXIT_USAGE)
    } else {
        ExitCode::FAILURE
    }
}

/// `err` and its causes in one line, as `queens: {err:#}` prints an error
/// (`could not start the thread pool: <the system's reason>`): for a
/// message made of a library error rather than returned as one.
pub fn with_causes(err: &(dyn std::error::Error + 'static)) -> String {
    let mut line = err.to_string();
    let mut cause = err.source();
    while let Some(err) = cause {
        line.push_str(": ");
        line.push_str(&err.to_string());
        cause = err.source();
    }
    line
}

/// The library's refusal of a plan or count too big for this machine, if
/// that is what `err` comes to.
fn memory_refusal(err: &anyhow::Error) -> Option<&queens::Error> {
    err.chain()
        .filter_map(|e| e.downcast_ref::<queens::Error>())
        .find(|e| matches!(e, queens::Error::Memory { .. }))
}

/// Whether `err` is a write to a closed pipe, directly or through
/// serde_json (whose error hides the `io::Error` from `source()`).
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        let kind = e
            .downcast_ref::<io::Error>()
            .map(io::Error::kind)
            .or_else(|| {
                e.downcast_ref::<serde_json::Error>()
                    .and_then(serde_json::Error::io_error_kind)
            });
        kind == Some(io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_with_causes_reads_as_the_printed_error() {
        let err = queens::Error::Io {
            doing: "writing the shard result to",
            path: "out/3.json".into(),
            source: io::Error::other("disk full"),
        };
        let line = with_causes(&err);
        assert_eq!(line, "writing the shard result to out/3.json: disk full");
        assert_eq!(line, format!("{:#}", anyhow::Error::from(err)));
    }

    #[test]
    fn errors_end_with_their_codes() {
        let pipe = io::Error::from(io::ErrorKind::BrokenPipe);
        assert_eq!(code(Err(pipe.into())), ExitCode::SUCCESS);
        let usage = UsageError("not a shard result".to_owned());
        assert_eq!(code(Err(usage.into())), ExitCode::from(EXIT_USAGE));
        let failed = io::Error::from(io::ErrorKind::StorageFull);
        assert_eq!(code(Err(failed.into())), ExitCode::FAILURE);
        let mismatch = Ok(ExitCode::from(EXIT_MISMATCH));
        assert_eq!(code(mismatch), ExitCode::from(EXIT_MISMATCH));
    }

    #[test]
    fn the_man_pages_codes_are_the_helps_table() {
        let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        let listed: Vec<String> = CODES
            .iter()
            .map(|(code, meaning)| format!("{code} {meaning}"))
            .collect();
        assert_eq!(
            words(TABLE),
            format!("Exit codes (every command): {}", listed.join(" "))
        );
    }
}
