//! The checkpoint journal's format: a header line naming the plan, then
//! one line per finished unit, each with its own checksum.
//!
//! ```text
//! QJ2 n=16 engine=join format=1 split=- units=6470 plan=sha256:7382...ae40
//! 17 81234567 9f3a01c2
//! 3 0 5c1b7a33
//! ```
//!
//! A record is `id count crc`: the unit's id and count in decimal, then the
//! CRC-32 of `PLAN id count` in eight hex digits, where PLAN is the plan's
//! hash as the header gives it (`sha256:...`): a record checks out only
//! under the header of the plan it was counted for, so records copied from
//! another plan's journal, or a header swapped onto another plan's records,
//! are taken for damage and counted again. The checksum protects against
//! damage and mix-ups, not against a forger, who can compute it too: that
//! takes recounting a sample (`queens verify --journal`). Records come in
//! the order the units finished. [`Replay::read`] reads a journal back and trusts nothing
//! it cannot check: it stops at the first line that is torn (no newline),
//! unparsable, for a unit the plan does not have, whose checksum fails, or
//! whose count no unit can have ([`Plan::check_count`]: what a forger who
//! recomputed the checksum still cannot hide), and says where and why
//! ([`Damage`]), so that the caller cuts the file there and recounts what
//! followed. Zero bytes are room a writer set aside: at the end they are
//! unused, and before a record on its line they are the slot of a record
//! whose copy a kill cut short (skipped; that unit is counted again). The same unit twice with equal counts is a confirmation; with
//! different counts the journal is refused, since nothing says which is
//! right.
//!
//! This module formats and parses bytes; [`Journal`] (feature `files`,
//! Unix and Windows) opens, locks, appends to and syncs the file while a
//! [`crate::Runner`] counts, and [`ReadOnly`] reads one back with its
//! plan, to check it.

use std::fmt::Write;

use crate::count::Plan;

#[cfg(all(feature = "files", any(unix, windows)))]
mod read_only;
#[cfg(all(feature = "files", any(unix, windows)))]
mod writer;
#[cfg(all(feature = "files", any(unix, windows)))]
pub use read_only::ReadOnly;
#[cfg(all(feature = "files", any(unix, windows)))]
pub use writer::{Cut, Journal, LockWait, OnWait, OpenError};

/// The journal format: the header's first word. `QJ1` journals, whose
/// records' checksums did not cover the plan, are refused.
const MAGIC: &str = "QJ2";

/// Header words of the formats before [`MAGIC`].
const OLD_MAGICS: [&str; 1] = ["QJ1"];

/// What the header of a journal says about its plan.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Header {
    fields: Vec<(&'static str, String)>,
    /// The plan's hash, which every record's checksum covers.
    plan: String,
}

/// Why a journal cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// A journal of an older format, written by an older queens.
    #[error(
        "it is a journal of an older format ({found}), whose records are not bound to their \
         plan; this queens reads {MAGIC} only"
    )]
    OldFormat {
        /// The old format's header word.
        found: String,
    },
    /// The first line is not a journal header.
    #[error("it is not a queens journal (its first line does not start with '{MAGIC} ')")]
    NotAJournal,
    /// The file holds the start of a header and no newline: the write of
    /// a new journal's header was cut short, so it names no plan yet.
    #[error(
        "its header is incomplete (cut short before the end of its line, as when a count is \
         killed while creating the journal), so it names no plan and holds no records"
    )]
    TornHeader,
    /// The first line starts like a header but does not name a plan.
    #[error("its header does not name a plan: it lacks {lacks}, or has a value no plan has")]
    BadHeader {
        /// The fields missing or unreadable.
        lacks: String,
    },
    /// The header is for another plan.
    #[error("it is for another plan: {field} is {theirs} there, {ours} here")]
    OtherPlan {
        /// The first field that differs.
        field: &'static str,
        /// Its value in the journal.
        theirs: String,
        /// Its value for this count.
        ours: String,
    },
    /// The header is for another problem's plan (the empty board's, where
    /// this count's is a problem's, or the other way round): named before
    /// any other field, which would only differ because of it.
    #[error(
        "it is the journal of another problem ({theirs} there, {ours} here): count that \
         problem to resume it"
    )]
    OtherProblem {
        /// Its problem, in words.
        theirs: String,
        /// This count's, in words.
        ours: String,
    },
    /// The file holds nothing but zero bytes: no journal does, since a
    /// new journal's header is on the disk before any room is set aside.
    #[error("it holds only zero bytes, which no queens journal does")]
    Zeros,
    /// The header line ends in a carriage return: the file went through
    /// a text tool that writes CR LF line ends.
    #[error(
        "its lines end in CR LF (was it edited, or copied as text, on Windows?); a journal's \
         lines end in LF alone"
    )]
    CarriageReturns,
    /// A unit recorded twice with different counts.
    #[error(
        "unit {id} is recorded twice with different counts ({first} and {second}), so the \
         journal cannot be trusted"
    )]
    Conflict {
        /// The unit.
        id: u32,
        /// Its first count.
        first: u128,
        /// The other.
        second: u128,
    },
}

