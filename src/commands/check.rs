//! `check` ([`check_pools`]: every stored round of each pool against the hard rules) and
//! `check --optimal` ([`prove_pools`]: every stored round, or one, re-solved and compared
//! with the engine's optimum), each one call over the pools the command names; in a team
//! competition both are one call on the team pool ([`check_team`]). The checks
//! themselves are `pairing::check_group_detailed`, `pairing::prove_round` and
//! `pairing::check_round`; here they are gathered per pool and round for the report.

use crate::i18n::{Localize, Text, bi, display_english, number_ranges};
use crate::model::{Event, GroupId, PlayerId, Relax, TeamId};
use crate::pairing::{self, Checked, PairingError, Verdict};
use crate::registration::team_sheet::teams_in;
use crate::registration::{PoolNow, pool_now};
use crate::rulebook::{Lang, Rulebook};
use crate::schedule::RoundLimit;
use crate::teams::{self, TeamError};

/// What `check` found in one pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolCheck {
    /// The pool.
    pub pool: GroupId,
    /// The pool as the rulebook names it.
    pub name: String,
    /// How many rounds it has stored.
    pub rounds: usize,
    /// Its violations, and the relaxations recorded when no legal pairing existed
    /// (accepted, docs/rules.md §2.5).
    pub checked: Checked,
    /// How to end a table number it shares with another pool ([`shared_table_hint`]).
    pub table_hint: Option<Text>,
    /// Who a corrected Swiss result moved across the line of its final stage under way
    /// (docs/rules.md §16.6; the finalists stay).
    pub drift: Option<crate::standings::QualificationDrift>,
}

/// `qiwang check`: every stored round of each of `pools` against the hard rules, in the
/// order given.
pub fn check_pools(event: &Event, rules: &Rulebook, pools: &[GroupId]) -> Vec<PoolCheck> {
    pools
        .iter()
        .map(|pool| {
            let checked = pairing::check_group_detailed(event, rules, pool);
            PoolCheck {
                pool: pool.clone(),
                name: rules.group_name(pool),
                rounds: event.group(pool).map_or(0, |g| g.rounds.len()),
                table_hint: shared_table_hint(event, pool, &checked.violations),
                drift: crate::standings::qualification_drift(event, rules, pool),
                checked,
            }
        })
        .collect()
}

/// How many hard-rule breaks `checks` found, for `check`'s verdict. A number two pools of a
/// hall hold in one round (docs/rules.md §12 (table numbers)) is listed in each pool's
/// check but is one break: it is counted once per hall, round and table.
pub fn violations_found(rules: &Rulebook, checks: &[PoolCheck]) -> usize {
    let mut shared = std::collections::BTreeSet::new();
    checks
        .iter()
        .flat_map(|c| c.checked.violations.iter().map(move |v| (&c.pool, v)))
        .filter(|(pool, v)| match v.rule {
            pairing::Rule::SharedTable { table, .. } => {
                shared.insert((rules.hall_of(pool), v.round, table))
            }
            _ => true,
        })
        .count()
}

/// One stored round as `check --optimal` found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundProof {
    /// The pool.
    pub pool: GroupId,
    /// The pool as the rulebook names it.
    pub name: String,
    /// The round's number.
    pub round: u32,
    /// What re-solving the round found.
    pub verdict: Verdict,
    /// Hard-rule breaks not recorded as relaxations (a hand edit with `--force`): the
    /// criteria count a relaxed rule's breaks, not which tables they are at, so a forced
    /// edit that trades one break for another can be as good on them.
    pub unrecorded: usize,
    /// The `pair --relax` list the round was paired with: it is compared under the same
    /// relaxed rules.
    pub relax_given: Option<Vec<Relax>>,
    /// The earlier rounds whose results were corrected after this round was paired: it
    /// is compared with the results as they stood when it was paired (docs/rules.md §2.6).
    pub corrected_since: Vec<u32>,
}

impl RoundProof {
    /// Whether the round fails the check: not optimal, colours not by the rules, not
    /// comparable, or with hard-rule breaks not recorded.
    pub fn fails(&self) -> bool {
        self.verdict.fails() || self.unrecorded > 0
    }

    /// Whether the round is optimal with nothing left unrecorded.
    pub fn optimal(&self) -> bool {
        matches!(self.verdict, Verdict::Optimal) && self.unrecorded == 0
    }
}

/// Why `check --optimal` proved nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    /// `--round` names no round of a pool.
    #[error(transparent)]
    NoSuchRound(NoSuchRound),
    /// A round could not be re-solved.
    #[error(transparent)]
    Pairing(#[from] PairingError),
}

