//! `check --optimal`: proves a stored round optimal, or shows a better pairing.
//!
//! Owns re-solving a stored round from the state before it with the dense reference solver
//! (every legal pair at once, docs/rules.md §2.6; the priced solver above
//! [`DENSE_UP_TO`] players) and comparing the criteria of the stored
//! pairing with the optimum's, level by level (§2.3); when the pairs are optimal, checking
//! that every table's colours are the ones §3.3 gives. It never changes a round. Under a
//! rulebook changed since the round was paired (`rules update`) the comparison uses the
//! current rules; a round paired with `pair --relax` is compared under the rules relaxed
//! as that command gave them.

use super::PairingError;
use super::context::{History, Rules};
use super::engine::{self, Criteria, Criterion, Field, Solver};
use super::explain::{ColourNote, colour_line};
use super::vocabulary::Vocabulary;
use crate::i18n::bi;
use crate::model::{Event, GroupId, Pairing, Penalty, PlayerId, Points};
use crate::rulebook::{Lang, Rulebook};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// What re-solving one stored round found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Round 1 is a draw by lot or rating (§2.2), not an optimisation.
    Drawn,
    /// A round-robin round is the Berger table's (§14), not an optimisation: plain
    /// `check` compares it with the table.
    Table,
    /// Round 1 seats more team-mates together than its players must meet (§4.1: with
    /// one unit holding more than half the players left, the excess must; otherwise
    /// none): `stored` tables against the `fewest` some bye and pairing allow.
    Round1TeamMates {
        /// Team-mate tables in the stored round.
        stored: usize,
        /// The fewest any pairing of the round's players has.
        fewest: usize,
    },
    /// No pairing is better on the criteria than the stored one, and every table's colours
    /// are the ones §3.3 gives.
    Optimal,
    /// No pairing is better on the criteria, but at these tables §3.3 gives red to the
    /// player the round seats as black (a colour swap by hand, or a rulebook changed
    /// since): each note names the player §3.3 makes red and the step that decides it.
    ColoursNotByRule(Vec<ColourNote>),
    /// A better pairing exists.
    NotOptimal(Box<Better>),
    /// The round's players admit no legal pairing under the current rulebook (it was
    /// paired by hand, under a rulebook changed since, or with `pair --relax` by a qiwang
    /// that did not record the rules given, §2.5).
    NoLegalPairing,
    /// The stored round does not seat exactly the players who could be paired in it (one
    /// missing, twice, withdrawn, or the bye wrong for the field's parity): `qiwang check`
    /// names what is wrong.
    NotComparable,
}

/// A pairing better than the stored round, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Better {
    /// The first criterion, highest priority first, on which the stored round is worse.
    pub first: Criterion,
    /// The stored round's value on every criterion of docs/rules.md §2.3, as stored
    /// (its colours included).
    pub stored: Criteria,
    /// The optimum's value on every criterion; `check --optimal` prints each level where
    /// the two differ.
    pub best: Criteria,
    /// The better pairing's tables (red, black) the stored round does not have.
    pub tables: Vec<(PlayerId, PlayerId)>,
    /// The better pairing's bye, when it differs from the stored one.
    pub bye: Option<PlayerId>,
    /// The field's distinct scores, highest first: boundary k of
    /// `Criterion::ScoreGroup(k)` lies below `group_scores[k]`.
    pub group_scores: Vec<Points>,
}

