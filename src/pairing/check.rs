//! `check`: verifies rounds against the hard rules and lists every violation.
//!
//! Owns the rule-by-rule audit of a stored or hand-edited round: no rematch (docs/rules.md
//! §2.3), nobody twice, nobody withdrawn or not yet joined, no active player left out,
//! one bye at most and a second bye only when nobody else could take it (§4.2, as
//! `pairing.bye` orders them), colour limits (§3.2, with the final-round relaxation), team
//! avoidance (§4.1), table numbers unique in the pool and, for `check`, in the round of
//! its hall (§12, one hall numbering). Each round is judged by the rulebook it was
//! paired under (docs/rules.md §13): a rule `rules update` changed applies from the next
//! round on. It never changes a round.

use super::context::{History, PlayerState, Rules};
use super::engine::{self, Field};
use super::vocabulary::Vocabulary;
use crate::i18n::{Localize, bi, display_english};
use crate::model::colour_label;
use crate::model::{Colour, Event, GroupId, Pairing, PlayerId, Relax, Round};
use crate::rulebook::{ByeChoice, Lang, Rulebook};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// The hard rule a round breaks.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "rule")]
pub enum Rule {
    /// The two players already met (no rematch, §2.3).
    Rematch,
    /// A player appears more than once in the round.
    Twice,
    /// The player is not registered in this group.
    NotInGroup,
    /// Paired while withdrawn or before their first round.
    NotPairable,
    /// An active player has no table and no bye.
    Missing,
    /// More byes than an odd field needs.
    ExtraBye {
        /// How many byes the round gives (more than one, or one in an even field).
        byes: u32,
    },
    /// A second bye although a player with fewer byes could have taken it (§4.2).
    SecondBye {
        /// The byes the player already had before this round (this one is number
        /// `byes + 1`).
        byes: u32,
    },
    /// A run of `run` games with one colour (§3.2 连三).
    ColourStreak {
        /// The colour repeated.
        colour: Colour,
        /// The length of the run with this round's game, above `colours.max_streak`.
        run: u32,
    },
    /// Reds − blacks reaching `diff` (§3.2 多三).
    ColourDiff {
        /// Reds − blacks after this round's game, beyond ±`colours.max_diff`.
        diff: i32,
    },
    /// Team-mates paired while team avoidance is on (§4.1).
    Team {
        /// The unit (单位) both players registered with.
        team: String,
    },
    /// Two games share a table number.
    DuplicateTable {
        /// The table number used more than once.
        table: u32,
    },
    /// A table number another pool of the hall holds in its round of the same number
    /// (docs/rules.md §12 (table numbers): one hall numbering, no number twice in a round).
    SharedTable {
        /// The number held twice.
        table: u32,
        /// The other pool, as the rulebook names it.
        group: String,
    },
    /// A round-robin round whose game or bye is not the Berger table's (docs/rules.md
    /// §14): the players of the stored table, red first.
    OffTable {
        /// The round of the table (counted over every cycle).
        table_round: u32,
    },
    /// A knockout game that is not the game its match was due (docs/rules.md §16): a
    /// game of a decided match, a tiebreak game while the match was not level, or
    /// players the bracket does not pair.
    NotDue {
        /// The table.
        table: u32,
    },
}

/// One broken rule in one round (serialisable: the audit log keeps a forced edit's
/// violations as data).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Violation {
    /// The round that breaks the rule, checked against the rounds before it.
    pub round: u32,
    /// Who breaks it: both players of a table (rematch, team-mates), the one player over
    /// a limit or out of place, every bye player for an extra bye, nobody for a table
    /// number used twice.
    pub players: Vec<PlayerId>,
    /// The hard rule broken.
    pub rule: Rule,
}

impl Violation {
    /// The violation in `lang`, naming players with `name` (the CLI passes 张三(12), name
    /// and pairing number; `Display` and [`Localize`] pass the registration id).
    pub fn text(&self, lang: Lang, name: &dyn Fn(PlayerId) -> String) -> String {
        self.text_in(lang, name, Vocabulary::Players)
    }

