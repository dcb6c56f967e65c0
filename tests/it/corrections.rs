//! A result of an earlier round corrected after later rounds were paired (docs/rules.md
//! §2.6): `check --optimal` proves each later round against the results as they stood
//! when it was paired, and says that it does; a round paired after the correction is
//! proved against the corrected results.

use crate::common::{Run, small_event};
use std::path::Path;

/// Ten players, three rounds paired: round 1 every red wins, round 2 every game drawn.
fn three_rounds() -> (tempfile::TempDir, std::path::PathBuf) {
    let names: Vec<String> = (1..=10).map(|i| format!("棋手{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let (tmp, ev) = small_event(&names);
    let on = |args: &[&str]| Run::on_event(&ev, args).check();
    on(&["pair", "--seed", "1"]);
    on(&["result", "1", "r", "2", "r", "3", "r", "4", "r", "5", "r"]);
    on(&["pair"]);
    on(&["result", "1", "=", "2", "=", "3", "=", "4", "=", "5", "="]);
    on(&["pair"]);
    (tmp, ev)
}

fn optimal(ev: &Path) -> Run {
    Run::on_event(ev, &["check", "--optimal"])
}

#[test]
fn rounds_paired_before_a_correction_are_proved_against_the_results_they_were_paired_with() {
    let (_tmp, ev) = three_rounds();
    optimal(&ev)
        .stdout_lacks("不是最优")
        .stdout_lacks("更正")
        .check();
    // Round 1's first game was a black win: the standings change, rounds 2 and 3 stay.
    Run::on_event(&ev, &["result", "--round", "1", "1", "b"])
        .stdout_has("更正")
        .check();
    optimal(&ev)
        .stdout_lacks("不是最优")
        .stdout_has("第 2 轮：最优")
        .stdout_has("第 3 轮：最优")
        .stdout_has("（按本轮编排时的成绩比较：第 1 轮的成绩在本轮编排之后被更正）")
        .check();
    Run::on_event_in("en", &ev, &["check", "--optimal", "--round", "3"])
        .stdout_has("round 3: optimal")
        .stdout_has("as they stood when it was paired: round 1 was corrected")
        .check();
    // Corrected twice: still the result round 2 was paired with.
    Run::on_event(&ev, &["result", "--round", "1", "1", "="]).check();
    optimal(&ev).stdout_lacks("不是最优").check();
    // Corrected back to the result the later rounds were paired with: nothing to note.
    Run::on_event(&ev, &["result", "--round", "1", "1", "r"]).check();
    optimal(&ev)
        .stdout_lacks("不是最优")
        .stdout_lacks("更正")
        .check();
}

#[test]
fn a_round_paired_again_after_a_correction_is_proved_against_the_corrected_results() {
    let (_tmp, ev) = three_rounds();
    Run::on_event(&ev, &["result", "--round", "1", "1", "b"]).check();
    // Round 3 has no result: taken back and paired again, it is paired with the corrected
    // standings and proved against them, with no note.
    Run::on_event(&ev, &["unpair"]).check();
    Run::on_event(&ev, &["pair"]).check();
    Run::on_event(&ev, &["check", "--optimal", "--round", "3"])
        .stdout_has("第 3 轮：最优")
        .stdout_lacks("更正")
        .check();
    optimal(&ev)
        .stdout_lacks("不是最优")
        .stdout_has("第 1 轮的成绩在本轮编排之后被更正")
        .check();
}

/// The player `standings --format csv` ranks first.
fn leader(ev: &Path) -> String {
    let csv = Run::on_event(ev, &["standings", "--format", "csv"])
        .check()
        .stdout;
    csv.lines()
        .nth(1)
        .and_then(|l| l.split(',').nth(2))
        .expect("a first row")
        .to_string()
}

/// A penalty given while round 3 is under way came after its pairing: round 3 is proved
/// without it (with it, five players on 3 points would be four, and the round's floats
/// look worse than needed); paired again, round 3 sees the penalty and is proved with it.
#[test]
fn a_penalty_given_during_a_round_is_not_held_against_its_pairing() {
    let (_tmp, ev) = three_rounds();
    let leader = leader(&ev);
    Run::on_event(&ev, &["penalty", &leader, "2", "--reason", "扰乱赛场"]).check();
    optimal(&ev).stdout_lacks("不是最优").check();
    Run::on_event(&ev, &["unpair"]).check();
    Run::on_event(&ev, &["pair"]).check();
    optimal(&ev).stdout_lacks("不是最优").check();
}
