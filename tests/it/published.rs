//! What public outputs carry (issue 42 §4), over the real binary: free text an arbiter
//! typed (reasons, notes) reaches no public output, the published player list holds only
//! what an organiser posts unless the rulebook's `[publish]` asks for more, `log` and
//! `audit.log` mask every form an ID number or birth date takes, names are cleaned at
//! import, a linked `qiwang.json` is refused, and messages mask only what looks personal.

use crate::common::{Run, p, root};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

/// A word that stands for what free text may hold (a diagnosis) and no output may show.
pub(crate) const SECRET: &str = "哮喘病历";

/// An ID number typed into reasons in every hostile form, and the birth date it hides.
const REASON_FORMS: [&str; 6] = [
    "3301.0219.9001.0112.34",
    "330102_19900101_1234",
    "３３０１０２１９９００１０１１２３４",
    "三三〇一〇二一九九〇〇一〇一一二三四",
    "330102********1234 生于1990年1月1日",
    "3301／0219／9001／0112／34",
];
const REASON_ID: &str = "330102199001011234";

/// What `qiwang ARGS` run in `cwd` prints on standard output, after failing the test
/// unless it succeeded with nothing on standard error (where nothing private can hide).
#[track_caller]
fn printed(cwd: &Path, args: &[&str]) -> String {
    Run::new(cwd, args).stderr_empty().check().stdout
}

/// [`printed`] read as JSON.
#[track_caller]
fn json_in(cwd: &Path, args: &[&str]) -> serde_json::Value {
    Run::new(cwd, args).stderr_empty().check().json()
}

/// A refusal of `qiwang ARGS` run in `cwd`: exit status `code`, nothing on standard
/// output, and every word on standard error, which it returns.
#[track_caller]
fn refused(cwd: &Path, args: &[&str], code: i32, words: &[&str]) -> String {
    let mut run = Run::new(cwd, args).status(code).stdout_empty();
    for w in words {
        run = run.stderr_has(w);
    }
    run.check().stderr
}

/// `text` with every digit form (full width, Chinese numerals) as ASCII and the
/// separators people put inside numbers dropped, so a number is found however written.
fn digits_joined(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '.' | '_' | '/' | '／' | '\u{3000}' | '·'))
        .map(|c| {
            let d = match c {
                '0'..='9' => return c,
                '\u{ff10}'..='\u{ff19}' => c as u32 - 0xff10,
                '〇' | '零' => 0,
                '一' | '壹' => 1,
                '二' | '贰' => 2,
                '三' | '叁' => 3,
                '四' | '肆' => 4,
                '五' | '伍' => 5,
                '六' | '陆' => 6,
                '七' | '柒' => 7,
                '八' | '捌' => 8,
                '九' | '玖' => 9,
                _ => return c,
            };
            char::from_digit(d, 10).unwrap_or(c)
        })
        .collect()
}

/// The personal numbers of the sheet's players: `(id number, phone, birth date)`.
pub(crate) fn registrations() -> Vec<(String, String, String)> {
    (1..=6u32)
        .map(|i| {
            // An odd 17th digit: a man, as the sheet says.
            let first17 = format!("3307022012030{i}{:03}", 99 + 2 * i);
            let id = format!("{first17}{}", crate::privacy::id_check(&first17));
            (id, format!("1391234567{i}"), format!("2012-03-0{i}"))
        })
        .collect()
}

