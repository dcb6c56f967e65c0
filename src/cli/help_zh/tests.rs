//! Tests of the command line's texts: clap's self-check, a Chinese text for every
//! command and argument, English help for every argument, and every `--option` a message
//! suggests exists.

use super::english::{EN, en_text};
use super::texts::ZH;
use super::*;

#[test]
fn the_definition_passes_clap_self_check() {
    Cli::command().debug_assert();
    command(Lang::Zh).debug_assert();
    command(Lang::En).debug_assert();
}

/// A new subcommand or argument without a Chinese text fails here: add it to [`ZH`].
#[test]
fn every_command_and_argument_has_chinese() {
    let mut all = Vec::new();
    keys("", &Cli::command(), &mut all);
    let missing: Vec<&String> = all.iter().filter(|k| zh_text(k).is_none()).collect();
    assert!(missing.is_empty(), "no Chinese text for: {missing:?}");
    // And no stale entries for commands or arguments that are gone.
    let stale: Vec<&str> = ZH
        .iter()
        .map(|(k, _)| *k)
        .filter(|k| !all.iter().any(|a| a == k))
        .collect();
    assert!(stale.is_empty(), "Chinese text for nothing: {stale:?}");
}

/// Every argument has English help, from its doc comment or from [`EN`], and [`EN`]
/// holds nothing a doc comment already says.
#[test]
fn every_argument_has_english_help() {
    fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            let key = format!("{path}:{}", arg.get_id());
            match (arg.get_help().is_some(), en_text(&key).is_some()) {
                (false, false) => missing.push(format!("no English help for {key}")),
                (true, true) => {
                    missing.push(format!("{key} has a doc comment; drop it from EN"));
                }
                _ => {}
            }
        }
        for sub in cmd.get_subcommands() {
            let sub_path = match path {
                "" => sub.get_name().to_string(),
                _ => format!("{path} {}", sub.get_name()),
            };
            walk(sub, &sub_path, missing);
        }
    }
    let mut missing = Vec::new();
    walk(&Cli::command(), "", &mut missing);
    assert!(missing.is_empty(), "{missing:#?}");
    let mut raw = Vec::new();
    keys("", &Cli::command(), &mut raw);
    for (key, _) in EN {
        assert!(
            raw.iter().any(|k| k == key),
            "English help for nothing: {key}"
        );
    }
}

use crate::cli::hints::options_in;

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every `--option` a message suggests exists, and one named after `qiwang CMD` is an
/// option of CMD (not "`qiwang penalty` … `--group`" when penalty has no `--group`).
#[test]
fn messages_only_suggest_options_that_exist() {
    let cmd = command(Lang::En);
    let mut all: Vec<String> = Vec::new();
    let mut stack = vec![&cmd];
    while let Some(c) = stack.pop() {
        all.extend(
            c.get_arguments()
                .filter_map(|a| a.get_long().map(str::to_string)),
        );
        stack.extend(c.get_subcommands());
    }
    let longs_of = |c: &clap::Command| -> Vec<String> {
        c.get_arguments()
            .filter_map(|a| a.get_long().map(str::to_string))
            .collect()
    };
    let mut files = Vec::new();
    rust_files(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut wrong = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            let at = format!("{}:{}", file.display(), n + 1);
            for opt in options_in(line) {
                if !all.contains(&opt) {
                    wrong.push(format!("{at}: `--{opt}` is no option"));
                }
            }
            // `qiwang CMD [SUB] … --opt` up to the end of the quoted command.
            for (i, _) in line.match_indices("qiwang ") {
                let span: String = line[i + 7..]
                    .chars()
                    .take_while(|c| !matches!(c, '`' | '"' | '）' | ')' | '，' | '；'))
                    .collect();
                let mut words = span.split_whitespace();
                let Some(sub) = words.next().and_then(|w| cmd.find_subcommand(w)) else {
                    continue;
                };
                let target = words
                    .next()
                    .and_then(|w| sub.find_subcommand(w))
                    .unwrap_or(sub);
                for opt in options_in(&span) {
                    if !longs_of(target).contains(&opt) {
                        wrong.push(format!(
                            "{at}: `qiwang {}` has no `--{opt}`",
                            target.get_name()
                        ));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_english_help_is_unchanged() {
    let help = command(Lang::En).render_help().to_string();
    assert!(help.contains("Usage: qiwang [OPTIONS] <COMMAND>"), "{help}");
    assert!(help.contains("Print help"), "{help}");
}

/// Every value error the Chinese rendering says what to write for says it in English too
/// (as a `tip:`), unless clap's English already does (an unknown `--format`).
#[test]
fn english_value_errors_say_what_to_write() {
    let cases: &[&[&str]] = &[
        &["result", "--round", "-1"],
        &["result", "--round", "x"],
        &["penalty", "张三", "999999999999", "--reason", "x"],
        &["pair", "--seed", "99999999999999999999999"],
        &["serve", "--port", "99999"],
        &["serve", "--lan", "--address", "1.2.3"],
    ];
    for args in cases {
        let argv = std::iter::once(&"qiwang").chain(args.iter());
        let err = command(Lang::En).try_get_matches_from(argv).unwrap_err();
        let zh = render_error(&err);
        assert!(
            zh.contains("无效：请") || zh.contains("无效：不能") || zh.contains("无效：超出"),
            "{zh}"
        );
        let en = with_english_advice(err).to_string();
        assert!(
            en.contains("  tip: ") && en.contains("write"),
            "{args:?}: {en}"
        );
    }
    let err = command(Lang::En)
        .try_get_matches_from(["qiwang", "--format", "xml", "players"])
        .unwrap_err();
    let en = with_english_advice(err).to_string();
    assert!(
        !en.contains("tip:") && en.contains("use one of table"),
        "{en}"
    );
}
