//! Whole texts of the error messages that need an event built in code: a damaged state
//! file and the pairing refusals (a field no pairing can satisfy, the proofs of a relaxed
//! round), pinned in Chinese and in English. The messages a case file can show (usage
//! errors, a rulebook typo, a registration-sheet row, a result entry, an unknown group, a
//! missing file) are case files under `tests/cmd/` (`tests/it/cases.rs`); the other tests
//! look for key words only.
//!
//! Each command runs in the temporary folder with relative paths, so the paths the
//! messages name are the same on every machine.

use std::fs;
use std::path::Path;
use tempfile::TempDir;

use crate::common::{Run, p, root};

/// Runs a failing command without a language flag (the Chinese rulebook's language) and
/// with `--lang en` (before the subcommand, so `result` does not take it for an entry),
/// and pins the exit code, an empty standard output and the whole standard error of both.
#[track_caller]
fn pinned_in_both(cwd: &Path, args: &[&str], code: i32, zh: &str, en: &str) {
    Run::new(cwd, args)
        .status(code)
        .stdout_empty()
        .stderr_is(zh)
        .check();
    let mut en_args = vec!["--lang", "en"];
    en_args.extend_from_slice(args);
    Run::new(cwd, &en_args)
        .status(code)
        .stdout_empty()
        .stderr_is(en)
        .check();
}

/// What `run` prints on standard output, after failing the test unless it succeeded with
/// nothing on standard error.
#[track_caller]
fn ok(run: Run) -> String {
    run.stderr_empty().check().stdout
}

/// A refusal: exit status `code`, nothing on standard output, and every word on standard
/// error, which it returns.
#[track_caller]
fn refused(run: Run, code: i32, words: &[&str]) -> String {
    let mut run = run.status(code).stdout_empty();
    for w in words {
        run = run.stderr_has(w);
    }
    run.check().stderr
}

/// `DIR/ev` under the Jinhua rulebook with its registrations and round 1 of the youth
/// group paired (change 3 of the event: init, import, pair).
fn jinhua_round_1() -> TempDir {
    let tmp = TempDir::new().expect("temp dir");
    let dir = tmp.path();
    ok(Run::new(
        dir,
        &["init", "ev", "--rules", p(&root("rules/jinhua-2018.toml"))],
    ));
    let csv = root("examples/jinhua-2018/registrations.csv");
    ok(Run::new(dir, &["--event", "ev", "import", p(&csv)]));
    ok(Run::new(
        dir,
        &["--event", "ev", "pair", "--group", "youth", "--seed", "1"],
    ));
    tmp
}

/// A store error (a damaged `qiwang.json`): the file, where it breaks, that it was left
/// untouched, and the exact recovery: the snapshot before the last change, and that change.
#[test]
fn a_damaged_state_error_is_pinned_in_both_languages() {
    let tmp = jinhua_round_1();
    fs::write(
        tmp.path().join("ev/qiwang.json"),
        "{\"schema_version\": 3, \"players\": [",
    )
    .unwrap();
    pinned_in_both(
        tmp.path(),
        &["--event", "ev", "players"],
        3,
        "错误：`ev/qiwang.json` 已损坏：文件在第 1 行第 34 列提前结束（被截断？）；qiwang \
         没有改动它；恢复方法：把快照 `ev/history/000003-pair.json.gz`（第 2 步之后的状态）复制为 \
         `ev/qiwang.json`（`gzip -dc ev/history/000003-pair.json.gz > ev/qiwang.json`），再运行 \
         `qiwang --event ev undo`（撤销第 3 步：从 history/ 恢复第 3 次修改之前的状态，并在 audit.log \
         记下这一步已撤销），然后重做第 3 步：#3 `qiwang --event ev pair --group youth --seed 1`\n",
        "error: `ev/qiwang.json` is damaged: the file ends early at line 1 column 34 (cut \
         short?); qiwang left it untouched; to recover, copy the snapshot \
         `ev/history/000003-pair.json.gz` (the state after step #2) over `ev/qiwang.json` \
         (`gzip -dc ev/history/000003-pair.json.gz > ev/qiwang.json`), then run `qiwang --event \
         ev undo` (it undoes step #3: restores the state before change #3 from history/ and \
         records in audit.log that #3 is undone), then redo step #3: #3 `qiwang --event ev pair \
         --group youth --seed 1`\n",
    );
}

