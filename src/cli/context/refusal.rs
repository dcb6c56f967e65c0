//! What the command line itself refuses, as typed causes: a command says *what* went
//! wrong (options that do not go together, a file that cannot be read, a round that does
//! not exist …) with the message to show, and never which exit code that is. The exit
//! code of every cause is decided in one exhaustive `match` in `errors.rs`, beside those of
//! the library's errors.

use qiwang::i18n::{Text, io_error};
use std::path::Path;

/// A refusal of the command line's own (not a library error), grouped by what it means,
/// each with its message in both languages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    // The command as typed.
    /// A `--format` this command (or this sheet) does not write.
    Format(Text),
    /// An option's value the command does not take (`--sheet`, `--token`, `--relax`).
    OptionValue(Text),
    /// Arguments the command needs that were not given, or not given whole.
    Missing(Text),
    /// Options that do not go together.
    Conflict(Text),
    /// A workbook (binary) asked for on a terminal, which cannot show it.
    WorkbookOnTerminal(Text),
    /// A directory that already holds an event, where a new one was to be made.
    EventInTheWay(Text),

    // What the event holds.
    /// Something named that the event does not have: a team competition, a round, a token.
    NotFound(Text),
    /// Nothing to print or do yet: no award, no paired group, no group ready to pair.
    NothingToDo(Text),
    /// A check that found problems (listed above the message).
    CheckFailed(Text),
    /// A file given whose content cannot be used (not UTF-8, not a certificate template).
    Unusable(Text),
    /// The event's saved state does not validate (its frozen rulebook).
    Damaged(Text),
    /// Groups refused for want of a legal pairing, even relaxing `pairing.relax`.
    Unpairable(Text),

    // Files and streams.
    /// A file or directory that cannot be read.
    CannotRead(Text),
    /// A file, directory or stream that cannot be written.
    CannotWrite(Text),

    /// A bug: writing into memory failed, or the workbook library refused. Made by
    /// [`Refusal::bug`], in the one internal-error wording.
    Bug(Text),
}

impl Refusal {
    /// The message shown.
    pub fn text(&self) -> &Text {
        match self {
            Refusal::Format(t)
            | Refusal::OptionValue(t)
            | Refusal::Missing(t)
            | Refusal::Conflict(t)
            | Refusal::WorkbookOnTerminal(t)
            | Refusal::EventInTheWay(t)
            | Refusal::NotFound(t)
            | Refusal::NothingToDo(t)
            | Refusal::CheckFailed(t)
            | Refusal::Unusable(t)
            | Refusal::Damaged(t)
            | Refusal::Unpairable(t)
            | Refusal::CannotRead(t)
            | Refusal::CannotWrite(t)
            | Refusal::Bug(t) => t,
        }
    }

    /// A bug: the one internal-error report (`panics::report`, both languages, the same
    /// as a panic's) with `detail`, what failed, for a maintainer.
    pub fn bug(detail: &str) -> Refusal {
        let report = qiwang::panics::report(detail);
        Refusal::Bug(Text::new(report.clone(), report))
    }

    /// The file `path` the user named cannot be read.
    pub fn cannot_read(path: &Path, e: &std::io::Error) -> Refusal {
        let why = io_error(e);
        Refusal::CannotRead(Text::new(
            format!("无法读取 `{}`：{}", path.display(), why.zh),
            format!("cannot read `{}`: {}", path.display(), why.en),
        ))
    }

    /// Standard output cannot be written. A change the command had already saved is said
    /// to be saved, so that it is not made twice (a penalty entered again counts twice; a
    /// dry run's recorded seed is harmless to record again, so the advice is to look).
    pub fn cannot_write_output(e: &std::io::Error) -> Refusal {
        let why = io_error(e);
        let (zh, en) = match qiwang::store::logged_by_this_process() {
            Some(seq) => (
                format!(
                    "；但修改已经保存（第 {seq} 步）：再次执行前请先用 `qiwang log` 查看，以免重复记录"
                ),
                format!(
                    "; the change was saved all the same (#{seq}): look at `qiwang log` before running the command again, so that it is not recorded twice"
                ),
            ),
            None => (String::new(), String::new()),
        };
        Refusal::CannotWrite(Text::new(
            format!("无法写出输出：{}{zh}", why.zh),
            format!("cannot write the output: {}{en}", why.en),
        ))
    }
}
