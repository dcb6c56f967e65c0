//! The workbook's parts other than its sheets: `[Content_Types].xml`, the package's and
//! the workbook's relationships, the document properties (`docProps/app.xml`,
//! `core.xml`), `xl/workbook.xml` (the sheets in order, each table's header row as its
//! `_xlnm.Print_Titles`) and `xl/styles.xml`, the fixed set of cell formats every report
//! sheet uses ([`Style`]). The same XML rust_xlsxwriter wrote for these workbooks, but
//! for its theme part: the fonts name Calibri and take the automatic (black) colour
//! directly instead of through the theme.

use super::cells::quote_sheet;
use super::xml::{escape_markup, push_usize};

/// The cell formats (`s="N"`, an index into `cellXfs` of [`STYLES`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(super) enum Style {
    /// No format.
    Plain = 0,
    /// A sheet's title: bold, size 14.
    Title = 1,
    /// A table's title, merged across the table's columns and centred, as a sheet to
    /// print and sign is headed.
    TitleCentred = 2,
    /// A table's subtitle lines, merged and centred the same way.
    SubtitleCentred = 3,
    /// A column's header: bold, centred, thin border.
    Header = 4,
    /// A body cell, text or number: thin border.
    Text = 5,
    /// Money: two decimals (`0.00`), thin border.
    Money = 6,
    /// The label of a totals row: bold, thin border.
    TotalLabel = 7,
    /// A money total: bold, two decimals, thin border.
    TotalMoney = 8,
    /// A blacked-out cell: a round robin's diagonal (■, docs/rules.md §14.5): black solid
    /// fill, thin border.
    Blocked = 9,
}

impl Style {
    pub(super) fn id(self) -> u8 {
        self as u8
    }
}

/// `xl/styles.xml`: [`Style`]'s formats, in its order.
pub(super) const STYLES: &str = concat!(
    r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#,
    r#"<numFmts count="1"><numFmt numFmtId="164" formatCode="0.00"/></numFmts>"#,
    r#"<fonts count="3"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>"#,
    r#"<font><b/><sz val="14"/><name val="Calibri"/><family val="2"/></font>"#,
    r#"<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>"#,
    r#"<fills count="3"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>"#,
    r#"<fill><patternFill patternType="solid"><fgColor rgb="FF000000"/><bgColor indexed="64"/></patternFill></fill></fills>"#,
    r#"<borders count="2"><border><left/><right/><top/><bottom/><diagonal/></border>"#,
    r#"<border><left style="thin"><color auto="1"/></left><right style="thin"><color auto="1"/></right><top style="thin"><color auto="1"/></top><bottom style="thin"><color auto="1"/></bottom><diagonal/></border></borders>"#,
    r#"<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>"#,
    r#"<cellXfs count="10">"#,
    r#"<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>"#,
    r#"<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>"#,
    r#"<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyAlignment="1"><alignment horizontal="center"/></xf>"#,
    r#"<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" applyAlignment="1"><alignment horizontal="center"/></xf>"#,
    r#"<xf numFmtId="0" fontId="2" fillId="0" borderId="1" xfId="0" applyFont="1" applyBorder="1" applyAlignment="1"><alignment horizontal="center"/></xf>"#,
    r#"<xf numFmtId="0" fontId="0" fillId="0" borderId="1" xfId="0" applyBorder="1"/>"#,
    r#"<xf numFmtId="164" fontId="0" fillId="0" borderId="1" xfId="0" applyNumberFormat="1" applyBorder="1"/>"#,
    r#"<xf numFmtId="0" fontId="2" fillId="0" borderId="1" xfId="0" applyFont="1" applyBorder="1"/>"#,
    r#"<xf numFmtId="164" fontId="2" fillId="0" borderId="1" xfId="0" applyNumberFormat="1" applyFont="1" applyBorder="1"/>"#,
    r#"<xf numFmtId="0" fontId="0" fillId="2" borderId="1" xfId="0" applyFill="1" applyBorder="1"/>"#,
    r#"</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>"#,
    r#"<dxfs count="0"/><tableStyles count="0" defaultTableStyle="TableStyleMedium9" defaultPivotStyle="PivotStyleLight16"/></styleSheet>"#,
);

