//! Integer arguments: the one conversion ([`int_in`]) that checks the range
//! and says what is allowed, where pyo3's own conversion would raise
//! `OverflowError` or a generic message; named argument types built on it.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

/// A bound as messages write it: `2**k-1` for the large powers of two less one.
fn bound_text(v: i128) -> String {
    if v > 0xFFFF && (v + 1).count_ones() == 1 {
        format!("2**{}-1", (v + 1).trailing_zeros())
    } else {
        v.to_string()
    }
}

/// The range `lo..=hi` as messages write it.
pub(crate) fn range_text(lo: i128, hi: i128) -> String {
    if hi == lo + 1 {
        format!("{lo} or {hi}")
    } else {
        format!("from {} to {}", bound_text(lo), bound_text(hi))
    }
}

/// `obj` as an integer from `lo` to `hi` (Python ints, numpy integers and
/// anything with `__index__`): TypeError for a non-integer (bools
/// included), ValueError naming the range for any other integer, however
/// large. `note` follows the range in messages (e.g. " (or None for all cores)").
pub(crate) fn int_in(
    obj: &Bound<'_, PyAny>,
    name: &str,
    lo: i128,
    hi: i128,
    note: &str,
) -> PyResult<i128> {
    int_described(obj, name, lo, hi, &range_text(lo, hi), note)
}

/// [`int_in`] with the range in words (`range`).
fn int_described(
    obj: &Bound<'_, PyAny>,
    name: &str,
    lo: i128,
    hi: i128,
    range: &str,
    note: &str,
) -> PyResult<i128> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int ({range}{note}), got bool"
        )));
    }
    let out_of_range = || PyValueError::new_err(format!("{name} must be {range}{note}, got {obj}"));
    match obj.extract::<i128>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        Ok(_) => Err(out_of_range()),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(out_of_range()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name} must be an int ({range}{note}), got {}",
            super::type_name(obj)
        ))),
    }
}

/// Named integer argument types: `$ty(value)` for an int from `$lo` to `$hi`.
macro_rules! int_arg {
    ($(#[$doc:meta])* $ty:ident($inner:ty), $name:literal, $lo:expr, $hi:expr, $note:literal) => {
        $(#[$doc])*
        pub(crate) struct $ty(pub $inner);

        impl<'a, 'py> FromPyObject<'a, 'py> for $ty {
            type Error = PyErr;
            fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
                int_in(&obj, $name, $lo as i128, $hi as i128, $note).map(|v| $ty(v as $inner))
            }
        }
    };
}

int_arg!(
    /// A run or agent seed: an int from 0 to 2**64-1.
    Seed(u64), "seed", 0, u64::MAX, ""
);
/// An action id: an int from 0 to 2**32-1 (legality is the game's to check).
pub(crate) struct ActionId(pub u32);

impl<'a, 'py> FromPyObject<'a, 'py> for ActionId {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let what = "a non-negative integer id below 2**32";
        int_described(&obj, "action", 0, u32::MAX as i128, what, "").map(|v| ActionId(v as u32))
    }
}
int_arg!(
    /// A player: 0 or 1.
    PlayerArg(u8), "player", 0, 1, ""
);
int_arg!(
    /// A perft depth.
    PerftDepth(u32), "depth", 0, u32::MAX, ""
);
/// Worker threads: from 1 to [`super::MAX_THREADS`] (None: all cores).
pub(crate) struct Threads(pub usize);

impl<'a, 'py> FromPyObject<'a, 'py> for Threads {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let max = super::MAX_THREADS;
        let what = format!("at least 1 and at most {max}");
        let note = " (or None for all cores)";
        int_described(&obj, "threads", 1, max as i128, &what, note).map(|v| Threads(v as usize))
    }
}
int_arg!(
    /// The first game index of a batch.
    Start(u64), "start", 0, u64::MAX, ""
);
int_arg!(
    /// The number of games of a batch (see [`super::check_batch`]).
    Count(u64), "count", 0, u64::MAX, ""
);
int_arg!(
    /// An episode's number within its seed.
    EpisodeIndex(u64), "index", 0, u64::MAX, ""
);
int_arg!(
    /// Plies of each pair's shared random opening.
    OpeningPlies(u32), "opening_plies", 0, u32::MAX, ""
);

/// `Option<Threads>` as the `Option<usize>` the core takes.
pub(crate) fn threads(t: Option<Threads>) -> Option<usize> {
    t.map(|t| t.0)
}

/// A search budget (`nodes`, `ms`, `depth`): None, or an int from 1 to
/// `max`; TypeError naming the parameter for a non-integer (bools
/// included), ValueError naming the range otherwise.
pub(crate) fn budget(
    obj: Option<&Bound<'_, PyAny>>,
    name: &str,
    max: u64,
) -> PyResult<Option<u64>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    int_in(obj, name, 1, max as i128, ", or None").map(|v| Some(v as u64))
}