    /// [`Violation::text`] in `v`'s words: a team round's breaks name teams, matches and
    /// moving first (docs/rules.md §17.2).
    pub fn text_in(&self, lang: Lang, name: &dyn Fn(PlayerId) -> String, v: Vocabulary) -> String {
        let who = self
            .players
            .iter()
            .map(|p| format!("`{}`", name(*p)))
            .collect::<Vec<_>>()
            .join(lang.pick(" 与 ", " and "));
        let r = self.round;
        let teams = v == Vocabulary::Teams;
        // 棋手 / 队, player(s) / team(s).
        let (one, many) = match teams {
            false => (lang.pick("棋手", "player"), lang.pick("棋手", "players")),
            true => (lang.pick("队", "team"), lang.pick("队", "teams")),
        };
        match &self.rule {
            Rule::Rematch => bi!(
                lang,
                zh("第 {r} 轮：{many} {who} 已交过手（不可重复对局）"),
                en("round {r}: {many} {who} have already met (no rematch)"),
            ),
            Rule::Twice => bi!(
                lang,
                zh("第 {r} 轮：{one} {who} 出现了不止一次"),
                en("round {r}: {one} {who} appears more than once"),
            ),
            Rule::NotInGroup => bi!(
                lang,
                zh("第 {r} 轮：{one} {who} 不在本组"),
                en("round {r}: {one} {who} is not in this group"),
            ),
            Rule::NotPairable => bi!(
                lang,
                zh("第 {r} 轮：{one} {who} 已退赛或尚未加入，却被编排"),
                en("round {r}: {one} {who} is paired but has withdrawn or not yet joined"),
            ),
            Rule::Missing => {
                let seat = match teams {
                    false => lang.pick("台次", "table"),
                    true => lang.pick("场次", "match"),
                };
                bi!(
                    lang,
                    zh("第 {r} 轮：在赛{one} {who} 既没有{seat}也没有轮空"),
                    en("round {r}: active {one} {who} has no {seat} and no bye"),
                )
            }
            Rule::ExtraBye { byes } => {
                let field = v.field_zh();
                bi!(
                    lang,
                    zh("第 {r} 轮：有 {byes} 个轮空，但最多只能有一个（且只在{field}为奇数时）"),
                    en(
                        "round {r}: {byes} byes, but at most one (and only in an odd field) is allowed"
                    ),
                )
            }
            Rule::SecondBye { byes } => bi!(
                lang,
                zh(
                    "第 {r} 轮：{one} {who} 第 {} 次轮空，而有轮空更少的{one}可以轮空",
                    byes + 1
                ),
                en(
                    "round {r}: {one} {who} gets bye number {} although a {one} with fewer byes could take it",
                    byes + 1
                ),
            ),
            Rule::ColourStreak { colour, run } => {
                let side = match (teams, colour) {
                    (false, _) => format!(
                        "{}{}",
                        lang.pick("执", "play "),
                        colour_label(*colour, lang)
                    ),
                    (true, Colour::Red) => v.had_red(lang).to_string(),
                    (true, Colour::Black) => v.had_black(lang).to_string(),
                };
                let verb = if teams { "move " } else { "" };
                bi!(
                    lang,
                    zh("第 {r} 轮：{one} {who} 将连续 {run} 次{side}（超出限制）"),
                    en(
                        "round {r}: {one} {who} would {verb}{side} {run} times in a row (limit exceeded)"
                    ),
                )
            }
            Rule::ColourDiff { diff } => {
                let (first, second) = (v.first_zh(), v.second_zh());
                let diffs = if teams {
                    "matches moving first minus second"
                } else {
                    "reds minus blacks"
                };
                bi!(
                    lang,
                    zh("第 {r} 轮：{one} {who} 的{first}减{second}将达到 `{diff}`（超出限制）"),
                    en("round {r}: {one} {who} would reach {diffs} of `{diff}` (limit exceeded)"),
                )
            }
            Rule::Team { team } => bi!(
                lang,
                zh("第 {r} 轮：棋手 {who} 同属 `{team}` 队，而同队回避已开启"),
                en("round {r}: players {who} are both from team `{team}` and team avoidance is on"),
            ),
            Rule::DuplicateTable { table } => bi!(
                lang,
                zh("第 {r} 轮：台号 `{table}` 被多局使用"),
                en("round {r}: table `{table}` is used by more than one game"),
            ),
            Rule::SharedTable { table, group } => bi!(
                lang,
                zh(
                    "第 {r} 轮：第 {table} 台（{who}）也是 `{group}` 本轮的台号；同一赛场一轮中台号不能重复"
                ),
                en(
                    "round {r}: table {table} ({who}) is also a table of `{group}` in this round; no number may be given twice in a round of one hall"
                ),
            ),
            Rule::NotDue { table } => bi!(
                lang,
                zh(
                    "第 {r} 轮第 {table} 台：{who} 不是该场淘汰赛应进行的对局（该场已决出胜负，或未战平却进行了加赛）"
                ),
                en(
                    "round {r} table {table}: {who} is not the game the knockout match was due (the match was decided, or not level for a tiebreak game)"
                ),
            ),
            Rule::OffTable { table_round } => bi!(
                lang,
                zh(
                    "第 {r} 轮：{who} 不是贝格尔表第 {table_round} 轮的对局（或轮空，红方在前）；循环赛必须按表编排"
                ),
                en(
                    "round {r}: {who} is not a game (or bye) of round {table_round} of the Berger table, red first; a round robin's rounds are the table's"
                ),
            ),
        }
    }
}

