use super::*;

#[test]
fn spaces_and_quotes_in_a_path_stay_one_word_of_the_command() {
    let odd = Path::new("/tmp/赛 it's/qiwang.json");
    assert_eq!(shell_path(odd), "'/tmp/赛 it'\\''s/qiwang.json'");
    assert_eq!(shell_path(Path::new("ev/qiwang.json")), "ev/qiwang.json");
    let argv = [
        "result".to_string(),
        "1".into(),
        "r".into(),
        "--note".into(),
        "a b".into(),
    ];
    assert_eq!(command_line(&argv), "result 1 r --note 'a b'");
}

/// The undo and the redo the advice runs reach the event the advice is about, by its
/// path, whatever `--event` the change was logged with (before or after the command
/// word, relative to another directory, masked) or without one.
#[test]
fn the_commands_to_run_name_the_event_by_its_path() {
    let dir = Path::new("/tmp/赛 it's");
    assert_eq!(undo_command(dir), "--event '/tmp/赛 it'\\''s' undo");
    let line = |argv: &[&str]| paired(argv, &[("a", 2, 1)]);
    let cases = [
        (
            &["--event", "ev 1", "--lang", "en", "pair"][..],
            "--lang en pair",
        ),
        (
            &["--format", "json", "--event=../ev", "pair"],
            "--format json pair",
        ),
        (
            &["--show-private", "pair", "--event", "ev"],
            "--show-private pair",
        ),
        (&["--event", "ev-2026****", "pair"], "pair"),
        (&["pair"], "pair"),
    ];
    for (argv, rest) in cases {
        assert_eq!(
            redo_commands(Path::new("/srv/ev"), &line(argv)),
            [format!("--event /srv/ev {rest}")],
            "{argv:?}"
        );
    }
}

/// A list the advice prints names at most [`LISTED`] items and counts the rest.
#[test]
fn a_long_list_is_cut_and_counted() {
    let items = |n: u32| (1..n + 1).map(|k| (k.to_string(), format!("#{k}")));
    let ten = listed(items(10));
    assert_eq!(ten.en, "#1, #2, #3, #4, #5, #6, #7, #8, #9, #10");
    assert_eq!(ten.zh, "1、2、3、4、5、6、7、8、9、10");
    let many = listed(items(2000));
    assert_eq!(many.en, format!("{} (and 1990 more)", ten.en));
    assert_eq!(many.zh, format!("{}（另有 1990 个）", ten.zh));
}

/// An event directory whose relative path starts with `-` is never read as an option
/// by the commands the advice prints: it is given as `./-x`; a logged word that
/// starts with `-` is spelled as the command line took it.
#[test]
fn a_directory_starting_with_a_dash_is_no_option_in_the_commands_to_run() {
    let dir = Path::new("-x");
    assert_eq!(undo_command(dir), "--event ./-x undo");
    let line = paired(&["result", "1", "r", "--note=-1"], &[]);
    assert_eq!(
        redo_commands(dir, &line),
        ["--event ./-x result 1 r --note=-1"]
    );
    let back = put_back(
        &dir.join("history/000002-a.json.gz"),
        &dir.join("qiwang.json"),
        None,
    );
    assert!(
        back.en
            .contains("(`gzip -dc ./-x/history/000002-a.json.gz > ./-x/qiwang.json`)"),
        "{}",
        back.en
    );
    let old = put_back(&dir.join("history/000002-a.json"), &dir.join("q"), None);
    assert!(
        old.zh.contains("`cp ./-x/history/000002-a.json ./-x/q`"),
        "{}",
        old.zh
    );
}

/// A line logged before the log masked personal numbers is spelled again masked, as
/// the log keeps it now; a masked line and the seed come back as they are.
#[test]
fn personal_numbers_of_an_old_line_are_masked_in_the_command_to_redo() {
    let old = paired(
        &[
            "player",
            "add",
            "--id-number",
            "330723199001011239",
            "--phone=13912345678",
            "--birth-date",
            "1990-01-01",
            "--seed",
            "201812345678",
        ],
        &[],
    );
    let masked = [
        "player",
        "add",
        "--id-number",
        "330723********1239",
        "--phone=139****5678",
        "--birth-date",
        "1990-**-**",
        "--seed",
        "201812345678",
    ];
    let spelled = "--event ev player add --id-number '330723********1239' \
                   '--phone=139****5678' --birth-date '1990-**-**' --seed 201812345678";
    assert_eq!(redo_commands(Path::new("ev"), &old), [spelled]);
    assert_eq!(
        redo_commands(Path::new("ev"), &paired(&masked, &[])),
        [spelled]
    );
}

/// A logged line of `argv` whose action paired `rounds` (pool, round, seed).
fn paired(argv: &[&str], rounds: &[(&str, u32, u64)]) -> AuditEntry {
    let action = Action::Paired {
        rounds: rounds
            .iter()
            .map(|&(g, round, seed)| PairedRound {
                group: crate::model::GroupId::new(g),
                round,
                seed: Some(seed),
                games: None,
                relax: None,
            })
            .collect(),
        refused: Vec::new(),
    };
    serde_json::from_value(serde_json::json!({
        "seq": 3,
        "time": "2026-12-05T00:00:00Z",
        "user": "arbiter",
        "command": argv,
        "kind": "change",
        "summary": "paired",
        "details": { "action": action },
        "snapshot": "000003-pair.json.gz",
    }))
    .unwrap()
}

