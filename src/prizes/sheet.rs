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
//!
//! This file holds the sheet's rows (the types below) and [`prize_sheet`], which puts
//! them together; `list_sheet.rs` evaluates one prize list, `money.rs` splits the money
//! of shared places, `multiple.rs` settles a player placed in two lists, and `pools.rs`
//! says which players a list ranks.

use super::list_sheet::evaluate_list;
use super::money::{Slot, allocate, award_totals};
use super::multiple::{hold_undecided, holdings};
use super::teams::TeamRanking;
use crate::model::{Event, GroupId, PlayerId, Points};
use crate::rulebook::{MultiplePrizes, Rulebook};
use crate::standings::Standings;
use chrono::NaiveDate;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

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
    /// Whether tied players share the place.
    pub shared: bool,
    /// The places the award covers: `place..=place` alone, `3..=4` for a 2-way tie at 3.
    pub covers_from: u32,
    /// The last place the award covers.
    pub covers_to: u32,
    /// The player.
    pub player: PlayerId,
    /// The player's name.
    pub name: String,
    /// The player's unit.
    pub unit: String,
    /// The player's score in the standings.
    pub score: Points,
    /// Money paid now (0 while held).
    pub money_fen: u64,
    /// Money held back until the playoff is recorded (`pending_playoff`).
    pub held_fen: u64,
    /// 奖杯、奖牌、证书 … of the place.
    pub award: Option<String>,
    /// The title (称号) the place carries, e.g. 棋王.
    pub title: Option<String>,
    /// The qualification (晋级) the place carries.
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
    /// The player.
    pub player: PlayerId,
    /// The player's name.
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
    MissingStandings {
        /// The pool without standings.
        pool: GroupId,
    },
    /// The standings are not final: `after_round` of `rounds` played, or round
    /// `after_round` still being entered (`open_tables` > 0: the standings show it while
    /// no round is complete).
    Provisional {
        /// The round the standings are after (the newest complete one, else round 1).
        after_round: u32,
        /// The rounds the pool plays.
        rounds: u32,
        /// Tables of round `after_round` without a result yet.
        open_tables: u32,
    },
    /// The pool the list ranks was cancelled (`qiwang group cancel`) before any game: the
    /// list places nobody, and its money is neither paid nor set aside.
    Cancelled {
        /// The cancelled pool.
        pool: GroupId,
    },
    /// No team ranking was given for the competition.
    MissingTeamRanking,
    /// Players tied for a place the list may not share (its first place carries a title,
    /// or 冠军不并列): `held_fen` and the title wait for `qiwang playoff --list`.
    PlayoffNeeded {
        /// The place the players tie for.
        place: u32,
        /// The tied players.
        players: Vec<PlayerId>,
        /// Their names.
        names: Vec<String>,
        /// The players' pairing numbers (序号), for the `#N` references of the command.
        numbers: Vec<Option<u32>>,
        /// The money held until the playoff is recorded.
        held_fen: u64,
        /// The title the place carries, if any.
        title: Option<String>,
    },
    /// Players tied across the qualification line (`qualification_ties = "playoff"`):
    /// `slots` of them qualify once the playoff is recorded.
    QualificationPlayoff {
        /// The first place of the tie.
        place: u32,
        /// The tied players.
        players: Vec<PlayerId>,
        /// Their names.
        names: Vec<String>,
        /// The players' pairing numbers (序号), for the `#N` references of the command.
        numbers: Vec<Option<u32>>,
        /// How many of them qualify.
        slots: u32,
    },
    /// A tie across the qualification line settled by `next_tiebreak` or `lot`.
    QualificationSettled {
        /// The first place of the tie.
        place: u32,
        /// Names of the players who qualify.
        qualified: Vec<String>,
        /// Names of the players who do not.
        not_qualified: Vec<String>,
        /// What separated them.
        how: Option<crate::standings::DecidedBy>,
    },
    /// A player of the list who takes no place in it (the places pass down).
    NotRanked {
        /// The player.
        player: PlayerId,
        /// The player's name.
        name: String,
        /// Why the player takes no place.
        why: super::Exclusion,
    },
}

/// One prize list on the sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListSheet {
    /// The list's id in the rulebook.
    pub id: String,
    /// The list's name as printed.
    pub name: String,
    /// The group the rulebook names for the list.
    pub group: GroupId,
    /// The pool whose standings were used (differs from `group` for a section or a
    /// merged group).
    pub pool: GroupId,
    /// The last round of the standings used; `None` without standings.
    pub after_round: Option<u32>,
    /// In place order.
    pub awards: Vec<Award>,
    /// Players who kept a higher prize in another list.
    pub passed_on: Vec<PassedOn>,
    /// The money of the list.
    pub totals: Totals,
    /// What the reader must know about the list.
    pub notes: Vec<SheetNote>,
}

/// One unit's team prize.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamAward {
    /// The unit's place in the team ranking.
    pub place: u32,
    /// Whether tied units share the place.
    pub shared: bool,
    /// The first place the award covers.
    pub covers_from: u32,
    /// The last place the award covers.
    pub covers_to: u32,
    /// The unit.
    pub unit: String,
    /// Names of the counted members, best first.
    pub members: Vec<String>,
    /// The team's rank sum or point sum.
    pub value: i64,
    /// Money paid.
    pub money_fen: u64,
    /// The award (奖杯、奖牌、证书 …) of the place.
    pub award: Option<String>,
    /// The title the place carries.
    pub title: Option<String>,
    /// The qualification the place carries.
    pub qualification: Option<String>,
}

/// One team competition on the sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamSheet {
    /// The competition's id in the rulebook.
    pub id: String,
    /// The competition's name as printed.
    pub name: String,
    /// The group it ranks.
    pub group: GroupId,
    /// The units' awards in place order.
    pub awards: Vec<TeamAward>,
    /// The money of the competition.
    pub totals: Totals,
    /// What the reader must know (a missing ranking).
    pub notes: Vec<SheetNote>,
}

/// The whole prize sheet, with what the header of a printed sheet needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrizeSheet {
    /// The event's name.
    pub event: String,
    /// The event's short name, if the rulebook gives one.
    pub short_name: Option<String>,
    /// The organiser (主办单位).
    pub organiser: Option<String>,
    /// The venue.
    pub venue: Option<String>,
    /// The first day of play.
    pub start_date: Option<NaiveDate>,
    /// The last day of play.
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
/// group merged into another (`GroupState::merged_into`, see
/// `registration::merge_group`) is ranked in the target pool, restricted to players
/// registered under the merged group or one of its sections; the target's own lists
/// rank only the target's own players (see `merged_in`), so each group keeps its own
/// prizes and nobody collects from both.
///
/// **Shared places** (`rules.prizes.shared_money`), for k players sharing place p, who
/// cover places p..p+k-1 (places beyond the list pay nothing):
/// * `Split`: the money of the covered places, in fen, divided equally and rounded down;
///   the remainder (under k fen) goes one fen each to the first tied players, so the list's
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
        // Every pass excludes the player from a list they were still in, so the passes
        // end within players × lists; one that excludes nobody new would repeat forever.
        if held
            .iter()
            .filter(|h| h.list != keep)
            .all(|h| excluded[h.list].contains(&player))
        {
            break;
        }
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
            let pool = super::pools::list_pool(event, rules, &comp.group);
            let budget = super::list_sheet::budget_of(event, &pool, &comp.places);
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
                // Team places are as provisional as the standings they come from.
                notes: super::list_sheet::provisional(
                    event,
                    rules,
                    &ranking.pool,
                    ranking.after_round,
                )
                .into_iter()
                .collect(),
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
