//! The pyo3 binding layer: thin wrappers over the Rust API, no rules.
//! Errors from the core become `ValueError`; nothing here panics.

mod agents;
mod args;
mod callables;
mod interrupt;
mod memory;
mod opponents;
mod search;

use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::variants::{
    api, identity, snapshot, AnyGame, Game, GameError, Options, Termination, ROWS, VARIANTS,
};
use crate::with_game;

mod episode;
mod features;
mod paired;
mod records;
mod vecenv;
mod zero;

fn value_error(e: GameError) -> PyErr {
    PyValueError::new_err(e.0)
}

/// Converts keyword options to the core's JSON options.
fn options_from_kwargs(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Options> {
    let mut out = Options::new();
    if let Some(d) = kwargs {
        for (k, v) in d.iter() {
            let key: String = k.extract()?;
            let val = if v.is_none() {
                serde_json::Value::Null
            } else if let Ok(b) = v.cast::<pyo3::types::PyBool>() {
                serde_json::Value::Bool(b.is_true())
            } else if let Ok(i) = v.extract::<i64>() {
                serde_json::Value::from(i)
            } else if let Ok(f) = v.extract::<f64>() {
                if !f.is_finite() {
                    return Err(PyValueError::new_err(format!(
                        "option {key} must be a finite number, got {f}"
                    )));
                }
                serde_json::Value::from(f)
            } else if let Ok(s) = v.extract::<String>() {
                serde_json::Value::String(s)
            } else {
                return Err(PyTypeError::new_err(format!(
                    "option {key} must be an int, float, bool, str or None, got {}",
                    type_name(&v)
                )));
            };
            out.insert(key, val);
        }
    }
    Ok(out)
}

/// A game of `variant` with keyword `options` (ValueError for unknown ones).
pub(crate) fn new_game(variant: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<AnyGame> {
    AnyGame::new(variant, &options_from_kwargs(options)?).map_err(value_error)
}

/// The Python type name of `obj`, for error messages.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// The most worker threads a call may ask for.
pub(crate) const MAX_THREADS: usize = 1024;

/// The most games one batch call plays (their records are allocated up
/// front): longer runs go in chunks (`chunk_size` in `dicechess.playouts`).
pub(crate) const MAX_BATCH: u64 = 1 << 20;

/// `count` games fit in one batch call.
pub(crate) fn check_batch(count: u64) -> PyResult<()> {
    if count > MAX_BATCH {
        return Err(PyValueError::new_err(format!(
            "a batch plays at most {MAX_BATCH} games, got {count}; run more in chunks"
        )));
    }
    Ok(())
}

/// The checked start of a batch of games between two agent specs: the run's
/// seed, first game, count and threads, at most [`MAX_BATCH`] games
/// (`games_per_item` per counted item: 2 for pairs), the agents parsed with
/// their search tables fitting in memory, and the game to start from.
pub(crate) struct AgentBatch {
    pub seed: u64,
    pub start: u64,
    pub count: u64,
    pub threads: Option<usize>,
    pub specs: [crate::agents::AgentSpec; 2],
    pub proto: AnyGame,
}

impl AgentBatch {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        variant: &str,
        agents: &(Bound<'_, PyAny>, Bound<'_, PyAny>),
        seed: args::Seed,
        start: args::Start,
        count: args::Count,
        threads: Option<args::Threads>,
        games_per_item: u64,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<AgentBatch> {
        let (count, threads) = (count.0, args::threads(threads));
        check_batch(count.saturating_mul(games_per_item))?;
        let specs = [
            agents::parse_spec(&agents.0)?,
            agents::parse_spec(&agents.1)?,
        ];
        memory::check_batch_agents(&specs, threads, count)?;
        Ok(AgentBatch {
            seed: seed.0,
            start: start.0,
            count,
            threads,
            specs,
            proto: new_game(variant, options)?,
        })
    }
}

/// A game state of any variant (OpenSpiel-style API).
#[pyclass(module = "dicechess._core", name = "State")]
#[derive(Clone)]
pub struct PyState {
    game: AnyGame,
    history: Vec<u32>,
    /// The complete options the game was created with (`State.options`).
    options: Options,
}

impl PyState {
    /// A new game of `variant` with keyword `options`.
    pub(crate) fn create(variant: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let opts = options_from_kwargs(options)?;
        let game = AnyGame::new(variant, &opts).map_err(value_error)?;
        let options = snapshot::complete_options(&game, &opts);
        Ok(PyState {
            game,
            history: Vec::new(),
            options,
        })
    }

    /// The variant state behind the dice and turn-state properties.
    fn extras(&self) -> crate::variants::Extras {
        with_game!(&self.game, g => g.extras())
    }
}

#[pymethods]
impl PyState {
    #[new]
    #[pyo3(signature = (variant = "chess", **options))]
    fn new(variant: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        PyState::create(variant, options)
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.variant()
    }

    /// The options this state was created with (defaults filled in).
    #[getter]
    fn options(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let json = serde_json::Value::Object(self.options.clone()).to_string();
        let m = py.import("json")?;
        Ok(m.call_method1("loads", (json,))?.unbind())
    }

    /// Player to decide (0 or 1), `CHANCE` (-1) or `TERMINAL` (-4).
    fn current_player(&self) -> i32 {
        with_game!(&self.game, g => api::current_player(g))
    }

    /// Whether chance (a dice roll) acts next.
    fn is_chance_node(&self) -> bool {
        self.current_player() == -1
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.current_player() == -4
    }

    /// `[(outcome_action, probability), ...]` at a chance node, else `[]`.
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        with_game!(&self.game, g => {
            let mut o = crate::variants::Outcomes::new();
            if g.node() == crate::variants::Node::Chance {
                g.chance_outcomes(&mut o);
            }
            o.as_slice().to_vec()
        })
    }

    /// Legal action ids (sorted).
    fn legal_actions(&self) -> Vec<u32> {
        with_game!(&self.game, g => api::legal_actions(g))
    }

    /// Boolean mask over the action space (chance outcome ids at chance nodes).
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let (n, legal) = with_game!(&self.game, g => (api::mask_len(g), api::legal_actions(g)));
        let mut v = vec![false; n];
        for a in legal {
            if let Some(x) = v.get_mut(a as usize) {
                *x = true;
            }
        }
        PyArray1::from_vec(py, v)
    }

    /// Applies a move, pass, rotation or chance outcome by id.
    fn apply_action(&mut self, action: args::ActionId) -> PyResult<()> {
        let a = action.0;
        with_game!(&mut self.game, g => api::apply_action(g, a)).map_err(value_error)?;
        self.history.push(a);
        Ok(())
    }

    /// SAN (or `pass`) at decision nodes, the outcome name at chance nodes.
    fn action_to_string(&self, action: args::ActionId) -> PyResult<String> {
        let a = action.0;
        with_game!(&self.game, g => api::action_to_string(g, a)).map_err(value_error)
    }

    /// Parses SAN, UCI, long algebraic, `pass`, or an outcome name.
    fn string_to_action(&self, text: &str) -> PyResult<u32> {
        with_game!(&self.game, g => api::string_to_action(g, text)).map_err(value_error)
    }

    /// `apply_action(string_to_action(text))`.
    fn apply_san(&mut self, text: &str) -> PyResult<()> {
        let a = self.string_to_action(text)?;
        self.apply_action(args::ActionId(a))
    }

    /// `[r0, r1]`: +1 win, -1 loss, 0 draw, truncated or not over.
    fn returns(&self) -> Vec<f64> {
        with_game!(&self.game, g => api::returns(g).to_vec())
    }

    /// `None`, or the reason the game ended (a name from `TERMINATIONS`).
    fn termination(&self) -> Option<&'static str> {
        with_game!(&self.game, g => g.termination()).map(Termination::name)
    }

    /// The winning player, or None.
    fn winner(&self) -> Option<u8> {
        with_game!(&self.game, g => g.winner())
    }

    /// FEN (extended with variant state where needed).
    fn fen(&self) -> String {
        with_game!(&self.game, g => g.fen())
    }

    /// Vegas, Dice Chess (two and three dice): the roll the player decides
    /// with (`"PN"`, `"B*"`, `"PNK"`), or None
    /// (no roll shown: chance node, in check, free move; other variants).
    #[getter]
    fn dice(&self) -> Option<String> {
        self.extras().dice
    }

    /// Three-dice DiceChess: the dice not used yet this turn (`"NK"`) while
    /// the player decides, else None (also for other variants).
    #[getter]
    fn dice_left(&self) -> Option<String> {
        self.extras().dice_left
    }

    /// Player decisions made so far.
    #[getter]
    fn plies(&self) -> u32 {
        with_game!(&self.game, g => g.plies())
    }

    /// Random Move Number Chess: the colour each player commands, indexed
    /// by player (`["white", "black"]`); None before the colour choice and
    /// for other variants.
    #[getter]
    fn colors(&self) -> Option<Vec<&'static str>> {
        self.extras()
            .colors
            .map(|c| c.iter().map(|x| x.name()).collect())
    }

    /// Cubic Checkers: the squares of the paused cubes (`["c3"]`), White's
    /// first; None for other variants.
    #[getter]
    fn paused(&self) -> Option<Vec<String>> {
        self.extras().paused
    }

    /// Random Move Number Chess: moves left in the current turn (0 except
    /// at decision nodes); None for other variants.
    #[getter]
    fn moves_left(&self) -> Option<u32> {
        self.extras().moves_left
    }

    /// Random Move Number Chess: each player's throws so far (colour choice
    /// included), indexed by player; None for other variants.
    #[getter]
    fn throw_records(&self) -> Option<Vec<Vec<u32>>> {
        self.extras().throw_records.map(|r| {
            r.iter()
                .map(|t| t.iter().map(|&d| d as u32).collect())
                .collect()
        })
    }

    /// Every action applied since the state was created (replayable).
    fn history(&self) -> Vec<u32> {
        self.history.clone()
    }

    /// Number of distinct actions at decision nodes.
    fn num_actions(&self) -> usize {
        with_game!(&self.game, g => g.layout().num_actions())
    }

    /// Number of distinct chance outcome ids.
    fn max_chance_outcomes(&self) -> usize {
        with_game!(&self.game, g => g.max_chance_outcomes())
    }

    /// Names of the observation planes.
    fn observation_planes(&self) -> Vec<&'static str> {
        with_game!(&self.game, g => api::observation_planes(g))
    }

    /// The observation tensor `(planes, ranks, files)` from `player`'s point
    /// of view (default: the player to move, or 0 at chance/terminal nodes).
    #[pyo3(signature = (player = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<args::PlayerArg>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let p = match player {
            None => self.current_player().max(0) as u8,
            Some(p) => p.0,
        };
        let (shape, data) = with_game!(&self.game, g => {
            let shape = api::observation_shape(g);
            let mut v = vec![0f32; shape.iter().product()];
            api::write_observation(g, p, &mut v);
            (shape, v)
        });
        PyArray1::from_vec(py, data).reshape(shape)
    }

    /// An independent copy of the state.
    fn clone(&self) -> PyState {
        Clone::clone(self)
    }

    /// An independent copy of the state (= `clone()`).
    fn copy(&self) -> PyState {
        Clone::clone(self)
    }

    /// Equal by full state (variant, options, board, dice and turn state,
    /// counters, repetition keys; not the history): see docs/records.md.
    fn __eq__(&self, other: PyRef<'_, PyState>) -> bool {
        identity::same_state(&self.game, &other.game)
    }

    fn __hash__(&self) -> u64 {
        identity::state_key(&self.game)
    }

    /// A 64-bit key of the full state, the same on every run and platform
    /// (equal states, equal keys): for tables and files.
    fn key(&self) -> u64 {
        identity::state_key(&self.game)
    }

    fn __copy__(&self) -> PyState {
        Clone::clone(self)
    }

    #[pyo3(signature = (_memo = None))]
    fn __deepcopy__(&self, _memo: Option<&Bound<'_, PyAny>>) -> PyState {
        Clone::clone(self)
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let bytes = snapshot::save(self.game.variant(), &self.options, &self.history);
        let f = py.import("dicechess._core")?.getattr("_state_from_bytes")?;
        Ok((f, (PyBytes::new(py, &bytes),)))
    }

    /// The status lines of `str(state)` (turn or result, dice, stocks, ...),
    /// without the board and the FEN: what renderers caption a board with.
    fn status_lines(&self) -> Vec<String> {
        with_game!(&self.game, g => api::status_lines(g))
    }

    fn __str__(&self) -> String {
        with_game!(&self.game, g => api::pretty(g))
    }

    /// Jupyter display: an SVG board drawn by `dicechess.render.svg`.
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        py.import("dicechess.render")?
            .getattr("svg")?
            .call1((slf,))?
            .extract()
    }

    fn __repr__(&self) -> String {
        format!("State({:?}, fen={:?})", self.game.variant(), self.fen())
    }
}

