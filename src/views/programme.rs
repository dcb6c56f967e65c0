//! 秩序册 (`qiwang programme`): the event's printed programme — organiser, venue and
//! dates, the schedule from `event.round_times`, the groups, the regulation's key rules
//! in words, and the entry list by unit with the 领队 and 教练 the registration sheet
//! gives.
//!
//! Owns the programme as a [`Report`], so every output format (table, HTML to print, CSV,
//! xlsx, JSON) renders it. The entry list shows no private number (ID, phone): the
//! 领队 and 教练 come only from the columns that name them, every number in them masked.

use super::labels::tiebreak_label;
use super::prizes::date_text;
use crate::i18n::bi;
use crate::model::{Event, Player};
use crate::privacy;
use crate::registration::headers::staff_role;
use crate::report::{Report, Section};
use crate::rulebook::system_name;
use crate::rulebook::{
    FormatKind, GroupFormat, Lang, Rulebook, TeamMatchRules, Tiebreak, TiebreakDecider,
};
use serde_json::json;
use std::collections::BTreeMap;

/// The unit's `role` (领队 or 教练) as player `p`'s registration row gives it (kept
/// verbatim among the player's extra columns), from a column
/// [`STAFF_COLUMNS`](crate::registration::headers::STAFF_COLUMNS) names,
/// with every number in it masked ([`privacy::mask_public_text`]): organisers write a
/// phone or an ID number beside the name (`王五 13700137000`), and the programme goes to
/// every team.
fn staff(p: &Player, role: &str) -> Option<String> {
    p.extra
        .iter()
        .find(|(k, v)| staff_role(k).is_some_and(|(r, _)| r == role) && !v.trim().is_empty())
        .map(|(_, v)| privacy::mask_public_text(v.trim()))
}

/// The key rules of the regulation in words, as the programme prints them.
fn rule_lines(event: &Event, rules: &Rulebook, lang: Lang) -> Vec<String> {
    let c = &rules.conduct;
    let mut out = Vec::new();
    if !rules.event.rules_edition.is_empty() {
        out.push(bi!(
            lang,
            zh("执行规则：{}", rules.event.rules_edition),
            en("Rules: {}", rules.event.rules_edition)
        ));
    }
    // One system for the whole event, or each group's in the groups table; a team
    // event's is its teams' (a team round robin's rounds follow from its teams).
    let mut pools = rules.pools();
    if let (Some(t), Some(pool), None) = (&rules.team_competition, pools.next(), pools.next()) {
        let system = system_name(t.format.kind(), t.cycles, lang);
        let rounds = crate::teams::rounds_of(event, rules, &pool.id);
        out.push(bi!(
            lang,
            zh("赛制：团体赛，{system}，共{rounds}轮"),
            en("System: teams, {system}, {rounds} rounds")
        ));
    } else if rules.pools().all(|g| g.format.is_default_swiss()) {
        out.push(bi!(
            lang,
            zh("赛制：积分编排制，共{}轮", rules.event.rounds),
            en("System: Swiss, {} rounds", rules.event.rounds)
        ));
    } else {
        out.push(
            lang.pick(
                "赛制：各组赛制见竞赛组别",
                "System: each group's, as the groups table gives it",
            )
            .to_string(),
        );
    }
    if !rules.event.time_control.is_empty() {
        out.push(bi!(
            lang,
            zh("用时：{}", rules.event.time_control),
            en("Time control: {}", rules.event.time_control)
        ));
    }
    // A team event states the team rules (docs/rules.md §17.4–17.5): the individual
    // scoring and tiebreaks of the rulebook's other tables do not rank its teams.
    match &rules.team_competition {
        Some(t) => out.extend(team_rule_lines(t, lang)),
        None => out.extend(scoring_and_places(rules, lang)),
    }
    if c.fouls_to_lose_game > 0 {
        out.push(bi!(
            lang,
            zh("犯规：单局犯规{}次判负", c.fouls_to_lose_game),
            en("Fouls: {} fouls in a game lose it", c.fouls_to_lose_game)
        ));
    }
    if c.late_forfeit_minutes > 0 {
        out.push(bi!(
            lang,
            zh("迟到：迟到{}分钟判负", c.late_forfeit_minutes),
            en(
                "Lateness: {} minutes late loses the game",
                c.late_forfeit_minutes
            )
        ));
    }
    if let Some(n) = c.withdraw_after_forfeits {
        // A team is withdrawn for the matches it forfeited as a whole (§17.7).
        let team = rules.team_competition.is_some();
        out.push(match (c.withdraw_consecutive, team) {
            (true, false) => bi!(
                lang,
                zh("弃权：连续{n}轮弃权者不再编排"),
                en("Forfeits: {n} in a row end a player's pairing")
            ),
            (false, false) => bi!(
                lang,
                zh("弃权：累计{n}轮弃权者不再编排"),
                en("Forfeits: {n} in all end a player's pairing")
            ),
            (true, true) => bi!(
                lang,
                zh("弃权：连续{n}轮全队弃权的队不再编排"),
                en("Forfeits: a team that forfeits {n} matches in a row as a whole is no longer paired")
            ),
            (false, true) => bi!(
                lang,
                zh("弃权：累计{n}轮全队弃权的队不再编排"),
                en("Forfeits: a team that forfeits {n} matches in all as a whole is no longer paired")
            ),
        });
    }
    out
}

