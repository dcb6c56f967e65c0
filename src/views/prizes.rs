//! The prize sheet (获奖名单) and the team ranking.

use crate::i18n::bi;
use crate::model::{Event, GroupId};
use crate::prizes::{self, PrizeSheet, TeamRanking, format_fen};
use crate::report::{Report, Section};
use crate::rulebook::{GroupRule, Lang, Rulebook, TeamMetric};
use crate::standings::{Standings, compute_standings};
use std::collections::BTreeMap;

/// Final (or current) standings of every pool that has players.
pub fn all_standings(event: &Event, rules: &Rulebook) -> BTreeMap<GroupId, Standings> {
    ranked_pools(event, rules)
        .map(|g| (g.id.clone(), compute_standings(event, rules, &g.id, None)))
        .collect()
}

/// The pools [`all_standings`] ranks, in the rulebook's order: those with players
/// ([`Shown::Players`](crate::lookup::Shown)).
pub(crate) fn ranked_pools<'r>(
    event: &Event,
    rules: &'r Rulebook,
) -> impl Iterator<Item = &'r GroupRule> {
    crate::lookup::pools_shown(rules, event, crate::lookup::Shown::Players).into_iter()
}

/// The prize sheet and the team rankings, computed from the current standings.
pub fn compute_sheet(event: &Event, rules: &Rulebook) -> (PrizeSheet, Vec<TeamRanking>) {
    sheet_from(event, rules, &all_standings(event, rules))
}

/// The prize sheet and the team rankings from standings already computed (a caller that
/// also prints the standings computes them once).
pub fn sheet_from(
    event: &Event,
    rules: &Rulebook,
    standings: &BTreeMap<GroupId, Standings>,
) -> (PrizeSheet, Vec<TeamRanking>) {
    let teams = prizes::team_rankings(event, rules, standings);
    (prizes::prize_sheet(event, rules, standings, &teams), teams)
}

/// A date as the sheet prints it: `2021年9月19日` in Chinese, `2021-09-19` in English.
pub(crate) fn date_text(d: chrono::NaiveDate, lang: Lang) -> String {
    use chrono::Datelike;
    bi!(
        lang,
        zh("{}年{}月{}日", d.year(), d.month(), d.day()),
        en("{d}")
    )
}

fn dates(
    sheet_start: Option<chrono::NaiveDate>,
    end: Option<chrono::NaiveDate>,
    lang: Lang,
) -> Option<String> {
    match (sheet_start, end) {
        (Some(a), Some(b)) if a != b => Some(bi!(
            lang,
            zh("{}至{}", date_text(a, lang), date_text(b, lang)),
            en("{a} – {b}")
        )),
        (Some(a), _) => Some(date_text(a, lang)),
        (None, Some(b)) => Some(date_text(b, lang)),
        (None, None) => None,
    }
}

/// The lines the signed prize sheet ends with: 裁判长 and 组委会 (with its seal), and the
/// date, the event's last day when the rulebook gives it (a blank to fill in otherwise).
fn sign_off(sheet: &PrizeSheet, lang: Lang) -> Vec<String> {
    let day = sheet
        .end_date
        .or(sheet.start_date)
        .map(|d| date_text(d, lang));
    let day = day.unwrap_or_else(|| lang.pick("______年____月____日", "________________").into());
    vec![
        lang.pick(
            "裁判长（签字）：________________    组委会（盖章）：________________",
            "Chief arbiter (signature): ________________    Organising committee (seal): ________________",
        )
        .into(),
        bi!(lang, zh("日期：{day}"), en("Date: {day}")),
    ]
}

fn text(o: &Option<String>) -> String {
    o.clone().unwrap_or_default()
}

/// The prize sheet (获奖名单) from the current standings of every pool, as a report: the
/// places, money, titles and qualifications of each list (docs/rules.md §7).
pub fn prize_sheet(event: &Event, rules: &Rulebook, lang: Lang) -> Report {
    prize_sheet_report(&compute_sheet(event, rules).0, lang)
}

/// [`prize_sheet`] for the finance office (`prizes --show-private`): every award's player
/// with the full 身份证号 and phone number beside the name.
pub fn prize_sheet_private(event: &Event, rules: &Rulebook, lang: Lang) -> Report {
    sheet_report(&compute_sheet(event, rules).0, lang, Some(event))
}

/// The prize sheet as a report: one section per list and team competition, the totals,
/// and one flat row per award for `--format csv`.
pub fn prize_sheet_report(sheet: &PrizeSheet, lang: Lang) -> Report {
    sheet_report(sheet, lang, None)
}

