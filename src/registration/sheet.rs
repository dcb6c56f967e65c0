//! Reading a sheet: decoding a CSV file or the worksheets of a workbook, finding the
//! header row among title rows, mapping its columns, and handing each data row to
//! `Sheet::read_row` (in `row.rs`); a head count the sheet states (`共150人`) is
//! compared with the players read. Problems are collected, never returned early; a
//! sheet stops being read once the first problems to show are known (`problems.rs`).

use super::duplicates::{Seen, id_key, name_unit_key};
use super::headers::{self, Field, HeaderMap};
use super::limit::{self, Limit};
use super::problems::Problems;
use super::row::group_list;
use super::{FileRead, Place, RowError, normalise, xlsx};
use crate::i18n::Text;
use crate::input::decode::{self, Encoding, decode};
use crate::model::{Player, PlayerId};
use crate::privacy::{mask_id_number, mask_phone};
use crate::rulebook::Rulebook;
use std::collections::BTreeMap;

/// The index of the header row among the first rows: the first that names a 姓名/name
/// column (title rows such as 2018年金华市象棋棋王赛报名表 above it are skipped).
pub(super) fn header_row(records: &[(usize, Vec<String>)]) -> Option<usize> {
    records.iter().take(10).position(|(_, cells)| {
        cells
            .iter()
            .any(|c| headers::field_of(c) == Some(Field::Name))
    })
}

/// Tab if the first non-blank line has more tabs than commas (Excel's "Unicode text" and
/// copy-paste exports), else comma.
pub(super) fn delimiter(text: &str) -> u8 {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let tabs = first.matches('\t').count();
    let commas = first.matches(',').count();
    if tabs > commas { b'\t' } else { b',' }
}

/// Whether a 序号 cell marks the example row of a template (`示例`, `例`, `example`).
pub fn is_example_mark(cell: &str) -> bool {
    matches!(
        cell.to_lowercase().as_str(),
        "示例" | "例" | "样例" | "范例" | "example" | "e.g."
    )
}

/// The words a registration sheet's footer row starts with (填表人：张三 … 盖章 …).
const FOOTER_WORDS: &[&str] = &[
    "填表人",
    "填表日期",
    "填报人",
    "审核人",
    "审核",
    "盖章",
    "签章",
    "单位盖章",
    "单位（盖章）",
    "单位(盖章)",
    "负责人",
    "联系人",
    "经办人",
    "制表人",
    "制表",
    "日期",
    "报名单位（盖章）",
    "领队签字",
    "领队（签字）",
    "合计",
    "共计",
    "总计",
    // A subtotal (per unit, per group) is a footer line but not the list's count.
    "小计",
    "备注",
];

/// Whether a data row is the sheet's footer: its first filled cell is one of
/// [`FOOTER_WORDS`] as a label (`填表人：张三`, `审核：`, `单位盖章`, `日期 2021年9月1日`:
/// the word alone or followed by a colon, a space, a bracket or a digit), or the row's
/// only filled cell starts with one (`填表人张三`), or the row states the list's head
/// count ([`stated_head_count`]). A player's unit or name that merely begins with such a
/// word (日期中学, 联系人俱乐部, 合计队) is not a footer: its row is read as a player's.
pub(super) fn is_footer_row(cells: &[String]) -> bool {
    // Each cell is cleaned once: the first three filled ones decide.
    let filled = first_filled(cells);
    let Some(first) = filled.first() else {
        return false;
    };
    let labelled = FOOTER_WORDS.iter().any(|w| {
        first.strip_prefix(w).is_some_and(|after| {
            after.chars().next().is_none_or(|c| {
                matches!(c, ':' | '：' | '（' | '(' | '、' | ',' | '，')
                    || c.is_whitespace()
                    || c.is_ascii_digit()
            })
        })
    });
    let alone = filled.len() == 1 && FOOTER_WORDS.iter().any(|w| first.starts_with(w));
    labelled || alone || head_count_of(&filled).is_some()
}

/// A row's filled cells, cleaned, read as far as asked.
fn filled_cells(cells: &[String]) -> impl Iterator<Item = String> + '_ {
    cells
        .iter()
        .map(|c| normalise::clean(c))
        .filter(|c| !c.is_empty())
}

