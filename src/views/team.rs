//! The sheets of a team competition (团体赛, docs/rules.md §17), as reports every format
//! renders: the match pairing sheet (teams, and every board with its players and
//! colours), the match slips (one row per board with a 结果 column that `result --from`
//! reads back), the team standings with 场分/局分/tiebreaks, the team crosstable, the
//! board results, and the team prize sheet with the board prizes (最佳台次奖).

use crate::i18n::{Lang, bi};
use crate::model::{
    BoardGame, Event, GroupId, PlayerId, TeamId, TeamMatch, TeamRound, WithdrawalCause,
};
use crate::report::{Report, Section};
use crate::rulebook::{Rulebook, TeamMatchTiebreak};
use crate::teams::{self, MatchOutcome, TeamError};
use serde_json::json;

/// A team sheet's report: titled by the event's name and `what`, in `lang` (its HTML
/// `lang` code as every other sheet's).
fn team_report(rules: &Rulebook, lang: Lang, what: &str) -> Report {
    let mut report = Report::new(format!("{} {what}", rules.event.name));
    report.lang = lang.code().into();
    report
}

/// A tiebreak's column header.
pub fn team_tiebreak_label(t: TeamMatchTiebreak, lang: Lang) -> &'static str {
    match t {
        TeamMatchTiebreak::GamePoints => lang.pick("局分", "game points"),
        TeamMatchTiebreak::DirectEncounter => lang.pick("直胜", "direct encounter"),
        TeamMatchTiebreak::OppMatchPoints => lang.pick("对手场分", "opp. match points"),
        TeamMatchTiebreak::BoardOrder => lang.pick("台次分", "board points"),
        TeamMatchTiebreak::MatchWins => lang.pick("胜场", "matches won"),
    }
}

fn team_names(event: &Event, pool: &GroupId) -> Vec<(TeamId, String)> {
    crate::registration::team_sheet::teams_in(&event.players, pool)
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect()
}

fn name_of(names: &[(TeamId, String)], t: TeamId) -> String {
    names
        .iter()
        .find(|(id, _)| *id == t)
        .map_or_else(|| t.to_string(), |(_, n)| n.clone())
}

fn player(event: &Event, id: PlayerId) -> String {
    event
        .player(id)
        .map_or_else(|| id.to_string(), |p| p.name.clone())
}

fn result_cell(b: &BoardGame, lang: Lang) -> String {
    b.result.map(|r| r.entry_text_in(lang)).unwrap_or_default()
}

/// The score of a match as 局分 `a:b`, with the outcome's words once decided.
fn score_cell(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: u32,
    m: &TeamMatch,
    lang: Lang,
) -> String {
    let Some(team) = rules.team_competition.as_ref() else {
        return String::new();
    };
    let state = event.team_pools.get(pool).cloned().unwrap_or_default();
    let (a, b) = teams::game_points(&m.boards, m, team);
    match teams::match_outcome(&state, round, m, team) {
        None if m.boards.iter().any(|b| b.result.is_some()) => format!("{}:{} …", a.0, b.0),
        None => String::new(),
        Some(MatchOutcome::TiebreakWin(w)) => {
            let names = team_names(event, pool);
            format!(
                "{}:{} ({} {})",
                a.0,
                b.0,
                lang.pick("加赛胜", "wins tiebreak"),
                name_of(&names, w)
            )
        }
        Some(MatchOutcome::ForfeitWin(_)) => {
            format!("{}:{} ({})", a.0, b.0, lang.pick("弃权", "forfeit"))
        }
        Some(_) => format!("{}:{}", a.0, b.0),
    }
}

/// Round `number` of team pool `pool` (default: the newest); a round not there says why
/// (`teams::missing_round`: outside the rounds the pool plays, or not paired yet).
fn round_of(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    number: Option<u32>,
) -> Result<TeamRound, TeamError> {
    let state = event.team_pools.get(pool).ok_or(TeamError::NoRound {
        round: number.unwrap_or(1),
    })?;
    match number {
        Some(n) => state
            .round(n)
            .cloned()
            .ok_or_else(|| teams::missing_round(event, rules, pool, n)),
        None => state
            .rounds
            .last()
            .cloned()
            .ok_or(TeamError::NoRound { round: 1 }),
    }
}

