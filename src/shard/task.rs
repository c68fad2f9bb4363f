//! The files of a shard task (feature `files`): where its result
//! and its journal go, whether its result is already there, the result
//! written atomically when the count is done, and the reader of results
//! for a merge, with its size cap.
//!
//! A task's result is `DIR/shard-IIII-of-KKKK.json` and its journal
//! `DIR/shard-IIII-of-KKKK.journal`: any front end (the `queens` binary,
//! the Python package) that runs shard I of K writes the same bytes to the
//! same names, so that one merges what the other counted.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::{Assignment, MAX_FILE_LEN, ShardFile, ShardId};
use crate::files::{identity, open_input, write_atomically};
use crate::{Count, Error, Plan};

/// A shard about to be counted: its units and where its files go.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Prepared {
    /// Which shard.
    pub shard: ShardId,
    /// Its units, in id order: a selection of the plan's
    /// ([`Plan::select`]).
    pub units: Vec<u32>,
    /// Where its result goes.
    pub result: PathBuf,
    /// Its journal, beside the result: a retried task resumes from it.
    pub journal: PathBuf,
}

/// What a shard task has to do.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Task {
    /// Count these units of the plan.
    Count(Prepared),
    /// Its result is already there, checked: nothing to count.
    Done(ShardFile, PathBuf),
}

/// Why a shard task cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PrepareError {
    /// The output directory cannot be made.
    #[error("creating the output directory {}: {why}", .dir.display())]
    Directory {
        /// The directory.
        dir: PathBuf,
        /// The system's reason.
        why: String,
    },
    /// A file is at the result's name that is not a shard result.
    #[error(transparent)]
    Unreadable(#[from] Unreadable),
    /// A shard result is at the result's name, but not this shard's whole
    /// result (another run's, another shard's, damaged): it is left alone.
    #[error("{} is already there and is not this shard's result ({why})", .path.display())]
    NotThisShard {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
}

impl Task {
    /// Shard `shard` of `plan`, with its files in `out_dir` (made if it is
    /// not there): [`Task::Done`] when its result is already there and
    /// checks out, else the units to count. A result file that is not
    /// this shard's is refused, never overwritten: it may be someone's
    /// other run.
    ///
    /// # Errors
    /// [`PrepareError`].
    pub fn prepare(plan: &Plan, shard: ShardId, out_dir: &Path) -> Result<Self, PrepareError> {
        std::fs::create_dir_all(out_dir).map_err(|e| PrepareError::Directory {
            dir: out_dir.to_owned(),
            why: e.to_string(),
        })?;
        let name = ShardFile::file_name(shard.index(), shard.of());
        let result = out_dir.join(&name);
        let journal = result.with_extension("journal");
        if result.exists() {
            let file = read(&result)?;
            return match file.problem_as(plan, shard, &name) {
                None => Ok(Self::Done(file, result)),
                Some(why) => Err(PrepareError::NotThisShard { path: result, why }),
            };
        }
        let units = Assignment::for_engine(plan.engine()).units(plan, shard);
        Ok(Self::Count(Prepared {
            shard,
            units,
            result,
            journal,
        }))
    }
}

impl Prepared {
    /// Writes the shard's result atomically from `count` (of this shard's
    /// units, those it took from a journal named as such), then removes
    /// its journal, whose units the result now holds.
    ///
    /// # Errors
    /// [`Error::Io`] when the result cannot be written or the journal
    /// removed; [`Error::Incomplete`] when `count` is not this shard's
    /// whole count.
    pub fn finish(&self, plan: &Plan, count: &Count) -> Result<ShardFile, Error> {
        let ids = count.unit_counts.iter().map(|&(id, _)| id);
        if !ids.eq(self.units.iter().copied()) {
            return Err(Error::Incomplete {
                counted: count.unit_counts.len(),
                asked: self.units.len(),
            });
        }
        let file = ShardFile::new(plan, self.shard, &count.unit_counts)
            .with_journal_units(count.resumed.clone());
        write_atomically(&self.result, &file.to_json()).map_err(|source| Error::Io {
            doing: "writing the shard result to",
            path: self.result.clone(),
            source,
        })?;
        match std::fs::remove_file(&self.journal) {
            Err(source) if source.kind() != std::io::ErrorKind::NotFound => Err(Error::Io {
                doing: "the shard result is written; removing its journal",
                path: self.journal.clone(),
                source,
            }),
            _ => Ok(file),
        }
    }
}

/// Why a file could not be read as a shard result: one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {why}")]
#[non_exhaustive]
pub struct Unreadable {
    /// The file, as named.
    pub path: String,
    /// What is wrong with it.
    pub why: String,
}

/// Reads one shard file; anything that is not a whole shard result (a
/// truncated file, garbage, another program's JSON, a FIFO or a device, a
/// file far longer than any result) is refused with what is wrong, in
/// one line of reasonable length ([`ShardFile::from_json`] judges the
/// bytes).
///
/// # Errors
/// [`Unreadable`].
pub fn read(path: &Path) -> Result<ShardFile, Unreadable> {
    let unreadable = |why: String| Unreadable {
        path: path.display().to_string(),
        why,
    };
    let file = open_input(path, "a shard result", false, false).map_err(unreadable)?;
    let size = file.metadata().map_or(0, |m| m.len());
    if size > MAX_FILE_LEN {
        return Err(unreadable(format!(
            "it holds {size} bytes, more than any shard result ({MAX_FILE_LEN} at most)"
        )));
    }
    ShardFile::from_json(file).map_err(|why| unreadable(why.to_string()))
}

/// The shard files `paths` name: files as given, and every
/// `shard-*-of-*.json` in a directory, sorted by name. A file named twice
/// (the same folder given twice, a file and its folder, a hard link) is
/// taken once: the same file is no second opinion.
///
/// # Errors
/// A directory that cannot be read or holds no shard result, in one line.
pub fn gather(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| format!("cannot read the directory {}: {e}", path.display()))?
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|p| {
                    p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                        n.starts_with("shard-") && n.contains("-of-") && n.ends_with(".json")
                    })
                })
                .collect();
            if found.is_empty() {
                return Err(format!(
                    "{} holds no shard results (shard-*-of-*.json)",
                    path.display()
                ));
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    // The same file by device and inode (volume and file index on
    // Windows), however it is spelt.
    let mut seen = HashSet::new();
    files.retain(|path| match identity(path) {
        Some(id) => seen.insert(id),
        None => true,
    });
    Ok(files)
}
