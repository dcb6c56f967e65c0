//! Manual edits of a proposed round (the arbiter's pencil). Each edit returns a new round
//! in which every player still appears exactly once; [`edit_round`] makes the edit on the
//! pool's newest unplayed round, runs [`super::check_round`] on it, refuses a hard-rule
//! break without `force`, and drops the relaxations the edit made stale. A table another
//! pool of the hall holds in the round is never given (one hall numbering), `force` or not.

use super::{PairingError, Violation, check_round, hall, prune_relaxations};
use crate::i18n::Text;
use crate::model::{Event, GroupId, Pairing, PlayerId, Round};
use crate::rulebook::{Lang, Rulebook};
use std::collections::BTreeMap;

fn require(round: &Round, id: PlayerId) -> Result<(), PairingError> {
    if round.pairing_of(id).is_some() {
        Ok(())
    } else {
        Err(PairingError::PlayerNotInRound {
            player: id,
            round: round.number,
        })
    }
}

fn sort(pairings: &mut [Pairing]) {
    pairings.sort_by_key(|p| p.table().unwrap_or(u32::MAX));
}

/// Exchanges two players' places (table and colour, or the bye). At one table this swaps
/// the colours. Results of the tables touched are cleared: they were other games.
pub fn swap_players(round: &Round, a: PlayerId, b: PlayerId) -> Result<Round, PairingError> {
    if a == b {
        return Err(PairingError::SamePlayer { player: a });
    }
    require(round, a)?;
    require(round, b)?;
    let swap = |id: PlayerId| {
        if id == a {
            b
        } else if id == b {
            a
        } else {
            id
        }
    };
    let mut out = round.clone();
    for p in &mut out.pairings {
        if !(p.involves(a) || p.involves(b)) {
            continue;
        }
        match p {
            Pairing::Game {
                red, black, result, ..
            } => {
                *red = swap(*red);
                *black = swap(*black);
                *result = None;
            }
            Pairing::Bye { player } => *player = swap(*player),
        }
    }
    Ok(out)
}

/// Puts `red` against `black` at `table`.
///
/// Semantics: both players leave their old tables (or the bye); whoever sat at `table`
/// leaves it too. The displaced players (the old opponents, then the old occupants of
/// `table`) are paired two by two, in that order, the first of each two on red, at the
/// lowest table numbers left free (a table the edit emptied first, so no number is
/// skipped). One left over takes the bye; if someone already has the
/// bye, the two meet at a new table instead. Results of every table touched are cleared.
pub fn set_pairing(
    round: &Round,
    table: u32,
    red: PlayerId,
    black: PlayerId,
) -> Result<Round, PairingError> {
    set_pairing_in(round, table, red, black, &BTreeMap::new())
}

/// [`set_pairing`] in a hall whose other pools hold the numbers `held` in this round
/// (docs/rules.md §12 (table numbers)): the displaced players' new tables skip them.
fn set_pairing_in(
    round: &Round,
    table: u32,
    red: PlayerId,
    black: PlayerId,
    held: &BTreeMap<u32, GroupId>,
) -> Result<Round, PairingError> {
    if table == 0 {
        return Err(PairingError::TableZero);
    }
    if red == black {
        return Err(PairingError::SamePlayer { player: red });
    }
    require(round, red)?;
    require(round, black)?;
    let mut displaced: Vec<PlayerId> = Vec::new();
    let opponents = |id: PlayerId| {
        round
            .pairing_of(id)
            .into_iter()
            .flat_map(crate::model::Pairing::players)
    };
    let occupants = round
        .game_at(table)
        .into_iter()
        .flat_map(crate::model::Pairing::players);
    for x in opponents(red).chain(opponents(black)).chain(occupants) {
        if x != red && x != black && !displaced.contains(&x) {
            displaced.push(x);
        }
    }
    let mut kept: Vec<Pairing> = round
        .pairings
        .iter()
        .filter(|p| !(p.involves(red) || p.involves(black) || p.table() == Some(table)))
        .cloned()
        .collect();
    kept.push(Pairing::Game {
        table,
        red,
        black,
        result: None,
    });
    // New tables take the lowest numbers no table holds (those the edit emptied first),
    // so the round keeps tables 1…n without a gap.
    // From the round's first table: a pool numbered on in the hall (docs/rules.md §12 (table numbers))
    // keeps its range.
    let first = round
        .pairings
        .iter()
        .filter_map(Pairing::table)
        .min()
        .unwrap_or(1);
    let taken: std::collections::BTreeSet<u32> = kept.iter().filter_map(Pairing::table).collect();
    let mut free = (first..).filter(move |t| !taken.contains(t) && !held.contains_key(t));
    let mut chunks = displaced.chunks_exact(2);
    for pair in chunks.by_ref() {
        kept.push(Pairing::Game {
            table: free.next().expect("table numbers left"),
            red: pair[0],
            black: pair[1],
            result: None,
        });
    }
    if let [single] = chunks.remainder() {
        match kept.iter().position(|p| matches!(p, Pairing::Bye { .. })) {
            Some(i) => {
                let Pairing::Bye { player: other } = kept.remove(i) else {
                    unreachable!("position found a bye");
                };
                kept.push(Pairing::Game {
                    table: free.next().expect("table numbers left"),
                    red: *single,
                    black: other,
                    result: None,
                });
            }
            None => kept.push(Pairing::Bye { player: *single }),
        }
    }
    sort(&mut kept);
    Ok(Round {
        number: round.number,
        pairings: kept,
    })
}

