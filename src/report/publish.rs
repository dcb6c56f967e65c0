//! Writing an export's files under its output folder (`qiwang export --out DIR`).
//!
//! Every name goes through [`join_under`] (nothing lands outside `DIR`); no symbolic link
//! inside `DIR` is followed or replaced (a link planted as `index.html` or as a group's
//! folder is refused before anything is written); every file is written to a temporary
//! file beside it and renamed into place (the HTML site's pages from a staging folder,
//! [`write_export_each`]), so a reader sees the old page or the new one;
//! and a folder that holds files but was not written by qiwang (no [`MARKER`]) is only
//! written into with `force`.

use super::safe::{OutsideError, join_under, one_line};
use crate::i18n::{Localize, bi, display_english};
use crate::rulebook::Lang;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file that marks a folder as a qiwang export (written last).
pub const MARKER: &str = ".qiwang-export";

/// What [`MARKER`] says.
const MARKER_TEXT: &[u8] =
    b"This folder was written by `qiwang export`; it may be overwritten by the next export.\n";

/// Why an export could not be written.
#[derive(Debug)]
pub enum PublishError {
    /// A name would land outside the output folder.
    Outside(
        /// The refused name.
        OutsideError,
    ),
    /// A path in the output folder is a symbolic link.
    Symlink(
        /// The link.
        PathBuf,
    ),
    /// The one file the user named (`--out`) is a symbolic link.
    FileLink(
        /// The link.
        PathBuf,
    ),
    /// The output folder holds files but no [`MARKER`], so qiwang did not write it.
    Foreign(
        /// The folder.
        PathBuf,
    ),
    /// A file stands where a folder is needed.
    NotAFolder(
        /// The file.
        PathBuf,
    ),
    /// A folder stands where a file is to be written.
    FolderInTheWay(
        /// The folder.
        PathBuf,
    ),
    /// The folder a single output file goes into does not exist.
    NoFolder(
        /// The folder.
        PathBuf,
    ),
    /// A single output file already exists and `force` was not given.
    Exists(
        /// The file.
        PathBuf,
    ),
    /// A file or folder could not be written.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
}

display_english!(PublishError);

// Written by hand: the refused name or the I/O error is part of the message, not a cause
// to print again below it.
impl std::error::Error for PublishError {}

impl From<OutsideError> for PublishError {
    fn from(e: OutsideError) -> PublishError {
        PublishError::Outside(e)
    }
}

impl Localize for PublishError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            PublishError::Outside(e) => e.localize(lang),
            PublishError::Symlink(p) => bi!(
                lang,
                zh(
                    "`{}` 是符号链接；qiwang 不会经由导出目录中的链接写文件：请删除它或换一个 `--out`",
                    p.display()
                ),
                en(
                    "`{}` is a symbolic link; qiwang does not write through links in an export folder: remove it or choose another `--out`",
                    p.display()
                ),
            ),
            PublishError::FileLink(p) => bi!(
                lang,
                zh(
                    "`{}` 是符号链接；qiwang 不会经由链接写文件：请删除它或换一个 `--out`",
                    p.display()
                ),
                en(
                    "`{}` is a symbolic link; qiwang does not write a file through a link: remove it or choose another `--out`",
                    p.display()
                ),
            ),
            PublishError::Foreign(p) => bi!(
                lang,
                zh(
                    "`{}` 中已有不是 qiwang 写的文件；请选择空目录或新目录，或加上 `--force` 写入其中",
                    p.display()
                ),
                en(
                    "`{}` already holds files that qiwang did not write; choose an empty or new folder, or add `--force` to write into it",
                    p.display()
                ),
            ),
            PublishError::NotAFolder(p) => bi!(
                lang,
                zh("`{}` 挡住了路径：这里需要目录，却是一个文件", p.display()),
                en(
                    "`{}` is in the way: it is a file where a folder is needed",
                    p.display()
                ),
            ),
            PublishError::FolderInTheWay(p) => bi!(
                lang,
                zh(
                    "`{}` 是一个目录，而这里要写文件；请删除或改名，或换一个 `--out`",
                    p.display()
                ),
                en(
                    "`{}` is a folder where a file is to be written; remove or rename it, or choose another `--out`",
                    p.display()
                ),
            ),
            PublishError::NoFolder(p) => bi!(
                lang,
                zh(
                    "目录 `{}` 不存在；请先创建它，或换一个 `--out`",
                    p.display()
                ),
                en(
                    "the folder `{}` does not exist; create it first, or choose another `--out`",
                    p.display()
                ),
            ),
            PublishError::Exists(p) => bi!(
                lang,
                zh(
                    "`{}` 已存在；请换一个文件名，或加上 `--force` 替换它",
                    p.display()
                ),
                en(
                    "`{}` already exists; choose another name, or add `--force` to replace it",
                    p.display()
                ),
            ),
            PublishError::Io { path, error } => bi!(
                lang,
                zh(
                    "无法写入 `{}`：{}",
                    path.display(),
                    crate::i18n::io_error(error).zh
                ),
                en("cannot write `{}`: {error}", path.display()),
            ),
        }
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PublishError + '_ {
    move |error| PublishError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// `path`'s type without following a link (`None`: it does not exist).
