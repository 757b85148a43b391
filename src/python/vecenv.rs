//! `dicechess.VecEnv`: the binding of [`crate::sim::vecenv::VecEnv`]. The
//! output arrays are allocated once and rewritten in place by every call,
//! with the GIL released while the games are stepped.
//!
//! The arrays are views of memory owned by a Rust container (numpy's
//! `OWNDATA` is false), so numpy refuses to resize or free them; before every
//! call their data pointers and sizes are checked against those allocated,
//! and a changed array is an error, never a write out of bounds.

use numpy::{
    PyArray1, PyArray2, PyArray4, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::sync::{Mutex, MutexGuard, TryLockError};

use super::opponents::{self, Failed};
use super::{new_game, value_error};
use crate::sim::vecenv::{Autoreset, Buffers, Requests, VecEnv, MAX_ENVS, NO_TERMINATION};

/// `num_envs` games of one variant stepped together in Rust.
///
/// Frozen: what never changes is read without a lock; the games and the
/// output arrays sit behind a mutex taken with `try_lock` only, so a call
/// from a second thread while one steps (the GIL is released then) raises
/// the "busy in another thread" error, never blocks or panics.
#[pyclass(module = "dicechess._core", name = "VecEnv", frozen)]
pub struct PyVecEnv {
    num_envs: usize,
    num_actions: usize,
    obs_shape: [usize; 3],
    variant: &'static str,
    /// The `opponent` getter's value (canonical specs, the callables).
    opponent: Option<Py<PyAny>>,
    /// The callable of each caller-decided pool member (empty: none).
    callables: Vec<Option<Py<PyAny>>>,
    autoreset: Autoreset,
    state: Mutex<Inner>,
}

struct Inner {
    inner: VecEnv,
    obs: Py<PyArray4<f32>>,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArrayDyn<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    player: Py<PyArray1<i8>>,
    termination: Py<PyArray1<i8>>,
    final_obs: Py<PyArray4<f32>>,
    /// Data pointer and length of each output array as allocated.
    layout: [(usize, usize); 8],
    actions: Vec<i64>,
    /// `reset` was called (and no call was interrupted since).
    ready: bool,
    closed: bool,
}

/// The message of a call made while another thread uses the env.
const BUSY: &str = "this VecEnv is busy in another thread: a VecEnv steps for one caller at a \
     time (its output arrays are shared); create one VecEnv per thread (the same seed gives \
     the same games)";

/// A zeroed array of `shape` whose memory a Rust container owns.
fn owned_zeros<'py, T: numpy::Element + Clone + Default, D: numpy::ndarray::Dimension>(
    py: Python<'py>,
    shape: &[usize],
) -> PyResult<Bound<'py, numpy::PyArray<T, D>>> {
    let len = shape.iter().product();
    let flat = PyArray1::from_vec(py, vec![T::default(); len]);
    Ok(flat
        .reshape(shape.to_vec())?
        .cast_into::<numpy::PyArray<T, D>>()?)
}

/// `(data pointer, length)` of an array.
fn extent<T: numpy::Element, D: numpy::ndarray::Dimension>(
    a: &Bound<'_, numpy::PyArray<T, D>>,
) -> (usize, usize) {
    (a.data() as usize, a.len())
}

type StepOut<'py> = (
    Bound<'py, PyArray4<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArrayDyn<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i8>>,
);

