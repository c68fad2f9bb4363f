//! `--checkpoint FILE`: the journal of finished units on disk.
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
//! most the last second. The file is locked against a second process. What
//! a record means, and how a damaged file is read back, is the library's
//! [`queens::journal`]; this file opens, cuts, appends and syncs.

use std::fs::{File, TryLockError};
use std::io::Read;
use std::os::fd::AsFd;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError, RwLock, RwLockWriteGuard};
use std::time::{Duration, Instant};

use memmap2::MmapRaw;

use super::files::{self, sync_folder};
use super::signals;
use queens::journal::{self, Header, Replay};
use queens::{Observer, Plan, UnitDone};

/// The longest a finished unit waits in the page cache before it is
/// synced to the disk.
const SYNC_EVERY: Duration = Duration::from_secs(1);

/// How often a locked journal is tried again while waiting for it.
const LOCK_POLL: Duration = Duration::from_millis(100);

/// Test builds only (debug assertions on, never the release binary): the
/// process kills itself with SIGKILL right after writing this many
/// records, to test resuming without timing races.
#[cfg(debug_assertions)]
const KILL_AFTER: &str = "QUEENS_TEST_KILL_AFTER";

/// An open, locked journal.
pub struct Journal {
    path: PathBuf,
    /// The plan's header, whose hash every record's checksum covers.
    header: Header,
    file: File,
    /// The whole file: header, records, and room for every unit left.
    map: MmapRaw,
    /// Where the next record goes: bytes below are records or reserved.
    end: AtomicUsize,
    /// Created by this run: its directory is synced with the first commit.
    created: AtomicBool,
    /// Whether records may still land in the map: held shared by every
    /// append, which checks it, and exclusively by `close`, which cuts the
    /// file back and clears it, so that no record is ever copied past the
    /// file's end (and the process never exits in the middle of one).
    open: RwLock<bool>,
    /// When the records were last synced; held while syncing.
    last_sync: Mutex<Instant>,
    written: AtomicUsize,
    /// The first sync that failed (or a record past the room, which cannot
    /// happen): the count ends with this error and no total, and the next
    /// run recounts what the journal lacks.
    failed: Mutex<Option<std::io::Error>>,
    kill_after: Option<usize>,
}

/// A journal opened for a plan, with what it already holds.
pub struct Opened {
    /// The journal, ready for appending.
    pub journal: Journal,
    /// The units it holds, in id order.
    pub done: Vec<(u32, u128)>,
    /// A damaged tail that was cut: its first line, its length in bytes,
    /// and what is wrong with that line.
    pub cut: Option<(usize, usize, journal::Damage)>,
}

/// Why a journal cannot be used.
pub enum Refused {
    /// The file is another process's (exit 1).
    Busy(String),
    /// The file cannot be read or belongs to something else (exit 2).
    Unusable(String),
}

