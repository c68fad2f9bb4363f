//! The CPU's instruction-set extensions that the counting loops use,
//! detected once and passed down to them.
//!
//! The binary is built for baseline x86-64 and stays portable: each fast
//! loop is compiled with `#[target_feature]` and taken only where
//! [`Features`] says the CPU has what it enables. The caller may force the
//! portable loops ([`Simd`]), to test them on a machine that has the fast
//! ones or to time the difference. This module never reads the environment:
//! the CLI maps `QUEENS_NO_AVX512`, `QUEENS_NO_VBMI`, `QUEENS_NO_AVX2` and `QUEENS_NO_PEXT`
//! onto [`Simd`].

/// Which SIMD loops a count may take: those the CPU has, less those turned
/// off here. Off, a loop's portable twin runs; the counts are the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Simd {
    /// The join's AVX-512 matcher and pairing loops.
    pub avx512: bool,
    /// The join sieve's byte-permute matcher (AVX-512 VBMI), where
    /// `avx512` is on too.
    pub vbmi: bool,
    /// The join's AVX2 matcher loop, where AVX-512 is not there (or is
    /// off).
    pub avx2: bool,
    /// The join sieve's `pext` squeeze.
    pub pext: bool,
    /// The backtracking kernel compiled with BMI1, BMI2, POPCNT and LZCNT.
    pub bit_instructions: bool,
}

impl Simd {
    /// Every loop the CPU has.
    pub const AUTO: Self = Self {
        avx512: true,
        vbmi: true,
        avx2: true,
        pext: true,
        bit_instructions: true,
    };
    /// The portable loops only, whatever the CPU.
    pub const PORTABLE: Self = Self {
        avx512: false,
        vbmi: false,
        avx2: false,
        pext: false,
        bit_instructions: false,
    };
}

impl Default for Simd {
    fn default() -> Self {
        Self::AUTO
    }
}

/// What [`Features::avx512`] proves: every feature that the loops it
/// gates enable (the join's matcher, pairing and light sieve loops; the
/// sieve's split takes `bzhi`, BMI1 and BMI2, which issue 47 found the
/// probe did not check). The probe checks each name here, and a test
/// checks each `#[target_feature(enable = ...)]` against the list of the
/// proof that gates it.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const AVX512: &[&str] = &[
    "avx512f",
    "avx512vl",
    "avx512bw",
    "avx512vpopcntdq",
    "popcnt",
    "bmi1",
    "bmi2",
];

/// What [`Features::vbmi`] proves: what the join's byte-permute matcher
/// enables (`vpermb`, `vpmultishiftqb`, byte popcounts).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const VBMI: &[&str] = &[
    "avx512f",
    "avx512vl",
    "avx512bw",
    "avx512vbmi",
    "avx512bitalg",
    "avx512vpopcntdq",
];

/// What [`Features::avx2`] proves: what the join's AVX2 matcher loop
/// enables.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const AVX2: &[&str] = &["avx2", "popcnt"];

/// What [`Features::pext`] proves (the join sieve's squeeze), besides a
/// fast `pext`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const PEXT: &[&str] = &["bmi2"];

/// What [`Features::bit_instructions`] proves (the backtracking kernel):
/// x86-64-v3's bit instructions.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const BIT_INSTRUCTIONS: &[&str] = &["bmi1", "bmi2", "popcnt", "lzcnt"];

/// The extensions this CPU has that the counting loops use, each `true`
/// only where every instruction its loop enables is there. The fields are
/// private and set only by detection (or all off), so a `true` proves the
/// CPU has them: the SAFETY comments of the loops rest on that.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Features {
    /// Every feature of [`AVX512`]: the join's matcher, pairing and light
    /// sieve loops.
    avx512: bool,
    /// Every feature of [`VBMI`] (and of [`AVX512`]): the join sieve's
    /// byte-permute matcher.
    vbmi: bool,
    /// Every feature of [`AVX2`]: the join's matcher loop on a CPU
    /// without AVX-512.
    avx2: bool,
    /// BMI2, on a CPU where `pext` is fast: not an AMD one before Zen 3
    /// (family 19h), where it is microcoded, some 20 times slower than the
    /// copy it replaces.
    pext: bool,
    /// Every feature of [`BIT_INSTRUCTIONS`]: the backtracking kernel.
    bit_instructions: bool,
}

impl Features {
    /// No extension: the portable loops, and all that a CPU other than
    /// x86-64 gets.
    pub const PORTABLE: Self = Self {
        avx512: false,
        vbmi: false,
        avx2: false,
        pext: false,
        bit_instructions: false,
    };

    /// Every feature of [`VBMI`] and [`AVX512`] is there: the byte-permute
    /// matcher.
    #[must_use]
    pub fn vbmi(self) -> bool {
        self.vbmi
    }

    /// Every feature of [`AVX512`] is there: AVX-512F, VL, BW and
    /// VPOPCNTDQ, POPCNT, BMI1 and BMI2.
    #[must_use]
    pub fn avx512(self) -> bool {
        self.avx512
    }

