//! How much memory this machine has available for a plan or a count: the
//! smallest of the kernel's `MemAvailable`, the room left in this process's
//! cgroup (v2 `memory.max` less `memory.current`, v1 `memory.limit_in_bytes`
//! less `memory.usage_in_bytes`) and the room left under `ulimit -v`; or
//! what `QUEENS_MEMORY_LIMIT` says. What the machine has is less a
//! reserve for the process itself; the variable is taken as it is.
//!
//! The library compares its estimates with this figure and refuses, in one
//! line, what would not fit (`queens::Error::Memory`); it never reads the
//! machine itself. Where nothing can be read (not Linux), there is no limit.

use std::fs;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Context;
use queens::human::Bytes;

use super::UsageError;

/// The variable that replaces what the machine says: a number of bytes, or
/// `none` for no check at all. For tests, and for sharing a machine. Empty
/// (or only spaces) is unset, as for `RAYON_NUM_THREADS`.
pub const VAR: &str = "QUEENS_MEMORY_LIMIT";

/// The bytes a plan or a count may take here, `None` for no limit.
///
/// # Errors
/// A usage error (exit 2) when `QUEENS_MEMORY_LIMIT` is neither bytes nor `none`.
pub fn available() -> anyhow::Result<Option<u64>> {
    if let Some(limit) = limit_from(std::env::var_os(VAR)) {
        let limit = limit.context("reading the memory limit")?;
        remember(limit.map(|_| Bound::Variable));
        return Ok(limit);
    }
    let tightest = [
        mem_available().map(Bound::MemAvailable),
        cgroup_room().map(Bound::Cgroup),
        address_space_room().map(|(limit, mapped)| Bound::AddressSpace { limit, mapped }),
    ]
    .into_iter()
    .flatten()
    .min_by_key(Bound::room);
    remember(tightest);
    Ok(tightest.map(|bound| bound.room().saturating_sub(RESERVE)))
}

/// How long what the machine has available is taken as read by
/// [`available_recent`].
const MACHINE_READ_EVERY: Duration = Duration::from_secs(1);

/// What the machine had available, and when it was read.
static MACHINE: Mutex<Option<(Instant, Option<u64>)>> = Mutex::new(None);

/// [`available`], for a caller that asks at every small count (the Python
/// package): what the machine has is read at most once a second, since
/// its half-dozen files under `/proc` and `/sys` took 0.1 to 0.4 ms on a
/// busy machine, ten times a small count's call (`count(1)`: 0.16 to
/// 0.47 ms a call against 0.04 to 0.05 ms). [`VAR`], when set, is read
/// at every call, and costs nothing more.
///
/// # Errors
/// As [`available`].
pub fn available_recent() -> anyhow::Result<Option<u64>> {
    let set = std::env::var_os(VAR).is_some_and(|value| !value.to_string_lossy().trim().is_empty());
    if set {
        return available();
    }
    let mut machine = MACHINE.lock().unwrap_or_else(PoisonError::into_inner);
    match *machine {
        Some((at, limit)) if at.elapsed() < MACHINE_READ_EVERY => Ok(limit),
        _ => {
            let limit = available()?;
            *machine = Some((Instant::now(), limit));
            Ok(limit)
        }
    }
}

/// What set the figure [`available`] gave last: the CLI reads it back when
/// the library refuses a plan or a count, to say where "available" comes
/// from (see: issue 47, item 16: under `ulimit -v` it said "0 bytes
/// available", naming neither the limit nor the reserve).
static LAST: Mutex<Option<Bound>> = Mutex::new(None);

fn remember(bound: Option<Bound>) {
    *LAST.lock().unwrap_or_else(PoisonError::into_inner) = bound;
}

/// The library's refusal of a plan or count (`queens::Error::Memory`) as
/// the front ends show it: followed by where the last figure [`available`]
/// gave came from, when it gave one.
pub fn refusal(err: &queens::Error) -> String {
    match *LAST.lock().unwrap_or_else(PoisonError::into_inner) {
        Some(bound) => format!("{err} ({bound})"),
        None => err.to_string(),
    }
}