/// The rounds before round `number` of `group` whose results a correction has changed
/// since round `number` was paired, in order (empty when none has). A game corrected and
/// corrected back (A→B→A) stands as it was paired and is not counted.
pub fn corrected_since(event: &Event, group: &GroupId, number: u32) -> Vec<u32> {
    let Some(g) = event.group(group) else {
        return Vec::new();
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut rounds: Vec<u32> = g
        .replaced
        .iter()
        .filter(|r| r.newest >= number && r.round < number)
        // The oldest replaced result of a game is the one round `number` was paired with.
        .filter(|r| seen.insert((r.round, r.table)))
        .filter(|r| {
            let now = g.round(r.round).and_then(|x| match x.game_at(r.table) {
                Some(Pairing::Game { result, .. }) => *result,
                _ => None,
            });
            now != Some(r.result)
        })
        .map(|r| r.round)
        .collect();
    rounds.sort_unstable();
    rounds.dedup();
    rounds
}

/// Whether `penalty` was given to a player of `group` after round `number` was paired
/// (while it or a later round was under way): that round's pairing did not see it.
fn given_after_pairing(event: &Event, group: &GroupId, number: u32, penalty: &Penalty) -> bool {
    penalty.paired_round >= number
        && event
            .player(penalty.player)
            .is_some_and(|p| &p.group == group)
}

/// `event` as it stood when round `number` of `group` was paired: each result of an
/// earlier round a later correction replaced put back, and the penalties given after the
/// pairing left out (borrowed as it is when neither happened).
fn as_paired<'a>(event: &'a Event, group: &GroupId, number: u32) -> Cow<'a, Event> {
    let penalised = event
        .penalties
        .iter()
        .any(|p| given_after_pairing(event, group, number, p));
    let corrected = !corrected_since(event, group, number).is_empty();
    if !corrected && !penalised {
        return Cow::Borrowed(event);
    }
    let mut then = event.clone();
    if penalised {
        then.penalties
            .retain(|p| !given_after_pairing(event, group, number, p));
    }
    if !corrected {
        return Cow::Owned(then);
    }
    let state = then.group_mut(group);
    let replaced = state.replaced.clone();
    for round in state.rounds.iter_mut().filter(|r| r.number < number) {
        for p in &mut round.pairings {
            if let Pairing::Game { table, result, .. } = p
                && let Some(was) = replaced
                    .iter()
                    .find(|r| r.round == round.number && r.table == *table && r.newest >= number)
            {
                *result = Some(was.result);
            }
        }
    }
    Cow::Owned(then)
}

/// Fields up to this many players are re-solved with the dense reference solver, larger
/// ones with the priced solver. Chosen, not measured to the player: the dense solve holds
/// every legal pair in memory (about 2 million at 2,000 players).
const DENSE_UP_TO: usize = 2000;

/// Re-solves round `number` of `group` from the state before it and compares.
pub fn prove_round(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    number: u32,
) -> Result<Verdict, PairingError> {
    let Some(round) = event
        .group(group)
        .and_then(|g| g.rounds.iter().find(|r| r.number == number))
    else {
        return Ok(Verdict::NotComparable);
    };
    // The round is re-solved under the rulebook it was paired under (docs/rules.md §13).
    let in_force = super::check::rules_in_force(event, rules, group, number);
    let rules = &*in_force;
    if rules.is_round_robin(group)
        || rules.is_knockout(group)
        || rules.stage_after(group).is_some_and(|s| number > s)
    {
        return Ok(Verdict::Table);
    }
    if number == 1 {
        return Ok(round1_verdict(event, rules, group, round));
    }
    // Re-solved from the results as they stood when it was paired: a correction of an
    // earlier round made since changes the standings, not this round (docs/rules.md §2.6).
    let as_paired = as_paired(event, group, number);
    let event = &*as_paired;
    // A round paired with `pair --relax` is re-solved under the rules that command gave
    // in place of the rulebook's `pairing.relax` (docs/rules.md §2.5).
    let given;
    let rules = match event.group(group).and_then(|g| g.relax_given(number)) {
        Some(list) => {
            let mut with = rules.clone();
            with.pairing.relax = list.to_vec();
            given = with;
            &given
        }
        None => rules,
    };
    let field = field_before(event, rules, group, number);
    let Some((index, (tables, bye))) = seats_of(&field, round) else {
        return Ok(Verdict::NotComparable);
    };
    // Every legal pair at once is the independent reference where it fits; above that
    // (5 billion pairs at 100,000 players ran a machine out of memory) the priced solve
    // re-solves the round, its optimum proven over every legal pair by its duals (§2.6).
    let solver = if field.players.len() <= DENSE_UP_TO {
        Solver::Dense
    } else {
        Solver::Priced
    };
    let m = match engine::pair_field(&field, solver) {
        Ok(m) => m,
        Err(stuck) if stuck.too_wide => return Err(PairingError::too_wide(&field, group, number)),
        Err(_) => return Ok(Verdict::NoLegalPairing),
    };
    let best_tables: Vec<(usize, usize)> = m
        .pairs
        .iter()
        .map(|&(a, b)| {
            let (a_red, _) = field.rules.decide_red(&field.players[a], &field.players[b]);
            if a_red { (a, b) } else { (b, a) }
        })
        .collect();
    // A round that needed rules relaxed is compared under them, rule by rule in the
    // order they are weighed (docs/rules.md §2.5); a break of any other rule stays a
    // hard-rule break.
    let weighed = field.with_relax(m.relaxed.clone());
    let stored = engine::criteria(&weighed, &tables, bye);
    let best = engine::criteria(&weighed, &best_tables, m.bye);
    let Some(first) = stored.first_worse(&best) else {
        let swapped = colours_not_by_rule(&field, round, &index);
        return Ok(if swapped.is_empty() {
            Verdict::Optimal
        } else {
            Verdict::ColoursNotByRule(swapped)
        });
    };
    let have: BTreeSet<(usize, usize)> = tables.iter().copied().collect();
    let id = |i: usize| field.players[i].id;
    Ok(Verdict::NotOptimal(Box::new(Better {
        first,
        stored,
        best,
        tables: best_tables
            .iter()
            .filter(|t| !have.contains(t))
            .map(|&(r, b)| (id(r), id(b)))
            .collect(),
        bye: m.bye.filter(|&b| Some(b) != bye).map(id),
        group_scores: field.scores.clone(),
    })))
}

