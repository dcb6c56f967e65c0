//! Workbooks (.xlsx, .xlsm, .xls, .ods) as the registration importer reads them: each
//! worksheet becomes rows of cells, and each cell the text a CSV export of it would hold.
//!
//! Owns what is peculiar to Excel's storage: numbers typed into text columns (an 18-digit
//! ID number that Excel turned into a float has lost its last digits, and is refused, never
//! guessed), dates kept as serial numbers, booleans, error cells, and merged cells (a 单位
//! merged over several rows belongs to each of them). Must not judge registrations: the
//! rows go through the same checks as a CSV file's (see the parent module).

use super::grid::{Budget, is_blank, lay_out};
use super::headers::Field;
use super::limits::{At, Found, Limit, MAX_CELLS, MAX_SHEETS, MAX_TEXT_BYTES, beyond, guarded};
use super::{ods_scan, xls_scan, xlsx_scan};
use crate::i18n::Text;
use calamine::{Data, DataRef, Dimensions, Ods, Reader, Xls, Xlsx, open_workbook_from_rs};
use std::collections::BTreeSet;
use std::io::Cursor;

/// One worksheet: its name and its non-blank rows.
#[derive(Debug, Clone)]
pub struct Grid {
    /// The worksheet's name.
    pub sheet: String,
    /// (1-based row number as Excel shows it, cells from column A).
    pub rows: Vec<(usize, Vec<Data>)>,
    /// Whether the workbook hides the sheet (hidden or very hidden): an import skips it
    /// unless `--sheet` names it.
    pub hidden: bool,
    /// The rows the sheet hides (by hand or by a filter), as Excel numbers them: an
    /// .xlsx's all, an .ods's and an .xls's those holding content.
    pub hidden_rows: BTreeSet<usize>,
}

/// The names of the sheets a workbook hides.
fn hidden_sheets<R: std::io::Read + std::io::Seek, B: Reader<R>>(book: &B) -> Vec<String> {
    book.sheets_metadata()
        .iter()
        .filter(|s| s.visible != calamine::SheetVisible::Visible)
        .map(|s| s.name.clone())
        .collect()
}

/// Whether `bytes` are a workbook rather than text: a zip container (.xlsx, .xlsm, .ods)
/// or an OLE compound file (.xls).
pub fn is_workbook(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0])
}

/// Column letters of a 0-based column: 0 → `A`, 25 → `Z`, 26 → `AA`.
pub fn column_letters(col: usize) -> String {
    let mut out = Vec::new();
    push_column_letters(&mut out, col);
    String::from_utf8(out).unwrap_or_default()
}

/// [`column_letters`] written onto the end of `out` (the workbook writer's cell
/// references, which go into a byte buffer).
pub fn push_column_letters(out: &mut Vec<u8>, col: usize) {
    let start = out.len();
    let mut n = col + 1;
    while n > 0 {
        let rem = (n - 1) % 26;
        out.push(b'A' + rem as u8);
        n = (n - 1) / 26;
    }
    out[start..].reverse();
}

/// The most a workbook may unpack to (all its parts together): a 100,000-row
/// registration sheet unpacks to well under 100 MB.
pub const MAX_UNPACKED_BYTES: u64 = 256 * 1024 * 1024;
/// The largest unpacked-to-packed ratio of a part over [`RATIO_FLOOR_BYTES`]: real sheets
/// pack 5–30 times; a "zip bomb" packs thousands of times.
pub const MAX_RATIO: u64 = 200;
/// Parts smaller than this are not checked for their ratio.
pub const RATIO_FLOOR_BYTES: u64 = 1024 * 1024;

