//! Errors as the user sees them, with the documented exit codes.

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

/// A failed command: what to print (in both languages) and which exit code to return.
#[derive(Debug)]
pub struct CliError {
    pub code: ExitCode,
    pub message: Text,
}

impl CliError {
    pub fn new(code: ExitCode, message: impl Into<Text>) -> Self {
        CliError {
            code,
            message: message.into(),
        }
    }

    pub fn usage(message: impl Into<Text>) -> Self {
        CliError::new(ExitCode::Usage, message)
    }

    pub fn input(message: impl Into<Text>) -> Self {
        CliError::new(ExitCode::InvalidInput, message)
    }

    pub fn io(message: impl Into<Text>) -> Self {
        CliError::new(ExitCode::Io, message)
    }
}

impl CliError {
    /// The line printed on standard error: `error: …` or `错误：…`.
    pub fn render(&self, lang: Lang) -> String {
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

/// A file the user named cannot be read (exit code 5).
/// Reads a file the user named, capped (`qiwang::input`): a device or an oversized
/// file is refused with its name.
pub fn read_input(
    path: &std::path::Path,
    kind: qiwang::input::InputKind,
) -> Result<Vec<u8>, CliError> {
    qiwang::input::read_capped(path, kind).map_err(|e| match e {
        qiwang::input::InputError::Io { path, error } => cannot_read(&path, &error),
        e @ (qiwang::input::InputError::NotAFile(..)
        | qiwang::input::InputError::TooLarge { .. }) => crate::cli::context::lib_error(e),
    })
}

pub fn cannot_read(path: &std::path::Path, e: &std::io::Error) -> CliError {
    let why = qiwang::i18n::io_error(e);
    CliError::io(Text::new(
        format!("无法读取 `{}`：{}", path.display(), why.zh),
        format!("cannot read `{}`: {}", path.display(), why.en),
    ))
}

/// Standard output cannot be written (exit code 5).
pub fn cannot_write_output(e: &std::io::Error) -> CliError {
    let why = qiwang::i18n::io_error(e);
    CliError::io(Text::new(
        format!("无法写出输出：{}", why.zh),
        format!("cannot write the output: {}", why.en),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prefix_follows_the_language() {
        let e = CliError::input(Text::new("找不到棋手 `甲`", "no player `甲`"));
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
