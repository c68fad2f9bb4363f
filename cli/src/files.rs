//! Every file a command writes or reads goes through here, so that the
//! tool never replaces what is not its own, never hangs on a special file
//! and never reads more than a file can legitimately hold.
//!
//! Writing ([`Output`]), as a shell's `>` would, but atomically where it can:
//! - a regular file, or a new name, is replaced atomically: the bytes go
//!   to a temporary file with a unique name beside it (created with
//!   `O_EXCL`, never a name that a PID determines), synced, given the old
//!   file's mode and owner, and renamed over it;
//! - where that cannot keep the old file's owner (another user's file
//!   that we may write) or the folder is not ours to write, the file is
//!   truncated and written in place, as `>` does;
//! - a file we may not write (no write permission) is refused, untouched;
//! - a character device or a FIFO (`/dev/stdout`, `/dev/null`, a named
//!   pipe) is opened and written as `>` would, never replaced; a FIFO with
//!   no reader is refused at once rather than waited on;
//! - a symlink is followed to its target, which is what gets written;
//! - a directory, a block device or a socket is refused;
//! - a queens journal or shard result is never replaced by an output, nor
//!   is any file the same command reads ([`Input`]), standard input
//!   included where it is a regular file (`< file`): compared by device and
//!   inode, not by spelling, so that a symlink, a hard link, `./file`,
//!   `/dev/stdin` or `/proc/self/fd/0` is caught as surely as the name.
//!
//! Reading (the library's `open_input`, under `queens::journal::ReadOnly`
//! and the shard readers): a journal or shard result must be a regular
//! file, checked before it is opened and again once it is (opened
//! non-blocking, so that a FIFO swapped in between does not hang), and
//! its size is capped by the caller before anything is read.
//!
//! This module must never truncate, rename over or chmod anything it has
//! not first checked by these rules.
//!
//! On Windows ([`os`] holds what differs): identity is the volume's serial
//! number and the file index; `NUL`, `CON`, `COM1` and pipes are the
//! streams, known by their handle's type; there are no modes or owners to
//! keep; a read-only file is the one we may not write.

mod os;

use std::fs::{self, File, Metadata};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::UsageError;

// The library's rules for the files of a run, which its journal and shard
// reader follow too.
pub use queens::files::{kind_name, sync_folder};

/// What a path names on the file system, compared by identity rather than
/// spelling: the file it leads to (symlinks followed), or, for a name not
/// there yet, the folder it would be created in and its name there.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Identity {
    /// An existing file: device and inode (on Windows, volume serial
    /// number and file index).
    File(u64, u64),
    /// A name not yet there: the folder's identity, and the name (on
    /// Windows folded as the folder matches names: `os::entry_name`).
    Entry(u64, u64, std::ffi::OsString),
}

impl Identity {
    /// The identity of `path`, or `None` where neither it nor its folder
    /// can be looked at (a path nobody could open either).
    pub fn of(path: &Path) -> Option<Self> {
        if let Ok(meta) = fs::metadata(path) {
            let (device, file) = os::identity(&meta, path)?;
            return Some(Self::File(device, file));
        }
        // A symlink to nothing yet names the file that writing through it
        // creates. See: issue 32 (`ln -s out.json j.journal` let `count
        // --checkpoint j.journal --output out.json` count everything, then
        // refuse the output).
        let path = dangling_target(path);
        let name = os::entry_name(path.file_name()?);
        let folder = folder_of(&path);
        let (device, file) = os::identity(&fs::metadata(folder).ok()?, folder)?;
        Some(Self::Entry(device, file, name))
    }

    /// The identity of the regular file standard input reads (`< file`),
    /// or `None` where it is a pipe, a terminal or closed: writing one of
    /// those destroys nothing that was read, and a pipe or a terminal
    /// has no name an output could spell.
    pub fn of_stdin() -> Option<Self> {
        let (device, file) = os::stdin_identity()?;
        Some(Self::File(device, file))
    }
}

