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
use queens::{Config, DEFAULT_SPLIT_DEPTH, Engine, Plan};

use super::UsageError;
use super::args::UnitList;
use super::journal::write_atomically;

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
        return match check_one(&plan, shard, &name, &file) {
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

/// Why `file` is not a whole, consistent result for `shard` of `plan`,
/// or `None` if it is.
fn check_one(plan: &Plan, shard: ShardId, name: &str, file: &ShardFile) -> Option<String> {
    if (file.shard, file.shards) != (shard.index, shard.of) {
        return Some(format!("it is shard {}/{}", file.shard, file.shards));
    }
    let merged = shard::merge(plan, &[(name.to_owned(), file.clone())]);
    merged
        .problems
        .iter()
        .find(|p| !matches!(p, shard::Problem::Missing { .. }))
        .map(ToString::to_string)
}

/// Writes the shard's result atomically, then drops its journal, whose
/// units the result now holds.
pub fn finish(
    plan: &Plan,
    prepared: &Prepared,
    unit_counts: &[(u32, u128)],
) -> anyhow::Result<ShardFile> {
    let file = ShardFile::new(plan, prepared.shard.index, prepared.shard.of, unit_counts);
    let mut bytes = serde_json::to_vec(&file)?;
    bytes.push(b'\n');
    write_atomically(&prepared.result, &bytes)
        .with_context(|| format!("writing the shard result {}", prepared.result.display()))?;
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
    let engine: Engine = file
        .engine
        .parse()
        .map_err(|_| anyhow::anyhow!("engine '{}' is not one this build has", file.engine))?;
    let config = Config::default()
        .with_split_depth(file.split.unwrap_or(DEFAULT_SPLIT_DEPTH))
        .with_memory_limit(super::memory::available()?);
    Ok(Plan::new(file.n, engine, &config)?)
}

/// Why a file could not be read as a shard result: one line.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {why}")]
pub struct Unreadable {
    pub path: String,
    pub why: String,
}

/// Reads one shard file; anything that is not a whole shard result (a
/// truncated file, garbage, another program's JSON) is refused with what
/// is wrong.
pub fn read(path: &Path) -> Result<ShardFile, Unreadable> {
    let unreadable = |why: String| Unreadable {
        path: path.display().to_string(),
        why,
    };
    let bytes = std::fs::read(path).map_err(|e| unreadable(format!("cannot be read: {e}")))?;
    serde_json::from_slice::<ShardFile>(&bytes).map_err(|e| {
        let why = if e.is_eof() {
            "it is cut short (a truncated file)".to_owned()
        } else if e.is_syntax() {
            format!("it is not JSON ({e})")
        } else {
            format!("it is not a queens shard result ({e})")
        };
        unreadable(why)
    })
}

/// The shard files `paths` name: files as given, and every
/// `shard-*-of-*.json` in a directory, sorted by name.
pub fn gather(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("reading the directory {}", path.display()))?
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
    Ok(files)
}
