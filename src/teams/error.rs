//! What a team command can refuse (docs/rules.md §17), each in both languages.

use crate::i18n::{Localize, bi, display_english};
use crate::pairing::PairingError;
use crate::rulebook::Lang;
use crate::schedule::RoundLimit;

/// A refused team pairing, line-up or result. Nothing was changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeamError {
    /// The rulebook has no `[team_competition]`.
    NotATeamEvent,
    /// The pairing engine refused (no legal pairing, criteria too wide, …), with teams as
    /// its players.
    Pairing(PairingError),
    /// The pool's newest round still has matches without a result.
    RoundIncomplete {
        /// The round.
        round: u32,
        /// The matches still open.
        matches: Vec<u32>,
    },
    /// Every round of the schedule or the rulebook is paired.
    AllRoundsPlayed {
        /// The rounds.
        rounds: u32,
    },
    /// Fewer than two teams to pair.
    TooFewTeams {
        /// Teams registered.
        teams: usize,
    },
    /// A team has too few players to fill its boards.
    ShortLineup {
        /// The team.
        team: String,
        /// Players available.
        players: usize,
        /// Boards to fill.
        boards: u32,
    },
    /// No such round.
    NoRound {
        /// The round asked for.
        round: u32,
    },
    /// A round outside the rounds the team competition plays: round 0, or past its last.
    RoundOutsideSchedule {
        /// The round asked for.
        round: u32,
        /// The rounds the pool plays.
        limit: RoundLimit,
    },
    /// No such match in the round.
    NoMatch {
        /// The round.
        round: u32,
        /// The match asked for.
        table: u32,
    },
    /// A match's results name a different number of boards.
    BoardCount {
        /// The match.
        table: u32,
        /// Results given.
        given: usize,
        /// Boards of the match.
        boards: usize,
    },
    /// A result token is not one qiwang reads.
    BadToken {
        /// Where.
        at: Where,
        /// The token.
        token: String,
    },
    /// Tiebreak games given for a match that is not level (or under a rulebook without them).
    NoTiebreak {
        /// The match.
        table: u32,
    },
    /// Tiebreak games given past the one that decided the match (play stops at the first
    /// game one side wins, docs/rules.md §17.4).
    TiebreakDecided {
        /// The match.
        table: u32,
        /// The board whose tiebreak game decided it.
        board: u32,
    },
    /// The team has no match in the round (it has the bye).
    NoMatchForTeam {
        /// The team.
        team: String,
        /// The round.
        round: u32,
    },
    /// A line-up change brings a player onto a board whose rule they do not meet.
    BoardRule {
        /// Why, in both languages.
        why: crate::i18n::Text,
    },
    /// No team by that name in the pool.
    UnknownTeam {
        /// The name given.
        name: String,
    },
    /// A line-up names a player who is not a registered member of the team.
    NotInTeam {
        /// The player as given.
        player: String,
        /// The team.
        team: String,
    },
    /// A line-up change brings in a player already in the line-up, or takes out one not in it.
    NotInLineup {
        /// The player as given.
        player: String,
    },
    /// `unpair` with no round paired.
    NothingToUnpair,
    /// `unpair` of a round a match of which already has results.
    RoundHasResults {
        /// The round.
        round: u32,
        /// The first match with a result.
        table: u32,
    },
    /// A line-up of a match that already has results.
    MatchHasResults {
        /// The match.
        table: u32,
    },
    /// A results file whose rows do not match the round's boards.
    FileMismatch {
        /// The file's line.
        line: usize,
        /// What does not match.
        what: String,
    },
    /// A results file without one of its columns.
    MissingColumn {
        /// The column.
        column: String,
    },
    /// `player reinstate --team` for a team that is not withdrawn.
    TeamNotWithdrawn {
        /// The team.
        team: String,
    },
    /// A line-up change that leaves fewer women in the line-up than `min_women`.
    TooFewWomen {
        /// The team.
        team: String,
        /// The round.
        round: u32,
        /// Women in the line-up after the change.
        women: u32,
        /// `min_women`.
        min: u32,
    },
    /// A team withdrawn while its match of the newest round has no result.
    TeamMatchOpen {
        /// The team.
        team: String,
        /// The round.
        round: u32,
        /// Its match.
        table: u32,
    },
    /// A team withdrawn after every round is paired.
    TeamEventOver {
        /// The team.
        team: String,
        /// The rounds.
        rounds: u32,
    },
    /// A team already withdrawn by hand.
    TeamAlreadyWithdrawn {
        /// The team.
        team: String,
        /// The round its withdrawal starts.
        from_round: u32,
    },
}

