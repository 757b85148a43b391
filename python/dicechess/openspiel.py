"""OpenSpiel bridge: every variant as a registered pyspiel game.

>>> from dicechess.openspiel import load_game   # doctest: +SKIP
>>> game = load_game("vegas")                   # doctest: +SKIP
>>> state = game.new_initial_state()            # doctest: +SKIP

Each variant is registered as ``python_dicechess_<variant>`` (explicit chance
nodes: ``GameType.ChanceMode.EXPLICIT_STOCHASTIC``), so OpenSpiel's own
algorithms (MCTS, expectiminimax, …) run on it. Needs ``open_spiel``
(``pip install 'dicechess[openspiel]'``).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "dicechess.openspiel needs OpenSpiel: pip install 'dicechess[openspiel]' "
        "(the open_spiel package)"
    ) from e

from . import _core
from ._core import State as _State

__all__ = ["DiceChessGame", "DiceChessState", "game_name", "load_game", "register_games"]

#: Chance events per decision allowed for in ``max_game_length``. No constant
#: bounds them in every game (Random Move Number Chess's colour throws can tie
#: again and again; Vegas can pass turns), so a game that reaches
#: ``max_game_length`` actions ends there, truncated (returns 0), and the
#: bound OpenSpiel relies on always holds.
_CHANCE_PER_PLY = 3


def game_name(variant: str) -> str:
    """The pyspiel short name of ``variant``: ``python_dicechess_<variant>``."""
    return f"python_dicechess_{variant}"


def _game_type(variant: str) -> Any:
    params = {"options": "{}"}  # JSON of variant options (fen, max_plies, rule options)
    return pyspiel.GameType(
        short_name=game_name(variant),
        long_name=f"dicechess {variant}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class DiceChessGame(pyspiel.Game):
    """A dicechess variant as a pyspiel game (parameter ``options``: a JSON
    object of variant options such as ``{"max_plies": 200}``)."""

    variant: str = "chess"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        raw = params.get("options", "{}")
        try:
            self.dc_options = json.loads(raw) if isinstance(raw, str) else dict(raw)
        except json.JSONDecodeError as e:
            raise ValueError(f"options must be a JSON object, got {raw!r}") from e
        proto = _State(self.variant, **self.dc_options)
        self._proto = proto
        max_plies = proto.options.get("max_plies") or 10_000
        info = pyspiel.GameInfo(
            num_distinct_actions=proto.num_actions(),
            max_chance_outcomes=max(proto.max_chance_outcomes(), 1),
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=int(max_plies) * (1 + _CHANCE_PER_PLY),
        )
        super().__init__(_game_type(self.variant), info, {"options": json.dumps(self.dc_options)})
        self._obs_shape = proto.observation_tensor().shape

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        """Pickles as ``load_game(variant, **options)`` (the per-variant
        classes are made at registration, so pickle cannot name them)."""
        return (_load_game_json, (self.variant, json.dumps(self.dc_options)))

    def new_initial_state(self) -> DiceChessState:
        """The starting state."""
        return DiceChessState(self, self._proto.clone())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """An observer of the observation tensor (perfect information)."""
        return _Observer(self._obs_shape)


class DiceChessState(pyspiel.State):
    """A pyspiel state wrapping a ``dicechess.State`` (``.dc``)."""

    def __init__(self, game: DiceChessGame, dc_state: _State) -> None:
        super().__init__(game)
        self.dc = dc_state
        self._max_length = game.max_game_length()

    def _cut(self) -> bool:
        """The game reached ``max_game_length`` actions before its end."""
        return self.move_number() >= self._max_length and not self.dc.is_terminal()

    def current_player(self) -> int:
        """Player to decide, or ``pyspiel.PlayerId.CHANCE`` / ``TERMINAL``."""
        p = self.dc.current_player()
        if self._cut():
            return int(pyspiel.PlayerId.TERMINAL)
        if p == _core.CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if p == _core.TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return p

    def _legal_actions(self, player: int) -> list[int]:
        if self._cut():
            return []
        return self.dc.legal_actions() if self.dc.current_player() == player else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(outcome, probability)]`` at chance nodes."""
        return [] if self._cut() else self.dc.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.dc.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.dc.action_to_string(int(action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.dc.is_terminal() or self._cut()

    def returns(self) -> list[float]:
        """``[r0, r1]`` (+1 win, -1 loss, 0 otherwise)."""
        return [0.0, 0.0] if self._cut() else self.dc.returns()

    def __str__(self) -> str:
        return str(self.dc)


class _Observer:
    """OpenSpiel py-observer over ``observation_tensor``."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: DiceChessState, player: int) -> None:
        self.tensor[:] = state.dc.observation_tensor(player).reshape(-1)

    def string_from(self, state: DiceChessState, player: int) -> str:
        return f"{state.dc.fen()} | {state.dc.history()}"


_registered: dict[str, type[DiceChessGame]] = {}


def register_games() -> None:
    """Registers every variant with pyspiel (idempotent)."""
    for variant in _core.variants():
        if variant in _registered:
            continue
        cls = type(f"DiceChessGame_{variant}", (DiceChessGame,), {"variant": variant})
        pyspiel.register_game(_game_type(variant), cls)
        _registered[variant] = cls


def load_game(variant: str, **options: Any) -> Any:
    """``pyspiel.load_game`` for ``variant`` with variant options (e.g.
    ``max_plies=200``, ``fen=...``)."""
    if variant not in _core.variants():
        raise ValueError(f"unknown variant {variant!r}; valid: {', '.join(_core.variants())}")
    register_games()
    _State(variant, **options)  # validates the options with a clear error
    return pyspiel.load_game(game_name(variant), {"options": json.dumps(options)})


def _load_game_json(variant: str, options: str) -> Any:
    """``load_game(variant, **json.loads(options))``: unpickles a game."""
    return load_game(variant, **json.loads(options))


register_games()
