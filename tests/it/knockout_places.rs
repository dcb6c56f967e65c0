//! Places 5–8 of a knockout whose quarter-finals leave three losers (a bracket of eight
//! with a bye, docs/rules.md §16.4): with `play_off_5_8` the best-seeded loser waits while
//! the other two play, the winner meets it for 5th and the loser is 7th alone; without it
//! the three share 5th, and the standings say so.

use crate::common::{event_from, numbered_sheet, standings_places, zh_ok as ok, zh_run as run};
use std::path::{Path, PathBuf};

const RULES: &str = r#"
[event]
name = "淘汰赛"
rounds = 7
[[groups]]
id = "ko"
name = "淘汰组"
format = "knockout"
seeding = "sheet"
games = 1
tiebreak_games = ["lot"]
third_place = true
play_off_5_8 = PLAYOFF
"#;

const NAMES: [&str; 7] = ["一号", "二号", "三号", "四号", "五号", "六号", "七号"];

/// Seven players seeded by the sheet: seed 1 has the bye, 2–7, 3–6 and 4–5 play.
fn event(dir: &Path, play_off: bool) -> PathBuf {
    let rules = RULES.replace("PLAYOFF", &play_off.to_string());
    event_from(dir, &rules, &numbered_sheet("淘汰组", NAMES))
}

/// Plays the knockout to its end, the better seed (red in its one game) winning every
/// match; returns the tables of each round.
fn play_out(ev: &Path) -> Vec<usize> {
    let mut tables = Vec::new();
    loop {
        let (code, _, err) = run(ev, &["pair"]);
        if code != 0 {
            assert!(err.contains("已结束") || err.contains("冠军"), "{err}");
            break;
        }
        let round = ok(ev, &["round", "--format", "csv"]);
        let games: Vec<String> = round
            .lines()
            .skip(1)
            .filter_map(|l| {
                l.split(',')
                    .next()
                    .filter(|t| !t.is_empty())
                    .map(String::from)
            })
            .collect();
        tables.push(games.len());
        let mut args = vec!["result".to_string()];
        for t in games {
            args.push(t);
            args.push("r".into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(ev, &args);
        assert!(tables.len() < 10, "the knockout does not end");
    }
    tables
}

#[test]
fn three_quarter_final_losers_play_off_with_a_bye_to_the_best_seed() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = event(tmp.path(), true);
    let tables = play_out(&ev);
    // Quarter-finals (three matches); semi-finals and the 5–8 semi-final of seeds 6 and
    // 7 while seed 5 waits; the final, the third-place match and the match for 5th.
    assert_eq!(tables, [3, 3, 3], "tables per round");
    ok(&ev, &["check"]);
    let placed = standings_places(&ev);
    let want: Vec<(String, String)> = NAMES
        .iter()
        .enumerate()
        .map(|(i, n)| ((i + 1).to_string(), n.to_string()))
        .collect();
    assert_eq!(placed, want);
    let bracket = ok(&ev, &["crosstable"]);
    assert!(bracket.contains("五六名决赛"), "{bracket}");
    assert!(bracket.contains("五至八名排位赛"), "{bracket}");
}

#[test]
fn three_quarter_final_losers_share_fifth_without_a_play_off() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = event(tmp.path(), false);
    let tables = play_out(&ev);
    assert_eq!(tables, [3, 2, 2], "tables per round");
    let placed = standings_places(&ev);
    let ranks: Vec<&str> = placed.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(ranks, ["1", "2", "3", "4", "5=", "5=", "5="], "{placed:?}");
}
