//! The options an error suggests are options of the command that printed it.
//!
//! `help_zh`'s source test checks every `--option` the sources write against the whole
//! command-line definition, and `qiwang CMD … --option` against CMD; an error a library
//! shares between commands ("choose one with `--group`") names no command, so only the
//! run that prints it knows whether the command has the option. Builds with debug
//! assertions (every test run of the binary) check each error printed here; a release
//! build skips the check (`cfg!(debug_assertions)`, so that the same code is compiled
//! and linted in both builds).

/// The `--option` names of `text`, not counting `--` alone or `a--b`.
pub fn options_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("--") {
        let after = &rest[i + 2..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
            .collect();
        let starts_a_word = i == 0 || !rest[..i].ends_with(|c: char| c.is_ascii_alphanumeric());
        if starts_a_word && name.starts_with(|c: char| c.is_ascii_lowercase()) {
            out.push(name.trim_end_matches('-').to_string());
        }
        rest = &after[name.len()..];
    }
    out
}

/// The long options of `cmd`, with `--help` and `--version`.
fn longs(cmd: &clap::Command) -> Vec<String> {
    let mut names: Vec<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_long().map(str::to_string))
        .collect();
    names.extend(["help", "version"].map(str::to_string));
    names
}

/// The options `message`, printed by the subcommand at `path` (`["player", "edit"]`),
/// suggests that it does not have. A `qiwang CMD …` example is judged against CMD; a
/// bare option against the running command and the global options.
pub fn foreign_options(message: &str, path: &[String]) -> Vec<String> {
    let root = crate::cli::clap_command();
    let mut running = &root;
    for name in path {
        match running.find_subcommand(name) {
            Some(sub) => running = sub,
            None => break,
        }
    }
    let globals = longs(&root);
    let mut wrong = Vec::new();
    let mut rest = message.to_string();
    // Examples first, then cut out, so their options are not judged twice.
    while let Some(i) = rest.find("qiwang ") {
        let span: String = rest[i + 7..]
            .chars()
            .take_while(|c| !matches!(c, '`' | '"' | '）' | ')' | '，' | '；' | '\n'))
            .collect();
        let mut target = &root;
        // Global options may come before the command (a command line from the audit log:
        // `qiwang --lang zh --event ev pair --seed 1`), with their values.
        let mut words = span.split_whitespace();
        while let Some(word) = words.next() {
            if let Some(long) = word.strip_prefix("--") {
                let takes_value = root
                    .get_arguments()
                    .any(|a| a.get_long() == Some(long) && a.get_action().takes_values());
                if takes_value {
                    words.next();
                }
                continue;
            }
            match target.find_subcommand(word) {
                Some(sub) => target = sub,
                None => break,
            }
        }
        let own = [longs(target), globals.clone()].concat();
        wrong.extend(options_in(&span).into_iter().filter(|o| !own.contains(o)));
        rest.replace_range(i..i + 7 + span.len(), "");
    }
    let own = [longs(running), globals].concat();
    wrong.extend(options_in(&rest).into_iter().filter(|o| !own.contains(o)));
    wrong
}

/// The subcommand names of a parse, outermost first.
pub fn subcommand_path(matches: &clap::ArgMatches) -> Vec<String> {
    let mut path = Vec::new();
    let mut m = matches;
    while let Some((name, sub)) = m.subcommand() {
        path.push(name.to_string());
        m = sub;
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_tokens_are_found() {
        assert_eq!(
            options_in("请加 `--group` 或 --dry-run，不是 a--b 或 `--`"),
            ["group", "dry-run"]
        );
    }

    #[test]
    fn options_are_judged_against_the_running_command() {
        let path = |p: &[&str]| {
            p.iter()
                .map(std::string::ToString::to_string)
                .collect::<Vec<_>>()
        };
        assert!(foreign_options("choose one with `--group`", &path(&["pair"])).is_empty());
        // A command line from the audit log, global options first.
        assert!(
            foreign_options(
                "redo #3 `qiwang --lang zh --event ev pair --seed 1`",
                &path(&["standings"])
            )
            .is_empty()
        );
        assert_eq!(
            foreign_options("`qiwang --event ev standings --seed 1`", &path(&["pair"])),
            ["seed"]
        );
        assert_eq!(
            foreign_options("choose one with `--group`", &path(&["penalty"])),
            ["group"]
        );
        assert_eq!(
            foreign_options("或用 --force 手工编排", &path(&["pair"])),
            ["force"]
        );
        assert!(foreign_options("或用 --force", &path(&["pairing", "set"])).is_empty());
        // An example names its own command; global options go everywhere.
        assert!(
            foreign_options("run `qiwang pair --all` --lang en", &path(&["result"])).is_empty()
        );
        assert_eq!(
            // (Split so the source scan of `help_zh` does not read it as a real hint.)
            foreign_options(
                concat!("`qiwang", " penalty P --group x`"),
                &path(&["pair"])
            ),
            ["group"]
        );
    }
}
