//! Reading the files a user names (rulebooks, registration and results sheets) with a
//! size cap: a device (`/dev/zero`), a pipe or a folder is refused, and a file larger
//! than its cap is refused before it is read into memory, with a message naming the file.
//! `decode.rs` turns a text file's bytes into text (UTF-8, GBK, UTF-16), for registration
//! and results sheets alike.

pub mod decode;

use crate::i18n::{Localize, bi, display_english};
use crate::rulebook::Lang;
use std::io::Read;
use std::path::{Path, PathBuf};

pub use crate::rulebook::bounds::MAX_RULEBOOK_BYTES;
/// The largest registration or results sheet read (100,000 registrations are ~15 MB).
pub const MAX_SHEET_BYTES: u64 = 64 * 1024 * 1024;

/// What kind of file is read, for the cap and the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// A rulebook (TOML), capped at [`MAX_RULEBOOK_BYTES`] (1 MB).
    Rulebook,
    /// A registration sheet or a results file (CSV or xlsx), capped at [`MAX_SHEET_BYTES`]
    /// (64 MB).
    Sheet,
}

impl InputKind {
    /// The size cap for this kind: a larger file is refused before it is read, so a wrong
    /// file name (a disk image, a video) cannot exhaust memory.
    pub fn max_bytes(self) -> u64 {
        match self {
            InputKind::Rulebook => MAX_RULEBOOK_BYTES,
            InputKind::Sheet => MAX_SHEET_BYTES,
        }
    }
}

/// Why a named file was not read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The path names a device, a pipe or a folder, which could be endless or block.
    NotAFile(
        /// The path as given.
        PathBuf,
    ),
    /// The file is larger than the cap of its kind.
    TooLarge {
        /// The path as given.
        path: PathBuf,
        /// The cap, in bytes.
        max: u64,
        /// Whether a rulebook (rather than a sheet) was to be read.
        rulebook: bool,
    },
    /// The file could not be opened or read.
    Io {
        /// The path as given.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
}

display_english!(InputError);

impl Localize for InputError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            InputError::NotAFile(p) => bi!(
                lang,
                zh(
                    "`{}` 不是普通文件（而是设备、管道或目录）；请给出文件",
                    p.display()
                ),
                en(
                    "`{}` is not a regular file (a device, pipe or folder); name a file",
                    p.display()
                ),
            ),
            InputError::TooLarge {
                path,
                max,
                rulebook,
            } => bi!(
                lang,
                zh(
                    "`{}` 大于 {} MB，超过任何真实的{}；请检查文件名",
                    path.display(),
                    max / (1024 * 1024),
                    if *rulebook { "规程" } else { "表格" }
                ),
                en(
                    "`{}` is larger than {} MB, more than any real {}; check the file name",
                    path.display(),
                    max / (1024 * 1024),
                    if *rulebook { "rulebook" } else { "sheet" }
                ),
            ),
            // The operating system's text is English in both (`cli::context::read_input` names the
            // common failures in Chinese).
            InputError::Io { path, error } => bi!(
                lang,
                zh("无法读取 `{}`：{error}", path.display()),
                en("cannot read `{}`: {error}", path.display()),
            ),
        }
    }
}

/// The bytes of the regular file `path`, at most `kind`'s cap.
pub fn read_capped(path: &Path, kind: InputKind) -> Result<Vec<u8>, InputError> {
    let io = |error| InputError::Io {
        path: path.to_path_buf(),
        error,
    };
    let max = kind.max_bytes();
    let too_large = || InputError::TooLarge {
        path: path.to_path_buf(),
        max,
        rulebook: kind == InputKind::Rulebook,
    };
    // Look before opening: opening a FIFO for reading blocks until a writer appears,
    // and a device has no end. `metadata` follows symbolic links, as `open` does.
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(InputError::NotAFile(path.to_path_buf()));
    }
    if meta.len() > max {
        return Err(too_large());
    }
    let file = open_no_block(path).map_err(io)?;
    // The path may have been replaced between the look and the open: look again.
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(InputError::NotAFile(path.to_path_buf()));
    }
    if meta.len() > max {
        return Err(too_large());
    }
    // The length can change while reading (a growing file): read one byte past the cap.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > max {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Opens `path` for reading without waiting for a writer should it have become a FIFO.
#[cfg(unix)]
fn open_no_block(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_no_block(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn devices_and_folders_are_refused() {
        for p in ["/dev/zero", "/dev/null", "/"] {
            let e = read_capped(Path::new(p), InputKind::Rulebook).unwrap_err();
            assert!(matches!(e, InputError::NotAFile(_)), "{p}: {e}");
            assert!(e.to_string().contains(p));
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let tmp = tempfile::tempdir().unwrap();
        let fifo = tmp.path().join("rules.toml");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || {
            let _ = tx.send(read_capped(&path, InputKind::Rulebook).map(|_| ()));
        });
        let got = rx
            .recv_timeout(std::time::Duration::from_secs(5))
            .expect("reading a FIFO blocked");
        assert!(matches!(got, Err(InputError::NotAFile(_))), "{got:?}");
    }

    #[test]
    fn a_file_over_the_cap_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let big = tmp.path().join("big.toml");
        std::fs::write(&big, vec![b'#'; (MAX_RULEBOOK_BYTES + 1) as usize]).unwrap();
        let e = read_capped(&big, InputKind::Rulebook).unwrap_err();
        assert!(matches!(e, InputError::TooLarge { .. }), "{e}");
        assert!(read_capped(&big, InputKind::Sheet).is_ok());
    }

    #[test]
    fn every_error_has_chinese() {
        use crate::i18n::facts::assert_localized;
        assert_localized(&InputError::NotAFile("/dev/zero".into()));
        assert_localized(&InputError::TooLarge {
            path: "a".into(),
            max: MAX_RULEBOOK_BYTES,
            rulebook: true,
        });
        assert_localized(&InputError::TooLarge {
            path: "a".into(),
            max: MAX_SHEET_BYTES,
            rulebook: false,
        });
        assert_localized(&InputError::Io {
            path: "a".into(),
            error: std::io::Error::from_raw_os_error(2),
        });
    }
}
