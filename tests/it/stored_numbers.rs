//! A name or unit that holds an ID or phone number in a state the import did not write (an
//! older qiwang, a hand edit of `qiwang.json`): the public outputs print it masked, only
//! `--show-private` shows what is stored, and `check` names each player and fails.

use crate::common::{Run, p, small_event};
use std::fs;
use std::path::Path;

const ID_IN_NAME: &str = "张三110101199003071234";
const PHONE_IN_UNIT: &str = "13800138000";
/// The digits no public output may print: the phone number and the ID number's hidden
/// middle (its birth date).
const HIDDEN: [&str; 3] = [PHONE_IN_UNIT, "110101199003071234", "19900307"];

/// A paired round 1 with its results, then `张三`'s name and `李四`'s unit edited in the
/// state by hand, as an older qiwang or a hand edit could leave them.
fn event_with_numbers() -> (tempfile::TempDir, std::path::PathBuf) {
    let (tmp, ev) = small_event(&["张三", "李四", "王五", "赵六"]);
    Run::on_event(&ev, &["pair"]).check();
    Run::on_event(&ev, &["result", "1", "r"]).check();
    Run::on_event(&ev, &["result", "2", "b"]).check();
    let state = ev.join("qiwang.json");
    let mut value: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&state).unwrap()).unwrap();
    for player in value["players"].as_array_mut().unwrap() {
        match player["name"].as_str() {
            Some("张三") => player["name"] = ID_IN_NAME.into(),
            Some("李四") => player["unit"] = PHONE_IN_UNIT.into(),
            _ => {}
        }
    }
    fs::write(&state, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    (tmp, ev)
}

/// An event of the CXA preset registered from `csv`.
fn cxa_event(csv: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let ev = crate::common::event_from(tmp.path(), &crate::common::rules_plus("cxa-2011", ""), csv);
    (tmp, ev)
}

/// The first registered player's `field` set to `value` in the state by hand, as an
/// older qiwang or a hand edit could leave it.
fn edit_first_player(ev: &Path, field: &str, value: &str) {
    let state = ev.join("qiwang.json");
    let mut event: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&state).unwrap()).unwrap();
    event["players"][0][field] = value.into();
    fs::write(&state, serde_json::to_string_pretty(&event).unwrap()).unwrap();
}

#[track_caller]
fn lacks_the_numbers(what: &str, text: &str) {
    for digits in HIDDEN {
        assert!(!text.contains(digits), "{what} prints {digits}:\n{text}");
    }
}

/// Every file under `dir`, as text where it is text.
fn files_in(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files_in(&path));
        } else {
            let bytes = fs::read(&path).unwrap();
            out.push((
                path.display().to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ));
        }
    }
    out
}

#[test]
fn public_outputs_print_a_stored_number_masked() {
    let (tmp, ev) = event_with_numbers();
    let reads: [&[&str]; 10] = [
        &["standings", "--format", "csv"],
        &["standings", "--format", "json"],
        &["standings"],
        &["crosstable", "--format", "csv"],
        &["round", "1"],
        &["round", "1", "--sheet", "slips", "--format", "csv"],
        &["round", "1", "--sheet", "cards", "--format", "json"],
        &["prizes"],
        &["players", "--format", "json"],
        &["players"],
    ];
    for args in reads {
        let out = Run::on_event(&ev, args).check();
        lacks_the_numbers(&args.join(" "), &out.stdout);
        assert!(
            out.stdout.contains("张三110101********1234") || args[0] == "prizes",
            "{args:?}:\n{}",
            out.stdout
        );
    }
    let csv = Run::on_event(&ev, &["standings", "--format", "csv"]).check();
    assert!(csv.stdout.contains(",138****8000,"), "{}", csv.stdout);

    // The sheet `pair` prints as it pairs the round.
    let paired = Run::on_event(&ev, &["pair"]).check();
    lacks_the_numbers("pair", &paired.stdout);
    assert!(paired.stdout.contains("138****8000"), "{}", paired.stdout);

    // The static site, every page and file of it.
    let site = tmp.path().join("site");
    Run::on_event(&ev, &["export", "--out", p(&site)]).check();
    let files = files_in(&site);
    assert!(files.len() > 1, "{files:?}");
    for (path, text) in &files {
        lacks_the_numbers(path, text);
    }
    assert!(
        files
            .iter()
            .any(|(_, t)| t.contains("张三110101********1234")),
        "no page names 张三"
    );
}