/// An event `ev` in a new folder under the CXA preset with `pairing.relax = []` (stop
/// when no pairing meets every hard rule), the players of `csv` imported.
fn strict_event(csv: &str) -> TempDir {
    let tmp = TempDir::new().expect("temp dir");
    let dir = tmp.path();
    let text = fs::read_to_string(root("rules/cxa-2011.toml")).unwrap();
    assert!(text.contains("\n[pairing]\n"));
    let strict = text.replacen("\n[pairing]\n", "\n[pairing]\nrelax = []\n", 1);
    fs::write(dir.join("strict.toml"), strict).unwrap();
    fs::write(dir.join("players.csv"), csv).unwrap();
    ok(Run::new(dir, &["init", "ev", "--rules", "strict.toml"]));
    ok(Run::new(dir, &["--event", "ev", "import", "players.csv"]));
    tmp
}

/// `qiwang --event ev --lang en ARGS` in `dir`, as a [`Run`].
fn in_english(dir: &std::path::Path, args: &[&str]) -> Run {
    let mut all = vec!["--event", "ev", "--lang", "en"];
    all.extend_from_slice(args);
    Run::new(dir, &all)
}

/// `check --optimal` found the round not optimal, first on `first` (exit code 3, with the
/// count on standard error).
fn not_optimal(run: Run, first: &str) -> Run {
    run.status(3)
        .stdout_has(&format!("first better on {first}"))
        .stderr_has("1 round not optimal")
}

