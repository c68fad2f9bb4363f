//! The forms a board is given in to Python (`format=`): a tuple of
//! columns, LeetCode 51's row strings, or one string of rows; shared by
//! `boards.rs` and `construction.rs`.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

/// The forms a board is given in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// A tuple of 0-based columns.
    Columns,
    /// LeetCode 51's list of row strings.
    Leetcode,
    /// The rows as one string, `\n` after each.
    Board,
}

impl Form {
    pub fn parse(name: Option<&str>) -> PyResult<Self> {
        match name {
            None | Some("columns") => Ok(Self::Columns),
            Some("leetcode") => Ok(Self::Leetcode),
            Some("board") => Ok(Self::Board),
            Some(other) => Err(crate::errors::InputError::new_err(format!(
                "unknown format '{other}': expected columns, leetcode or board"
            ))),
        }
    }

    /// `cols` in this form.
    pub fn render<'py>(self, py: Python<'py>, cols: &[u32]) -> PyResult<Bound<'py, PyAny>> {
        let row = |col: u32| {
            let mut line = vec![b'.'; cols.len()];
            line[col as usize] = b'Q';
            String::from_utf8(line).expect("ASCII")
        };
        Ok(match self {
            Self::Columns => PyTuple::new(py, cols)?.into_any(),
            Self::Leetcode => PyList::new(py, cols.iter().map(|&c| row(c)))?.into_any(),
            Self::Board => {
                let mut text = String::with_capacity(cols.len() * (cols.len() + 1));
                for &col in cols {
                    text.push_str(&row(col));
                    text.push('\n');
                }
                PyString::new(py, &text).into_any()
            }
        })
    }
}