/// The pool before round `number` as the engine saw it (docs/rules.md §2.3): the players
/// who could be paired in it, in pairing order.
fn field_before<'a>(event: &Event, rules: &'a Rulebook, group: &GroupId, number: u32) -> Field<'a> {
    let history = History::build(event, rules, group, number, &BTreeMap::new());
    let states = event
        .players_in(group)
        .filter(|p| p.pairable_in(number))
        .filter_map(|p| history.players.get(&p.id).cloned())
        .collect();
    let ctx = Rules {
        rules,
        round: number,
        final_round: history.final_round,
        total_rounds: rules.rounds_for(group),
    };
    Field::new(ctx, states)
}

/// Round 1 is drawn, not optimised, but team avoidance (a hard rule, §4.1) holds there
/// too: a stored round 1 with more team-mate tables than its players must have (a hand
/// edit with `--force`) is named, as `check` names the tables.
fn round1_verdict(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    round: &crate::model::Round,
) -> Verdict {
    let field = field_before(event, rules, group, 1);
    let Some((_, (tables, _))) = seats_of(&field, round) else {
        return Verdict::NotComparable;
    };
    let players = &field.players;
    let stored = tables
        .iter()
        .filter(|&&(a, b)| field.rules.team_conflict(&players[a], &players[b]))
        .count();
    if stored == 0 {
        return Verdict::Drawn;
    }
    let fewest = super::round1::fewest_team_mates(&field.rules, players);
    if stored > fewest {
        Verdict::Round1TeamMates { stored, fewest }
    } else {
        Verdict::Drawn
    }
}

/// The stored tables whose colours are the other way round from what §3.3 gives the pair
/// (the note's `red` is the player §3.3 makes red). The round's players are all in
/// `index` ([`stored_indices`] checked).
fn colours_not_by_rule(
    field: &Field,
    round: &crate::model::Round,
    index: &BTreeMap<PlayerId, usize>,
) -> Vec<ColourNote> {
    let mut out = Vec::new();
    for p in &round.pairings {
        let Pairing::Game {
            table, red, black, ..
        } = p
        else {
            continue;
        };
        let (r, b) = (index[red], index[black]);
        let (r_red, step) = field.rules.decide_red(&field.players[r], &field.players[b]);
        if !r_red {
            out.push(ColourNote {
                table: *table,
                red: *black,
                black: *red,
                step,
            });
        }
    }
    out
}

