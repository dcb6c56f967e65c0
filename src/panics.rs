//! Panics kept from the user's screen: a panic is a bug, and the user sees one short
//! bilingual "internal error, please report" ([`report`]) with the recorded message and
//! location, never Rust's own panic text (exit code 1, README "Exit codes").
//!
//! Owns the process's panic hook (installed by the binary with [`install_hook`]; nothing
//! else sets one), which records the first panic's message and location instead of
//! printing them, or, in a long-running server ([`report_at_once`]), has the binary print
//! the report of every panic outside [`contain`] as it happens, since a panic in a server
//! task never reaches `main`. [`contain`] runs code that may panic (a third-party reader
//! or writer on hostile input) and turns a panic into a value, quietly. Decides nothing by
//! a panic's text: what a caller does with a contained panic depends on facts it checks
//! itself.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

/// A panic caught by [`contain`]: its message and where it was raised, as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panic {
    /// The panic's message and location (`message (at file:line)`), for a bug report.
    pub message: String,
    /// The panic's own text, without its location (to quote a third-party library's
    /// complaint to the user).
    pub payload: String,
    /// Already reported on standard error by the hook ([`report_at_once`]: it was raised
    /// on another thread, outside [`contain`], and re-raised here): not to be shown again.
    pub reported: bool,
}

/// The first panic recorded by the hook and not yet taken.
static RECORDED: Mutex<Option<String>> = Mutex::new(None);

/// Whether the hook has the [`report`] of a panic outside [`contain`] printed at once.
static REPORT_AT_ONCE: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// How many [`contain`] calls this thread is inside: its panics are values, kept quiet.
    static CONTAINED: Cell<u32> = const { Cell::new(0) };
}

/// The short bilingual report of a panic, Chinese line first: what the user is asked to
/// do, then the version and the panic's `message` (with its location), which a maintainer
/// needs. The one wording of an internal error, in every output.
pub fn report(message: &str) -> String {
    let version = env!("CARGO_PKG_VERSION");
    format!("{INTERNAL_ZH}\n{INTERNAL_EN}\n  qiwang {version}: {message}")
}

/// The internal-error request in Chinese ([`report`]'s first line).
pub const INTERNAL_ZH: &str = "内部错误：请把这段输出连同所用命令报告给维护者";
/// The internal-error request in English ([`report`]'s second line).
pub const INTERNAL_EN: &str = "internal error: please report this output with the command you ran";

/// How the binary prints a line to standard error (the library prints nothing itself).
static PRINTER: OnceLock<fn(&str)> = OnceLock::new();

/// Installs the hook that records a panic's message and location instead of printing
/// them; the binary prints [`take_recorded`] once, when a panic reaches it. After
/// [`report_at_once`], a panic outside [`contain`] is given to `print` (the binary's
/// printer of standard error) as [`report`] instead.
pub fn install_hook(print: fn(&str)) {
    let _ = PRINTER.set(print);
    std::panic::set_hook(Box::new(|info| {
        let message = payload_text(info.payload());
        let text = match info.location() {
            Some(at) => format!("{message} (at {}:{})", at.file(), at.line()),
            None => message,
        };
        if REPORT_AT_ONCE.load(Ordering::Relaxed)
            && CONTAINED.with(Cell::get) == 0
            && let Some(print) = PRINTER.get()
        {
            print(&report(&text));
            return;
        }
        let mut recorded = RECORDED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if recorded.is_none() {
            *recorded = Some(text);
        }
    }));
}

/// From now on the hook has the [`report`] of every panic outside [`contain`] printed
/// when it happens, on any thread: for `qiwang serve`, whose request handlers, blocking
/// tasks and watching thread go on after a panic (answering 500) and never bring it to
/// `main`.
pub fn report_at_once() {
    REPORT_AT_ONCE.store(true, Ordering::Relaxed);
}

/// The message of the first panic recorded since the last call, if any.
pub fn take_recorded() -> Option<String> {
    RECORDED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take()
}

/// Runs `f`; a panic inside it (on this thread, or re-raised here from a thread it joins)
/// comes back as [`Panic`] instead of unwinding further. Nothing is printed when the hook
/// of [`install_hook`] is installed (and a panic raised on this thread is not reported at
/// once, even after [`report_at_once`]).
pub fn contain<T>(f: impl FnOnce() -> T) -> Result<T, Panic> {
    CONTAINED.with(|c| c.set(c.get() + 1));
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CONTAINED.with(|c| c.set(c.get() - 1));
    caught.map_err(|payload| {
        let payload = payload_text(&*payload);
        match take_recorded() {
            Some(message) => Panic {
                message,
                payload,
                reported: false,
            },
            None => Panic {
                message: payload.clone(),
                payload,
                reported: REPORT_AT_ONCE.load(Ordering::Relaxed) && PRINTER.get().is_some(),
            },
        }
    })
}

/// A panic payload's text: the `&str` or `String` it carries, else a fixed placeholder.
pub fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_string()))
        .unwrap_or_else(|| "(a panic without a message)".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contained_panic_is_a_value_with_its_message() {
        let got = contain(|| -> u8 { panic!("reader broke at row {}", 7) });
        let panic = got.unwrap_err();
        assert!(panic.message.contains("reader broke at row 7"), "{panic:?}");
        assert_eq!(panic.payload, "reader broke at row 7");
        assert!(!panic.reported);
        assert_eq!(contain(|| 5), Ok(5));
    }

    #[test]
    fn the_report_is_chinese_then_english_then_the_message() {
        let text = report("index out of bounds (at src/x.rs:3)");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].starts_with("内部错误："), "{text}");
        assert!(lines[1].starts_with("internal error: "), "{text}");
        assert!(
            lines[2].ends_with(": index out of bounds (at src/x.rs:3)"),
            "{text}"
        );
        assert!(lines[2].contains(env!("CARGO_PKG_VERSION")), "{text}");
    }

    /// This module owns the process's panic hook: no other source file sets or takes one.
    #[test]
    fn no_other_module_touches_the_panic_hook() {
        fn visit(dir: &std::path::Path, found: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    visit(&path, found);
                } else if path.extension().is_some_and(|e| e == "rs")
                    && !path.ends_with("panics.rs")
                {
                    let text = std::fs::read_to_string(&path).unwrap();
                    if ["set_hook", "take_hook"].iter().any(|w| text.contains(w)) {
                        found.push(path.display().to_string());
                    }
                }
            }
        }
        let mut found = Vec::new();
        visit(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut found,
        );
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn payloads_of_both_kinds_read_as_text() {
        assert_eq!(payload_text(&"static"), "static");
        assert_eq!(payload_text(&String::from("owned")), "owned");
        assert_eq!(payload_text(&3_u32), "(a panic without a message)");
    }
}
