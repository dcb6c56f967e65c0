//! The command line: parse arguments, call one library function, print the result.
//!
//! Nothing here decides tournament matters; it finds the event, resolves names given by
//! the user (groups, players), and renders reports. Exit codes are documented in the
//! README and in [`ExitCode`]; every error's code is decided in one map
//! (src/cli/context/errors.rs), except a command line clap refuses and a panic, here.

/// `print!` that ends the program quietly when the reader has gone away
/// (`qiwang standings | head`) instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::emit(&format!($($arg)*)) };
}

/// `println!` with the same care as [`out!`].
macro_rules! outln {
    () => { $crate::cli::emit("\n") };
    ($($arg:tt)*) => { $crate::cli::emit(&format!("{}\n", format_args!($($arg)*))) };
}

/// `eprintln!` that never panics: a line to standard error through [`emit_err`], whose
/// write failure changes the exit code at most (see [`stderr_outcome`]).
macro_rules! errln {
    ($($arg:tt)*) => { $crate::cli::emit_err(&format!($($arg)*)) };
}

mod args;
mod commands;
mod context;
mod error;
mod help_zh;
mod hints;

pub use args::Cli;
pub use error::ExitCode;

use clap::FromArgMatches;
use qiwang::rulebook::Lang;
use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

/// The language `--help`, usage errors, completions and the man page are in, fixed before
/// the arguments are parsed (see [`parse_lang`]).
static PARSE_LANG: OnceLock<Lang> = OnceLock::new();

/// The language of `--help`, usage errors, completions and the man page in this run.
pub(crate) fn help_lang() -> Lang {
    PARSE_LANG.get().copied().unwrap_or_default()
}

/// The command-line definition in the language of this run.
pub(crate) fn clap_command() -> clap::Command {
    help_zh::command(help_lang())
}

/// The language of `--help` and usage errors, found before clap parses: `--lang` if
/// given, else the language of the event's rulebook (`--event DIR` or the event found
/// from the current directory), else Chinese.
fn parse_lang(args: &[std::ffi::OsString]) -> Lang {
    let text: Vec<&str> = args
        .iter()
        .skip(1)
        .map(|a| a.to_str().unwrap_or(""))
        .collect();
    let takes_value = |name: &str| qiwang::argv::GLOBAL_WITH_VALUE.contains(&name);
    match qiwang::argv::value_of(&text, "--lang", takes_value) {
        Some("en") => return Lang::En,
        Some("zh") => return Lang::Zh,
        _ => {}
    }
    let event = qiwang::argv::value_of(&text, "--event", takes_value).map(Path::new);
    context::error_lang(None, event)
}

/// Writes to standard output, without control characters (ESC sequences in a name or a
/// reason must not reach the terminal). A closed pipe ends the program with success (the
/// reader took what it wanted); any other write error is reported with the I/O exit code.
pub fn emit(text: &str) {
    emit_bytes(qiwang::report::safe::printable(text).as_bytes());
}

/// A line to standard error (a warning, or what a command left out), without control
/// characters, like [`emit`]: names and headers a user typed reach it too. Never panics
/// (`eprintln!` does when standard error cannot be written): a failed write is noted for
/// [`stderr_outcome`] and later lines are dropped, and the command carries on, so a closed
/// stderr never leaves a change half made.
pub fn emit_err(line: &str) {
    emit_err_text(&format!("{line}\n"));
}

/// Whether writing standard error has failed in this run: [`STDERR_OK`], or how.
static STDERR_STATE: AtomicU8 = AtomicU8::new(STDERR_OK);
const STDERR_OK: u8 = 0;
/// The reader went away (`qiwang … 2>&1 | head -1`): as on standard output, not a failure.
const STDERR_CLOSED: u8 = 1;
/// Any other write error (`2>/dev/full`).
const STDERR_FAILED: u8 = 2;

