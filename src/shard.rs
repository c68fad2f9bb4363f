//! Shards: one plan's units split among K processes that share nothing,
//! and the checks that put their results back together without trusting
//! them.
//!
//! A scheduler (GNU parallel, a SLURM job array, a Kubernetes Indexed Job)
//! starts K copies of `queens count N --shard I/K`. Each asks the
//! [`Assignment`] which units are its own, counts them and writes a
//! [`ShardFile`]. [`merge()`] then proves, before it gives a total, that the
//! files come from one run of this build's plan, that each holds exactly the
//! units assigned to it with a total that is their sum, and that every unit
//! of the plan is there; a unit seen twice must have the same count both
//! times (a confirmation), or nothing is trusted.
//!
//! The assignment is a pure function of `(plan, K)`, versioned and written
//! into every file, so that a merge years later, on another machine, checks
//! the same sets. K is always given: a scheduler that reruns one task may
//! report a different array size (SLURM sets `SLURM_ARRAY_TASK_COUNT=1` for
//! `--array=1`), and a shard count read from it would silently change the
//! sets.
//!
//! This file deals the units and describes a shard's result; with the
//! `serde` feature it turns a file's bytes into a [`ShardFile`] and back
//! ([`ShardFile::from_json`], [`ShardFile::to_json`]), the one reader that
//! `queens merge`, `queens verify`, the Python package and the tests use.
//! The checks of a merge are in `shard/merge.rs`; the files of a shard
//! task (its result written atomically, its journal's path, the reader
//! with its size cap) in `shard/task.rs`, with the `files` feature on
//! Unix and Windows.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::num::NonZeroU32;

use crate::Error;
use crate::count::plan::PlanHeader;
use crate::count::{Config, Engine, Plan, Shape};

mod merge;
#[cfg(all(feature = "files", any(unix, windows)))]
mod task;

pub use merge::{Merge, Problem, digest, merge, merge_files, ranges, reference, units_csv};
#[cfg(all(feature = "files", any(unix, windows)))]
pub use task::{PrepareError, Prepared, Task, Unreadable, gather, read};

/// What a shard file says it is: its `format` field.
pub const FORMAT: &str = "queens-shard-1";

pub use crate::count::SHARD_SPLIT_DEPTH as SPLIT_DEPTH;
pub use crate::error::MAX_SHARDS;

/// How a plan's units are dealt to K shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Assignment {
    /// Unit `id` to shard `id mod K`. For the mirror engine, whose costs
    /// are estimates: neighbouring units cost alike, so dealing them in
    /// turn spreads every kind evenly.
    RoundRobin,
    /// Largest estimated cost first, each unit to the shard with the least
    /// cost so far (ties to the lowest shard, equal costs in id order). For
    /// the join engine, whose costs are computed, not guessed.
    Lpt,
}

impl Assignment {
    /// The assignment a plan of `engine` is sharded with.
    #[must_use]
    pub fn for_engine(engine: Engine) -> Self {
        match engine {
            Engine::Mirror => Self::RoundRobin,
            _ => Self::Lpt,
        }
    }

    /// Its name in shard files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::RoundRobin => "round-robin",
            Self::Lpt => "lpt",
        }
    }

    /// Its version: bumped whenever it would deal any unit differently, so
    /// that files dealt the old way are refused rather than misread.
    #[must_use]
    pub fn version(self) -> u32 {
        1
    }

    /// The shard of every unit of `plan` among `shards` (indexed by id).
    #[must_use]
    pub fn owners(self, plan: &Plan, shards: NonZeroU32) -> Vec<u32> {
        let shards = shards.get();
        let ids = 0..plan.len() as u32;
        match self {
            Self::RoundRobin => ids.map(|id| id % shards).collect(),
            Self::Lpt => {
                let order = plan.costliest_first(ids);
                let mut owners = vec![0; plan.len()];
                // The least-loaded shard on top; the lowest index wins a tie.
                let mut loads: BinaryHeap<Reverse<(u128, u32)>> =
                    (0..shards).map(|s| Reverse((0, s))).collect();
                for (cost, id) in order {
                    let Reverse((load, shard)) = loads.pop().expect("one entry per shard");
                    owners[id as usize] = shard;
                    loads.push(Reverse((load + u128::from(cost), shard)));
                }
                owners
            }
        }
    }

    /// The ids of the units of `shard`, in id order.
    #[must_use]
    pub fn units(self, plan: &Plan, shard: ShardId) -> Vec<u32> {
        self.owners(plan, shard.count())
            .into_iter()
            .zip(0..)
            .filter_map(|(owner, id)| (owner == shard.index).then_some(id))
            .collect()
    }
}

