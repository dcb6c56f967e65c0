//! Round 1 (docs/rules.md §2.2): pairs by pairing number in the rulebook's mode, colours by its
//! first-round colour mode, the bye to the highest number (or by lot) in an odd field,
//! and round-1 team avoidance by swapping lower-half players (S15 comment), which leaves
//! exactly the fewest team-mate tables when they cannot part every unit.

use super::context::{ColourStep, PlayerState, Rules};
use super::engine::Field;
use super::explain::{ByeNote, ByeReason, ColourNote, Explanation, PassReason, Round1Note};
use super::{Blocker, blockers};
use crate::model::{Pairing, Relax, Round};
use crate::rulebook::{Round1Bye, Round1Colour, Round1Pairing};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Pairs round 1. The RNG is derived from `seed` but kept apart from the number draw, so
/// the draw stays the same whatever the mode.
pub(super) fn pair(
    ctx: &Rules,
    mut players: Vec<PlayerState>,
    seed: u64,
    name: &dyn Fn(crate::model::PlayerId) -> String,
) -> Result<(Round, Explanation), Vec<Blocker>> {
    let cfg = &ctx.rules.pairing;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5157_4e47_0001);
    players.sort_by_key(|p| (p.number, p.id));
    let mut bye = None;
    let mut passed_over = Vec::new();
    if players.len() % 2 == 1 {
        let order: Vec<usize> = match cfg.round1_bye {
            // Dalian 2025: 如参赛棋手逢单，最大号为轮空.
            Round1Bye::HighestNumber => (0..players.len()).rev().collect(),
            Round1Bye::Lot => {
                // The lot's pick first; the rest, drawn only when it is needed, after it.
                let first = rng.gen_range(0..players.len());
                std::iter::once(first)
                    .chain((0..players.len()).filter(|&i| i != first))
                    .collect()
            }
        };
        // As in later rounds (docs/rules.md §4.2), the bye passes over a player whose bye
        // leaves no legal pairing for the rest (round 1's only hard rule is team
        // avoidance) and, when no bye leaves one, a player whose bye leaves more
        // team-mates to meet than another's (§2.5: the fewest relaxations).
        let mates = MatesWithout::new(ctx, &players);
        let fewest = mates.fewest(&players);
        let mut order = order.into_iter();
        let first = order.next().expect("an odd field has a player");
        let at = if mates.of(Some(&players[first])) == fewest {
            first
        } else {
            let mut rest: Vec<usize> = order.collect();
            if cfg.round1_bye == Round1Bye::Lot {
                rest.shuffle(&mut rng);
            }
            let k = rest
                .iter()
                .position(|&i| mates.of(Some(&players[i])) == fewest)
                .expect("some player's bye leaves the fewest");
            let why = if fewest == 0 {
                PassReason::WouldBlockPairing
            } else {
                PassReason::MoreTeamMates
            };
            passed_over = std::iter::once(first)
                .chain(rest[..k].iter().copied())
                .map(|i| (players[i].id, why.clone()))
                .collect();
            rest[k]
        };
        bye = Some(players.remove(at));
    }
    let m = players.len();
    let h = m / 2;
    let mut pairs: Vec<(usize, usize)> = match cfg.round1 {
        Round1Pairing::Adjacent => (0..h).map(|t| (2 * t, 2 * t + 1)).collect(),
        Round1Pairing::Halves => (0..h).map(|t| (t, t + h)).collect(),
        Round1Pairing::FoldFirstLast => (0..h).map(|t| (t, m - 1 - t)).collect(),
        Round1Pairing::Random => {
            let mut order: Vec<usize> = (0..m).collect();
            order.shuffle(&mut rng);
            (0..h).map(|t| (order[2 * t], order[2 * t + 1])).collect()
        }
    };
    let conflict = |a: usize, b: usize| ctx.team_conflict(&players[a], &players[b]);
    // Team-mates conflict exactly when they share a unit. A table of unit U's players
    // that no swap can part proves every other table holds a player of U (a swap needs a
    // table with neither player from U), so U holds more than half the players and no
    // team-clean pairing exists; no table of U can be parted after that either (no swap
    // makes a table without a player of U where there was none). So the tables left
    // are all of U, and exactly as many as must be: with every other table holding one
    // player of U, U's players beyond half of those seated meet each other — the fewest
    // team-mate tables (docs/rules.md §2.2), found without a matching.
    let mut crowded: Option<&str> = None;
    let mut left = Vec::new();
    for t in 0..pairs.len() {
        if !conflict(pairs[t].0, pairs[t].1) {
            continue;
        }
        let unit = players[pairs[t].0].team.as_deref();
        if crowded.is_some() && crowded == unit {
            left.push(t);
            continue;
        }
        // Swap the second (lower-half) player with the nearest later table's, then the
        // nearest earlier one's, keeping both tables clean.
        let fix = (t + 1..pairs.len())
            .chain((0..t).rev())
            .find(|&u| !conflict(pairs[t].0, pairs[u].1) && !conflict(pairs[u].0, pairs[t].1));
        match fix {
            Some(u) => {
                let tmp = pairs[t].1;
                pairs[t].1 = pairs[u].1;
                pairs[u].1 = tmp;
            }
            None => {
                crowded = unit;
                left.push(t);
            }
        }
    }
    if !left.is_empty() && !ctx.rules.pairing.relax.contains(&Relax::Team) {
        // Team avoidance may not be relaxed (`pairing.relax`, docs/rules.md §2.5): the
        // players of the tables left are named, with what bars each.
        let field = Field::new(
            Rules {
                rules: ctx.rules,
                round: ctx.round,
                final_round: ctx.final_round,
                total_rounds: ctx.total_rounds,
            },
            players.clone(),
        );
        let stuck: Vec<usize> = left
            .iter()
            .flat_map(|&t| [pairs[t].0, pairs[t].1])
            .collect();
        return Err(blockers(&field, &stuck, name));
    }
    let mut pairings = Vec::new();
    let mut colours = Vec::new();
    for (t, &(a, b)) in pairs.iter().enumerate() {
        let table = t as u32 + 1;
        let (lo, hi) = if (players[a].number, players[a].id) < (players[b].number, players[b].id) {
            (a, b)
        } else {
            (b, a)
        };
        let first_red = match ctx.rules.pairing.round1_colour {
            // 1-2, 4-3, 5-6, 8-7 … (Dalian 2025).
            Round1Colour::OddBoardLowerRed => table % 2 == 1,
            Round1Colour::UpperHalfRed | Round1Colour::AllLowerRed => true,
            Round1Colour::AllHigherRed => false,
            Round1Colour::ByLot => rng.gen_bool(0.5),
        };
        let (red, black) = if first_red { (lo, hi) } else { (hi, lo) };
        pairings.push(Pairing::Game {
            table,
            red: players[red].id,
            black: players[black].id,
            result: None,
        });
        colours.push(ColourNote {
            table,
            red: players[red].id,
            black: players[black].id,
            step: ColourStep::Round1,
        });
    }
    let bye_note = bye.as_ref().map(|p| ByeNote {
        player: p.id,
        score: p.score,
        reason: match cfg.round1_bye {
            Round1Bye::HighestNumber => ByeReason::Round1HighestNumber,
            Round1Bye::Lot => ByeReason::Round1Lot,
        },
        passed_over,
    });
    if let Some(p) = &bye {
        pairings.push(Pairing::Bye { player: p.id });
    }
    Ok((
        Round {
            number: 1,
            pairings,
        },
        Explanation {
            round: 1,
            round1: Some(Round1Note {
                seeding: cfg.seeding,
                pairing: cfg.round1,
                colour: cfg.round1_colour,
                seed,
            }),
            floats: Vec::new(),
            colours,
            bye: bye_note,
            relaxed: Vec::new(),
            table: None,
            knockout: None,
        },
    ))
}

