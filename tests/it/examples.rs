//! Every bundled example event, played through the real binary round by round and
//! compared with golden files under `tests/golden/<example>/`.
//!
//! For each example: `init` with its shipped rulebook, `import` its registration sheet,
//! then for every pool and every round `pair` (round 1 with `--seed`) and `result --from
//! FILE`, the results coming from a seeded simulation written here (strength-biased
//! outcomes, some fouls, rare forfeits). At the end `standings`, `crosstable`, `teams` and
//! `prizes`. The pairing sheets, final standings, crosstables, team ranking and prize
//! sheet are compared with the golden files; `QIWANG_BLESS=1 cargo test --test it examples::`
//! rewrites them (review the diff before committing).
//!
//! Independently of the golden files, the test checks what must hold whatever the
//! pairing engine does: points add up to what was entered, `check` finds no violation,
//! and the prize sheet pays the regulation's budget for every place that has a player.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

use crate::common::{Run, root, run, table_rows};

/// One bundled example event.
struct Example {
    /// Directory name under `examples/` and `tests/golden/`.
    name: &'static str,
    rules: &'static str,
    /// Seed of the round-1 draws (pool i uses seed + i) and of the simulated results.
    seed: u64,
    /// The regulation's whole prize budget (individual lists and teams), in yuan.
    budget: u64,
}

const EXAMPLES: [Example; 2] = [
    Example {
        name: "jinhua-2018",
        rules: "rules/jinhua-2018.toml",
        seed: 2018,
        // 十三.(三): 成人组 8,600 + 残疾人组 1,300 + 青少年组 1,300 + 少儿 4 × 1,000
        // + 成人组团体 5,700.
        budget: 20_900,
    },
    Example {
        name: "dongguan-2018",
        rules: "rules/dongguan-2018.toml",
        seed: 922,
        // 十: 棋王组 5,900 + 本地成人组 2,900 + five youth lists × 1,600.
        budget: 16_800,
    },
];

