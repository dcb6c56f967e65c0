//! Terminal tables (comfy-table measures CJK width, so Chinese names stay aligned).
//!
//! A table fits the terminal: on a terminal its width (or `COLUMNS`, when set) bounds the
//! table and the long text columns (units, reasons, log summaries) wrap inside their
//! cells, while numbers, places and short columns keep their width. Piped output without
//! `COLUMNS` is never wrapped, so scripts see one line per row.

mod chunked;
mod plain;

use super::{Align, Report};
use crate::i18n::bi;
use crate::rulebook::Lang;
use comfy_table::{
    Cell, CellAlignment, ColumnConstraint, ContentArrangement, Table, Width,
    presets::UTF8_FULL_CONDENSED,
};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Text columns this wide or narrower (in terminal cells, e.g. a name of four 汉字) never
/// wrap.
const SHORT_TEXT: usize = 8;

/// The width to fit: `COLUMNS` if set to a sensible number, else the terminal's when
/// standard output is one, else none (piped output is not wrapped).
fn width_to_fit() -> Option<u16> {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<u16>().ok())
        .filter(|w| *w >= 40)
        .or_else(|| Table::new().width())
}

/// How a column may be laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Numbers and codes (ID, phone, dates): the content's width, the header wrapping.
    Code,
    /// Text of at most [`SHORT_TEXT`] cells (names, groups): its own width.
    Short,
    /// Longer text (units, reasons, log summaries): wraps inside its cell.
    Long,
}

/// One column's layout facts.
struct Col {
    index: usize,
    kind: Kind,
    /// Width of the widest value, header included up to the limits below.
    natural: usize,
    optional: bool,
}

/// How hard a table is squeezed: each step gives up more to fit the width (between the
/// steps, the optional columns are left out).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Squeeze {
    /// Long text keeps eight cells (four 汉字) a line.
    Comfortable,
    /// Long text down to four cells (two 汉字) a line.
    Narrow,
    /// Short text may wrap too.
    ShortWraps,
    /// Every column may wrap: comfy-table shares the width out as it can.
    Anything,
}

impl Col {
    /// The constraint at `squeeze`, `None` when comfy-table decides alone.
    fn constraint(&self, squeeze: Squeeze) -> Option<ColumnConstraint> {
        // comfy-table's widths include the cell padding (one space each side).
        let cells = |w: usize| Width::Fixed((w + 2) as u16);
        match (self.kind, squeeze) {
            (_, Squeeze::Anything) => None,
            (Kind::Code, _) => Some(ColumnConstraint::Absolute(cells(self.natural))),
            (Kind::Short, s) if s < Squeeze::ShortWraps => {
                Some(ColumnConstraint::Absolute(cells(self.natural)))
            }
            (Kind::Long, Squeeze::Comfortable) => {
                Some(ColumnConstraint::LowerBoundary(cells(SHORT_TEXT)))
            }
            _ => Some(ColumnConstraint::LowerBoundary(cells(
                NARROW_TEXT.min(self.natural),
            ))),
        }
    }

    /// The fewest cells the column takes at `squeeze`, borders and padding included.
    fn least(&self, squeeze: Squeeze) -> usize {
        3 + match self.constraint(squeeze) {
            Some(
                ColumnConstraint::Absolute(Width::Fixed(w))
                | ColumnConstraint::LowerBoundary(Width::Fixed(w)),
            ) => usize::from(w) - 2,
            _ => 2,
        }
    }
}

/// Long text wraps down to this many cells (two 汉字) a line when the table is tight.
const NARROW_TEXT: usize = 4;

/// The layout facts of the columns to print (columns empty in every row are left out
/// when fitting a width).
fn columns(section: &super::Section, width: Option<u16>) -> Vec<Col> {
    (0..section.columns.len())
        .filter(|&i| {
            width.is_none()
                || section
                    .rows
                    .iter()
                    .any(|r| r.get(i).is_some_and(|v| !v.is_empty()))
        })
        .map(|i| {
            let values = || section.rows.iter().filter_map(move |r| r.get(i));
            let widest = values().map(|v| display_width(v)).max().unwrap_or(0);
            let header = section.columns.get(i).map_or(0, |h| display_width(h));
            let is_code = values().all(|v| v.is_ascii() && !v.contains(' '));
            let right = section.align.get(i) == Some(&Align::Right);
            let (kind, natural) = if right || is_code {
                // The header (出生年份) may wrap over a narrow column of numbers.
                (Kind::Code, widest.max(header.min(4)).max(1))
            } else if widest <= SHORT_TEXT {
                (Kind::Short, widest.max(header.min(SHORT_TEXT)))
            } else {
                (Kind::Long, widest)
            };
            Col {
                index: i,
                kind,
                natural,
                optional: section.optional.get(i).copied().unwrap_or(false),
            }
        })
        .collect()
}

