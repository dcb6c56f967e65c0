//! The prize sheet (获奖名单): every prize list of every group and every team prize,
//! with places, names, units, scores, money, award texts, titles, qualifications and the
//! totals the finance office checks.
//!
//! Owns turning places into money: the shared-place rule (`SharedMoney`), the rule for a
//! player placed in two lists (`MultiplePrizes`), holding back the money of a tie for
//! first that awaits a playoff, and the totals. It takes standings and team rankings as
//! computed elsewhere and renders nothing.
//!
//! All money is in fen (see the module root): `money_fen` is what an award pays now,
//! `held_fen` what is held back until a playoff is recorded.

use super::ListRow;
use super::list::list_rows_excluding;
use super::teams::TeamRanking;
use crate::model::{Event, GroupId, PlayerId, Points};
use crate::rulebook::{MultiplePrizes, PrizeList, PrizePlace, Rulebook, SharedMoney};
use crate::standings::Standings;
use chrono::NaiveDate;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

use super::FEN_PER_UNIT;

/// Money sums of a list, a team competition or the whole sheet, in fen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Totals {
    /// Paid out by the awards.
    pub paid_fen: u64,
    /// Held back for ties awaiting a playoff (paid once the playoff is recorded).
    pub held_fen: u64,
    /// Left over when splitting shared places' money in whole fen (less than one fen per
    /// tied player); it stays with the organiser.
    pub undistributed_fen: u64,
    /// What the regulation sets aside: every place's money added up, filled or not.
    pub budget_fen: u64,
}

impl Totals {
    fn add(&mut self, other: &Totals) {
        self.paid_fen += other.paid_fen;
        self.held_fen += other.held_fen;
        self.undistributed_fen += other.undistributed_fen;
        self.budget_fen += other.budget_fen;
    }
}

/// One player's prize in one list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Award {
    /// Place within the list; for a shared place, the place the tied players share.
    pub place: u32,
    pub shared: bool,
    /// The places the award covers: `place..=place` alone, `3..=4` for a 2-way tie at 3.
    pub covers_from: u32,
    pub covers_to: u32,
    pub player: PlayerId,
    pub name: String,
    pub unit: String,
    pub score: Points,
    pub money_fen: u64,
    /// Money held back until the playoff is recorded (`pending_playoff`).
    pub held_fen: u64,
    /// 奖杯、奖牌、证书 … of the place.
    pub award: Option<String>,
    pub title: Option<String>,
    pub qualification: Option<String>,
    /// Tied for first with no key separating them and no playoff recorded yet
    /// (冠军不并列): the place is shown shared, its money is held, and only the award
    /// texts every covered place has in common are shown.
    pub pending_playoff: bool,
    /// Tied across the qualification line under `qualification_ties = "playoff"`: the
    /// qualification is held until the playoff is recorded (`qualification` is `None`).
    pub qualification_pending: bool,
}

/// A player left out of a list because they keep a higher prize in another list
/// (`MultiplePrizes::HigherOnly`); their place passed to the next player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PassedOn {
    pub player: PlayerId,
    pub name: String,
    /// The place they held in this list when the choice was made.
    pub place: u32,
    /// The list whose prize they keep.
    pub kept_list: String,
    /// That list's name, for the sheet's note.
    pub kept_list_name: String,
}

/// Something the reader of the sheet must know about a list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum SheetNote {
    /// No standings were given for the pool the list ranks.
    MissingStandings { pool: GroupId },
    /// The standings are not final: `after_round` of `rounds` played.
    Provisional { after_round: u32, rounds: u32 },
    /// No team ranking was given for the competition.
    MissingTeamRanking,
    /// Players tied for a place the list may not share (its first place carries a title,
    /// or 冠军不并列): `held_fen` and the title wait for `qiwang playoff --list`.
    PlayoffNeeded {
        place: u32,
        players: Vec<PlayerId>,
        names: Vec<String>,
        /// The players' pairing numbers (序号), for the `#N` references of the command.
        numbers: Vec<Option<u32>>,
        held_fen: u64,
        title: Option<String>,
    },
    /// Players tied across the qualification line (`qualification_ties = "playoff"`):
    /// `slots` of them qualify once the playoff is recorded.
    QualificationPlayoff {
        place: u32,
        players: Vec<PlayerId>,
        names: Vec<String>,
        /// The players' pairing numbers (序号), for the `#N` references of the command.
        numbers: Vec<Option<u32>>,
        slots: u32,
    },
    /// A tie across the qualification line settled by `next_tiebreak` or `lot`.
    QualificationSettled {
        place: u32,
        qualified: Vec<String>,
        not_qualified: Vec<String>,
        how: Option<crate::standings::DecidedBy>,
    },
    /// A player of the list who takes no place in it (the places pass down).
    NotRanked {
        player: PlayerId,
        name: String,
        why: super::Exclusion,
    },
}

