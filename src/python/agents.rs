//! `dicechess.Agent` and agent playouts: thin wrappers over
//! [`crate::agents`]; searches run with the GIL released.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{interrupt, set_array, type_name, value_error, PyState};
use crate::agents::{Agent, AgentSpec, VALID_SPECS};
use crate::sim::luck::Valuer;
use crate::sim::{game_rng, GameRng};
use crate::variants::{AnyGame, Game, Node};
use crate::with_game;

pub(super) fn parse_spec(spec: &Bound<'_, PyAny>) -> PyResult<AgentSpec> {
    let s: String = spec.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "an agent spec must be a string, got {}; valid specs: {VALID_SPECS}",
            type_name(spec)
        ))
    })?;
    let spec = AgentSpec::parse(&s).map_err(value_error)?;
    // A table that cannot be allocated would abort the process mid-search.
    super::memory::check_agent(&spec, 1)?;
    Ok(spec)
}

/// A Rust agent: `Agent(spec, seed=0)` with `select(state)` and
/// `policy(state)`. Its randomness comes from its own generator seeded
/// with `seed` (same seed and same calls give the same decisions).
#[pyclass(module = "dicechess._core", name = "Agent")]
pub struct PyAgent {
    agent: Agent,
    rng: GameRng,
    seed: u64,
}

/// How to go on from a chance node, for an agent that decides.
const SAMPLE_AN_OUTCOME: &str = "sample an outcome from state.chance_outcomes()";

/// ValueError unless `g` is a decision node; at a chance node the message
/// ends with `at_chance`, the way on.
fn check_decision(g: &AnyGame, at_chance: &str) -> PyResult<()> {
    match with_game!(g, x => x.node()) {
        Node::Decision(_) => Ok(()),
        Node::Chance => Err(PyValueError::new_err(format!(
            "an agent decides only at decision nodes; this state is a chance node ({at_chance})"
        ))),
        Node::Terminal => Err(PyValueError::new_err(
            "an agent decides only at decision nodes; the game is over",
        )),
    }
}

/// TypeError unless `f` is None or callable.
fn check_callable(py: Python<'_>, name: &str, call: &str, f: Option<&Py<PyAny>>) -> PyResult<()> {
    match f {
        Some(f) if !f.bind(py).is_callable() => Err(PyTypeError::new_err(format!(
            "{name} must be a callable {call} or None, got {}",
            type_name(f.bind(py))
        ))),
        _ => Ok(()),
    }
}

/// The agent for one call: an Agent decides for one caller at a time.
fn borrow<'py>(slf: &Bound<'py, PyAgent>) -> PyResult<PyRefMut<'py, PyAgent>> {
    slf.try_borrow_mut().map_err(|_| {
        PyValueError::new_err(
            "this Agent is busy in another thread: an Agent decides for one caller at a \
             time; create one Agent per thread (the same spec and seed give the same decisions)",
        )
    })
}

#[pymethods]
impl PyAgent {
    #[new]
    #[pyo3(signature = (spec, seed = super::args::Seed(0)), text_signature = "(spec, seed=0)")]
    fn new(spec: &Bound<'_, PyAny>, seed: super::args::Seed) -> PyResult<Self> {
        let seed = seed.0;
        let spec = parse_spec(spec)?;
        Ok(PyAgent {
            agent: Agent::new(spec),
            rng: game_rng(seed, 0),
            seed,
        })
    }

    /// The canonical spec string.
    #[getter]
    fn spec(&self) -> String {
        self.agent.spec().to_string()
    }

    /// The seed this agent was created with.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The chosen action id at a decision node of `state` (GIL released).
    fn select(slf: &Bound<'_, Self>, state: &PyState) -> PyResult<u32> {
        let (py, mut this) = (slf.py(), borrow(slf)?);
        let g = state.game.clone();
        check_decision(&g, SAMPLE_AN_OUTCOME)?;
        let this = &mut *this;
        let (agent, rng) = (&mut this.agent, &mut this.rng);
        interrupt::detach(py, move || {
            with_game!(&g, x => {
                let m = agent.select(x, rng);
                x.layout().encode(m, x.position().turn())
            })
        })
    }

    /// `{action: probability}` over the legal actions at a decision node
    /// (GIL released): uniform for `random`, one-hot on the chosen action
    /// for `greedy`/`expectimax`, the root visit distribution for `mcts`.
    fn policy(slf: &Bound<'_, Self>, state: &PyState) -> PyResult<Vec<(u32, f64)>> {
        let (py, mut this) = (slf.py(), borrow(slf)?);
        let g = state.game.clone();
        check_decision(&g, SAMPLE_AN_OUTCOME)?;
        let this = &mut *this;
        let (agent, rng) = (&mut this.agent, &mut this.rng);
        interrupt::detach(py, move || {
            with_game!(&g, x => {
                let (layout, turn) = (x.layout(), x.position().turn());
                agent
                    .policy(x, rng)
                    .into_iter()
                    .map(|(m, p)| (layout.encode(m, turn), p))
                    .collect()
            })
        })
    }

