//! Ctrl-C for long calls: work runs under a [`crate::interrupt`] token whose
//! poll function checks Python's pending signals (on the calling thread,
//! every [`crate::interrupt::POLL_EVERY`] at most); an interrupted call
//! raises the signal's exception (`KeyboardInterrupt`), either dropping its
//! partial results ([`detach`]) or, for a batch of games, with the games
//! finished before the interrupt as the exception's `partial` attribute
//! ([`detach_keeping`], [`keep_partial`]).

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use std::cell::RefCell;

use crate::interrupt::{self, Token};

thread_local! {
    /// The exception raised by a signal handler during a poll.
    static PENDING: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

fn poll() -> bool {
    Python::attach(|py| match py.check_signals() {
        Ok(()) => false,
        Err(e) => {
            PENDING.with(|p| *p.borrow_mut() = Some(e));
            true
        }
    })
}

fn finish<R>(token: &Token, r: R) -> PyResult<R> {
    let pending = PENDING.with(|p| p.borrow_mut().take());
    match pending {
        Some(e) => Err(e),
        None if token.is_cancelled() => Err(PyKeyboardInterrupt::new_err("interrupted")),
        None => Ok(r),
    }
}

/// Runs `f` with the GIL released; Ctrl-C stops it within about a second
/// and raises `KeyboardInterrupt` (its partial results are dropped).
pub(crate) fn detach<R: Send>(py: Python<'_>, f: impl FnOnce() -> R + Send) -> PyResult<R> {
    let token = Token::new();
    let r = py.detach(|| interrupt::run(&token, Some(poll), f));
    finish(&token, r)
}

/// [`detach`] for a batch whose result, once interrupted, holds only the
/// items finished before the interrupt (as `sim::par_map` returns them):
/// `convert` makes the Python result, and Ctrl-C raises the signal's
/// exception with that result (the finished games) as its `partial`.
pub(crate) fn detach_keeping<'py, R: Send, T>(
    py: Python<'py>,
    f: impl FnOnce() -> R + Send,
    convert: impl FnOnce(R) -> PyResult<Bound<'py, T>>,
) -> PyResult<Bound<'py, T>> {
    let token = Token::new();
    let r = py.detach(|| interrupt::run(&token, Some(poll), f));
    let interrupted = finish(&token, ());
    let out = convert(r);
    match (interrupted, out) {
        (Ok(()), out) => out,
        (Err(e), Ok(out)) => Err(keep_partial(py, e, out.as_any())),
        (Err(e), Err(_)) => Err(e),
    }
}

/// `e` with `partial` set to `games` when it is a `KeyboardInterrupt` (the
/// runners keep them: `dicechess.runner.shards`).
pub(crate) fn keep_partial(py: Python<'_>, e: PyErr, games: &Bound<'_, PyAny>) -> PyErr {
    if e.is_instance_of::<PyKeyboardInterrupt>(py) {
        // An exception object takes attributes; if this one does not, the
        // interrupt is still raised (only the finished games are lost).
        let _ = e.value(py).setattr("partial", games);
    }
    e
}

/// [`detach`] for work that holds the GIL (it calls into Python).
pub(crate) fn attached<R>(f: impl FnOnce() -> PyResult<R>) -> PyResult<R> {
    let token = Token::new();
    let r = interrupt::run(&token, Some(poll), f);
    // The signal's exception wins over the error it caused.
    finish(&token, ()).and(r)
}
