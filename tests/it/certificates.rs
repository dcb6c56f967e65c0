//! `qiwang certificates` (奖状) and `qiwang programme` (秩序册), issue 43 item 10: one A4
//! landscape certificate per award from an editable template, and the programme with the
//! schedule, groups, key rules and the entries by unit with 领队/教练.

use crate::common::{event_from, p, run};
use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

const RULES: &str = r#"
[event]
name = "无为市象棋比赛"
short_name = "无为赛"
organiser = "无为市体育局"
venue = "无为市体育馆"
start_date = 2021-09-18
end_date = 2021-09-19
rules_edition = "CXA 2011"
language = "zh"
time_control = "每方25分钟，每步加5秒"
rounds = 1
round_times = ["9月18日 8:30"]

[[groups]]
id = "open"
name = "公开组"

[[prizes.lists]]
id = "money"
name = "公开组"
group = "open"
places = [{ place = 1, money = 500, title = "棋王" }, { place = 2, money = 300 }]

[[prizes.lists]]
id = "cups"
name = "公开组奖杯"
group = "open"
places = [{ from = 1, to = 3, award = "奖杯" }]
"#;

/// Six players of two units (one giving its 领队 and 教练), the one round played.
fn event() -> (TempDir, PathBuf) {
    played(RULES)
}

/// [`event`] under the rulebook `rules`.
fn played(rules: &str) -> (TempDir, PathBuf) {
    let tmp = TempDir::new().unwrap();
    let csv = "姓名,性别,单位,领队,教练\n\
               甲一,男,无为一中,王领队,李教练\n\
               乙二,女,无为一中,王领队,李教练\n\
               丙三,男,无为一中,,\n\
               丁四,男,襄安棋社,,\n\
               戊五,男,襄安棋社,,\n\
               己六,男,襄安棋社,,\n";
    let ev = event_from(tmp.path(), rules, csv);
    q(&ev, &["pair", "--seed", "3"]);
    q(&ev, &["result", "1", "r", "2", "b", "3", "r"]);
    (tmp, ev)
}

fn q(ev: &Path, args: &[&str]) -> String {
    run(
        ev.parent().unwrap(),
        &[&["--event", p(ev)][..], args].concat(),
    )
    .ok()
}

#[test]
fn one_landscape_certificate_per_award_from_an_editable_template() {
    let (tmp, ev) = event();
    let html = q(&ev, &["certificates"]);
    // Three players on 2 points: 1, 2=, 2= in both lists (the money list's 2nd place
    // shared), so six certificates.
    assert_eq!(html.matches("<div class=\"cert\">").count(), 6, "{html}");
    assert!(html.contains("size:A4 landscape"), "{html}");
    for word in [
        "荣誉证书",
        "第一名",
        "第二名（并列）",
        "无为赛",
        "无为市体育局",
        "2021年9月19日",
    ] {
        assert!(html.contains(word), "{word} missing:\n{html}");
    }
    assert!(html.contains("并获得「棋王」称号"), "{html}");
    // One list only, by id or name.
    let cups = q(&ev, &["certificates", "--list", "公开组奖杯"]);
    assert_eq!(cups.matches("<div class=\"cert\">").count(), 3);
    run(
        tmp.path(),
        &["--event", p(&ev), "certificates", "--list", "无此名单"],
    )
    .fails(3, &["无此名单", "公开组奖杯"]);
    // Named as `standings --list` takes it: spaces around the name do not matter.
    let spaced = q(&ev, &["certificates", "--list", " 公开组奖杯 "]);
    assert_eq!(spaced, cups);
    assert_eq!(q(&ev, &["certificates", "--list", " cups"]), cups);

    // The built-in template, edited, prints what the organiser wrote.
    let text = q(&ev, &["certificates", "--print-template"]);
    assert!(text.contains("title = \"荣誉证书\""), "{text}");
    let edited = tmp.path().join("奖状.toml");
    fs::write(
        &edited,
        text.replace("荣誉证书", "奖　状")
            .replace("特发此证，以资鼓励。", "<b>特此表彰</b>"),
    )
    .unwrap();
    let html = q(&ev, &["certificates", "--template", p(&edited)]);
    assert!(
        html.contains("奖　状") && !html.contains("荣誉证书"),
        "{html}"
    );
    assert!(
        html.contains("&lt;b&gt;特此表彰&lt;/b&gt;"),
        "escaped: {html}"
    );
    fs::write(&edited, "titel = \"奖状\"\n").unwrap();
    run(
        tmp.path(),
        &["--event", p(&ev), "certificates", "--template", p(&edited)],
    )
    .fails(3, &["titel"]);
}

