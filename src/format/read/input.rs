//! The byte reader under every format: [`Input`] reads a byte at a time
//! through its buffer and knows the line and column, for messages; and how
//! a byte is named in those messages.
//!
//! It knows nothing of any format, and must never hold on to the input:
//! bytes are looked at in the reader's buffer and consumed, so a long line
//! or a gigabyte of digits streams by (and is refused) without being kept.

use std::io::{self, BufRead};

use super::ReadError;

/// The input, a byte at a time through its buffer, with the position for
/// messages.
#[derive(Debug)]
pub(super) struct Input<R> {
    inner: R,
    /// Current line, from 1.
    pub(super) line: u64,
    /// Current byte in the line, from 1.
    pub(super) column: u64,
}

impl<R> Input<R> {
    /// The bytes of `inner`, from line 1, column 1.
    pub(super) fn new(inner: R) -> Self {
        Self {
            inner,
            line: 1,
            column: 1,
        }
    }

    pub(super) fn malformed(&self, message: String) -> ReadError {
        ReadError::Malformed {
            line: self.line,
            message,
        }
    }
}

impl<R: BufRead> Input<R> {
    /// The buffered bytes, refilled when empty; empty at the end.
    fn buffer(&mut self) -> Result<&[u8], ReadError> {
        loop {
            match self.inner.fill_buf() {
                Ok(_) => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        // Filled just above: this returns the same bytes without reading.
        Ok(self.inner.fill_buf()?)
    }

    pub(super) fn peek(&mut self) -> Result<Option<u8>, ReadError> {
        Ok(self.buffer()?.first().copied())
    }

    pub(super) fn next(&mut self) -> Result<Option<u8>, ReadError> {
        let byte = self.peek()?;
        if let Some(b) = byte {
            self.inner.consume(1);
            if b == b'\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
        Ok(byte)
    }

    /// Skips spaces, tabs and carriage returns, and line breaks too when
    /// `lines` is set.
    ///
    /// A buffer at a time, not a byte at a time: this and [`Input::number`]
    /// are the whole cost of reading the columns format (79 MB for
    /// n = 10^7: 0.3 s, against 0.8 s a byte at a time).
    pub(super) fn skip_whitespace(&mut self, lines: bool) -> Result<(), ReadError> {
        loop {
            let (mut line, mut column) = (self.line, self.column);
            let buf = self.buffer()?;
            let skipped = buf
                .iter()
                .take_while(|&&b| match b {
                    b' ' | b'\t' | b'\r' => {
                        column += 1;
                        true
                    }
                    b'\n' if lines => {
                        (line, column) = (line + 1, 1);
                        true
                    }
                    _ => false,
                })
                .count();
            let more = skipped > 0 && skipped == buf.len();
            self.inner.consume(skipped);
            (self.line, self.column) = (line, column);
            if !more {
                return Ok(());
            }
        }
    }

    /// Skips what may come between boards: blank lines, and comment lines
    /// (a line whose first mark is `#`; one after something else on its
    /// line is left for the format to refuse). Returns the next byte,
    /// `None` at the end.
    pub(super) fn skip_between_boards(&mut self) -> Result<Option<u8>, ReadError> {
        loop {
            let (line, at_start) = (self.line, self.column == 1);
            self.skip_whitespace(true)?;
            let next = self.peek()?;
            if next != Some(b'#') || !(at_start || self.line > line) {
                return Ok(next);
            }
            self.skip_to_line_end()?;
        }
    }

    /// Skips to the end of the line, leaving its line feed unread: the
    /// rest of a comment. A buffer at a time, as [`Input::skip_whitespace`].
    pub(super) fn skip_to_line_end(&mut self) -> Result<(), ReadError> {
        loop {
            let buf = self.buffer()?;
            let skipped = buf.iter().take_while(|&&b| b != b'\n').count();
            let more = skipped > 0 && skipped == buf.len();
            self.inner.consume(skipped);
            self.column += skipped as u64;
            if !more {
                return Ok(());
            }
        }
    }

    /// The next character, decoded from UTF-8 (`None` at the end); bytes
    /// that are not UTF-8 are refused where they are.
    pub(super) fn next_char(&mut self) -> Result<Option<char>, ReadError> {
        let Some(first) = self.peek()? else {
            return Ok(None);
        };
        let len = match first {
            0x00..=0x7f => 1,
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => return Err(self.not_utf8(first)),
        };
        let mut bytes = [first, 0, 0, 0];
        self.inner.consume(1);
        for slot in &mut bytes[1..len] {
            match self.peek()? {
                Some(b @ 0x80..=0xbf) => {
                    *slot = b;
                    self.inner.consume(1);
                }
                other => {
                    return Err(self.malformed(format!(
                        "a character cut short at column {}: {} where UTF-8 goes on",
                        self.column,
                        describe_opt(other)
                    )));
                }
            }
        }
        let c = std::str::from_utf8(&bytes[..len])
            .ok()
            .and_then(|s| s.chars().next())
            .ok_or_else(|| self.not_utf8(first))?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Ok(Some(c))
    }

    fn not_utf8(&self, byte: u8) -> ReadError {
        self.malformed(format!(
            "byte 0x{byte:02x} at column {} is not UTF-8 text",
            self.column
        ))
    }

    /// Whether the rest of the line is blank (or the input has ended); a
    /// blank line is consumed, anything else is left alone.
    pub(super) fn at_blank_line(&mut self) -> Result<bool, ReadError> {
        // Leading spaces of a row are skipped by the row reader too, so
        // consuming them here changes nothing.
        while let Some(b' ' | b'\t' | b'\r') = self.peek()? {
            self.next()?;
        }
        match self.peek()? {
            None => Ok(true),
            Some(b'\n') => {
                self.next()?;
                Ok(true)
            }
            Some(_) => Ok(false),
        }
    }

    pub(super) fn expect(&mut self, want: u8, why: &str) -> Result<(), ReadError> {
        match self.peek()? {
            Some(b) if b == want => {
                self.next()?;
                Ok(())
            }
            other => Err(self.malformed(format!(
                "expected '{}' {why}, found {}",
                want as char,
                describe_opt(other)
            ))),
        }
    }

    /// The byte after `what` must end it: EOF, or one `ends` accepts (left
    /// unread).
    pub(super) fn expect_separator(
        &mut self,
        what: &str,
        ends: impl Fn(u8) -> bool,
    ) -> Result<(), ReadError> {
        match self.peek()? {
            None => Ok(()),
            Some(b) if ends(b) => Ok(()),
            Some(other) => {
                Err(self.malformed(format!("unexpected {} after {what}", describe(other))))
            }
        }
    }

    /// A run of decimal digits, refused as soon as it exceeds `max`, so a
    /// gigabyte of digits is rejected after a dozen.
    pub(super) fn number(&mut self, max: u64, what: &str) -> Result<u64, ReadError> {
        let mut value: Option<u64> = None;
        loop {
            let mut too_large = false;
            let buf = self.buffer()?;
            let digits = buf
                .iter()
                .take_while(|&&d| {
                    if !d.is_ascii_digit() {
                        return false;
                    }
                    // max is at most a few billion: no overflow.
                    let v = value.unwrap_or(0) * 10 + u64::from(d - b'0');
                    too_large = v > max;
                    value = Some(v);
                    !too_large
                })
                .count();
            let more = digits > 0 && digits == buf.len();
            self.inner.consume(digits);
            self.column += digits as u64;
            if too_large {
                return Err(self.malformed(format!("{what} too large: more than {max}")));
            }
            if !more {
                break;
            }
        }
        match value {
            Some(v) => Ok(v),
            None => {
                let found = self.peek()?;
                Err(self.malformed(format!("expected a {what}, found {}", describe_opt(found))))
            }
        }
    }
}

/// `1 row`, `2 rows`.
pub(super) fn counted(k: impl Into<u64>, what: &str) -> String {
    let k = k.into();
    if k == 1 {
        format!("1 {what}")
    } else {
        format!("{k} {what}s")
    }
}

/// A byte for a message: printable ASCII quoted, anything else in hex.
pub(super) fn describe(byte: u8) -> String {
    if byte.is_ascii_graphic() || byte == b' ' {
        format!("'{}'", byte as char)
    } else if byte == b'\n' {
        "the end of the line".into()
    } else {
        format!("byte 0x{byte:02x}")
    }
}

pub(super) fn describe_opt(byte: Option<u8>) -> String {
    byte.map_or_else(|| "the end of the input".into(), describe)
}
