//! The arbiter's day in the hall, end to end: `pair --all`, `round` and its printable
//! sheets (slips, table cards, the pinyin find-your-table list, the wall chart), `result`
//! confirmations and one results file for every group, the round-1 seed a dry run shows,
//! tables that fit the terminal, and the README walk-through run as written.

use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

use crate::common::{Run, event_with, p, root, run, small_event, snapshot};

/// What `qiwang ARGS` run in `cwd` prints on standard output, after failing the test
/// unless it succeeded with nothing on standard error.
#[track_caller]
fn printed_in(cwd: &Path, args: &[&str]) -> String {
    Run::new(cwd, args).stderr_empty().check().stdout
}

/// [`printed_in`] for `qiwang --event EV ARGS`.
#[track_caller]
fn printed(ev: &Path, args: &[&str]) -> String {
    Run::on_event(ev, args).stderr_empty().check().stdout
}

/// [`printed`] read as JSON.
#[track_caller]
fn json_of(ev: &Path, args: &[&str]) -> Value {
    Run::on_event(ev, args).stderr_empty().check().json()
}

/// A refusal of `qiwang --event EV ARGS`: exit status `code`, nothing on standard output,
/// and every word on standard error, which it returns.
#[track_caller]
fn refused(ev: &Path, args: &[&str], code: i32, words: &[&str]) -> String {
    let mut run = Run::on_event(ev, args).status(code).stdout_empty();
    for w in words {
        run = run.stderr_has(w);
    }
    run.check().stderr
}

/// A new Jinhua 2018 event with its 150 registrations; the event is `DIR/ev`.
fn jinhua() -> (TempDir, PathBuf) {
    event_with(
        &root("rules/jinhua-2018.toml"),
        Some(&root("examples/jinhua-2018/registrations.csv")),
    )
}

/// The results file of the newest round of every group (`round --sheet slips --format
/// csv`) with the 结果 column filled in: red wins, draw, black wins in turn.
fn fill_results(csv: &str) -> String {
    let tokens = ["红胜", "和", "黑胜"];
    let mut out = String::new();
    for (i, line) in csv.lines().enumerate() {
        if i == 0 {
            out.push_str(line);
        } else {
            let mut cells: Vec<&str> = line.split(',').collect();
            cells[5] = tokens[(i - 1) % 3];
            out.push_str(&cells.join(","));
        }
        out.push('\n');
    }
    out
}

fn audit(ev: &Path) -> Vec<Value> {
    fs::read_to_string(ev.join("audit.log"))
        .expect("audit.log")
        .lines()
        .map(|l| serde_json::from_str(l).expect("audit line is JSON"))
        .collect()
}

#[test]
fn round_reprints_the_sheet_pair_printed_with_results_once_entered() {
    let (_tmp, ev) = jinhua();
    let paired = printed(&ev, &["pair", "--group", "青少年组", "--seed", "7"]);
    // Reprinted, the same sheet (the only group with a round).
    Run::on_event(&ev, &["round"])
        .stdout_is(&paired)
        .stderr_empty()
        .check();
    Run::on_event(&ev, &["round", "1", "--group", "youth"])
        .stdout_is(&paired)
        .stderr_empty()
        .check();
    // 青少年组's tables follow the 39 成人组 will fill (docs/rules.md §12 (table numbers)): 40 on.
    printed(&ev, &["result", "40", "r", "41", "="]);
    let sheet = printed(&ev, &["round"]);
    let table_1 = sheet.lines().find(|l| l.starts_with("│   40 ┆")).unwrap();
    assert!(table_1.contains("红胜"), "{sheet}");
    // Every format.
    let json = json_of(&ev, &["--format", "json", "round"]);
    assert_eq!(json["round"], 1);
    assert_eq!(json["pairings"][0]["result"], "1-0");
    assert_eq!(json["pairings"][1]["result"], "=");
    let csv = printed(&ev, &["--format", "csv", "round"]);
    assert!(
        csv.starts_with("\u{feff}台号,序号,红方,单位,积分,结果"),
        "{csv}"
    );
    assert!(csv.lines().nth(1).unwrap().contains(",红胜,"), "{csv}");
    Run::on_event(&ev, &["--format", "html", "round"])
        .stdout_has("size:A4")
        .stdout_has("<td>红胜</td>")
        .stderr_empty()
        .check();
    // A round that does not exist is an error naming the rounds there are.
    Run::on_event(&ev, &["round", "5"])
        .status(3)
        .stdout_empty()
        .stderr_has("没有哪个组别有第 5 轮")
        .stderr_has("青少年组 1")
        .check();
    let fresh = jinhua();
    Run::on_event(&fresh.1, &["round"])
        .status(3)
        .stdout_empty()
        .stderr_has("qiwang pair")
        .check();
}