#[test]
fn the_programme_has_the_schedule_groups_rules_and_entries_by_unit() {
    let (_tmp, ev) = event();
    let text = q(&ev, &["programme"]);
    for word in [
        "秩序册",
        "主办单位：无为市体育局",
        "比赛地点：无为市体育馆",
        "比赛日期：2021年9月18日至2021年9月19日",
        "竞赛日程",
        "9月18日 8:30",
        "竞赛组别",
        "主要规则",
        "计分：胜2分，和1分，负0分",
        "用时：每方25分钟，每步加5秒",
        "积分相同依次比较对手分",
        "无为一中",
        "襄安棋社",
        "领队：王领队",
        "教练：李教练",
    ] {
        assert!(text.contains(word), "{word} missing:\n{text}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&q(&ev, &["--format", "json", "programme"])).unwrap();
    assert_eq!(json["units"][0]["leaders"][0], "王领队");
    assert_eq!(json["units"][1]["players"].as_array().unwrap().len(), 3);
    let html = q(&ev, &["--format", "html", "programme"]);
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
}

/// Two players drawn level for first where the rulebook has a playoff decide (冠军不并列):
/// no certificate names a place the playoff has not given yet and the arbiter is told
/// which are held; once `playoff` records the order, they print.
#[test]
fn a_place_waiting_for_a_playoff_gets_no_certificate_yet() {
    let tmp = TempDir::new().unwrap();
    let rules = tmp.path().join("rules.toml");
    fs::write(
        &rules,
        format!("{RULES}\n[ranking]\nunresolved_first = \"playoff\"\ntiebreaks = []\n"),
    )
    .unwrap();
    let sheet = tmp.path().join("players.csv");
    fs::write(
        &sheet,
        "姓名,性别,单位\n甲一,男,无为一中\n乙二,女,襄安棋社\n",
    )
    .unwrap();
    run(tmp.path(), &["init", "ev", "--rules", p(&rules)]).ok();
    let ev = tmp.path().join("ev");
    q(&ev, &["import", p(&sheet)]);
    q(&ev, &["pair", "--seed", "3"]);
    q(&ev, &["result", "1", "="]);
    let err = run(tmp.path(), &["--event", p(&ev), "certificates"]).fails(
        3,
        &["待加赛，暂不印奖状", "甲一 (公开组)", "没有可印的奖状"],
    );
    assert!(err.contains("qiwang playoff"), "{err}");
    q(&ev, &["playoff", "乙二", "甲一"]);
    let html = q(&ev, &["certificates"]);
    assert_eq!(html.matches("<div class=\"cert\">").count(), 4, "{html}");
    assert!(html.contains("乙二") && html.contains("第一名"), "{html}");
}

/// The 秩序册 of an event that mixes formats gives each group's system and ranking
/// order: the round robin's 单循环 and 相互间成绩 beside the Swiss group's.
#[test]
fn the_programme_gives_each_groups_system_and_ranking_order() {
    let tmp = TempDir::new().unwrap();
    run(tmp.path(), &["demo", "d", "--example", "round-robin"]).ok();
    let ev = tmp.path().join("d");
    let text = q(&ev, &["programme"]);
    for words in [
        "单循环",
        "积分编排制",
        "赛制：各组赛制见竞赛组别",
        "名次（循环组）：按积分排列；积分相同依次比较相互间成绩",
        "名次（公开组）：按积分排列；积分相同依次比较对手分",
    ] {
        assert!(text.contains(words), "{words}:\n{text}");
    }
    assert!(!text.contains("赛制：积分编排制，共"), "{text}");
}

/// Disqualified after the last round: nothing is left not to pair, and the message does
/// not speak of a round 2 the one-round event never has.
#[test]
fn a_disqualification_after_the_last_round_names_no_round() {
    let (_tmp, ev) = event();
    let out = q(
        &ev,
        &["player", "disqualify", "甲一", "--reason", "冒名顶替"],
    );
    assert!(
        out.contains("已取消 甲一 的比赛资格：不参加任何名次录取"),
        "{out}"
    );
    assert!(!out.contains("第2轮"), "{out}");
}

/// A place without money in a list that pays others is blank, not 0 (places 7–8 of a
/// list paying 1–6 take a certificate only).
#[test]
fn a_place_without_money_shows_no_zero() {
    let tmp = TempDir::new().unwrap();
    let rules = tmp.path().join("rules.toml");
    let text = RULES.replace(
        "places = [{ place = 1, money = 500, title = \"棋王\" }, { place = 2, money = 300 }]",
        "places = [{ place = 1, money = 500 }, { place = 2, award = \"证书\" }]",
    );
    assert_ne!(text, RULES);
    fs::write(&rules, text).unwrap();
    fs::write(
        tmp.path().join("p.csv"),
        "姓名,性别,单位\n甲一,男,一中\n乙二,女,二中\n",
    )
    .unwrap();
    run(tmp.path(), &["init", "ev", "--rules", p(&rules)]).ok();
    let ev = tmp.path().join("ev");
    q(&ev, &["import", p(&tmp.path().join("p.csv"))]);
    q(&ev, &["pair", "--seed", "3"]);
    q(&ev, &["result", "1", "红胜"]);
    // The sheet (the CSV export keeps numbers: 0 there is data).
    let table = q(&ev, &["prizes"]);
    let second = table
        .lines()
        .find(|l| l.contains("证书") && !l.contains("奖杯"))
        .unwrap_or_else(|| panic!("{table}"));
    let cells: Vec<&str> = second.split(['│', '┆']).map(str::trim).collect();
    // 名次, 姓名, 单位, 积分 (甲一 lost: 0), then no 0 in the money column.
    assert_eq!(cells.iter().filter(|c| **c == "0").count(), 1, "{second}");
}

/// A team competition (`[[teams]]`) is a list `certificates --list` takes too, by id or
/// name, trimmed like a prize list; an unknown name lists it among the choices.
#[test]
fn certificates_of_a_team_competition_by_its_name() {
    let team = "\n[[teams]]\nid = \"units\"\nname = \"公开组团体\"\ngroup = \"open\"\n\
                best_n = 2\nplaces = [{ place = 1, money = 100 }]\n";
    let (tmp, ev) = played(&format!("{RULES}{team}"));
    let by_name = q(&ev, &["certificates", "--list", " 公开组团体 "]);
    assert_eq!(
        by_name.matches("<div class=\"cert\">").count(),
        1,
        "{by_name}"
    );
    assert_eq!(q(&ev, &["certificates", "--list", "units"]), by_name);
    run(
        tmp.path(),
        &["--event", p(&ev), "certificates", "--list", "无此名单"],
    )
    .fails(3, &["无此名单", "公开组奖杯", "公开组团体"]);
}

/// A rulebook without prize lists (the CXA preset has none) is told so, not that its
/// prize sheet is "not yet" filled: no round will ever give it a certificate.
#[test]
fn a_rulebook_without_prize_lists_is_told_it_has_none() {
    use crate::common::{Run, small_event};
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    q(&ev, &["pair", "--seed", "3"]);
    q(&ev, &["result", "1", "r", "2", "b"]);
    Run::on_event(&ev, &["certificates"])
        .status(3)
        .stderr_has("规程没有奖项名单")
        .stdout_empty()
        .check();
    Run::on_event(&ev, &["--lang", "en", "certificates"])
        .status(3)
        .stderr_has("the rulebook has no prize lists")
        .check();
}

/// Before the last round's results are in, a list's places are not final: no certificate
/// is printed for it (an official 奖状 naming a provisional 并列第一 misleads), and the
/// arbiter is told why; once the round is complete they print.
#[test]
fn no_certificate_while_the_results_are_not_complete() {
    use crate::common::Run;
    let tmp = TempDir::new().unwrap();
    let csv = "姓名,性别,单位\n甲一,男,一中\n乙二,女,一中\n丙三,男,二中\n丁四,男,二中\n";
    let ev = event_from(tmp.path(), RULES, csv);
    Run::on_event(&ev, &["certificates"])
        .status(3)
        .stderr_has("成绩未完")
        .stdout_empty()
        .check();
    q(&ev, &["pair", "--seed", "3"]);
    q(&ev, &["result", "1", "r"]);
    Run::on_event(&ev, &["--lang", "en", "certificates"])
        .status(3)
        .stderr_has("results not complete")
        .check();
    q(&ev, &["result", "2", "b"]);
    let html = q(&ev, &["certificates"]);
    assert!(html.contains("class=\"cert\""), "{html}");
}
