//! Putting the shards of a run back together: [`merge`] checks a set of
//! [`ShardFile`]s against this build's plan and adds up what passes;
//! [`Problem`] says what does not, one entry per kind; [`units_csv`] and
//! [`digest`] give the per-unit record two parties compare.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::num::NonZeroU32;

use sha2::{Digest, Sha256};

use super::{Assignment, FORMAT, MAX_SHARDS, ShardFile};
use crate::Error;
use crate::count::Plan;
use crate::count::plan::sha256_text;

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
    /// Shards with no file: their units are not counted. The indices are
    /// data: a program that knows the scheduler phrases the rerun
    /// ([`ranges`] gives them as a job array takes them).
    #[error(
        "{} of {shards} shard(s) missing ({units} unit(s)): shards {}",
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
/// reported, one entry per kind. The checks come in three steps: the
/// headers (one run, this build's plan), each file's units (its shard's,
/// its total their sum, every count possible), and the tally of the
/// units across files (conflicts, missing shards).
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
    let Some(usable) = headers(plan, files, &mut merge) else {
        return merge;
    };
    let checked = units(plan, usable, merge.shards, &mut merge.problems);
    tally(&checked, &mut merge);
    merge
}

/// Step 1: the files whose header says they belong to the run of the
/// reference file, for this build's plan, dealt by this build's
/// assignment; `None` when nothing can be checked further (the problem
/// is in `merge`).
fn headers<'f>(
    plan: &Plan,
    files: &'f [(String, ShardFile)],
    merge: &mut Merge,
) -> Option<Vec<(&'f String, &'f ShardFile)>> {
    let (first_name, first) = reference(files).map(|i| &files[i])?;
    merge.shards = first.shards;
    let ours = plan.hash().to_string();
    if first.plan != ours || first.plan_format != plan.format() || first.plan_units != plan.len() {
        merge.problems.push(Problem::OtherPlan {
            n: plan.n(),
            engine: plan.engine().name().to_owned(),
            theirs: first.plan.clone(),
            ours,
        });
        return None;
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
        return None;
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
        return None;
    }
    Some(usable)
}

/// Step 2: the files that hold exactly their shard's units, with a total
/// that is their sum and counts that units can have; a problem for each
/// kind of file that does not.
fn units<'f>(
    plan: &Plan,
    usable: Vec<(&'f String, &'f ShardFile)>,
    shards: u32,
    problems: &mut Vec<Problem>,
) -> Vec<(&'f String, &'f ShardFile)> {
    // `usable` checked the shard count: 1 to MAX_SHARDS.
    let Some(shards) = NonZeroU32::new(shards) else {
        return Vec::new();
    };
    let owners = Assignment::for_engine(plan.engine()).owners(plan, shards);
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
        problems.push(Problem::NotItsUnits {
            files: wrong_units.len(),
            example: example.clone(),
            extra,
            lacking,
        });
    }
    if let Some((example, says, sum)) = bad_totals.first() {
        problems.push(Problem::BadTotal {
            files: bad_totals.len(),
            example: (*example).clone(),
            says: says.clone(),
            sum: *sum,
        });
    }
    if let Some((example, why)) = impossible.first() {
        problems.push(Problem::Impossible {
            files: impossible.len(),
            example: (*example).clone(),
            why: why.clone(),
        });
    }
    checked
}

/// Step 3: every checked file's counts into `merge`: a unit seen twice
/// with equal counts is confirmed, with different counts a conflict; the
/// shards with no checked file are missing.
fn tally(checked: &[(&String, &ShardFile)], merge: &mut Merge) {
    // Which file each unit's count came from, to name both sides of a
    // conflict.
    let mut source: Vec<Option<&String>> = vec![None; merge.counts.len()];
    let mut conflicts = Vec::new();
    let mut present = vec![false; merge.shards as usize];
    for &(name, file) in checked {
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
