//! Why a round could not be paired: [`PairingError`], the players blocking a pairing
//! ([`Blocker`], [`BlockReason`]) and their messages in both languages.

use super::SheetNumberProblem;
use super::engine::Field;
use crate::i18n::{Localize, Text, bi, display_english, number_ranges, plural};
use crate::model::{GroupId, PlayerId};
use crate::rulebook::Lang;

/// Why one player cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlockReason {
    /// Every other player is barred: already met, colour limits (§3.2), same team (§4.1).
    /// Each other player is counted once, under the first bar that applies (met, team,
    /// colour), so the three counts add up to the players to pair minus one.
    NoOpponent {
        /// Players already met, barred by the no-rematch rule (docs/rules.md §2.3).
        met: u32,
        /// Players not met and not team-mates whose colour history cannot be combined
        /// with this player's without breaking a colour limit (docs/rules.md §3.2).
        colour: u32,
        /// Players not met but of the same unit while team avoidance applies
        /// (docs/rules.md §4.1).
        team: u32,
    },
    /// The player has legal opponents (`candidates`), but every one of them is needed at
    /// another table; the counts say why everyone else is barred.
    OpponentsTaken {
        /// The players this one could legally meet, all of whom the rest of the pool
        /// needs elsewhere; the arbiter looks at these tables to pair by hand.
        candidates: Vec<PlayerId>,
        /// The same players as the sheets name them: `张三(12)`, name and pairing number.
        labels: Vec<String>,
        /// Players already met (no rematch, docs/rules.md §2.3).
        met: u32,
        /// Players barred by the colour limits (docs/rules.md §3.2).
        colour: u32,
        /// Team-mates barred by team avoidance (docs/rules.md §4.1).
        team: u32,
    },
}

/// One player the hard constraints leave without a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocker {
    /// The player left without a table.
    pub player: PlayerId,
    /// The player as the sheets name them, `张三(12)` (name and pairing number), so the
    /// refusal names whom the arbiter must look at without a lookup of the id.
    pub name: String,
    /// Why no legal opponent is left for this player.
    pub reason: BlockReason,
}

display_english!(Blocker, PairingError);

/// Players a refusal names one by one; the rest are counted.
const SHOWN_BLOCKERS: usize = 10;

/// Possible opponents a blocked player's line names; the rest are counted.
const SHOWN_OPPONENTS: usize = 8;

impl Localize for Blocker {
    fn localize(&self, lang: Lang) -> String {
        let name = &self.name;
        match &self.reason {
            BlockReason::NoOpponent { met, colour, team } => bi!(
                lang,
                zh(
                    "棋手 {name} 没有合规的对手：{met} 人已交过手（不可重复对局），{colour} 人受先后手限制，{team} 人同队"
                ),
                en(
                    "player {name} has no legal opponent: {met} already met (no rematch), {colour} barred by the colour limits, {team} from the same team"
                ),
            ),
            BlockReason::OpponentsTaken {
                labels,
                met,
                colour,
                team,
                ..
            } => {
                // A crowded pool can leave thousands of possible opponents: the first few
                // are named, the rest counted, so the refusal stays readable.
                let shown = labels.len().min(SHOWN_OPPONENTS);
                let more = labels.len() - shown;
                let (en_more, zh_more) = match more {
                    0 => (String::new(), String::new()),
                    n => (format!(" and {n} more"), format!(" 等 {} 人", labels.len())),
                };
                bi!(
                    lang,
                    zh(
                        "棋手 {name} 只能对阵 {}{zh_more}，而他们都必须排在其他台次（{met} 人已交过手，{colour} 人受先后手限制，{team} 人同队）",
                        labels[..shown].join("、")
                    ),
                    en(
                        "player {name} can only meet {}{en_more}, who are all needed at other tables ({met} already met, {colour} barred by the colour limits, {team} from the same team)",
                        labels[..shown].join(", ")
                    ),
                )
            }
        }
    }
}