/// A six-player event of the CXA rulebook (plus `extra` rulebook text) with ID numbers,
/// phones, birth dates and a 残疾 column, one round played, a penalty, a withdrawal and a
/// disqualification whose reasons hold [`SECRET`] and every form of [`REASON_FORMS`].
pub(crate) fn event_with_reasons(tmp: &Path, extra: &str) -> PathBuf {
    let rules = tmp.join("rules.toml");
    let cxa = fs::read_to_string(root("rules/cxa-2011.toml")).unwrap();
    fs::write(&rules, format!("{cxa}\n{extra}")).unwrap();
    let mut sheet = String::from("姓名,性别,单位,出生日期,身份证号,电话,残疾\n");
    for (i, (id, phone, born)) in registrations().iter().enumerate() {
        let disabled = if i == 0 { "是" } else { "" };
        sheet.push_str(&format!(
            "棋手{i},男,单位{i},{born},{id},{phone},{disabled}\n"
        ));
    }
    fs::write(tmp.join("reg.csv"), sheet).unwrap();
    printed(tmp, &["init", "ev", "--rules", p(&rules)]);
    let ev = tmp.join("ev");
    let reasons = REASON_FORMS.join("；");
    for args in [
        vec!["import", "reg.csv"],
        vec!["pair", "--seed", "1"],
        vec!["result", "1", "r", "2", "=", "3", "b"],
        vec!["penalty", "1", "1", "--reason"],
        vec!["player", "withdraw", "2", "--reason"],
        vec!["player", "disqualify", "3", "--reason"],
    ] {
        let mut args: Vec<String> = args.into_iter().map(String::from).collect();
        if args.last().is_some_and(|a| a == "--reason") {
            args.push(format!("{SECRET} {reasons}"));
        }
        let mut full = vec!["--event", "ev"];
        full.extend(args.iter().map(String::as_str));
        printed(tmp, &full);
    }
    ev
}

/// Every text inside an `.xlsx` file (its parts unpacked).
fn xlsx_text(path: &Path) -> String {
    let mut zip = zip::ZipArchive::new(fs::File::open(path).unwrap()).unwrap();
    let mut text = String::new();
    for i in 0..zip.len() {
        zip.by_index(i).unwrap().read_to_string(&mut text).unwrap();
    }
    text
}

/// Every public output of the event: the exported site, CSV, JSON and workbook, and every
/// sheet (`players`, `round`, `standings`, `crosstable`, `prizes`) in every format, as
/// `(what, text)`.
fn public_outputs(tmp: &Path, extra_args: &[&str]) -> Vec<(String, String)> {
    let mut shown = Vec::new();
    for format in ["html", "csv", "json", "xlsx"] {
        let out = tmp.join(format!("out-{format}"));
        let mut args = vec![
            "--event",
            "ev",
            "export",
            "--format",
            format,
            "--out",
            p(&out),
        ];
        args.extend(extra_args);
        printed(tmp, &args);
        for (path, text) in crate::privacy::files_under(&out) {
            let text = match path.extension().is_some_and(|e| e == "xlsx") {
                true => xlsx_text(&path),
                false => text,
            };
            shown.push((path.display().to_string(), text));
        }
    }
    for sheet in ["players", "round", "standings", "crosstable", "prizes"] {
        for format in ["table", "csv", "json", "html"] {
            let mut args = vec!["--event", "ev", sheet, "--format", format];
            args.extend(extra_args);
            shown.push((format!("{sheet} {format}"), printed(tmp, &args)));
        }
    }
    shown
}