impl Localize for ProofError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            ProofError::NoSuchRound(e) => e.localize(lang),
            ProofError::Pairing(e) => e.localize(lang),
        }
    }
}

/// `--round n` names no round of the pool `group`, whose rounds are `rounds`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoSuchRound {
    /// The pool as the rulebook names it.
    pub group: String,
    /// The round asked for.
    pub round: u32,
    /// The rounds the pool has, in order.
    pub rounds: Vec<u32>,
    /// The rounds the rulebook schedules for the pool, when the round lies outside them
    /// (round 0, or past the last): the message names them instead.
    pub outside: Option<RoundLimit>,
}

display_english!(NoSuchRound);

impl std::error::Error for NoSuchRound {}

impl Localize for NoSuchRound {
    fn localize(&self, lang: Lang) -> String {
        let (name, n) = (&self.group, self.round);
        if let Some(limit) = self.outside {
            let reason = limit.reason(n, lang);
            return bi!(
                lang,
                zh("组别 `{name}` 没有第 `{n}` 轮：{reason}"),
                en("group `{name}` has no round `{n}`: {reason}")
            );
        }
        let rounds = if self.rounds.is_empty() {
            lang.pick("尚无", "none yet").to_string()
        } else {
            number_ranges(&self.rounds, lang)
        };
        bi!(
            lang,
            zh("组别 `{name}` 没有第 `{n}` 轮；已编排的轮次：{rounds}"),
            en("group `{name}` has no round `{n}`; rounds paired: {rounds}")
        )
    }
}

/// `qiwang check --optimal`: re-solves every stored round (or round `round`) of each of
/// `pools` with the dense reference solver (the priced one for large pools,
/// `pairing::prove_round`), pool by pool in the order given, rounds in order. A pool
/// without round `round` ends the check with [`NoSuchRound`].
pub fn prove_pools(
    event: &Event,
    rules: &Rulebook,
    pools: &[GroupId],
    round: Option<u32>,
) -> Result<Vec<RoundProof>, ProofError> {
    let mut proofs = Vec::new();
    for pool in pools {
        let name = rules.group_name(pool);
        let mut numbers: Vec<u32> = event
            .group(pool)
            .map(|g| g.rounds.iter().map(|r| r.number).collect())
            .unwrap_or_default();
        numbers.sort_unstable();
        if let Some(n) = round {
            if !numbers.contains(&n) {
                return Err(ProofError::NoSuchRound(NoSuchRound {
                    group: name,
                    round: n,
                    rounds: numbers,
                    outside: RoundLimit::of(event, rules, pool).filter(|l| l.excludes(n)),
                }));
            }
            numbers = vec![n];
        }
        for n in numbers {
            let verdict = pairing::prove_round(event, rules, pool, n)?;
            let stored = event
                .group(pool)
                .and_then(|g| g.rounds.iter().find(|r| r.number == n));
            proofs.push(RoundProof {
                pool: pool.clone(),
                name: name.clone(),
                round: n,
                verdict,
                unrecorded: stored.map_or(0, |r| pairing::check_round(event, rules, pool, r).len()),
                relax_given: event
                    .group(pool)
                    .and_then(|g| g.relax_given(n))
                    .map(<[Relax]>::to_vec),
                corrected_since: pairing::corrected_since(event, pool, n),
            });
        }
    }
    Ok(proofs)
}

/// What `check` (and `check --optimal`) found in a team competition's pool: the engine's
/// checker on the teams, every board's colours against the team with 先, every stored
/// line-up against `min_women` and the board rules, and the rounds proven.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamPoolCheck {
    /// The pool's teams by id, their names, to name the teams the findings are about.
    pub names: Vec<(TeamId, String)>,
    /// Hard-rule breaks of the pairings of teams.
    pub violations: Vec<pairing::Violation>,
    /// Boards (round-match-board) that seat a player of the wrong team for its colour.
    pub boards: Vec<String>,
    /// Line-up problems: the round, the team and why.
    pub lineups: Vec<(u32, String, Text)>,
    /// With `--optimal`: each stored round proven (or `round` only) and its verdict.
    pub proofs: Vec<(u32, Verdict)>,
}

impl TeamPoolCheck {
    /// The name of the team the pairing engine knows as `player` (a team stands in for a
    /// player on the teams' shadow event).
    pub fn team_name(&self, player: PlayerId) -> String {
        let t = teams::as_team(player);
        self.names
            .iter()
            .find(|(id, _)| *id == t)
            .map_or_else(|| t.to_string(), |(_, n)| n.clone())
    }