display_english!(Violation);

impl Localize for Violation {
    fn localize(&self, lang: Lang) -> String {
        self.text(lang, &|p| p.to_string())
    }
}

/// What `check` found in a group: real violations, and the breaks the engine made and
/// recorded because no pairing met every hard rule (docs/rules.md §2.5).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Checked {
    /// Breaks no stored relaxation covers: made by hand (`pairing set --force`) or by an
    /// edit of the state; `check` exits non-zero while there are any.
    pub violations: Vec<Violation>,
    /// Breaks covered by a relaxation stored with the round: accepted, not violations.
    pub accepted: Vec<Violation>,
}

/// Checks every round of a group, each against the rounds before it.
pub fn check_group(event: &Event, rules: &Rulebook, group: &GroupId) -> Vec<Violation> {
    check_group_detailed(event, rules, group).violations
}

/// [`check_group`], with the accepted relaxations listed apart.
pub fn check_group_detailed(event: &Event, rules: &Rulebook, group: &GroupId) -> Checked {
    let mut out = Checked::default();
    let Some(state) = event.group(group) else {
        return out;
    };
    let mut rounds: Vec<&Round> = state.rounds.iter().collect();
    rounds.sort_by_key(|r| r.number);
    for r in rounds {
        let (accepted, violations): (Vec<_>, Vec<_>) = check_round_all(event, rules, group, r)
            .into_iter()
            .partition(|v| accepted(event, group, v));
        out.violations.extend(violations);
        out.violations.extend(shared_tables(event, rules, group, r));
        out.accepted.extend(accepted);
    }
    out
}

/// The table numbers of round `round` of `group` that another pool of its hall holds in
/// the same round (docs/rules.md §12 (table numbers)), each naming this pool's players at
/// it. Not part of [`check_round`]: a hand edit refuses such a number whatever `force`
/// says (`pairing::edit_round`), so it is never a break to accept.
fn shared_tables(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    round: &Round,
) -> Vec<Violation> {
    super::hall::clashes(event, rules, group, round)
        .into_iter()
        .map(|c| Violation {
            round: round.number,
            players: round
                .game_at(c.table)
                .map(Pairing::players)
                .into_iter()
                .flatten()
                .collect(),
            rule: Rule::SharedTable {
                table: c.table,
                group: rules.group_name(&c.pool),
            },
        })
        .collect()
}

/// The relaxable rule a violation breaks, if any.
fn relaxable(v: &Violation) -> Option<Relax> {
    match v.rule {
        Rule::Rematch => Some(Relax::Rematch),
        Rule::Team { .. } => Some(Relax::Team),
        Rule::ColourStreak { .. } | Rule::ColourDiff { .. } => Some(Relax::Colour),
        _ => None,
    }
}

/// Whether `v` is a break the engine recorded as a relaxation of its round.
fn accepted(event: &Event, group: &GroupId, v: &Violation) -> bool {
    let Some(rule) = relaxable(v) else {
        return false;
    };
    event.group(group).is_some_and(|g| {
        g.relaxed
            .iter()
            .any(|r| r.covers(v.round, rule, &v.players))
    })
}

