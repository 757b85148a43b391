//! Bindings of the network-guided search (`agents::zero`): the network is a
//! Python callable `evaluate(obs, mask) -> (logits, value)`, called once
//! per batch with the GIL held; the searches run with it released.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::{PyKeyboardInterrupt, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::time::Instant;

use super::{new_game, set_array, type_name, value_error, PyState};
use crate::agents::zero::selfplay::{self, Config, Seat};
use crate::agents::zero::{search_all, Batch, Params};
use crate::agents::AgentSpec;
use crate::play::game_rng;
use crate::variants::{api, Game, Node};
use crate::with_game;

/// What the evaluator must return, for error messages.
fn expected(b: &Batch) -> String {
    format!(
        "evaluate(obs, mask) must return (logits, value): logits a float32 or float64 \
         numpy array of shape ({n}, {a}) and value one of shape ({n},) or ({n}, 1)",
        n = b.n,
        a = b.actions
    )
}

/// Reads `obj`, a float32 or float64 numpy array of one of `shapes`, into
/// `out` (row-major).
fn read_floats(
    obj: &Bound<'_, PyAny>,
    shapes: &[&[usize]],
    out: &mut Vec<f32>,
    what: &str,
    b: &Batch,
) -> PyResult<()> {
    // One path per dtype: a dynamic-rank array covers (n,), (n, 1) and (n, a);
    // other ranks are the TypeError below, as before.
    let ranked = |n: usize| n == 1 || n == 2;
    let shape = if let Some(x) = obj
        .extract::<PyReadonlyArrayDyn<f32>>()
        .ok()
        .filter(|x| ranked(x.ndim()))
    {
        if shapes.contains(&x.shape()) {
            out.extend(x.as_array().iter().copied());
            return Ok(());
        }
        x.shape().to_vec()
    } else if let Some(x) = obj
        .extract::<PyReadonlyArrayDyn<f64>>()
        .ok()
        .filter(|x| ranked(x.ndim()))
    {
        if shapes.contains(&x.shape()) {
            out.extend(x.as_array().iter().map(|&v| v as f32));
            return Ok(());
        }
        x.shape().to_vec()
    } else {
        Vec::new()
    };
    if !shape.is_empty() {
        return Err(bad_shape(what, &shape, b));
    }
    let dtype = obj
        .getattr("dtype")
        .map(|d| format!(" of dtype {d}"))
        .unwrap_or_default();
    Err(PyTypeError::new_err(format!(
        "{}; its {what} is a {}{dtype}",
        expected(b),
        type_name(obj)
    )))
}

fn bad_shape(what: &str, shape: &[usize], b: &Batch) -> PyErr {
    PyValueError::new_err(format!("{}; its {what} has shape {shape:?}", expected(b)))
}

/// Calls `f` on the batch's leaves and stores its answers in the batch.
fn call_network(
    py: Python<'_>,
    f: &Py<PyAny>,
    b: &mut Batch,
    obs_shape: [usize; 3],
) -> PyResult<()> {
    let (obs, mask) =
        super::callables::batch_arrays(py, &b.obs, &b.mask, b.n, obs_shape, b.actions)?;
    let ret = f.bind(py).call1((obs, mask))?;
    let pair = ret
        .cast::<PyTuple>()
        .ok()
        .filter(|t| t.len() == 2)
        .ok_or_else(|| {
            PyTypeError::new_err(format!(
                "{}; it returned a {}",
                expected(b),
                type_name(&ret)
            ))
        })?;
    let (n, a) = (b.n, b.actions);
    let mut logits = std::mem::take(&mut b.logits);
    let mut values = std::mem::take(&mut b.values);
    logits.clear();
    values.clear();
    let r = read_floats(&pair.get_item(0)?, &[&[n, a]], &mut logits, "logits", b).and_then(|_| {
        read_floats(
            &pair.get_item(1)?,
            &[&[n], &[n, 1]],
            &mut values,
            "value",
            b,
        )
    });
    b.logits = logits;
    b.values = values;
    r?;
    b.check_answers()
        .map_err(|e| PyValueError::new_err(format!("evaluate returned bad numbers: {e}")))
}

fn seat(obj: &Bound<'_, PyAny>, networks: usize) -> PyResult<Seat> {
    if let Ok(s) = obj.extract::<String>() {
        return Ok(Seat::Agent(AgentSpec::parse(&s).map_err(value_error)?));
    }
    match obj.extract::<usize>() {
        Ok(k) if k < networks => Ok(Seat::Net(k)),
        _ => Err(PyValueError::new_err(format!(
            "a seat is an evaluator index (0..{networks}) or a built-in agent spec string, got {obj}"
        ))),
    }
}

