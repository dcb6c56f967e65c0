//! One prize list on the sheet: its rows over the standings, the money of each place
//! (see `money.rs`), and the notes on ties at the top and at the qualification line.

use super::list::list_rows_excluding;
use super::money::{Slot, allocate, award_totals, budget_fen, prize_at};
use super::pools::{merged_in, resolve_pool};
use super::sheet::{Award, ListSheet, SheetNote, Totals};
use crate::model::{Event, GroupId, PlayerId};
use crate::rulebook::{PrizeList, PrizePlace, Rulebook};
use crate::standings::Standings;
use std::collections::{BTreeMap, BTreeSet};

/// The note that standings of `pool` after `after_round` are not final, if they are not:
/// rounds are left, or round `after_round` is still being entered (a one-round pool
/// whose round is open is provisional too). A cancelled pool's standings are not
/// provisional, they are final with nobody placed: its note says it was cancelled.
pub(super) fn provisional(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    after_round: u32,
) -> Option<SheetNote> {
    if event.is_cancelled(pool) {
        return Some(SheetNote::Cancelled { pool: pool.clone() });
    }
    let rounds = crate::schedule::rounds_of(event, rules, pool);
    let open_tables = event.group(pool).map_or(0, |g| g.open_games(after_round));
    (after_round < rounds || open_tables > 0).then_some(SheetNote::Provisional {
        after_round,
        rounds,
        open_tables,
    })
}

/// The fen set aside for `places` of pool `pool`: none for a cancelled group, whose money
/// is never paid.
pub(super) fn budget_of(event: &Event, pool: &GroupId, places: &[PrizePlace]) -> u64 {
    if event.is_cancelled(pool) {
        0
    } else {
        budget_fen(places)
    }
}

/// One prize list's part of the sheet before `MultiplePrizes` is settled: its awards over
/// the standings of its pool (leaving out `excluded`), the money of each place, and the notes.
pub(super) fn evaluate_list(
    list: &PrizeList,
    event: &Event,
    rules: &Rulebook,
    standings: &BTreeMap<GroupId, Standings>,
    excluded: &BTreeSet<PlayerId>,
) -> ListSheet {
    let (pool, sections) = resolve_pool(event, rules, &list.group);
    let budget = budget_of(event, &pool, &list.places);
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
    sheet
        .notes
        .extend(provisional(event, rules, &pool, st.after_round));
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
pub(super) fn line_notes(
    sheet: &mut ListSheet,
    rows: &[super::ListRow],
    list: &PrizeList,
    event: &Event,
) {
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
