//! The journal on disk (feature `files`): opened, locked, appended
//! to and synced while a [`crate::Runner`] counts.
//!
//! Every unit's record is copied, the moment the unit finishes, into a
//! shared memory map of the file, at a place its thread reserved with one
//! atomic add: the bytes are then in the kernel's page cache, where killing
//! the process cannot take them, without a system call. (One `write` a
//! record cost 3-5% at n = 16, where the join's 6,470 units take about
//! 50 us each; the map costs under 1%, see results/.) The file is
//! extended up front by room for every unit still to count, and cut back
//! to its records at the end or at an interrupt; after a kill, the zeros
//! of the unused room are dropped when the journal is read back. The group
//! commit, `fdatasync` at most about once a second and at the end (it
//! writes back what went through the map too), is taken by whichever thread
//! finds it due. Opening a new journal syncs its header alone, before any
//! room is set aside, so that no crash leaves a file of zeros (which is
//! refused, never taken for a journal); the first commit syncs the rest.
//! A finished unit is in the kernel's page cache the moment its record is
//! written, so kill -9 loses nothing that finished; a power loss loses at
//! most the last second. The file is locked against a second process.
//!
//! A sync that fails ends the count: the journal, kept by the [`Runner`](crate::Runner) before any observer hears of a unit,
//! returns the error and the run stops with it. Another process that
//! truncates the file under the map makes the next record's copy raise
//! SIGBUS; this module installs no signal handler (a library must not),
//! so a program that wants a message rather than that death installs one
//! (the `queens` binary does). Nothing here prints or exits.
//!
//! On Windows the same holds with its own calls: the map is a view of a
//! file mapping, whose pages a killed process leaves to the system's cache
//! as Linux does; a commit flushes the view (`FlushViewOfFile`) and then
//! the file (`FlushFileBuffers`), since the latter alone does not write
//! back what went through a view; and the map is let go before the file is
//! cut, which Windows refuses while a view is mapped. Another process
//! cannot cut the file under a mapped view there, so there is no SIGBUS.

use std::fs::{File, TryLockError};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError, RwLock};
use std::time::{Duration, Instant};

use memmap2::MmapRaw;

use super::{Damage, Header, MAX_HEADER, MAX_RECORD, Refusal, Replay, max_len};
use crate::files::{self, sync_folder, write_all_at};
use crate::{Error, Plan, UnitDone};

/// The longest a finished unit waits in the page cache before it is
/// synced to the disk.
const SYNC_EVERY: Duration = Duration::from_secs(1);

/// How often a locked journal is tried again while waiting for it.
const LOCK_POLL: Duration = Duration::from_millis(100);

/// How long a held journal is tried again, silently, before it counts as
/// in use, however short the wait asked for: the lock of a process killed
/// a moment ago can outlive it. On the 16-core device machine (Linux
/// 6.18), a count killed with SIGKILL still held its journal's lock when
/// its parent had reaped it, in 30 runs of 30, and let go of it within
/// 100 ms; so a run resumed at once after a kill was refused as "in use".
const LOCK_GRACE: Duration = Duration::from_secs(2);

/// How often a locked journal is tried again within [`LOCK_GRACE`].
const GRACE_POLL: Duration = Duration::from_millis(5);

/// What a [`LockWait`] calls when the wait for a held journal begins:
/// the journal's path and how long it will wait.
pub type OnWait<'a> = &'a (dyn Fn(&Path, Duration) + Sync);

/// How long to wait for a journal that another process holds, and what to
/// do meanwhile.
#[derive(Clone, Copy, Default)]
pub struct LockWait<'a> {
    wait: Duration,
    cancel: Option<&'a AtomicBool>,
    waiting: Option<OnWait<'a>>,
}

impl<'a> LockWait<'a> {
    /// Wait up to `wait` (zero: refuse a held journal at once).
    #[must_use]
    pub fn up_to(wait: Duration) -> Self {
        Self {
            wait,
            ..Self::default()
        }
    }

    /// Give up waiting once `flag` is set ([`OpenError::Cancelled`]).
    #[must_use]
    pub fn cancel(self, flag: &'a AtomicBool) -> Self {
        Self {
            cancel: Some(flag),
            ..self
        }
    }

