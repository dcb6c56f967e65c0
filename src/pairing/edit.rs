//! Manual edits of a proposed round (the arbiter's pencil). Each edit returns a new round
//! in which every player still appears exactly once; the CLI then runs
//! [`super::check_round`] and requires `--force` for any violation.

use super::PairingError;
use crate::model::{Pairing, PlayerId, Round};

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
    let taken: std::collections::BTreeSet<u32> = kept.iter().filter_map(Pairing::table).collect();
    let mut free = (1..).filter(move |t| !taken.contains(t));
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
}
