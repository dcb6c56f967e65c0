//! Standings (成绩排名), one prize list's view of them, and the crosstable.

use super::labels::tiebreak_label;
use super::sorted::{SortedRow, SortedTiebreaks};
use crate::i18n::bi;
use crate::model::{Event, GroupId, Player, PlayerId, Points};
use crate::prizes::{self, ListRow};
use crate::report::{Json, Report, Section, SortedKeys, Streamed};
use crate::rulebook::{Lang, PrizeList, Rulebook, Tiebreak};
use crate::standings::{
    self, Crosstable, CrosstableCell, DecidedBy, PlayerTiebreaks, StandingRow, Standings,
};
use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};
use serde_json::json;
use std::collections::BTreeMap;

fn place_text(rank: Option<u32>, shared: bool) -> String {
    match rank {
        Some(r) if shared => format!("{r}="),
        Some(r) => r.to_string(),
        None => "—".into(),
    }
}

/// A tiebreak value as printed (fouls and counts are plain integers too).
fn value_text(v: Option<i64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// The remark of a tie that needs a playoff: 并列第一 at the top, else the place it is
/// (a place before `ranking.shared_from_place`, or the finalists' line of a final stage).
fn tied_text(rank: Option<u32>, lang: Lang) -> String {
    match rank {
        Some(1) | None => lang
            .pick("并列第一，需加赛", "tied for first: playoff needed")
            .into(),
        Some(r) => bi!(
            lang,
            zh("并列第{r}名，需加赛"),
            en("tied for place {r}: playoff needed")
        ),
    }
}

fn remark(row: &StandingRow, lang: Lang, rules: &Rulebook) -> String {
    let mut parts = Vec::new();
    if row.needs_playoff {
        parts.push(tied_text(row.rank, lang));
    }
    if let Some(d) = &row.decided_by {
        parts.push(decided_by_text(d, lang, rules));
    }
    if row.withdrawn {
        parts.push(lang.pick("退赛", "withdrawn").to_string());
    }
    if row.penalty.0 > 0 {
        parts.push(format!("{} -{}", lang.pick("罚分", "penalty"), row.penalty));
    }
    parts.join("; ")
}

/// The clause of the event's own rules (`event.rules_edition`) a fallback applies, cited
/// before the remark: the 2011 rules number them 14.3.1 and 14.3.2. Another edition's
/// numbering (the 2020 rules') is not cited: nothing rather than another book's number.
fn clause(d: &DecidedBy, rules: &Rulebook) -> &'static str {
    if !rules.event.rules_edition.contains("2011") {
        return "";
    }
    match d {
        DecidedBy::PrevRoundScore { .. } => "14.3.1 ",
        DecidedBy::RoundDropped { .. } => "14.3.2 ",
        _ => "",
    }
}

/// How a tie was settled, in the output language (the rules' wording in Chinese), with
/// the clause of the event's own rules edition where it is known ([`clause`]).
fn decided_by_text(d: &DecidedBy, lang: Lang, rules: &Rulebook) -> String {
    let c = clause(d, rules);
    match d {
        DecidedBy::PrevRoundScore { round } => bi!(
            lang,
            zh("{c}上一轮成绩 (第{round}轮后积分)"),
            en("{c}previous round (score after round {round})")
        ),
        DecidedBy::RoundDropped { round } => bi!(
            lang,
            zh("{c}去除第{round}轮得分"),
            en("{c}round {round} score dropped")
        ),
        DecidedBy::PrevRoundRank { round } => bi!(
            lang,
            zh("前一轮名次 (第{round}轮)"),
            en("previous round's rank (round {round})")
        ),
        DecidedBy::Playoff => lang.pick("加赛", "playoff").to_string(),
        DecidedBy::Lot => lang.pick("抽签", "lot").to_string(),
        DecidedBy::Number => lang.pick("序号", "number").to_string(),
    }
}

