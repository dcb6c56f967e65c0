//! What `qiwang result` says it recorded: one line per game, with the round, the table,
//! both players and the outcome, so the arbiter can compare it with the slip in hand.

use super::labels::outcome_label;
use crate::i18n::bi;
use crate::model::{Colour, Event, Outcome, PlayerId};
use crate::results::{RecordReport, ResultWarning};
use crate::rulebook::{Lang, Rulebook};
use std::collections::BTreeMap;

/// How many results `qiwang result` confirms line by line. A longer batch (a whole round
/// of a large event from a file) is confirmed by its notable lines only.
pub const CONFIRM_ALL_UP_TO: usize = 200;

/// What [`confirmation_lines`] shows of a batch, and what it only counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirmation {
    /// The lines printed.
    pub lines: Vec<String>,
    /// Corrections and results lost on fouls that did not fit. While it is 0 every foul
    /// loss is on a line of its own, which says so: the batch's
    /// [`ResultWarning::LostOnFouls`] notes would only repeat those lines.
    pub notable_left: usize,
    /// Results recorded as entered (new or unchanged) that were not listed.
    pub plain_left: usize,
}

impl Confirmation {
    /// Every result of the batch, listed or counted.
    pub fn total(&self) -> usize {
        self.lines.len() + self.notable_left + self.plain_left
    }
}

/// What `qiwang result` prints of a batch: every line of a batch of up to
/// [`CONFIRM_ALL_UP_TO`] results; of a longer one only the corrections and the results a
/// foul limit changed (at most that many), with how many of each kind were left out, so
/// entering 50,000 results does not print 50,000 lines.
pub fn confirmation_lines(
    event: &Event,
    rules: &Rulebook,
    reports: &[RecordReport],
    lang: Lang,
) -> Confirmation {
    let marked = lines_marked(event, rules, reports, lang);
    if marked.len() <= CONFIRM_ALL_UP_TO {
        return Confirmation {
            lines: marked.into_iter().map(|(line, _)| line).collect(),
            notable_left: 0,
            plain_left: 0,
        };
    }
    let (notable, plain): (Vec<_>, Vec<_>) = marked.into_iter().partition(|(_, n)| *n);
    let notable_left = notable.len().saturating_sub(CONFIRM_ALL_UP_TO);
    Confirmation {
        lines: notable
            .into_iter()
            .take(CONFIRM_ALL_UP_TO)
            .map(|(line, _)| line)
            .collect(),
        notable_left,
        plain_left: plain.len(),
    }
}

