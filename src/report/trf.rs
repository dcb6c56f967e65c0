//! FIDE TRF (tournament report file, TRF-2026) of one pool, for FIDE tools such as
//! bbpPairings or chess-results.com.
//!
//! Columns are counted in characters, not bytes, so a Chinese name occupies as many
//! columns as it has characters. Red is written as white (`w`), black as `b`; forfeits
//! are `+`/`-`, a pairing bye `0000 - U`, a round a player was not paired in `0000 - Z`.
//! The point system (`162`) carries the rulebook's win/draw/loss/bye points.
//!
//! Every string goes through [`one_line`] at the writer (no newline can forge a record,
//! no field outgrows its columns). Birth dates are public here, so only the year is
//! written (`YYYY/00/00`) unless the caller asks for private data: the masked ID number
//! hides exactly the birth date. Start numbers, opponents and ranks have four columns
//! (TRF-2026 "1 to 9999"), so a pool of more than 9,999 players is refused rather than
//! written with shifted columns; so is a rating outside 0–9999, by player. Every player has
//! a rank: one the standings do not place (disqualified, unranked) comes after every placed
//! player. A player who is withdrawn, disqualified or not yet
//! entered for the next round gets a TRF-2026 `240 Z` (zero-point bye, known absence)
//! record for that round, which bbpPairings also reads, so a pairing engine leaves them
//! out.

use super::safe::one_line;
use crate::i18n::{Localize, bi, display_english};
use crate::model::{Event, Gender, GroupId, MAX_RATING, Outcome, Pairing, PlayerId};
use crate::rulebook::{Lang, Rulebook};
use crate::scoring;
use crate::standings::Standings;
use chrono::Datelike;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The largest start number, opponent and rank TRF's four columns hold.
pub const MAX_PLAYERS: usize = 9999;

/// Header values (`012` name, `022` city, `122` time control …) are cut to this many
/// characters: TRF lines are read as fixed-width records.
const MAX_HEADER_CHARS: usize = 80;

/// Why a pool cannot be written as TRF.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TrfError {
    /// The rulebook scores a draw differently for red and black; TRF has one draw value.
    ColourDependentScoring {
        /// Red's points for a draw.
        red: i32,
        /// Black's points for a draw.
        black: i32,
    },
    /// The pool has no players.
    Empty(
        /// The pool.
        GroupId,
    ),
    /// More players than TRF's four-column start numbers hold.
    TooManyPlayers {
        /// The pool.
        group: GroupId,
        /// Its players.
        players: usize,
    },
    /// A rating outside TRF's four-column rating field.
    RatingTooWide {
        /// The player.
        player: PlayerId,
        /// The rating.
        rating: i32,
    },
    /// A score wider than TRF's four-column points field.
    PointsTooWide {
        /// The score as TRF would write it.
        points: String,
    },
}

display_english!(TrfError);

impl Localize for TrfError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            TrfError::ColourDependentScoring { red, black } => bi!(
                lang,
                zh(
                    "TRF 只有一个和棋分值，而本规程的和棋按先后手计分（红 {red}，黑 {black}）；请改为导出 json"
                ),
                en(
                    "TRF has one draw value, but this rulebook scores draws by colour (red {red}, black {black}); export as json instead"
                ),
            ),
            TrfError::Empty(group) => bi!(
                lang,
                zh("组别 `{group}` 没有棋手"),
                en("group `{group}` has no players"),
            ),
            TrfError::TooManyPlayers { group, players } => bi!(
                lang,
                zh(
                    "组别 `{group}` 有 {players} 名棋手；TRF 的序号只有 4 位，最多 9999：请改为导出 json"
                ),
                en(
                    "group `{group}` has {players} players; TRF's 4-column start numbers hold at most 9999: export as json instead"
                ),
            ),
            TrfError::RatingTooWide { player, rating } => bi!(
                lang,
                zh(
                    "棋手 {player} 的等级分 `{rating}` 超出 TRF 等级分栏的 4 位（0 到 {MAX_RATING}）；请更正等级分，或改为导出 json"
                ),
                en(
                    "player {player} has the rating `{rating}`, outside TRF's 4-column rating field (0 to {MAX_RATING}); correct the rating or export as json instead"
                ),
            ),
            TrfError::PointsTooWide { points } => bi!(
                lang,
                zh("积分 `{points}` 超出 TRF 积分栏的 4 个字符（最多 99.5）；请改为导出 json"),
                en(
                    "the score `{points}` does not fit TRF's 4-column points field (at most 99.5); export as json instead"
                ),
            ),
        }
    }
}

/// Points in TRF notation: one decimal, right-aligned in 4 characters.
fn pts(p: i32) -> String {
    let sign = if p < 0 { "-" } else { "" };
    format!(
        "{:>4}",
        format!("{sign}{}.{}", (p / 10).abs(), (p % 10).abs())
    )
}

/// [`pts`], refused when it does not fit its 4 columns.
fn pts4(p: i32) -> Result<String, TrfError> {
    let s = pts(p);
    if s.chars().count() > 4 {
        return Err(TrfError::PointsTooWide { points: s });
    }
    Ok(s)
}