/// The `key=value` words of a header line, after its format word.
fn fields(line: &str) -> Result<Vec<(&str, &str)>, Refusal> {
    let mut words = line.split(' ');
    match words.next() {
        Some(MAGIC) => Ok(words.filter_map(|w| w.split_once('=')).collect()),
        Some(old) if OLD_MAGICS.contains(&old) => Err(Refusal::OldFormat {
            found: old.to_owned(),
        }),
        _ => Err(Refusal::NotAJournal),
    }
}

/// Whether `bytes`, which hold no newline, are the start of a journal's
/// header (of any plan): a header whose first write was cut short.
#[must_use]
pub fn is_torn_header(bytes: &[u8]) -> bool {
    let magic = format!("{MAGIC} ");
    !bytes.is_empty()
        && !bytes.contains(&b'\n')
        && (bytes.starts_with(magic.as_bytes()) || magic.as_bytes().starts_with(bytes))
}

/// What a journal's header says of its plan: enough to build the plan
/// again, which [`Header::check`] then compares whole.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Described {
    /// Board size.
    pub n: u32,
    /// The engine's name.
    pub engine: String,
    /// The mirror engine's split depth; `None` for the join.
    pub split: Option<u32>,
    /// The problem whose completions the plan counts
    /// ([`crate::Problem::to_line`]); `None` for the empty board.
    pub problem: Option<String>,
}

impl Header {
    /// Reads what the header `line` (without its newline) says of its
    /// plan.
    ///
    /// # Errors
    /// [`Refusal::NotAJournal`], [`Refusal::OldFormat`] or
    /// [`Refusal::BadHeader`].
    pub fn describe(line: &str) -> Result<Described, Refusal> {
        let fields = fields(line)?;
        let field = |key: &str| fields.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
        let n = field("n").and_then(|n| n.parse().ok());
        let engine = field("engine");
        let split = match field("split") {
            Some("-") => Some(None),
            Some(depth) => depth.parse().ok().map(Some),
            None => None,
        };
        match (n, engine, split) {
            (Some(n), Some(engine), Some(split)) if engine.len() <= 16 => Ok(Described {
                n,
                engine: engine.to_owned(),
                split,
                problem: field("problem").map(str::to_owned),
            }),
            _ => {
                let lacks = [
                    ("n", n.is_none()),
                    ("engine", engine.is_none_or(|e| e.len() > 16)),
                    ("split", split.is_none()),
                ];
                let lacks: Vec<&str> = lacks.iter().filter(|(_, l)| *l).map(|(f, _)| *f).collect();
                Err(Refusal::BadHeader {
                    lacks: lacks.join(", "),
                })
            }
        }
    }

    /// The header of `plan`'s journal.
    #[must_use]
    pub fn of(plan: &Plan) -> Self {
        let mut fields = plan.header().fields().to_vec();
        fields.push(("units", plan.len().to_string()));
        fields.push(("plan", plan.hash().to_string()));
        Self {
            fields,
            plan: plan.hash().to_string(),
        }
    }

    /// The header as its line, with the newline.
    #[must_use]
    pub fn line(&self) -> String {
        let mut line = MAGIC.to_owned();
        for (key, value) in &self.fields {
            write!(line, " {key}={value}").expect("writing to a String cannot fail");
        }
        line.push('\n');
        line
    }

