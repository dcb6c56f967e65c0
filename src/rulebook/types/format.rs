//! A group's format (`[[groups]] format = …`): the Swiss system (积分编排制, the default)
//! or a round robin by the Berger tables (循环赛, docs/rules.md §14), with the round-robin
//! keys: cycles, how players get their numbers, the ranking chain and what a withdrawal
//! does to the withdrawn player's results.

use super::{Fallback, Seeding, Tiebreak};
pub use crate::formats::knockout::TiebreakStage;
use crate::i18n::bi;
use serde::{Deserialize, Serialize};

/// How a group is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FormatKind {
    /// 积分编排制: paired round by round (docs/rules.md §2).
    #[default]
    Swiss,
    /// 循环赛: every player meets every other once per cycle, by the Berger tables
    /// (docs/rules.md §14).
    RoundRobin,
    /// 淘汰赛: a bracket of matches of K games with tiebreak games (docs/rules.md §16).
    Knockout,
}

/// A system of play in a word or two: 积分编排制, 淘汰赛, or a round robin by its cycles
/// (单循环, 双循环, 3 循环). The one wording of every place that names a system: the
/// programme's 赛制, the headings of a pool with a final stage, `rules check`'s plan of a
/// group and its line for a team competition.
pub fn system_name(kind: FormatKind, cycles: u32, lang: crate::i18n::Lang) -> String {
    match (kind, cycles) {
        (FormatKind::Swiss, _) => lang.pick("积分编排制", "Swiss").into(),
        (FormatKind::Knockout, _) => lang.pick("淘汰赛", "knockout").into(),
        (FormatKind::RoundRobin, 1) => lang.pick("单循环", "round robin").into(),
        (FormatKind::RoundRobin, 2) => lang.pick("双循环", "double round robin").into(),
        (FormatKind::RoundRobin, c) => bi!(lang, zh("{c} 循环"), en("{c}-cycle round robin")),
    }
}

/// Who takes red in game 1 of a knockout match (colours then alternate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FirstColour {
    /// The higher seed.
    #[default]
    Seed,
    /// By a lot drawn from the group's recorded seed, match by match.
    Draw,
}

/// A knockout group's keys (docs/rules.md §16).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutRules {
    /// `games`: regular games per match (K).
    pub games: u32,
    /// `tiebreak_games`: the stages played in order while a match is level.
    pub tiebreak: Vec<TiebreakStage>,
    /// `first_colour`: red in game 1.
    pub first_colour: FirstColour,
    /// `third_place`: the semi-final losers play for third place.
    pub third_place: bool,
    /// `play_off_5_8`: the quarter-final losers play off places 5–8 (else they share 5th).
    #[serde(default)]
    pub play_off_5_8: bool,
}

impl Default for KnockoutRules {
    fn default() -> Self {
        KnockoutRules {
            games: 2,
            tiebreak: vec![
                TiebreakStage::Rapid,
                TiebreakStage::Blitz,
                TiebreakStage::Armageddon,
            ],
            first_colour: FirstColour::Seed,
            third_place: false,
            play_off_5_8: false,
        }
    }
}

/// What a withdrawal does to a round-robin player's results (docs/rules.md §14.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum WithdrawnResults {
    /// CXA 1999 裁判细则 §20.3 (docs/rules.md §0 S6): kept when the player finished at least half of
    /// their scheduled games, else annulled for everyone.
    #[default]
    HalfRule,
    /// Always kept; the games not played are forfeits.
    Keep,
    /// Always annulled: none of the player's games count for anyone.
    Annul,
}

