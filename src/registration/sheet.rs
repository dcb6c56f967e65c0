//! Reading a sheet: decoding a CSV file or the worksheets of a workbook (found in
//! `sheet/workbook.rs`), finding the header row among title rows, mapping its columns,
//! and handing each data row to `Sheet::read_row` (in `row.rs`), skipping its footer; a
//! head count the sheet states (`共150人`, read in `footer.rs`) is compared with the
//! players read. Problems are collected, never returned early; a sheet stops being read
//! once the first problems to show are known (`problems.rs`).

mod workbook;

use super::duplicates::{Seen, id_key, name_unit_key};
use super::footer::{
    StatedCounts, fills_like_player, footer_of, footer_word_on_player_row, lone_line,
    repeated_header_note, repeats_header, title_head_count, title_parts,
};
use super::headers::{self, Field, HeaderMap};
use super::limit::{self, Limit};
use super::problems::Problems;
use super::row::group_list;
use super::{Place, RowError, normalise};
use crate::i18n::Text;
use crate::input::decode::{self, Encoding, decode};
use crate::model::{Player, PlayerId};
use crate::privacy::{mask_id_number, mask_phone};
use crate::rulebook::Rulebook;
use std::collections::{BTreeMap, BTreeSet};

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
    /// Each pool merged away with the pool its entries join ([`super::BatchOptions`]):
    /// the group of `group_names` is the pool a row ends up in.
    pub(super) merged: BTreeMap<crate::model::GroupId, crate::model::GroupId>,
    /// Each pool that takes no entries with the cancelled pool of its chain of merges
    /// ([`super::BatchOptions`]): a row for it is refused at its line.
    pub(super) cancelled: BTreeMap<crate::model::GroupId, crate::model::GroupId>,
    /// A unit's [`normalise::unit_key`] → its first spelling, and the pairs of spellings
    /// already said, to warn once about two spellings of one unit.
    pub(super) unit_spellings: BTreeMap<String, String>,
    pub(super) unit_pairs_said: std::collections::BTreeSet<(String, String)>,
    /// The file and sheet being read, when messages must name them (a workbook, or a
    /// batch of several files); `None` for a lone CSV file, whose errors say `file:line`.
    pub(super) at: Option<Place>,
    pub(super) warnings: Vec<RowError>,
    pub(super) strict: bool,
    /// The one row is a player entered or corrected by hand (`player add`, `player edit`),
    /// not a sheet's: its refusals advise on the entry, not on rows.
    pub(super) by_hand: bool,
    /// The event's maximum number of players, with those registered before.
    pub(super) limit: Limit,
    /// Where each player read stands in its sheet, kept only in a team competition,
    /// whose team checks run over the whole batch (`team_sheet.rs`).
    pub(super) rows: Vec<super::team_sheet::RowAt>,
    /// Per pool seeded from the sheet (`seeding = "sheet"`), each 序号 taken and by whom,
    /// so a repeat is refused at its cell (docs/rules.md §14.1).
    pub(super) sheet_numbers: BTreeMap<(crate::model::GroupId, u32), String>,
    /// The head-count warnings of the file being read, by their index in `warnings`, with
    /// the count each says is stated: in a workbook, a count that is the whole workbook's
    /// is no sheet's mistake (`read_workbook` takes its warning back).
    pub(super) counts_off: Vec<(usize, usize)>,
    /// The refusals of the workbook sheet being read for name cells that hold no text
    /// (a number, a date), by their row's line: given only if the row is read as a
    /// player's, not when it is skipped as a footer or a date line (`合计 | 3`). Each row
    /// takes its own when it is read, with no scan of the others.
    pub(super) not_text: BTreeMap<usize, Vec<RowError>>,
    /// The rows the workbook sheet being read hides (by hand or by a filter), and those
    /// of them read as players, with the player's name: said once per sheet
    /// ([`hidden_rows_note`]), since the organiser does not see them in Excel.
    pub(super) hidden_rows: BTreeSet<usize>,
    pub(super) hidden_read: Vec<(usize, String)>,
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
                .or_insert_with(|| registered(p));
            if let Some(id) = &p.id_number {
                ids.entry(id_key(id)).or_insert_with(|| registered(p));
            }
            names
                .entry(name_unit_key(&p.name, &p.unit))
                .or_insert_with(|| registered(p));
        }
        Sheet {
            rules,
            next_id,
            players: Vec::new(),
            errors: Problems::default(),
            ids,
            names,
            group_names,
            merged: BTreeMap::new(),
            cancelled: BTreeMap::new(),
            unit_spellings,
            unit_pairs_said: Default::default(),
            at: None,
            warnings: Vec::new(),
            strict: false,
            by_hand: false,
            limit: Limit::of(rules, existing.len()),
            rows: Vec::new(),
            sheet_numbers: existing
                .iter()
                .filter_map(|p| {
                    p.sheet_number
                        .map(|n| ((p.group.clone(), n), p.shown_name().into_owned()))
                })
                .collect(),
            counts_off: Vec::new(),
            not_text: BTreeMap::new(),
            hidden_rows: BTreeSet::new(),
            hidden_read: Vec::new(),
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

    pub(super) fn read(&mut self, text: &str) {
        self.counts_off.clear();
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

    /// Reads the rows from the header at `header_at` on (the title rows before it are read
    /// only for a head count they state); the header's map, unless the header itself
    /// could not be used.
    pub(super) fn read_records(
        &mut self,
        records: &[(usize, Vec<String>)],
        header_at: usize,
    ) -> Option<HeaderMap> {
        let (header_line, header_cells) = &records[header_at];
        // A two-row header (大表头): its second row names the columns under a heading.
        let two_rows = records
            .get(header_at + 1)
            .and_then(|(_, next)| headers::two_row_header(header_cells, next));
        let header_cells = two_rows.as_ref().unwrap_or(header_cells);
        let first_row = header_at + 1 + usize::from(two_rows.is_some());
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
        // A header problem is placed at the row its header stands in: the second row of a
        // two-row header for a column it names (手机 under 联系方式), not the merged cell.
        let sub_line = records.get(header_at + 1).map(|(line, _)| *line);
        let line_of = |col: usize| match (&two_rows, sub_line) {
            (Some(combined), Some(sub)) if combined.get(col) != records[header_at].1.get(col) => {
                sub
            }
            _ => *header_line,
        };
        let mut noted = Vec::new();
        for p in problems {
            let e = RowError::new(
                line_of(p.column),
                Some(map.names[p.column].clone()),
                None,
                p.message,
            );
            if p.note_only {
                noted.push(p.column);
                self.warnings.push(e);
            } else {
                self.errors.push(e);
            }
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
        for (col, name) in map.unknown() {
            if (team && super::team_sheet::is_team_column(name)) || noted.contains(&col) {
                continue;
            }
            // 领队 and 教练 are known, though no player's field: the programme prints them.
            if let Some(role) = super::headers::staff_role(name) {
                let note = super::headers::staff_note(name, role);
                let e = RowError::new(*header_line, Some(name.to_string()), None, note);
                self.warnings.push(e);
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
        // The head counts the sheet states (`共150人`), a title row above the header
        // (报名表（共150人）) included.
        let mut stated = StatedCounts::default();
        for (line, cells) in &records[..header_at] {
            if let Some(parts) = title_parts(cells) {
                for part in parts {
                    stated.push_part(*line, part);
                }
            } else if let Some(count) = title_head_count(cells) {
                stated.push(*line, count);
            }
        }
        let names = std::rc::Rc::new(map.names.clone());
        let number_col = map.column(Field::Number);
        for (line, cells) in &records[first_row..] {
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
            // The header again (a printout's next page): said, and skipped.
            if repeats_header(cells, &map) {
                self.warnings.push(repeated_header_note(*line));
                continue;
            }
            // The row as the footer and lone-line checks judge it: its 序号 cell set aside
            // when it holds a number (a pre-numbered template's `5,审核,,,`), kept when it
            // holds text (`第二页` typed in column A), so a sheet with a 序号 column and
            // one without read their footers alike.
            let judged = without_number(cells, number_col);
            // The footer organisers sign under the list (填表人、审核、盖章、日期): said,
            // and skipped, not read as a player; a row that starts with a footer word yet
            // fills the player columns like a player is refused, never dropped.
            if let Some(footer) = footer_of(&judged) {
                if fills_like_player(cells, &map, self.rules) {
                    rows += 1;
                    // Only the footer word is quoted, never the rest of its cell (联系人:李四
                    // 138…); a count line has none, and its first cell is the count.
                    let word = footer.word.map(str::to_string).unwrap_or_else(|| {
                        judged
                            .iter()
                            .map(|c| normalise::clean(c))
                            .find(|c| !c.is_empty())
                            .unwrap_or_default()
                    });
                    self.errors.push(footer_word_on_player_row(*line, &word));
                    continue;
                }
                for &part in &footer.parts {
                    stated.push_part(*line, part);
                }
                match footer.head_count {
                    Some(count) if footer.part => stated.push_part(*line, count),
                    Some(count) => stated.push(*line, count),
                    None => {}
                }
                let text = if footer.word.is_some() {
                    Text::new(
                        "这一行是表尾（填表人、审核、盖章、日期等），不是棋手，已跳过",
                        "this row is the sheet's footer (填表人, 审核, 盖章, 日期 …), not a player: skipped",
                    )
                } else {
                    Text::new(
                        "这一行是人数行（如 共10人、男子组共8人），不是棋手，已跳过",
                        "this row states a head count (such as 共10人, 男子组共8人), not a player: skipped",
                    )
                };
                self.warnings.push(RowError::new(*line, None, None, text));
                continue;
            }
            // A lone date, page or note line (2026年12月5日, 第二页, 注：…): said, and skipped.
            if let Some(lone) = lone_line(&judged) {
                self.warnings.push(lone.note(*line));
                continue;
            }
            rows += 1;
            if let Some(refused) = self.not_text.remove(line) {
                self.errors.extend(refused);
                continue;
            }
            let before = self.players.len();
            self.read_row(*line, &map, cells);
            if self.players.len() > before && self.hidden_rows.contains(line) {
                let name = self.players.last().map(|p| p.name.clone());
                self.hidden_read.push((*line, name.unwrap_or_default()));
            }
            if team && self.players.len() > before {
                self.rows.push(super::team_sheet::RowAt {
                    line: *line,
                    at: self.at.clone(),
                    names: names.clone(),
                });
            }
        }
        if let Some(note) = hidden_rows_note(&std::mem::take(&mut self.hidden_read)) {
            self.warnings.push(note);
        }
        let read = self.players.len() - players_before;
        if let Some(off) = stated.differing(read) {
            self.counts_off.push((self.warnings.len(), off.count()));
            self.warnings.push(off.warning(read));
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

/// The warning that rows Excel hides (`read`: each row's line and the player read from
/// it) were read as players: organisers hide the rows of entries that dropped out, and
/// a filter hides rows too, so they are read (nothing is dropped unseen) and named, at
/// the first of them. `None` when none was.
fn hidden_rows_note(read: &[(usize, String)]) -> Option<RowError> {
    const LISTED: usize = 10;
    let (first, _) = read.first()?;
    let shown = &read[..read.len().min(LISTED)];
    let lines = shown.iter().map(|(l, _)| l.to_string()).collect::<Vec<_>>();
    let names = shown.iter().map(|(_, n)| n.as_str()).collect::<Vec<_>>();
    let more = read.len() - shown.len();
    let (more_zh, more_en) = match more {
        0 => (String::new(), String::new()),
        n => (format!("等 {} 行", read.len()), format!(" and {n} more")),
    };
    let (rows_zh, rows_en) = match read.len() {
        // The warning is placed at the row: it is not named twice.
        1 => ("这一行".to_string(), "this row".to_string()),
        _ => (
            format!("第 {} 行{more_zh}", lines.join("、")),
            format!("rows {}{more_en}", lines.join(", ")),
        ),
    };
    Some(RowError::new(
        *first,
        None,
        None,
        Text::new(
            format!(
                "{rows_zh}在工作表中是隐藏的（手工隐藏或被筛选掉），仍作为棋手读入：{}；若已退出比赛，请在表中删去该行后重新导入，或导入后用 `qiwang player withdraw` 退赛",
                names.join("、")
            ),
            format!(
                "{rows_en} hidden in the sheet (by hand or by a filter) {} read as players all the same: {}; for an entry that dropped out, delete the row and import again, or withdraw the player after the import with `qiwang player withdraw`",
                if read.len() == 1 { "is" } else { "are" },
                names.join(", ")
            ),
        ),
    ))
}

/// `cells` with the 序号 cell (column `number_col`) emptied when it holds a number, as a
/// pre-numbered template's rows do; a 序号 cell holding text (`第二页`, `注：…` typed in
/// column A) is kept, to be read as what it says.
fn without_number(cells: &[String], number_col: Option<usize>) -> Vec<String> {
    let mut judged = cells.to_vec();
    if let Some(cell) = number_col.and_then(|c| judged.get_mut(c)) {
        let clean = normalise::clean(cell);
        if !clean.is_empty() && clean.chars().all(|d| d.is_ascii_digit()) {
            cell.clear();
        }
    }
    judged
}

/// A player registered before the sheet, as a duplicate message names them: the name
/// masked where it holds a number (`Player::shown_name`).
fn registered(p: &crate::model::Player) -> Seen {
    Seen::Registered(p.id, p.shown_name().into_owned())
}