/// Where a chain of symlinks that ends at nothing leads: the name that
/// opening `path` with `O_CREAT` would create. `path` itself where it is
/// not a symlink, or where the chain is longer than the kernel follows.
fn dangling_target(path: &Path) -> PathBuf {
    /// Linux's limit on the symlinks followed in one lookup (`ELOOP`).
    const MAX_HOPS: usize = 40;
    let mut at = path.to_owned();
    for _ in 0..MAX_HOPS {
        let is_link = fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink());
        let Some(target) = is_link.then(|| fs::read_link(&at).ok()).flatten() else {
            return at;
        };
        at = folder_of(&at).join(target);
    }
    path.to_owned()
}

/// The folder that holds `path` (`.` for a bare name).
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// What a command reads, which none of its outputs may be, named for the
/// refusal an output that would overwrite it gets.
pub enum Input<'a> {
    /// A file named on the command line.
    File {
        /// What the command calls it: "the journal", "a shard result".
        role: &'static str,
        path: &'a Path,
    },
    /// Standard input (`-`, or no file named), where it is a regular
    /// file.
    Stdin,
}

/// An [`Input`] as an [`Output`] keeps it, to look at again when it
/// writes.
#[derive(Debug)]
enum Source {
    File(&'static str, PathBuf),
    Stdin,
}

/// A file a command will write at its end (`--output`, `--units-csv`,
/// `--svg`), checked when the command starts and again when it writes.
#[derive(Debug)]
pub struct Output {
    path: PathBuf,
    /// The option that named it, for messages.
    flag: &'static str,
    /// What the command reads, which the output must not be.
    inputs: Vec<Source>,
}

/// How an output is written, decided from what is at its path.
enum Target {
    /// Nothing there yet: a new file, atomically.
    New,
    /// A regular file: replaced atomically, keeping its mode and owner.
    Regular(Metadata),
    /// A character device or a FIFO: written in place, as `>` would.
    Stream,
}

impl Output {
    /// Checks `path` as an output named by `flag` that must not be any of
    /// `inputs`; the one-line refusal as a [`UsageError`] (exit 2).
    pub fn new(path: &Path, flag: &'static str, inputs: &[Input<'_>]) -> anyhow::Result<Self> {
        let output = Self {
            path: path.to_owned(),
            flag,
            inputs: (inputs.iter())
                .map(|input| match input {
                    Input::File { role, path } => Source::File(role, path.to_path_buf()),
                    Input::Stdin => Source::Stdin,
                })
                .collect(),
        };
        output.target().map_err(UsageError)?;
        Ok(output)
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `bytes` to the output by the rules of this module, checking
    /// its target again first: the command may have run for days.
    pub fn write(&self, bytes: &[u8]) -> anyhow::Result<()> {
        let target = self.target().map_err(UsageError)?;
        let shown = self.path.display();
        let real = self.real_path();
        match target {
            Target::Stream => write_stream(&real, bytes),
            Target::New => replace(&real, bytes, None),
            Target::Regular(meta) => replace(&real, bytes, Some(&meta)),
        }
        .map_err(|e| anyhow::anyhow!("writing {} to {shown}: {e}", self.flag))
    }

    /// The file the path leads to: symlinks are followed, so that the
    /// rename replaces the target, not the link.
    fn real_path(&self) -> PathBuf {
        fs::canonicalize(&self.path).unwrap_or_else(|_| self.path.clone())
    }

    /// What is at the path and how it will be written, or why it will not.
    fn target(&self) -> Result<Target, String> {
        let shown = self.path.display();
        let flag = self.flag;
        let mine = Identity::of(&self.path);
        for input in &self.inputs {
            let (identity, what) = match input {
                Source::File(role, path) => (
                    Identity::of(path),
                    format!("{role} this command reads ({})", path.display()),
                ),
                Source::Stdin => (
                    Identity::of_stdin(),
                    "the file on standard input, which this command reads".to_owned(),
                ),
            };
            if mine.is_some() && identity == mine {
                return Err(format!(
                    "{flag} {shown} is {what}: writing it would destroy it; name another file"
                ));
            }
        }
        let link = fs::symlink_metadata(&self.path);
        let meta = match fs::metadata(&self.path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if link.is_ok() {
                    return Err(format!(
                        "{flag} {shown} is a symlink to nothing: refusing to follow it"
                    ));
                }
                return Ok(Target::New);
            }
            // Windows has no metadata for a device (`NUL`).
            Err(_) if os::is_stream(&self.path, None) => return Ok(Target::Stream),
            Err(e) => return Err(format!("{flag} {shown}: {e}")),
        };
        if os::is_stream(&self.path, Some(&meta)) {
            return Ok(Target::Stream);
        }
        if !meta.is_file() {
            return Err(format!(
                "{flag} {shown} is {}, not a file: it would not be written",
                kind_name(&meta)
            ));
        }
        if let Some(what) = queens_file(&self.path) {
            return Err(format!(
                "{flag} {shown} is a queens {what}: an output never replaces one; name another \
                 file"
            ));
        }
        // Whether `>` could write it: opening it for writing without
        // truncating changes nothing and asks the kernel exactly that.
        if let Err(e) = os::writer().open(&self.path) {
            return Err(format!(
                "{flag} {shown} cannot be written ({e}): it is left as it is"
            ));
        }
        Ok(Target::Regular(meta))
    }
}