/// The individual scoring and the ranking order of each group, in words.
fn scoring_and_places(rules: &Rulebook, lang: Lang) -> Vec<String> {
    let s = &rules.scoring;
    let mut out = Vec::new();
    out.push(bi!(
        lang,
        zh(
            "计分：胜{}分，和{}分，负{}分；轮空按{}分计",
            s.red_win,
            s.red_draw,
            s.red_loss,
            s.bye
        ),
        en(
            "Scoring: win {}, draw {}, loss {}; a bye scores {}",
            s.red_win,
            s.red_draw,
            s.red_loss,
            s.bye
        )
    ));
    // The ranking order of each group (a round robin has its own), one line per order;
    // the groups named when the orders differ.
    let mut orders: Vec<(Vec<Tiebreak>, Vec<&str>)> = Vec::new();
    for g in rules.pools() {
        let chain = g.format.tiebreaks_or(&rules.ranking.tiebreaks).into_owned();
        match orders.iter_mut().find(|(c, _)| *c == chain) {
            Some((_, names)) => names.push(&g.name),
            None => orders.push((chain, vec![&g.name])),
        }
    }
    let several = orders.len() > 1;
    for (chain, names) in &orders {
        let keys: Vec<&str> = chain.iter().map(|t| tiebreak_label(*t, lang)).collect();
        let who = match several {
            true => bi!(
                lang,
                zh("（{}）", names.join("、")),
                en(" ({})", names.join(", "))
            ),
            false => String::new(),
        };
        out.push(match keys.is_empty() {
            true => bi!(
                lang,
                zh("名次{who}：按积分排列"),
                en("Places{who}: by points")
            ),
            false => bi!(
                lang,
                zh("名次{who}：按积分排列；积分相同依次比较{}", keys.join("、")),
                en("Places{who}: by points, ties by {}", keys.join(", "))
            ),
        });
    }
    out
}

