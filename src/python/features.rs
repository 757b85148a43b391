//! `_core.search_eval_features`: the search evaluation's features (for
//! Texel tuning, `scripts/texel_tune.py`).

use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::PyState;
use crate::agents::search::eval::features::{eval_features, feature_names};
use crate::agents::search::eval::WEIGHTS;
use crate::variants::{Game, Node};
use crate::with_game;

/// `(features, offset)` of a non-terminal state: `features @ weights +
/// offset` is the search's static value for White in centipawns.
#[pyfunction]
pub(crate) fn search_eval_features<'py>(
    py: Python<'py>,
    state: &PyState,
) -> PyResult<(Bound<'py, PyArray1<f64>>, f64)> {
    let out = with_game!(&state.game, g => {
        if matches!(g.node(), Node::Terminal) {
            None
        } else {
            Some(eval_features(g))
        }
    });
    let Some((x, offset)) = out else {
        return Err(PyValueError::new_err(
            "search_eval_features needs a non-terminal state",
        ));
    };
    Ok((PyArray1::from_slice(py, &x), offset))
}

/// The weight names in feature order and the default weights.
#[pyfunction]
pub(crate) fn search_eval_weights() -> (Vec<String>, Vec<f64>) {
    (feature_names(), WEIGHTS.to_vec())
}
