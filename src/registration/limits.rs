//! The limits a workbook must keep before it is laid out in memory, the refusal that
//! names the sheet and the limit, and the guard that keeps a panic inside the workbook
//! library (calamine) from reaching the user.
//!
//! Owns the numbers and the messages only: the scans that measure a workbook against them
//! are `xlsx_scan.rs`, `xls_scan.rs` and `ods_scan.rs`, and `grid.rs` keeps to them while
//! it lays cells out. A count a file declares (a dimension, a string count) is never used
//! to size anything: only what is counted in the file's bytes is.

use crate::i18n::Text;

/// The most worksheets a workbook may hold (a county's registration book has a handful).
pub const MAX_SHEETS: usize = 64;
/// The most cells a workbook may lay out, all sheets together: each row's cells from
/// column A to its last non-blank cell (for an .xls or .ods, every cell of the rectangle
/// its reader lays out). 100,000 players of 20 columns are 2,000,000.
pub const MAX_CELLS: u64 = 2_000_000;
/// The most cells the workbook library may lay out as the rectangle of an .ods or .xls
/// sheet, all sheets together. The library holds every cell of that rectangle several
/// times over (the values and the formulas, as read and as laid out), about four times
/// what a streamed .xlsx cell costs: a rectangle of 1,900,000 cells peaked at 337 MB.
/// 100,000 players of 10 columns are 1,000,000.
pub const MAX_RECTANGLE_CELLS: u64 = 1_000_000;
/// The most shared strings (distinct texts) a workbook may declare or hold: never more
/// than the cells that could use them.
pub const MAX_SHARED_STRINGS: u64 = MAX_CELLS;
/// The most merged regions a worksheet may hold.
pub const MAX_MERGED: u64 = 100_000;
/// The most rows a worksheet has in Excel (row 1,048,576 is the last).
pub const MAX_ROWS: u64 = 1_048_576;
/// The most columns a worksheet has in Excel (column XFD is the 16,384th).
pub const MAX_COLUMNS: u64 = 16_384;

/// The most bytes of cell text a workbook may lay out, all sheets together (a text used
/// by many cells counts for each): 100,000 players are about 15 MB.
pub const MAX_TEXT_BYTES: u64 = 64 * 1024 * 1024;
/// The most entries of one kind (cell formats, fonts, relationships, defined names, …)
/// one part of a workbook may hold; Excel itself allows 64,000 cell formats.
pub const MAX_ENTRIES: u64 = 100_000;

/// What a limit counts, for the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// [`MAX_SHEETS`].
    Sheets,
    /// [`MAX_CELLS`].
    Cells,
    /// [`MAX_RECTANGLE_CELLS`].
    Rectangle,
    /// [`MAX_SHARED_STRINGS`].
    SharedStrings,
    /// [`MAX_MERGED`].
    Merged,
    /// [`MAX_ROWS`].
    Rows,
    /// [`MAX_COLUMNS`].
    Columns,
    /// [`MAX_ENTRIES`]: entries of one kind in one part (styles, relationships, …).
    Entries,
    /// [`MAX_TEXT_BYTES`].
    Text,
}

impl Limit {
    /// The limit's value.
    pub fn max(self) -> u64 {
        match self {
            Limit::Sheets => MAX_SHEETS as u64,
            Limit::Cells => MAX_CELLS,
            Limit::Rectangle => MAX_RECTANGLE_CELLS,
            Limit::SharedStrings => MAX_SHARED_STRINGS,
            Limit::Merged => MAX_MERGED,
            Limit::Rows => MAX_ROWS,
            Limit::Columns => MAX_COLUMNS,
            Limit::Entries => MAX_ENTRIES,
            Limit::Text => MAX_TEXT_BYTES,
        }
    }

    fn words(self) -> (&'static str, &'static str) {
        match self {
            Limit::Sheets => ("个工作表", "worksheets"),
            Limit::Cells | Limit::Rectangle => ("个单元格", "cells"),
            Limit::SharedStrings => ("个共享字符串", "shared strings"),
            Limit::Merged => ("个合并区域", "merged regions"),
            Limit::Rows => ("行", "rows"),
            Limit::Columns => ("列", "columns"),
            Limit::Entries => ("个条目", "entries"),
            Limit::Text => ("字节的文字", "bytes of text"),
        }
    }
}

