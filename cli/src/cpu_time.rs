//! The process's CPU time, which `bench` and `estimate` set against the
//! wall time their threads asked for to see a busy machine (issue 47,
//! item 14). The library reads no clock of the system's: this is the
//! binary's.

/// The CPU seconds this process has used so far, all its threads.
#[cfg(unix)]
pub fn process_secs() -> Option<f64> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

/// The CPU seconds this process has used so far: not read here.
#[cfg(not(unix))]
pub fn process_secs() -> Option<f64> {
    None
}
