//! How every command reports: a [`Report`] writes records to stdout as
//! people read them (rows of a [`Table`], a few labelled lines) or as one
//! JSON object a line (`--json`); [`mismatch`] is the one way a
//! disagreement is announced; and `count`'s records are defined here.
//!
//! A record is a `#[derive(Serialize)]` struct whose documented fields are
//! its JSON, and whose [`Human`] impl is its text, so the two forms are
//! written side by side and cannot drift apart. Nothing here counts.

use std::fmt::{Display, Write as _};
use std::io::{self, BufWriter, Write};
use std::time::Duration;

use serde::Serialize;

pub use super::exit::EXIT_MISMATCH;

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
    /// The header, until something is written after it.
    header: Vec<u8>,
}

impl Report {
    /// A report on stdout.
    pub fn stdout(form: Form) -> Self {
        Self::new(super::stdout(), form)
    }
}

impl<W: Write> Report<W> {
    /// A report written to `out`.
    pub fn new(out: W, form: Form) -> Self {
        Self {
            out,
            form,
            header: Vec::new(),
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
            self.out.write_all(&std::mem::take(&mut self.header))?;
        }
        Ok(())
    }

    /// Writes `record` in the report's form.
    pub fn record<R: Serialize + Human + ?Sized>(&mut self, record: &R) -> io::Result<()> {
        self.take_header()?;
        match self.form {
            Form::Json => json_line(&mut self.out, record)?,
            Form::Human => record.human(&mut self.out)?,
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

/// Columns of text two spaces apart, each padded to its width, right- or
/// left-aligned; a left-aligned cell that ends a line is not padded.
pub struct Table {
    columns: Vec<Column>,
}

/// One column of a [`Table`].
pub struct Column {
    title: String,
    width: usize,
    right: bool,
}

impl Column {
    /// A right-aligned column (numbers).
    pub fn right(title: impl Into<String>, width: usize) -> Self {
        let title = title.into();
        Self {
            title,
            width,
            right: true,
        }
    }

    /// A left-aligned column (names, verdicts).
    pub fn left(title: impl Into<String>, width: usize) -> Self {
        let title = title.into();
        Self {
            title,
            width,
            right: false,
        }
    }
}

impl Table {
    /// A table of `columns`, in order.
    pub fn new(columns: Vec<Column>) -> Self {
        Self { columns }
    }

    /// The line of the columns' titles.
    pub fn header(&self, out: &mut dyn Write) -> io::Result<()> {
        let titles: Vec<&dyn Display> = self.columns.iter().map(|c| &c.title as _).collect();
        self.line(out, &titles, None)
    }

    /// A row: one cell per column.
    pub fn row(&self, out: &mut dyn Write, cells: &[&dyn Display]) -> io::Result<()> {
        debug_assert_eq!(cells.len(), self.columns.len(), "a cell per column");
        self.line(out, cells, None)
    }

    /// A row whose first `cells` are in their columns and whose `rest`
    /// runs across the others (`cells   skipped: ...`).
    pub fn row_then(
        &self,
        out: &mut dyn Write,
        cells: &[&dyn Display],
        rest: &dyn Display,
    ) -> io::Result<()> {
        debug_assert!(cells.len() < self.columns.len(), "the rest has columns");
        self.line(out, cells, Some(rest))
    }

    fn line(
        &self,
        out: &mut dyn Write,
        cells: &[&dyn Display],
        rest: Option<&dyn Display>,
    ) -> io::Result<()> {
        let mut line = String::new();
        for (i, (column, cell)) in self.columns.iter().zip(cells).enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let text = cell.to_string();
            let ends_line = i + 1 == cells.len() && rest.is_none();
            let width = column.width;
            let _ = match (column.right, ends_line) {
                (true, _) => write!(line, "{text:>width$}"),
                (false, false) => write!(line, "{text:<width$}"),
                (false, true) => write!(line, "{text}"),
            };
        }
        if let Some(rest) = rest {
            if !cells.is_empty() {
                line.push_str("  ");
            }
            let _ = write!(line, "{rest}");
        }
        line.push('\n');
        out.write_all(line.as_bytes())
    }
}

/// What people are told of a count against the OEIS: `ok`, `MISMATCH
/// (known: K)`, or `unknown` where nothing is published.
pub fn verdict(matches_known: Option<bool>, known: Option<u128>) -> String {
    match matches_known {
        Some(true) => "ok".to_owned(),
        Some(false) => format!("MISMATCH (known: {})", known.unwrap_or_default()),
        None => "unknown".to_owned(),
    }
}

/// Where a mismatch is queens's to answer for.
const REPORT_IT: &str = "a bug in queens or a hardware fault: please report it";

/// Says loudly on stderr that `what` disagrees: the one message for every
/// kind of mismatch queens must answer for.
pub fn mismatch(what: &str) {
    disagreement(&format!("{what}. This is {REPORT_IT}"));
}

/// A total that disagrees after a resume: the journal's records are the
/// first suspects, so they are named, with how to recount them.
fn journal_mismatch(what: &str, journal: &str, resumed: usize, units: Option<usize>) {
    let of = units.map(|u| format!(" of {u}")).unwrap_or_default();
    disagreement(&format!(
        "{what}. {resumed}{of} units came from the journal {journal}, which may hold damaged or \
         forged records: recount them with 'queens verify --journal {journal} --sample 100%', \
         or count again without it. If they agree, this is {REPORT_IT}"
    ));
}

/// The line on stderr for any disagreement: `queens: MISMATCH <text>.`
pub fn disagreement(text: &str) {
    eprintln!("queens: MISMATCH {text}.");
}

/// One count, as `--json` prints it.
#[derive(Debug, Serialize)]
pub struct CountRecord {
    /// Board size.
    pub n: u32,
    /// Solutions counted (in the units counted, with `--units`).
    pub solutions: u128,
    /// Wall time of the count alone, in seconds.
    pub elapsed_secs: f64,
    /// Threads in the pool that counted.
    pub threads: usize,
    /// Rows fixed per work unit (null for the join engine and for the slow
    /// algorithms).
    pub split_depth: Option<u32>,
    /// Work units searched (null for the slow algorithms, which have none);
    /// with `--units`, the `[id, count]` of each unit counted.
    pub units: Option<Units>,
    /// What counted: the engine (`mirror`, `join`) or the `--algorithm`
    /// name (`parallel` is the mirror engine and reports `mirror`).
    pub engine: &'static str,
    /// The plan's hash, `sha256:...`; null for the slow algorithms, which
    /// have no plan.
    pub plan: Option<String>,
    /// The OEIS A000170 value, or null where none is published.
    pub known: Option<u128>,
    /// Whether `solutions` equals `known`; null when nothing is known or
    /// only some units were counted.
    pub matches_known: Option<bool>,
    /// With `--unique`: the essentially different solutions, their classes
    /// by size, and the check against OEIS A002562.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub unique: Option<UniqueRecord>,
    /// With `--cross-check`: the second engine and what it counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cross_check: Option<CrossCheck>,
    /// Units taken from the `--checkpoint` journal rather than counted.
    pub resumed_units: usize,
    /// The `--checkpoint` journal's path; null without one.
    pub journal: Option<String>,
    /// Version of queens.
    pub version: &'static str,
}

/// The `units` field: how many, or which with their counts.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Units {
    /// Every unit of the plan was counted: how many.
    All(usize),
    /// `--units`: `[id, count]` of each unit counted, in id order.
    Some(Vec<(u32, u128)>),
}

/// The second opinion of `--cross-check`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct CrossCheck {
    /// The engine that counted again.
    pub engine: &'static str,
    /// What it counted.
    pub solutions: u128,
    /// Whether it agrees with the first engine.
    pub agrees: bool,
}