/// The words a head count starts with (`合计：150人`, `共150人`), longest first.
const COUNT_LABELS: &[&str] = &[
    "以上合计",
    "以上共",
    "报名人数",
    "参赛人数",
    "总人数",
    "合计",
    "共计",
    "总计",
    "共有",
    "人数",
    "共",
    "total",
];

/// The number of players a row states the list holds, as qiwang's own player list ends
/// and organisers' sheets often do: `150 人`, `共150人`, `合计：150人`, `共计 150 名`,
/// `共十人`, `共 10 人（男8女2）`, `男8人，女2人，共10人`, `报名人数：10`,
/// `Total: 150 players`, `12 players in total`, or a label cell (`合计`) followed by the
/// count (`150人`). A label or a unit (人, 名, players) must be there: a bare number is no
/// head count. Only a row of at most two filled cells states one: a row with more is a
/// player's (a unit named 共3人, a 序号 cell reading 共11人), never a count.
pub(super) fn stated_head_count(cells: &[String]) -> Option<usize> {
    head_count_of(&first_filled(cells))
}

/// A row's first three filled cells, cleaned: enough to tell a footer or a head count
/// (two cells at most) from a player's row.
fn first_filled(cells: &[String]) -> Vec<String> {
    filled_cells(cells).take(3).collect()
}

/// [`stated_head_count`] of a row's [`first_filled`] cells.
fn head_count_of(filled: &[String]) -> Option<usize> {
    match filled {
        [first] => head_count(first, None),
        [first, second] => head_count(first, Some(second)),
        _ => None,
    }
}

/// [`stated_head_count`] of a row whose first filled cell is `first`, `next` the filled
/// cell after it (if any).
fn head_count(first: &str, next: Option<&String>) -> Option<usize> {
    let lower = first.to_lowercase();
    // The label: at the start of the cell, else (a cell ending in 人/名) the last place a
    // label stands in it (男8人，女2人，共10人; 成人组共10人).
    let at_start = COUNT_LABELS.iter().find(|l| lower.starts_with(*l));
    let (labelled, after) = match at_start {
        Some(l) => (true, &lower[l.len()..]),
        None => match COUNT_LABELS
            .iter()
            .filter_map(|l| lower.rfind(l).map(|at| (at, l.len())))
            .max()
        {
            Some((at, len)) if lower.ends_with(['人', '名']) => (true, &lower[at + len..]),
            _ => (false, lower.as_str()),
        },
    };
    let after = after.trim_start_matches([':', '：', ' ', '\u{3000}']);
    let (count, unit) = if labelled && after.is_empty() {
        let next = next?.to_lowercase();
        let (n, rest) = leading_number(&next)?;
        (n, rest.trim_start().to_string())
    } else {
        let (n, rest) = leading_number(after)?;
        (n, rest.trim_start().to_string())
    };
    let has_unit = unit.starts_with(['人', '名']) || unit.starts_with("player");
    // After a label, the count stands alone or with its unit (合计 3000元 is no count).
    (has_unit || (labelled && unit.is_empty())).then_some(count)
}

/// A number at the start of `text` (ASCII digits, or Chinese numerals such as 十, 一百五十,
/// 两百), with what follows it.
fn leading_number(text: &str) -> Option<(usize, &str)> {
    let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 {
        return Some((text[..digits].parse().ok()?, &text[digits..]));
    }
    let numeral_end = text
        .char_indices()
        .find(|(_, c)| !"零〇一二两三四五六七八九十百千".contains(*c))
        .map_or(text.len(), |(i, _)| i);
    let numeral = &text[..numeral_end];
    Some((chinese_number(numeral)?, &text[numeral_end..]))
}

