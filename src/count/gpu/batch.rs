//! [`Gpu`]: an opened device and the options it runs with; counts one
//! batch of a mirror plan's units at a time, cut into tasks, one launch a
//! batch.

use super::device::Device;
use super::{MIN_GPU_N, Tasks, max_depth, task_depth};
use crate::Error;
use crate::count::mirror::WorkUnit;
use crate::count::options::GpuOptions;
use crate::cpu::Features;
use crate::kernel::MAX_N;

/// An NVIDIA GPU with the kernel compiled for it.
pub(crate) struct Gpu {
    device: Device,
    options: GpuOptions,
}

impl Gpu {
    /// The first GPU, with the kernel compiled as `options` say.
    ///
    /// # Errors
    /// [`Error::Gpu`] with one line: no driver, no NVRTC, no device, or a
    /// compile or load failure.
    pub fn open(options: GpuOptions) -> Result<Self, Error> {
        let device = Device::open(&options).map_err(Error::Gpu)?;
        Ok(Self { device, options })
    }

    /// The tasks of `units` of an `n`-board, cut on the current rayon pool:
    /// the CPU's share of a batch, done while the GPU counts the one before.
    pub fn cut(&self, n: u32, units: &[&WorkUnit]) -> Tasks {
        Tasks::build(n, task_depth(n, &self.options), units)
    }

    /// Counts `units` of an `n`-board, cut into `tasks` by [`cut`](Self::cut):
    /// one launch; each unit's contribution, weight included, in order.
    ///
    /// # Errors
    /// [`Error::Gpu`] with one line when `n` is out of the GPU's range or
    /// the GPU fails.
    pub fn count(
        &self,
        n: u32,
        tasks: &Tasks,
        units: &[&WorkUnit],
        features: Features,
    ) -> Result<Vec<u128>, Error> {
        if !(MIN_GPU_N..=MAX_N).contains(&n) || tasks.depth > max_depth(n) {
            return Err(Error::Gpu(format!(
                "the GPU counts {MIN_GPU_N} <= n <= {MAX_N}, cut at most n - 2 rows deep \
                 (asked: n = {n}, {} rows)",
                tasks.depth
            )));
        }
        let counts = self
            .device
            .count(n, tasks.depth, &tasks.masks)
            .map_err(Error::Gpu)?;
        Ok(units
            .iter()
            .enumerate()
            .map(|(i, unit)| tasks.unit_total(n, i, unit, &counts, features))
            .collect())
    }
}
