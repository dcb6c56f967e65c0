//! Panics kept from the user's screen: a panic is a bug, and the user sees one short
//! bilingual "internal error, please report" with the recorded message, never Rust's own
//! panic text (exit code 1, README "Exit codes").
//!
//! Owns the process's panic hook (installed by the binary with [`install_hook`]), which
//! records the first panic's message and location instead of printing them, and
//! [`contain`], which runs code that may panic (a third-party reader or writer on hostile
//! input) and turns a panic into a value. Decides nothing by a panic's text: what a caller
//! does with a contained panic depends on facts it checks itself.

use std::sync::Mutex;

/// A panic caught by [`contain`]: its message and where it was raised, as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panic {
    /// The panic's message and location (`message (at file:line)`), for a bug report.
    pub message: String,
}

/// The first panic recorded by the hook and not yet taken.
static RECORDED: Mutex<Option<String>> = Mutex::new(None);

/// Installs the hook that records a panic's message and location instead of printing
/// them; the binary prints [`take_recorded`] once, when a panic reaches it.
pub fn install_hook() {
    std::panic::set_hook(Box::new(|info| {
        let message = payload_text(info.payload());
        let text = match info.location() {
            Some(at) => format!("{message} (at {}:{})", at.file(), at.line()),
            None => message,
        };
        let mut recorded = RECORDED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if recorded.is_none() {
            *recorded = Some(text);
        }
    }));
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
/// of [`install_hook`] is installed.
pub fn contain<T>(f: impl FnOnce() -> T) -> Result<T, Panic> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|payload| {
        let message = take_recorded().unwrap_or_else(|| payload_text(&*payload));
        Panic { message }
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
        assert_eq!(contain(|| 5), Ok(5));
    }

    #[test]
    fn payloads_of_both_kinds_read_as_text() {
        assert_eq!(payload_text(&"static"), "static");
        assert_eq!(payload_text(&String::from("owned")), "owned");
        assert_eq!(payload_text(&3_u32), "(a panic without a message)");
    }
}