/// The value of a Chinese numeral up to the thousands (十 10, 十二 12, 一百五十 150,
/// 两百零三 203); `None` for an empty one. A numeral out of order (一二) reads as its
/// parts summed, as a count it is checked against the rows read anyway.
fn chinese_number(text: &str) -> Option<usize> {
    if text.is_empty() {
        return None;
    }
    let (mut total, mut digit) = (0usize, None::<usize>);
    for c in text.chars() {
        let unit = match c {
            '十' => 10,
            '百' => 100,
            '千' => 1000,
            _ => {
                digit = Some(match c {
                    '一' => 1,
                    '二' | '两' => 2,
                    '三' => 3,
                    '四' => 4,
                    '五' => 5,
                    '六' => 6,
                    '七' => 7,
                    '八' => 8,
                    '九' => 9,
                    '零' | '〇' => 0,
                    _ => return None,
                });
                continue;
            }
        };
        total += digit.take().unwrap_or(1) * unit;
    }
    Some(total + digit.unwrap_or(0))
}

/// A cell of an unrecognised first row, as a message may show it: anything holding
/// seven digits or more (an ID or phone number in a sheet without a header) masked, and
/// long text cut.
pub(super) fn shown_cell(raw: &str) -> String {
    let cell = normalise::clean(raw);
    if cell.chars().filter(char::is_ascii_digit).count() >= 7 {
        return if cell.chars().count() >= 15 {
            mask_id_number(&cell)
        } else {
            mask_phone(&cell)
        };
    }
    if cell.chars().count() > 20 {
        let cut: String = cell.chars().take(20).collect();
        return format!("{cut}…");
    }
    cell
}

/// The reading of one file.
pub(super) struct Sheet<'a> {
    pub(super) rules: &'a Rulebook,
    pub(super) next_id: PlayerId,
    pub(super) players: Vec<Player>,
    pub(super) errors: Problems,
    pub(super) ids: BTreeMap<String, Seen>,
    pub(super) names: BTreeMap<(String, String), Seen>,
    /// Name and group → where first seen, to say when one name is twice in a group.
    pub(super) group_names: BTreeMap<(String, crate::model::GroupId), Seen>,
    /// A unit's [`normalise::unit_key`] → its first spelling, and the pairs of spellings
    /// already said, to warn once about two spellings of one unit.
    pub(super) unit_spellings: BTreeMap<String, String>,
    pub(super) unit_pairs_said: std::collections::BTreeSet<(String, String)>,
    /// The file and sheet being read, when messages must name them (a workbook, or a
    /// batch of several files); `None` for a lone CSV file, whose errors say `file:line`.
    pub(super) at: Option<Place>,
    pub(super) warnings: Vec<RowError>,
    pub(super) strict: bool,
    /// The event's maximum number of players, with those registered before.
    pub(super) limit: Limit,
    /// Where each player read stands in its sheet, kept only in a team competition,
    /// whose team checks run over the whole batch (`team_sheet.rs`).
    pub(super) rows: Vec<super::team_sheet::RowAt>,
    /// Per pool seeded from the sheet (`seeding = "sheet"`), each 序号 taken and by whom,
    /// so a repeat is refused at its cell (docs/rules.md §14.1).
    pub(super) sheet_numbers: BTreeMap<(crate::model::GroupId, u32), String>,
}

impl<'a> Sheet<'a> {
    pub(super) fn new(rules: &'a Rulebook, existing: &[Player], next_id: PlayerId) -> Self {
        let mut ids = BTreeMap::new();
        let mut names = BTreeMap::new();
        let mut group_names = BTreeMap::new();
        let mut unit_spellings = BTreeMap::new();
        for p in existing {
            unit_spellings
                .entry(normalise::unit_key(&p.unit))
                .or_insert_with(|| p.unit.trim().to_string());
            group_names
                .entry((normalise::key(&p.name), p.group.clone()))
                .or_insert_with(|| Seen::Registered(p.id, p.name.clone()));
            if let Some(id) = &p.id_number {
                ids.entry(id_key(id))
                    .or_insert_with(|| Seen::Registered(p.id, p.name.clone()));
            }
            names
                .entry(name_unit_key(&p.name, &p.unit))
                .or_insert_with(|| Seen::Registered(p.id, p.name.clone()));
        }
        Sheet {
            rules,
            next_id,
            players: Vec::new(),
            errors: Problems::default(),
            ids,
            names,
            group_names,
            unit_spellings,
            unit_pairs_said: Default::default(),
            at: None,
            warnings: Vec::new(),
            strict: false,
            limit: Limit::of(rules, existing.len()),
            rows: Vec::new(),
            sheet_numbers: existing
                .iter()
                .filter_map(|p| {
                    p.sheet_number
                        .map(|n| ((p.group.clone(), n), p.name.clone()))
                })
                .collect(),
        }
    }

