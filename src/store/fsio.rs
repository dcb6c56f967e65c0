//! The file primitives the store is built from: atomic replace, directory sync, append,
//! owner-only creation, and the exclusive lock. Nothing here knows what an event is.
//!
//! Every file is created owner-only (0600, directories 0700) on Unix: the state holds ID
//! and phone numbers. Files are opened without following a symbolic link at the last
//! path component (`O_NOFOLLOW`), and temporaries are created exclusively (`O_EXCL`), so
//! a link or hard link planted in the event directory never redirects a write.
// Owner-only modes and the directory check are Unix calls; elsewhere they go unused.
#![cfg_attr(not(unix), allow(unused_mut, dead_code))]

use super::StoreError;
use crate::i18n::Text;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

/// Permissions of every file qiwang creates in an event (owner read/write).
pub(crate) const FILE_MODE: u32 = 0o600;
/// Permissions of the event directory and `history/` (owner only).
pub(crate) const DIR_MODE: u32 = 0o700;

/// Options that create files owner-only and never follow a symbolic link.
fn options() -> OpenOptions {
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(FILE_MODE).custom_flags(libc::O_NOFOLLOW);
    }
    options
}

/// Whether an open failed because the last component is a symbolic link (`O_NOFOLLOW`
/// reports `ELOOP`).
fn is_link_refusal(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        e.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// The refusal of a symbolic link inside an event.
pub(crate) fn link_refused(path: &Path) -> StoreError {
    StoreError::Damaged {
        path: path.to_path_buf(),
        detail: Text::new(
            "它是一个符号链接；qiwang 从不跟随赛事目录中的链接",
            "it is a symbolic link; qiwang never follows a link inside an event",
        ),
        recovery: Text::new(
            "请删除这个链接（若需要，把它指向的内容复制到这里）后重新运行命令；未保存任何内容",
            "delete the link (copy what it points to in its place if you need it) and run the command again; nothing was saved",
        ),
    }
}

/// Refuses `path` when it is a symbolic link; a missing path is fine.
pub(crate) fn refuse_link(path: &Path) -> Result<(), StoreError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(link_refused(path)),
        _ => Ok(()),
    }
}

/// The temporary file `write_atomic` writes before renaming it over `path`.
pub(crate) fn tmp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// Replaces `path` with `bytes` so that a reader (or a crash) sees either the old file or
/// the new one, never a mix: write a temporary file, sync it, rename it over `path`, sync
/// the directory. On failure the temporary file is removed and `path` is untouched.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let tmp = tmp_path(path);
    let mut created = false;
    let result = write_and_sync(&tmp, bytes, &mut created).and_then(|()| {
        fs::rename(&tmp, path).map_err(|e| StoreError::io("replace", path, e))?;
        sync_dir(parent(path))
    });
    if result.is_err() && created {
        // Best effort: the error being returned is the one worth reporting. Only a file
        // this call created is removed (never one a failed exclusive create found).
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn write_and_sync(tmp: &Path, bytes: &[u8], created: &mut bool) -> Result<(), StoreError> {
    let mut file = create_new(tmp)?;
    *created = true;
    file.write_all(bytes)
        .map_err(|e| StoreError::io("write", tmp, e))?;
    file.sync_all().map_err(|e| StoreError::io("sync", tmp, e))
}

/// Creates `path` exclusively (owner-only, not through a link). A stale file of that name
/// (a temporary left by a crash) is unlinked first — the name, never what a link or hard
/// link points to; a directory or a link in the way is refused.
fn create_new(path: &Path) -> Result<File, StoreError> {
    let open = || options().write(true).create_new(true).open(path);
    match open() {
        Ok(file) => Ok(file),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            let meta = fs::symlink_metadata(path).map_err(|_| StoreError::io("create", path, e))?;
            if meta.file_type().is_symlink() {
                return Err(link_refused(path));
            }
            if meta.is_dir() {
                return Err(StoreError::io(
                    "create",
                    path,
                    io::Error::from(io::ErrorKind::IsADirectory),
                ));
            }
            fs::remove_file(path).map_err(|e| StoreError::io("remove", path, e))?;
            open().map_err(|e| StoreError::io("create", path, e))
        }
        Err(e) if is_link_refusal(&e) => Err(link_refused(path)),
        Err(e) => Err(StoreError::io("create", path, e)),
    }
}