/// The prize sheet; with `private`, the event whose players' ID and phone numbers are
/// shown in full (only `--show-private` passes it).
fn sheet_report(sheet: &PrizeSheet, lang: Lang, private: Option<&Event>) -> Report {
    let contact = |id: crate::model::PlayerId| -> [String; 2] {
        let p = private.and_then(|e| e.player(id));
        [
            p.and_then(|p| p.id_number.clone()).unwrap_or_default(),
            p.and_then(|p| p.phone.clone()).unwrap_or_default(),
        ]
    };
    let extra = if private.is_some() { 2 } else { 0 };
    let cur = &sheet.currency;
    let mut report = Report::new(format!(
        "{} — {}",
        sheet.event,
        lang.pick("获奖名单", "prize sheet")
    ));
    report.lang = lang.code().into();
    if let Some(d) = dates(sheet.start_date, sheet.end_date, lang) {
        report.subtitle.push(d);
    }
    for line in [&sheet.venue, &sheet.organiser].into_iter().flatten() {
        report.subtitle.push(line.clone());
    }
    let sign = lang.pick("领奖签字", "signature");
    // The finance office's sheet: amounts as plain numbers (held money in its own column,
    // the reason in 状态), a signature column and a totals row.
    let mut flat = Section::new(
        "",
        super::headings(
            lang,
            &[
                ("奖项", "list"),
                ("名次", "place"),
                ("姓名", "name"),
                ("单位", "unit"),
                ("身份证号", "ID number"),
                ("电话", "phone"),
                ("积分", "score"),
                ("奖金", "amount"),
                ("暂缓发放", "held"),
                ("状态", "status"),
                ("奖励", "award"),
                ("称号", "title"),
                ("资格", "qualification"),
                ("领奖签字", "signature"),
            ],
        ),
    );
    let pending = lang.pick("待加赛", "playoff pending");
    for list in &sheet.lists {
        let mut cols: Vec<String> = vec![
            lang.pick("名次", "place").into(),
            lang.pick("姓名", "name").into(),
            lang.pick("单位", "unit").into(),
        ];
        if private.is_some() {
            cols.push(lang.pick("身份证号", "ID number").into());
            cols.push(lang.pick("电话", "phone").into());
        }
        cols.extend([
            lang.pick("积分", "pts").into(),
            format!("{}({cur})", lang.pick("奖金", "money")),
            lang.pick("奖励", "award").into(),
            lang.pick("称号", "title").into(),
            lang.pick("资格", "qualification").into(),
            sign.into(),
        ]);
        // A list that pays no money (awards, titles, qualifications only) has no money
        // column and no "合计 0元" line.
        let pays = list
            .awards
            .iter()
            .any(|a| a.money_fen > 0 || a.held_fen > 0)
            || list.totals.budget_fen > 0;
        let mut s = Section::new(list.name.clone(), cols).right(&[0, 3 + extra, 4 + extra]);
        for a in &list.awards {
            let place = if a.shared {
                format!("{}=", a.place)
            } else {
                a.place.to_string()
            };
            let money = if a.pending_playoff {
                format!("{pending} ({})", format_fen(a.held_fen))
            } else if pays && a.money_fen > 0 {
                format_fen(a.money_fen)
            } else {
                // A place without money in a list that pays others: blank, not 0.
                String::new()
            };
            let qualification = if a.qualification_pending {
                lang.pick("资格待加赛", "qualification awaits playoff")
                    .to_string()
            } else {
                text(&a.qualification)
            };
            let [id_number, phone] = contact(a.player);
            let mut row = vec![place.clone(), a.name.clone(), a.unit.clone()];
            if private.is_some() {
                row.extend([id_number.clone(), phone.clone()]);
            }
            row.extend([
                a.score.to_string(),
                money,
                text(&a.award),
                text(&a.title),
                qualification,
                String::new(),
            ]);
            s.push(row);
            flat.push(vec![
                list.name.clone(),
                place,
                a.name.clone(),
                a.unit.clone(),
                id_number,
                phone,
                a.score.to_string(),
                format_fen(a.money_fen),
                format_fen(a.held_fen),
                award_status(a, lang),
                text(&a.award),
                text(&a.title),
                text(&a.qualification),
                String::new(),
            ]);
        }
        for p in &list.passed_on {
            s.notes.push(format!(
                "{} {} {} {}",
                p.name,
                lang.pick("只领一项奖，已领", "takes one prize only, kept"),
                p.kept_list_name,
                lang.pick("（本名单名次顺延）", "(places below move up)")
            ));
        }
        note_lines(&mut s, &list.notes, lang, &list.id, cur);
        if pays {
            s.notes.push(total_line(lang, &list.totals, cur));
        }
        // Money, award, title and qualification only where the regulation gives some.
        report.sections.push(without_empty_table(s.drop_empty(&[
            4 + extra,
            5 + extra,
            6 + extra,
            7 + extra,
        ])));
    }
    for team in &sheet.teams {
        let mut s = Section::new(
            team.name.clone(),
            vec![
                lang.pick("名次", "place").into(),
                lang.pick("单位", "unit").into(),
                lang.pick("计分队员", "counted members").into(),
                lang.pick("成绩", "value").into(),
                format!("{}({cur})", lang.pick("奖金", "money")),
                lang.pick("奖励", "award").into(),
                lang.pick("称号", "title").into(),
                sign.into(),
            ],
        )
        .right(&[0, 3, 4]);
        for a in &team.awards {
            let place = if a.shared {
                format!("{}=", a.place)
            } else {
                a.place.to_string()
            };
            s.push(vec![
                place.clone(),
                a.unit.clone(),
                a.members.join("、"),
                a.value.to_string(),
                if a.money_fen > 0 {
                    format_fen(a.money_fen)
                } else {
                    String::new()
                },
                text(&a.award),
                text(&a.title),
                String::new(),
            ]);
            flat.push(vec![
                team.name.clone(),
                place,
                a.members.join("、"),
                a.unit.clone(),
                String::new(),
                String::new(),
                a.value.to_string(),
                format_fen(a.money_fen),
                format_fen(0),
                String::new(),
                text(&a.award),
                text(&a.title),
                text(&a.qualification),
                String::new(),
            ]);
        }
        note_lines(&mut s, &team.notes, lang, &team.id, cur);
        // An award-only team list has no money column and no "合计 0元" line.
        if team.awards.iter().any(|a| a.money_fen > 0) || team.totals.budget_fen > 0 {
            s.notes.push(total_line(lang, &team.totals, cur));
        }
        report
            .sections
            .push(without_empty_table(s.drop_empty(&[4, 5, 6])));
    }
    if sheet.totals.budget_fen > 0 || sheet.totals.paid_fen > 0 || sheet.totals.held_fen > 0 {
        let mut grand = Section::new(lang.pick("奖金总计", "Grand total"), Vec::new());
        grand.notes.push(total_line(lang, &sheet.totals, cur));
        report.sections.push(grand);
    }
    report.footer.extend(sign_off(sheet, lang));
    flat.push(vec![
        lang.pick("合计", "Total").to_string(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        format_fen(sheet.totals.paid_fen),
        format_fen(sheet.totals.held_fen),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
    ]);
    // 身份证号 and 电话 only for the finance office (`--show-private`).
    report.csv = Some(flat.drop_empty(&[4, 5]));
    report.json = serde_json::to_value(sheet).unwrap_or_default();
    report
}

/// A list's section with no award (a pool before its first result, a cancelled group)
/// as its heading and notes only: the notes say why, and an empty table at a narrow
/// terminal lost every column.
fn without_empty_table(s: Section) -> Section {
    if !s.rows.is_empty() {
        return s;
    }
    let mut bare = Section::new(s.title, Vec::new());
    bare.notes = s.notes;
    bare
}

/// Why an award's money or qualification is not handed out yet (the CSV's 状态).
fn award_status(a: &crate::prizes::Award, lang: Lang) -> String {
    let mut parts = Vec::new();
    if a.pending_playoff {
        parts.push(lang.pick("需加赛，奖金暂缓", "playoff needed, money held"));
    }
    if a.qualification_pending {
        parts.push(lang.pick("资格待加赛", "qualification awaits playoff"));
    }
    parts.join(lang.pick("；", "; "))
}

fn exclusion_text(why: crate::prizes::Exclusion, lang: Lang) -> &'static str {
    use crate::prizes::Exclusion;
    match why {
        Exclusion::Disqualified => lang.pick("取消资格", "disqualified"),
        Exclusion::Withdrawn => lang.pick("退赛", "withdrawn"),
        Exclusion::NoGames => lang.pick("未下过一盘棋", "played no game"),
    }
}