/// [`emit_err`] for text that carries its own line ends.
fn emit_err_text(text: &str) {
    use std::io::Write;
    if STDERR_STATE.load(Ordering::Relaxed) != STDERR_OK {
        return;
    }
    let mut stderr = std::io::stderr().lock();
    let printable = qiwang::report::safe::printable(text);
    if let Err(e) = stderr
        .write_all(printable.as_bytes())
        .and_then(|()| stderr.flush())
    {
        note_stderr_failure(&e);
    }
}

/// Notes that writing standard error failed with `e`, for [`stderr_outcome`].
fn note_stderr_failure(e: &std::io::Error) {
    let state = if e.kind() == std::io::ErrorKind::BrokenPipe {
        STDERR_CLOSED
    } else {
        STDERR_FAILED
    };
    STDERR_STATE.store(state, Ordering::Relaxed);
}

/// The exit code of a run that would have ended with `code`, given what became of its
/// writes to standard error: unchanged, unless the run succeeded and a line it had to say
/// (a warning) could not be written for another reason than a closed pipe, which is then
/// the file I/O code, as for standard output.
fn stderr_outcome(code: i32) -> i32 {
    if code == 0 && STDERR_STATE.load(Ordering::Relaxed) == STDERR_FAILED {
        let e = std::io::Error::other("standard error");
        return error::CliError::from(context::Refusal::cannot_write_output(&e)).code() as i32;
    }
    code
}

/// [`emit`] for bytes: text already encoded (CSV in GBK) and made printable by the
/// caller, or an Excel workbook.
pub fn emit_bytes(bytes: &[u8]) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        stdout_failed(&e);
    }
}

/// Ends the program after a failed write to standard output: quietly with success when
/// the reader has gone away, else with the I/O error said on standard error and its code.
fn stdout_failed(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    let err = error::CliError::from(context::Refusal::cannot_write_output(e));
    emit_err(&err.render(help_lang()));
    std::process::exit(err.code() as i32);
}

/// Runs the program and returns the process exit code. A panic is a bug: the user sees
/// the short bilingual request to report it (`panics::report`), with the panic's message
/// and place, and the exit code is 1 (internal error), never Rust's 101.
pub fn main() -> i32 {
    qiwang::panics::install_hook(emit_err);
    let code = match qiwang::panics::contain(run) {
        Ok(code) => code,
        Err(panic) => {
            if !panic.reported {
                emit_err(&qiwang::panics::report(&panic.message));
            }
            ExitCode::Internal as i32
        }
    };
    stderr_outcome(code)
}

/// `text`, a usage error's, with the values the user typed that `e` names (an invalid
/// value, subcommand or argument) masked by [`qiwang::privacy::typed`]; the rest of the
/// text (a range up to 4294967295) as it is.
fn typed_masked(text: &str, e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue};
    let mut out = text.to_string();
    for kind in [
        ContextKind::InvalidValue,
        ContextKind::InvalidSubcommand,
        ContextKind::InvalidArg,
    ] {
        if let Some(ContextValue::String(value)) = e.get(kind) {
            let masked = qiwang::privacy::typed(value);
            if masked != value.as_str() {
                out = out.replace(value.as_str(), &masked);
            }
        }
    }
    out
}