#[pyfunction]
fn _state_from_bytes(data: &[u8]) -> PyResult<PyState> {
    // Replayed from the saved options and history: nothing is trusted.
    let (game, options, history) = snapshot::restore(data).map_err(value_error)?;
    Ok(PyState {
        game,
        history,
        options,
    })
}

/// The names of the variants.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    VARIANTS.to_vec()
}

/// One dict per variant, in the order of `variants()`: its registry row
/// (`src/variants/registry.rs`) and the facts of its default game.
#[pyfunction]
fn variant_info(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    ROWS.iter()
        .map(|row| {
            let g = AnyGame::new(row.name, &Options::new()).map_err(value_error)?;
            let (shape, actions, outcomes, pieces) = with_game!(&g, g => (
                api::observation_shape(g),
                g.layout().num_actions(),
                g.max_chance_outcomes(),
                g.position().occupied().count(),
            ));
            let d = PyDict::new(py);
            d.set_item("name", row.name)?;
            d.set_item("title", row.title)?;
            d.set_item("gym", row.gym)?;
            d.set_item("gym_id", format!("dicechess/{}-v0", row.gym))?;
            d.set_item("board_size", row.board)?;
            d.set_item("chance", row.chance)?;
            d.set_item("twin", row.twin)?;
            d.set_item("observation_shape", (shape[0], shape[1], shape[2]))?;
            d.set_item("num_actions", actions)?;
            d.set_item("max_chance_outcomes", outcomes)?;
            d.set_item("pieces", pieces)?;
            Ok(d)
        })
        .collect()
}

