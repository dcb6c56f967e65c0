//! The words the engine's reasons (`--explain`, `check --optimal`) are written in: an
//! individual round seats players at tables, one red and one black; a team round (团体赛,
//! docs/rules.md §17.2) pairs teams in matches, the team with 先 moving first (red on the
//! odd boards). The sentences are the same; only these words change, so a team round is
//! worded at the source rather than rewritten afterwards. `check`'s violations take the
//! same words.

use crate::i18n::bi;
use crate::rulebook::Lang;

/// Who the engine paired, for the wording of its reasons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Vocabulary {
    /// Players at tables, red and black (个人赛).
    #[default]
    Players,
    /// Teams in matches, moving first or second (团体赛).
    Teams,
}

impl Vocabulary {
    fn teams(self) -> bool {
        self == Vocabulary::Teams
    }

    /// `第3台` / `Table 3`, or `第3场` / `Match 3`.
    pub fn table(self, t: u32, lang: Lang) -> String {
        match self.teams() {
            false => bi!(lang, zh("第{t}台"), en("Table {t}")),
            true => bi!(lang, zh("第{t}场"), en("Match {t}")),
        }
    }

    /// The verb of the side given red: 执红 / plays red, 先走 / moves first.
    pub fn plays_red(self, lang: Lang) -> &'static str {
        match self.teams() {
            false => lang.pick("执红", "plays red"),
            true => lang.pick("先走", "moves first (red on odd boards)"),
        }
    }

    /// The verb of the side given red in the past, in a colour history: 执红 / red,
    /// 先走 / first.
    pub fn had_red(self, lang: Lang) -> &'static str {
        match self.teams() {
            false => lang.pick("执红", "red"),
            true => lang.pick("先走", "first"),
        }
    }

    /// The same of black: 执黑 / black, 后走 / second.
    pub fn had_black(self, lang: Lang) -> &'static str {
        match self.teams() {
            false => lang.pick("执黑", "black"),
            true => lang.pick("后走", "second"),
        }
    }

    /// 先手 / 先走 as a count's noun (先手局数).
    pub fn first_zh(self) -> &'static str {
        if self.teams() { "先走" } else { "先手" }
    }

    /// 后手 / 后走 as a count's noun.
    pub fn second_zh(self) -> &'static str {
        if self.teams() { "后走" } else { "后手" }
    }

    /// One game or match: 局 / game, 场 / match.
    pub fn game(self, lang: Lang) -> &'static str {
        match self.teams() {
            false => lang.pick("局", "game"),
            true => lang.pick("场", "match"),
        }
    }

    /// The paired, in the plural: 棋手 / players, 各队 / teams.
    pub fn them(self, lang: Lang) -> &'static str {
        match self.teams() {
            false => lang.pick("棋手", "players"),
            true => lang.pick("各队", "teams"),
        }
    }

    /// Chinese: a count of the paired (`3人`, `3个队`) and one of them (`一人`, `一队`).
    pub fn count_zh(self, n: u32) -> String {
        if self.teams() {
            format!("{n}个队")
        } else {
            format!("{n}人")
        }
    }

    /// Chinese: one of the paired.
    pub fn one_zh(self) -> &'static str {
        if self.teams() { "一队" } else { "一人" }
    }

    /// Chinese: how many are in the field, 人数 / 队数.
    pub fn field_zh(self) -> &'static str {
        if self.teams() { "队数" } else { "人数" }
    }

    /// English: `n` of the paired with the bye aside and the verb (`3 players (bye aside)
    /// are`).
    pub fn bye_aside_en(self, n: u32) -> String {
        match self.teams() {
            false => crate::i18n::plural(n, "player (bye aside) is", "players (bye aside) are"),
            true => crate::i18n::plural(n, "team (bye aside) is", "teams (bye aside) are"),
        }
    }

    /// The side with red as a mark after a name: 红 / red, 先走 / first.
    pub fn red_mark(self, lang: Lang) -> &'static str {
        match self.teams() {
            false => lang.pick("红", "red"),
            true => lang.pick("先走", "first"),
        }
    }

    /// The side with black as a mark after a name: 黑 / black, 后走 / second.
    pub fn black_mark(self, lang: Lang) -> &'static str {
        match self.teams() {
            false => lang.pick("黑", "black"),
            true => lang.pick("后走", "second"),
        }
    }

    /// Chinese: the counter of tables, 台 / 场.
    pub fn table_zh(self) -> &'static str {
        if self.teams() { "场" } else { "台" }
    }

    /// English: the noun for `n` tables or matches (`table`, `tables`, `match` …).
    pub fn table_noun_en(self, n: usize) -> &'static str {
        match (self.teams(), n == 1) {
            (false, true) => "table",
            (false, false) => "tables",
            (true, true) => "match",
            (true, false) => "matches",
        }
    }

    /// English: the field, `players` / `teams`, after `an odd number of`.
    pub fn them_en(self) -> &'static str {
        if self.teams() { "teams" } else { "players" }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PlayerId;
    use crate::pairing::ColourStep;
    use crate::pairing::explain::{ColourNote, colour_line};
    use crate::rulebook::EqualColourTie;

    const STEPS: [ColourStep; 8] = [
        ColourStep::HardLimit,
        ColourStep::LateRoundsPriority,
        ColourStep::Difference,
        ColourStep::Streak,
        ColourStep::History { games_ago: 2 },
        ColourStep::TieRule(EqualColourTie::OddRoundLowerRed),
        ColourStep::TieRule(EqualColourTie::NumberSumParity),
        ColourStep::Round1,
    ];

    fn line(step: ColourStep, lang: Lang, v: Vocabulary) -> String {
        let c = ColourNote {
            table: 3,
            red: PlayerId(1),
            black: PlayerId(2),
            step,
        };
        colour_line(&c, "甲", "乙", lang, v)
    }

    /// The players' words are the ones every individual sheet has always printed (a
    /// sample of them, byte for byte); the teams' name the match and the team that moves
    /// first, and never a table, red or black.
    #[test]
    fn colour_reasons_are_worded_for_players_or_teams_at_the_source() {
        assert_eq!(
            line(ColourStep::Difference, Lang::Zh, Vocabulary::Players),
            "第3台 甲执红：其先手局数减后手局数少于乙。"
        );
        assert_eq!(
            line(
                ColourStep::History { games_ago: 2 },
                Lang::En,
                Vocabulary::Players
            ),
            "Table 3: 甲 plays red; comparing colours back from the latest game, 2 games ago 甲 had black and 乙 red."
        );
        assert_eq!(
            line(ColourStep::Difference, Lang::Zh, Vocabulary::Teams),
            "第3场 甲先走：其先走场数减后走场数少于乙。"
        );
        assert_eq!(
            line(
                ColourStep::History { games_ago: 2 },
                Lang::En,
                Vocabulary::Teams
            ),
            "Match 3: 甲 moves first (red on odd boards); comparing colours back from the latest match, 2 matches ago 甲 moved second and 乙 first."
        );
        for step in STEPS {
            let zh = line(step, Lang::Zh, Vocabulary::Teams);
            assert!(zh.starts_with("第3场 甲先走："), "{zh}");
            for word in ["台", "执红", "执黑", "局"] {
                assert!(!zh.contains(word), "{word}: {zh}");
            }
            let en = line(step, Lang::En, Vocabulary::Teams);
            assert!(en.starts_with("Match 3: 甲 moves first"), "{en}");
            for word in ["Table", "table", "plays red", "black", " game"] {
                assert!(!en.contains(word), "{word}: {en}");
            }
            let players = line(step, Lang::Zh, Vocabulary::Players);
            assert!(players.starts_with("第3台 甲执红"), "{players}");
        }
    }

    /// `check`'s violations: the players' texts as always, a team round's naming the team,
    /// the match and moving first.
    #[test]
    fn violations_are_worded_for_players_or_teams() {
        use crate::model::Colour;
        use crate::pairing::{Rule, Violation};
        let v = |rule| Violation {
            round: 3,
            players: vec![PlayerId(1)],
            rule,
        };
        let name = |_| "甲".to_string();
        let missing = v(Rule::Missing);
        assert_eq!(
            missing.text(Lang::Zh, &name),
            "第 3 轮：在赛棋手 `甲` 既没有台次也没有轮空"
        );
        assert_eq!(
            missing.text_in(Lang::Zh, &name, Vocabulary::Teams),
            "第 3 轮：在赛队 `甲` 既没有场次也没有轮空"
        );
        assert_eq!(
            missing.text_in(Lang::En, &name, Vocabulary::Teams),
            "round 3: active team `甲` has no match and no bye"
        );
        let streak = v(Rule::ColourStreak {
            colour: Colour::Red,
            run: 3,
        });
        assert_eq!(
            streak.text(Lang::En, &name),
            "round 3: player `甲` would play red 3 times in a row (limit exceeded)"
        );
        assert_eq!(
            streak.text_in(Lang::Zh, &name, Vocabulary::Teams),
            "第 3 轮：队 `甲` 将连续 3 次先走（超出限制）"
        );
        assert_eq!(
            streak.text_in(Lang::En, &name, Vocabulary::Teams),
            "round 3: team `甲` would move first 3 times in a row (limit exceeded)"
        );
    }
}
