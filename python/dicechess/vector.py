"""A ``gymnasium.vector.VectorEnv`` over :class:`dicechess.VecEnv`.

The learner is player 0; the opponent moves inside Rust, and chance nodes are
resolved there too. The opponent is any agent spec the core parses
(``dicechess.AGENT_SPECS``): ``"random"``, ``"greedy"``,
``"expectimax:depth=N"``, ``"mcts:sims=N[,c=X][,select=...]"``. Each env owns
its own agent (search buffers reused between moves), and the agent draws its
randomness (tie-breaks, MCTS sampling) from the episode's generator, so
episodes stay reproducible. A searching opponent costs its search on every
one of its moves: with ``mcts``, a step can take thousands of times longer
than with ``"random"``.

Autoreset (``autoreset_mode``): gymnasium's ``AutoresetMode.NEXT_STEP`` by
default: the step on which env ``i``'s game ends returns its final
observation, reward and ``terminated``/``truncated`` (the final mask marks
only ``dicechess.rlspaces.NOOP_ACTION``: no mask is ever all zero); the next
``step`` ignores ``actions[i]`` and returns the first observation of the new
episode with reward 0. ``autoreset_mode="same_step"``
(``AutoresetMode.SAME_STEP``): the step on which the game ends returns the
reward and flags of that game with the *next* game's first observation;
the final observation is in ``infos["final_obs"][i]`` (``infos["_final_obs"]``
marks the envs that ended) and its termination in
``infos["final_info"]["termination"][i]``; every observation returned is one
to act on, so a training loop needs no special case for finished envs.

Episode ``k`` of env ``i`` draws its randomness from
``game_rng(seed + i, k)`` (``k`` counted from the last ``reset``): env ``i``
plays the games of the single env ``gymnasium.make(id)`` reset with seed
``seed + i`` (both run one episode loop in Rust), and results do not depend
on the thread count.

Observations are the single env's (``dicechess/<Variant>-v0``) batched:
``{"observation": float32 (num_envs, *shape of obs_layout), "action_mask":
int8 (num_envs, num_actions)}``; ``obs_layout`` is ``"flat"`` (default),
``"chw"`` or ``"hwc"`` (``dicechess.rlspaces``). ``infos["action_mask"]`` is
the same mask as bool, kept for older code; ``infos["termination"]`` is the
single env's ``termination`` per env (``""`` while the game runs; an object
array of str, with ``infos["_termination"]`` all true). An illegal action
raises ``ValueError`` and changes no env (``illegal_action="raise"``, the
only mode). ``envs.action_space.sample()`` draws a legal action for every
env (a :class:`LegalMultiDiscrete`, sampling with the current masks).
``reset(seed=s)`` seeds env ``i`` with ``s + i``; ``reset(seed=[s0, s1,
...])`` gives one seed per env.

Self-play opponents: ``opponent`` may also be a callable ``(obs, mask) ->
actions`` (e.g. a frozen copy of the learning policy), called once per step
with the observations (player 1's point of view, in ``obs_layout``, batch
axis first) and bool masks of the envs where the opponent must move, and
returning one legal action per row (anything else raises and changes no
env); or a list of specs and callables, a pool from which every env draws one
member per episode (``opponent_weights``: relative weights, default equal),
reproducibly for the seed. ``infos["opponent_index"]`` is the member each
env plays (in ``"same_step"`` mode ``infos["final_info"]["opponent_index"]``
is the member of the game that ended). See ``docs/rl.md``, "Self-play".

``gymnasium.make_vec("dicechess/<Variant>-v0", num_envs=N)`` builds this env
(``vectorization_mode="vector_entry_point"``, gymnasium's default for these
ids); keyword arguments go to :class:`DiceChessVectorEnv`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Union

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

from ._core import TERMINATIONS, VecEnv
from .rlspaces import NOOP_ACTION, check_obs_layout, observation_space, to_layout

__all__ = [
    "AUTORESET_MODES",
    "DiceChessVectorEnv",
    "LegalMultiDiscrete",
    "Opponent",
    "make_vec",
    "vec_opponent",
]

#: A callable opponent: ``(obs, mask) -> actions`` for a batch of envs.
OpponentPolicy = Callable[[np.ndarray, np.ndarray], Any]
#: An ``opponent``: an agent spec, a callable, or a pool (list) of these.
Opponent = Union[str, OpponentPolicy, Sequence[Union[str, OpponentPolicy]]]


def vec_opponent(opponent: Any, obs_layout: str) -> Any:
    """``opponent`` as ``dicechess.VecEnv`` takes it: each callable (alone or
    in a pool) gets its observations in ``obs_layout`` rather than the core's
    ``(k, planes, ranks, files)``. Other values are passed on as they are."""

    def wrap(f: Any) -> Any:
        if isinstance(f, str) or not callable(f):
            return f
        try:
            inspect.signature(f).bind(None, None)
        except TypeError:
            raise TypeError(
                "a vector env's opponent callable takes (obs, mask) for a batch of envs and "
                f"returns their actions; {f!r} does not take two arguments (a callable "
                "state -> action is the single env's opponent). An opponent is an agent "
                "spec string, such a callable, or a list of these (a pool)"
            ) from None
        except ValueError:
            pass  # no signature to read (a builtin): the first call will tell
        if obs_layout == "chw":
            return f

        def policy(obs: np.ndarray, mask: np.ndarray) -> Any:
            return f(to_layout(obs, obs_layout), mask)

        return policy

    if isinstance(opponent, (list, tuple)):
        return [wrap(m) for m in opponent]
    return wrap(opponent)


def shown_opponent(opponent: Any, core: Any) -> Any:
    """The ``opponent`` to show: the core's canonical specs, the caller's callables."""
    if isinstance(opponent, (list, tuple)):
        return [c if isinstance(c, str) else o for c, o in zip(core, opponent)]
    return core if isinstance(core, str) else opponent


#: Accepted ``autoreset_mode`` values (also as ``gymnasium.vector.AutoresetMode``).
AUTORESET_MODES = ("next_step", "same_step")

#: Termination code + 1 -> name (``""`` for none: code -1).
_TERMINATION_NAMES = np.array(["", *TERMINATIONS], dtype=object)


class LegalMultiDiscrete(gym.spaces.MultiDiscrete):
    """The batched action space of :class:`DiceChessVectorEnv`: ``sample()``
    without a mask draws a legal action for every env (gymnasium's
    ``MultiDiscrete.sample(mask=...)`` with the env's current masks; a
    finished env's mask holds only ``NOOP_ACTION``). With a ``mask`` or
    ``probability`` it is ``MultiDiscrete.sample``."""

    def __init__(self, num_actions: int, num_envs: int, env: Any = None) -> None:
        super().__init__(np.full(num_envs, num_actions, dtype=np.int64))
        self.env = env
        """The vector env whose current masks ``sample()`` draws from (None: any action)."""

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        """One action per env; legal ones when neither mask nor probability is given."""
        if mask is None and probability is None and self.env is not None:
            legal = self.env.action_masks()
            if legal is not None:
                mask = tuple(row.astype(np.int8) for row in legal)
        return super().sample(mask=mask, probability=probability)


_MODES = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}
_MODE_NAMES = {v: k for k, v in _MODES.items()}


def _autoreset_mode(mode: Any) -> AutoresetMode:
    if isinstance(mode, AutoresetMode) and mode in _MODE_NAMES:
        return mode
    if isinstance(mode, str) and mode in _MODES:
        return _MODES[mode]
    raise ValueError(
        f"autoreset_mode must be one of {', '.join(AUTORESET_MODES)} "
        f"(or AutoresetMode.NEXT_STEP / SAME_STEP), got {mode!r}"
    )


class DiceChessVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` games of ``variant`` against an opponent.

    ``opponent`` is an agent spec, a callable ``(obs, mask) -> actions`` or a
    pool (a list of these, drawn per env and episode with
    ``opponent_weights``; see the module doc); an invalid spec raises
    ``ValueError`` listing the valid specs. ``seed`` seeds every episode's
    generator; ``threads`` (None: all cores where that pays, see
    ``dicechess.VecEnv``) never changes the results; ``obs_layout`` as in the
    single env; ``options`` are the variant's options (e.g. ``max_plies``).
    ``autoreset_mode``: ``"next_step"`` (default) or ``"same_step"`` (also as
    ``AutoresetMode``; see the module doc).
    ``agent_player`` (0 only: the learner is player 0) and ``illegal_action``
    (``"raise"`` only) are accepted so that the single env's keyword
    arguments given to ``gymnasium.make_vec`` are checked, not ignored.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        variant: str,
        num_envs: int,
        opponent: Opponent = "random",
        seed: int = 0,
        threads: int | None = None,
        obs_layout: str = "flat",
        agent_player: int = 0,
        illegal_action: str = "raise",
        render_mode: str | None = None,
        autoreset_mode: str | AutoresetMode = "next_step",
        opponent_weights: Sequence[float] | None = None,
        **options: Any,
    ) -> None:
        mode = _autoreset_mode(autoreset_mode)
        if opponent is None:
            raise ValueError(
                "a gymnasium VectorEnv needs an opponent (an agent spec such as "
                '"random", "greedy", "expectimax:depth=2"); '
                "use dicechess.VecEnv(opponent=None) for self-play"
            )
        if agent_player != 0 or isinstance(agent_player, bool):
            raise ValueError(
                f"the vector env's learner is player 0: agent_player must be 0, "
                f"got {agent_player!r}"
            )
        if illegal_action != "raise":
            raise ValueError(
                f"the vector env raises on illegal actions: illegal_action must be 'raise', "
                f"got {illegal_action!r}"
            )
        if render_mode is not None:
            raise ValueError(
                f"the vector env does not render: render_mode must be None, got {render_mode!r}"
            )
        self.obs_layout = check_obs_layout(obs_layout)
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self.autoreset_mode = mode
        self.env = VecEnv(
            variant,
            num_envs,
            seed=seed,
            opponent=vec_opponent(opponent, self.obs_layout),
            threads=threads,
            autoreset=_MODE_NAMES[mode],
            opponent_weights=opponent_weights,
            **options,
        )
        """The Rust vector env (``dicechess.VecEnv``) that steps every game."""
        self.opponent = shown_opponent(opponent, self.env.opponent)
        """The opponent: canonical specs, the callables as given, or a list (a pool)."""
        self._mask: np.ndarray | None = None
        self.num_envs = num_envs
        self.single_observation_space = observation_space(
            self.env.observation_shape, self.env.num_actions, self.obs_layout
        )
        self.single_action_space = gym.spaces.Discrete(self.env.num_actions)
        self.observation_space = gym.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = LegalMultiDiscrete(self.env.num_actions, num_envs, self)
        self.render_mode = None
        self._seed = seed
        self._all = np.ones(num_envs, dtype=bool)

    def action_masks(self) -> np.ndarray | None:
        """The current masks, bool ``(num_envs, num_actions)`` (a copy), or
        None before the first ``reset``."""
        return None if self._mask is None else self._mask.copy()

    def _out(
        self, obs: np.ndarray, mask: np.ndarray, codes: np.ndarray
    ) -> tuple[dict[str, np.ndarray], dict]:
        self._mask = mask
        return (
            {"observation": to_layout(obs, self.obs_layout), "action_mask": mask.astype(np.int8)},
            {
                "action_mask": mask.copy(),
                "termination": _TERMINATION_NAMES[codes + 1],
                "_termination": self._all.copy(),
                "opponent_index": self.env.opponent_index,
                "_opponent_index": self._all.copy(),
            },
        )

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Starts episode 0 of every env: ``seed`` an int (env ``i`` gets
        ``seed + i``), a list of ``num_envs`` ints (one per env), or None
        (every env restarts from its seed)."""
        if isinstance(seed, (list, tuple, np.ndarray)):
            # numpy integers as ints; anything else goes on to the core's check.
            seed = [
                int(s) if isinstance(s, (int, np.integer)) and not isinstance(s, bool) else s
                for s in seed
            ]
        obs, mask, _r, _te, _tr, _p = self.env.reset(seed=seed)
        self._seed = self.env.seed
        return self._out(obs, mask, self.env.termination)

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per env (ignored for an env whose episode ended on the
        previous step, in ``"next_step"`` mode)."""
        obs, mask, rewards, terminated, truncated, _p = self.env.step(np.asarray(actions))
        codes = self.env.termination
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            ended = terminated | truncated
            out, info = self._out(obs, mask, np.where(ended, -1, codes))
            if ended.any():
                info.update(self._finals(ended, codes))
        else:
            out, info = self._out(obs, mask, codes)
        return out, rewards.copy(), terminated.copy(), truncated.copy(), info

    def _finals(self, ended: np.ndarray, codes: np.ndarray) -> dict[str, Any]:
        """``final_obs`` / ``final_info`` of the envs that ended (SAME_STEP)."""
        final = to_layout(self.env.final_observation, self.obs_layout)
        noop = np.zeros(self.env.num_actions, dtype=np.int8)
        noop[NOOP_ACTION] = 1
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i in np.flatnonzero(ended):
            final_obs[i] = {"observation": final[i].copy(), "action_mask": noop.copy()}
        return {
            "final_obs": final_obs,
            "_final_obs": ended.copy(),
            "final_info": {
                "termination": _TERMINATION_NAMES[codes + 1],
                "_termination": ended.copy(),
                "opponent_index": self.env.last_opponent_index,
                "_opponent_index": ended.copy(),
            },
            "_final_info": ended.copy(),
        }

    def history(self, i: int) -> list[int]:
        """Actions of env ``i``'s current episode (replayable via ``State``)."""
        return self.env.history(i)

    def close_extras(self, **kwargs: Any) -> None:
        """Releases the Rust games and threads (``close()``); later calls raise.
        Safe on an env whose ``__init__`` failed (gymnasium closes it too)."""
        env = getattr(self, "env", None)
        if env is not None:
            env.close()


def make_vec(
    variant: str,
    num_envs: int,
    opponent: Opponent = "random",
    seed: int = 0,
    threads: int | None = None,
    autoreset_mode: str | AutoresetMode = "next_step",
    **options: Any,
) -> DiceChessVectorEnv:
    """A :class:`DiceChessVectorEnv` (gymnasium ``VectorEnv``); see the module
    doc. The same as ``gymnasium.make_vec("dicechess/<Variant>-v0", num_envs,
    ...)``."""
    return DiceChessVectorEnv(
        variant, num_envs, opponent, seed, threads, autoreset_mode=autoreset_mode, **options
    )
