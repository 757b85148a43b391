//! Playouts where a player may be a Python callable `state -> action` (the
//! slow path of `dicechess.playouts`/`arena`): games run one at a time with
//! the GIL held, since every decision of a callable is a Python call. Dice
//! and the built-in agents draw from `game_rng(seed, i)` exactly as in the
//! Rust playouts, so a run is reproducible when the callables are.

use numpy::{PyArray1, PyArray2, PyArray4, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{type_name, value_error, PyState};
use crate::agents::{Agent, AgentSpec};
use crate::sim::playouts::{record, GameRecord};
use crate::sim::{game_rng, sample_outcome};
use crate::variants::{api, Game, Node, Outcomes};
use crate::with_game;

/// Who decides for one player.
enum Decider<'py> {
    Builtin(Box<Agent>),
    Callable(Bound<'py, PyAny>),
}

/// What happens next in a game.
enum Step {
    Over,
    Chance(u32),
    Decide(usize),
}

/// A batch's observations and masks as numpy arrays.
pub(crate) type BatchArrays<'py> = (Bound<'py, PyArray4<f32>>, Bound<'py, PyArray2<bool>>);

/// `obs` and `mask` of `n` positions as the numpy arrays a batched Python
/// callable receives: float32 `(n, *obs_shape)` and bool `(n, num_actions)`.
pub(crate) fn batch_arrays<'py>(
    py: Python<'py>,
    obs: &[f32],
    mask: &[bool],
    n: usize,
    obs_shape: [usize; 3],
    num_actions: usize,
) -> PyResult<BatchArrays<'py>> {
    let [c, h, w] = obs_shape;
    let obs = PyArray1::from_slice(py, obs).reshape([n, c, h, w])?;
    let mask = PyArray1::from_slice(py, mask).reshape([n, num_actions])?;
    Ok((obs, mask))
}

fn decider<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Decider<'py>> {
    if let Ok(s) = obj.extract::<String>() {
        return Ok(Decider::Builtin(Box::new(Agent::new(
            AgentSpec::parse(&s).map_err(value_error)?,
        ))));
    }
    if obj.is_callable() {
        return Ok(Decider::Callable(obj.clone()));
    }
    Err(PyTypeError::new_err(format!(
        "an agent must be a spec string or a callable state -> action, got {}",
        type_name(obj)
    )))
}

fn play_one<'py>(
    py: Python<'py>,
    proto: &PyState,
    deciders: &mut [Decider<'py>; 2],
    seed: u64,
    index: u64,
) -> PyResult<GameRecord> {
    let mut rng = game_rng(seed, index);
    let mut st = proto.clone();
    let mut outcomes = Outcomes::new();
    let (mut plies, mut chance_events) = (0u32, 0u32);
    loop {
        if crate::interrupt::requested() {
            return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
                "interrupted",
            ));
        }
        let step = with_game!(&st.game, g => match g.node() {
            Node::Terminal => Step::Over,
            Node::Chance => Step::Chance(sample_outcome(g, &mut rng, &mut outcomes)),
            Node::Decision(p) => Step::Decide(p as usize & 1),
        });
        let action = match step {
            Step::Over => break,
            Step::Chance(o) => {
                chance_events += 1;
                o
            }
            Step::Decide(p) => {
                plies += 1;
                match &mut deciders[p] {
                    Decider::Builtin(agent) => with_game!(&st.game, g => {
                        let m = agent.select(g, &mut rng);
                        g.layout().encode(m, g.position().turn())
                    }),
                    Decider::Callable(f) => {
                        let out = f.call1((st.clone(),))?;
                        let a: i64 = out.extract().map_err(|_| {
                            PyTypeError::new_err(format!(
                                "the agent of player {p} must return an int action, got {}",
                                type_name(&out)
                            ))
                        })?;
                        u32::try_from(a).map_err(|_| {
                            PyValueError::new_err(format!(
                                "the agent of player {p} returned action {a}, not a legal action id"
                            ))
                        })?
                    }
                }
            }
        };
        with_game!(&mut st.game, g => api::apply_action(g, action)).map_err(|e| {
            PyValueError::new_err(format!(
                "game {index}: the agent's action was refused: {}",
                e.0
            ))
        })?;
        st.history.push(action);
        // Long games with slow callables stay interruptible (Ctrl-C).
        if plies % 64 == 0 {
            py.check_signals()?;
        }
    }
    Ok(with_game!(&st.game, g => record(g, plies, chance_events)))
}

/// Plays games `start .. start+count` of a run where either agent may be a
/// Python callable `state -> action` (it gets a copy of the state); spec
/// strings are the built-in agents. Sequential, GIL held.
#[pyfunction]
#[pyo3(signature = (variant, agents, seed, start, count, **options))]
pub(crate) fn _playouts_callable<'py>(
    py: Python<'py>,
    variant: &str,
    agents: (Bound<'py, PyAny>, Bound<'py, PyAny>),
    seed: super::args::Seed,
    start: super::args::Start,
    count: super::args::Count,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (seed, start, count) = (seed.0, start.0, count.0);
    let mut deciders = [decider(&agents.0)?, decider(&agents.1)?];
    let proto = PyState::create(variant, options)?;
    super::check_batch(count)?;
    let mut recs = Vec::with_capacity(count.min(1 << 16) as usize);
    // Built-in agents' searches stay interruptible although the GIL is held.
    let run = super::interrupt::attached(|| {
        for k in 0..count {
            recs.push(play_one(py, &proto, &mut deciders, seed, start + k)?);
        }
        Ok(())
    });
    match run {
        Ok(()) => super::records_to_dict(py, &recs),
        // Ctrl-C (or KeyboardInterrupt from a callable) keeps the games
        // finished before it; the game it cut is not among them.
        Err(e) => Err(super::interrupt::keep_partial(
            py,
            e,
            super::records_to_dict(py, &recs)?.as_any(),
        )),
    }
}