/// One section as a terminal table, fitted into `width` if given: numbers and codes keep
/// their content's width with the header wrapping over them, short text keeps its width,
/// and long text wraps inside its cell; when that is still too wide, short text wraps,
/// then the optional columns are left out (a line under the table names them), and last
/// comfy-table wraps whatever it must. Returns the table and that line, if any.
fn section_table(
    section: &super::Section,
    width: Option<u16>,
    lang: Lang,
) -> (String, Option<String>) {
    let (cols, squeeze, left_out) = layout(section, width);
    let table = if section.rows.len() > CHUNK_ROWS
        && let Some(width) = width
        && !cols.is_empty()
    {
        chunked::draw(section, &cols, width, squeeze, CHUNK_ROWS)
    } else {
        comfy(section, &cols, width, squeeze, &section.rows).to_string()
    };
    let note = (!left_out.is_empty()).then(|| {
        bi!(
            lang,
            zh(
                "终端宽度不够，未显示：{}（加宽终端，或用 --format csv 查看全部）",
                left_out.join("、")
            ),
            en(
                "not shown, the terminal is too narrow: {} (widen it, or use --format csv)",
                left_out.join(", ")
            )
        )
    });
    (table, note)
}

/// How [`section_table`] lays `section` out in `width`: the columns shown, how hard
/// they are squeezed, and the headers of the optional columns left out.
fn layout(section: &super::Section, width: Option<u16>) -> (Vec<Col>, Squeeze, Vec<String>) {
    let mut cols = columns(section, width);
    let mut squeeze = Squeeze::Comfortable;
    let mut left_out = Vec::new();
    if let Some(width) = width.map(usize::from) {
        let least = |cols: &[Col], s: Squeeze| 1 + cols.iter().map(|c| c.least(s)).sum::<usize>();
        // Names wrap only after the optional columns are gone.
        let gentle = [Squeeze::Comfortable, Squeeze::Narrow, Squeeze::ShortWraps];
        let mut fits = false;
        let first = if cols.iter().any(|c| c.optional) {
            &gentle[..2]
        } else {
            &gentle[..]
        };
        for &s in first {
            squeeze = s;
            fits = least(&cols, s) <= width;
            if fits {
                break;
            }
        }
        // Leaving the optional columns out, then everything may wrap.
        if !fits && cols.iter().any(|c| c.optional) {
            left_out = cols
                .iter()
                .filter(|c| c.optional)
                .map(|c| section.columns[c.index].clone())
                .collect();
            cols.retain(|c| !c.optional);
            for s in gentle {
                squeeze = s;
                fits = least(&cols, s) <= width;
                if fits {
                    break;
                }
            }
        }
        if !fits {
            squeeze = Squeeze::Anything;
        }
    }
    (cols, squeeze, left_out)
}

/// A table longer than this on a terminal is drawn this many rows at a time
/// ([`chunked`]).
const CHUNK_ROWS: usize = 2000;

/// comfy-table's table of `rows` of `section` in the columns `cols`, fitted into `width`
/// (if given) with the constraints of `squeeze`.
fn comfy<'a>(
    section: &super::Section,
    cols: &[Col],
    width: Option<u16>,
    squeeze: Squeeze,
    rows: impl IntoIterator<Item = &'a Vec<String>>,
) -> Table {
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_header(cols.iter().map(|c| Cell::new(&section.columns[c.index])));
    match width {
        Some(w) => {
            table
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(w);
        }
        None => {
            table.set_content_arrangement(ContentArrangement::Disabled);
        }
    }
    for row in rows {
        table.add_row(cols.iter().map(|c| {
            let cell = Cell::new(row.get(c.index).map_or("", String::as_str));
            match section.align.get(c.index) {
                Some(Align::Right) => cell.set_alignment(CellAlignment::Right),
                _ => cell,
            }
        }));
    }
    if width.is_some() {
        for (column, col) in table.column_iter_mut().zip(cols) {
            if let Some(constraint) = col.constraint(squeeze) {
                column.set_constraint(constraint);
            }
        }
    }
    table
}

