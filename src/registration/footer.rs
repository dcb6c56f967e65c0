//! The rows of a registration sheet that are not players: the footer organisers sign
//! under the list (填表人、审核、盖章、日期 …) and the head count a sheet states
//! (`共150人`, `合计：150人`), read from a row, with the warning when it differs from the
//! players read; the header repeated on a printout's next page; a lone date, note or page
//! line; and the row that starts with a footer word yet fills the player columns like a
//! player (never a footer). `sheet.rs` skips these rows (or refuses the last) and
//! compares the count.

use super::headers::{Field, HeaderMap};
use super::{RowError, normalise, values};
use crate::i18n::Text;
use crate::rulebook::Rulebook;

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

/// A data row that is the sheet's footer, as [`footer_of`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Footer {
    /// The head count the row states ([`head_count_of`]), if it states one.
    pub(super) head_count: Option<usize>,
    /// Whether the count is a part's (男子组共8人, 其中女子组共1人: a label after words
    /// that hold no count), not a total (共10人, 合计：10人, 男8人，女2人，共10人).
    pub(super) part: bool,
    /// The part counts the row's one cell states side by side (男子组共5人，女子组共3人,
    /// [`cell_parts`]): then `head_count` is `None`, since no total is stated.
    pub(super) parts: Vec<usize>,
    /// The footer word that signs the row off as a footer (填表人、合计 …: one of
    /// [`FOOTER_WORDS`], never the rest of its cell), or `None` for a row that is only a
    /// head-count line (男子组共8人).
    pub(super) word: Option<&'static str>,
}

/// The row as the sheet's footer, or `None` for a row to read as a player's. A row is the
/// footer when its first filled cell is one of [`FOOTER_WORDS`] as a label (`填表人：张三`,
/// `审核：`, `单位盖章`, `日期 2021年9月1日`: the word alone or followed by a colon, a
/// space, a bracket or a digit), or its only filled cell starts with one (`填表人张三`),
/// or it states the list's head count ([`head_count_of`], read here once and kept in
/// the answer). A player's unit or name that merely begins with such a word (日期中学,
/// 联系人俱乐部, 合计队) is not a footer: its row is read as a player's.
pub(super) fn footer_of(cells: &[String]) -> Option<Footer> {
    // Each cell is cleaned once: the first three filled ones decide.
    let filled = first_filled(cells);
    let first = filled.first()?;
    // The longest word that leads the cell (审核人 before 审核), as a label or alone.
    let leading = FOOTER_WORDS
        .iter()
        .filter(|w| first.starts_with(*w))
        .max_by_key(|w| w.len())
        .copied();
    let labelled = leading.is_some_and(|w| {
        first[w.len()..].chars().next().is_none_or(|c| {
            matches!(c, ':' | '：' | '（' | '(' | '、' | ',' | '，')
                || c.is_whitespace()
                || c.is_ascii_digit()
        })
    });
    let alone = filled.len() == 1 && leading.is_some();
    let parts = match filled.as_slice() {
        [only] => cell_parts(only).unwrap_or_default(),
        _ => Vec::new(),
    };
    let head_count = head_count_of(&filled).filter(|_| parts.is_empty());
    let signed = labelled || alone;
    let part = head_count.is_some() && filled.len() == 1 && is_part(first);
    (signed || head_count.is_some() || !parts.is_empty()).then_some(Footer {
        head_count,
        part,
        parts,
        word: leading.filter(|_| signed),
    })
}

/// The part counts one cell states side by side — `男子组共5人，女子组共3人`,
/// `甲队共5人；乙队共3人`, `男子组共5人 女子组共3人` — as [`is_part`] reads each: the cell
/// split at commas, semicolons, 、, slashes and spaces into two or more clauses, every
/// one a part's count. `None` for any other cell: one count, a total after its parts
/// (`男8人，女2人，共10人` is the total 10), or a count with other words beside it.
fn cell_parts(cell: &str) -> Option<Vec<usize>> {
    let clauses: Vec<&str> = cell
        .split([',', '，', ';', '；', '、', '/', '／', ' '])
        .map(|c| c.trim_end_matches(['。', '.']))
        .filter(|c| !c.is_empty())
        .collect();
    if clauses.len() < 2 {
        return None;
    }
    clauses
        .iter()
        .map(|c| head_count(c, None).filter(|_| is_part(c)))
        .collect()
}

