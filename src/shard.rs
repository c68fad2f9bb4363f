//! Shards: one plan's units split among K processes that share nothing,
//! and the checks that put their results back together without trusting
//! them.
//!
//! A scheduler (GNU parallel, a SLURM job array, a Kubernetes Indexed Job)
//! starts K copies of `queens count N --shard I/K`. Each asks the
//! [`Assignment`] which units are its own, counts them and writes a
//! [`ShardFile`]. [`merge`] then proves, before it gives a total, that the
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
//! This module never opens, reads or writes files: that is the caller's
//! business. With the `serde` feature it turns a file's bytes into a
//! [`ShardFile`] and back ([`ShardFile::from_json`], [`ShardFile::to_json`]),
//! the one reader that `queens merge`, `queens verify` and the tests use.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::fmt;

use sha2::{Digest, Sha256};

use crate::Error;
use crate::count::plan::{PlanHeader, sha256_text};
use crate::count::{Config, Engine, Plan};

/// What a shard file says it is: its `format` field.
pub const FORMAT: &str = "queens-shard-1";

/// The most shards a run may have.
pub const MAX_SHARDS: u32 = 100_000;

/// The mirror engine's split for a sharded run: two rows give n = 18 only
/// 136 units, and 64 shards of them finish 1.4 times later than the ideal;
/// four rows give 18,132 (results/amd-epyc-2c/2026-11-23-shards.txt).
pub const SPLIT_DEPTH: u32 = 4;

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
    ///
    /// # Panics
    /// If `shards` is 0.
    #[must_use]
    pub fn owners(self, plan: &Plan, shards: u32) -> Vec<u32> {
        assert!(shards > 0, "a run has at least one shard");
        let ids = 0..plan.len() as u32;
        match self {
            Self::RoundRobin => ids.map(|id| id % shards).collect(),
            Self::Lpt => {
                let mut order: Vec<u32> = ids.collect();
                order.sort_by_key(|&id| (Reverse(plan.cost_of(id)), id));
                let mut owners = vec![0; plan.len()];
                // The least-loaded shard on top; the lowest index wins a tie.
                let mut loads: BinaryHeap<Reverse<(u128, u32)>> =
                    (0..shards).map(|s| Reverse((0, s))).collect();
                for id in order {
                    let Reverse((load, shard)) = loads.pop().expect("one entry per shard");
                    owners[id as usize] = shard;
                    loads.push(Reverse((load + u128::from(plan.cost_of(id)), shard)));
                }
                owners
            }
        }
    }

    /// The ids of the units of shard `index` of `shards`, in id order.
    ///
    /// # Panics
    /// If `index` is not below `shards`.
    #[must_use]
    pub fn units(self, plan: &Plan, index: u32, shards: u32) -> Vec<u32> {
        assert!(index < shards, "shard {index} of {shards}");
        self.owners(plan, shards)
            .into_iter()
            .zip(0..)
            .filter_map(|(owner, id)| (owner == index).then_some(id))
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
    /// The file for shard `index` of `shards` of `plan`, holding
    /// `unit_counts` (in id order).
    ///
    /// # Panics
    /// If a count does not fit in a `u64` (a unit of a board past n = 28).
    #[must_use]
    pub fn new(plan: &Plan, index: u32, shards: u32, unit_counts: &[(u32, u128)]) -> Self {
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
        } = plan.header();
        Self {
            format: FORMAT.to_owned(),
            n,
            engine: engine.to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            plan_format,
            split,
            plan: plan.hash().to_string(),
            plan_units: plan.len(),
            shard: index,
            shards,
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
    fn header(&self) -> Vec<String> {
        self.header_fields().into_iter().map(|(_, v)| v).collect()
    }

    fn header_fields(&self) -> [(&'static str, String); 11] {
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
    /// [`Error::UnknownEngine`] or [`Error::OldGpuEngine`] for an engine
    /// this build does not have;
    /// whatever [`Plan::new`] refuses (a board size out of range, ...).
    pub fn plan(&self, memory_limit: Option<u64>) -> Result<Plan, Error> {
        let engine: Engine = self.engine.parse()?;
        let config = Config::default()
            .with_split_depth(self.split.unwrap_or(crate::DEFAULT_SPLIT_DEPTH))
            .with_memory_limit(memory_limit);
        Plan::new(self.n, engine, &config)
    }

    /// Why the file is not a whole, consistent result for `shard` of
    /// `plan` (a file named `name`), or `None` if it is: how a shard task
    /// that finds its result already written knows it has nothing to do.
    #[must_use]
    pub fn problem_as(&self, plan: &Plan, shard: ShardId, name: &str) -> Option<String> {
        if (self.shard, self.shards) != (shard.index, shard.of) {
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
    /// [`merge`].
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

/// Merges `files` (each with a name for messages) as `queens merge` does:
/// against this build's plan for the run the reference file (the one
/// most files agree with, [`reference()`]) belongs to. `None` for no files.
///
/// # Errors
/// Whatever [`ShardFile::plan`] refuses for the reference file: an
/// engine this build lacks, a board size or split out of range, a plan
/// past `memory_limit`.
pub fn merge_files(
    files: &[(String, ShardFile)],
    memory_limit: Option<u64>,
) -> Result<Option<(Plan, Merge)>, Error> {
    let Some(reference) = reference(files) else {
        return Ok(None);
    };
    let plan = files[reference].1.plan(memory_limit)?;
    let merge = merge(&plan, files);
    Ok(Some((plan, merge)))
}

/// What [`merge`] found wrong: each kind once, with how many files or
/// units it touches and one example.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Problem {
    /// Files whose header differs from the first file's; they are left out.
    #[error(
        "{files} file(s) are from another run than {first}: {field} is {theirs} in {example}, \
         {ours} in {first}"
    )]
    OtherRun {
        /// How many.
        files: usize,
        /// The file the others are compared with.
        first: String,
        /// One of them.
        example: String,
        /// The first field that differs there.
        field: &'static str,
        /// Its value in the example.
        theirs: String,
        /// Its value in the first file.
        ours: String,
    },
    /// The files' plan is not the one this build makes for their
    /// `(n, engine, split)`; nothing in them is checked further.
    #[error(
        "the files are for plan {theirs}, but this build's plan for n = {n} with the {engine} \
         engine is {ours}: they come from another plan or version of queens"
    )]
    OtherPlan {
        /// Board size.
        n: u32,
        /// Engine.
        engine: String,
        /// The files' plan hash (or their plan format, when that differs).
        theirs: String,
        /// This build's.
        ours: String,
    },
    /// A file that is not for a shard this build can check: an unknown
    /// assignment or format, a shard index out of range.
    #[error("{files} file(s) cannot be checked: {example}: {why}")]
    Unusable {
        /// How many.
        files: usize,
        /// One of them.
        example: String,
        /// What is wrong with it.
        why: String,
    },
    /// Files that do not hold exactly the units assigned to their shard.
    #[error(
        "{files} file(s) do not hold exactly their shard's units: {example} has {extra} unit(s) \
         of other shards or twice, and lacks {lacking} of its own"
    )]
    NotItsUnits {
        /// How many.
        files: usize,
        /// One of them.
        example: String,
        /// Its ids that are not its shard's, or repeated.
        extra: usize,
        /// Its shard's ids that it lacks.
        lacking: usize,
    },
    /// Files whose `total` is not the sum of their units' counts.
    #[error(
        "{files} file(s) have a total that is not the sum of their units: {example} says {says}, its units sum to {sum}"
    )]
    BadTotal {
        /// How many.
        files: usize,
        /// One of them.
        example: String,
        /// The total it states.
        says: String,
        /// The sum of its units.
        sum: u128,
    },
    /// Files holding a count that no unit can have ([`Plan::check_count`]):
    /// not a multiple of the unit's weight, or more than the bound. A
    /// forger who fixes the total passes the other checks; not this one.
    #[error(
        "{files} file(s) are damaged or forged: {example} holds a count no unit can have \
         ({why})"
    )]
    Impossible {
        /// How many.
        files: usize,
        /// One of them.
        example: String,
        /// Its first impossible count, and why.
        why: crate::Impossible,
    },
    /// Units counted twice (the same shard in two files) with different
    /// counts: neither can be trusted.
    #[error(
        "{units} unit(s) have different counts in two files: unit {id} is {first} in {first_file} \
         and {second} in {second_file}"
    )]
    Conflict {
        /// How many.
        units: usize,
        /// One of them.
        id: u32,
        /// Its count in one file.
        first: u64,
        /// That file.
        first_file: String,
        /// Its count in the other.
        second: u64,
        /// The other file.
        second_file: String,
    },
    /// Shards with no file: their units are not counted.
    #[error(
        "{} of {shards} shard(s) missing ({units} unit(s)): rerun them, e.g. sbatch --array={}",
        .missing.len(),
        ranges(.missing)
    )]
    Missing {
        /// The missing shards' indices.
        missing: Vec<u32>,
        /// How many shards the run has.
        shards: u32,
        /// How many units they hold.
        units: usize,
    },
}