/// Whether the regular file at `path` is one of the tool's own records,
/// by its first bytes: a journal or a shard result.
fn queens_file(path: &Path) -> Option<&'static str> {
    let mut head = [0u8; 32];
    let mut file = File::open(path).ok()?;
    let mut len = 0;
    while len < head.len() {
        match file.read(&mut head[len..]) {
            Ok(0) | Err(_) => break,
            Ok(k) => len += k,
        }
    }
    let head = &head[..len];
    if head.starts_with(b"QJ") && head.get(2).is_some_and(u8::is_ascii_digit) {
        Some("journal")
    } else if head.starts_with(br#"{"format":"queens-shard"#) {
        Some("shard result")
    } else {
        None
    }
}

/// Writes `bytes` to a character device or a FIFO as `>` would. The open
/// does not block: a FIFO that nobody reads is refused at once.
fn write_stream(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = os::open_stream(path)?;
    file.write_all(bytes)?;
    file.flush()
}

/// Replaces the regular file at `path` (whose metadata is `old`, or `None`
/// for a new one) with `bytes`: atomically through a unique temporary
/// file that takes the old mode and owner; in place, as `>` would, where
/// that cannot be done (the owner cannot be kept, or the folder is not
/// ours to write).
fn replace(path: &Path, bytes: &[u8], old: Option<&Metadata>) -> io::Result<()> {
    let folder = folder_of(path);
    let mut name = std::ffi::OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&name).suffix(".tmp");
    if old.is_none() {
        os::as_shell_creates(&mut builder);
    }
    let temporary = match builder.tempfile_in(folder) {
        Ok(temporary) => temporary,
        Err(e) if old.is_some() && e.kind() == io::ErrorKind::PermissionDenied => {
            return write_in_place(path, bytes);
        }
        Err(e) => return Err(e),
    };
    if let Some(old) = old
        && !os::keep_owner_and_mode(temporary.as_file(), old)?
    {
        drop(temporary);
        return write_in_place(path, bytes);
    }
    temporary.as_file().write_all(bytes)?;
    temporary.as_file().sync_all()?;
    temporary.persist(path).map_err(|e| e.error)?;
    sync_folder(path)
}

/// Truncates and writes the regular file at `path`, as `>` does.
fn write_in_place(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = os::writer().truncate(true).open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}
