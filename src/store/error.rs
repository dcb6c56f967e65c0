//! Errors of the event store: every failure names the file it concerns and says what to do.

use crate::i18n::{Localize, bi, display_english};
use crate::rulebook::Lang;
use std::io;
use std::path::{Path, PathBuf};

/// Why the event directory could not be read or changed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No `qiwang.json` at or above the directory a command was run from.
    NotAnEvent {
        /// The directory the search started from (it and its parents hold no event).
        searched_from: PathBuf,
    },

    /// `--event DIR` names a directory without `qiwang.json`.
    NoEventAt {
        /// The directory given.
        dir: PathBuf,
    },

    /// `init` into a directory that already holds an event.
    AlreadyExists {
        /// The file that shows an event is already there.
        path: PathBuf,
    },

    /// Another process holds the event's lock.
    Busy {
        /// The event's lock file.
        lock: PathBuf,
    },

    /// The event directory, or its state file, was moved, replaced or written by
    /// another program while a command held the event's lock.
    LockLost {
        /// The event directory the lock was taken on, or its `qiwang.json`.
        path: PathBuf,
    },

    /// A file of the event cannot be trusted; it is left exactly as it is.
    Damaged {
        /// The damaged file.
        path: PathBuf,
        /// What is wrong with it.
        detail: crate::i18n::Text,
        /// What the user can do about it, e.g. which snapshot in `history/` to restore.
        recovery: crate::i18n::Text,
    },

    /// A file of the event is sound but not the newest: an older copy of `qiwang.json` put
    /// back over the one `audit.log` says is in effect, or an undo's snapshot that
    /// replaced such a copy (`store::stale`). Left exactly as it is.
    OlderCopy {
        /// The older file.
        path: PathBuf,
        /// Which change wrote it, and which the trail says is in effect (boxed, as the
        /// recovery: the error stays as small as `Damaged` keeps it).
        detail: Box<crate::i18n::Text>,
        /// The way back: the newest file, or `undo` and the change made again.
        recovery: Box<crate::i18n::Text>,
    },

    /// `qiwang.json` was written by a newer qiwang whose format this one cannot read.
    NewerSchema {
        /// The state file.
        path: PathBuf,
        /// The `schema_version` it holds.
        found: u64,
        /// The newest `schema_version` this qiwang reads.
        supported: u32,
        /// What the user can do (install a newer qiwang, or restore a snapshot).
        recovery: crate::i18n::Text,
    },

    /// `undo` with no change left to undo.
    NothingToUndo,

    /// `redo` with no undo to take back.
    NothingToRedo,

    /// A file operation failed.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What qiwang tried to do, as a verb (`read`, `write`, `lock`).
        action: &'static str,
        /// Advice derived from the kind of failure (disk full, read-only), starting with `: `.
        hint: &'static str,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
}

impl StoreError {
    /// An I/O failure of `action` on `path`, with advice for the failures a user can fix.
    pub(crate) fn io(action: &'static str, path: &Path, source: io::Error) -> StoreError {
        StoreError::Io {
            path: path.to_path_buf(),
            action,
            hint: io_hint(&source),
            source,
        }
    }
}

display_english!(StoreError);

