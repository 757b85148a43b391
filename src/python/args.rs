//! Integer arguments that check their range and say what is allowed, where
//! pyo3's own conversion would raise `OverflowError` or a generic message.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

/// `obj` as an integer from 0 to `max`: TypeError for a non-integer (bools
/// included), ValueError naming the range for any other integer.
fn bounded_int(obj: &Bound<'_, PyAny>, name: &str, max: u64, what: &str) -> PyResult<u64> {
    let type_error = || {
        PyTypeError::new_err(format!(
            "{name} must be an int ({what}), got {}",
            super::type_name(obj)
        ))
    };
    if obj.is_instance_of::<PyBool>() {
        return Err(type_error());
    }
    match obj.extract::<u64>() {
        Ok(v) if v <= max => Ok(v),
        Ok(_) => Err(PyValueError::new_err(format!(
            "{name} must be {what}, got {obj}"
        ))),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(PyValueError::new_err(
            format!("{name} must be {what}, got {obj}"),
        )),
        Err(_) => Err(type_error()),
    }
}

/// A run or agent seed: an int from 0 to 2**64-1.
pub(crate) struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        bounded_int(&obj, "seed", u64::MAX, "from 0 to 2**64-1").map(Seed)
    }
}

/// An action id: an int from 0 to 2**32-1 (legality is the game's to check).
pub(crate) struct ActionId(pub u32);

impl<'a, 'py> FromPyObject<'a, 'py> for ActionId {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        bounded_int(
            &obj,
            "action",
            u32::MAX as u64,
            "a non-negative integer id below 2**32",
        )
        .map(|v| ActionId(v as u32))
    }
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
    let what = format!("from 1 to {max}, or None");
    match bounded_int(obj, name, max, &what)? {
        0 => Err(PyValueError::new_err(format!(
            "{name} must be {what}, got 0"
        ))),
        v => Ok(Some(v)),
    }
}