fn header(lang: Lang, keys: &[Tiebreak], first: &str) -> Vec<String> {
    let mut cols = vec![
        first.to_string(),
        lang.pick("序号", "no.").into(),
        lang.pick("姓名", "name").into(),
        lang.pick("单位", "unit").into(),
        lang.pick("积分", "pts").into(),
    ];
    cols.extend(keys.iter().map(|k| tiebreak_label(*k, lang).to_string()));
    cols.push(lang.pick("备注", "remarks").into());
    cols
}

/// The remark of a row, with 取消资格 for a disqualified player (never ranked).
fn player_remark(
    player: Option<&Player>,
    row: &StandingRow,
    lang: Lang,
    rules: &Rulebook,
) -> String {
    let mut text = remark(row, lang, rules);
    if player.is_some_and(Player::is_disqualified) {
        let dq = lang.pick("取消资格", "disqualified");
        // A disqualified player is also withdrawn from pairing: say the stronger word.
        let withdrawn = lang.pick("退赛", "withdrawn");
        let mut parts: Vec<&str> = text
            .split("; ")
            .filter(|p| !p.is_empty() && *p != withdrawn)
            .collect();
        parts.insert(0, dq);
        text = parts.join("; ");
    }
    text
}

fn row_cells(
    player: Option<&Player>,
    place: String,
    row: &StandingRow,
    lang: Lang,
    rules: &Rulebook,
    event: &Event,
) -> Vec<String> {
    let mut cells = vec![
        place,
        player
            .and_then(|p| p.number)
            .map(|n| n.to_string())
            .unwrap_or_default(),
        player.map(|p| p.name.clone()).unwrap_or_default(),
        player.map(|p| p.unit.clone()).unwrap_or_default(),
        row.score.to_string(),
    ];
    cells.extend(row.tiebreaks.iter().map(|v| value_text(*v)));
    let mut remark = player_remark(player, row, lang, rules);
    // A cancelled pool's rows have no place: the CSV, with no subtitle, says why on each.
    if player.is_some_and(|p| event.is_cancelled(&p.group)) {
        let word = lang.pick("组别已取消", "group cancelled");
        remark = if remark.is_empty() {
            word.to_string()
        } else {
            format!("{word}; {remark}")
        };
    }
    // Warnings without a point loss (警告) are on the player's record.
    let warned = event
        .warnings
        .iter()
        .filter(|w| w.player == row.player)
        .count();
    if warned > 0 {
        let word = bi!(
            lang,
            zh("警告{warned}次"),
            en("warned {}", crate::i18n::plural(warned, "time", "times"))
        );
        remark = if remark.is_empty() {
            word
        } else {
            format!("{remark}; {word}")
        };
    }
    cells.push(remark);
    cells
}

/// `成人组 第3轮后（共9轮）`; when the round still has games without a result (the
/// default standings show such a round while no round is complete) the subtitle says so
/// instead of "after", before round 1 is paired it says that, and of a cancelled pool
/// that it was cancelled.
pub(crate) fn subtitle(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    after_round: u32,
    lang: Lang,
) -> String {
    let name = rules.group_name(pool);
    // A cancelled pool was never paired and places nobody (docs/rules.md "Group sizes").
    if event.is_cancelled(pool) {
        return bi!(
            lang,
            zh("{name} 已取消（`qiwang group cancel`）：不评名次"),
            en("{name} cancelled (`qiwang group cancel`): no places")
        );
    }
    let open = event.group(pool).map_or(0, |g| g.open_games(after_round));
    // A pool with a final stage: its Swiss rounds, then the stage in its own words.
    if let Some(line) = super::stage::subtitle(event, rules, pool, after_round, open, lang) {
        return line;
    }
    let total = crate::schedule::rounds_of(event, rules, pool);
    if after_round == 0 {
        return bi!(
            lang,
            zh("{name} 尚未开赛（共{total}轮）"),
            en("{name} before round 1 of {total}")
        );
    }
    match open {
        0 => bi!(
            lang,
            zh("{name} 第{after_round}轮后（共{total}轮）"),
            en("{name} after round {after_round} of {total}")
        ),
        _ => bi!(
            lang,
            zh("{name} 第{after_round}轮进行中：{open} 台尚无成绩（共{total}轮）"),
            en(
                "{name} during round {after_round} of {total}: {} without a result yet",
                crate::i18n::plural(open, "table", "tables")
            )
        ),
    }
}

