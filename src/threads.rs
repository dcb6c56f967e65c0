//! The one way qiwang starts a thread: scoped, with a stack of a fixed size, and with a
//! way back when no thread can be made.
//!
//! Every thread qiwang starts does work the calling thread could do itself (the second
//! half of a pricing pass, the standings beside the round sheets, a workbook's sheet), so
//! a process at its limit of threads or address space does that work in line instead of
//! panicking, and `RUST_MIN_STACK` (which sets the default stack of new threads) cannot
//! shrink their stacks below what their work was tested with.

use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{Builder, Scope, ScopedJoinHandle};

/// The stack of every thread qiwang starts: Rust's default for new threads, which every
/// one of them has been run and tested with. Only reserved: a larger one would count
/// against a process's address-space limit for each thread.
const STACK: usize = 2 << 20;

/// Starts `work` on a new thread of `scope`; gives `work` back, not done, if no thread
/// can be made, for the caller to do it itself.
pub(crate) fn spawn<'scope, T, F>(
    scope: &'scope Scope<'scope, '_>,
    work: F,
) -> Result<ScopedJoinHandle<'scope, T>, F>
where
    F: FnOnce() -> T + Send + 'scope,
    T: Send + 'scope,
{
    // The closure a failed spawn drops holds only the slot, so `work` can come back.
    let slot = Arc::new(Mutex::new(Some(work)));
    let theirs = Arc::clone(&slot);
    let started = Builder::new()
        .stack_size(STACK)
        .spawn_scoped(scope, move || {
            let work = theirs.lock().unwrap_or_else(PoisonError::into_inner).take();
            work.expect("the work is left for the thread that was made")()
        });
    started.map_err(|_| {
        slot.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .expect("no thread was made to take the work")
    })
}

/// Waits for `handle`'s thread; a panic there is raised again here with its own message.
pub(crate) fn join<T>(handle: ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The work runs on a thread of its own and its value comes back. (That the stack
    /// ignores `RUST_MIN_STACK` was checked by hand: the variable is read once per
    /// process, so a test cannot set it for itself.)
    #[test]
    fn work_runs_on_a_thread_of_its_own() {
        let here = std::thread::current().id();
        std::thread::scope(|scope| {
            let handle = spawn(scope, || (std::thread::current().id(), 42))
                .unwrap_or_else(|_| panic!("a thread should be made here"));
            let (there, value) = join(handle);
            assert_ne!(there, here);
            assert_eq!(value, 42);
        });
    }

    /// A panic on the thread comes back with its own message.
    #[test]
    fn a_panic_comes_back_with_its_message() {
        let caught = std::panic::catch_unwind(|| {
            std::thread::scope(|scope| {
                let handle = spawn(scope, || -> u32 { panic!("sheet failed") })
                    .unwrap_or_else(|_| panic!("a thread should be made here"));
                join(handle)
            })
        });
        let panic = caught.unwrap_err();
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"sheet failed"));
    }
}