/// The match pairing sheet of round `number` (default: the newest): one section of the
/// matches, one of every board.
pub fn team_pairing_sheet(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    number: Option<u32>,
    lang: Lang,
) -> Result<Report, TeamError> {
    teams::team_rules(rules)?;
    let round = round_of(event, rules, pool, number)?;
    let names = team_names(event, pool);
    let state = event.team_pools.get(pool).cloned().unwrap_or_default();
    let num = |t: TeamId| {
        state
            .number_of(t)
            .map_or_else(String::new, |n| n.to_string())
    };
    let mut report = team_report(
        rules,
        lang,
        &bi!(
            lang,
            zh("第{}轮团体对阵表", round.number),
            en("round {} team pairings", round.number)
        ),
    );
    let mut matches = Section::new(
        lang.pick("场次", "Matches"),
        [
            lang.pick("场次", "match"),
            lang.pick("先走队序号", "no."),
            lang.pick("先走队（单数台执红）", "first (red on odd boards)"),
            lang.pick("比分", "score"),
            lang.pick("后走队", "second"),
            lang.pick("后走队序号", "no."),
        ]
        .map(String::from)
        .to_vec(),
    )
    .right(&[0, 1, 5]);
    let mut boards = Section::new(
        lang.pick("各台对阵", "Boards"),
        [
            lang.pick("场次", "match"),
            lang.pick("台次", "board"),
            lang.pick("红方", "red"),
            lang.pick("红方队", "red team"),
            lang.pick("结果", "result"),
            lang.pick("黑方", "black"),
            lang.pick("黑方队", "black team"),
        ]
        .map(String::from)
        .to_vec(),
    )
    .right(&[0, 1]);
    let mut json_matches = Vec::new();
    for m in &round.matches {
        let score = score_cell(event, rules, pool, round.number, m, lang);
        matches.push(vec![
            m.table.to_string(),
            num(m.first),
            name_of(&names, m.first),
            score.clone(),
            name_of(&names, m.second),
            num(m.second),
        ]);
        let mut json_boards = Vec::new();
        for (tiebreak, list) in [(false, &m.boards), (true, &m.tiebreak)] {
            for b in list {
                let (rt, bt) = if tiebreak {
                    (
                        teams::team_at_tiebreak(m, b.board, crate::model::Colour::Red),
                        teams::team_at_tiebreak(m, b.board, crate::model::Colour::Black),
                    )
                } else {
                    (
                        teams::team_at(m, b.board, crate::model::Colour::Red),
                        teams::team_at(m, b.board, crate::model::Colour::Black),
                    )
                };
                let board = if tiebreak {
                    format!("{}{}", lang.pick("加赛", "tiebreak "), b.board)
                } else {
                    b.board.to_string()
                };
                boards.push(vec![
                    m.table.to_string(),
                    board,
                    player(event, b.red),
                    name_of(&names, rt),
                    result_cell(b, lang),
                    player(event, b.black),
                    name_of(&names, bt),
                ]);
                json_boards.push(json!({
                    "board": b.board,
                    "tiebreak": tiebreak,
                    "red": player(event, b.red),
                    "black": player(event, b.black),
                    "result": b.result.map(|r| r.outcome.token()),
                }));
            }
        }
        json_matches.push(json!({
            "match": m.table,
            "first": name_of(&names, m.first),
            "second": name_of(&names, m.second),
            "score": score,
            "boards": json_boards,
        }));
    }
    if let Some(t) = round.bye {
        matches.notes.push(format!(
            "{}{}",
            lang.pick("轮空：", "bye: "),
            name_of(&names, t)
        ));
    }
    report.json = json!({
        "round": round.number,
        "matches": json_matches,
        "bye": round.bye.map(|t| name_of(&names, t)),
    });
    report.sections = vec![matches, boards];
    Ok(report)
}

