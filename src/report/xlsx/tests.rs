//! Tests of the workbook writer: cell values and sheet names, the run-at-a-time formats
//! against per-cell ones (held and streamed sheets), long text, and the temporary
//! directory probed after a panic.

use super::cells::{CELL_TEXT_MAX, SHEET_NAME_MAX, as_number, clean, display_width, unique_name};
use super::temp::{temp_dir_failure, temp_writes_fail_cleanly_in};
use super::*;
use crate::report::Section;
use rust_xlsxwriter::Worksheet;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};

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

/// The formats set a run at a time give the same workbook as each cell written with
/// its own, from borrowed reports and from owned ones: money columns with text among the numbers, empty cells, short and long
/// rows, empty rows at the end with and without a totals row or notes after them.
#[test]
fn formats_by_runs_make_the_same_workbook() {
    let row = |cells: &[&str]| cells.iter().map(ToString::to_string).collect();
    let mut report = Report::new("赛事");
    report.subtitle.push("第1轮".into());
    // Money before text: the formats keep the order their first cells came in.
    let mut first = Section::new("首", vec!["奖金".into(), "姓名".into()]);
    first.push(row(&["100", "张三"]));
    report.sections.push(first);
    let mut prizes = Section::new(
        "奖金",
        vec!["名次".into(), "姓名".into(), "奖金".into(), "备注".into()],
    )
    .right(&[0]);
    for r in [
        row(&["1", "张三", "1200.00", ""]),
        row(&["2", "李四", "—", "x"]),
        row(&["", "", "", ""]),
        row(&["3", "王五"]),
        row(&["4", "赵六", "300", "a", "b", ""]),
        row(&["007", "孙七", "", "", "", "", ""]),
        row(&["", ""]),
    ] {
        prizes.push(r);
    }
    prizes.notes.push(String::new());
    report.sections.push(prizes);
    let mut table =
        Section::new("排名", vec!["名次".into(), "姓名".into(), "分".into()]).right(&[0, 2]);
    for r in [
        row(&["序", "张三", "2"]),
        row(&["2", "李四", "1.5"]),
        row(&["3", "", ""]),
        row(&["", "", "", "", ""]),
        row(&[""]),
    ] {
        table.push(r);
    }
    report.sections.push(table);
    let mut empty = Section::new("空", vec!["a".into(), "奖金".into()]);
    empty.push(row(&["", ""]));
    empty.push(row(&["", "", ""]));
    report.sections.push(empty);
    let mut notes_only = Section::new("合计", Vec::new());
    notes_only.notes.push("共 3 人".into());
    report.sections.push(notes_only);
    let mut other = Report::new("名单");
    let mut players = Section::new("", vec!["编号".into(), "奖金".into()]).right(&[0]);
    players.push(row(&["1", "5"]));
    players.push(row(&["x", ""]));
    other.sections.push(players);
    let book = || {
        vec![
            ("奖".to_string(), Cow::Borrowed(&report)),
            ("名单".to_string(), Cow::Borrowed(&other)),
        ]
    };
    let owned = vec![
        ("奖".to_string(), report.clone()),
        ("名单".to_string(), other.clone()),
    ];
    let same = |got: &[(String, Vec<u8>)], want: &[(String, Vec<u8>)]| {
        assert_eq!(got.len(), want.len());
        for ((name, a), (_, b)) in got.iter().zip(want) {
            assert!(
                a == b,
                "{name}:\n{}\n{}",
                String::from_utf8_lossy(a),
                String::from_utf8_lossy(b)
            );
        }
    };
    // Every table sheet held in memory, then every one streamed.
    let per_cell = parts(&render_book_as(book(), Body::PerCell, usize::MAX).unwrap());
    same(
        &parts(&render_book_as(book(), Body::Runs, usize::MAX).unwrap()),
        &per_cell,
    );
    same(&parts(&render_book_owned(owned).unwrap().bytes), &per_cell);
    let streamed_per_cell = parts(&render_book_as(book(), Body::PerCell, 0).unwrap());
    let streamed = parts(&render_book_as(book(), Body::Runs, 0).unwrap());
    same(&streamed, &streamed_per_cell);
    // Streamed sheets hold their text in the cells; the values are the same.
    let sheet = |parts: &[(String, Vec<u8>)], n: usize| {
        let name = format!("xl/worksheets/sheet{n}.xml");
        String::from_utf8(parts.iter().find(|p| p.0 == name).unwrap().1.clone()).unwrap()
    };
    assert!(sheet(&streamed, 2).contains("inlineStr"));
    assert!(!sheet(&per_cell, 2).contains("inlineStr"));
    let held = crate::registration::xlsx::read_workbook(
        &render_book_as(book(), Body::Runs, usize::MAX).unwrap(),
    )
    .unwrap();
    let streamed =
        crate::registration::xlsx::read_workbook(&render_book_as(book(), Body::Runs, 0).unwrap())
            .unwrap();
    assert_eq!(format!("{held:?}"), format!("{streamed:?}"));
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
        render(&report).unwrap();
    }
    let fits = "a".repeat(CELL_TEXT_MAX);
    assert_eq!(clean(&fits), fits);
}

/// A panic while a workbook is filled (raised on a sheet's thread, as the library
/// raises it) is reported as a temporary-file error when the temporary directory
/// cannot take a write or lacks the room the streamed sheets need, and goes on as a
/// bug otherwise; the panic's text plays no part.
#[test]
fn a_panic_is_a_temporary_file_error_only_when_the_directory_fails() {
    let scratch = std::env::temp_dir().join(format!("qiwang-xlsx-probe-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let on_a_thread = |streamed: &AtomicU64, cells: u64| -> Result<(), XlsxError> {
        streamed.fetch_add(cells, Ordering::Relaxed);
        std::thread::scope(|scope| {
            let handle = scope.spawn(|| -> Result<(), XlsxError> { panic!("any text at all") });
            crate::threads::join(handle)
        })
    };
    // A directory that cannot be written to: its own error is the cause.
    let missing = scratch.join("missing");
    match temp_writes_fail_cleanly_in(&missing, |s| on_a_thread(s, 10)) {
        Err(XlsxError::TempFileError(dir, e)) => {
            assert_eq!(dir, missing);
            assert_eq!(e.kind(), std::io::ErrorKind::NotFound, "{e}");
        }
        other => panic!("{other:?}"),
    }
    // Room for less than the streamed cells need: the disk is full.
    match temp_writes_fail_cleanly_in(&scratch, |s| on_a_thread(s, u64::MAX / 2)) {
        Err(XlsxError::TempFileError(_, e)) => {
            assert_eq!(e.kind(), std::io::ErrorKind::StorageFull, "{e}");
            assert!(e.to_string().contains("MB needed"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    // A writable directory with room: the panic is a bug and goes on.
    let bug =
        std::panic::catch_unwind(|| temp_writes_fail_cleanly_in(&scratch, |s| on_a_thread(s, 10)));
    assert!(bug.is_err());
    assert!(temp_dir_failure(&scratch, 0).is_none());
    std::fs::remove_dir_all(&scratch).unwrap();
}

#[test]
fn cjk_counts_double() {
    assert_eq!(display_width("成人组"), 6);
    assert_eq!(display_width("abc"), 3);
    assert_eq!(display_width("—"), 1);
}
