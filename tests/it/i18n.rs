//! Error messages follow the event's language: `--lang` if given, else the language of
//! the rulebook the command works on (the shipped Chinese rulebooks: zh), else Chinese.
//! Each case runs the binary twice, without a flag on a Chinese event and with
//! `--lang en`, and checks the prefix, the words and the quoted values of both.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_qiwang");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn root(rel: &str) -> PathBuf {
    Path::new(ROOT).join(rel)
}

fn p(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// Exit code and standard error of `qiwang ARGS` run in `cwd`.
fn run(cwd: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(cwd)
        .env("USER", "arbiter")
        .env_remove("QIWANG_EVENT")
        .output()
        .expect("the qiwang binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs a failing command in Chinese (no flag) and in English (`--lang en`, put before
/// the subcommand so `result` does not take it for an entry) and checks both.
#[track_caller]
fn fails_in_both(cwd: &Path, args: &[&str], code: i32, zh: &[&str], en: &[&str]) {
    let (zh_code, zh_err) = run(cwd, args);
    let mut en_args = vec!["--lang", "en"];
    en_args.extend_from_slice(args);
    let (en_code, en_err) = run(cwd, &en_args);
    assert_eq!(zh_code, code, "{zh_err}");
    assert_eq!(en_code, code, "{en_err}");
    assert!(zh_err.starts_with("错误："), "{zh_err}");
    assert!(en_err.starts_with("error: "), "{en_err}");
    for w in zh {
        assert!(zh_err.contains(w), "Chinese lacks `{w}`:\n{zh_err}");
    }
    for w in en {
        assert!(en_err.contains(w), "English lacks `{w}`:\n{en_err}");
    }
    // `--lang zh` gives the same text as the rulebook's own language.
    let mut zh_args = vec!["--lang", "zh"];
    zh_args.extend_from_slice(args);
    assert_eq!(run(cwd, &zh_args).1, zh_err);
}

/// The Jinhua event with its registrations and round 1 of the youth group paired.
fn jinhua() -> (TempDir, PathBuf) {
    let tmp = TempDir::new().expect("temp dir");
    let rules = root("rules/jinhua-2018.toml");
    let csv = root("examples/jinhua-2018/registrations.csv");
    let steps: [&[&str]; 3] = [
        &["init", "ev", "--rules", p(&rules)],
        &["--event", "ev", "import", p(&csv)],
        &["--event", "ev", "pair", "--group", "youth", "--seed", "1"],
    ];
    for args in steps {
        let (code, err) = run(tmp.path(), args);
        assert_eq!(code, 0, "{args:?}: {err}");
    }
    let ev = tmp.path().join("ev");
    (tmp, ev)
}

#[test]
fn result_errors_follow_the_language() {
    let (_tmp, ev) = jinhua();
    fails_in_both(
        &ev,
        &["result", "--group", "youth", "1", "xyz"],
        3,
        &["结果 `xyz`（第 1 台）无法识别", "`红胜`"],
        &["result `xyz` is not understood for table 1", "`红胜`"],
    );
    fails_in_both(
        &ev,
        &["result", "--group", "youth", "99", "1-0"],
        3,
        &["组别 `youth` 第 1 轮没有第 99 台"],
        &["round 1 of group `youth` has no table 99"],
    );
}

#[test]
fn an_incomplete_round_is_reported_in_the_language() {
    let (_tmp, ev) = jinhua();
    fails_in_both(
        &ev,
        &["pair", "--group", "youth"],
        3,
        &["组别 `youth` 第 `1` 轮尚未结束", "`qiwang result`"],
        &[
            "round `1` of group `youth` is not complete",
            "`qiwang result`",
        ],
    );
}

#[test]
fn a_bad_registration_row_is_reported_in_the_language() {
    let (tmp, ev) = jinhua();
    let csv = tmp.path().join("late.csv");
    fs::write(&csv, "姓名,性别,组别\n新人,男,象棋组\n").unwrap();
    fails_in_both(
        &ev,
        &["import", p(&csv)],
        3,
        &[
            ":2：`组别` 列：组别 `象棋组` 不在规程中",
            "中有 1 个错误；未导入任何棋手",
            "未导入任何棋手，赛事未改变。",
        ],
        &[
            ":2: column `组别`: group `象棋组` is not in the rulebook",
            "1 error in",
            "nothing was imported; the event is unchanged.",
        ],
    );
}

#[test]
fn rules_check_speaks_the_rulebook_language() {
    let tmp = TempDir::new().expect("temp dir");
    let text = fs::read_to_string(root("rules/jinhua-2018.toml")).unwrap();
    assert!(text.contains("\nrounds = 9\n"));
    let typo = text.replacen("\nrounds = 9\n", "\nrouns = 9\n", 1);
    let zh = tmp.path().join("typo.toml");
    fs::write(&zh, &typo).unwrap();
    fails_in_both(
        tmp.path(),
        &["rules", "check", p(&zh)],
        3,
        &["event.rouns: 未知的键 `rouns`；是不是 `rounds`？", "个问题"],
        &[
            "event.rouns: unknown key `rouns`; did you mean `rounds`?",
            "problem(s) in",
        ],
    );
    // An English rulebook with the same typo answers in English without a flag.
    let en = tmp.path().join("typo-en.toml");
    fs::write(
        &en,
        typo.replacen("language = \"zh\"", "language = \"en\"", 1),
    )
    .unwrap();
    let (code, err) = run(tmp.path(), &["rules", "check", p(&en)]);
    assert_eq!(code, 3, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("unknown key `rouns`"), "{err}");
    let (_, forced) = run(tmp.path(), &["--lang", "zh", "rules", "check", p(&en)]);
    assert!(forced.starts_with("错误："), "{forced}");
}

#[test]
fn without_an_event_the_message_is_chinese() {
    let tmp = TempDir::new().expect("temp dir");
    fails_in_both(
        tmp.path(),
        &["players"],
        2,
        &["中没有找到赛事", "`qiwang init DIR --rules FILE`"],
        &["no event found in", "`qiwang init DIR --rules FILE`"],
    );
}