impl PairingError {
    /// The message in both languages, the player of a refused hand edit named by `name`
    /// (`张三(12)`, as the arbiter typed and reads them) instead of by registration id.
    pub fn text_naming(&self, name: &dyn Fn(PlayerId) -> String) -> Text {
        match self {
            PairingError::PlayerNotInRound { player, round } => {
                let who = name(*player);
                Text::new(
                    not_in_round(Lang::Zh, &who, *round),
                    not_in_round(Lang::En, &who, *round),
                )
            }
            PairingError::SamePlayer { player } => {
                let who = name(*player);
                Text::new(same_player(Lang::Zh, &who), same_player(Lang::En, &who))
            }
            other => Text::of(other),
        }
    }
}

/// [`PairingError::PlayerNotInRound`]'s message, the player shown as `who`.
fn not_in_round(lang: Lang, who: &str, round: u32) -> String {
    bi!(
        lang,
        zh("棋手 `{who}` 不在第 `{round}` 轮中；请选该轮的棋手"),
        en("player `{who}` is not in round `{round}`; pick a player of that round"),
    )
}

/// [`PairingError::SamePlayer`]'s message, the player shown as `who`.
fn same_player(lang: Lang, who: &str) -> String {
    bi!(
        lang,
        zh("棋手 `{who}` 不能与自己对阵；请给出两名不同的棋手"),
        en("player `{who}` cannot be paired against themself; name two different players"),
    )
}

