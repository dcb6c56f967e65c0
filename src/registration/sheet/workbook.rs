//! Reading a workbook: each worksheet with a header row (or the one `--sheet` names),
//! hidden sheets skipped with a note, and the refusals of a workbook with no sheet to
//! read; each sheet's rows then go through `Sheet::read_records` as a CSV file's do.

use super::{Sheet, header_row};
use crate::i18n::Text;
use crate::registration::headers::{self, Field};
use crate::registration::{FileRead, Place, RowError, limit, normalise, xlsx};

/// The refusal of a workbook whose only sheets with a header row (`hidden`, in workbook
/// order) are hidden, so none was read: it names them and how to import one (`--sheet`,
/// the name quoted for the shell), instead of saying no sheet has a header. `listed`:
/// every sheet, as the other refusals list them.
fn only_hidden_headed(hidden: &[String], listed: &str) -> Text {
    let names_zh = hidden
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join("、");
    let names_en = hidden
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let flags = |or: &str| {
        hidden
            .iter()
            .map(|n| crate::sanitize::shell_option("--sheet", n))
            .collect::<Vec<_>>()
            .join(or)
    };
    match hidden {
        [_] => Text::new(
            format!(
                "含 姓名/name 列表头行的工作表 {names_zh} 是隐藏的，未读取，其他工作表都没有表头行（工作表：{listed}）；若要导入它，请在 Excel 中取消隐藏，或加 {}",
                flags("")
            ),
            format!(
                "the sheet with a header row (a 姓名/name column), {names_en}, is hidden and was not read, and no other sheet has one (sheets: {listed}); to import it, unhide it in Excel or pass {}",
                flags("")
            ),
        ),
        _ => Text::new(
            format!(
                "含 姓名/name 列表头行的工作表 {names_zh} 都是隐藏的，未读取，其他工作表都没有表头行（工作表：{listed}）；若要导入，请在 Excel 中取消隐藏，或逐个加 {}",
                flags(" 或 ")
            ),
            format!(
                "the sheets with a header row (a 姓名/name column), {names_en}, are hidden and were not read, and no other sheet has one (sheets: {listed}); to import them, unhide them in Excel or pass one at a time: {}",
                flags(" or ")
            ),
        ),
    }
}