/// Issue 42 §4: reasons, personal columns and the masked numbers reach no public output;
/// the typed cause is shown instead. With `--show-private` the arbiter sees them all.
#[test]
fn free_text_and_private_columns_never_reach_a_public_output() {
    let tmp = tempfile::tempdir().unwrap();
    event_with_reasons(tmp.path(), "");
    let shown = public_outputs(tmp.path(), &[]);
    assert!(shown.len() > 30, "only {} outputs", shown.len());
    let mut secrets: Vec<String> = vec![
        SECRET.into(),
        REASON_ID.into(),
        "19900101".into(),
        "1990年1月1".into(),
        "330102".into(),
        "330702".into(),
        "139****".into(),
        "********".into(),
        "出生".into(),
        "残疾".into(),
        "身份证".into(),
        "电话".into(),
        "id_number".into(),
        "birth".into(),
        "phone".into(),
        "disabled".into(),
    ];
    for (id, phone, born) in registrations() {
        secrets.extend([id, phone, born.replace('-', "")]);
    }
    for (what, text) in &shown {
        let joined = digits_joined(text);
        for s in &secrets {
            assert!(!joined.contains(s.as_str()), "{what} shows `{s}`");
        }
    }
    let players = shown
        .iter()
        .find(|(what, _)| what.ends_with("open/players.html"))
        .map(|(_, text)| text)
        .expect("the site's player list");
    for cause in ["自第2轮起退赛", "自第2轮起取消比赛资格"] {
        assert!(players.contains(cause), "{cause}: {players}");
    }
    let private = printed(
        tmp.path(),
        &[
            "--event",
            "ev",
            "players",
            "--show-private",
            "--format",
            "csv",
        ],
    );
    for (id, phone, born) in registrations() {
        for s in [id, phone, born] {
            assert!(
                private.contains(&s),
                "--show-private lacks `{s}`: {private}"
            );
        }
    }
    assert!(private.contains(SECRET), "{private}");
    let out = tmp.path().join("private");
    printed(
        tmp.path(),
        &[
            "--event",
            "ev",
            "export",
            "--format",
            "json",
            "--out",
            p(&out),
            "--show-private",
        ],
    );
    let json = fs::read_to_string(out.join("event.json")).unwrap();
    assert!(
        json.contains(SECRET) && json.contains("\"reason\""),
        "{json}"
    );
}

/// Issue 42 §4: more columns are published only when the rulebook names them, ID and
/// phone masked even then.
#[test]
fn the_rulebook_publishes_more_columns_when_asked() {
    let tmp = tempfile::tempdir().unwrap();
    event_with_reasons(
        tmp.path(),
        "[publish]\nfields = [\"birth_year\", \"残疾\", \"id_number\"]\n",
    );
    let shown = public_outputs(tmp.path(), &[]);
    let page = &shown
        .iter()
        .find(|(what, _)| what.ends_with("open/players.html"))
        .unwrap()
        .1;
    for header in ["出生年份", "残疾", "身份证号"] {
        assert!(page.contains(header), "{header}: {page}");
    }
    let (id, _, _) = &registrations()[0];
    assert!(
        page.contains(&format!("330702********{}", &id[14..])),
        "{page}"
    );
    assert!(
        !page.contains("电话") && !page.contains("2012-03-01"),
        "{page}"
    );
    for (what, text) in &shown {
        assert!(
            !text.contains(id.as_str()) && !text.contains(SECRET),
            "{what}"
        );
    }
    let json: serde_json::Value = serde_json::from_str(&printed(
        tmp.path(),
        &["--event", "ev", "players", "--format", "json"],
    ))
    .unwrap();
    let first = &json["players"][0];
    assert_eq!(first["birth_year"], 2012, "{first}");
    assert_eq!(first["disabled"], true, "{first}");
    assert!(
        first.get("phone").is_none() && first.get("local").is_none(),
        "{first}"
    );
}

/// Issue 42 §4: `log` and `audit.log` are the arbiter's records and keep the reason's
/// words, but no form of the ID number typed into it, nor the birth date beside its
/// masked form.
#[test]
fn log_and_audit_log_mask_every_form_of_an_id_in_a_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = event_with_reasons(tmp.path(), "");
    let mut records = vec![(
        "audit.log".to_string(),
        fs::read_to_string(ev.join("audit.log")).unwrap(),
    )];
    for format in ["table", "csv", "json", "html"] {
        records.push((
            format!("log {format}"),
            printed(tmp.path(), &["--event", "ev", "log", "--format", format]),
        ));
    }
    for (what, text) in &records {
        let joined = digits_joined(text);
        for s in [REASON_ID, "19900101", "1990年1月1"] {
            assert!(!joined.contains(s), "{what} shows `{s}`:\n{text}");
        }
    }
    assert!(
        records[0].1.contains(SECRET),
        "the audit line keeps the words"
    );
    // A time is not a birth date: the log's times stay whole.
    let json: serde_json::Value = serde_json::from_str(&records[3].1).unwrap();
    let times: Vec<&str> = json
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["time"].as_str())
        .collect();
    assert!(!times.is_empty(), "{json}");
    assert!(
        times
            .iter()
            .all(|t| t.starts_with("20") && !t.contains('*')),
        "{times:?}"
    );
}

