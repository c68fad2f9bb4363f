//! Without a GPU executor (neither the `cuda` nor the `wgpu` feature): a GPU that never opens, so that the runner
//! and the CLI compile the same either way and say why there is none.

use super::cut::{Root, Tasks};
use crate::Error;
use crate::count::options::GpuOptions;
use crate::cpu::Features;

/// The refusal of a build without the `gpu` feature.
pub(super) fn not_built() -> Error {
    Error::gpu(
        "this queens was built without the GPU executor: rebuild with `cargo build --release \
         --features gpu`",
    )
}

/// Without the `gpu` feature: a GPU that never opens.
pub(crate) enum Gpu {}

impl Gpu {
    /// The refusal: this build has no GPU executor.
    pub fn open(_options: GpuOptions) -> Result<Self, Error> {
        Err(not_built())
    }

    /// Never called: no `Gpu` exists.
    pub fn cut(&self, _n: u32, _roots: &[Root]) -> Tasks {
        match *self {}
    }

    /// Never called: no `Gpu` exists.
    pub fn count(
        &self,
        _n: u32,
        _tasks: &Tasks,
        _roots: &[Root],
        _features: Features,
    ) -> Result<Vec<u128>, Error> {
        match *self {}
    }
}
