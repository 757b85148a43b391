"""A ``gymnasium.vector.VectorEnv`` over :class:`dicechess.VecEnv`.

The learner is player 0; the opponent moves inside Rust, and chance nodes are
resolved there too. The opponent is any agent spec the core parses
(``dicechess.AGENT_SPECS``): ``"random"``, ``"greedy"``,
``"expectimax:depth=N"``, ``"mcts:sims=N[,c=X][,select=...]"``. Each env owns
its own agent (search buffers reused between moves), and the agent draws its
randomness (tie-breaks, MCTS sampling) from the episode's generator, so
episodes stay reproducible. A searching opponent costs its search on every
one of its moves: with ``mcts``, a step can take thousands of times longer
than with ``"random"``. Autoreset follows gymnasium's
``AutoresetMode.NEXT_STEP``: the step on which env ``i``'s game ends returns
its final observation, reward and ``terminated``/``truncated``; the next
``step`` ignores ``actions[i]`` and returns the first observation of the new
episode with reward 0. Episode ``k`` of env ``i`` draws its randomness from
``game_rng(seed + i, k)`` (``k`` counted from the last ``reset``): env ``i``
plays the games of the single env ``gymnasium.make(id)`` reset with seed
``seed + i`` (both run one episode loop in Rust), and results do not depend
on the thread count.

Observations are the single env's (``dicechess/<Variant>-v0``) batched:
``{"observation": float32 (num_envs, *shape of obs_layout), "action_mask":
int8 (num_envs, num_actions)}``; ``obs_layout`` is ``"flat"`` (default),
``"chw"`` or ``"hwc"`` (``dicechess.rlspaces``). ``infos["action_mask"]`` is
the same mask as bool, kept for older code. An illegal action raises
``ValueError`` and changes no env (``illegal_action="raise"``, the only mode).

``gymnasium.make_vec("dicechess/<Variant>-v0", num_envs=N)`` builds this env
(``vectorization_mode="vector_entry_point"``, gymnasium's default for these
ids); keyword arguments go to :class:`DiceChessVectorEnv`.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

from ._core import VecEnv
from .rlspaces import check_obs_layout, observation_space, to_layout


class DiceChessVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` games of ``variant`` against a built-in opponent.

    ``opponent`` is an agent spec (see the module doc); an invalid one raises
    ``ValueError`` listing the valid specs. ``seed`` seeds every episode's
    generator; ``threads`` (None: all cores where that pays, see
    ``dicechess.VecEnv``) never changes the results; ``obs_layout`` as in the
    single env; ``options`` are the variant's options (e.g. ``max_plies``).
    ``agent_player`` (0 only: the learner is player 0) and ``illegal_action``
    (``"raise"`` only) are accepted so that the single env's keyword
    arguments given to ``gymnasium.make_vec`` are checked, not ignored.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        variant: str,
        num_envs: int,
        opponent: str = "random",
        seed: int = 0,
        threads: int | None = None,
        obs_layout: str = "flat",
        agent_player: int = 0,
        illegal_action: str = "raise",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if opponent is None:
            raise ValueError(
                "a gymnasium VectorEnv needs an opponent (an agent spec such as "
                '"random", "greedy", "expectimax:depth=2"); '
                "use dicechess.VecEnv(opponent=None) for self-play"
            )
        if not isinstance(opponent, str):
            raise TypeError(f"opponent must be an agent spec string, got {type(opponent).__name__}")
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
        self.env = VecEnv(
            variant, num_envs, seed=seed, opponent=opponent, threads=threads, **options
        )
        self.num_envs = num_envs
        self.single_observation_space = observation_space(
            self.env.observation_shape, self.env.num_actions, self.obs_layout
        )
        self.single_action_space = gym.spaces.Discrete(self.env.num_actions)
        self.observation_space = gym.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        self._seed = seed

    def _out(self, obs: np.ndarray, mask: np.ndarray) -> tuple[dict[str, np.ndarray], dict]:
        return (
            {"observation": to_layout(obs, self.obs_layout), "action_mask": mask.astype(np.int8)},
            {"action_mask": mask.copy()},
        )

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Starts episode 0 of every env; ``seed`` (one int) reseeds them all."""
        if isinstance(seed, list):
            raise TypeError("seed must be one int for all envs (env i uses stream i), or None")
        if seed is not None:
            self._seed = seed
        obs, mask, _r, _te, _tr, _p = self.env.reset(seed=seed)
        return self._out(obs, mask)

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per env (ignored for an env whose episode just ended)."""
        obs, mask, rewards, terminated, truncated, _p = self.env.step(np.asarray(actions))
        out, info = self._out(obs, mask)
        return out, rewards.copy(), terminated.copy(), truncated.copy(), info

    def history(self, i: int) -> list[int]:
        """Actions of env ``i``'s current episode (replayable via ``State``)."""
        return self.env.history(i)

    def close_extras(self, **kwargs: Any) -> None:
        """Releases the Rust games and threads (``close()``); later calls raise."""
        self.env.close()


def make_vec(
    variant: str,
    num_envs: int,
    opponent: str = "random",
    seed: int = 0,
    threads: int | None = None,
    **options: Any,
) -> DiceChessVectorEnv:
    """A :class:`DiceChessVectorEnv` (gymnasium ``VectorEnv``); see the module
    doc. The same as ``gymnasium.make_vec("dicechess/<Variant>-v0", num_envs,
    ...)``."""
    return DiceChessVectorEnv(variant, num_envs, opponent, seed, threads, **options)
