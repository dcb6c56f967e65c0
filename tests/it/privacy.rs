//! Personal data and HTML escaping, over the real binary and both bundled examples.
//!
//! Every read command in every format, every export and the log are searched for the full
//! ID-card and phone numbers of the example registrations: none may appear unless
//! `--show-private` is given. `audit.log` must not hold them either (the snapshots in
//! `history/` are whole states and legitimately do; they are never printed). A player
//! registered with markup in the name must come out escaped in every HTML output.

use qiwang::rulebook::Rulebook;
use qiwang::store::Store;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_qiwang");
const FORMATS: [&str; 4] = ["table", "csv", "json", "html"];
const SCRIPT: &str = "<script>alert(1)</script>";
/// Personal numbers given on the command line (`player add`), besides the sheets'.
const ADDED_ID: &str = "330723199001011239";
const ADDED_PHONE: &str = "13912345678";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn run(dir: Option<&Path>, args: &[&str]) -> Output {
    let mut cmd = Command::new(BIN);
    if let Some(dir) = dir {
        cmd.arg("--event").arg(dir);
    }
    cmd.args(args)
        .current_dir(root())
        .env("QIWANG_USER", "privacy-test")
        .output()
        .unwrap()
}

/// An example event: its directory, rulebook file and registration sheet.
struct Example {
    name: &'static str,
    /// An open group a late adult entry may join.
    open_group: &'static str,
    rules: &'static str,
    sheet: &'static str,
}

const EXAMPLES: [Example; 2] = [
    Example {
        name: "jinhua-2018",
        open_group: "adult",
        rules: "rules/jinhua-2018.toml",
        sheet: "examples/jinhua-2018/registrations.csv",
    },
    Example {
        name: "dongguan-2018",
        open_group: "king",
        rules: "rules/dongguan-2018.toml",
        sheet: "examples/dongguan-2018/registrations.csv",
    },
];

/// The ID-card and phone numbers in a registration sheet (UTF-8 or GBK).
fn personal_numbers(sheet: &Path) -> BTreeSet<String> {
    let bytes = fs::read(sheet).unwrap();
    let text = match String::from_utf8(bytes.clone()) {
        Ok(text) => text,
        Err(_) => encoding_rs::GBK.decode(&bytes).0.into_owned(),
    };
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.trim_start_matches('\u{feff}').as_bytes());
    let headers = reader.headers().unwrap().clone();
    let columns: Vec<usize> = headers
        .iter()
        .enumerate()
        .filter(|(_, h)| h.contains("身份证") || h.contains("电话"))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(columns.len(), 2, "{headers:?}");
    let mut numbers = BTreeSet::new();
    for record in reader.records() {
        let record = record.unwrap();
        for &c in &columns {
            let value = record.get(c).unwrap_or("").trim();
            if value.len() >= 11 {
                numbers.insert(value.to_ascii_uppercase());
            }
        }
    }
    numbers
}

/// Every full personal number found in `text`.
fn leaks(text: &str, numbers: &BTreeSet<String>) -> Vec<String> {
    let upper = text.to_ascii_uppercase();
    numbers
        .iter()
        .filter(|n| upper.contains(n.as_str()))
        .cloned()
        .collect()
}

/// Every file under `dir`, with its text.
pub(crate) fn files_under(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            files.extend(files_under(&entry.path()));
        } else {
            let text = String::from_utf8_lossy(&fs::read(entry.path()).unwrap()).into_owned();
            files.push((entry.path(), text));
        }
    }
    files
}

/// One output to search: what produced it, whether it is HTML, and its text.
pub(crate) struct Shown {
    pub what: String,
    pub html: bool,
    pub text: String,
}

