//! Cooperative interruption of long calls (Ctrl-C from Python).
//!
//! A caller runs work inside [`run`] with a [`Token`] and, optionally, a poll
//! function that says whether an interrupt was requested (the Python binding
//! checks for pending signals). Every long loop of the core calls
//! [`requested`]; it is `false` outside [`run`], so plain Rust users see no
//! change. Once it is `true` the loops return early with meaningless partial
//! results, which the caller must discard (it knows from
//! [`Token::is_cancelled`]).
//!
//! The poll function runs only on the thread that called [`run`] (Python
//! delivers signals to the main thread), at most every [`POLL_EVERY`].
//! Parallel batches ([`wait_polling`]) run their work on another thread and
//! keep the calling thread polling; their rayon tasks see the token through
//! [`within`].

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// How often the calling thread asks the poll function at most.
pub const POLL_EVERY: Duration = Duration::from_millis(20);

/// Calls of [`requested`] between two looks at the clock.
const CALLS_PER_CLOCK_READ: u32 = 256;

/// A cancellation flag shared by a call and the threads working for it.
#[derive(Clone, Debug, Default)]
pub struct Token(Arc<AtomicBool>);

impl Token {
    pub fn new() -> Token {
        Token::default()
    }
    /// Asks every loop running under this token to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    /// Whether the work was asked to stop (its results are then partial).
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A poll function: `true` when an interrupt was requested.
pub type Poll = fn() -> bool;

struct Ambient {
    token: Token,
    poll: Option<Poll>,
    countdown: Cell<u32>,
    last_poll: Cell<Instant>,
}

impl Ambient {
    fn new(token: Token, poll: Option<Poll>) -> Rc<Ambient> {
        Rc::new(Ambient {
            token,
            poll,
            countdown: Cell::new(CALLS_PER_CLOCK_READ),
            last_poll: Cell::new(Instant::now()),
        })
    }

    /// Asks the poll function now if `POLL_EVERY` has passed.
    fn poll_due(&self) {
        if let Some(poll) = self.poll {
            let now = Instant::now();
            if now.duration_since(self.last_poll.get()) >= POLL_EVERY {
                self.last_poll.set(now);
                if poll() {
                    self.token.cancel();
                }
            }
        }
    }

    fn requested(&self) -> bool {
        if self.token.is_cancelled() {
            return true;
        }
        if self.poll.is_some() {
            let c = self.countdown.get();
            if c == 0 {
                self.countdown.set(CALLS_PER_CLOCK_READ);
                self.poll_due();
                return self.token.is_cancelled();
            }
            self.countdown.set(c - 1);
        }
        false
    }
}

thread_local! {
    static AMBIENT: RefCell<Option<Rc<Ambient>>> = const { RefCell::new(None) };
}

/// Restores the previous ambient token when a scope ends (also on panic).
struct Restore(Option<Rc<Ambient>>);

impl Drop for Restore {
    fn drop(&mut self) {
        let prev = self.0.take();
        AMBIENT.with(|a| *a.borrow_mut() = prev);
    }
}

fn scoped<R>(ambient: Option<Rc<Ambient>>, f: impl FnOnce() -> R) -> R {
    let prev = AMBIENT.with(|a| std::mem::replace(&mut *a.borrow_mut(), ambient));
    let _restore = Restore(prev);
    f()
}

/// Runs `f` on this thread with `token` (and `poll`, asked from this thread)
/// as the interrupt state that [`requested`] reports.
pub fn run<R>(token: &Token, poll: Option<Poll>, f: impl FnOnce() -> R) -> R {
    scoped(Some(Ambient::new(token.clone(), poll)), f)
}

/// The token of the call this thread works for, if any (hand it to worker
/// threads with [`within`]).
pub fn current() -> Option<Token> {
    AMBIENT.with(|a| a.borrow().as_ref().map(|x| x.token.clone()))
}

/// Runs `f` with `token` (from [`current`]) as this thread's interrupt state,
/// without polling: for tasks on worker threads.
pub fn within<R>(token: Option<&Token>, f: impl FnOnce() -> R) -> R {
    match token {
        None => f(),
        Some(t) => scoped(Some(Ambient::new(t.clone(), None)), f),
    }
}

/// Whether the current call should stop: cheap, call it in every long loop.
#[inline]
pub fn requested() -> bool {
    AMBIENT.with(|a| a.borrow().as_ref().is_some_and(|x| x.requested()))
}

/// Whether the current call's token was cancelled, without polling: a
/// computation that ends with this still `false` was never cut short (the
/// token is only ever set, so no loop inside it saw an interrupt).
pub fn cancelled() -> bool {
    AMBIENT.with(|a| a.borrow().as_ref().is_some_and(|x| x.token.is_cancelled()))
}

/// Runs `f` (typically a parallel batch that blocks this thread) on a helper
/// thread when this thread polls for interrupts, polling while it waits;
/// otherwise simply runs `f`. The helper thread sees the same token.
pub fn wait_polling<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let ambient = AMBIENT.with(|a| a.borrow().clone());
    let Some(ambient) = ambient.filter(|a| a.poll.is_some()) else {
        return f();
    };
    let token = ambient.token.clone();
    // `f` goes to the helper thread through this slot, so that it can still
    // run here if the thread cannot be started (memory pressure).
    let job = std::sync::Mutex::new(Some(f));
    let r = std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel();
        let slot = &job;
        let spawned = std::thread::Builder::new().spawn_scoped(s, move || {
            let f = slot.lock().ok().and_then(|mut j| j.take());
            let r = f.map(|f| within(Some(&token), f));
            let _ = tx.send(());
            r
        });
        let Ok(worker) = spawned else {
            return None;
        };
        while rx.recv_timeout(POLL_EVERY).is_err() && !worker.is_finished() {
            ambient.poll_due();
        }
        match worker.join() {
            Ok(r) => r,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    });
    match r {
        Some(r) => r,
        // No helper thread: run here, where the loops poll themselves.
        None => match job.into_inner().ok().flatten() {
            Some(f) => f(),
            None => unreachable!("the job ran on the helper thread"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_run_nothing_is_requested() {
        assert!(!requested());
        assert!(current().is_none());
    }

    #[test]
    fn a_cancelled_token_is_seen_by_workers_and_scopes_end() {
        let t = Token::new();
        run(&t, None, || {
            assert!(!requested());
            t.cancel();
            assert!(requested());
            let tok = current();
            let seen = std::thread::spawn(move || within(tok.as_ref(), requested))
                .join()
                .unwrap();
            assert!(seen);
        });
        assert!(!requested());
    }

    #[test]
    fn the_poll_function_cancels_and_wait_polling_returns() {
        fn always() -> bool {
            true
        }
        let t = Token::new();
        let n = run(&t, Some(always), || {
            wait_polling(|| {
                let mut n = 0u64;
                while !requested() {
                    n += 1;
                }
                n
            })
        });
        assert!(t.is_cancelled());
        assert!(n > 0);
    }
}