/// `--show-private` shows every field as stored, as it shows the ID and phone columns.
#[test]
fn show_private_prints_what_is_stored() {
    let (_tmp, ev) = event_with_numbers();
    for args in [
        &["--show-private", "standings", "--format", "csv"][..],
        &["--show-private", "players"][..],
    ] {
        let out = Run::on_event(&ev, args).check();
        assert!(
            out.stdout.contains(ID_IN_NAME) && out.stdout.contains(PHONE_IN_UNIT),
            "{args:?}:\n{}",
            out.stdout
        );
    }
}

/// `check` names both players, each with the command that corrects the field, the number
/// masked, and fails as a check that found something does (exit 3); once corrected it
/// passes.
#[test]
fn check_names_each_player_whose_name_or_unit_holds_a_number() {
    let (_tmp, ev) = event_with_numbers();
    let zh = Run::on_event_in("zh", &ev, &["check"])
        .status(3)
        .stdout_has("报名编号 1 的姓名“张三110101********1234”含有身份证号或电话号码")
        .stdout_has("`qiwang player edit 1 --name NAME`")
        .stdout_has("李四（报名编号 2）的单位“138****8000”含有身份证号或电话号码")
        .stdout_has("`qiwang player edit 2 --unit UNIT`")
        .stderr_has("有 2 处姓名或单位含有身份证号或电话号码")
        .check();
    lacks_the_numbers("check", &format!("{}{}", zh.stdout, zh.stderr));
    let en = Run::on_event_in("en", &ev, &["check"])
        .status(3)
        .stdout_has("the name \"张三110101********1234\" of player 1 holds an ID or phone number")
        .stdout_has("`qiwang player edit 1 --name NAME`")
        .stdout_has("the unit \"138****8000\" of 李四 (id 2) holds an ID or phone number")
        .stdout_has("`qiwang player edit 2 --unit UNIT`")
        .stderr_has("2 names or units hold an ID or phone number")
        .check();
    lacks_the_numbers("check", &format!("{}{}", en.stdout, en.stderr));
    let json = Run::on_event_in("en", &ev, &["check", "--format", "json"])
        .status(3)
        .check();
    lacks_the_numbers("check --format json", &json.stdout);

    // The commands it names correct the state, and the check passes.
    Run::on_event(&ev, &["player", "edit", "1", "--name", "张三"]).check();
    Run::on_event(&ev, &["player", "edit", "2", "--unit", "乙队"]).check();
    Run::on_event(&ev, &["check"])
        .stdout_lacks("报名编号")
        .check();
}

/// What a change prints as it confirms itself, and what `log` and `undo` repeat of it,
/// names the player as the reports do: masked.
#[test]
fn confirmations_and_the_log_print_a_stored_number_masked() {
    let (_tmp, ev) = event_with_numbers();
    let steps: [&[&str]; 8] = [
        &["result", "1", "r", "2", "b"],
        &["penalty", "1", "1", "--reason", "迟到"],
        &["warn", "1", "--reason", "讲话"],
        &["player", "withdraw", "1"],
        &["player", "reinstate", "1"],
        &["player", "disqualify", "1", "--reason", "冒名"],
        &["log"],
        &["undo"],
    ];
    for args in steps {
        let out = Run::on_event(&ev, args).check();
        lacks_the_numbers(&args.join(" "), &format!("{}{}", out.stdout, out.stderr));
    }
    // The table confirmed names 张三 as the reports do.
    Run::on_event(&ev, &["result", "1", "r", "2", "b"])
        .stdout_has("张三110101********1234")
        .check();
}

