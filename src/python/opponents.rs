//! The `opponent` argument of `dicechess.VecEnv`: an agent spec, a Python
//! callable `(obs, mask) -> actions` (called once per round with the envs
//! where it must move), or a list of these (a pool, one member drawn per env
//! and episode), and the integer action arrays read from the caller and
//! from such callables.

use numpy::{PyArray1, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use super::type_name;
use crate::agents::{AgentSpec, VALID_SPECS};
use crate::sim::vecenv::{Member, Pool, Requests};
use crate::variants::GameError;

/// What a callable opponent is.
const CALLABLE: &str = "a callable (obs, mask) -> actions";

/// A parsed `opponent`: the core's pool, the callable of each
/// caller-decided member, and what the `opponent` getter returns.
pub(crate) struct Opponents {
    pub pool: Option<Pool>,
    pub callables: Vec<Option<Py<PyAny>>>,
    pub shown: Option<Py<PyAny>>,
}

/// One member: a spec string or a callable; `at` names it in errors.
fn member(obj: &Bound<'_, PyAny>, at: &str) -> PyResult<(Member, Option<Py<PyAny>>, Py<PyAny>)> {
    if let Ok(s) = obj.extract::<String>() {
        let spec = AgentSpec::parse(&s)
            .map_err(|e| PyValueError::new_err(format!("{at}: {e} (or None for self-play)")))?;
        let shown = spec
            .to_string()
            .into_pyobject(obj.py())?
            .into_any()
            .unbind();
        return Ok((Member::Agent(spec), None, shown));
    }
    if obj.is_callable() {
        return Ok((
            Member::External,
            Some(obj.clone().unbind()),
            obj.clone().unbind(),
        ));
    }
    Err(PyTypeError::new_err(format!(
        "{at} must be an agent spec string or {CALLABLE}{}, got {}; valid specs: {VALID_SPECS}",
        if at == "opponent" {
            ", a list of these (a pool), or None (self-play)"
        } else {
            ""
        },
        type_name(obj)
    )))
}

/// Parses `opponent` and `opponent_weights`.
pub(crate) fn parse(
    opponent: Option<&Bound<'_, PyAny>>,
    weights: Option<&Bound<'_, PyAny>>,
) -> PyResult<Opponents> {
    let weights = weights.filter(|w| !w.is_none());
    let Some(obj) = opponent.filter(|o| !o.is_none()) else {
        if weights.is_some() {
            return Err(PyValueError::new_err(
                "opponent_weights needs a list of opponents (a pool), got opponent=None",
            ));
        }
        return Ok(Opponents {
            pool: None,
            callables: Vec::new(),
            shown: None,
        });
    };
    let items: Option<Vec<Bound<'_, PyAny>>> = if let Ok(l) = obj.cast::<PyList>() {
        Some(l.iter().collect())
    } else {
        obj.cast::<PyTuple>().ok().map(|t| t.iter().collect())
    };
    let Some(items) = items else {
        if weights.is_some() {
            return Err(PyValueError::new_err(
                "opponent_weights needs a list of opponents (a pool), got one opponent",
            ));
        }
        let (m, f, shown) = member(obj, "opponent")?;
        let pool = Pool::new(vec![m], None).map_err(super::value_error)?;
        return Ok(Opponents {
            pool: Some(pool),
            callables: vec![f],
            shown: Some(shown),
        });
    };
    let (mut members, mut callables, mut shown) = (Vec::new(), Vec::new(), Vec::new());
    for (i, x) in items.iter().enumerate() {
        let (m, f, s) = member(x, &format!("opponent[{i}]"))?;
        members.push(m);
        callables.push(f);
        shown.push(s);
    }
    let weights = weights
        .map(|w| {
            w.extract::<Vec<f64>>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "opponent_weights must be a list of numbers (one per pool member), got {}",
                    type_name(w)
                ))
            })
        })
        .transpose()?;
    let pool = Pool::new(members, weights).map_err(super::value_error)?;
    Ok(Opponents {
        pool: Some(pool),
        callables,
        shown: Some(PyList::new(obj.py(), shown)?.into_any().unbind()),
    })
}

/// Reads `obj`, an integer numpy array of shape `(n,)` (any object
/// `numpy.asarray` takes, with `convert`), as i64 ids; `what` names it.
pub(crate) fn read_actions(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    n: usize,
    num_actions: usize,
    what: &str,
    convert: bool,
) -> PyResult<Vec<i64>> {
    let np = py.import("numpy")?;
    let converted;
    let obj = if convert && obj.cast::<PyUntypedArray>().is_err() {
        converted = np.call_method1("asarray", (obj,)).map_err(|_| {
            PyTypeError::new_err(format!(
                "{what} must be an integer array of shape ({n},), got {}",
                type_name(obj)
            ))
        })?;
        &converted
    } else {
        obj
    };
    let arr = obj.cast::<PyUntypedArray>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be a numpy integer array of shape ({n},), got {}",
            type_name(obj)
        ))
    })?;
    let dtype = arr.dtype();
    if !matches!(dtype.kind(), b'i' | b'u') {
        return Err(PyTypeError::new_err(format!(
            "{what} must have an integer dtype, got {}",
            dtype.str()?
        )));
    }
    if arr.shape() != [n] {
        return Err(PyValueError::new_err(format!(
            "{what} must have shape ({n},), got {:?}",
            arr.shape()
        )));
    }
    if dtype.kind() == b'u' && n > 0 {
        let max: u64 = np
            .call_method1("max", (arr,))?
            .extract()
            .unwrap_or(u64::MAX);
        if max > i64::MAX as u64 {
            return Err(PyValueError::new_err(format!(
                "action {max} is out of range (ids below {num_actions})"
            )));
        }
    }
    let as_i64 = np.call_method1("ascontiguousarray", (arr, "int64"))?;
    let a = as_i64.cast::<PyArray1<i64>>()?.try_readonly()?;
    Ok(a.as_slice()?.to_vec())
}

/// A Python error through the core's caller-decided steps.
pub(crate) struct Failed(pub PyErr);

impl From<GameError> for Failed {
    fn from(e: GameError) -> Failed {
        Failed(super::value_error(e))
    }
}

/// Asks member `r.member`'s callable for the actions of its waiting envs.
pub(crate) fn ask(
    callables: &[Option<Py<PyAny>>],
    r: Requests<'_>,
    obs_shape: [usize; 3],
    num_actions: usize,
) -> Result<(), Failed> {
    Python::attach(|py| {
        let f = callables
            .get(r.member)
            .and_then(Option::as_ref)
            .ok_or_else(|| {
                PyValueError::new_err(format!("opponent {} has no callable", r.member))
            })?;
        let k = r.envs.len();
        let (obs, mask) =
            super::callables::batch_arrays(py, r.obs, r.mask, k, obs_shape, num_actions)?;
        let out = f.bind(py).call1((obs, mask))?;
        let who = if callables.len() == 1 {
            "the opponent callable's result".to_string()
        } else {
            format!("the result of opponent[{}] (a callable)", r.member)
        };
        let what = format!("{who} (one action per env it was given)");
        r.actions
            .extend(read_actions(py, &out, k, num_actions, &what, true)?);
        Ok(())
    })
    .map_err(Failed)
}