/// A team event's rules in words (docs/rules.md §17.1, §17.4, §17.5): boards and
/// reserves, 局分 per board and 场分 per match, the bye, tiebreak games, and the team
/// ranking order.
fn team_rule_lines(t: &TeamMatchRules, lang: Lang) -> Vec<String> {
    let mut out = vec![match t.reserves {
        0 => bi!(
            lang,
            zh("团体赛：每队{}台，不设替补；按报名台次出场", t.boards),
            en(
                "Teams: {} boards, no reserves; players sit by their registered board",
                t.boards
            )
        ),
        r => bi!(
            lang,
            zh(
                "团体赛：每队{}台，替补至多{r}人；按报名台次出场，替补上场坐换下队员的台次",
                t.boards
            ),
            en(
                "Teams: {} boards and at most {r} reserves; players sit by their registered board, a reserve takes the board of the player taken out",
                t.boards
            )
        ),
    }];
    if t.min_women > 0 {
        out.push(bi!(
            lang,
            zh("每队至少{}名女棋手", t.min_women),
            en("Each team fields at least {} women", t.min_women)
        ));
    }
    out.push(bi!(
        lang,
        zh(
            "局分：每台胜{}分，和{}分，负{}分（弃权按负）",
            t.game_win,
            t.game_draw,
            t.game_loss
        ),
        en(
            "Game points: a board won {}, drawn {}, lost {} (a forfeit as lost)",
            t.game_win,
            t.game_draw,
            t.game_loss
        )
    ));
    // With tiebreak games no match stays level (§17.4): the level match is played off.
    out.push(match t.tiebreak_games {
        None => bi!(
            lang,
            zh(
                "场分：局分多者为胜，得{}分；局分相等为平，各得{}分；负者{}分；轮空记场分{}分、局分{}分",
                t.match_win,
                t.match_draw,
                t.match_loss,
                t.bye_match_points,
                t.bye_game_points
            ),
            en(
                "Match points: the team with more game points wins the match, {}; level, {} each; a loss {}; a bye scores {} match points and {} game points",
                t.match_win,
                t.match_draw,
                t.match_loss,
                t.bye_match_points,
                t.bye_game_points
            )
        ),
        Some(_) => bi!(
            lang,
            zh(
                "场分：局分多者为胜，得{}分；负者{}分；局分相等者加赛；轮空记场分{}分、局分{}分",
                t.match_win,
                t.match_loss,
                t.bye_match_points,
                t.bye_game_points
            ),
            en(
                "Match points: the team with more game points wins the match, {}; a loss {}; a level match goes to tiebreak games; a bye scores {} match points and {} game points",
                t.match_win,
                t.match_loss,
                t.bye_match_points,
                t.bye_game_points
            )
        ),
    });
    if let Some(g) = &t.tiebreak_games {
        let decider = match g.decider {
            TiebreakDecider::Armageddon => {
                lang.pick("最后一盘和棋黑胜", "a last game drawn goes to black")
            }
            TiebreakDecider::Lot => lang.pick("仍平则抽签", "still level, by lot"),
        };
        out.push(bi!(
            lang,
            zh(
                "加赛：局分相等时各台交换先后，从第一台起逐台加赛至分出胜负（{decider}）；胜队得场分{}分，负队{}分",
                g.win,
                g.loss
            ),
            en(
                "Tiebreak games: a level match is replayed board by board from board 1 with colours reversed until a game is won ({decider}); the winner scores {} match points, the loser {}",
                g.win,
                g.loss
            )
        ));
    }
    let keys: Vec<&str> = t
        .tiebreaks
        .iter()
        .map(|k| super::team_tiebreak_label(*k, lang))
        .collect();
    out.push(match keys.is_empty() {
        true => bi!(lang, zh("名次：按场分排列"), en("Places: by match points")),
        false => bi!(
            lang,
            zh("名次：按场分排列；场分相同依次比较{}", keys.join("、")),
            en("Places: by match points, ties by {}", keys.join(", "))
        ),
    });
    out
}

/// A group's system in a word or two: 积分编排制, 单循环, 淘汰赛, 积分编排制＋前8名淘汰赛
/// (the stage named as the pool's headings name it).
fn system(format: &GroupFormat, lang: Lang) -> String {
    match format.final_stage {
        Some(f) if format.kind == FormatKind::Swiss => {
            let stage = system_name(f.format, f.cycles, lang);
            bi!(
                lang,
                zh("积分编排制＋前{}名{stage}", f.finalists),
                en("Swiss, then a {stage} of the top {}", f.finalists)
            )
        }
        _ => system_name(format.kind, format.cycles, lang),
    }
}