/// A shard's result, as the file holds it. Every field but `shard`,
/// `units` and `total` is the same in every file of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[non_exhaustive]
pub struct ShardFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Board size.
    pub n: u32,
    /// The engine whose plan it is.
    pub engine: String,
    /// The version of queens that counted.
    pub version: String,
    /// The plan's format version ([`Plan::format`]).
    pub plan_format: u32,
    /// The mirror engine's split depth; null for the join.
    pub split: Option<u32>,
    /// The problem whose completions the plan counts
    /// ([`crate::Problem::to_line`]); absent for the empty board (and in every
    /// file written before problems were planned).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub problem: Option<String>,
    /// The plan's hash, `sha256:...`.
    pub plan: String,
    /// How many units the whole plan has.
    pub plan_units: usize,
    /// This shard's index, `0 <= shard < shards`.
    pub shard: u32,
    /// How many shards the run has.
    pub shards: u32,
    /// The assignment's name ([`Assignment::name`]).
    pub assignment: String,
    /// The assignment's version.
    pub assignment_version: u32,
    /// `[id, count]` of every unit of the shard, in id order.
    pub units: Vec<(u32, u64)>,
    /// The sum of the counts, in decimal: a string, since JSON readers
    /// that hold numbers as doubles lose digits past 2^53.
    pub total: String,
    /// The ids of the units taken from a journal rather than counted by
    /// the run that wrote the file (a retried task's predecessor counted
    /// them), in id order: `queens verify` recounts these first, since a
    /// journal's checksums stop damage, not a forger. Absent in files
    /// written before it was added: none.
    #[cfg_attr(feature = "serde", serde(default))]
    pub journal_units: Vec<u32>,
}

impl ShardFile {
    /// The file for `shard` of `plan`, holding `unit_counts` (in id order).
    ///
    /// # Panics
    /// If a count does not fit in a `u64` (a unit of a board past n = 28).
    #[must_use]
    pub fn new(plan: &Plan, shard: ShardId, unit_counts: &[(u32, u128)]) -> Self {
        let assignment = Assignment::for_engine(plan.engine());
        let units: Vec<(u32, u64)> = unit_counts
            .iter()
            .map(|&(id, c)| {
                (
                    id,
                    u64::try_from(c).expect("a unit's count fits in 64 bits"),
                )
            })
            .collect();
        let total: u128 = units.iter().map(|&(_, c)| u128::from(c)).sum();
        // Every field of the plan's header, by name: a field added to it
        // does not build until the file carries it too.
        let PlanHeader {
            n,
            engine,
            format: plan_format,
            split,
            problem,
        } = plan.header();
        Self {
            format: FORMAT.to_owned(),
            n,
            engine: engine.to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            plan_format,
            split,
            problem,
            plan: plan.hash().to_string(),
            plan_units: plan.len(),
            shard: shard.index(),
            shards: shard.of(),
            assignment: assignment.name().to_owned(),
            assignment_version: assignment.version(),
            units,
            total: total.to_string(),
            journal_units: Vec::new(),
        }
    }

    /// The file, saying that the units `ids` came from a journal.
    #[must_use]
    pub fn with_journal_units(mut self, mut ids: Vec<u32>) -> Self {
        ids.sort_unstable();
        self.journal_units = ids;
        self
    }

    /// The first header field in which `self` and `other` differ (every
    /// field but `shard`, `units` and `total`), with both values.
    #[must_use]
    pub fn other_run(&self, other: &Self) -> Option<(&'static str, String, String)> {
        self.header_fields()
            .into_iter()
            .zip(other.header_fields())
            .find(|((_, a), (_, b))| a != b)
            .map(|((field, a), (_, b))| (field, a, b))
    }

    /// The header's values, which every file of one run shares.
    pub(crate) fn header(&self) -> Vec<String> {
        self.header_fields().into_iter().map(|(_, v)| v).collect()
    }

