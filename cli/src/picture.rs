//! What `list`, `one` and `check` draw: `--format` as a text format or
//! `svg`, and how many boards one SVG sheet holds.
//!
//! A sheet is written whole ([`queens::write_svg`]): `list` collects the
//! boards it draws, so it draws at most [`SHEET_MAX`] and refuses more in
//! one line naming `--limit`, rather than hold a listing of millions.

use std::fmt;
use std::io::Write;

use clap::ValueEnum;
use clap::builder::PossibleValue;
use queens::{Format, SvgBoard};

use super::values::Choice;

/// The most boards one SVG sheet holds.
pub const SHEET_MAX: u64 = 100;

/// What `--format` takes: a text format of boards, or an SVG picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// A text format: streamed, read back by `check`.
    Text(Format),
    /// One SVG document: one board, or a sheet of them.
    Svg,
}

impl Look {
    /// Every value, in the order the help lists them.
    const ALL: [Self; 7] = [
        Self::Text(Format::Board),
        Self::Text(Format::Spaced),
        Self::Text(Format::Leetcode),
        Self::Text(Format::Columns),
        Self::Text(Format::Jsonl),
        Self::Text(Format::Unicode),
        Self::Svg,
    ];

    /// Whether every square is drawn, so that boards are limited in size.
    pub const fn draws_squares(self) -> bool {
        match self {
            Self::Text(format) => format.draws_squares(),
            Self::Svg => true,
        }
    }
}

impl fmt::Display for Look {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Text(format) => format.fmt(f),
            Self::Svg => f.write_str("svg"),
        }
    }
}

impl ValueEnum for Look {
    fn value_variants<'a>() -> &'a [Self] {
        &Self::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        match self {
            Self::Text(format) => Some(format.possible_value()),
            Self::Svg => Some(PossibleValue::new("svg").help(
                "An SVG picture: a checkered board and its queens; several boards on one sheet \
                 (at most 100)",
            )),
        }
    }
}

/// Writes `boards` (each the column of every row, from 0) to stdout as one
/// SVG document; a sheet's boards captioned with their columns from 1, as
/// `--format columns` writes them (their number past 16 rows).
pub fn write_sheet(boards: &[Vec<u32>]) -> anyhow::Result<()> {
    let drawn = boards
        .iter()
        .enumerate()
        .map(|(i, cols)| {
            let board = SvgBoard::from_columns(cols)?;
            Ok(match boards.len() {
                1 => board,
                _ if cols.len() <= 16 => board.with_caption([cols
                    .iter()
                    .map(|c| (c + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")]),
                _ => board.with_caption([format!("{}", i + 1)]),
            })
        })
        .collect::<Result<Vec<_>, queens::Error>>()?;
    let mut out = super::stdout();
    queens::write_svg(&mut out, &drawn)?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_look_has_a_name_and_help() {
        for look in Look::ALL {
            let value = look.to_possible_value().unwrap();
            assert_eq!(value.get_name(), look.to_string());
            assert!(value.get_help().is_some(), "{look}");
            assert_eq!(Look::from_str(&look.to_string(), false), Ok(look));
        }
    }
}