/// Refuses a workbook that would unpack to more than [`MAX_UNPACKED_BYTES`] or holds a
/// part packed more than [`MAX_RATIO`] times (a "zip bomb"), before it is unpacked.
///
/// The sizes are the central directory's, read by the `zip` crate that calamine unpacks
/// with, so the check sees the archive exactly as the unpacking will (ZIP64 sizes, bytes
/// before the archive, a comment holding a second end record); and that crate stops a
/// part at its declared size, so a part cannot unpack to more than is checked here. A
/// zip it cannot open is left to calamine, which opens it the same way and says so; an
/// .xls (OLE) or text file is not a zip.
fn check_unpacked_size(bytes: &[u8]) -> Result<(), Text> {
    let Ok(archive) = zip::ZipArchive::new(Cursor::new(bytes)) else {
        return Ok(());
    };
    let (mut total, mut bomb) = (0u64, false);
    for i in 0..archive.len() {
        // An index under `len()` is always there.
        let Ok(part) = archive.by_index_data(i) else {
            continue;
        };
        let (packed, unpacked) = (part.compressed_size(), part.size());
        total = total.saturating_add(unpacked);
        bomb |= unpacked > RATIO_FLOOR_BYTES && unpacked > packed.saturating_mul(MAX_RATIO);
    }
    if total > MAX_UNPACKED_BYTES || bomb {
        let mb = total / (1024 * 1024);
        let max = MAX_UNPACKED_BYTES / (1024 * 1024);
        return Err(Text::new(
            format!(
                "解压后有 {mb} MB（上限 {max} MB，或某部分压缩比超过 {MAX_RATIO}:1），不像真实的报名或成绩工作簿，未读取；请用 Excel 另存为 .xlsx 或导出 CSV 后重试"
            ),
            format!(
                "unpacks to {mb} MB (the limit is {max} MB, or a part is packed more than {MAX_RATIO}:1), unlike any real registration or results workbook, so it was not read; save it from Excel as .xlsx or export CSV and try again"
            ),
        ));
    }
    Ok(())
}

/// The kinds of workbook, told apart by their bytes (never by the file's name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Xls,
    Xlsx,
    Ods,
    Xlsb,
}

fn format_of(bytes: &[u8]) -> Format {
    if !bytes.starts_with(b"PK") {
        return Format::Xls;
    }
    let mimetype = xlsx_scan::read_small(bytes, "mimetype", 128).unwrap_or_default();
    if mimetype.starts_with(b"application/vnd.oasis.opendocument") {
        return Format::Ods;
    }
    let has = |part: &str| xlsx_scan::read_small(bytes, part, 0).is_some();
    if has("xl/workbook.bin") {
        Format::Xlsb
    } else if has("content.xml") && !has("[Content_Types].xml") {
        Format::Ods
    } else {
        Format::Xlsx
    }
}

fn cannot_open(e: impl std::fmt::Display) -> Text {
    Text::new(
        format!("无法作为 Excel/WPS/LibreOffice 工作簿读取：{e}；请用 Excel 另存为 .xlsx 后重试"),
        format!(
            "cannot be read as an Excel/WPS/LibreOffice workbook: {e}; save it from Excel as .xlsx and try again"
        ),
    )
}

fn cannot_read_sheet(name: &str, e: impl std::fmt::Display) -> Text {
    Text::new(
        format!("无法读取工作表 `{name}`：{e}"),
        format!("cannot read worksheet `{name}`: {e}"),
    )
}

/// Every worksheet of a workbook, in workbook order, with merged regions spread down.
///
/// Nothing the workbook declares sizes anything: each format is first measured against
/// the limits of `limits.rs` (an .xlsx's parts by `xlsx_scan`, an .xls's records by
/// `xls_scan`, an .ods's repeats by `ods_scan`), then read, and its cells laid out within
/// the workbook's cell budget (`grid.rs`). Every call into the workbook library runs
/// under [`guarded`], so a fault in it is an error, never a crash.
pub fn read_workbook(bytes: &[u8]) -> Result<Vec<Grid>, Text> {
    check_unpacked_size(bytes)?;
    match format_of(bytes) {
        Format::Xlsx => read_xlsx(bytes),
        Format::Xls => {
            let hidden_rows = xls_scan::scan(bytes)?;
            let book = guarded("the workbook", || {
                open_workbook_from_rs::<Xls<_>, _>(Cursor::new(bytes))
            })?
            .map_err(cannot_open)?;
            let hidden_rows = xls_scan::by_name(hidden_rows, book.sheet_names());
            read_laid_out(
                book,
                |book: &mut Xls<_>, name| book.merge_cells_by_sheet_name(name).unwrap_or_default(),
                hidden_rows,
            )
        }
        Format::Ods => {
            xlsx_scan::scan(bytes)?;
            let hidden_rows = ods_scan::scan(bytes)?;
            let book = guarded("the workbook", || {
                open_workbook_from_rs::<Ods<_>, _>(Cursor::new(bytes))
            })?
            .map_err(cannot_open)?;
            read_laid_out(book, |_: &mut Ods<_>, _| Vec::new(), hidden_rows)
        }
        Format::Xlsb => Err(Text::new(
            "是二进制工作簿（.xlsb），不读取；请用 Excel 另存为 .xlsx 后重试",
            "is a binary workbook (.xlsb), which is not read; save it from Excel as .xlsx and try again",
        )),
    }
}