const XML_DECLARATION: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n";

/// `_rels/.rels`.
pub(super) const PACKAGE_RELS: &str = concat!(
    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n",
    r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#,
    r#"<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>"#,
    r#"<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>"#,
    r#"<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>"#,
    "</Relationships>"
);

/// A sheet as the workbook lists it: its name, and a table's header row (0-based), which
/// is printed on every page.
pub(super) struct Listed {
    pub(super) name: String,
    pub(super) print_titles: Option<u32>,
}

/// `[Content_Types].xml` for `sheets` sheets.
pub(super) fn content_types(sheets: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(1200 + 140 * sheets);
    out.extend_from_slice(XML_DECLARATION.as_bytes());
    out.extend_from_slice(concat!(
        r#"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">"#,
        r#"<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>"#,
        r#"<Default Extension="xml" ContentType="application/xml"/>"#,
        r#"<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>"#,
        r#"<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>"#,
        r#"<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>"#,
        r#"<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>"#,
    ).as_bytes());
    for n in 1..=sheets {
        out.extend_from_slice(b"<Override PartName=\"/xl/worksheets/sheet");
        push_usize(&mut out, n);
        out.extend_from_slice(
            br#".xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>"#,
        );
    }
    out.extend_from_slice(b"</Types>");
    out
}