/// A pairing refusal (`pair`, exit code 4): with `pairing.relax = []` two players who have
/// met have no legal pairing, and each is named with what bars every opponent.
#[test]
fn a_pairing_refusal_is_pinned_in_both_languages() {
    let tmp = strict_event("name,gender,unit\n甲,男,单位1\n乙,男,单位2\n");
    let dir = tmp.path();
    ok(Run::new(dir, &["--event", "ev", "pair", "--seed", "1"]));
    ok(Run::new(dir, &["--event", "ev", "result", "1", "="]));
    pinned_in_both(
        dir,
        &["--event", "ev", "pair"],
        4,
        "错误：组别 `公开组` 第 2 轮不存在合规的编排：棋手 乙(2) 没有合规的对手：1 人已交过\
         手（不可重复对局），0 人受先后手限制，0 人同队；棋手 甲(1) 没有合规的对手：1 人已交\
         过手（不可重复对局），0 人受先后手限制，0 人同队；请在规程中放宽规则（`pairing.relax`，用 \
         `qiwang rules update`），或仅本轮放宽：`qiwang pair --group open --relax \
         colour,team,rematch`（列出本轮可放宽的规则，越靠后越不轻易放宽）\n",
        "error: no legal pairing exists for round 2 of group `open`: player 乙(2) has no \
         legal opponent: 1 already met (no rematch), 0 barred by the colour limits, 0 from \
         the same team; player 甲(1) has no legal opponent: 1 already met (no rematch), 0 \
         barred by the colour limits, 0 from the same team; relax a rule in the rulebook \
         (`pairing.relax`, with `qiwang rules update`) or for this round only with `qiwang \
         pair --group open --relax colour,team,rematch` (the rules this round may break; \
         the later one is listed, the less readily it is broken)\n",
    );
    // For this round only: the two meet again, the sheet and the log say why, `check`
    // accepts it, and the rulebook still says stop.
    let rulebook = std::fs::read(dir.join("ev/rules.toml")).unwrap();
    let sheet = ok(Run::new(
        dir,
        &["--event", "ev", "pair", "--relax", "rematch"],
    ));
    assert!(sheet.contains("放宽不重复对局"), "{sheet}");
    assert!(
        sheet.contains("按放宽顺序（本轮的 `--relax rematch`）放宽"),
        "{sheet}"
    );
    ok(Run::new(dir, &["--event", "ev", "check"]));
    let log = ok(Run::new(dir, &["--event", "ev", "log"]));
    assert!(log.contains("（--relax：本轮可放宽不重复对局）"), "{log}");
    let en = ok(Run::new(dir, &["--event", "ev", "--lang", "en", "log"]));
    assert!(
        en.contains("(--relax: this round may relax no-rematch)"),
        "{en}"
    );
    assert_eq!(std::fs::read(dir.join("ev/rules.toml")).unwrap(), rulebook);
    // The rules given are stored with the round: `check --optimal` re-solves it under
    // them (under the strict rulebook alone no pairing exists), and the JSON export
    // lists them beside the relaxation they allowed.
    let proof = ok(Run::new(
        dir,
        &[
            "--event",
            "ev",
            "--lang",
            "en",
            "check",
            "--optimal",
            "--round",
            "2",
        ],
    ));
    assert!(proof.contains("optimal (no pairing is better"), "{proof}");
    assert!(
        proof.contains("(paired with `pair --relax rematch`: compared under the same"),
        "{proof}"
    );
    ok(Run::new(
        dir,
        &["--event", "ev", "export", "--format", "json", "--out", "x"],
    ));
    let export: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("x/event.json")).unwrap()).unwrap();
    let group = &export["groups"][0];
    assert_eq!(
        group["relax_given"],
        serde_json::json!([{ "round": 2, "rules": ["rematch"] }])
    );
    assert_eq!(group["relaxed"][0]["rule"], "rematch", "{group}");
    assert_eq!(group["relaxed"][0]["round"], 2, "{group}");
    ok(Run::new(dir, &["--event", "ev", "result", "1", "="]));
    refused(Run::new(dir, &["--event", "ev", "pair"]), 4, &["--relax"]);
    refused(
        Run::new(dir, &["--event", "ev", "pair", "--relax", "team"]),
        4,
        &["--relax"],
    );
    refused(
        Run::new(dir, &["--event", "ev", "pair", "--relax", "draw"]),
        2,
        &["draw", "colour", "team", "rematch"],
    );
    refused(
        Run::new(
            dir,
            &["--event", "ev", "pair", "--relax", "team,rematch,team"],
        ),
        2,
        &["`--relax`：`team` 列了两次"],
    );
}

/// A round-1 draw refused for want of a legal pairing (three of four players from one
/// unit, `pairing.relax = []`) keeps its seed: the next `pair --relax team` makes that
/// same draw instead of drawing until nothing needs relaxing.
#[test]
fn a_refused_round_1_draw_is_recorded_and_made_again() {
    let tmp = strict_event("name,gender,unit\n甲,男,一队\n乙,男,一队\n丙,男,一队\n丁,男,二队\n");
    let dir = tmp.path();
    // A seed the arbiter gives is theirs to give again: refused, nothing is recorded.
    let state = std::fs::read(dir.join("ev/qiwang.json")).unwrap();
    for dry in [true, false] {
        let mut args = vec!["--event", "ev", "pair", "--seed", "3"];
        if dry {
            args.push("--dry-run");
        }
        refused(Run::new(dir, &args), 4, &["不存在合规的编排"]);
        assert_eq!(std::fs::read(dir.join("ev/qiwang.json")).unwrap(), state);
    }
    let err = refused(
        Run::new(dir, &["--event", "ev", "--lang", "en", "pair"]),
        4,
        &["this round-1 draw's seed "],
    );
    let seed: u64 = err
        .split("this round-1 draw's seed ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no recorded seed in {err}"));
    // Refused again with the same draw (no new seed is drawn or recorded).
    Run::new(dir, &["--event", "ev", "--lang", "en", "pair"])
        .status(4)
        .stdout_empty()
        .stderr_lacks("is recorded")
        .check();
    refused(
        Run::new(
            dir,
            &["--event", "ev", "--lang", "en", "pair", "--relax", "colour"],
        ),
        4,
        &["`--relax colour` (in place of the rulebook's pairing.relax this round) is not enough: "],
    );
    ok(Run::new(dir, &["--event", "ev", "pair", "--relax", "team"]));
    let log = ok(Run::new(dir, &["--event", "ev", "--lang", "en", "log"]));
    assert!(
        log.contains(&format!("recorded the round-1 draw seeds: 公开组 {seed}")),
        "{log}"
    );
    assert!(log.contains(&format!("(seed {seed})")), "{log}");
}