/// An .xls or .ods, which the library has read whole when it opened it (within the
/// limits its scan checked): each sheet's rectangle is taken apart into its cells.
fn read_laid_out<'a, R>(
    mut book: R,
    merged: impl Fn(&mut R, &str) -> Vec<Dimensions>,
    mut hidden_rows: ods_scan::HiddenRows,
) -> Result<Vec<Grid>, Text>
where
    R: Reader<Cursor<&'a [u8]>>,
    R::Error: std::fmt::Display,
{
    let names = book.sheet_names();
    if names.len() > MAX_SHEETS {
        let found = Found::Counted(names.len() as u64);
        return Err(beyond(Limit::Sheets, At::Workbook, found));
    }
    let hidden = hidden_sheets(&book);
    let mut budget = Budget::default();
    let mut grids = Vec::with_capacity(names.len());
    for name in names {
        let what = format!("sheet `{name}`");
        let range = guarded(&what, || book.worksheet_range(&name))?
            .map_err(|e| cannot_read_sheet(&name, e))?;
        let (top, left) = range.start().unwrap_or((0, 0));
        let cells: Vec<(u32, u32, Data)> = range
            .used_cells()
            .map(|(r, c, v)| (top + r as u32, left + c as u32, v.clone()))
            .collect();
        drop(range);
        let merged = guarded(&what, || merged(&mut book, &name))?;
        let rows = lay_out(&name, cells, &merged, &mut budget)?;
        let hidden = hidden.contains(&name);
        let hidden_rows = hidden_rows.remove(&name).unwrap_or_default();
        grids.push(Grid {
            sheet: name,
            rows,
            hidden,
            hidden_rows,
        });
    }
    Ok(grids)
}

/// An .xlsx or .xlsm, read a cell at a time: only the cells with a value are kept, and
/// no more than [`MAX_CELLS`] of them, with no more than [`MAX_TEXT_BYTES`] of text.
fn read_xlsx(bytes: &[u8]) -> Result<Vec<Grid>, Text> {
    // First: it reads only the central directory and the workbook's list of sheets.
    xlsx_scan::check_listed_sheets(bytes)?;
    let any_merged = xlsx_scan::scan(bytes)?;
    let mut hidden_rows = xlsx_scan::check_listed_positions(bytes)?;
    let mut book = guarded("the workbook", || {
        open_workbook_from_rs::<Xlsx<_>, _>(Cursor::new(bytes))
    })?
    .map_err(cannot_open)?;
    let names = book.sheet_names();
    if names.len() > MAX_SHEETS {
        let found = Found::Counted(names.len() as u64);
        return Err(beyond(Limit::Sheets, At::Workbook, found));
    }
    let hidden = hidden_sheets(&book);
    let (mut budget, mut kept) = (Budget::default(), Kept::default());
    let mut grids = Vec::with_capacity(names.len());
    for name in names {
        let what = format!("sheet `{name}`");
        let cells = guarded(&what, || xlsx_cells(&mut book, &name, &mut kept))??;
        let merged = if any_merged {
            guarded(&what, || {
                book.merge_cells_by_sheet_name(&name).unwrap_or_default()
            })?
        } else {
            Vec::new()
        };
        let rows = lay_out(&name, cells, &merged, &mut budget)?;
        let hidden = hidden.contains(&name);
        let hidden_rows = hidden_rows.remove(&name).unwrap_or_default();
        grids.push(Grid {
            sheet: name,
            rows,
            hidden,
            hidden_rows,
        });
    }
    Ok(grids)
}

/// The cells and text an .xlsx has given so far, all sheets together.
#[derive(Default)]
struct Kept {
    cells: u64,
    text: u64,
}