/// What [`merge`] makes of a set of shard files.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Merge {
    /// Everything wrong, one entry per kind. Empty: the total is proven.
    pub problems: Vec<Problem>,
    /// How many shards the run has.
    pub shards: u32,
    /// The shards with a usable file.
    pub shards_present: usize,
    /// The count of each unit of the plan, `None` where no usable file has it.
    pub counts: Vec<Option<u64>>,
    /// Units found in two files with the same count.
    pub confirmed: usize,
    /// The sum of the counts present.
    pub total: u128,
}

impl Merge {
    /// The shards with no usable file.
    #[must_use]
    pub fn missing(&self) -> Vec<u32> {
        self.problems
            .iter()
            .find_map(|p| match p {
                Problem::Missing { missing, .. } => Some(missing.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// Whether every unit is there and nothing is wrong: the total is the
    /// board's.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.problems.is_empty()
    }

    /// Whether nothing is wrong but missing shards: a run in progress.
    #[must_use]
    pub fn is_consistent(&self) -> bool {
        self.problems
            .iter()
            .all(|p| matches!(p, Problem::Missing { .. }))
    }

    /// How many units have a count.
    #[must_use]
    pub fn units_present(&self) -> usize {
        self.counts.iter().filter(|c| c.is_some()).count()
    }
}

/// Checks `files` (each with a name for messages) against `plan`, which
/// the caller builds from the first file's `n`, `engine` and `split`, and
/// adds up the units of every file that passes.
///
/// A file that fails a check contributes nothing; every problem is
/// reported, one entry per kind.
#[must_use]
pub fn merge(plan: &Plan, files: &[(String, ShardFile)]) -> Merge {
    let mut merge = Merge {
        problems: Vec::new(),
        shards: 1,
        shards_present: 0,
        counts: vec![None; plan.len()],
        confirmed: 0,
        total: 0,
    };
    let Some((first_name, first)) = reference(files).map(|i| &files[i]) else {
        return merge;
    };
    merge.shards = first.shards;
    let ours = plan.hash().to_string();
    if first.plan != ours || first.plan_format != plan.format() || first.plan_units != plan.len() {
        merge.problems.push(Problem::OtherPlan {
            n: plan.n(),
            engine: plan.engine().name().to_owned(),
            theirs: first.plan.clone(),
            ours,
        });
        return merge;
    }
    if first.shards == 0 || first.shards > MAX_SHARDS {
        // Nothing can be dealt among them, and listing the missing ones
        // would take memory in proportion to K.
        merge.problems.push(Problem::Unusable {
            files: files.len(),
            example: first_name.clone(),
            why: format!(
                "{} shards is not a shard count (1 to {MAX_SHARDS})",
                first.shards
            ),
        });
        merge.shards = 0;
        return merge;
    }
    let assignment = Assignment::for_engine(plan.engine());

    let mut other_run = Vec::new();
    let mut unusable = Vec::new();
    let mut usable = Vec::new();
    for (name, file) in files {
        if let Some((field, theirs, ours)) = file.other_run(first) {
            other_run.push((name, field, theirs, ours));
        } else if file.format != FORMAT {
            unusable.push((name, format!("its format is {}, not {FORMAT}", file.format)));
        } else if file.assignment != assignment.name()
            || file.assignment_version != assignment.version()
        {
            unusable.push((
                name,
                format!(
                    "it was dealt by {} v{}; this build deals the {} engine's units by {} v{}",
                    file.assignment,
                    file.assignment_version,
                    plan.engine(),
                    assignment.name(),
                    assignment.version()
                ),
            ));
        } else if file.shards == 0 || file.shards > MAX_SHARDS || file.shard >= file.shards {
            unusable.push((
                name,
                format!(
                    "shard {} of {} is not a shard (0 <= I < K <= {MAX_SHARDS})",
                    file.shard, file.shards
                ),
            ));
        } else {
            usable.push((name, file));
        }
    }
    if let Some(&(example, field, ref theirs, ref ours)) = other_run.first() {
        merge.problems.push(Problem::OtherRun {
            files: other_run.len(),
            first: first_name.clone(),
            example: example.clone(),
            field,
            theirs: theirs.clone(),
            ours: ours.clone(),
        });
    }
    if let Some((example, why)) = unusable.first() {
        merge.problems.push(Problem::Unusable {
            files: unusable.len(),
            example: (*example).clone(),
            why: why.clone(),
        });
    }
    if usable.is_empty() {
        merge
            .problems
            .push(missing(&merge.counts, merge.shards, &[]));
        return merge;
    }

    let owners = assignment.owners(plan, merge.shards);
    let mut wrong_units = Vec::new();
    let mut bad_totals = Vec::new();
    let mut impossible = Vec::new();
    let mut checked = Vec::new();
    for (name, file) in usable {
        let mut seen = vec![false; plan.len()];
        let mut extra = 0;
        for &(id, _) in &file.units {
            match seen.get_mut(id as usize) {
                Some(seen) if !*seen && owners[id as usize] == file.shard => *seen = true,
                _ => extra += 1,
            }
        }
        let own = owners.iter().filter(|&&o| o == file.shard).count();
        let lacking = own - (file.units.len() - extra);
        let sum: u128 = file.units.iter().map(|&(_, c)| u128::from(c)).sum();
        if extra > 0 || lacking > 0 {
            wrong_units.push((name, extra, lacking));
        } else if file.total.parse::<u128>().ok() != Some(sum) {
            bad_totals.push((name, file.total.clone(), sum));
        } else if let Some(why) = file
            .units
            .iter()
            .find_map(|&(id, count)| plan.check_count(id, u128::from(count)).err())
        {
            impossible.push((name, why));
        } else {
            checked.push((name, file));
        }
    }
    if let Some(&(example, extra, lacking)) = wrong_units.first() {
        merge.problems.push(Problem::NotItsUnits {
            files: wrong_units.len(),
            example: example.clone(),
            extra,
            lacking,
        });
    }
    if let Some((example, says, sum)) = bad_totals.first() {
        merge.problems.push(Problem::BadTotal {
            files: bad_totals.len(),
            example: (*example).clone(),
            says: says.clone(),
            sum: *sum,
        });
    }

    if let Some((example, why)) = impossible.first() {
        merge.problems.push(Problem::Impossible {
            files: impossible.len(),
            example: (*example).clone(),
            why: why.clone(),
        });
    }

    // Which file each unit's count came from, to name both sides of a
    // conflict.
    let mut source: Vec<Option<&String>> = vec![None; plan.len()];
    let mut conflicts = Vec::new();
    let mut present = vec![false; merge.shards as usize];
    for &(name, file) in &checked {
        present[file.shard as usize] = true;
        for &(id, count) in &file.units {
            let slot = &mut merge.counts[id as usize];
            match *slot {
                None => {
                    *slot = Some(count);
                    source[id as usize] = Some(name);
                }
                Some(earlier) if earlier == count => merge.confirmed += 1,
                Some(earlier) => conflicts.push((id, earlier, source[id as usize], count, name)),
            }
        }
    }
    if let Some(&(id, first, first_file, second, second_file)) = conflicts.first() {
        merge.problems.push(Problem::Conflict {
            units: conflicts.len(),
            id,
            first,
            first_file: first_file.cloned().unwrap_or_default(),
            second,
            second_file: second_file.clone(),
        });
    }
    merge.shards_present = present.iter().filter(|&&p| p).count();
    if merge.shards_present < merge.shards as usize {
        merge
            .problems
            .push(missing(&merge.counts, merge.shards, &present));
    }
    merge.total = merge.counts.iter().flatten().map(|&c| u128::from(c)).sum();
    merge
}

/// The file the others are checked against: one whose header most files
/// share (the first such), so that one stray file is named as the odd one
/// out rather than every good file. `None` for no files.
#[must_use]
pub fn reference(files: &[(String, ShardFile)]) -> Option<usize> {
    let mut runs: HashMap<Vec<String>, (usize, usize)> = HashMap::new();
    for (i, (_, file)) in files.iter().enumerate() {
        runs.entry(file.header()).or_insert((0, i)).0 += 1;
    }
    runs.into_values()
        .max_by_key(|&(agreeing, first)| (agreeing, Reverse(first)))
        .map(|(_, first)| first)
}

/// The [`Problem::Missing`] for the shards not in `present` (all of them
/// when `present` is empty).
fn missing(counts: &[Option<u64>], shards: u32, present: &[bool]) -> Problem {
    let missing: Vec<u32> = (0..shards)
        .filter(|&s| !present.get(s as usize).copied().unwrap_or(false))
        .collect();
    Problem::Missing {
        missing,
        shards,
        units: counts.iter().filter(|c| c.is_none()).count(),
    }
}

/// `0-3,7,9-10`: sorted indices as the ranges a job array takes.
#[must_use]
pub fn ranges(indices: &[u32]) -> String {
    let mut text = String::new();
    let mut i = 0;
    while i < indices.len() {
        let start = indices[i];
        let mut end = start;
        while i + 1 < indices.len() && indices[i + 1] == end + 1 {
            i += 1;
            end += 1;
        }
        if !text.is_empty() {
            text.push(',');
        }
        text.push_str(&start.to_string());
        if end > start {
            text.push('-');
            text.push_str(&end.to_string());
        }
        i += 1;
    }
    text
}

/// The canonical per-unit CSV: `id,descriptor,count` with a header line,
/// one line per unit in id order. Its SHA-256 is the run's digest, one
/// line that two parties compare.
#[must_use]
pub fn units_csv(plan: &Plan, counts: &[Option<u64>]) -> String {
    let mut csv = String::from("id,descriptor,count\n");
    for (unit, count) in plan.units().zip(counts) {
        if let Some(count) = count {
            csv.push_str(&format!("{},{},{count}\n", unit.id, unit.descriptor));
        }
    }
    csv
}

/// The digest of a [`units_csv`]: `sha256:` and 64 hex digits.
#[must_use]
pub fn digest(csv: &str) -> String {
    sha256_text(&Sha256::digest(csv.as_bytes()))
}

/// Shard index and count, as `I/K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardId {
    /// Which shard, `0 <= index < of`.
    pub index: u32,
    /// How many shards the run has.
    pub of: u32,
}

impl fmt::Display for ShardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}