/// The match slips of a round: one row per board with an empty 结果 to fill in (or the
/// result recorded), the rows `result --from` reads back.
pub fn team_slips(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    number: Option<u32>,
    lang: Lang,
) -> Result<Report, TeamError> {
    teams::team_rules(rules)?;
    let round = round_of(event, rules, pool, number)?;
    let names = team_names(event, pool);
    let mut report = team_report(
        rules,
        lang,
        &bi!(
            lang,
            zh("第{}轮团体成绩登记表", round.number),
            en("round {} match slips", round.number)
        ),
    );
    let columns: Vec<String> = [
        lang.pick("轮次", "round"),
        lang.pick("场次", "match"),
        lang.pick("台次", "board"),
        lang.pick("红方队", "red team"),
        lang.pick("红方", "red"),
        lang.pick("黑方队", "black team"),
        lang.pick("黑方", "black"),
        lang.pick("结果", "result"),
        lang.pick("签字", "signature"),
    ]
    .map(String::from)
    .to_vec();
    let mut flat = Section::new(report.title.clone(), columns.clone()).right(&[0, 1, 2]);
    let mut rows = Vec::new();
    for m in &round.matches {
        let mut section = Section::new(
            format!(
                "{} {} — {}",
                bi!(lang, zh("第{}场", m.table), en("match {}", m.table)),
                name_of(&names, m.first),
                name_of(&names, m.second)
            ),
            columns.clone(),
        )
        .right(&[0, 1, 2]);
        for b in &m.boards {
            let row = vec![
                round.number.to_string(),
                m.table.to_string(),
                b.board.to_string(),
                name_of(
                    &names,
                    teams::team_at(m, b.board, crate::model::Colour::Red),
                ),
                player(event, b.red),
                name_of(
                    &names,
                    teams::team_at(m, b.board, crate::model::Colour::Black),
                ),
                player(event, b.black),
                result_cell(b, lang),
                String::new(),
            ];
            section.push(row.clone());
            flat.push(row.clone());
            rows.push(row);
        }
        // A level match's tiebreak games (加赛): the same board pairs with colours
        // reversed, a row each, 台次 `加赛N`, read back by `result --from` apart from the
        // main boards.
        let team = rules.team_competition.as_ref();
        let level = team.is_some_and(|t| teams::needs_tiebreak(m, t));
        if level || !m.tiebreak.is_empty() {
            for b in &m.boards {
                let game = m.tiebreak.iter().find(|g| g.board == b.board);
                let row = vec![
                    round.number.to_string(),
                    m.table.to_string(),
                    bi!(lang, zh("加赛{}", b.board), en("tiebreak {}", b.board)),
                    name_of(
                        &names,
                        teams::team_at(m, b.board, crate::model::Colour::Black),
                    ),
                    player(event, b.black),
                    name_of(
                        &names,
                        teams::team_at(m, b.board, crate::model::Colour::Red),
                    ),
                    player(event, b.red),
                    game.map(|g| result_cell(g, lang)).unwrap_or_default(),
                    String::new(),
                ];
                section.push(row.clone());
                flat.push(row.clone());
                rows.push(row);
            }
        }
        section.notes.push(
            lang.pick(
                "结果从各台红方看：红胜、和、黑胜、红弃权、黑弃权、双负",
                "results as seen from each board's red player: 红胜 (1-0), 和 (=), 黑胜 (0-1), -+, +-, --",
            )
            .to_string(),
        );
        report.sections.push(section);
    }
    report.csv = Some(flat);
    report.json = json!({ "round": round.number, "columns": columns, "rows": rows });
    Ok(report)
}

