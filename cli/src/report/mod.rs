//! How every command reports: a [`Report`] writes records to stdout as
//! people read them (rows of a [`Table`], a few labelled lines) or as one
//! JSON object a line (`--json`); [`mismatch`] is the one way a
//! JSON object a line (`--json`); [`mismatch`] is the one way a
//! disagreement is announced ([`mod@verdict`]); [`table`] lays out the text.
//! A record is a `#[derive(Serialize)]` struct whose documented fields are
//! its JSON, and whose [`Human`] impl is its text, so the two forms are
//! written side by side and cannot drift apart. Text for people that goes
//! to a terminal is folded to its width between words ([`wrap`]). Nothing
//! here counts.

mod table;
mod verdict;
mod wrap;

use std::io::{self, BufWriter, Write};

use serde::Serialize;

pub use self::table::{Column, Table};
pub use self::verdict::{disagreement, journal_mismatch, mismatch, verdict};
pub use super::exit::EXIT_MISMATCH;

/// `count` and `noun`, the noun plural unless `count` is 1: `1 thread`,
/// `2 threads` (issue 47 saw "1 threads").
pub fn plural(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Which form a report takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Text for people: tables and labelled lines.
    Human,
    /// The bare result, or nothing (`-q`).
    Quiet,
    /// One JSON object a line.
    Json,
}

impl Form {
    /// The form `--json` and `-q` ask for: JSON wins, as `-q` also
    /// silences stderr's notes, which JSON still wants silenced.
    pub fn from_flags(json: bool, quiet: bool) -> Self {
        match (json, quiet) {
            (true, _) => Self::Json,
            (false, true) => Self::Quiet,
            (false, false) => Self::Human,
        }
    }
}

/// A record's text for people.
pub trait Human {
    /// Writes the record as people read it.
    fn human(&self, out: &mut dyn Write) -> io::Result<()>;

    /// Writes its bare result; the human text unless a record has a
    /// shorter one.
    fn quiet(&self, out: &mut dyn Write) -> io::Result<()> {
        self.human(out)
    }
}

/// A command's output: every write is flushed before the call returns, so
/// that a row that took an hour is seen at once and a write that fails (a
/// closed pipe, a full disk, a stdout closed at start) is an error there.
/// A header waits for the first record, so that a command that fails
/// before its first result leaves stdout empty.
pub struct Report<W: Write = BufWriter<super::stdout::Stdout>> {
    out: W,
    form: Form,
    /// The columns human text is folded to; `None` leaves it as it is.
    width: Option<usize>,
    /// The header, until something is written after it.
    header: Vec<u8>,
}

impl Report {
    /// A report on stdout, folded to the terminal's width when stdout is
    /// a terminal.
    pub fn stdout(form: Form) -> Self {
        Self::new(super::stdout(), form).folded_to(super::stdout::terminal_width())
    }
}

impl<W: Write> Report<W> {
    /// A report written to `out`.
    pub fn new(out: W, form: Form) -> Self {
        Self {
            out,
            form,
            width: None,
            header: Vec::new(),
        }
    }

    /// The report with its human text folded to `width` columns (none:
    /// as written).
    pub fn folded_to(self, width: Option<usize>) -> Self {
        Self { width, ..self }
    }

    /// Writes `text`, for people, folded to the report's width.
    fn write_human(&mut self, text: &[u8]) -> io::Result<()> {
        match (self.width, std::str::from_utf8(text)) {
            (Some(width), Ok(text)) => self.out.write_all(wrap::wrap(text, width).as_bytes()),
            _ => self.out.write_all(text),
        }
    }

    /// Keeps what only people read before the first record (a table's
    /// header), to go out with it; nothing in the other forms.
    pub fn header(
        &mut self,
        write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        if self.form == Form::Human {
            write(&mut self.header)?;
        }
        Ok(())
    }

    /// Writes the header kept, if any.
    fn take_header(&mut self) -> io::Result<()> {
        if !self.header.is_empty() {
            let header = std::mem::take(&mut self.header);
            self.write_human(&header)?;
        }
        Ok(())
    }

