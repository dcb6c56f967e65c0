//! Who plays for a team after the import (docs/rules.md §17.1, §17.3): `player add` and
//! `player edit` run the import's team checks (team size, reserves, board orders, a
//! player in two teams, `min_women`, the board rules), refused with the event untouched;
//! `min_women` and the board rules are checked again on every round's line-up (`lineup`
//! refuses, the pairing's default line-up brings a woman reserve in, `check` reports).

use super::teams::team_rules;
use qiwang::model::{Event, GameResult, Gender, GroupId, Outcome, Player, PlayerId, TeamId};
use qiwang::registration::{EntryError, PlayerEntry, add_player, edit_player};
use qiwang::rulebook::Rulebook;
use qiwang::teams::{self, TeamError};

fn pool() -> GroupId {
    GroupId::new("open")
}

/// Four teams of three boards: board 2 of each a woman, team 2 with a woman reserve.
fn event() -> Event {
    let mut e = Event::new(String::new());
    let mut id = 0;
    for t in 1..=4u32 {
        let boards: &[&str] = if t == 2 {
            &["1", "2", "3", "替补"]
        } else {
            &["1", "2", "3"]
        };
        for (i, b) in boards.iter().enumerate() {
            id += 1;
            let mut p = Player::new(PlayerId(id), format!("队{t}棋手{}", i + 1), pool());
            p.unit = format!("第{t}队");
            p.gender = Some(if i == 1 || i == 3 {
                Gender::Female
            } else {
                Gender::Male
            });
            p.birth_date = chrono::NaiveDate::from_ymd_opt(2000, 1, id);
            p.extra.insert("台次".into(), b.to_string());
            e.players.push(p);
        }
    }
    e
}

fn rules_with(extra: &str) -> Rulebook {
    team_rules(3, 3, &format!("min_women = 1\n{extra}"))
}

fn entry(name: &str, team: &str, gender: &str, board: Option<&str>) -> PlayerEntry {
    PlayerEntry {
        name: Some(name.into()),
        unit: Some(team.into()),
        gender: Some(gender.into()),
        group: Some("open".into()),
        board: board.map(String::from),
        ..PlayerEntry::default()
    }
}

