//! What recording results reports back: each result as stored with what it replaced,
//! and the warnings the arbiter should read (a foul loss, a forfeit withdrawal, …).

use super::withdraw::withdrawal_cause_text;
use crate::i18n::Localize;
use crate::i18n::bi;
use crate::model::{Colour, GameResult, GroupId, Outcome, PlayerId, WithdrawalCause};
use crate::rulebook::Lang;
use std::fmt;

/// One result as stored, with what was there before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedResult {
    /// The round the game belongs to.
    pub round: u32,
    /// The game's table in that round.
    pub table: u32,
    /// The player with red, so a report can name who won without the event.
    pub red: PlayerId,
    /// The player with black.
    pub black: PlayerId,
    /// The outcome the arbiter entered (before a foul loss replaced it).
    pub entered: Outcome,
    /// The result stored before, if any.
    pub previous: Option<GameResult>,
    /// The result now stored.
    pub result: GameResult,
}

impl RecordedResult {
    /// A different result replaced an earlier one.
    pub fn is_correction(&self) -> bool {
        self.previous.is_some_and(|p| p != self.result)
    }

    /// The same result was entered again.
    pub fn is_unchanged(&self) -> bool {
        self.previous == Some(self.result)
    }
}

/// Something the arbiter should know about what was recorded. Serialisable so the audit
/// log keeps it as data and `qiwang log` words it in either language.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "warning")]
pub enum ResultWarning {
    /// A side reached the rulebook's foul limit: the game is recorded as their loss
    /// (Jinhua 补充规定 六 三次犯规判负; Dongguan 十五.7 二次犯规立即判负).
    LostOnFouls {
        /// The round of the game.
        round: u32,
        /// The table of the game.
        table: u32,
        /// The player who reached the limit and lost.
        player: PlayerId,
        /// The side they played.
        colour: Colour,
        /// Their fouls, the rulebook's limit.
        fouls: u32,
        /// The outcome the arbiter entered.
        entered: Outcome,
        /// The outcome stored instead (the other side's win).
        recorded: Outcome,
    },
    /// The player reached the rulebook's number of forfeits and is no longer paired (or
    /// a correction moved the round that withdrawal starts from).
    Withdrawn {
        /// The withdrawn player.
        player: PlayerId,
        /// The first round they are not paired in.
        from_round: u32,
        /// The forfeits that reached the limit.
        cause: WithdrawalCause,
    },
    /// A correction removed the forfeits behind an automatic withdrawal.
    WithdrawalLifted {
        /// The player paired again.
        player: PlayerId,
        /// The round the lifted withdrawal started from.
        from_round: u32,
    },
    /// A withdrawn player already has a pairing in a round they should not play.
    WithdrawnButPaired {
        /// The withdrawn player.
        player: PlayerId,
        /// The round they are still paired in (its game has no result yet).
        round: u32,
    },
    /// A result of an earlier round changed after later rounds were paired: standings
    /// follow, the later pairings stay as they are.
    EarlierRoundCorrected {
        /// The corrected round.
        round: u32,
        /// The newest round of the pool, paired before the correction.
        newest: u32,
    },
    /// A corrected Swiss result moved players across the line of a final stage that has
    /// begun: the finalists stay frozen (docs/rules.md §16.6), the arbiter is told who
    /// would now qualify and who would not.
    QualificationChanged {
        /// The number of finalists (the line).
        finalists: u32,
        /// Players now within the line (or tied across it) who are not finalists.
        now_in: Vec<PlayerId>,
        /// Finalists now below the line.
        now_out: Vec<PlayerId>,
    },
}

