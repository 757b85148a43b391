//! `dicechess.VecEnv`: the binding of [`crate::sim::vecenv::VecEnv`]. The
//! output arrays are allocated once and rewritten in place by every call,
//! with the GIL released while the games are stepped.
//!
//! The arrays are views of memory owned by a Rust container (numpy's
//! `OWNDATA` is false), so numpy refuses to resize or free them; before every
//! call their data pointers and sizes are checked against those allocated,
//! and a changed array is an error, never a write out of bounds.

use numpy::{
    PyArray1, PyArray2, PyArray4, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{new_game, value_error};
use crate::agents::AgentSpec;
use crate::sim::vecenv::{Buffers, VecEnv, MAX_ENVS};

/// `num_envs` games of one variant stepped together in Rust.
#[pyclass(module = "dicechess._core", name = "VecEnv")]
pub struct PyVecEnv {
    inner: VecEnv,
    obs: Py<PyArray4<f32>>,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArrayDyn<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    player: Py<PyArray1<i8>>,
    /// Data pointer and length of each output array as allocated.
    layout: [(usize, usize); 6],
    actions: Vec<i64>,
    /// `reset` was called (and no call was interrupted since).
    ready: bool,
    closed: bool,
}

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

impl PyVecEnv {
    fn run<F>(&mut self, py: Python<'_>, f: F) -> PyResult<()>
    where
        F: FnOnce(&mut VecEnv, &[i64], Buffers<'_>) -> Result<(), crate::variants::GameError>
            + Send,
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
        let b = Buffers {
            obs: obs.as_slice_mut()?,
            mask: mask.as_slice_mut()?,
            rewards: rewards.as_slice_mut()?,
            terminated: terminated.as_slice_mut()?,
            truncated: truncated.as_slice_mut()?,
            player: player.as_slice_mut()?,
        };
        let (inner, actions) = (&mut self.inner, &self.actions);
        match super::interrupt::detach(py, move || f(inner, actions, b)) {
            Ok(r) => r.map_err(value_error),
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

    /// Env `i` as an index: IndexError naming the range for any int
    /// outside it (however large), TypeError for a non-integer.
    fn check_env(&self, i: &Bound<'_, PyAny>) -> PyResult<usize> {
        let last = self.inner.num_envs() as i128 - 1;
        super::args::int_in(i, "env index", 0, last, "")
            .map(|i| i as usize)
            .map_err(|e| {
                if e.is_instance_of::<pyo3::exceptions::PyValueError>(i.py()) {
                    PyIndexError::new_err(e.value(i.py()).to_string())
                } else {
                    e
                }
            })
    }
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(
        signature = (variant, num_envs, seed = super::args::Seed(0), opponent = None, threads = None, **options),
        text_signature = "(variant, num_envs, seed=0, opponent=None, threads=None, **options)"
    )]
    fn new(
        py: Python<'_>,
        variant: &str,
        num_envs: &Bound<'_, PyAny>,
        seed: super::args::Seed,
        opponent: Option<&Bound<'_, PyAny>>,
        threads: Option<super::args::Threads>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let (seed, threads) = (seed.0, super::args::threads(threads));
        let opponent: Option<String> = opponent
            .map(|o| {
                o.extract::<String>().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "opponent must be an agent spec string or None (self-play), got {}; \
                         valid specs: {}",
                        super::type_name(o),
                        crate::agents::VALID_SPECS
                    ))
                })
            })
            .transpose()?;
        let opponent = opponent.as_deref();
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
        let opp = opponent
            .map(AgentSpec::parse)
            .transpose()
            .map_err(|e| PyValueError::new_err(format!("opponent: {e} (or None for self-play)")))?;
        let proto = new_game(variant, options)?;
        let has_opp = opp.is_some();
        let inner = VecEnv::new(proto, n, seed, opp, threads).map_err(value_error)?;
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
        let layout = [
            extent(&obs),
            extent(&mask),
            extent(&rewards),
            extent(&terminated),
            extent(&truncated),
            extent(&player),
        ];
        Ok(PyVecEnv {
            obs: obs.unbind(),
            mask: mask.unbind(),
            rewards: rewards.unbind(),
            terminated: terminated.unbind(),
            truncated: truncated.unbind(),
            player: player.unbind(),
            layout,
            inner,
            actions: Vec::with_capacity(n),
            ready: false,
            closed: false,
        })
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.inner.num_envs()
    }

    /// Number of distinct decision actions (the mask length).
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.num_actions()
    }

    /// `(planes, ranks, files)` of one observation.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [p, r, f] = self.inner.obs_shape();
        (p, r, f)
    }

    /// The opponent's canonical agent spec, or None in self-play.
    #[getter]
    fn opponent(&self) -> Option<String> {
        self.inner.opponent().map(|s| s.to_string())
    }

    /// The run seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed()
    }

    /// Starts episode 0 of every env; returns the output arrays
    /// `(obs, mask, rewards, terminated, truncated, current_player)`.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<super::args::Seed>,
    ) -> PyResult<StepOut<'py>> {
        let seed = seed.map(|s| s.0);
        self.run(py, move |v, _, b| v.reset(seed, b))?;
        self.ready = true;
        Ok(self.outputs(py))
    }

    /// Applies one action per env (a 1-d integer numpy array); returns the
    /// output arrays `(obs, mask, rewards, terminated, truncated,
    /// current_player)`, rewritten in place by every call.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepOut<'py>> {
        if !self.ready && !self.closed {
            return Err(PyValueError::new_err(
                "call reset() before step() (and again after an interrupted call)",
            ));
        }
        let n = self.inner.num_envs();
        let arr = actions.cast::<PyUntypedArray>().map_err(|_| {
            PyTypeError::new_err(format!(
                "actions must be a numpy integer array of shape ({n},), got {}",
                super::type_name(actions)
            ))
        })?;
        let dtype = arr.dtype();
        if !matches!(dtype.kind(), b'i' | b'u') {
            return Err(PyTypeError::new_err(format!(
                "actions must have an integer dtype, got {}",
                dtype.str()?
            )));
        }
        if arr.shape() != [n] {
            return Err(PyValueError::new_err(format!(
                "actions must have shape ({n},), got {:?}",
                arr.shape()
            )));
        }
        let as_i64 = py
            .import("numpy")?
            .call_method1("ascontiguousarray", (arr, "int64"))?;
        if dtype.kind() == b'u' {
            let max: u64 = py
                .import("numpy")?
                .call_method1("max", (arr,))?
                .extract()
                .unwrap_or(u64::MAX);
            if max > i64::MAX as u64 {
                return Err(PyValueError::new_err(format!(
                    "action {max} is out of range (ids below {})",
                    self.inner.num_actions()
                )));
            }
        }
        let a = as_i64.cast::<PyArray1<i64>>()?.try_readonly()?;
        self.actions.clear();
        self.actions.extend_from_slice(a.as_slice()?);
        self.run(py, |v, actions, b| v.step(actions, b))?;
        Ok(self.outputs(py))
    }

    /// Every action applied in env `i`'s current episode (chance outcomes,
    /// the opponent's and the caller's decisions): replaying them through
    /// `State.apply_action` reproduces the game.
    fn history(&self, i: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let i = self.check_env(i)?;
        Ok(self.inner.history(i).unwrap_or_default().to_vec())
    }

    /// Env `i`'s episode number since the last `reset` (0 first).
    fn episode(&self, i: &Bound<'_, PyAny>) -> PyResult<u64> {
        let i = self.check_env(i)?;
        Ok(self.inner.episode(i).unwrap_or_default())
    }

    /// The FEN of env `i`'s current game.
    fn fen(&self, i: &Bound<'_, PyAny>) -> PyResult<String> {
        let i = self.check_env(i)?;
        Ok(self
            .inner
            .game(i)
            .map(|g| crate::with_game!(g, x => crate::variants::Game::fen(x)))
            .unwrap_or_default())
    }

    /// Releases the games; any later `reset` or `step` raises ValueError.
    fn close(&mut self) {
        self.closed = true;
        self.ready = false;
        self.inner.close();
    }

    /// Whether `close` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.closed
    }

    fn __len__(&self) -> usize {
        self.inner.num_envs()
    }

    fn __repr__(&self) -> String {
        format!(
            "VecEnv({:?}, num_envs={}, seed={}, opponent={:?})",
            self.inner.game(0).map(|g| g.variant()).unwrap_or("?"),
            self.inner.num_envs(),
            self.inner.seed(),
            self.opponent()
        )
    }
}
