"""PettingZoo AEC environment for two learners.

>>> from dicechess.pettingzoo import env
>>> e = env("vegas")
>>> e.reset(seed=0)
>>> obs, reward, termination, truncation, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_0`` and ``player_1`` (players, not colours: in Random Move
Number Chess the colours are drawn). Chance (dice) is resolved inside the env
by the Rust episode loop the Gymnasium envs run too (``dicechess._core.Episode``,
seeded as ``dicechess.gym``); a player who is not deciding sees an all-zero action mask.
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

from ._core import Episode, State
from .gym import ILLEGAL_ACTION_MODES, check_action
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
        self._episode = Episode(variant, illegal_action=illegal_action, **options)
        self._seed: int | None = None
        self._index = 0
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    @property
    def state_(self) -> State:
        """A copy of the current game state (history and options included)."""
        return self._episode.state()

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
        return {
            "observation": to_layout(self._episode.observation(p), self.obs_layout),
            "action_mask": self._episode.mask(p).astype(np.int8),
        }

    def _update_infos(self) -> None:
        ep = self._episode
        dice, plies, _fen = ep.status()
        rolls = ep.rolls
        for a in self.agents:
            self.infos[a] = {
                "termination": ep.termination or "",
                "dice": dice,
                "rolls": padded(rolls),
                "num_rolls": len(rolls),
                "plies": plies,
            }

    def _select(self) -> None:
        p = self._episode.decider
        if p is not None:
            self.agent_selection = AGENTS[p]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game; ``seed`` seeds the dice (episode ``k`` after
        ``reset(seed=s)`` rolls from ``game_rng(s, k)``, as ``dicechess.gym``).
        ``options`` is accepted for API compatibility and ignored, as in
        PettingZoo's classic envs (variant options are given to
        ``env(variant, **options)``)."""
        if seed is not None:
            self._seed, self._index = int(seed), 0
        elif self._seed is None:
            self._seed, self._index = int(np.random.default_rng().integers(2**63 - 1)), 0
        else:
            self._index += 1
        self._episode.reset(self._seed, self._index)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.agent_selection = AGENTS[0]
        self._select()
        self._finish_if_over()
        self._update_infos()

    def _finish_if_over(self) -> None:
        ep = self._episode
        if ep.over:
            r = ep.returns()
            for i, a in enumerate(AGENTS):
                self.rewards[a] = float(r[i])
                if ep.truncated:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True

    def step(self, action: Any) -> None:
        """Plays ``action`` for ``agent_selection``; ``None`` removes a done agent.

        Raises ``TypeError`` for a non-integer action and ``ValueError`` for one
        outside the action space; an illegal one ends the game as a loss
        (``illegal_action="lose"``) or raises ``ValueError`` with the state
        unchanged (``"raise"``).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = check_action(action, self.num_actions)
        ep = self._episode
        if self.illegal_action == "raise":
            mask = ep.mask()
            if not mask[a]:
                raise ValueError(
                    f"illegal action {a} for {agent}: {int(mask.sum())} legal actions here "
                    "(see the observation's action_mask)"
                )
        self._cumulative_rewards[agent] = 0.0
        ep.step(a)  # an illegal action (illegal_action="lose") ends the episode
        for x in AGENTS:
            self.rewards[x] = 0.0
        self._finish_if_over()
        if not ep.over:
            self._select()
        self._update_infos()
        self._accumulate_rewards()

    def state(self) -> np.ndarray:
        """A global view: player 0's observation tensor."""
        return self._episode.observation(0)

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