    /// Rounds `--optimal` found not optimal, with colours not by the rules, or not
    /// comparable.
    pub fn rounds_failed(&self) -> usize {
        self.proofs.iter().filter(|(_, v)| v.fails()).count()
    }
}

/// `qiwang check` in a team competition: every stored round of team pool `pool` against
/// the hard rules, its boards' colours and its line-ups (`teams::check_team_pool`,
/// `teams::pool_lineup_problems`) and, when `optimal`, every stored round (or `round`
/// only, refused when it is not stored) re-solved and compared with the engine's optimum
/// (`teams::prove_team_round`).
pub fn check_team(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    optimal: bool,
    round: Option<u32>,
) -> Result<TeamPoolCheck, TeamError> {
    let names = teams_in(&event.players, pool)
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect();
    let (violations, boards) = teams::check_team_pool(event, rules, pool)?;
    let lineups = teams::pool_lineup_problems(event, rules, pool);
    let mut proofs = Vec::new();
    if optimal {
        let rounds: Vec<u32> = event
            .team_pools
            .get(pool)
            .map(|s| s.rounds.iter().map(|r| r.number).collect())
            .unwrap_or_default();
        // A round asked for that is not there is refused, not proven as nothing.
        if let Some(n) = round
            && !rounds.contains(&n)
        {
            return Err(teams::missing_round(event, rules, pool, n));
        }
        for r in rounds.into_iter().filter(|r| round.is_none_or(|x| x == *r)) {
            proofs.push((r, teams::prove_team_round(event, rules, pool, r)?));
        }
    }
    Ok(TeamPoolCheck {
        names,
        violations,
        boards,
        lineups,
        proofs,
    })
}

/// Why a group `check --group` names is not the pool checked, or `None` when it pairs on
/// its own: a merged group pairs in the pool at the end of its merges, which is checked;
/// a cancelled one is checked for the players left in it (docs/rules.md §6).
pub fn named_group_note(event: &Event, rules: &Rulebook, name: &str) -> Option<Text> {
    let own = rules.pool_of(rules.find_group(name)?);
    match pool_now(event, own) {
        PoolNow::Pairs(now) if &now == own => None,
        PoolNow::Pairs(now) => {
            let (own, now) = (rules.group_name(own), rules.group_name(&now));
            Some(Text::new(
                format!("{own}已并入{now}，在{now}中编排：检查的是{now}"),
                format!("{own} was merged into {now} and pairs there: checking {now}"),
            ))
        }
        PoolNow::Cancelled(gone) => {
            let gone = rules.group_name(&gone);
            Some(Text::new(
                format!("{gone}已取消，不再编排：只列出其中未退赛的棋手"),
                format!(
                    "{gone} was cancelled and is not paired: only its players not withdrawn are listed"
                ),
            ))
        }
    }
}

/// How to end a table number `pool` shares with another pool of its hall (docs/rules.md
/// §12, table numbers), given the `violations` check found: its newest round without a
/// result is numbered again by pairing it again; a round with results keeps its numbers,
/// and a result typed by table number then needs `--group`. `None` when no number is
/// shared.
pub fn shared_table_hint(
    event: &Event,
    pool: &GroupId,
    violations: &[pairing::Violation],
) -> Option<Text> {
    let round = violations
        .iter()
        .filter(|v| matches!(v.rule, pairing::Rule::SharedTable { .. }))
        .map(|v| v.round)
        .max()?;
    let newest = event.group(pool).and_then(|g| g.last_round())?;
    let group = crate::sanitize::shell_option("--group", pool.as_str());
    Some(if newest.number == round && !newest.has_results() {
        Text::new(
            format!(
                "提示：第 {round} 轮尚无成绩，`qiwang unpair {group}` 再 `qiwang pair {group}` 会避开其他组别的台号重新编号"
            ),
            format!(
                "hint: round {round} has no result yet: `qiwang unpair {group}` then `qiwang pair {group}` numbers it again clear of the other groups' tables"
            ),
        )
    } else {
        Text::new(
            format!("提示：已有成绩的轮次保留原台号；按台号录入或更正成绩时请加 `{group}`"),
            format!(
                "hint: a round with results keeps its numbers; give `{group}` when entering or correcting a result by table number"
            ),
        )
    })
}

