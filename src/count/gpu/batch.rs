//! [`Gpu`]: an opened device and the options it runs with; counts one
//! batch of a backtracking plan's units at a time, cut into tasks, one
//! launch a batch.

use super::MIN_GPU_N;
use super::cut::{Root, Tasks, max_depth, restricted, task_depth};
use super::device::Device;
use crate::Error;
use crate::count::options::GpuOptions;
use crate::cpu::Features;
use crate::kernel::MAX_N;

/// An NVIDIA GPU with the kernels compiled for it.
pub(crate) struct Gpu {
    device: Device,
    options: GpuOptions,
}

impl Gpu {
    /// The first GPU, with the kernels compiled as `options` say.
    ///
    /// # Errors
    /// [`Error::Gpu`] with one line: no driver, no NVRTC, no device, or a
    /// compile or load failure.
    pub fn open(options: GpuOptions) -> Result<Self, Error> {
        let device = Device::open(&options)?;
        Ok(Self { device, options })
    }

    /// The tasks of `roots` of an `n`-board, cut on the current rayon pool:
    /// the CPU's share of a batch, done while the GPU counts the one before.
    pub fn cut(&self, n: u32, roots: &[Root]) -> Tasks {
        Tasks::build(n, task_depth(n, &self.options, restricted(roots)), roots)
    }

    /// Counts `roots` of an `n`-board, cut into `tasks` by [`cut`](Self::cut):
    /// one launch; each unit's contribution, weight included, in order.
    ///
    /// # Errors
    /// [`Error::Gpu`] with one line when `n` is out of the GPU's range or
    /// the GPU fails.
    pub fn count(
        &self,
        n: u32,
        tasks: &Tasks,
        roots: &[Root],
        features: Features,
    ) -> Result<Vec<u128>, Error> {
        if !(MIN_GPU_N..=MAX_N).contains(&n) || tasks.depth > max_depth(n) {
            return Err(Error::gpu(format!(
                "the GPU counts {MIN_GPU_N} <= n <= {MAX_N}, cut at most n - 2 rows deep \
                 (asked: n = {n}, {} rows)",
                tasks.depth
            )));
        }
        let counts = self.device.count(n, tasks)?;
        Ok(tasks.totals(n, roots, &counts, features))
    }
}