/// A name typed one digit short of a stored one holding a phone number is not found, and
/// the suggestion never gives the stored digits (suggestions are made among the names as
/// printed); a disqualification refused names the player masked too.
#[test]
fn refusals_and_suggestions_name_a_stored_number_masked() {
    let (_tmp, ev) = event_with_numbers();
    let state = ev.join("qiwang.json");
    let mut value: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&state).unwrap()).unwrap();
    value["players"][2]["name"] = "王五13912345678".into();
    fs::write(&state, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    let out = Run::on_event(&ev, &["penalty", "王五1391234567", "1", "--reason", "x"])
        .status(3)
        .check();
    let said = format!("{}{}", out.stdout, out.stderr);
    assert!(!said.contains("13912345678"), "{said}");
    Run::on_event(&ev, &["player", "disqualify", "1", "--reason", "冒名"]).check();
    let again = Run::on_event(&ev, &["player", "disqualify", "1", "--reason", "冒名"])
        .status(3)
        .check();
    lacks_the_numbers("disqualify", &format!("{}{}", again.stdout, again.stderr));
    assert!(
        again.stderr.contains("110101********1234"),
        "{}",
        again.stderr
    );
}

/// A player whose name and unit both hold a number: `player edit` checks the whole player,
/// so `check` gives one command that corrects both, and it works.
#[test]
fn check_gives_one_command_for_a_name_and_unit_both_holding_numbers() {
    let (_tmp, ev) = event_with_numbers();
    let state = ev.join("qiwang.json");
    let mut value: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&state).unwrap()).unwrap();
    value["players"][0]["unit"] = PHONE_IN_UNIT.into();
    fs::write(&state, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    Run::on_event_in("en", &ev, &["check"])
        .status(3)
        .stdout_has("`qiwang player edit 1 --name NAME --unit UNIT`")
        .stdout_has("`qiwang player edit 2 --unit UNIT`")
        .check();
    Run::on_event(
        &ev,
        &["player", "edit", "1", "--name", "张三", "--unit", "甲队"],
    )
    .check();
    Run::on_event(&ev, &["player", "edit", "2", "--unit", "乙队"]).check();
    Run::on_event(&ev, &["check"])
        .stdout_lacks("报名编号")
        .check();
}

/// A sheet repeating the ID number of a registered player whose stored name holds a phone
/// number: the duplicate is refused naming that player masked.
#[test]
fn an_import_names_a_registered_player_masked() {
    let (tmp, ev) = cxa_event("name,gender,unit,id\n张三,男,甲,110101199003071233\n李四,男,乙,\n");
    edit_first_player(&ev, "name", "张三13912345678");
    let sheet = tmp.path().join("more.csv");
    fs::write(
        &sheet,
        "name,gender,unit,id\n王五,男,丙,110101199003071233\n",
    )
    .unwrap();
    let out = Run::on_event(&ev, &["import", p(&sheet)]).status(3).check();
    assert!(
        out.stderr.contains("张三139****5678") && !out.stderr.contains("13912345678"),
        "{}",
        out.stderr
    );
}

/// A sheet whose name cell holds a phone number twice: each row is refused for it, and
/// the duplicate message names both rows masked, as the refusal does. A registered unit
/// holding a phone number (kept by a hand edit) is quoted masked where a row's unit reads
/// like it.
#[test]
fn an_import_quotes_a_sheets_names_and_registered_units_masked() {
    let (tmp, ev) = cxa_event("name,gender,unit\n张三,男,城南小学\n");
    let sheet = tmp.path().join("twice.csv");
    fs::write(
        &sheet,
        "name,gender,unit\n李四13912345678,男,乙\n李四13912345678,男,乙\n",
    )
    .unwrap();
    let out = Run::on_event(&ev, &["import", p(&sheet)]).status(3).check();
    assert!(
        out.stderr.contains("已在第 2 行（`李四139****5678`）出现")
            && !out.stderr.contains("13912345678"),
        "{}",
        out.stderr
    );
    edit_first_player(&ev, "unit", "城南小学（13812345678）");
    fs::write(&sheet, "name,gender,unit\n王五,男,城南小学\n").unwrap();
    let out = Run::on_event(&ev, &["import", p(&sheet), "--dry-run"]).check();
    assert!(
        out.stderr.contains("与 `城南小学（138****5678）` 写法相近")
            && !out.stderr.contains("13812345678"),
        "{}",
        out.stderr
    );
}