impl Sheet<'_> {
    /// Reads the worksheets of a workbook that have a header row (or only `only`).
    pub(in crate::registration) fn read_workbook(
        &mut self,
        file: &str,
        bytes: &[u8],
        only: Option<&str>,
        read: &mut FileRead,
    ) {
        let players_before = self.players.len();
        self.counts_off.clear();
        let whole_file = |text: Text| RowError {
            place: Some(Box::new(Place {
                file: file.to_string(),
                sheet: None,
                col: None,
            })),
            ..RowError::new(1, None, None, text)
        };
        let grids = match xlsx::read_workbook(bytes) {
            Ok(g) => g,
            Err(text) => {
                self.errors.push(whole_file(text));
                return;
            }
        };
        let all: Vec<String> = grids.iter().map(|g| g.sheet.clone()).collect();
        let listed = all
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        if let Some(want) = only
            && !all.iter().any(|n| n == want)
        {
            self.errors.push(whole_file(Text::new(
                format!("工作簿中没有工作表 `{want}`；工作表有：{listed}"),
                format!("the workbook has no sheet `{want}`; its sheets are {listed}"),
            )));
            return;
        }
        // The hidden sheets skipped that have a header row: when no other sheet has one,
        // the refusal names them instead of saying no sheet has a header.
        let mut hidden_headed: Vec<String> = Vec::new();
        // By value, each row dropped once it is text: the cells and their text are not
        // held twice for a whole workbook.
        for grid in grids {
            if only.is_some_and(|want| want != grid.sheet) {
                continue;
            }
            if self.errors.stopped() {
                return;
            }
            let first: Vec<(usize, Vec<String>)> = grid
                .rows
                .iter()
                .take(10)
                .map(|(line, cells)| {
                    let text = cells
                        .iter()
                        .map(|c| xlsx::cell_text(c, None).unwrap_or_default())
                        .collect();
                    (*line, text)
                })
                .collect();
            // A hidden sheet (an old list, a lookup table) is not what the organiser sees
            // as the registration: said, and read only when `--sheet` names it.
            if grid.hidden && only.is_none() {
                if header_row(&first).is_some() {
                    hidden_headed.push(grid.sheet.clone());
                }
                self.warnings.push(whole_file(Text::new(
                    format!(
                        "工作表 `{0}` 是隐藏的，未读取；若要导入它，请取消隐藏，或加 {1}",
                        grid.sheet,
                        crate::sanitize::shell_option("--sheet", &grid.sheet)
                    ),
                    format!(
                        "sheet `{0}` is hidden and was not read; to import it, unhide it or pass {1}",
                        grid.sheet,
                        crate::sanitize::shell_option("--sheet", &grid.sheet)
                    ),
                )));
                continue;
            }
            self.errors.next_part();
            self.not_text.clear();
            let Some(h) = header_row(&first) else {
                if only.is_some() {
                    self.errors.push(whole_file(Text::new(
                        format!("工作表 `{}` 中没有含 姓名/name 列的表头行", grid.sheet),
                        format!(
                            "sheet `{}` has no header row with a 姓名/name column",
                            grid.sheet
                        ),
                    )));
                }
                read.skipped.push(grid.sheet.clone());
                continue;
            };
            self.at = Some(Place {
                file: file.to_string(),
                sheet: Some(grid.sheet.clone()),
                col: None,
            });
            let two_rows = first
                .get(h + 1)
                .and_then(|(_, next)| headers::two_row_header(&first[h].1, next));
            let header = two_rows.as_ref().unwrap_or(&first[h].1);
            let fields: Vec<Option<Field>> = header
                .iter()
                .map(|c| headers::field_of(&normalise::clean(c)))
                .collect();
            // The title rows above the header come too: one may state the head count.
            let mut records = first[..=h].to_vec();
            let mut rows = 0;
            for (line, cells) in grid.rows.into_iter().skip(h + 1) {
                if self.stop_before(line) {
                    break;
                }
                let mut row = Vec::with_capacity(cells.len());
                let mut ok = true;
                for (i, cell) in cells.iter().enumerate() {
                    let place = || {
                        Some(Box::new(Place {
                            file: file.to_string(),
                            sheet: Some(grid.sheet.clone()),
                            col: Some(i),
                        }))
                    };
                    let mut field = fields.get(i).copied().flatten();
                    // A number or date under 姓名 is read as the CSV path reads it, and
                    // refused only if its row is read as a player's: under the list it
                    // may be a footer's count (`合计 | 3`) or a date line.
                    if field == Some(Field::Name)
                        && let Some(message) = xlsx::not_text(cell)
                    {
                        self.not_text.entry(line).or_default().push(RowError {
                            place: place(),
                            ..RowError::new(
                                line,
                                header.get(i).map(|h| normalise::clean(h)),
                                None,
                                message,
                            )
                        });
                        field = None;
                    }
                    match xlsx::cell_text(cell, field) {
                        Ok(text) => row.push(text),
                        Err(message) => {
                            ok = false;
                            self.errors.push(RowError {
                                place: place(),
                                ..RowError::new(
                                    line,
                                    header.get(i).map(|h| normalise::clean(h)),
                                    None,
                                    message,
                                )
                            });
                        }
                    }
                }
                rows += usize::from(limit::may_be_player(&row));
                if self.limit.rows_exceed(self.players.len(), rows) {
                    self.errors.push(RowError {
                        place: Some(Box::new(Place {
                            file: file.to_string(),
                            sheet: Some(grid.sheet.clone()),
                            col: None,
                        })),
                        ..RowError::new(line, None, None, self.limit.stopped(line))
                    });
                    return;
                }
                if ok {
                    records.push((line, row));
                } else {
                    // The row is refused for another cell: its name is refused with it.
                    if let Some(refused) = self.not_text.remove(&line) {
                        self.errors.extend(refused);
                    }
                }
            }
            self.hidden_rows = grid.hidden_rows;
            let map = self.read_records(&records, h);
            self.hidden_rows.clear();
            self.finish_part(map.as_ref());
            read.sheets.push(grid.sheet.clone());
        }
        // A sheet's count that is not its own but the whole workbook's (the last sheet
        // states 共300人 for three sheets of 100) is no lost row: not warned about.
        let total = self.players.len() - players_before;
        let whole: Vec<usize> = self
            .counts_off
            .drain(..)
            .filter(|&(_, stated)| stated == total)
            .map(|(warning, _)| warning)
            .collect();
        // Last first, so that the earlier indices stay where they were.
        for &warning in whole.iter().rev() {
            self.warnings.remove(warning);
        }
        if read.sheets.is_empty()
            && only.is_none()
            && !self.errors.stopped()
            && !hidden_headed.is_empty()
        {
            self.errors
                .push(whole_file(only_hidden_headed(&hidden_headed, &listed)));
        } else if read.sheets.is_empty() && only.is_none() && !self.errors.stopped() {
            self.errors.push(whole_file(Text::new(
                format!(
                    "工作簿中没有一个工作表含有 姓名/name 列的表头行（工作表：{listed}）；表头行须写出各列名称，例如 姓名,性别,单位,组别"
                ),
                format!(
                    "no sheet of the workbook has a header row with a 姓名/name column (sheets: {listed}); the header row must name the columns, e.g. 姓名,性别,单位,组别"
                ),
            )));
        }
    }
}