/// The standings of a pool with every tiebreak column, in the rulebook's order.
pub fn standings(
    event: &Event,
    rules: &Rulebook,
    st: &Standings,
    lang: Lang,
    json: Json,
) -> Report {
    let mut report = Report::new(format!(
        "{} — {}",
        rules.event.name,
        lang.pick("成绩排名", "standings")
    ));
    report.lang = lang.code().into();
    report
        .subtitle
        .push(subtitle(event, rules, &st.group, st.after_round, lang));
    let numeric: Vec<usize> = (0..st.tiebreaks.len() + 5)
        .filter(|&i| i != 2 && i != 3)
        .collect();
    let mut s = Section::new("", header(lang, &st.tiebreaks, lang.pick("名次", "place")))
        .right(&numeric)
        .sheet(rules.group_name(&st.group));
    for row in json.rows_shown(&st.rows) {
        let p = event.player(row.player);
        s.push(row_cells(
            p,
            place_text(row.rank, row.shared),
            row,
            lang,
            rules,
            event,
        ));
    }
    s.notes
        .extend(super::stage::standings_note(rules, st, lang));
    if st.rows.iter().any(|r| r.needs_playoff && r.rank == Some(1)) {
        s.notes.push(lang.pick(
            "冠军不并列：并列第一者须加赛，用 `qiwang playoff` 记录加赛结果。",
            "First place is not shared: the players tied for first need a playoff; record it with `qiwang playoff`.",
        ).into());
    }
    if st.rows.iter().any(|r| r.needs_playoff && r.rank != Some(1)) {
        s.notes.push(lang.pick(
            "该名次不并列（决赛阶段的出线名次，或 `ranking.shared_from_place` 之前的名次）：并列者须加赛，用 `qiwang playoff` 记录加赛结果。",
            "That place is not shared (a final stage's qualifying line, or a place before `ranking.shared_from_place`): the tied players need a playoff; record it with `qiwang playoff`.",
        ).into());
    }
    report.sections.push(s);
    report.set_json(json, || standings_json(event, rules, st, lang));
    report
}

/// The standings of a pool as JSON, every player's tiebreak values included (so others
/// can check them): what `standings --format json` prints and `export --format json`
/// writes row by row.
pub(crate) fn standings_json<'a>(
    event: &'a Event,
    rules: &'a Rulebook,
    st: &'a Standings,
    lang: Lang,
) -> StandingsJson<'a> {
    StandingsJson {
        event,
        rules,
        st,
        lang,
        values: standings::tiebreak_values(event, rules, &st.group, Some(st.after_round)),
    }
}

/// See [`standings_json`].
pub(crate) struct StandingsJson<'a> {
    event: &'a Event,
    rules: &'a Rulebook,
    st: &'a Standings,
    lang: Lang,
    values: BTreeMap<PlayerId, PlayerTiebreaks>,
}