/// A player whose stored name or unit holds an ID or phone number
/// ([`crate::privacy::personal_number_in`]): the import and `player add/edit` refuse one
/// in a name and mask one in a unit, but a state written by an older qiwang or edited by
/// hand may keep it. Every output prints it masked ([`crate::views::mask_names_and_units`]);
/// `check` names the player and the command that corrects it, never the number itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonalNumber {
    /// The player.
    pub player: PlayerId,
    /// The pool the player is paired in.
    pub pool: GroupId,
    /// Whether the number is in the unit (else in the name).
    pub in_unit: bool,
    /// The player's name as the outputs print it.
    pub name: String,
    /// The unit as the outputs print it (the number masked), when the number is in it.
    pub unit: String,
    /// Whether the name and the unit both hold one: `player edit` checks the whole player,
    /// so one command must correct both (each alone is refused for the other).
    pub both: bool,
}

/// Every player of `pools` (every player for `None`) whose stored name or unit holds an
/// ID or phone number, in registration order, the name before the unit.
pub fn personal_numbers(event: &Event, pools: Option<&[GroupId]>) -> Vec<PersonalNumber> {
    let mut found = Vec::new();
    for p in event
        .players
        .iter()
        .filter(|p| pools.is_none_or(|pools| pools.contains(&p.group)))
    {
        let name = crate::privacy::personal_number_in(&p.name);
        let unit = crate::privacy::personal_number_in(&p.unit);
        let shown_name = name.clone().unwrap_or_else(|| p.name.clone());
        let both = name.is_some() && unit.is_some();
        let mut push = |in_unit: bool, unit: String| {
            found.push(PersonalNumber {
                player: p.id,
                pool: p.group.clone(),
                in_unit,
                name: shown_name.clone(),
                unit,
                both,
            });
        };
        if name.is_some() {
            push(false, String::new());
        }
        if let Some(unit) = unit {
            push(true, unit);
        }
    }
    found
}

impl Localize for PersonalNumber {
    fn localize(&self, lang: Lang) -> String {
        let (id, name, unit) = (self.player, &self.name, &self.unit);
        let fields = match (self.both, self.in_unit) {
            (true, _) => "--name NAME --unit UNIT",
            (false, true) => "--unit UNIT",
            (false, false) => "--name NAME",
        };
        if self.in_unit {
            bi!(
                lang,
                zh(
                    "{name}（报名编号 {id}）的单位“{unit}”含有身份证号或电话号码（各输出中已打码）：请用 `qiwang player edit {id} {fields}` 改正"
                ),
                en(
                    "the unit \"{unit}\" of {name} (id {id}) holds an ID or phone number (masked in every output): correct it with `qiwang player edit {id} {fields}`"
                )
            )
        } else {
            bi!(
                lang,
                zh(
                    "报名编号 {id} 的姓名“{name}”含有身份证号或电话号码（各输出中已打码）：请用 `qiwang player edit {id} {fields}` 改正"
                ),
                en(
                    "the name \"{name}\" of player {id} holds an ID or phone number (masked in every output): correct it with `qiwang player edit {id} {fields}`"
                )
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::facts::assert_localized;

    /// A name and a unit holding a personal number are each named, masked, in both
    /// languages; a unit the import masked, or a short number, is not.
    #[test]
    fn a_stored_personal_number_is_named_masked_in_both_languages() {
        let rules = Rulebook::cxa_2011("t", 5);
        let pool = rules.groups[0].id.clone();
        let mut event = Event::new(String::new());
        for (id, name, unit) in [
            (1, "张三110101199003071234", "甲队13800138000"),
            (2, "李四", "乙队（联系137****7000）"),
            (3, "王五", "解放军61001部队"),
        ] {
            let mut p = crate::model::Player::new(PlayerId(id), name, pool.clone());
            p.unit = unit.into();
            event.players.push(p);
        }
        let found = personal_numbers(&event, None);
        let said: Vec<_> = found.iter().map(|f| (f.player.0, f.in_unit)).collect();
        assert_eq!(said, [(1, false), (1, true)]);
        for f in &found {
            assert_localized(f);
            for lang in [Lang::Zh, Lang::En] {
                let text = f.localize(lang);
                assert!(!text.contains("13800138000"), "{text}");
                assert!(!text.contains("1990030"), "{text}");
                assert!(text.contains("张三110101********1234"), "{text}");
            }
        }
        assert!(personal_numbers(&event, Some(&[GroupId::new("other")])).is_empty());
    }

    #[test]
    fn a_round_not_found_names_the_rounds_there_are_in_both_languages() {
        for rounds in [vec![], vec![1, 2, 3, 5]] {
            assert_localized(&NoSuchRound {
                group: "youth".into(),
                round: 7,
                rounds,
                outside: None,
            });
        }
        assert_localized(&NoSuchRound {
            group: "youth".into(),
            round: 12,
            rounds: vec![1, 2],
            outside: Some(RoundLimit {
                rounds: 7,
                event_wide: false,
            }),
        });
    }
}