/// One prize list on the sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListSheet {
    pub id: String,
    pub name: String,
    /// The group the rulebook names for the list.
    pub group: GroupId,
    /// The pool whose standings were used (differs from `group` for a section or a
    /// merged group).
    pub pool: GroupId,
    pub after_round: Option<u32>,
    /// In place order.
    pub awards: Vec<Award>,
    pub passed_on: Vec<PassedOn>,
    pub totals: Totals,
    pub notes: Vec<SheetNote>,
}

/// One unit's team prize.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamAward {
    pub place: u32,
    pub shared: bool,
    pub covers_from: u32,
    pub covers_to: u32,
    pub unit: String,
    /// Names of the counted members, best first.
    pub members: Vec<String>,
    /// The team's rank sum or point sum.
    pub value: i64,
    pub money_fen: u64,
    pub award: Option<String>,
    pub title: Option<String>,
    pub qualification: Option<String>,
}

/// One team competition on the sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamSheet {
    pub id: String,
    pub name: String,
    pub group: GroupId,
    pub awards: Vec<TeamAward>,
    pub totals: Totals,
    pub notes: Vec<SheetNote>,
}

/// The whole prize sheet, with what the header of a printed sheet needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrizeSheet {
    pub event: String,
    pub short_name: Option<String>,
    pub organiser: Option<String>,
    pub venue: Option<String>,
    pub start_date: Option<NaiveDate>,
    pub end_date: Option<NaiveDate>,
    /// The currency label amounts are printed with ("元").
    pub currency: String,
    /// In rulebook order.
    pub lists: Vec<ListSheet>,
    /// In rulebook order.
    pub teams: Vec<TeamSheet>,
    /// Grand totals over every list and team competition.
    pub totals: Totals,
}