/// Runs every read command in every format and every export over the event in `dir`,
/// returning everything they printed or wrote.
pub(crate) fn every_output(dir: &Path, out: &Path) -> Vec<Shown> {
    let event = Store::open(dir).unwrap().load().unwrap();
    let rules = Rulebook::from_toml(&event.rules_toml, "rules").unwrap();
    let groups: Vec<String> = rules.groups.iter().map(|g| g.id.to_string()).collect();
    let mut commands: Vec<Vec<String>> = vec![
        vec!["players".into()],
        vec!["prizes".into()],
        vec!["log".into()],
        vec!["group".into(), "sizes".into()],
        vec!["rules".into(), "show".into()],
    ];
    for g in &groups {
        for c in ["players", "standings", "crosstable", "teams", "check"] {
            commands.push(vec![c.into(), "--group".into(), g.clone()]);
        }
        commands.push(vec![
            "standings".into(),
            "--group".into(),
            g.clone(),
            "--round".into(),
            "1".into(),
        ]);
    }
    let mut shown = Vec::new();
    let mut succeeded = 0;
    for args in &commands {
        for format in FORMATS {
            let mut full: Vec<&str> = args.iter().map(String::as_str).collect();
            full.extend(["--format", format]);
            let output = run(Some(dir), &full);
            succeeded += usize::from(output.status.success());
            let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
            text.push_str(&String::from_utf8_lossy(&output.stderr));
            shown.push(Shown {
                what: format!("qiwang {}", full.join(" ")),
                html: format == "html" && output.status.success(),
                text,
            });
        }
    }
    // Most commands must have run: a privacy test over error messages proves little.
    assert!(
        succeeded * 4 >= commands.len() * FORMATS.len() * 3,
        "only {succeeded} of {} read commands succeeded",
        commands.len() * FORMATS.len()
    );
    for format in ["html", "json", "trf", "csv"] {
        let target = out.join(format);
        let output = run(
            Some(dir),
            &[
                "export",
                "--format",
                format,
                "--out",
                target.to_str().unwrap(),
            ],
        );
        assert!(output.status.success(), "export {format}: {output:?}");
        shown.push(Shown {
            what: format!("export {format} (printed)"),
            html: false,
            text: String::from_utf8_lossy(&output.stdout).into_owned(),
        });
        for (path, text) in files_under(&target) {
            let html = path.extension().is_some_and(|e| e == "html");
            shown.push(Shown {
                what: path.display().to_string(),
                text: match html {
                    // The site's own script file is the only script a page may name.
                    true => crate::common::without_own_script(&text),
                    false => text,
                },
                html,
            });
        }
    }
    shown
}

fn demo(example: &Example, dir: &Path) -> Output {
    let output = run(
        None,
        &[
            "demo",
            dir.to_str().unwrap(),
            "--rules",
            example.rules,
            "--registrations",
            example.sheet,
        ],
    );
    assert!(output.status.success(), "demo {}: {output:?}", example.name);
    output
}

#[test]
fn personal_numbers_never_appear_unmasked() {
    let tmp = tempfile::tempdir().unwrap();
    let mut searched = 0;
    for example in &EXAMPLES {
        let mut numbers = personal_numbers(&root().join(example.sheet));
        numbers.insert(ADDED_ID.into());
        numbers.insert(ADDED_PHONE.into());
        assert!(numbers.len() > 100, "{}: {}", example.name, numbers.len());
        let dir = tmp.path().join(example.name);
        let demo = demo(example, &dir);
        let group = example.open_group;
        let mut shown = vec![Shown {
            what: format!("demo {}", example.name),
            html: false,
            text: String::from_utf8_lossy(&demo.stdout).into_owned(),
        }];
        // Personal numbers typed on the command line: the output, the log and the audit
        // trail must mask them too.
        for args in [
            vec![
                "player",
                "add",
                "--name",
                "新来者",
                "--gender",
                "男",
                "--group",
                group,
                "--birth-date",
                "1990-01-01",
                "--id-number",
                ADDED_ID,
                "--phone",
                ADDED_PHONE,
            ],
            vec!["player", "edit", "新来者", "--phone", ADDED_PHONE],
            vec!["import", example.sheet, "--dry-run"],
        ] {
            let output = run(Some(&dir), &args);
            // The dry run refuses the sheet (every player is registered already) and
            // quotes the numbers it found twice: masked.
            assert_eq!(
                output.status.success(),
                args[0] == "player",
                "{args:?}: {output:?}"
            );
            let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
            text.push_str(&String::from_utf8_lossy(&output.stderr));
            shown.push(Shown {
                what: format!("qiwang {}", args.join(" ")),
                html: false,
                text,
            });
        }
        shown.extend(every_output(
            &dir,
            &tmp.path().join(format!("{}-out", example.name)),
        ));
        let audit = fs::read_to_string(dir.join("audit.log")).unwrap();
        shown.push(Shown {
            what: "audit.log".into(),
            html: false,
            text: audit,
        });
        let found: Vec<String> = shown
            .iter()
            .flat_map(|s| {
                leaks(&s.text, &numbers)
                    .into_iter()
                    .map(move |n| format!("{}: `{n}`", s.what))
            })
            .collect();
        searched += shown.len();
        assert!(
            found.is_empty(),
            "{}: {} unmasked numbers:\n{}",
            example.name,
            found.len(),
            found.join("\n")
        );
        // The snapshots are whole states (compressed): they hold the numbers, as
        // qiwang.json does.
        let store = qiwang::store::Store::open(&dir).unwrap();
        let history: Vec<(PathBuf, String)> = fs::read_dir(dir.join("history"))
            .unwrap()
            .map(|e| {
                let name = e.unwrap().file_name().to_string_lossy().into_owned();
                let state = store.read_snapshot(&name).unwrap();
                (
                    PathBuf::from(name),
                    String::from_utf8_lossy(&state).into_owned(),
                )
            })
            .collect();
        assert!(history.iter().any(|(_, t)| !leaks(t, &numbers).is_empty()));
        // And the organiser who asks for them gets them.
        for format in FORMATS {
            let output = run(
                Some(&dir),
                &["players", "--show-private", "--format", format],
            );
            assert!(output.status.success(), "{output:?}");
            let text = String::from_utf8_lossy(&output.stdout);
            let shown_numbers = leaks(&text, &numbers);
            assert!(
                shown_numbers.len() * 2 > numbers.len(),
                "{}: players --show-private --format {format} shows {} of {} numbers",
                example.name,
                shown_numbers.len(),
                numbers.len()
            );
        }
    }
    println!(
        "privacy: searched {searched} outputs and files, none holds a full ID or phone number"
    );
}

