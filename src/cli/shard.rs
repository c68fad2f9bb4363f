//! `queens count N --shard I/K`: one array task of a run split across
//! machines. It counts the units the assignment gives shard I, keeps a
//! journal beside its result so that a retried task resumes, and writes
//! `DIR/shard-IIII-of-KKKK.json` atomically; `queens merge` puts the
//! shards together.
//!
//! Shard files are read here too, for `merge` and `verify`: whatever a
//! file says is checked by the library before it is believed.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::Context;
use queens::shard::{Assignment, ShardFile, ShardId};
use queens::{Config, Engine, Plan};

use super::UsageError;
use super::args::UnitList;
use super::files::{self, Identity, Output};

/// A shard about to be counted: its units and where its files go.
pub struct Prepared {
    pub shard: ShardId,
    pub units: UnitList,
    pub result: PathBuf,
    pub journal: PathBuf,
}

/// What a shard task does.
pub enum Task {
    /// Count these units of the plan.
    Count(Plan, Prepared),
    /// Its result is already there, checked: nothing to count.
    Done(ShardFile, PathBuf),
}

/// Plans shard `shard` of `n` and decides whether it has work left.
/// Refuses (exit 2) a result file already in `out_dir` that is not this
/// shard's, rather than overwrite what may be someone's other run.
pub fn prepare(
    n: u32,
    engine: Engine,
    config: &Config,
    shard: ShardId,
    out_dir: &Path,
) -> anyhow::Result<Task> {
    let plan = Plan::new(n, engine, config)
        .with_context(|| format!("counting n = {n} with the {engine} engine"))?;
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("creating the output directory {}", out_dir.display()))?;
    let name = ShardFile::file_name(shard.index, shard.of);
    let result = out_dir.join(&name);
    let journal = result.with_extension("journal");
    if result.exists() {
        let file = read(&result).map_err(|why| UsageError(why.to_string()))?;
        return match file.problem_as(&plan, shard, &name) {
            None => Ok(Task::Done(file, result)),
            Some(why) => Err(UsageError(format!(
                "{} is already there and is not this shard's result ({why}); move it away or \
                 choose another --out-dir",
                result.display()
            ))
            .into()),
        };
    }
    let units = Assignment::for_engine(engine).units(&plan, shard.index, shard.of);
    let prepared = Prepared {
        shard,
        units: UnitList(units),
        result,
        journal,
    };
    Ok(Task::Count(plan, prepared))
}

/// Writes the shard's result atomically, then drops its journal, whose
/// units the result now holds.
pub fn finish(
    plan: &Plan,
    prepared: &Prepared,
    unit_counts: &[(u32, u128)],
    from_journal: Vec<u32>,
) -> anyhow::Result<ShardFile> {
    let file = ShardFile::new(plan, prepared.shard.index, prepared.shard.of, unit_counts)
        .with_journal_units(from_journal);
    let mut bytes = serde_json::to_vec(&file)?;
    bytes.push(b'\n');
    Output::new(&prepared.result, "the shard result", &[])?.write(&bytes)?;
    match std::fs::remove_file(&prepared.journal) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(e).with_context(|| {
                format!(
                    "removing the journal {} (the result is written)",
                    prepared.journal.display()
                )
            });
        }
        _ => {}
    }
    Ok(file)
}

/// This build's plan for the run `file` belongs to, or why there is none
/// (the library's [`queens::Error`] when it refused the plan).
pub fn plan_of(file: &ShardFile) -> anyhow::Result<Plan> {
    Ok(file.plan(super::memory::available()?)?)
}

/// Why a file could not be read as a shard result: one line.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {why}")]
pub struct Unreadable {
    pub path: String,
    pub why: String,
}

/// The most bytes a shard file may hold. A unit's entry takes at most 34
/// bytes (`[4294967295,18446744073709551615],`), so one shard holding all
/// 4,056,746 units of n = 23's join, the largest plan this build counts,
/// is at most 138 MB; anything longer is refused before it is read.
const MAX_SHARD_FILE: u64 = 256 << 20;

