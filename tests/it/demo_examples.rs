//! The bundled events `demo --example` plays beside Jinhua (whose pages and golden files
//! other tests check): each runs to its end in Chinese, leaves an event `check` finds
//! nothing wrong in, and shows its format's sheet (the square table, the bracket).

use crate::common::{Run, zh_ok as ok};

#[test]
fn every_format_example_runs_to_its_end() {
    for (example, sheet) in [
        ("round-robin", "循环赛成绩表"),
        ("round-robin-only", "循环赛成绩表"),
        ("swiss-knockout", "决赛阶段：前8名淘汰赛"),
        ("swiss-round-robin", "决赛阶段：前6名单循环"),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let ev = tmp.path().join("ev");
        println!("{example}");
        Run::new(
            tmp.path(),
            &[
                "--lang",
                "zh",
                "demo",
                ev.to_str().unwrap(),
                "--example",
                example,
            ],
        )
        .stdout_has("获奖名单")
        .stderr_empty()
        .check();
        ok(&ev, &["check"]);
        let group = match example {
            "swiss-knockout" | "swiss-round-robin" => "公开组",
            _ => "循环组",
        };
        crate::common::zh(&ev, &["crosstable", "--group", group])
            .stdout_has(sheet)
            .stderr_empty()
            .check();
    }
}

/// The lone round robin: ten players, nine rounds, every pair met once, and a ranking
/// by the CXA round-robin chain (相互间成绩, 胜局, 后胜局, 小分).
#[test]
fn the_lone_round_robin_preset_plays_nine_rounds_of_ten() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = tmp.path().join("ev");
    Run::new(
        tmp.path(),
        &[
            "--lang",
            "zh",
            "demo",
            ev.to_str().unwrap(),
            "--example",
            "round-robin-only",
        ],
    )
    .stderr_empty()
    .check();
    let state: serde_json::Value =
        serde_json::from_slice(&std::fs::read(ev.join("qiwang.json")).unwrap()).unwrap();
    let rounds = state["groups"]["rr"]["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 9);
    let mut met = std::collections::BTreeSet::new();
    for round in rounds {
        for p in round["pairings"].as_array().unwrap() {
            if let (Some(r), Some(b)) = (p["red"].as_u64(), p["black"].as_u64()) {
                assert!(met.insert((r.min(b), r.max(b))), "{r} and {b} met twice");
            }
        }
    }
    assert_eq!(met.len(), 45, "every pair of ten once");
    let mut standings = crate::common::zh(&ev, &["standings"]).stderr_empty();
    for key in ["相互间成绩", "胜局", "后走胜局", "小分"] {
        standings = standings.stdout_has(key);
    }
    standings.check();
}

/// `--team` and `--example` name two different events: refused as a usage error (exit 2)
/// naming both, in both languages, with nothing created; before, `--team` silently won.
#[test]
fn team_and_example_together_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = tmp.path().join("ev");
    let args = [
        "demo",
        ev.to_str().unwrap(),
        "--team",
        "--example",
        "round-robin",
    ];
    let mut zh = vec!["--lang", "zh"];
    zh.extend(args);
    Run::new(tmp.path(), &zh)
        .status(2)
        .stdout_empty()
        .stderr_has("--team")
        .stderr_has("--example")
        .stderr_has("不能和")
        .check();
    let mut en = vec!["--lang", "en"];
    en.extend(args);
    Run::new(tmp.path(), &en)
        .status(2)
        .stdout_empty()
        .stderr_has("'--team' cannot be used with '--example <EXAMPLE>'")
        .check();
    assert!(!ev.exists(), "no demo event is created");
}
