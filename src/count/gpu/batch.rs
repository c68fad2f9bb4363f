//! [`Gpu`]: an opened device, CUDA's or the portable one, and the options
//! it runs with; counts one batch of a backtracking plan's units at a
//! time, cut into tasks, one launch a batch.

use super::MIN_GPU_N;
use super::cut::{Root, Tasks, max_depth, restricted, task_depth};
use crate::Error;
use crate::count::options::{GpuBackend, GpuOptions};
use crate::cpu::Features;
use crate::kernel::MAX_N;

/// The device a [`Gpu`] counts on.
enum Device {
    #[cfg(feature = "cuda")]
    Cuda(super::cuda::Device),
    #[cfg(feature = "wgpu")]
    Portable(Box<super::portable::Device>),
}

/// A GPU with the kernels compiled for it.
pub(crate) struct Gpu {
    device: Device,
    options: GpuOptions,
}

/// What the automatic choice says when neither executor finds a GPU: both
/// reasons, CUDA's first.
#[cfg(all(feature = "cuda", feature = "wgpu"))]
fn neither(cuda: &Error, portable: &Error) -> Error {
    Error::gpu(format!("no GPU: CUDA: {cuda}; portable: {portable}"))
}

/// The refusal of a backend this build lacks.
#[allow(dead_code)]
fn not_built(backend: &str, feature: &str) -> Error {
    Error::gpu(format!(
        "this queens was built without the {backend} GPU executor: rebuild with `cargo build \
         --release --features {feature}`"
    ))
}

impl Gpu {
    /// The GPU `options.backend` picks, with the kernels compiled for it.
    ///
    /// # Errors
    /// [`Error::Gpu`] with one line: a backend not built in, no driver, no
    /// device, or a compile or load failure.
    pub fn open(options: GpuOptions) -> Result<Self, Error> {
        let device = open(&options)?;
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
        let counts = match &self.device {
            #[cfg(feature = "cuda")]
            Device::Cuda(device) => device.count(n, tasks)?,
            #[cfg(feature = "wgpu")]
            Device::Portable(device) => device.count(n, tasks)?,
        };
        Ok(tasks.totals(n, roots, &counts, features))
    }
}

/// Opens the device `options.backend` picks.
fn open(options: &GpuOptions) -> Result<Device, Error> {
    let backend = options.backend;
    #[cfg(feature = "wgpu")]
    let portable = || super::portable::Device::open(options).map(|d| Device::Portable(Box::new(d)));
    #[cfg(not(feature = "wgpu"))]
    let portable = || Err(not_built("portable", "wgpu"));
    #[cfg(feature = "cuda")]
    let cuda = || super::cuda::Device::open(options).map(Device::Cuda);
    #[cfg(not(feature = "cuda"))]
    let cuda = || Err(not_built("CUDA", "cuda"));
    match backend {
        GpuBackend::Cuda => cuda(),
        GpuBackend::Auto => auto(cuda, portable),
        _ => portable(),
    }
}

/// The automatic choice between two openings (CUDA's, the portable
/// executor's): the first that opens; where both fail, both reasons.
fn auto<T>(
    cuda: impl FnOnce() -> Result<T, Error>,
    portable: impl FnOnce() -> Result<T, Error>,
) -> Result<T, Error> {
    #[cfg(all(feature = "cuda", feature = "wgpu"))]
    return cuda().or_else(|c| portable().map_err(|p| neither(&c, &p)));
    #[cfg(all(feature = "cuda", not(feature = "wgpu")))]
    return {
        let _ = portable;
        cuda()
    };
    #[cfg(not(feature = "cuda"))]
    {
        let _ = cuda;
        portable()
    }
}

/// The name of the GPU `backend` picks and the executor that would count
/// on it, without compiling anything.
///
/// # Errors
/// As [`Gpu::open`].
pub(crate) fn find(backend: GpuBackend) -> Result<String, Error> {
    #[cfg(feature = "wgpu")]
    let portable =
        || super::portable::Device::find(backend).map(|name| format!("{name} (portable executor)"));
    #[cfg(not(feature = "wgpu"))]
    let portable = || Err(not_built("portable", "wgpu"));
    #[cfg(feature = "cuda")]
    let cuda = || super::cuda::Device::find().map(|name| format!("{name} (CUDA)"));
    #[cfg(not(feature = "cuda"))]
    let cuda = || Err(not_built("CUDA", "cuda"));
    match backend {
        GpuBackend::Cuda => cuda(),
        GpuBackend::Auto => auto(cuda, portable),
        _ => portable(),
    }
}