/// A hand edit of a pool's newest round (`qiwang pairing swap|set`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// [`swap_players`]: the two exchange places.
    Swap(PlayerId, PlayerId),
    /// [`set_pairing`]: `red` against `black` at `table`.
    Set {
        /// The table to seat them at.
        table: u32,
        /// The player on red.
        red: PlayerId,
        /// The player on black.
        black: PlayerId,
    },
}

/// A round [`edit_round`] stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edited {
    /// The round's number.
    pub round: u32,
    /// Its pairings after the edit.
    pub pairings: Vec<Pairing>,
    /// The hard rules it breaks, stored anyway with `force` (the log keeps them).
    pub forced: Vec<Violation>,
}

/// Why [`edit_round`] stored nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// The pool has no round yet.
    NoRound {
        /// The pool.
        group: GroupId,
    },
    /// The newest round has results: only an unplayed round can be edited.
    HasResults {
        /// The pool.
        group: GroupId,
        /// The newest round.
        round: u32,
    },
    /// The edit itself is impossible (a player not in the round, the same player twice,
    /// table 0).
    Edit(PairingError),
    /// `pairing set` names a table another pool of the hall holds in this round: one hall
    /// numbering gives no number twice in a round (docs/rules.md §12), `force` or not.
    SharedTable {
        /// The table asked for.
        table: u32,
        /// The pool holding it, as the rulebook names it.
        group: String,
        /// The round.
        round: u32,
    },
    /// The edited round breaks hard rules and `force` was not given.
    HardRules(Vec<Violation>),
}