/// The note of a count whose join takes smaller chunks than its fastest,
/// or fewer units at once than it has threads, to fit in memory (`memory`
/// of `units` units, from [`queens::Runner::memory`]): how it counts, what
/// that takes, what one unit a thread in the fastest chunks would, and
/// the price.
pub fn reduced_chunks(plan: &queens::Plan, units: usize, memory: &queens::CountMemory) -> String {
    let fastest = Bytes(plan.count_memory(memory.threads, units));
    let (once, per_unit) = (Bytes(memory.once), Bytes(memory.per_thread));
    let plural = |k: usize, what: &str| match k {
        1 => format!("1 {what}"),
        k => format!("{k} {what}s"),
    };
    let threads = plural(memory.threads, "thread");
    let log = memory.chunk_log.unwrap_or_default();
    let price = if memory.chunks_reduced() {
        "its biggest units slower"
    } else {
        "its threads idle a little while a unit's half-boards are made"
    };
    if memory.shared() {
        format!(
            "n = {n} on {threads} counts {units} at a time, each by all the threads, in chunks \
             of 2^{log} words to fit in memory ({once} once, {per_unit} a unit and {helper} a \
             thread; one unit a thread in its fastest chunks needs {fastest} in all): the same \
             count, {price}",
            n = plan.n(),
            units = plural(memory.at_once, "unit"),
            helper = Bytes(memory.per_helper),
        )
    } else {
        format!(
            "n = {n} on {threads} counts in chunks of 2^{log} words to fit in memory ({once} once \
             and {per_unit} a thread; its fastest chunks need {fastest} in all): the same count, \
             {price}",
            n = plan.n(),
        )
    }
}

/// The tightest of the limits [`available`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    /// [`VAR`] set to a number of bytes.
    Variable,
    /// The kernel's `MemAvailable`, in bytes.
    MemAvailable(u64),
    /// The room left in this process's memory cgroup, in bytes.
    Cgroup(u64),
    /// `ulimit -v` (`RLIMIT_AS`) and the address space this process has
    /// mapped already (its code, its threads' stacks, the allocator's
    /// reservations), in bytes.
    AddressSpace { limit: u64, mapped: u64 },
}

impl Bound {
    /// The bytes left under this limit, before [`RESERVE`].
    fn room(&self) -> u64 {
        match *self {
            Bound::Variable => 0,
            Bound::MemAvailable(room) | Bound::Cgroup(room) => room,
            Bound::AddressSpace { limit, mapped } => limit.saturating_sub(mapped),
        }
    }
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let reserve = Bytes(RESERVE);
        match *self {
            Bound::Variable => write!(f, "as {VAR} says ('none' turns the check off)"),
            Bound::MemAvailable(room) => write!(
                f,
                "the kernel's MemAvailable, {}, less {reserve} kept for the process itself",
                Bytes(room)
            ),
            Bound::Cgroup(room) => write!(
                f,
                "the room left in this process's memory cgroup, {}, less {reserve} kept for \
                 the process itself",
                Bytes(room)
            ),
            Bound::AddressSpace { limit, mapped } => write!(
                f,
                "ulimit -v (RLIMIT_AS) allows {} of address space, this process has mapped {} \
                 of it, and {reserve} is kept for the process itself: raise ulimit -v, or set \
                 {VAR} to a number of bytes",
                Bytes(limit),
                Bytes(mapped)
            ),
        }
    }
}

/// What [`VAR`] says, `None` when it is unset, empty or only spaces: then
/// the machine is asked.
fn limit_from(value: Option<std::ffi::OsString>) -> Option<Result<Option<u64>, UsageError>> {
    let value = value?;
    let text = value.to_string_lossy();
    let text = text.trim();
    Some(match text {
        "" => return None,
        "none" => Ok(None),
        _ => text.parse::<u64>().map(Some).map_err(|_| {
            UsageError(format!(
                "{VAR} must be a number of bytes or 'none', not '{text}'"
            ))
        }),
    })
}

/// What the process takes besides the library's estimate: its code, its
/// threads' stacks, the allocator's slack. `count 16` peaks at 35 MB of
/// resident memory for an estimate of 4 MiB, `count 18` at 90 MB for
/// 22 MiB; `count 20` at 233 MiB for 153 MiB.
const RESERVE: u64 = 64 << 20;