/// `check --optimal` compares a `--relax` round rule by rule in the order given: under
/// `--relax rematch,colour` (colour weighed most) the engine meets again twice rather
/// than break a colour limit, and a hand edit to one colour break and no rematch is not
/// optimal, though its count of broken tables is lower.
#[test]
fn a_relaxed_round_is_proven_rule_by_rule_in_the_order_given() {
    let tmp = strict_event(
        "name,gender,unit\nP1,男,U2\nP2,男,U4\nP3,男,U1\nP4,男,U4\nP5,男,U5\nP6,男,U1\n",
    );
    let dir = tmp.path();
    let ev = |args: &[&str]| in_english(dir, args);
    ok(ev(&["pair", "--seed", "30"]));
    ok(ev(&["result", "1", "=", "2", "1-0", "3", "1-0"]));
    for results in [
        ["1-0", "0-1", "1-0"],
        ["1-0", "1-0", "0-1"],
        ["0-1", "1-0", "1-0"],
    ] {
        ok(ev(&["pair"]));
        ok(ev(&[
            "result", "1", results[0], "2", results[1], "3", results[2],
        ]));
    }
    refused(ev(&["pair"]), 4, &["no legal pairing"]);
    let sheet = ok(ev(&["pair", "--relax", "rematch,colour"]));
    assert_eq!(sheet.matches("no-rematch relaxed").count(), 2, "{sheet}");
    let proof = ok(ev(&["check", "--optimal", "--round", "5"]));
    assert!(proof.contains("round 5: optimal"), "{proof}");
    ok(ev(&["pairing", "set", "--force", "1", "P5", "P4"]));
    ok(ev(&["pairing", "set", "--force", "3", "P1", "P2"]));
    ev(&["check"])
        .status(3)
        .stdout_is(
            "公开组: 1 violation\n  - round 5: player `P1(2)` would play red 3 times in a row \
             (limit exceeded)\n",
        )
        .stderr_is("error: 1 violation of the hard pairing rules\n")
        .check();
    not_optimal(
        ev(&["check", "--optimal", "--round", "5"]),
        "breaks of colour limits (relaxed)",
    )
    .stdout_has("breaks of no-rematch (relaxed): 0 here, 2 in the better pairing")
    .check();
}

/// A table whose colours were turned round into a colour-limit break (PD red a third
/// time) is a hard-rule break for `check --optimal` too, not a colour preference.
#[test]
fn colours_turned_into_a_limit_break_are_a_hard_rule_break() {
    let tmp = strict_event("name,gender,unit\nPA,男,UA\nPB,男,UB\nPC,男,UC\nPD,男,UD\n");
    let dir = tmp.path();
    let ev = |args: &[&str]| in_english(dir, args);
    ok(ev(&["pair", "--seed", "1"]));
    ok(ev(&["result", "1", "=", "2", "="]));
    ok(ev(&["pair"]));
    ok(ev(&["pairing", "set", "1", "#1", "#3"]));
    ok(ev(&["pairing", "set", "2", "#2", "#4"]));
    ok(ev(&["result", "1", "=", "2", "="]));
    ok(ev(&["pair"]));
    ok(ev(&["pairing", "set", "--force", "1", "PD", "PC"]));
    not_optimal(
        ev(&["check", "--optimal", "--round", "3"]),
        "tables breaking a hard rule",
    )
    .check();
}