impl Serialize for StandingsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (event, st, lang) = (self.event, self.st, self.lang);
        // Keys in alphabetical order, as a `serde_json::Value` prints them (see
        // `SortedKeys`), here and in `RowJson`.
        let mut map = serializer.serialize_struct("Standings", 8)?;
        map.serialize_field("after_round", &st.after_round)?;
        map.serialize_field("cancelled", &event.is_cancelled(&st.group))?;
        map.serialize_field("event", &self.rules.event.name)?;
        map.serialize_field(
            "fallback",
            &SortedKeys(
                crate::standings::ranking_rules(self.rules, &st.group)
                    .ranking
                    .fallback,
            ),
        )?;
        map.serialize_field("group", &st.group)?;
        map.serialize_field("open_tables", &st.open_tables)?;
        let rows = Streamed(|| {
            st.rows.iter().map(move |row| {
                let p = event.player(row.player);
                RowJson {
                    decided_by: row
                        .decided_by
                        .as_ref()
                        .map(|d| decided_by_text(d, lang, self.rules)),
                    name: p.map(|p| p.name.as_str()),
                    needs_playoff: row.needs_playoff,
                    number: p.and_then(|p| p.number),
                    penalty: row.penalty,
                    player: row.player,
                    rank: row.rank,
                    score: row.score,
                    shared: row.shared,
                    tiebreaks: Streamed(move || {
                        st.tiebreaks
                            .iter()
                            .zip(&row.tiebreaks)
                            .map(|(&key, &value)| KeyValue { key, value })
                    }),
                    unit: p.map(|p| p.unit.as_str()),
                    values: self.values.get(&row.player).map(SortedTiebreaks),
                    withdrawn: row.withdrawn,
                }
            })
        });
        map.serialize_field("rows", &rows)?;
        map.serialize_field("tiebreaks", &st.tiebreaks)?;
        map.end()
    }
}

/// One row of [`StandingsJson`], fields in alphabetical order.
#[derive(Serialize)]
struct RowJson<'a, T> {
    decided_by: Option<String>,
    name: Option<&'a str>,
    needs_playoff: bool,
    number: Option<u32>,
    penalty: Points,
    player: PlayerId,
    rank: Option<u32>,
    score: Points,
    shared: bool,
    tiebreaks: T,
    unit: Option<&'a str>,
    values: Option<SortedTiebreaks<'a>>,
    withdrawn: bool,
}

/// One tiebreak of a row: the rulebook's key and the player's value.
#[derive(Serialize)]
pub(super) struct KeyValue {
    pub(super) key: Tiebreak,
    pub(super) value: Option<i64>,
}

/// One prize list's view of the standings (e.g. girls only), with places within it.
pub fn list_standings(
    event: &Event,
    rules: &Rulebook,
    list: &PrizeList,
    after_round: Option<u32>,
    lang: Lang,
) -> Report {
    let pool = prizes::list_pool(event, rules, &list.group);
    let st = standings::compute_standings(event, rules, &pool, after_round);
    let rows: Vec<ListRow> = prizes::prize_list_rows(event, rules, &st, list);
    let mut report = Report::new(format!("{} — {}", rules.event.name, list.name));
    report.lang = lang.code().into();
    report
        .subtitle
        .push(subtitle(event, rules, &pool, st.after_round, lang));
    let numeric: Vec<usize> = (0..st.tiebreaks.len() + 6)
        .filter(|&i| i != 2 && i != 3)
        .collect();
    let mut cols = header(lang, &st.tiebreaks, lang.pick("名次", "place"));
    cols.push(lang.pick("总名次", "overall").into());
    let mut s = Section::new("", cols)
        .right(&numeric)
        .sheet(list.name.clone());
    let mut json_rows = Vec::new();
    for lr in &rows {
        let p = event.player(lr.row.player);
        let mut cells = row_cells(
            p,
            place_text(lr.place, lr.shared),
            &lr.row,
            lang,
            rules,
            event,
        );
        if let Some(remark) = cells.last_mut() {
            *remark = list_remark(lr, remark, lang, rules);
        }
        cells.push(place_text(lr.row.rank, lr.row.shared));
        s.push(cells);
        json_rows.push(json!({
            "place": lr.place,
            "shared": lr.shared,
            "overall_rank": lr.row.rank,
            "player": lr.row.player,
            "name": p.map(|p| p.name.clone()),
            "score": lr.row.score,
            "tiebreaks": lr.row.tiebreaks,
            "needs_playoff": lr.needs_playoff,
            "qualification_playoff": lr.qualification_playoff,
            "qualifies": lr.qualifies,
            "decided_by": lr.decided_by,
            "excluded": lr.excluded,
        }));
    }
    if rows
        .iter()
        .any(|r| r.needs_playoff || r.qualification_playoff)
    {
        s.notes.push(bi!(lang, zh("本名单的同分须加赛（冠军不并列或晋级线）：用 `qiwang playoff --list {} 棋手…`（胜者在前）记录加赛结果。",
                list.id), en("A tie of this list needs a playoff (first place or the qualification line): record it with `qiwang playoff --list {} PLAYER…` (winner first).",
                list.id)));
    }
    report.sections.push(s);
    report.json = json!({ "list": list.id, "name": list.name, "group": pool, "cancelled": event.is_cancelled(&pool), "after_round": st.after_round, "open_tables": st.open_tables, "rows": json_rows });
    report
}

