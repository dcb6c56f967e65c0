//! Laying a worksheet's cells out in rows, within the workbook's cell budget: the cells
//! come as the reader found them (position and value, in any order, only the non-empty
//! ones), and become rows from column A to each row's last cell, so a far cell alone in
//! its row costs that row only, and a row without cells costs nothing.
//!
//! Owns the budget ([`Budget`], [`MAX_CELLS`] for the whole workbook) and the spreading
//! of merged regions down (a 单位 merged over the rows of one club). Must not read files
//! nor judge values.

use super::headers;
use super::limits::{At, Found, Limit, MAX_CELLS, MAX_COLUMNS, MAX_ROWS, beyond, given_twice};
use crate::i18n::Text;
use calamine::{Data, Dimensions};

/// The cells a workbook has laid out so far, all sheets together.
#[derive(Debug, Default)]
pub struct Budget {
    used: u64,
}

impl Budget {
    /// How many more cells the workbook may lay out.
    fn room(&self) -> u64 {
        MAX_CELLS.saturating_sub(self.used)
    }

    /// Counts `n` more cells of `sheet`; an error once the workbook passes [`MAX_CELLS`].
    pub fn take(&mut self, n: u64, sheet: &str) -> Result<(), Text> {
        self.used = self.used.saturating_add(n);
        if self.used > MAX_CELLS {
            return Err(beyond(Limit::Cells, At::Sheet(sheet), Found::MoreThan));
        }
        Ok(())
    }
}

/// Whether a cell holds nothing a reader would see.
pub fn is_blank(cell: &Data) -> bool {
    match cell {
        Data::Empty => true,
        Data::String(s) => s.trim().is_empty(),
        _ => false,
    }
}

/// The rows of `sheet`: (1-based row number, cells from column A), non-blank rows only,
/// merged regions spread down. `cells` are (0-based row, 0-based column, value).
pub fn lay_out(
    sheet: &str,
    mut cells: Vec<(u32, u32, Data)>,
    merged: &[Dimensions],
    budget: &mut Budget,
) -> Result<Vec<(usize, Vec<Data>)>, Text> {
    if let Some(&(r, _, _)) = cells.iter().find(|(r, _, _)| u64::from(*r) >= MAX_ROWS) {
        let found = Found::Counted(u64::from(r) + 1);
        return Err(beyond(Limit::Rows, At::Sheet(sheet), found));
    }
    if let Some(&(_, c, _)) = cells.iter().find(|(_, c, _)| u64::from(*c) >= MAX_COLUMNS) {
        let found = Found::Counted(u64::from(c) + 1);
        return Err(beyond(Limit::Columns, At::Sheet(sheet), found));
    }
    cells.sort_by_key(|&(r, c, _)| (r, c));
    // Two values at one place (two `<c r="B3">`, or two rows numbered alike): which the
    // organiser meant cannot be told, and keeping either would drop a player unseen.
    if let Some(pair) = cells
        .windows(2)
        .find(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1) && !(is_blank(&w[0].2) && is_blank(&w[1].2)))
    {
        let at = format!(
            "{}{}",
            super::xlsx::column_letters(pair[0].1 as usize),
            pair[0].0 + 1
        );
        return Err(given_twice(
            sheet,
            &format!("单元格 `{at}`"),
            &format!("the cell `{at}`"),
        ));
    }
    let mut rows: Vec<(usize, Vec<Data>)> = Vec::new();
    let mut at = 0;
    while at < cells.len() {
        let row = cells[at].0;
        let end = at + cells[at..].iter().take_while(|(r, _, _)| *r == row).count();
        let width = cells[end - 1].1 as usize + 1;
        budget.take(width as u64, sheet)?;
        let mut line = vec![Data::Empty; width];
        for (_, c, value) in &mut cells[at..end] {
            line[*c as usize] = std::mem::take(value);
        }
        rows.push((row as usize + 1, line));
        at = end;
    }
    drop(cells);
    spread_merged(sheet, &mut rows, merged, budget)?;
    rows.retain(|(_, cells)| cells.iter().any(|c| !is_blank(c)));
    pad(sheet, &mut rows, budget)?;
    Ok(rows)
}