fn xlsx_cells(
    book: &mut Xlsx<Cursor<&[u8]>>,
    name: &str,
    kept: &mut Kept,
) -> Result<Vec<(u32, u32, Data)>, Text> {
    let mut reader = match book.worksheet_cells_reader(name) {
        Ok(reader) => reader,
        // A chart sheet: no cells.
        Err(calamine::XlsxError::NotAWorksheet(_)) => return Ok(Vec::new()),
        Err(e) => return Err(cannot_read_sheet(name, e)),
    };
    let mut cells = Vec::new();
    while let Some(cell) = reader.next_cell().map_err(|e| cannot_read_sheet(name, e))? {
        let value = cell.get_value();
        let text = match value {
            DataRef::Empty => continue,
            DataRef::SharedString(s) => s.len(),
            DataRef::String(s) | DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => s.len(),
            _ => 0,
        };
        kept.cells += 1;
        kept.text += text as u64;
        if kept.cells > MAX_CELLS {
            return Err(beyond(Limit::Cells, At::Sheet(name), Found::MoreThan));
        }
        if kept.text > MAX_TEXT_BYTES {
            return Err(beyond(Limit::Text, At::Sheet(name), Found::MoreThan));
        }
        let (row, col) = cell.get_position();
        cells.push((row, col, Data::from(value.clone())));
    }
    Ok(cells)
}

/// The first worksheet holding data, as CSV text whose line N is the sheet's row N (blank
/// lines stand for the rows above the table and blank rows), so a reader of CSV that
/// names lines names the sheet's rows. Used for results sheets (`result --from x.xlsx`),
/// whose reader is the CSV one. Returns the sheet's name and the text.
pub fn first_sheet_as_csv(bytes: &[u8]) -> Result<(String, String), Text> {
    let grids = read_workbook(bytes)?;
    let Some(grid) = grids.into_iter().find(|g| !g.rows.is_empty()) else {
        return Err(Text::new(
            "工作簿中没有任何数据",
            "the workbook holds no data",
        ));
    };
    // Title rows above the table (one merged cell each) are left out: the header is the
    // first row with two cells or more.
    let header = grid
        .rows
        .iter()
        .take(10)
        .position(|(_, cells)| cells.iter().filter(|c| !is_blank(c)).count() >= 2)
        .unwrap_or(0);
    let mut out = String::new();
    let mut line = 1;
    for (row, cells) in grid.rows.iter().skip(header) {
        while line < *row {
            out.push('\n');
            line += 1;
        }
        let mut texts = Vec::with_capacity(cells.len());
        for (c, cell) in cells.iter().enumerate() {
            let text = cell_text(cell, None).map_err(|e| {
                let at = format!("{}!{}{row}", grid.sheet, column_letters(c));
                Text::new(format!("{at}：{}", e.zh), format!("{at}: {}", e.en))
            })?;
            texts.push(text.replace(['\n', '\r'], " "));
        }
        let mut w = csv::WriterBuilder::new()
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        let _ = w.write_record(&texts);
        let record = w
            .into_inner()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        out.push_str(&record);
        line += 1;
    }
    Ok((grid.sheet, out))
}

/// A whole number as Excel stores it (a float), written without `.0`.
fn whole(f: f64) -> Option<i64> {
    (f.fract() == 0.0 && f.abs() < 1e15).then_some(f as i64)
}

/// Why a name cell holds no name: a number, date or TRUE in it is a value pasted into the
/// wrong column or typed where a name belonged, never a name to import as `12345`. `None`
/// for a cell of text (or an empty one).
pub fn not_text(cell: &Data) -> Option<Text> {
    use super::values::NotText;
    let what = match cell {
        Data::Bool(_) => NotText::TruthValue,
        Data::Int(_) | Data::Float(_) => NotText::Number,
        Data::DateTime(_) | Data::DateTimeIso(_) | Data::DurationIso(_) => NotText::DateOrTime,
        _ => return None,
    };
    Some(what.refusal())
}