/// Builds the prize sheet: every list of `rules.prizes.lists` in order, then every team
/// competition of `rules.teams` (matched to `teams` by id). `standings` is keyed by pool.
///
/// **Which standings a list uses.** A list names a group. A section (a group with
/// `pairs_with`) is ranked in its pool, restricted to players registered under it. A
/// group merged into another (`GroupState::merged_into`, see `merge_group`) is ranked in
/// the target pool, restricted to players registered under the merged group or one of its
/// sections; the target's own lists rank only the target's own players (see
/// `merged_in`), so each group keeps its own prizes and nobody collects from both.
///
/// **Shared places** (`rules.prizes.shared_money`), for k players sharing place p, who
/// cover places p..p+k-1 (places beyond the list pay nothing):
/// * `Split`: the money of the covered places, in fen, divided equally and rounded down;
///   the remainder (under k fen) goes to the first of the tied players, so the list's
///   total equals the money of its places (`undistributed_fen` stays 0).
/// * `EachHigher`: each gets the money of the best covered place that has a prize.
/// * `NextKey`: the standings' row order is taken as the next key: the tied players take
///   places p, p+1, … one by one, each with that place's prize, and are not shown shared.
///
/// Award text, title and qualification come from the place shown (`Split`, `EachHigher`:
/// the best covered place with a prize).
///
/// **Pending playoff.** Players tied in a list whose rows are flagged `needs_playoff`
/// keep their shared place under every rule; their money (the covered places' sum, which
/// the playoff only redistributes) is held, not paid, and only the award text, title and
/// qualification that every covered place has in common are shown.
///
/// **Multiple prizes** (`rules.prizes.multiple`). `TakeAll`: a player keeps an award in
/// every list that places them. `HigherOnly`: one player at a time, among the players
/// holding awards in two or more lists, the one whose best award pays the most (then: the
/// earlier list in the rulebook, the better place, the lower player id) keeps that award
/// and is removed from the other lists, whose players below move up; that removal is
/// listed in the list's `passed_on`. The lists are then recomputed and the next player is
/// taken, until nobody holds two awards. Removing a player only ever moves others up, so
/// (as long as no list pays a lower place more than a higher one) a player is settled
/// only after everyone with a bigger prize, and never has to be revisited. A player with a pending-playoff award is not settled: all their awards are
/// held until the playoff is recorded.
///
/// Team prizes use the same shared-place rule; `MultiplePrizes` does not apply to them.
pub fn prize_sheet(
    event: &Event,
    rules: &Rulebook,
    standings: &BTreeMap<GroupId, Standings>,
    teams: &[TeamRanking],
) -> PrizeSheet {
    let lists = &rules.prizes.lists;
    let mut excluded: Vec<BTreeSet<PlayerId>> = vec![BTreeSet::new(); lists.len()];
    let mut passed: Vec<Vec<PassedOn>> = vec![Vec::new(); lists.len()];
    let mut sheets: Vec<ListSheet>;
    loop {
        sheets = lists
            .iter()
            .zip(&excluded)
            .map(|(list, ex)| evaluate_list(list, event, rules, standings, ex))
            .collect();
        if rules.prizes.multiple != MultiplePrizes::HigherOnly {
            break;
        }
        // Settle one player at a time, the biggest prize first (see the doc above).
        let next = holdings(&sheets)
            .into_iter()
            .filter(|(_, held)| held.len() > 1 && !held.iter().any(|h| h.pending))
            .filter_map(|(player, held)| {
                let best = held.iter().min_by_key(|h| h.rank_key())?;
                let key = (best.rank_key(), player);
                Some((key, best.list, player, held))
            })
            .min_by_key(|(key, ..)| *key);
        let Some((_, keep, player, held)) = next else {
            break;
        };
        for h in held.iter().filter(|h| h.list != keep) {
            excluded[h.list].insert(player);
            passed[h.list].push(PassedOn {
                player,
                name: h.name.clone(),
                place: h.place,
                kept_list: lists[keep].id.clone(),
                kept_list_name: lists[keep].name.clone(),
            });
        }
    }
    if rules.prizes.multiple == MultiplePrizes::HigherOnly {
        hold_undecided(&mut sheets);
    }
    for (sheet, p) in sheets.iter_mut().zip(passed) {
        sheet.passed_on = p;
        let undistributed = sheet.totals.undistributed_fen;
        sheet.totals = award_totals(&sheet.awards, undistributed, sheet.totals.budget_fen);
    }

    let team_sheets: Vec<TeamSheet> = rules
        .teams
        .iter()
        .map(|comp| {
            let budget = budget_fen(&comp.places);
            let Some(ranking) = teams.iter().find(|t| t.id == comp.id) else {
                return TeamSheet {
                    id: comp.id.clone(),
                    name: comp.name.clone(),
                    group: comp.group.clone(),
                    awards: Vec::new(),
                    totals: Totals {
                        budget_fen: budget,
                        ..Totals::default()
                    },
                    notes: vec![SheetNote::MissingTeamRanking],
                };
            };
            let slots: Vec<Slot> = ranking
                .rows
                .iter()
                .map(|r| Slot {
                    place: r.place,
                    pending: false,
                })
                .collect();
            let (allocations, undistributed) =
                allocate(&comp.places, &slots, rules.prizes.shared_money);
            let awards: Vec<TeamAward> = ranking
                .rows
                .iter()
                .zip(allocations)
                .filter_map(|(row, a)| {
                    a.map(|a| TeamAward {
                        place: a.place,
                        shared: a.shared,
                        covers_from: a.from,
                        covers_to: a.to,
                        unit: row.unit.clone(),
                        members: row.members.iter().map(|m| m.name.clone()).collect(),
                        value: row.value,
                        money_fen: a.money_fen,
                        award: a.award,
                        title: a.title,
                        qualification: a.qualification,
                    })
                })
                .collect();
            let paid = awards.iter().map(|a| a.money_fen).sum();
            TeamSheet {
                id: comp.id.clone(),
                name: comp.name.clone(),
                group: comp.group.clone(),
                awards,
                totals: Totals {
                    paid_fen: paid,
                    held_fen: 0,
                    undistributed_fen: undistributed,
                    budget_fen: budget,
                },
                notes: Vec::new(),
            }
        })
        .collect();

    let mut totals = Totals::default();
    for t in sheets.iter().map(|s| &s.totals) {
        totals.add(t);
    }
    for t in team_sheets.iter().map(|s| &s.totals) {
        totals.add(t);
    }
    let info = &rules.event;
    PrizeSheet {
        event: info.name.clone(),
        short_name: info.short_name.clone(),
        organiser: info.organiser.clone(),
        venue: info.venue.clone(),
        start_date: info.start_date,
        end_date: info.end_date,
        currency: info.currency.clone(),
        lists: sheets,
        teams: team_sheets,
        totals,
    }
}

