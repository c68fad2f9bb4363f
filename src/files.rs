//! The rules the files of a long run are opened and read by (feature
//! `files`, Unix): a journal or a shard result is opened only if it is a
//! regular file, checked before it is opened and again once it is (opened
//! non-blocking, so that a FIFO swapped in between does not hang), read
//! only up to what it can legitimately hold, and a new name is made
//! durable by syncing its folder. [`journal::Journal`](crate::journal::Journal)
//! and [`shard::read`](crate::shard::read) go through them; they are
//! public so that a front end that opens the same files (to verify a
//! journal without locking it) or files of its own (its outputs) does so
//! by the same rules.
//!
//! Nothing here prints or decides what a failure means: every refusal is a
//! line that says what is wrong with the file, for the caller to name it.

use std::fs::{self, File, Metadata, OpenOptions, Permissions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

use rustix::fs::OFlags;

/// The folder that holds `path` (`.` for a bare name).
pub(crate) fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Makes a new or renamed file's name durable: syncs its folder.
///
/// # Errors
/// The folder cannot be opened or synced.
pub fn sync_folder(path: &Path) -> io::Result<()> {
    File::open(folder_of(path))?.sync_all()
}

/// "a directory", "a socket", ...: what a non-regular file is, for messages.
#[must_use]
pub fn kind_name(meta: &Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// Opens the regular file at `path` for reading (and, with `write`, for
/// writing too; with `create`, creating it if it is not there), after
/// checking that it is one: a FIFO, a device, a directory or a socket is
/// refused in one line that names `role`, without being opened, so that
/// nothing blocks and no device is touched. The refusal says what is
/// wrong with the file; the caller names it.
///
/// # Errors
/// The refusal, in one line.
pub fn open_input(path: &Path, role: &str, write: bool, create: bool) -> Result<File, String> {
    let not_regular =
        |meta: &Metadata| format!("it is {}; {role} must be a regular file", kind_name(meta));
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => return Err(not_regular(&meta)),
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound && create => {}
        Err(e) => return Err(format!("cannot be read: {e}")),
    }
    let file = OpenOptions::new()
        .read(true)
        .write(write)
        .create(create)
        .truncate(false)
        .custom_flags((OFlags::NONBLOCK | OFlags::NOCTTY).bits() as i32)
        .open(path)
        .map_err(|e| format!("cannot be opened: {e}"))?;
    // Checked again on what was opened: the path may have changed since.
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot be read: {e}"))?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    Ok(file)
}

/// Reads all of `file` (a regular file from [`open_input`]) if it holds
/// at most `cap` bytes; else the refusal names its size and the cap.
/// The refusal says what is wrong; the caller names the file.
///
/// # Errors
/// The refusal, in one line.
pub fn read_capped(file: &File, role: &str, cap: u64) -> Result<Vec<u8>, String> {
    let size = file
        .metadata()
        .map_err(|e| format!("cannot be read: {e}"))?
        .len();
    if size > cap {
        return Err(format!(
            "it holds {size} bytes, more than {role} can ({cap} at most)"
        ));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    // One byte over the cap is enough to see a file that grew meanwhile.
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot be read: {e}"))?;
    if bytes.len() as u64 > cap {
        return Err(format!("it grew past {cap} bytes while it was read"));
    }
    Ok(bytes)
}

/// Writes `bytes` as the new file `path`, atomically: to a temporary file
/// with a unique name beside it (created with `O_EXCL`, mode 0666 less the
/// umask, as `>` creates one), synced, renamed over `path`, and the folder
/// synced, so that `path` is either absent or whole, even after a crash.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut name = std::ffi::OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(".");
    let temporary = tempfile::Builder::new()
        .prefix(&name)
        .suffix(".tmp")
        .permissions(Permissions::from_mode(0o666))
        .tempfile_in(folder_of(path))?;
    temporary.as_file().write_all(bytes)?;
    temporary.as_file().sync_all()?;
    temporary.persist(path).map_err(|e| e.error)?;
    sync_folder(path)
}