/// The portable executor on whatever adapter answers: lavapipe (Vulkan on
/// the CPU) in CI, which must have it.
#[cfg(all(test, feature = "wgpu"))]
mod portable_tests {
    use super::*;
    use crate::count::plan::Plan;
    use crate::count::{Config, Engine};
    use crate::{Shape, known};

    /// The portable GPU, or `None` (the test passes, saying so) on a
    /// machine without one; in CI (`CI` set) a missing adapter fails.
    fn portable() -> Option<Gpu> {
        let options = GpuOptions {
            backend: GpuBackend::Portable,
            ..GpuOptions::default()
        };
        match (Gpu::open(options), std::env::var_os("CI")) {
            (Ok(gpu), _) => {
                eprintln!("adapter: {}", find(GpuBackend::Portable).unwrap());
                Some(gpu)
            }
            (Err(e), None) => {
                eprintln!("no portable GPU here, nothing checked: {e}");
                None
            }
            (Err(e), Some(_)) => panic!(
                "CI runs the portable executor on lavapipe (Debian's mesa-vulkan-drivers): {e}"
            ),
        }
    }

    fn plan(n: u32, engine: Engine) -> Plan {
        Plan::new(Shape::new(n, engine, None), &Config::default()).unwrap()
    }

    /// Every unit of `plan` counted on `gpu`, in one launch, cut `depth`
    /// rows deep.
    fn on_gpu(gpu: &Gpu, plan: &Plan, depth: u32) -> Vec<u128> {
        let ids: Vec<u32> = (0..plan.len() as u32).collect();
        let roots = super::super::roots(plan, &ids);
        let tasks = Tasks::build(plan.n(), depth.clamp(1, max_depth(plan.n())), &roots);
        gpu.count(plan.n(), &tasks, &roots, plan.features())
            .unwrap()
    }

    #[test]
    fn the_portable_kernel_counts_a000170_on_both_plans() {
        let Some(gpu) = portable() else { return };
        for n in 4..=14 {
            for engine in [Engine::Constellations, Engine::Mirror] {
                let plan = plan(n, engine);
                let depth = task_depth(n, &GpuOptions::default(), engine == Engine::Constellations);
                let total: u128 = on_gpu(&gpu, &plan, depth).iter().sum();
                assert_eq!(Some(total), known::total(n), "n = {n}, {engine:?}");
            }
        }
    }

    /// Every unit of n = 12, on both plans and cut at one row, the
    /// default and the deepest cut, counts on the GPU what it counts on the
    /// CPU.
    #[test]
    fn every_unit_of_n_12_counts_as_on_the_cpu() {
        let Some(gpu) = portable() else { return };
        for engine in [Engine::Constellations, Engine::Mirror] {
            let plan = plan(12, engine);
            let mut scratch = crate::count::plan::Scratch::default();
            let cpu: Vec<u128> = (0..plan.len() as u32)
                .map(|id| plan.count_unit_unchecked(id, &mut scratch))
                .collect();
            assert_eq!(Some(cpu.iter().sum()), known::total(12));
            for depth in [1, task_depth(12, &GpuOptions::default(), true), 10] {
                assert_eq!(on_gpu(&gpu, &plan, depth), cpu, "{engine:?}, depth {depth}");
            }
        }
    }

    /// A launch larger than one chunk of tasks, a board whose counts
    /// overflow a task's low word nowhere but whose stacks run deep: n = 16
    /// cut one row deep, 14 frames a stack.
    #[test]
    fn a_deep_stack_counts_n_16() {
        let Some(gpu) = portable() else { return };
        let plan = plan(16, Engine::Constellations);
        let total: u128 = on_gpu(&gpu, &plan, 1).iter().sum();
        assert_eq!(Some(total), known::total(16));
    }
}