impl ResultWarning {
    /// The warning in `lang`, naming players with `name` (the CLI passes 张三(12), name and
    /// pairing number; `Display`, used by the audit log, passes the registration id).
    pub fn text(&self, lang: Lang, name: &dyn Fn(PlayerId) -> String) -> String {
        match self {
            ResultWarning::LostOnFouls {
                round,
                table,
                player,
                colour,
                fouls,
                entered,
                recorded,
            } => {
                let who = name(*player);
                let mut text = bi!(
                    lang,
                    zh(
                        "第 {round} 轮第 {table} 台：棋手 {who}（{}）犯规 {fouls} 次，判负",
                        match colour {
                            Colour::Red => "红方",
                            Colour::Black => "黑方",
                        }
                    ),
                    en(
                        "round {round} table {table}: player {who} ({}) has {} and loses the game on fouls",
                        side(*colour),
                        crate::i18n::plural(fouls, "foul", "fouls")
                    )
                );
                if entered != recorded {
                    let (e, r) = (entered.words(lang), recorded.words(lang));
                    text.push_str(&bi!(
                        lang,
                        zh("；录入的{e}记为{r}"),
                        en("; entered as {e}, recorded as {r}")
                    ));
                }
                text
            }
            ResultWarning::Withdrawn {
                player,
                from_round,
                cause,
            } => bi!(
                lang,
                zh(
                    "棋手 {} 已退赛，自第 {from_round} 轮起不再编排：{}",
                    name(*player),
                    withdrawal_cause_text(cause, lang)
                ),
                en(
                    "player {} is withdrawn and not paired from round {from_round}: {}",
                    name(*player),
                    withdrawal_cause_text(cause, lang)
                )
            ),
            ResultWarning::WithdrawalLifted { player, from_round } => bi!(
                lang,
                zh(
                    "棋手 {} 已不再有使其自第 {from_round} 轮起退赛的弃权：重新参加编排",
                    name(*player)
                ),
                en(
                    "player {} no longer has the forfeits that withdrew them from round {from_round}: paired again",
                    name(*player)
                )
            ),
            ResultWarning::WithdrawnButPaired { player, round } => bi!(
                lang,
                zh(
                    "棋手 {} 已退赛，但已编入第 {round} 轮：请为该局录入弃权，或撤销该轮编排",
                    name(*player)
                ),
                en(
                    "player {} is withdrawn but already paired in round {round}: enter a forfeit for that game or unpair the round",
                    name(*player)
                )
            ),
            ResultWarning::EarlierRoundCorrected { round, newest } => bi!(
                lang,
                zh(
                    "第 {round} 轮在第 {newest} 轮编排之后被更正：成绩表已重新计算，之后各轮的编排保持不变"
                ),
                en(
                    "round {round} was corrected after round {newest} was paired: standings are recomputed, later pairings stay as they are"
                )
            ),
            ResultWarning::QualificationChanged {
                finalists,
                now_in,
                now_out,
            } => qualification_text(*finalists, now_in, now_out, lang, name),
        }
    }
}

impl From<crate::standings::QualificationDrift> for ResultWarning {
    fn from(drift: crate::standings::QualificationDrift) -> Self {
        ResultWarning::QualificationChanged {
            finalists: drift.finalists,
            now_in: drift.now_in,
            now_out: drift.now_out,
        }
    }
}

/// The words of a [`ResultWarning::QualificationChanged`]: who would now qualify, who
/// would not, and that the finalists stay.
pub fn qualification_text(
    finalists: u32,
    now_in: &[PlayerId],
    now_out: &[PlayerId],
    lang: Lang,
    name: &dyn Fn(PlayerId) -> String,
) -> String {
    let list =
        |ids: &[PlayerId], sep: &str| ids.iter().map(|p| name(*p)).collect::<Vec<_>>().join(sep);
    let mut parts = Vec::new();
    if !now_in.is_empty() {
        parts.push(bi!(
            lang,
            zh("{} 现在排在前 {finalists} 名内", list(now_in, "、")),
            en("{} would now be in the top {finalists}", list(now_in, ", "))
        ));
    }
    if !now_out.is_empty() {
        parts.push(bi!(
            lang,
            zh(
                "决赛棋手 {} 现在已不在前 {finalists} 名内",
                list(now_out, "、")
            ),
            en("finalist {} would no longer be", list(now_out, ", "))
        ));
    }
    bi!(
        lang,
        zh(
            "更正改变了瑞士制阶段的出线名单：{}；决赛名单在决赛第一轮编排时已确定，保持不变",
            parts.join("，")
        ),
        en(
            "the correction changes who qualifies from the Swiss stage: {}; the finalists were fixed when the final stage was first paired and stay as they are",
            parts.join("; ")
        )
    )
}

