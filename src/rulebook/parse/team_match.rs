//! `[team_competition]` and `[team_competition.tiebreak_games]` (docs/rules.md §17): read
//! with every cross-field check, each problem at its key.

use crate::i18n::Text;
use crate::model::Points;
use crate::rulebook::names::Named;
use crate::rulebook::reader::{Ctx, Sec, unknown_name_message};
use crate::rulebook::types::*;

const TEAM_MATCH_KEYS: &[&str] = &[
    "boards",
    "reserves",
    "format",
    "cycles",
    "match_win",
    "match_draw",
    "match_loss",
    "game_win",
    "game_draw",
    "game_loss",
    "bye_match_points",
    "bye_game_points",
    "tiebreaks",
    "min_women",
    "board_prize_min_games",
    "tiebreak_games",
    "board_rules",
    "withdrawn_results",
];
const BOARD_RULE_KEYS: &[&str] = &["board", "gender", "max_age"];
const TIEBREAK_GAMES_KEYS: &[&str] = &["decider", "game_points_count", "win", "loss"];

/// The most boards a team fields (national events play 3–6).
pub const MAX_BOARDS: u32 = 16;

fn small_points(ctx: &mut Ctx, sec: &Sec, key: &str) -> Option<Points> {
    sec.int(ctx, key, -100, 100).map(|n| Points(n as i32))
}