    /// The expectimax value of `state` for player 0 in [-1, 1] at the
    /// agent's depth or `depth` (1..=8), GIL released: exact at terminal
    /// states, the exact expectation over the outcomes at chance nodes.
    /// Only `greedy` (depth 1) and `expectimax` agents value states.
    #[pyo3(signature = (state, depth = None))]
    fn value(
        slf: &Bound<'_, Self>,
        state: &PyState,
        depth: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<f64> {
        let (py, mut this) = (slf.py(), borrow(slf)?);
        if this.agent.search_depth().is_none() {
            return Err(PyValueError::new_err(format!(
                "Agent.value needs a \"greedy\" or \"expectimax:depth=N\" agent; \
                 {:?} does not value states",
                this.agent.spec().to_string()
            )));
        }
        let depth = depth
            .filter(|d| !d.is_none())
            .map(|d| {
                let note = " (or None for the agent's own)";
                super::args::int_in(d, "depth", 1, MAX_VALUE_DEPTH as i128, note)
            })
            .transpose()?
            .map(|d| d as u32);
        let g = state.game.clone();
        let agent = &mut this.agent;
        interrupt::detach(py, move || {
            with_game!(&g, x => agent.value(x, depth)).unwrap_or(0.0)
        })
    }

    /// One search of a `search` agent at a decision node (GIL released,
    /// Ctrl-C raises KeyboardInterrupt): a dict with `action`, `move`
    /// (SAN), `value` (centipawns for the player deciding; a win found
    /// `n` plies ahead is 100000 - n), `depth` (deepest completed
    /// iteration), `nodes`, `pv` (SAN) and `pv_actions`, and `stopped`.
    /// `nodes`, `ms` and `depth` replace the spec's budgets when any is given.
    /// `info(dict)` is called after each completed iteration with the
    /// result so far and the seconds `elapsed`.
    #[pyo3(signature = (state, nodes = None, ms = None, depth = None, info = None))]
    fn search<'py>(
        &mut self,
        py: Python<'py>,
        state: &PyState,
        nodes: Option<Bound<'py, PyAny>>,
        ms: Option<Bound<'py, PyAny>>,
        depth: Option<Bound<'py, PyAny>>,
        info: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let g = state.game.clone();
        check_decision(
            &g,
            "Agent.search_rolls searches every roll and takes the expectation",
        )?;
        check_callable(py, "info", "info(dict)", info.as_ref())?;
        super::search::search_dict(
            py,
            &mut self.agent,
            &mut self.rng,
            &g,
            (nodes.as_ref(), ms.as_ref(), depth.as_ref()),
            info,
        )
    }

    /// The analysis of a chance node by a `search` agent: one search per
    /// roll with the budgets given (each roll gets them in full; GIL
    /// released while searching, Ctrl-C raises KeyboardInterrupt) and the
    /// expectation over the rolls. A dict with `player` (the roller: the
    /// values are for this player), `value` (the expectation on the
    /// variant's utility scale, in centipawns), `nodes`, `stopped` and
    /// `rolls`: one dict per outcome with `outcome` (its action id),
    /// `roll` (its name), `probability`, `value`, and the search's
    /// `action`, `move`, `depth`, `nodes`, `pv`, `pv_actions`, `stopped`
    /// (`None` where no decision follows the roll). `progress`: True for a
    /// tqdm bar, or a callable `progress(done, total)` called after each
    /// roll.
    #[pyo3(signature = (state, nodes = None, ms = None, depth = None, progress = None))]
    fn search_rolls<'py>(
        &mut self,
        py: Python<'py>,
        state: &PyState,
        nodes: Option<Bound<'py, PyAny>>,
        ms: Option<Bound<'py, PyAny>>,
        depth: Option<Bound<'py, PyAny>>,
        progress: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let g = state.game.clone();
        match with_game!(&g, x => x.node()) {
            Node::Chance => {}
            Node::Decision(_) => {
                return Err(PyValueError::new_err(
                    "Agent.search_rolls needs a chance node (before a roll); this state is a \
                     decision node (use Agent.search)",
                ))
            }
            Node::Terminal => {
                return Err(PyValueError::new_err(
                    "Agent.search_rolls needs a chance node (before a roll); the game is over",
                ))
            }
        }
        let mut outcomes = crate::variants::Outcomes::new();
        with_game!(&g, x => x.chance_outcomes(&mut outcomes));
        let rolls = outcomes.as_slice().len();
        let progress = super::search::Progress::new(py, progress.as_ref(), rolls)?;
        super::search::search_rolls_dict(
            py,
            &mut self.agent,
            &mut self.rng,
            &g,
            (nodes.as_ref(), ms.as_ref(), depth.as_ref()),
            progress,
        )
    }

    /// Tells the agent a new game starts: a `search` agent with `keep`
    /// no longer uses what its table stored in the previous game (a no-op
    /// for other agents).
    fn new_game(&mut self) {
        self.agent.new_game();
    }

    fn __repr__(&self) -> String {
        format!(
            "Agent({:?}, seed={})",
            self.agent.spec().to_string(),
            self.seed
        )
    }
}