/// `[[groups]]` format keys: `format`, a round robin's (`cycles`, `withdrawn_results`), a
/// knockout's (`games`, `tiebreak_games`, `first_colour`, `third_place`), a final stage
/// (`final_stage`, `finalists`), and `seeding`, `tiebreaks`, `fallback` for any group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupFormat {
    /// `format`: swiss (default) or round_robin.
    #[serde(default)]
    pub kind: FormatKind,
    /// `cycles`: 1 = 单循环, 2 = 双循环 (colours reversed in the second).
    #[serde(default = "one")]
    pub cycles: u32,
    /// `seeding`: how pairing numbers are given, overriding `pairing.seeding`.
    #[serde(default)]
    pub seeding: Option<Seeding>,
    /// `tiebreaks`: the group's own ranking chain, overriding `ranking.tiebreaks`.
    #[serde(default)]
    pub tiebreaks: Option<Vec<Tiebreak>>,
    /// `fallback`: the group's own fallback, overriding `ranking.fallback`.
    #[serde(default)]
    pub fallback: Option<Fallback>,
    /// `withdrawn_results`: what a withdrawal does to a round-robin player's games.
    #[serde(default)]
    pub withdrawn_results: WithdrawnResults,
    /// A knockout's keys (`games`, `tiebreak_games`, `first_colour`, `third_place`), for a
    /// knockout group or a knockout final stage.
    #[serde(default)]
    pub knockout: KnockoutRules,
    /// `final_stage` and `finalists`: a Swiss group whose top N then play a knockout
    /// (docs/rules.md §16.6).
    #[serde(default)]
    pub final_stage: Option<FinalStage>,
}

/// A final stage after a Swiss group's rounds (docs/rules.md §16.6, §16.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalStage {
    /// `finalists`: how many of the Swiss ranking go through (前八名 → 8).
    pub finalists: u32,
    /// `final_stage`: a knockout (the default, and every stage saved before round-robin
    /// stages existed) or a round robin (前六名单循环).
    #[serde(default = "knockout", skip_serializing_if = "is_knockout")]
    pub format: FormatKind,
    /// `cycles` of a round-robin stage: 1 = 单循环, 2 = 双循环.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub cycles: u32,
    /// `carried_results` of a round-robin stage: which Swiss results count in it.
    #[serde(default, skip_serializing_if = "CarriedResults::is_none")]
    pub carried: CarriedResults,
}

impl FinalStage {
    /// A knockout of the Swiss ranking's top `finalists`.
    pub fn knockout(finalists: u32) -> Self {
        FinalStage {
            finalists,
            format: FormatKind::Knockout,
            cycles: 1,
            carried: CarriedResults::None,
        }
    }

    /// Whether the stage is a round robin.
    pub fn is_round_robin(&self) -> bool {
        self.format == FormatKind::RoundRobin
    }
}

/// Which Swiss results a round-robin final stage counts (`carried_results`, docs/rules.md
/// §16.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum CarriedResults {
    /// 预赛成绩不带入: every finalist starts the final at zero (the default).
    #[default]
    None,
    /// The Swiss games between two finalists count as games of the final.
    Finalists,
    /// Every Swiss game and bye of a finalist counts: the final adds to the Swiss score.
    All,
}

impl CarriedResults {
    fn is_none(&self) -> bool {
        *self == CarriedResults::None
    }
}

fn knockout() -> FormatKind {
    FormatKind::Knockout
}

