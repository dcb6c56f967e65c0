//! A player placed in two prize lists (`MultiplePrizes::HigherOnly`): the awards each
//! player holds, the choice of the one to keep, and holding every award of a player whose
//! choice waits for a playoff.

use super::sheet::ListSheet;
use crate::model::PlayerId;
use std::collections::{BTreeMap, BTreeSet};

/// One award a player holds, for the `HigherOnly` choice.
pub(super) struct Holding {
    pub(super) list: usize,
    pub(super) place: u32,
    pub(super) money: u64,
    pub(super) pending: bool,
    pub(super) name: String,
}

impl Holding {
    /// Sort key of the best award to keep: most money, then earlier list, better place.
    pub(super) fn rank_key(&self) -> (std::cmp::Reverse<u64>, usize, u32) {
        (std::cmp::Reverse(self.money), self.list, self.place)
    }
}

pub(super) fn holdings(sheets: &[ListSheet]) -> BTreeMap<PlayerId, Vec<Holding>> {
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
pub(super) fn hold_undecided(sheets: &mut [ListSheet]) {
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