impl Journal {
    /// Opens (or creates) the journal at `path` for `plan`, locks it
    /// (waiting up to `lock_wait` for another process to let go of it),
    /// reads what it holds, cuts a damaged tail, and sets room aside for
    /// the units of `target` (every unit of the plan if `None`) that it
    /// does not hold yet.
    pub fn open(
        path: &Path,
        plan: &Plan,
        target: Option<&[u32]>,
        lock_wait: Duration,
    ) -> Result<Opened, Refused> {
        let shown = path.display();
        let unusable =
            |why: String| Refused::Unusable(format!("cannot use {shown} as a journal: {why}"));
        let existed = path.exists();
        let file = files::open_input(path, "a journal", true, true).map_err(unusable)?;
        lock(&file, path, lock_wait)?;
        let header = Header::of(plan);
        let refuse = |refusal: journal::Refusal| {
            Refused::Unusable(format!(
                "cannot resume from {shown}: {refusal}; remove it or name another file to \
                 start afresh"
            ))
        };
        let bytes = match files::read_capped(
            &file,
            "a journal of this plan",
            journal::max_len(plan.len()),
        ) {
            Ok(bytes) => bytes,
            Err(too_long) => {
                // Say what the file is, where its head shows it, rather
                // than only that it is too long.
                let mut head = Vec::new();
                let _ = (&file).take(1 << 10).read_to_end(&mut head);
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
                .and_then(|()| file.write_all_at(line.as_bytes(), 0))
                .and_then(|()| file.sync_data());
            if let Err(e) = written {
                return Err(undo(0, e));
            }
            (line.len(), None)
        } else {
            let unused = bytes.iter().rev().take_while(|&&b| b == 0).count();
            let line = replay
                .bad_line
                .zip(replay.damage.clone())
                .map(|(l, damage)| (l, bytes.len() - unused - replay.good_len, damage));
            (replay.good_len, line)
        };
        // Cut any damage off, then make room for a record per unit this
        // run counts. Nothing more is synced yet: the first group commit
        // syncs the records (and, for a new file, its directory).
        let room = left * journal::MAX_RECORD;
        let map = file
            .set_len(good_len as u64)
            .and_then(|()| reserve(&file, good_len, room))
            .and_then(|()| MmapRaw::map_raw(&file));
        let map = match map {
            Ok(map) => map,
            Err(e) => return Err(undo(good_len, e)),
        };
        catch_truncation(path);
        let fresh = replay.fresh;
        let Replay { done, .. } = replay;
        #[cfg(debug_assertions)]
        let kill_after = std::env::var(KILL_AFTER).ok().and_then(|k| k.parse().ok());
        #[cfg(not(debug_assertions))]
        let kill_after = None;
        Ok(Opened {
            journal: Self {
                path: path.to_owned(),
                header,
                file,
                map,
                end: AtomicUsize::new(good_len),
                created: AtomicBool::new(fresh),
                open: RwLock::new(true),
                last_sync: Mutex::new(Instant::now()),
                written: AtomicUsize::new(0),
                failed: Mutex::new(None),
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

    /// Syncs every record to the disk, cuts the unused room off, and stops
    /// all further appends (for an exit mid-count: a unit that finishes
    /// later is not recorded, and is counted again on resuming); with the
    /// number of records this process wrote. The guard keeps the appends
    /// that were waiting from even starting until the process exits.
    pub fn sync_and_hold(&self) -> (RwLockWriteGuard<'_, bool>, usize) {
        let mut open = self.open.write().unwrap_or_else(PoisonError::into_inner);
        let _ = self.close(&mut open);
        (open, self.written.load(Ordering::SeqCst))
    }

    /// Syncs every record and cuts the unused room off; the first write or
    /// sync that failed, if any. It takes the journal, so that no unit can
    /// be reported to it afterwards.
    pub fn finish(self) -> std::io::Result<()> {
        let mut open = self.open.write().unwrap_or_else(PoisonError::into_inner);
        // Close first, so that every record that did land is synced and
        // the room cut off, whatever failed before.
        let closed = self.close(&mut open);
        match self
            .failed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            Some(e) => Err(e),
            None => closed,
        }
    }

    /// The records to the disk, the file cut to them; `open` (the lock's
    /// value, held exclusively) is cleared first, so that no append copies
    /// a record past the new end, even if the cut fails half-way.
    fn close(&self, open: &mut bool) -> std::io::Result<()> {
        *open = false;
        // Cut short from outside, the file would be lengthened again with
        // zeros where its records were: left as it is, and the count fails.
        self.check_length()?;
        let end = self.end.load(Ordering::SeqCst).min(self.map.len());
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
        self.file.sync_data()?;
        if self.created.swap(false, Ordering::SeqCst) {
            sync_folder(&self.path)?;
        }
        Ok(())
    }

    /// Whether the file still holds its header, records and room: another
    /// process may have truncated it.
    fn check_length(&self) -> std::io::Result<()> {
        if self.file.metadata()?.len() < self.map.len() as u64 {
            return Err(std::io::Error::other(format!(
                "the journal {} was cut short by another process while this count wrote to \
                 it; no total is reported (rerun to recount what it lacks)",
                self.path.display()
            )));
        }
        Ok(())
    }

    fn fail(&self, e: std::io::Error) {
        self.failed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(e);
    }
}

impl Observer for Journal {
    fn unit_done(&self, done: &UnitDone) {
        self.append(done.id, done.solutions);
    }
}

impl Journal {
    /// Copies the record of unit `id`, which counted `solutions`, into the
    /// map, and commits the records if one is due.
    fn append(&self, id: u32, solutions: u128) {
        // The test hook kills after exactly K records: one append at a time.
        let _one_at_a_time = self.kill_after.map(|_| {
            self.last_sync
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        });
        let mut record = [0; journal::MAX_RECORD];
        let len = self.header.write_record(id, solutions, &mut record);
        {
            let open = self.open.read().unwrap_or_else(PoisonError::into_inner);
            if !*open {
                // Closed at an interrupt: the file ends at its records now.
                return;
            }
            let at = self.end.fetch_add(len, Ordering::SeqCst);
            if at + len > self.map.len() {
                self.fail(std::io::Error::other("the journal ran out of room"));
                return;
            }
            // SAFETY: `at..at + len` lies inside the map (checked above) and
            // belongs to this thread alone (reserved by the `fetch_add`). The
            // map stays backed by the file while this write runs: the file is
            // locked against other queens processes, and only `close` cuts
            // it, which holds `open` exclusively and clears it first, so no
            // append that sees it set (as this one did, and holds it shared)
            // runs after a cut. (A truncation from outside is caught as
            // SIGBUS by `catch_truncation`.)
            #[allow(unsafe_code)]
            unsafe {
                std::ptr::copy_nonoverlapping(record.as_ptr(), self.map.as_mut_ptr().add(at), len);
            }
        }
        let written = self.written.fetch_add(1, Ordering::SeqCst) + 1;
        if self.kill_after.is_none()
            && let Ok(mut last_sync) = self.last_sync.try_lock()
            && last_sync.elapsed() >= SYNC_EVERY
        {
            if let Err(e) = self.commit() {
                self.fail(e);
            }
            *last_sync = Instant::now();
        }
        if self.kill_after == Some(written) {
            let _ = signal_hook::low_level::raise(signal_hook::consts::SIGKILL);
        }
    }
}

/// Locks the journal against other queens processes, waiting up to
/// `wait` for one to let go of it (a requeued task whose predecessor is
/// still dying), polling, and saying once that it waits. A signal ends
/// the wait as it would end a count.
fn lock(file: &File, path: &Path, wait: Duration) -> Result<(), Refused> {
    let shown = path.display();
    let started = Instant::now();
    let mut said = false;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(()),
            Err(TryLockError::Error(e)) => {
                return Err(Refused::Unusable(format!(
                    "cannot use {shown} as a journal: cannot lock it: {e}"
                )));
            }
            Err(TryLockError::WouldBlock) if started.elapsed() >= wait => {
                let waited = if wait.is_zero() {
                    String::new()
                } else {
                    format!(" (waited {} s; --lock-wait sets how long)", wait.as_secs())
                };
                return Err(Refused::Busy(format!(
                    "the journal {shown} is in use by another queens process{waited}"
                )));
            }
            Err(TryLockError::WouldBlock) => {
                if !said {
                    eprintln!(
                        "queens: the journal {shown} is in use by another queens process; \
                         waiting up to {} s for it",
                        wait.as_secs()
                    );
                    said = true;
                }
                if signals::stopped() {
                    eprintln!("interrupted while waiting for the journal {shown}: nothing counted");
                    std::process::exit(i32::from(signals::exit_code()));
                }
                std::thread::sleep(LOCK_POLL);
            }
        }
    }
}

/// What the SIGBUS handler prints: set once, before it is installed.
static TRUNCATED: OnceLock<Vec<u8>> = OnceLock::new();

/// Turns the SIGBUS that a record written into the map raises, once
/// another process has truncated the file under it, into one line and
/// exit code 1 rather than a silent death (exit 135).
fn catch_truncation(path: &Path) {
    let line = format!(
        "queens: the journal {} was cut short by another process while this count wrote to it; \
         no total is reported (rerun to recount what it lacks)\n",
        path.display()
    );
    if TRUNCATED.set(line.into_bytes()).is_err() {
        return;
    }
    // SAFETY: the action calls only async-signal-safe functions: an atomic
    // load (`OnceLock::get` of a value set before registration), write(2)
    // on the stderr descriptor (`as_fd` takes no lock) and _exit(2). It
    // never returns, so the faulting write is not retried.
    #[allow(unsafe_code)]
    let registered = unsafe {
        signal_hook::low_level::register(signal_hook::consts::SIGBUS, || {
            if let Some(line) = TRUNCATED.get() {
                let _ = rustix::io::write(std::io::stderr().as_fd(), line);
            }
            signal_hook::low_level::exit(1);
        })
    };
    // Without the handler a truncation still ends the count, as SIGBUS.
    let _ = registered;
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
        file.write_all_at(&ZEROS[..len], at as u64)?;
        at += len;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens::{Config, Engine};

    /// A unit that finishes after an interrupt closed the journal is not
    /// copied into the map past the file's new end (see issue 22).
    #[test]
    fn nothing_is_appended_after_the_journal_is_closed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal");
        let plan = Plan::new(8, Engine::Mirror, &Config::default()).unwrap();
        let Ok(Opened { journal, .. }) = Journal::open(&path, &plan, None, Duration::ZERO) else {
            panic!("cannot open a new journal");
        };
        journal.append(0, 4);
        let (held, written) = journal.sync_and_hold();
        assert_eq!(written, 1);
        drop(held);
        let closed = std::fs::read(&path).unwrap();
        journal.append(1, 4);
        assert_eq!(journal.sync_and_hold().1, 1);
        assert_eq!(std::fs::read(&path).unwrap(), closed);
        let replay = queens::journal::Replay::read(&closed, &plan);
        assert_eq!(replay.map(|r| r.done), Ok(vec![(0, 4)]));
    }
}
