//! The tests of `xls_scan.rs`: the rows a sheet's ROW records hide.

use super::*;

fn record(typ: u16, data: &[u8]) -> Vec<u8> {
    let mut r = typ.to_le_bytes().to_vec();
    r.extend_from_slice(&u16::try_from(data.len()).unwrap().to_le_bytes());
    r.extend_from_slice(data);
    r
}

fn bof(kind: u16) -> Vec<u8> {
    let mut d = 0x0600u16.to_le_bytes().to_vec();
    d.extend_from_slice(&kind.to_le_bytes());
    d.extend_from_slice(&[0; 12]);
    record(0x0809, &d)
}

/// A ROW record of 0-based `row` with option flags `flags`.
fn row(row: u16, flags: u16) -> Vec<u8> {
    let mut d = row.to_le_bytes().to_vec();
    d.extend_from_slice(&[0; 10]);
    d.extend_from_slice(&flags.to_le_bytes());
    d.extend_from_slice(&[0; 2]);
    record(0x0208, &d)
}

fn number(row: u16) -> Vec<u8> {
    let mut d = row.to_le_bytes().to_vec();
    d.extend_from_slice(&[0; 4]);
    d.extend_from_slice(&1.0f64.to_le_bytes());
    record(0x0203, &d)
}

/// The hidden rows of a sheet substream of `records` (a BOF before them unless
/// `records` starts otherwise, an EOF after).
fn hidden(records: &[Vec<u8>]) -> Vec<usize> {
    let stream = [records.concat(), record(0x000A, &[])].concat();
    let rows = scan_sheet(&stream, "表", &[], &mut Tally::default());
    rows.ok().unwrap().into_iter().collect()
}

#[test]
fn hidden_rows_holding_a_cell_are_found() {
    let records = [
        bof(0x10),
        row(0, 0x100),
        row(3, 0x120),
        row(5, 0x020),
        row(7, 0x020),
        number(0),
        number(3),
        number(5),
    ];
    // Row 8 (index 7) is hidden but holds nothing.
    assert_eq!(hidden(&records), [4, 6]);
    // A chart's substream inside the sheet is not the sheet's.
    let chart = [bof(0x20), row(0, 0x020), number(0), record(0x000A, &[])];
    assert_eq!(hidden(&[&records[..], &chart[..]].concat()), [4, 6]);
}

#[test]
fn records_that_do_not_hang_together_hide_nothing() {
    let cells = [number(3), number(5)];
    // A ROW record short of its 16 bytes.
    let short = record(0x0208, &[3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x20]);
    for broken in [
        vec![bof(0x10), row(3, 0x20), short],
        vec![bof(0x10), row(3, 0x20), row(5, 0x20), row(3, 0)],
        vec![row(3, 0x20), bof(0x10), row(5, 0x20)],
    ] {
        assert_eq!(hidden(&[broken, cells.to_vec()].concat()), [0usize; 0]);
    }
}

#[test]
fn an_encrypted_workbook_hides_nothing() {
    let sheet = |pos: u32| {
        let mut d = pos.to_le_bytes().to_vec();
        d.extend_from_slice(&[0, 0, 1, 0, b'S']);
        record(0x0085, &d)
    };
    let filepass = record(0x002F, &[1, 0, 1, 0, 1, 0]);
    let body = [bof(0x10), row(2, 0x20), number(2), record(0x000A, &[])].concat();
    for globals_extra in [Vec::new(), filepass] {
        let head = |pos| {
            [
                bof(5),
                globals_extra.clone(),
                sheet(pos),
                record(0x000A, &[]),
            ]
        };
        let pos = u32::try_from(head(0).concat().len()).unwrap();
        let stream = [head(pos).concat(), body.clone()].concat();
        let want = if globals_extra.is_empty() {
            vec![3]
        } else {
            vec![]
        };
        let found = scan_biff(&stream).ok().unwrap();
        assert_eq!(found, [want.into_iter().collect::<BTreeSet<usize>>()]);
    }
}

#[test]
fn hidden_rows_go_by_the_librarys_names() {
    let rows = |r: &[usize]| r.iter().copied().collect::<BTreeSet<usize>>();
    let names = |n: &[&str]| n.iter().map(ToString::to_string).collect::<Vec<_>>();
    let found = by_name(
        vec![rows(&[2]), rows(&[]), rows(&[5])],
        names(&["a", "b", "c"]),
    );
    assert_eq!(found.len(), 2);
    assert_eq!(found.get("c"), Some(&rows(&[5])));
    // The scan stopped early: nothing, whatever the names.
    assert!(by_name(Vec::new(), names(&["a"])).is_empty());
    // Two sheets of one name: the library reads the last one's cells.
    let twice = by_name(vec![rows(&[2]), rows(&[])], names(&["a", "a"]));
    assert!(twice.is_empty());
}
