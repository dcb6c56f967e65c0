//! A damaged or hand-edited `qiwang.json` through the binary (docs/architecture.md §2):
//! the recovery advice, followed literally, gives back the state the
//! audit log describes; a player in an unknown group or a pairing number given twice is
//! refused in the event's language; `undo --dry-run` words every change a command makes;
//! an `audit.log` cut inside its last line, and a deleted `qiwang.json` (`store/unlogged.rs`).

use crate::common::{small_event, unnumbered, zh_ok, zh_run};
use std::fs;
use std::path::Path;

/// Does the `gzip -dc SNAPSHOT > STATE` the advice in `stderr` gives (with flate2, as
/// gzip would).
fn unpack_as_advised(stderr: &str) {
    let start = stderr.find("`gzip -dc ").expect(stderr) + "`gzip -dc ".len();
    let command = &stderr[start..start + stderr[start..].find('`').unwrap()];
    let (snapshot, state) = command.split_once(" > ").unwrap();
    let packed = fs::read(snapshot).unwrap();
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&packed[..]), &mut bytes).unwrap();
    fs::write(state, bytes).unwrap();
}

fn four() -> (tempfile::TempDir, std::path::PathBuf) {
    let (tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    zh_ok(&ev, &["pair", "--seed", "1"]);
    (tmp, ev)
}

/// The tester's case: `result`, `undo`, the state file cut short. The advice named the
/// undo's own snapshot (the state *before* it), which brought the undone result back
/// while the log said it was undone.
#[test]
fn after_an_undo_the_advice_gives_back_the_state_the_log_describes() {
    let (_tmp, ev) = four();
    zh_ok(&ev, &["result", "1", "r"]);
    zh_ok(&ev, &["undo"]);
    let state = ev.join("qiwang.json");
    let good = fs::read(&state).unwrap();
    fs::write(&state, &good[..100]).unwrap();
    let (code, _, stderr) = zh_run(&ev, &["standings"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("无需重做任何修改"), "{stderr}");
    assert!(stderr.contains("history/000004-result.json.gz"), "{stderr}");
    unpack_as_advised(&stderr);
    assert!(fs::read(&state).unwrap() == good, "another state: {stderr}");
    let round = zh_ok(&ev, &["round"]);
    assert!(!round.contains("红胜"), "{round}");
}

/// After a change, the advice is the snapshot before it and that change's command.
#[test]
fn after_a_change_the_advice_names_the_command_to_redo() {
    let (_tmp, ev) = four();
    zh_ok(&ev, &["result", "1", "r"]);
    zh_ok(&ev, &["undo"]);
    zh_ok(&ev, &["result", "2", "="]);
    let state = ev.join("qiwang.json");
    let good = fs::read(&state).unwrap();
    fs::write(&state, &good[..good.len() / 2]).unwrap();
    let (code, _, stderr) = zh_run(&ev, &["round"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains(" undo`（撤销第 6 步：") && stderr.contains("然后重做第 6 步：#6 `qiwang "),
        "{stderr}"
    );
    assert!(stderr.contains(" result 2 =`"), "{stderr}");
    unpack_as_advised(&stderr);
    zh_ok(&ev, &["undo"]);
    zh_ok(&ev, &["result", "2", "="]);
    assert!(
        unnumbered(&fs::read(&state).unwrap()) == unnumbered(&good),
        "another state: {stderr}"
    );
    // The result redone by hand is the one change in effect: one undo takes it back, and
    // the next one reverts the change in effect before it (the pairing), each changing
    // the state.
    let undone = zh_ok(&ev, &["undo"]);
    assert!(undone.contains("已撤销第 8 步"), "{undone}");
    assert!(fs::read(&state).unwrap() != good);
    let undone = zh_ok(&ev, &["undo"]);
    assert!(undone.contains("已撤销第 3 步"), "{undone}");
}

/// Runs the undo the advice in `stderr` names, if any, then every command it spells to
/// redo (`` `qiwang …` ``), as typed.
fn redo_as_advised(stderr: &str) {
    let redo = match stderr.find("再运行 `qiwang ") {
        Some(at) => {
            let undo = &stderr[at + "再运行 `qiwang ".len()..];
            let args: Vec<&str> = undo[..undo.find('`').unwrap()].split(' ').collect();
            let out = std::process::Command::new(crate::common::BIN)
                .args(&args)
                .output()
                .unwrap();
            assert!(out.status.success(), "{args:?}: {out:?}");
            &stderr[stderr.find("然后重做").expect(stderr)..]
        }
        None => &stderr[stderr.find("再依次重做").expect(stderr)..],
    };
    crate::common::run_spelled(redo);
}

/// A round-1 `pair` typed without `--seed` drew a seed only its audit line records: the
/// advice spells it with that seed, so the redo makes the same draw (docs/rules.md §2.2),
/// for one pool and for `pair --all` over several.
#[test]
fn a_drawn_seed_is_given_in_the_command_to_redo() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁", "戊", "己"]);
    zh_ok(&ev, &["pair"]);
    let state = ev.join("qiwang.json");
    let good = fs::read(&state).unwrap();
    fs::write(&state, &good[..good.len() / 2]).unwrap();
    let (code, _, stderr) = zh_run(&ev, &["round"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains(" pair --seed "), "{stderr}");
    unpack_as_advised(&stderr);
    redo_as_advised(&stderr);
    assert!(
        unnumbered(&fs::read(&state).unwrap()) == unnumbered(&good),
        "another draw: {stderr}"
    );
}

/// `qiwang.json` with `edit` applied, as a hand edit would leave it.
fn edit_state(ev: &Path, edit: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
    let state = ev.join("qiwang.json");
    let mut value: serde_json::Value = serde_json::from_slice(&fs::read(&state).unwrap()).unwrap();
    edit(&mut value);
    let bytes = serde_json::to_vec_pretty(&value).unwrap();
    fs::write(&state, &bytes).unwrap();
    bytes
}

/// Once, standings left the player in an unknown group out and `result` wrote a new
/// state on top; two players with one pairing number passed every command. Both are
/// refused as damage, in Chinese, with the way back, and nothing is written.
#[test]
fn a_hand_edited_group_or_number_is_refused_and_never_written_over() {
    type Edit = fn(&mut serde_json::Value);
    let cases: [(Edit, &str); 2] = [
        (
            |v| v["players"][0]["group"] = "nosuch".into(),
            "内容自相矛盾：`players[0].group`：棋手 `1` 的组别 `nosuch` 不在规程中",
        ),
        (
            |v| v["players"][1]["number"] = v["players"][0]["number"].clone(),
            "内容自相矛盾：`players[1].number`：组别 `公开组` 的编排号 2 已属于棋手 `1`",
        ),
    ];
    for (edit, expected) in cases {
        let (_tmp, ev) = four();
        let edited = edit_state(&ev, edit);
        for args in [&["standings"][..], &["result", "1", "r"], &["prizes"]] {
            let (code, _, stderr) = zh_run(&ev, args);
            assert_eq!(code, 3, "{args:?}: {stderr}");
            assert!(stderr.contains(expected), "{args:?}: {stderr}");
            assert!(stderr.contains("恢复方法"), "{stderr}");
        }
        assert!(fs::read(ev.join("qiwang.json")).unwrap() == edited);
    }
}

/// Report 3.4: `undo --dry-run` after a `warn` said the state would stay as it is, and
/// the undo removed the warning. After each of these commands it says what would change.
#[test]
fn undo_dry_run_words_what_each_command_changed() {
    let (_tmp, ev) = four();
    let commands: [&[&str]; 6] = [
        &["result", "1", "r", "2", "="],
        &["warn", "1", "--reason", "对局中讲话"],
        &["penalty", "2", "1", "--reason", "迟到"],
        &["player", "withdraw", "3"],
        &["pair"],
        &["player", "add", "--name", "戊", "--gender", "男"],
    ];
    for args in commands {
        zh_ok(&ev, args);
        let plan = zh_ok(&ev, &["undo", "--dry-run"]);
        assert!(!plan.contains("状态不变"), "{args:?}: {plan}");
    }
}

/// `audit.log` cut inside its last line with no crash journal (a partial copy): `log`
/// promised that the next change would repair it while every change refused. Now `log`
/// says every change is refused, in the words the refusal uses, and `undo` refuses too
/// rather than reverting the unrecorded change and the one before it at once.
#[test]
fn a_cut_last_line_of_the_log_is_refused_as_log_says() {
    let (_tmp, ev) = four();
    zh_ok(&ev, &["result", "1", "r"]);
    let audit = ev.join("audit.log");
    let bytes = fs::read(&audit).unwrap();
    fs::write(&audit, &bytes[..bytes.len() - 30]).unwrap();
    let log = zh_ok(&ev, &["log"]);
    assert!(!log.contains("自动修复"), "{log}");
    assert!(
        log.contains("注意：修复之前 qiwang 拒绝任何修改："),
        "{log}"
    );
    for args in [&["undo"][..], &["result", "2", "="], &["undo", "--dry-run"]] {
        let (code, _, stderr) = zh_run(&ev, args);
        assert_eq!(code, 3, "{args:?}: {stderr}");
        let refusal = stderr.trim_start_matches("错误：").trim_end();
        assert!(log.contains(refusal), "{args:?}: {stderr}\n{log}");
        assert!(
            refusal.contains("第 4 行不完整，且没有崩溃留下的待完成记录")
                && refusal.contains("000004-result.json.gz"),
            "{refusal}"
        );
    }
}

/// A deleted `qiwang.json` beside its `audit.log` and `history/`: reading it and `init`
/// there name the snapshot to put back, instead of "no event here" and an `init` that
/// refuses because history/ exists.
#[test]
fn a_deleted_state_file_names_the_snapshot_to_put_back() {
    let (tmp, ev) = four();
    let state = ev.join("qiwang.json");
    let good = fs::read(&state).unwrap();
    fs::remove_file(&state).unwrap();
    let (code, _, stderr) = zh_run(&ev, &["standings"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("文件不见了"), "{stderr}");
    let rules = crate::common::root("rules/cxa-2011.toml");
    let rules = rules.to_str().unwrap();
    crate::common::Run::new(
        tmp.path(),
        &["--lang", "zh", "init", "ev", "--rules", rules],
    )
    .status(3)
    .stderr_has("文件不见了")
    .stderr_has("history/000003-pair.json.gz")
    .check();
    unpack_as_advised(&stderr);
    zh_ok(&ev, &["undo"]);
    zh_ok(&ev, &["pair", "--seed", "1"]);
    assert!(
        unnumbered(&fs::read(&state).unwrap()) == unnumbered(&good),
        "another state: {stderr}"
    );
}

/// The commands in `advice` (its `` `…` `` spans that start with a command word), in order.
fn commands_in(advice: &str) -> Vec<String> {
    advice
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            ["gzip ", "cp ", "mkdir ", "sed ", "qiwang "]
                .iter()
                .any(|word| span.starts_with(word))
        })
        .map(str::to_string)
        .collect()
}

/// The advice is followed as a user would: its commands pasted into a POSIX shell, in
/// the folder the refused command ran in, with this build as `qiwang`; the event comes
/// back to the state the log describes. The event lies in a folder whose path has a space
/// and a single quote, and is reached by its full path, then by a relative path that
/// starts with `-` (which a command reads as an option unless it is written `./-ev`).
/// Two incidents: the state file cut short, and `audit.log` replaced by an older copy.
#[test]
fn the_advice_run_by_the_shell_gives_the_event_back() {
    use std::process::Command;
    if Command::new("sh").args(["-c", "exit 0"]).status().is_err() {
        eprintln!("skipped: no `sh` to run the advice with");
        return;
    }
    let bin_dir = Path::new(crate::common::BIN).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let (built_tmp, built) = four();
    for relative in [false, true] {
        let tmp = tempfile::tempdir().unwrap();
        let odd = tmp.path().join("赛 it's");
        let (cwd, event_arg, ev) = if relative {
            (odd.clone(), "--event=-ev".to_string(), odd.join("-ev"))
        } else {
            let ev = odd.join("ev");
            (
                tmp.path().to_path_buf(),
                format!("--event={}", ev.display()),
                ev,
            )
        };
        crate::common::copy_event(&built, &ev);
        let qiwang = |args: &[&str]| {
            Command::new(crate::common::BIN)
                .current_dir(&cwd)
                .args(["--lang", "en", &event_arg])
                .args(args)
                .output()
                .unwrap()
        };
        let ok = |args: &[&str]| {
            let out = qiwang(args);
            assert!(out.status.success(), "{args:?}: {out:?}");
        };
        let follow = |advice: &str| {
            let commands = commands_in(advice);
            assert!(!commands.is_empty(), "{advice}");
            for command in commands {
                let out = Command::new("sh")
                    .args(["-c", &command])
                    .current_dir(&cwd)
                    .env("PATH", &path)
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{command}: {out:?}\n{advice}");
            }
        };
        let refusal = || {
            let out = qiwang(&["undo", "--dry-run"]);
            assert_eq!(out.status.code(), Some(3), "{out:?}");
            String::from_utf8(out.stderr).unwrap()
        };
        let state = ev.join("qiwang.json");
        // The state file cut short after a change, an undo and another change.
        ok(&["result", "1", "r"]);
        ok(&["undo"]);
        ok(&["result", "2", "="]);
        let good = fs::read(&state).unwrap();
        fs::write(&state, &good[..good.len() / 2]).unwrap();
        let advice = refusal();
        if relative {
            assert!(advice.contains("`gzip -dc ./-ev/history/"), "{advice}");
        } else {
            assert!(advice.contains("it'\\''s/ev/history/"), "{advice}");
        }
        follow(&advice);
        assert!(
            unnumbered(&fs::read(&state).unwrap()) == unnumbered(&good),
            "another state: {advice}"
        );
        // audit.log replaced by the copy from before the last result: its change is set
        // aside, its state put back, and the result made again by hand.
        let older = fs::read(ev.join("audit.log")).unwrap();
        ok(&["result", "1", "b"]);
        let good = fs::read(&state).unwrap();
        fs::write(ev.join("audit.log"), &older).unwrap();
        let advice = refusal();
        assert!(advice.contains("history-unlogged/after-"), "{advice}");
        follow(&advice);
        ok(&["result", "1", "b"]);
        assert!(
            unnumbered(&fs::read(&state).unwrap()) == unnumbered(&good),
            "another state: {advice}"
        );
        let out = qiwang(&["undo"]);
        let undone = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && undone.contains("result 1 b"),
            "{out:?}"
        );
    }
    drop(built_tmp);
}

/// A deleted `history/` is refused before anything is written, saying how to go on (it
/// failed half way with a raw I/O error and left a journal that `unlock` could not clear);
/// with the folder made again as advised, changes go on.
#[test]
fn a_missing_history_folder_is_refused_with_the_way_on() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    crate::common::Run::on_event(&ev, &["pair", "--seed", "1"]).check();
    fs::remove_dir_all(ev.join("history")).unwrap();
    let before = fs::read(ev.join("qiwang.json")).unwrap();
    let refused = crate::common::Run::on_event(&ev, &["result", "1", "r"])
        .status(3)
        .stderr_has("快照文件夹 history/ 不见了")
        .stderr_has("mkdir ")
        .check();
    assert_eq!(fs::read(ev.join("qiwang.json")).unwrap(), before);
    assert!(!ev.join(".pending.json").exists(), "{}", refused.stderr);
    fs::create_dir(ev.join("history")).unwrap();
    crate::common::Run::on_event(&ev, &["result", "1", "r"]).check();
}

/// An `audit.log` saved by an editor without its final newline: the last line is whole,
/// so the refusal says to add the newline, not to delete the line (which threw away the
/// record of a change), and following it mends the event.
#[test]
fn a_last_line_lacking_only_its_newline_is_mended_by_adding_it() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    zh_ok(&ev, &["pair", "--seed", "1"]);
    zh_ok(&ev, &["result", "1", "r"]);
    let audit = ev.join("audit.log");
    let mut bytes = fs::read(&audit).unwrap();
    assert_eq!(bytes.pop(), Some(b'\n'));
    fs::write(&audit, &bytes).unwrap();
    let state = fs::read(ev.join("qiwang.json")).unwrap();
    let (code, _, stderr) = zh_run(&ev, &["result", "2", "="]);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains("只缺行尾的换行符") && !stderr.contains("删除不完整"),
        "{stderr}"
    );
    assert_eq!(fs::read(ev.join("qiwang.json")).unwrap(), state);
    crate::common::run_quoted_shell(&stderr, &["echo >> "]);
    zh_ok(&ev, &["result", "2", "="]);
    assert!(zh_ok(&ev, &["log"]).contains("result 1 r"));
}
