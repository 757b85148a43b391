"""PettingZoo AEC environment for two learners.

>>> from dicechess.pettingzoo import env
>>> e = env("vegas")
>>> e.reset(seed=0)
>>> obs, reward, termination, truncation, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_0`` and ``player_1`` (players, not colours: in Random Move
Number Chess the colours are drawn). Chance (dice) is resolved inside the env
with its seeded RNG; a player who is not deciding sees an all-zero action mask.
In Random Move Number Chess a turn has several moves, so the same agent can act
several times in a row.

``illegal_action``: ``"lose"`` (default) ends the game when an agent plays an
illegal action: that agent gets -1, the other 0, ``infos[a]["termination"] ==
"illegal_action"`` (PettingZoo's ``TerminateIllegalWrapper`` convention, as in
its classic envs); ``"raise"`` raises ``ValueError`` with the state unchanged.

``render_mode``: ``"human"`` prints the text diagram, ``"ansi"`` returns it,
``"rgb_array"`` returns an image array. ``obs_layout``: ``"chw"`` (default),
``"hwc"`` or ``"flat"`` (``dicechess.rlspaces``). Infos have fixed shapes
(``dicechess.rlspaces``): ``termination`` (``""`` while the game runs),
``dice`` (``""`` for none), ``rolls`` (the chance outcome ids drawn since the
last decision, padded with -1) with ``num_rolls``, and ``plies``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._core import State
from .gym import (
    ILLEGAL_ACTION_MODES,
    ILLEGAL_ACTION_REWARD,
    TRUNCATIONS,
    check_action,
    sample_chance,
)
from .rlspaces import check_obs_layout, observation_space, padded, to_layout

__all__ = ["env", "raw_env"]

AGENTS = ["player_0", "player_1"]


def env(variant: str = "chess", render_mode: str | None = None, **options: Any) -> AECEnv:
    """The AEC env wrapped with PettingZoo's order-enforcing wrapper."""
    e: AECEnv = raw_env(variant, render_mode=render_mode, **options)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    """The unwrapped AEC env for ``variant`` (options go to ``dicechess.State``)."""

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "dicechess_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        variant: str = "chess",
        render_mode: str | None = None,
        obs_layout: str = "chw",
        illegal_action: str = "lose",
        **options: Any,
    ):
        super().__init__()
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action must be one of {', '.join(ILLEGAL_ACTION_MODES)}, "
                f"got {illegal_action!r}"
            )
        self.illegal_action = illegal_action
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None, 'human', 'ansi' or 'rgb_array', got {render_mode!r}"
            )
        self.obs_layout = check_obs_layout(obs_layout)
        proto = State(variant, **options)
        self.variant = variant
        self.options = dict(options)
        self.render_mode = render_mode
        self.num_actions = proto.num_actions()
        shape = proto.observation_tensor().shape
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.agent_name_mapping = {a: i for i, a in enumerate(AGENTS)}
        obs_space = observation_space(shape, self.num_actions, self.obs_layout)
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in AGENTS}
        self.state_ = proto
        self._np_random = np.random.default_rng()
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]
        self._rolls: list[int] = []

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent`` (the same for both)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The action space of ``agent`` (the same for both)."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` from ``agent``'s point of view;
        the mask is all zero unless ``agent`` is deciding."""
        p = self.agent_name_mapping[agent]
        s = self.state_
        if s.current_player() == p:
            mask = s.legal_actions_mask().astype(np.int8)
        else:
            mask = np.zeros(self.num_actions, dtype=np.int8)
        return {
            "observation": to_layout(s.observation_tensor(p), self.obs_layout),
            "action_mask": mask,
        }

    def _resolve_chance(self) -> None:
        s = self.state_
        while s.is_chance_node():
            a = sample_chance(s, self._np_random)
            self._rolls.append(a)
            s.apply_action(a)

    def _update_infos(self) -> None:
        s = self.state_
        for a in self.agents:
            self.infos[a] = {
                "termination": s.termination() or "",
                "dice": s.dice or "",
                "rolls": padded(self._rolls),
                "num_rolls": len(self._rolls),
                "plies": s.plies,
            }

    def _select(self) -> None:
        p = self.state_.current_player()
        if p in (0, 1):
            self.agent_selection = AGENTS[p]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game; ``seed`` seeds the dice. ``options`` is accepted
        for API compatibility and ignored, as in PettingZoo's classic envs
        (variant options are given to ``env(variant, **options)``)."""
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        self.state_ = State(self.variant, **self.options)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self._rolls = []
        self._resolve_chance()
        self.agent_selection = AGENTS[0]
        self._select()
        self._finish_if_over()
        self._update_infos()

    def _finish_if_over(self) -> None:
        s = self.state_
        if s.is_terminal():
            r = s.returns()
            trunc = s.termination() in TRUNCATIONS
            for i, a in enumerate(AGENTS):
                self.rewards[a] = float(r[i])
                if trunc:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True

    def step(self, action: Any) -> None:
        """Plays ``action`` for ``agent_selection``; ``None`` removes a done agent.

        Raises ``TypeError`` for a non-integer action; an illegal one ends the
        game as a loss (``illegal_action="lose"``) or raises ``ValueError``
        with the state unchanged (``"raise"``).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = check_action(action)
        s = self.state_
        legal = s.legal_actions()
        if a not in legal and self.illegal_action == "lose":
            self._lose_by_illegal_action(agent)
            return
        if a not in legal:
            raise ValueError(
                f"illegal action {a} for {agent}: {len(legal)} legal actions here "
                "(see the observation's action_mask)"
            )
        self._cumulative_rewards[agent] = 0.0
        self._rolls = []
        s.apply_action(a)
        self._resolve_chance()
        for x in AGENTS:
            self.rewards[x] = 0.0
        self._finish_if_over()
        if not s.is_terminal():
            self._select()
        self._update_infos()
        self._accumulate_rewards()

    def _lose_by_illegal_action(self, agent: str) -> None:
        self._cumulative_rewards[agent] = 0.0
        for x in AGENTS:
            self.rewards[x] = ILLEGAL_ACTION_REWARD if x == agent else 0.0
            self.terminations[x] = True
        self._update_infos()
        for x in AGENTS:
            self.infos[x]["termination"] = "illegal_action"
        self._accumulate_rewards()

    def state(self) -> np.ndarray:
        """A global view: player 0's observation tensor."""
        return self.state_.observation_tensor(0)

    def render(self) -> Any:
        """``"human"``: prints the text diagram (returns None); ``"ansi"``: the
        text diagram; ``"rgb_array"``: an image array."""
        from . import render

        if self.render_mode == "human":
            print(render.ansi(self.state_))
            return None
        return render.render(self.state_, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""
