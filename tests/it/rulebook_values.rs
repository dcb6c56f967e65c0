//! Issue 42 §3: no rulebook value may make a command loop. Shipped rulebooks with values
//! replaced by hostile ones (blank and spaced ids, a group's id reused as another's name,
//! backticks, 第, zero, negative and huge numbers, empty lists) go through everything a
//! command does with a rulebook: validation and its messages in both languages with the
//! groups named (the pass that hung on a blank id), the effective rules, the registration
//! template. In the library under a deadline, and through the binary with a timeout.

use crate::common::{p, root};
use crate::rule_changes::run_bounded;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use qiwang::i18n::Localize;
use qiwang::rulebook::{Lang, Rulebook};
use qiwang::rulebook::{name_groups_zh, rulebook_group_names};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use toml_edit::{DocumentMut, Item, Value};

const BOOKS: [&str; 3] = ["cxa-2011", "jinhua-2018", "dongguan-2018"];

/// Values put in place of a rulebook's own.
fn hostile(i: usize) -> Value {
    let long = "长".repeat(3000);
    let values: [Value; 22] = [
        "".into(),
        "  ".into(),
        "\t".into(),
        "open".into(),
        "adult".into(),
        "组别".into(),
        "`".into(),
        " 第".into(),
        "a 没有".into(),
        "=1+1公开组".into(),
        long.as_str().into(),
        0.into(),
        (-1).into(),
        1.into(),
        2.into(),
        99.into(),
        100.into(),
        1_000_001.into(),
        i64::MAX.into(),
        i64::MIN.into(),
        true.into(),
        Value::Array(toml_edit::Array::new()),
    ];
    values[i % values.len()].clone()
}

/// Replaces the leaf value number `target` (document order) under `item` with `value`;
/// answers how many leaves it passed.
fn replace_leaf(item: &mut Item, seen: &mut usize, target: usize, value: &Value) {
    match item {
        Item::Table(t) => {
            for (_, v) in t.iter_mut() {
                replace_leaf(v, seen, target, value);
            }
        }
        Item::ArrayOfTables(a) => {
            for t in a.iter_mut() {
                for (_, v) in t.iter_mut() {
                    replace_leaf(v, seen, target, value);
                }
            }
        }
        Item::Value(v) => {
            if *seen == target {
                *v = value.clone();
            }
            *seen += 1;
        }
        Item::None => {}
    }
}

/// Book `book` with each `(leaf per mille, value)` replaced.
fn mutated(book: usize, edits: &[(u16, usize)]) -> String {
    let text = std::fs::read_to_string(root(&format!("rules/{}.toml", BOOKS[book]))).unwrap();
    let mut doc: DocumentMut = text.parse().unwrap();
    let mut count = 0;
    replace_leaf(doc.as_item_mut(), &mut count, usize::MAX, &Value::from(0));
    for &(at, value) in edits {
        let target = usize::from(at) * (count - 1) / 999;
        replace_leaf(doc.as_item_mut(), &mut 0, target, &hostile(value));
    }
    doc.to_string()
}

fn edits() -> impl Strategy<Value = (usize, Vec<(u16, usize)>)> {
    (
        0..BOOKS.len(),
        prop::collection::vec((0u16..1000, 0usize..22), 1..4),
    )
}

/// What commands do with a rulebook's text, as `rules check`, `init`, `template` and
/// `rules show` do it.
fn exercise(text: &str) -> Result<(), TestCaseError> {
    let groups = rulebook_group_names(text);
    match Rulebook::from_toml(text, "r.toml") {
        Err(e) => {
            for lang in [Lang::Zh, Lang::En] {
                let message = e.localize(lang);
                prop_assert!(!message.is_empty());
                let _ = name_groups_zh(&message, &groups);
            }
        }
        Ok(rules) => {
            for lang in [Lang::Zh, Lang::En] {
                let effective = rules.to_effective_toml_in(lang);
                let back = Rulebook::from_toml(&effective, "effective.toml");
                prop_assert!(back.is_ok(), "{:?}\n{effective}", back.err());
                let csv = qiwang::registration::template::template(&rules, lang).to_csv();
                prop_assert!(!csv.is_empty());
            }
            let _ = name_groups_zh("组别 `open` 第 1 轮；adult 没有", &groups);
        }
    }
    Ok(())
}

/// The cases run on a thread of their own: a case that loops fails the test at the
/// deadline instead of hanging the suite.
#[test]
fn no_rulebook_value_makes_validation_or_its_messages_loop() {
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let mut runner = TestRunner::new(Config {
            cases: 200,
            failure_persistence: None,
            rng_seed: RngSeed::Fixed(42),
            ..Config::default()
        });
        let started = Instant::now();
        // Every hostile string as the first group's id and name of each book: the labels
        // the messages' group-naming pass searches for.
        for (book, name) in BOOKS.iter().enumerate() {
            let text = std::fs::read_to_string(root(&format!("rules/{name}.toml"))).unwrap();
            for key in ["id", "name"] {
                for value in 0..11 {
                    let mut doc: DocumentMut = text.parse().unwrap();
                    doc["groups"][0][key] = Item::Value(hostile(value));
                    if let Err(e) = exercise(&doc.to_string()) {
                        let _ = done
                            .send((Err(format!("{book} {key} {value}: {e}")), started.elapsed()));
                        return;
                    }
                }
            }
        }
        let result = runner.run(&edits(), |(book, edits)| {
            let text = mutated(book, &edits);
            let start = Instant::now();
            exercise(&text)?;
            prop_assert!(
                start.elapsed() < Duration::from_secs(5),
                "slow case ({:?}):\n{text}",
                start.elapsed()
            );
            Ok(())
        });
        let _ = done.send((result.map_err(|e| e.to_string()), started.elapsed()));
    });
    match finished.recv_timeout(Duration::from_secs(120)) {
        Ok((Ok(()), took)) => println!("66 + 200 mutated rulebooks in {took:?}"),
        Ok((Err(e), _)) => panic!("{e}"),
        Err(_) => panic!("the mutated rulebooks did not finish in 120 s: a value loops"),
    }
}

/// The same mutations through the binary: `rules check`, `template --rules` and `init`
/// finish (exit 0 or 3) within the timeout, in Chinese, whose messages name groups.
#[test]
fn no_rulebook_value_makes_a_command_loop() {
    let tmp = tempfile::TempDir::new().unwrap();
    let mut runner = TestRunner::new(Config {
        cases: 12,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(7),
        ..Config::default()
    });
    let limit = Duration::from_secs(30);
    let n = std::cell::Cell::new(0);
    runner
        .run(&edits(), |(book, edits)| {
            n.set(n.get() + 1);
            let n = n.get();
            let file = tmp.path().join(format!("r{n}.toml"));
            std::fs::write(&file, mutated(book, &edits)).unwrap();
            let event = format!("ev{n}");
            for args in [
                vec!["--lang", "zh", "rules", "check", p(&file)],
                vec!["--lang", "zh", "template", "--rules", p(&file)],
                vec!["--lang", "zh", "init", &event, "--rules", p(&file)],
            ] {
                let (code, err) = run_bounded(tmp.path(), &args, limit);
                prop_assert!(code == 0 || code == 3, "{args:?} exit {code}: {err}");
            }
            Ok(())
        })
        .unwrap();
}