#[test]
fn markup_in_names_is_escaped_in_every_html_output() {
    let tmp = tempfile::tempdir().unwrap();
    let example = &EXAMPLES[0];
    let dir = tmp.path().join(example.name);
    demo(example, &dir);
    let group = example.open_group;
    let unit = "A&B \"x\" <i>'y'</i>";
    let output = run(
        Some(&dir),
        &[
            "player", "add", "--name", SCRIPT, "--gender", "男", "--group", group, "--unit", unit,
        ],
    );
    assert!(output.status.success(), "{output:?}");
    let shown = every_output(&dir, &tmp.path().join("out"));
    let html: Vec<&Shown> = shown.iter().filter(|s| s.html).collect();
    assert!(html.len() > 20, "only {} HTML outputs", html.len());
    let mut escaped = 0;
    for s in &html {
        assert!(!s.text.contains("<script"), "{}: unescaped script", s.what);
        assert!(!s.text.contains("<i>"), "{}: unescaped unit", s.what);
        if s.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;") {
            escaped += 1;
            assert!(
                s.text.contains("A&amp;B &quot;x&quot; &lt;i&gt;")
                    || s.text.contains("A&amp;B &#34;x&#34; &lt;i&gt;")
                    || !s.text.contains("A&amp;B"),
                "{}: the unit is not escaped",
                s.what
            );
        }
    }
    // The player is listed at least by `players --format html` and the exported site.
    assert!(
        escaped >= 2,
        "the escaped name appears in only {escaped} outputs"
    );
    println!(
        "html escaping: {} HTML outputs, {escaped} show the player, all escaped",
        html.len()
    );
}

#[test]
fn markup_in_the_rulebook_is_escaped_in_every_html_output() {
    let tmp = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(root().join("rules/cxa-2011.toml"))
        .unwrap()
        .replacen(
            "name = \"象棋积分编排制比赛\"",
            "name = \"<b>棋王</b> & \\\"赛\\\"\"",
            1,
        )
        .replacen("name = \"公开组\"", "name = \"<script>g</script>\"", 1);
    assert!(text.contains("<script>g</script>") && text.contains("<b>棋王</b>"));
    let rules = tmp.path().join("rules.toml");
    fs::write(&rules, text).unwrap();
    let dir = tmp.path().join("ev");
    let init = run(
        None,
        &[
            "init",
            dir.to_str().unwrap(),
            "--rules",
            rules.to_str().unwrap(),
        ],
    );
    assert!(init.status.success(), "{init:?}");
    let sheet = tmp.path().join("sheet.csv");
    let mut csv = String::from("姓名,性别,单位\n");
    for i in 1..=8 {
        csv.push_str(&format!("棋手{i},男,<u>单位{i}</u>\n"));
    }
    fs::write(&sheet, csv).unwrap();
    for args in [
        vec!["import", sheet.to_str().unwrap()],
        vec!["pair", "--seed", "1"],
        vec!["result", "1", "r", "2", "=", "3", "b", "4", "+-"],
    ] {
        let output = run(Some(&dir), &args);
        assert!(output.status.success(), "{args:?}: {output:?}");
    }
    let shown = every_output(&dir, &tmp.path().join("out"));
    let html: Vec<&Shown> = shown.iter().filter(|s| s.html).collect();
    assert!(html.len() > 10, "only {} HTML outputs", html.len());
    for s in &html {
        for raw in ["<b>", "<script", "<u>"] {
            assert!(!s.text.contains(raw), "{}: unescaped `{raw}`", s.what);
        }
    }
    assert!(
        html.iter()
            .any(|s| s.text.contains("&lt;b&gt;棋王&lt;/b&gt; &amp;")),
        "the event name is not shown escaped anywhere"
    );
    assert!(
        html.iter()
            .any(|s| s.text.contains("&lt;u&gt;单位1&lt;/u&gt;")),
        "the unit is not shown escaped anywhere"
    );
}