/// `pair --all` that drew two pools' seeds is redone one pool at a time, each with its
/// seed and the options typed; a later round keeps no seed; a typed seed is kept as is.
#[test]
fn drawn_seeds_are_spelled_into_the_commands_to_redo() {
    let all = paired(
        &["--event", "ev", "pair", "--all", "--allow-small"],
        &[("a", 1, 7), ("b", 2, 9)],
    );
    assert_eq!(
        redo_commands(Path::new("ev"), &all),
        [
            "--event ev pair --group a --allow-small --seed 7",
            "--event ev pair --group b --allow-small"
        ]
    );
    let one = paired(&["pair", "--group", "a"], &[("a", 1, 7)]);
    assert_eq!(
        redo_commands(Path::new("ev"), &one),
        ["--event ev pair --group a --seed 7"]
    );
    let typed = paired(&["pair", "--seed", "5"], &[("a", 1, 5)]);
    assert_eq!(
        redo_commands(Path::new("ev"), &typed),
        ["--event ev pair --seed 5"]
    );
    let later = paired(&["pair"], &[("a", 2, 5)]);
    assert_eq!(redo_commands(Path::new("ev"), &later), ["--event ev pair"]);
}

/// A logged line (seq 2) of `argv` that recorded round-1 draw `seeds` without pairing.
fn recorded(argv: &[&str], seeds: &[(&str, u64)]) -> AuditEntry {
    let action = Action::SeedsRecorded {
        seeds: seeds
            .iter()
            .map(|&(g, s)| (crate::model::GroupId::new(g), s))
            .collect(),
    };
    serde_json::from_value(serde_json::json!({
        "seq": 2,
        "time": "2026-12-05T00:00:00Z",
        "user": "arbiter",
        "command": argv,
        "kind": "change",
        "summary": "seeds recorded",
        "details": { "action": action },
        "snapshot": "000002-pair.json.gz",
    }))
    .unwrap()
}

/// A step of `qiwang demo` (logged `demo result --group kids_b`, its made-up results
/// not in the line) is never given as a command to redo, which would be refused; the
/// advice says to make the example anew.
#[test]
fn a_demo_step_is_redone_by_no_command() {
    let line: AuditEntry = serde_json::from_value(serde_json::json!({
        "seq": 3,
        "time": "2026-12-05T00:00:00Z",
        "user": "arbiter",
        "command": ["--event", "ev", "demo", "result", "--group", "kids_b"],
        "kind": "change",
        "summary": "results",
        "details": {},
        "snapshot": "000003-result.json.gz",
    }))
    .unwrap();
    assert!(redo_commands(Path::new("ev"), &line).is_empty());
    let (zh, en) = spelled(Path::new("ev"), &[&line]);
    assert!(!en.contains("`qiwang --event"), "{en}");
    assert!(en.starts_with("#3 (a step of `qiwang demo`"), "{en}");
    assert!(zh.contains("重新生成"), "{zh}");
}

/// A dry run's recorded seed is not redone by the dry run as logged (it would draw
/// and record another seed): the advice names the seed and the `pair` that makes the
/// same draw with it, with the options typed before the command, or the later step
/// that pairs round 1 with it.
#[test]
fn a_seed_recorded_by_a_dry_run_is_spelled_in_words_with_the_pair_that_uses_it() {
    let dry = recorded(
        &["--event", "ev", "pair", "--all", "--dry-run"],
        &[("a", 7), ("b", 9)],
    );
    assert!(redo_commands(Path::new("ev"), &dry).is_empty());
    let alone = seeds_in_words(Path::new("ev"), &dry, &[]).unwrap();
    assert_eq!(
        alone.en,
        "(recorded round-1 draw seeds, which no command records again by itself; \
         a 7: pair round 1 with `qiwang --event ev pair --group a --seed 7` to make the same draw; \
         b 9: pair round 1 with `qiwang --event ev pair --group b --seed 9` to make the same draw)"
    );
    assert!(
        alone.zh.contains(
            "a 7：编排第1轮时请用 `qiwang --event ev pair --group a --seed 7`，得到同样的抽签"
        ),
        "{}",
        alone.zh
    );
    // Step #3 paired round 1 of `a` with its seed: that step redoes it.
    let then = paired(&["--event", "ev", "pair", "--group", "a"], &[("a", 1, 7)]);
    let words = seeds_in_words(Path::new("ev"), &dry, &[&then]).unwrap();
    assert!(
        words
            .en
            .contains("a 7: step #3 pairs with it, nothing more to do"),
        "{}",
        words.en
    );
    assert!(
        words.zh.contains("a 7：第 3 步的编排用的就是它，无需另做"),
        "{}",
        words.zh
    );
    assert!(
        words
            .en
            .contains("`qiwang --event ev pair --group b --seed 9`"),
        "{}",
        words.en
    );
    assert_eq!(
        redo_commands(Path::new("ev"), &then),
        ["--event ev pair --group a --seed 7"]
    );
    assert_eq!(seeds_in_words(Path::new("ev"), &then, &[]), None);
}