/// One line per recorded result of every report, in the order entered: `成人组 第3轮第5台：
/// 张三(12) 红胜 李四(7)`. The group is named when the event has more than one pool; a
/// correction shows the result it replaced, and a game lost on fouls says so (and what
/// was entered, when the foul limit changed it). Each with whether it is notable: a
/// correction, or a game lost on fouls.
fn lines_marked(
    event: &Event,
    rules: &Rulebook,
    reports: &[RecordReport],
    lang: Lang,
) -> Vec<(String, bool)> {
    let several = rules.pools().count() > 1;
    let label = |id: PlayerId| event.player_label(id);
    let mut out = Vec::new();
    for report in reports {
        let group = if several {
            format!("{} ", rules.group_name(&report.group))
        } else {
            String::new()
        };
        // The games the foul limit decided, and whose fouls did it.
        let lost_on_fouls: BTreeMap<(u32, u32), Colour> = report
            .warnings
            .iter()
            .filter_map(|w| match w {
                ResultWarning::LostOnFouls {
                    round,
                    table,
                    colour,
                    ..
                } => Some(((*round, *table), *colour)),
                _ => None,
            })
            .collect();
        for r in &report.results {
            // A forfeit for lateness (迟到) says so, as the rulebook counts it.
            let outcome = super::labels::result_label(&r.result, &rules.conduct, lang);
            // A pool in a hall of its own: its table 5 is not the main hall's table 5.
            let hall = rules.hall_of(&report.group);
            let (zh_hall, en_hall) =
                hall.map_or_else(Default::default, |h| (format!(" {h} "), format!(" {h}")));
            let mut line = bi!(
                lang,
                zh(
                    "{group}第{}轮{zh_hall}第{}台：{} {outcome} {}",
                    r.round,
                    r.table,
                    label(r.red),
                    label(r.black)
                ),
                en(
                    "{group}round {}{en_hall} table {}: {} {outcome} {}",
                    r.round,
                    r.table,
                    label(r.red),
                    label(r.black)
                )
            );
            let (red_fouls, black_fouls) = (r.result.red_fouls, r.result.black_fouls);
            let lost = lost_on_fouls.get(&(r.round, r.table));
            if red_fouls > 0 || black_fouls > 0 {
                let verdict = match lost {
                    None => "",
                    Some(Colour::Red) => lang.pick("，红方犯规判负", "; red loses on fouls"),
                    Some(Colour::Black) => lang.pick("，黑方犯规判负", "; black loses on fouls"),
                };
                line.push_str(&bi!(
                    lang,
                    zh("（犯规 红{red_fouls} 黑{black_fouls}{verdict}）"),
                    en(" (fouls red {red_fouls}, black {black_fouls}{verdict})")
                ));
            }
            // Only a foul loss makes what is stored differ from what was entered; the
            // Chinese names both, so 录入 is not read as what was stored.
            if r.entered != r.result.outcome {
                let entered = outcome_label(r.entered, lang);
                line.push_str(&bi!(
                    lang,
                    zh(
                        "（录入的是{entered}，按犯规改判为{}）",
                        outcome_label(r.result.outcome, lang)
                    ),
                    en(", entered as {entered}")
                ));
            }
            let notable = lost.is_some() || r.entered != r.result.outcome || r.is_correction();
            if let Some(previous) = r.previous.filter(|p| *p != r.result) {
                // The fouls and lateness too, so a correction of only those reads as one.
                let mut was = outcome_label(previous.outcome, lang).to_string();
                let fouls = (previous.red_fouls, previous.black_fouls);
                if fouls != (0, 0) {
                    was.push_str(&bi!(
                        lang,
                        zh("，犯规 红{} 黑{}", fouls.0, fouls.1),
                        en(", fouls red {}, black {}", fouls.0, fouls.1)
                    ));
                }
                // Why the replaced forfeit was given, when only that changed or it differs.
                let forfeit = matches!(
                    previous.outcome,
                    Outcome::BlackForfeit | Outcome::RedForfeit
                );
                if forfeit && previous.late != r.result.late {
                    was.push_str(match previous.late {
                        true => lang.pick("（迟到）", " (late)"),
                        false => lang.pick("（未到）", " (absent)"),
                    });
                }
                line.push_str(&bi!(
                    lang,
                    zh("（更正，原为{was}）"),
                    en(" (corrected, was {was})")
                ));
            } else if r.is_unchanged() {
                line.push_str(lang.pick("（与原记录相同）", " (unchanged)"));
            }
            out.push((line, notable));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Outcome, Pairing, Player, Round};
    use crate::results::{ResultEntry, record_results};

    #[test]
    fn each_recorded_game_is_named_with_round_table_players_and_outcome() {
        let rules = Rulebook::cxa_2011("t", 3);
        let pool = rules.pools().next().unwrap().id.clone();
        let mut event = Event::new(String::new());
        for (i, name) in ["甲", "乙", "丙", "丁"].iter().enumerate() {
            let mut p = Player::new(PlayerId(i as u32 + 1), *name, pool.clone());
            p.number = Some(i as u32 + 1);
            event.players.push(p);
        }
        let game = |table, red, black| Pairing::Game {
            table,
            red: PlayerId(red),
            black: PlayerId(black),
            result: None,
        };
        event.group_mut(&pool).rounds.push(Round {
            number: 1,
            pairings: vec![game(1, 1, 2), game(2, 3, 4)],
        });
        let entries = [
            ResultEntry::new(1, Outcome::RedWin),
            ResultEntry::new(2, Outcome::Draw).with_fouls(1, 0),
        ];
        let report = record_results(&mut event, &rules, &pool, None, &entries).unwrap();
        let zh = confirmation_lines(&event, &rules, std::slice::from_ref(&report), Lang::Zh).lines;
        assert_eq!(
            zh,
            vec![
                "第1轮第1台：甲(1) 红胜 乙(2)".to_string(),
                "第1轮第2台：丙(3) 和 丁(4)（犯规 红1 黑0）".to_string(),
            ]
        );
        let report = record_results(
            &mut event,
            &rules,
            &pool,
            Some(1),
            &[ResultEntry::new(1, Outcome::BlackWin)],
        )
        .unwrap();
        let en = confirmation_lines(&event, &rules, &[report], Lang::En).lines;
        assert_eq!(
            en,
            vec!["round 1 table 1: 甲(1) 0-1 乙(2) (corrected, was 1-0)".to_string()]
        );
        // A forfeit for lateness says so on the new result; a replaced forfeit says why it
        // was given only when that changed.
        let late = ResultEntry {
            late: true,
            ..ResultEntry::new(1, Outcome::BlackForfeit)
        };
        let mut say = |entry: ResultEntry| {
            let report = record_results(&mut event, &rules, &pool, Some(1), &[entry]).unwrap();
            confirmation_lines(&event, &rules, &[report], Lang::Zh)
                .lines
                .remove(0)
        };
        assert_eq!(
            say(late),
            "第1轮第1台：甲(1) 黑弃权（迟到） 乙(2)（更正，原为黑胜）"
        );
        assert_eq!(
            say(ResultEntry::new(1, Outcome::BlackForfeit)),
            "第1轮第1台：甲(1) 黑弃权 乙(2)（更正，原为黑弃权（迟到））"
        );
        assert_eq!(
            say(late),
            "第1轮第1台：甲(1) 黑弃权（迟到） 乙(2)（更正，原为黑弃权（未到））"
        );
        // A game lost on fouls (the preset's limit is 2) says so on its line, whether the
        // limit changed what was entered or it was entered as the loss.
        let report = record_results(
            &mut event,
            &rules,
            &pool,
            Some(1),
            &[
                ResultEntry::new(1, Outcome::Draw).with_fouls(0, 2),
                ResultEntry::new(2, Outcome::BlackWin).with_fouls(2, 1),
            ],
        )
        .unwrap();
        // The Chinese names what was entered and what is stored (录入为和 read as a draw).
        assert_eq!(
            confirmation_lines(&event, &rules, std::slice::from_ref(&report), Lang::Zh).lines[0],
            "第1轮第1台：甲(1) 红胜 乙(2)（犯规 红0 黑2，黑方犯规判负）\
             （录入的是和，按犯规改判为红胜）（更正，原为黑弃权（迟到））"
        );
        assert_eq!(
            confirmation_lines(&event, &rules, &[report], Lang::En).lines,
            vec![
                "round 1 table 1: 甲(1) 1-0 乙(2) (fouls red 0, black 2; black loses on fouls), \
                 entered as ½-½ (corrected, was +- (late))"
                    .to_string(),
                "round 1 table 2: 丙(3) 0-1 丁(4) (fouls red 2, black 1; red loses on fouls) \
                 (corrected, was ½-½, fouls red 1, black 0)"
                    .to_string(),
            ]
        );
    }

    /// A batch longer than `CONFIRM_ALL_UP_TO` lists only what the arbiter must look at
    /// (here the one foul-only correction, worded with the fouls it replaced) and counts the
    /// rest; a short batch lists every line.
    #[test]
    fn a_long_batch_lists_only_its_corrections_and_counts_the_rest() {
        let rules = Rulebook::cxa_2011("t", 3);
        let pool = rules.pools().next().unwrap().id.clone();
        let mut event = Event::new(String::new());
        let tables = CONFIRM_ALL_UP_TO as u32 + 50;
        for i in 1..=2 * tables {
            let mut p = Player::new(PlayerId(i), format!("p{i}"), pool.clone());
            p.number = Some(i);
            event.players.push(p);
        }
        let pairings = (1..=tables)
            .map(|t| Pairing::Game {
                table: t,
                red: PlayerId(2 * t - 1),
                black: PlayerId(2 * t),
                result: None,
            })
            .collect();
        event.group_mut(&pool).rounds.push(Round {
            number: 1,
            pairings,
        });
        let mut entries: Vec<ResultEntry> = (1..=tables)
            .map(|t| ResultEntry::new(t, Outcome::Draw))
            .collect();
        entries[6] = entries[6].with_fouls(1, 0);
        let first = record_results(&mut event, &rules, &pool, None, &entries).unwrap();
        let c = confirmation_lines(&event, &rules, &[first], Lang::En);
        assert_eq!(
            (c.lines.len(), c.notable_left, c.plain_left),
            (0, 0, tables as usize),
            "{c:?}"
        );
        entries[6] = ResultEntry::new(7, Outcome::Draw);
        let again = record_results(&mut event, &rules, &pool, Some(1), &entries).unwrap();
        let c = confirmation_lines(&event, &rules, &[again], Lang::En);
        assert_eq!(
            c.lines,
            vec!["round 1 table 7: p13(13) ½-½ p14(14) (corrected, was ½-½, fouls red 1, black 0)"]
        );
        assert_eq!((c.notable_left, c.plain_left), (0, tables as usize - 1));
        let few = record_results(&mut event, &rules, &pool, Some(1), &entries[..3]).unwrap();
        let c = confirmation_lines(&event, &rules, &[few], Lang::Zh);
        assert_eq!((c.lines.len(), c.notable_left, c.plain_left), (3, 0, 0));
        assert!(c.lines[0].ends_with("（与原记录相同）"), "{c:?}");
        // Every result corrected: the first CONFIRM_ALL_UP_TO are listed and the rest are
        // counted as corrections, not as results recorded as entered.
        let black: Vec<ResultEntry> = (1..=tables)
            .map(|t| ResultEntry::new(t, Outcome::BlackWin))
            .collect();
        let all = record_results(&mut event, &rules, &pool, Some(1), &black).unwrap();
        let c = confirmation_lines(&event, &rules, &[all], Lang::En);
        assert_eq!(
            (c.lines.len(), c.notable_left, c.plain_left),
            (CONFIRM_ALL_UP_TO, tables as usize - CONFIRM_ALL_UP_TO, 0)
        );
    }
}