/// The pool whose standings rank a prize list or team competition naming `group`: the
/// group itself, the pool of a section, or the target of a merge (see [`prize_sheet`]).
pub fn list_pool(event: &Event, rules: &Rulebook, group: &GroupId) -> GroupId {
    resolve_pool(event, rules, group).0
}

/// A prize list's rows as the prize sheet ranks them (what `qiwang standings --list L`
/// prints): [`list_standings`](super::list_standings) with the list's filter, restricted
/// as well to the section's players when the list names a section or a merged group.
/// `standings` must be those of [`list_pool`] for the list's group.
pub fn prize_list_rows(
    event: &Event,
    rules: &Rulebook,
    standings: &Standings,
    list: &PrizeList,
) -> Vec<super::ListRow> {
    let (_, sections) = resolve_pool(event, rules, &list.group);
    list_rows_excluding(
        standings,
        event,
        rules,
        list,
        sections.as_deref(),
        &merged_in(event, rules, &list.group),
    )
}

/// [`prize_list_rows`] as the prize sheet ranks the list: under
/// `MultiplePrizes::HigherOnly` without the players who keep a higher prize in another
/// list (their places passed down), so a tie that appears after the pass-down is the
/// one a playoff settles.
pub(crate) fn sheet_list_rows(event: &Event, rules: &Rulebook, list: &PrizeList) -> Vec<ListRow> {
    let pool = list_pool(event, rules, &list.group);
    let mut standings = BTreeMap::new();
    for l in &rules.prizes.lists {
        let p = list_pool(event, rules, &l.group);
        standings
            .entry(p.clone())
            .or_insert_with(|| crate::standings::compute_standings(event, rules, &p, None));
    }
    let mut left_out = merged_in(event, rules, &list.group);
    if rules.prizes.multiple == MultiplePrizes::HigherOnly {
        let sheet = prize_sheet(event, rules, &standings, &[]);
        if let Some(s) = sheet.lists.iter().find(|s| s.id == list.id) {
            left_out.extend(s.passed_on.iter().map(|p| p.player));
        }
    }
    let (_, sections) = resolve_pool(event, rules, &list.group);
    match standings.get(&pool) {
        Some(st) => list_rows_excluding(st, event, rules, list, sections.as_deref(), &left_out),
        None => Vec::new(),
    }
}

/// Players merged into `group` from an under-size group: a list of `group` itself ranks
/// only its own players, since the merged players keep their own group's list (Dongguan
/// 九: 儿童女子棋王组 merged into 少年女子棋王组 is still ranked for its own prizes).
pub(crate) fn merged_in(event: &Event, rules: &Rulebook, group: &GroupId) -> BTreeSet<PlayerId> {
    if rules.group(group).is_none_or(|g| g.pairs_with.is_some()) {
        return BTreeSet::new();
    }
    let labels: Vec<GroupId> = event
        .groups
        .iter()
        .filter(|(_, state)| state.merged_into.as_ref() == Some(group))
        .flat_map(|(from, _)| section_labels(rules, from))
        .collect();
    event
        .players
        .iter()
        .filter(|p| &p.group == group && p.section.as_ref().is_some_and(|s| labels.contains(s)))
        .map(|p| p.id)
        .collect()
}

/// Every team competition of the rulebook ranked over the standings of its pool
/// ([`list_pool`]); competitions whose pool has no standings are left out (the sheet
/// notes them as missing).
pub fn team_rankings(
    event: &Event,
    rules: &Rulebook,
    standings: &BTreeMap<GroupId, Standings>,
) -> Vec<TeamRanking> {
    rules
        .teams
        .iter()
        .filter_map(|t| {
            let st = standings.get(&list_pool(event, rules, &t.group))?;
            Some(super::team_ranking(st, event, t))
        })
        .collect()
}

/// The pool a list's group is ranked in, and the section labels its players must be
/// registered under (`None`: no restriction beyond the list's own filter).
pub(crate) fn resolve_pool(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
) -> (GroupId, Option<Vec<GroupId>>) {
    let mut pool = group.clone();
    let mut sections = None;
    if let Some(p) = rules.group(group).and_then(|g| g.pairs_with.clone()) {
        pool = p;
        sections = Some(vec![group.clone()]);
    }
    // Follow merges; bounded so a corrupt state with a merge cycle cannot loop.
    for _ in 0..=event.groups.len() {
        let Some(into) = event.group(&pool).and_then(|g| g.merged_into.clone()) else {
            break;
        };
        if sections.is_none() {
            sections = Some(section_labels(rules, &pool));
        }
        pool = into;
    }
    (pool, sections)
}