    fn header_fields(&self) -> [(&'static str, String); 12] {
        let f = self;
        [
            ("format", f.format.clone()),
            ("n", f.n.to_string()),
            ("engine", f.engine.clone()),
            ("version", f.version.clone()),
            ("plan_format", f.plan_format.to_string()),
            (
                "split",
                f.split.map_or("null".to_owned(), |s| s.to_string()),
            ),
            (
                "problem",
                f.problem.clone().unwrap_or_else(|| "null".to_owned()),
            ),
            ("plan", f.plan.clone()),
            ("plan_units", f.plan_units.to_string()),
            ("shards", f.shards.to_string()),
            ("assignment", f.assignment.clone()),
            ("assignment_version", f.assignment_version.to_string()),
        ]
    }

    /// This build's plan for the run the file belongs to, refused with
    /// [`Error::Memory`] where `memory_limit` is set and the plan needs more.
    ///
    /// # Errors
    /// [`Error::UnknownEngine`] for an engine this build does not have;
    /// whatever [`Plan::new`] refuses (a board size out of range, ...).
    pub fn plan(&self, memory_limit: Option<u64>) -> Result<Plan, Error> {
        let engine: Engine = self.engine.parse()?;
        let config = Config::default().with_memory_limit(memory_limit);
        match &self.problem {
            Some(line) if engine == Engine::Mirror => {
                let problem = crate::Problem::from_line(line)?;
                if problem.n() != self.n {
                    return Err(Error::ProblemSize {
                        n: self.n,
                        problem: problem.n(),
                    });
                }
                Plan::for_problem(&problem, self.split, &config)
            }
            Some(_) => Err(Error::NoProblem {
                engine: engine.name(),
            }),
            None => Plan::new(Shape::new(self.n, engine, self.split), &config),
        }
    }

    /// Why the file is not a whole, consistent result for `shard` of
    /// `plan` (a file named `name`), or `None` if it is: how a shard task
    /// that finds its result already written knows it has nothing to do.
    #[must_use]
    pub fn problem_as(&self, plan: &Plan, shard: ShardId, name: &str) -> Option<String> {
        if (self.shard, self.shards) != (shard.index(), shard.of()) {
            return Some(format!("it is shard {}/{}", self.shard, self.shards));
        }
        let merged = merge(plan, &[(name.to_owned(), self.clone())]);
        merged
            .problems
            .iter()
            .find(|p| !matches!(p, Problem::Missing { .. }))
            .map(ToString::to_string)
    }

    /// The file's name in an output directory: `shard-0003-of-0064.json`.
    #[must_use]
    pub fn file_name(index: u32, shards: u32) -> String {
        format!("shard-{index:04}-of-{shards:04}.json")
    }
}

/// The most bytes a shard file may hold. A unit's entry takes at most 34
/// bytes (`[4294967295,18446744073709551615],`), so one shard holding all
/// 4,056,746 units of n = 23's join, the largest plan this build counts,
/// is at most 138 MB; anything longer is refused before it is read.
pub const MAX_FILE_LEN: u64 = 256 << 20;

/// The longest a text field of a shard file may be (an engine's name, a
/// version, a plan hash, a total of up to 39 digits): longer ones are not
/// a shard result, and are never echoed into a message.
const MAX_FIELD: usize = 100;

/// The longest problem line ([`Problem::to_line`](crate::Problem::to_line)): 32 rows of 32
/// squares and 31 slashes.
const MAX_PROBLEM: usize = 32 * 33 - 1;

/// Why bytes are not a shard result, in one line of reasonable length.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotAShard(String);

#[cfg(feature = "serde")]
impl ShardFile {
    /// The file as `count --shard` writes it: JSON and a newline.
    ///
    /// # Panics
    /// Never: every field serialises.
    #[must_use]
    pub fn to_json(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec(self).expect("a shard file serialises");
        bytes.push(b'\n');
        bytes
    }

