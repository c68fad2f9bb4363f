//! The GPU itself, through `cudarc`: finds the driver and NVRTC at run
//! time (nothing of CUDA is needed to build), compiles `kernel.cu` for the
//! device's architecture, and counts arrays of tasks (see [`Tasks`]).
//!
//! Every failure is a [`crate::Error::Gpu`]: one line, and the driver's or
//! NVRTC's error as its source where there is one; the libraries are looked for before the first call into them, because
//! `cudarc` panics when a call finds none.

use std::sync::Arc;

use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::{CudaContext, CudaFunction, CudaStream, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::{CompileOptions, Ptx, compile_ptx_with_opts};

use super::cut::{Tasks, max_depth};
use crate::Error;
use crate::count::options::GpuOptions;
use crate::kernel::full_mask;

/// The kernel's CUDA C source.
const SOURCE: &str = include_str!("kernel.cu");

/// Threads per block: on an H100 at n = 20, 64 and 256 were 1-4% slower
/// (results/).
const BLOCK: u32 = 128;

/// Compiles the kernels with NVRTC for compute capability `major.minor`,
/// the stack's stride fixed to `stride` threads (else read at run time).
/// Needs NVRTC, not a GPU.
///
/// # Errors
/// The compiler's.
fn compile((major, minor): (i32, i32), stride: Option<u32>) -> Result<Ptx, Error> {
    let mut flags = vec![format!("--gpu-architecture=compute_{major}{minor}")];
    flags.extend(stride.map(|block| format!("-DQUEENS_BLOCK={block}")));
    let options = CompileOptions {
        options: flags,
        ..CompileOptions::default()
    };
    compile_ptx_with_opts(SOURCE, options)
        .map_err(|e| Error::gpu_failed("compiling the GPU kernel with NVRTC", e))
}

/// One GPU, its stream and the compiled kernels.
pub(crate) struct Device {
    stream: Arc<CudaStream>,
    /// `count_tasks`: rows that allow every column (the mirror engine's).
    every: CudaFunction,
    /// `count_tasks_allowed`: rows restricted by a table (the
    /// constellations engine's).
    allowed: CudaFunction,
    /// Blocks a launch starts: enough to fill every multiprocessor.
    blocks: u32,
    block: u32,
}

impl Device {
    /// The name of the first GPU, if the driver, NVRTC and a device are
    /// there.
    ///
    /// # Errors
    /// A one-line reason: no driver, no NVRTC or no device.
    pub fn find() -> Result<String, Error> {
        Ok(Self::context()?
            .name()
            .unwrap_or_else(|_| "an NVIDIA GPU".into()))
    }

    /// The first GPU's context, after checking that the libraries exist.
    fn context() -> Result<Arc<CudaContext>, Error> {
        // SAFETY: only tries to open the driver library by its names; no
        // symbol of it is called.
        #[allow(unsafe_code)]
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err(Error::gpu(
                "no NVIDIA driver found (libcuda.so.1 is not on this machine): --gpu needs an \
                 NVIDIA GPU and its driver",
            ));
        }
        // SAFETY: as above, for the NVRTC library.
        #[allow(unsafe_code)]
        if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
            return Err(Error::gpu(
                "NVRTC (libnvrtc.so, part of the CUDA toolkit) was not found: --gpu compiles its \
                 kernel with it at run time; add its directory to LD_LIBRARY_PATH",
            ));
        }
        CudaContext::new(0).map_err(|e| Error::gpu_failed("no usable GPU", e))
    }

    /// The first GPU, with the kernels compiled for it as `options` say.
    ///
    /// # Errors
    /// A one-line reason: no driver, no NVRTC, no device, or a compile or
    /// load failure.
    pub fn open(options: &GpuOptions) -> Result<Self, Error> {
        let ctx = Self::context()?;
        let attribute = |a| {
            ctx.attribute(a)
                .map_err(|e| Error::gpu_failed("reading the GPU", e))
        };
        let major = attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
        let minor = attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
        let sms = attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
        let threads_per_sm =
            attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)?;

        let block = super::block_size(options, BLOCK)?;
        let stride = (!options.dynamic_stride).then_some(block);
        let ptx = compile((major, minor), stride)?;
        let module = ctx
            .load_module(ptx)
            .map_err(|e| Error::gpu_failed("loading the GPU kernel", e))?;
        let load = |name| {
            module
                .load_function(name)
                .map_err(|e| Error::gpu_failed(format!("loading the GPU kernel {name}"), e))
        };
        let (every, allowed) = (load("count_tasks")?, load("count_tasks_allowed")?);
        let blocks = (sms.max(1) as u32) * (threads_per_sm.max(32) as u32 / block).max(1);
        Ok(Self {
            stream: ctx.default_stream(),
            every,
            allowed,
            blocks,
            block,
        })
    }

    /// Counts every task of `tasks` of an `n`-board: one count per task,
    /// by `count_tasks_allowed` where the tasks restrict their rows, else
    /// by `count_tasks`.
    ///
    /// # Errors
    /// A one-line reason when the tasks are cut deeper than `n - 2` rows
    /// (the launch's shared memory is sized on it), or the GPU fails (out
    /// of memory, a launch or copy failure).
    pub fn count(&self, n: u32, tasks: &Tasks) -> Result<Vec<u64>, Error> {
        let failed = |e: cudarc::driver::DriverError| Error::gpu_failed("the GPU failed", e);
        let len = tasks.len();
        if len == 0 {
            return Ok(Vec::new());
        }
        let task_count =
            u32::try_from(len).map_err(|_| Error::gpu("too many tasks in one launch"))?;
        let depth = tasks.depth;
        // The kernels keep at most `n - 1 - depth` frames a thread, and the
        // launch reserves exactly that: checked here, not assumed, so that
        // no caller can make them write past their shared memory.
        if !(super::MIN_GPU_N..=crate::kernel::MAX_N).contains(&n) || depth > max_depth(n) {
            return Err(Error::gpu(format!(
                "cannot cut an {n}-board {depth} rows deep for the GPU (at most n - 2)"
            )));
        }
        // Frames on a thread's stack: one for each row from the task's to
        // row n - 2, 16 bytes each.
        let frame_bytes = 16 * (n - 1 - depth);
        // The queens of a frame whose children lie on the last row.
        let target = (n - 2) as i32;
        let stream = &self.stream;
        let words = stream.clone_htod(&tasks.words).map_err(failed)?;
        let mut counts = stream.alloc_zeros::<u64>(len).map_err(failed)?;
        let mut next = stream.alloc_zeros::<u32>(1).map_err(failed)?;
        let config = LaunchConfig {
            grid_dim: (self.blocks, 1, 1),
            block_dim: (self.block, 1, 1),
            shared_mem_bytes: self.block * frame_bytes,
        };
        let full = full_mask(n);
        let tables;
        let mut launch;
        if tasks.restricted {
            tables = stream.clone_htod(&tasks.tables).map_err(failed)?;
            launch = stream.launch_builder(&self.allowed);
            launch
                .arg(&words)
                .arg(&tables)
                .arg(&mut counts)
                .arg(&task_count)
                .arg(&mut next)
                .arg(&n)
                .arg(&target);
        } else {
            launch = stream.launch_builder(&self.every);
            launch
                .arg(&words)
                .arg(&mut counts)
                .arg(&task_count)
                .arg(&mut next)
                .arg(&full)
                .arg(&target);
        }
        // SAFETY: the arguments match the chosen kernel's parameters in
        // number, order and type (`count_tasks`: pointer to the task words,
        // pointer to `len` counts, u32, pointer to one u32, u32, i32;
        // `count_tasks_allowed`: pointer to the task words, four a task,
        // pointer to the tables, `n` words each, pointer to `len` counts,
        // u32, pointer to one u32, u32, i32; its task words start 256-byte
        // aligned, as the driver allocates, so its 16-byte loads of a task
        // are aligned); the kernels read tasks below
        // `task_count` only, and the tables of the indices `Tasks::build`
        // wrote, and write each count once; a stack of at most
        // `n - 1 - depth` frames a thread fits the shared memory reserved
        // above (`depth <= n - 2` was checked).
        #[allow(unsafe_code)]
        unsafe { launch.launch(config) }.map_err(failed)?;
        stream.clone_dtoh(&counts).map_err(failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where NVRTC is found (no GPU needed), the kernels compile, both with
    /// the stride fixed and read at run time; elsewhere (CI) the test has
    /// nothing to check.
    #[test]
    fn the_kernels_compile_where_nvrtc_is_found() {
        // SAFETY: only tries to open the NVRTC library by its names; no
        // symbol of it is called.
        #[allow(unsafe_code)]
        if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
            return;
        }
        for stride in [Some(BLOCK), None] {
            let ptx = compile((9, 0), stride).unwrap().to_src();
            for kernel in ["count_tasks", "count_tasks_allowed"] {
                assert!(ptx.contains(&format!(".entry {kernel}(")), "{stride:?}");
            }
        }
    }
}
