//! Errors as the user sees them: [`CliError`] (a message in both languages and an exit
//! code), its rendering on standard error, and the vocabulary of exit codes ([`ExitCode`],
//! [`ExitStatus`]). Which cause gets which code is decided in src/cli/context/errors.rs.

use qiwang::i18n::bi;
use qiwang::i18n::{Localize, Text};
use qiwang::rulebook::Lang;
use std::fmt;

/// Process exit codes (README "Exit codes").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitCode {
    Internal = 1,
    Usage = 2,
    InvalidInput = 3,
    NoLegalPairing = 4,
    Io = 5,
}

/// What decides an exit code: implemented for every library error and for the command
/// line's own [`Refusal`](crate::cli::context::Refusal)s, all in one place
/// (src/cli/context/errors.rs), each an exhaustive `match` without a wildcard.
pub trait ExitStatus {
    /// 2 usage, 3 invalid input, 4 no legal pairing, 5 file I/O (1 is kept for bugs).
    fn exit_code(&self) -> ExitCode;
}

/// A failed command: what to print (in both languages) and which exit code to return.
///
/// Made only from a cause that has an [`ExitStatus`] ([`CliError::of`]): no command picks
/// an exit code itself. Its message may be worded further ([`CliError::map_message`]);
/// its code cannot be changed.
#[derive(Debug)]
pub struct CliError {
    code: ExitCode,
    message: Text,
}

impl CliError {
    /// The error of `cause`, with the exit code the map gives it, saying `message`.
    pub fn of(cause: &(impl ExitStatus + ?Sized), message: Text) -> Self {
        CliError {
            code: cause.exit_code(),
            message,
        }
    }

    /// The exit code the process ends with.
    pub fn code(&self) -> ExitCode {
        self.code
    }

    /// The same error (and exit code) with its message in each language worded by `f`,
    /// e.g. a line added saying what was left undone.
    #[must_use]
    pub fn map_message(self, f: impl Fn(String, Lang) -> String) -> Self {
        CliError {
            code: self.code,
            message: self.message.map(f),
        }
    }
}

impl CliError {
    /// The line printed on standard error: `error: …` or `错误：…`; an internal error is
    /// the report in both languages as it stands (`Refusal::bug`), like a panic's.
    pub fn render(&self, lang: Lang) -> String {
        if self.code == ExitCode::Internal {
            return self.message.get(lang).to_string();
        }
        format!(
            "{}{}",
            lang.pick("错误：", "error: "),
            collapse_repeats(self.message.get(lang), lang)
        )
    }
}

/// Runs of identical lines are printed once with their count, so one mistake repeated on
/// 500 rows (say, a results sheet for a round that does not exist) reads as one line.
fn collapse_repeats(text: &str, lang: Lang) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let mut n = 1;
        while lines.peek() == Some(&line) {
            lines.next();
            n += 1;
        }
        out.push(match n {
            1 => line.to_string(),
            n => bi!(lang, zh("{line}（共{n}处）"), en("{line} (×{n})")),
        });
    }
    out.join("\n")
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

/// The error and its chain of causes, one per line, in both languages.
pub fn chain<E: std::error::Error + Localize>(err: &E) -> Text {
    let mut text = Text::of(err);
    let mut source = err.source();
    while let Some(cause) = source {
        // The operating system's text is English: name an I/O failure in Chinese.
        let zh = match cause.downcast_ref::<std::io::Error>() {
            Some(io) => qiwang::i18n::io_error(io).zh,
            None => cause.to_string(),
        };
        text.zh.push_str(&format!("\n  原因：{zh}"));
        text.en.push_str(&format!("\n  caused by: {cause}"));
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prefix_follows_the_language() {
        let e = CliError::from(crate::cli::context::Refusal::NotFound(Text::new(
            "找不到棋手 `甲`",
            "no player `甲`",
        )));
        assert_eq!(e.render(Lang::En), "error: no player `甲`");
        assert_eq!(e.render(Lang::Zh), "错误：找不到棋手 `甲`");
        assert_eq!(e.to_string(), "error: no player `甲`");
    }

    #[test]
    fn identical_lines_are_counted_once() {
        let text = "2 problems:\n  - no round 2\n  - no round 2\n  - no round 2\n  - bad token `x`";
        assert_eq!(
            collapse_repeats(text, Lang::En),
            "2 problems:\n  - no round 2 (×3)\n  - bad token `x`"
        );
        assert_eq!(collapse_repeats("a\na", Lang::Zh), "a（共2处）");
        assert_eq!(collapse_repeats("a\nb\na", Lang::En), "a\nb\na");
    }
}