#[allow(clippy::too_many_arguments)]
fn params(
    sims: u32,
    c_puct: f64,
    leaves_per_tree: u32,
    dirichlet_alpha: f64,
    dirichlet_frac: f64,
    gumbel_m: u32,
    c_visit: f64,
    c_scale: f64,
) -> PyResult<Params> {
    let p = Params {
        sims,
        c_puct,
        leaves_per_tree,
        dirichlet_alpha,
        dirichlet_frac,
        gumbel_m,
        c_visit,
        c_scale,
    };
    p.validate().map_err(PyValueError::new_err)?;
    Ok(p)
}

/// Plays games `start .. start + games` of `variant` with `seats[s]` (an
/// evaluator index or an agent spec) in seat `s`, the network seats
/// searching with `evaluators[k]` (`net_sims[k]` simulations a decision
/// when given, else `sims`). Returns the finished games and, with
/// `record`, a training sample per network decision; with `value_chance=k`
/// every chance event is valued by evaluator `k` (the games' `luck_sum`
/// for player 0 and `n_rolls`).
#[pyfunction]
#[pyo3(signature = (variant, evaluators, seats, games, *, start = 0, parallel = 64, seed = 0,
    sims = 200, c_puct = 1.25, leaves_per_tree = 1, dirichlet_alpha = 0.0, dirichlet_frac = 0.25,
    gumbel_m = 0, c_visit = 50.0, c_scale = 1.0, temperature_plies = 0, opening_plies = 0,
    paired = false, record = false, progress = None, options = None, net_sims = None,
    value_chance = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _zero_play<'py>(
    py: Python<'py>,
    variant: &str,
    evaluators: &Bound<'py, PyList>,
    seats: (Bound<'py, PyAny>, Bound<'py, PyAny>),
    games: u64,
    start: u64,
    parallel: usize,
    seed: u64,
    sims: u32,
    c_puct: f64,
    leaves_per_tree: u32,
    dirichlet_alpha: f64,
    dirichlet_frac: f64,
    gumbel_m: u32,
    c_visit: f64,
    c_scale: f64,
    temperature_plies: u32,
    opening_plies: u32,
    paired: bool,
    record: bool,
    progress: Option<Py<PyAny>>,
    options: Option<&Bound<'py, PyDict>>,
    net_sims: Option<Vec<u32>>,
    value_chance: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let proto = new_game(variant, options)?;
    let nets: Vec<Py<PyAny>> = evaluators.iter().map(|e| e.unbind()).collect();
    for (k, e) in nets.iter().enumerate() {
        if !e.bind(py).is_callable() {
            return Err(PyTypeError::new_err(format!(
                "evaluators[{k}] must be a callable evaluate(obs, mask) -> (logits, value)"
            )));
        }
    }
    if !(1..=65_536).contains(&parallel) {
        return Err(PyValueError::new_err(format!(
            "parallel must be 1..=65536, got {parallel}"
        )));
    }
    super::check_batch(games)?;
    if let Some(k) = value_chance.filter(|&k| k >= nets.len()) {
        return Err(PyValueError::new_err(format!(
            "value_chance must be an evaluator index (0..{}), got {k}",
            nets.len()
        )));
    }
    let params = |sims| {
        params(
            sims,
            c_puct,
            leaves_per_tree,
            dirichlet_alpha,
            dirichlet_frac,
            gumbel_m,
            c_visit,
            c_scale,
        )
    };
    let net_params = match net_sims {
        Some(v) if v.len() != nets.len() => {
            return Err(PyValueError::new_err(format!(
                "net_sims must give one simulation budget per evaluator ({}), got {}",
                nets.len(),
                v.len()
            )))
        }
        Some(v) => v.into_iter().map(params).collect::<PyResult<Vec<_>>>()?,
        None => Vec::new(),
    };
    let cfg = Config {
        params: params(sims)?,
        net_params,
        value_chance,
        games,
        start,
        parallel,
        seed,
        temperature_plies,
        opening_plies,
        paired,
        record,
        seats: [seat(&seats.0, nets.len())?, seat(&seats.1, nets.len())?],
    };
    let shape = with_game!(&proto, g => api::observation_shape(g));
    let t0 = Instant::now();
    let mut eval_seconds = 0.0;
    let (out, err) = py.detach(|| {
        with_game!(&proto, g => selfplay::play(
            g,
            &cfg,
            nets.len(),
            |k, b| Python::attach(|py| {
                let t = Instant::now();
                let r = call_network(py, &nets[k], b, shape);
                eval_seconds += t.elapsed().as_secs_f64();
                r
            }),
            |o| Python::attach(|py| {
                py.check_signals()?;
                if let Some(f) = &progress {
                    f.bind(py).call1((o.games.len(), o.samples()))?;
                }
                Ok(true)
            }),
        ))
    });
    if let Some(e) = err {
        if !e.is_instance_of::<PyKeyboardInterrupt>(py) {
            return Err(e);
        }
    }
    let d = PyDict::new(py);
    let n = out.samples();
    let obs = PyArray1::from_vec(py, out.obs).reshape([n, shape[0], shape[1], shape[2]])?;
    d.set_item("obs", obs)?;
    let actions = with_game!(&proto, g => g.layout().num_actions());
    d.set_item(
        "policy",
        PyArray1::from_vec(py, out.policy).reshape([n, actions])?,
    )?;
    set_array(&d, "z", out.z)?;
    set_array(&d, "root_value", out.root_value)?;
    set_array(&d, "player", out.player)?;
    set_array(&d, "game", out.game)?;
    let g = PyDict::new(py);
    set_array(&g, "index", out.games.iter().map(|x| x.index))?;
    set_array(
        &g,
        "seat_of_player0",
        out.games.iter().map(|x| x.seat_of_player0),
    )?;
    set_array(&g, "return0", out.games.iter().map(|x| x.return0))?;
    if cfg.value_chance.is_some() {
        set_array(&g, "luck_sum", out.games.iter().map(|x| x.luck0))?;
        set_array(&g, "n_rolls", out.games.iter().map(|x| x.valued))?;
    }
    set_array(&g, "winner", out.games.iter().map(|x| x.record.winner))?;
    set_array(&g, "plies", out.games.iter().map(|x| x.record.plies))?;
    set_array(
        &g,
        "chance_events",
        out.games.iter().map(|x| x.record.chance_events),
    )?;
    set_array(
        &g,
        "termination",
        out.games.iter().map(|x| x.record.termination as i8),
    )?;
    d.set_item("games", g)?;
    d.set_item("leaves", out.leaves)?;
    d.set_item("batches", out.batches)?;
    d.set_item("interrupted", out.interrupted)?;
    d.set_item("seconds", t0.elapsed().as_secs_f64())?;
    d.set_item("eval_seconds", eval_seconds)?;
    Ok(d)
}

