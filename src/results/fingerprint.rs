//! The pairing code (编排码): a short, stable fingerprint of one round's pairing that
//! every results file qiwang writes carries on each row, so that a file printed for a
//! pairing that was later undone, re-made or edited by hand is refused instead of being
//! applied to other games.
//!
//! Owns only the hash; it must not depend on anything that changes between runs or
//! builds (no `HashMap` order, no `DefaultHasher`, whose output Rust may change).
//!
//! The code is FNV-1a (64 bit) over a canonical text of the round, folded to 32 bits and
//! written as `P` and eight upper-case hex digits, e.g. `P1A2B3C4D`. The leading letter
//! keeps Excel from reading the code as a number (`12E45678` would become 1.2E+46). The
//! canonical text is, line by line:
//!
//! ```text
//! qiwang pairing v1
//! group <pool id>
//! round <number>
//! game <table> <red id> <black id>     one line per game, by table
//! bye <player id>                      one line per bye, by player id
//! ```
//!
//! Results are not part of it: a file reprinted after some results were entered keeps its
//! code, and a changed colour, table or opponent changes it.

use crate::model::{GroupId, Pairing, Round};

/// FNV-1a 64-bit offset basis and prime (Fowler–Noll–Vo, as published).
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a over `bytes`.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(FNV_PRIME)
    })
}

/// The canonical text of `pool`'s round `round` that the code hashes (see the module
/// comment): games by table, byes by player, whatever order the round stores them in.
///
/// Written into one buffer, the games sorted as numbers: a `String` per game sorted as
/// zero-padded text was a twentieth of `result --from` at 100,000 players. Two games at
/// one table (a state edited by hand) keep the order that text gave them: by the text of
/// their seats. Table 0 is written as no digits, as the padded text trimmed of its zeros
/// was.
fn canonical_text(pool: &GroupId, round: &Round) -> String {
    use std::fmt::Write;
    let mut games: Vec<(u32, u32, u32)> = Vec::new();
    let mut byes = Vec::new();
    for pairing in &round.pairings {
        match pairing {
            Pairing::Game {
                table, red, black, ..
            } => games.push((*table, red.0, black.0)),
            Pairing::Bye { player } => byes.push(player.0),
        }
    }
    games.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| format!("{} {}", a.1, a.2).cmp(&format!("{} {}", b.1, b.2)))
    });
    byes.sort_unstable();
    let mut text = String::with_capacity(64 + 24 * games.len() + 12 * byes.len());
    // Writing to a `String` does not fail.
    let _ = write!(
        text,
        "qiwang pairing v1\ngroup {}\nround {}\n",
        pool.0, round.number
    );
    for (table, red, black) in games {
        text.push_str("game ");
        if table != 0 {
            let _ = write!(text, "{table}");
        }
        let _ = writeln!(text, " {red} {black}");
    }
    for player in byes {
        let _ = writeln!(text, "bye {player}");
    }
    text
}

/// The pairing code of `pool`'s round `round`, e.g. `P1A2B3C4D`.
pub fn pairing_code(pool: &GroupId, round: &Round) -> String {
    let hash = fnv1a64(canonical_text(pool, round).as_bytes());
    // Fold the halves, so that every bit of the 64-bit hash counts.
    let short = (hash >> 32) ^ (hash & 0xffff_ffff);
    format!("P{short:08X}")
}