/// The directory holding `path` (`.` for a bare file name).
pub(crate) fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

#[cfg(test)]
thread_local! {
    /// The directories `sync_dir` synced on this thread, while a test records them.
    pub(crate) static SYNCED: std::cell::RefCell<Option<Vec<PathBuf>>> =
        const { std::cell::RefCell::new(None) };
}

/// Makes renames and removals inside `dir` durable.
pub(crate) fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    #[cfg(test)]
    SYNCED.with(|s| {
        if let Some(list) = s.borrow_mut().as_mut() {
            list.push(dir.to_path_buf());
        }
    });
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| StoreError::io("sync directory", dir, e))
}

/// Creates `dir` owner-only (and its missing ancestors, with the default permissions),
/// then syncs the parent of every directory it created, so the new directory survives a
/// power cut. An existing `dir` is tightened to owner-only.
pub(crate) fn create_private_dir(dir: &Path) -> Result<(), StoreError> {
    let mut missing = Vec::new();
    let mut probe = Some(dir);
    while let Some(p) = probe {
        if p.as_os_str().is_empty() || fs::symlink_metadata(p).is_ok() {
            break;
        }
        missing.push(p.to_path_buf());
        probe = p.parent();
    }
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(|e| StoreError::io("create directory", parent, e))?;
    }
    let mut builder = fs::DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(DIR_MODE);
    }
    match builder.create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && dir.is_dir() => {
            tighten(dir, DIR_MODE)?;
        }
        Err(e) => return Err(StoreError::io("create directory", dir, e)),
    }
    // Deepest first: each new directory's entry in its parent.
    for created in &missing {
        sync_dir(parent(created))?;
    }
    Ok(())
}

/// Removes the group and other permission bits of `path` (not following a link).
pub(crate) fn tighten(path: &Path, mode: u32) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(meta) = fs::symlink_metadata(path) else {
            return Ok(());
        };
        if meta.file_type().is_symlink() || meta.permissions().mode() & 0o077 == 0 {
            return Ok(());
        }
        fs::set_permissions(path, fs::Permissions::from_mode(mode))
            .map_err(|e| StoreError::io("restrict the permissions of", path, e))?;
    }
    #[cfg(not(unix))]
    let _ = (path, mode);
    Ok(())
}

/// Appends `line` (which must end in a newline) with a single write and syncs it.
pub(crate) fn append_synced(path: &Path, line: &[u8]) -> Result<(), StoreError> {
    let mut file = options()
        .append(true)
        .open(path)
        .map_err(|e| open_error("open for appending", path, e))?;
    file.write_all(line)
        .map_err(|e| StoreError::io("append to", path, e))?;
    file.sync_all().map_err(|e| StoreError::io("sync", path, e))
}

fn open_error(action: &'static str, path: &Path, e: io::Error) -> StoreError {
    if is_link_refusal(&e) {
        link_refused(path)
    } else {
        StoreError::io(action, path, e)
    }
}

/// Cuts `path` back to `len` bytes (used to drop a torn or rolled-back audit line).
pub(crate) fn truncate_synced(path: &Path, len: u64) -> Result<(), StoreError> {
    let file = options()
        .write(true)
        .open(path)
        .map_err(|e| open_error("open for writing", path, e))?;
    file.set_len(len)
        .map_err(|e| StoreError::io("truncate", path, e))?;
    file.sync_all().map_err(|e| StoreError::io("sync", path, e))
}

/// Removes a file; a file that is already gone is not an error.
pub(crate) fn remove_if_exists(path: &Path) -> Result<bool, StoreError> {
    match fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(StoreError::io("remove", path, e)),
    }
}

/// The bytes of `path`, opened without following a symbolic link.
fn read_no_follow(path: &Path) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut options().read(true).open(path)?, &mut bytes)?;
    Ok(bytes)
}