/// The check character of a Chinese ID number from its first 17 digits (GB 11643).
pub(crate) fn id_check(first17: &str) -> char {
    const WEIGHTS: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
    let sum: u32 = first17
        .chars()
        .zip(WEIGHTS)
        .map(|(c, w)| c.to_digit(10).unwrap_or(0) * w)
        .sum();
    b"10X98765432"[(sum % 11) as usize] as char
}

/// Issue 11 points 3 and 6: an attacker holding every public output at once — every read
/// command in every format, every export (site, CSV, JSON, TRF), the printed output of
/// the changes and `audit.log` — cannot rebuild an ID number. The masked number keeps
/// the region and the last four characters; the public birth year leaves every day of
/// the year, and the check character still leaves several candidates for every player;
/// the test then looks for any candidate date written anywhere on a line that names the
/// player (the TRF used to print the whole date). Numbers typed into free text (a
/// penalty or disqualification reason) must not appear either.
#[test]
fn no_combination_of_public_outputs_rebuilds_an_id_number() {
    let tmp = tempfile::tempdir().unwrap();
    let example = &EXAMPLES[0];
    let dir = tmp.path().join(example.name);
    let demo_output = demo(example, &dir);
    let mut shown = vec![Shown {
        what: "demo".into(),
        html: false,
        text: String::from_utf8_lossy(&demo_output.stdout).into_owned(),
    }];
    let free_numbers = ["13812345678", "330702199001011234", "13912345678"];
    for args in [
        vec![
            "penalty",
            "1",
            "1",
            "--reason",
            "电话13812345678 身份证330702199001011234",
        ],
        // The demo has played every round, so a withdrawal is refused; a disqualification
        // takes the same free-text reason.
        vec![
            "player",
            "disqualify",
            "2",
            "--reason",
            "家长电话 139-1234-5678",
        ],
    ] {
        let output = run(Some(&dir), &args);
        assert!(output.status.success(), "{args:?}: {output:?}");
        shown.push(Shown {
            what: format!("qiwang {}", args.join(" ")),
            html: false,
            text: String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr),
        });
    }
    shown.extend(every_output(&dir, &tmp.path().join("out")));
    shown.push(Shown {
        what: "audit.log".into(),
        html: false,
        text: fs::read_to_string(dir.join("audit.log")).unwrap(),
    });
    for s in &shown {
        let digits: String = s.text.chars().filter(|c| *c != '-').collect();
        for n in free_numbers {
            assert!(!digits.contains(n), "{}: `{n}` from a reason", s.what);
        }
    }
    // Every line of every output, for the search by name.
    let lines: Vec<&str> = shown.iter().flat_map(|s| s.text.lines()).collect();
    let event = Store::open(&dir).unwrap().load().unwrap();
    let mut players = 0;
    let mut rebuilt = Vec::new();
    let mut fewest_candidates = usize::MAX;
    for p in &event.players {
        let (Some(id), Some(born)) = (&p.id_number, p.birth_date) else {
            continue;
        };
        let id = id.to_ascii_uppercase();
        if id.len() != 18 || id[6..14] != born.format("%Y%m%d").to_string() {
            continue;
        }
        players += 1;
        let (region, tail) = (&id[..6], &id[14..]);
        let year = chrono::Datelike::year(&born);
        // What the public outputs allow: region, year, the last four.
        let candidates: Vec<chrono::NaiveDate> = (1..=366)
            .filter_map(|d| chrono::NaiveDate::from_yo_opt(year, d))
            .filter(|d| {
                let first17 = format!("{region}{}{}", d.format("%Y%m%d"), &tail[..3]);
                id_check(&first17).to_string() == tail[3..]
            })
            .collect();
        fewest_candidates = fewest_candidates.min(candidates.len());
        let named: Vec<&&str> = lines.iter().filter(|l| l.contains(&p.name)).collect();
        let evidence: Vec<_> = candidates
            .iter()
            .filter(|d| {
                let forms = [
                    d.format("%Y-%m-%d").to_string(),
                    d.format("%Y/%m/%d").to_string(),
                    d.format("%Y%m%d").to_string(),
                    d.format("%Y年%-m月%-d日").to_string(),
                ];
                named
                    .iter()
                    .any(|l| forms.iter().any(|f| l.contains(f.as_str())))
            })
            .collect();
        if evidence.len() == 1 && *evidence[0] == born {
            rebuilt.push(format!("{} ({region}…{tail})", p.name));
        }
    }
    assert!(
        players > 50,
        "only {players} players with an ID and a birth date"
    );
    assert!(
        rebuilt.is_empty(),
        "{} of {players} ID numbers rebuilt from the public outputs: {}",
        rebuilt.len(),
        rebuilt.join(", ")
    );
    assert!(
        fewest_candidates >= 2,
        "region, birth year and last four leave a single ID for some player"
    );
    println!(
        "privacy: {players} IDs, {} outputs searched, none rebuilt; at least {fewest_candidates} candidates each",
        shown.len()
    );
}