/// Tables listed one per line in a verdict; past this many the rest are counted (a round
/// of 100,000 players has 50,000 tables).
const TABLES_SHOWN: usize = 20;

/// The line that counts the tables a verdict left unlisted, if any.
fn more_tables(left: usize, lang: Lang, vocab: Vocabulary) -> Option<String> {
    (left > 0).then(|| {
        let unit = vocab.table_zh();
        bi!(
            lang,
            zh("  ……另有 {left} {unit}未列出"),
            en("  … and {left} more {}", vocab.table_noun_en(left))
        )
    })
}

/// The field's players by id, and the stored round's [`Seats`]; `None` when the round
/// does not seat exactly the field's players, or has a bye where the field is even (or
/// none where it is odd).
fn seats_of(
    field: &Field,
    round: &crate::model::Round,
) -> Option<(BTreeMap<PlayerId, usize>, Seats)> {
    let index: BTreeMap<PlayerId, usize> = field
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i))
        .collect();
    let (tables, bye) = stored_indices(round, &index)?;
    (bye.is_some() == (field.players.len() % 2 == 1)).then_some((index, (tables, bye)))
}

/// The stored tables (red, black) and bye as field indices; `None` when a seated player
/// is not in the field, a player sits twice, or a field player has no seat.
type Seats = (Vec<(usize, usize)>, Option<usize>);
fn stored_indices(round: &crate::model::Round, index: &BTreeMap<PlayerId, usize>) -> Option<Seats> {
    let mut tables = Vec::new();
    let mut bye = None;
    let mut seated = BTreeSet::new();
    for p in &round.pairings {
        for id in p.players() {
            if !seated.insert(id) {
                return None;
            }
        }
        match p {
            Pairing::Game { red, black, .. } => {
                tables.push((*index.get(red)?, *index.get(black)?));
            }
            Pairing::Bye { player } => {
                if bye.replace(*index.get(player)?).is_some() {
                    return None;
                }
            }
        }
    }
    (seated.len() == index.len()).then_some((tables, bye))
}

impl Criterion {
    /// The criterion's name; `scores` names a score-group boundary by the score above it.
    pub fn name(&self, lang: Lang, scores: &[Points]) -> String {
        match self {
            Criterion::HardRules => lang
                .pick("违反硬性规则的台数", "tables breaking a hard rule")
                .into(),
            Criterion::Relaxed(rule) => {
                let name = super::relax_rule_label(*rule, lang);
                bi!(
                    lang,
                    zh("放宽{name}的次数"),
                    en("breaks of {name} (relaxed)")
                )
            }
            Criterion::Bye => lang.pick("轮空人选", "who takes the bye").into(),
            Criterion::ScoreGroup(k) => {
                let s = scores.get(*k).map_or(0, |p| p.0);
                bi!(
                    lang,
                    zh("离开 {s} 分积分段的人数"),
                    en(
                        "players leaving the score group on {}",
                        crate::i18n::plural(s, "point", "points")
                    )
                )
            }
            Criterion::ScoreDiff => lang
                .pick("同台分差的平方和", "squared score differences")
                .into(),
            Criterion::Colours => lang
                .pick(
                    "未得应执先后手的人数",
                    "players not getting their due colour",
                )
                .into(),
            Criterion::RepeatFloats => lang
                .pick(
                    "连续两轮同向浮动的人数",
                    "players floating the same way twice in a row",
                )
                .into(),
            Criterion::Order => lang
                .pick("组内配对顺序", "distance from the within-group order")
                .into(),
        }
    }
}