    /// Call `waiting(path, wait)` once, when the journal is found held and
    /// the wait begins.
    #[must_use]
    pub fn on_wait(self, waiting: OnWait<'a>) -> Self {
        Self {
            waiting: Some(waiting),
            ..self
        }
    }
}

/// Why a journal cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// Another process holds the file, and did not let go of it in time.
    #[error("the journal {} is in use by another queens process", .path.display())]
    Busy {
        /// The journal.
        path: PathBuf,
        /// How long it was waited for.
        waited: Duration,
    },
    /// The file cannot be read, written or locked, or is not this plan's
    /// journal: one line that names it.
    #[error("{0}")]
    Unusable(String),
    /// The [`LockWait::cancel`] flag was set while waiting for the lock:
    /// nothing was read or written.
    #[error("interrupted while waiting for the journal {}: nothing counted", .0.display())]
    Cancelled(PathBuf),
}

/// A damaged tail that opening cut off: those units are counted again.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Cut {
    /// The 1-based line where the damage starts.
    pub line: usize,
    /// How many bytes were cut.
    pub bytes: usize,
    /// What is wrong with that line.
    pub damage: Damage,
}

/// An open, locked journal: what it held when opened, and room for a
/// record per unit still to count.
pub struct Journal {
    path: PathBuf,
    /// The plan's header, whose hash every record's checksum covers.
    header: Header,
    file: File,
    /// The length of the map: header, records, and room for every unit
    /// left.
    len: usize,
    /// Where the next record goes: bytes below are records or reserved.
    end: AtomicUsize,
    /// Created by this run: its directory is synced with the first commit.
    created: AtomicBool,
    /// The whole file, mapped, while records may still land in it: held
    /// shared by every append, which checks it is there, and exclusively
    /// by `close`, which lets go of the map for good and then cuts the
    /// file back, so that no record is ever copied past the file's end.
    map: RwLock<Option<MmapRaw>>,
    /// When the records were last synced; held while syncing.
    last_sync: Mutex<Instant>,
    written: AtomicUsize,
    /// The units it held when opened, in id order.
    done: Vec<(u32, u128)>,
    cut: Option<Cut>,
}