impl EditError {
    /// The message in both languages, players named by `name` (`张三(12)`).
    pub fn text(&self, name: &dyn Fn(PlayerId) -> String) -> Text {
        match self {
            EditError::NoRound { group } => Text::new(
                format!("组别 `{group}` 还没有轮次：请先运行 `qiwang pair`"),
                format!("{group} has no round yet: run `qiwang pair` first"),
            ),
            EditError::HasResults { group, round } => Text::new(
                format!("组别 `{group}` 第 {round} 轮已有成绩：只能修改尚未比赛的轮次"),
                format!(
                    "round {round} of {group} has results: only an unplayed round can be edited"
                ),
            ),
            EditError::Edit(e) => e.text_naming(name),
            EditError::SharedTable {
                table,
                group,
                round,
            } => Text::new(
                format!(
                    "第 {table} 台是 `{group}` 第 {round} 轮的台号：同一赛场一轮中台号不能重复（`--force` 也不行），请另选一个台号"
                ),
                format!(
                    "table {table} is a table of `{group}` in round {round}: no number is given twice in a round of one hall (not even with `--force`); choose another table"
                ),
            ),
            EditError::HardRules(violations) => {
                let list = |l: Lang| {
                    violations
                        .iter()
                        .map(|v| format!("  - {}", v.text(l, name)))
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                Text::new(
                    format!(
                        "这次修改违反了硬性规则：\n{}\n如仍要保存请加 `--force`（会记入日志）",
                        list(Lang::Zh)
                    ),
                    format!(
                        "this edit breaks a hard rule:\n{}\nadd `--force` to store it anyway (it is logged)",
                        list(Lang::En)
                    ),
                )
            }
        }
    }
}

/// Makes `edit` on the newest round of `pool` and stores it: refused when the pool has no
/// round, when that round has results, when the edit is impossible, or when the edited
/// round breaks a hard rule (docs/rules.md §2.3) and `force` is not given. A stored edit
/// drops the relaxations it made stale. Nothing changes on an error.
pub fn edit_round(
    event: &mut Event,
    rules: &Rulebook,
    pool: &GroupId,
    edit: Edit,
    force: bool,
) -> Result<Edited, EditError> {
    let round = event
        .group(pool)
        .and_then(|g| g.last_round())
        .ok_or_else(|| EditError::NoRound {
            group: pool.clone(),
        })?;
    if round.has_results() {
        return Err(EditError::HasResults {
            group: pool.clone(),
            round: round.number,
        });
    }
    // One hall numbering (docs/rules.md §12): the numbers the hall's other pools hold in
    // this round are neither asked for nor given to the displaced players.
    let held = hall::held(event, rules, pool, round);
    if let Edit::Set { table, .. } = edit
        && let Some(other) = held.get(&table)
    {
        return Err(EditError::SharedTable {
            table,
            group: rules.group_name(other),
            round: round.number,
        });
    }
    let edited = match edit {
        Edit::Swap(a, b) => swap_players(round, a, b),
        Edit::Set { table, red, black } => set_pairing_in(round, table, red, black, &held),
    }
    .map_err(EditError::Edit)?;
    let violations = check_round(event, rules, pool, &edited);
    if !violations.is_empty() && !force {
        return Err(EditError::HardRules(violations));
    }
    let number = edited.number;
    let pairings = edited.pairings.clone();
    if let Some(slot) = event.group_mut(pool).rounds.last_mut() {
        *slot = edited;
    }
    prune_relaxations(event, rules, pool, number);
    Ok(Edited {
        round: number,
        pairings,
        forced: violations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(table: u32, red: u32, black: u32) -> Pairing {
        Pairing::Game {
            table,
            red: PlayerId(red),
            black: PlayerId(black),
            result: None,
        }
    }

    fn round(p: Vec<Pairing>) -> Round {
        Round {
            number: 3,
            pairings: p,
        }
    }

    #[test]
    fn swap_across_tables_and_bye() {
        let r = round(vec![
            g(1, 1, 2),
            g(2, 3, 4),
            Pairing::Bye {
                player: PlayerId(5),
            },
        ]);
        let s = swap_players(&r, PlayerId(2), PlayerId(5)).unwrap();
        assert_eq!(
            s.pairings,
            vec![
                g(1, 1, 5),
                g(2, 3, 4),
                Pairing::Bye {
                    player: PlayerId(2)
                }
            ]
        );
        let s = swap_players(&r, PlayerId(1), PlayerId(2)).unwrap();
        assert_eq!(s.pairings[0], g(1, 2, 1));
        assert_eq!(
            swap_players(&r, PlayerId(1), PlayerId(9)),
            Err(PairingError::PlayerNotInRound {
                player: PlayerId(9),
                round: 3
            })
        );
    }

    #[test]
    fn set_pairing_rehomes_displaced_players() {
        let r = round(vec![g(1, 1, 2), g(2, 3, 4), g(3, 5, 6)]);
        // 1 meets 3 at table 1: 2 and 4 are displaced and meet at the table 3 left.
        let s = set_pairing(&r, 1, PlayerId(1), PlayerId(3)).unwrap();
        assert_eq!(s.pairings, vec![g(1, 1, 3), g(2, 2, 4), g(3, 5, 6)]);
        // 1 meets 5 at table 2: 2, 6, then 3 and 4 from table 2 are displaced, to the
        // tables emptied (1 and 3).
        let s = set_pairing(&r, 2, PlayerId(1), PlayerId(5)).unwrap();
        assert_eq!(s.pairings, vec![g(1, 2, 6), g(2, 1, 5), g(3, 3, 4)]);
        // Two players who already meet, set at the other table: the pair there moves to
        // the table they left, not to a new one (no table 1 left empty).
        let r2 = round(vec![g(1, 4, 1), g(2, 2, 3)]);
        let s = set_pairing(&r2, 2, PlayerId(4), PlayerId(1)).unwrap();
        assert_eq!(s.pairings, vec![g(1, 2, 3), g(2, 4, 1)]);
        // With a bye: the single displaced player meets the bye player.
        let r = round(vec![
            g(1, 1, 2),
            g(2, 3, 4),
            Pairing::Bye {
                player: PlayerId(5),
            },
        ]);
        let s = set_pairing(&r, 1, PlayerId(1), PlayerId(5)).unwrap();
        assert_eq!(
            s.pairings,
            vec![
                g(1, 1, 5),
                g(2, 3, 4),
                Pairing::Bye {
                    player: PlayerId(2)
                }
            ]
        );
        let s = set_pairing(&r, 1, PlayerId(1), PlayerId(3)).unwrap();
        assert_eq!(
            s.pairings,
            vec![
                g(1, 1, 3),
                g(2, 2, 4),
                Pairing::Bye {
                    player: PlayerId(5)
                }
            ]
        );
    }

    /// The tables the displaced players get skip the numbers other pools of the hall hold
    /// (docs/rules.md §12 (table numbers)): a pool at 1–5 and 9 (an earlier edit took 9)
    /// beside a pool at 6–8 seats its second displaced pair at 9, not at 6.
    #[test]
    fn set_pairing_gives_the_displaced_no_number_the_hall_holds() {
        let r = round(vec![
            g(1, 1, 2),
            g(2, 3, 4),
            g(3, 5, 6),
            g(4, 7, 8),
            g(5, 9, 10),
            g(9, 11, 12),
        ]);
        let kids = GroupId::new("kids");
        let held: BTreeMap<u32, GroupId> = (6..=8).map(|t| (t, kids.clone())).collect();
        // 11 meets 9 at table 1: 12, 10, then 1 and 2 from table 1 are displaced, to 5 and
        // (past the held 6–8) 9.
        let s = set_pairing_in(&r, 1, PlayerId(11), PlayerId(9), &held).unwrap();
        let want = vec![
            g(1, 11, 9),
            g(2, 3, 4),
            g(3, 5, 6),
            g(4, 7, 8),
            g(5, 12, 10),
            g(9, 1, 2),
        ];
        assert_eq!(s.pairings, want);
        // Without another pool in the hall, the lowest free number is taken.
        let s = set_pairing(&r, 1, PlayerId(11), PlayerId(9)).unwrap();
        assert_eq!(s.pairings[5], g(6, 1, 2));
    }

    /// An event of 8 players with round 1 played and round 2 paired, not played.
    fn round_two_unplayed() -> (Event, Rulebook, GroupId) {
        let sim = crate::pairing::simulate::synthetic_mid_event(8, 1, 5, 21);
        let (mut event, rules, pool) = (sim.event, sim.rules, sim.group);
        let plan = crate::pairing::pair_next_round(&event, &rules, &pool, 21).expect("pairs");
        plan.apply(&mut event, &pool, 21);
        (event, rules, pool)
    }

    /// What `edit_round` refuses leaves the event as it was: no round yet, a round with
    /// results, an impossible edit, a hard-rule break without `force`.
    #[test]
    fn refused_edits_change_nothing() {
        let (event, rules, pool) = round_two_unplayed();
        let table = event.group(&pool).unwrap().rounds[1].pairings[0].clone();
        let Pairing::Game { red, black, .. } = table else {
            panic!("table 1 is a game")
        };
        // Round 1's opponent of `red`: swapped with `black`, `red` meets them again.
        let met = event.group(&pool).unwrap().rounds[0]
            .pairings
            .iter()
            .find_map(|p| match *p {
                Pairing::Game {
                    red: r, black: b, ..
                } if r == red => Some(b),
                Pairing::Game {
                    red: r, black: b, ..
                } if b == red => Some(r),
                _ => None,
            })
            .expect("red played round 1");
        let mut empty = event.clone();
        empty.group_mut(&pool).rounds.clear();
        let mut played = event.clone();
        played.group_mut(&pool).rounds.pop();
        let cases = [
            (empty, Edit::Swap(red, black), "no round"),
            (played, Edit::Swap(red, black), "results"),
            (event.clone(), Edit::Swap(red, red), "same player"),
            (event.clone(), Edit::Swap(black, met), "rematch"),
        ];
        for (mut ev, edit, what) in cases {
            let before = ev.clone();
            let err = edit_round(&mut ev, &rules, &pool, edit, false).expect_err(what);
            let want = match what {
                "no round" => matches!(err, EditError::NoRound { .. }),
                "results" => matches!(err, EditError::HasResults { round: 1, .. }),
                "same player" => matches!(err, EditError::Edit(PairingError::SamePlayer { .. })),
                _ => matches!(&err, EditError::HardRules(v) if !v.is_empty()),
            };
            assert!(want, "{what}: {err:?}");
            assert_eq!(ev, before, "{what}: nothing changes");
            let text = err.text(&|id| format!("P{}", id.0));
            assert_ne!(text.zh, text.en, "{what}");
        }
    }

    /// With `force` the breaking edit is stored, the round is the swap's, and the log gets
    /// the violations.
    #[test]
    fn a_forced_edit_is_stored_with_its_violations() {
        let (mut event, rules, pool) = round_two_unplayed();
        let round = event.group(&pool).unwrap().rounds[1].clone();
        let (a, b) = match (&round.pairings[0], &round.pairings[1]) {
            (Pairing::Game { red, .. }, Pairing::Game { red: other, .. }) => (*red, *other),
            _ => panic!("two games"),
        };
        let want = swap_players(&round, a, b).unwrap();
        let violations = check_round(&event, &rules, &pool, &want);
        let edited = edit_round(&mut event, &rules, &pool, Edit::Swap(a, b), true).unwrap();
        assert_eq!(edited.round, 2);
        assert_eq!(edited.pairings, want.pairings);
        assert_eq!(edited.forced, violations);
        assert_eq!(event.group(&pool).unwrap().rounds[1], want, "stored");
    }
}