/// The longest a text field of a shard file may be (an engine's name, a
/// version, a plan hash, a total of up to 39 digits): longer ones are not
/// a shard result, and are never echoed into a message.
const MAX_FIELD: usize = 100;

/// Reads one shard file; anything that is not a whole shard result (a
/// truncated file, garbage, another program's JSON, a FIFO or a device, a
/// file far longer than any result) is refused with what is wrong, in
/// one line of reasonable length.
pub fn read(path: &Path) -> Result<ShardFile, Unreadable> {
    let unreadable = |why: String| Unreadable {
        path: path.display().to_string(),
        why,
    };
    let file = files::open_input(path, "a shard result", false, false).map_err(unreadable)?;
    let size = file.metadata().map_or(0, |m| m.len());
    if size > MAX_SHARD_FILE {
        return Err(unreadable(format!(
            "it holds {size} bytes, more than any shard result ({MAX_SHARD_FILE} at most)"
        )));
    }
    // Read as a stream: garbage is refused at its first wrong byte, and
    // nothing past the cap is ever read.
    let reader = std::io::BufReader::new(file.take(MAX_SHARD_FILE));
    let parsed = serde_json::from_reader::<_, ShardFile>(reader).map_err(|e| {
        let why = if e.is_io() {
            format!("cannot be read: {e}")
        } else if e.is_eof() {
            "it is cut short (a truncated file)".to_owned()
        } else if e.to_string().starts_with("number out of range") {
            format!("a number in it is too large ({})", clip(&e.to_string()))
        } else if e.is_syntax() {
            format!("it is not JSON ({})", clip(&e.to_string()))
        } else {
            format!("it is not a queens shard result ({})", clip(&e.to_string()))
        };
        unreadable(why)
    })?;
    check_fields(&parsed).map_err(unreadable)?;
    Ok(parsed)
}

/// Refuses a parsed file whose text fields no shard result has: too long
/// to be what they claim, or a total that is not a decimal number.
fn check_fields(file: &ShardFile) -> Result<(), String> {
    for (field, value) in [
        ("format", &file.format),
        ("engine", &file.engine),
        ("version", &file.version),
        ("plan", &file.plan),
        ("assignment", &file.assignment),
        ("total", &file.total),
    ] {
        if value.len() > MAX_FIELD {
            return Err(format!(
                "it is not a queens shard result (its {field} is {} characters long)",
                value.len()
            ));
        }
    }
    if file.journal_units.len() > file.units.len() {
        return Err(format!(
            "it is not a queens shard result (it lists {} units from a journal, but holds {})",
            file.journal_units.len(),
            file.units.len()
        ));
    }
    if file.total.parse::<u128>().is_err() || !file.total.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "it is not a queens shard result (its total '{}' is not a whole number of at most \
             39 digits)",
            file.total
        ));
    }
    Ok(())
}

/// `text` cut to a length that fits a line, marked where it was cut.
fn clip(text: &str) -> String {
    const KEEP: usize = 120;
    match text.char_indices().nth(KEEP) {
        Some((at, _)) => format!("{}... ({} bytes in all)", &text[..at], text.len()),
        None => text.to_owned(),
    }
}

/// The shard files `paths` name: files as given, and every
/// `shard-*-of-*.json` in a directory, sorted by name. A file named twice
/// (the same folder given twice, a file and its folder, a hard link) is
/// taken once: the same file is no second opinion.
pub fn gather(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| {
                    UsageError(format!("cannot read the directory {}: {e}", path.display()))
                })?
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|p| {
                    p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                        n.starts_with("shard-") && n.contains("-of-") && n.ends_with(".json")
                    })
                })
                .collect();
            if found.is_empty() {
                return Err(UsageError(format!(
                    "{} holds no shard results (shard-*-of-*.json)",
                    path.display()
                ))
                .into());
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    let mut seen = std::collections::HashSet::new();
    files.retain(|path| match Identity::of(path) {
        Some(identity @ Identity::File(..)) => seen.insert(identity),
        _ => true,
    });
    Ok(files)
}