fn is_knockout(kind: &FormatKind) -> bool {
    *kind == FormatKind::Knockout
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

fn one() -> u32 {
    1
}

impl Default for GroupFormat {
    fn default() -> Self {
        GroupFormat::swiss()
    }
}

impl GroupFormat {
    /// A Swiss group with every key at its default.
    pub fn swiss() -> Self {
        GroupFormat {
            kind: FormatKind::Swiss,
            cycles: 1,
            seeding: None,
            tiebreaks: None,
            fallback: None,
            withdrawn_results: WithdrawnResults::HalfRule,
            knockout: KnockoutRules::default(),
            final_stage: None,
        }
    }

    /// A round robin of `cycles` cycles with every other key at its default.
    pub fn round_robin(cycles: u32) -> Self {
        GroupFormat {
            kind: FormatKind::RoundRobin,
            cycles,
            ..GroupFormat::swiss()
        }
    }

    /// Whether the group is a knockout.
    pub fn is_knockout(&self) -> bool {
        self.kind == FormatKind::Knockout
    }

    /// Whether a knockout is played: the group's format, or its final stage.
    pub fn plays_knockout(&self) -> bool {
        self.is_knockout() || self.final_stage.is_some_and(|f| !f.is_round_robin())
    }

    /// Whether the group is a round robin.
    pub fn is_round_robin(&self) -> bool {
        self.kind == FormatKind::RoundRobin
    }

    /// The ranking chain a round robin uses unless the group writes `tiebreaks`: the
    /// games among the tied players (相互间成绩, the mini-table of every tied player, CXA
    /// 2011 §14.1 直胜), 胜局, 后胜局, then 小分 (§14.1). docs/rules.md §14.3.
    pub fn round_robin_tiebreaks() -> Vec<Tiebreak> {
        vec![
            Tiebreak::Mutual,
            Tiebreak::Wins,
            Tiebreak::BlackWins,
            Tiebreak::SonnebornBerger,
        ]
    }

    /// The group's tiebreaks: its own, else a round robin's default, else `general`.
    pub fn tiebreaks_or<'a>(&'a self, general: &'a [Tiebreak]) -> std::borrow::Cow<'a, [Tiebreak]> {
        match (&self.tiebreaks, self.kind) {
            (Some(own), _) => std::borrow::Cow::Borrowed(own),
            (None, FormatKind::RoundRobin) => Self::round_robin_tiebreaks().into(),
            (None, FormatKind::Swiss | FormatKind::Knockout) => std::borrow::Cow::Borrowed(general),
        }
    }

    /// The group's fallback: its own, else none for a round robin (its places are settled
    /// by the tiebreaks, then `ranking.unresolved`), else `general`.
    pub fn fallback_or(&self, general: Fallback) -> Fallback {
        match (self.fallback, self.kind) {
            (Some(own), _) => own,
            (None, FormatKind::RoundRobin) => Fallback::None,
            (None, FormatKind::Swiss | FormatKind::Knockout) => general,
        }
    }

    /// The group's plan in words, as `rules check` prints it: the format, its rounds or
    /// cycles, a knockout's games and tiebreak games, a final stage.
    pub fn plan(&self, lang: crate::i18n::Lang, rounds: u32) -> String {
        let stages = |k: &KnockoutRules| -> String {
            let names: Vec<&str> = k
                .tiebreak
                .iter()
                .map(|t| match t {
                    TiebreakStage::Rapid => lang.pick("快棋两局", "two rapid games"),
                    TiebreakStage::Blitz => lang.pick("超快棋两局", "two blitz games"),
                    TiebreakStage::Armageddon => {
                        lang.pick("一局和棋判黑胜", "a deciding game (draw = black wins)")
                    }
                    TiebreakStage::Lot => lang.pick("抽签", "a lot"),
                })
                .collect();
            let fifth = match k.play_off_5_8 {
                true => lang.pick("，五至八名排位赛", ", places 5–8 played off"),
                false => lang.pick(
                    "，1/4 决赛负者并列第五",
                    ", the quarter-final losers share fifth",
                ),
            };
            let third = match k.third_place {
                true => lang.pick("，另赛三四名", ", a third-place match"),
                false => lang.pick(
                    "，半决赛负者并列第三",
                    ", the semi-final losers share third",
                ),
            };
            bi!(
                lang,
                zh(
                    "每场 {} 局，战平依次加赛：{}（仍平则抽签）{third}{fifth}",
                    k.games,
                    names.join("、")
                ),
                en(
                    "{} games a match, then while level: {} (a lot if still level){third}{fifth}",
                    k.games,
                    names.join(", ")
                )
            )
        };
        match self.kind {
            FormatKind::RoundRobin => {
                let name = system_name(self.kind, self.cycles, lang);
                bi!(
                    lang,
                    zh("{name}，贝格尔编排法，轮数由人数决定"),
                    en("{name} by the Berger tables, rounds from the field")
                )
            }
            FormatKind::Knockout => {
                let s = stages(&self.knockout);
                bi!(lang, zh("淘汰赛：{s}"), en("knockout: {s}"))
            }
            FormatKind::Swiss => {
                let base = bi!(
                    lang,
                    zh("积分编排制 {rounds} 轮"),
                    en("Swiss, {rounds} rounds")
                );
                match self.final_stage {
                    Some(f) if f.is_round_robin() => {
                        let stage = system_name(f.format, f.cycles, lang);
                        let carried = match f.carried {
                            CarriedResults::None => {
                                lang.pick("预赛成绩不带入", "no Swiss result carried")
                            }
                            CarriedResults::Finalists => lang.pick(
                                "带入预赛中决赛选手之间的对局成绩",
                                "the Swiss games between finalists carried",
                            ),
                            CarriedResults::All => {
                                lang.pick("预赛积分全部带入", "every Swiss result carried")
                            }
                        };
                        bi!(
                            lang,
                            zh(
                                "{base}；按积分排名前 {} 名进入决赛{stage}（贝格尔编排法，序号按预赛名次；出线名次并列须先加赛），{carried}；决赛选手按决赛名次，其余按预赛名次",
                                f.finalists
                            ),
                            en(
                                "{base}; then the top {} of its ranking play a {stage} (Berger tables, numbered by their Swiss places; a tie across the line needs a playoff first), {carried}; finalists placed by the final, the others by the Swiss ranking",
                                f.finalists
                            )
                        )
                    }
                    Some(f) => bi!(
                        lang,
                        zh(
                            "{base}；按积分排名前 {} 名进入淘汰赛（出线名次并列须先加赛），{}",
                            f.finalists,
                            stages(&self.knockout)
                        ),
                        en(
                            "{base}; then the top {} of its ranking play a knockout (a tie across the line needs a playoff first), {}",
                            f.finalists,
                            stages(&self.knockout)
                        )
                    ),
                    None => base,
                }
            }
        }
    }

    /// Whether every key is a Swiss group's default (nothing for `rules show` to print).
    pub fn is_default_swiss(&self) -> bool {
        *self == GroupFormat::swiss()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    /// `rules check` names a round robin's cycles in the words of the sheets (单循环,
    /// double round robin, 3-cycle round robin), a group's and a final stage's alike.
    #[test]
    fn the_plan_names_a_round_robin_as_the_sheets_do() {
        let plan = |format: &GroupFormat, lang| format.plan(lang, 7);
        let single = GroupFormat::round_robin(1);
        assert!(plan(&single, Lang::Zh).starts_with("单循环，贝格尔编排法"));
        assert!(plan(&single, Lang::En).starts_with("round robin by the Berger tables"));
        let double = GroupFormat::round_robin(2);
        assert!(plan(&double, Lang::En).starts_with("double round robin by the Berger tables"));
        let three = GroupFormat::round_robin(3);
        assert!(plan(&three, Lang::Zh).starts_with("3 循环，贝格尔编排法"));
        assert!(plan(&three, Lang::En).starts_with("3-cycle round robin by the Berger tables"));
        let stage = |cycles| GroupFormat {
            final_stage: Some(FinalStage {
                finalists: 6,
                format: FormatKind::RoundRobin,
                cycles,
                carried: CarriedResults::None,
            }),
            ..GroupFormat::swiss()
        };
        assert!(plan(&stage(1), Lang::Zh).contains("前 6 名进入决赛单循环"));
        assert!(plan(&stage(1), Lang::En).contains("top 6 of its ranking play a round robin ("));
        assert!(plan(&stage(2), Lang::En).contains("play a double round robin ("));
        assert!(plan(&stage(3), Lang::En).contains("play a 3-cycle round robin ("));
    }
}
