//! `queens count N --shard I/K`: one array task of a run split across
//! machines. It counts the units the assignment gives shard I, keeps a
//! journal beside its result so that a retried task resumes, and writes
//! `DIR/shard-IIII-of-KKKK.json` atomically; `queens merge` puts the
//! shards together.
//!
//! Shard files are read here too, for `merge` and `verify`: whatever a
//! file says is checked by the library before it is believed.

use std::path::{Path, PathBuf};

use anyhow::Context;
use queens::shard::{self, Assignment, ShardFile, ShardId};
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
    Output::new(&prepared.result, "the shard result", &[])?.write(&file.to_json())?;
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

/// Why a file could not be read as a shard result: one line.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {why}")]
pub struct Unreadable {
    pub path: String,
    pub why: String,
}

/// Reads one shard file; anything that is not a whole shard result (a
/// truncated file, garbage, another program's JSON, a FIFO or a device, a
/// file far longer than any result) is refused with what is wrong, in
/// one line of reasonable length. The bytes are the library's to judge
/// ([`ShardFile::from_json`]).
pub fn read(path: &Path) -> Result<ShardFile, Unreadable> {
    let unreadable = |why: String| Unreadable {
        path: path.display().to_string(),
        why,
    };
    let file = files::open_input(path, "a shard result", false, false).map_err(unreadable)?;
    let size = file.metadata().map_or(0, |m| m.len());
    if size > shard::MAX_FILE_LEN {
        return Err(unreadable(format!(
            "it holds {size} bytes, more than any shard result ({} at most)",
            shard::MAX_FILE_LEN
        )));
    }
    ShardFile::from_json(file).map_err(|why| unreadable(why.to_string()))
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
