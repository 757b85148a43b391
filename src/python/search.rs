//! `Agent.search` and `Agent.search_rolls`: budgeted searches with their
//! full results, interruptible with Ctrl-C (the search checks the shared
//! interrupt token every thousand nodes, see [`crate::interrupt`], while the
//! GIL is released).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};
use std::time::Instant;

use super::args::budget;
use super::interrupt;
use crate::agents::search::params::MAX_DEPTH;
use crate::agents::search::{OnIteration, SearchResult};
use crate::agents::{Agent, AgentSpec};
use crate::sim::GameRng;
use crate::variants::{Action, AnyGame, Game};
use crate::with_game;

type Limits = (Option<u64>, Option<u64>, Option<u32>);

/// The budgets a call passes (nodes, ms, depth), unchecked.
pub(crate) type Given<'a, 'py> = (
    Option<&'a Bound<'py, PyAny>>,
    Option<&'a Bound<'py, PyAny>>,
    Option<&'a Bound<'py, PyAny>>,
);

/// The checked budgets (nodes, ms, depth) of a call.
fn limits(agent: &Agent, method: &str, given: Given<'_, '_>) -> PyResult<Limits> {
    if !matches!(agent.spec(), AgentSpec::Search(_)) {
        return Err(PyValueError::new_err(format!(
            "Agent.{method} needs a \"search[:...]\" agent, not {:?}",
            agent.spec().to_string()
        )));
    }
    let nodes = budget(given.0, "nodes", 1 << 40)?;
    let ms = budget(given.1, "ms", 86_400_000)?;
    let depth = budget(given.2, "depth", MAX_DEPTH as u64)?.map(|d| d as u32);
    Ok((nodes, ms, depth))
}

/// A search result in the notation of the state it started from.
struct Described {
    best: (Action, String),
    value: f64,
    depth: u32,
    nodes: u64,
    pv: Vec<(Action, String)>,
    stopped: bool,
}

fn describe<G: Game>(x: &G, r: &SearchResult) -> Described {
    let mut s = x.clone();
    let mut pv = Vec::new();
    for &m in &r.pv {
        let action = s.layout().encode(m, s.position().turn());
        pv.push((action, s.san(m)));
        s.play(m);
    }
    Described {
        best: (
            x.layout().encode(r.best, x.position().turn()),
            x.san(r.best),
        ),
        value: r.value,
        depth: r.depth,
        nodes: r.nodes,
        pv,
        stopped: r.stopped,
    }
}

/// The search's items of a result dict.
fn set_search(d: &Bound<'_, PyDict>, r: &Described) -> PyResult<()> {
    d.set_item("action", r.best.0)?;
    d.set_item("move", r.best.1.clone())?;
    d.set_item("value", r.value)?;
    d.set_item("depth", r.depth)?;
    d.set_item("nodes", r.nodes)?;
    d.set_item("pv", r.pv.iter().map(|x| x.1.clone()).collect::<Vec<_>>())?;
    d.set_item("pv_actions", r.pv.iter().map(|x| x.0).collect::<Vec<_>>())?;
    d.set_item("stopped", r.stopped)?;
    Ok(())
}

/// Runs `agent`'s search on `g` (a decision node) and returns the result
/// as a dict; KeyboardInterrupt when Ctrl-C stopped it. `info(dict)` is
/// called (with the GIL) after each completed iteration with the result so
/// far and the seconds `elapsed`; an exception it raises stops the search
/// and propagates.
pub(crate) fn search_dict<'py>(
    py: Python<'py>,
    agent: &mut Agent,
    rng: &mut GameRng,
    g: &AnyGame,
    given: Given<'_, 'py>,
    info: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let lim = limits(agent, "search", given)?;
    let start = Instant::now();
    let mut raised: Option<PyErr> = None;
    let out = interrupt::detach(py, || {
        with_game!(g, x => {
            let mut report = |r: &SearchResult| -> bool {
                let Some(f) = &info else { return true };
                let so_far = describe(x, r);
                let called = Python::attach(|py| {
                    let d = PyDict::new(py);
                    set_search(&d, &so_far)?;
                    d.del_item("stopped")?;
                    d.set_item("elapsed", start.elapsed().as_secs_f64())?;
                    f.call1(py, (d,))
                });
                called.map_err(|e| raised = Some(e)).is_ok()
            };
            let on_iteration: Option<OnIteration<'_>> = match info {
                Some(_) => Some(&mut report),
                None => None,
            };
            agent
                .search_info(x, rng, lim, None, on_iteration)
                .map(|r| describe(x, &r))
        })
    })?;
    if let Some(e) = raised {
        return Err(e);
    }
    let Some(r) = out else {
        return Err(PyValueError::new_err("not a search agent"));
    };
    let d = PyDict::new(py);
    set_search(&d, &r)?;
    Ok(d)
}

