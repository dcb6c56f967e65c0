//! Checking a results file's rows against the event: each round's pairing code and seats
//! worked out once, stale pairing codes gathered into one refusal per code, a recording
//! problem traced back to its row, and a group name resolved to the pool it plays in.

use super::rows::CsvRow;
use crate::model::{Event, GroupId};
use crate::results::fingerprint::pairing_code;
use crate::results::mismatch::Mismatch;
use crate::results::seats::{Roster, RoundAt};
use crate::results::{ResultEntry, ResultError};
use crate::rulebook::Rulebook;
use std::collections::BTreeMap;

/// Rows whose pairing code is not their round's now: (pool, round, code) → lines.
pub(super) type Stale = BTreeMap<(GroupId, u32, String), Vec<u64>>;

/// Checks rows against the event: each round's pairing code and seats are worked out
/// once, however many rows name it.
pub(super) struct RowChecker<'a> {
    pub(super) event: &'a Event,
    pub(super) rules: &'a Rulebook,
    pub(super) roster: &'a Roster<'a>,
    /// (pool, round) → its pairing code and seats; `None` for a round that does not exist.
    pub(super) rounds: BTreeMap<(GroupId, u32), Option<(String, RoundAt<'a>)>>,
}

impl<'a> RowChecker<'a> {
    fn round(&mut self, pool: &GroupId, number: u32) -> Option<&(String, RoundAt<'a>)> {
        let (event, rules, roster) = (self.event, self.rules, self.roster);
        self.rounds
            .entry((pool.clone(), number))
            .or_insert_with(|| {
                let round = event.group(pool)?.round(number)?;
                let code = pairing_code(pool, round);
                Some((code, RoundAt::new(roster, rules, pool, round)))
            })
            .as_ref()
    }

    /// Checks who a row says played against its game, and finds its table when the file
    /// has none. `Ok(None)` for a row left out and noted in `stale` (printed for another
    /// pairing: its names would only repeat that); the row's table (0 when it has none)
    /// when its round does not exist (recording says so).
    pub(super) fn check(
        &mut self,
        pool: &GroupId,
        row: &CsvRow,
        stale: &mut Stale,
    ) -> Result<Option<u32>, ResultError> {
        let round = self.round(pool, row.round);
        if !row.code.is_empty() && round.map(|(code, _)| code) != Some(&row.code) {
            stale
                .entry((pool.clone(), row.round, row.code.clone()))
                .or_default()
                .push(row.line);
            return Ok(None);
        }
        let Some((_, at)) = round else {
            return Ok(Some(row.table.unwrap_or(0)));
        };
        let table = match row.table {
            Some(table) => {
                at.check_table(table, &row.seats)?;
                table
            }
            None => at.find_table(&row.seats)?,
        };
        Ok(Some(table))
    }
}

/// One refusal per pairing code that is not its round's now, naming the rows, the code
/// they carry and the round's code now (or that the round is gone), and whose round the
/// code is when it is another's.
pub(super) fn stale_errors(
    event: &Event,
    rules: &Rulebook,
    source: &str,
    stale: Stale,
) -> Vec<ResultError> {
    // Every round's code is worked out only for a file that has a stale row.
    if stale.is_empty() {
        return Vec::new();
    }
    let current_codes: Vec<(GroupId, u32, String)> = rules
        .pools()
        .filter_map(|g| event.group(&g.id).map(|s| (g.id.clone(), s)))
        .flat_map(|(id, s)| {
            s.rounds
                .iter()
                .map(move |r| (id.clone(), r.number, pairing_code(&id, r)))
        })
        .collect();
    stale
        .into_iter()
        .map(|((pool, round, written), lines)| {
            let current = event
                .group(&pool)
                .and_then(|g| g.round(round))
                .map(|r| pairing_code(&pool, r));
            let belongs_to = current_codes
                .iter()
                .find(|(_, _, code)| *code == written)
                .map(|(g, r, _)| (rules.group_name(g), *r));
            Mismatch::StalePairing {
                source_name: source.to_string(),
                group: rules.group_name(&pool),
                round,
                written,
                current,
                belongs_to,
                lines: lines
                    .iter()
                    .map(|l| u32::try_from(*l).unwrap_or(u32::MAX))
                    .collect(),
            }
            .into()
        })
        .collect()
}

/// The position of the entry a recording problem is about, if it names one: the first
/// match from `from` on (problems come one per entry, in entry order).
pub(super) fn entry_of(
    problem: &ResultError,
    entries: &[(u32, ResultEntry)],
    from: usize,
) -> Option<usize> {
    use ResultError as E;
    let (round, table) = match problem {
        E::RoundMissing { round, .. } | E::RoundOutsideSchedule { round, .. } => (*round, None),
        E::TableMissing { round, table, .. }
        | E::DuplicateTable { round, table }
        | E::FoulsOnForfeit { round, table, .. }
        | E::FoulsOverLimit { round, table, .. }
        | E::FoulsContradictWinner { round, table, .. }
        | E::BothAtFoulLimit { round, table, .. } => (*round, Some(*table)),
        _ => return None,
    };
    let mut matching = entries
        .iter()
        .enumerate()
        .filter(|(_, (r, e))| *r == round && table.is_none_or(|t| e.table == t))
        .map(|(i, _)| i);
    // A table given twice is reported at its second row.
    if matches!(problem, E::DuplicateTable { .. }) {
        matching.next();
    }
    matching.find(|&i| i >= from)
}

/// The pool a group name of a results file means: id, regulation name or alias; a
/// section is paired in another pool, a merged group in the group it joined.
pub(super) fn pool_named(event: &Event, rules: &Rulebook, text: &str) -> Option<GroupId> {
    let group = rules.find_group(text)?;
    let mut pool = rules.pool_of(group).clone();
    let mut hops = 0;
    while let Some(into) = event.group(&pool).and_then(|g| g.merged_into.clone()) {
        pool = into;
        hops += 1;
        if hops > rules.groups.len() {
            break;
        }
    }
    Some(pool)
}