fn kind(path: &Path) -> Result<Option<std::fs::FileType>, PublishError> {
    match std::fs::symlink_metadata(path) {
        Ok(m) => Ok(Some(m.file_type())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(path)(e)),
    }
}

/// Checks (and with `create`, makes) every folder between `out` and `path`, refusing
/// links and files in the way.
fn folders(out: &Path, path: &Path, create: bool) -> Result<(), PublishError> {
    let Ok(relative) = path.strip_prefix(out) else {
        return Err(OutsideError {
            name: path.display().to_string(),
        }
        .into());
    };
    let mut at = out.to_path_buf();
    let parts: Vec<_> = relative.components().collect();
    for part in &parts[..parts.len().saturating_sub(1)] {
        at.push(part);
        match kind(&at)? {
            Some(t) if t.is_symlink() => return Err(PublishError::Symlink(at)),
            Some(t) if t.is_dir() => {}
            Some(_) => return Err(PublishError::NotAFolder(at)),
            None if create => std::fs::create_dir(&at).map_err(io(&at))?,
            None => {}
        }
    }
    match kind(path)? {
        Some(t) if t.is_symlink() => Err(PublishError::Symlink(path.to_path_buf())),
        Some(t) if t.is_dir() => Err(PublishError::FolderInTheWay(path.to_path_buf())),
        _ => Ok(()),
    }
}

/// Writes `bytes` to `path` through a new temporary file beside it and a rename.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), PublishError> {
    write_atomically_with(path, |file| file.write_all(bytes))
}

/// [`write_atomically`] of the text `make` writes, through a buffer as it is made.
fn write_atomically_with(
    path: &Path,
    make: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), PublishError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.{}.qiwang-tmp", std::process::id()));
    // `create_new` refuses an existing file or link at the temporary name.
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(io(&tmp))?;
    let mut buffered = std::io::BufWriter::with_capacity(1 << 20, file);
    let written = make(&mut buffered)
        .and_then(|()| {
            buffered
                .into_inner()
                .map_err(std::io::IntoInnerError::into_error)
        })
        .and_then(|file| file.sync_all())
        .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(path)(e));
    }
    Ok(())
}

/// Makes `out` if it is not there, after [`check_export`] allows writing into it.
fn ready(out: &Path, force: bool) -> Result<(), PublishError> {
    if !check_export(out, force)? {
        std::fs::create_dir_all(out).map_err(io(out))?;
    }
    Ok(())
}