fn run() -> i32 {
    let args = hyphen_outcomes(std::env::args_os().collect());
    let parse_lang = *PARSE_LANG.get_or_init(|| parse_lang(&args));
    // Debug builds (the tests') can be made to panic, to test what the user then sees.
    if cfg!(debug_assertions) && std::env::var_os("QIWANG_TEST_PANIC").is_some() {
        panic!("panic asked for by QIWANG_TEST_PANIC");
    }
    let parsed = clap_command()
        .try_get_matches_from(args)
        .and_then(|matches| {
            Ok((
                hints::subcommand_path(&matches),
                Cli::from_arg_matches(&matches)?,
            ))
        });
    let (path, cli) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            use clap::error::ErrorKind as K;
            let shown = matches!(
                e.kind(),
                K::DisplayHelp | K::DisplayVersion | K::DisplayHelpOnMissingArgumentOrSubcommand
            );
            let code = match e.kind() {
                K::DisplayHelp | K::DisplayVersion => 0,
                _ => ExitCode::Usage as i32,
            };
            // Not a choice of text but of printer: clap has no Chinese, so a Chinese usage
            // error is rendered by `help_zh`; English ones, and help already in the
            // language, clap prints itself (on its own stream, in its colours), with the
            // advice on a value the Chinese rendering gives added as a `tip:`.
            // The value the user typed is quoted back masked where it is shaped like an ID
            // or phone number (a phone number typed where a round goes), as every message
            // masks one ([`typed_masked`]); clap then cannot print it in its colours.
            if parse_lang == Lang::Zh && !shown {
                emit_err_text(&typed_masked(&help_zh::render_error(&e), &e));
            } else {
                let e = help_zh::with_english_advice(e);
                let plain = e.render().to_string();
                let masked = typed_masked(&plain, &e);
                if !shown && masked != plain {
                    emit_err_text(&masked);
                } else if let Err(io) = e.print() {
                    // Help goes to standard output, a usage error to standard error.
                    if e.use_stderr() {
                        note_stderr_failure(&io);
                    } else {
                        stdout_failed(&io);
                    }
                }
            }
            return code;
        }
    };
    let flag = context::lang_flag(&cli);
    let rules_file = cli.command.rules_file().map(Path::to_path_buf);
    let event_dir = cli.event.clone();
    match args::dispatch(cli) {
        Ok(()) => 0,
        Err(err) => {
            let lang = flag.unwrap_or_else(|| {
                context::error_lang(rules_file.as_deref(), event_dir.as_deref())
            });
            // Tests run a build with debug assertions: an error suggesting an option its
            // command does not have fails them.
            if cfg!(debug_assertions) {
                for l in [Lang::Zh, Lang::En] {
                    let foreign = hints::foreign_options(&err.render(l), &path);
                    assert!(
                        foreign.is_empty(),
                        "`qiwang {}` suggests --{foreign:?}, which it does not have: {}",
                        path.join(" "),
                        err.render(l)
                    );
                }
            }
            let mut message = err.render(lang);
            // Not a choice of text: a step only Chinese messages take (naming groups by
            // their Chinese names), which reads the rulebook, so English skips it.
            if lang == Lang::Zh {
                let groups = context::error_groups(rules_file.as_deref(), event_dir.as_deref());
                message = qiwang::rulebook::name_groups_zh(&message, &groups);
            }
            emit_err(&message);
            err.code() as i32
        }
    }
}

/// The `--long` spellings of `command`'s options (global ones included) that take a value
/// as the next argument, read from the clap definition so no option is forgotten.
fn options_taking_values(command: &clap::Command) -> Vec<String> {
    command
        .get_arguments()
        .filter(|a| !a.is_positional() && a.get_action().takes_values())
        .filter_map(|a| a.get_long().map(|long| format!("--{long}")))
        .collect()
}