/// The remark of a prize list's row: the standings' remark, with what the list itself
/// decided (需加赛 for its own tie, the qualification line, why a player takes no place).
fn list_remark(lr: &ListRow, base: &str, lang: Lang, rules: &Rulebook) -> String {
    use crate::prizes::Exclusion;
    let mut parts: Vec<String> = base
        .split("; ")
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    let playoff_needed = lang.pick("需加赛", "playoff needed");
    if lr.needs_playoff && !parts.iter().any(|p| p.ends_with(playoff_needed)) {
        parts.push(lang.pick("并列，需加赛", "tied: playoff needed").into());
    }
    if lr.qualification_playoff {
        parts.push(
            lang.pick(
                "晋级线并列，需加赛",
                "tied at the qualification line: playoff needed",
            )
            .into(),
        );
    }
    match lr.qualifies {
        Some(true) => parts.push(lang.pick("晋级", "qualifies").into()),
        Some(false) => parts.push(lang.pick("不晋级", "does not qualify").into()),
        None => {}
    }
    if let Some(d) = &lr.decided_by
        && lr.row.decided_by != Some(*d)
    {
        parts.push(decided_by_text(d, lang, rules));
    }
    match lr.excluded {
        Some(Exclusion::Disqualified) | None => {}
        Some(Exclusion::Withdrawn) => parts.push(
            lang.pick("退赛，不参加录取", "withdrawn: takes no place")
                .into(),
        ),
        Some(Exclusion::NoGames) => parts.push(
            lang.pick("未下过一盘棋，不参加录取", "played no game: takes no place")
                .into(),
        ),
    }
    parts.join("; ")
}

/// The standings a section of a pool (a group with `pairs_with`, e.g. 残疾人组 in 成人组)
/// is ranked by: its prize list when exactly one list ranks that section (by
/// `filter.section`, or by the disabled/local mark the section sets), else the pool's
/// standings restricted to the players registered under the section, placed among
/// themselves. Never the whole pool.
pub fn section_standings(
    event: &Event,
    rules: &Rulebook,
    section: &GroupId,
    after_round: Option<u32>,
    lang: Lang,
) -> Report {
    let Some(rule) = rules.group(section) else {
        return Report::new(String::new());
    };
    let lists: Vec<&PrizeList> = rules
        .prizes
        .lists
        .iter()
        .filter(|l| {
            l.filter.section.as_ref() == Some(section)
                || (rule.pairs_with.as_ref() == Some(&l.group)
                    && l.filter.section.is_none()
                    && l.filter.gender.is_none()
                    && ((rule.marks.disabled && l.filter.disabled == Some(true))
                        || (rule.marks.local && l.filter.local == Some(true))))
        })
        .collect();
    if let [one] = lists.as_slice() {
        return list_standings(event, rules, one, after_round, lang);
    }
    let own = PrizeList {
        id: section.to_string(),
        name: rule.name.clone(),
        group: rules.pool_of(rule).clone(),
        filter: crate::rulebook::PrizeFilter {
            section: Some(section.clone()),
            ..Default::default()
        },
        places: Vec::new(),
        by_gender: None,
    };
    list_standings(event, rules, &own, after_round, lang)
}