/// The team standings after round `round` (default: the newest complete).
pub fn team_standings_report(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: Option<u32>,
    lang: Lang,
) -> Result<Report, TeamError> {
    let st = teams::team_standings(event, rules, pool, round)?;
    let mut report = team_report(rules, lang, lang.pick("团体名次", "team standings"));
    report.subtitle.push(bi!(
        lang,
        zh("第{}轮后", st.after_round),
        en("after round {}", st.after_round)
    ));
    let shown: Vec<TeamMatchTiebreak> = st
        .tiebreaks
        .iter()
        .copied()
        .filter(|t| *t != TeamMatchTiebreak::DirectEncounter)
        .collect();
    let mut columns: Vec<String> = [
        lang.pick("名次", "place"),
        lang.pick("队名", "team"),
        lang.pick("场数", "played"),
        lang.pick("胜", "won"),
        lang.pick("和", "drawn"),
        lang.pick("负", "lost"),
        lang.pick("场分", "match points"),
    ]
    .map(String::from)
    .to_vec();
    columns.extend(
        shown
            .iter()
            .map(|t| team_tiebreak_label(*t, lang).to_string()),
    );
    let right: Vec<usize> = (0..columns.len()).filter(|&c| c != 1).collect();
    // A 备注 column only when a team is out, so other sheets keep their columns.
    let any_out = st.rows.iter().any(|r| r.withdrawn.is_some());
    if any_out {
        columns.push(lang.pick("备注", "note").to_string());
    }
    let mut section = Section::new(lang.pick("团体名次", "Standings"), columns).right(&right);
    let mut json_rows = Vec::new();
    for r in &st.rows {
        let place = if r.shared {
            format!("{}=", r.rank)
        } else {
            r.rank.to_string()
        };
        let mut row = vec![
            place.clone(),
            r.name.clone(),
            r.played.to_string(),
            r.wins.to_string(),
            r.draws.to_string(),
            r.losses.to_string(),
            r.match_points.0.to_string(),
        ];
        row.extend(shown.iter().map(|t| r.value(*t)));
        if any_out {
            row.push(out_note(r, lang));
        }
        section.push(row);
        json_rows.push(json!({
            "place": place,
            "team": r.name,
            "played": r.played,
            "won": r.wins,
            "drawn": r.draws,
            "lost": r.losses,
            "match_points": r.match_points.0,
            "game_points": r.game_points.0,
            "opp_match_points": r.opp_match_points.0,
            "board_points": r.board_points.iter().map(|p| p.0).collect::<Vec<_>>(),
        }));
        if let (Some(w), Some(last)) = (&r.withdrawn, json_rows.last_mut()) {
            last["withdrawn"] =
                json!({ "from_round": w.from_round, "cause": public_cause(&w.cause) });
            last["annulled"] = json!(r.annulled);
        }
    }
    let order: Vec<&str> = st
        .tiebreaks
        .iter()
        .map(|t| team_tiebreak_label(*t, lang))
        .collect();
    section.notes.push(format!(
        "{}{}",
        lang.pick("排名：场分，然后 ", "ranking: match points, then "),
        order.join(lang.pick("、", ", "))
    ));
    section.notes.extend(annulled_note(&st, lang));
    report.sections.push(section);
    report.json = json!({ "after_round": st.after_round, "standings": json_rows });
    Ok(report)
}

/// One pool of a team competition in `event.json`: its numbers, rounds (every match with
/// its boards), standings, and the whole teams withdrawn when there are any, the arbiter's
/// note only in private output as every typed reason. `None` for a pool never paired.
pub(crate) fn team_pool_json(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    lang: Lang,
    show_private: bool,
) -> Option<serde_json::Value> {
    let state = event.team_pools.get(pool)?;
    let standings = team_standings_report(event, rules, pool, None, lang).ok()?;
    let mut out = json!({
        "group": pool,
        "numbers": state.numbers,
        "rounds": state.rounds,
        "standings": standings.json,
    });
    if !state.withdrawn.is_empty() {
        let withdrawn: Vec<crate::model::TeamWithdrawal> = state
            .withdrawn
            .iter()
            .map(|w| crate::model::TeamWithdrawal {
                cause: match show_private {
                    true => w.cause.clone(),
                    false => public_cause(&w.cause),
                },
                ..w.clone()
            })
            .collect();
        out["withdrawn"] = json!(withdrawn);
    }
    Some(out)
}

/// A withdrawal's cause as public output shows it: without the arbiter's note.
fn public_cause(cause: &WithdrawalCause) -> WithdrawalCause {
    match cause {
        WithdrawalCause::Manual { .. } => WithdrawalCause::Manual { note: None },
        other => other.clone(),
    }
}

/// A withdrawn team's 备注: from which round, why, and whether its matches are annulled.
fn out_note(r: &teams::TeamRow, lang: Lang) -> String {
    let Some(w) = &r.withdrawn else {
        return String::new();
    };
    let from = w.from_round;
    let mut note = bi!(
        lang,
        zh("第{from}轮起退赛"),
        en("withdrawn from round {from}")
    );
    // The arbiter's own note is private (as a player's, `players`): the sheet is public.
    if !matches!(w.cause, WithdrawalCause::Manual { note: Some(_) }) {
        let cause = crate::results::withdrawal_cause_text(&w.cause, lang);
        note.push_str(&bi!(lang, zh("：{cause}"), en(": {cause}")));
    }
    if r.annulled {
        note.push_str(lang.pick(
            "；所赛不足半数，各场成绩不计",
            "; fewer than half its matches played, all of them annulled",
        ));
    }
    note
}