/// What `qiwang ARGS` run in `cwd` prints on standard output, after failing the test
/// unless it succeeded with nothing on standard error.
#[track_caller]
fn ok(cwd: &Path, args: &[&str]) -> String {
    Run::new(cwd, args).stderr_empty().check().stdout
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

/// Compares golden files, or writes them when `QIWANG_BLESS=1`.
struct Golden {
    dir: PathBuf,
    bless: bool,
    mismatches: Vec<String>,
    written: BTreeSet<String>,
}

impl Golden {
    fn new(example: &str) -> Golden {
        let dir = root("tests/golden").join(example);
        let bless = std::env::var("QIWANG_BLESS").is_ok_and(|v| v == "1");
        if bless {
            fs::create_dir_all(&dir).expect("create golden dir");
        }
        Golden {
            dir,
            bless,
            mismatches: Vec::new(),
            written: BTreeSet::new(),
        }
    }

    fn check(&mut self, file: &str, actual: &str) {
        assert!(self.written.insert(file.to_string()), "{file} twice");
        let path = self.dir.join(file);
        if self.bless {
            fs::write(&path, actual).expect("write golden file");
            return;
        }
        let Ok(expected) = fs::read_to_string(&path) else {
            self.mismatches.push(format!(
                "{}: missing (run with QIWANG_BLESS=1 to create it)",
                path.display()
            ));
            return;
        };
        if expected != actual {
            self.mismatches
                .push(first_difference(&path, &expected, actual));
        }
    }

    /// Fails with every mismatch; a blessed run also removes golden files no longer made.
    fn finish(self) {
        if self.bless {
            for entry in fs::read_dir(&self.dir).expect("golden dir") {
                let path = entry.expect("dir entry").path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                if !self.written.contains(&name) {
                    fs::remove_file(&path).expect("remove stale golden file");
                }
            }
            return;
        }
        assert!(
            self.mismatches.is_empty(),
            "output differs from the golden files (if the change is intended, run \
             `QIWANG_BLESS=1 cargo test --test it examples::` and review the diff):\n\n{}",
            self.mismatches.join("\n\n")
        );
    }
}

/// A readable report of where two texts part: the first differing line with context.
fn first_difference(path: &Path, expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let at = (0..e.len().max(a.len()))
        .find(|&i| e.get(i) != a.get(i))
        .unwrap_or(e.len().min(a.len()));
    let from = at.saturating_sub(3);
    let mut s = format!(
        "{}: first difference at line {} ({} lines expected, {} actual)",
        path.display(),
        at + 1,
        e.len(),
        a.len()
    );
    for i in from..(at + 4).min(e.len().max(a.len())) {
        match (e.get(i), a.get(i)) {
            (Some(x), Some(y)) if x == y => {
                let _ = write!(s, "\n   {:>4}  {x}", i + 1);
            }
            (x, y) => {
                if let Some(x) = x {
                    let _ = write!(s, "\n - {:>4}  {x}", i + 1);
                }
                if let Some(y) = y {
                    let _ = write!(s, "\n + {:>4}  {y}", i + 1);
                }
            }
        }
    }
    s
}

/// A pairing sheet's games as (table, red number, black number) and its byes (numbers).
fn sheet_games(sheet: &str) -> (Vec<(u32, u32, u32)>, Vec<u32>) {
    let mut games = Vec::new();
    let mut byes = Vec::new();
    for row in table_rows(sheet).iter().skip(1) {
        match row[0].parse::<u32>() {
            Ok(table) => games.push((table, row[1].parse().unwrap(), row[7].parse().unwrap())),
            Err(_) => byes.push(row[1].parse().unwrap()),
        }
    }
    (games, byes)
}

/// Plays one round's results: strength decides the odds, a third of games are drawn,
/// some games record a foul, very few are forfeits. Returns the CSV and the points given.
fn simulate_round(
    rng: &mut ChaCha8Rng,
    strength: &mut BTreeMap<u32, f64>,
    round: u32,
    games: &[(u32, u32, u32)],
) -> (String, i64) {
    let mut csv = String::from("轮次,台号,结果,犯规\n");
    let mut points = 0;
    for &(table, red, black) in games {
        let mut s = |n: u32| *strength.entry(n).or_insert_with(|| rng.r#gen::<f64>());
        let (sr, sb) = (s(red), s(black));
        let red_share = 1.0 / (1.0 + (-(sr - sb) * 4.0).exp());
        let x: f64 = rng.r#gen();
        let (outcome, pts) = if x < 0.01 {
            ("+-", 2)
        } else if x < 0.02 {
            ("-+", 2)
        } else if x < 0.35 {
            ("=", 2)
        } else if rng.gen_bool(red_share) {
            ("1-0", 2)
        } else {
            ("0-1", 2)
        };
        // A single foul (below every rulebook's limit) in one game of eight.
        let fouls = match rng.gen_range(0..16) {
            0 => "1:0",
            1 => "0:1",
            _ => "",
        };
        let fouls = if outcome.contains('+') { "" } else { fouls };
        points += pts;
        let _ = writeln!(csv, "{round},{table},{outcome},{fouls}");
    }
    (csv, points)
}

/// The pools that have players, in rulebook order, with their number of rounds.
fn pools(event: &Path) -> Vec<(String, u32)> {
    let rules = json(&ok(event, &["rules", "show", "--format", "json"]));
    let players = json(&ok(event, &["players", "--format", "json"]));
    let used: BTreeSet<&str> = players["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["group"].as_str().unwrap())
        .collect();
    let default_rounds = rules["event"]["rounds"].as_u64().unwrap() as u32;
    rules["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["pairs_with"].is_null())
        .map(|g| g["id"].as_str().unwrap())
        .filter(|id| used.contains(id))
        .map(|id| {
            let g = rules["groups"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["id"] == id)
                .unwrap();
            let rounds = g["rounds"].as_u64().map_or(default_rounds, |r| r as u32);
            (id.to_string(), rounds)
        })
        .collect()
}

/// Money per prize list (individual lists and teams) by its name: the amount of every place.
/// Also returns the names of the team competitions.
fn budgets(event: &Path) -> (BTreeMap<String, Vec<u64>>, BTreeSet<String>) {
    let rules = json(&ok(event, &["rules", "show", "--format", "json"]));
    let mut out = BTreeMap::new();
    let lists = rules["prizes"]["lists"].as_array().unwrap();
    for list in lists.iter().chain(rules["teams"].as_array().unwrap()) {
        let mut money = Vec::new();
        for place in list["places"].as_array().unwrap() {
            let (from, to) = (
                place["from"].as_u64().unwrap(),
                place["to"].as_u64().unwrap(),
            );
            for _ in from..=to {
                money.push(place["money"].as_u64().unwrap_or(0));
            }
        }
        out.insert(list["name"].as_str().unwrap().to_string(), money);
    }
    let teams = rules["teams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    (out, teams)
}

fn play(example: &Example) {
    let tmp = TempDir::new().expect("temp dir");
    let mut golden = Golden::new(example.name);
    let rules = root(example.rules);
    let csv = root("examples")
        .join(example.name)
        .join("registrations.csv");
    ok(
        tmp.path(),
        &["init", "ev", "--rules", rules.to_str().unwrap()],
    );
    let ev = tmp.path().join("ev");
    // The Dongguan sheet has a 备注 column, which qiwang keeps beside the player and says so.
    let import = Run::new(&ev, &["import", csv.to_str().unwrap()]).stdout_has("已导入");
    let import = if example.name == "dongguan-2018" {
        import.stderr_has("`备注` 列：qiwang 不认识 `备注` 列")
    } else {
        import.stderr_empty()
    };
    import.check();

    let mut rng = ChaCha8Rng::seed_from_u64(example.seed);
    let mut expected_points: BTreeMap<String, i64> = BTreeMap::new();
    let pools = pools(&ev);
    assert!(!pools.is_empty());
    for (i, (pool, rounds)) in pools.iter().enumerate() {
        let mut sheets = String::new();
        let mut strength = BTreeMap::new();
        let mut points = 0;
        for round in 1..=*rounds {
            let seed = (example.seed + i as u64).to_string();
            let mut args = vec!["pair", "--group", pool.as_str()];
            if round == 1 {
                // The example plays every group as registered, under-size ones too.
                args.extend(["--seed", seed.as_str(), "--allow-small"]);
            }
            let out = run(&ev, &args);
            if out.code == 4 {
                // No legal pairing exists: the sheet records it and the pool stops.
                let _ = writeln!(sheets, "round {round}: {}", out.stderr.trim());
                break;
            }
            assert_eq!(out.code, 0, "{pool} round {round}: {}", out.stderr);
            sheets.push_str(&out.stdout);
            sheets.push('\n');
            let (games, byes) = sheet_games(&out.stdout);
            assert!(!games.is_empty(), "{pool} round {round}:\n{}", out.stdout);
            let tables: Vec<u32> = games.iter().map(|g| g.0).collect();
            // Consecutive, from where the hall numbering starts the pool (docs/rules.md
            // §12 (table numbers)): the pools before it in the rulebook fill the tables before.
            let first = tables[0];
            assert_eq!(
                tables,
                (first..first + games.len() as u32).collect::<Vec<_>>()
            );
            let (results, pts) = simulate_round(&mut rng, &mut strength, round, &games);
            points += pts + 2 * byes.len() as i64;
            let file = tmp.path().join(format!("{pool}-{round}.csv"));
            fs::write(&file, results).unwrap();
            ok(
                &ev,
                &["result", "--group", pool, "--from", file.to_str().unwrap()],
            );
        }
        golden.check(&format!("pairings-{pool}.txt"), &sheets);
        expected_points.insert(pool.clone(), points);
    }

    // Nothing breaks a hard pairing rule.
    ok(&ev, &["check"]);

    for (pool, _) in &pools {
        let table = ok(&ev, &["standings", "--group", pool]);
        golden.check(&format!("standings-{pool}.txt"), &table);
        golden.check(
            &format!("crosstable-{pool}.txt"),
            &ok(&ev, &["crosstable", "--group", pool]),
        );
        // Scores add up to the points entered (2 per game, 2 per bye).
        let st = json(&ok(
            &ev,
            &["standings", "--group", pool, "--format", "json"],
        ));
        let total: i64 = st["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["score"].as_i64().unwrap() + r["penalty"].as_i64().unwrap_or(0))
            .sum();
        assert_eq!(total, expected_points[pool], "{pool}");
    }
    let teams = run(&ev, &["teams"]);
    if teams.code == 0 {
        golden.check("teams.txt", &teams.stdout);
    } else {
        assert_eq!(teams.code, 3, "{}", teams.stderr);
        assert!(teams.stdout.is_empty(), "{}", teams.stdout);
        assert!(teams.stderr.contains("没有团体赛"), "{}", teams.stderr);
    }
    let prizes = ok(&ev, &["prizes"]);
    golden.check("prizes.txt", &prizes);
    let prizes_csv = ok(&ev, &["prizes", "--format", "csv"]);
    golden.check("prizes.csv", &prizes_csv);

    // The prize sheet pays every place that has a player, at the regulation's amounts
    // (players sharing a place split the money of the places they cover, so the sum of a
    // list is the same).
    let (budgets, team_names) = budgets(&ev);
    assert_eq!(
        budgets.values().flatten().sum::<u64>(),
        example.budget,
        "the rulebook encodes the regulation's budget"
    );
    let mut reader = csv::Reader::from_reader(prizes_csv.as_bytes());
    let mut awarded: BTreeMap<String, u64> = BTreeMap::new();
    for rec in reader.records() {
        let rec = rec.unwrap();
        *awarded.entry(rec[0].to_string()).or_default() += rec[5].parse::<u64>().unwrap();
    }
    let team_count = match run(&ev, &["teams", "--format", "csv"]) {
        out if out.code == 0 => out.stdout.lines().count() - 1,
        _ => 0,
    };
    let mut paid = 0;
    for (list, money) in &budgets {
        let ranked = if team_names.contains(list) {
            team_count
        } else {
            ok(&ev, &["standings", "--list", list, "--format", "csv"])
                .lines()
                .count()
                - 1
        };
        // A list with fewer players than places leaves the rest unpaid.
        let due: u64 = money.iter().take(ranked).sum();
        let sum = awarded.get(list).copied().unwrap_or_default();
        assert_eq!(sum, due, "{list}: {ranked} ranked, places {}", money.len());
        paid += sum;
    }
    assert!(
        prizes.contains(&format!("{paid}元")),
        "the sheet's total is {paid}:\n{prizes}"
    );
    golden.finish();
}

#[test]
fn jinhua_2018_plays_through() {
    play(&EXAMPLES[0]);
}

#[test]
fn dongguan_2018_plays_through() {
    play(&EXAMPLES[1]);
}

/// `qiwang demo` runs each example start to finish and prints standings for every pool
/// and a prize sheet section for every prize list.
#[test]
fn demo_runs_both_examples() {
    let tmp = TempDir::new().expect("temp dir");
    for example in &EXAMPLES {
        let dir = tmp.path().join(example.name);
        let rules = root(example.rules);
        let csv = root("examples")
            .join(example.name)
            .join("registrations.csv");
        let out = ok(
            tmp.path(),
            &[
                "demo",
                dir.to_str().unwrap(),
                "--rules",
                rules.to_str().unwrap(),
                "--registrations",
                csv.to_str().unwrap(),
            ],
        );
        let rulebook = json(&ok(
            tmp.path(),
            &["rules", "show", rules.to_str().unwrap(), "--format", "json"],
        ));
        for g in rulebook["groups"].as_array().unwrap() {
            // A pool merged into another (its `merge_into`, e.g. Dongguan's under-size
            // 儿童女子棋王组) has no standings of its own: its players are ranked in the
            // target pool and the demo says where they went.
            if !g["merge_into"].is_null()
                && out.contains(&format!("{} ", g["name"].as_str().unwrap()))
                && out.contains("并入")
            {
                continue;
            }
            if g["pairs_with"].is_null() {
                let name = g["name"].as_str().unwrap();
                assert!(
                    out.contains(&format!("{name} 第")) && out.contains("成绩排名"),
                    "{}: no standings of {name}",
                    example.name
                );
            }
        }
        assert!(out.contains("获奖名单"), "{}", example.name);
        let sheet_start = out.find("获奖名单").unwrap();
        for list in rulebook["prizes"]["lists"]
            .as_array()
            .unwrap()
            .iter()
            .chain(rulebook["teams"].as_array().unwrap())
        {
            let name = list["name"].as_str().unwrap();
            assert!(
                out[sheet_start..].lines().any(|l| l.trim() == name),
                "{}: no prize sheet section `{name}`",
                example.name
            );
        }
        assert!(dir.join("qiwang.json").is_file());
        // The demo's event is a real one: `check` finds nothing wrong.
        ok(&dir, &["check"]);
    }
    // Without options the demo plays Jinhua; it never overwrites an event.
    let default = tmp.path().join("default");
    let out = ok(tmp.path(), &["demo", default.to_str().unwrap()]);
    assert!(out.contains("金华"), "{out}");
    Run::new(tmp.path(), &["demo", default.to_str().unwrap()])
        .status(2)
        .stdout_empty()
        .stderr_has("中已有赛事")
        .check();
}