impl fmt::Display for ResultWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En, &|p| p.to_string()))
    }
}

/// What [`record_results`](super::record_results) did: what the CLI prints and the
/// audit log keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordReport {
    /// The pool the results were recorded in.
    pub group: GroupId,
    /// Each result stored, in the order entered.
    pub results: Vec<RecordedResult>,
    /// Foul losses, forfeit withdrawals made or lifted, and earlier rounds corrected.
    pub warnings: Vec<ResultWarning>,
}

impl RecordReport {
    /// Results that replaced a different earlier result (old → new).
    pub fn corrections(&self) -> impl Iterator<Item = &RecordedResult> {
        self.results.iter().filter(|r| r.is_correction())
    }

    /// One line per correction and warning, in English with registration ids: what the
    /// audit log keeps.
    pub fn messages(&self) -> Vec<String> {
        self.messages_named(Lang::En, &|p| p.to_string())
    }

    /// One line per correction and warning in `lang`, players named by `name` (e.g.
    /// 张三(12), their name and pairing number), for the arbiter.
    pub fn messages_named(&self, lang: Lang, name: &dyn Fn(PlayerId) -> String) -> Vec<String> {
        let mut out: Vec<String> = self
            .corrections()
            .map(|r| correction_text(r.round, r.table, r.previous.as_ref(), &r.result, lang))
            .collect();
        out.extend(self.warnings.iter().map(|w| w.text(lang, name)));
        out
    }
}

/// `round 3 table 2: corrected `1-0` → `=/1:0`` in `lang`: a result that replaced another,
/// written as `qiwang result` takes it (fouls and lateness included).
pub fn correction_text(
    round: u32,
    table: u32,
    old: Option<&GameResult>,
    new: &GameResult,
    lang: Lang,
) -> String {
    let old = old.map(|r| r.entry_text_in(lang)).unwrap_or_default();
    let new = new.entry_text_in(lang);
    bi!(
        lang,
        zh("第 {round} 轮第 {table} 台：已将 `{old}` 更正为 `{new}`"),
        en("round {round} table {table}: corrected `{old}` → `{new}`")
    )
}

impl Localize for ResultWarning {
    fn localize(&self, lang: Lang) -> String {
        self.text(lang, &|p| p.to_string())
    }
}

pub(super) fn side(colour: Colour) -> &'static str {
    match colour {
        Colour::Red => "red",
        Colour::Black => "black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_warning_has_chinese_with_the_same_values() {
        use crate::i18n::facts::assert_localized;
        let warnings = [
            ResultWarning::LostOnFouls {
                round: 3,
                table: 4,
                player: PlayerId(12),
                colour: Colour::Black,
                fouls: 2,
                entered: Outcome::Draw,
                recorded: Outcome::RedWin,
            },
            ResultWarning::Withdrawn {
                player: PlayerId(12),
                from_round: 5,
                cause: WithdrawalCause::Forfeits {
                    rounds: vec![3, 4],
                    consecutive: true,
                },
            },
            ResultWarning::WithdrawalLifted {
                player: PlayerId(12),
                from_round: 5,
            },
            ResultWarning::WithdrawnButPaired {
                player: PlayerId(12),
                round: 5,
            },
            ResultWarning::EarlierRoundCorrected {
                round: 2,
                newest: 4,
            },
            ResultWarning::QualificationChanged {
                finalists: 4,
                now_in: vec![PlayerId(7)],
                now_out: vec![PlayerId(12)],
            },
        ];
        for w in &warnings {
            assert_localized(w);
        }
    }
}