/// A round the rulebook does not schedule (past the Jinhua rulebook's 9, or round 0) is
/// refused naming the event's rounds, in every command that takes one; a penalty above
/// what a youth player can score in those 9 rounds (2 points each) is refused naming
/// that limit. Exit 3 (invalid input), as every other round or penalty refusal.
#[test]
fn a_round_or_penalty_past_the_event_names_its_limit() {
    let tmp = jinhua_round_1();
    let dir = tmp.path();
    for (args, zh, en) in [
        (
            vec![
                "--event", "ev", "result", "--group", "youth", "--round", "10", "1", "1-0",
            ],
            "错误：组别 `青少年组` 没有第 10 轮：本赛事共 9 轮\n",
            "error: group `youth` has no round 10: the event has 9 rounds\n",
        ),
        (
            vec![
                "--event", "ev", "result", "--group", "youth", "--round", "0", "1", "1-0",
            ],
            "错误：组别 `青少年组` 没有第 0 轮：轮次从 1 开始\n",
            "error: group `youth` has no round 0: rounds count from 1\n",
        ),
        (
            vec![
                "--event",
                "ev",
                "standings",
                "--group",
                "youth",
                "--round",
                "12",
            ],
            "错误：组别 `青少年组` 没有第 12 轮：本赛事共 9 轮\n",
            "error: group `youth` has no round 12: the event has 9 rounds\n",
        ),
        (
            vec!["--event", "ev", "round", "10", "--group", "youth"],
            "错误：组别 `青少年组` 没有第 10 轮：本赛事共 9 轮\n",
            "error: group `青少年组` has no round 10: the event has 9 rounds\n",
        ),
        (
            vec![
                "--event",
                "ev",
                "check",
                "--group",
                "youth",
                "--optimal",
                "--round",
                "10",
            ],
            "错误：组别 `青少年组` 没有第 `10` 轮：本赛事共 9 轮\n",
            "error: group `青少年组` has no round `10`: the event has 9 rounds\n",
        ),
        (
            vec!["--event", "ev", "penalty", "#1", "19", "--reason", "x"],
            "错误：罚分 `19` 太大：一次最多扣 18 分（该组别棋手 9 轮最多能得的分数）\n",
            "error: penalty `19` is too large: one penalty deducts at most 18 points (the most a player of the group can score in its 9 rounds)\n",
        ),
    ] {
        pinned_in_both(dir, &args, 3, zh, en);
    }
    // A round inside the schedule but not paired yet keeps naming the rounds paired.
    refused(
        Run::new(
            dir,
            &[
                "--lang",
                "en",
                "--event",
                "ev",
                "standings",
                "--group",
                "youth",
                "--round",
                "9",
            ],
        ),
        3,
        &["1 round paired so far"],
    );
}

/// `pairing swap` of two players of different groups is refused naming both groups, with
/// `--group` or without (no group makes that swap), and nothing is stored.
#[test]
fn a_swap_across_groups_names_both_groups() {
    let tmp = jinhua_round_1();
    let dir = tmp.path();
    let before = fs::read(dir.join("ev/qiwang.json")).unwrap();
    for group in [&[][..], &["--group", "youth"][..]] {
        let mut args = vec!["--event", "ev", "pairing", "swap"];
        args.extend_from_slice(group);
        args.extend(["唐志", "于一鸣"]);
        pinned_in_both(
            dir,
            &args,
            3,
            "错误：`唐志(13)` 在组别 `青少年组`，`于一鸣` 在组别 `成人组`：只能交换同一组别本轮的两名棋手\n",
            "error: `唐志(13)` is in group `youth` and `于一鸣` in group `adult`: a swap exchanges two players of one group's round\n",
        );
    }
    assert_eq!(fs::read(dir.join("ev/qiwang.json")).unwrap(), before);
}