/// Gives every row the same width, as a spreadsheet shows them: the widest row's, which
/// is what a reader of the table (and of a CSV export of it) expects. Where that would
/// pass the budget or make a table wider than any header may be
/// ([`headers::MAX_COLUMNS`]: one far cell alone in its row), the rows get the width of
/// the first ten rows instead, where the header is, and the far row keeps its own.
fn pad(sheet: &str, rows: &mut [(usize, Vec<Data>)], budget: &mut Budget) -> Result<(), Text> {
    let extra = |rows: &[(usize, Vec<Data>)], width: usize| -> u64 {
        rows.iter()
            .map(|(_, r)| width.saturating_sub(r.len()) as u64)
            .sum()
    };
    let widest = rows.iter().map(|(_, r)| r.len()).max().unwrap_or(0);
    let width = if widest <= headers::MAX_COLUMNS && extra(rows, widest) <= budget.room() {
        widest
    } else {
        rows.iter()
            .take(10)
            .map(|(_, r)| r.len())
            .filter(|&w| w <= headers::MAX_COLUMNS)
            .max()
            .unwrap_or(0)
    };
    budget.take(extra(rows, width), sheet)?;
    for (_, row) in rows.iter_mut() {
        if row.len() < width {
            row.resize(width, Data::Empty);
        }
    }
    Ok(())
}