/// After a hand edit of round `number`: drops its recorded relaxations that no break of
/// the edited round uses any more, so the sheet never names a table that is gone. A new
/// break the edit makes is never recorded: `check` reports it as a violation.
pub fn prune_relaxations(event: &mut Event, rules: &Rulebook, group: &GroupId, number: u32) {
    let Some(round) = event.group(group).and_then(|g| g.round(number)).cloned() else {
        return;
    };
    let breaks = check_round_all(event, rules, group, &round);
    let used = |r: &crate::model::Relaxation| {
        r.round != number
            || breaks
                .iter()
                .any(|v| relaxable(v).is_some_and(|rule| r.covers(v.round, rule, &v.players)))
    };
    let keep: Vec<bool> = event
        .group(group)
        .map(|g| g.relaxed.iter().map(used).collect())
        .unwrap_or_default();
    let mut k = keep.into_iter();
    event
        .group_mut(group)
        .relaxed
        .retain(|_| k.next().unwrap_or(true));
}

/// Checks one round (stored or proposed) against the rounds numbered before it. Breaks
/// recorded as relaxations of that round (docs/rules.md §2.5) are not violations.
pub fn check_round(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    round: &Round,
) -> Vec<Violation> {
    check_round_all(event, rules, group, round)
        .into_iter()
        .filter(|v| !accepted(event, group, v))
        .collect()
}

/// The rulebook round `number` of `group` was paired under (docs/rules.md §13): the one
/// `rules update` has replaced since, if it has, else `current`.
pub fn rules_in_force<'a>(
    event: &Event,
    current: &'a Rulebook,
    group: &GroupId,
    number: u32,
) -> Cow<'a, Rulebook> {
    // Every kept rulebook is validated when the event is loaded (its text is one the
    // event ran under), so one that no longer parses is a state edited by hand in a
    // library caller: the current rules are the only ones left to judge by.
    event
        .earlier_rulebook_of(group, number)
        .and_then(|text| Rulebook::from_toml(text, "earlier_rulebooks").ok())
        .map_or(Cow::Borrowed(current), Cow::Owned)
}

/// Every break of a hard rule in one round, relaxations included, by the rules the round
/// was paired under.
fn check_round_all(
    event: &Event,
    current: &Rulebook,
    group: &GroupId,
    round: &Round,
) -> Vec<Violation> {
    let n = round.number;
    let rules = &*rules_in_force(event, current, group, n);
    if rules.is_round_robin(group) {
        return super::berger::check(event, rules, group, round);
    }
    if rules.is_knockout(group) || rules.knockout_stage_after(group).is_some_and(|s| n > s) {
        return super::knockout::check(event, rules, group, round);
    }
    if rules.round_robin_stage_after(group).is_some_and(|s| n > s) {
        return super::stage::check(event, rules, group, round);
    }
    let history = History::build(event, rules, group, n, &BTreeMap::new());
    let ctx = Rules {
        rules,
        round: n,
        final_round: history.final_round,
        total_rounds: rules.rounds_for(group),
    };
    let mut out = Vec::new();
    let v = |players: Vec<PlayerId>, rule: Rule| Violation {
        round: n,
        players,
        rule,
    };

    let mut tables = BTreeSet::new();
    let mut seen: BTreeMap<PlayerId, u32> = BTreeMap::new();
    for p in &round.pairings {
        if let Some(t) = p.table()
            && !tables.insert(t)
        {
            out.push(v(Vec::new(), Rule::DuplicateTable { table: t }));
        }
        for id in p.players() {
            *seen.entry(id).or_default() += 1;
        }
    }
    for (&id, &count) in &seen {
        match event.player(id) {
            Some(p) if &p.group == group => {
                if !p.pairable_in(n) {
                    out.push(v(vec![id], Rule::NotPairable));
                }
            }
            _ => out.push(v(vec![id], Rule::NotInGroup)),
        }
        if count > 1 {
            out.push(v(vec![id], Rule::Twice));
        }
    }
    for p in event.players_in(group) {
        if p.pairable_in(n) && !seen.contains_key(&p.id) {
            out.push(v(vec![p.id], Rule::Missing));
        }
    }

    let state = |id: PlayerId| history.players.get(&id);
    let byes: Vec<PlayerId> = round
        .pairings
        .iter()
        .filter_map(|p| match p {
            Pairing::Bye { player } => Some(*player),
            Pairing::Game { .. } => None,
        })
        .collect();
    if byes.len() as u32 > seen.len() as u32 % 2 {
        out.push(v(
            byes.clone(),
            Rule::ExtraBye {
                byes: byes.len() as u32,
            },
        ));
    }
    for p in &round.pairings {
        let Pairing::Game { red, black, .. } = p else {
            continue;
        };
        let (Some(a), Some(b)) = (state(*red), state(*black)) else {
            continue;
        };
        if a.has_met(b.id) {
            out.push(v(vec![*red, *black], Rule::Rematch));
        }
        if ctx.team_conflict(a, b) {
            out.push(v(
                vec![*red, *black],
                Rule::Team {
                    team: a.team.clone().unwrap_or_default(),
                },
            ));
        }
        for (s, c) in [(a, Colour::Red), (b, Colour::Black)] {
            out.extend(
                colour_violations(&ctx, s, c)
                    .into_iter()
                    .map(|rule| v(vec![s.id], rule)),
            );
        }
    }
    if byes.len() == 1 {
        out.extend(
            second_bye(&ctx, &history, event, group, byes[0]).map(|rule| v(vec![byes[0]], rule)),
        );
    }
    out
}