/// Writes [`MARKER`] into `out`, last of an export.
fn mark(out: &Path) -> Result<(), PublishError> {
    let marker = out.join(MARKER);
    folders(out, &marker, false)?;
    write_atomically(&marker, MARKER_TEXT)
}

/// Writes `files` (relative name, content) under `out`, as described in the module docs.
/// Nothing is written unless every name and every folder on the way passes the checks.
/// Returns the paths written.
pub fn write_export(
    out: &Path,
    files: &[(String, Vec<u8>)],
    force: bool,
) -> Result<Vec<PathBuf>, PublishError> {
    ready(out, force)?;
    let mut paths = Vec::with_capacity(files.len());
    for (name, _) in files {
        let path = join_under(out, name)?;
        folders(out, &path, false)?;
        paths.push(path);
    }
    for (path, (_, bytes)) in paths.iter().zip(files) {
        folders(out, path, true)?;
        write_atomically(path, bytes)?;
    }
    mark(out)?;
    Ok(paths)
}

/// [`write_export`] of files made one at a time: `make` hands each file's name and bytes
/// to the function it is given, and never holds them all (the HTML site of a
/// 100,000-player event is 340 MB of pages). Each file goes at once into a staging folder
/// of its own inside `out`; only when every file is made, and every name and folder on
/// the way passes the checks, are they renamed into place, so nothing lands at a file's
/// own path before then, as with [`write_export`]. The staging folder is removed whether
/// or not the export succeeds. Returns the paths written.
pub fn write_export_each(
    out: &Path,
    force: bool,
    make: impl FnOnce(&mut dyn FnMut(String, Vec<u8>)),
) -> Result<Vec<PathBuf>, PublishError> {
    ready(out, force)?;
    remove_abandoned_staging(out);
    let staging = out.join(format!("{STAGING}{}", std::process::id()));
    // `create_dir` refuses a folder, file or link already at that name.
    std::fs::create_dir(&staging).map_err(io(&staging))?;
    let placed = stage_then_place(out, &staging, make);
    let _ = std::fs::remove_dir_all(&staging);
    let paths = placed?;
    mark(out)?;
    Ok(paths)
}

