//! The columns a results file may have: the headers of round, table, result, fouls,
//! group, hall and pairing code in each accepted spelling, and the 红方/黑方 columns that say
//! who played (name, pairing number, ID tail).

pub(super) const ROUND_HEADERS: &[&str] = &["round", "轮次", "轮", "轮数"];
pub(super) const TABLE_HEADERS: &[&str] = &["table", "board", "台号", "台次", "台"];
pub(super) const OUTCOME_HEADERS: &[&str] = &["outcome", "result", "结果", "成绩"];
pub(super) const FOULS_HEADERS: &[&str] = &["fouls", "foul", "犯规"];
pub(super) const GROUP_HEADERS: &[&str] = &["group", "组别", "组", "组名", "编排组"];
/// The hall a row's table stands in (the slips file writes it before 台号 when a pool has
/// a hall of its own, docs/rules.md §12 (table numbers)).
pub(super) const HALL_HEADERS: &[&str] = &["hall", "场地", "赛场", "比赛场地", "venue"];
/// What a 红方/黑方 column says about a side: the name (`红方`, `红方姓名`, `red`, `red
/// player`), the pairing number (`红方序号`, `红方编号`, `red no.`) or the end of the ID
/// number (`红方证件尾号`, `红方身份证号`, `red id`). Checked against the game at the row's
/// table (`seats.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SideColumn {
    Name,
    Number,
    IdTail,
}

/// Reads a normalized header as a side's column: its colour (red first) and kind. Any
/// header that starts with the side (`红`, `黑`, `red`, `black`) and names a player, a
/// number or an ID is taken, so that a spelling not listed still gets checked; the
/// side's unit, score, fouls or signature are not.
pub(super) fn side_column(header: &str) -> Option<(usize, SideColumn)> {
    let (side, rest) = [
        ("红方", 0),
        ("黑方", 1),
        ("红", 0),
        ("黑", 1),
        ("red", 0),
        ("black", 1),
    ]
    .iter()
    .find_map(|(prefix, side)| header.strip_prefix(prefix).map(|rest| (*side, rest)))?;
    if rest.contains('#') {
        return Some((side, SideColumn::Number));
    }
    let rest = rest.trim_matches(|c: char| c.is_whitespace() || "方:：()（）-_.·".contains(c));
    let kind = if [
        "",
        "姓名",
        "名字",
        "名",
        "棋手",
        "选手",
        "棋手姓名",
        "选手姓名",
        "player",
        "name",
        "player name",
        "players",
    ]
    .contains(&rest)
    {
        SideColumn::Name
    } else if ["序号", "编号", "编排号", "号码"]
        .iter()
        .any(|w| rest.contains(w))
        || ["no", "number", "nr", "num", "pairing number", "pairing no"].contains(&rest)
    {
        SideColumn::Number
    } else if ["证件", "身份证", "尾号"].iter().any(|w| rest.contains(w))
        || ["id", "id tail", "id number", "id no", "id card"].contains(&rest)
    {
        SideColumn::IdTail
    } else {
        return None;
    };
    Some((side, kind))
}

/// The pairing code column every results file qiwang writes carries (`fingerprint.rs`).
pub(crate) const CODE_HEADERS: &[&str] = &["编排码", "pairing", "pairing code"];
