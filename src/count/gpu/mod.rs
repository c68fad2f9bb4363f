//! The GPU executor: runs the backtracking engines' plans (the
//! constellations engine's and the mirror engine's) on an NVIDIA GPU. It
//! is not an engine of its own: it counts the units of the plan, so a GPU
//! run and a CPU run of the same plan share its hash, its journal and its
//! shards, and a unit counted on either gives the same number.
//!
//! A unit is far too big for one GPU thread, so it is cut further: every
//! placement of the first [`task_depth`](cut::task_depth) rows that extends the unit is a
//! *task*, the three `u32` masks of the attacks on its next row. A
//! constellations unit (a [`Start`](super::constellations::Start): queens
//! fixed on the four border lines) also restricts each row to the columns
//! its fixed queens leave (a side queen's row to that queen's column), so
//! its tasks carry a fourth word, the index of the start's table of allowed
//! columns in the batch, and the batch uploads one table of `n` words per
//! start. A batch of units becomes
//! one array of tasks, counted by one kernel launch with one 64-bit count
//! per task; the host adds them per unit in `u128` and multiplies by the
//! unit's weight. The runner (`count/run.rs`) hands the batches over, from
//! the same loop that runs units on the CPU.
//!
//! The per-task search (`reference::count_task_allowed`) is an iterative depth-first
//! walk over a stack of frames (a row's three masks and its columns still
//! open), one child a step, the queen of the last row counted with a
//! popcount rather than placed. A row's open squares are those no queen
//! above attacks, among those it allows: every column for the mirror
//! engine's units. On the GPU the stack sits in shared memory, laid out so
//! that a warp's frames are contiguous (no bank conflicts), and every
//! thread takes its next task from an atomic counter as soon as it
//! finishes one. It covers what the CPU kernel covers, 4 <= n <= 32.
//!
//! This file holds what the rest of the crate asks of the GPU: whether it
//! can run a plan, and whether there is one. The cut of units into tasks
//! is [`cut`]'s; the CPU copy of the kernel's search that tests pin it
//! with, [`reference`](mod@reference)'s; the launches, `batch` and `device` (the `gpu`
//! feature), or without it a GPU that never opens, `stub`.

// Without the `gpu` feature the cut and the per-task search are still
// built: the tests pin them against the CPU kernel.
#![cfg_attr(not(any(feature = "cuda", feature = "wgpu")), allow(dead_code))]

mod cut;
mod reference;
#[cfg(not(any(feature = "cuda", feature = "wgpu")))]
mod stub;

#[cfg(any(feature = "cuda", feature = "wgpu"))]
mod batch;
#[cfg(feature = "cuda")]
mod cuda;
#[cfg(feature = "wgpu")]
mod portable;

use std::ops::RangeInclusive;

use super::Engine;
use super::plan::Plan;
use crate::Error;
use crate::count::options::GpuBackend;

#[cfg(any(feature = "cuda", feature = "wgpu"))]
pub(crate) use self::batch::Gpu;
pub(crate) use self::cut::roots;
pub use self::reference::{KernelTasks, count_with_kernel};
#[cfg(not(any(feature = "cuda", feature = "wgpu")))]
pub(crate) use self::stub::Gpu;
#[cfg(not(any(feature = "cuda", feature = "wgpu")))]
use self::stub::not_built;

/// The smallest board the GPU counts: smaller ones leave too few rows to
/// cut into tasks. (The largest is
/// [`MAX_N`](crate::kernel::MAX_N), the kernel's.)
pub(crate) const MIN_GPU_N: u32 = 4;

/// The board sizes the GPU counts (see [`crate::Executor::range`]).
pub(crate) const RANGE: RangeInclusive<u32> = MIN_GPU_N..=crate::kernel::MAX_N;

/// Whether the GPU runs `engine`'s plans: the backtracking ones (see
/// [`crate::Executor::runs`]).
pub(crate) fn runs(engine: Engine) -> bool {
    matches!(engine, Engine::Constellations | Engine::Mirror)
}