impl Journal {
    /// Opens (or creates) the journal at `path` for `plan`, locks it
    /// (waiting as `lock` says for another process to let go of it),
    /// reads what it holds, cuts a damaged tail, and sets room aside for
    /// the units of `target` (every unit of the plan if `None`) that it
    /// does not hold yet.
    ///
    /// # Errors
    /// [`OpenError`]; on any failure after the lock, the file is left as
    /// it was found, less a damaged tail (or removed, if this call made it).
    pub fn open(
        path: &Path,
        plan: &Plan,
        target: Option<&[u32]>,
        lock: LockWait<'_>,
    ) -> Result<Self, OpenError> {
        let shown = path.display();
        let unusable =
            |why: String| OpenError::Unusable(format!("cannot use {shown} as a journal: {why}"));
        let existed = path.exists();
        let file = files::open_input(path, "a journal", true, true).map_err(unusable)?;
        lock_file(&file, path, lock)?;
        let header = Header::of(plan);
        let refuse = |refusal: Refusal| {
            OpenError::Unusable(format!(
                "cannot resume from {shown}: {refusal}; remove it or name another file to \
                 start afresh"
            ))
        };
        let bytes = match files::read_capped(&file, "a journal of this plan", max_len(plan.len())) {
            Ok(bytes) => bytes,
            Err(too_long) => {
                // Say what the file is, where its head shows it, rather
                // than only that it is too long.
                let mut head = Vec::new();
                let _ = (&file).take(MAX_HEADER as u64).read_to_end(&mut head);
                if let Err(refusal) = Replay::read(&head, plan) {
                    return Err(refuse(refusal));
                }
                return Err(unusable(too_long));
            }
        };
        let replay = Replay::read(&bytes, plan).map_err(refuse)?;
        let left = match target {
            Some(ids) => ids
                .iter()
                .filter(|&&id| replay.done.binary_search_by_key(&id, |&(d, _)| d).is_err())
                .count(),
            None => plan.len() - replay.done.len(),
        };
        // On any failure from here on, the file is left as it was found,
        // less a damaged tail: cut back to its records, or gone if this
        // run made it, so that a full disk stays as full as it was.
        let undo = |good_len: usize, e: std::io::Error| {
            if existed {
                let _ = file.set_len(good_len as u64);
            } else {
                let _ = std::fs::remove_file(path);
            }
            unusable(e.to_string())
        };
        let (good_len, cut) = if replay.fresh {
            let line = header.line();
            // The header reaches the disk before any room is set aside, so
            // that no crash leaves a journal of zeros, and a file of zeros
            // is never taken for one (issue 20).
            let written = file
                .set_len(0)
                .and_then(|()| write_all_at(&file, line.as_bytes(), 0))
                .and_then(|()| file.sync_data());
            if let Err(e) = written {
                return Err(undo(0, e));
            }
            (line.len(), None)
        } else {
            let unused = bytes.iter().rev().take_while(|&&b| b == 0).count();
            let cut = replay
                .bad_line
                .zip(replay.damage.clone())
                .map(|(line, damage)| Cut {
                    line,
                    bytes: bytes.len() - unused - replay.good_len,
                    damage,
                });
            (replay.good_len, cut)
        };
        // Cut any damage off, then make room for a record per unit this
        // run counts. Nothing more is synced yet: the first group commit
        // syncs the records (and, for a new file, its directory).
        let room = left * MAX_RECORD;
        let map = file
            .set_len(good_len as u64)
            .and_then(|()| reserve(&file, good_len, room))
            .and_then(|()| MmapRaw::map_raw(&file));
        let map = match map {
            Ok(map) => map,
            Err(e) => return Err(undo(good_len, e)),
        };
        let fresh = replay.fresh;
        Ok(Self {
            path: path.to_owned(),
            header,
            file,
            len: map.len(),
            map: RwLock::new(Some(map)),
            end: AtomicUsize::new(good_len),
            created: AtomicBool::new(fresh),
            last_sync: Mutex::new(Instant::now()),
            written: AtomicUsize::new(0),
            done: replay.done,
            cut,
        })
    }

    /// The journal's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The units it held when opened, `(id, count)` in id order: a
    /// [`crate::Runner`] with this journal does not count them again.
    #[must_use]
    pub fn done(&self) -> &[(u32, u128)] {
        &self.done
    }

    /// The damaged tail that opening cut off, if there was one.
    #[must_use]
    pub fn cut(&self) -> Option<&Cut> {
        self.cut.as_ref()
    }

    /// How many records this process has written to it.
    #[must_use]
    pub fn written(&self) -> usize {
        self.written.load(Ordering::SeqCst)
    }

    /// Syncs every record to the disk, cuts the unused room off, and stops
    /// all further appends for good (a unit that finishes later is not
    /// recorded, and is counted again on resuming): for a run that ends
    /// early while units may still be running. Returns the number of
    /// records this process wrote.
    pub fn stop(&self) -> usize {
        let mut map = self.map.write().unwrap_or_else(PoisonError::into_inner);
        if let Some(open) = map.take() {
            let _ = self.close(open);
        }
        self.written()
    }

    /// Syncs every record and cuts the unused room off, for good: no
    /// unit reported to it afterwards is recorded. A [`crate::Runner`] calls
    /// it when every unit is counted.
    ///
    /// # Errors
    /// The sync or the cut failed, or the file was cut short from outside.
    pub fn finish(&self) -> Result<(), Error> {
        let mut map = self.map.write().unwrap_or_else(PoisonError::into_inner);
        let Some(open) = map.take() else {
            return Ok(());
        };
        self.close(open).map_err(|e| self.io_error(e))
    }