    /// Every feature of [`AVX2`] is there: AVX2 and POPCNT.
    #[must_use]
    pub fn avx2(self) -> bool {
        self.avx2
    }

    /// BMI2 is there, with a fast `pext`.
    #[must_use]
    pub fn pext(self) -> bool {
        self.pext
    }

    /// Every feature of [`BIT_INSTRUCTIONS`] is there: BMI1, BMI2, POPCNT
    /// and LZCNT.
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
            vbmi: cpu.vbmi && simd.avx512 && simd.vbmi,
            avx2: cpu.avx2 && simd.avx2,
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
    let all = |features: &[&str]| features.iter().all(|&f| has(f) == Some(true));
    Features {
        avx512: all(AVX512),
        vbmi: all(AVX512) && all(VBMI),
        avx2: all(AVX2),
        pext: all(PEXT) && !slow_pext(),
        bit_instructions: all(BIT_INSTRUCTIONS),
    }
}

/// Whether the CPU has `feature`; `None` for a name this function does not
/// know (`is_x86_feature_detected!` takes only literals), which the probe
/// takes as absent and a test rules out.
#[cfg(target_arch = "x86_64")]
fn has(feature: &str) -> Option<bool> {
    use std::arch::is_x86_feature_detected as has;
    Some(match feature {
        "avx512f" => has!("avx512f"),
        "avx512vl" => has!("avx512vl"),
        "avx512bw" => has!("avx512bw"),
        "avx512vpopcntdq" => has!("avx512vpopcntdq"),
        "avx512vbmi" => has!("avx512vbmi"),
        "avx512bitalg" => has!("avx512bitalg"),
        "avx2" => has!("avx2"),
        "popcnt" => has!("popcnt"),
        "bmi1" => has!("bmi1"),
        "bmi2" => has!("bmi2"),
        "lzcnt" => has!("lzcnt"),
        _ => return None,
    })
}

#[cfg(not(target_arch = "x86_64"))]
fn probe() -> Features {
    Features::PORTABLE
}

/// Whether this is an AMD CPU before Zen 3 (family 0x19), whose `pext`
/// is microcoded.
#[cfg(target_arch = "x86_64")]
fn slow_pext() -> bool {
    let cpuid = raw_cpuid::CpuId::new();
    let amd = cpuid
        .get_vendor_info()
        .is_some_and(|vendor| vendor.as_str() == "AuthenticAMD");
    let family = cpuid.get_feature_info().map(|info| info.family_id());
    amd && family.is_some_and(|family| family < 0x19)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 47, item 10: the light sieve's AVX-512 split enabled BMI1 and
    /// BMI2, which the `avx512` probe did not check. Every file with a
    /// `#[target_feature]` loop is listed with the proof that gates its
    /// loops, and each feature it enables must be on that proof's list,
    /// the list the probe checks.
    #[test]
    fn each_proof_covers_every_feature_its_loops_enable() {
        let gated: [(&str, &[&[&str]]); 6] = [
            ("count/join/matcher.rs", &[AVX512, AVX2]),
            ("count/join/matcher/bytes.rs", &[VBMI]),
            ("count/join/pairs.rs", &[AVX512, AVX2]),
            ("count/join/sieve/light.rs", &[AVX512]),
            ("count/join/sieve.rs", &[PEXT]),
            ("kernel.rs", &[BIT_INSTRUCTIONS]),
        ];
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut found = Vec::new();
        let mut folders = vec![src.clone()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let name = path
                    .strip_prefix(&src)
                    .unwrap()
                    .to_str()
                    .unwrap()
                    // `count\join\matcher.rs` on Windows.
                    .replace(std::path::MAIN_SEPARATOR, "/");
                // This file names the attribute in its own checks.
                if name == "cpu.rs" {
                    continue;
                }
                let attribute = "#[target_feature(enable = \"";
                for (at, _) in text.match_indices(attribute) {
                    let rest = &text[at + attribute.len()..];
                    let features = &rest[..rest.find('"').unwrap()];
                    let Some(&(_, proofs)) = gated.iter().find(|(file, _)| *file == name) else {
                        panic!("{name} enables {features}: list it with the proof that gates it");
                    };
                    let proof = proofs
                        .iter()
                        .find(|proof| features.split(',').all(|feature| proof.contains(&feature)));
                    assert!(
                        proof.is_some(),
                        "{name} enables {features}, which none of its proofs {proofs:?} checks whole"
                    );
                    found.push(name.clone());
                }
            }
        }
        for (file, _) in gated {
            assert!(found.iter().any(|f| f == file), "{file} enables nothing");
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_probe_knows_every_feature_it_proves() {
        for feature in [AVX512, VBMI, AVX2, PEXT, BIT_INSTRUCTIONS].concat() {
            assert!(has(feature).is_some(), "{feature}");
        }
    }

    #[test]
    fn portable_turns_every_loop_off() {
        assert_eq!(Features::allowed(Simd::PORTABLE), Features::PORTABLE);
        assert_eq!(Features::allowed(Simd::AUTO), Features::detect());
    }
}