/// The part counts a title row above the header states side by side in one cell, or in
/// the brackets that end it (`2026年报名表（男子组共5人，女子组共3人）`): see
/// [`cell_parts`]. Such a title states no total, so [`title_head_count`] is not asked.
pub(super) fn title_parts(cells: &[String]) -> Option<Vec<usize>> {
    first_filled(cells)
        .iter()
        .find_map(|cell| cell_parts(cell).or_else(|| cell_parts(bracketed(cell)?)))
}

/// Whether a count cell states a part (男子组共8人): its last count label follows words
/// that are no label and hold no number.
fn is_part(cell: &str) -> bool {
    let lower = cell.to_lowercase();
    if COUNT_LABELS.iter().any(|l| lower.starts_with(l)) {
        return false;
    }
    COUNT_LABELS
        .iter()
        .filter_map(|l| lower.rfind(l))
        .max()
        .is_some_and(|at| {
            let before = &lower[..at];
            !before.is_empty()
                && leading_number(before).is_none()
                && !before.contains(|c: char| c.is_ascii_digit())
        })
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

/// A row's first three filled cells, cleaned: enough to tell a footer or a head count
/// (two cells at most) from a player's row.
fn first_filled(cells: &[String]) -> Vec<String> {
    filled_cells(cells).take(3).collect()
}

/// The number of players a row states the list holds, as qiwang's own player list ends
/// and organisers' sheets often do: `150 人`, `共150人`, `合计：150人`, `共计 150 名`,
/// `共十人`, `共 10 人（男8女2）`, `男8人，女2人，共10人`, `报名人数：10`,
/// `Total: 150 players`, `12 players in total`, or a label cell (`合计`) followed by the
/// count (`150人`). A label or a unit (人, 名, players) must be there: a bare number is no
/// head count. Only a row of at most two filled cells states one: a row with more is a
/// player's (a unit named 共3人, a 序号 cell reading 共11人), never a count.
///
/// `filled`: the row's [`first_filled`] cells.
fn head_count_of(filled: &[String]) -> Option<usize> {
    match filled {
        [first] => head_count(first, None),
        [first, second] => head_count(first, Some(second)),
        _ => None,
    }
}

/// The count of a row whose first filled cell is `first`, `next` the filled
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
    // A bound is no count (参赛人数200人以内, 10人以上).
    let bound = unit
        .strip_prefix(['人', '名'])
        .is_some_and(|rest| BOUND_WORDS.iter().any(|w| rest.trim_start().starts_with(w)));
    // After a label, the count stands alone or with its unit (合计 3000元 is no count).
    (!bound && (has_unit || (labelled && unit.is_empty()))).then_some(count)
}

/// What after a number and its unit makes it a bound, not a count (200人以内).
const BOUND_WORDS: &[&str] = &["以内", "以下", "以上", "为限", "左右"];

/// The head count a title row above the header states: the row's own (`共150人`, as a
/// footer states one), else that of one of its cells alone or in the brackets that end
/// it (`2026年少儿象棋赛报名表（共150人）`, `报名表`,`共150人`). A title names the whole
/// list, so a count in it is the list's; below the header a bracket may hold one unit's
/// count (`无为一中（共3人）`) and is not read.
pub(super) fn title_head_count(cells: &[String]) -> Option<usize> {
    let filled = first_filled(cells);
    head_count_of(&filled).or_else(|| {
        filled
            .iter()
            .find_map(|cell| head_count(cell, None).or_else(|| head_count(bracketed(cell)?, None)))
    })
}