/// Display width of a cell's widest line: East Asian wide characters (汉字, full-width
/// forms) take two cells, as terminals show them.
fn display_width(text: &str) -> usize {
    text.lines().map(UnicodeWidthStr::width).max().unwrap_or(0)
}

/// `line` cut into lines at most `width` cells wide: after a space where there is one in
/// the part that fits, else before the character that would not fit (汉字 need no space).
fn wrap(line: &str, width: Option<u16>) -> Vec<String> {
    let Some(width) = width.map(usize::from) else {
        return vec![line.to_string()];
    };
    let mut out = Vec::new();
    let mut rest = line;
    while UnicodeWidthStr::width(rest) > width {
        let mut used = 0;
        let mut cut = 0;
        let mut space = None;
        for (i, c) in rest.char_indices() {
            let w = UnicodeWidthChar::width(c).unwrap_or(0);
            if used + w > width {
                break;
            }
            used += w;
            cut = i + c.len_utf8();
            if c == ' ' && i > 0 {
                space = Some(i);
            }
        }
        if cut == 0 {
            // Narrower than one character: print it anyway.
            cut = rest.chars().next().map_or(rest.len(), char::len_utf8);
        }
        let at = space.filter(|&s| s * 2 >= cut).unwrap_or(cut);
        out.push(rest[..at].trim_end().to_string());
        rest = rest[at..].trim_start();
    }
    out.push(rest.to_string());
    out
}

