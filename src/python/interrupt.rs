//! Ctrl-C for long calls: work runs under a [`crate::interrupt`] token whose
//! poll function checks Python's pending signals (on the calling thread,
//! every [`crate::interrupt::POLL_EVERY`] at most); an interrupted call
//! discards its partial results and raises the signal's exception
//! (`KeyboardInterrupt`).

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

/// [`detach`] for work that holds the GIL (it calls into Python).
pub(crate) fn attached<R>(f: impl FnOnce() -> PyResult<R>) -> PyResult<R> {
    let token = Token::new();
    let r = interrupt::run(&token, Some(poll), f);
    // The signal's exception wins over the error it caused.
    finish(&token, ()).and(r)
}