#[test]
fn printable_sheets_have_a4_pages_tables_and_escape_every_value() {
    let names = ["<b>张三</b>", "李\"四", "王'五", "赵&六", "钱七", "孙八"];
    let (_tmp, ev) = small_event(&names);
    printed(&ev, &["pair", "--seed", "3"]);
    let games = 3;
    for sheet in ["pairings", "slips", "cards", "find", "wall"] {
        // A4 print CSS, and no name goes in as markup or unescaped quotes.
        Run::on_event(&ev, &["--format", "html", "round", "--sheet", sheet])
            .stdout_has("@page{size:A4")
            .stdout_lacks("<b>张三")
            .stdout_has("&lt;b&gt;张三&lt;/b&gt;")
            .stdout_lacks("李\"四")
            .stdout_lacks("王'五")
            .stderr_empty()
            .check();
        // The terminal gets a table.
        Run::on_event(&ev, &["round", "--sheet", sheet])
            .stdout_has("┆")
            .stderr_empty()
            .check();
        json_of(&ev, &["--format", "json", "round", "--sheet", sheet]);
        printed(&ev, &["--format", "csv", "round", "--sheet", sheet]);
    }
    // One slip and one card per table, with the boxes and signatures.
    let slips = printed(&ev, &["--format", "html", "round", "--sheet", "slips"]);
    assert_eq!(slips.matches("<div class=\"slip\">").count(), games);
    for word in ["红胜", "黑胜", "和", "签字", "裁判员签字", "第1台", "犯规"] {
        assert!(slips.contains(word), "slips lack {word}");
    }
    let cards = Run::on_event(&ev, &["--format", "html", "round", "--sheet", "cards"])
        .stdout_has("第 2 台")
        .stdout_has("rotate(180deg)")
        .stderr_empty()
        .check()
        .stdout;
    assert_eq!(cards.matches("<div class=\"card\">").count(), games);
    // The wall chart prints landscape.
    Run::on_event(&ev, &["--format", "html", "round", "--sheet", "wall"])
        .stdout_has("A4 landscape")
        .stderr_empty()
        .check();
}

#[test]
fn find_your_table_lists_every_player_by_pinyin() {
    let (_tmp, ev) = small_event(&["张伟", "曾强", "安然", "李明", "林红", "白雪", "刘洋"]);
    printed(&ev, &["pair", "--seed", "1"]);
    let json = json_of(&ev, &["--format", "json", "round", "--sheet", "find"]);
    let names: Vec<&str> = json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    // an, bai, li3, lin, liu, zeng (曾 as a surname), zhang.
    assert_eq!(
        names,
        ["安然", "白雪", "李明", "林红", "刘洋", "曾强", "张伟"]
    );
    // Every player once, with a table or the bye; the table is where they play.
    let pairings = json_of(&ev, &["--format", "json", "round"]);
    for player in json["players"].as_array().unwrap() {
        let name = player["name"].as_str().unwrap();
        let found = pairings["pairings"].as_array().unwrap().iter().any(|t| {
            match (&t["table"], &t["bye"]) {
                (Value::Number(n), _) => {
                    Some(n) == player["table"].as_number()
                        && (t["red"]["name"] == name || t["black"]["name"] == name)
                }
                (_, bye) if !bye.is_null() => bye["name"] == name && player["table"].is_null(),
                _ => false,
            }
        });
        assert!(found, "{name} is not where the list says: {player}");
    }
}