/// The text of a cell for `field` (the column's field, `None` for an extra column), as the
/// CSV path would read it; an error for a value Excel has already damaged, or for a name
/// cell that holds no text ([`not_text`]).
pub fn cell_text(cell: &Data, field: Option<Field>) -> Result<String, Text> {
    if field == Some(Field::Name)
        && let Some(message) = not_text(cell)
    {
        return Err(message);
    }
    match cell {
        Data::Empty => Ok(String::new()),
        Data::String(s) => Ok(s.clone()),
        Data::Bool(b) => Ok(if *b { "是" } else { "否" }.to_string()),
        Data::Int(i) => number_text(*i as f64, field).map(|t| t.unwrap_or_else(|| i.to_string())),
        Data::Float(f) => number_text(*f, field).map(|t| t.unwrap_or_else(|| float_text(*f))),
        // A result typed as 1:0 or fouls as 0:2 become times in Excel: given back as typed.
        Data::DateTime(dt) if dt.as_f64() >= 0.0 && dt.as_f64() < 1.0 => {
            let (.., h, m, _, _) = dt.to_ymd_hms_milli();
            Ok(format!("{h}:{m}"))
        }
        Data::DateTime(dt) if dt.is_datetime() => {
            let (y, m, d, ..) = dt.to_ymd_hms_milli();
            Ok(format!("{y:04}-{m:02}-{d:02}"))
        }
        Data::DateTime(dt) => Ok(float_text(dt.as_f64())),
        Data::DateTimeIso(s) => Ok(s.split('T').next().unwrap_or(s).to_string()),
        Data::DurationIso(s) => Ok(s.clone()),
        Data::Error(e) => Err(Text::new(
            format!("单元格是 Excel 错误值 `{e}`；请改正公式或直接填写数值"),
            format!("the cell holds the Excel error `{e}`; correct the formula or type the value"),
        )),
    }
}

/// A float as typed: `1500` for 1500.0, `1966.12` for 1966.12.
fn float_text(f: f64) -> String {
    match whole(f) {
        Some(i) => i.to_string(),
        None => format!("{f}"),
    }
}