impl Localize for PairingError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            PairingError::RoundIncomplete {
                group,
                round,
                missing,
            } => bi!(
                lang,
                zh(
                    "组别 `{group}` 第 {round} 轮尚未结束：{} 台没有成绩（第 {} 台）；编排下一轮之前请用 `qiwang result` 录入",
                    missing.len(),
                    number_ranges(missing, lang)
                ),
                en(
                    "round {round} of group `{group}` is not complete: {} no result ({}); enter them with `qiwang result` before pairing the next round",
                    plural(missing.len(), "table has", "tables have"),
                    number_ranges(missing, lang)
                ),
            ),
            PairingError::AllRoundsPlayed {
                group,
                rounds,
                round_robin: true,
            } => bi!(
                lang,
                zh("组别 `{group}` 循环赛的全部 {rounds} 轮都已编排：每位棋手都已与其他棋手相遇"),
                en(
                    "all {rounds} rounds of the round robin of group `{group}` are paired: every player has met every other"
                ),
            ),
            PairingError::AllRoundsPlayed { group, rounds, .. } => bi!(
                lang,
                zh("组别 `{group}` 的全部 {rounds} 轮都已编排；要多赛几轮请在规程中调大 `rounds`"),
                en(
                    "all {rounds} rounds of group `{group}` are paired; raise `rounds` in the rulebook to play more"
                ),
            ),
            PairingError::NoPlayers { group, round } => bi!(
                lang,
                zh("组别 `{group}` 第 {round} 轮没有可编排的棋手；请先导入或添加棋手"),
                en(
                    "group `{group}` has no player who can be paired in round {round}; import or add players first"
                ),
            ),
            PairingError::NoLegalPairing {
                group,
                round,
                blocking,
            } => {
                let mut blockers = blocking
                    .iter()
                    .take(SHOWN_BLOCKERS)
                    .map(|b| b.localize(lang))
                    .collect::<Vec<_>>()
                    .join(lang.pick("；", "; "));
                if let Some(more) = blocking
                    .len()
                    .checked_sub(SHOWN_BLOCKERS)
                    .filter(|&n| n > 0)
                {
                    blockers.push_str(&bi!(
                        lang,
                        zh("；另有 {more} 名棋手同样可能无法编排"),
                        en(
                            "; {} likewise",
                            plural(
                                more,
                                "more player can be left without a table",
                                "more players can be left without a table"
                            )
                        )
                    ));
                }
                bi!(
                    lang,
                    zh(
                        "组别 `{group}` 第 {round} 轮不存在合规的编排：{blockers}；请在规程中放宽规则（`pairing.relax`，用 `qiwang rules update`），或仅本轮放宽：`qiwang pair --group {group} --relax colour,team,rematch`（列出本轮可放宽的规则，越靠后越不轻易放宽）"
                    ),
                    en(
                        "no legal pairing exists for round {round} of group `{group}`: {blockers}; relax a rule in the rulebook (`pairing.relax`, with `qiwang rules update`) or for this round only with `qiwang pair --group {group} --relax colour,team,rematch` (the rules this round may break; the later one is listed, the less readily it is broken)"
                    ),
                )
            }
            PairingError::CriteriaTooWide {
                group,
                round,
                players,
                score_groups,
            } => bi!(
                lang,
                zh(
                    "组别 `{group}` 第 {round} 轮无法精确编排：{players} 名棋手分布在 {score_groups} 个积分段，逐项比较全部编排准则需要超过 480 位整数；请拆分该组"
                ),
                en(
                    "round {round} of group `{group}` cannot be paired exactly: {players} players in {score_groups} score groups need more than 480 bits to rank every criterion; split the group"
                ),
            ),
            PairingError::PlayerNotInRound { player, round } => {
                not_in_round(lang, &player.to_string(), *round)
            }
            PairingError::SamePlayer { player } => same_player(lang, &player.to_string()),
            PairingError::TableZero => bi!(
                lang,
                zh("台号 `0` 不存在；台号从 1 开始"),
                en("table `0` does not exist; tables are numbered from 1"),
            ),
            PairingError::NotInField { group, players } => {
                let list = players.join(lang.pick("、", ", "));
                bi!(
                    lang,
                    zh(
                        "{list} 在组别 `{group}` 第 1 轮编排之后才加入，而循环赛轮次表或淘汰赛对阵已经确定，无法编排；请先让其退赛（`qiwang player withdraw`）再继续"
                    ),
                    en(
                        "{list} joined group `{group}` after its round-robin table or knockout bracket was fixed in round 1 and cannot be paired; withdraw them (`qiwang player withdraw`) to go on"
                    ),
                )
            }
            PairingError::QualificationTie { group, players } => {
                let list = players.join(lang.pick("、", ", "));
                bi!(
                    lang,
                    zh(
                        "组别 `{group}` 的决赛阶段暂不能开始：{list} 在出线名次上并列；请先用 `qiwang playoff --group {group} …` 录入决定他们顺序的加赛，再编排"
                    ),
                    en(
                        "the final stage of group `{group}` waits: {list} are tied across the finalists' line; record the playoff that orders them (`qiwang playoff --group {group} …`), then pair again"
                    ),
                )
            }
            PairingError::KnockoutFinished { group, champion } => bi!(
                lang,
                zh("组别 `{group}` 的淘汰赛已决出胜负（冠军：{champion}），没有需要编排的对局"),
                en(
                    "the knockout of group `{group}` is decided (champion: {champion}); nothing is left to pair"
                ),
            ),
            PairingError::KnockoutStray {
                group,
                round,
                table,
            } => bi!(
                lang,
                zh(
                    "组别 `{group}` 第 {round} 轮第 {table} 台不是该场淘汰赛应进行的对局；`qiwang check` 会列出，可用 `qiwang undo` 撤销造成它的操作"
                ),
                en(
                    "round {round} table {table} of group `{group}` is not the game its knockout match was due; `qiwang check` names it, and `qiwang undo` takes back the change that caused it"
                ),
            ),
            PairingError::NothingToUnpair { group } => bi!(
                lang,
                zh("{group} 没有可撤销的轮次"),
                en("{group} has no round to drop"),
            ),
            PairingError::RoundHasResults { group, round } => bi!(
                lang,
                zh(
                    "{group} 第 {round} 轮已有成绩：请用 `qiwang result` 更正，或用 `qiwang undo` 逐步撤销"
                ),
                en(
                    "round {round} of {group} already has results: correct them with `qiwang result`, or `qiwang undo` step by step"
                ),
            ),
            PairingError::SheetNumbers { group, problems } => {
                let list = problems
                    .iter()
                    .map(|p| p.localize(lang))
                    .collect::<Vec<_>>()
                    .join(lang.pick("；", "; "));
                bi!(
                    lang,
                    zh(
                        "组别 `{group}` 的编排序号取自报名表的序号列（`seeding = \"sheet\"`），序号必须是 1、2、3……且每人一个、不重复：{list}；请改正报名表后重新导入，或修改棋手信息"
                    ),
                    en(
                        "group `{group}` takes its pairing numbers from the registration sheet's 序号 column (`seeding = \"sheet\"`), which must number the players 1, 2, 3, … each once: {list}; correct the sheet and import it again, or edit the players"
                    ),
                )
            }
        }
    }
}

