//! `dicechess._core.Episode`: the binding of [`crate::sim::episode::Episode`],
//! the one episode loop that `dicechess.gym` and `dicechess.pettingzoo` wrap
//! (and that the `VecEnv` runs per env).

use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use serde::{Deserialize, Serialize};

use super::args::PlayerArg;
use super::{options_from_kwargs, value_error, PyState};
use crate::agents::AgentSpec;
use crate::sim::episode::{Episode, Saved, Side};
use crate::variants::{api, snapshot, AnyGame, Game, Options, Player};
use crate::with_game;

/// One episode of one game, stepped in Rust (see `dicechess.gym`).
#[pyclass(module = "dicechess._core", name = "Episode")]
pub struct PyEpisode {
    inner: Episode,
    variant: String,
    /// The complete options of the constructor's start position.
    options: Options,
    start: AnyGame,
    /// This episode's start (the constructor's unless `reset` got options).
    episode_start: Option<(AnyGame, Options)>,
    side: Side,
    opponent: Option<AgentSpec>,
    lose_on_illegal: bool,
    /// `reset` was called (and no call was interrupted since).
    ready: bool,
}

/// Everything `__reduce__` saves (the game is replayed from its history).
#[derive(Serialize, Deserialize)]
struct Pickled {
    variant: String,
    options: Options,
    episode_options: Option<Options>,
    side: i8,
    opponent: Option<String>,
    lose_on_illegal: bool,
    ready: bool,
    episode: Saved,
}

fn side_code(side: Side) -> i8 {
    match side {
        Side::Both => -1,
        Side::Random => -2,
        Side::Player(p) => p as i8,
    }
}

fn side_from_code(code: i8) -> PyResult<Side> {
    match code {
        -1 => Ok(Side::Both),
        -2 => Ok(Side::Random),
        0 | 1 => Ok(Side::Player(code as u8)),
        _ => Err(PyValueError::new_err("not a saved episode: bad side")),
    }
}

fn side_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Side> {
    let Some(obj) = obj else {
        return Ok(Side::Both);
    };
    if let Ok(s) = obj.extract::<String>() {
        if s == "random" {
            return Ok(Side::Random);
        }
    } else if !obj.is_instance_of::<pyo3::types::PyBool>() {
        if let Ok(p @ 0..=1) = obj.extract::<i64>() {
            return Ok(Side::Player(p as u8));
        }
    }
    Err(PyValueError::new_err(format!(
        "agent_player must be 0, 1, 'random' or None (self-play), got {obj}"
    )))
}

fn player_arg(player: Option<PlayerArg>) -> Option<Player> {
    player.map(|p| p.0)
}

impl PyEpisode {
    fn build(
        variant: String,
        options: Options,
        side: Side,
        opponent: Option<AgentSpec>,
        lose_on_illegal: bool,
    ) -> PyResult<PyEpisode> {
        let start = AnyGame::new(&variant, &options).map_err(value_error)?;
        let options = snapshot::complete_options(&start, &options);
        let inner = Episode::new(start.clone(), side, opponent.clone(), lose_on_illegal)
            .map_err(value_error)?;
        Ok(PyEpisode {
            inner,
            variant,
            options,
            start,
            episode_start: None,
            side,
            opponent,
            lose_on_illegal,
            ready: false,
        })
    }

    fn start(&self) -> (&AnyGame, &Options) {
        match &self.episode_start {
            Some((g, o)) => (g, o),
            None => (&self.start, &self.options),
        }
    }

    fn check_ready(&self) -> PyResult<()> {
        if self.ready {
            Ok(())
        } else {
            Err(PyRuntimeError::new_err(
                "the episode is not running: call reset() first (also after an interrupted call)",
            ))
        }
    }
}