/// A pairing code as written in a cell, in the form [`pairing_code`] gives: trimmed,
/// full-width forms folded, upper case. Empty when the cell is.
pub fn normalize_code(cell: &str) -> String {
    crate::registration::normalise::clean(cell)
        .replace(' ', "")
        .to_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{GameResult, Outcome, PlayerId};

    fn game(table: u32, red: u32, black: u32) -> Pairing {
        Pairing::Game {
            table,
            red: PlayerId(red),
            black: PlayerId(black),
            result: None,
        }
    }

    fn round(number: u32, pairings: Vec<Pairing>) -> Round {
        Round { number, pairings }
    }

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    /// The code is pinned: a change here makes every results file already printed
    /// unreadable, so it needs a new version line, not a new value.
    #[test]
    fn the_code_is_stable_across_runs_and_builds() {
        let r = round(
            3,
            vec![
                game(1, 4, 7),
                game(2, 1, 9),
                Pairing::Bye {
                    player: PlayerId(5),
                },
            ],
        );
        let youth = GroupId::new("youth");
        assert_eq!(
            canonical_text(&youth, &r),
            "qiwang pairing v1\ngroup youth\nround 3\ngame 1 4 7\ngame 2 1 9\nbye 5\n"
        );
        let hash = fnv1a64(canonical_text(&youth, &r).as_bytes());
        let want = format!("P{:08X}", (hash >> 32) ^ (hash & 0xffff_ffff));
        assert_eq!(pairing_code(&youth, &r), want);
        assert_eq!(pairing_code(&youth, &r), "PB6788A1C");
    }

    /// The text of the edge cases a state edited by hand may hold, pinned: two games at
    /// one table (ordered by the text of their seats, so 10 before 9), table 0 (written as
    /// no digits) and tables of every length up to the largest.
    #[test]
    fn the_text_of_odd_tables_is_pinned() {
        let r = round(
            1,
            vec![
                game(u32::MAX, 2, 3),
                game(7, 9, 1),
                game(0, 4, 5),
                game(7, 10, 8),
                game(100, 6, 11),
                Pairing::Bye {
                    player: PlayerId(20),
                },
                Pairing::Bye {
                    player: PlayerId(12),
                },
            ],
        );
        let open = GroupId::new("open");
        assert_eq!(
            canonical_text(&open, &r),
            "qiwang pairing v1\ngroup open\nround 1\ngame  4 5\ngame 7 10 8\ngame 7 9 1\n\
             game 100 6 11\ngame 4294967295 2 3\nbye 12\nbye 20\n"
        );
    }

    #[test]
    fn order_and_results_do_not_count_but_every_seat_does() {
        let youth = GroupId::new("youth");
        let base = round(2, vec![game(1, 1, 2), game(2, 3, 4), game(10, 5, 6)]);
        let code = pairing_code(&youth, &base);
        assert!(code.starts_with('P') && code.len() == 9, "{code}");
        // Stored in another order, or with results entered: the same pairing.
        let mut shuffled = base.clone();
        shuffled.pairings.reverse();
        assert_eq!(pairing_code(&youth, &shuffled), code);
        let mut played = base.clone();
        if let Pairing::Game { result, .. } = &mut played.pairings[0] {
            *result = Some(GameResult {
                outcome: Outcome::RedWin,
                red_fouls: 1,
                black_fouls: 0,
                late: false,
            });
        }
        assert_eq!(pairing_code(&youth, &played), code);
        // Colours swapped, players moved between tables, a table renumbered, another
        // round or group, a bye instead of a game: each a different code.
        let changed = [
            (
                youth.clone(),
                round(2, vec![game(1, 2, 1), game(2, 3, 4), game(10, 5, 6)]),
            ),
            (
                youth.clone(),
                round(2, vec![game(1, 1, 3), game(2, 2, 4), game(10, 5, 6)]),
            ),
            (
                youth.clone(),
                round(2, vec![game(1, 1, 2), game(2, 3, 4), game(3, 5, 6)]),
            ),
            (youth.clone(), round(3, base.pairings.clone())),
            (GroupId::new("kids"), base.clone()),
            (
                youth.clone(),
                round(
                    2,
                    vec![
                        game(1, 1, 2),
                        game(2, 3, 4),
                        Pairing::Bye {
                            player: PlayerId(5),
                        },
                    ],
                ),
            ),
        ];
        let mut codes = std::collections::BTreeSet::from([code.clone()]);
        for (pool, r) in &changed {
            assert!(codes.insert(pairing_code(pool, r)), "{pool:?} {r:?}");
        }
    }

    #[test]
    fn a_code_cell_is_read_whatever_its_case_and_width() {
        assert_eq!(normalize_code(" p1a2b3c4d "), "P1A2B3C4D");
        assert_eq!(normalize_code("Ｐ１ａ２Ｂ３c４D"), "P1A2B3C4D");
        assert_eq!(normalize_code(""), "");
    }
}
