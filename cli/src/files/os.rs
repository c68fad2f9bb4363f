//! What the rules of [`super`] mean on each system, one signature each:
//! a file's identity, which outputs are streams (written as `>` would,
//! never replaced), how a file is opened without blocking, and what a
//! replacement keeps of the file it replaces. docs/windows.md says where
//! Windows differs.

#[cfg(unix)]
pub use unix::*;
#[cfg(windows)]
pub use windows::*;

/// Unix: device and inode, character devices and FIFOs, `O_NONBLOCK`,
/// mode and owner.
#[cfg(unix)]
mod unix {
    use std::fs::{File, Metadata, OpenOptions, Permissions};
    use std::io;
    use std::os::fd::AsFd;
    use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
    use std::path::Path;

    use rustix::fs::OFlags;

    /// Device and inode of what `meta` describes.
    pub fn identity(meta: &Metadata, _path: &Path) -> Option<(u64, u64)> {
        Some((meta.dev(), meta.ino()))
    }

    /// A name not yet in a folder, as the folder will know it: as spelt.
    pub fn entry_name(name: &std::ffi::OsStr) -> std::ffi::OsString {
        name.to_owned()
    }

    /// Device and inode of the regular file on standard input, if it is one.
    pub fn stdin_identity() -> Option<(u64, u64)> {
        let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
        let meta = File::from(fd).metadata().ok()?;
        meta.is_file().then(|| (meta.dev(), meta.ino()))
    }

    /// A character device or a FIFO: written in place, never replaced.
    pub fn is_stream(_path: &Path, meta: Option<&Metadata>) -> bool {
        meta.is_some_and(|meta| {
            let kind = meta.file_type();
            kind.is_char_device() || kind.is_fifo()
        })
    }

    /// Opened for writing without blocking on a FIFO, never truncated.
    pub fn writer() -> OpenOptions {
        let mut options = OpenOptions::new();
        options
            .write(true)
            .custom_flags(OFlags::NONBLOCK.bits() as i32);
        options
    }

    /// A character device or a FIFO opened as `>` would, without
    /// blocking: a FIFO that nobody reads is refused at once. Writes block
    /// again once it is open.
    pub fn open_stream(path: &Path) -> io::Result<File> {
        let file = OpenOptions::new()
            .write(true)
            .custom_flags((OFlags::NONBLOCK | OFlags::NOCTTY).bits() as i32)
            .open(path)
            .map_err(|e| match e.raw_os_error() {
                Some(code) if code == rustix::io::Errno::NXIO.raw_os_error() => {
                    io::Error::other("it is a FIFO that no process is reading")
                }
                _ => e,
            })?;
        let flags = rustix::fs::fcntl_getfl(&file)?;
        rustix::fs::fcntl_setfl(&file, flags - OFlags::NONBLOCK)?;
        Ok(file)
    }

    /// Mode 0666 less the umask, as `>` creates a file.
    pub fn as_shell_creates<'b, 'a, 's>(
        builder: &'b mut tempfile::Builder<'a, 's>,
    ) -> &'b mut tempfile::Builder<'a, 's> {
        builder.permissions(Permissions::from_mode(0o666))
    }

    /// Gives `file` (the replacement) the owner and mode of `old`; `false`
    /// where the owner cannot be kept (another user's file that we may
    /// write), for the caller to write in place instead.
    pub fn keep_owner_and_mode(file: &File, old: &Metadata) -> io::Result<bool> {
        let same_owner = file
            .metadata()
            .is_ok_and(|m| (m.uid(), m.gid()) == (old.uid(), old.gid()));
        if !same_owner && std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid())).is_err()
        {
            return Ok(false);
        }
        file.set_permissions(Permissions::from_mode(old.mode() & 0o7777))?;
        Ok(true)
    }
}

/// Windows: volume serial number and file index, devices and pipes by
/// the handle's type, no modes or owners to keep.
#[cfg(windows)]
mod windows {
    use std::fs::{File, Metadata, OpenOptions};
    use std::io;
    use std::path::Path;

    use winapi_util::{Handle, HandleRef, file};

    /// Volume serial number and file index of the file at `path`.
    pub fn identity(_meta: &Metadata, path: &Path) -> Option<(u64, u64)> {
        let handle = Handle::from_path_any(path).ok()?;
        let info = file::information(&handle).ok()?;
        Some((info.volume_serial_number(), info.file_index()))
    }

    /// A name not yet in a folder, as the folder will know it: Windows
    /// matches names without regard to case and drops trailing dots and
    /// spaces, so `RUN.JOURNAL.` and `run.journal` are one file. Folding
    /// can only make two names equal that were not (a needless refusal),
    /// never tell apart two that are one.
    pub fn entry_name(name: &std::ffi::OsStr) -> std::ffi::OsString {
        let name = name.to_string_lossy();
        name.trim_end_matches(['.', ' ']).to_lowercase().into()
    }

    /// Volume serial number and file index of the disk file on standard
    /// input, if it is one.
    pub fn stdin_identity() -> Option<(u64, u64)> {
        let stdin = HandleRef::stdin();
        if !file::typ(&stdin).ok()?.is_disk() {
            return None;
        }
        let info = file::information(&stdin).ok()?;
        Some((info.volume_serial_number(), info.file_index()))
    }

    /// A character device (`NUL`, `CON`, `COM1`) or a pipe, by the type of
    /// its handle: written in place, never replaced. Windows gives no
    /// metadata for a device, so the path is opened (for reading, which
    /// touches nothing) to ask.
    pub fn is_stream(path: &Path, _meta: Option<&Metadata>) -> bool {
        Handle::from_path_any(path)
            .and_then(|handle| file::typ(&handle))
            .is_ok_and(|kind| kind.is_char() || kind.is_pipe())
    }

    /// Opened for writing, never truncated (opening never blocks here).
    pub fn writer() -> OpenOptions {
        let mut options = OpenOptions::new();
        options.write(true);
        options
    }

    /// A device or a pipe opened as `>` would: a pipe that no process
    /// serves is an error at once.
    pub fn open_stream(path: &Path) -> io::Result<File> {
        OpenOptions::new().write(true).open(path)
    }

    /// A new file as `>` creates one: Windows has no mode to set.
    pub fn as_shell_creates<'b, 'a, 's>(
        builder: &'b mut tempfile::Builder<'a, 's>,
    ) -> &'b mut tempfile::Builder<'a, 's> {
        builder
    }

    /// Nothing to keep: a read-only file (the one attribute that says who
    /// may write) was refused before, and the folder's permissions, which
    /// the replacement inherits, are the old file's too, unless it was
    /// given its own.
    #[allow(clippy::unnecessary_wraps)]
    pub fn keep_owner_and_mode(_file: &File, _old: &Metadata) -> io::Result<bool> {
        Ok(true)
    }
}