/// The report as terminal text. With a width to fit, every line fits it: tables as
/// [`section_table`] lays them out, and titles, notes and footers wrap.
pub fn render(report: &Report) -> String {
    let width = width_to_fit();
    let lang = if report.lang.starts_with("en") {
        Lang::En
    } else {
        Lang::Zh
    };
    let mut out = String::new();
    let line = |out: &mut String, text: &str| {
        for part in text.split('\n').flat_map(|l| wrap(l, width)) {
            out.push_str(&part);
            out.push('\n');
        }
    };
    if !report.title.is_empty() {
        line(&mut out, &report.title);
    }
    for l in &report.subtitle {
        line(&mut out, l);
    }
    for section in &report.sections {
        out.push('\n');
        if !section.title.is_empty() {
            line(&mut out, &section.title);
        }
        if !section.columns.is_empty() {
            // Piped output draws its tables itself: comfy-table's copies of every cell and
            // line cost hundreds of megabytes at 100,000 rows (`plain`).
            let plain = width
                .is_none()
                .then(|| plain::widths(section))
                .filter(|w| plain::fits(w));
            if let Some(widths) = plain {
                plain::write(&mut out, section, &widths);
            } else {
                let (table, note) = section_table(section, width, lang);
                out.push_str(&table);
                out.push('\n');
                if let Some(note) = note {
                    line(&mut out, &note);
                }
            }
        }
        for note in &section.notes {
            line(&mut out, note);
        }
    }
    if !report.footer.is_empty() {
        out.push('\n');
        for l in &report.footer {
            line(&mut out, l);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_spaces_and_between_hanzi() {
        assert_eq!(wrap("abc def ghi", Some(7)), ["abc def", "ghi"]);
        assert_eq!(wrap("成人组第一轮", Some(7)), ["成人组", "第一轮"]);
        assert_eq!(wrap("short", None), ["short"]);
        for part in wrap(
            "2018全国“江阴周庄”杯业余象棋棋王赛浙江赛区 — 参赛名单 x",
            Some(20),
        ) {
            assert!(UnicodeWidthStr::width(part.as_str()) <= 20, "{part}");
        }
    }

    /// Piped output's own tables are comfy-table's, byte for byte, over random sections:
    /// 汉字, full-width and zero-width characters, multi-line and empty cells, right- and
    /// left-aligned columns, no rows.
    #[test]
    fn plain_tables_are_comfy_tables() {
        use rand::{Rng, SeedableRng};
        let pieces = [
            "a", "7", "棋", "Ｂ", " ", "\n", "é", "\u{200b}", "-", "王者",
        ];
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let text = |rng: &mut rand::rngs::StdRng| -> String {
            let n = rng.gen_range(0..6);
            (0..n)
                .map(|_| pieces[rng.gen_range(0..pieces.len())])
                .collect()
        };
        for case in 0..400 {
            let width = rng.gen_range(1..6);
            let columns = (0..width).map(|_| text(&mut rng)).collect();
            let mut section = super::super::Section::new("", columns);
            for a in &mut section.align {
                if rng.gen_bool(0.5) {
                    *a = Align::Right;
                }
            }
            for _ in 0..rng.gen_range(0..5) {
                section
                    .rows
                    .push((0..width).map(|_| text(&mut rng)).collect());
            }
            let widths = plain::widths(&section);
            assert!(plain::fits(&widths));
            let mut ours = String::new();
            plain::write(&mut ours, &section, &widths);
            let (comfy, note) = section_table(&section, None, Lang::Zh);
            assert_eq!(note, None);
            assert_eq!(ours, comfy + "\n", "case {case}: {section:?}");
        }
    }

    /// A long table on a terminal drawn a slice of rows at a time is comfy-table's drawing
    /// of the whole, line for line: random sections of long and short text, numbers,
    /// 汉字, multi-line cells and optional columns, at random widths (every squeeze).
    #[test]
    fn chunked_tables_are_comfy_tables() {
        use rand::{Rng, SeedableRng};
        let words = [
            "a",
            "7",
            "棋",
            "王",
            "金华市",
            "象棋协会",
            "东阳",
            "x y",
            "12",
            "\n",
            "—",
            "队",
            "#\u{fe0f}",
            "b\u{fe0f}",
            "1\u{20e3}",
        ];
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let text = |rng: &mut rand::rngs::StdRng, most: usize| -> String {
            let n = rng.gen_range(0..=most);
            (0..n)
                .map(|_| words[rng.gen_range(0..words.len())])
                .collect()
        };
        for case in 0..300 {
            let width = rng.gen_range(1..8);
            let columns = (0..width).map(|_| text(&mut rng, 3)).collect();
            let mut section = super::super::Section::new("", columns);
            for i in 0..width {
                if rng.gen_bool(0.3) {
                    section.align[i] = Align::Right;
                }
                section.optional[i] = rng.gen_bool(0.2);
            }
            // Per column, short or long text, or numbers.
            let kinds: Vec<u8> = (0..width).map(|_| rng.gen_range(0..3)).collect();
            for _ in 0..rng.gen_range(0..40) {
                section.rows.push(
                    kinds
                        .iter()
                        .map(|k| match k {
                            0 => rng.gen_range(0..100_000).to_string(),
                            1 => text(&mut rng, 2),
                            _ => text(&mut rng, 12),
                        })
                        .collect(),
                );
            }
            let terminal = rng.gen_range(40..140);
            let (cols, squeeze, _) = layout(&section, Some(terminal));
            if cols.is_empty() {
                continue;
            }
            let whole = comfy(&section, &cols, Some(terminal), squeeze, &section.rows).to_string();
            let chunk = rng.gen_range(1..6);
            let sliced = chunked::draw(&section, &cols, terminal, squeeze, chunk);
            assert_eq!(
                sliced, whole,
                "case {case}: width {terminal}, {squeeze:?}, slices of {chunk}"
            );
        }
        // Letters of one shape, but `#` before a variation selector is two cells wide.
        let mut section = super::super::Section::new("", vec!["名".into(), "组".into()]);
        for i in 0..9 {
            let group = if i < 8 { "b\u{fe0f}" } else { "#\u{fe0f}" };
            section.rows.push(vec![format!("张{i}"), group.repeat(25)]);
        }
        for terminal in [40, 80, 120] {
            let (cols, squeeze, _) = layout(&section, Some(terminal));
            let whole = comfy(&section, &cols, Some(terminal), squeeze, &section.rows).to_string();
            assert_eq!(
                chunked::draw(&section, &cols, terminal, squeeze, 2),
                whole,
                "{terminal}"
            );
        }
    }

    #[test]
    fn hanzi_take_two_cells() {
        assert_eq!(display_width("成人组"), 6);
        assert_eq!(display_width("ab\n成人"), 4);
    }
}