/// The text inside the brackets that end `cell` (`报名表（共150人）` → `共150人`).
fn bracketed(cell: &str) -> Option<&str> {
    let inner = cell.strip_suffix(['）', ')'])?;
    let (open, bracket) = inner
        .char_indices()
        .rev()
        .find(|(_, c)| matches!(c, '（' | '('))?;
    Some(&inner[open + bracket.len_utf8()..])
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

/// The head counts a sheet states (in its title rows and under its list), each with its
/// line and whether it counts a part (男子组共8人), as read.
#[derive(Debug, Default)]
pub(super) struct StatedCounts(Vec<Stated>);

/// One head count a sheet states: its line, the count, and whether it is a part's.
#[derive(Debug, Clone, Copy)]
struct Stated {
    line: usize,
    count: usize,
    part: bool,
}

impl StatedCounts {
    /// Notes that `line` states `count`.
    pub(super) fn push(&mut self, line: usize, count: usize) {
        self.0.push(Stated {
            line,
            count,
            part: false,
        });
    }

    /// Notes that `line` states `count` for a part (男子组共8人).
    pub(super) fn push_part(&mut self, line: usize, count: usize) {
        self.0.push(Stated {
            line,
            count,
            part: true,
        });
    }

    /// The count to compare with the `read` players, when they differ: `None` when the
    /// sheet states no count or its count agrees.
    ///
    /// The rule: a sheet may state several counts, its parts and their total (男子组共8人 /
    /// 女子组共2人 / 共10人; a title's 共10人 and a footer's 其中女子组共2人). The total is
    /// the sheet's count, and it is the largest total stated, so that one is compared, at
    /// the first line that states it; a part is never the sheet's count, and a part alone
    /// (女子组共1人 under 3 players) says nothing of the whole sheet. Two or more parts,
    /// with or without their total, agree when they add up to the players read (or one of
    /// them is all of them); when neither agrees, they are named as parts and their sum
    /// ([`StatedCount::Parts`]), never as a total the sheet never states.
    pub(super) fn differing(&self, read: usize) -> Option<StatedCount> {
        let first_largest =
            |a: &&Stated, b: &&Stated| a.count.cmp(&b.count).then(b.line.cmp(&a.line));
        // Totals stated twice (a title's 共2人 and a footer's 合计：2人) are one count,
        // never 4.
        if let Some(total) = self.0.iter().filter(|s| !s.part).max_by(first_largest) {
            if total.count != read {
                return Some(StatedCount::Total {
                    line: total.line,
                    count: total.count,
                });
            }
            // The total agrees; parts stated beside it (男子组共8人 / 女子组共3人 under 共10
            // 人) must add up to it too, else a row may sit in the wrong part.
            let parts: Vec<&Stated> = self.0.iter().filter(|s| s.part).collect();
            return Self::parts_differing(&parts, read);
        }
        let all: Vec<&Stated> = self.0.iter().collect();
        Self::parts_differing(&all, read)
    }

    /// Two or more parts that add up to another number than the `read` players (none of
    /// them all of them): named as parts and their sum.
    fn parts_differing(parts: &[&Stated], read: usize) -> Option<StatedCount> {
        if parts.len() < 2 {
            return None;
        }
        let sum: usize = parts.iter().map(|s| s.count).sum();
        if sum == read || parts.iter().any(|s| s.count == read) {
            return None;
        }
        Some(StatedCount::Parts {
            line: parts.iter().map(|s| s.line).min().unwrap_or_default(),
            parts: parts.iter().map(|s| s.count).collect(),
        })
    }
}

/// The head count a sheet states that differs from the players read ([`StatedCounts::differing`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum StatedCount {
    /// A total (共10人), at `line`.
    Total { line: usize, count: usize },
    /// Parts without their total (男子组共8人 / 女子组共3人), the first at `line`.
    Parts { line: usize, parts: Vec<usize> },
}

impl StatedCount {
    /// The count compared: the total, or the parts' sum.
    pub(super) fn count(&self) -> usize {
        match self {
            StatedCount::Total { count, .. } => *count,
            StatedCount::Parts { parts, .. } => parts.iter().sum(),
        }
    }

    /// The warning that this count is not the `read` players ([`head_count_differs`]).
    pub(super) fn warning(&self, read: usize) -> RowError {
        match self {
            StatedCount::Total { line, count } => head_count_differs(*line, *count, read),
            StatedCount::Parts { line, parts } => parts_differ(*line, parts, read),
        }
    }
}