/// Where in a workbook a limit was passed.
#[derive(Debug, Clone, Copy)]
pub enum At<'a> {
    /// The workbook as a whole.
    Workbook,
    /// A worksheet, by name.
    Sheet(&'a str),
    /// A part of the container (`xl/styles.xml`), with what was counted in it (`xf`).
    Part(&'a str, &'a str),
}

/// How much of something a workbook has.
#[derive(Debug, Clone, Copy)]
pub enum Found {
    /// Counted in the file: exactly this many.
    Counted(u64),
    /// Counted until the limit was passed: more than the limit.
    MoreThan,
    /// Declared by the file (a count or a dimension), not yet counted.
    Declared(u64),
}

/// `n` with its thousands grouped (`4,294,967,295`): easier to read, and never taken
/// for an ID or phone number by the masking of long digit runs in messages.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// The refusal of a workbook that goes past `limit` at `at`.
pub fn beyond(limit: Limit, at: At<'_>, found: Found) -> Text {
    let (zh_what, en_what) = limit.words();
    let max = grouped(limit.max());
    let (zh_where, en_where) = match at {
        At::Sheet(s) => (format!("工作表 `{s}` "), format!("sheet `{s}` ")),
        At::Workbook => ("工作簿".to_string(), "the workbook ".to_string()),
        At::Part(p, e) => (
            format!("工作簿部件 `{p}` 的 `{e}` "),
            format!("the workbook part `{p}` (`{e}`) "),
        ),
    };
    let (zh_verb, en_verb, found) = match found {
        Found::Counted(n) => ("有", "holds", grouped(n)),
        Found::MoreThan => ("有超过", "holds more than", max.clone()),
        Found::Declared(n) => ("声明了", "declares", grouped(n)),
    };
    Text::new(
        format!(
            "{zh_where}{zh_verb} {found} {zh_what}，超过上限 {max}（真实的报名或成绩表远小于此），未读取；请删去多余的内容，或用 Excel 另存为 .xlsx 或导出 CSV 后重试"
        ),
        format!(
            "{en_where}{en_verb} {found} {en_what}, more than the limit of {max} (a real registration or results sheet is far smaller), so it was not read; delete what is not part of the table, or save it from Excel as .xlsx or export CSV, and try again"
        ),
    )
}

/// A cell reference or row number as a message shows it: its column letters (cut) and
/// its row's digits grouped, so a row number is never taken for a phone number.
pub fn shown_reference(written: &str) -> String {
    let written = written.trim();
    let letters: String = written
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .collect();
    let digits = &written[letters.len()..];
    let letters = if letters.chars().count() > 8 {
        format!("{}…", letters.chars().take(8).collect::<String>())
    } else {
        letters
    };
    let digits = if digits.bytes().all(|b| b.is_ascii_digit()) {
        let trimmed = digits.trim_start_matches('0');
        match trimmed.parse::<u64>() {
            Ok(n) => grouped(n),
            Err(_) if trimmed.is_empty() => digits.to_string(),
            Err(_) => format!("{}…", &trimmed[..6]),
        }
    } else {
        digits.chars().take(12).collect()
    };
    format!("{letters}{digits}")
}