/// A phone or ID number typed where a player, a group or a prize list is named, or
/// written in a results file's cells, is quoted back masked in the refusal: an arbiter
/// who types a phone number to find a player does not get it printed whole.
#[test]
fn a_number_typed_or_written_in_a_results_file_is_quoted_back_masked() {
    let (tmp, ev) = small_event(&["张三", "李四", "王五", "赵六"]);
    Run::on_event(&ev, &["pair", "--seed", "1"]).check();
    let results = tmp.path().join("r1.csv");
    fs::write(
        &results,
        "轮次,台号,红方,黑方,结果\n1,1,张三13912345678,李四,红胜\n1,2,110101199003071233,王五,13812345678\n",
    )
    .unwrap();
    let tries: [&[&str]; 6] = [
        &["result", "--from", p(&results)],
        &["penalty", "13912345678", "1", "--reason", "迟到"],
        &["player", "withdraw", "139-1234-5678"],
        &["player", "edit", "#13912345678", "--unit", "甲"],
        &["standings", "--list", "13912345678"],
        &["standings", "--group", "110101199003071233"],
    ];
    for args in tries {
        let out = Run::on_event(&ev, args).status(3).check();
        assert!(
            out.stderr.contains("****")
                && ![
                    "13912345678",
                    "13812345678",
                    "1234-5678",
                    "110101199003071233"
                ]
                .iter()
                .any(|n| out.stderr.contains(n)),
            "{args:?}: {}",
            out.stderr
        );
    }
}

/// A birth date that disagrees with the ID number is refused without quoting the ID's own
/// date: beside the masked ID (here a registered player's, named by the duplicate
/// message) it would spell the whole number.
#[test]
fn a_birth_date_mismatch_does_not_spell_the_masked_id() {
    let (_tmp, ev) = cxa_event("name,gender,unit,id\n新人,男,甲,110101199003071233\n");
    let out = Run::on_event(
        &ev,
        &[
            "player",
            "add",
            "--name",
            "王三",
            "--gender",
            "男",
            "--unit",
            "乙",
            "--birth-date",
            "1990-01-01",
            "--id-number",
            "110101199003071233",
        ],
    )
    .status(3)
    .check();
    assert!(
        out.stderr
            .contains("与身份证号中的出生日期（第 7–14 位）不一致")
            && out.stderr.contains("110101********1233")
            && !out.stderr.contains("1990-03-07")
            && !out.stderr.contains("19900307"),
        "{}",
        out.stderr
    );
}

/// A phone or ID number typed where the command line wants something else (a round, a
/// subcommand) is quoted back masked in the usage error, in both languages; the rest of
/// the text (the range up to 4294967295) is left as it is.
#[test]
fn a_usage_error_quotes_a_typed_number_masked() {
    let tmp = tempfile::tempdir().unwrap();
    let tries: [&[&str]; 4] = [
        &["round", "110101199003071233"],
        &["--lang", "en", "round", "13912345678"],
        &["13912345678"],
        &["--lang", "en", "13912345678"],
    ];
    for args in tries {
        let out = Run::new(tmp.path(), args).status(2).check();
        assert!(
            out.stderr.contains("****")
                && !out.stderr.contains("13912345678")
                && !out.stderr.contains("199003071233"),
            "{args:?}: {}",
            out.stderr
        );
    }
    let out = Run::new(tmp.path(), &["round", "110101199003071233"])
        .status(2)
        .check();
    assert!(out.stderr.contains("4294967295"), "{}", out.stderr);
}