/// The warning that the head counts a sheet states in parts, without their total
/// (男子组共8人 / 女子组共3人, from `line` on), add up to another number than the players
/// read. The import goes ahead.
fn parts_differ(line: usize, parts: &[usize], read: usize) -> RowError {
    let sum: usize = parts.iter().sum();
    let terms = parts
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("+");
    count_differs(
        line,
        Text::new(
            format!("表中分项写明的人数相加为 {terms}={sum} 人"),
            format!(
                "the head counts the sheet states in parts add up to {terms}={}",
                crate::i18n::plural(sum, "player", "players")
            ),
        ),
        read,
    )
}

/// The warning that the head count a sheet states (`共150人`, at `line`) is not the
/// number of players read from it: a row lost in an export is what an organiser must
/// hear of. The import goes ahead; the file and sheet are named by the warning's place.
fn head_count_differs(line: usize, stated: usize, read: usize) -> RowError {
    count_differs(
        line,
        Text::new(
            format!("表中写明共 {stated} 人"),
            format!(
                "the sheet states {}",
                crate::i18n::plural(stated, "player", "players")
            ),
        ),
        read,
    )
}

/// The warning that what the sheet states (`stated`, at `line`) is not the `read` players:
/// the import goes ahead, and the organiser is told to check for a lost row.
fn count_differs(line: usize, stated: Text, read: usize) -> RowError {
    RowError::new(
        line,
        None,
        None,
        Text::new(
            format!(
                "{}，但从表中读到 {read} 名棋手；请对照原表核对，导出或复制时可能漏了行（本次照常导入）",
                stated.zh
            ),
            format!(
                "{} but {} read from it; check it against the original, a row may have been lost in the export or copy (imported all the same)",
                stated.en,
                crate::i18n::plural(read, "player was", "players were"),
            ),
        ),
    )
}

/// Whether a row fills the player columns as a player's row does: a valid 性别, a 组别 of
/// the rulebook or a valid ID number. Such a row is never a footer, whatever its first
/// cell says (`联系人,男,某协会,成人组`); a footer (`联系人：张三 13800138000`) leaves
/// them empty.
pub(super) fn fills_like_player(cells: &[String], map: &HeaderMap, rules: &Rulebook) -> bool {
    let cell = |field| {
        map.column(field)
            .and_then(|c| cells.get(c))
            .map(|c| normalise::clean(c))
            .filter(|c| !c.is_empty())
    };
    cell(Field::Gender).is_some_and(|g| values::parse_gender(&g).is_ok())
        || cell(Field::Group).is_some_and(|g| super::row::find_group(rules, &g).is_some())
        || cell(Field::IdNumber).is_some_and(|id| super::id_card::parse_id_number(&id).is_ok())
}

/// The refusal of a row that starts with the footer word `word` yet fills the player
/// columns like a player ([`fills_like_player`]): it is neither dropped as a footer nor
/// imported under a footer word as the name.
pub(super) fn footer_word_on_player_row(line: usize, word: &str) -> RowError {
    RowError::new(
        line,
        None,
        None,
        Text::new(
            format!(
                "这一行以表尾用语 `{word}` 开头，却像棋手一样填了性别、组别等列，所以既不当表尾跳过，也不导入；若是棋手，请在姓名列写其姓名；若是表尾，请清空性别、组别等列"
            ),
            format!(
                "this row starts with the footer word `{word}` yet fills the player columns (性别, 组别 …) like a player, so it is neither skipped as a footer nor imported; for a player, write the player's name in the name column; for a footer, empty the player columns"
            ),
        ),
    )
}

/// Whether a data row repeats the header (a printout's next page, copied back): every
/// filled cell is its column's header as written or names the same field, the name
/// column's among them.
pub(super) fn repeats_header(cells: &[String], map: &HeaderMap) -> bool {
    let Some(name_col) = map.column(Field::Name) else {
        return false;
    };
    let same = |i: usize, cell: &str| {
        map.names.get(i).is_some_and(|h| h == cell)
            || map
                .fields
                .get(i)
                .copied()
                .flatten()
                .is_some_and(|f| super::headers::field_of(cell) == Some(f))
    };
    let name_repeated = cells
        .get(name_col)
        .is_some_and(|c| same(name_col, &normalise::clean(c)));
    name_repeated
        && cells.iter().enumerate().all(|(i, c)| {
            let c = normalise::clean(c);
            c.is_empty() || same(i, &c)
        })
}