/// The programme (秩序册) of the event.
pub fn programme(event: &Event, rules: &Rulebook, lang: Lang) -> Report {
    let e = &rules.event;
    let mut report = Report::new(format!("{} — {}", e.name, lang.pick("秩序册", "programme")));
    report.lang = lang.code().into();
    let dates = match (e.start_date, e.end_date) {
        (Some(a), Some(b)) if a != b => Some(bi!(
            lang,
            zh("{}至{}", date_text(a, lang), date_text(b, lang)),
            en("{a} – {b}")
        )),
        (Some(a), _) | (None, Some(a)) => Some(date_text(a, lang)),
        (None, None) => None,
    };
    let labelled = [
        (lang.pick("主办单位", "Organiser"), e.organiser.clone()),
        (lang.pick("比赛地点", "Venue"), e.venue.clone()),
        (lang.pick("比赛日期", "Dates"), dates),
    ];
    for (label, value) in labelled {
        if let Some(v) = value {
            report
                .subtitle
                .push(format!("{label}{}{v}", lang.pick("：", ": ")));
        }
    }

    // The schedule.
    let mut schedule = Section::new(
        lang.pick("竞赛日程", "Schedule"),
        super::headings(lang, &[("轮次", "round"), ("时间", "time")]),
    );
    for (i, t) in e.round_times.iter().enumerate() {
        schedule.push(vec![
            bi!(lang, zh("第{}轮", i + 1), en("round {}", i + 1)),
            t.clone(),
        ]);
    }
    if schedule.rows.is_empty() {
        schedule.notes.push(
            lang.pick(
                "规则文件未写各轮时间（event.round_times）",
                "the rulebook gives no round times (event.round_times)",
            )
            .into(),
        );
    }

    // The groups, with the hall each plays in when one has a hall of its own (docs/rules.md
    // §12 (table numbers)): players and parents read the programme to find their hall.
    let halls = rules
        .groups
        .iter()
        .any(|g| rules.hall_of(rules.pool_of(g)).is_some());
    let mut columns = vec![
        ("组别", "group"),
        ("赛制", "system"),
        ("人数", "players"),
        ("轮数", "rounds"),
        ("用时", "time control"),
    ];
    if halls {
        columns.push(("赛场", "hall"));
    }
    let mut groups = Section::new(
        lang.pick("竞赛组别", "Groups"),
        super::headings(lang, &columns),
    )
    .right(&[2, 3]);
    for g in &rules.groups {
        // Registered under the group: a section's players are paired in their pool.
        let players = event
            .players
            .iter()
            .filter(|p| p.section.as_ref().unwrap_or(&p.group) == &g.id)
            .count();
        let pool = rules.pool_of(g);
        // A team pool plays the [team_competition] format, teams as players.
        let (system, rounds) = match &rules.team_competition {
            Some(t) => (
                system_name(t.format.kind(), t.cycles, lang),
                crate::teams::rounds_of(event, rules, pool),
            ),
            None => (
                system(&rules.format_of(pool), lang),
                crate::schedule::rounds_of(event, rules, pool),
            ),
        };
        let mut row = vec![
            g.name.clone(),
            system,
            players.to_string(),
            rounds.to_string(),
            g.time_control
                .clone()
                .unwrap_or_else(|| e.time_control.clone()),
        ];
        if halls {
            row.push(
                rules
                    .hall_of(pool)
                    .unwrap_or_else(|| lang.pick("主赛场", "main hall"))
                    .to_string(),
            );
        }
        groups.push(row);
    }

    // The key rules.
    let mut key_rules = Section::new(lang.pick("主要规则", "Key rules"), Vec::new());
    key_rules.notes = rule_lines(event, rules, lang);

    // The entry list by unit, in the order units first registered; by the stored unit,
    // as the teams are (two units masked alike are two lists).
    let mut units: Vec<(&str, Vec<&Player>)> = Vec::new();
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for p in &event.players {
        let i = *index.entry(event.team_unit(p)).or_insert_with(|| {
            units.push((p.unit.as_str(), Vec::new()));
            units.len() - 1
        });
        units[i].1.push(p);
    }
    report.sections.extend([schedule, groups, key_rules]);
    let mut json_units = Vec::new();
    for (unit, players) in &units {
        // Masked at print too: a unit registered before the import masked it, or
        // edited in the state by hand, still holds its number.
        let unit = privacy::mask_public_field(unit);
        let title = if unit.is_empty() {
            lang.pick("（未填单位）", "(no unit)").to_string()
        } else {
            unit.clone()
        };
        let mut s = Section::new(
            title.clone(),
            super::headings(
                lang,
                &[("姓名", "name"), ("性别", "gender"), ("组别", "group")],
            ),
        );
        for p in players {
            let group = p.section.as_ref().unwrap_or(&p.group);
            s.push(vec![
                p.name.clone(),
                super::gender_label(p.gender, lang).to_string(),
                rules.group_name(group),
            ]);
        }
        let mut lead: Vec<String> = players.iter().filter_map(|p| staff(p, "领队")).collect();
        let mut coach: Vec<String> = players.iter().filter_map(|p| staff(p, "教练")).collect();
        for list in [&mut lead, &mut coach] {
            list.sort();
            list.dedup();
        }
        if !lead.is_empty() {
            s.notes.push(format!(
                "{}{}",
                lang.pick("领队：", "Team leader: "),
                lead.join("、")
            ));
        }
        if !coach.is_empty() {
            s.notes.push(format!(
                "{}{}",
                lang.pick("教练：", "Coach: "),
                coach.join("、")
            ));
        }
        json_units.push(json!({
            "unit": unit,
            "leaders": lead,
            "coaches": coach,
            "players": players.iter().map(|p| json!({
                "name": p.name,
                "group": p.section.as_ref().unwrap_or(&p.group),
            })).collect::<Vec<_>>(),
        }));
        report.sections.push(s);
    }
    report.json = json!({
        "event": e.name,
        "organiser": e.organiser,
        "venue": e.venue,
        "start_date": e.start_date,
        "end_date": e.end_date,
        "round_times": e.round_times,
        "groups": rules.groups.iter().map(|g| crate::views::with_hall(json!({"id": g.id, "name": g.name}), rules, rules.pool_of(g))).collect::<Vec<_>>(),
        "rules": rule_lines(event, rules, lang),
        "units": json_units,
    });
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulebook::{CarriedResults, FinalStage};

    /// The programme shows a 领队 or 教练 from the columns that name them, every digit of
    /// a phone or ID number written beside the name starred, and never a column that merely mentions
    /// the role (领队电话).
    #[test]
    fn staff_columns_show_names_and_no_number() {
        let mut p = Player::new(
            crate::model::PlayerId(1),
            "马一",
            crate::model::GroupId::new("a"),
        );
        p.extra.insert("领队电话".into(), "13800138000".into());
        p.extra
            .insert("领队".into(), "王五（手机13700137000）".into());
        p.extra
            .insert("教练 ".into(), "李教练 110101199003071233".into());
        assert_eq!(
            staff(&p, "领队").as_deref(),
            Some("王五（手机***********）")
        );
        assert_eq!(
            staff(&p, "教练").as_deref(),
            Some("李教练 ******************")
        );
        p.extra.remove("领队");
        assert_eq!(staff(&p, "领队"), None);
    }

    /// A unit registered with its number (before the import masked it, or edited in the
    /// state by hand) is masked when the programme prints it, in its heading and its JSON.
    #[test]
    fn a_stored_unit_is_masked_at_print() {
        let rules = Rulebook::cxa_2011("t", 5);
        let mut event = Event::new(String::new());
        let mut p = Player::new(
            crate::model::PlayerId(1),
            "马一",
            rules.groups[0].id.clone(),
        );
        p.unit = "甲队（联系13700137000）".into();
        event.players.push(p);
        let report = programme(&event, &rules, Lang::Zh);
        let text = format!("{:?}{}", report.sections, report.json);
        assert!(!text.contains("13700137000"), "{text}");
        assert!(
            report
                .sections
                .iter()
                .any(|s| s.title == "甲队（联系137****7000）"),
            "{text}"
        );
        assert_eq!(report.json["units"][0]["unit"], "甲队（联系137****7000）");
    }

    /// The programme names a pool's final stage as its headings do (`views::stage`): the
    /// round robin with its cycles, not a bare 循环赛.
    #[test]
    fn the_programme_names_a_final_stage_as_the_headings_do() {
        let stage = |format, cycles| GroupFormat {
            final_stage: Some(FinalStage {
                finalists: 6,
                format,
                cycles,
                carried: CarriedResults::None,
            }),
            ..GroupFormat::swiss()
        };
        let double = stage(FormatKind::RoundRobin, 2);
        assert_eq!(system(&double, Lang::Zh), "积分编排制＋前6名双循环");
        assert_eq!(
            system(&double, Lang::En),
            "Swiss, then a double round robin of the top 6"
        );
        let knockout = stage(FormatKind::Knockout, 1);
        assert_eq!(system(&knockout, Lang::Zh), "积分编排制＋前6名淘汰赛");
        let three = GroupFormat {
            kind: FormatKind::RoundRobin,
            cycles: 3,
            ..GroupFormat::swiss()
        };
        assert_eq!(system(&three, Lang::En), "3-cycle round robin");
        assert_eq!(system(&GroupFormat::swiss(), Lang::Zh), "积分编排制");
    }
    /// With tiebreak games a level match is played off, so the team rules say so instead
    /// of a drawn match's 场分, and name the winner's and loser's points and the decider.
    #[test]
    fn team_rules_with_tiebreak_games_name_no_drawn_match() {
        use crate::model::Points;
        use crate::rulebook::{TeamMatchTiebreak, TiebreakGames};
        let mut t = TeamMatchRules::cxa(3);
        t.reserves = 0;
        t.min_women = 3;
        t.tiebreaks = vec![TeamMatchTiebreak::GamePoints, TeamMatchTiebreak::BoardOrder];
        t.tiebreak_games = Some(TiebreakGames {
            decider: TiebreakDecider::Lot,
            game_points_count: false,
            win: Points(3),
            loss: Points(1),
        });
        let zh = team_rule_lines(&t, Lang::Zh).join("\n");
        assert!(zh.contains("团体赛：每队3台，不设替补"), "{zh}");
        assert!(zh.contains("每队至少3名女棋手"), "{zh}");
        assert!(
            zh.contains("局分相等者加赛；轮空记场分2分、局分6分"),
            "{zh}"
        );
        assert!(
            zh.contains("（仍平则抽签）；胜队得场分3分，负队1分"),
            "{zh}"
        );
        assert!(zh.contains("场分相同依次比较局分、台次分"), "{zh}");
        assert!(!zh.contains("各得1分"), "{zh}");
        let en = team_rule_lines(&t, Lang::En).join("\n");
        assert!(en.contains("a level match goes to tiebreak games"), "{en}");
        assert!(
            en.contains("the winner scores 3 match points, the loser 1"),
            "{en}"
        );
    }
}