/// Excel keeps a merged region's value in its top-left cell only. A region spanning rows
/// (a 单位 or 组别 merged over the players of one club) gives each row below the value of
/// the top row, column by column; a region spanning only columns changes nothing, so a
/// remark merged to the right never lands in a neighbouring field. `rows` are in row
/// order; a row with no cell at all stays out. Regions of a sound workbook do not
/// overlap, so filling them visits each laid-out cell once at most: more visits than
/// [`MAX_CELLS`] are refused rather than spent.
fn spread_merged(
    sheet: &str,
    rows: &mut [(usize, Vec<Data>)],
    merged: &[Dimensions],
    budget: &mut Budget,
) -> Result<(), Text> {
    let mut visits = 0u64;
    for region in merged {
        let (r0, c0) = (region.start.0 as usize + 1, region.start.1 as usize);
        let (r1, c1) = (region.end.0 as usize + 1, region.end.1 as usize);
        if r1 <= r0 {
            continue;
        }
        let Ok(top) = rows.binary_search_by_key(&r0, |(r, _)| *r) else {
            continue;
        };
        let below = top + 1..top + 1 + rows[top + 1..].partition_point(|(r, _)| *r <= r1);
        let last = c1.min(rows[top].1.len().saturating_sub(1));
        for c in c0..=last {
            let value = rows[top].1[c].clone();
            if is_blank(&value) {
                continue;
            }
            for (_, row) in &mut rows[below.clone()] {
                visits += 1;
                if visits > MAX_CELLS {
                    return Err(beyond(Limit::Merged, At::Sheet(sheet), Found::MoreThan));
                }
                if row.len() <= c {
                    budget.take((c + 1 - row.len()) as u64, sheet)?;
                    row.resize(c + 1, Data::Empty);
                }
                if is_blank(&row[c]) {
                    row[c] = value.clone();
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(t: &str) -> Data {
        Data::String(t.into())
    }

    #[test]
    fn a_region_merged_down_gives_every_row_its_value() {
        let cells = vec![
            (1, 0, s("甲")),
            (1, 1, s("婺城区棋协")),
            (1, 2, s("备注")),
            (2, 0, s("乙")),
            (3, 0, s("丙")),
        ];
        let merged = [
            Dimensions::new((1, 1), (3, 1)),
            // Across only: the neighbour stays empty.
            Dimensions::new((3, 1), (3, 2)),
        ];
        let rows = lay_out("a", cells, &merged, &mut Budget::default()).unwrap();
        assert_eq!(rows[1].1[1], s("婺城区棋协"));
        assert_eq!(rows[2].1[1], s("婺城区棋协"));
        assert_eq!(rows[2].1[2], Data::Empty);
    }

    #[test]
    fn a_far_cell_costs_its_row_only_and_rows_keep_their_numbers() {
        let cells = vec![(1_048_575, 16_383, s("x")), (0, 1, s("姓名"))];
        let mut budget = Budget::default();
        let rows = lay_out("a", cells, &[], &mut budget).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].1[..2], [Data::Empty, s("姓名")]);
        assert_eq!(rows[1].0, 1_048_576);
        assert_eq!(rows[1].1.len(), 16_384);
        // Wider than any header: the far row keeps its width alone.
        assert_eq!(rows[0].1.len(), 2);
        assert_eq!(budget.used, 16_386);
        // A note in column H of one row: every row is as wide.
        let cells = vec![(0, 0, s("姓名")), (1, 0, s("甲")), (1, 7, s("备注"))];
        let rows = lay_out("a", cells, &[], &mut Budget::default()).unwrap();
        assert!(rows.iter().all(|(_, r)| r.len() == 8));
        // A thousand rows and the far cell: padding them all would pass the budget, so
        // the table keeps the width of its header rows and the far row its own.
        let mut cells: Vec<_> = (0..1000).map(|r| (r, 2, s("x"))).collect();
        cells.push((1_048_575, 16_383, s("x")));
        let mut budget = Budget::default();
        let rows = lay_out("a", cells, &[], &mut budget).unwrap();
        assert!(rows[..1000].iter().all(|(_, r)| r.len() == 3));
        assert_eq!(rows[1000].1.len(), 16_384);
        assert_eq!(budget.used, 3000 + 16_384);
    }

    #[test]
    fn cells_past_excel_or_the_budget_are_refused() {
        let e = lay_out(
            "表",
            vec![(u32::MAX, 0, s("x"))],
            &[],
            &mut Budget::default(),
        );
        assert!(e.unwrap_err().en.contains("4,294,967,296 rows"));
        let e = lay_out("表", vec![(0, 16_384, s("x"))], &[], &mut Budget::default());
        assert!(e.unwrap_err().en.contains("columns"));
        // 200 rows reaching column XFD: 3.3 million cells.
        let far: Vec<_> = (0..200).map(|r| (r, 16_383, s("x"))).collect();
        let e = lay_out("表", far, &[], &mut Budget::default()).unwrap_err();
        assert!(
            e.en.contains("sheet `表`") && e.en.contains("2,000,000 cells"),
            "{}",
            e.en
        );
    }

    #[test]
    fn a_cell_given_twice_is_refused_naming_it() {
        // Old code: the later value won, and the player of the other was dropped unseen.
        let cells = vec![(0, 0, s("姓名")), (1, 1, s("于一鸣")), (1, 1, s("EVIL"))];
        let e = lay_out("报名表", cells, &[], &mut Budget::default()).unwrap_err();
        assert!(
            e.en.contains("sheet `报名表`: the cell `B2` is given twice"),
            "{}",
            e.en
        );
        assert!(e.zh.contains("单元格 `B2`出现了两次"), "{}", e.zh);
        // An empty cell written twice changes nothing.
        let cells = vec![(0, 0, s("姓名")), (1, 1, Data::Empty), (1, 1, s(" "))];
        assert!(lay_out("报名表", cells, &[], &mut Budget::default()).is_ok());
    }

    #[test]
    fn overlapping_regions_cannot_spend_unbounded_time() {
        let cells: Vec<_> = (0..10_000).map(|r| (r, 0, s("x"))).collect();
        let merged = vec![Dimensions::new((0, 0), (9_999, 0)); 1_000];
        let e = lay_out("表", cells, &merged, &mut Budget::default()).unwrap_err();
        assert!(e.en.contains("merged regions"), "{}", e.en);
    }
}