    /// Reads a shard result from `reader`, as a stream: garbage is refused
    /// at its first wrong byte, and nothing past [`MAX_FILE_LEN`] is read.
    /// Anything that is not a whole shard result (a truncated file,
    /// garbage, another program's JSON, text fields no result has) is
    /// refused with what is wrong. What it claims is checked only by
    /// [`merge()`].
    ///
    /// # Errors
    /// [`NotAShard`], saying why.
    pub fn from_json(reader: impl std::io::Read) -> Result<Self, NotAShard> {
        let reader = std::io::BufReader::new(reader.take(MAX_FILE_LEN));
        let parsed = serde_json::from_reader::<_, Self>(reader).map_err(|e| {
            NotAShard(if e.is_io() {
                format!("cannot be read: {e}")
            } else if e.is_eof() {
                "it is cut short (a truncated file)".to_owned()
            } else if e.to_string().starts_with("number out of range") {
                format!("a number in it is too large ({})", clip(&e.to_string()))
            } else if e.is_syntax() {
                format!("it is not JSON ({})", clip(&e.to_string()))
            } else {
                format!("it is not a queens shard result ({})", clip(&e.to_string()))
            })
        })?;
        parsed.check_fields().map_err(NotAShard)?;
        Ok(parsed)
    }
}

impl ShardFile {
    /// Refuses a parsed file whose text fields no shard result has: too
    /// long to be what they claim, or a total that is not a decimal number.
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    fn check_fields(&self) -> Result<(), String> {
        for (field, value) in [
            ("format", &self.format),
            ("engine", &self.engine),
            ("version", &self.version),
            ("plan", &self.plan),
            ("assignment", &self.assignment),
            ("total", &self.total),
        ] {
            if value.len() > MAX_FIELD {
                return Err(format!(
                    "it is not a queens shard result (its {field} is {} characters long)",
                    value.len()
                ));
            }
        }
        if let Some(problem) = &self.problem
            && problem.len() > MAX_PROBLEM
        {
            return Err(format!(
                "it is not a queens shard result (its problem is {} characters long, and a \
                 32 x 32 board's is {MAX_PROBLEM})",
                problem.len()
            ));
        }
        if self.journal_units.len() > self.units.len() {
            return Err(format!(
                "it is not a queens shard result (it lists {} units from a journal, but holds {})",
                self.journal_units.len(),
                self.units.len()
            ));
        }
        if self.total.parse::<u128>().is_err() || !self.total.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "it is not a queens shard result (its total '{}' is not a whole number of at \
                 most 39 digits)",
                self.total
            ));
        }
        Ok(())
    }
}

/// `text` cut to a length that fits a line, marked where it was cut.
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
fn clip(text: &str) -> String {
    const KEEP: usize = 120;
    match text.char_indices().nth(KEEP) {
        Some((at, _)) => format!("{}... ({} bytes in all)", &text[..at], text.len()),
        None => text.to_owned(),
    }
}

/// Shard index and count, as `I/K`, with `0 <= I < K <= MAX_SHARDS`: the
/// fields are private, so that [`Assignment::units`] and [`Task::prepare`]
/// need not check them (issue 47: `ShardId { index: 3, of: 2 }` made
/// `Task::prepare` panic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShardId {
    index: u32,
    of: NonZeroU32,
}

impl ShardId {
    /// Shard `index` of `of`.
    ///
    /// # Errors
    /// [`Error::Shard`] unless `0 <= index < of <= MAX_SHARDS`.
    ///
    /// ```
    /// use queens::shard::ShardId;
    ///
    /// assert_eq!(ShardId::new(3, 64)?.to_string(), "3/64");
    /// assert!(ShardId::new(3, 2).is_err());
    /// # Ok::<(), queens::Error>(())
    /// ```
    pub fn new(index: u32, of: u32) -> Result<Self, Error> {
        match NonZeroU32::new(of) {
            Some(count) if index < of && of <= MAX_SHARDS => Ok(Self { index, of: count }),
            _ => Err(Error::Shard { index, of }),
        }
    }

    /// Which shard, `0 <= index < of`.
    #[must_use]
    pub const fn index(self) -> u32 {
        self.index
    }

    /// How many shards the run has.
    #[must_use]
    pub const fn of(self) -> u32 {
        self.of.get()
    }

    /// How many shards the run has, as [`Assignment::owners`] takes it.
    #[must_use]
    pub const fn count(self) -> NonZeroU32 {
        self.of
    }
}

impl fmt::Display for ShardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 47, item 9: `ShardId { index: 3, of: 2 }` made `Task::prepare`
    /// panic; now such an id cannot be made.
    #[test]
    fn a_shard_id_is_checked_when_made() {
        for (index, of) in [(3, 2), (2, 2), (0, 0), (0, MAX_SHARDS + 1), (u32::MAX, 1)] {
            assert_eq!(ShardId::new(index, of), Err(Error::Shard { index, of }));
        }
        let last = ShardId::new(MAX_SHARDS - 1, MAX_SHARDS).unwrap();
        assert_eq!(
            (last.index(), last.of(), last.count().get()),
            (99_999, 100_000, 100_000)
        );
        assert_eq!(
            ShardId::new(3, 2).unwrap_err().to_string(),
            "shard 3/2 is out of range: give I/K with 0 <= I < K <= 100000"
        );
    }
}