/// Everything that can stop a pairing or a manual edit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// The last round still has tables without a result.
    RoundIncomplete {
        /// The group.
        group: GroupId,
        /// The unfinished round.
        round: u32,
        /// Its tables without a result.
        missing: Vec<u32>,
    },
    /// Every round the rulebook sets has been paired.
    AllRoundsPlayed {
        /// The group.
        group: GroupId,
        /// The rulebook's number of rounds (a round robin's: its schedule's).
        rounds: u32,
        /// The group is a round robin: its schedule is played out (docs/rules.md §14).
        round_robin: bool,
    },
    /// No player of the group can play the round (none registered, all withdrawn).
    NoPlayers {
        /// The group.
        group: GroupId,
        /// The round to pair.
        round: u32,
    },
    /// The hard rules leave some players without a table.
    NoLegalPairing {
        /// The group.
        group: GroupId,
        /// The round to pair.
        round: u32,
        /// The players left without a table, and why.
        blocking: Vec<Blocker>,
    },
    /// The pairing criteria of the round do not fit the widest integer (docs/rules.md §2.6).
    CriteriaTooWide {
        /// The group.
        group: GroupId,
        /// The round to pair.
        round: u32,
        /// Players to pair.
        players: u32,
        /// Distinct scores among them.
        score_groups: u32,
    },
    /// A manual edit names a player who is not in the round.
    PlayerNotInRound {
        /// The player named.
        player: PlayerId,
        /// The round edited.
        round: u32,
    },
    /// A manual edit pairs a player against themself.
    SamePlayer {
        /// The player named twice.
        player: PlayerId,
    },
    /// A manual edit names table 0.
    TableZero,
    /// A knockout's bracket is decided: nothing is left to pair (docs/rules.md §16).
    KnockoutFinished {
        /// The group.
        group: GroupId,
        /// The champion as the sheets name them.
        champion: String,
    },
    /// A stored knockout game is not the game its match was due (a hand edit, or a
    /// result corrected after the next game was paired).
    KnockoutStray {
        /// The group.
        group: GroupId,
        /// The round of the game.
        round: u32,
        /// Its table.
        table: u32,
    },
    /// Players registered after a round robin's or knockout's first round (an import):
    /// its table or bracket is fixed, so they cannot be paired (docs/rules.md §14.1).
    NotInField {
        /// The group.
        group: GroupId,
        /// The players as the sheets name them.
        players: Vec<String>,
    },
    /// A tie in the Swiss ranking across the finalists' line, not yet settled by a
    /// playoff: the final stage waits (docs/rules.md §16.6).
    QualificationTie {
        /// The group.
        group: GroupId,
        /// The tied players as the sheets name them.
        players: Vec<String>,
    },
    /// `unpair` of a group without rounds.
    NothingToUnpair {
        /// The group.
        group: GroupId,
    },
    /// `unpair` of a round that already has results.
    RoundHasResults {
        /// The group.
        group: GroupId,
        /// The round.
        round: u32,
    },
    /// `seeding = "sheet"`, and the 序号 column does not number the players 1..=n.
    SheetNumbers {
        /// The group.
        group: GroupId,
        /// Every missing, repeated or out-of-range number.
        problems: Vec<SheetNumberProblem>,
    },
}

impl PairingError {
    /// The criteria of `field` do not fit the widest integer (docs/rules.md §2.6).
    pub(super) fn too_wide(field: &Field, group: &GroupId, round: u32) -> PairingError {
        PairingError::CriteriaTooWide {
            group: group.clone(),
            round,
            players: field.players.len() as u32,
            score_groups: field.scores.len() as u32,
        }
    }
}