/// How the suggested `qiwang playoff` command names players: `#N` by pairing number (序号,
/// as the sheet and standings show it), the registration id only for a player without one.
fn player_refs(players: &[crate::model::PlayerId], numbers: &[Option<u32>]) -> Vec<String> {
    players
        .iter()
        .zip(numbers.iter().chain(std::iter::repeat(&None)))
        .map(|(id, n)| n.map_or_else(|| id.to_string(), |n| format!("#{n}")))
        .collect()
}

fn note_lines(
    s: &mut Section,
    notes: &[crate::prizes::SheetNote],
    lang: Lang,
    list: &str,
    cur: &str,
) {
    use crate::prizes::SheetNote;
    let sep = lang.pick("、", ", ");
    for n in notes {
        s.notes.push(match n {
            SheetNote::PlayoffNeeded {
                place,
                players,
                names,
                numbers,
                held_fen,
                title,
            } => {
                let ids = player_refs(players, numbers);
                let command = format!("qiwang playoff --list {list} {}", ids.join(" "));
                bi!(lang, zh("第{place}名并列（{}）：冠军不并列，需加赛；奖金 {}{} 暂缓发放{}。加赛后用 `{command}`（胜者在前）记录",
                        names.join(sep),
                        format_fen(*held_fen),
                        cur,
                        title
                            .as_ref()
                            .map(|t| format!("，称号「{t}」待定"))
                            .unwrap_or_default()), en("tied for place {place} ({}): first place is not shared, a playoff is needed; {}{cur} held{}. Record it with `{command}` (winner first)",
                        names.join(sep),
                        format_fen(*held_fen),
                        title
                            .as_ref()
                            .map(|t| format!(", title 「{t}」 undecided"))
                            .unwrap_or_default()))
            }
            SheetNote::QualificationPlayoff {
                place,
                players,
                names,
                numbers,
                slots,
            } => {
                let ids = player_refs(players, numbers);
                let command = format!("qiwang playoff --list {list} {}", ids.join(" "));
                bi!(lang, zh("第{place}名并列（{}）跨越晋级线：{slots} 个晋级名额，资格待加赛；加赛后用 `{command}`（胜者在前）记录",
                        names.join(sep)), en("tied for place {place} ({}) across the qualification line: {}, qualification held for a playoff; record it with `{command}` (winner first)",
                        names.join(sep),
                        crate::i18n::plural(slots, "qualifying place", "qualifying places")))
            }
            SheetNote::QualificationSettled {
                place,
                qualified,
                not_qualified,
                how,
            } => {
                // No clause number: the sheet does not know the event's rules edition,
                // and a 2020-rules event must not read the 2011 book's (issue 43).
                use crate::standings::DecidedBy;
                let how = match how {
                    Some(DecidedBy::Lot) => lang.pick("抽签", "lot"),
                    Some(DecidedBy::Number) => lang.pick("序号", "pairing number"),
                    Some(DecidedBy::Playoff) => lang.pick("加赛", "playoff"),
                    Some(DecidedBy::RoundDropped { .. }) => {
                        lang.pick("去除前面轮次得分比较", "dropping early rounds' scores")
                    }
                    Some(DecidedBy::PrevRoundRank { .. }) => {
                        lang.pick("比较前一轮名次", "the previous round's rank")
                    }
                    Some(DecidedBy::PrevRoundScore { .. }) | None => {
                        lang.pick("比较前一轮成绩", "previous rounds' scores")
                    }
                };
                bi!(lang, zh("第{place}名并列跨越晋级线，按{how}：{} 晋级，{} 不晋级",
                        qualified.join(sep),
                        not_qualified.join(sep)), en("tied for place {place} across the qualification line, by {how}: {} qualify, {} do not",
                        qualified.join(sep),
                        not_qualified.join(sep)))
            }
            SheetNote::NotRanked { name, why, .. } => bi!(lang, zh("{name}：{}，不参加录取（名次顺延）",
                    exclusion_text(*why, lang)), en("{name}: {}, takes no place (places pass down)",
                    exclusion_text(*why, lang))),
            SheetNote::MissingStandings { pool } => bi!(lang, zh("没有该组成绩：{pool}"), en("no standings for {pool}")),
            SheetNote::Provisional {
                after_round: 0,
                rounds,
                ..
            } => bi!(
                lang,
                zh("尚未开赛（共{rounds}轮）：暂无名次"),
                en("not started (before round 1 of {rounds}): no places yet")
            ),
            SheetNote::Provisional {
                after_round,
                rounds,
                open_tables: 0,
            } => format!(
                "{} {after_round}/{rounds}",
                lang.pick("成绩未完：已赛轮次", "provisional: rounds played")
            ),
            SheetNote::Provisional {
                after_round,
                rounds,
                open_tables,
            } => bi!(lang, zh("成绩未完：第{after_round}轮进行中，{open_tables} 台尚无成绩（共{rounds}轮）"), en("provisional: round {after_round} of {rounds} in progress, {} without a result yet",
                    crate::i18n::plural(open_tables, "table", "tables"))),
            SheetNote::Cancelled { .. } => lang
                .pick(
                    "该组已取消（`qiwang group cancel`）：不评名次，不发奖，奖金不计入总计",
                    "the group was cancelled (`qiwang group cancel`): no places, no prizes, its money not counted in the totals",
                )
                .into(),
            SheetNote::MissingTeamRanking => lang.pick("没有团体排名", "no team ranking").into(),
        });
    }
}