/// The `--unique` fields of a [`CountRecord`].
#[derive(Clone, Copy, Debug, Serialize)]
pub struct UniqueRecord {
    /// Essentially different solutions.
    pub unique: u128,
    /// Classes of 8 (`none`), 4 (`rotation_180`) and 2 (`rotation_90`).
    pub classes: queens::Classes,
    /// Solutions unchanged by a half turn (S180).
    pub half_turn_symmetric: u128,
    /// Solutions unchanged by a quarter turn (S90).
    pub quarter_turn_symmetric: u128,
    /// The OEIS A002562 value, or null where none is published.
    pub known_unique: Option<u128>,
    /// Whether `unique` equals `known_unique`; null when nothing is known.
    pub matches_known_unique: Option<bool>,
}

/// The table `count` prints, with the `--unique` columns or without.
pub fn count_table(unique: bool) -> Table {
    let mut columns = vec![Column::right("n", 3), Column::right("solutions", 20)];
    if unique {
        columns.extend([
            Column::right("unique", 18),
            Column::right("8-member", 18),
            Column::right("4-member", 12),
            Column::right("2-member", 8),
        ]);
    }
    columns.extend([
        Column::right("time", 10),
        Column::right("threads", 7),
        Column::left("OEIS", 0),
    ]);
    Table::new(columns)
}