#[pymethods]
impl PyEpisode {
    #[new]
    #[pyo3(signature = (variant = "chess", agent_player = None, opponent = None, illegal_action = "raise", **options))]
    fn new(
        variant: &str,
        agent_player: Option<&Bound<'_, PyAny>>,
        opponent: Option<&Bound<'_, PyAny>>,
        illegal_action: &str,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let side = side_arg(agent_player)?;
        let opponent = opponent
            .map(|o| {
                let s: String = o.extract().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "opponent must be an agent spec string or None, got {}",
                        super::type_name(o)
                    ))
                })?;
                AgentSpec::parse(&s).map_err(|e| PyValueError::new_err(format!("opponent: {e}")))
            })
            .transpose()?;
        let lose_on_illegal = match illegal_action {
            "lose" => true,
            "raise" => false,
            other => {
                return Err(PyValueError::new_err(format!(
                    "illegal_action must be one of lose, raise, got {other:?}"
                )))
            }
        };
        let options = options_from_kwargs(options)?;
        PyEpisode::build(
            variant.to_string(),
            options,
            side,
            opponent,
            lose_on_illegal,
        )
    }

    /// Starts episode `index` of `seed` (randomness from `game_rng(seed,
    /// index)`) and plays chance and the built-in opponent up to the first
    /// external decision. `options`: this episode's variant options (the
    /// constructor's start position for None).
    #[pyo3(
        signature = (seed, index = super::args::EpisodeIndex(0), options = None),
        text_signature = "($self, seed, index=0, options=None)"
    )]
    fn reset(
        &mut self,
        py: Python<'_>,
        seed: super::args::Seed,
        index: super::args::EpisodeIndex,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        self.episode_start = match options {
            None => None,
            Some(d) => {
                let opts = options_from_kwargs(Some(d))?;
                let g = AnyGame::new(&self.variant, &opts).map_err(value_error)?;
                let complete = snapshot::complete_options(&g, &opts);
                Some((g, complete))
            }
        };
        self.ready = false;
        let start = self.start().0.clone();
        let inner = &mut self.inner;
        super::interrupt::detach(py, move || inner.reset(&start, seed.0, index.0))?;
        self.ready = true;
        Ok(())
    }

    /// Plays the external decider's `action` (the learner's, or the
    /// opponent's when it decides from outside), then chance and the
    /// built-in opponent. ValueError for an illegal action (nothing
    /// changed) unless `illegal_action="lose"` ends the episode.
    fn step(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        // Outside the action space is a caller's error, never a policy's
        // loss (even with illegal_action="lose"): ValueError, nothing changed.
        let n = self.num_actions() as i128;
        let name = match (self.inner.decider(), self.inner.learner()) {
            (Some(p), Some(l)) if p != l => "the opponent's action",
            _ => "action",
        };
        let action = super::args::int_in(action, name, 0, n - 1, " (the action space)")? as i64;
        self.check_ready()?;
        self.ready = false;
        let inner = &mut self.inner;
        let r = super::interrupt::detach(py, move || inner.play(action))?;
        self.ready = true;
        r.map_err(value_error)
    }

    /// The player who decides from outside now, None when the episode is over.
    #[getter]
    fn decider(&self) -> Option<u8> {
        self.inner.decider()
    }
    /// The learner's player this episode (None in self-play).
    #[getter]
    fn agent_player(&self) -> Option<u8> {
        self.inner.learner()
    }
    #[getter]
    fn over(&self) -> bool {
        self.inner.over()
    }
    #[getter]
    fn terminated(&self) -> bool {
        self.inner.terminated()
    }
    #[getter]
    fn truncated(&self) -> bool {
        self.inner.truncated()
    }
    /// Why the episode ended (a termination name or `"illegal_action"`), or None.
    #[getter]
    fn termination(&self) -> Option<&'static str> {
        self.inner.termination()
    }
    /// `[r0, r1]` (zeros until the end).
    fn returns(&self) -> (f64, f64) {
        let r = self.inner.returns();
        (r[0], r[1])
    }
    /// The illegal action that ended the episode, or -1.
    #[getter]
    fn illegal_action(&self) -> i64 {
        self.inner.illegal_action().map_or(-1, i64::from)
    }
    /// Chance outcomes since the learner's last decision (self-play: the last decision).
    #[getter]
    fn rolls(&self) -> Vec<u32> {
        self.inner.rolls().to_vec()
    }
    /// The opponent's decisions since the learner's last decision.
    #[getter]
    fn opponent_actions(&self) -> Vec<u32> {
        self.inner.opponent_actions().to_vec()
    }
    /// Every action of this episode.
    #[getter]
    fn history(&self) -> Vec<u32> {
        self.inner.history().to_vec()
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed()
    }
    /// The episode's number within its seed.
    #[getter]
    fn index(&self) -> u64 {
        self.inner.index()
    }
    /// `(dice or "", plies, fen)` of the current position.
    fn status(&self) -> (String, u32, String) {
        with_game!(self.inner.game(), g => (g.extras().dice.unwrap_or_default(), g.plies(), g.fen()))
    }
    #[getter]
    fn num_actions(&self) -> usize {
        with_game!(&self.start, g => g.layout().num_actions())
    }

    /// The observation tensor `(planes, ranks, files)` from `player`'s point
    /// of view (None: the learner's; in self-play the player to move).
    #[pyo3(signature = (player = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: Option<PlayerArg>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let p = player_arg(player).unwrap_or(self.inner.view());
        let shape = with_game!(self.inner.game(), g => api::observation_shape(g));
        let mut v = vec![0f32; shape.iter().product()];
        self.inner.write_observation(p, &mut v);
        PyArray1::from_vec(py, v).reshape(shape)
    }

    /// The legal-action mask when `player` decides now (any decider for
    /// None), else all false.
    #[pyo3(signature = (player = None))]
    fn mask<'py>(
        &self,
        py: Python<'py>,
        player: Option<PlayerArg>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let p = player_arg(player);
        let mut m = vec![false; self.num_actions()];
        self.inner.write_mask(p, &mut m);
        Ok(PyArray1::from_vec(py, m))
    }

    /// A copy of the current game as a `State` (history and options included).
    fn state(&self) -> PyState {
        PyState {
            game: self.inner.game().clone(),
            history: self.inner.history().to_vec(),
            options: self.start().1.clone(),
        }
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let p = Pickled {
            variant: self.variant.clone(),
            options: self.options.clone(),
            episode_options: self.episode_start.as_ref().map(|(_, o)| o.clone()),
            side: side_code(self.side),
            opponent: self.opponent.as_ref().map(|s| s.to_string()),
            lose_on_illegal: self.lose_on_illegal,
            ready: self.ready,
            episode: self.inner.save(),
        };
        let bytes = serde_json::to_vec(&p).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let f = py
            .import("dicechess._core")?
            .getattr("_episode_from_bytes")?;
        Ok((f, (PyBytes::new(py, &bytes),)))
    }
}

/// Restores a pickled `Episode` (its game replayed from the history).
#[pyfunction]
pub(crate) fn _episode_from_bytes(data: &[u8]) -> PyResult<PyEpisode> {
    let bad = |e: String| PyValueError::new_err(format!("not a saved episode: {e}"));
    let p: Pickled = serde_json::from_slice(data).map_err(|e| bad(e.to_string()))?;
    let opponent = p
        .opponent
        .as_deref()
        .map(AgentSpec::parse)
        .transpose()
        .map_err(|e| bad(e.to_string()))?;
    let side = side_from_code(p.side)?;
    let mut e = PyEpisode::build(p.variant, p.options, side, opponent, p.lose_on_illegal)?;
    if let Some(o) = p.episode_options {
        let g = AnyGame::new(&e.variant, &o).map_err(value_error)?;
        e.episode_start = Some((g, o));
    }
    let start = e.start().0.clone();
    e.inner.restore(&start, p.episode).map_err(value_error)?;
    e.ready = p.ready;
    Ok(e)
}
