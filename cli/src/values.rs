//! The library's enums as values of options (`--engine`, `--format`,
//! `--algorithm`): each one's name, as the library spells it, and its line
//! of help, which is the command line's to word. The library's types know
//! nothing of clap; [`ChoiceParser`] parses them as clap parses its own
//! value enums, with the same help lists, errors and suggestions.

use std::ffi::OsStr;
use std::marker::PhantomData;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Arg, Command};
use queens::{Algorithm, Engine, Format, GpuBackend};

/// A library enum that an option takes by name.
pub trait Choice: Copy + PartialEq + Send + Sync + 'static {
    /// Every value with its line of help, in the order the help lists
    /// them.
    const VALUES: &'static [(Self, &'static str)];

    /// The value's name, as the library spells it.
    fn name(self) -> &'static str;

    /// The value as the command line names and explains it.
    fn possible_value(self) -> PossibleValue {
        let help = Self::VALUES
            .iter()
            .find(|(v, _)| *v == self)
            .map(|&(_, help)| help);
        PossibleValue::new(self.name()).help(help.unwrap_or_default())
    }
}

impl Choice for Engine {
    const VALUES: &'static [(Self, &'static str)] = &[
        (
            Engine::Mirror,
            "Bitmask backtracking with mirror symmetry, split on its first rows",
        ),
        (
            Engine::Join,
            "The half-board join with the board's symmetries; odd boards fix the middle-column \
             queen",
        ),
        (
            Engine::Constellations,
            "Bitmask backtracking from the queens on the four border lines, one unit per start \
             up to all eight symmetries of the square",
        ),
    ];

    fn name(self) -> &'static str {
        Engine::name(self)
    }
}

impl Choice for GpuBackend {
    const VALUES: &'static [(Self, &'static str)] = &[
        (
            GpuBackend::Auto,
            "CUDA where it is built in and an NVIDIA GPU answers, else the portable executor",
        ),
        (GpuBackend::Cuda, "The CUDA executor: NVIDIA GPUs"),
        (
            GpuBackend::Portable,
            "The portable executor (wgpu) through Vulkan, Metal or DirectX 12, whichever answers",
        ),
        (GpuBackend::Vulkan, "The portable executor through Vulkan"),
        (
            GpuBackend::Metal,
            "The portable executor through Metal (macOS)",
        ),
        (
            GpuBackend::Dx12,
            "The portable executor through DirectX 12 (Windows)",
        ),
    ];

    fn name(self) -> &'static str {
        GpuBackend::name(self)
    }
}

impl Choice for Format {
    const VALUES: &'static [(Self, &'static str)] = &[
        (
            Format::Board,
            "One row per line, `Q` for a queen and `.` for an empty square; a blank line \
             between boards",
        ),
        (
            Format::Spaced,
            "As `board`, with a space between two cells (`. Q . .`), as textbook programs \
             print them",
        ),
        (
            Format::Leetcode,
            "LeetCode 51's answer: one JSON array holding, for each board, the array of its \
             rows as strings",
        ),
        (
            Format::Columns,
            "One board per line: the 1-based column of each row, separated by spaces",
        ),
        (
            Format::Jsonl,
            "One JSON object per line: `{\"n\":N,\"cols\":[...]}` with the 0-based column of \
             each row",
        ),
        (
            Format::Unicode,
            "A board drawn with box-drawing lines, `♛` for a queen; a blank line between boards",
        ),
    ];

    fn name(self) -> &'static str {
        Format::name(self)
    }
}

impl Choice for Algorithm {
    const VALUES: &'static [(Self, &'static str)] = &[
        (
            Algorithm::Cells,
            "Every subset of squares, tested at the end",
        ),
        (
            Algorithm::AttackCounts,
            "Row by row with a grid of attack counts",
        ),
        (Algorithm::Scan, "Row by row, scanning the rows above"),
        (
            Algorithm::Flags,
            "Row by row with a flag per column and diagonal",
        ),
        (Algorithm::Bitmask, "The bitmask engine on one thread"),
        (Algorithm::Parallel, "The bitmask engine on every core"),
    ];

    fn name(self) -> &'static str {
        Algorithm::name(self)
    }
}

/// The parser of a [`Choice`]: its names, as clap's parser of value enums
/// reads them (a value that is no UTF-8 is refused as it is, by name).
#[derive(Clone, Copy, Debug)]
pub struct ChoiceParser<T>(PhantomData<T>);

impl<T: Choice> ChoiceParser<T> {
    /// The parser of `T`'s names.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T: Choice> Default for ChoiceParser<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Choice> TypedValueParser for ChoiceParser<T> {
    type Value = T;

    fn parse_ref(&self, cmd: &Command, arg: Option<&Arg>, value: &OsStr) -> Result<T, clap::Error> {
        let ignore_case = arg.is_some_and(Arg::is_ignore_case_set);
        let text = value.to_string_lossy();
        let names = PossibleValuesParser::new(T::VALUES.iter().map(|&(v, _)| v.possible_value()));
        let name = names.parse_ref(cmd, arg, OsStr::new(text.as_ref()))?;
        Ok(T::VALUES
            .iter()
            .map(|&(v, _)| v)
            .find(|v| v.possible_value().matches(&name, ignore_case))
            .expect("the possible values parser takes only these names"))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(T::VALUES.iter().map(|&(v, _)| v.possible_value())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value of the library's is offered, once, with a line of
    /// help, under the name the library's `FromStr` reads (plan headers,
    /// shard files and Python read the same names).
    #[test]
    fn the_options_take_every_value_by_the_librarys_names() {
        fn check<T: Choice + std::str::FromStr + std::fmt::Debug>(all: &[T]) {
            let offered: Vec<T> = T::VALUES.iter().map(|&(v, _)| v).collect();
            assert_eq!(offered, all);
            for &(value, help) in T::VALUES {
                let name = value.possible_value().get_name().to_owned();
                assert_eq!(name.parse::<T>().ok(), Some(value), "{name}");
                assert!(!help.is_empty() && !help.ends_with('.'), "{name}: {help}");
            }
        }
        check(&Engine::ALL);
        check(&Format::ALL);
        check(&Algorithm::ALL);
    }
}