/// A pool's own label and the labels of its sections.
pub(crate) fn section_labels(rules: &Rulebook, pool: &GroupId) -> Vec<GroupId> {
    std::iter::once(pool.clone())
        .chain(
            rules
                .groups
                .iter()
                .filter(|g| g.pairs_with.as_ref() == Some(pool))
                .map(|g| g.id.clone()),
        )
        .collect()
}

fn evaluate_list(
    list: &PrizeList,
    event: &Event,
    rules: &Rulebook,
    standings: &BTreeMap<GroupId, Standings>,
    excluded: &BTreeSet<PlayerId>,
) -> ListSheet {
    let (pool, sections) = resolve_pool(event, rules, &list.group);
    let budget = budget_fen(&list.places);
    let mut sheet = ListSheet {
        id: list.id.clone(),
        name: list.name.clone(),
        group: list.group.clone(),
        pool: pool.clone(),
        after_round: None,
        awards: Vec::new(),
        passed_on: Vec::new(),
        totals: Totals {
            budget_fen: budget,
            ..Totals::default()
        },
        notes: Vec::new(),
    };
    let Some(st) = standings.get(&pool) else {
        sheet.notes.push(SheetNote::MissingStandings { pool });
        return sheet;
    };
    sheet.after_round = Some(st.after_round);
    let rounds = rules.rounds_for(&pool);
    if st.after_round < rounds {
        sheet.notes.push(SheetNote::Provisional {
            after_round: st.after_round,
            rounds,
        });
    }
    let mut excluded = excluded.clone();
    excluded.extend(merged_in(event, rules, &list.group));
    let all_rows = list_rows_excluding(st, event, rules, list, sections.as_deref(), &excluded);
    for r in all_rows.iter().filter(|r| r.excluded.is_some()) {
        sheet.notes.push(SheetNote::NotRanked {
            player: r.row.player,
            name: event
                .player(r.row.player)
                .map(|p| p.name.clone())
                .unwrap_or_default(),
            why: r.excluded.unwrap_or(super::Exclusion::Disqualified),
        });
    }
    let rows: Vec<_> = all_rows.into_iter().filter(|r| r.place.is_some()).collect();
    let slots: Vec<Slot> = rows
        .iter()
        .map(|r| Slot {
            place: r.place.unwrap_or(0),
            pending: r.needs_playoff || (r.shared && r.row.needs_playoff),
        })
        .collect();
    let (allocations, undistributed) = allocate(&list.places, &slots, rules.prizes.shared_money);
    sheet.awards = rows
        .iter()
        .zip(allocations)
        .filter_map(|(r, a)| {
            let a = a?;
            let player = event.player(r.row.player);
            Some(Award {
                place: a.place,
                shared: a.shared,
                covers_from: a.from,
                covers_to: a.to,
                player: r.row.player,
                name: player.map(|p| p.name.clone()).unwrap_or_default(),
                unit: player.map(|p| p.unit.clone()).unwrap_or_default(),
                score: r.row.score,
                money_fen: a.money_fen,
                held_fen: a.held_fen,
                award: a.award,
                title: a.title,
                // Decided at the qualification line (`qualification_ties`).
                qualification: match r.qualifies {
                    Some(false) => None,
                    _ if r.qualification_playoff => None,
                    _ => a.qualification,
                },
                pending_playoff: a.pending,
                qualification_pending: r.qualification_playoff,
            })
        })
        .collect();
    line_notes(&mut sheet, &rows, list, event);
    sheet.totals = award_totals(&sheet.awards, undistributed, budget);
    sheet
}

