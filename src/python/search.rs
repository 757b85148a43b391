//! `Agent.search`: one budgeted search with its full result, interruptible
//! with Ctrl-C (the search checks the shared interrupt token every thousand
//! nodes, see [`crate::interrupt`], while the GIL is released).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::interrupt;
use crate::agents::search::params::MAX_DEPTH;
use crate::agents::{Agent, AgentSpec};
use crate::sim::GameRng;
use crate::variants::{AnyGame, Game};
use crate::with_game;

fn limit(name: &str, v: Option<i64>, max: i64) -> PyResult<Option<u64>> {
    match v {
        None => Ok(None),
        Some(n) if (1..=max).contains(&n) => Ok(Some(n as u64)),
        Some(n) => Err(PyValueError::new_err(format!(
            "{name} must be from 1 to {max} (or None), got {n}"
        ))),
    }
}

/// Runs `agent`'s search on `g` (a decision node) and returns the result
/// as a dict; KeyboardInterrupt when Ctrl-C stopped it.
pub(crate) fn search_dict<'py>(
    py: Python<'py>,
    agent: &mut Agent,
    rng: &mut GameRng,
    g: &AnyGame,
    limits: (Option<i64>, Option<i64>, Option<i64>),
) -> PyResult<Bound<'py, PyDict>> {
    if !matches!(agent.spec(), AgentSpec::Search(_)) {
        return Err(PyValueError::new_err(format!(
            "Agent.search needs a \"search[:...]\" agent, not {:?}",
            agent.spec().to_string()
        )));
    }
    let nodes = limit("nodes", limits.0, 1 << 40)?;
    let ms = limit("ms", limits.1, 86_400_000)?;
    let depth = limit("depth", limits.2, MAX_DEPTH as i64)?.map(|d| d as u32);
    let out = interrupt::detach(py, || {
        with_game!(g, x => {
            let r = agent.search_info(x, rng, (nodes, ms, depth), None)?;
            let mut s = x.clone();
            let mut pv = Vec::new();
            for &m in &r.pv {
                let action = s.layout().encode(m, s.position().turn());
                pv.push((action, s.san(m)));
                s.play(m);
            }
            let best = (x.layout().encode(r.best, x.position().turn()), x.san(r.best));
            Some((best, r.value, r.depth, r.nodes, pv, r.stopped))
        })
    })?;
    let Some((best, value, depth, nodes, pv, stopped)) = out else {
        return Err(PyValueError::new_err("not a search agent"));
    };
    let d = PyDict::new(py);
    d.set_item("action", best.0)?;
    d.set_item("move", best.1)?;
    d.set_item("value", value)?;
    d.set_item("depth", depth)?;
    d.set_item("nodes", nodes)?;
    d.set_item("pv", pv.iter().map(|x| x.1.clone()).collect::<Vec<_>>())?;
    d.set_item("pv_actions", pv.iter().map(|x| x.0).collect::<Vec<_>>())?;
    d.set_item("stopped", stopped)?;
    Ok(d)
}
