//! Error messages follow the event's language: `--lang` if given, else the language of
//! the rulebook the command works on (the shipped Chinese rulebooks: zh), else Chinese.
//! Each refusal runs the binary three times, without a flag on a Chinese event, with
//! `--lang en` and with `--lang zh`, and checks the status, the empty standard output, and
//! the prefix, the words and the quoted values of the message in both languages. Every
//! run is a [`Run`] that pins the status and both streams together.

use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

use crate::common::{Run, event_with, p, root};

/// `args` with `--lang LANG` before them (before the subcommand, so `result` does not
/// take it for an entry).
fn in_lang<'a>(lang: &'a str, args: &[&'a str]) -> Vec<&'a str> {
    let mut all = vec!["--lang", lang];
    all.extend_from_slice(args);
    all
}

/// Runs a failing command in Chinese (no flag) and in English (`--lang en`) and checks
/// both: the status, nothing on standard output, and every word of the message; `--lang
/// zh` must then print the very text the rulebook's own language did.
#[track_caller]
fn fails_in_both(cwd: &Path, args: &[&str], code: i32, zh: &[&str], en: &[&str]) {
    let refusal = |args: &[&str], words: &[&str]| {
        let mut run = Run::new(cwd, args).status(code).stdout_empty();
        for w in words {
            run = run.stderr_has(w);
        }
        run.check().stderr
    };
    let zh_err = refusal(args, zh);
    assert!(zh_err.starts_with("错误："), "{zh_err}");
    let en_err = refusal(&in_lang("en", args), en);
    assert!(en_err.starts_with("error: "), "{en_err}");
    Run::new(cwd, &in_lang("zh", args))
        .status(code)
        .stdout_empty()
        .stderr_is(&zh_err)
        .check();
}

/// The Jinhua event with its registrations and round 1 of the youth group paired.
fn jinhua() -> (TempDir, PathBuf) {
    let (tmp, ev) = event_with(
        &root("rules/jinhua-2018.toml"),
        Some(&root("examples/jinhua-2018/registrations.csv")),
    );
    let pair = ["--event", "ev", "pair", "--group", "youth", "--seed", "1"];
    Run::new(tmp.path(), &pair).stderr_empty().check();
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
        &["组别 `青少年组` 第 1 轮没有第 99 台"],
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
        &["组别 `青少年组` 第 1 轮尚未结束", "`qiwang result`"],
        &[
            "round 1 of group `youth` is not complete",
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
            "2 problems in",
        ],
    );
    // An English rulebook with the same typo answers in English without a flag.
    let en = tmp.path().join("typo-en.toml");
    fs::write(
        &en,
        typo.replacen("language = \"zh\"", "language = \"en\"", 1),
    )
    .unwrap();
    let err = Run::new(tmp.path(), &["rules", "check", p(&en)])
        .status(3)
        .stdout_empty()
        .stderr_has("unknown key `rouns`")
        .check()
        .stderr;
    assert!(err.starts_with("error: "), "{err}");
    let forced = Run::new(tmp.path(), &["--lang", "zh", "rules", "check", p(&en)])
        .status(3)
        .stdout_empty()
        .stderr_has("未知的键 `rouns`")
        .check()
        .stderr;
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

/// What `qiwang ARGS` run in `cwd` prints on standard output, after failing the test
/// unless it succeeded with nothing on standard error.
#[track_caller]
fn printed(cwd: &Path, args: &[&str]) -> String {
    Run::new(cwd, args).stderr_empty().check().stdout
}

/// The subcommands listed under `命令：` (or `Commands:`) of a help text.
fn listed_subcommands(help: &str) -> Vec<String> {
    let Some(start) = help.find("命令：\n").or_else(|| help.find("Commands:\n")) else {
        return Vec::new();
    };
    help[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// ASCII words of `text` that read as English, once option names (`--group`, `-h`),
/// placeholders (`<DIR>`, `[OPTIONS]`), backticked examples, the command names and the
/// values a user types are taken out.
fn english_words(text: &str, commands: &[String]) -> Vec<String> {
    let mut plain = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let closing = match c {
            '<' => Some('>'),
            '[' => Some(']'),
            '`' => Some('`'),
            _ => None,
        };
        if let Some(close) = closing {
            for c in chars.by_ref() {
                if c == close {
                    break;
                }
            }
            plain.push(' ');
        } else {
            plain.push(c);
        }
    }
    let allowed = [
        "qiwang",
        "table",
        "csv",
        "json",
        "html",
        "trf",
        "xlsx",
        "xls",
        "ods",
        "pairings",
        "slips",
        "cards",
        "find",
        "wall",
        "zh",
        "en",
        "auto",
        "utf-8",
        "utf8",
        "gbk",
        "Excel",
        "CSV",
        "UTF-8",
        "BOM",
        "GBK",
        "TOML",
        "FIDE",
        "TRF",
        "FILE",
        "RED",
        "BLACK",
        "TABLE",
        "true",
        "false",
        "bash",
        "zsh",
        "fish",
        "powershell",
        "elvish",
        "man",
        "roff",
        "qiwang-demo",
        "qiwang.json",
        "swap",
        "help",
    ];
    plain
        .split(|c: char| c.is_whitespace() || "，。：；、（）()|,:;/".contains(c))
        .filter(|w| !w.starts_with('-'))
        .map(|w| w.trim_matches(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|w| w.chars().filter(char::is_ascii_alphabetic).count() >= 2)
        .filter(|w| w.is_ascii())
        .filter(|w| !allowed.contains(w) && !commands.iter().any(|c| c == w))
        .map(str::to_string)
        .collect()
}

/// `--help` and `-h` of every command and subcommand, found by walking the help itself, so
/// a command or option added later without a Chinese text fails here.
#[test]
fn every_help_is_chinese_without_an_english_sentence() {
    let tmp = TempDir::new().expect("temp dir");
    let mut paths: Vec<Vec<String>> = vec![Vec::new()];
    let mut seen = 0;
    let mut commands: Vec<String> = Vec::new();
    while let Some(path) = paths.pop() {
        for flag in ["--help", "-h"] {
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            args.push(flag);
            let help = Run::new(tmp.path(), &args)
                .stdout_has("用法：qiwang")
                .stderr_empty()
                .check()
                .stdout;
            let subs = listed_subcommands(&help);
            commands.extend(subs.iter().cloned());
            commands.extend(path.iter().cloned());
            let words = english_words(&help, &commands);
            assert!(words.is_empty(), "English in {args:?}: {words:?}\n{help}");
            if flag == "--help" {
                for sub in subs {
                    let mut p = path.clone();
                    p.push(sub);
                    paths.push(p);
                }
            }
        }
        seen += 1;
    }
    assert!(seen > 25, "only {seen} commands were walked");
    // The English help stays English.
    let help = Run::new(tmp.path(), &["--lang", "en", "pair", "--help"])
        .stdout_has("Usage: qiwang pair [OPTIONS]")
        .stderr_empty()
        .check()
        .stdout;
    assert!(help.starts_with("Pair the next round of a group"), "{help}");
}

#[test]
fn the_checker_finds_english() {
    let commands = vec!["pair".to_string()];
    assert_eq!(
        english_words(
            "  --dry-run  Show the pairing without storing it",
            &commands
        ),
        ["Show", "the", "pairing", "without", "storing", "it"]
    );
    assert!(english_words("用法：qiwang pair [OPTIONS] <DIR> `--group x`", &commands).is_empty());
}

/// The language of `--help` is the event's rulebook language when there is an event.
#[test]
fn help_follows_the_event_language() {
    let tmp = TempDir::new().expect("temp dir");
    let text = fs::read_to_string(root("rules/jinhua-2018.toml")).unwrap();
    let en = tmp.path().join("en.toml");
    fs::write(
        &en,
        text.replacen("language = \"zh\"", "language = \"en\"", 1),
    )
    .unwrap();
    printed(tmp.path(), &["init", "ev", "--rules", p(&en)]);
    Run::new(tmp.path(), &["--event", "ev", "pair", "--help"])
        .stdout_has("Usage: qiwang pair")
        .stderr_empty()
        .check();
    Run::new(&tmp.path().join("ev"), &["pair", "--help"])
        .stdout_has("Usage: qiwang pair")
        .stderr_empty()
        .check();
    Run::new(tmp.path(), &["--event", "ev", "--lang", "zh", "pair", "-h"])
        .stdout_has("用法：qiwang pair")
        .stderr_empty()
        .check();
}

#[test]
fn misspelled_players_and_groups_get_a_suggestion() {
    let (_tmp, ev) = jinhua();
    let csv = fs::read_to_string(root("examples/jinhua-2018/registrations.csv")).unwrap();
    assert!(csv.contains("苏艳"), "the example has 苏艳");
    fails_in_both(
        &ev,
        &["player", "withdraw", "苏燕"],
        3,
        &["没有名为 `苏燕` 的棋手；你是不是要找 `苏艳`？"],
        &["no player named `苏燕`; did you mean `苏艳`?"],
    );
    fails_in_both(
        &ev,
        &["standings", "--group", "少年组"],
        3,
        &[
            "规程中没有组别 `少年组`；你是不是要找 `青少年组`？",
            "请用 `成人组`、`残疾人组`、`青少年组`",
        ],
        &[
            "no group `少年组` in the rulebook; did you mean `青少年组`?",
            "`adult` (成人组)",
        ],
    );
    // Chinese names groups by their regulation names, never by the ids alone.
    Run::new(&ev, &["standings", "--group", "x"])
        .status(3)
        .stdout_empty()
        .stderr_has("`成人组`")
        .stderr_lacks("`adult`")
        .check();
}

/// `penalty` and `player` have no `--group`: an ambiguous pairing number asks for the
/// registration id instead.
#[test]
fn errors_only_suggest_options_of_their_command() {
    let (_tmp, ev) = jinhua();
    printed(&ev, &["pair", "--group", "adult", "--seed", "1"]);
    let failing: [&[&str]; 3] = [
        &["penalty", "#1", "1", "--reason", "x"],
        &["player", "withdraw", "#1"],
        &["player", "edit", "#1", "--unit", "x"],
    ];
    for args in failing {
        let help = {
            let mut h: Vec<&str> = vec!["--lang", "en"];
            h.extend(
                args.iter()
                    .take_while(|a| !a.starts_with('#') && !a.starts_with('-')),
            );
            h.push("--help");
            printed(&ev, &h)
        };
        for lang in ["zh", "en"] {
            let a = in_lang(lang, args);
            let err = Run::new(&ev, &a).status(3).stdout_empty().check().stderr;
            for opt in err.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
                if opt.starts_with("--") && opt.len() > 2 {
                    assert!(
                        help.contains(&format!("{opt} ")),
                        "{a:?} suggests {opt}:\n{err}"
                    );
                }
            }
        }
    }
    fails_in_both(
        &ev,
        &["penalty", "#1", "1", "--reason", "x"],
        3,
        &["编排号 `1` 在多个组别中都有：请改用报名编号（"],
        &["pairing number `1` exists in several groups: use the registration id ("],
    );
}

#[test]
fn a_draw_may_be_written_ping() {
    let (_tmp, ev) = jinhua();
    // 青少年组's first tables are 40 and 41 (after 成人组's 39, docs/rules.md §12 (table numbers)).
    printed(
        &ev,
        &["result", "--group", "youth", "40", "平", "41", "平局"],
    );
    let text = printed(&ev, &["--format", "json", "crosstable", "--group", "youth"]);
    // Two tables drawn: four players with a draw.
    assert_eq!(text.matches("\"result\": \"=\"").count(), 4, "{text}");
}

#[test]
fn io_errors_and_undo_speak_chinese() {
    let (tmp, ev) = jinhua();
    let missing = tmp.path().join("nope.csv");
    fails_in_both(
        &ev,
        &["import", p(&missing)],
        5,
        &["：没有这个文件或目录（系统错误码 2）"],
        &["No such file or directory (os error 2)"],
    );
    // No English summary in Chinese.
    Run::new(&ev, &["undo"])
        .stdout_is(
            "已撤销第 3 步：编排青少年组第1轮：12 局（种子 1）（命令 `--event ev pair --group youth --seed 1`）\n",
        )
        .stderr_empty()
        .check();
}

#[test]
fn completions_and_man_page_come_from_the_definition() {
    let tmp = TempDir::new().expect("temp dir");
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let mut run = Run::new(tmp.path(), &["completions", shell]).stderr_empty();
        for word in ["qiwang", "standings", "dry-run", "crosstable"] {
            run = run.stdout_has(word);
        }
        run.check();
    }
    let page = Run::new(tmp.path(), &["man"])
        .stdout_has(".SH 名称")
        .stdout_has(".SH 概要")
        .stdout_has("编排一个组别的下一轮并打印对阵表")
        .stderr_empty()
        .check()
        .stdout;
    assert!(page.starts_with(".ie"), "{page}");
    Run::new(tmp.path(), &["--lang", "en", "man"])
        .stdout_has(".SH NAME")
        .stdout_has("Pair the next round")
        .stderr_empty()
        .check();
}

/// Chinese errors name a group as the regulation does, never by its id alone.
#[test]
fn chinese_errors_name_groups_by_their_regulation_names() {
    let (_tmp, ev) = jinhua();
    fails_in_both(
        &ev,
        &["standings", "--group", "youth", "--round", "5"],
        3,
        &["组别 `青少年组` 没有第 `5` 轮：目前已编排 1 轮"],
        &["round `5` does not exist in group `youth`"],
    );
    fails_in_both(
        &ev,
        &["pairing", "swap", "--group", "adult", "1", "5"],
        3,
        &["组别 `成人组` 还没有轮次：请先运行 `qiwang pair`"],
        &["adult has no round yet"],
    );
    Run::new(&ev, &["standings", "--group", "youth", "--round", "5"])
        .status(3)
        .stdout_empty()
        .stderr_lacks("youth")
        .check();
}

/// `text` without paths and file names (`/tmp/x/ev`, `nope.csv`, `history/…`), which are
/// the user's and not English sentences.
fn without_paths(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || c == '（' || c == '）')
        .map(|w| match w.contains('/') || w.contains('.') {
            // Keep its backticks, so the quoted values around it stay quoted.
            true => w.chars().filter(|c| *c == '`').collect(),
            false => w.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A day of commands in Chinese, the errors an arbiter meets included (a missing file, a
/// bad result token, an unknown player and group, a round past the last), prints no
/// English sentence: only command and option names, paths, ids and tokens.
#[test]
fn a_day_in_chinese_prints_no_english() {
    let (tmp, ev) = jinhua();
    let missing = tmp.path().join("nope.csv");
    let commands: Vec<Vec<&str>> = vec![
        vec!["players", "--group", "青少年组"],
        vec!["import", p(&missing)],
        vec!["round", "--group", "青少年组"],
        vec!["round", "--sheet", "find", "--group", "青少年组"],
        vec!["round", "--sheet", "slips", "--group", "青少年组"],
        vec!["result", "--group", "青少年组", "1", "zz"],
        vec!["result", "--group", "青少年组", "99", "r"],
        vec!["result", "--group", "青少年组", "--round", "7", "1", "r"],
        vec!["result", "--from", p(&missing)],
        vec![
            "result",
            "--group",
            "青少年组",
            "1",
            "r",
            "2",
            "平",
            "3",
            "b",
            "4",
            "+-",
        ],
        vec!["result", "--group", "青少年组", "1", "="],
        vec!["penalty", "苏燕", "1", "--reason", "迟到"],
        vec!["penalty", "9999", "1", "--reason", "迟到"],
        vec!["standings", "--group", "不存在组"],
        vec!["standings", "--group", "青少年组", "--round", "5"],
        vec!["standings", "--group", "青少年组"],
        vec!["pair", "--group", "青少年组"],
        vec!["pairing", "swap", "--group", "青少年组", "1", "2"],
        vec!["unpair", "--group", "青少年组"],
        vec!["player", "withdraw", "9999"],
        vec!["player", "edit", "1", "--unit", "新单位"],
        vec!["crosstable", "--group", "青少年组"],
        vec!["prizes"],
        vec!["check"],
        vec!["log"],
        vec!["undo", "--dry-run"],
        vec!["undo"],
        vec!["redo"],
        vec!["redo"],
        vec!["rules", "show"],
    ];
    let mut groups = vec!["adult", "youth", "kids", "kids_b", "disabled"]
        .into_iter()
        .map(str::to_string)
        .collect::<Vec<_>>();
    // The audit user, the event folder, the commands in the log's command column.
    groups.extend(
        [
            "arbiter", "ev", "UTC", "init", "import", "pair", "result", "player", "edit",
            "penalty", "unpair", "undo", "redo", "pairing", "swap",
        ]
        .map(str::to_string),
    );
    for args in commands {
        // Refused or not: what either stream says is checked for English.
        let out = crate::common::run(&ev, &args);
        let (out, err) = (out.stdout, out.stderr);
        let mut words = Vec::new();
        for text in [&out, &err] {
            let text = match args == ["rules", "show"] {
                // Keys are the schema's; only the comments must be Chinese.
                true => text
                    .lines()
                    .filter_map(|l| l.split_once('#').map(|(_, c)| c.trim()))
                    // `# max_players: 未设置`: the key is the schema's.
                    .map(|c| match c.split_once(": ") {
                        Some((key, rest)) if key.is_ascii() => rest.to_string(),
                        _ => c.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
                false => text.clone(),
            };
            words.extend(english_words(&without_paths(&text), &groups));
        }
        assert!(
            words.is_empty(),
            "English in {args:?}: {words:?}\n{out}\n{err}"
        );
    }
}

/// `log`, `undo --dry-run`, `undo` and `redo` word each change in Chinese from the action
/// the audit line keeps; a line written before actions existed still shows its summary.
#[test]
fn the_log_speaks_the_output_language() {
    let (_tmp, ev) = jinhua();
    printed(&ev, &["result", "--group", "youth", "40", "r", "41", "="]);
    Run::new(&ev, &["log"])
        .stdout_has("记录 2 个结果（青少年组第1轮）")
        .stdout_has("编排青少年组第1轮：12 局（种子 1）")
        .stdout_lacks("recorded")
        .stdout_lacks("of youth")
        .stderr_empty()
        .check();
    let dry = Run::new(&ev, &["undo", "--dry-run"])
        .stdout_has("：记录 2 个结果（青少年组第1轮）\n")
        .stderr_empty()
        .check()
        .stdout;
    assert!(dry.starts_with("将撤销第 4 步（"), "{dry}");
    let undone = printed(&ev, &["undo"]);
    assert!(
        undone.starts_with("已撤销第 4 步：记录 2 个结果（青少年组第1轮）（命令 `"),
        "{undone}"
    );
    let redone = printed(&ev, &["redo"]);
    assert!(
        redone.starts_with("已重做第 4 步：记录 2 个结果（"),
        "{redone}"
    );
    Run::new(&ev, &["log"])
        .stdout_has("撤销第 4 步：记录 2 个结果")
        .stdout_has("重做第 4 步")
        .stderr_empty()
        .check();
    // English words the same actions, groups and players by name as in Chinese (the file
    // keeps ids).
    Run::new(&ev, &["--lang", "en", "log"])
        .stdout_has("recorded 2 results in 青少年组 round 1")
        .stdout_has("undid #4: recorded 2 results")
        .stdout_has("redid #4: recorded 2 results")
        .stderr_empty()
        .check();
    // The file keeps the action as data beside the English summary.
    let audit = fs::read_to_string(ev.join("audit.log")).unwrap();
    let line: serde_json::Value = serde_json::from_str(audit.lines().nth(3).unwrap()).unwrap();
    assert_eq!(line["details"]["action"]["kind"], "results", "{line}");
    assert_eq!(
        line["details"]["action"]["groups"][0]["group"], "youth",
        "{line}"
    );
    // A line of an older qiwang (no action) shows the summary it has.
    let older: String = audit
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            if let Some(d) = v["details"].as_object_mut() {
                d.remove("action");
            }
            format!("{v}\n")
        })
        .collect();
    fs::write(ev.join("audit.log"), older).unwrap();
    Run::new(&ev, &["log"])
        .stdout_has("recorded 2 results in youth round 1")
        .stderr_empty()
        .check();
}

/// English counts agree with their nouns: one group, one pairing pool and one player read
/// `1 group`, `1 pairing pool`, `1 player` (they read `1 groups`, `1 players`), more
/// than one stays plural, and Chinese is unchanged.
#[test]
fn english_counts_of_one_are_singular() {
    let tmp = TempDir::new().unwrap();
    let rules = root("rules/cxa-2011.toml");
    Run::new(tmp.path(), &["--lang", "en", "rules", "check", p(&rules)])
        .stdout_is(&format!(
            "{}: rulebook is valid — 1 group, 1 pairing pool, 0 prize lists\n",
            p(&rules)
        ))
        .stderr_empty()
        .check();
    Run::new(tmp.path(), &["--lang", "zh", "rules", "check", p(&rules)])
        .stdout_is(&format!(
            "{}: 规则有效 — 1 个组别，1 个编排组，0 个奖项名单\n",
            p(&rules)
        ))
        .stderr_empty()
        .check();

    let (_tmp, ev) = crate::common::small_event(&["甲"]);
    let players = printed(tmp.path(), &["--lang", "en", "--event", p(&ev), "players"]);
    assert!(players.trim_end().ends_with("\n1 player"), "{players}");
    let csv = tmp.path().join("two.csv");
    fs::write(&csv, "name,gender,unit\n乙,男,二\n丙,男,三\n").unwrap();
    Run::new(
        tmp.path(),
        &["--lang", "en", "--event", p(&ev), "import", p(&csv)],
    )
    .stdout_has("imported 2 players")
    .stderr_empty()
    .check();
}