impl Human for CountRecord {
    /// A row of [`count_table`].
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut verdict = match &self.units {
            Some(Units::Some(counted)) => format!("{} units: not a total", counted.len()),
            _ => verdict(self.matches_known, self.known),
        };
        let time = format_duration(Duration::from_secs_f64(self.elapsed_secs));
        let mut cells: Vec<&dyn Display> = vec![&self.n, &self.solutions];
        if let Some(u) = &self.unique {
            let c = &u.classes;
            cells.extend([
                &u.unique as &dyn Display,
                &c.none,
                &c.rotation_180,
                &c.rotation_90,
            ]);
            let word = match u.matches_known_unique {
                Some(true) => "unique ok".to_owned(),
                Some(false) => format!(
                    "unique MISMATCH (known: {})",
                    u.known_unique.unwrap_or_default()
                ),
                None => "unique unknown".to_owned(),
            };
            verdict = format!("{verdict}, {word}");
        }
        if let Some(c) = self.cross_check {
            let word = if c.agrees { "agrees" } else { "DISAGREES" };
            verdict = format!("{verdict}, {} {word}", c.engine);
        }
        if let Some(journal) = self.journal.as_ref().filter(|_| self.resumed_units > 0) {
            let of = match &self.units {
                Some(Units::All(units)) => format!(" of {units}"),
                Some(Units::Some(units)) => format!(" of {}", units.len()),
                None => String::new(),
            };
            verdict = format!(
                "{verdict}, {}{of} units from journal {journal}",
                self.resumed_units
            );
        }
        cells.extend([&time as &dyn Display, &self.threads, &verdict]);
        count_table(self.unique.is_some()).row(out, &cells)
    }

    /// The count, and the unique count with `--unique`.
    fn quiet(&self, out: &mut dyn Write) -> io::Result<()> {
        match &self.unique {
            Some(u) => writeln!(out, "{} {}", self.solutions, u.unique),
            None => writeln!(out, "{}", self.solutions),
        }
    }
}

/// How `count` writes its records: a [`Form`], with the table's
/// `--unique` columns or without.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A table with a header.
    Human {
        /// With the `--unique` columns.
        unique: bool,
    },
    /// The counts only, one line each.
    Quiet,
    /// One JSON object a line.
    Json,
}

impl Style {
    /// The form of the report.
    pub fn form(self) -> Form {
        match self {
            Self::Human { .. } => Form::Human,
            Self::Quiet => Form::Quiet,
            Self::Json => Form::Json,
        }
    }
}

