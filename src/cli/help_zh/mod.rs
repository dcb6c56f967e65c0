//! The clap definition in the user's language: Chinese `--help`, usage and usage errors.
//!
//! The derive definitions in `cli/args/` carry the English texts (doc comments). For Chinese
//! the command tree is walked at run time and every `about` and argument `help` is
//! replaced from [`ZH`](texts::ZH), keyed by the command path and the argument id; clap's
//! own words (the `Usage:`/`Options:` headings, the `--help` flag and `help` subcommand,
//! default and possible-value notes) are replaced too, and clap's usage errors are
//! rendered in Chinese by [`render_error`]. A command or argument without an entry in
//! [`ZH`](texts::ZH) keeps its English text, which the tests catch.
//!
//! Here: building the definition and walking it; the tables of texts are in `texts`
//! (Chinese) and `english` (English help the derive definitions lack), clap's usage
//! errors in Chinese in `errors`.

mod english;
mod errors;
#[cfg(test)]
mod tests;
mod texts;

pub use errors::{render_error, with_english_advice};
pub use texts::zh_text;

use super::args::Cli;
use clap::{Arg, CommandFactory};
use english::complete_en;
use qiwang::rulebook::Lang;

/// The command line definition in `lang`, built (ready to parse or render).
pub fn command(lang: Lang) -> clap::Command {
    let mut cmd = complete_en("", Cli::command());
    // Not a choice between two texts: the Chinese definition is the English one with its
    // texts replaced before `build` and clap's own words after it; English takes neither step.
    if lang == Lang::Zh {
        cmd = localize("", cmd);
    }
    cmd.build();
    if lang == Lang::Zh {
        cmd = clap_words(cmd);
    }
    cmd
}

/// `cmd` with Chinese `about` and argument help, recursively.
fn localize(path: &str, cmd: clap::Command) -> clap::Command {
    // A processing step, not a choice of language: the Chinese table's entry replaces the text.
    let mut cmd = match zh_text(path) {
        Some(about) => cmd.about(about).long_about(None),
        None => cmd,
    };
    let args_path = path.to_string();
    cmd = cmd.mut_args(|arg| localize_arg(&args_path, arg));
    cmd.mut_subcommands(|sub| {
        let sub_path = match path {
            "" => sub.get_name().to_string(),
            _ => format!("{path} {}", sub.get_name()),
        };
        localize(&sub_path, sub)
    })
}

fn localize_arg(path: &str, arg: Arg) -> Arg {
    let key = format!("{path}:{}", arg.get_id());
    let Some(help) = zh_text(&key) else {
        return arg;
    };
    let mut help = help.to_string();
    if !arg.get_action().takes_values() {
        return arg.help(help).long_help(None);
    }
    // clap writes these notes in English; say them in Chinese instead.
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .filter(|v| !v.is_empty())
        .collect();
    // A text that names the default itself (in Chinese, `--sheet`'s 对阵表) keeps its own.
    if !defaults.is_empty() && !arg.is_hide_default_value_set() && !help.contains("（默认：") {
        help.push_str(&format!("（默认：{}）", defaults.join("、")));
    }
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_string())
        .collect();
    if !values.is_empty() && !arg.is_hide_possible_values_set() && !help.contains(&values[0]) {
        help.push_str(&format!("（可选：{}）", values.join("、")));
    }
    arg.help(help)
        .long_help(None)
        .hide_default_value(true)
        .hide_possible_values(true)
}

/// Replaces the words clap adds when it builds a command: the `--help` and `--version`
/// flags, the `help` subcommand and the help headings.
fn clap_words(cmd: clap::Command) -> clap::Command {
    let mut cmd = cmd.mut_args(|arg| match arg.get_id().as_str() {
        "help" => arg.help("显示帮助").long_help(None),
        "version" => arg.help("显示版本").long_help(None),
        "subcommand" if arg.get_value_names().is_some_and(|v| v == ["COMMAND"]) => {
            arg.help("要显示帮助的子命令")
        }
        _ => arg,
    });
    if cmd.get_name() == "help" {
        cmd = cmd.about("显示本帮助，或指定子命令的帮助");
    }
    let template = template(&cmd);
    cmd.help_template(template).mut_subcommands(clap_words)
}

/// A help template in Chinese with only the sections `cmd` has.
fn template(cmd: &clap::Command) -> String {
    let shown = |a: &&Arg| !a.is_hide_set();
    let mut out = String::from("{before-help}{about-with-newline}\n用法：{usage}\n");
    if cmd.get_positionals().any(|a| shown(&a)) {
        out.push_str("\n参数：\n{positionals}\n");
    }
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        out.push_str("\n命令：\n{subcommands}\n");
    }
    if cmd.get_arguments().any(|a| !a.is_positional() && shown(&a)) {
        out.push_str("\n选项：\n{options}\n");
    }
    out.push_str("{after-help}");
    out
}

/// Every command path and argument key of the definition, for the tests.
#[cfg(test)]
fn keys(path: &str, cmd: &clap::Command, out: &mut Vec<String>) {
    out.push(path.to_string());
    for arg in cmd.get_arguments() {
        out.push(format!("{path}:{}", arg.get_id()));
    }
    for sub in cmd.get_subcommands() {
        let sub_path = match path {
            "" => sub.get_name().to_string(),
            _ => format!("{path} {}", sub.get_name()),
        };
        keys(&sub_path, sub, out);
    }
}