    /// Checks that `line` (without its newline) is this header, naming the
    /// first field that differs.
    ///
    /// # Errors
    /// [`Refusal::NotAJournal`] or [`Refusal::OtherPlan`].
    pub fn check(&self, line: &str) -> Result<(), Refusal> {
        let theirs = fields(line)?;
        // See: issue 47, item 16 (a problem's journal reused for the empty
        // board was refused for its unit count).
        let ours = |key| {
            (self.fields.iter())
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.as_str())
        };
        let theirs_of = |key| theirs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
        if ours("problem") != theirs_of("problem") {
            return Err(Refusal::OtherProblem {
                theirs: in_words(theirs_of("problem"), theirs_of("n")),
                ours: in_words(ours("problem"), ours("n")),
            });
        }
        for (key, ours) in &self.fields {
            let found = theirs.iter().find(|(k, _)| k == key).map(|(_, v)| *v);
            if found != Some(ours.as_str()) {
                return Err(Refusal::OtherPlan {
                    field: key,
                    theirs: found.unwrap_or("missing").to_owned(),
                    ours: ours.clone(),
                });
            }
        }
        if line.len() + 1 != self.line().len() {
            return Err(Refusal::OtherPlan {
                field: "header",
                theirs: format!("'{line}'"),
                ours: format!("'{}'", self.line().trim_end()),
            });
        }
        Ok(())
    }
}

/// A header's problem (its line) on a board of `n`, in words: its
/// constraints, or the empty board; a line no problem has, cut short.
fn in_words(problem: Option<&str>, n: Option<&str>) -> String {
    // A forged line is shown cut short, its control characters escaped.
    const KEEP: usize = 40;
    let clip = |text: &str| {
        let shown: String = text.chars().take(KEEP).collect();
        let cut = if shown.len() < text.len() { "..." } else { "" };
        format!("'{}{cut}'", shown.escape_debug())
    };
    match problem {
        None => match n.and_then(|n| n.parse::<u32>().ok()) {
            Some(n) => format!("the empty board of {n}"),
            None => "the empty board".to_owned(),
        },
        Some(line) => match crate::Problem::from_line(line) {
            Ok(problem) => format!("{} on a board of {}", problem.describe(), problem.n()),
            Err(_) => format!("the problem {}", clip(line)),
        },
    }
}

/// The longest record: a `u32`, a `u128`, a checksum, two spaces and a
/// newline.
pub const MAX_RECORD: usize = 10 + 39 + 8 + 3;

/// The most bytes a journal's header line can take: a problem's plan names
/// its problem there, up to 1,055 characters at n = 32 (see
/// [`crate::Problem::to_line`]); the rest of the line is under 300.
pub const MAX_HEADER: usize = 4 << 10;

/// The most bytes a journal of a plan of `units` units can hold: its
/// header (at most [`MAX_HEADER`]), a record per unit, and the room a killed run
/// left unused, with a margin for records written twice. A longer file is
/// not a journal of that plan, and is refused before it is read.
#[must_use]
pub fn max_len(units: usize) -> u64 {
    MAX_HEADER as u64 + 4 * units as u64 * MAX_RECORD as u64
}

impl Header {
    /// One unit's record, with its newline, written into `buf` without
    /// allocating (the journal writes one per unit, on the hot path of
    /// small units); returns its length.
    pub fn write_record(&self, id: u32, count: u128, buf: &mut [u8; MAX_RECORD]) -> usize {
        let mut ids = itoa::Buffer::new();
        let mut counts = itoa::Buffer::new();
        let (id, count) = (ids.format(id).as_bytes(), counts.format(count).as_bytes());
        let body = id.len() + 1 + count.len();
        buf[..id.len()].copy_from_slice(id);
        buf[id.len()] = b' ';
        buf[id.len() + 1..body].copy_from_slice(count);
        let crc = self.checksum(&buf[..body]);
        buf[body] = b' ';
        for (i, slot) in buf[body + 1..body + 9].iter_mut().enumerate() {
            *slot = b"0123456789abcdef"[(crc >> (28 - 4 * i)) as usize & 0xf];
        }
        buf[body + 9] = b'\n';
        body + 10
    }