/// Says loudly on stderr which counts of `record` disagree with the OEIS;
/// returns how many did.
pub fn report_mismatches(record: &CountRecord) -> u32 {
    let mut found = 0;
    let n = record.n;
    if record.matches_known == Some(false) {
        found += 1;
        let known = record.known.unwrap_or_default();
        let what = format!(
            "for n = {n}: counted {} solutions but OEIS A000170 says {known}",
            record.solutions
        );
        match &record.journal {
            Some(journal) if record.resumed_units > 0 => {
                let units = match &record.units {
                    Some(Units::All(units)) => Some(*units),
                    Some(Units::Some(units)) => Some(units.len()),
                    None => None,
                };
                journal_mismatch(&what, journal, record.resumed_units, units);
            }
            _ => mismatch(&what),
        }
    }
    if let Some(u) = &record.unique
        && let Some(k) = u.known_unique.filter(|&k| k != u.unique)
    {
        found += 1;
        mismatch(&format!(
            "for n = {n}: counted {} unique solutions but OEIS A002562 says {k}",
            u.unique
        ));
    }
    found
}

/// Milliseconds below a second, seconds above.
pub fn format_duration(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 1.0 {
        format!("{:.2} ms", secs * 1e3)
    } else {
        format!("{secs:.3} s")
    }
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
    fn tables_align_their_columns() {
        let table = Table::new(vec![
            Column::left("name", 6),
            Column::right("count", 7),
            Column::left("verdict", 0),
        ]);
        let mut out = Vec::new();
        table.header(&mut out).unwrap();
        table.row(&mut out, &[&"cells", &92, &"ok"]).unwrap();
        let long = [&"a-longer-name" as &dyn Display, &1, &"MISMATCH (known: 2)"];
        table.row(&mut out, &long).unwrap();
        table
            .row_then(&mut out, &[&"scan"], &"skipped: too slow")
            .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "name      count  verdict\n\
             cells        92  ok\n\
             a-longer-name        1  MISMATCH (known: 2)\n\
             scan    skipped: too slow\n"
        );
    }

    #[test]
    fn a_header_waits_for_the_first_record() {
        // A count that fails before its first result leaves stdout empty
        // (tests/cli_scale.rs, a journal truncated from outside).
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
    fn left_aligned_cells_that_end_a_line_are_not_padded() {
        let table = Table::new(vec![Column::left("label", 7), Column::left("value", 7)]);
        let mut out = Vec::new();
        table.row(&mut out, &[&"n", &"8"]).unwrap();
        table.row_then(&mut out, &[&"plan"], &"sha256:0f").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "n        8\nplan     sha256:0f\n"
        );
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

    fn count_record() -> CountRecord {
        CountRecord {
            n: 8,
            solutions: 92,
            elapsed_secs: 0.000_12,
            threads: 2,
            split_depth: Some(2),
            units: Some(Units::All(8)),
            engine: "mirror",
            plan: None,
            known: Some(92),
            matches_known: Some(true),
            unique: None,
            cross_check: None,
            resumed_units: 0,
            journal: None,
            version: "0",
        }
    }

    #[test]
    fn counts_print_as_a_table_row_or_a_bare_number() {
        let record = count_record();
        let human = written(Form::Human, |report| {
            report.header(|out| count_table(false).header(out)).unwrap();
            report.record(&record).unwrap();
        });
        assert_eq!(
            human,
            "  n             solutions        time  threads  OEIS\n  \
             8                    92     0.12 ms        2  ok\n"
        );
        assert_eq!(report_mismatches(&record), 0);
        let quiet = written(Form::Quiet, |report| report.record(&record).unwrap());
        assert_eq!(quiet, "92\n");
        let json = written(Form::Json, |report| report.record(&record).unwrap());
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(json["solutions"], 92);
        assert_eq!(json["matches_known"], true);
    }

    #[test]
    fn verdicts_say_ok_mismatch_or_unknown() {
        assert_eq!(verdict(Some(true), Some(92)), "ok");
        assert_eq!(verdict(Some(false), Some(92)), "MISMATCH (known: 92)");
        assert_eq!(verdict(None, None), "unknown");
    }
}
