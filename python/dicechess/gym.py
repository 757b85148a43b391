"""Gymnasium single-agent environments: ``dicechess/<Variant>-v0``.

Importing this module registers ``dicechess/Chess-v0``, ``Cubic-v0``,
``CubicCheckers-v0``, ``DiceChess-v0``, ``DiceChess3-v0``, ``Fluky-v0``, ``Gardner-v0``,
``Metamorph-v0``, ``RandomMoveNumber-v0`` and ``Vegas-v0``
(``import dicechess`` does it too when gymnasium is installed)::

    import gymnasium, dicechess.gym
    env = gymnasium.make("dicechess/Vegas-v0", opponent="random", agent_player="random")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))

The agent plays one side; the opponent (``"random"``, a callable
``state -> action``, or an agent spec for ``dicechess.Agent``) plays the other;
the dice, and a spec opponent's moves, are played in Rust by the episode loop
the vector env runs too (``dicechess._core.Episode``), so for one seed the
single env and the vector env play the same games. The reward is
+1/-1/0 at the end of the game from the agent's side; ``truncated`` is set when
the game stops at ``max_plies``; an illegal action ends the game as a loss
(-1) unless ``illegal_action="raise"``. Observations are flat unless
``obs_layout="chw"`` or ``"hwc"``; infos have fixed shapes (docs/rl.md).
Variant options (``max_plies``, ``fen``, ``die_faces``, …) pass through
``gymnasium.make``.
"""

from __future__ import annotations

from typing import Any, Callable, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _core
from ._core import State
from .registry import variant_info
from .rlspaces import NOOP_ACTION, check_obs_layout, observation_space, padded, to_layout

__all__ = [
    "ENV_IDS",
    "DiceChessEnv",
    "LegalDiscrete",
    "register_envs",
    "resolve_opponent",
    "sample_chance",
]

#: Gymnasium id suffix -> variant name, from the registry (every variant has one).
ENV_IDS = {v.gym: v.name for v in variant_info().values()}

#: Terminations that are truncations, not game results.
TRUNCATIONS = frozenset({"max_plies"})

Opponent = Union[str, Callable[[State], int]]


def register_envs() -> None:
    """Registers ``dicechess/<Variant>-v0`` with gymnasium (idempotent).

    ``gymnasium.make`` returns the env itself, unwrapped, so that
    ``check_env(gymnasium.make(id))`` checks it as it is: the env enforces the
    call order itself (``step`` before ``reset`` raises ``RuntimeError``) and
    passes the checker, which our tests run on every id, so the passive
    checker wrapper would add nothing but a warning. ``gymnasium.make_vec``
    builds the Rust-stepped :class:`dicechess.vector.DiceChessVectorEnv`."""
    for name, variant in ENV_IDS.items():
        env_id = f"dicechess/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="dicechess.gym:DiceChessEnv",
                vector_entry_point="dicechess.vector:DiceChessVectorEnv",
                kwargs={"variant": variant},
                disable_env_checker=True,
                order_enforce=False,
            )


def sample_chance(state: State, rng: np.random.Generator) -> int:
    """Samples a chance outcome id of ``state`` with ``rng``."""
    outcomes = state.chance_outcomes()
    probs = np.array([p for _, p in outcomes], dtype=np.float64)
    i = int(rng.choice(len(outcomes), p=probs / probs.sum()))
    return int(outcomes[i][0])


class _RandomOpponent:
    """Uniformly random legal actions from the env's RNG (picklable)."""

    def __init__(self, env: DiceChessEnv) -> None:
        self.env = env

    def __call__(self, state: State) -> int:
        legal = state.legal_actions()
        return int(legal[int(self.env.np_random.integers(len(legal)))])


def resolve_opponent(spec: Opponent, seed: int, env: DiceChessEnv) -> Callable[[State], int]:
    """Turns an opponent spec into a callable ``state -> action``.

    ``"random"``: uniform over legal actions (env RNG); a callable: used as is;
    any other string: an agent spec for ``dicechess.Agent(spec, seed=seed)``
    (``"greedy"``, ``"expectimax:depth=2"``, ``"mcts:sims=200"``, ...).
    """
    if callable(spec):
        return spec
    if not isinstance(spec, str):
        raise TypeError(
            f"opponent must be 'random', a callable state -> action or an agent spec string, "
            f"got {type(spec).__name__}"
        )
    if spec == "random":
        return _RandomOpponent(env)
    if spec.startswith("zero:"):
        from .zero import ZeroAgent

        return ZeroAgent.from_spec(spec)
    from . import _core

    agent = _core.Agent(spec, seed=seed)  # ValueError listing the valid specs
    return agent.select


