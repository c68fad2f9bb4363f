//! How a count is reported: one record per board size, written as a table
//! row, a quiet line or a JSON line, and the one way a disagreement is
//! announced.
//!
//! Everything the user reads about a result comes from here, so the three
//! outputs cannot drift apart. Nothing here counts.

use std::io::{self, Write};
use std::time::Duration;

use serde::Serialize;

/// A count that disagrees with OEIS or with a second engine.
pub const EXIT_MISMATCH: u8 = 3;

/// Says loudly on stderr that `what` disagrees: the one message for every
/// kind of mismatch.
pub fn mismatch(what: &str) {
    eprintln!(
        "queens: MISMATCH {what}. This is a bug in queens or a hardware fault: please report it."
    );
}

/// A total that disagrees after a resume: the journal's records are the
/// first suspects, so they are named, with how to recount them.
fn journal_mismatch(what: &str, journal: &str, resumed: usize, units: Option<usize>) {
    let of = units.map(|u| format!(" of {u}")).unwrap_or_default();
    eprintln!(
        "queens: MISMATCH {what}. {resumed}{of} units came from the journal {journal}, which may \
         hold damaged or forged records: recount them with 'queens verify --journal {journal} \
         --sample 100%', or count again without it. If they agree, this is a bug in queens or a \
         hardware fault: please report it."
    );
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
    /// The plan's hash, `sha256:...` (the engines only).
    #[serde(skip_serializing_if = "Option::is_none")]
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

/// How the records are written.
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
    /// The table's header, if this style has one.
    pub fn header(self, out: &mut impl Write) -> io::Result<()> {
        let Self::Human { unique } = self else {
            return Ok(());
        };
        write!(out, "{:>3}  {:>20}  ", "n", "solutions")?;
        if unique {
            write!(
                out,
                "{:>18}  {:>18}  {:>12}  {:>8}  ",
                "unique", "8-member", "4-member", "2-member"
            )?;
        }
        writeln!(out, "{:>10}  {:>7}  OEIS", "time", "threads")
    }

    /// Writes `record`, then says on stderr what disagrees with OEIS;
    /// returns how many counts did.
    pub fn write(self, out: &mut impl Write, record: &CountRecord) -> io::Result<u32> {
        match self {
            Self::Json => {
                serde_json::to_writer(&mut *out, record)?;
                writeln!(out)?;
            }
            Self::Quiet => match &record.unique {
                Some(u) => writeln!(out, "{} {}", record.solutions, u.unique)?,
                None => writeln!(out, "{}", record.solutions)?,
            },
            Self::Human { .. } => human_row(out, record)?,
        }
        out.flush()?;
        Ok(report_mismatches(record))
    }
}

fn human_row(out: &mut impl Write, record: &CountRecord) -> io::Result<()> {
    let mut verdict = match (&record.units, record.matches_known, record.known) {
        (Some(Units::Some(counted)), _, _) => format!("{} units: not a total", counted.len()),
        (_, Some(true), _) => "ok".to_owned(),
        (_, Some(false), known) => format!("MISMATCH (known: {})", known.unwrap_or_default()),
        (_, None, _) => "unknown".to_owned(),
    };
    write!(out, "{:>3}  {:>20}  ", record.n, record.solutions)?;
    if let Some(u) = &record.unique {
        let c = u.classes;
        write!(
            out,
            "{:>18}  {:>18}  {:>12}  {:>8}  ",
            u.unique, c.none, c.rotation_180, c.rotation_90
        )?;
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
    if let Some(c) = record.cross_check {
        let word = if c.agrees { "agrees" } else { "DISAGREES" };
        verdict = format!("{verdict}, {} {word}", c.engine);
    }
    writeln!(
        out,
        "{:>10}  {:>7}  {verdict}",
        format_duration(Duration::from_secs_f64(record.elapsed_secs)),
        record.threads
    )
}

/// Says loudly on stderr which counts of `record` disagree with the OEIS;
/// returns how many did.
fn report_mismatches(record: &CountRecord) -> u32 {
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