/// The note under a sheet naming the teams whose matches are annulled, if any.
fn annulled_note(st: &teams::TeamStandings, lang: Lang) -> Option<String> {
    let names: Vec<&str> = st
        .rows
        .iter()
        .filter(|r| r.annulled)
        .map(|r| r.name.as_str())
        .collect();
    if names.is_empty() {
        return None;
    }
    let list = names.join(lang.pick("、", ", "));
    Some(bi!(
        lang,
        zh("{list} 退赛且所赛不足半数，其各场成绩不计（docs/rules.md §17.7）"),
        en(
            "{list} withdrew having played fewer than half of their matches: those matches are annulled (docs/rules.md §17.7)"
        )
    ))
}

/// The team crosstable: each match's 局分 from the row team's side, by opponent.
pub fn team_crosstable(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: Option<u32>,
    lang: Lang,
) -> Result<Report, TeamError> {
    let team = teams::team_rules(rules)?;
    let st = teams::team_standings(event, rules, pool, round)?;
    let state = teams::ranked_pool(event, rules, pool);
    let all = teams::meetings(&state, team, st.after_round);
    let mut report = team_report(rules, lang, lang.pick("团体交叉表", "team crosstable"));
    let mut columns = vec![
        lang.pick("名次", "place").to_string(),
        lang.pick("队名", "team").to_string(),
    ];
    columns.extend((1..=st.rows.len()).map(|i| i.to_string()));
    columns.push(lang.pick("场分", "MP").to_string());
    columns.push(lang.pick("局分", "GP").to_string());
    let mut section = Section::new(lang.pick("交叉表", "Crosstable"), columns);
    let mut json_rows = Vec::new();
    for r in &st.rows {
        let name = match &r.withdrawn {
            Some(_) => format!("{}{}", r.name, lang.pick("（退赛）", " (withdrawn)")),
            None => r.name.clone(),
        };
        let mut row = vec![r.rank.to_string(), name];
        let mut cells = Vec::new();
        for o in &st.rows {
            let cell = if o.team == r.team {
                "×".to_string()
            } else {
                all.iter()
                    .filter(|m| m.team == r.team && m.opponent == o.team)
                    .map(|m| format!("{}:{}", m.score.0.0, m.score.1.0))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            cells.push(cell.clone());
            row.push(cell);
        }
        row.push(r.match_points.0.to_string());
        row.push(r.game_points.0.to_string());
        section.push(row);
        json_rows.push(json!({ "team": r.name, "cells": cells }));
    }
    if let Some(n) = annulled_note(&st, lang) {
        section.notes.push(n);
    }
    report.sections.push(section);
    report.json = json!({ "after_round": st.after_round, "rows": json_rows });
    Ok(report)
}

/// Every player's results board by board, and the board prizes.
pub fn board_results(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: Option<u32>,
    lang: Lang,
) -> Result<Report, TeamError> {
    let team = teams::team_rules(rules)?;
    let stats = teams::board_stats(event, rules, pool, round)?;
    let names = team_names(event, pool);
    let mut report = team_report(rules, lang, lang.pick("台次成绩", "board results"));
    let columns: Vec<String> = [
        lang.pick("台次", "board"),
        lang.pick("姓名", "name"),
        lang.pick("队名", "team"),
        lang.pick("局数", "games"),
        lang.pick("胜", "won"),
        lang.pick("和", "drawn"),
        lang.pick("负", "lost"),
        lang.pick("局分", "points"),
        lang.pick("得分率", "percentage"),
    ]
    .map(String::from)
    .to_vec();
    let mut json_rows = Vec::new();
    for board in 1..=team.boards {
        let mut section = Section::new(
            bi!(lang, zh("第{board}台"), en("Board {board}")),
            columns.clone(),
        )
        .right(&[0, 3, 4, 5, 6, 7, 8]);
        for l in stats.iter().filter(|l| l.board == board) {
            let row = vec![
                board.to_string(),
                player(event, l.player),
                name_of(&names, l.team),
                l.games.to_string(),
                l.wins.to_string(),
                l.draws.to_string(),
                l.losses.to_string(),
                l.points.0.to_string(),
                l.percent(),
            ];
            json_rows.push(json!({
                "board": board,
                "name": row[1],
                "team": row[2],
                "games": l.games,
                "points": l.points.0,
                "percentage": row[8],
            }));
            section.push(row);
        }
        report.sections.push(section);
    }
    report.json = json!({ "boards": json_rows });
    Ok(report)
}

/// The team prize sheet: the teams in standings order, and each board's prize (最佳台次奖:
/// the best percentage among players with the rulebook's games, equal ones sharing).
pub fn team_prize_sheet(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    lang: Lang,
) -> Result<Report, TeamError> {
    let team = teams::team_rules(rules)?;
    let st = teams::team_standings(event, rules, pool, None)?;
    let prizes = teams::board_prizes(event, rules, pool, None)?;
    let min = team.board_prize_games(teams::rounds_of(event, rules, pool));
    let names = team_names(event, pool);
    let mut report = team_report(rules, lang, lang.pick("团体获奖名单", "team prize sheet"));
    let mut teams_section = Section::new(
        lang.pick("团体名次", "Team places"),
        [
            lang.pick("名次", "place"),
            lang.pick("队名", "team"),
            lang.pick("场分", "match points"),
            lang.pick("局分", "game points"),
            lang.pick("领奖签字", "signature"),
        ]
        .map(String::from)
        .to_vec(),
    )
    .right(&[0, 2, 3]);
    for r in &st.rows {
        let place = if r.shared {
            format!("{}=", r.rank)
        } else {
            r.rank.to_string()
        };
        teams_section.push(vec![
            place,
            r.name.clone(),
            r.match_points.0.to_string(),
            r.game_points.0.to_string(),
            String::new(),
        ]);
    }
    let mut boards = Section::new(
        lang.pick("最佳台次奖", "Board prizes"),
        [
            lang.pick("台次", "board"),
            lang.pick("姓名", "name"),
            lang.pick("队名", "team"),
            lang.pick("局数", "games"),
            lang.pick("局分", "points"),
            lang.pick("得分率", "percentage"),
            lang.pick("领奖签字", "signature"),
        ]
        .map(String::from)
        .to_vec(),
    )
    .right(&[0, 3, 4, 5]);
    for l in &prizes {
        boards.push(vec![
            l.board.to_string(),
            player(event, l.player),
            name_of(&names, l.team),
            l.games.to_string(),
            l.points.0.to_string(),
            l.percent(),
            String::new(),
        ]);
    }
    boards.notes.push(bi!(
        lang,
        zh("每台得分率最高者获奖，须至少下满 {min} 局；得分率相同者并列"),
        en(
            "the best percentage on each board among players with at least {min} games; equal percentages share"
        )
    ));
    report.json = json!({
        "teams": st.rows.iter().map(|r| json!({"place": r.rank, "shared": r.shared, "team": r.name})).collect::<Vec<_>>(),
        "board_prizes": prizes.iter().map(|l| json!({"board": l.board, "name": player(event, l.player), "team": name_of(&names, l.team), "percentage": l.percent()})).collect::<Vec<_>>(),
        "min_games": min,
    });
    report.sections = vec![teams_section, boards];
    Ok(report)
}

/// The lines `pair --explain` prints for a team round: the engine's reasons with the
/// teams' names.
pub fn team_explanation(
    event: &Event,
    pool: &GroupId,
    plan: &teams::TeamPlan,
    lang: Lang,
) -> Vec<String> {
    let names = team_names(event, pool);
    match &plan.explanation {
        // The engine's reasons worded for teams at the source: matches, moving first.
        Some(x) => x.lines_in(
            lang,
            &|p| name_of(&names, teams::as_team(p)),
            crate::pairing::Vocabulary::Teams,
        ),
        None => vec![lang
            .pick(
                "循环赛按贝格尔编排表排定对阵与先后手（docs/rules.md §14）",
                "a round robin follows the Berger tables for pairings and colours (docs/rules.md §14)",
            )
            .to_string()],
    }
}
