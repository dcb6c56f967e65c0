//! A team round's `pair --explain` is worded for teams at the source (docs/rules.md
//! §17.2): over whole random team Swiss events, in both languages, the engine's reasons
//! speak of matches, teams and moving first, never of tables, players or red; and a team
//! event's programme (秩序册) states the [team_competition] rules, not the individual ones.

use super::teams::{play, team_event, team_rules};
use crate::common::{Run, p, root};
use qiwang::model::GroupId;
use qiwang::rulebook::Lang;
use qiwang::teams;

#[test]
fn team_explanations_never_speak_of_tables_players_or_red() {
    let pool = GroupId::new("open");
    let mut lines_seen = 0;
    for seed in 0..12u64 {
        let rules = team_rules(6, 4, "");
        let mut e = team_event(9 + (seed % 4) as u32, 4, 2);
        // Play three rounds, then explain the fourth.
        let mut short = rules.clone();
        short.event.rounds = 3;
        play(&mut e, &short, seed);
        let plan = teams::pair_team_round(&e, &rules, &pool, seed, None).unwrap();
        for lang in [Lang::Zh, Lang::En] {
            let lines = qiwang::views::team_explanation(&e, &pool, &plan, lang);
            assert!(lines.len() > plan.round.matches.len(), "{lines:?}");
            lines_seen += lines.len();
            let banned: &[&str] = match lang {
                Lang::Zh => &["执红", "执黑", "棋手", "人，", "一人", "台 "],
                Lang::En => &["Table", "plays red", "player", " red;", "black"],
            };
            for l in &lines {
                for word in banned {
                    assert!(!l.contains(word), "seed {seed}: `{word}` in {l}");
                }
            }
            let matches = lines
                .iter()
                .filter(|l| {
                    l.starts_with(lang.pick("第", "Match ")) && l.contains(lang.pick("场", ""))
                })
                .count();
            assert!(matches >= plan.round.matches.len(), "{lines:?}");
        }
    }
    assert!(lines_seen > 100);
}

/// The programme of a team event states the team rules in its 主要规则 (docs/rules.md
/// §17.1, §17.4, §17.5): boards and reserves, 局分 per board, 场分 per match, the team bye
/// and the team tiebreak order; never the individual scoring or tiebreaks, which rank no
/// team.
#[test]
fn a_team_programme_states_the_team_rules() {
    let tmp = tempfile::TempDir::new().unwrap();
    let rules = root("rules/team-swiss.toml");
    Run::new(tmp.path(), &["init", "tm", "--rules", p(&rules)]).check();
    let ev = tmp.path().join("tm");
    let sheet = root("examples/team-swiss/registrations.xlsx");
    Run::on_event(&ev, &["import", p(&sheet)]).check();
    Run::on_event(&ev, &["programme"])
        .stdout_has("赛制：团体赛，积分编排制，共7轮")
        .stdout_has("团体赛：每队4台，替补至多2人")
        .stdout_has("局分：每台胜2分，和1分，负0分")
        .stdout_has(
            "场分：局分多者为胜，得2分；局分相等为平，各得1分；负者0分；轮空记场分2分、局分8分",
        )
        .stdout_has("名次：按场分排列；场分相同依次比较局分、直胜、对手场分、台次分")
        .stdout_has("弃权：连续2轮全队弃权的队不再编排")
        .stdout_lacks("计分：胜")
        .stdout_lacks("积分相同")
        .check();
    Run::on_event(&ev, &["--lang", "en", "programme"])
        .stdout_has("Teams: 4 boards and at most 2 reserves")
        .stdout_has("a bye scores 2 match points and 8 game points")
        .stdout_has(
            "Places: by match points, ties by game points, direct encounter, opp. match points, board points",
        )
        .stdout_lacks("Scoring: win")
        .stdout_lacks("by points")
        .check();
}
