//! Tiebreak games (加赛, docs/rules.md §17.3–§17.4) entered from a results file: the slips
//! of a round with a level match carry one `加赛N` row per board (the board's pair with
//! colours reversed); filled in, `result --from` records them apart from the main boards,
//! as `result N 加赛 …` does, and refuses a file whose tiebreak rows do not match.

use super::teams::{team_event, team_rules};
use qiwang::model::{Event, GameResult, GroupId, Outcome};
use qiwang::report::Format;
use qiwang::rulebook::{Lang, Rulebook};
use qiwang::teams::{self, MatchEntry, TeamError};

fn pool() -> GroupId {
    GroupId::new("open")
}

fn rules() -> Rulebook {
    team_rules(
        3,
        2,
        "[team_competition.tiebreak_games]\ndecider = \"armageddon\"\n",
    )
}

/// Four teams of two boards paired for round 1, both matches level (both boards drawn).
fn level_round() -> Event {
    let rules = rules();
    let mut e = team_event(4, 2, 0);
    teams::pair_team_round(&e, &rules, &pool(), 5, None)
        .unwrap()
        .apply(&mut e, &pool(), 5);
    let entries: Vec<MatchEntry> = (1..=2)
        .map(|table| MatchEntry {
            table,
            tiebreak: false,
            absent: None,
            results: vec![GameResult::new(Outcome::Draw); 2],
        })
        .collect();
    teams::record_team_results(&mut e, &rules, &pool(), None, &entries).unwrap();
    e
}

