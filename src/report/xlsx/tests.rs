//! Tests of the workbook writer: cell values and sheet names, a workbook read back by
//! calamine cell by cell (types, formulas with their stored values, merged ranges,
//! escaped text), borrowed and owned reports alike, Excel's limits, long text.

use super::cells::{CELL_TEXT_MAX, SHEET_NAME_MAX, as_number, clean, display_width, unique_name};
use super::xml::{escape_markup, escape_text, push_usize};
use super::*;
use crate::report::Section;
use calamine::{Data, Reader};
use rust_xlsxwriter::Worksheet;
use std::collections::BTreeSet;

#[test]
fn numbers_are_only_plain_numbers() {
    for (text, want) in [
        ("12", Some(12.0)),
        ("5.5", Some(5.5)),
        ("-2", Some(-2.0)),
        ("1200.00", Some(1200.0)),
        ("0", Some(0.0)),
        ("0.50", Some(0.5)),
        ("007", None),
        ("1=", None),
        ("330702********1234", None),
        ("3307021966122512", None),
        ("=1+2", None),
        ("", None),
        ("1.2.3", None),
    ] {
        assert_eq!(as_number(text), want, "{text:?}");
    }
}

#[test]
fn sheet_names_are_valid_and_unique() {
    let mut taken = BTreeSet::new();
    assert_eq!(unique_name(&mut taken, "成人组/排名"), "成人组_排名");
    assert_eq!(unique_name(&mut taken, "成人组/排名"), "成人组_排名 (2)");
    assert_eq!(unique_name(&mut taken, ""), "Sheet");
    let long = "长".repeat(40);
    assert_eq!(unique_name(&mut taken, &long).chars().count(), 31);
    assert_eq!(unique_name(&mut taken, &long).chars().count(), 31);
    // Names that once failed the whole workbook (an outside tester's group names):
    // characters of two UTF-16 units, apostrophes at an end or at the cut, and the
    // name Excel keeps for itself.
    let hostile = [
        "𠀀".repeat(16),
        "𠀀".repeat(16),
        " 'abc".to_string(),
        format!("{}'bcd", "a".repeat(30)),
        format!("{}'bcd", "a".repeat(30)),
        format!("{} 'x", "𠀀".repeat(14)),
        "'''".to_string(),
        "History".to_string(),
        "HISTORY".to_string(),
        "'history'".to_string(),
        format!("{}'", "b".repeat(27)),
        format!("{}'", "b".repeat(27)),
    ];
    let mut taken = BTreeSet::new();
    for wanted in &hostile {
        let name = unique_name(&mut taken, wanted);
        assert!(name.encode_utf16().count() <= SHEET_NAME_MAX, "{name}");
        assert!(!name.eq_ignore_ascii_case("history"), "{name}");
        let mut sheet = Worksheet::new();
        assert!(sheet.set_name(&name).is_ok(), "{wanted:?} -> {name:?}");
    }
    assert_eq!(taken.len(), hostile.len());
    assert_eq!(unique_name(&mut taken, " 'abc"), "abc (2)");
    // The non-characters XML does not allow are written as U+FFFD: names that differ
    // only there are the same name in the workbook, and are told apart here.
    let mut taken = BTreeSet::new();
    let names: Vec<String> = ["A\u{fffe}", "A\u{ffff}", "A\u{fffd}"]
        .iter()
        .map(|wanted| unique_name(&mut taken, wanted))
        .collect();
    assert_eq!(names, ["A\u{fffd}", "A\u{fffd} (2)", "A\u{fffd} (3)"]);
}