/// [`write_export_each`]'s work between making its staging folder and removing it.
fn stage_then_place(
    out: &Path,
    staging: &Path,
    make: impl FnOnce(&mut dyn FnMut(String, Vec<u8>)),
) -> Result<Vec<PathBuf>, PublishError> {
    // (where the file goes, where it waits)
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut failed = None;
    make(&mut |name, bytes| {
        if failed.is_some() {
            return;
        }
        let stage = |staged: &[(PathBuf, PathBuf)]| -> Result<(PathBuf, PathBuf), PublishError> {
            let path = join_under(out, &name)?;
            let waiting = staging.join(staged.len().to_string());
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&waiting)
                .map_err(io(&path))?;
            file.write_all(&bytes)
                .and_then(|()| file.sync_all())
                .map_err(io(&path))?;
            Ok((path, waiting))
        };
        match stage(&staged) {
            Ok(pair) => staged.push(pair),
            Err(e) => failed = Some(e),
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    for (path, _) in &staged {
        folders(out, path, false)?;
    }
    for (path, waiting) in &staged {
        folders(out, path, true)?;
        match std::fs::rename(waiting, path) {
            Ok(()) => {}
            // The page's folder is another file system (a mount point inside `--out`):
            // written there through a temporary file beside it, as `write_export` does.
            Err(e) if e.kind() == std::io::ErrorKind::CrossesDevices => {
                let bytes = std::fs::read(waiting).map_err(io(path))?;
                write_atomically(path, &bytes)?;
            }
            Err(e) => return Err(io(path)(e)),
        }
    }
    Ok(staged.into_iter().map(|(path, _)| path).collect())
}

/// The name of a staging folder of [`write_export_each`], before its process id.
const STAGING: &str = ".qiwang-staging.";

/// The process id in the name of a staging folder of [`write_export_each`]; `None` for
/// any other name.
fn staging_pid(name: &std::ffi::OsStr) -> Option<&str> {
    name.to_str().and_then(|n| n.strip_prefix(STAGING))
}

/// Removes the staging folders inside `out` left by exports that were killed: on Linux,
/// those whose process is gone (another export may be running into the same folder);
/// elsewhere none. Best effort: an export never fails for them, and [`check_export`] does
/// not count them.
fn remove_abandoned_staging(out: &Path) {
    let Ok(entries) = std::fs::read_dir(out) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = staging_pid(&name) else {
            continue;
        };
        let gone = cfg!(target_os = "linux")
            && pid.bytes().all(|b| b.is_ascii_digit())
            && !Path::new("/proc").join(pid).exists();
        if gone {
            // A link planted at that name is removed itself, never followed.
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// [`write_export`] of the one file `name`, whose content `make` writes as it is made:
/// a 100,000-player `event.json` (360 MB) is never held whole. Should `make` fail, the
/// file is not written and its error is returned as the file's.
pub fn write_export_streamed(
    out: &Path,
    name: &str,
    force: bool,
    make: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<PathBuf, PublishError> {
    ready(out, force)?;
    let path = join_under(out, name)?;
    folders(out, &path, true)?;
    write_atomically_with(&path, make)?;
    mark(out)?;
    Ok(path)
}

/// Whether [`write_export`] may write into `out`: an error if it would refuse, else
/// whether the folder is there already. Checked before the files are made too, when
/// making them takes long (a 100,000-player workbook), so the user hears it at once.
pub fn check_export(out: &Path, force: bool) -> Result<bool, PublishError> {
    match kind(out)? {
        // `--out` itself may be a link the user chose; what is inside is checked.
        Some(_) if out.is_dir() => {
            // A staging folder an export left when it was killed does not count.
            let mut entries = std::fs::read_dir(out).map_err(io(out))?;
            let empty = entries.all(|e| e.is_ok_and(|e| staging_pid(&e.file_name()).is_some()));
            if !empty && !force && kind(&out.join(MARKER))?.is_none_or(|t| !t.is_file()) {
                return Err(PublishError::Foreign(out.to_path_buf()));
            }
            Ok(true)
        }
        Some(_) => Err(PublishError::NotAFolder(out.to_path_buf())),
        None => Ok(false),
    }
}

/// Writes the one file the user named (e.g. `export --format xlsx --out book.xlsx`):
/// never through a link planted at that name, and atomically.
pub fn write_single(path: &Path, bytes: &[u8]) -> Result<(), PublishError> {
    check_single(path, true)?;
    write_atomically(path, bytes)
}

/// [`write_single`], refusing to replace a file that exists unless `force`.
pub fn write_new(path: &Path, bytes: &[u8], force: bool) -> Result<(), PublishError> {
    check_single(path, force)?;
    write_atomically(path, bytes)
}

/// What [`write_new`] refuses: a missing folder, a link or a folder at `path`, and a file
/// there unless `force`. Checked before the content is made too, when making it takes
/// long (a 100,000-player workbook), so the user hears it at once.
pub fn check_single(path: &Path, force: bool) -> Result<(), PublishError> {
    // Said as such, not as the temporary file beside `path` failing to open.
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty())
        && kind(folder)?.is_none()
    {
        return Err(PublishError::NoFolder(folder.to_path_buf()));
    }
    match kind(path)? {
        Some(t) if t.is_symlink() => Err(PublishError::FileLink(path.to_path_buf())),
        Some(t) if t.is_dir() => Err(PublishError::FolderInTheWay(path.to_path_buf())),
        Some(t) if t.is_file() && !force => Err(PublishError::Exists(path.to_path_buf())),
        _ => Ok(()),
    }
}

/// A file name for messages, without control characters.
pub fn shown(path: &Path) -> String {
    one_line(&path.display().to_string(), 300)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(names: &[&str]) -> Vec<(String, Vec<u8>)> {
        names
            .iter()
            .map(|n| (n.to_string(), n.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn writes_under_out_and_marks_the_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        write_export(&out, &files(&["index.html", "adult/round-1.html"]), false).unwrap();
        assert_eq!(
            std::fs::read(out.join("adult/round-1.html")).unwrap(),
            b"adult/round-1.html"
        );
        assert!(out.join(MARKER).is_file());
        // A second export into its own folder needs no `--force`.
        write_export(&out, &files(&["index.html"]), false).unwrap();
        let left: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("qiwang-tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    /// Files handed over one at a time land where `write_export` puts them, and the
    /// staging folder is gone after a success and after a refusal; a refused name or a
    /// planted link anywhere in the list leaves every path unwritten.
    #[test]
    fn files_made_one_at_a_time_are_placed_only_when_all_pass() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        let each = |names: &'static [&'static str]| {
            move |file: &mut dyn FnMut(String, Vec<u8>)| {
                for n in names {
                    file(n.to_string(), n.as_bytes().to_vec());
                }
            }
        };
        let listing = |out: &Path| -> Vec<String> {
            let mut names: Vec<String> = std::fs::read_dir(out)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        let written =
            write_export_each(&out, false, each(&["index.html", "adult/round-1.html"])).unwrap();
        assert_eq!(written.len(), 2);
        assert_eq!(
            std::fs::read(out.join("adult/round-1.html")).unwrap(),
            b"adult/round-1.html"
        );
        assert_eq!(listing(&out), [MARKER, "adult", "index.html"]);
        for bad in ["../x.html", "/tmp/x.html"] {
            let names: &'static [&'static str] = Box::leak(Box::new(["kids/new.html", bad]));
            let e = write_export_each(&out, false, each(names)).unwrap_err();
            assert!(matches!(e, PublishError::Outside(_)), "{bad}: {e}");
            assert!(!out.join("kids").exists());
            assert_eq!(listing(&out), [MARKER, "adult", "index.html"]);
        }
        #[cfg(unix)]
        {
            let elsewhere = tmp.path().join("elsewhere");
            std::fs::create_dir(&elsewhere).unwrap();
            std::os::unix::fs::symlink(&elsewhere, out.join("linked")).unwrap();
            let e = write_export_each(&out, false, |file| {
                file("index.html".into(), b"changed".to_vec());
                file("linked/x.html".into(), b"x".to_vec());
            })
            .unwrap_err();
            assert!(matches!(e, PublishError::Symlink(_)), "{e}");
            assert_eq!(
                std::fs::read(out.join("index.html")).unwrap(),
                b"index.html"
            );
            assert!(std::fs::read_dir(&elsewhere).unwrap().next().is_none());
            assert_eq!(listing(&out), [MARKER, "adult", "index.html", "linked"]);
        }
    }

    /// A staging folder left by a killed export does not make the folder foreign, and on
    /// Linux the next export removes it (its process is gone); another process's is kept.
    #[test]
    fn a_killed_exports_staging_folder_is_no_obstacle() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        let left = out.join(format!("{STAGING}4294967295"));
        std::fs::create_dir_all(left.join("0")).unwrap();
        let alive = out.join(format!("{STAGING}1"));
        std::fs::create_dir(&alive).unwrap();
        assert!(check_export(&out, false).is_ok());
        write_export_each(&out, false, |file| file("index.html".into(), b"i".to_vec())).unwrap();
        assert_eq!(std::fs::read(out.join("index.html")).unwrap(), b"i");
        assert_eq!(left.exists(), !cfg!(target_os = "linux"));
        assert!(alive.exists());
    }

    #[test]
    fn refuses_escaping_names_before_writing_anything() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        for bad in ["/tmp/x.trf", "../x.html", "a/../../x"] {
            let e = write_export(&out, &files(&["index.html", bad]), false).unwrap_err();
            assert!(matches!(e, PublishError::Outside(_)), "{bad}: {e}");
            assert!(!out.join("index.html").exists());
        }
        assert!(!tmp.path().join("x.html").exists());
    }

    #[cfg(unix)]
    #[test]
    fn never_writes_through_a_planted_link() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        write_export(&out, &files(&["index.html"]), false).unwrap();
        let victim = tmp.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::fs::remove_file(out.join("index.html")).unwrap();
        std::os::unix::fs::symlink(&victim, out.join("index.html")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, out.join("adult")).unwrap();
        for names in [&["index.html"][..], &["adult/round-1.html"][..]] {
            let e = write_export(&out, &files(names), true).unwrap_err();
            assert!(matches!(e, PublishError::Symlink(_)), "{e}");
        }
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    }

    /// The one file `--out` names, a link: refused for a file, with no word of a folder.
    #[test]
    fn a_single_file_is_never_written_through_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let victim = tmp.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let out = tmp.path().join("book.xlsx");
        std::os::unix::fs::symlink(&victim, &out).unwrap();
        let e = write_new(&out, b"x", true).unwrap_err();
        assert!(matches!(e, PublishError::FileLink(_)), "{e}");
        let said = e.localize(Lang::En);
        assert!(
            said.contains("does not write a file through a link"),
            "{said}"
        );
        assert!(!said.contains("folder"), "{said}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    }

    #[test]
    fn a_foreign_folder_needs_force() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("thesis.docx"), "mine").unwrap();
        let e = write_export(tmp.path(), &files(&["index.html"]), false).unwrap_err();
        assert!(matches!(e, PublishError::Foreign(_)), "{e}");
        assert!(!tmp.path().join("index.html").exists());
        write_export(tmp.path(), &files(&["index.html"]), true).unwrap();
        assert!(tmp.path().join("index.html").exists());
    }

    /// A single file into a folder that does not exist is refused as such (not as the
    /// temporary file beside it failing), and no folder is made.
    #[test]
    fn a_single_file_needs_its_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let missing = tmp.path().join("no-such-folder");
        let e = write_new(&missing.join("event.xlsx"), b"x", false).unwrap_err();
        assert!(
            matches!(&e, PublishError::NoFolder(f) if *f == missing),
            "{e}"
        );
        assert!(e.to_string().contains("no-such-folder"), "{e}");
        assert!(!missing.exists());
        write_new(&tmp.path().join("event.xlsx"), b"x", false).unwrap();
        // A folder where the file goes is named as a folder.
        let folder = tmp.path().join("taken.xlsx");
        std::fs::create_dir(&folder).unwrap();
        let e = write_new(&folder, b"x", true).unwrap_err();
        assert!(
            matches!(&e, PublishError::FolderInTheWay(f) if *f == folder),
            "{e}"
        );
        let e = write_export(tmp.path(), &[("taken.xlsx".into(), b"x".to_vec())], true);
        assert!(matches!(e, Err(PublishError::FolderInTheWay(_))), "{e:?}");
    }

    #[test]
    fn every_error_has_chinese() {
        use crate::i18n::facts::assert_localized;
        assert_localized(&PublishError::Symlink("a/b".into()));
        assert_localized(&PublishError::FileLink("a.xlsx".into()));
        assert_localized(&PublishError::Foreign("a".into()));
        assert_localized(&PublishError::NotAFolder("a".into()));
        assert_localized(&PublishError::Exists("a/index.html".into()));
        assert_localized(&PublishError::NoFolder("a".into()));
        assert_localized(&PublishError::FolderInTheWay("a/index.html".into()));
        assert_localized(&PublishError::Io {
            path: "a".into(),
            error: std::io::Error::from_raw_os_error(2),
        });
        assert_localized(&PublishError::Outside(OutsideError {
            name: "../x".into(),
        }));
    }
}