impl Localize for StoreError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            StoreError::NotAnEvent { searched_from } => bi!(
                lang,
                zh(
                    "在 `{}` 及其上级目录中没有找到赛事：请用 `qiwang init DIR --rules FILE` 创建，或加 `--event DIR`",
                    searched_from.display()
                ),
                en(
                    "no event found in `{}` or any parent directory: run `qiwang init DIR --rules FILE` to create one, or pass `--event DIR`",
                    searched_from.display()
                ),
            ),
            StoreError::NoEventAt { dir } => bi!(
                lang,
                zh(
                    "`{}` 不是赛事目录（其中没有 qiwang.json）：请给出 `qiwang init` 创建的目录",
                    dir.display()
                ),
                en(
                    "`{}` is not an event directory (it has no qiwang.json): pass the directory `qiwang init` created",
                    dir.display()
                ),
            ),
            StoreError::AlreadyExists { path } => bi!(
                lang,
                zh(
                    "`{}` 已存在：该目录已有赛事；请换一个目录（qiwang 从不覆盖赛事）",
                    path.display()
                ),
                en(
                    "`{}` already exists: this directory holds an event; choose another directory (qiwang never overwrites an event)",
                    path.display()
                ),
            ),
            StoreError::Busy { lock } => bi!(
                lang,
                zh(
                    "赛事正忙：另一个 qiwang 命令正在修改它，请稍后再试（锁文件 `{}`）",
                    lock.display()
                ),
                en(
                    "event is busy: another qiwang command is changing it; try again (lock `{}`)",
                    lock.display()
                ),
            ),
            StoreError::LockLost { path } => bi!(
                lang,
                zh(
                    "本命令持有锁期间 `{}` 被移动、替换或由其他程序改写，锁已不能保护它：未保存任何内容；请重新运行命令",
                    path.display()
                ),
                en(
                    "`{}` was moved, replaced or written by another program while this command held its lock, so the lock no longer protects it: nothing was saved; run the command again",
                    path.display()
                ),
            ),
            // The detail and the recovery advice are written, in both languages, where the
            // damage is found.
            StoreError::Damaged {
                path,
                detail,
                recovery,
            } => file_refused(lang, path, ("已损坏", "is damaged"), detail, recovery),
            StoreError::OlderCopy {
                path,
                detail,
                recovery,
            } => file_refused(
                lang,
                path,
                ("不是最新的版本", "is not the newest version"),
                detail,
                recovery,
            ),
            StoreError::NewerSchema {
                path,
                found,
                supported,
                recovery,
            } => bi!(
                lang,
                zh(
                    "`{}` 由更新版本的 qiwang 写入（格式版本 {found}，本程序最高读取 {supported}）：请升级 qiwang；{}",
                    path.display(),
                    recovery.zh
                ),
                en(
                    "`{}` was written by a newer qiwang (schema version {found}, this qiwang reads up to {supported}): upgrade qiwang; {}",
                    path.display(),
                    recovery.en
                ),
            ),
            StoreError::NothingToUndo => bi!(
                lang,
                zh("没有可撤销的操作：`init` 之后的所有修改都已撤销（见 `qiwang log`）"),
                en(
                    "nothing to undo: every change since `init` has already been undone (see `qiwang log`)"
                ),
            ),
            StoreError::NothingToRedo => bi!(
                lang,
                zh(
                    "没有可重做的操作：`redo` 只恢复其后没有新修改的最近几次撤销（见 `qiwang log`）"
                ),
                en(
                    "nothing to redo: `redo` takes back the newest undos that no later change followed (see `qiwang log`)"
                ),
            ),
            StoreError::Io {
                path,
                action,
                hint,
                source,
            } => bi!(
                lang,
                zh(
                    "无法{} `{}`{}",
                    action_zh(action),
                    path.display(),
                    io_hint_zh(source)
                ),
                en("cannot {action} `{}`{hint}", path.display()),
            ),
        }
    }
}

/// A file operation (`StoreError::io`'s `action`), in Chinese.
fn action_zh(action: &str) -> &str {
    match action {
        "read" => "读取",
        "write" => "写入",
        "create" => "创建",
        "create directory" => "创建目录",
        "create the lock file" => "创建锁文件",
        "lock" => "锁定",
        "list" => "列出",
        "replace" => "替换",
        "sync" => "同步",
        "sync directory" => "同步目录",
        "open for appending" => "打开以追加",
        "append to" => "追加写入",
        "open for writing" => "打开以写入",
        "truncate" => "截断",
        "remove" => "删除",
        "restrict the permissions of" => "收紧权限",
        "look for an event in" => "在此目录查找赛事",
        other => other,
    }
}

/// [`io_hint`] in Chinese.
fn io_hint_zh(error: &io::Error) -> &'static str {
    match error.kind() {
        io::ErrorKind::StorageFull => "：磁盘已满；请腾出空间后重新运行命令（未保存任何内容）",
        io::ErrorKind::FileTooLarge => {
            "：已达到文件大小上限；请提高上限（`ulimit -f`）或腾出空间后重新运行命令（未保存任何内容）"
        }
        io::ErrorKind::ReadOnlyFilesystem => {
            "：文件系统只读；请把赛事目录复制到可写的位置，并加 `--event DIR`（未保存任何内容）"
        }
        io::ErrorKind::PermissionDenied => {
            "：权限不足；请让当前用户可读写赛事目录，或把它复制到可写的位置并加 `--event DIR`"
        }
        _ => "",
    }
}

/// Advice for the I/O failures that come from the machine rather than from qiwang.
fn io_hint(error: &io::Error) -> &'static str {
    match error.kind() {
        io::ErrorKind::StorageFull => {
            ": the disk is full; free some space and run the command again (nothing was saved)"
        }
        io::ErrorKind::FileTooLarge => {
            ": the file size limit was reached; raise the limit (`ulimit -f`) or free some space and run the command again (nothing was saved)"
        }
        io::ErrorKind::ReadOnlyFilesystem => {
            ": the file system is read-only; copy the event directory to a writable place and pass `--event DIR` (nothing was saved)"
        }
        io::ErrorKind::PermissionDenied => {
            ": permission denied; make the event directory readable and writable for this user, or copy it to a writable place and pass `--event DIR`"
        }
        _ => "",
    }
}

/// The failure of a [`Store::transaction`](super::Store::transaction): either the store
/// or the command run inside it failed. Either way nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum TxError<E> {
    /// Reading, locking or writing the event failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The command refused the change (its own error, passed through).
    #[error(transparent)]
    Command(E),
}

