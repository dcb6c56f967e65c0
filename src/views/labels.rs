//! How domain values read on a sheet, in either language: a tiebreak's column header,
//! the 性别 column, a result. (A colour as a word is `model::colour_label`, since the
//! pairing check words colour-limit violations with it too; a system of play is
//! `rulebook::system_name`, since `rules check` names one with it too.)

use crate::i18n::Lang;
use crate::model::{GameResult, Gender, Outcome};
use crate::rulebook::{Conduct, LateResult, Tiebreak};

/// The column header of a tiebreak: lowercase in English like the other headers
/// (place, no., name, pts), an abbreviation (S-B) as written.
pub fn tiebreak_label(t: Tiebreak, lang: Lang) -> &'static str {
    match t {
        Tiebreak::OppScore => lang.pick("对手分", "opp. score"),
        Tiebreak::Progressive => lang.pick("累进分", "progressive"),
        Tiebreak::Wins => lang.pick("胜局", "wins"),
        Tiebreak::Fouls => lang.pick("犯规", "fouls"),
        Tiebreak::BlackGames => lang.pick("后走局数", "black games"),
        Tiebreak::BlackWins => lang.pick("后走胜局", "black wins"),
        Tiebreak::RedWins => lang.pick("先手胜局", "red wins"),
        Tiebreak::DirectEncounter => lang.pick("直胜", "direct"),
        Tiebreak::MedianOpp => lang.pick("中间分", "median opp."),
        Tiebreak::CutOpp => lang.pick("扣除对手分", "cut opp."),
        Tiebreak::SonnebornBerger => lang.pick("小分", "S-B"),
        Tiebreak::Mutual => lang.pick("相互间成绩", "mutual"),
    }
}

/// The 性别 column of the player list (男/女, M/F); empty when the sheet gave no gender.
pub fn gender_label(g: Option<Gender>, lang: Lang) -> &'static str {
    match g {
        Some(Gender::Male) => lang.pick("男", "M"),
        Some(Gender::Female) => lang.pick("女", "F"),
        None => "",
    }
}

/// How a recorded game reads on a sheet: its outcome, and for a forfeit given for
/// lateness what the rulebook makes of it — 红迟到判负 under `late_result = "loss"`,
/// 红弃权（迟到） under the default (a forfeit, as for not coming).
pub fn result_label(result: &GameResult, conduct: &Conduct, lang: Lang) -> String {
    let late_side = match result.outcome {
        Outcome::RedForfeit if result.late => Some(lang.pick("红", "red")),
        Outcome::BlackForfeit if result.late => Some(lang.pick("黑", "black")),
        _ => None,
    };
    match (late_side, conduct.late_result) {
        (Some(side), LateResult::Loss) => {
            crate::i18n::bi!(lang, zh("{side}迟到判负"), en("{side} late, loses"))
        }
        (Some(_), LateResult::Forfeit) => format!(
            "{}{}",
            outcome_label(result.outcome, lang),
            lang.pick("（迟到）", " (late)")
        ),
        (None, _) => outcome_label(result.outcome, lang).to_string(),
    }
}

/// How a result reads on a sheet.
pub fn outcome_label(o: Outcome, lang: Lang) -> &'static str {
    match o {
        Outcome::RedWin => lang.pick("红胜", "1-0"),
        Outcome::Draw => lang.pick("和", "½-½"),
        Outcome::BlackWin => lang.pick("黑胜", "0-1"),
        Outcome::BlackForfeit => lang.pick("黑弃权", "+-"),
        Outcome::RedForfeit => lang.pick("红弃权", "-+"),
        Outcome::DoubleForfeit => lang.pick("双负", "--"),
    }
}