/// A penalty reason holding every form of a birth date and phone number an independent
/// tester found readable, and what each must read as in the arbiter's records.
const DATE_FORMS: [(&str, &str); 16] = [
    ("生日 1990 / 01 / 01", "生日 **** / ** / **"),
    ("1990 - 01 - 01", "**** - ** - **"),
    ("1990,01,01", "****,**,**"),
    ("1990\\01\\01", "****\\**\\**"),
    ("一九九〇年元月一日", "****年**月**日"),
    ("1990年元月1日", "****年**月**日"),
    ("1990年正月初一", "****年**月**"),
    ("九〇年一月一号", "**年**月**号"),
    ("Jan 1, 1990", "** **, ****"),
    ("born 1 January 1990", "born ** ** ****"),
    ("1st Jan 1990", "** ** ****"),
    ("01-Jan-1990", "**-**-****"),
    ("90.1.1", "**.**.**"),
    ("90/1/1", "**/**/**"),
    (
        "手机 138-1234-5678 / 13812345678",
        "手机 138-****-5678 / 138****5678",
    ),
    ("N13 1990 - 01 - 01", "N13 **** - ** - **"),
];

/// The tester's reproduction over the real binary: an event of examples/jinhua-2018, a
/// penalty whose reason holds every form of [`DATE_FORMS`]; the terminal, `log` (table and
/// JSON) and `audit.log` show each form masked as the unit tests say, the words and the
/// start number `N13` kept, and none of the birth date's or the phone's hidden digits.
#[test]
fn a_penalty_reason_masks_every_form_of_a_birth_date_in_log_and_audit_log() {
    let tmp = tempfile::tempdir().unwrap();
    let rules = root("rules/jinhua-2018.toml");
    let sheet = root("examples/jinhua-2018/registrations.csv");
    printed(tmp.path(), &["init", "ev", "--rules", p(&rules)]);
    printed(tmp.path(), &["--event", "ev", "import", p(&sheet)]);
    printed(
        tmp.path(),
        &["--event", "ev", "pair", "--group", "adult", "--seed", "7"],
    );
    let reason: Vec<&str> = DATE_FORMS.iter().map(|(typed, _)| *typed).collect();
    let reason = format!("{SECRET}；{}", reason.join("；"));
    let terminal = printed(
        tmp.path(),
        &["--event", "ev", "penalty", "1", "1", "--reason", &reason],
    );
    let ev = tmp.path().join("ev");
    let audit = fs::read_to_string(ev.join("audit.log")).unwrap();
    let json = printed(tmp.path(), &["--event", "ev", "log", "--format", "json"]);
    let table = printed(tmp.path(), &["--event", "ev", "log"]);
    // audit.log and the JSON log keep each reason whole (a backslash escaped as JSON does).
    for (what, text) in [("audit.log", &audit), ("log json", &json)] {
        assert!(text.contains(SECRET), "{what} keeps the words:\n{text}");
        for (typed, masked) in DATE_FORMS {
            let escaped = masked.replace('\\', "\\\\");
            assert!(
                text.contains(masked) || text.contains(&escaped),
                "{what}: `{typed}` should read `{masked}`:\n{text}"
            );
        }
    }
    for (what, text) in [
        ("terminal", &terminal),
        ("audit.log", &audit),
        ("log json", &json),
        ("log", &table),
    ] {
        let joined = digits_joined(text);
        for hidden in ["13812345678", "19900101", "1990年", "1990\\", "Jan 1"] {
            assert!(!joined.contains(hidden), "{what} shows `{hidden}`:\n{text}");
        }
        for (typed, _) in DATE_FORMS {
            assert!(!text.contains(typed), "{what} shows `{typed}`:\n{text}");
        }
    }
}