/// `result`'s outcome tokens `-+` (red absent) and `--` (double forfeit) look like options
/// to the argument parser (docs/architecture.md lists them as tokens arbiters write): after a table
/// number they are rewritten to the equivalent `红弃权` and `双负`, fouls suffix kept, so
/// `qiwang result 3 -+ 4 --` works and options after the entries still do.
fn hyphen_outcomes(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let text: Vec<Option<&str>> = args.iter().map(|a| a.to_str()).collect();
    // Only the options' names are read: the definition as derived, without the help texts
    // and checks `clap_command` adds (which every run then does once, not twice).
    let definition = <Cli as clap::CommandFactory>::command();
    let with_value = options_taking_values(&definition);
    // The program's name left out; a word that is not UTF-8 is no option.
    let words: Vec<&str> = text.iter().skip(1).map(|a| a.unwrap_or("")).collect();
    let i = 1 + qiwang::argv::command_at(&words, |name| with_value.iter().any(|o| o == name));
    if text.get(i).copied().flatten() != Some("result") {
        return args;
    }
    let is_table =
        |a: Option<&str>| a.is_some_and(|a| !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit()));
    // Options of `result` (and global ones) whose value is the next argument: that value
    // is never a table number (`--round 9 -- 2 双负` keeps `--` as the separator).
    let mut takes_value = with_value;
    if let Some(result) = definition.find_subcommand("result") {
        takes_value.extend(options_taking_values(result));
    }
    let mut out = args.clone();
    let mut after_table = false;
    let mut j = i + 1;
    while j < args.len() {
        let arg = text[j];
        if arg.is_some_and(|a| takes_value.iter().any(|o| o == a)) {
            after_table = false;
            j += 2;
            continue;
        }
        if after_table && let Some(arg) = arg {
            let (token, fouls) = match arg.find('/') {
                Some(k) => arg.split_at(k),
                None => (arg, ""),
            };
            let spelled = match token {
                "-+" => Some("红弃权"),
                "--" => Some("双负"),
                _ => None,
            };
            if let Some(spelled) = spelled {
                out[j] = format!("{spelled}{fouls}").into();
            }
        }
        after_table = is_table(arg);
        j += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::hyphen_outcomes;

    /// The global options the library's walk over a logged command line passes over with
    /// their values are the ones the command line defines.
    #[test]
    fn the_walk_knows_every_global_option_that_takes_a_value() {
        let root = super::clap_command();
        let mut global: Vec<String> = root
            .get_arguments()
            .filter(|a| a.is_global_set() && a.get_action().takes_values())
            .filter_map(|a| a.get_long().map(|long| format!("--{long}")))
            .collect();
        global.sort();
        let mut known = qiwang::argv::GLOBAL_WITH_VALUE.map(String::from).to_vec();
        known.sort();
        assert_eq!(global, known);
    }

    #[test]
    fn the_language_of_usage_errors_is_read_with_the_walk() {
        use qiwang::rulebook::Lang;
        let lang =
            |line: &str| super::parse_lang(&line.split(' ').map(Into::into).collect::<Vec<_>>());
        assert_eq!(lang("qiwang --lang en pair"), Lang::En);
        assert_eq!(lang("qiwang pair --lang=en"), Lang::En);
        assert_eq!(lang("qiwang --lang zh --event x pair"), Lang::Zh);
        assert_eq!(lang("qiwang --event x --lang=en pair"), Lang::En);
    }

    #[test]
    fn hyphen_outcomes_after_a_table_are_spelled_out() {
        let cases: [(&str, &str); 9] = [
            (
                "qiwang --encoding gbk result 3 -+",
                "qiwang --encoding gbk result 3 红弃权",
            ),
            (
                "qiwang result --encoding gbk 3 -- --group a 4 -+",
                "qiwang result --encoding gbk 3 双负 --group a 4 红弃权",
            ),
            ("qiwang result 3 -+ 4 --", "qiwang result 3 红弃权 4 双负"),
            (
                "qiwang --event ev result --round 2 1 -+/1:0 2 --/0:1 --group a",
                "qiwang --event ev result --round 2 1 红弃权/1:0 2 双负/0:1 --group a",
            ),
            (
                "qiwang result --group adult --round 9 -- 2 双负 5 -+",
                "qiwang result --group adult --round 9 -- 2 双负 5 红弃权",
            ),
            ("qiwang result 1 r -- 2", "qiwang result 1 r -- 2"),
            ("qiwang result 1 +- 2 r", "qiwang result 1 +- 2 r"),
            ("qiwang penalty 3 -- -+", "qiwang penalty 3 -- -+"),
            (
                "qiwang --format json result 5 --",
                "qiwang --format json result 5 双负",
            ),
        ];
        for (input, want) in cases {
            let args = input.split(' ').map(Into::into).collect();
            let got: Vec<String> = hyphen_outcomes(args)
                .into_iter()
                .map(|a| a.into_string().unwrap())
                .collect();
            assert_eq!(got.join(" "), want, "{input}");
        }
    }
}