/// The checks on numbers that only a workbook can get wrong; `Ok(None)` means the plain
/// text of the number is right.
fn number_text(f: f64, field: Option<Field>) -> Result<Option<String>, Text> {
    match field {
        // Excel keeps 15 significant digits: an 18-digit ID number typed into a number
        // cell is stored as 3.30702196612250E+17, its last three digits gone. Any of
        // 1000 numbers could have been meant, so the row is refused, never guessed.
        Some(Field::IdNumber) if f.abs() >= 1e15 => Err(Text::new(
            format!(
                "身份证号被 Excel 存成了数字 `{}`，末几位已丢失（Excel 只保留 15 位有效数字）：请把该列设置为“文本”格式，重新输入这些号码后再导入",
                float_text(f)
            ),
            format!(
                "the ID number was stored by Excel as the number `{}` and has lost its last digits (Excel keeps 15 significant digits): format the column as text, type the numbers again and import again",
                float_text(f)
            ),
        )),
        // 1966.10 typed as a number is stored as 1966.1, the same as 1966.1 for January.
        Some(Field::BirthDate) if whole(f).is_none() && format!("{f}").ends_with(".1") => {
            Err(Text::new(
                format!(
                    "出生年月 `{f}` 存成了数字，无法区分 1 月和 10 月（Excel 去掉了末尾的 0）：请把该列设置为“文本”格式，或写成 {}-01 / {}-10",
                    f.trunc(),
                    f.trunc()
                ),
                format!(
                    "birth month `{f}` was stored as a number, so January and October look the same (Excel dropped the trailing 0): format the column as text, or write {}-01 or {}-10",
                    f.trunc(),
                    f.trunc()
                ),
            ))
        }
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use calamine::{ExcelDateTime, ExcelDateTimeType};

    /// A zip holding one stored part with the given declared sizes.
    fn zip_with(packed: u32, unpacked: u32) -> Vec<u8> {
        let mut z = b"PK\x03\x04".to_vec();
        z.extend_from_slice(&[0; 26]);
        let cd = z.len() as u32;
        z.extend_from_slice(b"PK\x01\x02");
        z.extend_from_slice(&[0; 16]);
        z.extend_from_slice(&packed.to_le_bytes());
        z.extend_from_slice(&unpacked.to_le_bytes());
        z.extend_from_slice(&1u16.to_le_bytes()); // name length
        z.extend_from_slice(&[0; 16]);
        z.push(b'a');
        let cd_len = z.len() as u32 - cd;
        z.extend_from_slice(b"PK\x05\x06");
        z.extend_from_slice(&[0; 4]);
        z.extend_from_slice(&1u16.to_le_bytes());
        z.extend_from_slice(&1u16.to_le_bytes());
        z.extend_from_slice(&cd_len.to_le_bytes());
        z.extend_from_slice(&cd.to_le_bytes());
        z.extend_from_slice(&[0; 2]);
        z
    }

    #[test]
    fn zip_bombs_are_refused_before_unpacking() {
        assert!(check_unpacked_size(&zip_with(3_000_000, 20_000_000)).is_ok());
        // 3 MB packed, 3 GB unpacked (tester repro 9).
        let bomb = check_unpacked_size(&zip_with(3_000_000, 3_000_000_000)).unwrap_err();
        assert!(bomb.en.contains("2861 MB"), "{}", bomb.en);
        assert!(bomb.zh.contains("解压后"));
        // Under the total cap but packed 1,000 times.
        assert!(check_unpacked_size(&zip_with(10_000, 10_000_000)).is_err());
        assert!(read_workbook(&zip_with(10_000, 10_000_000)).is_err());
        // Bytes before the archive (a 30-byte stray local header): the zip crate finds the
        // archive after them, and so must the check (the hand-written central-directory
        // reader this replaced looked at the wrong offset and let the bomb through).
        let mut prefixed = b"PK\x03\x04".to_vec();
        prefixed.extend_from_slice(&[0; 26]);
        prefixed.extend(zip_with(10_000, 10_000_000));
        assert!(check_unpacked_size(&prefixed).is_err());
        // Not a zip: left to the workbook reader.
        assert!(check_unpacked_size(b"name,group\n").is_ok());
    }

    #[test]
    fn letters() {
        for (col, want) in [
            (0, "A"),
            (2, "C"),
            (25, "Z"),
            (26, "AA"),
            (701, "ZZ"),
            (702, "AAA"),
            (16_383, "XFD"),
        ] {
            assert_eq!(column_letters(col), want);
        }
    }

    #[test]
    fn cells_become_the_text_a_csv_would_hold() {
        let date = Data::DateTime(ExcelDateTime::new(
            24466.0,
            ExcelDateTimeType::DateTime,
            false,
        ));
        let cases: Vec<(Data, Option<Field>, Result<&str, &str>)> = vec![
            (date, Some(Field::BirthDate), Ok("1966-12-25")),
            (
                Data::Float(19661225.0),
                Some(Field::BirthDate),
                Ok("19661225"),
            ),
            (Data::Float(1966.12), Some(Field::BirthDate), Ok("1966.12")),
            (
                Data::Float(1966.1),
                Some(Field::BirthDate),
                Err("January and October"),
            ),
            (
                Data::Float(13812345678.0),
                Some(Field::Phone),
                Ok("13812345678"),
            ),
            (
                Data::Int(13812345678),
                Some(Field::Phone),
                Ok("13812345678"),
            ),
            (Data::Float(1500.0), Some(Field::Rating), Ok("1500")),
            (
                Data::Float(330702196612250000.0),
                Some(Field::IdNumber),
                Err("lost its last digits"),
            ),
            (
                Data::Int(330702196612251234),
                Some(Field::IdNumber),
                Err("lost its last digits"),
            ),
            (
                Data::Float(330702661225123.0),
                Some(Field::IdNumber),
                Ok("330702661225123"),
            ),
            (Data::Bool(true), Some(Field::Disabled), Ok("是")),
            (Data::String("张三 ".into()), Some(Field::Name), Ok("张三 ")),
            (
                Data::DateTimeIso("1966-12-25T00:00:00".into()),
                None,
                Ok("1966-12-25"),
            ),
            (
                Data::Error(calamine::CellErrorType::NA),
                None,
                Err("Excel error"),
            ),
        ];
        for (cell, field, want) in cases {
            let got = cell_text(&cell, field);
            match (got, want) {
                (Ok(text), Ok(w)) => assert_eq!(text, w, "{cell:?}"),
                (Err(e), Err(w)) => assert!(e.en.contains(w), "{cell:?}: {}", e.en),
                (got, want) => panic!("{cell:?}: got {got:?}, want {want:?}"),
            }
        }
    }
}