/// The colour limits `s` breaks by taking `colour`, one rule each; the same counts as
/// [`Rules::colour_breaks`].
fn colour_violations(ctx: &Rules, s: &PlayerState, colour: Colour) -> Vec<Rule> {
    let mut out = Vec::new();
    let c = &ctx.rules.colours;
    if let Some(k) = c.max_streak {
        let run = match s.streak() {
            Some((col, len)) if col == colour => len + 1,
            _ => 1,
        };
        if run > k && !(ctx.final_round && c.relax_streak_last_round) {
            out.push(Rule::ColourStreak { colour, run });
        }
    }
    if let Some(d) = c.max_diff {
        let diff = s.colour_diff() + if colour == Colour::Red { 1 } else { -1 };
        if diff.unsigned_abs() > d {
            out.push(Rule::ColourDiff { diff });
        }
    }
    out
}

/// §4.2: a second bye is a violation when a player with fewer byes could have taken it
/// and everyone else still been paired legally. Under `lowest_score_fewest_byes` only
/// players scored no higher than the bye player count: a lower score may take a second
/// bye before a higher score takes a first.
fn second_bye(
    ctx: &Rules,
    history: &History,
    event: &Event,
    group: &GroupId,
    bye: PlayerId,
) -> Option<Rule> {
    let me = history.players.get(&bye)?;
    let (mine, my_score) = (me.byes, me.score);
    if mine == 0 {
        return None;
    }
    let score_first = ctx.rules.pairing.bye == ByeChoice::LowestScoreFewestByes;
    let could = |p: &PlayerState| p.byes < mine && (!score_first || p.score <= my_score);
    let players: Vec<PlayerState> = event
        .players_in(group)
        .filter(|p| p.pairable_in(ctx.round))
        .filter_map(|p| history.players.get(&p.id).cloned())
        .collect();
    if players.len().is_multiple_of(2) || !players.iter().any(could) {
        return None;
    }
    let field = Field::new(
        Rules {
            rules: ctx.rules,
            round: ctx.round,
            final_round: ctx.final_round,
            total_rounds: ctx.total_rounds,
        },
        players,
    );
    let fewer: Vec<usize> = (0..field.players.len())
        .filter(|&i| could(&field.players[i]))
        .collect();
    engine::feasible(&field, &fewer).then_some(Rule::SecondBye { byes: mine })
}

#[cfg(test)]
mod localize_tests {
    use super::*;
    use crate::i18n::facts::assert_localized;

    #[test]
    fn every_violation_has_chinese_with_the_same_values() {
        let rules = [
            Rule::Rematch,
            Rule::Twice,
            Rule::NotInGroup,
            Rule::NotPairable,
            Rule::Missing,
            Rule::ExtraBye { byes: 2 },
            Rule::SecondBye { byes: 1 },
            Rule::ColourStreak {
                colour: Colour::Red,
                run: 3,
            },
            Rule::ColourDiff { diff: 3 },
            Rule::Team {
                team: "金华".into(),
            },
            Rule::DuplicateTable { table: 4 },
            Rule::SharedTable {
                table: 6,
                group: "老年组".into(),
            },
            Rule::OffTable { table_round: 5 },
            Rule::NotDue { table: 3 },
        ];
        for rule in rules {
            assert_localized(&Violation {
                round: 5,
                players: vec![PlayerId(11), PlayerId(12)],
                rule,
            });
        }
    }
}