fn refused(r: Result<&Player, EntryError>, options: &[&str]) -> String {
    let Err(EntryError::Invalid(errors)) = r else {
        panic!("not refused: {r:?}");
    };
    let columns: Vec<&str> = errors.iter().filter_map(|e| e.column.as_deref()).collect();
    for o in options {
        assert!(columns.contains(o), "{o} not in {columns:?}");
    }
    errors
        .iter()
        .map(|e| e.message.zh.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn player_add_and_edit_run_the_import_team_checks() {
    let rules = rules_with("");
    let mut e = event();
    let before = serde_json::to_string(&e).unwrap();
    // A fourth main player: the team's size, and a board order missing.
    let text = refused(
        add_player(&mut e, &rules, &entry("新人", "第1队", "男", None)),
        &["unit", "board"],
    );
    assert!(text.contains("`第1队` 队有 4 名主力队员"), "{text}");
    // Board 3 given twice.
    let text = refused(
        add_player(&mut e, &rules, &entry("新人", "第1队", "男", Some("3"))),
        &["board"],
    );
    assert!(text.contains("第 3 台写了两次"), "{text}");
    // A second reserve where the rulebook allows one.
    let text = refused(
        add_player(&mut e, &rules, &entry("新人", "第2队", "男", Some("替补"))),
        &["board"],
    );
    assert!(text.contains("2 名替补"), "{text}");
    // A new team of one player.
    refused(
        add_player(&mut e, &rules, &entry("新人", "第9队", "女", Some("1"))),
        &["unit"],
    );
    // The same player (name and birth date) already in another team.
    let mut twice = entry("队1棋手1", "第3队", "男", Some("替补"));
    twice.birth_date = Some("2000-01-01".into());
    let text = refused(add_player(&mut e, &rules, &twice), &["unit"]);
    assert!(text.contains("已在 `第1队` 队报名"), "{text}");
    assert_eq!(
        serde_json::to_string(&e).unwrap(),
        before,
        "refusals change nothing"
    );
    // A reserve where there is room is added.
    let p = add_player(
        &mut e,
        &rules,
        &entry("新替补", "第1队", "男", Some("替补")),
    )
    .unwrap();
    assert_eq!(p.name, "新替补");
    let teams = qiwang::registration::team_sheet::teams_in(&e.players, &pool());
    assert_eq!(teams[0].members.len(), 4);
    assert!(teams[0].members[3].reserve);

    // `player edit`: the only woman of team 3 made a man breaks `min_women`; moving a
    // player to another team breaks both teams' sizes.
    let before = serde_json::to_string(&e).unwrap();
    let woman = e.players.iter().find(|p| p.name == "队3棋手2").unwrap().id;
    let text = refused(
        edit_player(
            &mut e,
            &rules,
            woman,
            &PlayerEntry {
                gender: Some("男".into()),
                ..PlayerEntry::default()
            },
        ),
        &["gender"],
    );
    assert!(text.contains("`第3队` 队只有 0 名女棋手"), "{text}");
    let man = e.players.iter().find(|p| p.name == "队4棋手1").unwrap().id;
    refused(
        edit_player(
            &mut e,
            &rules,
            man,
            &PlayerEntry {
                unit: Some("第3队".into()),
                ..PlayerEntry::default()
            },
        ),
        &["unit"],
    );
    assert_eq!(serde_json::to_string(&e).unwrap(), before);
    // An edit the teams allow goes through.
    edit_player(
        &mut e,
        &rules,
        man,
        &PlayerEntry {
            rating: Some("1800".into()),
            ..PlayerEntry::default()
        },
    )
    .unwrap();
}

/// A board rule (board 2 for a woman) refuses an entry on that board, and an edit that
/// makes the board's player a man.
#[test]
fn player_add_and_edit_check_the_board_rules() {
    let rules = rules_with("[[team_competition.board_rules]]\nboard = 2\ngender = \"女\"\n");
    let mut e = event();
    let before = serde_json::to_string(&e).unwrap();
    let woman = e.players.iter().find(|p| p.name == "队1棋手2").unwrap().id;
    let text = refused(
        edit_player(
            &mut e,
            &rules,
            woman,
            &PlayerEntry {
                gender: Some("男".into()),
                ..PlayerEntry::default()
            },
        ),
        &["gender"],
    );
    assert!(text.contains("第 2 台须由女棋手出场"), "{text}");
    assert_eq!(serde_json::to_string(&e).unwrap(), before);
}

/// An entry after a team round is paired joins from the next team round.
#[test]
fn a_team_entry_after_round_one_joins_from_round_two() {
    let rules = rules_with("");
    let mut e = event();
    teams::pair_team_round(&e, &rules, &pool(), 3, None)
        .unwrap()
        .apply(&mut e, &pool(), 3);
    let p = add_player(
        &mut e,
        &rules,
        &entry("新替补", "第1队", "女", Some("替补")),
    )
    .unwrap();
    assert_eq!(p.joined_round, 2);
}

/// `lineup` refuses a change that leaves fewer women in the line-up than `min_women`, with
/// the event untouched; a change keeping a woman goes through.
#[test]
fn a_line_up_change_keeps_min_women() {
    let rules = rules_with("");
    let mut e = event();
    add_player(
        &mut e,
        &rules,
        &entry("男替补", "第1队", "男", Some("替补")),
    )
    .unwrap();
    teams::pair_team_round(&e, &rules, &pool(), 3, None)
        .unwrap()
        .apply(&mut e, &pool(), 3);
    let before = serde_json::to_string(&e).unwrap();
    let r = teams::change_lineup(
        &mut e,
        &rules,
        &pool(),
        1,
        "第1队",
        &[("队1棋手2".into(), "男替补".into())],
    );
    assert_eq!(
        r,
        Err(TeamError::TooFewWomen {
            team: "第1队".into(),
            round: 1,
            women: 0,
            min: 1
        })
    );
    assert_eq!(serde_json::to_string(&e).unwrap(), before);
    teams::change_lineup(
        &mut e,
        &rules,
        &pool(),
        1,
        "第1队",
        &[("队1棋手3".into(), "男替补".into())],
    )
    .unwrap();
    assert!(teams::pool_lineup_problems(&e, &rules, &pool()).is_empty());
}

/// Each round's default line-up: with `min_women = 2`, team 2 brings its woman reserve in
/// for the man on board 3 (boards 1 and 2 keep their players); the teams with one woman
/// and no woman reserve field their players, and `check` names them every round.
#[test]
fn each_rounds_line_up_is_checked_for_min_women() {
    let rules = team_rules(2, 3, "min_women = 2");
    let mut e = event();
    for round in 1..=2 {
        let plan = teams::pair_team_round(&e, &rules, &pool(), 3, None).unwrap();
        plan.apply(&mut e, &pool(), 3);
        let m = plan
            .round
            .matches
            .iter()
            .find(|m| m.first == TeamId(2) || m.second == TeamId(2))
            .unwrap();
        let names: Vec<String> = teams::lineup_of(m, TeamId(2))
            .iter()
            .map(|&p| e.player(p).unwrap().name.clone())
            .collect();
        assert_eq!(names, ["队2棋手1", "队2棋手2", "队2棋手4"], "round {round}");
        let entries: Vec<teams::MatchEntry> = plan
            .round
            .matches
            .iter()
            .map(|m| teams::MatchEntry {
                table: m.table,
                tiebreak: false,
                absent: None,
                results: vec![GameResult::new(Outcome::Draw); 3],
            })
            .collect();
        teams::record_team_results(&mut e, &rules, &pool(), None, &entries).unwrap();
    }
    let problems = teams::pool_lineup_problems(&e, &rules, &pool());
    let mut named: Vec<(u32, &str)> = problems.iter().map(|(r, t, _)| (*r, t.as_str())).collect();
    named.sort();
    assert_eq!(
        named,
        [
            (1, "第1队"),
            (1, "第3队"),
            (1, "第4队"),
            (2, "第1队"),
            (2, "第3队"),
            (2, "第4队")
        ]
    );
    assert!(
        problems[0].2.zh.contains("只有 1 名女棋手"),
        "{:?}",
        problems[0].2
    );
}
