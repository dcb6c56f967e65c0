//! Simulated results for the demo and for end-to-end tests.
//!
//! Seeded and pure: given the event, a round and a seed it returns the results an
//! arbiter might enter — the stronger player (by rating, else a hidden strength drawn
//! from the player's id) wins more often, about a third of games are drawn, and now and
//! then a player commits a foul. It never changes the event; the caller enters the
//! results through the same path as `qiwang result`.

use crate::model::{Event, GroupId, Outcome, Pairing, Player, PlayerId};
use crate::results::ResultEntry;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A player's playing strength on a rating-like scale.
pub fn strength(player: &Player, seed: u64) -> f64 {
    match player.rating {
        Some(r) => f64::from(r),
        None => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (u64::from(player.id.0) << 20));
            1200.0 + rng.gen_range(0.0..900.0)
        }
    }
}

/// Results for every unfinished game of `round` in `pool`.
///
/// `absent` names players who do not turn up (their games become forfeits).
pub fn round_results(
    event: &Event,
    pool: &GroupId,
    round: u32,
    seed: u64,
    absent: &[PlayerId],
) -> Vec<ResultEntry> {
    let mut rng =
        ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(round));
    let Some(r) = event.group(pool).and_then(|g| g.round(round)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for pairing in &r.pairings {
        let Pairing::Game {
            table,
            red,
            black,
            result: None,
        } = pairing
        else {
            continue;
        };
        let outcome = match (absent.contains(red), absent.contains(black)) {
            (true, true) => Outcome::DoubleForfeit,
            (true, false) => Outcome::RedForfeit,
            (false, true) => Outcome::BlackForfeit,
            (false, false) => {
                let (Some(pr), Some(pb)) = (event.player(*red), event.player(*black)) else {
                    continue;
                };
                let diff = strength(pr, seed) - strength(pb, seed);
                // Expected share for red (logistic, 400-point scale); a third drawn.
                let expected = 1.0 / (1.0 + 10f64.powf(-diff / 400.0));
                let draw = 0.33;
                let x: f64 = rng.r#gen();
                if x < draw {
                    Outcome::Draw
                } else if x < draw + (1.0 - draw) * expected {
                    Outcome::RedWin
                } else {
                    Outcome::BlackWin
                }
            }
        };
        let (mut red_fouls, mut black_fouls) = (0, 0);
        if outcome.is_played() && rng.gen_ratio(1, 12) {
            // A single foul (a warning); the loser more often than not.
            if outcome.winner() == Some(crate::model::Colour::Red) || rng.gen_bool(0.5) {
                black_fouls = 1;
            } else {
                red_fouls = 1;
            }
        }
        out.push(ResultEntry {
            table: *table,
            outcome,
            red_fouls,
            black_fouls,
            late: false,
        });
    }
    out
}
