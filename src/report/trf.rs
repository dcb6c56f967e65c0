//! FIDE TRF (tournament report file) of one pool, for FIDE tools such as bbpPairings or
//! chess-results.com.
//!
//! Columns are counted in characters, not bytes, so a Chinese name occupies as many
//! columns as it has characters. Red is written as white (`w`), black as `b`; forfeits
//! are `+`/`-`, a pairing bye `0000 - U`, a round a player was not paired in `0000 - Z`.
//! The point system (`162`) carries the rulebook's win/draw/loss points.

use crate::i18n::Localize;
use crate::model::{Event, Gender, GroupId, Outcome, Pairing, PlayerId};
use crate::rulebook::{Lang, Rulebook};
use crate::scoring;
use crate::standings::Standings;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Why a pool cannot be written as TRF.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TrfError {
    #[error(
        "TRF has one draw value, but this rulebook scores draws by colour (red {red}, black {black}); export as json instead"
    )]
    ColourDependentScoring { red: i32, black: i32 },
    #[error("group `{0}` has no players")]
    Empty(GroupId),
}

impl Localize for TrfError {
    fn localize(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        match self {
            TrfError::ColourDependentScoring { red, black } => format!(
                "TRF 只有一个和棋分值，而本规程的和棋按先后手计分（红 {red}，黑 {black}）；请改为导出 json"
            ),
            TrfError::Empty(group) => format!("组别 `{group}` 没有棋手"),
        }
    }
}

/// Points in TRF notation: one decimal, right-aligned in 4 characters.
fn pts(p: i32) -> String {
    format!("{:>4}", format!("{}.{}", p / 10, (p % 10).abs()))
}

/// Pads or cuts `s` to exactly `width` characters.
fn field(s: &str, width: usize) -> String {
    let mut out: String = s.chars().take(width).collect();
    let n = out.chars().count();
    out.extend(std::iter::repeat_n(' ', width - n));
    out
}

pub fn trf(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    standings: &Standings,
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
    players.sort_by_key(|p| (p.number.unwrap_or(u32::MAX), p.id));
    let start: BTreeMap<PlayerId, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i + 1))
        .collect();
    let rank: BTreeMap<PlayerId, u32> = standings
        .rows
        .iter()
        .filter_map(|r| r.rank.map(|k| (r.player, k)))
        .collect();
    // A round without all its results cannot be written (TRF has no "not yet played").
    let rounds: Vec<_> = event
        .group(pool)
        .map(|g| g.rounds.iter().take_while(|r| r.is_complete()).collect())
        .unwrap_or_default();
    let played = rounds.len() as u32;
    let total_rounds = rules.rounds_for(pool).max(played);
    // Scores in tenths, as TRF writes them.
    let tenth = |p: i32| p * 10;

    let group_name = rules
        .group(pool)
        .map(|g| g.name.as_str())
        .unwrap_or(pool.as_str());
    let mut out = String::new();
    let _ = writeln!(out, "012 {} {}", rules.event.name, group_name);
    if let Some(v) = &rules.event.venue {
        let _ = writeln!(out, "022 {v}");
    }
    let _ = writeln!(out, "032 CHN");
    if let Some(d) = rules.event.start_date {
        let _ = writeln!(out, "042 {}", d.format("%Y/%m/%d"));
    }
    if let Some(d) = rules.event.end_date {
        let _ = writeln!(out, "052 {}", d.format("%Y/%m/%d"));
    }
    let _ = writeln!(out, "062 {}", players.len());
    let rated = players.iter().filter(|p| p.rating.is_some()).count();
    let _ = writeln!(out, "072 {rated}");
    let _ = writeln!(out, "082 0");
    let _ = writeln!(
        out,
        "092 Individual: Swiss-System ({})",
        rules.event.rules_edition
    );
    if !rules.event.time_control.is_empty() {
        let _ = writeln!(out, "122 {}", rules.event.time_control);
    }
    let _ = writeln!(out, "142 {total_rounds}");
    let _ = writeln!(
        out,
        "162  W{}    D{}    L{}    A{}    P{}",
        pts(tenth(s.red_win.0)),
        pts(tenth(s.red_draw.0)),
        pts(tenth(s.red_loss.0)),
        pts(tenth(s.forfeit_loss.0)),
        pts(tenth(s.bye.0)),
    );

    let round_pts = scoring::round_points(event, s, pool, played);
    for p in &players {
        let mut line = String::new();
        let sex = match p.gender {
            Some(Gender::Male) => 'm',
            Some(Gender::Female) => 'w',
            None => ' ',
        };
        let birth = p
            .birth_date
            .map(|d| d.format("%Y/%m/%d").to_string())
            .unwrap_or_default();
        let score: i32 = round_pts
            .get(&p.id)
            .map(|v| v.iter().map(|x| x.0).sum())
            .unwrap_or(0);
        let _ = write!(
            line,
            "001 {:>4} {}{} {} {:>4} {} {:>11} {} {} {:>4}",
            start[&p.id],
            sex,
            field("", 3),
            field(&p.name, 33),
            p.rating
                .map(|r| r.clamp(0, 9999).to_string())
                .unwrap_or_default(),
            field("CHN", 3),
            "",
            field(&birth, 10),
            pts(tenth(score)),
            rank.get(&p.id).map(|r| r.to_string()).unwrap_or_default(),
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
    }

    #[test]
    fn fields_count_characters_not_bytes() {
        assert_eq!(field("王小明", 5).chars().count(), 5);
        assert_eq!(field("王小明", 2), "王小");
        assert_eq!(pts(125), "12.5");
        assert_eq!(pts(20), " 2.0");
    }
}