/// The slips' CSV of round 1 with `fill(line)` giving the 结果 of each data line.
fn slips(e: &Event, fill: impl Fn(&str) -> Option<&'static str>) -> String {
    let report = qiwang::views::team_slips(e, &rules(), &pool(), Some(1), Lang::Zh).unwrap();
    let csv = report.render(Format::Csv);
    csv.trim_start_matches('\u{feff}')
        .lines()
        .map(|l| {
            let mut cells: Vec<String> = l.split(',').map(String::from).collect();
            let n = cells.len();
            if let Some(r) = fill(l) {
                cells[n - 2] = r.into();
            }
            cells.join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn tiebreak_games_come_back_from_the_slips_apart_from_the_main_boards() {
    let rules = rules();
    let mut e = level_round();
    let text = slips(&e, |_| None);
    let lines: Vec<&str> = text.lines().collect();
    // Header, 2 matches × (2 boards + 2 tiebreak rows).
    assert_eq!(lines.len(), 1 + 2 * 4, "{text}");
    let m1 = e.team_pools[&pool()].rounds[0].matches[0].clone();
    let name = |id| e.player(id).unwrap().name.clone();
    // Tiebreak board 1: the board's black player now has red.
    let tb1 = lines.iter().find(|l| l.starts_with("1,1,加赛1,")).unwrap();
    let cells: Vec<&str> = tb1.split(',').collect();
    assert_eq!(
        (cells[4].to_string(), cells[6].to_string()),
        (name(m1.boards[0].black), name(m1.boards[0].red)),
        "{tb1}"
    );
    // Match 1: tiebreak board 1 drawn, board 2 won by its red (the main board's black);
    // match 2 left for later. The main boards' drawn results come back unchanged.
    let filled = slips(&e, |l| match l {
        l if l.starts_with("1,1,加赛1,") => Some("和"),
        l if l.starts_with("1,1,加赛2,") => Some("红胜"),
        _ => None,
    });
    let entries = teams::read_team_results_file(&filled, &e, &rules, &pool(), 1).unwrap();
    assert_eq!(
        entries,
        [
            MatchEntry {
                table: 1,
                tiebreak: false,
                absent: None,
                results: vec![GameResult::new(Outcome::Draw); 2],
            },
            MatchEntry {
                table: 2,
                tiebreak: false,
                absent: None,
                results: vec![GameResult::new(Outcome::Draw); 2],
            },
            MatchEntry {
                table: 1,
                tiebreak: true,
                absent: None,
                results: vec![
                    GameResult::new(Outcome::Draw),
                    GameResult::new(Outcome::RedWin)
                ],
            },
        ]
    );
    // Recorded exactly as `result 1 加赛 和 红胜`.
    let mut by_command = e.clone();
    let args: Vec<String> = ["1", "加赛", "和", "红胜"].map(String::from).to_vec();
    let typed = teams::parse_team_result_args(&args).unwrap();
    teams::record_team_results(&mut by_command, &rules, &pool(), Some(1), &typed).unwrap();
    teams::record_team_results(&mut e, &rules, &pool(), Some(1), &entries).unwrap();
    assert_eq!(e.team_pools, by_command.team_pools);
    let m = &e.team_pools[&pool()].rounds[0].matches[0];
    assert_eq!(m.tiebreak.len(), 2);
    assert!(
        m.boards
            .iter()
            .all(|b| b.result.unwrap().outcome == Outcome::Draw)
    );
    // The slips now show the tiebreak games recorded.
    let again = slips(&e, |_| None);
    assert!(
        again
            .lines()
            .any(|l| l.starts_with("1,1,加赛2,") && l.contains(",红胜,")),
        "{again}"
    );
    // Tiebreak board 2's red is the team with 先 (black on main board 2): it wins the
    // match; 局分 counts the main boards only, 2:2. (Match 2 still awaits its games.)
    let st = teams::team_standings(&e, &rules, &pool(), Some(1)).unwrap();
    let row = |t| st.rows.iter().find(|r| r.team == t).unwrap().clone();
    assert_eq!(
        (row(m.first).match_points.0, row(m.first).game_points.0),
        (2, 2)
    );
    assert_eq!(
        (row(m.second).match_points.0, row(m.second).game_points.0),
        (0, 2)
    );
}

/// A tiebreak row whose players are not the board's pair reversed (the main board's
/// colours written instead), and tiebreak rows for a match that is not level, are refused
/// with nothing recorded.
#[test]
fn a_results_file_whose_tiebreak_rows_do_not_match_is_refused() {
    let rules = rules();
    let mut e = level_round();
    let before = serde_json::to_string(&e).unwrap();
    let m1 = e.team_pools[&pool()].rounds[0].matches[0].clone();
    let name = |id| e.player(id).unwrap().name.clone();
    let text = slips(&e, |l| l.starts_with("1,1,加赛1,").then_some("和"));
    // Swap the tiebreak row's players back to the main board's colours.
    let (red, black) = (name(m1.boards[0].red), name(m1.boards[0].black));
    let swapped: String = text
        .lines()
        .map(|l| match l.starts_with("1,1,加赛1,") {
            true => l
                .replace(&red, "\u{1}")
                .replace(&black, &red)
                .replace('\u{1}', &black),
            false => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let r = teams::read_team_results_file(&swapped, &e, &rules, &pool(), 1);
    assert!(
        matches!(r, Err(TeamError::FileMismatch { line: 4, .. })),
        "{r:?}"
    );
    // Main board 1 of match 1 won in the same file: the match is no longer level, so its
    // tiebreak game is refused, and nothing of the file is recorded.
    let decided = slips(&e, |l| match l {
        l if l.starts_with("1,1,1,") => Some("红胜"),
        l if l.starts_with("1,1,加赛1,") => Some("和"),
        _ => None,
    });
    let entries = teams::read_team_results_file(&decided, &e, &rules, &pool(), 1).unwrap();
    let r = teams::record_team_results(&mut e, &rules, &pool(), Some(1), &entries);
    assert_eq!(r, Err(TeamError::NoTiebreak { table: 1 }));
    assert_eq!(serde_json::to_string(&e).unwrap(), before);
    // A tiebreak game for a board the match does not have.
    let extra = format!("{text}\n1,1,加赛3,第1队,x,第2队,y,和,");
    let r = teams::read_team_results_file(&extra, &e, &rules, &pool(), 1);
    assert!(matches!(r, Err(TeamError::FileMismatch { .. })), "{r:?}");
    // Tiebreak results out of order (board 2 without board 1).
    let gap = slips(&e, |l| l.starts_with("1,1,加赛2,").then_some("和"));
    let r = teams::read_team_results_file(&gap, &e, &rules, &pool(), 1);
    assert!(matches!(r, Err(TeamError::FileMismatch { .. })), "{r:?}");
    // A tiebreak game after the one that decided the match (play stops there).
    let past = slips(&e, |l| match l {
        l if l.starts_with("1,1,加赛1,") => Some("红胜"),
        l if l.starts_with("1,1,加赛2,") => Some("和"),
        _ => None,
    });
    let entries = teams::read_team_results_file(&past, &e, &rules, &pool(), 1).unwrap();
    let r = teams::record_team_results(&mut e, &rules, &pool(), Some(1), &entries);
    assert_eq!(r, Err(TeamError::TiebreakDecided { table: 1, board: 1 }));
    assert_eq!(serde_json::to_string(&e).unwrap(), before);
}
