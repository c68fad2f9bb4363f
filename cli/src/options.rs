//! The environment variables that tune how a count uses the hardware,
//! mapped onto the library's [`Options`] at the edge (the library reads
//! none), and the `--engine` parser that points `--engine gpu` at `--gpu`.
//!
//! | variable                    | effect                                          |
//! |-----------------------------|-------------------------------------------------|
//! | `QUEENS_NO_AVX512`          | the join's matcher and pairing loops without it |
//! | `QUEENS_NO_VBMI`            | the join sieve's byte tables off (AVX-512 VBMI) |
//! | `QUEENS_NO_AVX2`            | ... and without AVX2: the portable ones         |
//! | `QUEENS_NO_PEXT`            | the join sieve without `pext`                   |
//! | `QUEENS_PORTABLE`           | every loop portable, as on a CPU other than x86 |
//! | `QUEENS_SIEVE_CUTS`         | the most cut bits of a join job's sieve (1-18)  |
//! | `QUEENS_SIEVE_SPLIT`        | bits ordering each sieve bucket (0-3, 0: none)  |
//! | `QUEENS_GPU_DEPTH`          | rows a GPU task fixes (1 to 30)                 |
//! | `QUEENS_GPU_BATCHES`        | launches a GPU count is cut into (1 to 100000)  |
//! | `QUEENS_GPU_BLOCK`          | GPU threads per block (32 to 1024, times 32)    |
//! | `QUEENS_GPU_DYNAMIC_STRIDE` | a kernel whose block size is read at run time   |
//!
//! The switches are on when set to anything but empty or `0`; a number
//! that is not one, or out of range, is refused with one line naming the
//! variable.

use std::ffi::{OsStr, OsString};
use std::num::NonZeroU32;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Arg, Command};
use queens::{Engine, Executor, GpuBackend, GpuOptions, Options, Simd};

use super::UsageError;
use super::values::{Choice, ChoiceParser};

/// The options the environment asks for.
///
/// # Errors
/// One line naming the variable, for a value out of range.
pub fn from_env() -> Result<Options, UsageError> {
    from_vars(|name| std::env::var_os(name))
}

/// [`from_env`], with the variables read by `var`.
fn from_vars(var: impl Fn(&str) -> Option<OsString>) -> Result<Options, UsageError> {
    let on = |name: &str| is_on(var(name).as_deref());
    let mut simd = if on("QUEENS_PORTABLE") {
        Simd::PORTABLE
    } else {
        Simd::AUTO
    };
    simd.avx512 &= !on("QUEENS_NO_AVX512");
    simd.vbmi &= !on("QUEENS_NO_VBMI");
    simd.avx2 &= !on("QUEENS_NO_AVX2");
    simd.pext &= !on("QUEENS_NO_PEXT");
    let mut gpu = GpuOptions::default();
    gpu.depth = number(&var, "QUEENS_GPU_DEPTH", 1, 30)?.and_then(NonZeroU32::new);
    gpu.batches = number(&var, "QUEENS_GPU_BATCHES", 1, 100_000)?.and_then(NonZeroU32::new);
    gpu.block = number(&var, "QUEENS_GPU_BLOCK", 32, 1024)?;
    if let Some(block) = gpu.block.filter(|&b| !GpuOptions::block_fits(b)) {
        return Err(UsageError(format!(
            "QUEENS_GPU_BLOCK={block}: expected a multiple of 32 from 32 to 1024"
        )));
    }
    gpu.dynamic_stride = on("QUEENS_GPU_DYNAMIC_STRIDE");
    let cuts = number(&var, "QUEENS_SIEVE_CUTS", 1, Options::MAX_SIEVE_CUTS)?;
    let split = number(&var, "QUEENS_SIEVE_SPLIT", 0, Options::MAX_SIEVE_SPLIT)?;
    Ok(Options::default()
        .with_simd(simd)
        .with_gpu(gpu)
        .with_sieve_cuts(cuts)
        .with_sieve_split(split))
}

/// Whether a switch's value turns it on: anything but unset, empty or `0`.
/// See: issue 20 (`QUEENS_NO_AVX512=0` turned AVX-512 off).
fn is_on(value: Option<&OsStr>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0")
}

