//! `--checkpoint FILE`: the journal of finished units on disk.
//!
//! Every unit is appended as it finishes, as one `write` of one record on
//! a file opened for appending, under a lock that also serialises the
//! group commit: `fdatasync` at most about once a second and at the end.
//! A finished unit is in the kernel's page cache the moment its record is
//! written, so kill -9 loses nothing that finished; a power loss loses at
//! most the last second. The file is locked against a second process. What
//! a record means, and how a damaged file is read back, is the library's
//! [`queens::journal`]; this file opens, cuts, appends and syncs.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use queens::journal::{self, Header, Replay};
use queens::{Observer, Plan, UnitDone};

/// The longest a finished unit waits in the page cache before it is
/// synced to the disk.
const SYNC_EVERY: Duration = Duration::from_secs(1);

/// Test-only: the process kills itself with SIGKILL right after writing
/// this many records, to test resuming without timing races.
const KILL_AFTER: &str = "QUEENS_TEST_KILL_AFTER";

/// An open, locked journal.
pub struct Journal {
    path: PathBuf,
    writer: Mutex<Writer>,
    kill_after: Option<usize>,
}

/// The file and its group-commit state, behind the journal's lock.
pub struct Writer {
    file: File,
    last_sync: Instant,
    written: usize,
    /// The first write that failed: its unit is not saved and will be
    /// recounted by the next run; the count says so at the end.
    failed: Option<std::io::Error>,
}

/// A journal opened for a plan, with what it already holds.
pub struct Opened {
    /// The journal, ready for appending.
    pub journal: Journal,
    /// The units it holds, in id order.
    pub done: Vec<(u32, u128)>,
    /// A damaged tail that was cut: its first line and its length in bytes.
    pub cut: Option<(usize, usize)>,
}

/// Why a journal cannot be used.
pub enum Refused {
    /// The file is another process's (exit 1).
    Busy(String),
    /// The file cannot be read or belongs to something else (exit 2).
    Unusable(String),
}

impl Journal {
    /// Opens (or creates) the journal at `path` for `plan`, locks it, reads
    /// what it holds and cuts a damaged tail.
    pub fn open(path: &Path, plan: &Plan) -> Result<Opened, Refused> {
        let shown = path.display();
        let unusable =
            |why: String| Refused::Unusable(format!("cannot use {shown} as a journal: {why}"));
        if path.is_dir() {
            return Err(unusable("it is a directory".to_owned()));
        }
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| unusable(e.to_string()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(Refused::Busy(format!(
                    "the journal {shown} is in use by another queens process"
                )));
            }
            Err(TryLockError::Error(e)) => return Err(unusable(format!("cannot lock it: {e}"))),
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| unusable(e.to_string()))?;
        let header = Header::of(plan);
        let replay = Replay::read(&bytes, &header, plan.len()).map_err(|refusal| {
            Refused::Unusable(format!(
                "cannot resume from {shown}: {refusal}; remove it or name another file to \
                     start afresh"
            ))
        })?;
        let io = |e: std::io::Error| unusable(e.to_string());
        let mut cut = None;
        if replay.fresh {
            file.set_len(0).map_err(io)?;
            file.write_all(header.line().as_bytes()).map_err(io)?;
            file.sync_all().map_err(io)?;
            sync_directory(path).map_err(io)?;
        } else if replay.good_len < bytes.len() {
            file.set_len(replay.good_len as u64).map_err(io)?;
            file.sync_all().map_err(io)?;
            let line = replay.bad_line.unwrap_or_default();
            cut = Some((line, bytes.len() - replay.good_len));
        }
        let Replay { done, .. } = replay;
        let kill_after = std::env::var(KILL_AFTER).ok().and_then(|k| k.parse().ok());
        Ok(Opened {
            journal: Self {
                path: path.to_owned(),
                writer: Mutex::new(Writer {
                    file,
                    last_sync: Instant::now(),
                    written: 0,
                    failed: None,
                }),
                kill_after,
            },
            done,
            cut,
        })
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Syncs every record to the disk and returns the lock on the writer,
    /// so that nothing is written after it (for an exit mid-count).
    pub fn sync_and_hold(&self) -> MutexGuard<'_, Writer> {
        let writer = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = writer.file.sync_data();
        writer
    }

    /// Syncs every record; the first write or sync that failed, if any.
    pub fn finish(&self) -> std::io::Result<()> {
        let mut writer = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(e) = writer.failed.take() {
            return Err(e);
        }
        writer.file.sync_data()
    }
}

impl Writer {
    /// Records written by this process.
    pub fn written(&self) -> usize {
        self.written
    }
}

impl Observer for Journal {
    fn unit_done(&self, done: &UnitDone) {
        let record = journal::record(done.id, done.solutions);
        let mut writer = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        // One write: a record is never split between two system calls, so
        // a kill leaves either all of it or none.
        if let Err(e) = writer.file.write_all(record.as_bytes()) {
            writer.failed.get_or_insert(e);
            return;
        }
        writer.written += 1;
        if writer.last_sync.elapsed() >= SYNC_EVERY {
            if let Err(e) = writer.file.sync_data() {
                writer.failed.get_or_insert(e);
            }
            writer.last_sync = Instant::now();
        }
        if self.kill_after == Some(writer.written) {
            let _ = signal_hook::low_level::raise(signal_hook::consts::SIGKILL);
        }
    }
}

/// Makes a new file's name durable: syncs the directory that holds it.
fn sync_directory(path: &Path) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    File::open(dir)?.sync_all()
}

/// Writes `bytes` to `path` atomically: to a temporary file beside it,
/// synced, then renamed over `path`, and the directory synced. A reader
/// sees the old file or the whole new one, never a part.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(".tmp");
    let temporary = path.with_file_name(name);
    let mut file = File::create(&temporary)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&temporary, path)?;
    sync_directory(path)
}