def check_action(action: Any, num_actions: int | None = None) -> int:
    """Validates an action's type: a Python or numpy integer (0-d arrays too),
    and with ``num_actions`` that it is in the action space.

    Raises ``TypeError`` for other types and ``ValueError`` for arrays that are
    not 0-d and for ids outside ``0 .. num_actions-1`` (never a policy's
    illegal move: no ``illegal_action="lose"`` for them).
    """
    if isinstance(action, np.ndarray):
        if action.shape not in ((), (1,)):
            raise ValueError(
                f"action must be a scalar integer, got an array of shape {action.shape}"
            )
        if not np.issubdtype(action.dtype, np.integer):
            raise TypeError(f"action must be an integer, got an array of dtype {action.dtype}")
        a = int(action.reshape(()))
    elif isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"action must be an integer action id, got {type(action).__name__}")
    else:
        a = int(action)
    if num_actions is not None and not 0 <= a < num_actions:
        raise ValueError(f"action must be from 0 to {num_actions - 1} (the action space), got {a}")
    return a


#: What ``step`` does with an illegal action (see :class:`DiceChessEnv`).
ILLEGAL_ACTION_MODES = ("lose", "raise")
#: Reward of an illegal action with ``illegal_action="lose"``.
ILLEGAL_ACTION_REWARD = -1.0


class LegalDiscrete(spaces.Discrete):
    """``Discrete(num_actions)`` whose ``sample()`` without a mask draws a legal
    action of the env's current state."""

    def __init__(self, n: int, env: Any = None) -> None:
        super().__init__(n)
        self.env = env
        """The env whose current legal actions ``sample()`` draws from (None: any action)."""

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        """A uniformly random action; legal ones only when no mask is given."""
        if mask is None and probability is None and self.env is not None:
            legal = self.env.action_masks().astype(np.int8)
            if legal.any():
                mask = legal
        return super().sample(mask=mask, probability=probability)


