//! What `queens count` reports of each size: the [`CountRecord`] (its
//! JSON fields documented), its row of the table and its quiet line, and
//! the loud lines of a count that disagrees with the OEIS.

use std::fmt::Display;
use std::io::{self, Write};

use queens::{Count, known};
use serde::Serialize;

use crate::report::{Column, Form, Human, Table, journal_mismatch, mismatch, verdict};

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
    /// With `--given`, `--blocked` or `--board`: the problem whose
    /// completions were counted, a line of its board's rows (`Q` given,
    /// `x` blocked, `.` free) joined by `/`; null for the empty board.
    pub problem: Option<String>,
    /// The OEIS A000170 value, or null where none is published (and for
    /// a problem's completions).
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
    /// The shard result file that already held this count, for a shard
    /// rerun that counted nothing: the table shows no time or threads of
    /// its own (issue 47: "0 s, 0 threads"). Not in the JSON, whose
    /// `elapsed_secs` and `threads` are then 0 and `resumed_units` every
    /// unit.
    #[serde(skip)]
    pub counted_before: Option<String>,
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
        let mut verdict = match (&self.units, &self.problem) {
            (Some(Units::Some(counted)), _) => format!("{} units: not a total", counted.len()),
            (_, Some(_)) => "completions (no OEIS value)".to_owned(),
            _ => verdict(self.matches_known, self.known),
        };
        let (time, threads) = match &self.counted_before {
            Some(file) => {
                verdict = format!("{verdict}, counted before: {file}");
                ("-".to_owned(), "-".to_owned())
            }
            None => (
                queens::human::duration(self.elapsed_secs),
                self.threads.to_string(),
            ),
        };
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
        cells.extend([&time as &dyn Display, &threads, &verdict]);
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

/// The record of an engine's count: of the whole plan, or of some units;
/// `resumed` of them taken from `journal`.
pub(super) fn engine_record(
    count: &Count,
    whole: bool,
    resumed: usize,
    journal: Option<String>,
) -> CountRecord {
    let mut record = bare_record(count.n, count.solutions, count.threads, count.engine.name());
    record.split_depth = count.split_depth;
    record.plan = Some(count.plan.to_string());
    record.units = Some(if whole {
        Units::All(count.units)
    } else {
        Units::Some(count.unit_counts.clone())
    });
    if !whole {
        record.matches_known = None;
    }
    record.resumed_units = resumed;
    record.journal = journal;
    record
}

/// The record of `solutions` counted on `threads` threads by `engine`,
/// with nothing else known yet.
pub(super) fn bare_record(
    n: u32,
    solutions: u128,
    threads: usize,
    engine: &'static str,
) -> CountRecord {
    CountRecord {
        n,
        solutions,
        elapsed_secs: 0.0,
        threads,
        split_depth: None,
        units: None,
        engine,
        plan: None,
        problem: None,
        known: known::total(n),
        matches_known: known::matches_total(n, solutions),
        unique: None,
        cross_check: None,
        resumed_units: 0,
        journal: None,
        version: env!("CARGO_PKG_VERSION"),
        counted_before: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Report;

    fn written(form: Form, write: impl FnOnce(&mut Report<&mut Vec<u8>>)) -> String {
        let mut bytes = Vec::new();
        write(&mut Report::new(&mut bytes, form));
        String::from_utf8(bytes).unwrap()
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
            problem: None,
            known: Some(92),
            matches_known: Some(true),
            unique: None,
            cross_check: None,
            resumed_units: 0,
            journal: None,
            version: "0",
            counted_before: None,
        }
    }

    /// Issue 47, item 16: a finished shard rerun printed "0 s" and "0"
    /// threads.
    #[test]
    fn a_count_made_before_shows_no_time_of_its_own() {
        let record = CountRecord {
            units: Some(Units::Some(vec![(0, 40), (2, 52)])),
            counted_before: Some("d/shard-0000-of-0002.json".to_owned()),
            ..count_record()
        };
        let human = written(Form::Human, |report| report.record(&record).unwrap());
        assert_eq!(
            human,
            "  8                    92           -        -  2 units: not a total, counted \
             before: d/shard-0000-of-0002.json\n"
        );
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
             8                    92      120 µs        2  ok\n"
        );
        assert_eq!(report_mismatches(&record), 0);
        let quiet = written(Form::Quiet, |report| report.record(&record).unwrap());
        assert_eq!(quiet, "92\n");
        let json = written(Form::Json, |report| report.record(&record).unwrap());
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(json["solutions"], 92);
        assert_eq!(json["matches_known"], true);
    }
}