fn total_line(lang: Lang, t: &crate::prizes::Totals, cur: &str) -> String {
    let mut line = format!(
        "{} {}{cur}",
        lang.pick("合计", "Total"),
        format_fen(t.paid_fen)
    );
    if t.held_fen > 0 {
        line.push_str(&format!(
            "{}{} {}{cur}",
            lang.pick("，", ", "),
            lang.pick("待加赛暂缓发放", "held for playoff"),
            format_fen(t.held_fen)
        ));
    }
    if t.budget_fen != t.paid_fen + t.held_fen + t.undistributed_fen {
        let (open, close) = (lang.pick("（", " ("), lang.pick("）", ")"));
        line.push_str(&format!(
            "{open}{} {}{cur}{close}",
            lang.pick("预算", "budget"),
            format_fen(t.budget_fen)
        ));
    }
    line
}

/// Every team competition ranked over the current standings (no prize sheet needed).
pub fn team_rankings(event: &Event, rules: &Rulebook) -> Vec<TeamRanking> {
    prizes::team_rankings(event, rules, &all_standings(event, rules))
}

/// The team ranking (团体排名) as a report: one section per team competition, each unit
/// with its place, score and the members counted (docs/rules.md §8).
pub fn teams_report(
    event: &Event,
    rules: &Rulebook,
    rankings: &[TeamRanking],
    lang: Lang,
) -> Report {
    let mut report = Report::new(format!(
        "{} — {}",
        rules.event.name,
        lang.pick("团体排名", "team ranking")
    ));
    report.lang = lang.code().into();
    for t in rankings {
        let metric = match t.metric {
            TeamMetric::RankSum => lang.pick("名次和（少者列前）", "rank sum (lower is better)"),
            TeamMetric::PointSum => lang.pick("积分和", "point sum"),
        };
        let mut s = Section::new(
            format!(
                "{} — {} {} {}",
                t.name,
                lang.pick("取前", "best"),
                t.best_n,
                metric
            ),
            vec![
                lang.pick("名次", "place").into(),
                lang.pick("单位", "unit").into(),
                lang.pick("成绩", "value").into(),
                lang.pick("计分队员（名次/积分）", "counted members (rank/pts)")
                    .into(),
            ],
        )
        .right(&[0, 2]);
        for row in &t.rows {
            let members: Vec<String> = row
                .members
                .iter()
                .map(|m| format!("{}({}/{})", m.name, m.rank, m.score))
                .collect();
            let mut members = members.join("、");
            if row.padded > 0 {
                members.push_str(&format!(
                    " +{}{}",
                    row.padded,
                    lang.pick("名缺额", " padded")
                ));
            }
            s.push(vec![
                if row.shared {
                    format!("{}=", row.place)
                } else {
                    row.place.to_string()
                },
                row.unit.clone(),
                row.value.to_string(),
                members,
            ]);
        }
        // Where the ranking stands: after which round, or during round 1.
        s.notes.push(super::standings::subtitle(
            event,
            rules,
            &t.pool,
            t.after_round,
            lang,
        ));
        for e in &t.excluded {
            s.notes.push(format!(
                "{}: {} ({}/{})",
                e.unit,
                lang.pick("人数不足，不参加团体排名", "too few players, not ranked"),
                e.ranked,
                e.needed
            ));
        }
        report.sections.push(s);
    }
    report.json = serde_json::to_value(rankings).unwrap_or_default();
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prizes::Totals;

    #[test]
    fn total_line_punctuation_follows_the_language() {
        let t = Totals {
            paid_fen: 2_080_000,
            held_fen: 10_000,
            undistributed_fen: 0,
            budget_fen: 2_100_000,
        };
        assert_eq!(
            total_line(Lang::Zh, &t, "元"),
            "合计 20800元，待加赛暂缓发放 100元（预算 21000元）"
        );
        assert_eq!(
            total_line(Lang::En, &t, "元"),
            "Total 20800元, held for playoff 100元 (budget 21000元)"
        );
    }
}
