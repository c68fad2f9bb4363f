//! The rules the files of a long run are opened and read by (feature
//! `files`): a journal or a shard result is opened only if it is a
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
//!
//! What differs between Unix and Windows is in the twins at the end of
//! this file, one signature each (docs/windows.md says what differs).

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;

/// The folder that holds `path` (`.` for a bare name).
pub(crate) fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Makes a new or renamed file's name durable: syncs its folder. (Windows
/// has no call that syncs a folder: there a new name is as durable as
/// NTFS's journal of its metadata makes it, and this does nothing.)
///
/// # Errors
/// The folder cannot be opened or synced.
pub fn sync_folder(path: &Path) -> io::Result<()> {
    os::sync_folder(folder_of(path))
}

/// "a directory", "a socket", ...: what a non-regular file is, for messages.
#[must_use]
pub fn kind_name(meta: &Metadata) -> &'static str {
    os::kind_name(meta)
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
    let mut options = OpenOptions::new();
    options
        .read(true)
        .write(write)
        .create(create)
        .truncate(false);
    let file = os::without_blocking(&mut options)
        .open(path)
        .map_err(|e| format!("cannot be opened: {e}"))?;
    // Checked again on what was opened: the path may have changed since.
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot be read: {e}"))?;
    if !os::is_regular(&file, &meta) {
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
/// with a unique name beside it (created with `O_EXCL`, on Unix with mode
/// 0666 less the umask, as `>` creates one), synced, renamed over `path`
/// (on Windows `MoveFileEx` with `MOVEFILE_REPLACE_EXISTING`), and the
/// folder synced, so that `path` is either absent or whole, even after a
/// crash.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut name = std::ffi::OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&name).suffix(".tmp");
    let temporary = os::as_shell_creates(&mut builder).tempfile_in(folder_of(path))?;
    temporary.as_file().write_all(bytes)?;
    temporary.as_file().sync_all()?;
    temporary.persist(path).map_err(|e| e.error)?;
    sync_folder(path)
}

/// The identity of the file at `path`, however it is spelt (symlinks and
/// hard links followed): its device and inode on Unix, its volume's serial
/// number and its file index on Windows.
pub(crate) fn identity(path: &Path) -> Option<(u64, u64)> {
    os::identity(path)
}

/// Writes all of `bytes` at `offset` of `file`, wherever its cursor is.
pub(crate) fn write_all_at(file: &File, bytes: &[u8], offset: u64) -> io::Result<()> {
    os::write_all_at(file, bytes, offset)
}

/// Unix: file types from the mode, `O_NONBLOCK` opens, `pwrite`.
#[cfg(unix)]
mod os {
    use std::fs::{File, Metadata, OpenOptions, Permissions};
    use std::io;
    use std::os::unix::fs::{FileExt, FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
    use std::path::Path;

    use rustix::fs::OFlags;

    pub(super) fn sync_folder(folder: &Path) -> io::Result<()> {
        File::open(folder)?.sync_all()
    }

    pub(super) fn kind_name(meta: &Metadata) -> &'static str {
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

    /// Opened non-blocking, so that a FIFO swapped in does not hang the
    /// open, and never as the controlling terminal.
    pub(super) fn without_blocking(options: &mut OpenOptions) -> &mut OpenOptions {
        options.custom_flags((OFlags::NONBLOCK | OFlags::NOCTTY).bits() as i32)
    }

    pub(super) fn is_regular(_file: &File, meta: &Metadata) -> bool {
        meta.is_file()
    }

    /// Mode 0666 less the umask, as `>` creates a file.
    pub(super) fn as_shell_creates<'b, 'a, 's>(
        builder: &'b mut tempfile::Builder<'a, 's>,
    ) -> &'b mut tempfile::Builder<'a, 's> {
        builder.permissions(Permissions::from_mode(0o666))
    }

    pub(super) fn identity(path: &Path) -> Option<(u64, u64)> {
        let meta = std::fs::metadata(path).ok()?;
        Some((meta.dev(), meta.ino()))
    }

    pub(super) fn write_all_at(file: &File, bytes: &[u8], offset: u64) -> io::Result<()> {
        file.write_all_at(bytes, offset)
    }
}

/// Windows: devices and pipes told apart from files by the handle's type
/// (`GetFileType`), identity by volume and file index.
#[cfg(windows)]
mod os {
    use std::fs::{File, Metadata, OpenOptions};
    use std::io;
    use std::os::windows::fs::FileExt;
    use std::path::Path;

    use winapi_util::{Handle, file};

    pub(super) fn sync_folder(_folder: &Path) -> io::Result<()> {
        Ok(())
    }

    pub(super) fn kind_name(meta: &Metadata) -> &'static str {
        if meta.is_dir() {
            "a directory"
        } else if meta.is_file() {
            "a regular file"
        } else {
            "not a regular file"
        }
    }

    /// Opening never blocks on Windows: a pipe without a server is an
    /// error at once, and a device such as `NUL` or `COM1` is refused by
    /// [`is_regular`] before anything is read from it.
    pub(super) fn without_blocking(options: &mut OpenOptions) -> &mut OpenOptions {
        options
    }

    /// A regular file by its metadata, and a disk file by its handle: a
    /// device (`NUL`, `CON`, `COM1`) or a pipe opened under a file's name
    /// is not one.
    pub(super) fn is_regular(file: &File, meta: &Metadata) -> bool {
        meta.is_file() && file::typ(file).is_ok_and(|kind| kind.is_disk())
    }

    /// A new file as `>` creates one: Windows has no mode to set.
    pub(super) fn as_shell_creates<'b, 'a, 's>(
        builder: &'b mut tempfile::Builder<'a, 's>,
    ) -> &'b mut tempfile::Builder<'a, 's> {
        builder
    }

    pub(super) fn identity(path: &Path) -> Option<(u64, u64)> {
        let handle = Handle::from_path_any(path).ok()?;
        let info = file::information(&handle).ok()?;
        Some((info.volume_serial_number(), info.file_index()))
    }

    pub(super) fn write_all_at(file: &File, mut bytes: &[u8], mut offset: u64) -> io::Result<()> {
        while !bytes.is_empty() {
            match file.seek_write(bytes, offset) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(k) => {
                    bytes = &bytes[k..];
                    offset += k as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}