/// One version of a file as the file system tells it apart: its length, when it was
/// last written and, on Unix, which file it is. A file replaced (renamed over) or
/// written in place gets another stamp. Not its inode's change time, which a change of
/// its permissions alone moves (an older event's files are made owner-only under the
/// lock, after the state is read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stamp {
    pub(crate) len: u64,
    modified: Option<std::time::SystemTime>,
    /// Device and inode; zeros elsewhere.
    identity: (u64, u64),
}

/// The [`Stamp`] of `path` (a symbolic link's own, never its target's), `None` when it
/// cannot be read: what tells one version of `qiwang.json` or `audit.log` from the next
/// (for `serve`'s watcher too).
pub(crate) fn file_stamp(path: &Path) -> Option<Stamp> {
    fs::symlink_metadata(path).ok().map(|meta| stamp_of(&meta))
}

/// Reads `path` as [`read`] does, with the [`Stamp`] of the very file read, taken from
/// the open file before and after reading it: a file written while it was read (by
/// another program: qiwang replaces files, never writes into them) is refused as a lost
/// lock, since only a command holding the lock reads this way.
pub(crate) fn read_stamped(path: &Path) -> Result<(Vec<u8>, Stamp), StoreError> {
    let read = || -> io::Result<(Vec<u8>, Stamp, Stamp)> {
        let mut file = options().read(true).open(path)?;
        let before = stamp_of(&file.metadata()?);
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut file, &mut bytes)?;
        Ok((bytes, before, stamp_of(&file.metadata()?)))
    };
    let (bytes, before, after) = read().map_err(|e| read_failed(path, e))?;
    if before != after || bytes.len() as u64 != before.len {
        return Err(StoreError::LockLost {
            path: path.to_path_buf(),
        });
    }
    Ok((bytes, before))
}

fn stamp_of(meta: &fs::Metadata) -> Stamp {
    #[cfg(unix)]
    let identity = {
        use std::os::unix::fs::MetadataExt;
        (meta.dev(), meta.ino())
    };
    #[cfg(not(unix))]
    let identity = (0, 0);
    Stamp {
        len: meta.len(),
        modified: meta.modified().ok(),
        identity,
    }
}

/// Reads a file of the event; a symbolic link is refused, never followed (a
/// `qiwang.json` linked to another event's state would otherwise be read, and then
/// replaced by a file of its own on the next change).
pub(crate) fn read(path: &Path) -> Result<Vec<u8>, StoreError> {
    read_no_follow(path).map_err(|e| read_failed(path, e))
}

/// A read of `path` that failed with `e`: a symbolic link refused as such, else the error.
fn read_failed(path: &Path, e: io::Error) -> StoreError {
    match is_link_refusal(&e) {
        true => link_refused(path),
        false => StoreError::io("read", path, e),
    }
}

/// The last line of a file read as [`read`] does, without reading the rest: the bytes
/// after the newline before it, up to and without the final newline, and whether the
/// file ends with that newline (`false`: a write cut short, the line is torn). `None`
/// when the file does not exist or is empty. Reads backwards from the end, so a short
/// line at the end of a 50 MB `audit.log` costs one 64 KiB block.
pub(crate) fn read_last_line(path: &Path) -> Result<Option<(Vec<u8>, bool)>, StoreError> {
    use std::io::{Read, Seek, SeekFrom};
    const BLOCK: u64 = 64 * 1024;
    let fail = |e: io::Error| read_failed(path, e);
    let mut file = match options().read(true).open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(fail(e)),
    };
    let len = file.seek(SeekFrom::End(0)).map_err(fail)?;
    // `tail` holds the file's last bytes, read block by block from the end until it
    // holds a newline before the last line.
    let mut tail: Vec<u8> = Vec::new();
    let mut start = len;
    loop {
        let search_to = tail.len().saturating_sub(1);
        if let Some(i) = tail[..search_to].iter().rposition(|&b| b == b'\n') {
            tail.drain(..=i);
            break;
        }
        if start == 0 {
            break;
        }
        // Blocks double as the line grows (a `result --from` line of a large round runs
        // to megabytes), so a long line is read and searched in linear time.
        let from = start.saturating_sub(BLOCK.max(tail.len() as u64));
        let mut block = vec![0; (start - from) as usize];
        file.seek(SeekFrom::Start(from)).map_err(fail)?;
        file.read_exact(&mut block).map_err(fail)?;
        block.extend_from_slice(&tail);
        tail = block;
        start = from;
    }
    if tail.is_empty() {
        return Ok(None);
    }
    let complete = tail.last() == Some(&b'\n');
    if complete {
        tail.pop();
    }
    Ok(Some((tail, complete)))
}

