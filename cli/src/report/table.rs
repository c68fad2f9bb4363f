//! Text in columns for people: a [`Table`] of [`Column`]s. A measured
//! time in one is written by [`queens::human::duration`].

use std::fmt::{Display, Write as _};
use std::io::{self, Write};

/// Columns of text two spaces apart, each padded to its width, right- or
/// left-aligned; a left-aligned cell that ends a line is not padded.
pub struct Table {
    columns: Vec<Column>,
}

/// One column of a [`Table`].
pub struct Column {
    title: String,
    width: usize,
    right: bool,
}

impl Column {
    /// A right-aligned column (numbers).
    pub fn right(title: impl Into<String>, width: usize) -> Self {
        let title = title.into();
        Self {
            title,
            width,
            right: true,
        }
    }

    /// A left-aligned column (names, verdicts).
    pub fn left(title: impl Into<String>, width: usize) -> Self {
        let title = title.into();
        Self {
            title,
            width,
            right: false,
        }
    }
}

impl Table {
    /// A table of `columns`, in order.
    pub fn new(columns: Vec<Column>) -> Self {
        Self { columns }
    }

    /// The line of the columns' titles.
    pub fn header(&self, out: &mut dyn Write) -> io::Result<()> {
        let titles: Vec<&dyn Display> = self.columns.iter().map(|c| &c.title as _).collect();
        self.line(out, &titles, None)
    }

    /// A row: one cell per column.
    pub fn row(&self, out: &mut dyn Write, cells: &[&dyn Display]) -> io::Result<()> {
        debug_assert_eq!(cells.len(), self.columns.len(), "a cell per column");
        self.line(out, cells, None)
    }

    /// A row whose first `cells` are in their columns and whose `rest`
    /// runs across the others (`cells   skipped: ...`).
    pub fn row_then(
        &self,
        out: &mut dyn Write,
        cells: &[&dyn Display],
        rest: &dyn Display,
    ) -> io::Result<()> {
        debug_assert!(cells.len() < self.columns.len(), "the rest has columns");
        self.line(out, cells, Some(rest))
    }

    fn line(
        &self,
        out: &mut dyn Write,
        cells: &[&dyn Display],
        rest: Option<&dyn Display>,
    ) -> io::Result<()> {
        let mut line = String::new();
        for (i, (column, cell)) in self.columns.iter().zip(cells).enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let text = cell.to_string();
            let ends_line = i + 1 == cells.len() && rest.is_none();
            let width = column.width;
            let _ = match (column.right, ends_line) {
                (true, _) => write!(line, "{text:>width$}"),
                (false, false) => write!(line, "{text:<width$}"),
                (false, true) => write!(line, "{text}"),
            };
        }
        if let Some(rest) = rest {
            if !cells.is_empty() {
                line.push_str("  ");
            }
            let _ = write!(line, "{rest}");
        }
        line.push('\n');
        out.write_all(line.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align_their_columns() {
        let table = Table::new(vec![
            Column::left("name", 6),
            Column::right("count", 7),
            Column::left("verdict", 0),
        ]);
        let mut out = Vec::new();
        table.header(&mut out).unwrap();
        table.row(&mut out, &[&"cells", &92, &"ok"]).unwrap();
        let long = [&"a-longer-name" as &dyn Display, &1, &"MISMATCH (known: 2)"];
        table.row(&mut out, &long).unwrap();
        table
            .row_then(&mut out, &[&"scan"], &"skipped: too slow")
            .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "name      count  verdict\n\
             cells        92  ok\n\
             a-longer-name        1  MISMATCH (known: 2)\n\
             scan    skipped: too slow\n"
        );
    }

    #[test]
    fn left_aligned_cells_that_end_a_line_are_not_padded() {
        let table = Table::new(vec![Column::left("label", 7), Column::left("value", 7)]);
        let mut out = Vec::new();
        table.row(&mut out, &[&"n", &"8"]).unwrap();
        table.row_then(&mut out, &[&"plan"], &"sha256:0f").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "n        8\nplan     sha256:0f\n"
        );
    }
}