    /// Decodes a CSV file and reads it.
    pub(super) fn read_csv_file(&mut self, bytes: &[u8], encoding: Encoding) {
        let text = match decode(bytes, encoding) {
            Ok(d) => d.text,
            Err(e) => {
                self.errors.push(e.into());
                return;
            }
        };
        if let Some(at) = text.find('\0') {
            self.errors.push(RowError::new(
                text[..at].matches('\n').count() + 1,
                None,
                None,
                Text::new(
                    "该行含有 NUL 字符，所以这不是文本文件（可能是没有字节顺序标记的 UTF-16）；请在 Excel 中另存为“CSV UTF-8”",
                    "the line holds a NUL character, so this is no text file (perhaps UTF-16 without a byte-order mark); save the sheet from Excel as \"CSV UTF-8\"",
                ),
            ));
            return;
        }
        self.read(&text);
    }

    /// Locates the problems of the part just read (a CSV file or one worksheet).
    pub(super) fn finish_part(&mut self, map: Option<&HeaderMap>) {
        if let Some(at) = &self.at {
            // Warnings name their cell as errors do (`报名表!K7`).
            for e in self.warnings.iter_mut().filter(|e| e.place.is_none()) {
                let col = e
                    .column
                    .as_ref()
                    .and_then(|c| map.and_then(|m| m.names.iter().position(|n| n == c)));
                e.place = Some(Box::new(Place {
                    col: if at.sheet.is_some() { col } else { None },
                    ..at.clone()
                }));
            }
            for e in self.errors.unplaced() {
                let col = e
                    .column
                    .as_ref()
                    .and_then(|c| map.and_then(|m| m.names.iter().position(|n| n == c)));
                e.place = Some(Box::new(Place {
                    col: if at.sheet.is_some() { col } else { None },
                    ..at.clone()
                }));
            }
        }
    }

    /// Whether reading may stop before row `line` of the current part, the problems to
    /// show being known; if so, says where it stopped.
    fn stop_before(&mut self, line: usize) -> bool {
        let settled = self.errors.settled(line);
        if settled {
            self.errors.stop(line, self.at.clone());
        }
        settled
    }