/// Variable `name` as a whole number from `min` to `max`, `None` unset,
/// empty or blank (as for `RAYON_NUM_THREADS` and `QUEENS_MEMORY_LIMIT`).
fn number(
    var: &impl Fn(&str) -> Option<OsString>,
    name: &str,
    min: u32,
    max: u32,
) -> Result<Option<u32>, UsageError> {
    let Some(value) = var(name).filter(|v| !v.to_string_lossy().trim().is_empty()) else {
        return Ok(None);
    };
    value
        .to_str()
        .and_then(|v| v.trim().parse::<u32>().ok())
        .filter(|v| (min..=max).contains(v))
        .map(Some)
        .ok_or_else(|| {
            UsageError(format!(
                "{name}={}: expected a whole number from {min} to {max}",
                value.to_string_lossy()
            ))
        })
}

/// The `--engine` parser: [`Engine`]'s values, and for `gpu` (an
/// engine in older versions) a line pointing at `--gpu`.
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineParser;

impl TypedValueParser for EngineParser {
    type Value = Engine;

    fn parse_ref(
        &self,
        cmd: &Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<Engine, clap::Error> {
        if value == "gpu" {
            return Err(cmd.clone().error(
                clap::error::ErrorKind::InvalidValue,
                "--engine gpu is now --gpu: the GPU runs the constellations engine's \
                 plan (queens count N --gpu)",
            ));
        }
        ChoiceParser::<Engine>::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            Engine::VALUES.iter().map(|&(e, _)| e.possible_value()),
        ))
    }
}

/// The GPU's name and executor (`backend`'s, `None`: the automatic
/// choice), or the usage error that `--gpu` gets from every command where
/// there is none to count on: a build without that executor, no driver,
/// no device (one line, exit 2).
pub fn find_gpu(backend: Option<GpuBackend>) -> Result<String, UsageError> {
    queens::find_gpu(backend.unwrap_or_default())
        .map_err(|why| UsageError(super::exit::with_causes(&why)))
}

/// The options the environment asks for ([`from_env`]), counting on the
/// GPU executor `backend` names (`None`: the automatic choice).
///
/// # Errors
/// As [`from_env`].
pub fn with_backend(backend: Option<GpuBackend>) -> Result<Options, UsageError> {
    let mut options = from_env()?;
    options.gpu.backend = backend.unwrap_or_default();
    Ok(options)
}