/// `_zero_search`'s answer: action, value, legal actions, policy.
type SearchResult<'py> = (
    u32,
    f64,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<f64>>,
);

/// One search from `state` (a decision node) guided by `evaluate`:
/// returns `(action, value, actions, policy)`: the decision's action id,
/// the root's value for the player deciding, and the improved policy over
/// the legal actions.
#[pyfunction]
#[pyo3(signature = (state, evaluate, *, seed = 0, sims = 200, c_puct = 1.25, leaves_per_tree = 8,
    gumbel_m = 0, c_visit = 50.0, c_scale = 1.0, temperature = 0.0))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _zero_search<'py>(
    py: Python<'py>,
    state: &PyState,
    evaluate: Py<PyAny>,
    seed: u64,
    sims: u32,
    c_puct: f64,
    leaves_per_tree: u32,
    gumbel_m: u32,
    c_visit: f64,
    c_scale: f64,
    temperature: f64,
) -> PyResult<SearchResult<'py>> {
    if !evaluate.bind(py).is_callable() {
        return Err(PyTypeError::new_err(
            "evaluate must be a callable evaluate(obs, mask) -> (logits, value)",
        ));
    }
    if !(temperature.is_finite() && temperature >= 0.0) {
        return Err(PyValueError::new_err(format!(
            "temperature must be >= 0, got {temperature}"
        )));
    }
    let params = params(
        sims,
        c_puct,
        leaves_per_tree,
        0.0,
        0.25,
        gumbel_m,
        c_visit,
        c_scale,
    )?;
    let game = state.game.clone();
    with_game!(&game, g => {
        let Node::Decision(p) = g.node() else {
            return Err(PyValueError::new_err("the state is not a decision node (a chance node or a finished game)"));
        };
        let shape = api::observation_shape(g);
        let mut batch = Batch::new(shape.iter().product(), g.layout().num_actions());
        let mut rngs = vec![game_rng(seed, 0)];
        let root = g.clone();
        let (trees, err) = py.detach(|| {
            match search_all(vec![root], &params, &mut rngs, &mut batch, |b| {
                Python::attach(|py| {
                    py.check_signals()?;
                    call_network(py, &evaluate, b, shape)
                })
            }) {
                Ok(t) => (t, None),
                Err(e) => (Vec::new(), Some(e)),
            }
        });
        if let Some(e) = err {
            return Err(e);
        }
        let tree = &trees[0];
        let m = tree.choose(&params, temperature, &mut rngs[0]);
        let action = g.layout().encode(m, g.position().turn());
        let children = tree.root_children();
        let pi = tree.improved_policy(&params);
        let value = if p == 0 { tree.root_value() } else { -tree.root_value() };
        Ok((
            action,
            value,
            PyArray1::from_iter(py, children.iter().map(|c| c.1)),
            PyArray1::from_vec(py, pi),
        ))
    })
}
