"""Stable-Baselines3 ``VecEnv`` over the Rust vector env (``dicechess.VecEnv``).

::

    from sb3_contrib import MaskablePPO
    import dicechess.sb3

    venv = dicechess.sb3.make_vec_env("dicechess/Fluky-v0", 64, seed=0)
    model = MaskablePPO("MultiInputPolicy", venv).learn(8192)

:class:`DiceChessSB3VecEnv` steps all ``num_envs`` games in one Rust call (no
Python env per game, unlike SB3's ``DummyVecEnv`` / ``SubprocVecEnv``) and
follows SB3's conventions:

- **Same-step autoreset** (the Rust env's ``autoreset="same_step"``): the step
  on which env ``i``'s game ends returns ``dones[i] = True``, that game's
  reward, and the next game's first observation; the final observation is in
  ``infos[i]["terminal_observation"]`` and ``infos[i]["TimeLimit.truncated"]``
  is true when the game stopped at ``max_plies`` (SB3 then bootstraps from
  it), and ``infos[i]["termination"]`` is the ended game's reason (the
  single env's ``termination``); the infos of envs whose game goes on are
  empty dicts. Every observation returned is one to act on: its mask always
  has a legal move.
- **Action masks** for sb3-contrib's ``MaskablePPO``: :meth:`action_masks`
  (bool ``(num_envs, num_actions)``) and ``env_method("action_masks")`` (one
  row per env, what ``sb3_contrib.common.maskable.utils.get_action_masks``
  calls).
- ``seed(s)`` seeds env ``i`` with ``s + i`` at the next ``reset`` (SB3's
  convention; the single env ``gymnasium.make(id)`` reset with seed ``s + i``
  plays the same games for the same actions); ``get_attr`` / ``set_attr``
  read and write the adapter's attributes (one value for every env);
  ``env_method`` calls the per-env methods ``action_masks``, ``history`` and
  ``fen``; ``env_is_wrapped`` is false (there is no per-game Python env).

Observations are the single env's ``Dict(observation, action_mask)`` batched
(``obs_layout`` as there), copied out of the Rust buffers at every step (SB3
keeps the previous observation while stepping). The opponent is any agent
spec (``dicechess.AGENT_SPECS``) played inside Rust, a callable ``(obs, mask)
-> actions`` (e.g. a frozen copy of the policy being trained) asked once per
step for the envs where it must move, or a pool (a list of these) drawn per env
and episode with ``opponent_weights``, as in ``dicechess.vector``; with a pool,
every info dict carries ``opponent_index`` (at an episode's end, the member of
the game that ended). Episode statistics for
SB3's logger (``ep_rew_mean``): wrap in ``stable_baselines3.common.vec_env.VecMonitor``.

Needs ``stable-baselines3`` (``pip install 'dicechess[sb3]'``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv as _SB3VecEnv

from ._core import TERMINATIONS, VecEnv
from .gym import ENV_IDS
from .rlspaces import NOOP_ACTION, check_obs_layout, observation_space, to_layout
from .vector import Opponent, shown_opponent, vec_opponent

__all__ = ["PER_ENV_METHODS", "DiceChessSB3VecEnv", "make_vec_env", "variant_of"]

#: The methods ``env_method`` calls per env.
PER_ENV_METHODS = ("action_masks", "history", "fen")

_TERMINATION_NAMES = ["", *TERMINATIONS]


def variant_of(env_id: str) -> str:
    """The variant of a Gymnasium id (``"dicechess/Fluky-v0"``, also with a
    ``"module:"`` prefix such as ``"dicechess.gym:dicechess/Fluky-v0"``) or
    of a variant name (``"fluky"``)."""
    if not isinstance(env_id, str):
        raise TypeError(f"env_id must be a str, got {type(env_id).__name__}")
    name = env_id.rsplit(":", 1)[-1]
    if name.startswith("dicechess/") and name.endswith("-v0"):
        key = name[len("dicechess/") : -len("-v0")]
        if key in ENV_IDS:
            return ENV_IDS[key]
    if name in ENV_IDS.values():
        return name
    ids = ", ".join(f"dicechess/{k}-v0" for k in ENV_IDS)
    raise ValueError(f"unknown env id {env_id!r}; valid ids: {ids} (or a variant name)")


class DiceChessSB3VecEnv(_SB3VecEnv):
    """``num_envs`` games of ``variant`` against ``opponent``, as an SB3 ``VecEnv``.

    Args:
        variant: a name from ``dicechess.variants()``.
        num_envs: 1 to 65536.
        opponent: an agent spec played inside Rust (``"random"``, ``"greedy"``, ...),
            a callable ``(obs, mask) -> actions`` (observations in ``obs_layout``),
            or a list of these (a pool: one member drawn per env and episode).
        seed: env ``i`` plays episode ``k`` with ``game_rng(seed + i, k)``.
        threads: as ``dicechess.VecEnv`` (never changes the results).
        obs_layout: ``"flat"`` (default), ``"chw"`` or ``"hwc"``.
        opponent_weights: a pool's relative weights (default: equal).
        **options: variant options (``max_plies``, ...).
    """

    def __init__(
        self,
        variant: str,
        num_envs: int,
        opponent: Opponent = "random",
        seed: int = 0,
        threads: int | None = None,
        obs_layout: str = "flat",
        opponent_weights: Sequence[float] | None = None,
        **options: Any,
    ) -> None:
        if opponent is None:
            raise TypeError(
                "opponent must be an agent spec string such as 'random' or 'greedy' "
                "(see dicechess.AGENT_SPECS), a callable (obs, mask) -> actions, or a list "
                "of these (a pool), got NoneType"
            )
        self.obs_layout = check_obs_layout(obs_layout)
        self.env = VecEnv(
            variant,
            num_envs,
            seed=seed,
            opponent=vec_opponent(opponent, self.obs_layout),
            threads=threads,
            autoreset="same_step",
            opponent_weights=opponent_weights,
            **options,
        )
        """The Rust vector env (``dicechess.VecEnv``, same-step autoreset) that steps every game."""
        self.variant = variant
        self.opponent = shown_opponent(opponent, self.env.opponent)
        self._pool = isinstance(opponent, (list, tuple))
        self.options = dict(options)
        self.render_mode: str | None = None
        self.num_actions = self.env.num_actions
        single = observation_space(self.env.observation_shape, self.num_actions, self.obs_layout)
        super().__init__(num_envs, single, gym.spaces.Discrete(self.num_actions))
        self._actions: np.ndarray | None = None
        self._mask: np.ndarray | None = None
        self._noop = np.zeros(self.num_actions, dtype=np.int8)
        self._noop[NOOP_ACTION] = 1
        self._seeds = [seed + i for i in range(num_envs)]

    # ---- observations ----------------------------------------------------

    def _obs(self, obs: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        self._mask = mask
        return {
            "observation": to_layout(obs, self.obs_layout).copy(),
            "action_mask": mask.astype(np.int8),
        }

    def action_masks(self) -> np.ndarray:
        """bool ``(num_envs, num_actions)``: the legal actions of the
        observations last returned (a copy)."""
        if self._mask is None:
            raise RuntimeError("call reset() first")
        return self._mask.copy()

    # ---- the SB3 VecEnv API ----------------------------------------------

    def reset(self) -> dict[str, np.ndarray]:
        """Starts a new episode in every env (with the seeds of ``seed()``, if
        it was called since the last reset)."""
        if any(self._options):
            raise ValueError(
                "reset options are not supported: variant options are fixed when the env "
                f"is made (got {self._options[0]!r})"
            )
        seeds = None
        if any(s is not None for s in self._seeds):
            current = self.env.env_seeds
            seeds = [c if s is None else int(s) for s, c in zip(self._seeds, current)]
        obs, mask, *_ = self.env.reset(seed=seeds)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{"termination": ""} for _ in range(self.num_envs)]
        return self._obs(obs, mask)

    def step_async(self, actions: np.ndarray) -> None:
        """Stores one action per env for :meth:`step_wait`."""
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, list[dict]]:
        """Steps every env in Rust (same-step autoreset; see the module doc)."""
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        actions, self._actions = self._actions, None
        if actions.shape != (self.num_envs,):
            actions = actions.reshape(self.num_envs)
        obs, mask, rewards, terminated, truncated, _ = self.env.step(actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if self._pool:
            # At an end, the member of the game that ended (its reward's).
            member = np.where(dones, self.env.last_opponent_index, self.env.opponent_index)
            for info, m in zip(infos, member.tolist()):
                info["opponent_index"] = m
        if dones.any():
            final = to_layout(self.env.final_observation, self.obs_layout)
            codes = self.env.termination
            for i in np.flatnonzero(dones):
                infos[i] |= {
                    "terminal_observation": {
                        "observation": final[i].copy(),
                        "action_mask": self._noop.copy(),
                    },
                    "TimeLimit.truncated": bool(truncated[i] and not terminated[i]),
                    "termination": _TERMINATION_NAMES[codes[i] + 1],
                }
        return self._obs(obs, mask), rewards.copy(), dones, infos

    def close(self) -> None:
        """Releases the Rust games (later calls raise ``ValueError``)."""
        env = getattr(self, "env", None)
        if env is not None:
            env.close()

    def _indices(self, indices: None | int | Iterable[int]) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, (int, np.integer)):
            indices = [int(indices)]
        out = [int(i) for i in indices]
        for i in out:
            if not 0 <= i < self.num_envs:
                raise IndexError(f"env index must be from 0 to {self.num_envs - 1}, got {i}")
        return out

    def get_attr(self, attr_name: str, indices: None | int | Iterable[int] = None) -> list[Any]:
        """The adapter's attribute ``attr_name``, once per env in ``indices``
        (every env shares the adapter's settings)."""
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(
        self, attr_name: str, value: Any, indices: None | int | Iterable[int] = None
    ) -> None:
        """Sets the adapter's attribute; only for all envs at once (``indices``
        None or every index), as they share it."""
        if sorted(set(self._indices(indices))) != list(range(self.num_envs)):
            raise ValueError(
                "the envs share one adapter: set_attr applies to every env at once (indices=None)"
            )
        setattr(self, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: None | int | Iterable[int] = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """Calls a per-env method for each env in ``indices``:
        ``"action_masks"`` (the env's bool mask), ``"history"`` (its
        episode's actions) or ``"fen"``."""
        idx = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in idx]
        if method_name == "history":
            return [self.env.history(i) for i in idx]
        if method_name == "fen":
            return [self.env.fen(i) for i in idx]
        raise AttributeError(
            f"no per-env method {method_name!r}; env_method supports "
            f"{', '.join(PER_ENV_METHODS)} (adapter methods are called directly)"
        )

    def env_is_wrapped(
        self, wrapper_class: type, indices: None | int | Iterable[int] = None
    ) -> list[bool]:
        """False for every env: the games are not Python envs, so none is wrapped."""
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        """Not supported: render single envs (``gymnasium.make(id, render_mode=...)``)."""
        raise NotImplementedError(
            "the Rust vector env does not render; use gymnasium.make(id, render_mode='rgb_array')"
        )


def make_vec_env(
    env_id: str,
    n_envs: int = 1,
    seed: int = 0,
    opponent: Opponent = "random",
    threads: int | None = None,
    obs_layout: str = "flat",
    opponent_weights: Sequence[float] | None = None,
    **options: Any,
) -> DiceChessSB3VecEnv:
    """A :class:`DiceChessSB3VecEnv` of ``n_envs`` games of ``env_id``'s
    variant: the Rust-stepped counterpart of SB3's
    ``make_vec_env(env_id, n_envs, seed)`` (env ``i`` seeded ``seed + i``);
    ``options`` are variant options (``max_plies``, ...)."""
    return DiceChessSB3VecEnv(
        variant_of(env_id),
        n_envs,
        opponent,
        seed,
        threads,
        obs_layout,
        opponent_weights=opponent_weights,
        **options,
    )
