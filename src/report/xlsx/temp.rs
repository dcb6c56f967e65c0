//! Sheets written through temporary files (the library's "constant memory" mode), and
//! what a panic while writing them means: the temporary directory is probed after any
//! panic, and a directory that cannot take a write or lacks the room becomes an
//! [`XlsxError::TempFileError`]; any other panic is a bug and goes on.

use rust_xlsxwriter::{Workbook, Worksheet, XlsxError};
use std::sync::atomic::{AtomicU64, Ordering};

/// Cells from which a table's sheet is written through a temporary file.
///
/// The library holds every cell of an ordinary sheet until it saves the book, and then
/// the sheet's whole XML: for 100,000 players about 1 GB, whose fresh pages the kernel
/// zeroed in a third of the export's CPU time (`perf record` of `qiwang export --format
/// xlsx` on the 100,000-player event of docs/performance.md), more in some hours than in others. A streamed sheet (the library's "constant memory" mode) writes each row to
/// the file as the next one starts, with its text in the cell instead of in the shared
/// string table, and the save copies the file into the workbook.
pub(super) const STREAM_CELLS: usize = 50_000;

/// At most this many sheets of a workbook are streamed, each holding a temporary file
/// open until the save: a process may only have so many files open (often 1,024). Past
/// that, sheets are held in memory.
const MAX_STREAMED: usize = 64;

/// A new sheet of `book` written through a temporary file, if a table of `cells` cells
/// should be (`stream_cells`, and fewer than [`MAX_STREAMED`] streamed so far) and the
/// temporary file can be made; `None` for an ordinary sheet. Such a sheet only takes rows
/// in order and formats only the row being written (`format_row`). The file is removed
/// as it is made (`tempfile`), so nothing is left behind, even when the process is killed.
pub(super) fn streamed_sheet(
    book: &mut Workbook,
    cells: usize,
    stream_cells: usize,
    streamed: usize,
) -> Option<Worksheet> {
    if cells < stream_cells || streamed >= MAX_STREAMED {
        return None;
    }
    // The library makes such a sheet only inside the book: taken out to be written on
    // its own thread, it goes back in order like any other (`finish`).
    book.add_worksheet_with_constant_memory().ok()?;
    book.worksheets_mut().pop()
}

/// Bytes a streamed cell takes in its temporary file, generously: the sheets' XML of a
/// 100,000-player event after round 9 (7.6 million cells) is 390 MB, 51 bytes a cell.
const TEMP_BYTES_PER_CELL: u64 = 64;

/// Runs `fill`, which counts into its argument the cells of the sheets it streams through
/// temporary files. The workbook library stops (panics) when it cannot write such a file,
/// most often because the disk is full; its panic's text is not read. After any panic the
/// temporary directory is checked instead ([`temp_dir_failure`]): if it cannot take a
/// write, or has less room than the streamed cells need, the export fails with
/// [`XlsxError::TempFileError`] naming the directory and the cause; otherwise the panic
/// was a bug and goes on. The workbook being filled is dropped half made.
pub(super) fn temp_writes_fail_cleanly<T>(
    fill: impl FnOnce(&AtomicU64) -> Result<T, XlsxError>,
) -> Result<T, XlsxError> {
    temp_writes_fail_cleanly_in(&std::env::temp_dir(), fill)
}

/// [`temp_writes_fail_cleanly`] with the temporary directory the library writes to.
pub(super) fn temp_writes_fail_cleanly_in<T>(
    dir: &std::path::Path,
    fill: impl FnOnce(&AtomicU64) -> Result<T, XlsxError>,
) -> Result<T, XlsxError> {
    let streamed = AtomicU64::new(0);
    let panic = match crate::panics::contain(|| fill(&streamed)) {
        Ok(result) => return result,
        Err(panic) => panic,
    };
    let needed = streamed
        .load(Ordering::Relaxed)
        .saturating_mul(TEMP_BYTES_PER_CELL);
    match temp_dir_failure(dir, needed) {
        Some(cause) => Err(XlsxError::TempFileError(dir.to_path_buf(), cause)),
        None => std::panic::resume_unwind(Box::new(panic.message)),
    }
}

/// Why `dir` cannot hold temporary files of `needed` bytes, if it cannot: a probe file
/// cannot be written there (read-only, missing, no permission, full), or the file system
/// has less room available than `needed`.
pub(super) fn temp_dir_failure(dir: &std::path::Path, needed: u64) -> Option<std::io::Error> {
    use std::io::Write;
    let probe = dir.join(format!(".qiwang-probe-{}", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .and_then(|mut file| {
            let written = file
                .write_all(&[0; 64 * 1024])
                .and_then(|()| file.sync_all());
            let _ = std::fs::remove_file(&probe);
            written
        });
    if let Err(e) = written {
        return Some(e);
    }
    match available_bytes(dir) {
        Err(e) => Some(e),
        Ok(None) => None,
        Ok(Some(available)) => (available < needed).then(|| {
            std::io::Error::new(
                std::io::ErrorKind::StorageFull,
                format!(
                    "{} MB available, about {} MB needed",
                    available / 1_000_000,
                    needed.div_ceil(1_000_000)
                ),
            )
        }),
    }
}

/// The bytes free for this user in the file system of `dir` (`statvfs`), or `None` where
/// the platform gives no such call here (Windows: there only the probe write above tells).
fn available_bytes(dir: &std::path::Path) -> std::io::Result<Option<u64>> {
    #[cfg(unix)]
    {
        let stat = rustix::fs::statvfs(dir)?;
        Ok(Some(stat.f_bavail.saturating_mul(stat.f_frsize)))
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(None)
    }
}