/// The first `len` bytes of a file (fewer when it is shorter), read as [`read`] does.
pub(crate) fn read_head(path: &Path, len: usize) -> Result<Vec<u8>, StoreError> {
    use std::io::Read;
    let mut head = Vec::with_capacity(len);
    options()
        .read(true)
        .open(path)
        .and_then(|file| file.take(len as u64).read_to_end(&mut head))
        .map_err(|e| read_failed(path, e))?;
    Ok(head)
}

/// Reads a file as [`read`] does, `None` when it does not exist.
pub(crate) fn read_optional(path: &Path) -> Result<Option<Vec<u8>>, StoreError> {
    match read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(StoreError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// The exclusive lock on an event, held until dropped.
///
/// The lock is an advisory `flock` on the event directory itself, which no stale-lock
/// reflex deletes, plus one on the `.lock` file (which older qiwang versions lock). The operating system releases both when the holder's
/// process ends in any way, so a killed command never leaves the event locked, and a
/// lock that can be taken has no live holder.
#[derive(Debug)]
pub(crate) struct LockGuard {
    dir: File,
    dir_path: PathBuf,
    _file: File,
}

impl LockGuard {
    /// Refuses to go on when the event directory was moved or replaced while the lock
    /// was held: the lock would then no longer protect the files this command writes.
    pub(crate) fn still_ours(&self) -> Result<(), StoreError> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let held = self.dir.metadata().ok().map(|m| (m.dev(), m.ino()));
            let now = fs::metadata(&self.dir_path)
                .ok()
                .map(|m| (m.dev(), m.ino()));
            if held.is_none() || held != now {
                return Err(StoreError::LockLost {
                    path: self.dir_path.clone(),
                });
            }
        }
        Ok(())
    }
}

/// Takes the exclusive lock on the event in `dir` (lock file `lock`), retrying until
/// `timeout` has passed. The lock file's content is never written: it is part of no
/// event's data.
pub(crate) fn lock_event(
    dir: &Path,
    lock: &Path,
    timeout: Duration,
) -> Result<LockGuard, StoreError> {
    refuse_link(lock)?;
    let deadline = Instant::now() + timeout;
    let dir_file = File::open(dir).map_err(|e| StoreError::io("lock", dir, e))?;
    wait_for_lock(&dir_file, lock, deadline)?;
    let file = open_lock_file(lock)?;
    wait_for_lock(&file, lock, deadline)?;
    Ok(LockGuard {
        dir: dir_file,
        dir_path: dir.to_path_buf(),
        _file: file,
    })
}

/// Takes an exclusive `flock` on `file`, retrying until `deadline`.
fn wait_for_lock(file: &File, lock: &Path, deadline: Instant) -> Result<(), StoreError> {
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(()),
            Err(TryLockError::WouldBlock) => {
                if Instant::now() >= deadline {
                    return Err(StoreError::Busy {
                        lock: lock.to_path_buf(),
                    });
                }
                thread::sleep(Duration::from_millis(5));
            }
            Err(TryLockError::Error(e)) => return Err(StoreError::io("lock", lock, e)),
        }
    }
}

