//! The one way qiwang starts a thread: scoped, with a stack of a fixed size, and with a
//! way back when no thread can be made.
//!
//! Every thread qiwang starts does work the calling thread could do itself (the second
//! half of a pricing pass or of a certificate's check, the pairing's score-group jobs
//! ([`pool`]), the standings beside the round sheets, a workbook's sheet), so
//! a process at its limit of threads or address space does that work in line instead of
//! panicking, and `RUST_MIN_STACK` (which sets the default stack of new threads) cannot
//! shrink their stacks below what their work was tested with.

use std::collections::BinaryHeap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
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
            let work = lock(&theirs).take();
            work.expect("the work is left for the thread that was made")()
        });
    started.map_err(|_| {
        lock(&slot)
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
thread_local! {
    /// Tests force work onto two threads (`Some(true)`) or one (`Some(false)`) whatever
    /// its size ([`worth_two`]).
    pub(crate) static FORCED: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

/// Whether work of `size` (players, edges) goes on two threads: from `from` on, below
/// which starting a thread would cost a good part of what it saves. Tests can force
/// either answer ([`FORCED`]); the result is the same either way.
pub(crate) fn worth_two(size: usize, from: usize) -> bool {
    #[cfg(test)]
    if let Some(forced) = FORCED.with(std::cell::Cell::get) {
        return forced;
    }
    size >= from
}

/// `half(0)` then `half(1)`, the second on its own thread when `threads`: the same list
/// either way (a pricing pass's two halves, a certificate's).
pub(crate) fn both_halves<T: Send>(threads: bool, half: impl Fn(usize) -> Vec<T> + Sync) -> Vec<T> {
    let (mut first, second) = if threads {
        std::thread::scope(|scope| match spawn(scope, || half(1)) {
            Ok(other) => {
                let mine = half(0);
                // A panic in the second half is raised again here with its own message.
                (mine, join(other))
            }
            Err(other) => (half(0), other()),
        })
    } else {
        (half(0), half(1))
    };
    first.extend(second);
    first
}

/// Runs `work` on every job of `jobs` and on every job that work gives back, the greatest
/// ready job first, on this thread and, when `threads`, one more: whichever is free takes
/// the next job, so two threads stay busy while jobs are left (dealing whole lists to
/// each thread in advance left one idle for a third of the pairing's score-group solves).
/// Work that depends on other work is given back by the job that finishes it. A panic in
/// either thread stops both and is raised again here with its own message.
pub(crate) fn pool<J: Ord + Send>(threads: bool, jobs: Vec<J>, work: impl Fn(J) -> Vec<J> + Sync) {
    let shared = Pool {
        state: Mutex::new(PoolState {
            ready: BinaryHeap::from(jobs),
            running: 0,
            failed: false,
        }),
        wake: Condvar::new(),
    };
    let worker = || {
        while let Some(job) = shared.next() {
            // Should `work` panic, the other thread is told to stop instead of waiting
            // for the jobs this one would have given back.
            let stop = StopOnPanic(&shared);
            let more = work(job);
            std::mem::forget(stop);
            shared.done(more);
        }
    };
    if !threads {
        worker();
        return;
    }
    std::thread::scope(|scope| match spawn(scope, worker) {
        Ok(other) => {
            worker();
            join(other);
        }
        Err(other) => other(),
    });
}

/// `mutex` locked, also when a thread panicked holding it (a panic stops the work that
/// shares it and is raised again, so what it guards is never used half-done).
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The jobs of a [`pool`] not yet taken, and how many are being worked on.
struct Pool<J> {
    state: Mutex<PoolState<J>>,
    wake: Condvar,
}

struct PoolState<J> {
    ready: BinaryHeap<J>,
    running: usize,
    failed: bool,
}

impl<J: Ord> Pool<J> {
    fn lock(&self) -> MutexGuard<'_, PoolState<J>> {
        lock(&self.state)
    }

    /// The next job, waiting while none is ready but some are being worked on (they may
    /// give back more); `None` once every job is done or a worker panicked.
    fn next(&self) -> Option<J> {
        let mut state = self.lock();
        loop {
            if state.failed {
                return None;
            }
            if let Some(job) = state.ready.pop() {
                state.running += 1;
                return Some(job);
            }
            if state.running == 0 {
                return None;
            }
            state = self
                .wake
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn done(&self, more: Vec<J>) {
        let mut state = self.lock();
        state.running -= 1;
        state.ready.extend(more);
        drop(state);
        self.wake.notify_all();
    }
}

/// Dropped only while a job's work unwinds: stops the pool.
struct StopOnPanic<'a, J: Ord>(&'a Pool<J>);

impl<J: Ord> Drop for StopOnPanic<'_, J> {
    fn drop(&mut self) {
        self.0.lock().failed = true;
        self.0.wake.notify_all();
    }
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

    /// The halves come back first half first, whichever thread finishes first (the
    /// first half here is the slow one), so timing never reorders what is found.
    #[test]
    fn both_halves_keep_their_order() {
        let half = |h: usize| {
            if h == 0 {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            vec![h; 3]
        };
        assert_eq!(both_halves(true, half), vec![0, 0, 0, 1, 1, 1]);
        assert_eq!(both_halves(false, half), vec![0, 0, 0, 1, 1, 1]);
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
    /// Every job and every job given back runs once, on either thread, and a job given
    /// back while the other thread waits is still taken.
    #[test]
    fn a_pool_runs_every_job_and_those_given_back() {
        for threads in [false, true] {
            let seen = Mutex::new(Vec::new());
            pool(threads, vec![3u32, 1, 2], |job| {
                seen.lock().unwrap().push(job);
                if job < 100 {
                    vec![job + 100]
                } else {
                    Vec::new()
                }
            });
            let mut seen = seen.into_inner().unwrap();
            seen.sort_unstable();
            assert_eq!(seen, vec![1, 2, 3, 101, 102, 103], "threads: {threads}");
        }
    }

    /// One thread takes the greatest ready job first.
    #[test]
    fn a_pool_takes_the_greatest_job_first() {
        let seen = Mutex::new(Vec::new());
        pool(false, vec![2u32, 5, 1], |job| {
            seen.lock().unwrap().push(job);
            if job == 5 { vec![4] } else { Vec::new() }
        });
        assert_eq!(seen.into_inner().unwrap(), vec![5, 4, 2, 1]);
    }

    /// A panic in a job stops the pool and comes back with its own message, whichever
    /// thread ran the job, while the other thread would otherwise wait for its jobs.
    #[test]
    fn a_panic_in_a_pool_comes_back_and_stops_it() {
        for threads in [false, true] {
            let caught = std::panic::catch_unwind(|| {
                pool(threads, vec![1u32, 2], |job| {
                    if job == 2 {
                        panic!("piece failed");
                    }
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    Vec::new()
                });
            });
            let message = caught.expect_err("the panic comes back");
            assert_eq!(message.downcast_ref::<&str>(), Some(&"piece failed"));
        }
    }
}