impl Inner {
    fn run<F>(&mut self, py: Python<'_>, f: F) -> PyResult<()>
    where
        F: FnOnce(&mut VecEnv, &[i64], Buffers<'_>) -> Result<(), Failed> + Send,
    {
        if self.closed {
            return Err(PyValueError::new_err("this VecEnv is closed"));
        }
        let now = [
            extent(self.obs.bind(py)),
            extent(self.mask.bind(py)),
            extent(self.rewards.bind(py)),
            extent(self.terminated.bind(py)),
            extent(self.truncated.bind(py)),
            extent(self.player.bind(py)),
            extent(self.termination.bind(py)),
            extent(self.final_obs.bind(py)),
        ];
        if now != self.layout {
            return Err(PyValueError::new_err(
                "the VecEnv's output arrays were resized or replaced; they are rewritten in \
                 place by every call (copy them to keep or change them); create a new VecEnv",
            ));
        }
        let mut obs = self.obs.bind(py).try_readwrite()?;
        let mut mask = self.mask.bind(py).try_readwrite()?;
        let mut rewards = self.rewards.bind(py).try_readwrite()?;
        let mut terminated = self.terminated.bind(py).try_readwrite()?;
        let mut truncated = self.truncated.bind(py).try_readwrite()?;
        let mut player = self.player.bind(py).try_readwrite()?;
        let mut termination = self.termination.bind(py).try_readwrite()?;
        let mut final_obs = self.final_obs.bind(py).try_readwrite()?;
        let b = Buffers {
            obs: obs.as_slice_mut()?,
            mask: mask.as_slice_mut()?,
            rewards: rewards.as_slice_mut()?,
            terminated: terminated.as_slice_mut()?,
            truncated: truncated.as_slice_mut()?,
            player: player.as_slice_mut()?,
            termination: termination.as_slice_mut()?,
            final_obs: final_obs.as_slice_mut()?,
        };
        let (inner, actions) = (&mut self.inner, &self.actions);
        match super::interrupt::detach(py, move || f(inner, actions, b)) {
            // An error of a callable opponent: every env and array restored.
            Ok(r) => r.map_err(|e| e.0),
            Err(e) => {
                // Interrupted mid-step: the games are in no reportable state.
                self.ready = false;
                Err(e)
            }
        }
    }

    fn outputs<'py>(&self, py: Python<'py>) -> StepOut<'py> {
        (
            self.obs.bind(py).clone(),
            self.mask.bind(py).clone(),
            self.rewards.bind(py).clone(),
            self.terminated.bind(py).clone(),
            self.truncated.bind(py).clone(),
            self.player.bind(py).clone(),
        )
    }
}

impl PyVecEnv {
    /// The games and arrays, or the "busy" error while another thread has them.
    fn lock(&self) -> PyResult<MutexGuard<'_, Inner>> {
        match self.state.try_lock() {
            Ok(g) => Ok(g),
            // A panic cannot happen inside (errors are values); if one did,
            // the env is closed from then on.
            Err(TryLockError::Poisoned(e)) => {
                let mut g = e.into_inner();
                g.closed = true;
                Ok(g)
            }
            Err(TryLockError::WouldBlock) => Err(PyValueError::new_err(BUSY)),
        }
    }
}

/// A `seed` argument of `reset`: one int, or one per env.
enum SeedArg {
    One(u64),
    Each(Vec<u64>),
}