/// The standings of every pool that has players, one section per pool (`qiwang
/// standings` without `--group` in a multi-group event); JSON is the array of each
/// pool's standings JSON.
pub fn every_pool_standings(
    event: &Event,
    rules: &Rulebook,
    after_round: Option<u32>,
    lang: Lang,
    json: Json,
) -> Report {
    let mut report = Report::new(format!(
        "{} — {}",
        rules.event.name,
        lang.pick("成绩排名", "standings")
    ));
    report.lang = lang.code().into();
    let mut values = Vec::new();
    for pool in crate::lookup::pools_shown(rules, event, crate::lookup::Shown::Players) {
        let st = standings::compute_standings(event, rules, &pool.id, after_round);
        // The values are gathered into one array: built, never written as text.
        let json = json.built();
        let one = self::standings(event, rules, &st, lang, json);
        for mut s in one.sections {
            s.title = one.subtitle.first().cloned().unwrap_or_default();
            report.sections.push(s);
        }
        values.push(one.json);
    }
    report.json = serde_json::Value::Array(values);
    // CSV: one table of every group, its name (each section's sheet) first, so that a
    // spreadsheet sorts and filters it (one header row per group told no group apart).
    report.csv_merged = Some(lang.pick("组别", "group").into());
    report
}

/// Per player and round: the opponent's number, colour and result.
pub fn crosstable(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    after_round: Option<u32>,
    lang: Lang,
    json: Json,
) -> Report {
    crosstable_report(
        event,
        rules,
        &standings::crosstable(event, rules, pool, after_round),
        lang,
        json,
    )
}

/// [`crosstable`] of the pool `st` ranks, after their round (the export, which prints the
/// standings too, computes them once).
pub(crate) fn crosstable_from(
    event: &Event,
    rules: &Rulebook,
    st: &Standings,
    lang: Lang,
    json: Json,
) -> Report {
    crosstable_report(
        event,
        rules,
        &standings::crosstable_of(event, rules, st),
        lang,
        json,
    )
}

pub(super) fn crosstable_report(
    event: &Event,
    rules: &Rulebook,
    table: &Crosstable,
    lang: Lang,
    json: Json,
) -> Report {
    let pool = &table.group;
    // A pool whose final stage has begun: the Swiss crosstable, then the stage's own
    // (docs/rules.md §16.6, §16.7).
    if let Some(report) = super::stage::crosstable_report(event, rules, table, lang, json) {
        return report;
    }
    // A round robin's crosstable is the square 循环赛成绩表 (docs/rules.md §14.5).
    if rules.is_round_robin(pool) {
        return super::square::square_report(event, rules, table, lang, json);
    }
    // A knockout's crosstable is its bracket (docs/rules.md §16.5).
    if rules.is_knockout(pool) {
        return super::bracket::bracket_report(event, rules, pool, table.after_round, lang, json);
    }
    let mut report = Report::new(format!(
        "{} — {}",
        rules.event.name,
        lang.pick("成绩交叉表", "crosstable")
    ));
    report.lang = lang.code().into();
    report
        .subtitle
        .push(subtitle(event, rules, pool, table.after_round, lang));
    report.subtitle.push(
        lang.pick(
            "格式：对手序号 + 先后手（红 / 黑）+ 结果（1 胜、= 和、0 负、+ 对方弃权、- 弃权）；轮空；未赛 = 该轮未参赛（迟报名或退赛）",
            "cell: opponent number + colour (r red / b black) + result (1 win, = draw, 0 loss, + forfeit win, - forfeit loss); bye; — = not in that round (late entry or withdrawn)",
        )
        .into(),
    );
    let mut cols = vec![
        lang.pick("名次", "place").to_string(),
        lang.pick("序号", "no.").into(),
        lang.pick("姓名", "name").into(),
    ];
    cols.extend(round_columns(table, lang));
    cols.push(lang.pick("积分", "pts").into());
    let numeric: Vec<usize> = (0..cols.len()).filter(|&i| i != 2).collect();
    let mut s = Section::new("", cols)
        .right(&numeric)
        .sheet(rules.group_name(pool));
    for row in json.rows_shown(&table.rows) {
        let mut cells = vec![
            place_text(row.rank, row.shared),
            row.number.map(|n| n.to_string()).unwrap_or_default(),
            row.name.clone(),
        ];
        cells.extend(
            row.cells
                .iter()
                .map(|c| cell_text(c, CellWords::Compact, lang)),
        );
        cells.push(row.score.to_string());
        s.push(cells);
    }
    report.sections.push(s);
    report.set_json(json, || CrosstableJson(table));
    report
}