/// A row or cell of `sheet` placed past Excel's last row (1,048,576) or column (XFD,
/// the 16,384th): `what` is `row` or `cell`, `written` the number or reference as the
/// file writes it. Refused, never wrapped round onto a row of the table.
pub fn off_the_sheet(sheet: &str, cell: bool, written: &str) -> Text {
    let at = shown_reference(written);
    let (rows, cols) = (grouped(MAX_ROWS), grouped(MAX_COLUMNS));
    let (zh_what, en_what) = if cell {
        (format!("单元格 `{at}`"), format!("the cell `{at}`"))
    } else {
        (format!("行号 `{at}`"), format!("the row number `{at}`"))
    };
    Text::new(
        format!(
            "工作表 `{sheet}` 中{zh_what}超出 Excel 的范围（最多 {rows} 行、{cols} 列，最后一格是 XFD1048576），工作簿已损坏或被改动，未读取；请用 Excel 打开后另存为 .xlsx 再重试"
        ),
        format!(
            "sheet `{sheet}`: {en_what} is beyond Excel's last row or column ({rows} rows, {cols} columns, the last cell being XFD1048576); the workbook is damaged or was tampered with, so it was not read; open it in Excel, save it as .xlsx and try again"
        ),
    )
}

/// A row or cell of `sheet` given twice (`what`: `第 3 行`/`row 3`, or a cell `B3`):
/// which of the two is meant cannot be told, so neither is kept.
pub fn given_twice(sheet: &str, zh_what: &str, en_what: &str) -> Text {
    Text::new(
        format!(
            "工作表 `{sheet}` 中{zh_what}出现了两次，无法判断以哪一个为准，工作簿已损坏或被改动，未读取；请用 Excel 打开后另存为 .xlsx 再重试"
        ),
        format!(
            "sheet `{sheet}`: {en_what} is given twice, and which one is meant cannot be told; the workbook is damaged or was tampered with, so it was not read; open it in Excel, save it as .xlsx and try again"
        ),
    )
}

/// A workbook whose structure is damaged in a way the reader would trip on.
pub fn damaged(sheet: Option<&str>, zh: &str, en: &str) -> Text {
    let (zh_where, en_where) = match sheet {
        Some(s) => (format!("工作表 `{s}`："), format!("sheet `{s}`: ")),
        None => (String::new(), String::new()),
    };
    Text::new(
        format!("{zh_where}工作簿已损坏（{zh}），未读取；请用 Excel 打开后另存为 .xlsx 再重试"),
        format!(
            "{en_where}the workbook is damaged ({en}), so it was not read; open it in Excel, save it as .xlsx and try again"
        ),
    )
}

/// Runs a call into the workbook library; a panic inside it becomes an error naming
/// `what` was being read, kept off standard error (`panics::contain`, the owner of the
/// process's panic hook). The panic's payload is only quoted, never acted on.
pub fn guarded<T>(what: &str, call: impl FnOnce() -> T) -> Result<T, Text> {
    crate::panics::contain(call).map_err(|panic| {
        let detail: String = panic.payload.chars().take(200).collect();
        Text::new(
            format!(
                "读取{what}时工作簿读取库出错（{detail}），工作簿可能已损坏，未读取；请用 Excel 打开后另存为 .xlsx 再重试"
            ),
            format!(
                "the workbook library failed while reading {what} ({detail}); the workbook is probably damaged and was not read; open it in Excel, save it as .xlsx and try again"
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_the_guard_is_an_error_and_the_guard_can_be_used_again() {
        let e = guarded("sheet `x`", || -> u32 { panic!("index out of bounds") }).unwrap_err();
        assert!(e.en.contains("sheet `x`"), "{}", e.en);
        assert!(e.en.contains("index out of bounds"), "{}", e.en);
        assert!(e.zh.contains("工作簿"));
        assert_eq!(guarded("b", || 7).unwrap(), 7);
    }

    #[test]
    fn refusals_name_the_sheet_and_the_limit() {
        let t = beyond(Limit::Cells, At::Sheet("报名表"), Found::Counted(5_000_000));
        assert!(
            t.en.contains("sheet `报名表` holds 5,000,000 cells"),
            "{}",
            t.en
        );
        assert!(t.en.contains("limit of 2,000,000"), "{}", t.en);
        assert!(
            t.zh.contains("报名表") && t.zh.contains("2,000,000"),
            "{}",
            t.zh
        );
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        let t = beyond(
            Limit::SharedStrings,
            At::Workbook,
            Found::Declared(4_294_967_295),
        );
        assert!(
            t.en.contains("declares 4,294,967,295 shared strings"),
            "{}",
            t.en
        );
    }
}