/// Where a result token was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Where {
    /// Board `board` of match `table` on the command line.
    Board {
        /// The match.
        table: u32,
        /// The board.
        board: u32,
    },
    /// The `n`th argument, before any match number.
    Argument(usize),
    /// A results file's line.
    Line(usize),
}

impl Where {
    fn words(self, lang: Lang) -> String {
        match self {
            Where::Board { table, board } => bi!(
                lang,
                zh("第{table}场第{board}台"),
                en("match {table} board {board}")
            ),
            Where::Argument(n) => bi!(
                lang,
                zh("第 {n} 个参数（请先写场次）"),
                en("argument {n} (give the match number first)")
            ),
            Where::Line(n) => bi!(lang, zh("第 {n} 行"), en("line {n}")),
        }
    }
}

impl Localize for TeamError {
    fn localize(&self, lang: Lang) -> String {
        use TeamError as E;
        match self {
            E::NotATeamEvent => bi!(
                lang,
                zh("这不是团体赛：规程没有 [team_competition] 段"),
                en("this is not a team competition: the rulebook has no [team_competition]")
            ),
            E::Pairing(e) => e.localize(lang),
            E::RoundIncomplete { round, matches } => {
                let list = matches
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ");
                bi!(
                    lang,
                    zh("第 {round} 轮尚未赛完：第 {list} 场仍有台次没有成绩（或须加赛）"),
                    en(
                        "round {round} is not complete: match {list} still has boards without a result (or tiebreak games to play)"
                    )
                )
            }
            E::AllRoundsPlayed { rounds } => bi!(
                lang,
                zh("{rounds} 轮均已编排"),
                en("all {rounds} rounds are paired")
            ),
            E::TooFewTeams { teams } => bi!(
                lang,
                zh("只报名了 {teams} 个队；团体赛至少需要 2 个队"),
                en("{teams} team(s) registered; a team competition needs at least 2")
            ),
            E::ShortLineup {
                team,
                players,
                boards,
            } => bi!(
                lang,
                zh(
                    "`{team}` 队只有 {players} 名棋手可以上场，不足 {boards} 台；请恢复棋手或登记替补"
                ),
                en(
                    "team `{team}` has {players} players able to play, fewer than its {boards} boards; reinstate a player or register a reserve"
                )
            ),
            E::NoRound { round } => bi!(
                lang,
                zh("第 {round} 轮尚未编排"),
                en("round {round} is not paired")
            ),
            E::RoundOutsideSchedule { round, limit } => {
                let reason = limit.reason(*round, lang);
                bi!(
                    lang,
                    zh("没有第 {round} 轮：{reason}"),
                    en("there is no round {round}: {reason}")
                )
            }
            E::NoMatch { round, table } => bi!(
                lang,
                zh("第 {round} 轮没有第 {table} 场"),
                en("round {round} has no match {table}")
            ),
            E::BoardCount {
                table,
                given,
                boards,
            } => bi!(
                lang,
                zh(
                    "第{table}场：给了 {given} 个成绩，而该场有 {boards} 台；请按台次从第 1 台起每台写一个成绩"
                ),
                en(
                    "match {table}: {given} result(s) for a match of {boards} boards; give one result per board, board 1 first"
                )
            ),
            E::BadToken { at, token } => {
                let at = at.words(lang);
                bi!(
                    lang,
                    zh("{at}：`{token}` 不是成绩；请用 红胜、和、黑胜、红弃权、黑弃权、双负"),
                    en(
                        "{at}: `{token}` is not a result; use 红胜, 和, 黑胜, 红弃权, 黑弃权, 双负 (1-0, =, 0-1, -+, +-, --)"
                    )
                )
            }
            E::BoardRule { why } => why.get(lang).to_string(),
            E::NoMatchForTeam { team, round } => bi!(
                lang,
                zh("`{team}` 队第 {round} 轮没有比赛（轮空）"),
                en("team `{team}` has no match in round {round} (it has the bye)")
            ),
            E::NoTiebreak { table } => bi!(
                lang,
                zh(
                    "第 {table} 场无须加赛：比分不平，或规程不设加赛（[team_competition.tiebreak_games]）"
                ),
                en(
                    "match {table} needs no tiebreak games: it is not level, or the rulebook plays none ([team_competition.tiebreak_games])"
                )
            ),
            E::TiebreakDecided { table, board } => bi!(
                lang,
                zh(
                    "第 {table} 场的加赛在第 {board} 台已分出胜负，之后的加赛不再进行：只写到第 {board} 台为止"
                ),
                en(
                    "match {table}'s tiebreak games were decided on board {board}: no later tiebreak game is played, give them up to board {board} only"
                )
            ),
            E::UnknownTeam { name } => bi!(
                lang,
                zh("本次团体赛没有 `{name}` 队"),
                en("no team `{name}` in this competition")
            ),
            E::NotInTeam { player, team } => bi!(
                lang,
                zh("`{player}` 不是 `{team}` 队报名的棋手；出场名单只能用本队报名的队员和替补"),
                en(
                    "`{player}` is not a registered player of team `{team}`; a line-up takes only the team's registered players and reserves"
                )
            ),
            E::NotInLineup { player } => bi!(
                lang,
                zh("`{player}`：换人须换下出场名单中的队员、换上名单外的队员"),
                en(
                    "`{player}`: a change takes out a player of the line-up and brings in one who is not in it"
                )
            ),
            E::NothingToUnpair => bi!(
                lang,
                zh("还没有可撤销的轮次"),
                en("there is no round to drop")
            ),
            E::RoundHasResults { round, table } => bi!(
                lang,
                zh(
                    "第 {round} 轮第 {table} 场已有成绩：请用 `qiwang result` 更正，或用 `qiwang undo` 逐步撤销"
                ),
                en(
                    "match {table} of round {round} already has results: correct them with `qiwang result`, or `qiwang undo` step by step"
                )
            ),
            E::MatchHasResults { table } => bi!(
                lang,
                zh("第 {table} 场已有成绩，出场名单不能再改"),
                en("match {table} already has results; its line-up can no longer change")
            ),
            E::FileMismatch { line, what } => bi!(
                lang,
                zh("第 {line} 行：{what} 与本轮对阵不符；未登记任何成绩"),
                en("line {line}: {what} does not match the round's pairing; nothing was recorded")
            ),
            E::MissingColumn { column } => bi!(
                lang,
                zh("成绩文件没有 `{column}` 列"),
                en("the results file has no `{column}` column")
            ),
            E::TeamNotWithdrawn { team } => bi!(
                lang,
                zh("`{team}` 队没有退赛，无需恢复"),
                en("team `{team}` is not withdrawn; there is nothing to reinstate")
            ),
            E::TooFewWomen {
                team,
                round,
                women,
                min,
            } => bi!(
                lang,
                zh(
                    "换人后 `{team}` 队第 {round} 轮的出场名单只有 {women} 名女棋手，规程要求每场至少 {min} 名"
                ),
                en(
                    "after the change team `{team}` fields {women} women in round {round}; the rulebook asks for at least {min} in every match"
                )
            ),
            E::TeamMatchOpen { team, round, table } => bi!(
                lang,
                zh(
                    "`{team}` 队第 {round} 轮第 {table} 场尚无成绩；请先登记该场成绩（全队弃权可写 先走队弃权/后走队弃权），或撤销该轮编排，再退赛"
                ),
                en(
                    "team `{team}` has no result yet in match {table} of round {round}; record it first (a whole team absent: first-absent/second-absent), or unpair the round, then withdraw"
                )
            ),
            E::TeamEventOver { team, rounds } => bi!(
                lang,
                zh("全部 {rounds} 轮均已编排，`{team}` 队已无可退之轮"),
                en(
                    "all {rounds} rounds are paired: there is no round left to withdraw team `{team}` from"
                )
            ),
            E::TeamAlreadyWithdrawn { team, from_round } => bi!(
                lang,
                zh("`{team}` 队已于第 {from_round} 轮起退赛"),
                en("team `{team}` is already withdrawn from round {from_round}")
            ),
        }
    }
}

display_english!(TeamError);
impl std::error::Error for TeamError {}

impl From<PairingError> for TeamError {
    fn from(e: PairingError) -> Self {
        match e {
            PairingError::RoundIncomplete { round, missing, .. } => TeamError::RoundIncomplete {
                round,
                matches: missing,
            },
            PairingError::AllRoundsPlayed { rounds, .. } => TeamError::AllRoundsPlayed { rounds },
            e => TeamError::Pairing(e),
        }
    }
}
