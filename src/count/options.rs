//! [`Options`]: how a count may use the hardware, chosen by the caller.
//!
//! Every knob that used to be an environment variable read deep inside
//! the engines lives here, passed in through [`crate::Config`]: the
//! library reads no environment variable. The CLI maps the documented
//! variables (`QUEENS_NO_AVX512`, `QUEENS_NO_AVX2`, `QUEENS_NO_PEXT`,
//! `QUEENS_SIEVE_CUTS`, `QUEENS_SIEVE_SPLIT`, `QUEENS_GPU_*`) onto this value. None of these changes a count or a plan's hash.

use std::num::NonZeroU32;

pub use crate::cpu::Simd;

/// How a count may use the hardware. `Options::default()` takes every SIMD
/// loop the CPU has and the GPU's measured defaults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Options {
    /// Which SIMD loops the CPU may take ([`Simd::PORTABLE`]: none).
    pub simd: Simd,
    /// How the GPU executor cuts and launches its work.
    pub gpu: GpuOptions,
    /// The most cut bits a join job's sieve may bucket its words on (1 to
    /// [`Options::MAX_SIEVE_CUTS`]); `None`: the default measured for the
    /// board size.
    pub sieve_cuts: Option<u32>,
    /// How many bits past the cuts order the words within each of a join
    /// job's sieve buckets (0 to [`Options::MAX_SIEVE_SPLIT`], 0: none);
    /// `None`: the default measured for the board size.
    pub sieve_split: Option<u32>,
}

impl Options {
    /// The most cut bits any join job's sieve takes: a larger
    /// [`sieve_cuts`](Self::sieve_cuts) counts as this.
    pub const MAX_SIEVE_CUTS: u32 = crate::count::join::sieve::MAX_CUTS as u32;

    /// The most split bits a join job's sieve takes: a larger
    /// [`sieve_split`](Self::sieve_split) counts as this.
    pub const MAX_SIEVE_SPLIT: u32 = crate::count::join::sieve::MAX_SPLIT as u32;

    /// These options with `simd`.
    #[must_use]
    pub fn with_simd(self, simd: Simd) -> Self {
        Self { simd, ..self }
    }

    /// These options with `gpu`.
    #[must_use]
    pub fn with_gpu(self, gpu: GpuOptions) -> Self {
        Self { gpu, ..self }
    }

    /// These options with at most `cuts` sieve cut bits (`None`: the
    /// measured default).
    #[must_use]
    pub fn with_sieve_cuts(self, cuts: Option<u32>) -> Self {
        Self {
            sieve_cuts: cuts,
            ..self
        }
    }

    /// These options with `split` sieve split bits (`None`: the measured
    /// default).
    #[must_use]
    pub fn with_sieve_split(self, split: Option<u32>) -> Self {
        Self {
            sieve_split: split,
            ..self
        }
    }
}

/// How the GPU executor cuts a plan's units into tasks and launches them;
/// `None` everywhere: the defaults measured on an H100 (results/).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct GpuOptions {
    /// Rows a task fixes, counting its unit's own (clamped to `1..=n - 2`).
    pub depth: Option<NonZeroU32>,
    /// How many launches a count is cut into: a finished launch is what a
    /// journal records and what a cancel waits for.
    pub batches: Option<NonZeroU32>,
    /// Threads per block: a multiple of 32 from 32 to 1024.
    pub block: Option<u32>,
    /// Compile the kernel with the block size read at run time rather than
    /// fixed (slower; to measure what fixing it gains).
    pub dynamic_stride: bool,
    /// Which GPU executor, and through which API.
    pub backend: GpuBackend,
}

/// Which GPU executor counts, and through which API.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GpuBackend {
    /// CUDA where it is built and an NVIDIA GPU answers, else the portable
    /// executor.
    #[default]
    Auto,
    /// The CUDA executor: NVIDIA GPUs.
    Cuda,
    /// The portable executor (wgpu), through whichever API answers:
    /// Vulkan, Metal or DirectX 12.
    Portable,
    /// The portable executor through Vulkan.
    Vulkan,
    /// The portable executor through Metal.
    Metal,
    /// The portable executor through DirectX 12.
    Dx12,
}

impl GpuBackend {
    /// The backend's name, as the command line spells it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Cuda => "cuda",
            Self::Portable => "portable",
            Self::Vulkan => "vulkan",
            Self::Metal => "metal",
            Self::Dx12 => "dx12",
        }
    }
}

impl GpuOptions {
    /// The block sizes the kernel takes: a multiple of 32, from 32 to 1024.
    #[must_use]
    pub fn block_fits(block: u32) -> bool {
        block.is_multiple_of(32) && (32..=1024).contains(&block)
    }
}