/// `Ok` when the GPU can run `plan`: a backtracking plan (the
/// constellations or the mirror engine's) of a board it can cut.
///
/// # Errors
/// [`Error::Gpu`] with one line saying why not, naming what it takes.
pub(crate) fn refuse(plan: &Plan) -> Result<(), Error> {
    if !runs(plan.engine()) {
        return Err(Error::gpu(format!(
            "{} does not backtrack: the GPU runs the constellations and mirror engines' \
             plans only",
            plan.engine().described()
        )));
    }
    let n = plan.n();
    if !RANGE.contains(&n) {
        let why = if n < MIN_GPU_N {
            "leaves too few rows to cut"
        } else {
            "is past the kernel's"
        };
        return Err(Error::gpu(format!(
            "the GPU counts {} <= n <= {}: n = {n} {why}",
            RANGE.start(),
            RANGE.end()
        )));
    }
    Ok(())
}

/// The threads a block (CUDA) or invocations a workgroup (the portable
/// executor) that `options` ask for, else `default`.
///
/// # Errors
/// [`Error::Gpu`] for a size that is not a multiple of 32 from 32 to 1024.
#[cfg(any(feature = "cuda", feature = "wgpu"))]
fn block_size(options: &crate::count::options::GpuOptions, default: u32) -> Result<u32, Error> {
    match options.block {
        None => Ok(default),
        Some(b) if crate::count::options::GpuOptions::block_fits(b) => Ok(b),
        Some(b) => Err(Error::gpu(format!(
            "a GPU block of {b} threads: expected a multiple of 32 from 32 to 1024"
        ))),
    }
}

/// Whether this build has a GPU executor (the `cuda` or `wgpu` feature;
/// `gpu` is both), whatever the machine: [`find_gpu`] says whether it has
/// a GPU for it.
pub const GPU_EXECUTOR: bool = cfg!(any(feature = "cuda", feature = "wgpu"));

/// The GPU executors this build has: `CUDA`, `portable`, both or none.
pub const GPU_EXECUTORS: &[&str] = &[
    #[cfg(feature = "cuda")]
    "CUDA",
    #[cfg(feature = "wgpu")]
    "portable (wgpu: Vulkan, Metal, DirectX 12)",
];

/// Whether this build has the GPU executor `backend` asks for and this
/// machine a GPU for it: the GPU's name and the executor, such as
/// `NVIDIA H100 80GB HBM3 (CUDA)` or `llvmpipe (LLVM 15.0.6, 256 bits)
/// through Vulkan, a GPU API run on the CPU (portable executor)`. Cheap: it
/// compiles nothing.
///
/// # Errors
/// [`Error::Gpu`] with one line: a build without that executor, no
/// driver, no NVRTC or no device.
pub fn find_gpu(backend: GpuBackend) -> Result<String, Error> {
    #[cfg(any(feature = "cuda", feature = "wgpu"))]
    return batch::find(backend);
    #[cfg(not(any(feature = "cuda", feature = "wgpu")))]
    {
        let _ = backend;
        Err(not_built())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;
    use crate::count::{Config, Engine};

    fn plan(n: u32, engine: Engine) -> Plan {
        Plan::new(Shape::new(n, engine, None), &Config::default()).unwrap()
    }

    /// The join's plans do not backtrack: the GPU refuses them in one
    /// line.
    #[test]
    fn the_join_is_refused() {
        let err = refuse(&plan(12, Engine::Join)).unwrap_err();
        assert!(
            err.to_string().contains("constellations and mirror"),
            "{err}"
        );
    }

    /// A board too small to cut is refused in one line that names the
    /// sizes the GPU takes; the executor's public answer agrees.
    #[test]
    fn a_small_board_is_refused_with_the_range() {
        let err = refuse(&plan(3, Engine::Mirror)).unwrap_err().to_string();
        assert_eq!(
            err,
            "the GPU counts 4 <= n <= 32: n = 3 leaves too few rows to cut"
        );
        assert!(refuse(&plan(4, Engine::Mirror)).is_ok());
        assert!(refuse(&plan(12, Engine::Constellations)).is_ok());
        let gpu = crate::Executor::Gpu;
        assert_eq!(gpu.range(), 4..=32);
        assert!(gpu.runs(Engine::Mirror) && !gpu.runs(Engine::Join));
        assert_eq!(gpu.engine_for(12), Engine::Constellations);
        assert_eq!(crate::Executor::Cpu.engine_for(12), Engine::best_for(12));
    }
}