/// docs/rules.md §13 (issue 42 §3): a rule `rules update` changes applies from the next
/// round; each round is judged by the rulebook it was paired under.
#[cfg(test)]
mod rules_in_force_tests {
    use super::*;
    use crate::model::{GameResult, Outcome, PairedUnder, Player};

    fn game(table: u32, red: u32, black: u32) -> Pairing {
        Pairing::Game {
            table,
            red: PlayerId(red),
            black: PlayerId(black),
            result: Some(GameResult::new(Outcome::Draw)),
        }
    }

    fn shipped() -> String {
        std::fs::read_to_string(format!(
            "{}/rules/cxa-2011.toml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    /// Six players, three rounds. Under `max_streak = 2` every round is legal; under
    /// `max_streak = 1`, players 1 and 6 break it in round 2, players 4 and 5 in round 3.
    fn event(current: &str) -> Event {
        let mut e = Event::new(current.to_string());
        let open = GroupId::new("open");
        for i in 1..=6 {
            e.players
                .push(Player::new(PlayerId(i), format!("p{i}"), open.clone()));
        }
        let rounds = [
            vec![game(1, 1, 2), game(2, 3, 4), game(3, 5, 6)],
            vec![game(1, 1, 3), game(2, 2, 5), game(3, 4, 6)],
            vec![game(1, 4, 1), game(2, 6, 2), game(3, 3, 5)],
        ];
        for (i, pairings) in rounds.into_iter().enumerate() {
            e.group_mut(&open).rounds.push(Round {
                number: i as u32 + 1,
                pairings,
            });
        }
        e
    }

    fn streaks(event: &Event, rules: &Rulebook) -> Vec<(u32, Vec<PlayerId>)> {
        check_group(event, rules, &GroupId::new("open"))
            .into_iter()
            .filter(|v| matches!(v.rule, Rule::ColourStreak { .. }))
            .map(|v| (v.round, v.players))
            .collect()
    }

    #[test]
    fn each_round_is_judged_by_the_rulebook_it_was_paired_under() {
        let old_text = shipped();
        let new_text = old_text.replace("max_streak = 2", "max_streak = 1");
        assert_ne!(old_text, new_text);
        let old = Rulebook::from_toml(&old_text, "old").unwrap();
        let new = Rulebook::from_toml(&new_text, "new").unwrap();
        let open = GroupId::new("open");

        // Under the old rules throughout: nothing to report.
        assert_eq!(streaks(&event(&old_text), &old), vec![]);

        // Rounds 1 and 2 paired under the old rules, round 3 under the new ones.
        let mut e = event(&old_text);
        e.group_mut(&open).rounds.pop();
        e.keep_rulebook_of_paired_rounds();
        e.rules_toml = new_text.clone();
        let third = event(&old_text).group(&open).unwrap().rounds[2].clone();
        e.group_mut(&open).rounds.push(third);
        assert_eq!(e.earlier_rulebooks, vec![old_text.clone()]);
        assert_eq!(
            e.group(&open).unwrap().paired_under,
            vec![
                PairedUnder {
                    round: 1,
                    rulebook: 0
                },
                PairedUnder {
                    round: 2,
                    rulebook: 0
                }
            ]
        );
        let found = streaks(&e, &new);
        assert_eq!(
            found,
            vec![(3, vec![PlayerId(4)]), (3, vec![PlayerId(5)])],
            "round 2 is judged by max_streak 2, round 3 by max_streak 1"
        );

        // A round dropped and paired again is paired under the current rules.
        e.group_mut(&open).forget_relaxations(2);
        let found = streaks(&e, &new);
        assert!(found.iter().any(|(r, _)| *r == 2), "{found:?}");

        // A second update while no new round was paired keeps nothing more.
        let mut twice = event(&old_text);
        twice.keep_rulebook_of_paired_rounds();
        twice.rules_toml = new_text.clone();
        twice.keep_rulebook_of_paired_rounds();
        twice.rules_toml = old_text.clone();
        assert_eq!(twice.earlier_rulebooks.len(), 1);
    }
}