#[test]
fn wall_chart_shows_score_opponent_score_and_place_as_standings_do() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁", "戊", "己"]);
    printed(&ev, &["pair", "--seed", "2"]);
    printed(&ev, &["result", "1", "r", "2", "=", "3", "b"]);
    printed(&ev, &["pair"]);
    printed(&ev, &["result", "1", "b", "2", "r", "3", "="]);
    let wall = json_of(&ev, &["--format", "json", "round", "--sheet", "wall"]);
    let standings = json_of(&ev, &["--format", "json", "standings"]);
    let rows = wall["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    // By pairing number.
    let numbers: Vec<u64> = rows.iter().map(|r| r["number"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
    let text = standings.to_string();
    for row in rows {
        let st = standings["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["player"] == row["player"])
            .unwrap_or_else(|| panic!("{row} not in standings {text}"));
        assert_eq!(row["score"], st["score"]);
        assert_eq!(row["rank"], st["rank"]);
        let opp = st["tiebreaks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["key"] == "opp_score")
            .map(|t| t["value"].clone());
        if let Some(opp) = opp {
            assert_eq!(row["opp_score"], opp, "{row}");
        }
    }
    let table = printed(&ev, &["round", "--sheet", "wall"]);
    for col in ["第1轮", "第2轮", "积分", "对手分", "名次"] {
        assert!(table.contains(col), "{col} missing:\n{table}");
    }
}

#[test]
fn pair_all_pairs_every_ready_group_and_says_why_the_others_wait() {
    let (_tmp, ev) = jinhua();
    let out = printed(&ev, &["pair", "--all", "--seed", "7"]);
    for group in ["成人组", "青少年组", "少儿精英组", "少儿精英乙组"] {
        assert!(
            out.contains(&format!("— {group}\n第1轮对阵表")),
            "{group} missing:\n{out}"
        );
    }
    // One change in the log, naming every group's round and seed.
    let last = audit(&ev).pop().unwrap();
    assert_eq!(last["details"]["groups"].as_array().unwrap().len(), 4);
    // Only youth gets its results: the others are named with the reason.
    printed(&ev, &["round", "--group", "youth", "--sheet", "slips"]);
    let youth = json_of(&ev, &["--format", "json", "round", "--group", "youth"]);
    let mut args = vec!["result".to_string(), "--group".into(), "youth".into()];
    for t in youth["pairings"].as_array().unwrap() {
        if let Some(table) = t["table"].as_u64() {
            args.push(table.to_string());
            args.push("=".into());
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    printed(&ev, &args);
    Run::on_event(&ev, &["pair", "--all"])
        .stdout_has("— 青少年组\n第2轮对阵表")
        .stdout_lacks("— 成人组\n")
        .stdout_has("未编排的组别：")
        .stdout_has("成人组：第1轮还有 39 台没有成绩（第 1–39 台）")
        .stderr_empty()
        .check();
    // Nothing ready: an error that lists every group, and nothing changes.
    let before = snapshot(&ev);
    Run::on_event(&ev, &["pair", "--all"])
        .status(3)
        .stdout_empty()
        .stderr_has("没有可以编排下一轮的组别")
        .stderr_has("青少年组：第2轮还有")
        .check();
    assert_eq!(before, snapshot(&ev));
    // JSON: one sheet per group paired.
    let (_tmp2, ev2) = jinhua();
    let json = json_of(&ev2, &["--format", "json", "pair", "--all", "--seed", "7"]);
    assert_eq!(json.as_array().unwrap().len(), 4);
    // CSV: the sheets one after the other, with one byte-order mark at the very start.
    let (_tmp3, ev3) = jinhua();
    let csv = printed(&ev3, &["--format", "csv", "pair", "--all", "--seed", "7"]);
    assert!(csv.starts_with('\u{feff}'), "{csv}");
    assert_eq!(csv.matches('\u{feff}').count(), 1, "{csv}");
}

#[test]
fn result_confirms_every_game_and_logs_the_round_it_was_stored_in() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    printed(&ev, &["pair", "--seed", "5"]);
    let round = json_of(&ev, &["--format", "json", "round"]);
    let name = |table: usize, side: &str| {
        round["pairings"][table][side]["name"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let out = printed(&ev, &["result", "1", "r", "2", "b/1:0"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "已记录 2 个结果：");
    assert!(
        lines[1].starts_with(&format!("  第1轮第1台：{}(", name(0, "red")))
            && lines[1].contains(&format!("红胜 {}(", name(0, "black"))),
        "{out}"
    );
    assert!(
        lines[2].contains(&format!("黑胜 {}(", name(1, "black")))
            && lines[2].contains("犯规 红1 黑0"),
        "{out}"
    );
    let last = audit(&ev).pop().unwrap();
    assert_eq!(last["details"]["round"], 1, "{last}");
    assert!(
        last["summary"].as_str().unwrap().contains("round 1"),
        "{last}"
    );
    // A correction says what it replaced; English works the same way.
    Run::on_event(&ev, &["--lang", "en", "result", "1", "="])
        .stdout_has("round 1 table 1: ")
        .stdout_has("(corrected, was 1-0)")
        .stderr_empty()
        .check();
}

#[test]
fn one_results_file_for_every_group_all_or_nothing_with_every_problem_and_its_line() {
    let (_tmp, ev) = jinhua();
    printed(&ev, &["pair", "--all", "--seed", "7"]);
    let blank = printed(&ev, &["--format", "csv", "round", "--sheet", "slips"]);
    assert!(
        blank.starts_with("\u{feff}组别,轮次,台号,红方,黑方,结果,犯规,编排码\n"),
        "{blank}"
    );
    // Errors in several groups, of every wave: all reported at once, with lines.
    let bad = "组别,轮次,台号,结果,犯规\n\
               成人组,1,1,红胜,\n\
               青少年组,1,99,和,\n\
               少年组,1,1,和,\n\
               kids,2,1,r,\n\
               少儿精英乙组,1,67,r,5:0\n\
               少儿精英,1,3,zz,\n\
               成人组,1,1,黑胜,\n";
    let file = ev.parent().unwrap().join("bad.csv");
    fs::write(&file, bad).unwrap();
    let before = snapshot(&ev);
    let err = refused(
        &ev,
        &["result", "--from", p(&file)],
        3,
        &["6 个问题，未记录任何成绩"],
    );
    for (line, what) in [
        (3, "没有第 99 台"),
        (4, "规程中没有组别 `少年组`"),
        (5, "没有第 2 轮"),
        (6, "犯规 5 次"),
        (7, "结果 `zz`"),
        (8, "第 1 轮第 1 台在第 2 行已经出现"),
    ] {
        assert!(
            err.lines()
                .any(|l| l.contains(&format!("bad.csv 第 {line} 行：")) && l.contains(what)),
            "line {line} `{what}` missing:\n{err}"
        );
    }
    assert_eq!(before, snapshot(&ev), "a bad file changed the event");
    // Several groups paired, no 组别 column, and a table number that names no pool's
    // table: refused, never guessed (a hall number of one pool is read: event_fixes),
    // naming the row's round and table, which no 组别 column would find.
    let plain = ev.parent().unwrap().join("plain.csv");
    fs::write(&plain, "轮次,台号,结果\n1,999,红胜\n").unwrap();
    Run::on_event(&ev, &["result", "--from", p(&plain)])
        .status(3)
        .stdout_empty()
        .stderr_has("plain.csv 第 2 行：第 1 轮没有第 999 台")
        .stderr_lacks("请加一列“组别”")
        .check();
    // The filled-in slips file records every group in one change.
    let good = ev.parent().unwrap().join("r1.csv");
    fs::write(&good, fill_results(&blank)).unwrap();
    let out = Run::on_event(&ev, &["result", "--from", p(&good)])
        .stdout_has("\n  少儿精英乙组 第1轮第75台：")
        .stderr_empty()
        .check()
        .stdout;
    assert!(out.starts_with("已记录 75 个结果："), "{out}");
    let last = audit(&ev).pop().unwrap();
    assert_eq!(last["details"]["groups"].as_array().unwrap().len(), 4);
    assert!(
        last["details"]["groups"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["round"] == 1)
    );
    // Every group is ready for round 2 now.
    let out = printed(&ev, &["pair", "--all"]);
    assert_eq!(out.matches("第2轮对阵表").count(), 4, "{out}");
}

#[test]
fn a_dry_run_shows_the_seed_and_pair_makes_that_draw() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"]);
    let dry = printed(&ev, &["pair", "--dry-run"]);
    let seed: u64 = dry
        .lines()
        .find_map(|l| l.strip_prefix("抽签种子："))
        .and_then(|l| l.split('（').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no seed in:\n{dry}"));
    // A second dry run shows the same draw, and `pair` stores it.
    let again = printed(&ev, &["pair", "--dry-run"]);
    let tables = |s: &str| {
        s.lines()
            .filter(|l| l.starts_with('│'))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(tables(&again), tables(&dry));
    let stored = printed(&ev, &["pair"]);
    assert_eq!(tables(&stored), tables(&dry));
    let last = audit(&ev).pop().unwrap();
    assert_eq!(last["details"]["seed"], seed);
    // `--seed N` reproduces the draw on another event with the same players.
    let (_tmp2, other) = small_event(&["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"]);
    let seed = seed.to_string();
    Run::on_event(&other, &["pair", "--dry-run", "--seed", &seed])
        .stdout_has(&format!("`qiwang pair --seed {seed}`"))
        .stderr_empty()
        .check();
    let reproduced = printed(&other, &["pair", "--seed", &seed]);
    assert_eq!(tables(&reproduced), tables(&dry));
    // A seed given after a dry run replaces the one it recorded.
    let (_tmp3, third) = small_event(&["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"]);
    printed(&third, &["pair", "--dry-run"]);
    printed(&third, &["pair", "--seed", &seed]);
    assert_eq!(
        audit(&third).pop().unwrap()["details"]["seed"],
        seed.parse::<u64>().unwrap()
    );
}

/// Display width of a line: East Asian wide characters take two cells.
fn width(line: &str) -> usize {
    line.chars()
        .map(|c| match c as u32 {
            0x1100..=0x115F
            | 0x2E80..=0xA4CF
            | 0xAC00..=0xD7A3
            | 0xF900..=0xFAFF
            | 0xFE30..=0xFE4F
            | 0xFF00..=0xFF60
            | 0xFFE0..=0xFFE6 => 2,
            _ => 1,
        })
        .sum()
}

#[test]
fn tables_fit_a_100_column_terminal_and_stay_aligned() {
    let (_tmp, ev) = jinhua();
    printed(&ev, &["pair", "--all", "--seed", "7"]);
    // Round 1's results, so that the standings and the prize sheet place players (a pool
    // before its first result places nobody: its prize lists have no table).
    let blank = printed(&ev, &["--format", "csv", "round", "--sheet", "slips"]);
    let filled = ev.parent().unwrap().join("r1.csv");
    fs::write(&filled, fill_results(&blank)).unwrap();
    printed(&ev, &["result", "--from", p(&filled)]);
    let cases: [&[&str]; 5] = [
        &["players", "--group", "青少年组"],
        &["log"],
        &["prizes"],
        &["standings", "--group", "成人组"],
        &["round", "--group", "成人组"],
    ];
    for args in cases {
        let mut all = vec!["--event", p(&ev)];
        all.extend_from_slice(args);
        let out = Run::new(ev.parent().unwrap(), &all)
            .env("COLUMNS", "100")
            .stderr_empty()
            .check()
            .stdout;
        let table: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with(['┌', '│', '╞', '├', '└']))
            .collect();
        assert!(!table.is_empty(), "{args:?}: no table");
        let widths: Vec<usize> = table.iter().map(|l| width(l)).collect();
        assert!(
            widths.iter().all(|w| *w <= 100),
            "{args:?} is wider than 100:\n{out}"
        );
        // CJK alignment: every line of a table is as wide as its top border.
        let mut top = 0;
        for (line, w) in table.iter().zip(&widths) {
            if line.starts_with('┌') {
                top = *w;
            }
            assert_eq!(*w, top, "{args:?}: misaligned line `{line}`\n{out}");
        }
        // Piped output without COLUMNS is not wrapped: one line per row.
        let piped = printed_in(ev.parent().unwrap(), &all);
        assert!(
            piped.lines().filter(|l| l.starts_with('│')).count()
                <= out.lines().filter(|l| l.starts_with('│')).count(),
            "{args:?}"
        );
    }
    // The arbiter's full list at 100 columns too: the ID and phone columns are left out
    // (and said so) rather than overflow.
    let out = Run::on_event(&ev, &["players", "--show-private"])
        .env("COLUMNS", "100")
        .stdout_has("终端宽度不够，未显示：身份证号、电话")
        .stderr_empty()
        .check()
        .stdout;
    let widest = out.lines().map(width).max();
    assert!(widest.unwrap() <= 100, "{out}");
}

/// The README's walk-through (the first `console` block after "## A real event"), run as
/// written in a temporary directory holding `rules/` and `examples/`: every `$ qiwang …`
/// line runs the binary, `> FILE` writes its output to FILE, `cd DIR` and `head -N FILE`
/// do what they say, and each command's output must match the lines shown under it, where
/// a line `…` stands for any number of lines. The results file written blank by `round
/// --sheet slips` (`results-N.csv`), which the README shows blank, is filled in here with
/// red win, draw, black win in turn where the arbiter types in the signed slips: just
/// before `result --from` reads it.
#[test]
fn readme_walk_through_runs_as_written() {
    let readme = fs::read_to_string(root("README.md")).expect("README.md");
    let section = readme
        .split("## A real event")
        .nth(1)
        .expect("the README has its walk-through section");
    let block = section
        .split("```console\n")
        .nth(1)
        .and_then(|b| b.split("\n```").next())
        .expect("the walk-through has a console block");
    // (command, expected output lines)
    let mut steps: Vec<(String, Vec<String>)> = Vec::new();
    for line in block.lines() {
        match line.strip_prefix("$ ") {
            Some(cmd) => steps.push((cmd.to_string(), Vec::new())),
            None => steps
                .last_mut()
                .expect("the block starts with a command")
                .1
                .push(line.to_string()),
        }
    }
    assert!(steps.len() >= 10, "the walk-through is too short");
    let tmp = TempDir::new().expect("temp dir");
    fs::create_dir_all(tmp.path().join("rules")).unwrap();
    fs::create_dir_all(tmp.path().join("examples/jinhua-2018")).unwrap();
    fs::copy(
        root("rules/jinhua-2018.toml"),
        tmp.path().join("rules/jinhua-2018.toml"),
    )
    .unwrap();
    fs::copy(
        root("examples/jinhua-2018/registrations.csv"),
        tmp.path().join("examples/jinhua-2018/registrations.csv"),
    )
    .unwrap();
    let mut cwd = tmp.path().to_path_buf();
    for (cmd, expected) in &steps {
        // A trailing `# comment` explains the step to the reader.
        let cmd = cmd.split("  #").next().unwrap().trim();
        let words: Vec<&str> = cmd.split_whitespace().collect();
        let actual = match words.as_slice() {
            ["cd", dir] => {
                cwd = cwd.join(dir);
                String::new()
            }
            ["head", n, file] => {
                let n: usize = n.trim_start_matches('-').parse().expect("head -N");
                let text = fs::read_to_string(cwd.join(file)).expect("head's file");
                text.lines().take(n).map(|l| format!("{l}\n")).collect()
            }
            ["qiwang", args @ ..] => {
                let (args, target) = match args.iter().position(|a| *a == ">") {
                    Some(i) => (&args[..i], Some(args[i + 1])),
                    None => (args, None),
                };
                let from = args
                    .iter()
                    .position(|a| *a == "--from")
                    .map(|i| args[i + 1]);
                if let Some(file) = from.filter(|f| f.starts_with("results-")) {
                    let blank = fs::read_to_string(cwd.join(file)).expect("the results file");
                    assert!(
                        !blank.contains("红胜"),
                        "`{file}` is filled in before `{cmd}`, not when written"
                    );
                    fs::write(cwd.join(file), fill_results(&blank)).unwrap();
                }
                let out = run(&cwd, args);
                assert_eq!(out.code, 0, "`{cmd}` failed:\n{}", out.stderr);
                match target {
                    Some(file) => {
                        fs::write(cwd.join(file), out.stdout).unwrap();
                        String::new()
                    }
                    None => out.stdout,
                }
            }
            _ => panic!("the walk-through runs only qiwang, cd and head: `{cmd}`"),
        };
        // CSV starts with a byte-order mark (for Excel); the README cannot show it.
        let actual: Vec<&str> = actual
            .trim_start_matches('\u{feff}')
            .lines()
            .map(str::trim_end)
            .collect();
        assert!(
            matches_elided(expected, &actual),
            "the README shows for `{cmd}`:\n{}\nbut it prints:\n{}",
            expected.join("\n"),
            actual.join("\n")
        );
    }
}

/// Whether `actual` matches `expected`, where a line `…` in `expected` stands for any
/// number of lines.
fn matches_elided(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "…" => {
            (0..=actual.len()).any(|skip| matches_elided(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| *a == first.trim_end() && matches_elided(rest, more)),
    }
}

#[test]
fn round_times_and_the_signature_come_from_the_rulebook_and_are_checked() {
    let tmp = TempDir::new().expect("temp dir");
    let jinhua = fs::read_to_string(root("rules/jinhua-2018.toml")).unwrap();
    // `rules show` prints both keys, read back from the shipped rulebook.
    Run::new(
        tmp.path(),
        &["rules", "show", p(&root("rules/jinhua-2018.toml"))],
    )
    .stdout_has("round_times = [\"10月27日上午（8:30开幕式后）\"")
    .stdout_has("signature = \"裁判长\"")
    .stderr_empty()
    .check();
    // A wrong type names the key; an empty signature is refused.
    let bad = jinhua
        .replace("round_times = [", "round_times = 3\nold_times = [")
        .replace("signature = \"裁判长\"", "signature = \"\"");
    let file = tmp.path().join("bad.toml");
    fs::write(&file, bad).unwrap();
    Run::new(tmp.path(), &["--lang", "en", "rules", "check", p(&file)])
        .status(3)
        .stdout_empty()
        .stderr_has("event.round_times")
        .stderr_has("event.signature")
        .check();
    // The slips of round 3 carry that round's time.
    let (_tmp, ev) = jinhua_event_at_round_3();
    Run::on_event(
        &ev,
        &[
            "--format", "html", "round", "--sheet", "slips", "--group", "youth",
        ],
    )
    .stdout_has("10月27日下午 13:00")
    .stderr_empty()
    .check();
    Run::on_event(&ev, &["round", "--sheet", "wall", "--group", "youth"])
        .stdout_has("裁判长（签字）：")
        .stderr_empty()
        .check();
}

/// Jinhua with youth paired up to round 3 (rounds 1 and 2 all drawn).
fn jinhua_event_at_round_3() -> (TempDir, PathBuf) {
    let (tmp, ev) = jinhua();
    printed(&ev, &["pair", "--group", "youth", "--seed", "7"]);
    for _ in 0..2 {
        let round = json_of(&ev, &["--format", "json", "round", "--group", "youth"]);
        let mut args = vec!["result".to_string(), "--group".into(), "youth".into()];
        for t in round["pairings"].as_array().unwrap() {
            if let Some(table) = t["table"].as_u64() {
                args.push(table.to_string());
                args.push("=".into());
            }
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        printed(&ev, &args);
        printed(&ev, &["pair", "--group", "youth"]);
    }
    (tmp, ev)
}

/// `--seed` chooses the round-1 draw only: given for a later round, `pair` refuses it as a
/// usage error (exit 2) in either language before anything else, and logs nothing.
#[test]
fn a_seed_after_the_round_1_draw_is_refused() {
    let (_tmp, ev) = jinhua();
    Run::on_event(&ev, &["pair", "--group", "youth", "--seed", "7"])
        .stdout_has("青少年组\n第1轮对阵表")
        .stderr_empty()
        .check();
    let logged = audit(&ev).len();
    refused(
        &ev,
        &["pair", "--group", "youth", "--seed", "8"],
        2,
        &["`--seed` 只用于第 1 轮抽签；之后各轮使用当时记录的种子"],
    );
    refused(
        &ev,
        &["--lang", "en", "pair", "--group", "youth", "--seed", "8"],
        2,
        &["`--seed` only applies to the round-1 draw; later rounds use the seed recorded then"],
    );
    assert_eq!(audit(&ev).len(), logged, "a refused `pair` logs nothing");
}