/// The note for a data row that [`repeats_header`].
pub(super) fn repeated_header_note(line: usize) -> RowError {
    RowError::new(
        line,
        None,
        None,
        Text::new(
            "这一行重复了表头（如打印稿下一页的表头），不是棋手，已跳过",
            "this row repeats the header (as a printout's next page does), not a player: skipped",
        ),
    )
}

/// What a row of one filled cell (its numbered 序号 cell set aside by the caller, a 序号
/// cell holding text counted) is when it is no player: a date
/// (`2026年12月5日`, `2026-12-05`), a page line (`第二页`, `第 2 页 共 3 页`, `page 2`)
/// or a labelled note (`注：…`, `说明：…`, `领队：王五`: a short label and a colon, which
/// no name holds). `None` for any other row, read as a player's.
pub(super) fn lone_line(cells: &[String]) -> Option<LoneLine> {
    let mut filled = filled_cells(cells);
    let cell = filled.next()?;
    if filled.next().is_some() {
        return None;
    }
    let lower = cell.to_lowercase();
    let page = (cell.starts_with('第') && cell.contains('页'))
        || lower
            .strip_prefix("page")
            .is_some_and(|rest| rest.trim_start().starts_with(|c: char| c.is_ascii_digit()));
    // Digits alone (12345, 20261205) may be anything: only a written date is one here.
    let date = !cell.chars().all(|c| c.is_ascii_digit()) && values::parse_date(&cell).is_ok();
    let label = cell.split_once([':', '：']).is_some_and(|(label, _)| {
        let n = label.chars().count();
        (1..=6).contains(&n) && !label.chars().any(|c| c.is_ascii_digit())
    });
    if date {
        Some(LoneLine::Date)
    } else if page {
        Some(LoneLine::Page)
    } else if label {
        Some(LoneLine::Note)
    } else {
        None
    }
}

/// What [`lone_line`] took a row for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LoneLine {
    Date,
    Page,
    Note,
}

impl LoneLine {
    /// The note that the row at `line` is skipped, saying what it looks like.
    pub(super) fn note(self, line: usize) -> RowError {
        let (zh, en) = match self {
            LoneLine::Date => ("日期", "a date"),
            LoneLine::Page => ("页码", "a page number"),
            LoneLine::Note => ("说明（注、说明、领队等）", "a note (注, 说明, 领队 …)"),
        };
        RowError::new(
            line,
            None,
            None,
            Text::new(
                format!(
                    "这一行只有一项{zh}，不是棋手，已跳过；若是棋手，请填写其姓名、性别、组别等列"
                ),
                format!(
                    "this row holds only {en}, not a player: skipped; for a player, fill in the name, gender, group and other columns"
                ),
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two part counts in one cell are read as parts, in a footer row as in a title; a
    /// total after its parts, or a count with other words, is read as before.
    #[test]
    fn part_counts_side_by_side_in_one_cell_are_parts() {
        let row = |cell: &str| vec![cell.to_string(), String::new(), String::new()];
        for (cell, want) in [
            ("男子组共5人，女子组共3人", Some(vec![5, 3])),
            ("男子组共5人,女子组共3人。", Some(vec![5, 3])),
            ("甲队共5人；乙队共3人", Some(vec![5, 3])),
            ("男子组共5人 女子组共3人", Some(vec![5, 3])),
            ("男8人，女2人，共10人", None),
            ("共 10 人（男8女2）", None),
            ("成人组共10人", None),
            ("男子组共5人，共8人", None),
        ] {
            assert_eq!(cell_parts(cell), want, "{cell}");
        }
        let footer = footer_of(&row("男子组共5人，女子组共3人")).expect("a count line");
        assert_eq!((footer.head_count, footer.parts), (None, vec![5, 3]));
        let footer = footer_of(&row("男8人，女2人，共10人")).expect("a count line");
        assert_eq!((footer.head_count, footer.parts), (Some(10), vec![]));
        assert_eq!(
            title_parts(&row("2026年报名表（男子组共5人，女子组共3人）")),
            Some(vec![5, 3])
        );
        assert_eq!(title_parts(&row("2026年报名表（共8人）")), None);
    }
}