class DiceChessEnv(gymnasium.Env):
    """One dice-chess variant as a single-agent Gymnasium env.

    Args:
        variant: a name from ``dicechess.variants()``.
        opponent: ``"random"``, a callable ``state -> action`` (gets a copy of
            the state), or an agent spec for ``dicechess.Agent(spec, seed=...)``.
        agent_player: 0, 1 or ``"random"`` (drawn at each reset).
        render_mode: None, ``"ansi"`` or ``"rgb_array"``.
        illegal_action: ``"lose"`` (default): an illegal action ends the game
            as a loss for the agent (reward ``ILLEGAL_ACTION_REWARD`` = -1,
            ``terminated``, ``info["termination"] == "illegal_action"``, the
            state unchanged), as PettingZoo's classic envs do, so training
            loops that sample from the whole action space (and the env
            checkers) work; ``"raise"``: an illegal action raises
            ``ValueError`` and changes nothing.
        obs_layout: ``"flat"`` (default), ``"chw"`` or ``"hwc"``: the shape of
            ``obs["observation"]`` (see ``dicechess.rlspaces``).
        **options: variant options for ``dicechess.State`` (``max_plies``,
            ``fen``, ``die_faces``, …).

    Observations are ``{"observation": float32 in obs_layout,
    "action_mask": int8 (num_actions,)}`` from the agent's point of view. No
    mask is all zero: the final observation's marks only
    ``dicechess.rlspaces.NOOP_ACTION`` (the action a vector env's next step
    ignores; ``step`` itself raises after the end).

    Infos (every value of a fixed shape, so vector envs can stack them):
    ``termination`` (str, ``""`` while the game runs), ``dice`` (str: the
    roll showing, as ``State.dice``, ``""`` for none), ``rolls`` (int64
    ``(INFO_PAD,)``: the chance outcome ids drawn since the agent's last
    action, padded with -1; ``num_rolls`` counts them, only the last
    ``INFO_PAD`` are kept), ``opponent_actions`` / ``num_opponent_actions``
    (the same for the opponent's actions), ``illegal_action`` (the agent's
    illegal action id, else -1), ``agent_player``, ``plies`` (int) and
    ``fen`` (str).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        variant: str = "chess",
        opponent: Opponent = "random",
        agent_player: int | str = 0,
        render_mode: str | None = None,
        illegal_action: str = "lose",
        obs_layout: str = "flat",
        **options: Any,
    ) -> None:
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action must be one of {', '.join(ILLEGAL_ACTION_MODES)}, "
                f"got {illegal_action!r}"
            )
        self.illegal_action = illegal_action
        self.obs_layout = check_obs_layout(obs_layout)
        if agent_player not in (0, 1, "random") or isinstance(agent_player, bool):
            raise ValueError(f"agent_player must be 0, 1 or 'random', got {agent_player!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}"
            )
        proto = State(variant, **options)  # validates variant and options
        self.variant = variant
        self.options = dict(options)
        self.render_mode = render_mode
        self._agent_player_opt = agent_player
        if isinstance(opponent, str) and opponent.startswith("zero:"):
            # A trained network decides from Python, as a callable does.
            opponent = resolve_opponent(opponent, 0, self)
        self._opponent_spec = opponent
        # validate the spec eagerly (callable, "random", or Agent spec)
        resolve_opponent(opponent, 0, self)
        # A callable opponent decides from Python; specs play inside the episode.
        self._callable = opponent if callable(opponent) else None
        self._episode = _core.Episode(
            variant,
            agent_player=agent_player,
            opponent=None if callable(opponent) else opponent,
            illegal_action=illegal_action,
            **options,
        )
        self.num_actions = proto.num_actions()
        self.planes = proto.observation_planes()
        shape = proto.observation_tensor().shape
        self.observation_space = observation_space(shape, self.num_actions, self.obs_layout)
        self.action_space = LegalDiscrete(self.num_actions, self)
        self.agent_player = 0 if agent_player == "random" else int(agent_player)
        self._seed: int | None = None
        self._index = 0
        self._done = True
        self._broken = False

    @property
    def state(self) -> State:
        """A copy of the current game state (history and options included)."""
        return self._episode.state()

    # ---- helpers -------------------------------------------------------

    def _advance(self) -> list[int]:
        """Plays a callable opponent until the agent decides or the game ends
        (chance and built-in opponents play inside the Rust episode);
        returns the opponent's actions since the agent's last one."""
        ep = self._episode
        while self._callable is not None and ep.decider not in (None, self.agent_player):
            ep.step(int(self._callable(ep.state())))  # ValueError if illegal
        return ep.opponent_actions

    def _advance_or_stop(self, call: Callable[[], Any]) -> list[int]:
        """``call()`` (a Rust step or reset), then ``_advance``; if the
        opponent (a callable) raises, or Ctrl-C stops it, the episode is over:
        the error propagates and ``step`` refuses to go on (the agent must
        never move for the opponent) until ``reset``."""
        try:
            call()
            return self._advance()
        except BaseException:
            self._done = True
            self._broken = True
            raise

    def _legal(self) -> np.ndarray:
        """The legal actions (bool); a finished game's marks only ``NOOP_ACTION``."""
        mask = self._episode.mask(self.agent_player)
        if self._episode.over:
            mask[NOOP_ACTION] = True
        return mask

    def _mask(self) -> np.ndarray:
        return self._legal().astype(np.int8)

    def _obs(self) -> dict[str, np.ndarray]:
        return {
            "observation": to_layout(self._episode.observation(self.agent_player), self.obs_layout),
            "action_mask": self._mask(),
        }

    def _info(self, opponent_actions: list[int]) -> dict[str, Any]:
        ep = self._episode
        dice, plies, fen = ep.status()
        rolls = ep.rolls
        return {
            "termination": ep.termination or "",
            "dice": dice,
            "rolls": padded(rolls),
            "num_rolls": len(rolls),
            "agent_player": self.agent_player,
            "opponent_actions": padded(opponent_actions),
            "num_opponent_actions": len(opponent_actions),
            "illegal_action": ep.illegal_action,
            "plies": plies,
            "fen": fen,
        }

    # ---- gymnasium API -------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """Boolean legal-action mask (sb3-contrib ``MaskablePPO``); a
        finished game's marks only ``dicechess.rlspaces.NOOP_ACTION``."""
        return self._legal()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Starts a new game. ``options`` may override variant options for
        this episode (e.g. ``{"fen": ...}``).

        Episode ``k`` after ``reset(seed=s)`` (``k = 0`` for that call, then
        one more for each ``reset()`` without a seed) draws its dice, the
        opponent's randomness and a ``"random"`` agent side from
        ``game_rng(s, k)`` in Rust: the games of env ``i`` of the vector env
        (``gymnasium.make_vec``) seeded ``s - i``. Without any seed, ``s`` is
        drawn from ``np_random``."""
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._index = int(seed), 0
        elif self._seed is None:
            self._seed, self._index = int(self.np_random.integers(2**63 - 1)), 0
        else:
            self._index += 1
        opts = None
        if options:
            opts = dict(self.options)
            opts.update(options)
        self._done = False
        self._broken = False
        ep, run_seed = self._episode, self._seed
        played = self._advance_or_stop(lambda: ep.reset(run_seed, self._index, opts))
        self.agent_player = int(ep.agent_player or 0)
        if ep.over:
            self._done = True
        return self._obs(), self._info(played)

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Plays the agent's action, then chance and the opponent.

        Raises ``RuntimeError`` after the end of the episode (call ``reset``),
        ``TypeError`` for a non-integer action, ``ValueError`` for one outside
        the action space; an illegal action ends the episode as a loss
        (``illegal_action="lose"``, the default) or raises ``ValueError`` with
        the state unchanged (``"raise"``).
        """
        if self._done:
            if self._broken:
                raise RuntimeError(
                    "the episode stopped: the opponent raised (or was interrupted) during the "
                    "last call; call reset() first"
                )
            raise RuntimeError("step() called after the episode ended; call reset() first")
        a = check_action(action, self.num_actions)
        ep = self._episode
        if self.illegal_action == "raise" and not self._mask()[a]:
            raise ValueError(
                f"illegal action {a} for player {self.agent_player}: "
                f"{int(self._mask().sum())} legal actions here (see obs['action_mask'])"
            )
        played = self._advance_or_stop(lambda: ep.step(a))
        reward = 0.0
        if ep.over:
            self._done = True
            reward = float(ep.returns()[self.agent_player])
        return self._obs(), reward, ep.terminated, ep.truncated, self._info(played)

    def render(self) -> Any:
        """``"ansi"``: the text diagram; ``"rgb_array"``: an image array."""
        from . import render

        return render.render(self.state, self.render_mode)


register_envs()