/// Why `--gpu` cannot count an `n`-board with `engine` (`None`: the one
/// `--gpu` picks, [`Executor::engine_for`]), in one line naming what it
/// takes: the library's answer, in the command line's words.
pub fn refuse_gpu(engine: Option<Engine>, n: u32) -> Option<String> {
    if let Some(engine) = engine.filter(|&e| !Executor::Gpu.runs(e)) {
        return Some(format!(
            "--gpu runs the constellations and mirror engines' plans only (the GPU \
             backtracks), not the {engine} engine's: drop --engine {engine}, or drop --gpu"
        ));
    }
    let range = Executor::Gpu.range();
    (!range.contains(&n)).then(|| {
        let why = if n < *range.start() {
            "leaves too few rows to cut"
        } else {
            "is past the kernel's"
        };
        format!(
            "--gpu counts {} <= n <= {}: n = {n} {why}",
            range.start(),
            range.end()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(vars: &[(&str, &str)]) -> Result<Options, UsageError> {
        from_vars(|name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        })
    }

    #[test]
    fn no_variable_is_the_default() {
        assert_eq!(options(&[]).unwrap(), Options::default());
    }

    #[test]
    fn only_a_value_other_than_0_turns_a_fast_path_off() {
        // See: issue 20 (`QUEENS_NO_AVX512=0` turned AVX-512 off).
        for off in ["", "0"] {
            let vars = [
                ("QUEENS_NO_AVX512", off),
                ("QUEENS_NO_VBMI", off),
                ("QUEENS_NO_AVX2", off),
                ("QUEENS_NO_PEXT", off),
            ];
            let o = options(&vars).unwrap();
            assert_eq!(o.simd, Simd::AUTO, "{off:?}");
        }
        let o = options(&[("QUEENS_NO_AVX512", "1"), ("QUEENS_NO_PEXT", "yes")]).unwrap();
        assert!(!o.simd.avx512 && !o.simd.pext && o.simd.bit_instructions);
        let o = options(&[("QUEENS_NO_PEXT", "1")]).unwrap();
        assert!(o.simd.avx512 && o.simd.avx2 && !o.simd.pext);
        let o = options(&[("QUEENS_NO_VBMI", "1")]).unwrap();
        assert!(o.simd.avx512 && !o.simd.vbmi && o.simd.pext);
        let o = options(&[("QUEENS_NO_AVX2", "1")]).unwrap();
        assert!(o.simd.avx512 && !o.simd.avx2 && o.simd.pext);
        assert_eq!(
            options(&[("QUEENS_PORTABLE", "1")]).unwrap().simd,
            Simd::PORTABLE
        );
        assert_eq!(
            options(&[("QUEENS_PORTABLE", "0")]).unwrap().simd,
            Simd::AUTO
        );
    }

    /// The join's sieve takes up to 18 cut bits: every cap up to it can be
    /// asked for, and none past it.
    #[test]
    fn sieve_cuts_reach_the_sieves_cap() {
        assert_eq!(Options::MAX_SIEVE_CUTS, 18);
        let o = options(&[("QUEENS_SIEVE_CUTS", "18")]).unwrap();
        assert_eq!(o.sieve_cuts, Some(18));
        let err = options(&[("QUEENS_SIEVE_CUTS", "19")])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("QUEENS_SIEVE_CUTS=19") && err.contains("from 1 to 18"),
            "{err}"
        );
    }

    /// The sieve's split takes 0 (none) to 3 bits, and nothing past them.
    #[test]
    fn sieve_split_takes_none_to_three_bits() {
        assert_eq!(Options::MAX_SIEVE_SPLIT, 3);
        let o = options(&[("QUEENS_SIEVE_SPLIT", "0")]).unwrap();
        assert_eq!(o.sieve_split, Some(0));
        let o = options(&[("QUEENS_SIEVE_SPLIT", "3")]).unwrap();
        assert_eq!(o.sieve_split, Some(3));
        let err = options(&[("QUEENS_SIEVE_SPLIT", "4")])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("QUEENS_SIEVE_SPLIT=4") && err.contains("from 0 to 3"),
            "{err}"
        );
    }

    #[test]
    fn blank_numbers_are_unset() {
        let o = options(&[("QUEENS_GPU_DEPTH", " "), ("QUEENS_SIEVE_CUTS", "")]).unwrap();
        assert_eq!(o, Options::default());
    }

    #[test]
    fn gpu_numbers_are_read_and_checked() {
        let o = options(&[
            ("QUEENS_GPU_DEPTH", "6"),
            ("QUEENS_GPU_BATCHES", "3"),
            ("QUEENS_GPU_BLOCK", "256"),
            ("QUEENS_GPU_DYNAMIC_STRIDE", "1"),
        ])
        .unwrap();
        assert_eq!(o.gpu.depth.map(NonZeroU32::get), Some(6));
        assert_eq!(o.gpu.batches.map(NonZeroU32::get), Some(3));
        assert_eq!(o.gpu.block, Some(256));
        assert!(o.gpu.dynamic_stride);
        for (name, bad) in [
            ("QUEENS_GPU_DEPTH", "0"),
            ("QUEENS_GPU_DEPTH", "seven"),
            ("QUEENS_GPU_BATCHES", "-1"),
            ("QUEENS_GPU_BLOCK", "100"),
            ("QUEENS_GPU_BLOCK", "2048"),
        ] {
            let err = options(&[(name, bad)]).unwrap_err().0;
            assert!(err.starts_with(&format!("{name}={bad}:")), "{err}");
            assert!(!err.contains('\n'), "{err}");
        }
    }

    #[test]
    fn gpu_refusals_name_what_the_gpu_takes() {
        assert_eq!(
            refuse_gpu(None, 3).as_deref(),
            Some("--gpu counts 4 <= n <= 32: n = 3 leaves too few rows to cut")
        );
        let join = refuse_gpu(Some(Engine::Join), 12).unwrap();
        assert!(join.contains("constellations and mirror") && join.contains("--engine join"));
        assert_eq!(refuse_gpu(None, 4), None);
        assert_eq!(refuse_gpu(Some(Engine::Mirror), 32), None);
    }
}