/// Tester repro 11: a right-to-left override in a name reached the workbook, where
/// it shows the cell's text reversed.
#[test]
fn bidi_overrides_never_reach_a_cell() {
    let mut report = Report::new("赛事\u{202e}名");
    report.subtitle.push("第\u{2066}1轮".into());
    let mut section = Section::new("成\u{202d}绩", vec!["姓\u{202e}名".into()]);
    section.push(vec!["张\u{202e}三\u{200f}\u{2069}".into()]);
    report.sections.push(section);
    let bytes = render_book(&[("排\u{202e}名".into(), &report)]).unwrap();
    let grids = crate::registration::xlsx::read_workbook(&bytes).unwrap();
    let mut cells = 0;
    for grid in &grids {
        for (_, row) in &grid.rows {
            for cell in row {
                let text = cell.to_string();
                cells += 1;
                assert!(
                    !text
                        .chars()
                        .any(|c| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')),
                    "{text:?}"
                );
            }
        }
    }
    assert!(cells >= 4);
    assert!(clean("张\u{202e}三").contains("张三"));
}

/// Every part of the workbook, unzipped, the creation time taken out of
/// `docProps/core.xml`.
fn parts(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    use std::io::Read;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut parts = Vec::new();
    for i in 0..zip.len() {
        let mut part = zip.by_index(i).unwrap();
        let mut data = Vec::new();
        part.read_to_end(&mut data).unwrap();
        let name = part.name().unwrap().to_string();
        if name == "docProps/core.xml" {
            let text = String::from_utf8(data).unwrap();
            let start = text.find("<dcterms:created").unwrap();
            let end = text.rfind("</dcterms:modified>").unwrap();
            data = format!("{}{}", &text[..start], &text[end..]).into_bytes();
        }
        parts.push((name, data));
    }
    parts
}

fn row(cells: &[&str]) -> Vec<String> {
    cells.iter().map(ToString::to_string).collect()
}

/// A prize report of two lists, a round robin's table with its ■ diagonal, text that
/// XML and Excel must escape, and a grand total: what the read-back tests check.
fn sample() -> (Report, Report) {
    let mut report = Report::new("赛事 <&> \"名\" 'x'");
    report.subtitle.push("第1轮".into());
    let mut prizes = Section::new(
        "奖金",
        vec!["名次".into(), "姓名".into(), "奖金".into(), "备注".into()],
    )
    .right(&[0]);
    for r in [
        row(&["1", "张三", "1200.00", ""]),
        row(&["2", "=1+2", "—", "<b>&amp;</b>"]),
        row(&["", "", "", ""]),
        row(&["3", " 王五 "]),
        row(&["4", "_x0041_", "300", "a", "b", ""]),
        row(&["007", "孙七\u{fffe}", "", "", "", "", ""]),
        row(&[]),
    ] {
        prizes.push(r);
    }
    prizes.notes.push("共 4 人".into());
    prizes.notes.push(String::new());
    report.sections.push(prizes);
    let mut first = Section::new("次", vec!["奖金".into(), "姓名".into()]);
    first.push(row(&["100", "赵六"]));
    first.push(row(&["50.5", "钱七"]));
    report.sections.push(first);
    let mut notes_only = Section::new("合计", Vec::new());
    notes_only.notes.push("共 3 人".into());
    report.sections.push(notes_only);
    let mut robin = Report::new("循环赛");
    let mut table = Section::new(
        "",
        vec![
            "序号".into(),
            "姓名".into(),
            "1".into(),
            "2".into(),
            "积分".into(),
        ],
    )
    .right(&[0, 4]);
    table.push(row(&["1", "甲", crate::report::BLACKED_OUT, "1", "2"]));
    table.push(row(&["2", "乙", "0", crate::report::BLACKED_OUT, "0.5"]));
    robin.sections.push(table);
    (report, robin)
}

/// The cell at `(row, col)` of `sheet` in a calamine range, `Empty` outside it.
fn cell(range: &calamine::Range<Data>, row: u32, col: u32) -> Data {
    range.get_value((row, col)).cloned().unwrap_or(Data::Empty)
}

/// The workbook read back by calamine, the reader `import` uses: sheet names, each
/// cell's value and type (numbers as numbers, text as text however it begins, escaped
/// characters as written), the totals' formulas with their stored values, the merged
/// heading rows; and the formats in the XML (money, ■ black, bordered blanks).
#[test]
fn a_workbook_reads_back_cell_by_cell() {
    let (report, robin) = sample();
    let bytes = render_book(&[("奖".into(), &report), ("循环".into(), &robin)]).unwrap();
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(bytes.clone())).unwrap();
    assert_eq!(
        book.sheet_names(),
        ["奖金", "次", "合计", "循环"].map(String::from)
    );
    let prizes = book.worksheet_range("奖金").unwrap();
    assert_eq!(prizes.start(), Some((0, 0)));
    let title = "赛事 <&> \"名\" 'x' — 奖金";
    assert_eq!(cell(&prizes, 0, 0), Data::String(title.into()));
    assert_eq!(cell(&prizes, 1, 0), Data::String("第1轮".into()));
    assert_eq!(cell(&prizes, 3, 2), Data::String("奖金".into()));
    assert_eq!(cell(&prizes, 4, 0), Data::Float(1.0));
    assert_eq!(cell(&prizes, 4, 2), Data::Float(1200.0));
    assert_eq!(cell(&prizes, 4, 3), Data::Empty);
    assert_eq!(cell(&prizes, 5, 1), Data::String("=1+2".into()));
    assert_eq!(cell(&prizes, 5, 2), Data::String("—".into()));
    assert_eq!(cell(&prizes, 5, 3), Data::String("<b>&amp;</b>".into()));
    assert_eq!(cell(&prizes, 7, 1), Data::String(" 王五 ".into()));
    assert_eq!(cell(&prizes, 8, 4), Data::String("b".into()));
    // A code with a leading zero stays text.
    assert_eq!(cell(&prizes, 9, 0), Data::String("007".into()));
    // The totals row: its label, and the SUM with its value stored.
    assert_eq!(cell(&prizes, 11, 0), Data::String("合计".into()));
    assert_eq!(cell(&prizes, 11, 2), Data::Float(1500.0));
    assert_eq!(cell(&prizes, 13, 0), Data::String("共 4 人".into()));
    assert_eq!(prizes.end(), Some((13, 4)));
    let formulas = book.worksheet_formula("奖金").unwrap();
    assert_eq!(
        formulas.get_value((11, 2)).map(String::as_str),
        Some("SUM(C5:C11)")
    );
    let merged = book.merge_cells_by_sheet_name("奖金").unwrap();
    let merged: Vec<_> = merged.iter().map(|d| (d.start, d.end)).collect();
    assert_eq!(merged, [((0, 0), (0, 3)), ((1, 0), (1, 3))]);
    // The grand total adds the lists' totals, its value stored.
    let total = book.worksheet_range("合计").unwrap();
    assert_eq!(
        cell(&total, 0, 0),
        Data::String("赛事 <&> \"名\" 'x' — 合计".into())
    );
    assert_eq!(cell(&total, 3, 0), Data::String("合计".into()));
    assert_eq!(cell(&total, 4, 0), Data::String("共 3 人".into()));
    assert_eq!(cell(&total, 6, 1), Data::Float(1650.5));
    let formulas = book.worksheet_formula("合计").unwrap();
    assert_eq!(
        formulas.get_value((6, 1)).map(String::as_str),
        Some("'奖金'!C12+'次'!A7")
    );
    assert!(book.merge_cells_by_sheet_name("合计").unwrap().is_empty());
    let robin = book.worksheet_range("循环").unwrap();
    assert_eq!(
        cell(&robin, 3, 2),
        Data::String(crate::report::BLACKED_OUT.into())
    );
    assert_eq!(cell(&robin, 3, 3), Data::String("1".into()));
    assert_eq!(cell(&robin, 4, 4), Data::Float(0.5));
    // The formats, in the XML: a money cell, a black cell, a bordered empty cell, the
    // header row frozen and printed on every page, A4 one page wide.
    let parts = parts(&bytes);
    let xml = |name: &str| {
        String::from_utf8(parts.iter().find(|p| p.0 == name).unwrap().1.clone()).unwrap()
    };
    let prizes = xml("xl/worksheets/sheet1.xml");
    assert!(
        prizes.contains(r#"<c r="C5" s="6"><v>1200.00</v></c>"#),
        "{prizes}"
    );
    assert!(prizes.contains(r#"<c r="D5" s="5"/>"#), "{prizes}");
    assert!(prizes.contains(r#"<c r="C12" s="8"><f>SUM(C5:C11)</f><v>1500.00</v></c>"#));
    assert!(prizes.contains(r#"<t>_x005F_x0041_</t>"#), "{prizes}");
    assert!(prizes.contains(r#"<t>孙七_xFFFE_</t>"#), "{prizes}");
    assert!(
        prizes.contains(r#"<t>&lt;b&gt;&amp;amp;&lt;/b&gt;</t>"#),
        "{prizes}"
    );
    assert!(
        prizes.contains(r#"<t xml:space="preserve"> 王五 </t>"#),
        "{prizes}"
    );
    assert!(
        prizes.contains(r#"<pane ySplit="4" topLeftCell="A5""#),
        "{prizes}"
    );
    assert!(prizes.contains(r#"<pageSetup paperSize="9" fitToHeight="0""#));
    assert!(xml("xl/worksheets/sheet4.xml").contains(r#"<c r="C4" s="9" t="inlineStr">"#));
    let workbook = xml("xl/workbook.xml");
    assert!(workbook.contains(
        r#"<definedName name="_xlnm.Print_Titles" localSheetId="0">'奖金'!$4:$4</definedName>"#
    ));
    assert!(!workbook.contains(r#"localSheetId="2""#), "{workbook}");
}

/// Borrowed and owned reports give the same workbook (the owned one's rows freed as
/// they are written), and a workbook of no section at all still opens, naming the report.
#[test]
fn owned_reports_make_the_same_workbook() {
    let (report, robin) = sample();
    let borrowed = parts(&render_book(&[("奖".into(), &report), ("循环".into(), &robin)]).unwrap());
    let saved = render_book_owned(vec![
        ("奖".to_string(), report.clone()),
        ("循环".to_string(), robin.clone()),
    ])
    .unwrap();
    assert_eq!(saved.sheets, 4);
    assert_eq!(parts(&saved.bytes), borrowed);
    let empty = Report::new("空");
    let grids = crate::registration::xlsx::read_workbook(&render(&empty).unwrap()).unwrap();
    assert_eq!(grids.len(), 1);
    assert_eq!(grids[0].rows[0].1[0].to_string(), "空");
}

/// Text as XML character data: the markup characters, Excel's own `_xHHHH_` escapes,
/// the non-characters and control characters XML 1.0 does not allow.
#[test]
fn text_is_escaped_for_xml_and_excel() {
    let escaped = |text: &str| {
        let mut out = Vec::new();
        escape_text(&mut out, text);
        String::from_utf8(out).unwrap()
    };
    assert_eq!(escaped("张三"), "张三");
    assert_eq!(escaped(r#"<&>"'"#), "&lt;&amp;&gt;&quot;'");
    assert_eq!(escaped("=SUM(A1)"), "=SUM(A1)");
    assert_eq!(escaped("a_x00e9_b_x12_"), "a_x005F_x00e9_b_x12_");
    assert_eq!(escaped("_x0041__x0042_"), "_x005F_x0041__x005F_x0042_");
    assert_eq!(
        escaped("\u{fffe}x\u{ffff}\u{fffd}"),
        "_xFFFE_x_xFFFF_\u{fffd}"
    );
    assert_eq!(escaped("a\u{1}b\tc\u{1b}"), "a_x0001_b\tc_x001B_");
    // A sheet's name or a formula: no Excel escapes there, only valid XML.
    let markup = |text: &str| {
        let mut out = Vec::new();
        escape_markup(&mut out, text);
        String::from_utf8(out).unwrap()
    };
    assert_eq!(markup("'a&b'!_x0041_"), "'a&amp;b'!_x0041_");
    assert_eq!(markup("<\"\u{fffe}\u{1}"), "&lt;&quot;\u{fffd}\u{fffd}");
}

/// A sheet past Excel's 1,048,576 rows or 16,384 columns is refused, naming it, before
/// any of it is written.
#[test]
fn a_sheet_past_excel_limits_is_refused() {
    let mut report = Report::new("大");
    let mut tall = Section::new("", vec!["姓名".into()]);
    tall.rows = vec![Vec::new(); 1_048_576];
    report.sections.push(tall);
    match render_book(&[("高".into(), &report)]) {
        Err(WorkbookError::TooLarge { sheet }) => assert_eq!(sheet, "高"),
        other => panic!("{:?}", other.map(|b| b.len())),
    }
    let mut report = Report::new("大");
    let mut wide = Section::new("", vec!["姓名".into()]);
    wide.push(vec![String::new(); 16_385]);
    report.sections.push(wide);
    match render_book(&[("宽".into(), &report)]) {
        Err(WorkbookError::TooLarge { sheet }) => assert_eq!(sheet, "宽"),
        other => panic!("{:?}", other.map(|b| b.len())),
    }
    // At the limit of columns, it is written.
    let mut report = Report::new("大");
    let mut widest = Section::new("", vec!["姓名".into()]);
    widest.push(vec!["x".to_string(); 16_384]);
    report.sections.push(widest);
    let bytes = render_book(&[("宽".into(), &report)]).unwrap();
    let sheet = &parts(&bytes)[7].1;
    assert!(String::from_utf8_lossy(sheet).contains(r#"<c r="XFD4" s="5" t="inlineStr">"#));
}

/// Text longer than a cell holds (a rulebook's 40,000-character award) is cut to
/// the limit, ending in "…", instead of failing the workbook; text at the limit stays.
#[test]
fn text_longer_than_a_cell_is_cut() {
    let utf16 = |t: &str| t.encode_utf16().count();
    for long in ["奖".repeat(40_000), "a".repeat(40_000), "𠀀".repeat(20_000)] {
        let cut = clean(&long);
        assert!(utf16(&cut) <= CELL_TEXT_MAX, "{}", utf16(&cut));
        assert!(utf16(&cut) >= CELL_TEXT_MAX - 1, "{}", utf16(&cut));
        assert!(cut.ends_with('…'));
        let mut report = Report::new("t");
        let mut section = Section::new("", vec!["奖项".into()]);
        section.rows.push(vec![long.clone()]);
        report.sections.push(section);
        let bytes = render(&report).unwrap();
        let mut book: calamine::Xlsx<_> =
            calamine::open_workbook_from_rs(std::io::Cursor::new(bytes)).unwrap();
        let range = book.worksheet_range("t").unwrap();
        match cell(&range, 3, 0) {
            Data::String(text) => {
                assert!(utf16(&text) <= CELL_TEXT_MAX, "{}", utf16(&text));
                assert!(text.ends_with('…'));
            }
            other => panic!("{other:?}"),
        }
    }
    let fits = "a".repeat(CELL_TEXT_MAX);
    assert_eq!(clean(&fits), fits);
}

#[test]
fn cjk_counts_double() {
    assert_eq!(display_width("成人组"), 6);
    assert_eq!(display_width("abc"), 3);
    assert_eq!(display_width("—"), 1);
}

/// Numbers in the package's markup (row numbers, counts, defined names' rows) in decimal
/// at every length, the widest included.
#[test]
fn numbers_are_written_in_decimal() {
    for n in [0, 7, 10, 99, 100, 1_048_576, usize::MAX] {
        let mut out = Vec::new();
        push_usize(&mut out, n);
        assert_eq!(String::from_utf8(out).unwrap(), n.to_string());
    }
}

/// A money column without a plain number (every prize a title, `—`) totals 0: the
/// stored value of its SUM and of the grand total is `0.00`, not `-0.00`.
#[test]
fn a_total_of_no_number_is_zero() {
    let mut report = Report::new("赛事");
    let mut list = Section::new("奖", vec!["姓名".into(), "奖金".into()]);
    list.push(row(&["张三", "—"]));
    list.push(row(&["李四", ""]));
    report.sections.push(list);
    let mut other = Section::new("次", vec!["姓名".into(), "奖金".into()]);
    other.push(row(&["王五", "奖杯"]));
    report.sections.push(other);
    report.sections.push(Section::new("合计", Vec::new()));
    let bytes = render(&report).unwrap();
    let parts = parts(&bytes);
    for sheet in ["xl/worksheets/sheet1.xml", "xl/worksheets/sheet3.xml"] {
        let xml =
            String::from_utf8(parts.iter().find(|p| p.0 == sheet).unwrap().1.clone()).unwrap();
        assert!(xml.contains("</f><v>0.00</v>"), "{xml}");
        assert!(!xml.contains("-0"), "{xml}");
    }
}

/// Sheet names holding XML's markup characters and an apostrophe, end to end: read back
/// as given, the grand total's formula naming them quoted (the apostrophe doubled) with
/// its value, and each table's print titles naming its sheet.
#[test]
fn sheet_names_with_markup_characters_read_back() {
    let mut report = Report::new("赛事");
    for (title, money) in [("a&b<c>", "10"), ("d\"e'f", "2.5")] {
        let mut list = Section::new(title, vec!["姓名".into(), "奖金".into()]);
        list.push(row(&["张三", money]));
        report.sections.push(list);
    }
    report.sections.push(Section::new("合计", Vec::new()));
    let bytes = render(&report).unwrap();
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(bytes.clone())).unwrap();
    assert_eq!(
        book.sheet_names(),
        ["a&b<c>", "d\"e'f", "合计"].map(String::from)
    );
    assert_eq!(
        cell(&book.worksheet_range("d\"e'f").unwrap(), 4, 1),
        Data::Float(2.5)
    );
    let total = book.worksheet_range("合计").unwrap();
    assert_eq!(cell(&total, 4, 1), Data::Float(12.5));
    let formulas = book.worksheet_formula("合计").unwrap();
    assert_eq!(
        formulas.get_value((4, 1)).map(String::as_str),
        Some("'a&b<c>'!B5+'d\"e''f'!B5")
    );
    let mut titles: Vec<String> = book
        .defined_names()
        .iter()
        .map(|(_, at)| at.clone())
        .collect();
    titles.sort();
    assert_eq!(titles, ["'a&b<c>'!$3:$3", "'d\"e''f'!$3:$3"]);
}

/// A file past what a zip holds is refused in words of both languages, naming the sheet
/// when one sheet is too large: no English or part path in the Chinese.
#[test]
fn a_file_too_large_is_said_in_both_languages() {
    use crate::i18n::{Lang, Localize};
    let sheet = WorkbookError::FileTooLarge {
        sheet: Some("公开组 排名".into()),
    };
    let zh = sheet.localize(Lang::Zh);
    assert!(zh.contains("`公开组 排名`"), "{zh}");
    assert!(!zh.contains("xl/") && !zh.contains("over"), "{zh}");
    assert!(sheet.to_string().contains("`公开组 排名`"));
    let whole = WorkbookError::FileTooLarge { sheet: None };
    assert!(!whole.localize(Lang::Zh).contains("over"));
    assert_eq!(whole.to_string(), whole.localize(Lang::En));
}

/// The grand total of hundreds of lists: a formula naming each would pass Excel's 8,192
/// characters (and the file would not open), so the total is written as its number.
#[test]
fn a_grand_total_of_hundreds_of_lists_stays_within_excel() {
    let mut report = Report::new("赛事");
    for n in 0..400 {
        let mut list = Section::new(
            format!("公开组 成人 第{n:03}名 奖励名单"),
            vec!["奖金".into()],
        );
        list.push(row(&["1.25"]));
        report.sections.push(list);
    }
    report.sections.push(Section::new("合计", Vec::new()));
    let bytes = render(&report).unwrap();
    let parts = parts(&bytes);
    let total = String::from_utf8(
        parts
            .iter()
            .find(|p| p.0 == "xl/worksheets/sheet401.xml")
            .unwrap()
            .1
            .clone(),
    )
    .unwrap();
    assert!(!total.contains("<f>"), "{total}");
    assert!(total.contains(r#"s="8"><v>500.00</v>"#), "{total}");
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(bytes)).unwrap();
    assert_eq!(
        cell(&book.worksheet_range("合计").unwrap(), 4, 1),
        Data::Float(500.0)
    );
}