/// The canonical form of an agent spec; ValueError listing the valid specs
/// if it is not one.
#[pyfunction]
fn _agent_spec(spec: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(parse_spec(spec)?.to_string())
}

/// Plays games `start .. start+count` of a run between two agent specs
/// (one chunk of `dicechess.playouts`), the GIL released.
#[pyfunction]
#[pyo3(signature = (variant, agents, seed, start, count, threads = None, **options))]
#[allow(clippy::too_many_arguments)]
fn _playouts<'py>(
    py: Python<'py>,
    variant: &str,
    agents: (Bound<'py, PyAny>, Bound<'py, PyAny>),
    seed: super::args::Seed,
    start: super::args::Start,
    count: super::args::Count,
    threads: Option<super::args::Threads>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let b = super::AgentBatch::new(variant, &agents, seed, start, count, threads, 1, options)?;
    interrupt::detach_keeping(
        py,
        || crate::sim::playouts::playouts(&b.proto, &b.specs, b.seed, b.start, b.count, b.threads),
        |recs| super::records_to_dict(py, &recs),
    )
}

/// Deepest `Agent.value` search (the deepest expectimax spec).
const MAX_VALUE_DEPTH: u32 = 8;
/// Deepest luck evaluator: every roll evaluates every outcome, so deeper
/// searches are too slow for whole games.
const MAX_LUCK_DEPTH: u32 = 4;

/// Plays games `start .. start+count` between two agent specs and measures
/// the luck of every roll with an `expectimax:depth=eval_depth` value, or
/// with the values of the agent spec `evaluator` when given (one chunk of
/// `dicechess.roll_luck`), the GIL released. The game arrays are those of
/// `_playouts`; `per_roll` adds the `roll_*` arrays.
#[pyfunction]
#[pyo3(signature = (variant, agents, eval_depth, seed, start, count, threads = None, per_roll = false, evaluator = None, **options))]
#[allow(clippy::too_many_arguments)]
fn _roll_luck<'py>(
    py: Python<'py>,
    variant: &str,
    agents: (Bound<'py, PyAny>, Bound<'py, PyAny>),
    eval_depth: &Bound<'py, PyAny>,
    seed: super::args::Seed,
    start: super::args::Start,
    count: super::args::Count,
    threads: Option<super::args::Threads>,
    per_roll: bool,
    evaluator: Option<&str>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let b = super::AgentBatch::new(variant, &agents, seed, start, count, threads, 1, options)?;
    let eval_depth = super::args::int_in(eval_depth, "eval_depth", 1, MAX_LUCK_DEPTH as i128, "")?;
    let valuer = match evaluator {
        None => Valuer::Expectimax(eval_depth as u32),
        Some(spec) => {
            let parsed =
                AgentSpec::parse(spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
            let v = Valuer::from_spec(&parsed).map_err(PyValueError::new_err)?;
            if let Valuer::Expectimax(d) = v {
                if d > MAX_LUCK_DEPTH {
                    return Err(PyValueError::new_err(format!(
                        "an expectimax luck evaluator goes to depth {MAX_LUCK_DEPTH} at most, got {d}"
                    )));
                }
            }
            v
        }
    };
    let run = || {
        crate::sim::luck::roll_luck(
            &b.proto, &b.specs, &valuer, b.seed, b.start, b.count, b.threads, per_roll,
        )
    };
    interrupt::detach_keeping(py, run, |(games, rolls)| {
        luck_dict(py, &games, &rolls, per_roll)
    })
}

/// The arrays of a `_roll_luck` run.
fn luck_dict<'py>(
    py: Python<'py>,
    games: &[crate::sim::luck::GameLuck],
    rolls: &crate::sim::luck::RollLuck,
    per_roll: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let recs: Vec<_> = games.iter().map(|g| g.record).collect();
    let d = super::records_to_dict(py, &recs)?;
    set_array(&d, "n_rolls", games.iter().map(|g| g.n_rolls))?;
    set_array(&d, "luck_sum", games.iter().map(|g| g.luck_sum))?;
    set_array(&d, "abs_luck_sum", games.iter().map(|g| g.abs_luck_sum))?;
    set_array(&d, "max_abs_luck", games.iter().map(|g| g.max_abs_luck))?;
    if per_roll {
        set_array(&d, "roll_game", rolls.game.iter().copied())?;
        set_array(&d, "roll_ply", rolls.ply.iter().copied())?;
        set_array(&d, "roll_player", rolls.player.iter().copied())?;
        set_array(&d, "roll_luck", rolls.luck.iter().copied())?;
        set_array(&d, "roll_v_expected", rolls.v_expected.iter().copied())?;
        set_array(&d, "roll_v_actual", rolls.v_actual.iter().copied())?;
    }
    Ok(d)
}

/// Registers the agent classes and functions on the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAgent>()?;
    m.add("AGENT_SPECS", VALID_SPECS)?;
    m.add_function(wrap_pyfunction!(_agent_spec, m)?)?;
    m.add_function(wrap_pyfunction!(_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(_roll_luck, m)?)?;
    Ok(())
}