    /// One unit's record, with its newline, as text.
    #[must_use]
    pub fn record(&self, id: u32, count: u128) -> String {
        let mut buf = [0; MAX_RECORD];
        let len = self.write_record(id, count, &mut buf);
        String::from_utf8_lossy(&buf[..len]).into_owned()
    }

    /// The CRC-32 of `PLAN body`: a record's checksum, bound to the plan.
    fn checksum(&self, body: &[u8]) -> u32 {
        let mut crc = crc32fast::Hasher::new();
        crc.update(self.plan.as_bytes());
        crc.update(b" ");
        crc.update(body);
        crc.finalize()
    }

    /// A record's line (without newline) read back, if it checks out
    /// under this header's plan, or why it does not.
    fn parse_record(&self, line: &str) -> Result<(u32, u128), Damage> {
        let (body, crc) = line.rsplit_once(' ').ok_or(Damage::NotARecord)?;
        let crc = u32::from_str_radix(crc, 16)
            .ok()
            .filter(|_| crc.len() == 8)
            .ok_or(Damage::NotARecord)?;
        let (id, count) = body.split_once(' ').ok_or(Damage::NotARecord)?;
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(id) || !digits(count) {
            return Err(Damage::NotARecord);
        }
        if self.checksum(body.as_bytes()) != crc {
            return Err(Damage::Checksum);
        }
        Ok((
            id.parse().map_err(|_| Damage::NotARecord)?,
            count.parse().map_err(|_| Damage::NotARecord)?,
        ))
    }
}

/// Why a journal's line is not a record to trust: the journal is
/// damaged (or forged) from there on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Damage {
    /// The last line has no newline: a write cut short.
    #[error("it is cut short (no newline): a torn record")]
    Torn,
    /// The line is not `id count crc`.
    #[error("it is not a record")]
    NotARecord,
    /// Its checksum fails under the journal's plan.
    #[error("its checksum fails under this journal's plan: a damaged record, or another plan's")]
    Checksum,
    /// Its checksum holds, but no unit can have its count (or the plan
    /// has no such unit): damaged before the checksum was computed, or
    /// forged.
    #[error("{0}: a damaged or forged record")]
    Impossible(#[from] crate::Impossible),
}

/// A journal read back.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Replay {
    /// Every unit the journal holds, once, in id order, with its count.
    pub done: Vec<(u32, u128)>,
    /// How many bytes, from the start, hold the header and good records:
    /// the file is cut here.
    pub good_len: usize,
    /// The 1-based line where the journal went bad, if it did. Zero bytes
    /// at the end are room a writer set aside and never used, not damage.
    pub bad_line: Option<usize>,
    /// What is wrong with the line `bad_line`.
    pub damage: Option<Damage>,
    /// How many lines from `bad_line` on (that one included) are left
    /// unread: none of them is trusted, whether it would check out or not.
    pub untrusted: usize,
    /// Whether the file must be written anew from the header (it was empty
    /// or held only part of a header).
    pub fresh: bool,
}

