//! The file primitives the store is built from: atomic replace, directory sync, append,
//! and the exclusive lock. Nothing here knows what an event is.

use super::StoreError;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

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
    let result = write_and_sync(&tmp, bytes).and_then(|()| {
        fs::rename(&tmp, path).map_err(|e| StoreError::io("replace", path, e))?;
        sync_dir(parent(path))
    });
    if result.is_err() {
        // Best effort: the error being returned is the one worth reporting.
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn write_and_sync(tmp: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(tmp)
        .map_err(|e| StoreError::io("create", tmp, e))?;
    file.write_all(bytes)
        .map_err(|e| StoreError::io("write", tmp, e))?;
    file.sync_all().map_err(|e| StoreError::io("sync", tmp, e))
}

/// The directory holding `path` (`.` for a bare file name).
pub(crate) fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Makes renames and removals inside `dir` durable.
pub(crate) fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| StoreError::io("sync directory", dir, e))
}

/// Appends `line` (which must end in a newline) with a single write and syncs it.
pub(crate) fn append_synced(path: &Path, line: &[u8]) -> Result<(), StoreError> {
    let mut file = OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| StoreError::io("open for appending", path, e))?;
    file.write_all(line)
        .map_err(|e| StoreError::io("append to", path, e))?;
    file.sync_all().map_err(|e| StoreError::io("sync", path, e))
}

/// Cuts `path` back to `len` bytes (used to drop a torn or rolled-back audit line).
pub(crate) fn truncate_synced(path: &Path, len: u64) -> Result<(), StoreError> {
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| StoreError::io("open for writing", path, e))?;
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

/// Reads a file, `None` when it does not exist.
pub(crate) fn read_optional(path: &Path) -> Result<Option<Vec<u8>>, StoreError> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(StoreError::io("read", path, e)),
    }
}

/// An exclusive lock on an event, held until dropped. The operating system releases it
/// when the process dies, so a killed command never leaves the event locked.
#[derive(Debug)]
pub(crate) struct LockGuard {
    _file: File,
}

/// Takes the exclusive lock on `path`, retrying until `timeout` has passed.
pub(crate) fn lock_exclusive(path: &Path, timeout: Duration) -> Result<LockGuard, StoreError> {
    let file = open_lock_file(path)?;
    let deadline = Instant::now() + timeout;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(LockGuard { _file: file }),
            Err(TryLockError::WouldBlock) => {
                if Instant::now() >= deadline {
                    return Err(StoreError::Busy {
                        lock: path.to_path_buf(),
                    });
                }
                thread::sleep(Duration::from_millis(5));
            }
            Err(TryLockError::Error(e)) => return Err(StoreError::io("lock", path, e)),
        }
    }
}

fn open_lock_file(path: &Path) -> Result<File, StoreError> {
    let created = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path);
    match created {
        Ok(file) => Ok(file),
        // A read-only directory still allows locking an existing lock file, so the
        // command gets to the write that fails and says so.
        Err(e) => File::open(path).map_err(|_| StoreError::io("create the lock file", path, e)),
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
        let first = lock_exclusive(&path, Duration::ZERO).unwrap();
        let err = lock_exclusive(&path, Duration::from_millis(30)).unwrap_err();
        assert!(matches!(err, StoreError::Busy { .. }), "{err}");
        drop(first);
        lock_exclusive(&path, Duration::ZERO).unwrap();
    }

    #[test]
    fn remove_and_read_tolerate_missing_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("none");
        assert!(!remove_if_exists(&path).unwrap());
        assert_eq!(read_optional(&path).unwrap(), None);
    }
}