/// The player's rating for TRF's 4-column field (blank when none or 0, TRF's "unrated"),
/// refused above [`MAX_RATING`] or below 0 rather than cut: registration refuses such
/// ratings, a hand-edited state file could still hold one.
fn rating4(p: &crate::model::Player) -> Result<String, TrfError> {
    match p.rating {
        None | Some(0) => Ok(String::new()),
        Some(r) if (1..=MAX_RATING).contains(&r) => Ok(r.to_string()),
        Some(r) => Err(TrfError::RatingTooWide {
            player: p.id,
            rating: r,
        }),
    }
}

/// Pads or cuts `s` to exactly `width` characters, control characters removed.
fn field(s: &str, width: usize) -> String {
    let mut out = one_line(s, width);
    let n = out.chars().count();
    out.extend(std::iter::repeat_n(' ', width - n));
    out
}

/// One header record: the tag and the value as one bounded line.
fn header(out: &mut String, tag: &str, value: &str) {
    let _ = writeln!(
        out,
        "{tag} {}",
        one_line(value, MAX_HEADER_CHARS).trim_end()
    );
}

/// The pool as TRF with public data only (birth year, not the date). See [`trf_with`].
pub fn trf(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    standings: &Standings,
) -> Result<String, TrfError> {
    trf_with(event, rules, pool, standings, false)
}