/// The notes saying what is held at the top of a list or at its qualification line,
/// and how a tie at the line was settled.
fn line_notes(sheet: &mut ListSheet, rows: &[super::ListRow], list: &PrizeList, event: &Event) {
    let name = |id: PlayerId| event.player(id).map(|p| p.name.clone()).unwrap_or_default();
    let mut places: Vec<u32> = rows.iter().filter_map(|r| r.place).collect();
    places.dedup();
    for place in places {
        let run: Vec<&super::ListRow> = rows.iter().filter(|r| r.place == Some(place)).collect();
        let players: Vec<PlayerId> = run.iter().map(|r| r.row.player).collect();
        let names: Vec<String> = players.iter().map(|id| name(*id)).collect();
        let numbers: Vec<Option<u32>> = players
            .iter()
            .map(|id| event.player(*id).and_then(|p| p.number))
            .collect();
        if run
            .iter()
            .any(|r| r.needs_playoff || (r.shared && r.row.needs_playoff))
        {
            let held_fen = sheet
                .awards
                .iter()
                .filter(|a| players.contains(&a.player))
                .map(|a| a.held_fen)
                .sum();
            let title = (place..place + run.len() as u32)
                .find_map(|q| prize_at(&list.places, q).and_then(|p| p.title.clone()));
            sheet.notes.push(SheetNote::PlayoffNeeded {
                place,
                players: players.clone(),
                names: names.clone(),
                numbers: numbers.clone(),
                held_fen,
                title,
            });
        }
        if run.iter().any(|r| r.qualification_playoff) {
            let last = place + run.len() as u32 - 1;
            let slots = (place..=last)
                .filter(|q| prize_at(&list.places, *q).is_some_and(|p| p.qualification.is_some()))
                .count() as u32;
            sheet.notes.push(SheetNote::QualificationPlayoff {
                place,
                players,
                names,
                numbers,
                slots,
            });
        } else if run.iter().any(|r| r.qualifies.is_some()) {
            let pick = |want: bool| -> Vec<String> {
                run.iter()
                    .filter(|r| r.qualifies == Some(want))
                    .map(|r| name(r.row.player))
                    .collect()
            };
            sheet.notes.push(SheetNote::QualificationSettled {
                place,
                qualified: pick(true),
                not_qualified: pick(false),
                how: run.iter().find_map(|r| r.decided_by),
            });
        }
    }
}

fn award_totals(awards: &[Award], undistributed_fen: u64, budget_fen: u64) -> Totals {
    Totals {
        paid_fen: awards.iter().map(|a| a.money_fen).sum(),
        held_fen: awards.iter().map(|a| a.held_fen).sum(),
        undistributed_fen,
        budget_fen,
    }
}

/// One award a player holds, for the `HigherOnly` choice.
struct Holding {
    list: usize,
    place: u32,
    money: u64,
    pending: bool,
    name: String,
}

impl Holding {
    /// Sort key of the best award to keep: most money, then earlier list, better place.
    fn rank_key(&self) -> (std::cmp::Reverse<u64>, usize, u32) {
        (std::cmp::Reverse(self.money), self.list, self.place)
    }
}

fn holdings(sheets: &[ListSheet]) -> BTreeMap<PlayerId, Vec<Holding>> {
    let mut out: BTreeMap<PlayerId, Vec<Holding>> = BTreeMap::new();
    for (i, sheet) in sheets.iter().enumerate() {
        for a in &sheet.awards {
            out.entry(a.player).or_default().push(Holding {
                list: i,
                place: a.place,
                money: a.money_fen,
                pending: a.pending_playoff,
                name: a.name.clone(),
            });
        }
    }
    out
}

/// Under `HigherOnly`, a player with a pending-playoff award in one list cannot yet
/// choose: hold the money of their awards in the other lists too.
fn hold_undecided(sheets: &mut [ListSheet]) {
    let undecided: BTreeSet<PlayerId> = holdings(sheets)
        .into_iter()
        .filter(|(_, h)| h.len() > 1 && h.iter().any(|h| h.pending))
        .map(|(p, _)| p)
        .collect();
    for a in sheets
        .iter_mut()
        .flat_map(|s| s.awards.iter_mut())
        .filter(|a| undecided.contains(&a.player) && !a.pending_playoff)
    {
        a.held_fen += a.money_fen;
        a.money_fen = 0;
        a.pending_playoff = true;
    }
}

fn budget_fen(places: &[PrizePlace]) -> u64 {
    places
        .iter()
        .map(|p| fen(p.money) * u64::from(p.to.saturating_sub(p.from) + 1))
        .sum()
}

fn fen(units: u32) -> u64 {
    u64::from(units) * FEN_PER_UNIT
}

/// An entry to allocate: its place in the list (rows in order, equal places = tied).
struct Slot {
    place: u32,
    pending: bool,
}

/// What one entry receives.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Allocation {
    place: u32,
    shared: bool,
    from: u32,
    to: u32,
    money_fen: u64,
    held_fen: u64,
    award: Option<String>,
    title: Option<String>,
    qualification: Option<String>,
    pending: bool,
}

fn prize_at(places: &[PrizePlace], place: u32) -> Option<&PrizePlace> {
    places.iter().find(|p| p.from <= place && place <= p.to)
}

fn money_at(places: &[PrizePlace], place: u32) -> u64 {
    prize_at(places, place).map_or(0, |p| fen(p.money))
}