    /// The records to the disk, the file cut to them; `map` (taken out of
    /// its lock, held exclusively) is synced and let go of first, so that no
    /// append copies a record past the new end, even if the cut fails
    /// half-way, and Windows lets the file be cut.
    fn close(&self, map: MmapRaw) -> std::io::Result<()> {
        // Cut short from outside, the file would be lengthened again with
        // zeros where its records were: left as it is, and the count fails.
        self.check_length()?;
        flush_view(&map)?;
        drop(map);
        let end = self.end.load(Ordering::SeqCst).min(self.len);
        self.file.set_len(end as u64)?;
        // A journal created less than a second ago keeps its name unsynced:
        // after a power cut it may be gone, and what it held is less than a
        // second's work to count again (a directory sync costs 2% at n = 16).
        self.file.sync_data()
    }

    /// Every record so far to the disk: `fdatasync` writes back the pages
    /// written through the map as well as the file's length; a new file's
    /// directory entry follows once.
    fn commit(&self) -> std::io::Result<()> {
        self.check_length()?;
        if let Some(map) = &*self.map.read().unwrap_or_else(PoisonError::into_inner) {
            flush_view(map)?;
        }
        self.file.sync_data()?;
        if self.created.swap(false, Ordering::SeqCst) {
            sync_folder(&self.path)?;
        }
        Ok(())
    }

    /// Whether the file still holds its header, records and room: another
    /// process may have truncated it.
    fn check_length(&self) -> std::io::Result<()> {
        if self.file.metadata()?.len() < self.len as u64 {
            return Err(std::io::Error::other(
                "it was cut short by another process while this count wrote to it; no total \
                 is reported (rerun to recount what it lacks)",
            ));
        }
        Ok(())
    }

    /// An I/O error of this journal as the run's error.
    fn io_error(&self, source: std::io::Error) -> Error {
        Error::Io {
            doing: "writing the journal",
            path: self.path.clone(),
            source,
        }
    }

    /// Copies the record of unit `id`, which counted `solutions`, into the
    /// map, and commits the records if one is due.
    fn append(&self, id: u32, solutions: u128) -> Result<(), Error> {
        let mut record = [0; MAX_RECORD];
        let len = self.header.write_record(id, solutions, &mut record);
        {
            let open = self.map.read().unwrap_or_else(PoisonError::into_inner);
            let Some(map) = open.as_ref() else {
                // Stopped: the file ends at its records now.
                return Ok(());
            };
            let at = self.end.fetch_add(len, Ordering::SeqCst);
            if at + len > map.len() {
                return Err(self.io_error(std::io::Error::other(
                    "it ran out of room (a unit reported twice?)",
                )));
            }
            // SAFETY: `at..at + len` lies inside the map (checked above) and
            // belongs to this thread alone (reserved by the `fetch_add`). The
            // map stays backed by the file while this write runs: the file is
            // locked against other queens processes, and only `close` cuts
            // it, which holds the map's lock exclusively and takes the map
            // out first, so no append that sees it there (as this one did,
            // and holds it shared) runs after a cut. (A truncation from outside raises SIGBUS,
            // which the program handles or dies of: see the module's doc.)
            #[allow(unsafe_code)]
            unsafe {
                std::ptr::copy_nonoverlapping(record.as_ptr(), map.as_mut_ptr().add(at), len);
            }
        }
        self.written.fetch_add(1, Ordering::SeqCst);
        if let Ok(mut last_sync) = self.last_sync.try_lock()
            && last_sync.elapsed() >= SYNC_EVERY
        {
            *last_sync = Instant::now();
            self.commit().map_err(|e| self.io_error(e))?;
        }
        Ok(())
    }
}

impl Journal {
    /// A finished unit's record into the journal, as the
    /// [`Runner`](crate::Runner) keeps it: a failed sync stops the run
    /// with its error, and the next run recounts what the journal lacks.
    pub(crate) fn keep(&self, done: &UnitDone) -> Result<(), Error> {
        self.append(done.id, done.solutions)
    }
}