    /// Writes `record` in the report's form.
    pub fn record<R: Serialize + Human + ?Sized>(&mut self, record: &R) -> io::Result<()> {
        self.take_header()?;
        match self.form {
            Form::Json => json_line(&mut self.out, record)?,
            Form::Human => {
                let mut text = Vec::new();
                record.human(&mut text)?;
                self.write_human(&text)?;
            }
            Form::Quiet => record.quiet(&mut self.out)?,
        }
        self.out.flush()
    }

    /// Writes `records` as JSON lines whatever the form, for output that
    /// has no other (`plan --units`); flushed once, at the end, as there
    /// may be millions.
    pub fn json_lines<R: Serialize>(
        &mut self,
        records: impl IntoIterator<Item = R>,
    ) -> io::Result<()> {
        self.take_header()?;
        for record in records {
            json_line(&mut self.out, &record)?;
        }
        self.out.flush()
    }
}

/// `record` as one line of JSON. A failed write stays the `io::Error` it
/// was (serde_json hands it back), so a closed pipe is still one.
fn json_line<R: Serialize + ?Sized>(out: &mut impl Write, record: &R) -> io::Result<()> {
    serde_json::to_writer(&mut *out, record)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record of two fields, to see both forms.
    #[derive(Serialize)]
    struct Pair {
        /// A name.
        name: &'static str,
        /// A number.
        value: u64,
    }

    impl Human for Pair {
        fn human(&self, out: &mut dyn Write) -> io::Result<()> {
            Table::new(vec![Column::left("", 6), Column::right("", 5)])
                .row(out, &[&self.name, &self.value])
        }
    }

    fn written(form: Form, write: impl FnOnce(&mut Report<&mut Vec<u8>>)) -> String {
        let mut bytes = Vec::new();
        write(&mut Report::new(&mut bytes, form));
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn a_header_waits_for_the_first_record() {
        // A count that fails before its first result leaves stdout empty
        // (cli/tests/cli_scale.rs, a journal truncated from outside).
        let pair = Pair {
            name: "n",
            value: 8,
        };
        for form in [Form::Human, Form::Json] {
            let mut out = Vec::new();
            let mut report = Report::new(&mut out, form);
            report.header(|out| writeln!(out, "title")).unwrap();
            drop(report);
            assert!(out.is_empty(), "{form:?}");
        }
        let text = written(Form::Human, |report| {
            report.header(|out| writeln!(out, "title")).unwrap();
            report.record(&pair).unwrap();
            report.record(&pair).unwrap();
        });
        assert_eq!(text, "title\nn           8\nn           8\n");
    }

    #[test]
    fn records_are_text_or_one_json_object_a_line() {
        let records = [
            Pair {
                name: "mirror",
                value: 7,
            },
            Pair {
                name: "join",
                value: 12345,
            },
        ];
        let write = |report: &mut Report<&mut Vec<u8>>| {
            report.header(|out| writeln!(out, "a header")).unwrap();
            for record in &records {
                report.record(record).unwrap();
            }
        };
        assert_eq!(
            written(Form::Human, write),
            "a header\nmirror      7\njoin    12345\n"
        );
        let json = written(Form::Json, write);
        let lines: Vec<serde_json::Value> = json
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(lines.len(), 2, "{json}");
        assert_eq!(lines[1]["name"], "join");
        assert_eq!(lines[1]["value"], 12345);
        assert_eq!(
            written(Form::Quiet, write),
            "mirror      7\njoin    12345\n"
        );
        let units = written(Form::Human, |report| {
            report.json_lines(records.iter()).unwrap();
        });
        assert_eq!(units.lines().count(), 2);
        assert!(
            units.starts_with(r#"{"name":"mirror","value":7}"#),
            "{units}"
        );
    }

    /// A writer whose reader has gone, as a closed pipe.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_write_is_an_error_of_its_own_kind() {
        let record = Pair {
            name: "join",
            value: 1,
        };
        for form in [Form::Human, Form::Quiet, Form::Json] {
            let mut report = Report::new(BufWriter::new(Closed), form);
            let err = report.record(&record).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::BrokenPipe, "{form:?}");
        }
        let mut report = Report::new(Closed, Form::Human);
        let err = report.json_lines([&record]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
    }
}