/// `MemAvailable` of `/proc/meminfo`, in bytes.
fn mem_available() -> Option<u64> {
    let meminfo = fs::read_to_string("/proc/meminfo").ok()?;
    field(&meminfo, "MemAvailable:").map(|kib| kib * 1024)
}

/// The room left in this process's memory cgroup: its limit less what it
/// uses, for cgroup v2 or v1; `None` without a limit.
fn cgroup_room() -> Option<u64> {
    let groups = fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let (root, limit, usage) = match controllers {
            "" => ("/sys/fs/cgroup", "memory.max", "memory.current"),
            c if c.split(',').any(|c| c == "memory") => (
                "/sys/fs/cgroup/memory",
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            ),
            _ => continue,
        };
        // Inside a container the group's own directory is often the root
        // of the mount.
        for dir in [format!("{root}{path}"), root.to_owned()] {
            let Some(limit) = number(&format!("{dir}/{limit}")) else {
                continue;
            };
            let used = number(&format!("{dir}/{usage}")).unwrap_or(0);
            // v1 writes "no limit" as a page-rounded i64::MAX.
            if limit < 1 << 60 {
                return Some(limit.saturating_sub(used));
            }
            break;
        }
    }
    None
}

/// `ulimit -v` (`RLIMIT_AS`) and this process's address space now, in
/// bytes; `None` when unlimited.
fn address_space_room() -> Option<(u64, u64)> {
    let limits = fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let limit: u64 = line
        .trim_start_matches("Max address space")
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let size = field(&status, "VmSize:").map_or(0, |kib| kib * 1024);
    Some((limit, size))
}

/// The number after `name` on its line of a `/proc` table (kB).
fn field(table: &str, name: &str) -> Option<u64> {
    table
        .lines()
        .find_map(|l| l.strip_prefix(name))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// A file holding one number (`max` is none).
fn number(path: &str) -> Option<u64> {
    fs::read_to_string(path).ok()?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_fields_are_read_in_bytes_of_kib() {
        let meminfo = "MemTotal:       24000000 kB\nMemAvailable:   18421576 kB\n";
        assert_eq!(field(meminfo, "MemAvailable:"), Some(18_421_576));
        assert_eq!(field(meminfo, "SwapTotal:"), None);
    }

    #[test]
    fn an_empty_limit_is_unset_and_a_bad_one_is_named() {
        // See: issue 32 (empty was an error, spaces were reported as '').
        let var = |v: &str| Some(std::ffi::OsString::from(v));
        for unset in [None, var(""), var(" "), var("\t \n")] {
            assert!(limit_from(unset.clone()).is_none(), "{unset:?}");
        }
        assert_eq!(limit_from(var(" none ")).unwrap().unwrap(), None);
        assert_eq!(limit_from(var("1000")).unwrap().unwrap(), Some(1000));
        let bad = limit_from(var(" 12 GB ")).unwrap().unwrap_err().0;
        assert_eq!(
            bad,
            "QUEENS_MEMORY_LIMIT must be a number of bytes or 'none', not '12 GB'"
        );
    }

    #[test]
    fn a_refusal_names_the_limit_and_the_reserve() {
        // See: issue 47, item 16.
        let ulimit = Bound::AddressSpace {
            limit: 200 << 20,
            mapped: 180 << 20,
        };
        assert_eq!(ulimit.room(), 20 << 20);
        assert_eq!(
            ulimit.to_string(),
            "ulimit -v (RLIMIT_AS) allows 200 MiB of address space, this process has mapped \
             180 MiB of it, and 64 MiB is kept for the process itself: raise ulimit -v, or set \
             QUEENS_MEMORY_LIMIT to a number of bytes"
        );
        let kernel = Bound::MemAvailable(3 << 30).to_string();
        assert!(
            kernel.contains("MemAvailable, 3.0 GiB, less 64 MiB"),
            "{kernel}"
        );
    }

    #[test]
    fn this_machine_has_some_memory() {
        if cfg!(target_os = "linux") && std::env::var_os(VAR).is_none() {
            assert!(available().unwrap().is_some_and(|b| b > 0));
        }
    }
}