impl<E: Localize> Localize for TxError<E> {
    fn localize(&self, lang: Lang) -> String {
        match self {
            TxError::Store(e) => e.localize(lang),
            TxError::Command(e) => e.localize(lang),
        }
    }
}

/// "`path` is damaged: what; what to do", in `lang`: a file of the event refused as
/// `what` says, with the detail and the way back written where it was found.
fn file_refused(
    lang: Lang,
    path: &Path,
    (zh_what, en_what): (&str, &str),
    detail: &crate::i18n::Text,
    recovery: &crate::i18n::Text,
) -> String {
    bi!(
        lang,
        zh(
            "`{}` {zh_what}：{}；{}",
            path.display(),
            detail.zh,
            recovery.zh
        ),
        en(
            "`{}` {en_what}: {}; {}",
            path.display(),
            detail.en,
            recovery.en
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::facts::assert_localized;

    #[test]
    fn every_store_error_has_chinese_with_the_same_values() {
        let errors = [
            StoreError::NotAnEvent {
                searched_from: PathBuf::from("/tmp/x"),
            },
            StoreError::NoEventAt {
                dir: PathBuf::from("ev"),
            },
            StoreError::AlreadyExists {
                path: PathBuf::from("ev/qiwang.json"),
            },
            StoreError::Busy {
                lock: PathBuf::from("ev/.lock"),
            },
            StoreError::LockLost {
                path: PathBuf::from("ev"),
            },
            StoreError::NothingToRedo,
            StoreError::Damaged {
                path: PathBuf::from("ev/qiwang.json"),
                detail: crate::i18n::Text::new("第 3 行不是 JSON", "line 3 is not JSON"),
                recovery: crate::i18n::Text::new(
                    "从 `history/` 恢复一个快照",
                    "restore a snapshot from `history/`",
                ),
            },
            StoreError::OlderCopy {
                path: PathBuf::from("ev/qiwang.json"),
                detail: Box::new(crate::i18n::Text::new(
                    "它是第 3 步写下的",
                    "it was written by step #3",
                )),
                recovery: Box::new(crate::i18n::Text::new(
                    "把第 4 步写下的复制过来",
                    "copy the one step #4 wrote over it",
                )),
            },
            StoreError::NewerSchema {
                path: PathBuf::from("ev/qiwang.json"),
                found: 3,
                supported: 2,
                recovery: crate::i18n::Text::new(
                    "从 `history/` 恢复一个快照",
                    "restore a snapshot from `history/`",
                ),
            },
            StoreError::NothingToUndo,
            StoreError::io(
                "write",
                Path::new("ev/qiwang.json.tmp"),
                io::Error::from(io::ErrorKind::StorageFull),
            ),
            StoreError::io(
                "look for an event in",
                Path::new("ev"),
                io::Error::from(io::ErrorKind::PermissionDenied),
            ),
        ];
        for e in &errors {
            assert_localized(e);
        }
        let busy = StoreError::Busy {
            lock: PathBuf::from(".lock"),
        };
        assert!(busy.to_string().contains("busy"));
        assert!(busy.localize(Lang::Zh).starts_with("赛事正忙"));
    }

    #[test]
    fn io_messages_say_what_to_do() {
        let cases = [
            (io::ErrorKind::StorageFull, "the disk is full"),
            (io::ErrorKind::FileTooLarge, "file size limit"),
            (
                io::ErrorKind::ReadOnlyFilesystem,
                "the file system is read-only",
            ),
            (
                io::ErrorKind::PermissionDenied,
                "permission denied; make the event directory",
            ),
        ];
        for (kind, expected) in cases {
            let err = StoreError::io(
                "write",
                Path::new("ev/qiwang.json.tmp"),
                io::Error::from(kind),
            );
            let text = err.to_string();
            assert!(
                text.starts_with("cannot write `ev/qiwang.json.tmp`: "),
                "{text}"
            );
            assert!(text.contains(expected), "{kind:?}: {text}");
        }
        let plain = StoreError::io("read", Path::new("x"), io::Error::other("boom"));
        assert_eq!(plain.to_string(), "cannot read `x`");
    }

    #[test]
    fn enospc_from_the_os_maps_to_disk_full() {
        // ENOSPC is 28 on Linux and the BSDs.
        let err = StoreError::io("write", Path::new("x"), io::Error::from_raw_os_error(28));
        assert!(err.to_string().contains("the disk is full"), "{err}");
    }

    #[test]
    fn busy_says_try_again() {
        let busy = StoreError::Busy {
            lock: PathBuf::from(".lock"),
        };
        assert!(
            busy.to_string()
                .starts_with("event is busy: another qiwang command is changing it; try again")
        );
    }
}
