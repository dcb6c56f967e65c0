//! 秩序册 (`qiwang programme`): the event's printed programme — organiser, venue and
//! dates, the schedule from `event.round_times`, the groups, the regulation's key rules
//! in words, and the entry list by unit with the 领队 and 教练 the registration sheet
//! gives.
//!
//! Owns the programme as a [`Report`], so every output format (table, HTML to print, CSV,
//! xlsx, JSON) renders it. The entry list shows no private number (ID, phone).

use super::labels::tiebreak_label;
use super::prizes::date_text;
use crate::i18n::bi;
use crate::model::{Event, Player};
use crate::report::{Report, Section};
use crate::rulebook::{Lang, Rulebook};
use serde_json::json;
use std::collections::BTreeMap;

/// The registration columns read as a unit's 领队 and 教练 (kept verbatim among a
/// player's extra columns).
fn staff(p: &Player, role: &str) -> Option<String> {
    p.extra
        .iter()
        .find(|(k, v)| k.contains(role) && !v.trim().is_empty())
        .map(|(_, v)| v.trim().to_string())
}

/// The key rules of the regulation in words, as the programme prints them.
fn rule_lines(rules: &Rulebook, lang: Lang) -> Vec<String> {
    let s = &rules.scoring;
    let c = &rules.conduct;
    let mut out = Vec::new();
    if !rules.event.rules_edition.is_empty() {
        out.push(bi!(
            lang,
            zh("执行规则：{}", rules.event.rules_edition),
            en("Rules: {}", rules.event.rules_edition)
        ));
    }
    out.push(bi!(
        lang,
        zh("赛制：积分编排制，共{}轮", rules.event.rounds),
        en("System: Swiss, {} rounds", rules.event.rounds)
    ));
    if !rules.event.time_control.is_empty() {
        out.push(bi!(
            lang,
            zh("用时：{}", rules.event.time_control),
            en("Time control: {}", rules.event.time_control)
        ));
    }
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
    let keys: Vec<&str> = rules
        .ranking
        .tiebreaks
        .iter()
        .map(|t| tiebreak_label(*t, lang))
        .collect();
    out.push(match lang {
        Lang::Zh if keys.is_empty() => "名次：按积分排列".to_string(),
        Lang::Zh => format!("名次：按积分排列；积分相同依次比较{}", keys.join("、")),
        Lang::En if keys.is_empty() => "Places: by points".to_string(),
        Lang::En => format!("Places: by points, ties by {}", keys.join(", ")),
    });
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
        out.push(match c.withdraw_consecutive {
            true => bi!(
                lang,
                zh("弃权：连续{n}轮弃权者不再编排"),
                en("Forfeits: {n} in a row end a player's pairing")
            ),
            false => bi!(
                lang,
                zh("弃权：累计{n}轮弃权者不再编排"),
                en("Forfeits: {n} in all end a player's pairing")
            ),
        });
    }
    out
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

    // The groups.
    let mut groups = Section::new(
        lang.pick("竞赛组别", "Groups"),
        super::headings(
            lang,
            &[
                ("组别", "group"),
                ("人数", "players"),
                ("轮数", "rounds"),
                ("用时", "time control"),
            ],
        ),
    )
    .right(&[1, 2]);
    for g in &rules.groups {
        // Registered under the group: a section's players are paired in their pool.
        let players = event
            .players
            .iter()
            .filter(|p| p.section.as_ref().unwrap_or(&p.group) == &g.id)
            .count();
        groups.push(vec![
            g.name.clone(),
            players.to_string(),
            rules.rounds_for(rules.pool_of(g)).to_string(),
            g.time_control
                .clone()
                .unwrap_or_else(|| e.time_control.clone()),
        ]);
    }

    // The key rules.
    let mut key_rules = Section::new(lang.pick("主要规则", "Key rules"), Vec::new());
    key_rules.notes = rule_lines(rules, lang);

    // The entry list by unit, in the order units first registered.
    let mut units: Vec<(&str, Vec<&Player>)> = Vec::new();
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for p in &event.players {
        let i = *index.entry(p.unit.as_str()).or_insert_with(|| {
            units.push((p.unit.as_str(), Vec::new()));
            units.len() - 1
        });
        units[i].1.push(p);
    }
    report.sections.extend([schedule, groups, key_rules]);
    let mut json_units = Vec::new();
    for (unit, players) in &units {
        let title = if unit.is_empty() {
            lang.pick("（未填单位）", "(no unit)").to_string()
        } else {
            (*unit).to_string()
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
                super::group_name(rules, group),
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
        "groups": rules.groups.iter().map(|g| json!({"id": g.id, "name": g.name})).collect::<Vec<_>>(),
        "rules": rule_lines(rules, lang),
        "units": json_units,
    });
    report
}