impl Replay {
    /// Reads `bytes`, a journal for `plan`. A record must check out under
    /// the plan's header and hold a count its unit can have
    /// ([`Plan::check_count`]); the first that does not ends what is
    /// trusted.
    ///
    /// # Errors
    /// [`Refusal`] when the journal belongs to another plan, is not a
    /// journal, or records a unit twice with different counts.
    pub fn read(bytes: &[u8], plan: &Plan) -> Result<Self, Refusal> {
        let header = &Header::of(plan);
        let units = plan.len();
        let unused = bytes.iter().rev().take_while(|&&b| b == 0).count();
        let bytes = &bytes[..bytes.len() - unused];
        if bytes.is_empty() && unused > 0 {
            return Err(Refusal::Zeros);
        }
        let Some(end) = bytes.iter().position(|&b| b == b'\n') else {
            // Empty, or a header torn while it was first written.
            return if header.line().as_bytes().starts_with(bytes) {
                Ok(Self {
                    done: Vec::new(),
                    good_len: 0,
                    bad_line: None,
                    damage: None,
                    untrusted: 0,
                    fresh: true,
                })
            } else if is_torn_header(bytes) {
                Err(Refusal::TornHeader)
            } else {
                Err(Refusal::NotAJournal)
            };
        };
        let first = std::str::from_utf8(&bytes[..end]).map_err(|_| Refusal::NotAJournal)?;
        if let Some(first) = first.strip_suffix('\r') {
            header.check(first)?;
            return Err(Refusal::CarriageReturns);
        }
        header.check(first)?;
        let mut counts: Vec<Option<u128>> = vec![None; units];
        let mut good_len = end + 1;
        let mut bad_line = None;
        let mut damage = None;
        let mut untrusted = 0;
        for (line, number) in bytes[good_len..].split_inclusive(|&b| b == b'\n').zip(2..) {
            // Zeros before a record are the slot of a record whose copy was
            // cut short by a kill: only what follows the last zero can be a
            // record, and it must check out like any other.
            let record = line.rsplit(|&b| b == 0).next().unwrap_or(line);
            let parsed = record
                .strip_suffix(b"\n")
                .ok_or(Damage::Torn)
                .and_then(|l| std::str::from_utf8(l).map_err(|_| Damage::NotARecord))
                .and_then(|l| header.parse_record(l))
                .and_then(|(id, count)| {
                    plan.check_count(id, count)?;
                    Ok((id, count))
                });
            let (id, count) = match parsed {
                Ok(record) => record,
                Err(why) => {
                    bad_line = Some(number);
                    damage = Some(why);
                    untrusted = bytes[good_len..]
                        .split(|&b| b == b'\n')
                        .filter(|l| l.iter().any(|&b| b != 0))
                        .count();
                    break;
                }
            };
            match counts[id as usize] {
                Some(first) if first != count => {
                    return Err(Refusal::Conflict {
                        id,
                        first,
                        second: count,
                    });
                }
                _ => counts[id as usize] = Some(count),
            }
            good_len += line.len();
        }
        let done = (0u32..)
            .zip(counts)
            .filter_map(|(id, c)| c.map(|c| (id, c)))
            .collect();
        Ok(Self {
            done,
            good_len,
            bad_line,
            damage,
            untrusted,
            fresh: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;
    use crate::{Config, Engine};

    fn header() -> (Plan, Header) {
        let plan = Plan::new(Shape::new(8, Engine::Mirror, None), &Config::default()).unwrap();
        let header = Header::of(&plan);
        (plan, header)
    }

    /// A journal naming an engine this build does not have (`gpu`, the
    /// engine of a development version, among them) is another plan's
    /// when resumed, and one whose engine is refused by name when its plan
    /// is rebuilt from its header alone.
    #[test]
    fn a_journal_of_an_unknown_engine_is_refused_with_one_line() {
        let (_, header) = header();
        let line = header.line();
        let other = line.trim_end().replace("engine=mirror", "engine=gpu");
        assert_ne!(other, line.trim_end(), "the header names its engine");
        let refusal = header.check(&other).unwrap_err();
        assert!(
            matches!(&refusal, Refusal::OtherPlan { field: "engine", theirs, .. } if theirs == "gpu"),
            "{refusal:?}"
        );
        assert!(!refusal.to_string().contains('\n'));
        let described = Header::describe(&other).unwrap();
        let err = described.engine.parse::<crate::Engine>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown engine 'gpu': expected mirror, join or constellations"
        );
    }

    #[test]
    fn records_are_written_without_allocating_as_formatting_would() {
        let (plan, header) = header();
        for (id, count) in [(0, 0), (17, 81_234_567), (u32::MAX, u128::MAX)] {
            let body = format!("{id} {count}");
            let bound = format!("{} {body}", plan.hash());
            let want = format!("{body} {:08x}\n", crc32fast::hash(bound.as_bytes()));
            assert_eq!(header.record(id, count), want);
        }
    }

    #[test]
    fn records_carry_their_checksum() {
        let (plan, header) = header();
        let line = header.record(17, 81_234_567);
        assert!(line.starts_with("17 81234567 ") && line.ends_with('\n'));
        assert_eq!(header.parse_record(line.trim_end()), Ok((17, 81_234_567)));
        // One flipped digit, one flipped checksum digit, missing parts.
        let flipped = line.trim_end().replace("812", "813");
        assert_eq!(header.parse_record(&flipped), Err(Damage::Checksum));
        let bound = format!("{} 17 81234567", plan.hash());
        let bad_crc = format!("17 81234567 {:08x}", crc32fast::hash(bound.as_bytes()) ^ 1);
        assert_eq!(header.parse_record(&bad_crc), Err(Damage::Checksum));
        for bad in ["", "17", "17 5", "x 5 00000000", "-1 5 00000000"] {
            assert_eq!(header.parse_record(bad), Err(Damage::NotARecord), "{bad:?}");
        }
    }

    #[test]
    fn a_record_checks_out_only_under_its_own_plan() {
        // Issue 21: a record of n = 9's plan, or n = 8's split another way,
        // fails under n = 8's header, and the unbound checksum of QJ1
        // fails too.
        let (_, header) = header();
        for other in [
            Plan::new(Shape::new(9, Engine::Mirror, None), &Config::default()).unwrap(),
            Plan::new(Shape::new(8, Engine::Mirror, Some(3)), &Config::default()).unwrap(),
            Plan::new(Shape::new(8, Engine::Join, None), &Config::default()).unwrap(),
        ] {
            let foreign = Header::of(&other).record(3, 10);
            assert_eq!(
                header.parse_record(foreign.trim_end()),
                Err(Damage::Checksum),
                "{foreign}"
            );
        }
        let unbound = format!("3 10 {:08x}", crc32fast::hash(b"3 10"));
        assert_eq!(header.parse_record(&unbound), Err(Damage::Checksum));
    }

    #[test]
    fn a_header_swapped_onto_another_plans_records_keeps_none_of_them() {
        let (plan, header) = header();
        let other = Header::of(
            &Plan::new(Shape::new(9, Engine::Mirror, None), &Config::default()).unwrap(),
        );
        let text = header.line() + &other.record(3, 10) + &other.record(4, 2);
        let replay = Replay::read(text.as_bytes(), &plan).unwrap();
        assert_eq!((replay.done.len(), replay.bad_line), (0, Some(2)));
        assert_eq!(replay.good_len, header.line().len());
    }

    #[test]
    fn an_old_format_journal_is_refused_by_name() {
        let (plan, header) = header();
        let old = header.line().replacen("QJ2", "QJ1", 1);
        assert_eq!(
            Replay::read(old.as_bytes(), &plan),
            Err(Refusal::OldFormat {
                found: "QJ1".to_owned()
            })
        );
    }

    #[test]
    fn a_journal_reads_back_what_was_written() {
        let (plan, header) = header();
        let text =
            header.line() + &header.record(3, 10) + &header.record(0, 4) + &header.record(3, 10);
        let replay = Replay::read(text.as_bytes(), &plan).unwrap();
        assert_eq!(replay.done, [(0, 4), (3, 10)], "equal duplicates confirm");
        assert_eq!((replay.good_len, replay.bad_line), (text.len(), None));
    }

    #[test]
    fn a_torn_or_corrupt_tail_is_cut_at_the_first_bad_record() {
        let (plan, header) = header();
        let good = header.line() + &header.record(3, 10);
        for tail in ["5 2", "5 2 0000", "garbage\n", "99 1 00000000\n"] {
            let text = good.clone() + tail + &header.record(4, 2);
            let replay = Replay::read(text.as_bytes(), &plan).unwrap();
            assert_eq!(replay.done, [(3, 10)], "{tail:?}");
            assert_eq!((replay.good_len, replay.bad_line), (good.len(), Some(3)));
        }
        let out_of_plan = good.clone() + &header.record(21, 2);
        let replay = Replay::read(out_of_plan.as_bytes(), &plan).unwrap();
        assert_eq!(replay.bad_line, Some(3), "unit 21 is not in a 21-unit plan");
        assert!(matches!(
            replay.damage,
            Some(Damage::Impossible(crate::Impossible::NoUnit { id: 21, .. }))
        ));
    }

    #[test]
    fn zeros_are_unused_room_at_the_end_and_unfinished_slots_between_records() {
        let (plan, header) = header();
        let good = header.line() + &header.record(3, 10);
        let mut bytes = good.clone().into_bytes();
        bytes.extend([0; 120]);
        let replay = Replay::read(&bytes, &plan).unwrap();
        assert_eq!(
            (replay.done.len(), replay.good_len, replay.bad_line),
            (1, good.len(), None)
        );
        // Thread A reserved a slot and was killed before copying (all
        // zeros) or halfway (a prefix); thread B's record after it stands.
        for slot in [
            vec![0u8; 20],
            b"5 1".iter().copied().chain([0; 17]).collect(),
        ] {
            let mut holed = good.clone().into_bytes();
            holed.extend(&slot);
            holed.extend(header.record(4, 2).as_bytes());
            let used = holed.len();
            holed.extend([0; 60]);
            let replay = Replay::read(&holed, &plan).unwrap();
            assert_eq!(replay.done, [(3, 10), (4, 2)], "{slot:?}");
            assert_eq!((replay.good_len, replay.bad_line), (used, None));
        }
        // Garbage with no zero in it is not a slot: the journal is cut there.
        let mut garbage = good.clone().into_bytes();
        garbage.extend(b"x");
        garbage.extend(header.record(4, 2).as_bytes());
        let replay = Replay::read(&garbage, &plan).unwrap();
        assert_eq!((replay.done.len(), replay.bad_line), (1, Some(3)));
        // Issue 20: a file of zeros is not an empty journal (a new
        // journal's header reaches the disk before its room is set aside).
        let only_zeros = [0u8; 64];
        assert_eq!(Replay::read(&only_zeros, &plan), Err(Refusal::Zeros));
    }

    #[test]
    fn empty_and_torn_headers_start_afresh_and_foreign_files_are_refused() {
        let (plan, header) = header();
        let line = header.line();
        for prefix in ["", "Q", &line[..10]] {
            let replay = Replay::read(prefix.as_bytes(), &plan).unwrap();
            assert!(replay.fresh, "{prefix:?}");
        }
        for foreign in ["hello", "hello\n", "QJ9 n=8\n", "\u{feff}QJ2\n"] {
            assert_eq!(
                Replay::read(foreign.as_bytes(), &plan),
                Err(Refusal::NotAJournal),
                "{foreign:?}"
            );
        }
    }

    #[test]
    fn a_header_for_another_plan_names_the_field() {
        let (plan, header) = header();
        let other = Plan::new(Shape::new(9, Engine::Mirror, None), &Config::default()).unwrap();
        let text = Header::of(&other).line();
        let refusal = Replay::read(text.as_bytes(), &plan).unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "it is for another plan: n is 9 there, 8 here"
        );
        let split = Plan::new(Shape::new(8, Engine::Mirror, Some(3)), &Config::default()).unwrap();
        let text = Header::of(&split).line();
        let refusal = Replay::read(text.as_bytes(), &plan).unwrap_err();
        assert!(
            matches!(refusal, Refusal::OtherPlan { field: "split", .. }),
            "{refusal}"
        );
        let extra = header.line().trim_end().to_owned() + " more=1\n";
        let refusal = Replay::read(extra.as_bytes(), &plan).unwrap_err();
        assert!(
            matches!(
                refusal,
                Refusal::OtherPlan {
                    field: "header",
                    ..
                }
            ),
            "{refusal}"
        );
    }

    /// See: issue 47, item 16: a problem's journal for the empty board
    /// (and the other way round) was refused for its unit count.
    #[test]
    fn a_header_of_another_problem_names_both_problems() {
        let (plan, header) = header();
        let given = crate::Problem::new(8, [crate::Square::new(1, 4)], []).unwrap();
        let problem = Plan::for_problem(&given, None, &Config::default()).unwrap();
        let theirs = Header::of(&problem).line();
        assert_eq!(
            Replay::read(theirs.as_bytes(), &plan)
                .unwrap_err()
                .to_string(),
            "it is the journal of another problem (queens given at 2:5 on a board of 8 there, \
             the empty board of 8 here): count that problem to resume it"
        );
        assert_eq!(
            Replay::read(header.line().as_bytes(), &problem)
                .unwrap_err()
                .to_string(),
            "it is the journal of another problem (the empty board of 8 there, queens given at \
             2:5 on a board of 8 here): count that problem to resume it"
        );
        // A forged problem line is shown cut short, escaped.
        let forged = theirs.replace("problem=", "problem=\u{1b}[2J");
        let refusal = Replay::read(forged.as_bytes(), &plan)
            .unwrap_err()
            .to_string();
        assert!(
            refusal.contains("the problem '\\u{1b}[2J........"),
            "{refusal}"
        );
        assert!(!refusal.contains('\u{1b}'), "{refusal}");
    }

    #[test]
    fn a_journal_with_cr_lf_line_ends_is_refused_as_such() {
        // Issue 20: the message named two identical plan hashes.
        let (plan, header) = header();
        let text = (header.line() + &header.record(3, 10)).replace('\n', "\r\n");
        assert_eq!(
            Replay::read(text.as_bytes(), &plan),
            Err(Refusal::CarriageReturns)
        );
        let other = Plan::new(Shape::new(9, Engine::Mirror, None), &Config::default()).unwrap();
        let text = Header::of(&other).line().replace('\n', "\r\n");
        assert!(matches!(
            Replay::read(text.as_bytes(), &plan),
            Err(Refusal::OtherPlan { field: "n", .. })
        ));
    }

    #[test]
    fn unequal_duplicates_are_refused() {
        let (plan, header) = header();
        let text = header.line() + &header.record(3, 10) + &header.record(3, 12);
        assert_eq!(
            Replay::read(text.as_bytes(), &plan),
            Err(Refusal::Conflict {
                id: 3,
                first: 10,
                second: 12
            })
        );
    }
    /// See: issue 32 (a count changed together with its checksum was
    /// believed whatever it was).
    #[test]
    fn a_count_no_unit_can_have_is_damage_whatever_its_checksum() {
        let (plan, header) = header();
        let good = header.line() + &header.record(3, 10);
        let weight = plan.unit(4).unwrap().weight;
        assert_eq!(weight, 2, "the mirror engine's units of n = 8");
        let most = plan.max_unit_count();
        for (count, why) in [
            (3, "unit 4: count 3 is not a multiple of its weight 2"),
            (
                most + 2,
                "unit 4: count 94 is more than any unit of n = 8 can have",
            ),
            (u128::from(u64::MAX) + 1, "is more than any unit"),
            (u128::MAX - 1, "is more than any unit"),
        ] {
            let text = good.clone() + &header.record(4, count) + &header.record(5, 2);
            let replay = Replay::read(text.as_bytes(), &plan).unwrap();
            assert_eq!(replay.done, [(3, 10)], "{count}");
            assert_eq!((replay.bad_line, replay.untrusted), (Some(3), 2));
            assert_eq!(replay.good_len, good.len());
            let damage = replay.damage.unwrap().to_string();
            assert!(damage.contains(why), "{damage}");
        }
    }

    #[test]
    fn a_torn_header_is_said_to_be_one() {
        let (plan, _) = header();
        // A torn header of this plan's is a journal to start afresh; of
        // another plan's, it is refused as what it is.
        for ours in ["QJ2 ", "QJ2 n=8 eng", "QJ"] {
            assert!(
                Replay::read(ours.as_bytes(), &plan).unwrap().fresh,
                "{ours:?}"
            );
        }
        for theirs in ["QJ2 n=9 engine=mir", "QJ2 n=8 engine=join"] {
            let refusal = Replay::read(theirs.as_bytes(), &plan);
            assert_eq!(refusal, Err(Refusal::TornHeader), "{theirs:?}");
            assert!(is_torn_header(theirs.as_bytes()));
        }
        assert!(!is_torn_header(b"QJ2 n=8\n") && !is_torn_header(b"hello"));
        assert!(
            Refusal::TornHeader
                .to_string()
                .contains("header is incomplete")
        );
        assert!(matches!(
            Header::describe("QJ2 n=8 split=-"),
            Err(Refusal::BadHeader { lacks }) if lacks == "engine"
        ));
    }
}