/// How `search_rolls` shows its progress.
pub(crate) enum Progress {
    Off,
    /// `progress(done, total)` after each roll.
    Call(Py<PyAny>),
    /// A tqdm bar (`tqdm.auto`: Jupyter and terminals), one step a roll.
    Bar(Py<PyAny>),
}

impl Progress {
    /// `progress` as given to `search_rolls`: None or False (off), True (a
    /// bar over `total` rolls) or a callable.
    pub(crate) fn new(
        py: Python<'_>,
        progress: Option<&Bound<'_, PyAny>>,
        total: usize,
    ) -> PyResult<Progress> {
        let Some(p) = progress.filter(|p| !p.is_none()) else {
            return Ok(Progress::Off);
        };
        if p.is_instance_of::<PyBool>() {
            if !p.is_truthy()? {
                return Ok(Progress::Off);
            }
            let kwargs = PyDict::new(py);
            kwargs.set_item("total", total)?;
            kwargs.set_item("unit", "roll")?;
            kwargs.set_item("leave", false)?;
            let tqdm = py.import("tqdm.auto")?.getattr("tqdm")?;
            return Ok(Progress::Bar(tqdm.call((), Some(&kwargs))?.unbind()));
        }
        if !p.is_callable() {
            return Err(PyTypeError::new_err(format!(
                "progress must be True, False, None or a callable progress(done, total), got {}",
                super::type_name(p)
            )));
        }
        Ok(Progress::Call(p.clone().unbind()))
    }
}

/// One roll of a chance root, described.
struct Roll {
    outcome: Action,
    name: String,
    probability: f64,
    value: f64,
    nodes: u64,
    search: Option<Described>,
}

/// Runs `agent`'s search on every roll of the chance node `g` (GIL
/// released while a roll is searched; `progress(done, total)` called with
/// it after each) and returns the analysis as a dict; KeyboardInterrupt
/// when Ctrl-C stopped it, the callback's exception when it raised.
pub(crate) fn search_rolls_dict<'py>(
    py: Python<'py>,
    agent: &mut Agent,
    rng: &mut GameRng,
    g: &AnyGame,
    given: Given<'_, 'py>,
    progress: Progress,
) -> PyResult<Bound<'py, PyDict>> {
    let lim = limits(agent, "search_rolls", given)?;
    let mut raised: Option<PyErr> = None;
    let out = interrupt::detach(py, || {
        let each = |done: usize, total: usize| {
            let called = match &progress {
                Progress::Off => return true,
                Progress::Call(f) => Python::attach(|py| f.call1(py, (done, total)).map(drop)),
                Progress::Bar(bar) => {
                    Python::attach(|py| bar.call_method1(py, "update", (1,)).map(drop))
                }
            };
            called.map_err(|e| raised = Some(e)).is_ok()
        };
        with_game!(g, x => agent.search_rolls(x, rng, lim, each).map(|c| {
            let rolls: Vec<Roll> = c
                .rolls
                .iter()
                .map(|r| {
                    let mut child = x.clone();
                    child.apply_outcome(r.outcome);
                    Roll {
                        outcome: r.outcome,
                        name: x.outcome_name(r.outcome),
                        probability: r.probability,
                        value: r.value,
                        nodes: r.nodes,
                        search: r.search.as_ref().map(|s| describe(&child, s)),
                    }
                })
                .collect();
            (c.roller, c.value, c.nodes, c.stopped, rolls)
        }))
    });
    // The bar goes also when Ctrl-C stopped the analysis.
    if let Progress::Bar(bar) = &progress {
        bar.call_method0(py, "close")?;
    }
    let out = out?;
    if let Some(e) = raised {
        return Err(e);
    }
    let Some((roller, value, nodes, stopped, rolls)) = out else {
        return Err(PyValueError::new_err("not a search agent"));
    };
    let d = PyDict::new(py);
    d.set_item("player", roller)?;
    d.set_item("value", value)?;
    d.set_item("nodes", nodes)?;
    d.set_item("stopped", stopped)?;
    let mut items = Vec::with_capacity(rolls.len());
    for r in &rolls {
        let e = PyDict::new(py);
        e.set_item("outcome", r.outcome)?;
        e.set_item("roll", r.name.clone())?;
        e.set_item("probability", r.probability)?;
        match &r.search {
            Some(s) => set_search(&e, s)?,
            None => {
                for key in ["action", "move", "depth"] {
                    e.set_item(key, py.None())?;
                }
                e.set_item("pv", Vec::<String>::new())?;
                e.set_item("pv_actions", Vec::<Action>::new())?;
                e.set_item("stopped", false)?;
            }
        }
        // The roller's value (a later roll's decider may be the other
        // player), and the nodes of the next roll's searches too.
        e.set_item("value", r.value)?;
        e.set_item("nodes", r.nodes)?;
        items.push(e);
    }
    d.set_item("rolls", items)?;
    Ok(d)
}
