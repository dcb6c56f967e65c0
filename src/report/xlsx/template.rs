//! The registration workbook of `qiwang template --format xlsx`: a header and example
//! row, text-formatted ID and phone columns, drop-down lists and per-column hints.
//!
//! Made with rust_xlsxwriter, unlike the reports: a workbook of a few dozen cells whose
//! data validations (drop-down lists with input messages) the library writes well, where
//! the reports' millions of cells are written by qiwang itself (`xml`).

use super::WorkbookError;
use super::cells::{MAX_WIDTH, clean, col, display_width, quote_sheet};
use rust_xlsxwriter::{Format, FormatAlign, FormatBorder, Formula, Workbook, Worksheet, XlsxError};

/// Rows of the registration sheet given drop-down lists and text formats.
const TEMPLATE_ROWS: u32 = 1000;

/// The registration workbook of `qiwang template --format xlsx`: the sheet with its
/// header and example row, ID and phone columns formatted as text (so Excel keeps all 18
/// characters), drop-down lists for the columns with allowed values (性别, 组别, 年级 …),
/// the hint of each column shown when a cell is selected, and a second sheet holding the
/// lists (it has no 姓名 column, so the importer skips it).
pub fn template_workbook(
    t: &crate::registration::template::Template,
    lang: crate::rulebook::Lang,
) -> Result<Vec<u8>, WorkbookError> {
    Ok(template_book(t, lang)?)
}

/// The title and header formats of the report sheets (`parts::Style`).
struct Formats {
    title: Format,
    header: Format,
}

fn template_book(
    t: &crate::registration::template::Template,
    lang: crate::rulebook::Lang,
) -> Result<Vec<u8>, XlsxError> {
    use rust_xlsxwriter::DataValidation;
    let mut book = Workbook::new();
    let f = Formats {
        title: Format::new().set_bold().set_font_size(14),
        header: Format::new()
            .set_bold()
            .set_align(FormatAlign::Center)
            .set_border(FormatBorder::Thin),
    };
    let text = Format::new().set_num_format("@");
    let lists_name = lang.pick("可选值", "allowed values");
    {
        let sheet = book.add_worksheet();
        sheet.set_name(clean(&t.sheet_name))?;
        sheet.write_string_with_format(0, 0, clean(&t.title), &f.title)?;
        let header_row = 1;
        let mut list_col = 0u16;
        for (c, column) in t.columns.iter().enumerate() {
            let c16 = col(c);
            let width = display_width(&column.header)
                .max(display_width(&column.example))
                .max(8);
            sheet.set_column_width(c16, (width.min(MAX_WIDTH) + 2) as f64)?;
            if column.text {
                sheet.set_column_format(c16, &text)?;
            }
            sheet.write_string_with_format(header_row, c16, clean(&column.header), &f.header)?;
            if column.text {
                sheet.write_string_with_format(
                    header_row + 1,
                    c16,
                    clean(&column.example),
                    &text,
                )?;
            } else {
                sheet.write_string(header_row + 1, c16, clean(&column.example))?;
            }
            let hint: String = clean(&column.hint).chars().take(250).collect();
            let title: String = clean(&column.header).chars().take(30).collect();
            let mut validation = if column.allowed.is_empty() {
                DataValidation::new().allow_any_value()
            } else {
                let letter = crate::registration::xlsx::column_letters(usize::from(list_col));
                let last = column.allowed.len() + 1;
                list_col += 1;
                DataValidation::new().allow_list_formula(Formula::new(format!(
                    "={}!${letter}$2:${letter}${last}",
                    quote_sheet(lists_name)
                )))
            };
            validation = validation.set_input_title(title)?.set_input_message(hint)?;
            sheet.add_data_validation(
                header_row + 1,
                c16,
                header_row + TEMPLATE_ROWS,
                c16,
                &validation,
            )?;
        }
        page_setup(sheet, header_row, t.columns.len())?;
    }
    let lists = book.add_worksheet();
    lists.set_name(lists_name)?;
    for (c, column) in t
        .columns
        .iter()
        .filter(|c| !c.allowed.is_empty())
        .enumerate()
    {
        let c = col(c);
        lists.write_string_with_format(0, c, clean(&column.header), &f.header)?;
        for (r, value) in column.allowed.iter().enumerate() {
            lists.write_string(u32::try_from(r + 1).unwrap_or(u32::MAX), c, clean(value))?;
        }
        let width = column
            .allowed
            .iter()
            .map(|v| display_width(v))
            .max()
            .unwrap_or(8);
        lists.set_column_width(c, (width.min(MAX_WIDTH) + 2) as f64)?;
    }
    book.save_to_buffer()
}

/// The registration sheet's page: A4, one page wide (landscape past eight columns), its
/// header row repeated on every page and frozen on screen, as the report sheets are.
fn page_setup(sheet: &mut Worksheet, header_row: u32, columns: usize) -> Result<(), XlsxError> {
    sheet.set_paper_size(9);
    if columns > 8 {
        sheet.set_landscape();
    } else {
        sheet.set_portrait();
    }
    sheet.set_print_fit_to_pages(1, 0);
    sheet.set_repeat_rows(header_row, header_row)?;
    sheet.set_freeze_panes(header_row + 1, 0)?;
    Ok(())
}