/// The prize of every entry (`None`: no prize) and the fen left undistributed by `Split`.
fn allocate(
    places: &[PrizePlace],
    slots: &[Slot],
    rule: SharedMoney,
) -> (Vec<Option<Allocation>>, u64) {
    let mut out: Vec<Option<Allocation>> = Vec::with_capacity(slots.len());
    // Kept for the sheet's totals; every split now hands out all of its fen.
    let undistributed = 0;
    let mut i = 0;
    while i < slots.len() {
        let p = slots[i].place;
        let k = slots[i..].iter().take_while(|s| s.place == p).count();
        let run = &slots[i..i + k];
        let covered = p..p + k as u32;
        let top = covered.clone().find_map(|q| prize_at(places, q));
        let covered_money: u64 = covered.clone().map(|q| money_at(places, q)).sum();
        let alloc =
            |place, shared, from, to, money_fen, held_fen, prize: Option<&PrizePlace>| Allocation {
                place,
                shared,
                from,
                to,
                money_fen,
                held_fen,
                award: prize.and_then(|p| p.award.clone()),
                title: prize.and_then(|p| p.title.clone()),
                qualification: prize.and_then(|p| p.qualification.clone()),
                pending: false,
            };
        let last = p + k as u32 - 1;
        if top.is_none() {
            out.extend(run.iter().map(|_| None));
        } else if k > 1 && run.iter().any(|s| s.pending) {
            // 冠军不并列: nothing is decided before the playoff; hold the covered money.
            let each = covered_money / k as u64;
            let common = |f: fn(&PrizePlace) -> &Option<String>| -> Option<String> {
                let mut values = covered
                    .clone()
                    .map(|q| prize_at(places, q).and_then(|p| f(p).clone()));
                let first = values.next().flatten();
                values.all(|v| v == first).then_some(first).flatten()
            };
            for j in 0..k {
                let remainder = if j == 0 {
                    covered_money - each * k as u64
                } else {
                    0
                };
                out.push(Some(Allocation {
                    place: p,
                    shared: true,
                    from: p,
                    to: last,
                    money_fen: 0,
                    held_fen: each + remainder,
                    award: common(|p| &p.award),
                    title: common(|p| &p.title),
                    qualification: common(|p| &p.qualification),
                    pending: true,
                }));
            }
        } else if k == 1 {
            out.push(Some(alloc(p, false, p, p, covered_money, 0, top)));
        } else {
            match rule {
                SharedMoney::Split => {
                    // The fen that do not divide evenly go to the first of the tied
                    // players (as a held split does), so no money is lost.
                    let each = covered_money / k as u64;
                    let remainder = covered_money - each * k as u64;
                    out.extend(run.iter().enumerate().map(|(j, _)| {
                        let money = each + if j == 0 { remainder } else { 0 };
                        Some(alloc(p, true, p, last, money, 0, top))
                    }));
                }
                SharedMoney::EachHigher => {
                    let money = top.map_or(0, |t| fen(t.money));
                    out.extend(
                        run.iter()
                            .map(|_| Some(alloc(p, true, p, last, money, 0, top))),
                    );
                }
                SharedMoney::NextKey => {
                    for q in covered.clone() {
                        let prize = prize_at(places, q);
                        out.push(prize.map(|pr| alloc(q, false, q, q, fen(pr.money), 0, Some(pr))));
                    }
                }
            }
        }
        i += k;
    }
    (out, undistributed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(from: u32, to: u32, money: u32, award: &str) -> PrizePlace {
        PrizePlace {
            from,
            to,
            money,
            award: Some(award.to_string()),
            title: (from == 1).then(|| "棋王".to_string()),
            qualification: Some("晋级".to_string()),
        }
    }

    /// 1st 500 奖杯, 2nd 300 奖牌, 3rd 200 奖牌, 4th–6th 100 证书.
    fn places() -> Vec<PrizePlace> {
        vec![
            place(1, 1, 500, "奖杯"),
            place(2, 2, 300, "奖牌"),
            place(3, 3, 200, "奖牌"),
            place(4, 6, 100, "证书"),
        ]
    }

    fn slots(places: &[u32]) -> Vec<Slot> {
        places
            .iter()
            .map(|&place| Slot {
                place,
                pending: false,
            })
            .collect()
    }

    fn money(a: &[Option<Allocation>]) -> Vec<Option<(u32, bool, u64)>> {
        a.iter()
            .map(|a| a.as_ref().map(|a| (a.place, a.shared, a.money_fen)))
            .collect()
    }

    #[test]
    fn shared_place_rules_for_a_two_way_tie_at_three() {
        let ps = places();
        let s = slots(&[1, 2, 3, 3, 5, 6, 7]);
        let cases = [
            (
                SharedMoney::Split,
                // (200 + 100) / 2 = 150 each.
                vec![
                    Some((1, false, 50_000)),
                    Some((2, false, 30_000)),
                    Some((3, true, 15_000)),
                    Some((3, true, 15_000)),
                    Some((5, false, 10_000)),
                    Some((6, false, 10_000)),
                    None,
                ],
            ),
            (
                SharedMoney::EachHigher,
                vec![
                    Some((1, false, 50_000)),
                    Some((2, false, 30_000)),
                    Some((3, true, 20_000)),
                    Some((3, true, 20_000)),
                    Some((5, false, 10_000)),
                    Some((6, false, 10_000)),
                    None,
                ],
            ),
            (
                SharedMoney::NextKey,
                vec![
                    Some((1, false, 50_000)),
                    Some((2, false, 30_000)),
                    Some((3, false, 20_000)),
                    Some((4, false, 10_000)),
                    Some((5, false, 10_000)),
                    Some((6, false, 10_000)),
                    None,
                ],
            ),
        ];
        for (rule, want) in cases {
            let (got, rest) = allocate(&ps, &s, rule);
            assert_eq!(money(&got), want, "{rule:?}");
            assert_eq!(rest, 0, "{rule:?}");
        }
    }

    #[test]
    fn split_gives_the_fen_left_over_to_the_first() {
        // Three share place 2: (300 + 200 + 100) = 600 → 200 each, nothing left.
        let (got, rest) = allocate(&places(), &slots(&[1, 2, 2, 2]), SharedMoney::Split);
        assert_eq!(got[1].as_ref().map(|a| a.money_fen), Some(20_000));
        assert_eq!(rest, 0);
        // Three share place 5 of a list ending at 6: (100 + 100 + 0) / 3 = 66.66 each, and
        // the 2 fen left go to the first, so the list pays all its money.
        let (got, rest) = allocate(
            &places(),
            &slots(&[1, 2, 3, 4, 5, 5, 5]),
            SharedMoney::Split,
        );
        assert_eq!(
            got[4].as_ref().map(|a| (a.money_fen, a.from, a.to)),
            Some((6_668, 5, 7))
        );
        assert_eq!(
            got[5].as_ref().map(|a| (a.money_fen, a.from, a.to)),
            Some((6_666, 5, 7))
        );
        assert_eq!(rest, 0);
        // A tie beyond the last prize gets nothing.
        let (got, _) = allocate(
            &places(),
            &slots(&[1, 2, 3, 4, 5, 6, 7, 7]),
            SharedMoney::Split,
        );
        assert!(got[6].is_none() && got[7].is_none());
    }

    #[test]
    fn award_texts_come_from_the_place_shown() {
        let (got, _) = allocate(&places(), &slots(&[1, 2, 2]), SharedMoney::EachHigher);
        let a = got[1].as_ref().map(|a| (a.award.clone(), a.title.clone()));
        assert_eq!(a, Some((Some("奖牌".into()), None)));
        let a = got[0].as_ref().map(|a| a.title.clone());
        assert_eq!(a, Some(Some("棋王".into())));
    }

    #[test]
    fn pending_playoff_holds_the_covered_money_and_withholds_the_title() {
        let s = vec![
            Slot {
                place: 1,
                pending: true,
            },
            Slot {
                place: 1,
                pending: true,
            },
            Slot {
                place: 3,
                pending: false,
            },
        ];
        for rule in [
            SharedMoney::Split,
            SharedMoney::EachHigher,
            SharedMoney::NextKey,
        ] {
            let (got, rest) = allocate(&places(), &s, rule);
            let a = got[0].clone().expect("award");
            assert!(a.pending && a.shared, "{rule:?}");
            assert_eq!(
                (a.place, a.from, a.to, a.money_fen),
                (1, 1, 2, 0),
                "{rule:?}"
            );
            // 500 + 300 held, 400 each.
            let held: u64 = got.iter().flatten().map(|a| a.held_fen).sum();
            assert_eq!(held, 80_000, "{rule:?}");
            // 奖杯 vs 奖牌 differ, the title belongs to place 1 only; both places qualify.
            assert_eq!((a.award, a.title), (None, None), "{rule:?}");
            assert_eq!(a.qualification.as_deref(), Some("晋级"), "{rule:?}");
            assert_eq!(rest, 0);
            assert_eq!(got[2].as_ref().map(|a| a.money_fen), Some(20_000));
        }
    }

    #[test]
    fn budget_counts_every_place_of_a_range() {
        assert_eq!(budget_fen(&places()), 130_000);
    }
}