    /// Reads the worksheets of a workbook that have a header row (or only `only`).
    pub(super) fn read_workbook(
        &mut self,
        file: &str,
        bytes: &[u8],
        only: Option<&str>,
        read: &mut FileRead,
    ) {
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
        // By value, each row dropped once it is text: the cells and their text are not
        // held twice for a whole workbook.
        for grid in grids {
            if only.is_some_and(|want| want != grid.sheet) {
                continue;
            }
            if self.errors.stopped() {
                return;
            }
            self.errors.next_part();
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
            let header = &first[h].1;
            let fields: Vec<Option<Field>> = header
                .iter()
                .map(|c| headers::field_of(&normalise::clean(c)))
                .collect();
            let mut records = vec![first[h].clone()];
            let mut rows = 0;
            for (line, cells) in grid.rows.into_iter().skip(h + 1) {
                if self.stop_before(line) {
                    break;
                }
                let mut row = Vec::with_capacity(cells.len());
                let mut ok = true;
                for (i, cell) in cells.iter().enumerate() {
                    match xlsx::cell_text(cell, fields.get(i).copied().flatten()) {
                        Ok(text) => row.push(text),
                        Err(message) => {
                            ok = false;
                            self.errors.push(RowError {
                                place: Some(Box::new(Place {
                                    file: file.to_string(),
                                    sheet: Some(grid.sheet.clone()),
                                    col: Some(i),
                                })),
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
                }
            }
            let map = self.read_records(&records, 0);
            self.finish_part(map.as_ref());
            read.sheets.push(grid.sheet.clone());
        }
        if read.sheets.is_empty() && only.is_none() && !self.errors.stopped() {
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

    pub(super) fn read(&mut self, text: &str) {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            // Field counts are checked here against the header, so the message can say
            // which row and what to fix.
            .flexible(true)
            .delimiter(delimiter(text))
            .from_reader(text.as_bytes());
        let mut records: Vec<(usize, Vec<String>)> = Vec::new();
        let mut lines = decode::LineCounter::new(text);
        let mut rows = 0;
        for result in reader.records() {
            match result {
                Ok(record) => {
                    let line = lines.line_of(record.position());
                    if self.stop_before(line) {
                        break;
                    }
                    let cells: Vec<String> = record
                        .iter()
                        .map(|c| crate::sanitize::csv_cell_unguarded(c).to_string())
                        .collect();
                    rows += usize::from(limit::may_be_player(&cells));
                    if self.limit.rows_exceed(self.players.len(), rows) {
                        let text = self.limit.stopped(line);
                        self.errors.push(RowError::new(line, None, None, text));
                        return;
                    }
                    records.push((line, cells));
                }
                Err(e) => {
                    let line = lines.line_of(e.position());
                    self.errors.push(RowError::new(
                        line,
                        None,
                        None,
                        Text::new(
                            format!("该行无法按 CSV 读取：{e}"),
                            format!("the row cannot be read as CSV: {e}"),
                        ),
                    ));
                }
            }
        }
        // Title rows above the header (比赛名称, 报名表) are skipped: the header is the
        // first of the first rows that names a 姓名/name column.
        let Some(header_at) = header_row(&records) else {
            let (line, found) = records
                .first()
                .map(|(l, c)| {
                    (
                        *l,
                        c.iter().take(6).map(|s| shown_cell(s)).collect::<Vec<_>>(),
                    )
                })
                .unwrap_or((1, Vec::new()));
            let found = found.join(",");
            self.errors.push(RowError::new(
                line,
                None,
                None,
                Text::new(
                    format!(
                        "没有含 姓名/name 列的表头行（第一行：`{found}`）；第一行必须写出各列名称，例如 姓名,性别,单位,组别"
                    ),
                    format!(
                        "no header row with a 姓名/name column (first row: `{found}`); the first line must name the columns, e.g. 姓名,性别,单位,组别"
                    ),
                ),
            ));
            return;
        };
        self.read_records(&records, header_at);
    }

    /// Reads the rows from the header at `header_at` on; the header's map, unless the
    /// header itself could not be used.
    pub(super) fn read_records(
        &mut self,
        records: &[(usize, Vec<String>)],
        header_at: usize,
    ) -> Option<HeaderMap> {
        let (header_line, header_cells) = &records[header_at];
        if header_cells.len() > headers::MAX_COLUMNS {
            let (n, max) = (header_cells.len(), headers::MAX_COLUMNS);
            self.errors.push(RowError::new(
                *header_line,
                None,
                None,
                Text::new(
                    format!(
                        "表头行有 {n} 列，超过上限 {max} 列；这不像报名表：请只保留报名需要的列"
                    ),
                    format!(
                        "the header row has {n} columns, more than the limit of {max}; this is no registration sheet: keep only the columns a registration needs"
                    ),
                ),
            ));
            return None;
        }
        let (map, problems) = HeaderMap::new(header_cells);
        for p in problems {
            self.errors.push(RowError::new(
                *header_line,
                Some(map.names[p.column].clone()),
                None,
                p.message,
            ));
        }
        let pools = self.rules.pools().count();
        if map.column(Field::Group).is_none() && pools != 1 {
            let groups = group_list(self.rules);
            self.errors.push(RowError::new(
                *header_line,
                None,
                None,
                Text::new(
                    format!(
                        "没有 组别/group 列，而规程有 {pools} 个编排组；请添加 组别 列，写 {} 之一",
                        groups.zh
                    ),
                    format!(
                        "no 组别/group column, and the rulebook has {pools} pools; add a 组别 column naming one of {}",
                        groups.en
                    ),
                ),
            ));
            return Some(map);
        }
        let team = self.rules.team_competition.is_some();
        for (_, name) in map.unknown() {
            if team && super::team_sheet::is_team_column(name) {
                continue;
            }
            let e = RowError::new(
                *header_line,
                Some(name.to_string()),
                None,
                if self.strict {
                    Text::new(
                        format!(
                            "qiwang 不认识 `{name}` 列（--strict）；请改成已知的列名（如 单位、组别、出生日期），或删去该列"
                        ),
                        format!(
                            "qiwang does not know the column `{name}` (--strict); rename it to a known header (such as 单位, 组别, 出生日期) or remove it"
                        ),
                    )
                } else {
                    Text::new(
                        format!(
                            "qiwang 不认识 `{name}` 列；其内容作为附加信息随棋手保存，不参与资格审查"
                        ),
                        format!(
                            "qiwang does not know the column `{name}`; its values are kept with each player as extra information and are not checked"
                        ),
                    )
                },
            );
            if self.strict {
                self.errors.push(e);
            } else {
                self.warnings.push(e);
            }
        }
        let mut rows = 0;
        let players_before = self.players.len();
        // The last head count the sheet states (`共150人`): its line and number.
        let mut stated: Option<(usize, usize)> = None;
        let names = std::rc::Rc::new(map.names.clone());
        let number_col = map.column(Field::Number);
        for (line, cells) in &records[header_at + 1..] {
            if self.stop_before(*line) {
                return Some(map);
            }
            // Blank rows, rows of commas, and the pre-numbered empty rows of a template
            // (only 序号 filled in) are not registrations.
            let blank = cells.iter().enumerate().all(|(i, c)| {
                let c = normalise::clean(c);
                c.is_empty() || (Some(i) == number_col && c.chars().all(|d| d.is_ascii_digit()))
            });
            // The example row of `qiwang template` (序号 示例) shows how to fill the sheet.
            let example = number_col
                .and_then(|c| cells.get(c))
                .is_some_and(|c| is_example_mark(&normalise::clean(c)));
            if blank || example {
                continue;
            }
            // The footer organisers sign under the list (填表人、审核、盖章、日期): said,
            // and skipped, not read as a player.
            if is_footer_row(cells) {
                if let Some(count) = stated_head_count(cells) {
                    stated = Some((*line, count));
                }
                self.warnings.push(RowError::new(
                    *line,
                    None,
                    None,
                    Text::new(
                        "这一行是表尾（填表人、审核、盖章、日期等），不是棋手，已跳过",
                        "this row is the sheet's footer (填表人, 审核, 盖章, 日期 …), not a player: skipped",
                    ),
                ));
                continue;
            }
            rows += 1;
            let before = self.players.len();
            self.read_row(*line, &map, cells);
            if team && self.players.len() > before {
                self.rows.push(super::team_sheet::RowAt {
                    line: *line,
                    at: self.at.clone(),
                    names: names.clone(),
                });
            }
        }
        let read = self.players.len() - players_before;
        if let Some((line, count)) = stated
            && count != read
        {
            self.warnings.push(head_count_differs(line, count, read));
        }
        if rows == 0 {
            self.errors.push(RowError::new(
                *header_line,
                None,
                None,
                Text::new(
                    "表格只有表头，没有棋手行；请检查导出的是否是正确的工作表",
                    "the sheet has a header but no player rows; check that the right sheet was exported",
                ),
            ));
        }
        Some(map)
    }
}

/// The warning that the head count a sheet states (`共150人`, at `line`) is not the
/// number of players read from it: a row lost in an export is what an organiser must
/// hear of. The import goes ahead; the file and sheet are named by the warning's place.
fn head_count_differs(line: usize, stated: usize, read: usize) -> RowError {
    RowError::new(
        line,
        None,
        None,
        Text::new(
            format!(
                "表中写明共 {stated} 人，但从表中读到 {read} 名棋手；请对照原表核对，导出或复制时可能漏了行（本次照常导入）"
            ),
            format!(
                "the sheet states {} but {} read from it; check it against the original, a row may have been lost in the export or copy (imported all the same)",
                crate::i18n::plural(stated, "player", "players"),
                crate::i18n::plural(read, "player was", "players were"),
            ),
        ),
    )
}
