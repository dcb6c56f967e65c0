//! An older copy of `qiwang.json` put back over the newest while `audit.log` and
//! `history/` stay (a backup restored, a sync tool, a USB stick), through the binary
//! (`src/store/stale.rs`): every change is refused with the way back, `qiwang log` warns,
//! and the advice followed gives back the newest state; a state written before qiwang
//! recorded its change is not judged.

use crate::common::{
    copy_event, qiwang_as, run_quoted_shell, run_spelled, small_event, unnumbered, zh_ok, zh_run,
};
use std::fs;

/// `qiwang ARGS` in English on the event in `dir`: its exit code and stderr.
fn en_run(dir: &std::path::Path, args: &[&str]) -> (i32, String) {
    let out = qiwang_as("t", dir, args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An event paired (line 3), a result entered (line 4); the state after line 4 is
/// returned, then a second result entered (line 5).
fn two_results() -> (tempfile::TempDir, std::path::PathBuf, Vec<u8>) {
    let (tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    zh_ok(&ev, &["pair", "--seed", "1"]);
    zh_ok(&ev, &["result", "1", "r"]);
    let older = fs::read(ev.join("qiwang.json")).unwrap();
    zh_ok(&ev, &["result", "2", "="]);
    (tmp, ev, older)
}

#[test]
fn an_older_copy_put_back_is_refused_and_the_advice_gives_back_the_newest_state() {
    let (_tmp, ev, older) = two_results();
    let state = ev.join("qiwang.json");
    let newest = fs::read(&state).unwrap();
    assert!(String::from_utf8_lossy(&newest).contains("\n  \"change\": 5,\n"));
    fs::write(&state, &older).unwrap();
    let log_before = fs::read(ev.join("audit.log")).unwrap();

    // Reading goes on, and `log` says what is wrong.
    let log = zh_ok(&ev, &["log"]);
    assert!(
        log.contains("修复之前 qiwang 拒绝任何修改")
            && log.contains("它是第 4 步写下的，而 audit.log 已记到第 5 步"),
        "{log}"
    );
    // Every change is refused, naming both numbers and the way back, and writes nothing.
    let (code, _, stderr) = zh_run(&ev, &["result", "2", "b"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("旧副本"), "{stderr}");
    // Not "damaged": the file is sound, only older.
    assert!(
        stderr.contains("qiwang.json` 不是最新的版本") && !stderr.contains("已损坏"),
        "{stderr}"
    );
    assert!(
        stderr.contains("第 5 步写下的")
            && stderr.contains(" undo`（撤销第 5 步：")
            && stderr.contains("然后重做第 5 步：#5 `qiwang "),
        "{stderr}"
    );
    assert_eq!(fs::read(ev.join("audit.log")).unwrap(), log_before);
    assert_eq!(fs::read(&state).unwrap(), older);
    let (_, english) = en_run(&ev, &["result", "2", "b"]);
    assert!(
        english.contains(
            "it was written by step #4, but audit.log has reached step #5 and describes the state after step #5"
        ),
        "{english}"
    );

    // The advice without the newest file: the undo it names, then the change redone.
    run_spelled(&stderr[stderr.find("否则运行").expect(&stderr)..]);
    assert_eq!(unnumbered(&fs::read(&state).unwrap()), unnumbered(&newest));
    // The trail and the state agree again: changes go on, `log` warns no more.
    assert!(!zh_ok(&ev, &["log"]).contains("拒绝任何修改"));
    zh_ok(&ev, &["result", "2", "b"]);
}

/// A command that only reads prints what the older copy holds, with a note on stderr
/// (not in the output, which may be piped into a file) that it is an older copy; on the
/// newest state, and after an undo and a redo, it says nothing.
#[test]
fn reading_commands_say_the_state_is_an_older_copy() {
    let (_tmp, ev, older) = two_results();
    let state = ev.join("qiwang.json");
    let newest = fs::read(&state).unwrap();
    let reads: [&[&str]; 5] = [
        &["standings"],
        &["standings", "--format", "csv"],
        &["round"],
        &["players"],
        &["check"],
    ];
    for args in reads {
        let (code, stdout, stderr) = zh_run(&ev, args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert!(
            !stderr.contains("旧副本") && !stdout.contains("旧副本"),
            "{args:?}: {stderr}"
        );
    }
    fs::write(&state, &older).unwrap();
    for args in reads {
        let (code, stdout, stderr) = zh_run(&ev, args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert!(
            stderr.contains("注意：以下内容来自一份旧副本，不是赛事的最新状态")
                && stderr.contains("它是第 4 步写下的，而 audit.log 已记到第 5 步"),
            "{args:?}: {stderr}"
        );
        assert!(!stdout.contains("旧副本"), "{args:?}: {stdout}");
    }
    let (_, english) = en_run(&ev, &["standings"]);
    assert!(
        english.contains("note: what follows comes from an older copy"),
        "{english}"
    );
    // The newest state back, then an undo and a redo as the last lines: no note.
    fs::write(&state, &newest).unwrap();
    zh_ok(&ev, &["undo"]);
    let (_, _, stderr) = zh_run(&ev, &["standings"]);
    assert!(!stderr.contains("旧副本"), "{stderr}");
    zh_ok(&ev, &["redo"]);
    let (_, _, stderr) = zh_run(&ev, &["standings"]);
    assert!(!stderr.contains("旧副本"), "{stderr}");
    // The older copy under an undo as the last line is still found.
    fs::write(&state, &older).unwrap();
    let (_, _, stderr) = zh_run(&ev, &["standings"]);
    assert!(stderr.contains("以下内容来自一份旧副本"), "{stderr}");
}

/// A command that would change the event, or tries the change with `--dry-run`, is
/// refused as an older copy before it checks anything against the copy: checked against
/// it, `player withdraw` asked for a result the newest state has, and `import --dry-run`
/// called clean a sheet the newest state holds already. `rules show` reads, with the note.
#[test]
fn a_change_or_its_dry_run_is_refused_before_it_reads_the_older_copy() {
    let (tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    zh_ok(&ev, &["pair", "--seed", "1"]);
    let state = ev.join("qiwang.json");
    let older = fs::read(&state).unwrap();
    zh_ok(&ev, &["result", "1", "r"]);
    zh_ok(&ev, &["result", "2", "="]);
    let sheet = tmp.path().join("more.csv");
    fs::write(&sheet, "姓名,性别,单位\n戊,男,丙队\n").unwrap();
    zh_ok(&ev, &["import", sheet.to_str().unwrap()]);
    fs::write(&state, &older).unwrap();
    let log_before = fs::read(ev.join("audit.log")).unwrap();
    let sheet = sheet.to_str().unwrap();
    let tries: [&[&str]; 5] = [
        &["pair", "--dry-run"],
        &["import", "--dry-run", sheet],
        &["player", "withdraw", "甲"],
        &["unpair"],
        &["penalty", "甲", "1", "--reason", "迟到"],
    ];
    for args in tries {
        let (code, stdout, stderr) = zh_run(&ev, args);
        assert_eq!(code, 3, "{args:?}: {stdout}{stderr}");
        assert!(
            stderr.contains("qiwang.json` 不是最新的版本") && stderr.contains("第 6 步"),
            "{args:?}: {stderr}"
        );
        assert!(!stdout.contains("检查通过"), "{args:?}: {stdout}");
        assert_eq!(fs::read(&state).unwrap(), older, "{args:?}");
        assert_eq!(
            fs::read(ev.join("audit.log")).unwrap(),
            log_before,
            "{args:?}"
        );
    }
    let (code, _, stderr) = zh_run(&ev, &["rules", "show"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("以下内容来自一份旧副本"), "{stderr}");
}

#[test]
fn putting_back_the_newest_copy_is_the_first_way_back() {
    let (_tmp, ev, older) = two_results();
    let state = ev.join("qiwang.json");
    let newest = fs::read(&state).unwrap();
    fs::write(&state, &older).unwrap();
    let (code, _, stderr) = zh_run(&ev, &["result", "2", "b"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("若还有最新的 qiwang.json"), "{stderr}");
    fs::write(&state, &newest).unwrap();
    zh_ok(&ev, &["result", "2", "b"]);
    let log = zh_ok(&ev, &["log"]);
    assert!(!log.contains("拒绝任何修改"), "{log}");
}

/// A state from another copy of the same event that went further is not taken for an
/// older one (nor taken at all): both are named as copies.
#[test]
fn a_state_from_a_copy_with_more_changes_is_refused_as_such() {
    let (tmp, ev, _) = two_results();
    let other = tmp.path().join("other");
    copy_event(&ev, &other);
    zh_ok(&other, &["result", "2", "b"]);
    fs::copy(other.join("qiwang.json"), ev.join("qiwang.json")).unwrap();
    let (code, stderr) = en_run(&ev, &["result", "1", "b"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains("it was written by step #6, but audit.log ends at step #5")
            && stderr.contains("another copy of the event that has more changes"),
        "{stderr}"
    );
}

/// Undo and redo are not refused: they restore from `history/` a state the trail
/// describes, so the log and the state agree after them.
#[test]
fn undo_from_an_older_copy_restores_a_state_the_trail_describes() {
    let (_tmp, ev, older) = two_results();
    let state = ev.join("qiwang.json");
    fs::write(&state, &older).unwrap();
    zh_ok(&ev, &["undo"]);
    // The older copy was the state before change 5: the undo only logs it.
    assert_eq!(fs::read(&state).unwrap(), older);
    zh_ok(&ev, &["result", "2", "b"]);
}

/// When the newest line is an undo, the state in effect is kept whole in `history/` (the
/// file that undo restored): the advice puts it back and loses nothing. (It advised
/// another `undo`, which undid one more change, with a `redo` to get it back refused.)
#[test]
fn an_older_copy_after_an_undo_is_mended_by_the_file_the_undo_restored() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    zh_ok(&ev, &["pair", "--seed", "1"]);
    let state = ev.join("qiwang.json");
    let oldest = fs::read(&state).unwrap();
    zh_ok(&ev, &["result", "1", "r"]);
    let in_effect = fs::read(&state).unwrap();
    zh_ok(&ev, &["result", "2", "="]);
    zh_ok(&ev, &["undo"]);
    assert_eq!(
        unnumbered(&fs::read(&state).unwrap()),
        unnumbered(&in_effect)
    );
    fs::write(&state, &oldest).unwrap();
    let (code, _, stderr) = zh_run(&ev, &["result", "2", "b"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains("否则把快照") && !stderr.contains(" undo`"),
        "{stderr}"
    );
    run_quoted_shell(&stderr, &["gzip -dc ", "cp "]);
    assert_eq!(
        unnumbered(&fs::read(&state).unwrap()),
        unnumbered(&in_effect)
    );
    assert!(!zh_ok(&ev, &["log"]).contains("拒绝任何修改"));
    // The undone result can be redone, and changes go on.
    zh_ok(&ev, &["redo"]);
    zh_ok(&ev, &["result", "2", "b"]);
}

/// A state written before qiwang recorded the change that wrote it is not judged, and
/// the next change records its number.
#[test]
fn a_state_without_the_number_is_not_judged() {
    let (_tmp, ev, older) = two_results();
    let state = ev.join("qiwang.json");
    let strip = |bytes: &[u8]| format!("{}\n", unnumbered(bytes));
    fs::write(&state, strip(&older)).unwrap();
    zh_ok(&ev, &["result", "2", "b"]);
    let written = fs::read_to_string(&state).unwrap();
    assert!(written.contains("\n  \"change\": 6,\n"), "{written}");
    assert!(!zh_ok(&ev, &["log"]).contains("拒绝任何修改"));
}