/// The pool as TRF; `show_private` writes full birth dates (`--show-private`).
pub fn trf_with(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    standings: &Standings,
    show_private: bool,
) -> Result<String, TrfError> {
    let s = &rules.scoring;
    if s.red_draw != s.black_draw || s.red_win != s.black_win || s.red_loss != s.black_loss {
        return Err(TrfError::ColourDependentScoring {
            red: s.red_draw.0,
            black: s.black_draw.0,
        });
    }
    // TRF needs start numbers 1..n without gaps: pairing-number order, then registration.
    let mut players: Vec<_> = event.players_in(pool).collect();
    if players.is_empty() {
        return Err(TrfError::Empty(pool.clone()));
    }
    if players.len() > MAX_PLAYERS {
        return Err(TrfError::TooManyPlayers {
            group: pool.clone(),
            players: players.len(),
        });
    }
    players.sort_by_key(|p| (p.number.unwrap_or(u32::MAX), p.id));
    let start: BTreeMap<PlayerId, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i + 1))
        .collect();
    // TRF's rank field is read as every player's place. A player the standings give no
    // place (disqualified, unranked entry, withdrawn when the rulebook does not rank them)
    // is placed after every ranked player, in standings order then start order, so every
    // line has a distinct rank no higher than the pool's size.
    let mut rank: BTreeMap<PlayerId, u32> = standings
        .rows
        .iter()
        .filter_map(|r| r.rank.map(|k| (r.player, k)))
        .collect();
    let unplaced: Vec<PlayerId> = standings
        .rows
        .iter()
        .map(|r| r.player)
        .chain(players.iter().map(|p| p.id))
        .filter(|id| start.contains_key(id) && !rank.contains_key(id))
        .collect();
    let mut next = rank.len() as u32;
    for id in unplaced {
        if let std::collections::btree_map::Entry::Vacant(e) = rank.entry(id) {
            next += 1;
            e.insert(next);
        }
    }
    // A round without all its results cannot be written (TRF has no "not yet played").
    let rounds: Vec<_> = event
        .group(pool)
        .map(|g| g.rounds.iter().take_while(|r| r.is_complete()).collect())
        .unwrap_or_default();
    let played = rounds.len() as u32;
    let total_rounds = crate::schedule::rounds_of(event, rules, pool).max(played);
    // Scores in tenths, as TRF writes them; saturating, the width check refuses the rest.
    let tenth = |p: i32| p.saturating_mul(10);

    let group_name = rules
        .group(pool)
        .map(|g| g.name.as_str())
        .unwrap_or(pool.as_str());
    let mut out = String::new();
    header(
        &mut out,
        "012",
        &format!("{} {}", rules.event.name, group_name),
    );
    if let Some(v) = &rules.event.venue {
        header(&mut out, "022", v);
    }
    header(&mut out, "032", "CHN");
    if let Some(d) = rules.event.start_date {
        header(&mut out, "042", &d.format("%Y/%m/%d").to_string());
    }
    if let Some(d) = rules.event.end_date {
        header(&mut out, "052", &d.format("%Y/%m/%d").to_string());
    }
    header(&mut out, "062", &players.len().to_string());
    // TRF reads a rating of 0 as unrated: such a player is neither written nor counted.
    let rated = players
        .iter()
        .filter(|p| p.rating.is_some_and(|r| r > 0))
        .count();
    header(&mut out, "072", &rated.to_string());
    header(&mut out, "082", "0");
    header(
        &mut out,
        "092",
        &format!("Individual: Swiss-System ({})", rules.event.rules_edition),
    );
    if !rules.event.time_control.is_empty() {
        header(&mut out, "122", &rules.event.time_control);
    }
    header(&mut out, "142", &total_rounds.to_string());
    // TRF-2026 tag 162 names the forfeit-loss/zero-point-bye value `A`, but bbpPairings
    // (v6) accepts only W, D, L, Z and P there and refuses the whole file on `A`. Both
    // default that value to 0.0, so it is written only when the rulebook gives it points,
    // and then as the standard's `A` (bbpPairings cannot read such a file; qiwang's own
    // rulebooks all score a forfeit loss 0). W covers a forfeit win in TRF-2026.
    let mut points = format!(
        "162  W{}    D{}    L{}    P{}",
        pts4(tenth(s.red_win.0))?,
        pts4(tenth(s.red_draw.0))?,
        pts4(tenth(s.red_loss.0))?,
        pts4(tenth(s.bye.0))?,
    );
    if s.forfeit_loss.0 != 0 {
        let _ = write!(points, "    A{}", pts4(tenth(s.forfeit_loss.0))?);
    }
    out.push_str(&points);
    out.push('\n');

    let round_pts = scoring::round_points(event, s, pool, played);
    for p in &players {
        let mut line = String::new();
        let sex = match p.gender {
            Some(Gender::Male) => 'm',
            Some(Gender::Female) => 'w',
            None => ' ',
        };
        // The year only in public files: with the masked ID number (region and last
        // four kept) a full date would give the whole number away.
        let birth = p
            .birth_date
            .map(|d| {
                if show_private {
                    d.format("%Y/%m/%d").to_string()
                } else {
                    format!("{:04}/00/00", d.year())
                }
            })
            .unwrap_or_default();
        let score: i32 = round_pts
            .get(&p.id)
            .map(|v| v.iter().fold(0i32, |a, x| a.saturating_add(x.0)))
            .unwrap_or(0);
        let _ = write!(
            line,
            "001 {:>4} {}{} {} {:>4} {} {:>11} {} {} {:>4}",
            start[&p.id],
            sex,
            field("", 3),
            field(&p.name, 33),
            rating4(p)?,
            field("CHN", 3),
            "",
            field(&birth, 10),
            pts4(tenth(score))?,
            rank[&p.id],
        );
        for round in &rounds {
            let cell = match round.pairing_of(p.id) {
                None => "0000 - Z".to_string(),
                Some(Pairing::Bye { .. }) => "0000 - U".to_string(),
                Some(Pairing::Game {
                    red, black, result, ..
                }) => {
                    let (opp, colour, me_red) = if *red == p.id {
                        (*black, 'w', true)
                    } else {
                        (*red, 'b', false)
                    };
                    let r = result
                        .map(|r| result_char(r.outcome, me_red))
                        .unwrap_or('-');
                    format!("{:>4} {colour} {r}", start.get(&opp).copied().unwrap_or(0))
                }
            };
            let _ = write!(line, "  {cell}");
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    // TRF-2026 `240 Z`: who is known to be absent in the next round.
    let next = played + 1;
    if next <= total_rounds {
        let absent: Vec<usize> = players
            .iter()
            .filter(|p| !p.pairable_in(next))
            .map(|p| start[&p.id])
            .collect();
        for chunk in absent.chunks(20) {
            let mut line = format!("240 Z {next:03}");
            for n in chunk {
                let _ = write!(line, " {n:>4}");
            }
            out.push_str(&line);
            out.push('\n');
        }
    }
    Ok(out)
}

/// A game's result from one side, in TRF notation.
fn result_char(outcome: Outcome, me_red: bool) -> char {
    let mine = if me_red {
        crate::model::Colour::Red
    } else {
        crate::model::Colour::Black
    };
    match outcome {
        Outcome::Draw => '=',
        Outcome::DoubleForfeit => '-',
        o if o.is_played() => {
            if o.winner() == Some(mine) {
                '1'
            } else {
                '0'
            }
        }
        o => {
            if o.winner() == Some(mine) {
                '+'
            } else {
                '-'
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_trf_error_has_chinese_with_the_same_values() {
        use crate::i18n::facts::assert_localized;
        assert_localized(&TrfError::ColourDependentScoring { red: 10, black: 15 });
        assert_localized(&TrfError::Empty(GroupId::new("adult")));
        assert_localized(&TrfError::TooManyPlayers {
            group: GroupId::new("adult"),
            players: 10000,
        });
        assert_localized(&TrfError::RatingTooWide {
            player: PlayerId(7),
            rating: 12000,
        });
        assert_localized(&TrfError::PointsTooWide {
            points: "100.0".into(),
        });
    }

    #[test]
    fn fields_count_characters_not_bytes() {
        assert_eq!(field("王小明", 5).chars().count(), 5);
        assert_eq!(field("王小明", 2), "王小");
        assert_eq!(pts(125), "12.5");
        assert_eq!(pts(20), " 2.0");
        assert_eq!(pts(-5), "-0.5");
        assert_eq!(field("a\nb\u{1b}", 4), "a b ");
        assert!(pts4(1000).is_err());
        assert_eq!(pts4(995).unwrap(), "99.5");
    }
}