pub(super) fn parse_team_competition(
    ctx: &mut Ctx,
    root: &Sec,
    start_date: Option<chrono::NaiveDate>,
) -> Option<TeamMatchRules> {
    let sec = root.sub(ctx, "team_competition")?;
    sec.check_keys(ctx, TEAM_MATCH_KEYS);
    let boards = match sec.int(ctx, "boards", 1, i64::from(MAX_BOARDS)) {
        Some(b) => b as u32,
        None => {
            if !sec.has("boards") {
                sec.missing(ctx, "boards", "boards = 4");
            }
            4
        }
    };
    let mut t = TeamMatchRules::cxa(boards);
    if let Some(r) = sec.int(ctx, "reserves", 0, i64::from(MAX_BOARDS)) {
        t.reserves = r as u32;
    }
    if let Some(f) = sec.named(ctx, "format") {
        t.format = f;
    }
    if let Some(c) = sec.int(ctx, "cycles", 1, 4) {
        t.cycles = c as u32;
    }
    if let Some(w) = sec.named(ctx, "withdrawn_results") {
        t.withdrawn_results = w;
    }
    let fields: [(&str, &mut Points); 8] = [
        ("match_win", &mut t.match_win),
        ("match_draw", &mut t.match_draw),
        ("match_loss", &mut t.match_loss),
        ("game_win", &mut t.game_win),
        ("game_draw", &mut t.game_draw),
        ("game_loss", &mut t.game_loss),
        ("bye_match_points", &mut t.bye_match_points),
        ("bye_game_points", &mut t.bye_game_points),
    ];
    for (key, field) in fields {
        if let Some(p) = small_points(ctx, &sec, key) {
            *field = p;
        }
    }
    if !sec.has("bye_game_points") {
        t.bye_game_points = Points(t.game_win.0.saturating_mul(boards as i32));
    }
    for (hi, a, lo, b) in [
        ("match_win", t.match_win, "match_draw", t.match_draw),
        ("match_draw", t.match_draw, "match_loss", t.match_loss),
        ("game_win", t.game_win, "game_draw", t.game_draw),
        ("game_draw", t.game_draw, "game_loss", t.game_loss),
    ] {
        if a < b {
            sec.report(
                ctx,
                hi,
                Text::new(
                    format!("{hi} = {} 小于 {lo} = {}；胜不能少于和，和不能少于负", a.0, b.0),
                    format!(
                        "{hi} = {} is less than {lo} = {}; a win never scores less than a draw, a draw never less than a loss",
                        a.0, b.0
                    ),
                ),
            );
        }
    }
    if let Some(list) = sec.strings(ctx, "tiebreaks") {
        let path = sec.key_path("tiebreaks");
        t.tiebreaks.clear();
        for (i, (name, span)) in list.into_iter().enumerate() {
            let key = format!("{path}[{i}]");
            match TeamMatchTiebreak::parse(&name) {
                None => ctx.report(
                    span,
                    key,
                    unknown_name_message::<TeamMatchTiebreak>(
                        &name,
                        ("团体赛比较项目", "team match tiebreak"),
                    ),
                ),
                Some(x) if t.tiebreaks.contains(&x) => ctx.report(
                    span,
                    key,
                    Text::new(
                        format!("`{name}` 列了两次；每个比较项目只列一次"),
                        format!("`{name}` is listed twice; list each tiebreak once"),
                    ),
                ),
                Some(x) => t.tiebreaks.push(x),
            }
        }
    }
    if let Some(w) = sec.int(ctx, "min_women", 0, i64::from(MAX_BOARDS)) {
        if w as u32 > boards {
            sec.report(
                ctx,
                "min_women",
                Text::new(
                    format!("`{w}` 名女棋手超过每队 {boards} 台；请写 0 到 {boards}"),
                    format!(
                        "`{w}` women is more than the {boards} boards of a team; use 0 to {boards}"
                    ),
                ),
            );
        } else {
            t.min_women = w as u32;
        }
    }
    if let Some(g) = sec.int(ctx, "board_prize_min_games", 0, 99) {
        t.board_prize_min_games = g as u32;
    }
    for rule in sec.tables(ctx, "board_rules") {
        rule.check_keys(ctx, BOARD_RULE_KEYS);
        let board = rule.int(ctx, "board", 1, i64::from(boards));
        if board.is_none() && !rule.has("board") {
            rule.missing(ctx, "board", "board = 4");
        }
        let gender = rule.named(ctx, "gender");
        let max_age = rule.int(ctx, "max_age", 1, 150).map(|a| a as u32);
        if max_age.is_some() && start_date.is_none() {
            rule.report(
                ctx,
                "max_age",
                Text::new(
                    "年龄按比赛第一天计算：请在 [event] 写上 start_date",
                    "ages are taken on the first day of play: give [event] start_date",
                ),
            );
        }
        if let Some(board) = board {
            if t.board_rules.iter().any(|r| r.board == board as u32) {
                rule.report(
                    ctx,
                    "board",
                    Text::new(
                        format!("第 {board} 台的条件写了两次；同一台的条件写在一处"),
                        format!(
                            "board {board} has two rules; give one board's conditions in one place"
                        ),
                    ),
                );
            }
            t.board_rules.push(BoardRule {
                board: board as u32,
                gender,
                max_age,
            });
        }
    }
    if let Some(tg) = sec.sub(ctx, "tiebreak_games") {
        tg.check_keys(ctx, TIEBREAK_GAMES_KEYS);
        let mut games = TiebreakGames {
            decider: tg.named(ctx, "decider").unwrap_or_default(),
            game_points_count: tg.boolean(ctx, "game_points_count").unwrap_or(false),
            win: t.match_win,
            loss: t.match_loss,
        };
        if let Some(p) = small_points(ctx, &tg, "win") {
            games.win = p;
        }
        if let Some(p) = small_points(ctx, &tg, "loss") {
            games.loss = p;
        }
        // The Swiss groups teams by 场分 as the engine counts them, a won match scoring
        // `match_win`: other points for a match won in tiebreak games would put teams in
        // score groups their 场分 does not show.
        if t.format == TeamFormat::Swiss && (games.win != t.match_win || games.loss != t.match_loss)
        {
            tg.report(
                ctx,
                if games.win != t.match_win { "win" } else { "loss" },
                Text::new(
                    "积分编排的团体赛中，加赛决出的胜负按 match_win/match_loss 计场分；请删去 win/loss，或用 format = \"round_robin\"",
                    "in a Swiss team event a match decided in tiebreak games scores match_win/match_loss; remove win/loss, or use format = \"round_robin\"",
                ),
            );
        }
        t.tiebreak_games = Some(games);
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    use crate::rulebook::Rulebook;
    use crate::rulebook::types::*;

    const BASE: &str = "[event]\nname = \"团体赛\"\nrounds = 7\n[[groups]]\nid = \"open\"\n";

    fn parsed(section: &str) -> Result<Rulebook, String> {
        Rulebook::from_toml(&format!("{BASE}{section}"), "r.toml").map_err(|e| e.to_string())
    }

    #[test]
    fn defaults_are_the_cxa_rules() {
        let r = parsed("[team_competition]\nboards = 4\n").unwrap();
        let t = r.team_competition.unwrap();
        assert_eq!(t, TeamMatchRules::cxa(4));
        assert_eq!(t.bye_game_points.0, 8);
        assert_eq!(t.board_prize_games(7), 5);
        assert!(parsed("").unwrap().team_competition.is_none());
    }

    #[test]
    fn keys_are_read_and_checked() {
        let r = parsed(
            "[team_competition]\nboards = 3\nformat = \"循环\"\ncycles = 2\n\
             tiebreaks = [\"局分\", \"台次分\"]\nmin_women = 1\n\
             [team_competition.tiebreak_games]\ndecider = \"lot\"\nwin = 3\nloss = 1\n",
        )
        .unwrap();
        let t = r.team_competition.unwrap();
        assert_eq!(t.format, TeamFormat::RoundRobin);
        assert_eq!(t.cycles, 2);
        assert_eq!(
            t.tiebreaks,
            [TeamMatchTiebreak::GamePoints, TeamMatchTiebreak::BoardOrder]
        );
        let g = t.tiebreak_games.unwrap();
        assert_eq!((g.decider, g.win.0, g.loss.0), (TiebreakDecider::Lot, 3, 1));
        for (section, words) in [
            ("[team_competition]\n", "boards"),
            ("[team_competition]\nboards = 0\n", "out of range"),
            (
                "[team_competition]\nboards = 4\nmin_women = 5\n",
                "min_women",
            ),
            (
                "[team_competition]\nboards = 4\nmatch_draw = 3\n",
                "less than",
            ),
            (
                "[team_competition]\nboards = 4\ntiebreaks = [\"x\"]\n",
                "tiebreak",
            ),
            ("[team_competition]\nboards = 4\nplayers = 3\n", "players"),
            (
                "[team_competition]\nboards = 4\n[team_competition.tiebreak_games]\nwin = 3\n",
                "Swiss",
            ),
        ] {
            let e = parsed(section).unwrap_err();
            assert!(e.contains(words), "{section}: {e}");
        }
    }

    #[test]
    fn rules_show_reads_back_the_same() {
        for section in [
            "[team_competition]\nboards = 4\n",
            "[team_competition]\nboards = 3\nformat = \"round_robin\"\ncycles = 2\n\
             [team_competition.tiebreak_games]\nwin = 3\nloss = 1\ngame_points_count = true\n",
        ] {
            let r = parsed(section).unwrap();
            let text = r.to_effective_toml();
            let back = Rulebook::from_toml(&text, "show.toml").unwrap();
            assert_eq!(back, r, "{text}");
        }
    }
}