/// The fewest team-mate tables a pairing of the field without one player can have, the
/// only hard rule of round 1. Players conflict exactly when they share a unit, so the
/// conflict-free graph is complete multipartite: the players left pair without
/// team-mates exactly when no unit holds more than half of them, and otherwise the
/// largest unit's players beyond half must meet each other.
struct MatesWithout<'a> {
    on: bool,
    /// The largest unit, its size, and the next largest size (equal when two tie).
    top: Option<(&'a str, usize)>,
    second: usize,
    /// Players seated at tables: all but the bye.
    left: usize,
}

/// The fewest team-mate tables any round 1 of `players` has, over every bye an odd field
/// may give ([`MatesWithout`]): what `check --optimal` holds a stored round 1 to.
pub(super) fn fewest_team_mates(ctx: &Rules, players: &[PlayerState]) -> usize {
    MatesWithout::new(ctx, players).fewest(players)
}

impl<'a> MatesWithout<'a> {
    fn new(ctx: &Rules, players: &'a [PlayerState]) -> MatesWithout<'a> {
        let mut units: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for p in players {
            if let Some(team) = p.team.as_deref() {
                *units.entry(team).or_default() += 1;
            }
        }
        let mut sizes: Vec<(usize, &str)> = units.into_iter().map(|(u, n)| (n, u)).collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        MatesWithout {
            on: ctx.team_avoidance_on(),
            top: sizes.first().map(|&(n, u)| (u, n)),
            second: sizes.get(1).map_or(0, |&(n, _)| n),
            left: players.len() - players.len() % 2,
        }
    }

    /// The fewest over every bye `players` (the field counted) may give: any player's in
    /// an odd field, none in an even one.
    fn fewest(&self, players: &[PlayerState]) -> usize {
        if players.len() % 2 == 1 {
            players.iter().map(|p| self.of(Some(p))).min().unwrap_or(0)
        } else {
            self.of(None)
        }
    }

    /// The fewest team-mate tables when `bye` sits out (in an odd field).
    fn of(&self, bye: Option<&PlayerState>) -> usize {
        let Some((unit, size)) = self.top.filter(|_| self.on) else {
            return 0;
        };
        let largest = if bye.and_then(|b| b.team.as_deref()) == Some(unit) {
            (size - 1).max(self.second)
        } else {
            size
        };
        (2 * largest).saturating_sub(self.left) / 2
    }
}