/// A [`Crosstable`] written as its `serde_json::Value` prints (keys in alphabetical
/// order), one row at a time.
struct CrosstableJson<'a>(&'a Crosstable);

impl Serialize for CrosstableJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let table = self.0;
        let mut map = serializer.serialize_struct("Crosstable", 3)?;
        map.serialize_field("after_round", &table.after_round)?;
        map.serialize_field("group", &table.group)?;
        map.serialize_field("rows", &Streamed(|| table.rows.iter().map(SortedRow)))?;
        map.end()
    }
}

/// One column heading per round of a crosstable: `第1轮` … or `R1` ….
pub(super) fn round_columns(table: &Crosstable, lang: Lang) -> impl Iterator<Item = String> {
    let rounds = table.rows.first().map_or(0, |r| r.cells.len());
    (1..=rounds).map(move |r| bi!(lang, zh("第{r}轮"), en("R{r}")))
}

/// How a game reads in a crosstable cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CellWords {
    /// The crosstable's `12红1`, `3黑=` in Chinese, `12r1`, `3b=` in English
    /// ([`CrosstableCell::text`]).
    Compact,
    /// The wall chart's `12红胜`, `3黑和` (`12 red 1`); a forfeit is marked `*`.
    Worded,
}

/// A crosstable cell as the crosstable and the wall chart print it.
pub(super) fn cell_text(cell: &CrosstableCell, words: CellWords, lang: Lang) -> String {
    match (cell, words) {
        // Not `-`, which is a forfeit loss: a round the player was not in at all (late
        // entry, withdrawn) reads differently.
        (CrosstableCell::NotPaired { .. }, _) => lang.pick("未赛", "—").to_string(),
        (CrosstableCell::Bye { .. }, _) => lang.pick("轮空", "bye").to_string(),
        (
            CrosstableCell::Game {
                opponent,
                opponent_number,
                colour,
                result,
                ..
            },
            CellWords::Compact,
        ) => {
            // A Chinese event writes the colour as the arbiter does: 红/黑, not r/b; an
            // English one the cell's compact text (`12b1`).
            let who = opponent_number.unwrap_or(opponent.0);
            let c = crate::model::colour_label(*colour, Lang::Zh);
            bi!(
                lang,
                zh("{who}{c}{}", result.map(String::from).unwrap_or_default()),
                en("{}", cell.text())
            )
        }
        (
            CrosstableCell::Game {
                opponent,
                opponent_number,
                colour,
                result,
                ..
            },
            CellWords::Worded,
        ) => {
            let who = opponent_number.unwrap_or(opponent.0);
            let c = crate::model::colour_label(*colour, lang);
            let r = match result {
                None => "",
                Some('1') => lang.pick("胜", " 1"),
                Some('=') => lang.pick("和", " ½"),
                Some('0') => lang.pick("负", " 0"),
                Some('+') => lang.pick("胜*", " +"),
                Some('-') => lang.pick("负*", " -"),
                Some(_) => "?",
            };
            bi!(lang, zh("{who}{c}{r}"), en("{who} {c}{r}"))
        }
    }
}

#[cfg(test)]
mod tests;
