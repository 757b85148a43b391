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
``game_rng(seed, i * 2**32 + k)`` (``k`` counted from the last ``reset``), so
results do not depend on the thread count.

``infos["action_mask"]`` is the ``(num_envs, num_actions)`` bool mask of legal
actions. The returned arrays are rewritten in place by every call: copy them
if you keep them.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

from ._core import VecEnv


class DiceChessVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` games of ``variant`` against a built-in opponent.

    ``opponent`` is an agent spec (see the module doc); an invalid one raises
    ``ValueError`` listing the valid specs. ``seed`` seeds every episode's
    generator; ``threads`` (None: all cores where that pays, see
    ``dicechess.VecEnv``) never changes the results;
    ``options`` are the variant's options (e.g. ``max_plies``).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        variant: str,
        num_envs: int,
        opponent: str = "random",
        seed: int = 0,
        threads: int | None = None,
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
        self.env = VecEnv(
            variant, num_envs, seed=seed, opponent=opponent, threads=threads, **options
        )
        self.num_envs = num_envs
        shape = self.env.observation_shape
        self.single_observation_space = gym.spaces.Box(-np.inf, np.inf, shape, np.float32)
        self.single_action_space = gym.spaces.Discrete(self.env.num_actions)
        self.observation_space = gym.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, num_envs)
        self._seed = seed

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if isinstance(seed, list):
            raise TypeError("seed must be one int for all envs (env i uses stream i), or None")
        if seed is not None:
            self._seed = seed
        obs, mask, _r, _te, _tr, _p = self.env.reset(seed=seed)
        return obs, {"action_mask": mask}

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, mask, rewards, terminated, truncated, _p = self.env.step(np.asarray(actions))
        return obs, rewards, terminated, truncated, {"action_mask": mask}

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
    """A :class:`DiceChessVectorEnv` (gymnasium ``VectorEnv``); see the module doc."""
    return DiceChessVectorEnv(variant, num_envs, opponent, seed, threads, **options)