fn seed_arg(obj: &Bound<'_, PyAny>, n: usize) -> PyResult<SeedArg> {
    let obj = if obj.cast::<PyUntypedArray>().is_ok() {
        obj.call_method0("tolist")?
    } else {
        obj.clone()
    };
    let items = if let Ok(l) = obj.cast::<PyList>() {
        l.iter().collect::<Vec<_>>()
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        t.iter().collect::<Vec<_>>()
    } else {
        return obj
            .extract::<super::args::Seed>()
            .map(|s| SeedArg::One(s.0))
            .map_err(|e| {
                if e.is_instance_of::<PyTypeError>(obj.py()) {
                    PyTypeError::new_err(format!(
                        "seed must be None, an int, or a list of {n} ints (one per env), got {}",
                        super::type_name(&obj)
                    ))
                } else {
                    e
                }
            });
    };
    if items.len() != n {
        return Err(PyValueError::new_err(format!(
            "seed: a list of seeds needs one per env ({n}), got {}",
            items.len()
        )));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, x)| {
            x.extract::<super::args::Seed>().map(|s| s.0).map_err(|e| {
                let msg = format!("seed[{i}]: {}", e.value(obj.py()));
                if e.is_instance_of::<PyTypeError>(obj.py()) {
                    PyTypeError::new_err(msg)
                } else {
                    PyValueError::new_err(msg)
                }
            })
        })
        .collect::<PyResult<Vec<u64>>>()
        .map(SeedArg::Each)
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(
        signature = (variant, num_envs, seed = super::args::Seed(0), opponent = None, threads = None, autoreset = None, opponent_weights = None, **options),
        text_signature = "(variant, num_envs, seed=0, opponent=None, threads=None, autoreset='next_step', opponent_weights=None, **options)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        variant: &str,
        num_envs: &Bound<'_, PyAny>,
        seed: super::args::Seed,
        opponent: Option<&Bound<'_, PyAny>>,
        threads: Option<super::args::Threads>,
        autoreset: Option<&Bound<'_, PyAny>>,
        opponent_weights: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let (seed, threads) = (seed.0, super::args::threads(threads));
        let autoreset = match autoreset.filter(|a| !a.is_none()) {
            None => Ok(Autoreset::NextStep),
            Some(autoreset) => autoreset
                .extract::<String>()
                .map_err(|_| {
                    PyTypeError::new_err(format!(
                        "autoreset must be \"next_step\" or \"same_step\", got {}",
                        super::type_name(autoreset)
                    ))
                })
                .and_then(|a| Autoreset::parse(&a).map_err(value_error)),
        }?;
        let opp = opponents::parse(opponent, opponent_weights)?;
        if num_envs.cast::<pyo3::types::PyBool>().is_ok() {
            return Err(PyTypeError::new_err("num_envs must be an int, got bool"));
        }
        let is_int = num_envs.cast::<pyo3::types::PyInt>().is_ok();
        let n: i64 = num_envs.extract().map_err(|_| {
            if is_int {
                return PyValueError::new_err(format!(
                    "num_envs must be from 1 to {MAX_ENVS}, got {num_envs}"
                ));
            }
            PyTypeError::new_err(format!(
                "num_envs must be an int, got {}",
                super::type_name(num_envs)
            ))
        })?;
        if n < 1 || n > MAX_ENVS as i64 {
            return Err(PyValueError::new_err(format!(
                "num_envs must be from 1 to {MAX_ENVS}, got {n}"
            )));
        }
        let n = n as usize;
        let proto = new_game(variant, options)?;
        let variant = proto.variant();
        let has_opp = opp.pool.is_some();
        let external = opp.pool.as_ref().is_some_and(|p| p.has_external());
        let inner = VecEnv::with_pool(proto, n, seed, opp.pool, threads)
            .map_err(value_error)?
            .with_autoreset(autoreset);
        let [p, r, f] = inner.obs_shape();
        let rewards = if has_opp {
            owned_zeros::<f32, numpy::IxDyn>(py, &[n])?
        } else {
            owned_zeros::<f32, numpy::IxDyn>(py, &[n, 2])?
        };
        let obs = owned_zeros::<f32, numpy::Ix4>(py, &[n, p, r, f])?;
        let mask = owned_zeros::<bool, numpy::Ix2>(py, &[n, inner.num_actions()])?;
        let terminated = owned_zeros::<bool, numpy::Ix1>(py, &[n])?;
        let truncated = owned_zeros::<bool, numpy::Ix1>(py, &[n])?;
        let player = owned_zeros::<i8, numpy::Ix1>(py, &[n])?;
        let termination = owned_zeros::<i8, numpy::Ix1>(py, &[n])?;
        termination
            .try_readwrite()?
            .as_slice_mut()?
            .fill(NO_TERMINATION);
        let finals = match autoreset {
            Autoreset::NextStep => 0,
            Autoreset::SameStep => n,
        };
        let final_obs = owned_zeros::<f32, numpy::Ix4>(py, &[finals, p, r, f])?;
        let layout = [
            extent(&obs),
            extent(&mask),
            extent(&rewards),
            extent(&terminated),
            extent(&truncated),
            extent(&player),
            extent(&termination),
            extent(&final_obs),
        ];
        Ok(PyVecEnv {
            num_envs: n,
            num_actions: inner.num_actions(),
            obs_shape: inner.obs_shape(),
            variant,
            opponent: opp.shown,
            callables: if external { opp.callables } else { Vec::new() },
            autoreset,
            state: Mutex::new(Inner {
                obs: obs.unbind(),
                mask: mask.unbind(),
                rewards: rewards.unbind(),
                terminated: terminated.unbind(),
                truncated: truncated.unbind(),
                player: player.unbind(),
                termination: termination.unbind(),
                final_obs: final_obs.unbind(),
                layout,
                inner,
                actions: Vec::with_capacity(n),
                ready: false,
                closed: false,
            }),
        })
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// Number of distinct decision actions (the mask length).
    #[getter]
    fn num_actions(&self) -> usize {
        self.num_actions
    }

    /// `(planes, ranks, files)` of one observation.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [p, r, f] = self.obs_shape;
        (p, r, f)
    }

    /// The opponent: its canonical agent spec, the callable, a list of
    /// these (a pool), or None in self-play.
    #[getter]
    fn opponent(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.opponent.as_ref().map(|o| o.clone_ref(py))
    }

    /// The weights of the opponent pool's members (all 1.0 when none were
    /// given; `[1.0]` for one opponent), or None in self-play.
    #[getter]
    fn opponent_weights(&self) -> PyResult<Option<Vec<f64>>> {
        Ok(self.lock()?.inner.opponents().map(|p| p.weights().to_vec()))
    }

    /// int64 `(num_envs,)`, a new array: the pool member (index in
    /// `opponent`) each env plays in its current episode (0 for one opponent).
    #[getter]
    fn opponent_index<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        self.members(py, VecEnv::opponent_index)
    }

    /// int64 `(num_envs,)`, a new array: the pool member each env played
    /// in its previous episode (with `autoreset="same_step"`, the one of the
    /// game that ended on the last step).
    #[getter]
    fn last_opponent_index<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        self.members(py, VecEnv::last_opponent_index)
    }

    /// The autoreset mode: `"next_step"` or `"same_step"`.
    #[getter]
    fn autoreset(&self) -> &'static str {
        self.autoreset.name()
    }

    /// The run seed (env 0's seed after `reset` with a list).
    #[getter]
    fn seed(&self) -> PyResult<u64> {
        Ok(self.lock()?.inner.seed())
    }

    /// Each env's seed (episode `k` of env `i` draws from
    /// `game_rng(env_seeds[i], k)`).
    #[getter]
    fn env_seeds(&self) -> PyResult<Vec<u64>> {
        let g = self.lock()?;
        Ok((0..self.num_envs)
            .map(|i| g.inner.env_seed(i).unwrap_or_default())
            .collect())
    }

    /// int8 `(num_envs,)`, rewritten by every call: the code (index in
    /// `TERMINATIONS`) of the game that ended on this call, else -1.
    #[getter]
    fn termination<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        Ok(self.lock()?.termination.bind(py).clone())
    }

    /// float32 `(num_envs, planes, ranks, files)` with `autoreset="same_step"`
    /// (`(0, planes, ranks, files)` otherwise), rewritten by every step:
    /// row `i` is env `i`'s final observation where its game ended on this
    /// step (the returned observation is already the next game's); other
    /// rows hold older values.
    #[getter]
    fn final_observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray4<f32>>> {
        Ok(self.lock()?.final_obs.bind(py).clone())
    }

    /// Starts episode 0 of every env; returns the output arrays
    /// `(obs, mask, rewards, terminated, truncated, current_player)`.
    /// `seed`: None (each env restarts from its seed), an int (env `i` gets
    /// `seed + i`) or a sequence of `num_envs` ints (one per env).
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<StepOut<'py>> {
        let seed = seed
            .filter(|s| !s.is_none())
            .map(|s| seed_arg(s, self.num_envs))
            .transpose()?;
        let mut g = self.lock()?;
        let (callables, shape, na) = (&self.callables, self.obs_shape, self.num_actions);
        let mut ask = |r: Requests<'_>| opponents::ask(callables, r, shape, na);
        let external = !callables.is_empty();
        g.run(py, move |v, _, b| match seed {
            Some(SeedArg::Each(seeds)) => match external {
                true => v.reset_seeds_with(&seeds, b, Some(&mut ask)),
                false => Ok(v.reset_seeds(&seeds, b)?),
            },
            Some(SeedArg::One(s)) if external => v.reset_with(Some(s), b, &mut ask),
            Some(SeedArg::One(s)) => Ok(v.reset(Some(s), b)?),
            None if external => v.reset_with(None, b, &mut ask),
            None => Ok(v.reset(None, b)?),
        })?;
        g.ready = true;
        Ok(g.outputs(py))
    }

    /// Applies one action per env (a 1-d integer numpy array); returns the
    /// output arrays `(obs, mask, rewards, terminated, truncated,
    /// current_player)`, rewritten in place by every call.
    fn step<'py>(&self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<StepOut<'py>> {
        let mut g = self.lock()?;
        if !g.ready && !g.closed {
            return Err(PyValueError::new_err(
                "call reset() before step() (and again after an interrupted call)",
            ));
        }
        let a = opponents::read_actions(
            py,
            actions,
            self.num_envs,
            self.num_actions,
            "actions",
            false,
        )?;
        g.actions.clear();
        g.actions.extend_from_slice(&a);
        let (callables, shape, na) = (&self.callables, self.obs_shape, self.num_actions);
        g.run(py, |v, actions, b| {
            if callables.is_empty() {
                Ok(v.step(actions, b)?)
            } else {
                v.step_with(actions, b, &mut |r| opponents::ask(callables, r, shape, na))
            }
        })?;
        Ok(g.outputs(py))
    }

    /// Every action applied in env `i`'s current episode (chance outcomes,
    /// the opponent's and the caller's decisions): replaying them through
    /// `State.apply_action` reproduces the game.
    fn history(&self, i: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let i = self.check_env(i)?;
        Ok(self.lock()?.inner.history(i).unwrap_or_default().to_vec())
    }

    /// Env `i`'s episode number since the last `reset` (0 first).
    fn episode(&self, i: &Bound<'_, PyAny>) -> PyResult<u64> {
        let i = self.check_env(i)?;
        Ok(self.lock()?.inner.episode(i).unwrap_or_default())
    }

    /// The FEN of env `i`'s current game.
    fn fen(&self, i: &Bound<'_, PyAny>) -> PyResult<String> {
        let i = self.check_env(i)?;
        Ok(self
            .lock()?
            .inner
            .game(i)
            .map(|g| crate::with_game!(g, x => crate::variants::Game::fen(x)))
            .unwrap_or_default())
    }

    /// Releases the games; any later `reset` or `step` raises ValueError.
    /// Raises the "busy in another thread" ValueError (and closes nothing)
    /// while another thread steps.
    fn close(&self) -> PyResult<()> {
        let mut g = self.lock()?;
        g.closed = true;
        g.ready = false;
        g.inner.close();
        Ok(())
    }

    /// Whether `close` was called.
    #[getter]
    fn closed(&self) -> PyResult<bool> {
        Ok(self.lock()?.closed)
    }

    fn __len__(&self) -> usize {
        self.num_envs
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let opponent = match &self.opponent {
            Some(o) => o.bind(py).repr()?.to_string(),
            None => "None".to_string(),
        };
        Ok(format!(
            "VecEnv({:?}, num_envs={}, opponent={opponent}, autoreset={:?})",
            self.variant,
            self.num_envs,
            self.autoreset.name()
        ))
    }
}

impl PyVecEnv {
    /// `member(env, i)` for every env, as int64.
    fn members<'py>(
        &self,
        py: Python<'py>,
        member: fn(&VecEnv, usize) -> Option<usize>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let g = self.lock()?;
        let each = (0..self.num_envs).map(|i| member(&g.inner, i).unwrap_or_default() as i64);
        Ok(PyArray1::from_iter(py, each))
    }

    /// Env index `i` as usize, or IndexError/TypeError saying the range.
    fn check_env(&self, i: &Bound<'_, PyAny>) -> PyResult<usize> {
        let last = self.num_envs - 1;
        let range = format!("env index must be an int from 0 to {last}");
        if i.cast::<pyo3::types::PyBool>().is_ok() {
            return Err(PyTypeError::new_err(format!("{range}, got bool")));
        }
        let v: i128 = i
            .extract()
            .map_err(|_| PyTypeError::new_err(format!("{range}, got {}", super::type_name(i))))?;
        usize::try_from(v)
            .ok()
            .filter(|&x| x <= last)
            .ok_or_else(|| PyIndexError::new_err(format!("{range}, got {v}")))
    }
}