impl Verdict {
    /// The verdict's kind, as `check --optimal --format json` names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Verdict::Drawn => "drawn",
            Verdict::Table => "table",
            Verdict::Round1TeamMates { .. } => "round1_team_mates",
            Verdict::Optimal => "optimal",
            Verdict::NotOptimal(_) => "not_optimal",
            Verdict::ColoursNotByRule(_) => "colours_not_by_rule",
            Verdict::NoLegalPairing => "no_legal_pairing",
            Verdict::NotComparable => "not_comparable",
        }
    }

    /// Whether `check --optimal` fails on this verdict: a better pairing exists, the
    /// colours are not §3.3's, or the round cannot be compared.
    pub fn fails(&self) -> bool {
        matches!(
            self,
            Verdict::NotOptimal(_)
                | Verdict::ColoursNotByRule(_)
                | Verdict::NotComparable
                | Verdict::Round1TeamMates { .. }
        )
    }

    /// The verdict on round `round` in `lang`, naming players with `name`; a better pairing
    /// takes several lines: the first worse criterion, every level that differs, and the
    /// better pairing's tables the stored round does not have.
    pub fn lines(&self, round: u32, lang: Lang, name: &dyn Fn(PlayerId) -> String) -> Vec<String> {
        self.lines_in(round, lang, name, Vocabulary::Players)
    }

    /// [`Verdict::lines`] in `vocab`'s words (a team round: matches, moving first).
    pub fn lines_in(
        &self,
        round: u32,
        lang: Lang,
        name: &dyn Fn(PlayerId) -> String,
        vocab: Vocabulary,
    ) -> Vec<String> {
        let head = bi!(lang, zh("第 {round} 轮："), en("round {round}: "));
        let one =
            |zh_text: &str, en_text: &str| vec![format!("{head}{}", lang.pick(zh_text, en_text))];
        match self {
            Verdict::Drawn => one(
                "首轮按抽签或等级分编排，不是优化结果，无需证明",
                "round 1 is drawn by lot or rating, not optimised; nothing to prove",
            ),
            Verdict::Table => one(
                "循环赛按贝格尔表、淘汰赛按对阵表编排，不是优化结果，无需证明（`qiwang check` 核对是否与表一致）",
                "a round-robin or knockout round is its table's or bracket's, not optimised; nothing to prove (`qiwang check` compares it with them)",
            ),
            Verdict::Round1TeamMates { stored, fewest } => vec![bi!(
                lang,
                zh(
                    "{head}首轮有 {stored} 台同队相遇，而本轮棋手最少只需 {fewest} 台（同队回避，§4.1）；`qiwang check` 列出这些台次"
                ),
                en(
                    "{head}round 1 seats team-mates together at {}, where its players need no more than {fewest} (team avoidance, §4.1); `qiwang check` lists them",
                    crate::i18n::plural(stored, "table", "tables")
                )
            )],
            Verdict::Optimal => one(
                "最优（按编排准则逐项比较，没有更好的编排）",
                "optimal (no pairing is better on the criteria, level by level)",
            ),
            Verdict::NoLegalPairing => one(
                "按现行规程，本轮棋手不存在合规的编排（这一轮是人工编排的，或在规程修改之前编排，或由旧版 qiwang 用 `pair --relax` 编排），无从比较",
                "under the current rulebook no legal pairing exists for this round's players (it was paired by hand, under a rulebook changed since, or with `pair --relax` by an older qiwang); nothing to compare",
            ),
            Verdict::NotComparable => one(
                "存储的这一轮与可编排的棋手不一致；请先用 `qiwang check` 查看违规",
                "the stored round does not seat exactly the players who could be paired; run `qiwang check` for the violations",
            ),
            Verdict::NotOptimal(b) => b.lines(&head, lang, name, vocab),
            Verdict::ColoursNotByRule(notes) => {
                let n = notes.len();
                let unit = vocab.table_zh();
                let mut out = vec![bi!(
                    lang,
                    zh("{head}配对最优，但有 {n} {unit}的先后手与先后手规则（§3.3）不符"),
                    en(
                        "{head}the pairs are optimal, but {} the colours the other way round from the colour rules (§3.3)",
                        format!(
                            "{n} {} {}",
                            vocab.table_noun_en(n),
                            if n == 1 { "has" } else { "have" }
                        )
                    )
                )];
                for c in notes.iter().take(TABLES_SHOWN) {
                    let rule = colour_line(c, &name(c.red), &name(c.black), lang, vocab);
                    let (black, red) = (name(c.black), vocab.had_red(lang));
                    out.push(bi!(
                        lang,
                        zh("  {rule}（本轮为 {black} {red}）"),
                        en("  {rule} (this round has {black} {red})")
                    ));
                }
                out.extend(more_tables(n.saturating_sub(TABLES_SHOWN), lang, vocab));
                out
            }
        }
    }
}