/// `xl/_rels/workbook.xml.rels`: the sheets `rId1`… in order, then the styles.
pub(super) fn workbook_rels(sheets: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(400 + 160 * sheets);
    out.extend_from_slice(XML_DECLARATION.as_bytes());
    out.extend_from_slice(
        br#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#,
    );
    for n in 1..=sheets {
        out.extend_from_slice(b"<Relationship Id=\"rId");
        push_usize(&mut out, n);
        out.extend_from_slice(br#"" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet"#);
        push_usize(&mut out, n);
        out.extend_from_slice(b".xml\"/>");
    }
    out.extend_from_slice(b"<Relationship Id=\"rId");
    push_usize(&mut out, sheets + 1);
    out.extend_from_slice(br#"" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>"#);
    out.extend_from_slice(b"</Relationships>");
    out
}

/// A table's print titles as [`workbook`] and [`app`] list them: the sheet's index, its
/// name as a reference takes it (quoted as the totals' formulas quote it), its header
/// row (1-based).
pub(super) type PrintTitle = (usize, String, u32);

/// The print titles of `sheets` as Excel lists them (sorted by sheet name).
pub(super) fn print_titles(sheets: &[Listed]) -> Vec<PrintTitle> {
    let mut titles: Vec<PrintTitle> = sheets
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.print_titles.map(|row| (i, quote_sheet(&s.name), row + 1)))
        .collect();
    titles.sort_by_cached_key(|(i, name, _)| (name.to_lowercase(), *i));
    titles
}

/// `xl/workbook.xml`: the sheets in order, each table's header row repeated on every
/// printed page (`titles`, from [`print_titles`]), and formulas recalculated when Excel
/// opens the file.
pub(super) fn workbook(sheets: &[Listed], titles: &[PrintTitle]) -> Vec<u8> {
    let mut out = Vec::with_capacity(800 + 120 * sheets.len());
    out.extend_from_slice(XML_DECLARATION.as_bytes());
    out.extend_from_slice(concat!(
        r#"<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">"#,
        r#"<fileVersion appName="xl" lastEdited="4" lowestEdited="4" rupBuild="4505"/>"#,
        r#"<workbookPr defaultThemeVersion="124226"/>"#,
        r#"<bookViews><workbookView xWindow="240" yWindow="15" windowWidth="16095" windowHeight="9660"/></bookViews>"#,
        "<sheets>",
    ).as_bytes());
    for (i, sheet) in sheets.iter().enumerate() {
        out.extend_from_slice(b"<sheet name=\"");
        escape_markup(&mut out, &sheet.name);
        out.extend_from_slice(b"\" sheetId=\"");
        push_usize(&mut out, i + 1);
        out.extend_from_slice(b"\" r:id=\"rId");
        push_usize(&mut out, i + 1);
        out.extend_from_slice(b"\"/>");
    }
    out.extend_from_slice(b"</sheets>");
    if !titles.is_empty() {
        out.extend_from_slice(b"<definedNames>");
        for (i, name, row) in titles {
            out.extend_from_slice(b"<definedName name=\"_xlnm.Print_Titles\" localSheetId=\"");
            push_usize(&mut out, *i);
            out.extend_from_slice(b"\">");
            escape_markup(&mut out, name);
            out.extend_from_slice(b"!$");
            push_usize(&mut out, *row as usize);
            out.extend_from_slice(b":$");
            push_usize(&mut out, *row as usize);
            out.extend_from_slice(b"</definedName>");
        }
        out.extend_from_slice(b"</definedNames>");
    }
    out.extend_from_slice(br#"<calcPr calcId="124519" fullCalcOnLoad="1"/></workbook>"#);
    out
}

/// `docProps/app.xml`: the sheets' names and their print titles (from [`print_titles`]),
/// as Excel lists them.
pub(super) fn app(sheets: &[Listed], titles: &[PrintTitle]) -> Vec<u8> {
    let mut out = Vec::with_capacity(1000 + 100 * sheets.len());
    out.extend_from_slice(XML_DECLARATION.as_bytes());
    out.extend_from_slice(concat!(
        r#"<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">"#,
        "<Application>Microsoft Excel</Application><DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop>",
    ).as_bytes());
    let pairs = if titles.is_empty() { 2 } else { 4 };
    out.extend_from_slice(b"<HeadingPairs><vt:vector size=\"");
    push_usize(&mut out, pairs);
    out.extend_from_slice(b"\" baseType=\"variant\"><vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant><vt:variant><vt:i4>");
    push_usize(&mut out, sheets.len());
    out.extend_from_slice(b"</vt:i4></vt:variant>");
    if !titles.is_empty() {
        out.extend_from_slice(
            b"<vt:variant><vt:lpstr>Named Ranges</vt:lpstr></vt:variant><vt:variant><vt:i4>",
        );
        push_usize(&mut out, titles.len());
        out.extend_from_slice(b"</vt:i4></vt:variant>");
    }
    out.extend_from_slice(b"</vt:vector></HeadingPairs><TitlesOfParts><vt:vector size=\"");
    push_usize(&mut out, sheets.len() + titles.len());
    out.extend_from_slice(b"\" baseType=\"lpstr\">");
    for sheet in sheets {
        out.extend_from_slice(b"<vt:lpstr>");
        escape_markup(&mut out, &sheet.name);
        out.extend_from_slice(b"</vt:lpstr>");
    }
    for (_, name, _) in titles {
        out.extend_from_slice(b"<vt:lpstr>");
        escape_markup(&mut out, name);
        out.extend_from_slice(b"!Print_Titles</vt:lpstr>");
    }
    out.extend_from_slice(concat!(
        "</vt:vector></TitlesOfParts><Company></Company><LinksUpToDate>false</LinksUpToDate>",
        "<SharedDoc>false</SharedDoc><HyperlinksChanged>false</HyperlinksChanged><AppVersion>12.0000</AppVersion></Properties>",
    ).as_bytes());
    out
}

/// `docProps/core.xml`: made now (UTC), by no one named.
pub(super) fn core() -> Vec<u8> {
    let now = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ");
    format!(
        concat!(
            "{}",
            r#"<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">"#,
            r#"<dc:creator></dc:creator><cp:lastModifiedBy></cp:lastModifiedBy>"#,
            r#"<dcterms:created xsi:type="dcterms:W3CDTF">{now}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">{now}</dcterms:modified></cp:coreProperties>"#
        ),
        XML_DECLARATION,
        now = now
    )
    .into_bytes()
}
