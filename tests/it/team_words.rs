//! A team round's `pair --explain` is worded for teams at the source (docs/rules.md
//! §17.2): over whole random team Swiss events, in both languages, the engine's reasons
//! speak of matches, teams and moving first, never of tables, players or red.

use super::teams::{play, team_event, team_rules};
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