/// Locks the journal against other queens processes, waiting as `lock`
/// says for one to let go of it (a requeued task whose predecessor is
/// still dying), polling; and for [`LOCK_GRACE`] at least, silently where
/// the wait asked for is no longer (a run resumed right after a kill).
fn lock_file(file: &File, path: &Path, lock: LockWait<'_>) -> Result<(), OpenError> {
    let started = Instant::now();
    let mut said = false;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(()),
            Err(TryLockError::Error(e)) => {
                return Err(OpenError::Unusable(format!(
                    "cannot use {} as a journal: cannot lock it: {e}",
                    path.display()
                )));
            }
            Err(TryLockError::WouldBlock) => {
                let waited = started.elapsed();
                if waited >= lock.wait.max(LOCK_GRACE) {
                    return Err(OpenError::Busy {
                        path: path.to_owned(),
                        waited,
                    });
                }
                if !said && lock.wait > LOCK_GRACE {
                    if let Some(waiting) = lock.waiting {
                        waiting(path, lock.wait);
                    }
                    said = true;
                }
                if lock.cancel.is_some_and(|c| c.load(Ordering::SeqCst)) {
                    return Err(OpenError::Cancelled(path.to_owned()));
                }
                std::thread::sleep(if waited < LOCK_GRACE {
                    GRACE_POLL
                } else {
                    LOCK_POLL
                });
            }
        }
    }
}

/// What a commit does to the map before it syncs the file. On Unix,
/// nothing: the map is the page cache, which `fdatasync` writes back.
#[cfg(unix)]
#[allow(clippy::unnecessary_wraps)]
fn flush_view(_map: &MmapRaw) -> std::io::Result<()> {
    Ok(())
}

/// What a commit does to the map before it syncs the file. On Windows,
/// `FlushViewOfFile`: `FlushFileBuffers` alone leaves what went through a
/// view unwritten.
#[cfg(windows)]
fn flush_view(map: &MmapRaw) -> std::io::Result<()> {
    map.flush_async()
}

/// Writes `room` zero bytes from `offset` on: the file system sets the
/// space aside now, so that a full disk is an error here rather than a
/// SIGBUS when a record lands in the map. The zeros are only in the page
/// cache: the room left over is cut off before anything is synced.
fn reserve(file: &File, offset: usize, room: usize) -> std::io::Result<()> {
    static ZEROS: [u8; 1 << 16] = [0; 1 << 16];
    let mut at = offset;
    while at < offset + room {
        let len = (offset + room - at).min(ZEROS.len());
        write_all_at(file, &ZEROS[..len], at as u64)?;
        at += len;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;
    use crate::{Config, Engine};

    /// A unit that finishes after the journal was stopped is not copied
    /// into the map past the file's new end (see issue 22).
    #[test]
    fn nothing_is_appended_after_the_journal_is_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal");
        let plan = Plan::new(Shape::new(8, Engine::Mirror, None), &Config::default()).unwrap();
        let journal = Journal::open(&path, &plan, None, LockWait::default()).unwrap();
        journal.append(0, 4).unwrap();
        assert_eq!(journal.stop(), 1);
        let closed = std::fs::read(&path).unwrap();
        journal.append(1, 4).unwrap();
        assert_eq!(journal.stop(), 1);
        assert_eq!(std::fs::read(&path).unwrap(), closed);
        let replay = Replay::read(&closed, &plan);
        assert_eq!(replay.map(|r| r.done), Ok(vec![(0, 4)]));
    }

    /// A second open of a held journal is refused after the grace without
    /// a wait, and a cancelled wait says so, having called the wait
    /// callback once.
    #[test]
    fn a_held_journal_is_refused_or_waited_for() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal");
        let plan = Plan::new(Shape::new(8, Engine::Mirror, None), &Config::default()).unwrap();
        let _held = Journal::open(&path, &plan, None, LockWait::default()).unwrap();
        let started = Instant::now();
        let busy = Journal::open(&path, &plan, None, LockWait::default());
        assert!(matches!(busy, Err(OpenError::Busy { .. })));
        assert!(started.elapsed() >= LOCK_GRACE);
        let stop = AtomicBool::new(true);
        let calls = AtomicUsize::new(0);
        let waiting = |_: &Path, _: Duration| {
            calls.fetch_add(1, Ordering::SeqCst);
        };
        let lock = LockWait::up_to(Duration::from_secs(60))
            .cancel(&stop)
            .on_wait(&waiting);
        let cancelled = Journal::open(&path, &plan, None, lock);
        assert!(matches!(cancelled, Err(OpenError::Cancelled(_))));
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }
}
