//! The CPU's instruction-set extensions that the counting loops use,
//! detected once and passed down to them.
//!
//! The binary is built for baseline x86-64 and stays portable: each fast
//! loop is compiled with `#[target_feature]` and taken only where
//! [`Features`] says the CPU has what it enables. The caller may force the
//! portable loops ([`Simd`]), to test them on a machine that has the fast
//! ones or to time the difference. This module never reads the environment:
//! the CLI maps `QUEENS_NO_AVX512` and `QUEENS_NO_PEXT` onto [`Simd`].

/// Which SIMD loops a count may take: those the CPU has, less those turned
/// off here. Off, a loop's portable twin runs; the counts are the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Simd {
    /// The join's AVX-512 matcher and pairing loops.
    pub avx512: bool,
    /// The join sieve's `pext` squeeze.
    pub pext: bool,
    /// The backtracking kernel compiled with BMI1, BMI2, POPCNT and LZCNT.
    pub bit_instructions: bool,
}

impl Simd {
    /// Every loop the CPU has.
    pub const AUTO: Self = Self {
        avx512: true,
        pext: true,
        bit_instructions: true,
    };
    /// The portable loops only, whatever the CPU.
    pub const PORTABLE: Self = Self {
        avx512: false,
        pext: false,
        bit_instructions: false,
    };
}

impl Default for Simd {
    fn default() -> Self {
        Self::AUTO
    }
}

/// The extensions this CPU has that the counting loops use, each `true`
/// only where every instruction its loop enables is there. The fields are
/// private and set only by detection (or all off), so a `true` proves the
/// CPU has them: the SAFETY comments of the loops rest on that.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Features {
    /// AVX-512F, VL, VPOPCNTDQ and POPCNT: the join's matcher and pairing
    /// loops.
    avx512: bool,
    /// BMI2, on a CPU where `pext` is fast: not an AMD one before Zen 3
    /// (family 19h), where it is microcoded, some 20 times slower than the
    /// copy it replaces.
    pext: bool,
    /// BMI1, BMI2, POPCNT and LZCNT (x86-64-v3's bit instructions): the
    /// backtracking kernel.
    bit_instructions: bool,
}

impl Features {
    /// No extension: the portable loops, and all that a CPU other than
    /// x86-64 gets.
    pub const PORTABLE: Self = Self {
        avx512: false,
        pext: false,
        bit_instructions: false,
    };

    /// AVX-512F, VL, BW, VPOPCNTDQ and POPCNT are there.
    #[must_use]
    pub fn avx512(self) -> bool {
        self.avx512
    }

    /// BMI2 is there, with a fast `pext`.
    #[must_use]
    pub fn pext(self) -> bool {
        self.pext
    }

    /// BMI1, BMI2, POPCNT and LZCNT are there.
    #[must_use]
    pub fn bit_instructions(self) -> bool {
        self.bit_instructions
    }

    /// This CPU's, probed on the first call only.
    pub fn detect() -> Self {
        static DETECTED: std::sync::OnceLock<Features> = std::sync::OnceLock::new();
        *DETECTED.get_or_init(probe)
    }

    /// This CPU's, less what `simd` turns off.
    pub fn allowed(simd: Simd) -> Self {
        let cpu = Self::detect();
        Self {
            avx512: cpu.avx512 && simd.avx512,
            pext: cpu.pext && simd.pext,
            bit_instructions: cpu.bit_instructions && simd.bit_instructions,
        }
    }
}

impl Default for Features {
    /// [`Features::detect`].
    fn default() -> Self {
        Self::detect()
    }
}

#[cfg(target_arch = "x86_64")]
fn probe() -> Features {
    use std::arch::is_x86_feature_detected as has;
    Features {
        avx512: has!("avx512f")
            && has!("avx512vl")
            && has!("avx512bw")
            && has!("avx512vpopcntdq")
            && has!("popcnt"),
        pext: has!("bmi2") && !slow_pext(),
        bit_instructions: has!("bmi1") && has!("bmi2") && has!("popcnt") && has!("lzcnt"),
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn probe() -> Features {
    Features::PORTABLE
}

/// Whether this is an AMD CPU before Zen 3, whose `pext` is microcoded.
#[cfg(target_arch = "x86_64")]
fn slow_pext() -> bool {
    use std::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
    let eax = __cpuid(1).eax;
    let family = match (eax >> 8) & 0xf {
        0xf => 0xf + ((eax >> 20) & 0xff),
        base => base,
    };
    amd && family < 0x19
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_turns_every_loop_off() {
        assert_eq!(Features::allowed(Simd::PORTABLE), Features::PORTABLE);
        assert_eq!(Features::allowed(Simd::AUTO), Features::detect());
    }
}