/// Number of distinct actions at decision nodes of `variant` (with options).
#[pyfunction]
#[pyo3(signature = (variant, **options))]
fn num_actions(variant: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<usize> {
    let g = new_game(variant, options)?;
    Ok(with_game!(&g, g => g.layout().num_actions()))
}

/// Names of the observation planes of `variant` (with options), in order.
#[pyfunction]
#[pyo3(signature = (variant, **options))]
fn observation_planes(
    variant: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<&'static str>> {
    let g = new_game(variant, options)?;
    Ok(with_game!(&g, g => api::observation_planes(g)))
}

/// Perft: leaf nodes at `depth`. For `chess`, the orthodox move tree with bulk
/// counting (the published numbers); for other variants, the full game tree
/// in which chance outcomes branch and count as plies.
#[pyfunction]
#[pyo3(signature = (variant, depth, fen = None, **options))]
fn perft(
    py: Python<'_>,
    variant: &str,
    depth: args::PerftDepth,
    fen: Option<String>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<u64> {
    let mut opts = options_from_kwargs(options)?;
    if let Some(f) = fen {
        opts.insert("fen".into(), serde_json::Value::String(f));
    }
    let g = AnyGame::new(variant, &opts).map_err(value_error)?;
    interrupt::detach(py, move || api::perft(&g, depth.0))?.map_err(value_error)
}

/// Sets `d[name]` to a 1-D numpy array of `values`.
pub(crate) fn set_array<T: numpy::Element>(
    d: &Bound<'_, PyDict>,
    name: &str,
    values: impl IntoIterator<Item = T>,
) -> PyResult<()> {
    d.set_item(name, PyArray1::from_iter(d.py(), values))
}

/// Game records as a dict of numpy arrays (`dicechess.sim.PlayoutResult` fields).
pub(crate) fn records_to_dict<'py>(
    py: Python<'py>,
    recs: &[crate::sim::playouts::GameRecord],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    set_array(&d, "winner", recs.iter().map(|r| r.winner))?;
    set_array(&d, "plies", recs.iter().map(|r| r.plies))?;
    set_array(&d, "chance_events", recs.iter().map(|r| r.chance_events))?;
    set_array(&d, "termination", recs.iter().map(|r| r.termination as i8))?;
    set_array(
        &d,
        "player0_color",
        recs.iter().map(|r| r.player0_color as i8),
    )?;
    Ok(d)
}

/// Plays random games `start .. start+count` of a run (one chunk of
/// `dicechess.playouts`), the GIL released. Returns numpy arrays by name.
#[pyfunction]
#[pyo3(signature = (variant, seed, start, count, threads = None, **options))]
fn _random_playouts<'py>(
    py: Python<'py>,
    variant: &str,
    seed: args::Seed,
    start: args::Start,
    count: args::Count,
    threads: Option<args::Threads>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (seed, start, count, threads) = (seed.0, start.0, count.0, args::threads(threads));
    check_batch(count)?;
    let proto = new_game(variant, options)?;
    interrupt::detach_keeping(
        py,
        || crate::sim::playouts::random_playouts(&proto, seed, start, count, threads),
        |recs| records_to_dict(py, &recs),
    )
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("CHANCE", -1)?;
    m.add("RELATIVES", crate::variants::RELATIVES.to_vec())?;
    m.add("TERMINAL", -4)?;
    m.add("MAX_BATCH", MAX_BATCH)?;
    m.add("MAX_THREADS", MAX_THREADS)?;
    m.add(
        "TERMINATIONS",
        Termination::ALL
            .iter()
            .map(|t| t.name())
            .collect::<Vec<_>>(),
    )?;
    m.add_class::<PyState>()?;
    m.add_class::<vecenv::PyVecEnv>()?;
    m.add_class::<episode::PyEpisode>()?;
    m.add_function(wrap_pyfunction!(episode::_episode_from_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(variant_info, m)?)?;
    m.add_function(wrap_pyfunction!(features::search_eval_features, m)?)?;
    m.add_function(wrap_pyfunction!(features::search_eval_weights, m)?)?;
    m.add_function(wrap_pyfunction!(num_actions, m)?)?;
    m.add_function(wrap_pyfunction!(observation_planes, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(_state_from_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(_random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(callables::_playouts_callable, m)?)?;
    m.add_function(wrap_pyfunction!(zero::_zero_play, m)?)?;
    m.add_function(wrap_pyfunction!(zero::_zero_search, m)?)?;
    agents::register(m)?;
    paired::register(m)?;
    records::register(m)?;
    Ok(())
}