/// Issue 42 §4: a name with an invisible character is the name without it (the second
/// 张三 is a duplicate), and a 3,001-character name is refused with its cell.
#[test]
fn names_are_cleaned_and_overlong_ones_refused_at_import() {
    let tmp = tempfile::tempdir().unwrap();
    printed(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    );
    let import = |rows: &str| {
        fs::write(tmp.path().join("reg.csv"), format!("姓名,单位\n{rows}")).unwrap();
        ["--lang", "en", "--event", "ev", "import", "reg.csv"]
    };
    for hidden in [
        "\u{200b}", "\u{200f}", "\u{202e}", "\u{2066}", "\u{ad}", "\u{feff}",
    ] {
        let args = import(&format!("张三,甲\n张{hidden}三,甲\n"));
        refused(tmp.path(), &args, 3, &["reg.csv:3", "`张三`"]);
    }
    let long = "王".repeat(3001);
    let args = import(&format!("张三,甲\n{long},乙\n"));
    let stderr = refused(
        tmp.path(),
        &args,
        3,
        &["reg.csv:3", "`姓名`", "3001 characters", "limit of 128"],
    );
    assert!(stderr.len() < 2000, "{stderr}");
    Run::new(tmp.path(), &import("张\u{200b}三,甲\n"))
        .stdout_has("imported 1 player")
        .stderr_empty()
        .check();
    let listed = json_in(
        tmp.path(),
        &["--event", "ev", "players", "--format", "json"],
    );
    assert_eq!(listed["players"][0]["name"], "张三");
    printed(
        tmp.path(),
        &[
            "--event",
            "ev",
            "player",
            "edit",
            "张\u{200d}三",
            "--unit",
            "丙",
        ],
    );
}

/// Issue 42 §4: a `qiwang.json` that is a symbolic link is refused like every link in
/// the event, by reading and changing commands alike, and its target is left alone.
/// Every command that only reads the event is tried (old code: `log` read the players
/// through the link).
#[cfg(unix)]
#[test]
fn a_linked_state_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    printed(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    );
    let state = tmp.path().join("ev/qiwang.json");
    let elsewhere = tmp.path().join("other.json");
    fs::rename(&state, &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &state).unwrap();
    let before = fs::read(&elsewhere).unwrap();
    let (out, sheet) = (tmp.path().join("out"), tmp.path().join("reg.csv"));
    fs::write(&sheet, "姓名\n甲\n").unwrap();
    let (out, sheet) = (p(&out), p(&sheet));
    for args in [
        vec!["players"],
        vec!["log"],
        vec!["rules", "show"],
        vec!["template", "--out", out],
        vec!["round"],
        vec!["check"],
        vec!["standings"],
        vec!["crosstable"],
        vec!["teams"],
        vec!["prizes"],
        vec!["group", "sizes"],
        vec!["export", "--out", out],
        vec!["import", "--dry-run", sheet],
        vec!["player", "add", "--name", "甲"],
    ] {
        let mut full = vec!["--lang", "en", "--event", "ev"];
        full.extend(args);
        refused(tmp.path(), &full, 3, &["symbolic link"]);
    }
    assert_eq!(fs::read(&elsewhere).unwrap(), before);
    assert!(
        fs::symlink_metadata(&state)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

/// Issue 42 §4: a message masks what looks like an ID or phone number typed into the
/// wrong column, in any form, but not every long number.
#[test]
fn messages_mask_ids_and_phones_but_not_other_numbers() {
    let tmp = tempfile::tempdir().unwrap();
    printed(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    );
    fs::write(
        tmp.path().join("reg.csv"),
        "姓名,等级分,年级\n甲,1234567890,1\n乙,139.1234.5678,2\n丙,1,３３０７０２２０１２０３０１１０１X\n",
    )
    .unwrap();
    let stderr = refused(
        tmp.path(),
        &["--lang", "en", "--event", "ev", "import", "reg.csv"],
        3,
        &["`1234567890`", "139.****.5678"],
    );
    for s in ["13912345678", "1234.5678", "２０１２０３０１", "20120301"] {
        assert!(!digits_joined(&stderr).contains(s), "`{s}`: {stderr}");
    }
}