impl Better {
    fn lines(
        &self,
        head: &str,
        lang: Lang,
        name: &dyn Fn(PlayerId) -> String,
        vocab: Vocabulary,
    ) -> Vec<String> {
        let scores = &self.group_scores;
        let first = self.first.name(lang, scores);
        let mut out = vec![bi!(
            lang,
            zh("{head}不是最优：有更好的编排，首先在「{first}」一项上更好"),
            en("{head}not optimal: a better pairing exists, first better on {first}")
        )];
        for ((c, mine), (_, best)) in self.stored.levels().iter().zip(self.best.levels()) {
            if *mine != best {
                let what = c.name(lang, scores);
                out.push(bi!(
                    lang,
                    zh("  {what}：本轮 {mine}，更好的编排 {best}"),
                    en("  {what}: {mine} here, {best} in the better pairing")
                ));
            }
        }
        let (red, black) = (vocab.red_mark(lang), vocab.black_mark(lang));
        for (r, b) in self.tables.iter().take(TABLES_SHOWN) {
            let (r, b) = (name(*r), name(*b));
            out.push(bi!(
                lang,
                zh("  更好的编排：{r}（{red}）对 {b}（{black}）"),
                en("  better pairing: {r} ({red}) against {b} ({black})")
            ));
        }
        out.extend(more_tables(
            self.tables.len().saturating_sub(TABLES_SHOWN),
            lang,
            vocab,
        ));
        if let Some(p) = self.bye {
            out.push(bi!(
                lang,
                zh("  更好的编排：{} 轮空", name(p)),
                en("  better pairing: {} takes the bye", name(p))
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::ColourStep;

    /// A verdict on a huge round lists 20 tables and counts the rest, in both languages.
    #[test]
    fn a_verdict_lists_twenty_tables_and_counts_the_rest() {
        let notes: Vec<ColourNote> = (1..=25)
            .map(|t| ColourNote {
                table: t,
                red: PlayerId(2 * t),
                black: PlayerId(2 * t + 1),
                step: ColourStep::Difference,
            })
            .collect();
        let verdict = Verdict::ColoursNotByRule(notes);
        let name = |id: PlayerId| format!("p{}", id.0);
        let en = verdict.lines(4, Lang::En, &name);
        assert_eq!(en.len(), 1 + 20 + 1, "{en:?}");
        assert!(en[0].contains("25 tables have"), "{en:?}");
        assert!(en[1].starts_with("  Table 1: p2 plays red"), "{en:?}");
        assert!(en[1].ends_with("(this round has p3 red)"), "{en:?}");
        assert_eq!(en[21], "  … and 5 more tables");
        let zh = verdict.lines(4, Lang::Zh, &name);
        assert_eq!(zh.last().map(String::as_str), Some("  ……另有 5 台未列出"));
        let mut better = Better {
            first: Criterion::Colours,
            stored: Criteria::default(),
            best: Criteria::default(),
            tables: (0..20)
                .map(|k| (PlayerId(2 * k), PlayerId(2 * k + 1)))
                .collect(),
            bye: None,
            group_scores: Vec::new(),
        };
        let exact = Verdict::NotOptimal(Box::new(better.clone())).lines(4, Lang::En, &name);
        assert!(
            exact
                .last()
                .is_some_and(|l| l.starts_with("  better pairing"))
        );
        better.tables.push((PlayerId(98), PlayerId(99)));
        let over = Verdict::NotOptimal(Box::new(better)).lines(4, Lang::En, &name);
        assert_eq!(
            over.last().map(String::as_str),
            Some("  … and 1 more table")
        );
    }
}