fn open_lock_file(path: &Path) -> Result<File, StoreError> {
    let created = options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path);
    match created {
        Ok(file) => Ok(file),
        Err(e) if is_link_refusal(&e) => Err(link_refused(path)),
        // A read-only directory still allows locking an existing lock file, so the
        // command gets to the write that fails and says so.
        Err(e) => options()
            .read(true)
            .open(path)
            .map_err(|_| StoreError::io("create the lock file", path, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_atomic_replaces_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert!(!tmp_path(&path).exists());
    }

    /// Lines of every length around the block size, the last one torn or whole.
    #[test]
    fn the_last_line_is_read_from_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.log");
        assert_eq!(read_last_line(&path).unwrap(), None);
        fs::write(&path, b"").unwrap();
        assert_eq!(read_last_line(&path).unwrap(), None);
        for first in [0, 1, 65_535, 65_536, 200_000] {
            for last in [1, 65_534, 65_535, 65_536, 131_073] {
                let line: Vec<u8> = (0..last).map(|i| b'a' + (i % 26) as u8).collect();
                let mut bytes = vec![b'x'; first];
                if first > 0 {
                    bytes.push(b'\n');
                }
                bytes.extend_from_slice(&line);
                fs::write(&path, &bytes).unwrap();
                assert_eq!(read_last_line(&path).unwrap(), Some((line.clone(), false)));
                bytes.push(b'\n');
                fs::write(&path, &bytes).unwrap();
                assert_eq!(read_last_line(&path).unwrap(), Some((line, true)));
            }
        }
    }

    #[test]
    fn write_atomic_failure_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.json");
        write_atomic(&path, b"old").unwrap();
        // A directory where the temporary file goes makes the write fail.
        fs::create_dir(tmp_path(&path)).unwrap();
        let err = write_atomic(&path, b"new").unwrap_err();
        assert!(err.to_string().starts_with("cannot create `"), "{err}");
        assert_eq!(fs::read(&path).unwrap(), b"old");
    }

    #[test]
    fn second_lock_is_busy_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".lock");
        let first = lock_event(dir.path(), &path, Duration::ZERO).unwrap();
        let err = lock_event(dir.path(), &path, Duration::from_millis(30)).unwrap_err();
        assert!(matches!(err, StoreError::Busy { .. }), "{err}");
        // The lock is on the directory: deleting the lock file does not free it.
        fs::remove_file(&path).unwrap();
        let err = lock_event(dir.path(), &path, Duration::ZERO).unwrap_err();
        assert!(matches!(err, StoreError::Busy { .. }), "{err}");
        drop(first);
        lock_event(dir.path(), &path, Duration::ZERO).unwrap();
    }

    #[test]
    fn an_older_qiwang_holding_only_the_lock_file_is_respected() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".lock");
        let old = File::create(&path).unwrap();
        old.lock().unwrap();
        let err = lock_event(dir.path(), &path, Duration::ZERO).unwrap_err();
        assert!(matches!(err, StoreError::Busy { .. }), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn created_files_are_owner_only_and_stale_hard_links_are_unlinked() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.json");
        // A temporary name planted as a hard link to someone else's file.
        let other = dir.path().join("other");
        fs::write(&other, "theirs").unwrap();
        fs::hard_link(&other, tmp_path(&path)).unwrap();
        write_atomic(&path, b"ours").unwrap();
        assert_eq!(fs::read(&other).unwrap(), b"theirs");
        assert_eq!(fs::read(&path).unwrap(), b"ours");
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let sub = dir.path().join("x").join("y");
        create_private_dir(&sub).unwrap();
        let mode = fs::metadata(&sub).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
    }

    #[test]
    fn remove_and_read_tolerate_missing_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("none");
        assert!(!remove_if_exists(&path).unwrap());
        assert_eq!(read_optional(&path).unwrap(), None);
    }

    /// Issue 42 §4: a state file (or any file read) that is a link is refused with the
    /// same error as every other link in the event, not read through.
    #[cfg(unix)]
    #[test]
    fn reading_refuses_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("other-event.json");
        fs::write(&target, b"theirs").unwrap();
        let link = dir.path().join("qiwang.json");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        for err in [read(&link).unwrap_err(), read_optional(&link).unwrap_err()] {
            assert!(err.to_string().contains("is a symbolic link"), "{err}");
        }
        assert_eq!(read(&target).unwrap(), b"theirs");
    }
}
